//! The full-strength Xiangqi search: principal-variation alpha-beta written for this board.
//!
//! Core's generic [`qiyi_core::search::Searcher`] asks the rules for the complete legal move list
//! and the game outcome at every node (including every quiescence node), which costs more than
//! the search itself. This search keeps core's vocabulary (its shared lock-free
//! [`TranspositionTable`], [`SearchLimits`], [`SearchInfo`], [`SearchResult`]) and adds what makes
//! a chess engine strong:
//!
//! - quiescence over captures (pseudo-legal captures, legality checked lazily, losing
//!   captures by static exchange evaluation ([`see`]) and hopeless ones (delta) pruned) plus,
//!   at its first ply, quiet checking moves; full check evasions and mate detection when in
//!   check; quiescence results stored in the table at depth 0, with cut-offs in zero-window
//!   quiescence nodes;
//! - PVS with aspiration windows, TT cut-offs, check extension, single-reply extension (in
//!   check with one legal move), mate-distance pruning, internal iterative reduction (no table
//!   move: one ply less);
//! - null move (reduction 3 + depth/4 + a margin term) with a verification search at high depth
//!   (its refutation also flags a mate threat, which turns off the static pruning and eases
//!   reductions at that node), reverse futility (a [`SearchTweaks`] switch can turn it off near
//!   an attacked general, see [`king_danger`]), futility and move-count pruning of quiet moves near the leaves (never of moves
//!   that give check, including losing captures that check), all scaled by whether the static
//!   score is improving; logarithmic late-move reductions, one ply more when not improving and
//!   one less for killers, good history, pieces stepping out of an attack and moves that attack
//!   a bigger enemy piece (chases and threats);
//! - ordering: TT move, winning/equal captures (MVV-LVA), killers, countermove, history, losing
//!   captures last;
//! - the rules inside the search: 60-move rule, no attackers left, and repetitions scored by the
//!   perpetual check/chase verdict ([`Position::cycle_verdict`]);
//! - Lazy SMP over the shared table;
//! - [`SearchTweaks`]: switches of these heuristics for A/B tests (`xq_dev blunders` screens
//!   them on a fixed-node blunder set).

use crate::board::*;
use crate::nnue::NetStack;
use crate::position::{Move, Position};
use crate::rules::MOVE_LIMIT_PLIES;
use qiyi_core::eval::{is_mate_score, Evaluator, Score, INFINITY, MATE};
use qiyi_core::learn::QuantNet;
use qiyi_core::search::tt::{score_from_tt, score_to_tt, Bound, TranspositionTable};
use qiyi_core::search::{
    NodeCounter, SearchControl, SearchInfo, SearchLimits, SearchResult, SearchStats,
};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// What the search asks of a Xiangqi evaluator beyond core's hooks: how to finish a score the
/// network gave (when the search runs a net, [`XiangqiSearch::set_net`]), e.g. by adding the
/// noise of a weaker level. The default keeps the network's score.
pub trait SearchEval: Evaluator<Position> {
    /// The score the search uses for `pos` when the network scored it `raw` (side to move's
    /// view, centipawns).
    #[inline]
    fn net_score(&self, _pos: &Position, raw: Score) -> Score {
        raw
    }
}

impl SearchEval for crate::eval::Evaluation {}

/// What one quiescence child did to its parent's loop.
enum QuiescenceStep {
    /// Keep searching the next move.
    Continue,
    /// Beta cut-off: the parent returns its best score.
    Cutoff,
    /// The search must stop.
    Stopped,
}

/// Deepest ply the search reaches (quiescence included).
const MAX_PLY: usize = 100;
/// What winning by a repetition rule (perpetual check or chase) is worth: less than any mate.
pub const RULE_WIN: Score = 20_000;

/// Values for static exchange evaluation and MVV-LVA, indexed by kind code.
const SEE_VALUE: [Score; 8] = [10_000, 200, 200, 400, 900, 450, 100, 0];

#[inline]
fn kind_at(b: &[u8; 256], sq: u8) -> u8 {
    CELL_KIND[b[sq as usize] as usize]
}

/// Whether the piece `code` standing on `p` attacks `s` on board `b`.
fn attacks(b: &[u8; 256], code: u8, p: u8, s: u8) -> bool {
    let ci = if code & RED_BIT != 0 { 0 } else { 1 };
    let d = s as i16 - p as i16;
    match CELL_KIND[code as usize] {
        K_PAWN => d == FORWARD[ci] || (!OWN_HALF[ci][p as usize] && (d == 1 || d == -1)),
        K_ADVISOR => matches!(d, 15 | 17 | -15 | -17) && IN_PALACE[ci][s as usize],
        K_ELEPHANT => {
            matches!(d, 30 | 34 | -30 | -34)
                && OWN_HALF[ci][s as usize]
                && b[step(p, d / 2) as usize] == EMPTY
        }
        K_HORSE => HORSE_JUMPS
            .iter()
            .any(|&(j, leg)| j == d && b[step(p, leg) as usize] == EMPTY),
        K_KING => matches!(d, 1 | -1 | 16 | -16) && IN_PALACE[ci][s as usize],
        K_ROOK | K_CANNON => {
            let dir = if (p ^ s) & 0x0F == 0 {
                if d > 0 {
                    16
                } else {
                    -16
                }
            } else if (p ^ s) & 0xF0 == 0 {
                if d > 0 {
                    1
                } else {
                    -1
                }
            } else {
                return false;
            };
            let mut between = 0;
            let mut t = step(p, dir);
            while t != s {
                if b[t as usize] != EMPTY {
                    between += 1;
                    if between > 1 {
                        return false;
                    }
                }
                t = step(t, dir);
            }
            if CELL_KIND[code as usize] == K_ROOK {
                between == 0
            } else {
                between == 1
            }
        }
        _ => false,
    }
}

/// Slots of a side in the order SEE tries them: cheapest attacker first.
const SEE_ORDER: [u8; 16] = [11, 12, 13, 14, 15, 1, 2, 3, 4, 5, 6, 9, 10, 7, 8, 0];

/// The rank of each slot in [`SEE_ORDER`].
const SEE_RANK: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut i = 0;
    while i < 16 {
        t[SEE_ORDER[i] as usize] = i as u8;
        i += 1;
    }
    t
};

/// The square of `color`'s least valuable piece attacking `s` on board `b` (pins ignored): the
/// first in [`SEE_ORDER`], found by scanning outward from `s` (only the board is read, so a SEE
/// scratch board needs no piece list).
fn least_attacker(b: &[u8; 256], s: u8, color: Color) -> Option<u8> {
    crate::movegen::best_attacker(b, s, color, &SEE_RANK)
}

