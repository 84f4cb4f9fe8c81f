//! The search players: n-player expectimax over the dice and MCTS with chance nodes.
//!
//! Both are written against this crate's [`Aero`] with its heuristic (see [`crate::eval`]); the
//! generic versions in `qiyi-core` (being written) work on [`Aero`] through the `Game` trait too.

use crate::eval::{all_scores, relative_score, value_table, ValueTable, Weights};
use crate::players::{greedy_choice, Player};
use crate::position::{Aero, AeroMove};
use qiyi_core::{Game, Rng, Turn};
use std::sync::Arc;

/// What a win is worth on the heuristic scale (turns saved).
const WIN: f64 = 100.0;

/// Heuristic value of every player (relative scores), or the scaled returns when the game is over.
fn leaf_values(pos: &Aero, values: &ValueTable, w: &Weights) -> [f64; 4] {
    let n = pos.players();
    let mut out = [0.0; 4];
    if pos.turn() == Turn::Over {
        for (p, o) in out.iter_mut().enumerate().take(n) {
            *o = WIN * pos.returns(p);
        }
        return out;
    }
    let mut scores = [0.0; 4];
    all_scores(pos, values, w, &mut scores);
    for (p, o) in out.iter_mut().enumerate().take(n) {
        *o = relative_score(&scores, p, n, w);
    }
    out
}

/// n-player expectimax (max-n at decisions, the mean at rolls), `depth` rolls deep.
pub struct Expectimax {
    weights: Weights,
    depth: u32,
    /// Positions evaluated by the last search.
    pub nodes: u64,
}

impl Expectimax {
    /// A searcher looking `depth` rolls ahead after the move.
    pub fn new(weights: Weights, depth: u32) -> Self {
        Expectimax {
            weights,
            depth,
            nodes: 0,
        }
    }

    fn value(&mut self, pos: &Aero, depth: u32, values: &ValueTable) -> [f64; 4] {
        self.nodes += 1;
        match pos.turn() {
            Turn::Over => leaf_values(pos, values, &self.weights),
            Turn::Chance => {
                if depth == 0 {
                    return leaf_values(pos, values, &self.weights);
                }
                let mut sum = [0.0; 4];
                for f in 1..=6 {
                    let v = self.value(&pos.after(AeroMove::Roll(f)), depth - 1, values);
                    for k in 0..4 {
                        sum[k] += v[k] / 6.0;
                    }
                }
                sum
            }
            Turn::Player(q) => {
                let mut best = [f64::NEG_INFINITY; 4];
                for &c in pos.choices().as_slice() {
                    let v = self.value(&pos.after(AeroMove::Plane(c)), depth, values);
                    if v[q] > best[q] {
                        best = v;
                    }
                }
                best
            }
        }
    }

    /// The best move and its value for the mover.
    pub fn search(&mut self, pos: &Aero) -> (AeroMove, f64) {
        self.nodes = 0;
        let values = value_table(&pos.rules());
        let me = pos.to_move();
        let c = pos.choices();
        let mut best = (AeroMove::Plane(c.as_slice().first().copied().unwrap_or(0)), f64::NEG_INFINITY);
        for &i in c.as_slice() {
            let v = self.value(&pos.after(AeroMove::Plane(i)), self.depth, &values)[me];
            if v > best.1 {
                best = (AeroMove::Plane(i), v);
            }
        }
        best
    }
}

impl Player for Expectimax {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        self.search(pos).0
    }
}

struct Node {
    visits: u32,
    reward: [f64; 4],
    children: Vec<(AeroMove, u32)>,
}

/// Monte Carlo tree search: UCT at decisions (on the mover's mean reward), sampled rolls at chance
/// nodes, greedy playouts cut after [`Mcts::PLAYOUT_PLIES`] plies and scored by the heuristic.
pub struct Mcts {
    weights: Weights,
    iterations: u32,
    rng: Rng,
    nodes: Vec<Node>,
    /// Exploration constant.
    pub exploration: f64,
}

impl Mcts {
    /// Default iterations per decision.
    pub const ITERATIONS: u32 = 1000;
    /// Plies of a playout before the heuristic scores it.
    pub const PLAYOUT_PLIES: usize = 40;

    /// A searcher running `iterations` per decision.
    pub fn new(weights: Weights, iterations: u32, rng: Rng) -> Self {
        Mcts {
            weights,
            iterations,
            rng,
            nodes: Vec::new(),
            exploration: 0.7,
        }
    }

