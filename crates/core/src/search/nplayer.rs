//! Search for three or more players: max-n, paranoid and best-reply search (BRS).
//!
//! All three are depth-limited and read leaves with a [`MultiEvaluator`] (finished games with
//! [`Game::returns`] times [`MultiEvaluator::scale`]). Depth counts every move, chance outcomes
//! included; chance nodes take the expectation over [`Game::chance_outcomes`].
//!
//! - [`max_n`]: every player maximises its own component of the value vector (Luckhardt & Irani
//!   1986). Among equal values the first move generated is kept.
//! - [`paranoid`]: the root player assumes all others have formed a coalition to minimise its
//!   value; a two-sided game, searched with alpha-beta (Sturtevant & Korf 2000).
//! - [`best_reply`]: best-reply search (Schadd & Winands 2011): between two moves of the root
//!   player only the single strongest reply of *any* opponent is played, the other opponents
//!   pass ([`NullMove`]). Searched with alpha-beta.
//!
//! ```
//! use qiyi_core::search::nplayer::{max_n, paranoid};
//! use qiyi_core::toys::race::{Race, RaceEval};
//!
//! let race = Race::new(3, 10, 3).unwrap();
//! let maxn = max_n(&race, &RaceEval, 10);
//! let para = paranoid(&race, &RaceEval, 10);
//! assert_eq!(maxn.values.len(), 3);
//! assert!(para.value <= maxn.value); // the coalition can only hurt the root player
//! ```

use super::{SearchLimits, SearchStats};
use crate::eval::MultiEvaluator;
use crate::game::{Game, NullMove, Turn};
use crate::platform::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The result of an n-player search.
#[derive(Clone, Debug, PartialEq)]
pub struct NPlayerResult<M> {
    /// The move to play (`None` when the root is over or a chance node).
    pub best_move: Option<M>,
    /// The root player's value (on the evaluator's scale).
    pub value: f64,
    /// Max-n and expectimax: the value of every player. Paranoid and BRS search the root player's
    /// value only, and leave this empty.
    pub values: Vec<f64>,
    /// The principal variation (BRS leaves out the passes of the opponents that did not move).
    pub pv: Vec<M>,
    /// Counts.
    pub stats: SearchStats,
}

/// Per-ply scratch space shared by the searches: no allocation per node after warm-up.
pub(crate) struct Scratch<G: Game> {
    pub(crate) players: usize,
    /// `values[ply * players..][..players]`: the value vector of the node at `ply`.
    pub(crate) values: Vec<f64>,
    pub(crate) moves: Vec<Vec<G::Move>>,
    pub(crate) outcomes: Vec<Vec<(G::Move, f64)>>,
    /// Triangular PV table: `pv[ply]` is the line from the node at `ply`.
    pub(crate) pv: Vec<Vec<G::Move>>,
    pub(crate) stats: SearchStats,
    /// Limits of an iterative-deepening search (none for fixed-depth searches).
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    node_limit: Option<u64>,
    /// Set when a limit is hit: every node returns at once and the iteration is thrown away.
    pub(crate) aborted: bool,
    /// Set when some leaf was cut by the depth limit (otherwise the search was exact).
    pub(crate) depth_cut: bool,
}

impl<G: Game> Scratch<G> {
    pub(crate) fn new(players: usize) -> Self {
        Scratch {
            players,
            values: Vec::new(),
            moves: Vec::new(),
            outcomes: Vec::new(),
            pv: Vec::new(),
            stats: SearchStats::default(),
            deadline: None,
            stop: None,
            node_limit: None,
            aborted: false,
            depth_cut: false,
        }
    }

    /// Scratch space for a search under `limits`, started at `start`.
    pub(crate) fn limited(players: usize, limits: &SearchLimits, start: Instant) -> Self {
        Scratch {
            deadline: limits.effective_deadline(start),
            stop: limits.stop.clone(),
            node_limit: limits.nodes,
            ..Scratch::new(players)
        }
    }