/// [`least_attacker`] by trying every piece of `color` in [`SEE_ORDER`] (the reference).
#[cfg(test)]
fn least_attacker_by_pieces(b: &[u8; 256], squares: &[u8; 32], s: u8, color: Color) -> Option<u8> {
    let bit = side_bit(color);
    for &slot in SEE_ORDER.iter() {
        let code = bit | slot;
        let p = squares[code_index(code)];
        if p != 0 && p != s && b[p as usize] == code && attacks(b, code, p, s) {
            return Some(p);
        }
    }
    None
}

/// Static exchange evaluation of the capture `mv`: the material the mover nets when both sides
/// keep recapturing on the target point with their cheapest attacker (x-rays and cannon screens
/// follow from replaying on a scratch board; pins are ignored).
pub fn see(pos: &Position, mv: Move) -> Score {
    let mut b = pos.board;
    let s = mv.to;
    let mut gain = [0 as Score; 34];
    gain[0] = SEE_VALUE[kind_at(&b, s) as usize];
    let mut on_square = SEE_VALUE[kind_at(&b, mv.from) as usize];
    b[s as usize] = b[mv.from as usize];
    b[mv.from as usize] = EMPTY;
    let mut side = pos.side.opposite();
    let mut d = 0;
    while let Some(p) = least_attacker(&b, s, side) {
        d += 1;
        gain[d] = on_square - gain[d - 1];
        if (-gain[d - 1]).max(gain[d]) < 0 || d >= 32 {
            break;
        }
        on_square = SEE_VALUE[kind_at(&b, p) as usize];
        b[s as usize] = b[p as usize];
        b[p as usize] = EMPTY;
        side = side.opposite();
    }
    while d > 0 {
        gain[d - 1] = -((-gain[d - 1]).max(gain[d]));
        d -= 1;
    }
    gain[0]
}

/// Whether the capture `mv` cannot lose material (cheap cases first, SEE otherwise).
#[inline]
fn capture_is_safe(pos: &Position, mv: Move) -> bool {
    let victim = SEE_VALUE[kind_at(&pos.board, mv.to) as usize];
    let attacker = SEE_VALUE[kind_at(&pos.board, mv.from) as usize];
    victim >= attacker || see(pos, mv) >= 0
}

/// Whether `mv` (pseudo-legal, for the side to move) checks the enemy general: only the lines,
/// horse legs and direct attacks the move changes are examined (see
/// [`Position::move_gives_check`]); nothing is made.
#[inline]
fn gives_check(pos: &mut Position, mv: Move) -> bool {
    let k = pos.squares[code_index(code_of(pos.side.opposite(), 0))];
    k != 0 && pos.move_gives_check(mv, k)
}

#[inline]
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    SEE_VALUE[kind_at(&pos.board, mv.to) as usize] * 16
        - SEE_VALUE[kind_at(&pos.board, mv.from) as usize] / 16
}

fn has_major_piece(pos: &Position) -> bool {
    let base = code_index(side_bit(pos.side));
    (5..11).any(|slot| pos.squares[base + slot] != 0)
}

#[inline]
fn encode(mv: Move) -> u16 {
    (u16::from(mv.from) << 8) | u16::from(mv.to)
}

#[inline]
fn decode(m: u16) -> Move {
    Move {
        from: (m >> 8) as u8,
        to: (m & 0xFF) as u8,
    }
}

/// The score of the position by the rules when the search must stop here (`ply` > 0): the
/// 60-move rule and no attackers draw; a repeated position scores by its cycle's verdict.
fn rule_score(pos: &Position, ply: usize) -> Option<Score> {
    if pos.halfmove >= MOVE_LIMIT_PLIES {
        return Some(0);
    }
    let h = &pos.history;
    let n = h.len();
    let end = (pos.halfmove as usize).min(n);
    let mut j = 1;
    let mut repeated = false;
    while j <= end {
        let e = &h[n - j];
        if e.mv.is_null() {
            break;
        }
        if j >= 4 && j % 2 == 0 && e.hash == pos.hash {
            repeated = true;
            break;
        }
        j += 1;
    }
    if repeated {
        let verdict = pos.cycle_verdict()?;
        return Some(match verdict.winner {
            None => 0,
            Some(c) if c == pos.side => RULE_WIN - ply as Score,
            Some(_) => -RULE_WIN + ply as Score,
        });
    }
    if pos.halfmove == 0 && !pos.any_attacker() {
        return Some(0);
    }
    None
}

/// The selection key of move `index` with ordering score `score` at point `pos` of the working
/// array: higher scores first, then earlier points (`pos`, `index` < 256).
#[inline]
fn sort_key(score: i32, pos: usize, index: usize) -> i64 {
    (i64::from(score) << 16) | ((255 - pos as i64) << 8) | index as i64
}

/// Whether the piece that just moved to `to` attacks an enemy piece worth more than itself
/// (a horse, chariot or cannon; the side to move on `b` is the enemy).
fn threatens_bigger(b: &[u8; 256], squares: &[u8; 32], to: u8) -> bool {
    let code = b[to as usize];
    let mine = SEE_VALUE[CELL_KIND[code as usize] as usize];
    let enemy_bit = if code & RED_BIT != 0 {
        side_bit(Color::Black)
    } else {
        side_bit(Color::Red)
    };
    // Slots 5..=10: the two horses, the two chariots and the two cannons.
    (5..=10u8).any(|slot| {
        let target = enemy_bit | slot;
        let s = squares[code_index(target)];
        s != 0
            && b[s as usize] == target
            && SEE_VALUE[CELL_KIND[target as usize] as usize] > mine
            && attacks(b, code, to, s)
    })
}

/// Late-move reduction for a depth and a move number (`div` divides the log product).
fn lmr_reduction(depth: i32, searched: usize, div: f64) -> i32 {
    let d = f64::from(depth.clamp(1, 63));
    let m = (searched.clamp(1, 63)) as f64;
    (0.6 + d.ln() * m.ln() / div) as i32
}

/// Switches of the search heuristics, for A/B tests ([`XiangqiSearch::set_tweaks`]); the
/// default is what the engine plays.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchTweaks {
    /// King danger (enemy chariots, horses, cannons and crossed soldiers in the side to move's
    /// palace zone, see [`king_danger`]) from which a node prunes no quiet move and reduces one
    /// ply less; 0 turns it off.
    pub danger: u8,
    /// King danger from which reverse futility pruning is off (0: never off).
    pub rfp_danger: u8,
    /// Extend a node by one ply when the null move reveals a mate threat.
    pub mate_threat_ext: bool,
    /// Base null-move reduction.
    pub null_r: i32,
    /// Divisor of the late-move reduction formula (bigger reduces less).
    pub lmr_div: f64,
    /// Reverse futility pruning.
    pub rfp: bool,
    /// Futility pruning of quiet moves.
    pub futility: bool,
    /// Move-count pruning of late quiet moves.
    pub lmp: bool,
    /// Quiet moves into the enemy palace zone are neither pruned nor reduced extra.
    pub attack_moves: bool,
}

