//! One search thread: iterative deepening at the root and the recursive alpha-beta with the
//! selective ideas of [`super::SearchConfig`].

use super::ordering::{Reductions, Tables, MAX_PLY};
use super::{CheckersNode, Search, SearchConfig, SelectiveStats};
use crate::movegen::Move;
use crate::rules::QUIET_PLY_LIMIT;
use qiyi_core::eval::{Evaluator, Score, INFINITY, MATE};
use qiyi_core::search::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use qiyi_core::search::{
    NodeCounter, SearchControl, SearchInfo, SearchLimits, SearchResult, SearchStats,
};

/// A new iteration starts only while less than this fraction of the move time is spent; the
/// rest goes to the iteration under way, whose best root move so far is played if time runs out.
const SOFT_TIME: f64 = 0.6;
/// The first aspiration half-window, in hundredths of a man.
const ASPIRATION_DELTA: Score = 25;
/// Scores beyond this are database results or wins: no margin applies to them.
const DECIDED: Score = 10_000;
/// Ordering score of the table move.
const TT_MOVE: i32 = 1 << 30;
/// Ordering scores at or above this (killers, counter-move, promotions) are never reduced.
const SPECIAL: i32 = 1 << 21;
/// History scores beyond ±this change a reduction by one ply.
const HISTORY_TRUST: i32 = 4_000;

/// One search thread.
pub(super) struct Worker<'a, G: CheckersNode, E: Evaluator<G>> {
    eval: &'a E,
    cfg: &'a SearchConfig,
    red: &'a Reductions,
    tt: &'a TranspositionTable,
    shared: &'a SearchControl,
    id: usize,
    /// The ordering memory (given back to the searcher after the search).
    pub(super) tables: Tables,
    /// What the selective ideas did.
    pub(super) sel: SelectiveStats,
    stats: SearchStats,
    counter: NodeCounter,
    stopped: bool,
    root_depth: i32,
    /// The score of the best root move of the iteration under way.
    root_score: Score,
    moves: Vec<Vec<Move>>,
    order: Vec<Vec<(i32, u16)>>,
    pv: Vec<Vec<Move>>,
    /// `prev[ply]`: the move that led to the node at `ply`.
    prev: Vec<Option<Move>>,
    /// Root moves left out of this search.
    exclude: &'a [Move],
    _g: std::marker::PhantomData<fn(G)>,
}

