//! Plain minimax in negamax form: no pruning, no table. The teaching baseline and the oracle every
//! other two-player search is tested against.

use super::{SearchResult, SearchStats};
use crate::eval::{Evaluator, Score, INFINITY};
use crate::game::Game;
use std::time::Instant;

/// Searches `pos` to `depth` plies with plain minimax and returns the exact depth-limited value.
///
/// Among equal best moves the first generated is kept, so the result is deterministic.
pub fn minimax<G: Game, E: Evaluator<G>>(pos: &G, eval: &E, depth: u32) -> SearchResult<G::Move> {
    let start = Instant::now();
    let mut stats = SearchStats::default();
    let mut pos = pos.clone();
    let mut pv = Vec::new();
    let score = negamax(&mut pos, eval, depth, 0, &mut stats, &mut pv);
    stats.depth = depth;
    stats.time = start.elapsed();
    SearchResult {
        best_move: pv.first().copied(),
        score,
        pv,
        stats,
    }
}

fn negamax<G: Game, E: Evaluator<G>>(
    pos: &mut G,
    eval: &E,
    depth: u32,
    ply: usize,
    stats: &mut SearchStats,
    pv: &mut Vec<G::Move>,
) -> Score {
    stats.nodes += 1;
    stats.seldepth = stats.seldepth.max(ply as u32);
    pv.clear();
    if pos.is_over() {
        return eval.terminal_score(pos, ply);
    }
    if ply > 0 {
        if let Some(score) = eval.rule_score(pos, ply) {
            return score;
        }
    }
    if depth == 0 {
        return eval.evaluate(pos);
    }
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best = -INFINITY;
    let mut child_pv = Vec::new();
    for mv in moves {
        let undo = pos.make(mv);
        let score = -negamax(pos, eval, depth - 1, ply + 1, stats, &mut child_pv);
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