impl Default for SearchTweaks {
    fn default() -> Self {
        SearchTweaks {
            danger: 0,
            rfp_danger: 0,
            mate_threat_ext: false,
            null_r: 3,
            lmr_div: 2.2,
            rfp: true,
            futility: true,
            lmp: true,
            attack_moves: false,
        }
    }
}

impl SearchTweaks {
    /// Applies a comma-separated list of `name=value` settings (`danger=3,null_r=2,rfp=0`...);
    /// returns the first setting it does not understand.
    pub fn apply(&mut self, list: &str) -> Result<(), String> {
        for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item.split_once('=').unwrap_or((item, "1"));
            let flag = || v != "0";
            let bad = || item.to_string();
            match k {
                "danger" => self.danger = v.parse().map_err(|_| bad())?,
                "rfp_danger" => self.rfp_danger = v.parse().map_err(|_| bad())?,
                "mate_threat_ext" => self.mate_threat_ext = flag(),
                "null_r" => self.null_r = v.parse().map_err(|_| bad())?,
                "lmr_div" => self.lmr_div = v.parse().map_err(|_| bad())?,
                "rfp" => self.rfp = flag(),
                "futility" => self.futility = flag(),
                "lmp" => self.lmp = flag(),
                "attack_moves" => self.attack_moves = flag(),
                _ => return Err(bad()),
            }
        }
        Ok(())
    }
}

/// Whether mailbox point `sq` lies in `color`'s palace zone: files c-g, `color`'s three home
/// ranks plus the one in front.
#[inline]
fn in_palace_zone(sq: u8, color: Color) -> bool {
    let (f, r) = (mb_file(sq), mb_rank(sq));
    let r = match color {
        Color::Red => r,
        Color::Black => 9 - r,
    };
    (2..=6).contains(&f) && r <= 3
}

/// How many enemy attackers (chariots, horses, cannons, soldiers) stand in the palace zone of
/// the side to move, plus enemy chariots and cannons on its general's file.
pub fn king_danger(pos: &Position) -> u8 {
    let us = pos.side;
    let them = side_bit(us.opposite());
    let king = pos.squares[code_index(code_of(us, 0))];
    let mut n = 0;
    for slot in 5..16u8 {
        let s = pos.squares[code_index(them | slot)];
        if s == 0 {
            continue;
        }
        if in_palace_zone(s, us)
            || (slot <= 10 && slot != 5 && slot != 6 && king != 0 && mb_file(s) == mb_file(king))
        {
            n += 1;
        }
    }
    n
}

/// The Xiangqi searcher: an evaluator, a shared transposition table and a thread count.
pub struct XiangqiSearch<E> {
    eval: E,
    tt: Arc<TranspositionTable>,
    threads: usize,
    tweaks: SearchTweaks,
    /// Root moves the next searches leave out (multi-PV: the lines already reported).
    exclude: Vec<Move>,
    /// The network that scores positions instead of the evaluator's own score, if any.
    net: Option<Arc<QuantNet>>,
}

impl<E: SearchEval> XiangqiSearch<E> {
    /// A searcher with a fresh table of `tt_mib` MiB and `threads` Lazy SMP threads.
    pub fn new(eval: E, tt_mib: usize, threads: usize) -> Self {
        XiangqiSearch {
            eval,
            tt: Arc::new(TranspositionTable::new(tt_mib.max(1))),
            threads: qiyi_core::platform::search_threads(threads),
            tweaks: SearchTweaks::default(),
            exclude: Vec::new(),
            net: None,
        }
    }

    /// Scores positions with `net` (a Xiangqi net: [`crate::nnue::load`] checks the file)
    /// instead of the evaluator's own score, or with the evaluator again (`None`). The
    /// evaluator's rules, move ordering and [`SearchEval::net_score`] still apply.
    pub fn set_net(&mut self, net: Option<Arc<QuantNet>>) {
        self.net = net;
    }

    /// The network in use, if any.
    pub fn net(&self) -> Option<&Arc<QuantNet>> {
        self.net.as_ref()
    }

    /// Leaves these root moves out of the following searches (empty: search every move). The
    /// multi-PV search uses it to find the best move among those not yet reported.
    pub fn set_root_exclusions(&mut self, moves: &[Move]) {
        self.exclude = moves.to_vec();
    }

    /// Changes the search heuristics (for A/B tests).
    pub fn set_tweaks(&mut self, tweaks: SearchTweaks) {
        self.tweaks = tweaks;
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// The evaluator, to change in place (a new noise seed); the table is kept.
    pub fn evaluator_mut(&mut self) -> &mut E {
        &mut self.eval
    }

    /// Forgets the table (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Searches `pos` within `limits`, calling `on_info` after every completed depth.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        mut on_info: impl FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        self.tt.new_search();
        let shared = SearchControl::new(limits);
        let net = self.net.as_ref();
        // The worker that reports (thread 0), with or without helpers.
        let main = || {
            Worker::new(
                &self.eval,
                &self.tt,
                &shared,
                0,
                self.tweaks,
                &self.exclude,
                net,
            )
        };
        let mut result = if self.threads == 1 {
            main().iterate(pos, &mut on_info)
        } else {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..self.threads)
                    .map(|id| {
                        let (shared, eval, tt) = (&shared, &self.eval, &*self.tt);
                        let pos = pos.clone();
                        let tweaks = self.tweaks;
                        let exclude = &self.exclude[..];
                        scope.spawn(move || {
                            let mut w = Worker::new(eval, tt, shared, id, tweaks, exclude, net);
                            w.iterate(&pos, &mut |_: &SearchInfo<Move>| {}).stats
                        })
                    })
                    .collect();
                let mut r = main().iterate(pos, &mut on_info);
                shared.stop.store(true, Ordering::Relaxed);
                for h in helpers {
                    if let Ok(stats) = h.join() {
                        r.stats.merge(&stats);
                    }
                }
                r
            })
        };
        result.stats.nodes = shared.nodes.load(Ordering::Relaxed).max(result.stats.nodes);
        result.stats.time = shared.start.elapsed();
        result
    }
}

