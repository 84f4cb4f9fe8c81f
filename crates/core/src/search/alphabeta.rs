//! Negamax alpha-beta with every classic enhancement switchable, iterative deepening with limits,
//! and Lazy SMP over a shared transposition table.
//!
//! With [`SearchOptions::none`] this is the textbook alpha-beta of the checkers article: moves in
//! generation order, fixed depth, no table. Each option then adds one idea:
//!
//! | option | what it does | changes the value? |
//! |---|---|---|
//! | `move_ordering` | static order from [`Evaluator::move_order`] (MVV-LVA), noisy moves first | no |
//! | `killers`, `history` | quiet moves that caused cut-offs are tried early | no |
//! | `tt` | transposition table: best move first, cut-offs on stored bounds | no (without transpositions across depths) |
//! | `iterative_deepening` | search depth 1, 2, ... (fills the table, enables time limits) | no |
//! | `pvs` | principal variation search: null windows after the first move | no |
//! | `aspiration` | root window around the previous score, widened on failure | no |
//! | `quiescence` | at the horizon, search noisy moves until quiet (stand pat) | yes: the oracle is [`super::minimax::minimax_with`] |
//! | `check_extension` | a position in check is searched one ply deeper | yes: same oracle |
//! | `null_move` | pass and search shallower; a fail-high prunes (needs [`NullMove`]) | selective |
//! | `lmr` | late quiet moves searched shallower first, re-searched on fail-high | selective |
//!
//! The equivalence tests in `tests/strategies.rs` check every combination of the exact options
//! against plain minimax.

use super::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use super::{NodeCounter, SearchControl, SearchInfo, SearchLimits, SearchResult, SearchStats};
use crate::eval::{is_mate_score, Evaluator, Score, INFINITY, MATE};
use crate::game::{Game, NullMove};
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Which enhancements an alpha-beta search uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Static move ordering from the evaluator (MVV-LVA), noisy moves first.
    pub move_ordering: bool,
    /// Two killer moves per ply.
    pub killers: bool,
    /// History heuristic for quiet moves.
    pub history: bool,
    /// Transposition table (move ordering and cut-offs).
    pub tt: bool,
    /// Iterative deepening (otherwise only the target depth is searched).
    pub iterative_deepening: bool,
    /// Principal variation search (null-window re-searches).
    pub pvs: bool,
    /// Aspiration windows at the root (needs iterative deepening).
    pub aspiration: bool,
    /// Null-move pruning (needs [`Searcher::with_null_move`] and [`Evaluator::null_move_ok`]).
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Quiescence search over noisy moves at the horizon.
    pub quiescence: bool,
    /// Extend positions in check by one ply.
    pub check_extension: bool,
    /// Transposition-table size in MiB.
    pub tt_mib: usize,
    /// Search threads (Lazy SMP when more than one).
    pub threads: usize,
}

impl SearchOptions {
    /// Plain alpha-beta: generation order, fixed depth, nothing else.
    pub fn none() -> Self {
        SearchOptions {
            move_ordering: false,
            killers: false,
            history: false,
            tt: false,
            iterative_deepening: false,
            pvs: false,
            aspiration: false,
            null_move: false,
            lmr: false,
            quiescence: false,
            check_extension: false,
            tt_mib: 16,
            threads: 1,
        }
    }

    /// Every enhancement on, one thread.
    pub fn all() -> Self {
        SearchOptions {
            move_ordering: true,
            killers: true,
            history: true,
            tt: true,
            iterative_deepening: true,
            pvs: true,
            aspiration: true,
            null_move: true,
            lmr: true,
            quiescence: true,
            check_extension: true,
            tt_mib: 16,
            threads: 1,
        }
    }

    /// Every enhancement that leaves the depth-limited value unchanged (no quiescence, extension,
    /// null move or LMR): the "exact" engine the equivalence tests compare with minimax.
    pub fn exact() -> Self {
        SearchOptions {
            null_move: false,
            lmr: false,
            quiescence: false,
            check_extension: false,
            ..Self::all()
        }
    }
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self::all()
    }
}

type NullHooks<G> = (
    fn(&mut G) -> <G as Game>::Undo,
    fn(&mut G, <G as Game>::Undo),
);

/// An alpha-beta searcher: evaluator, options and a transposition table kept between searches.
pub struct Searcher<G: Game, E: Evaluator<G>> {
    eval: E,
    options: SearchOptions,
    tt: Arc<TranspositionTable>,
    null: Option<NullHooks<G>>,
    _game: PhantomData<fn(G)>,
}

impl<G: Game, E: Evaluator<G>> Searcher<G, E> {
    /// A searcher with a fresh table of `options.tt_mib` MiB.
    pub fn new(eval: E, options: SearchOptions) -> Self {
        let tt = Arc::new(TranspositionTable::new(options.tt_mib));
        Searcher {
            eval,
            options,
            tt,
            null: None,
            _game: PhantomData,
        }
    }