    /// Makes room for a node at `ply` and counts it.
    #[inline]
    pub(crate) fn enter(&mut self, ply: usize) {
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        if self.node_limit.is_some_and(|m| self.stats.nodes > m)
            || (self.stats.nodes % 1024 == 0
                && (self.deadline.is_some_and(|d| Instant::now() >= d)
                    || self
                        .stop
                        .as_ref()
                        .is_some_and(|f| f.load(Ordering::Relaxed))))
        {
            self.aborted = true;
        }
        while self.moves.len() <= ply + 1 {
            self.moves.push(Vec::new());
            self.outcomes.push(Vec::new());
            self.pv.push(Vec::new());
            let len = self.values.len() + self.players;
            self.values.resize(len, 0.0);
        }
        self.pv[ply].clear();
    }

    #[inline]
    pub(crate) fn slot(&mut self, ply: usize) -> &mut [f64] {
        let n = self.players;
        &mut self.values[ply * n..(ply + 1) * n]
    }

    /// Writes the leaf value vector of `pos` (finished or evaluated) into the slot of `ply`.
    #[inline]
    pub(crate) fn leaf<E: MultiEvaluator<G>>(&mut self, pos: &G, eval: &E, ply: usize) {
        let n = self.players;
        let slot = &mut self.values[ply * n..(ply + 1) * n];
        if pos.is_over() {
            let scale = eval.scale();
            for (p, v) in slot.iter_mut().enumerate() {
                *v = pos.returns(p) * scale;
            }
        } else {
            self.depth_cut = true;
            eval.evaluate(pos, slot);
        }
    }

    /// Copies the child's value vector (at `ply + 1`) into the node's slot (at `ply`).
    #[inline]
    pub(crate) fn take_child(&mut self, ply: usize) {
        let n = self.players;
        self.values
            .copy_within((ply + 1) * n..(ply + 2) * n, ply * n);
    }

    /// Sets the PV at `ply` to `mv` followed by the child's PV.
    #[inline]
    pub(crate) fn set_pv(&mut self, ply: usize, mv: G::Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }
}

/// Max-n search to `depth` plies: every player maximises its own value.
pub fn max_n<G: Game, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
) -> NPlayerResult<G::Move> {
    let start = Instant::now();
    let mut s = Scratch::new(pos.num_players());
    let mut pos = pos.clone();
    max_n_node(&mut pos, eval, depth, 0, &mut s);
    let values = s.slot(0).to_vec();
    finish(&pos, values, s, depth, start)
}

fn finish<G: Game>(
    pos: &G,
    values: Vec<f64>,
    mut s: Scratch<G>,
    depth: u32,
    start: Instant,
) -> NPlayerResult<G::Move> {
    let root = pos.to_move();
    let pv = std::mem::take(&mut s.pv[0]);
    let best_move = match pos.turn() {
        Turn::Player(_) => pv.first().copied(),
        _ => None,
    };
    s.stats.depth = depth;
    s.stats.time = start.elapsed();
    NPlayerResult {
        best_move,
        value: values.get(root).copied().unwrap_or(0.0),
        values,
        pv,
        stats: s.stats,
    }
}