struct Worker<'a, E> {
    eval: &'a E,
    tt: &'a TranspositionTable,
    shared: &'a SearchControl,
    id: usize,
    stats: SearchStats,
    counter: NodeCounter,
    stopped: bool,
    root_depth: i32,
    pv: Vec<Vec<Move>>,
    killers: Vec<[Move; 2]>,
    /// History by moving piece code (16..48) and target point.
    history: Vec<[i32; 256]>,
    /// Countermoves: the quiet move that last refuted the previous move, indexed by the piece
    /// that made it (code 16..48) and its target point.
    countermoves: Vec<[Move; 256]>,
    /// Best root move of the current iteration (survives an interrupted iteration).
    root_best: Option<(Score, Vec<Move>)>,
    /// Whether the side to move at the next node entered is in check, when its caller knows
    /// (consumed on entry by [`Self::negamax`] and [`Self::quiescence`]).
    known_check: Option<bool>,
    /// Static evaluation at each ply of the current line (`-INFINITY` when in check), for the
    /// improving test.
    eval_stack: Vec<Score>,
    tweaks: SearchTweaks,
    /// Root moves left out of this search.
    exclude: &'a [Move],
    /// The network's accumulators, when the search runs a net.
    net: Option<NetStack>,
}

const HISTORY_MAX: i32 = 1 << 20;

impl<'a, E: SearchEval> Worker<'a, E> {
    fn new(
        eval: &'a E,
        tt: &'a TranspositionTable,
        shared: &'a SearchControl,
        id: usize,
        tweaks: SearchTweaks,
        exclude: &'a [Move],
        net: Option<&Arc<QuantNet>>,
    ) -> Self {
        Worker {
            eval,
            tt,
            shared,
            id,
            stats: SearchStats::default(),
            counter: NodeCounter::default(),
            stopped: false,
            root_depth: 0,
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            killers: vec![[Move::NULL; 2]; MAX_PLY + 2],
            history: vec![[0; 256]; 48],
            countermoves: vec![[Move::NULL; 256]; 48],
            root_best: None,
            known_check: None,
            eval_stack: vec![-INFINITY; MAX_PLY + 2],
            tweaks,
            exclude,
            net: net.map(|n| NetStack::new(n.clone(), MAX_PLY + 2)),
        }
    }

    /// The static score of `pos`, the position at `ply` of the current line: the network's
    /// (finished by the evaluator) when the search runs one, else the evaluator's.
    #[inline]
    fn static_eval(&mut self, pos: &Position, ply: usize) -> Score {
        match &mut self.net {
            Some(n) => self.eval.net_score(pos, n.evaluate(pos, ply)),
            None => self.eval.evaluate(pos),
        }
    }

    /// Makes `mv` at `ply`, telling the network's accumulators.
    #[inline]
    fn make(&mut self, pos: &mut Position, mv: Move, ply: usize) -> crate::position::Undo {
        if let Some(n) = &mut self.net {
            n.on_make(pos, mv, ply);
        }
        pos.make(mv)
    }

    fn iterate(
        &mut self,
        root: &Position,
        on_info: &mut dyn FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        let max_depth = self
            .shared
            .limits
            .depth
            .unwrap_or(SearchLimits::MAX_DEPTH)
            .clamp(1, MAX_PLY as u32 - 4);
        let mut pos = root.clone();
        if let Some(n) = &mut self.net {
            n.reset(&pos);
        }
        let mut best: Option<(Score, Vec<Move>)> = None;
        let first = 1 + (self.id as u32 % 2);
        let mut prev = 0;
        for depth in first..=max_depth {
            self.root_depth = depth as i32;
            self.root_best = None;
            let score = if depth >= 4 && !is_mate_score(prev) {
                self.aspiration(&mut pos, depth as i32, prev)
            } else {
                self.negamax(&mut pos, depth as i32, -INFINITY, INFINITY, 0, true)
            };
            if self.stopped {
                if let Some(rb) = self.root_best.take() {
                    best = Some(rb);
                }
                break;
            }
            prev = score;
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
            if self.pv[0].is_empty() || self.shared.soft_time_up() {
                break;
            }
        }
        self.counter.flush(self.shared);
        let (score, pv) = best.unwrap_or_else(|| {
            let moves = root.legal_move_list();
            (0, moves.as_slice().first().copied().into_iter().collect())
        });
        SearchResult {
            best_move: pv.first().copied(),
            score,
            pv,
            stats: self.stats.clone(),
        }
    }