    /// The options in use.
    pub fn options(&self) -> &SearchOptions {
        &self.options
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Changes the options (a new table size reallocates the table).
    pub fn set_options(&mut self, options: SearchOptions) {
        if options.tt_mib != self.options.tt_mib {
            self.tt = Arc::new(TranspositionTable::new(options.tt_mib));
        }
        self.options = options;
    }

    /// The shared transposition table.
    pub fn table(&self) -> &TranspositionTable {
        &self.tt
    }

    /// Forgets everything learnt (the table); the next search starts cold.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches `pos` within `limits`, calling `on_info` after every completed depth.
    pub fn search(
        &mut self,
        pos: &G,
        limits: &SearchLimits,
        mut on_info: impl FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        self.tt.new_search();
        let shared = SearchControl::new(limits);
        let threads = crate::platform::search_threads(self.options.threads);
        let mut result = if threads == 1 {
            let mut w = Worker::new(self, &shared, 0);
            w.iterate(pos, &mut on_info)
        } else {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..threads)
                    .map(|id| {
                        let shared = &shared;
                        let this = &*self;
                        let pos = pos.clone();
                        scope.spawn(move || {
                            let mut w = Worker::new(this, shared, id);
                            let r = w.iterate(&pos, &mut |_: &SearchInfo<G::Move>| {});
                            r.stats
                        })
                    })
                    .collect();
                let mut w = Worker::new(self, &shared, 0);
                let mut r = w.iterate(pos, &mut on_info);
                shared.stop.store(true, Ordering::Relaxed);
                for h in helpers {
                    if let Ok(stats) = h.join() {
                        r.stats.merge(&stats);
                    }
                }
                r
            })
        };
        result.stats.time = shared.start.elapsed();
        result
    }
}

impl<G: NullMove, E: Evaluator<G>> Searcher<G, E> {
    /// Enables null-move pruning for a game that can pass (still gated by the `null_move` option
    /// and [`Evaluator::null_move_ok`]).
    pub fn with_null_move(mut self) -> Self {
        self.null = Some((G::make_null, G::unmake_null));
        self
    }
}

const MAX_PLY: usize = 128;
const HISTORY_SIZE: usize = 1 << 12;
const ASPIRATION_DELTA: Score = 50;
/// A new iteration starts only while less than this fraction of the move time is spent; the
/// rest goes to the iteration under way, whose best root move so far is played if time runs out.
const SOFT_TIME: f64 = 0.6;

struct Worker<'a, G: Game, E: Evaluator<G>> {
    eval: &'a E,
    opts: &'a SearchOptions,
    tt: &'a TranspositionTable,
    null: Option<NullHooks<G>>,
    shared: &'a SearchControl,
    id: usize,
    stats: SearchStats,
    counter: NodeCounter,
    stopped: bool,
    root_depth: i32,
    /// The score of the best root move of the iteration under way.
    root_score: Score,
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<(i32, u16)>>,
    pv: Vec<Vec<G::Move>>,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i32>,
}

