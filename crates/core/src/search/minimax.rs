//! Plain minimax in negamax form: no pruning, no table. The teaching baseline and the oracle every
//! other two-player search is tested against.
//!
//! [`minimax_with`] adds the two options that change what a depth-limited search computes
//! (quiescence at the horizon and check extensions), defined exactly as alpha-beta applies them,
//! so alpha-beta with those options can be checked against an unpruned search too.

use super::{SearchResult, SearchStats};
use crate::eval::{Evaluator, Score, INFINITY};
use crate::game::Game;
use crate::platform::Instant;

/// The value-changing options of [`minimax_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MinimaxOptions {
    /// At the horizon, search noisy moves (all moves when in check) until quiet, standing pat on
    /// the static evaluation when not in check.
    pub quiescence: bool,
    /// A position in check is searched one ply deeper (up to twice the root depth in plies).
    pub check_extension: bool,
}

/// Searches `pos` to `depth` plies with plain minimax and returns the exact depth-limited value.
///
/// Among equal best moves the first generated is kept, so the result is deterministic.
pub fn minimax<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, depth: u32) -> SearchResult<G::Move> {
    minimax_with(pos, eval, depth, MinimaxOptions::default())
}

/// Plain minimax with quiescence and/or check extensions (see [`MinimaxOptions`]).
pub fn minimax_with<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    options: MinimaxOptions,
) -> SearchResult<G::Move> {
    search(pos, eval, depth, options, u64::MAX)
        .expect("an unlimited minimax search always finishes")
}

/// [`minimax_with`] that gives up (returns `None`) once it has visited more than `max_nodes`
/// positions: an oracle for positions whose unpruned tree may be too large to search (the
/// quiescence tree of a tactical middlegame).
pub fn minimax_with_budget<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    options: MinimaxOptions,
    max_nodes: u64,
) -> Option<SearchResult<G::Move>> {
    search(pos, eval, depth, options, max_nodes)
}

fn search<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    options: MinimaxOptions,
    max_nodes: u64,
) -> Option<SearchResult<G::Move>> {
    let start = Instant::now();
    let mut m = Minimax {
        eval,
        options,
        root_depth: depth as i32,
        stats: SearchStats::default(),
        max_nodes,
    };
    let mut pos = pos.clone();
    let mut pv = Vec::new();
    let score = m.negamax(&mut pos, depth as i32, 0, &mut pv);
    if m.stats.nodes > max_nodes {
        return None;
    }
    let mut stats = m.stats;
    stats.depth = depth;
    stats.time = start.elapsed();
    Some(SearchResult {
        best_move: pv.first().copied(),
        score,
        pv,
        stats,
    })
}

const MAX_PLY: usize = 128;

struct Minimax<'a, E> {
    eval: &'a E,
    options: MinimaxOptions,
    root_depth: i32,
    stats: SearchStats,
    max_nodes: u64,
}

impl<E> Minimax<'_, E> {
    /// Counts a node; false once the budget is spent (the search then unwinds at once).
    fn visit(&mut self, ply: usize) -> bool {
        self.stats.nodes += 1;
        self.stats.seldepth = self.stats.seldepth.max(ply as u32);
        self.stats.nodes <= self.max_nodes
    }

    fn negamax<G: Game>(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        ply: usize,
        pv: &mut Vec<G::Move>,
    ) -> Score
    where
        E: Evaluator<G>,
    {
        pv.clear();
        if !self.visit(ply) {
            return 0;
        }
        if ply > 0 {
            if let Some(score) = self.eval.rule_score(pos, ply) {
                return score;
            }
        }
        if pos.is_over() {
            return self.eval.terminal_score(pos, ply);
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(pos);
        }
        if self.options.check_extension
            && (ply as i32) < 2 * self.root_depth
            && self.eval.in_check(pos)
        {
            depth += 1;
        }
        if depth <= 0 {
            return if self.options.quiescence {
                self.quiescence(pos, ply, pv)
            } else {
                self.eval.evaluate(pos)
            };
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut best = -INFINITY;
        let mut child_pv = Vec::new();
        for mv in moves {
            let undo = pos.make(mv);
            let score = -self.negamax(pos, depth - 1, ply + 1, &mut child_pv);
            pos.unmake(mv, undo);
            if score > best {
                best = score;
                pv.clear();
                pv.push(mv);
                pv.extend_from_slice(&child_pv);
            }
        }
        best
    }

    fn quiescence<G: Game>(&mut self, pos: &mut G, ply: usize, pv: &mut Vec<G::Move>) -> Score
    where
        E: Evaluator<G>,
    {
        let in_check = self.eval.in_check(pos);
        let mut best = if in_check {
            -INFINITY
        } else {
            self.eval.evaluate(pos)
        };
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut child_pv = Vec::new();
        for mv in moves {
            if !in_check && !self.eval.is_noisy(pos, mv) {
                continue;
            }
            let undo = pos.make(mv);
            let score = -self.quiescent_node(pos, ply + 1, &mut child_pv);
            pos.unmake(mv, undo);
            if score > best {
                best = score;
                pv.clear();
                pv.push(mv);
                pv.extend_from_slice(&child_pv);
            }
        }
        best
    }

    fn quiescent_node<G: Game>(&mut self, pos: &mut G, ply: usize, pv: &mut Vec<G::Move>) -> Score
    where
        E: Evaluator<G>,
    {
        pv.clear();
        if !self.visit(ply) {
            return 0;
        }
        self.stats.qnodes += 1;
        if pos.is_over() {
            return self.eval.terminal_score(pos, ply);
        }
        if let Some(score) = self.eval.rule_score(pos, ply) {
            return score;
        }
        if ply >= MAX_PLY {
            return self.eval.evaluate(pos);
        }
        self.quiescence(pos, ply, pv)
    }
}