    fn new_node(&mut self) -> u32 {
        self.nodes.push(Node {
            visits: 0,
            reward: [0.0; 4],
            children: Vec::new(),
        });
        (self.nodes.len() - 1) as u32
    }

    fn playout(&mut self, pos: &Aero, values: &ValueTable) -> [f64; 4] {
        let mut pos = *pos;
        for _ in 0..Self::PLAYOUT_PLIES {
            let mv = match pos.turn() {
                Turn::Over => break,
                Turn::Chance => AeroMove::Roll(self.rng.below(6) as u8 + 1),
                Turn::Player(_) => greedy_choice(&pos),
            };
            pos.play(mv);
        }
        let n = pos.players();
        let mut r = [0.0; 4];
        if pos.turn() == Turn::Over {
            for (p, o) in r.iter_mut().enumerate().take(n) {
                *o = pos.returns(p);
            }
        } else {
            let v = leaf_values(&pos, values, &self.weights);
            for p in 0..n {
                r[p] = (v[p] / 20.0).tanh();
            }
        }
        r
    }

    /// Runs the search from `pos` (a decision) and returns the most visited move.
    pub fn search(&mut self, pos: &Aero) -> AeroMove {
        let values = value_table(&pos.rules());
        self.nodes.clear();
        let root = self.new_node();
        let mut path: Vec<u32> = Vec::with_capacity(64);
        for _ in 0..self.iterations {
            let mut cur = *pos;
            let mut node = root;
            path.clear();
            path.push(node);
            let reward = loop {
                match cur.turn() {
                    Turn::Over => {
                        let mut r = [0.0; 4];
                        for (p, o) in r.iter_mut().enumerate().take(cur.players()) {
                            *o = cur.returns(p);
                        }
                        break r;
                    }
                    Turn::Chance => {
                        let f = self.rng.below(6) as u8 + 1;
                        let mv = AeroMove::Roll(f);
                        cur.play(mv);
                        let existing = self.nodes[node as usize]
                            .children
                            .iter()
                            .find(|c| c.0 == mv)
                            .map(|c| c.1);
                        node = match existing {
                            Some(c) => c,
                            None => {
                                let c = self.new_node();
                                self.nodes[node as usize].children.push((mv, c));
                                c
                            }
                        };
                        path.push(node);
                    }
                    Turn::Player(q) => {
                        let choices = cur.choices();
                        let n_children = self.nodes[node as usize].children.len();
                        if n_children < choices.len() {
                            let mv = AeroMove::Plane(choices.as_slice()[n_children]);
                            cur.play(mv);
                            let c = self.new_node();
                            self.nodes[node as usize].children.push((mv, c));
                            path.push(c);
                            break self.playout(&cur, &values);
                        }
                        let parent_visits = self.nodes[node as usize].visits.max(1) as f64;
                        let ln = parent_visits.ln();
                        let mut best = (f64::NEG_INFINITY, 0u32, AeroMove::Plane(0));
                        for &(mv, c) in &self.nodes[node as usize].children {
                            let child = &self.nodes[c as usize];
                            let n = child.visits.max(1) as f64;
                            let u = child.reward[q] / n + self.exploration * (ln / n).sqrt();
                            if u > best.0 {
                                best = (u, c, mv);
                            }
                        }
                        cur.play(best.2);
                        node = best.1;
                        path.push(node);
                    }
                }
            };
            for &n in &path {
                let nd = &mut self.nodes[n as usize];
                nd.visits += 1;
                for k in 0..4 {
                    nd.reward[k] += reward[k];
                }
            }
        }
        self.nodes[root as usize]
            .children
            .iter()
            .max_by_key(|c| self.nodes[c.1 as usize].visits)
            .map(|c| c.0)
            .unwrap_or(AeroMove::Plane(pos.choices().as_slice().first().copied().unwrap_or(0)))
    }
}

impl Player for Mcts {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        if pos.choices().len() <= 1 {
            return AeroMove::Plane(pos.choices().as_slice().first().copied().unwrap_or(0));
        }
        self.search(pos)
    }
}

/// Shared value table handle (for callers that evaluate many positions).
pub fn values_for(pos: &Aero) -> Arc<ValueTable> {
    value_table(&pos.rules())
}