/// A cheap, deterministic hash of a move for the history table.
fn move_slot<M: Hash>(mv: &M) -> usize {
    struct Fx(u64);
    impl Hasher for Fx {
        fn finish(&self) -> u64 {
            self.0
        }
        fn write(&mut self, bytes: &[u8]) {
            for &b in bytes {
                self.0 =
                    (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
            }
        }
        fn write_u8(&mut self, i: u8) {
            self.write_u64(u64::from(i));
        }
        fn write_u16(&mut self, i: u16) {
            self.write_u64(u64::from(i));
        }
        fn write_u32(&mut self, i: u32) {
            self.write_u64(u64::from(i));
        }
        fn write_u64(&mut self, i: u64) {
            self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        fn write_usize(&mut self, i: usize) {
            self.write_u64(i as u64);
        }
    }
    let mut h = Fx(0);
    mv.hash(&mut h);
    (h.finish() >> 40) as usize & (HISTORY_SIZE - 1)
}

impl<'a, G: Game, E: Evaluator<G>> Worker<'a, G, E> {
    fn new(s: &'a Searcher<G, E>, shared: &'a SearchControl, id: usize) -> Self {
        Worker {
            eval: &s.eval,
            opts: &s.options,
            tt: &s.tt,
            null: s.null,
            shared,
            id,
            stats: SearchStats::default(),
            counter: NodeCounter::default(),
            stopped: false,
            root_depth: 0,
            root_score: 0,
            moves: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            killers: vec![[None, None]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
        }
    }

    /// Runs the depth iterations and returns the last completed one.
    fn iterate(
        &mut self,
        root: &G,
        on_info: &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> SearchResult<G::Move> {
        let limits = &self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(SearchLimits::MAX_DEPTH)
            .clamp(1, SearchLimits::MAX_DEPTH);
        let mut pos = root.clone();
        let mut best: Option<(Score, Vec<G::Move>)> = None;
        let first = if self.opts.iterative_deepening {
            1 + (self.id as u32 % 2)
        } else {
            max_depth
        };
        let mut prev_score = 0;
        for depth in first..=max_depth {
            self.root_depth = depth as i32;
            let score = if self.opts.aspiration && depth > first && !is_mate_score(prev_score) {
                self.aspiration(&mut pos, depth as i32, prev_score)
            } else {
                self.negamax(&mut pos, depth as i32, -INFINITY, INFINITY, 0, true)
            };
            if self.stopped {
                // An interrupted iteration counts when a root move was searched to the end and
                // beat the window: it is then at least as good as the last iteration's choice
                // (the root's first move is that choice, from the table).
                if !self.pv[0].is_empty() {
                    best = Some((self.root_score, self.pv[0].clone()));
                }
                break;
            }
            prev_score = score;
            self.stats.depth = depth;
            best = Some((score, self.pv[0].clone()));
            if self.id == 0 {
                let mut stats = self.stats.clone();
                stats.nodes = self.total_nodes();
                stats.time = self.shared.start.elapsed();
                on_info(&SearchInfo {
                    depth,
                    score,
                    pv: self.pv[0].clone(),
                    stats,
                });
            }
            if self.pv[0].is_empty() || self.shared.soft_time_up_by(SOFT_TIME) {
                break;
            }
        }
        let (score, pv) = best.unwrap_or_else(|| {
            let mut moves = Vec::new();
            root.legal_moves(&mut moves);
            (0, moves.first().copied().into_iter().collect())
        });
        self.counter.flush(self.shared);
        SearchResult {
            best_move: pv.first().copied(),
            score,
            pv,
            stats: self.stats.clone(),
        }
    }

    fn aspiration(&mut self, pos: &mut G, depth: i32, guess: Score) -> Score {
        let mut delta = ASPIRATION_DELTA;
        let mut alpha = (guess - delta).max(-INFINITY);
        let mut beta = (guess + delta).min(INFINITY);
        loop {
            let score = self.negamax(pos, depth, alpha, beta, 0, true);
            if self.stopped {
                return score;
            }
            if score <= alpha && alpha > -INFINITY {
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    fn total_nodes(&self) -> u64 {
        self.counter.total(self.shared)
    }

    #[inline]
    fn count_node(&mut self, ply: usize) {
        if self.counter.count(self.shared, &mut self.stats, ply) {
            self.stopped = true;
        }
    }

    fn ordering_on(&self) -> bool {
        self.opts.move_ordering || self.opts.killers || self.opts.history || self.opts.tt
    }

    fn negamax(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        allow_null: bool,
    ) -> Score {
        self.count_node(ply);
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        if ply > 0 {
            if let Some(score) = self.eval.rule_score(pos, ply) {
                return score;
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as Score);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY {
            return if pos.is_over() {
                self.eval.terminal_score(pos, ply)
            } else {
                self.eval.evaluate(pos)
            };
        }
        let in_check = (self.opts.check_extension || self.opts.null_move || self.opts.quiescence)
            && self.eval.in_check(pos);
        if self.opts.check_extension && in_check && (ply as i32) < 2 * self.root_depth {
            depth += 1;
        }
        if depth <= 0 {
            return if self.opts.quiescence {
                self.stats.qnodes += 1;
                self.quiescence(pos, alpha, beta, ply, false)
            } else if pos.is_over() {
                self.eval.terminal_score(pos, ply)
            } else {
                self.eval.evaluate(pos)
            };
        }
        let is_pv = beta - alpha > 1;
        let alpha_orig = alpha;
        let key = pos.hash();
        let mut tt_index = None;
        if self.opts.tt {
            self.stats.tt_probes += 1;
            if let Some(e) = self.tt.probe(key) {
                self.stats.tt_hits += 1;
                tt_index = e.move_index;
                if ply > 0 && i32::from(e.depth) >= depth {
                    let s = score_from_tt(e.score, ply);
                    if e.bound.cuts(s, alpha, beta) {
                        return s;
                    }
                }
            }
        }
        if let Some((make_null, unmake_null)) = self.null {
            if self.opts.null_move
                && allow_null
                && !is_pv
                && !in_check
                && depth >= 3
                && !is_mate_score(beta)
                && self.eval.null_move_ok(pos)
                && self.eval.evaluate(pos) >= beta
            {
                let r = 2 + depth / 6;
                let undo = make_null(pos);
                let score = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                unmake_null(pos, undo);
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if is_mate_score(score) { beta } else { score };
                }
            }
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return self.eval.terminal_score(pos, ply);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        let ordering = self.ordering_on();
        if ordering {
            for (i, &mv) in moves.iter().enumerate() {
                scores.push((self.order_score(pos, mv, i, tt_index, ply), i as u16));
            }
        }

        let mut best = -INFINITY;
        let mut best_index = None;
        for (searched, k) in (0..moves.len()).enumerate() {
            let index = if ordering {
                let mut b = k;
                for j in k + 1..scores.len() {
                    if scores[j].0 > scores[b].0 {
                        b = j;
                    }
                }
                scores.swap(k, b);
                scores[k].1 as usize
            } else {
                k
            };
            let mv = moves[index];
            let noisy = (self.opts.lmr || self.opts.killers || self.opts.history)
                && self.eval.is_noisy(pos, mv);
            let undo = pos.make(mv);
            let score = if searched == 0 {
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true)
            } else {
                let reduction =
                    if self.opts.lmr && depth >= 3 && searched >= 3 && !noisy && !in_check {
                        1 + i32::from(searched >= 8 && depth >= 5)
                    } else {
                        0
                    };
                if self.opts.pvs {
                    let mut s = -self.negamax(
                        pos,
                        depth - 1 - reduction,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        true,
                    );
                    if s > alpha && reduction > 0 {
                        s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                    }
                    if s > alpha && s < beta {
                        s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true);
                    }
                    s
                } else {
                    let mut s =
                        -self.negamax(pos, depth - 1 - reduction, -beta, -alpha, ply + 1, true);
                    if s > alpha && reduction > 0 {
                        s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true);
                    }
                    s
                }
            };
            pos.unmake(mv, undo);
            if self.stopped {
                self.moves[ply] = moves;
                self.scores[ply] = scores;
                return 0;
            }
            if score > best {
                best = score;
                best_index = Some(index as u16);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_score = score;
                    }
                    if score >= beta {
                        if !noisy {
                            self.reward_quiet(mv, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.opts.tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha_orig {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt.store(
                key,
                best_index,
                score_to_tt(best, ply),
                depth.clamp(0, 255) as u8,
                bound,
            );
        }
        best
    }

    /// The PV at `ply` becomes `mv` followed by the child's PV.
    fn update_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    fn order_score(&self, pos: &G, mv: G::Move, index: usize, tt: Option<u16>, ply: usize) -> i32 {
        if tt == Some(index as u16) {
            return 1 << 30;
        }
        let base = if self.opts.move_ordering {
            self.eval.move_order(pos, mv)
        } else {
            0
        };
        if self.opts.move_ordering && self.eval.is_noisy(pos, mv) {
            return (1 << 24) + base;
        }
        if self.opts.killers {
            let k = &self.killers[ply];
            if k[0] == Some(mv) {
                return (1 << 23) + 1;
            }
            if k[1] == Some(mv) {
                return 1 << 23;
            }
        }
        let h = if self.opts.history {
            self.history[move_slot(&mv)]
        } else {
            0
        };
        base + h
    }

    fn reward_quiet(&mut self, mv: G::Move, depth: i32, ply: usize) {
        if self.opts.killers {
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        if self.opts.history {
            let slot = move_slot(&mv);
            self.history[slot] = (self.history[slot] + depth * depth).min(1 << 20);
        }
    }

    /// Quiescence search; `entered` is false when called in place of a horizon node that has
    /// already been counted and checked for rule scores.
    fn quiescence(
        &mut self,
        pos: &mut G,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        entered: bool,
    ) -> Score {
        if entered {
            self.count_node(ply);
            self.stats.qnodes += 1;
            self.pv[ply].clear();
            if self.stopped {
                return 0;
            }
        }
        if pos.is_over() {
            return self.eval.terminal_score(pos, ply);
        }
        if entered {
            if let Some(score) = self.eval.rule_score(pos, ply) {
                return score;
            }
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(pos);
        }
        let in_check = self.eval.in_check(pos);
        let mut best = -INFINITY;
        if !in_check {
            best = self.eval.evaluate(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        pos.legal_moves(&mut moves);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        for (i, &mv) in moves.iter().enumerate() {
            if in_check || self.eval.is_noisy(pos, mv) {
                scores.push((self.eval.move_order(pos, mv), i as u16));
            }
        }
        scores.sort_by_key(|&(score, _)| std::cmp::Reverse(score));
        for k in 0..scores.len() {
            let mv = moves[scores[k].1 as usize];
            let undo = pos.make(mv);
            let score = -self.quiescence(pos, -beta, -alpha, ply + 1, true);
            pos.unmake(mv, undo);
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.stopped {
            return 0;
        }
        best
    }
}
