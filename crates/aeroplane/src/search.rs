//! The search players, built on `qiyi-core`'s generic algorithms: n-player expectimax (max-n over
//! the dice) and MCTS (UCT with chance nodes), with this crate's heuristic as the leaf evaluator and
//! the greedy score as the playout policy.

use crate::eval::{all_scores, relative_score, value_table, ValueTable, Weights};
use crate::oneply::greedy_choice;
use crate::player::Player;
use crate::position::{Aero, AeroMove};
use qiyi_core::search::expectimax::expectimax;
use qiyi_core::search::mcts::{mcts, MctsOptions};
use qiyi_core::search::SearchLimits;
use qiyi_core::{MultiEvaluator, Policy, Rng};
use std::sync::Arc;

pub use crate::eval::WIN;

/// The heuristic as a core [`MultiEvaluator`]: each player's relative score (see
/// [`crate::eval::relative_score`]); a win is worth [`WIN`].
#[derive(Clone, Debug)]
pub struct AeroEval {
    weights: Weights,
    values: Arc<ValueTable>,
}

impl AeroEval {
    /// The evaluator for `pos`'s rules with `weights`.
    pub fn new(pos: &Aero, weights: Weights) -> Self {
        AeroEval {
            weights,
            values: value_table(&pos.rules()),
        }
    }
}

impl MultiEvaluator<Aero> for AeroEval {
    fn evaluate(&self, pos: &Aero, out: &mut [f64]) {
        let n = pos.players();
        let mut scores = [0.0; 4];
        all_scores(pos, &self.values, &self.weights, &mut scores);
        for (p, o) in out.iter_mut().enumerate().take(n) {
            *o = relative_score(&scores, p, n, &self.weights);
        }
    }

    fn scale(&self) -> f64 {
        WIN
    }
}

/// The playout policy: the article's greedy choice, with `epsilon` of the moves random.
#[derive(Clone, Copy, Debug)]
pub struct GreedyPolicy {
    /// Share of random moves.
    pub epsilon: f64,
}

impl Policy<Aero> for GreedyPolicy {
    fn choose(&self, pos: &Aero, moves: &[AeroMove], rng: &mut Rng) -> AeroMove {
        if self.epsilon > 0.0 && rng.unit() < self.epsilon {
            return moves[rng.below(moves.len())];
        }
        greedy_choice(pos)
    }
}

fn only_move(pos: &Aero) -> Option<AeroMove> {
    let c = pos.choices();
    match c.len() {
        0 => Some(AeroMove::Plane(0)),
        1 => Some(AeroMove::Plane(c.as_slice()[0])),
        _ => None,
    }
}

/// `expectimax`: core's n-player expectimax, `depth` plies (rolls and decisions both count).
pub struct ExpectimaxPlayer {
    weights: Weights,
    depth: u32,
    /// Nodes of the last search.
    pub nodes: u64,
}

impl ExpectimaxPlayer {
    /// Default depth: the decision, the next roll and decision, and the roll and decision after.
    pub const DEPTH: u32 = 5;

    /// A player searching `depth` plies.
    pub fn new(weights: Weights, depth: u32) -> Self {
        ExpectimaxPlayer {
            weights,
            depth,
            nodes: 0,
        }
    }
}

impl Player for ExpectimaxPlayer {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        if let Some(mv) = only_move(pos) {
            return mv;
        }
        let eval = AeroEval::new(pos, self.weights);
        let r = expectimax(pos, &eval, self.depth);
        self.nodes = r.stats.nodes;
        r.best_move.unwrap_or_else(|| greedy_choice(pos))
    }
}

/// `mcts`: core's UCT with chance nodes and greedy playouts, a fixed playout budget.
pub struct MctsPlayer {
    playouts: u64,
    rng: Rng,
    policy: GreedyPolicy,
}

impl MctsPlayer {
    /// Default playouts per decision.
    pub const PLAYOUTS: u64 = 300;

    /// A player running `playouts` per decision.
    pub fn new(playouts: u64, rng: Rng) -> Self {
        MctsPlayer {
            playouts,
            rng,
            policy: GreedyPolicy { epsilon: 0.1 },
        }
    }
}

impl Player for MctsPlayer {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        if let Some(mv) = only_move(pos) {
            return mv;
        }
        let options = MctsOptions {
            seed: self.rng.next_u64(),
            exploration: 0.7,
            ..MctsOptions::default()
        };
        let r = mcts(
            pos,
            &self.policy,
            &options,
            &SearchLimits::nodes(self.playouts),
        );
        r.best_move.unwrap_or_else(|| greedy_choice(pos))
    }
}