/// One max-n node; leaves its value vector in the slot of `ply` and its line in `s.pv[ply]`.
pub(crate) fn max_n_node<G: Game, E: MultiEvaluator<G>>(
    pos: &mut G,
    eval: &E,
    depth: u32,
    ply: usize,
    s: &mut Scratch<G>,
) {
    s.enter(ply);
    if depth == 0 || pos.is_over() {
        s.leaf(pos, eval, ply);
        return;
    }
    match pos.turn() {
        Turn::Chance => {
            let mut outcomes = std::mem::take(&mut s.outcomes[ply]);
            pos.chance_outcomes(&mut outcomes);
            s.slot(ply).fill(0.0);
            for &(mv, p) in &outcomes {
                let undo = pos.make(mv);
                max_n_node(pos, eval, depth - 1, ply + 1, s);
                pos.unmake(mv, undo);
                if s.aborted {
                    break;
                }
                let n = s.players;
                for i in 0..n {
                    s.values[ply * n + i] += p * s.values[(ply + 1) * n + i];
                }
            }
            s.outcomes[ply] = outcomes;
        }
        Turn::Player(me) => {
            let mut moves = std::mem::take(&mut s.moves[ply]);
            pos.legal_moves(&mut moves);
            let mut best = f64::NEG_INFINITY;
            for &mv in &moves {
                let undo = pos.make(mv);
                max_n_node(pos, eval, depth - 1, ply + 1, s);
                pos.unmake(mv, undo);
                if s.aborted {
                    break;
                }
                let mine = s.values[(ply + 1) * s.players + me];
                if mine > best {
                    best = mine;
                    s.take_child(ply);
                    s.set_pv(ply, mv);
                }
            }
            s.moves[ply] = moves;
        }
        Turn::Over => unreachable!("handled above"),
    }
}

/// Paranoid search to `depth` plies with alpha-beta: the root player maximises its value, every
/// other player minimises it.
pub fn paranoid<G: Game, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
) -> NPlayerResult<G::Move> {
    let start = Instant::now();
    let mut s = Scratch::new(pos.num_players());
    let mut pos = pos.clone();
    let root = pos.to_move();
    let value = two_sided(
        &mut pos,
        eval,
        root,
        depth,
        0,
        f64::NEG_INFINITY,
        f64::INFINITY,
        &mut s,
    );
    let mut result = finish(&pos, Vec::new(), s, depth, start);
    result.value = value;
    result
}

/// Best-reply search to `depth` plies with alpha-beta. Each "ply" of the opponents is one move by
/// whichever opponent hurts the root player most, the others passing.
pub fn best_reply<G: NullMove, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
) -> NPlayerResult<G::Move> {
    let start = Instant::now();
    let mut s = Scratch::new(pos.num_players());
    let mut pos = pos.clone();
    let root = pos.to_move();
    let mut undos = Vec::new();
    let value = brs_node(
        &mut pos,
        eval,
        root,
        depth,
        0,
        f64::NEG_INFINITY,
        f64::INFINITY,
        &mut s,
        &mut undos,
    );
    let mut result = finish(&pos, Vec::new(), s, depth, start);
    result.value = value;
    result
}

/// Fail-soft alpha-beta on the root player's value; chance nodes take expectations (searched with
/// an open window).
#[allow(clippy::too_many_arguments)]
fn two_sided<G: Game, E: MultiEvaluator<G>>(
    pos: &mut G,
    eval: &E,
    root: usize,
    depth: u32,
    ply: usize,
    mut alpha: f64,
    mut beta: f64,
    s: &mut Scratch<G>,
) -> f64 {
    s.enter(ply);
    if depth == 0 || pos.is_over() {
        s.leaf(pos, eval, ply);
        return s.slot(ply)[root];
    }
    match pos.turn() {
        Turn::Chance => chance_value(pos, ply, s, |pos, s| {
            two_sided(
                pos,
                eval,
                root,
                depth - 1,
                ply + 1,
                f64::NEG_INFINITY,
                f64::INFINITY,
                s,
            )
        }),
        Turn::Player(me) => {
            let maximise = me == root;
            let mut moves = std::mem::take(&mut s.moves[ply]);
            pos.legal_moves(&mut moves);
            let mut best = if maximise {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            };
            for &mv in &moves {
                let undo = pos.make(mv);
                let v = two_sided(pos, eval, root, depth - 1, ply + 1, alpha, beta, s);
                pos.unmake(mv, undo);
                if s.aborted {
                    break;
                }
                if (maximise && v > best) || (!maximise && v < best) {
                    best = v;
                    s.set_pv(ply, mv);
                }
                if maximise {
                    alpha = alpha.max(best);
                } else {
                    beta = beta.min(best);
                }
                if alpha >= beta {
                    break;
                }
            }
            s.moves[ply] = moves;
            best
        }
        Turn::Over => unreachable!("handled above"),
    }
}