impl<'a, G: CheckersNode, E: Evaluator<G>> Worker<'a, G, E> {
    pub(super) fn new(
        s: &'a Search<G, E>,
        shared: &'a SearchControl,
        id: usize,
        tables: Tables,
    ) -> Self {
        Worker {
            eval: &s.eval,
            cfg: &s.config,
            red: &s.reductions,
            tt: &s.tt,
            shared,
            id,
            tables,
            sel: SelectiveStats::default(),
            stats: SearchStats::default(),
            counter: NodeCounter::default(),
            stopped: false,
            root_depth: 0,
            root_score: 0,
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(32)).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(32)).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            prev: vec![None; MAX_PLY + 2],
            exclude: &s.exclude,
            _g: std::marker::PhantomData,
        }
    }

    /// Runs the depth iterations and returns the last completed one (or the better part of an
    /// interrupted one).
    pub(super) fn iterate(
        &mut self,
        root: &G,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        let limits = &self.shared.limits;
        let max_depth = limits
            .depth
            .unwrap_or(SearchLimits::MAX_DEPTH)
            .clamp(1, (MAX_PLY / 2) as u32);
        let mut pos = root.clone();
        let mut best: Option<(Score, Vec<Move>)> = None;
        let first = (1 + (self.id as u32 % 2)).min(max_depth);
        let mut prev_score: Score = 0;
        for depth in first..=max_depth {
            self.root_depth = depth as i32;
            let score = if self.cfg.aspiration && depth >= 4 && prev_score.abs() < DECIDED {
                self.aspiration(&mut pos, depth as i32, prev_score)
            } else {
                self.node(&mut pos, depth as i32, -INFINITY, INFINITY, 0, false, false)
            };
            if self.stopped {
                // An interrupted iteration counts when a root move was searched to the end and
                // beat the window: it is then at least as good as the last iteration's choice.
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
                stats.nodes = self.counter.total(self.shared);
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
            root.checkers().board().generate(&mut moves);
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
            let score = self.node(pos, depth, alpha, beta, 0, false, false);
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
            if delta > 400 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    #[inline]
    fn count_node(&mut self, ply: usize) {
        if self.counter.count(self.shared, &mut self.stats, ply) {
            self.stopped = true;
        }
    }

    /// Extensions stop at twice the nominal depth, so no line grows without bound.
    #[inline]
    fn extend_ok(&self, ply: usize) -> bool {
        (ply as i32) < 2 * self.root_depth
    }

    /// The alpha-beta search of the node at `ply`. `depth <= 0` is the capture resolution
    /// (a node at exactly 0 may still get the threat extension); `prev_capture` says the move
    /// that led here was a capture; `no_prune` keeps the verified pruning from calling itself
    /// on the same node.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        prev_capture: bool,
        no_prune: bool,
    ) -> Score {
        self.count_node(ply);
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        let board = *pos.checkers().board();
        let lost = -MATE + ply as Score;
        if ply > 0 {
            if pos.checkers().quiet_plies() >= QUIET_PLY_LIMIT {
                return if board.has_moves() { 0 } else { lost };
            }
            if let Some(score) = self.eval.rule_score(pos, ply) {
                return score;
            }
            // Mate-distance pruning: no line from here beats a win already found nearer the root.
            alpha = alpha.max(lost);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let captures = board.has_capture();
        if ply >= MAX_PLY - 1 {
            return if captures || board.has_moves() {
                self.eval.evaluate(pos)
            } else {
                lost
            };
        }
        if depth <= 0 && !captures {
            if !board.has_moves() {
                return lost;
            }
            if depth == 0
                && self.cfg.threat_extension
                && self.extend_ok(ply)
                && board.threats() != 0
            {
                self.sel.threat_extensions += 1;
                depth = 1;
            } else {
                self.stats.qnodes += 1;
                return self.eval.evaluate(pos);
            }
        }
        let main = depth >= 1;
        let pv_node = beta - alpha > 1;
        let key = board.hash();
        let mut tt_move = None;
        if main {
            self.stats.tt_probes += 1;
            if let Some(e) = self.tt.probe(key) {
                self.stats.tt_hits += 1;
                tt_move = e.move_index;
                if self.cfg.tt_cutoffs && !pv_node && ply > 0 && i32::from(e.depth) >= depth {
                    let s = score_from_tt(e.score, ply);
                    if e.bound.cuts(s, alpha, beta) {
                        return s;
                    }
                }
            }
        }

        // Verified pruning: far above beta (or below alpha) by the static score, and a
        // shallower search agrees.
        if (self.cfg.prune || self.cfg.razor)
            && main
            && !pv_node
            && !no_prune
            && !captures
            && ply > 0
            && depth >= 3
            && beta.abs() < DECIDED
        {
            let margin = self.cfg.prune_margin;
            let verify = (depth - self.cfg.prune_reduction).max(1);
            let stand = self.eval.evaluate(pos);
            if self.cfg.prune && stand >= beta + margin {
                self.sel.prune_tries += 1;
                let m = beta + margin;
                let v = self.node(pos, verify, m - 1, m, ply, prev_capture, true);
                if self.stopped {
                    return 0;
                }
                if v >= m {
                    self.sel.prunes += 1;
                    return v;
                }
            } else if self.cfg.razor && stand <= alpha - margin {
                self.sel.prune_tries += 1;
                let m = alpha - margin;
                let v = self.node(pos, verify, m, m + 1, ply, prev_capture, true);
                if self.stopped {
                    return 0;
                }
                if v <= m {
                    self.sel.prunes += 1;
                    return v;
                }
            }
        }

        // Internal iterative deepening: a shallower search finds a first move to try.
        if self.cfg.iid && main && tt_move.is_none() && depth >= if pv_node { 5 } else { 7 } {
            self.node(pos, depth - 4, alpha, beta, ply, prev_capture, true);
            if self.stopped {
                return 0;
            }
            tt_move = self.tt.probe(key).and_then(|e| e.move_index);
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        board.generate(&mut moves);
        if ply == 0 && !self.exclude.is_empty() {
            moves.retain(|m| !self.exclude.contains(m));
        }
        if moves.is_empty() {
            self.moves[ply] = moves;
            return lost;
        }
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        let prev = self.prev[ply];
        let killers = self.tables.killers(ply);
        let counter = if self.cfg.countermoves {
            self.tables.counter(&board, prev)
        } else {
            None
        };
        for (i, &mv) in moves.iter().enumerate() {
            let s = if tt_move == Some(i as u16) {
                TT_MOVE
            } else if captures {
                self.eval.move_order(pos, mv)
            } else if killers[0] == Some(mv) {
                SPECIAL + 3
            } else if killers[1] == Some(mv) {
                SPECIAL + 2
            } else if counter == Some(mv) {
                SPECIAL + 1
            } else if self.eval.move_order(pos, mv) > 0 {
                // A man crowned.
                SPECIAL
            } else {
                self.tables.history(&board, mv)
            };
            order.push((s, i as u16));
        }

        let threatened = !captures && board.threats() != 0;
        let n = moves.len();
        let extend = main && self.extend_ok(ply);
        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_index = None;
        for k in 0..n {
            let mut b = k;
            for j in k + 1..n {
                if order[j].0 > order[b].0 {
                    b = j;
                }
            }
            order.swap(k, b);
            let (ord, idx) = order[k];
            let idx = idx as usize;
            let mv = moves[idx];
            let mut ext = 0;
            if extend {
                if captures && self.cfg.capture_extension && (pv_node || prev_capture) {
                    self.sel.capture_extensions += 1;
                    ext = 1;
                } else if n == 1 && self.cfg.single_reply_extension {
                    self.sel.single_extensions += 1;
                    ext = 1;
                }
            }
            let new_depth = depth - 1 + ext;
            let undo = pos.make(mv);
            self.prev[ply + 1] = Some(mv);
            let score = if k == 0 {
                -self.node(pos, new_depth, -beta, -alpha, ply + 1, captures, false)
            } else {
                let mut r = 0;
                if self.cfg.lmr && main && !captures && !threatened && depth >= 3 && ord < SPECIAL {
                    r = self.red.get(depth, k);
                    if pv_node {
                        r -= 1;
                    }
                    if ord > HISTORY_TRUST {
                        r -= 1;
                    } else if ord < -HISTORY_TRUST {
                        r += 1;
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                if r > 0 {
                    self.sel.reductions += 1;
                }
                let mut s = -self.node(
                    pos,
                    new_depth - r,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    captures,
                    false,
                );
                if s > alpha && r > 0 && !self.stopped {
                    self.sel.re_searches += 1;
                    s = -self.node(pos, new_depth, -alpha - 1, -alpha, ply + 1, captures, false);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.node(pos, new_depth, -beta, -alpha, ply + 1, captures, false);
                }
                s
            };
            pos.unmake(mv, undo);
            if self.stopped {
                self.moves[ply] = moves;
                self.order[ply] = order;
                return 0;
            }
            if score > best {
                best = score;
                best_index = Some(idx as u16);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_score = score;
                    }
                    if score >= beta {
                        if main && !captures {
                            let tried = order[..k].iter().map(|&(_, i)| moves[i as usize]);
                            self.tables.reward(&board, mv, prev, ply, depth, tried);
                        }
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        self.order[ply] = order;
        // A root restricted to some moves is not the position's value: keep it out of the table.
        if main && (ply != 0 || self.exclude.is_empty()) {
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
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }
}