    fn aspiration(&mut self, pos: &mut Position, depth: i32, guess: Score) -> Score {
        let mut delta = 30;
        let mut alpha = (guess - delta).max(-INFINITY);
        let mut beta = (guess + delta).min(INFINITY);
        loop {
            let score = self.negamax(pos, depth, alpha, beta, 0, true);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else if score >= beta {
                beta = (score + delta).min(INFINITY);
            } else {
                return score;
            }
            delta += delta;
            if delta > 800 {
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

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(mv);
        head[ply].extend_from_slice(&tail[0]);
    }

    #[inline]
    fn history_of(&self, pos: &Position, mv: Move) -> i32 {
        let code = pos.board[mv.from as usize] as usize;
        self.history[code & 47][mv.to as usize]
    }

    fn add_history(&mut self, pos: &Position, mv: Move, bonus: i32) {
        let code = pos.board[mv.from as usize] as usize;
        let h = &mut self.history[code & 47][mv.to as usize];
        // Gravity: entries saturate toward +-HISTORY_MAX. The product needs 64 bits
        // (HISTORY_MAX * 4000 overflows i32); the result stays within +-HISTORY_MAX.
        let decay = i64::from(*h) * i64::from(bonus.abs()) / i64::from(HISTORY_MAX);
        *h += bonus - decay as i32;
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        allow_null: bool,
    ) -> Score {
        // Whether the side to move is in check, when the caller already knows (taken first so
        // an early return never leaves it for another node).
        let known_check = self.known_check.take();
        self.pv[ply].clear();
        let is_pv = beta - alpha > 1;
        if ply > 0 {
            if self.stopped {
                return 0;
            }
            if let Some(s) = rule_score(pos, ply) {
                self.count_node(ply);
                return s;
            }
            alpha = alpha.max(-MATE + ply as Score);
            beta = beta.min(MATE - ply as Score - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval(pos, ply);
        }
        let in_check = known_check.unwrap_or_else(|| pos.in_check());
        if in_check && (ply as i32) < 2 * self.root_depth + 8 {
            depth += 1;
        }
        if depth <= 0 {
            self.known_check = Some(in_check);
            return self.quiescence(pos, alpha, beta, ply, true);
        }
        self.count_node(ply);

        let key = pos.hash;
        let mut tt_move = Move::NULL;
        let mut tt_hit = None;
        self.stats.tt_probes += 1;
        if let Some(e) = self.tt.probe(key) {
            self.stats.tt_hits += 1;
            if let Some(m) = e.move_index {
                tt_move = decode(m);
            }
            let s = score_from_tt(e.score, ply);
            if !is_pv && i32::from(e.depth) >= depth && e.bound.cuts(s, alpha, beta) {
                return s;
            }
            tt_hit = Some((s, e.bound));
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            let e = self.static_eval(pos, ply);
            // A stored bound is a better guess than the static score when it points the same way.
            match tt_hit {
                Some((s, Bound::Lower)) if s > e && !is_mate_score(s) => s,
                Some((s, Bound::Upper)) if s < e && !is_mate_score(s) => s,
                Some((s, Bound::Exact)) if !is_mate_score(s) => s,
                _ => e,
            }
        };

        self.eval_stack[ply] = static_eval;
        // Improving: the static score rose since this side's previous move (two plies up, or
        // four when that node was in check), so fail-highs are likelier and fail-lows rarer.
        let improving = !in_check
            && match ply {
                0 | 1 => true,
                2 | 3 => static_eval > self.eval_stack[ply - 2],
                _ => {
                    let prev = if self.eval_stack[ply - 2] != -INFINITY {
                        self.eval_stack[ply - 2]
                    } else {
                        self.eval_stack[ply - 4]
                    };
                    static_eval > prev
                }
            };
        // Set when passing the move would get this side mated (the null-move search found it):
        // then nothing at this node is pruned or reduced on the strength of the static score.
        let mut mate_threat = false;
        let tw = self.tweaks;
        // The side to move's general is under attack: prune nothing on the static score.
        let king_danger_now = if (tw.danger > 0 || tw.rfp_danger > 0) && !in_check {
            king_danger(pos)
        } else {
            0
        };
        let danger = tw.danger > 0 && king_danger_now >= tw.danger;
        let rfp_off = tw.rfp_danger > 0 && king_danger_now >= tw.rfp_danger;

        if !is_pv && !in_check && !is_mate_score(beta) {
            // Reverse futility: far above beta near the leaves.
            if tw.rfp
                && !danger
                && !rfp_off
                && depth <= 4
                && static_eval - 110 * depth + 50 * i32::from(improving) >= beta
            {
                return static_eval;
            }
            // Null move with verification.
            if allow_null && depth >= 2 && static_eval >= beta && has_major_piece(pos) {
                let r = tw.null_r + depth / 4 + ((static_eval - beta) / 200).min(2);
                if let Some(n) = &mut self.net {
                    n.on_null(ply);
                }
                let undo = pos.make_null();
                let score = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                pos.unmake_null(undo);
                if self.stopped {
                    return 0;
                }
                mate_threat = score <= -MATE + MAX_PLY as Score;
                if score >= beta {
                    let score = if is_mate_score(score) { beta } else { score };
                    if depth < 8 {
                        return score;
                    }
                    let v = self.negamax(pos, depth - 1 - r, beta - 1, beta, ply, false);
                    if self.stopped {
                        return 0;
                    }
                    if v >= beta {
                        return score;
                    }
                }
            }
        }

        if mate_threat && tw.mate_threat_ext && (ply as i32) < 2 * self.root_depth + 8 {
            depth += 1;
        }

        // Internal iterative reduction: a node without a table move is likely new and poorly
        // ordered; search it one ply shallower.
        if tt_move.is_null() && depth >= 4 && !in_check {
            depth -= 1;
        }

        let mut list = crate::movegen::MoveList::new();
        pos.generate_legal_with(&mut list, in_check);
        if ply == 0 && !self.exclude.is_empty() {
            list.retain(|m| !self.exclude.contains(&m));
        }
        let n = list.len();
        if n == 0 {
            // Checkmate and stalemate both lose.
            return -MATE + ply as Score;
        }
        // Only one way out of check: search it one ply deeper (forced lines are short).
        if in_check && n == 1 && (ply as i32) < 2 * self.root_depth + 8 {
            depth += 1;
        }
        let moves = list.as_slice();
        // Selection keys: each step takes the highest score, ties going to the earliest point of
        // the working array (a selection sort that swaps the pick forward). A key packs the
        // score, the inverted point and the move's index so one branch-free maximum finds the pick.
        let mut keys = [0i64; crate::movegen::MAX_MOVES];
        let killers = self.killers[ply];
        let counter_slot = match pos.history.last() {
            Some(e) if !e.mv.is_null() => Some((
                (pos.board[e.mv.to as usize] & 47) as usize,
                e.mv.to as usize,
            )),
            _ => None,
        };
        let countermove = counter_slot.map_or(Move::NULL, |(c, t)| self.countermoves[c][t]);
        for (i, &mv) in moves.iter().enumerate() {
            let score = if mv == tt_move {
                1 << 30
            } else if pos.board[mv.to as usize] != EMPTY {
                if capture_is_safe(pos, mv) {
                    (1 << 26) + mvv_lva(pos, mv)
                } else {
                    -(1 << 24) + mvv_lva(pos, mv)
                }
            } else if mv == killers[0] {
                1 << 25
            } else if mv == killers[1] {
                (1 << 25) - 1
            } else if mv == countermove {
                (1 << 25) - 2
            } else {
                self.history_of(pos, mv)
            };
            keys[i] = sort_key(score, i, i);
        }

        let alpha_orig = alpha;
        let mut best = -INFINITY;
        let mut best_move = Move::NULL;
        let mut quiets_tried = [Move::NULL; 64];
        let mut n_quiets = 0;
        let futility_ok = tw.futility
            && !danger
            && !is_pv
            && !in_check
            && !mate_threat
            && depth <= 3
            && !is_mate_score(alpha);
        let late_quiet_limit = if improving {
            4 + 2 * depth * depth
        } else {
            3 + depth * depth
        };
        let futility_margin = [0, 130, 260, 420][depth.clamp(0, 3) as usize];
        for searched in 0..n {
            // Selection sort: the best remaining move.
            let mut top = keys[searched];
            for &k in &keys[searched + 1..n] {
                if k > top {
                    top = k;
                }
            }
            let b = 255 - ((top >> 8) & 0xFF) as usize;
            // The move at point `searched` takes the pick's point `b`.
            keys.swap(searched, b);
            keys[b] = (keys[b] & !0xFF00) | ((255 - b as i64) << 8);
            let mv = moves[(top & 0xFF) as usize];
            let order_score = (top >> 16) as i32;
            let capture = pos.board[mv.to as usize] != EMPTY;
            let quiet = !capture;
            let is_killer = mv == killers[0] || mv == killers[1];
            // Checks are never pruned at shallow depth: short mating attacks start with them.
            let checks = gives_check(pos, mv);
            let attack = tw.attack_moves && quiet && in_palace_zone(mv.to, pos.side.opposite());

            // Move-count pruning of late quiet moves in non-PV nodes near the leaves.
            if tw.lmp
                && !danger
                && !attack
                && quiet
                && !checks
                && !is_pv
                && !in_check
                && !mate_threat
                && best > -MATE + 1000
                && depth <= 4
                && searched as i32 >= late_quiet_limit
            {
                continue;
            }
            // Losing captures at shallow depth (sacrifices that check are searched).
            if capture
                && !checks
                && !is_pv
                && !in_check
                && depth <= 2
                && order_score < 0
                && best > -MATE + 1000
            {
                continue;
            }

            let undo = self.make(pos, mv, ply);
            let gives_check = checks;
            if futility_ok
                && !attack
                && quiet
                && !gives_check
                && searched > 0
                && static_eval + futility_margin <= alpha
            {
                pos.unmake(mv, undo);
                continue;
            }
            let score = if searched == 0 {
                self.known_check = Some(gives_check);
                -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true)
            } else {
                let mut r = 0;
                if depth >= 3 && quiet && !in_check && !gives_check && searched >= 2 {
                    r = lmr_reduction(depth, searched, tw.lmr_div);
                    if danger || attack {
                        r -= 1;
                    }
                    if is_pv {
                        r -= 1;
                    }
                    if is_killer || mate_threat {
                        r -= 1;
                    }
                    if !improving {
                        r += 1;
                    }
                    // A piece moving out of an attack is reduced less.
                    if r > 0 && crate::movegen::attacked_by(&pos.board, mv.from, pos.side) {
                        r -= 1;
                    }
                    if order_score > HISTORY_MAX / 2 {
                        r -= 1;
                    }
                    // A move that attacks a bigger enemy piece (a chase or a threat) is reduced
                    // less: its point often shows only a few plies later.
                    if r > 0 && threatens_bigger(&pos.board, &pos.squares, mv.to) {
                        r -= 1;
                    }
                    r = r.clamp(0, depth - 2);
                }
                self.known_check = Some(gives_check);
                let mut s = -self.negamax(pos, depth - 1 - r, -alpha - 1, -alpha, ply + 1, true);
                if s > alpha && r > 0 {
                    self.known_check = Some(gives_check);
                    s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta {
                    self.known_check = Some(gives_check);
                    s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1, true);
                }
                s
            };
            pos.unmake(mv, undo);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    self.update_pv(ply, mv);
                    if ply == 0 {
                        self.root_best = Some((score, self.pv[0].clone()));
                    }
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != mv {
                                k[1] = k[0];
                                k[0] = mv;
                            }
                            if let Some((c, t)) = counter_slot {
                                self.countermoves[c][t] = mv;
                            }
                            let bonus = (depth * depth * 16).min(4000);
                            self.add_history(pos, mv, bonus);
                            for &q in &quiets_tried[..n_quiets] {
                                self.add_history(pos, q, -bonus);
                            }
                        }
                        break;
                    }
                }
            }
            if quiet && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = mv;
                n_quiets += 1;
            }
        }
        if best == -INFINITY {
            // Every move was pruned: fail low with the static guess.
            return alpha_orig;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_orig {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let mv = if best_move.is_null() {
            (!tt_move.is_null()).then(|| encode(tt_move))
        } else {
            Some(encode(best_move))
        };
        if ply == 0 && !self.exclude.is_empty() {
            // A root restricted to some moves is not the position's value: keep it out.
            return best;
        }
        self.tt.store(
            key,
            mv,
            score_to_tt(best, ply),
            depth.clamp(0, 255) as u8,
            bound,
        );
        best
    }

    /// Quiescence: captures (and every evasion when in check); at its first ply (`checks`) also
    /// the quiet moves that give check, so mating attacks just past the horizon are seen.
    /// Results go to the table at depth 0 (they never cut a full-width node) and cut off
    /// zero-window quiescence nodes.
    fn quiescence(
        &mut self,
        pos: &mut Position,
        alpha: Score,
        beta: Score,
        ply: usize,
        checks: bool,
    ) -> Score {
        let known_check = self.known_check.take();
        self.count_node(ply);
        self.stats.qnodes += 1;
        self.pv[ply].clear();
        if self.stopped {
            return 0;
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval(pos, ply);
        }
        if beta - alpha == 1 {
            // Any stored result is at least as deep as quiescence.
            if let Some(e) = self.tt.probe(pos.hash) {
                let s = score_from_tt(e.score, ply);
                if e.bound.cuts(s, alpha, beta) {
                    return s;
                }
            }
        }
        let score = self.quiescence_moves(pos, alpha, beta, ply, checks, known_check);
        if !self.stopped && !is_mate_score(score) {
            let bound = if score >= beta {
                Bound::Lower
            } else if score > alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tt
                .store(pos.hash, None, score_to_tt(score, ply), 0, bound);
        }
        score
    }

    /// The move loop of [`Self::quiescence`].
    fn quiescence_moves(
        &mut self,
        pos: &mut Position,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        checks: bool,
        known_check: Option<bool>,
    ) -> Score {
        let mut list = crate::movegen::MoveList::new();
        if known_check.unwrap_or_else(|| pos.in_check()) {
            pos.generate_legal_with(&mut list, true);
            if list.is_empty() {
                return -MATE + ply as Score;
            }
            let moves = list.as_slice();
            let mut scores = [0i32; crate::movegen::MAX_MOVES];
            for (i, &mv) in moves.iter().enumerate() {
                scores[i] = if pos.board[mv.to as usize] != EMPTY {
                    (1 << 26) + mvv_lva(pos, mv)
                } else {
                    self.history_of(pos, mv)
                };
            }
            let mut best = -INFINITY;
            let n = moves.len();
            let mut order: [u8; crate::movegen::MAX_MOVES] = [0; crate::movegen::MAX_MOVES];
            for (i, o) in order.iter_mut().enumerate().take(n) {
                *o = i as u8;
            }
            order[..n].sort_unstable_by_key(|&i| std::cmp::Reverse(scores[i as usize]));
            for &i in &order[..n] {
                match self.quiescence_child(
                    pos,
                    moves[i as usize],
                    &mut alpha,
                    beta,
                    &mut best,
                    ply,
                ) {
                    QuiescenceStep::Stopped => return 0,
                    QuiescenceStep::Cutoff => break,
                    QuiescenceStep::Continue => {}
                }
            }
            return best;
        }
        let stand = self.static_eval(pos, ply);
        if stand >= beta {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        pos.pseudo_legal_captures(&mut list);
        let mut caps = [(0i32, Move::NULL); 48];
        let mut n = 0;
        for &mv in list.as_slice() {
            let victim = pos.board[mv.to as usize];
            if victim == EMPTY || n == caps.len() {
                continue;
            }
            // Delta pruning: even winning the piece outright does not reach alpha.
            if stand + SEE_VALUE[CELL_KIND[victim as usize] as usize] + 150 <= alpha {
                continue;
            }
            caps[n] = (mvv_lva(pos, mv), mv);
            n += 1;
        }
        caps[..n].sort_unstable_by_key(|&(s, _)| std::cmp::Reverse(s));
        for &(_, mv) in &caps[..n] {
            if !capture_is_safe(pos, mv) || !pos.is_legal_pseudo(mv) {
                continue;
            }
            match self.quiescence_child(pos, mv, &mut alpha, beta, &mut best, ply) {
                QuiescenceStep::Stopped => return 0,
                QuiescenceStep::Cutoff => return best,
                QuiescenceStep::Continue => {}
            }
        }
        // The quiet checks at the first quiescence ply, in the order of the full move list.
        if checks {
            pos.quiet_checks(&mut list);
            for i in 0..list.len() {
                let mv = list.as_slice()[i];
                if !pos.is_legal_pseudo(mv) {
                    continue;
                }
                match self.quiescence_child(pos, mv, &mut alpha, beta, &mut best, ply) {
                    QuiescenceStep::Stopped => return 0,
                    QuiescenceStep::Cutoff => return best,
                    QuiescenceStep::Continue => {}
                }
            }
        }
        best
    }

    /// Searches `mv` one ply deeper in quiescence and folds its score into `best`, `alpha` and
    /// the principal variation (the step both the evasion and the capture loops take).
    #[inline]
    fn quiescence_child(
        &mut self,
        pos: &mut Position,
        mv: Move,
        alpha: &mut Score,
        beta: Score,
        best: &mut Score,
        ply: usize,
    ) -> QuiescenceStep {
        let undo = self.make(pos, mv, ply);
        let score = -self.quiescence(pos, -beta, -*alpha, ply + 1, false);
        pos.unmake(mv, undo);
        if self.stopped {
            return QuiescenceStep::Stopped;
        }
        if score > *best {
            *best = score;
            if score > *alpha {
                *alpha = score;
                self.update_pv(ply, mv);
                if score >= beta {
                    return QuiescenceStep::Cutoff;
                }
            }
        }
        QuiescenceStep::Continue
    }
}

/// The fixed positions of the search benchmark: openings, middlegames and endgames.
pub const BENCH_FENS: [&str; 6] = [
    crate::position::START_FEN,
    "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3",
    "2bak3C/4a4/7rb/P3c4/9/3c5/6P2/4B4/4A4/2BAKR3 w - - 11 38",
    "5ab2/3k5/5a3/4p3p/1c4C2/4P4/3p2P1P/B1n4N1/4A4/4KA3 b - - 17 42",
    "5k3/7R1/9/5N3/9/3r2B2/9/6p2/4A4/4KA3 b - - 23 122",
    "3aka3/9/9/4n4/4N4/4n4/c8/9/9/4K4 b - - 37 107",
];

/// What [`bench()`] measured.
#[derive(Clone, Debug, Default)]
pub struct BenchReport {
    /// Nodes over all positions: a signature that changes only when the search changes.
    pub nodes: u64,
    /// Time spent searching.
    pub time: std::time::Duration,
    /// Best move found in each position.
    pub best_moves: Vec<Option<Move>>,
}

/// Searches every [`BENCH_FENS`] position to `depth` on one thread with a fresh 16 MiB table
/// and the tuned evaluation.
pub fn bench(depth: u32) -> BenchReport {
    bench_with(depth, SearchTweaks::default())
}

/// [`bench()`] with other search heuristics.
pub fn bench_with(depth: u32, tweaks: SearchTweaks) -> BenchReport {
    bench_eval(depth, tweaks, None)
}

/// [`bench_with`] searching with `net` (`None`: the tuned hand evaluation): the node count and
/// the speed of the learned evaluation on the same positions.
pub fn bench_eval(depth: u32, tweaks: SearchTweaks, net: Option<Arc<QuantNet>>) -> BenchReport {
    let mut report = BenchReport::default();
    for fen in BENCH_FENS {
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        let mut s = XiangqiSearch::new(crate::eval::Evaluation::default(), 16, 1);
        s.set_tweaks(tweaks);
        s.set_net(net.clone());
        let r = s.search(&pos, &SearchLimits::depth(depth), |_| {});
        report.nodes += r.stats.nodes;
        report.time += r.stats.time;
        report.best_moves.push(r.best_move);
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Evaluation;
    use qiyi_core::eval::MATE_BOUND;

    fn mv(pos: &Position, text: &str) -> Move {
        pos.parse_move_text(text).expect("legal")
    }

    #[test]
    fn history_saturates_without_overflow() {
        // The largest bonus applied again and again must stay within +-HISTORY_MAX
        // (the gravity product once overflowed i32 in deep searches).
        let pos = Position::start();
        let tt = TranspositionTable::new(1);
        let shared = SearchControl::new(&SearchLimits::default());
        let eval = Evaluation::default();
        let mut w = Worker::new(&eval, &tt, &shared, 0, SearchTweaks::default(), &[], None);
        let m = mv(&pos, "h2e2");
        for bonus in [4000, 4000, -4000, 4000] {
            for _ in 0..2000 {
                w.add_history(&pos, m, bonus);
            }
            let h = w.history_of(&pos, m);
            assert!(h.abs() <= HISTORY_MAX, "history {h}");
            assert_eq!(h.signum(), bonus.signum(), "history follows the last bonus");
        }
    }

    #[test]
    fn gives_check_agrees_with_making_the_move() {
        // Seeded random games: for every legal move, the board-only test (with its fast
        // rejection) must agree with making the move and asking whether the opponent is in check.
        let mut rng = qiyi_core::rng::Rng::new(7);
        let mut checks = 0;
        for _ in 0..60 {
            let mut pos = Position::start();
            for _ in 0..120 {
                let list = pos.legal_move_list();
                if list.is_empty() {
                    break;
                }
                for &m in list.as_slice() {
                    let fast = gives_check(&mut pos, m);
                    let undo = pos.make(m);
                    let slow = pos.in_check();
                    pos.unmake(m, undo);
                    assert_eq!(fast, slow, "{m} in {}", pos.to_fen());
                    checks += usize::from(slow);
                }
                let pick = list.as_slice()[rng.below(list.len())];
                pos.make(pick);
            }
        }
        assert!(checks > 100, "too few checks seen: {checks}");
    }

    #[test]
    fn least_attacker_agrees_with_trying_every_piece() {
        // Seeded random games, every point, both colours, and SEE-like scratch boards where
        // pieces were lifted off (their squares entries go stale).
        let mut rng = qiyi_core::rng::Rng::new(5);
        let mut found = 0;
        for _ in 0..30 {
            let mut pos = Position::start();
            for _ in 0..120 {
                let list = pos.legal_move_list();
                if list.is_empty() {
                    break;
                }
                let mut b = pos.board;
                for _ in 0..3 {
                    // Lift a random piece off the scratch board.
                    let i = rng.below(32);
                    let p = pos.squares[i];
                    if p != 0 && CELL_KIND[b[p as usize] as usize] != K_KING {
                        b[p as usize] = EMPTY;
                    }
                    for s in 0..=255u8 {
                        if b[s as usize] == OFF {
                            continue;
                        }
                        for color in [Color::Red, Color::Black] {
                            let fast = least_attacker(&b, s, color);
                            let slow = least_attacker_by_pieces(&b, &pos.squares, s, color);
                            assert_eq!(fast, slow, "{} point {s} {color:?}", pos.to_fen());
                            found += usize::from(slow.is_some());
                        }
                    }
                }
                pos.make(list.as_slice()[rng.below(list.len())]);
            }
        }
        assert!(found > 10_000, "too few attacked points: {found}");
    }

    #[test]
    fn see_counts_exchanges() {
        // A chariot takes a soldier defended by a horse: loses the chariot for a soldier.
        let pos = Position::from_fen("3k5/9/9/2n6/4p4/9/9/9/4R4/5K3 w - - 0 1").expect("fen");
        assert_eq!(see(&pos, mv(&pos, "e1e5")), 100 - 900);
        // Undefended soldier: a clean win.
        let pos = Position::from_fen("3k5/9/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1").expect("fen");
        assert_eq!(see(&pos, mv(&pos, "e1e5")), 100);
        // A cannon screen appears when the first capturer moves in: the cannon on e9 recaptures
        // over the piece now on e5? No: e9 sees e5 through e7 only if one piece stands between.
        let pos = Position::from_fen("3k5/9/4c4/9/4p4/9/9/9/4R4/5K3 w - - 0 1").expect("fen");
        // Chariot takes e5: nothing between e7 and e5, so the cannon cannot recapture.
        assert_eq!(see(&pos, mv(&pos, "e1e5")), 100);
    }

    #[test]
    fn tweaks_parse_and_reject() {
        let mut t = SearchTweaks::default();
        t.apply("danger=2, rfp=0,null_r=4,lmr_div=2.5,attack_moves")
            .expect("valid list");
        assert_eq!(t.danger, 2);
        assert!(!t.rfp);
        assert_eq!(t.null_r, 4);
        assert!((t.lmr_div - 2.5).abs() < 1e-9);
        assert!(t.attack_moves);
        assert!(t.apply("bogus=1").is_err());
        assert!(t.apply("null_r=x").is_err());
        assert!(t.apply("").is_ok());
    }

    #[test]
    fn king_danger_counts_attackers_near_the_general() {
        let start = Position::from_fen(crate::position::START_FEN).expect("fen");
        assert_eq!(king_danger(&start), 0);
        // Black chariot on d1 and horse on g3 in Red's palace zone, cannon on the e-file.
        let pos = Position::from_fen("3k5/9/4c4/9/9/9/6n2/9/3r5/4K4 w - - 0 1").expect("fen");
        assert_eq!(king_danger(&pos), 3);
        // The same pieces seen by Black (to move): none near Black's general.
        let pos = Position::from_fen("3k5/9/4c4/9/9/9/6n2/9/3r5/4K4 b - - 0 1").expect("fen");
        assert_eq!(king_danger(&pos), 0);
    }

    #[test]
    fn threats_are_attacks_on_bigger_pieces() {
        // A red horse on b0 attacks the black chariot on c2: a threat.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/2r6/9/1N2K4 w - - 0 1").expect("fen");
        let horse = mv(&pos, "b0c2").from;
        assert!(threatens_bigger(&pos.board, &pos.squares, horse));
        // A red chariot on c0 attacks the black horse on c2: smaller, so no threat.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/2n6/9/2R1K4 w - - 0 1").expect("fen");
        let rook = mv(&pos, "c0c2").from;
        assert!(!threatens_bigger(&pos.board, &pos.squares, rook));
        // A blocked horse leg (b1) takes the threat away.
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/2r6/1n7/1N2K4 w - - 0 1").expect("fen");
        let horse = mv(&pos, "b0d1").from;
        assert!(!threatens_bigger(&pos.board, &pos.squares, horse));
    }

    #[test]
    fn finds_mate_in_one_and_two() {
        let pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1").expect("fen");
        let mut s = XiangqiSearch::new(Evaluation::default(), 4, 1);
        let r = s.search(&pos, &SearchLimits::depth(4), |_| {});
        assert!(r.score >= MATE_BOUND, "score {}", r.score);
    }

    #[test]
    fn the_bench_positions_are_legal_and_searched() {
        let r = bench(3);
        assert_eq!(r.best_moves.len(), BENCH_FENS.len());
        assert!(r.best_moves.iter().all(Option::is_some));
        assert_eq!(bench(3).nodes, r.nodes, "the signature is deterministic");
    }

    #[test]
    fn lazy_smp_returns_a_legal_move() {
        let pos = Position::from_fen(BENCH_FENS[2]).expect("fen");
        let mut s = XiangqiSearch::new(Evaluation::default(), 4, 2);
        let r = s.search(&pos, &SearchLimits::depth(6), |_| {});
        let best = r.best_move.expect("a move");
        assert!(pos.is_legal(best), "{best}");
        assert!(r.stats.depth >= 6);
    }

    #[test]
    fn a_perpetual_checker_is_refuted_inside_the_search() {
        // Red can only draw by repetition or lose a chariot; a repetition by perpetual check
        // loses for Red, so the search must not score the checking cycle as a draw.
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").expect("fen");
        for m in ["a1a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"] {
            let mv = pos.parse_move_text(m).expect("legal");
            pos.make(mv);
        }
        // Red to move: a9a8+ repeats the checking cycle once more.
        let mut after = pos.clone();
        after.make(mv(&pos, "a9a8"));
        assert_eq!(rule_score(&after, 1), Some(RULE_WIN - 1));
    }

    #[test]
    fn searches_are_deterministic_single_threaded() {
        let pos = Position::start();
        let mut a = XiangqiSearch::new(Evaluation::default(), 4, 1);
        let mut b = XiangqiSearch::new(Evaluation::default(), 4, 1);
        let ra = a.search(&pos, &SearchLimits::depth(6), |_| {});
        let rb = b.search(&pos, &SearchLimits::depth(6), |_| {});
        assert_eq!(ra.stats.nodes, rb.stats.nodes);
        assert_eq!(ra.best_move, rb.best_move);
        assert!(ra.best_move.is_some());
    }
}