/// The expectation over the chance outcomes of `pos`, each child valued by `child`.
fn chance_value<G: Game>(
    pos: &mut G,
    ply: usize,
    s: &mut Scratch<G>,
    mut child: impl FnMut(&mut G, &mut Scratch<G>) -> f64,
) -> f64 {
    let mut outcomes = std::mem::take(&mut s.outcomes[ply]);
    pos.chance_outcomes(&mut outcomes);
    let mut sum = 0.0;
    for &(mv, p) in &outcomes {
        let undo = pos.make(mv);
        sum += p * child(pos, s);
        pos.unmake(mv, undo);
        if s.aborted {
            break;
        }
    }
    s.outcomes[ply] = outcomes;
    sum
}

/// Passes for every opponent until the root player (or chance, or the end) is to move.
fn pass_to_root<G: NullMove>(pos: &mut G, root: usize, undos: &mut Vec<G::Undo>) -> usize {
    let mut passes = 0;
    while passes < pos.num_players() {
        match pos.turn() {
            Turn::Player(q) if q != root => {
                undos.push(pos.make_null());
                passes += 1;
            }
            _ => break,
        }
    }
    passes
}

fn unpass<G: NullMove>(pos: &mut G, passes: usize, undos: &mut Vec<G::Undo>) {
    for _ in 0..passes {
        if let Some(u) = undos.pop() {
            pos.unmake_null(u);
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn brs_node<G: NullMove, E: MultiEvaluator<G>>(
    pos: &mut G,
    eval: &E,
    root: usize,
    depth: u32,
    ply: usize,
    mut alpha: f64,
    mut beta: f64,
    s: &mut Scratch<G>,
    undos: &mut Vec<G::Undo>,
) -> f64 {
    s.enter(ply);
    if depth == 0 || pos.is_over() {
        s.leaf(pos, eval, ply);
        return s.slot(ply)[root];
    }
    let me = match pos.turn() {
        Turn::Chance => {
            return chance_value(pos, ply, s, |pos, s| {
                brs_node(
                    pos,
                    eval,
                    root,
                    depth - 1,
                    ply + 1,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                    s,
                    undos,
                )
            })
        }
        Turn::Player(me) => me,
        Turn::Over => unreachable!("handled above"),
    };
    let mut moves = std::mem::take(&mut s.moves[ply]);
    if me == root {
        pos.legal_moves(&mut moves);
        let mut best = f64::NEG_INFINITY;
        for &mv in &moves {
            let undo = pos.make(mv);
            let v = brs_node(pos, eval, root, depth - 1, ply + 1, alpha, beta, s, undos);
            pos.unmake(mv, undo);
            if s.aborted {
                break;
            }
            if v > best {
                best = v;
                s.set_pv(ply, mv);
            }
            alpha = alpha.max(best);
            if alpha >= beta {
                break;
            }
        }
        s.moves[ply] = moves;
        return best;
    }
    // The opponents' layer: every move of every opponent before the root player's next turn,
    // with the opponents before the mover passing and those after it passing too.
    let mut best = f64::INFINITY;
    let mut passed = 0;
    'opponents: loop {
        pos.legal_moves(&mut moves);
        for &mv in &moves {
            let undo = pos.make(mv);
            let passes = pass_to_root(pos, root, undos);
            let v = brs_node(pos, eval, root, depth - 1, ply + 1, alpha, beta, s, undos);
            unpass(pos, passes, undos);
            pos.unmake(mv, undo);
            if s.aborted {
                break 'opponents;
            }
            if v < best {
                best = v;
                s.set_pv(ply, mv);
            }
            beta = beta.min(best);
            if alpha >= beta {
                break 'opponents;
            }
        }
        // Let this opponent pass; the next one (if it is not the root player) replies instead.
        if passed + 2 >= pos.num_players() {
            break;
        }
        undos.push(pos.make_null());
        passed += 1;
        match pos.turn() {
            Turn::Player(q) if q != root => {}
            _ => break,
        }
    }
    unpass(pos, passed, undos);
    s.moves[ply] = moves;
    best
}

/// Iterative deepening for the searches of this module and [`super::expectimax`]: depth 1, 2, ...
/// until `limits` (depth, nodes, time, stop flag) say stop or a search is exact (no leaf was cut by
/// the depth limit). The result is the last completed depth's; the statistics count all of them.
/// If not even depth 1 completes, depth 1 is searched without limits.
pub(crate) fn deepen<G: Game>(
    pos: &G,
    limits: &SearchLimits,
    mut one: impl FnMut(&mut G, u32, &mut Scratch<G>) -> (f64, Vec<f64>),
) -> NPlayerResult<G::Move> {
    let start = Instant::now();
    let mut s = Scratch::limited(pos.num_players(), limits, start);
    let max_depth = limits.depth.unwrap_or(SearchLimits::MAX_DEPTH).max(1);
    // (value, values, pv, depth) of the last completed iteration.
    type Done<M> = (f64, Vec<f64>, Vec<M>, u32);
    let mut done: Option<Done<G::Move>> = None;
    for depth in 1..=max_depth {
        s.depth_cut = false;
        let mut root = pos.clone();
        let (value, values) = one(&mut root, depth, &mut s);
        if s.aborted {
            break;
        }
        done = Some((value, values, s.pv[0].clone(), depth));
        if !s.depth_cut {
            break;
        }
    }
    let (value, values, pv, depth) = done.unwrap_or_else(|| {
        let mut plain = Scratch::new(pos.num_players());
        let mut root = pos.clone();
        let (value, values) = one(&mut root, 1, &mut plain);
        s.stats.merge(&plain.stats);
        (value, values, plain.pv[0].clone(), 1)
    });
    s.stats.depth = depth;
    s.stats.time = start.elapsed();
    NPlayerResult {
        best_move: match pos.turn() {
            Turn::Player(_) => pv.first().copied(),
            _ => None,
        },
        value,
        values,
        pv,
        stats: s.stats,
    }
}

/// [`max_n`] with iterative deepening under `limits` (see [`SearchLimits`]).
pub fn max_n_limited<G: Game, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    limits: &SearchLimits,
) -> NPlayerResult<G::Move> {
    let me = pos.to_move();
    deepen(pos, limits, |root, depth, s| {
        max_n_node(root, eval, depth, 0, s);
        let values = s.slot(0).to_vec();
        (values.get(me).copied().unwrap_or(0.0), values)
    })
}

/// [`paranoid`] with iterative deepening under `limits` (see [`SearchLimits`]).
pub fn paranoid_limited<G: Game, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    limits: &SearchLimits,
) -> NPlayerResult<G::Move> {
    let me = pos.to_move();
    deepen(pos, limits, |root, depth, s| {
        let v = two_sided(
            root,
            eval,
            me,
            depth,
            0,
            f64::NEG_INFINITY,
            f64::INFINITY,
            s,
        );
        (v, Vec::new())
    })
}

/// [`best_reply`] with iterative deepening under `limits` (see [`SearchLimits`]).
pub fn best_reply_limited<G: NullMove, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    limits: &SearchLimits,
) -> NPlayerResult<G::Move> {
    let me = pos.to_move();
    let mut undos = Vec::new();
    deepen(pos, limits, |root, depth, s| {
        let v = brs_node(
            root,
            eval,
            me,
            depth,
            0,
            f64::NEG_INFINITY,
            f64::INFINITY,
            s,
            &mut undos,
        );
        (v, Vec::new())
    })
}
