//! Evaluation: how far each player's pieces still have to go.
//!
//! A player's *badness* is the sum of its pieces' distances to its goal tip, plus a straggler
//! penalty (the farthest piece's distance beyond 4, times [`STRAGGLER_WEIGHT`]) so the engine
//! does not leave one piece behind. The two-player [`DistanceEval`] scores the difference for
//! alpha-beta; [`MultiDistanceEval`] gives every player its lead over the average opponent for
//! the n-player searches; [`GreedyPolicy`] is the playout policy of MCTS.

use crate::board::{geometry, Bits};
use crate::position::{Move, Position};
use qiyi_core::eval::{Evaluator, MultiEvaluator, Policy, Score};
use qiyi_core::{Game, NullMove, Rng};

/// Weight of the farthest piece's distance beyond 4 holes.
pub const STRAGGLER_WEIGHT: i32 = 3;

/// Distance still to go for `player`, with the straggler penalty (lower is better).
#[inline]
pub fn badness(pos: &Position, player: usize) -> i32 {
    let g = geometry();
    let tip = pos.goal_tip(player) as usize;
    let mut sum = 0i32;
    let mut worst = 0i32;
    for c in Bits(pos.pieces(player)) {
        let d = g.dist[tip][c as usize] as i32;
        sum += d;
        worst = worst.max(d);
    }
    sum + STRAGGLER_WEIGHT * (worst - 4).max(0)
}

/// Two-player evaluation: the opponent's badness minus ours, in tenths of a hole.
#[derive(Clone, Copy, Debug, Default)]
pub struct DistanceEval;

impl Evaluator<Position> for DistanceEval {
    fn evaluate(&self, pos: &Position) -> Score {
        let me = pos.to_move();
        let n = pos.num_players();
        let mut others = 0;
        for p in (0..n).filter(|&p| p != me) {
            others += badness(pos, p);
        }
        10 * (others / (n as i32 - 1).max(1) - badness(pos, me))
    }

    fn move_order(&self, pos: &Position, mv: Move) -> i32 {
        gain(pos, mv)
    }
}

/// N-player evaluation: each player's lead (in holes) over the mean badness of the others,
/// the others counting with weight [`MultiDistanceEval::others`] (0: a pure race).
#[derive(Clone, Copy, Debug)]
pub struct MultiDistanceEval {
    /// Weight of the opponents' mean badness.
    pub others: f64,
}

impl Default for MultiDistanceEval {
    fn default() -> Self {
        MultiDistanceEval { others: 1.0 }
    }
}

impl MultiEvaluator<Position> for MultiDistanceEval {
    fn evaluate(&self, pos: &Position, out: &mut [f64]) {
        let n = pos.num_players();
        let mut b = [0f64; 6];
        let mut total = 0.0;
        for (p, slot) in b.iter_mut().enumerate().take(n) {
            *slot = badness(pos, p) as f64;
            total += *slot;
        }
        for p in 0..n {
            let others = (total - b[p]) / (n as f64 - 1.0);
            out[p] = self.others * others - b[p];
        }
    }

    fn scale(&self) -> f64 {
        200.0
    }
}

/// Holes gained toward the mover's goal tip by `mv` (negative when it goes back).
#[inline]
pub fn gain(pos: &Position, mv: Move) -> i32 {
    if mv.is_pass() {
        return 0;
    }
    let g = geometry();
    let tip = pos.goal_tip(pos.to_move()) as usize;
    g.dist[tip][mv.from as usize] as i32 - g.dist[tip][mv.to as usize] as i32
}

/// The playout policy: with probability `1 - epsilon` a move of greatest gain (ties at random,
/// preferring the piece farthest behind), otherwise any move that does not go backwards.
#[derive(Clone, Copy, Debug)]
pub struct GreedyPolicy {
    /// Chance of a non-greedy move.
    pub epsilon: f64,
}

impl Default for GreedyPolicy {
    fn default() -> Self {
        GreedyPolicy { epsilon: 0.15 }
    }
}

impl Policy<Position> for GreedyPolicy {
    fn choose(&self, pos: &Position, moves: &[Move], rng: &mut Rng) -> Move {
        let g = geometry();
        let tip = pos.goal_tip(pos.to_move()) as usize;
        if rng.unit() < self.epsilon {
            let forward = moves.iter().filter(|&&m| gain(pos, m) >= 0).count();
            if forward > 0 {
                let mut k = rng.below(forward);
                for &m in moves {
                    if gain(pos, m) >= 0 {
                        if k == 0 {
                            return m;
                        }
                        k -= 1;
                    }
                }
            }
            return moves[rng.below(moves.len())];
        }
        let key = |m: Move| {
            if m.is_pass() {
                return 0;
            }
            gain(pos, m) * 32 + g.dist[tip][m.from as usize] as i32
        };
        let best = moves.iter().map(|&m| key(m)).max().unwrap_or(0);
        let count = moves.iter().filter(|&&m| key(m) == best).count();
        let mut k = rng.below(count.max(1));
        for &m in moves {
            if key(m) == best {
                if k == 0 {
                    return m;
                }
                k -= 1;
            }
        }
        moves[0]
    }
}

impl NullMove for Position {
    fn make_null(&mut self) -> Self::Undo {
        self.make(Move::PASS)
    }

    fn unmake_null(&mut self, undo: Self::Undo) {
        self.unmake(Move::PASS, undo)
    }
}
