//! Monte Carlo tree search: UCT (with an optional PUCT prior hook) for any number of players and
//! for games with chance nodes.
//!
//! Each iteration descends the tree from the root: at a player's node it takes the child with the
//! best upper confidence bound for *that* player (UCT, Kocsis & Szepesvári 2006; or PUCT when a
//! [`Prior`] gives move probabilities), at a chance node it picks an outcome by its probability:
//! sampled ([`ChanceMode::Sample`], the default) or, with [`ChanceMode::Expectation`], the outcome
//! furthest behind its share of the visits (so the shares track the probabilities exactly) while
//! the parent values the chance node by the probability-weighted mean of its outcomes' means
//! instead of the plain mean of its playouts.
//! A node is expanded (all its children added) on its second visit; from the new leaf a playout
//! with the [`Policy`] finishes the game, and every node on the path adds the final return of the
//! player who chose it ([`Game::returns`] mapped from `[-1, 1]` to `[0, 1]`).
//!
//! Nodes live in one arena (`Vec`), children contiguous, no per-node boxing. With `threads > 1`
//! the search uses root parallelism: independent trees seeded with [`Rng::derive`]`(seed, t)`,
//! each given its share of the playout budget, their root visit counts summed. For a given seed,
//! thread count and playout budget the result is always the same.
//!
//! Budget ([`SearchLimits`]): `nodes` counts playouts; `move_time`, `deadline` and `stop` apply
//! as usual; `depth` is ignored. With no limit set, 10 000 playouts are run.
//!
//! ```
//! use qiyi_core::eval::RandomPolicy;
//! use qiyi_core::search::mcts::{mcts, MctsOptions};
//! use qiyi_core::search::SearchLimits;
//! use qiyi_core::toys::race::{Race, RaceMove};
//!
//! // Two players, steps of 1-3 to reach 13: from 0 the winning move is to 1 (13 - 1 = 3 * 4).
//! let race = Race::new(2, 13, 3).unwrap();
//! let r = mcts(&race, &RandomPolicy, &MctsOptions::default(), &SearchLimits::nodes(20_000));
//! assert_eq!(r.best_move, Some(RaceMove(1)));
//! ```

use super::SearchLimits;
use crate::eval::{MultiEvaluator, Policy};
use crate::game::{Game, Turn};
use crate::platform::Instant;
use crate::rng::Rng;
use std::time::Duration;

/// Move probabilities for PUCT (a policy network, or a heuristic's softmax).
pub trait Prior<G: Game>: Send + Sync {
    /// Writes one non-negative weight per move of `moves` into `out` (cleared first); weights are
    /// normalised by the search. Writing nothing means "no prior": the node uses UCT.
    fn priors(&self, pos: &G, moves: &[G::Move], out: &mut Vec<f64>);
}

/// No prior: plain UCT.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPrior;

impl<G: Game> Prior<G> for NoPrior {
    fn priors(&self, _pos: &G, _moves: &[G::Move], out: &mut Vec<f64>) {
        out.clear();
    }
}

/// How chance nodes are handled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ChanceMode {
    /// Sample outcomes by their probabilities; a chance node's value is its playouts' mean.
    #[default]
    Sample,
    /// Visit the outcome furthest below its probability share; a chance node's value is the
    /// probability-weighted mean of its visited outcomes' means (lower variance).
    Expectation,
}

/// Options of the search.
#[derive(Clone, Debug)]
pub struct MctsOptions {
    /// How chance nodes are handled.
    pub chance: ChanceMode,
    /// Exploration constant `c`: UCT adds `c * sqrt(ln N / n)`, PUCT `c * P * sqrt(N) / (1 + n)`.
    pub exploration: f64,
    /// Independent trees searched in parallel (root parallelism).
    pub threads: usize,
    /// Seed; thread `t` uses `Rng::derive(seed, t)`.
    pub seed: u64,
    /// A playout still going after this many moves stops; it scores 0 (a draw) for everyone, or
    /// what the cutoff evaluator of [`mcts_with_cutoff`] says.
    pub max_playout_plies: usize,
    /// Most nodes per tree; once full, leaves are no longer expanded (playouts go on).
    pub max_nodes: usize,
}

impl Default for MctsOptions {
    fn default() -> Self {
        MctsOptions {
            chance: ChanceMode::Sample,
            exploration: std::f64::consts::SQRT_2,
            threads: 1,
            seed: 0,
            max_playout_plies: 10_000,
            max_nodes: 4_000_000,
        }
    }
}

/// What the search learned about one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveVisits<M> {
    /// The move (or chance outcome, when the root is a chance node).
    pub mv: M,
    /// Visits, summed over the trees.
    pub visits: u64,
    /// Mean return, in `[-1, 1]`, of the player who chooses it (for the outcomes of a chance
    /// root, of the player the roll belongs to).
    pub mean: f64,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The most visited root move (higher mean, then generation order, breaking ties); `None` when
    /// the root is over or a chance node.
    pub best_move: Option<M>,
    /// Every root move with its visits, in generation order.
    pub visits: Vec<MoveVisits<M>>,
    /// Mean return of the root player over all playouts, in `[-1, 1]`.
    pub value: f64,
    /// Playouts run (all threads).
    pub playouts: u64,
    /// Tree nodes created (all threads).
    pub nodes: u64,
    /// Deepest node reached in any tree.
    pub max_depth: u32,
    /// Wall time.
    pub time: Duration,
}

impl<M> MctsResult<M> {
    /// Playouts per second.
    pub fn playouts_per_second(&self) -> f64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            self.playouts as f64 / secs
        } else {
            0.0
        }
    }
}

/// UCT search from `pos` with `policy` playouts.
pub fn mcts<G: Game, P: Policy<G>>(
    pos: &G,
    policy: &P,
    options: &MctsOptions,
    limits: &SearchLimits,
) -> MctsResult<G::Move> {
    mcts_with_prior(pos, policy, &NoPrior, options, limits)
}

/// MCTS from `pos` with `policy` playouts and PUCT selection where `prior` gives probabilities.
pub fn mcts_with_prior<G: Game, P: Policy<G>, R: Prior<G>>(
    pos: &G,
    policy: &P,
    prior: &R,
    options: &MctsOptions,
    limits: &SearchLimits,
) -> MctsResult<G::Move> {
    mcts_with_cutoff(pos, policy, prior, &DrawAtCutoff, options, limits)
}

/// Scores playouts cut by [`MctsOptions::max_playout_plies`] as draws (0 for everyone).
#[derive(Clone, Copy, Debug, Default)]
pub struct DrawAtCutoff;

impl<G: Game> MultiEvaluator<G> for DrawAtCutoff {
    fn evaluate(&self, _pos: &G, out: &mut [f64]) {
        out.fill(0.0);
    }
}

/// The most general form: PUCT `prior`, and playouts cut after
/// [`MctsOptions::max_playout_plies`] moves scored by `cutoff` (each value divided by
/// [`MultiEvaluator::scale`] and clamped to `[-1, 1]`), for games whose random playouts are long.
pub fn mcts_with_cutoff<G: Game, P: Policy<G>, R: Prior<G>, E: MultiEvaluator<G>>(
    pos: &G,
    policy: &P,
    prior: &R,
    cutoff: &E,
    options: &MctsOptions,
    limits: &SearchLimits,
) -> MctsResult<G::Move> {
    let start = Instant::now();
    let threads = crate::platform::search_threads(options.threads);
    let budget = match (limits.nodes, limits.effective_deadline(start), &limits.stop) {
        (None, None, None) => Some(10_000),
        (n, _, _) => n,
    };
    let share =
        |t: usize| budget.map(|b| b / threads as u64 + u64::from((t as u64) < b % threads as u64));
    let run = |t: usize| {
        let mut tree = Tree::new(pos, options, Rng::derive(options.seed, t as u64));
        tree.run(pos, policy, prior, cutoff, limits, share(t), start);
        tree
    };
    let trees: Vec<Tree<G>> = if threads == 1 {
        vec![run(0)]
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let run = &run;
                    scope.spawn(move || run(t))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("an MCTS thread panicked"))
                .collect()
        })
    };
    merge(pos, &trees, start)
}

fn merge<G: Game>(pos: &G, trees: &[Tree<G>], start: Instant) -> MctsResult<G::Move> {
    let first = &trees[0];
    let root = &first.nodes[0];
    let mut visits: Vec<MoveVisits<G::Move>> = (0..root.num_children as usize)
        .map(|i| MoveVisits {
            mv: first.nodes[root.first_child as usize + i]
                .mv
                .expect("children have moves"),
            visits: 0,
            mean: 0.0,
        })
        .collect();
    let mut reward = vec![0.0; visits.len()];
    let (mut playouts, mut nodes, mut max_depth, mut root_reward) = (0u64, 0u64, 0u32, 0.0);
    for tree in trees {
        let r = &tree.nodes[0];
        playouts += tree.playouts;
        nodes += tree.nodes.len() as u64;
        max_depth = max_depth.max(tree.max_depth);
        root_reward += tree.root_reward;
        // Every tree expands the same root the same way, so children line up by index.
        for (i, v) in visits.iter_mut().enumerate().take(r.num_children as usize) {
            let c = &tree.nodes[r.first_child as usize + i];
            v.visits += c.visits as u64;
            reward[i] += c.reward;
        }
    }
    for (v, &r) in visits.iter_mut().zip(&reward) {
        v.mean = if v.visits > 0 {
            2.0 * r / v.visits as f64 - 1.0
        } else {
            0.0
        };
    }
    let mut best: Option<&MoveVisits<G::Move>> = None;
    for v in &visits {
        let better = match best {
            None => true,
            Some(b) => v.visits > b.visits || (v.visits == b.visits && v.mean > b.mean),
        };
        if better {
            best = Some(v);
        }
    }
    let best_move = match pos.turn() {
        Turn::Player(_) if best.is_some_and(|b| b.visits > 0) => best.map(|b| b.mv),
        _ => None,
    };
    MctsResult {
        best_move,
        visits,
        value: if playouts > 0 {
            2.0 * root_reward / playouts as f64 - 1.0
        } else {
            0.0
        },
        playouts,
        nodes,
        max_depth,
        time: start.elapsed(),
    }
}

/// A tree node. Children of a node are contiguous in the arena.
#[derive(Clone, Debug)]
struct Node<M> {
    /// The move that leads here (`None` at the root).
    mv: Option<M>,
    first_child: u32,
    num_children: u32,
    visits: u32,
    /// Sum of the returns, mapped to `[0, 1]`, of `player`.
    reward: f64,
    /// PUCT prior, or the probability of a chance outcome.
    prior: f32,
    /// Whose returns `reward` sums: the player who chose `mv`; for a chance outcome, the player
    /// who chose the move into the chance node (at the root, the root player).
    player: u8,
    expanded: bool,
    /// Whether this node is a chance node (its children are outcomes).
    chance: bool,
}

struct Tree<G: Game> {
    nodes: Vec<Node<G::Move>>,
    rng: Rng,
    exploration: f64,
    chance_mode: ChanceMode,
    max_nodes: usize,
    max_plies: usize,
    playouts: u64,
    max_depth: u32,
    /// Sum of the root player's mapped returns over all playouts.
    root_reward: f64,
    root_player: usize,
    // Buffers reused across iterations.
    path: Vec<u32>,
    moves: Vec<G::Move>,
    outcomes: Vec<(G::Move, f64)>,
    priors: Vec<f64>,
    returns: Vec<f64>,
}

impl<G: Game> Tree<G> {
    fn new(pos: &G, options: &MctsOptions, rng: Rng) -> Self {
        Tree {
            nodes: vec![Node {
                mv: None,
                first_child: 0,
                num_children: 0,
                visits: 0,
                reward: 0.0,
                prior: 1.0,
                player: pos.to_move() as u8,
                expanded: false,
                chance: false,
            }],
            rng,
            exploration: options.exploration,
            chance_mode: options.chance,
            max_nodes: options.max_nodes.max(1),
            max_plies: options.max_playout_plies,
            playouts: 0,
            max_depth: 0,
            root_reward: 0.0,
            root_player: pos.to_move(),
            path: Vec::new(),
            moves: Vec::new(),
            outcomes: Vec::new(),
            priors: Vec::new(),
            returns: vec![0.0; pos.num_players()],
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run<P: Policy<G>, R: Prior<G>, E: MultiEvaluator<G>>(
        &mut self,
        root: &G,
        policy: &P,
        prior: &R,
        cutoff: &E,
        limits: &SearchLimits,
        budget: Option<u64>,
        start: Instant,
    ) {
        let deadline = limits.effective_deadline(start);
        if root.is_over() {
            return;
        }
        self.expand(0, root, prior);
        loop {
            if budget.is_some_and(|b| self.playouts >= b) {
                break;
            }
            if self.playouts % 64 == 0
                && (limits.stop_requested() || deadline.is_some_and(|d| Instant::now() >= d))
            {
                break;
            }
            self.iterate(root, policy, prior, cutoff);
        }
    }

    fn expand<R: Prior<G>>(&mut self, node: usize, pos: &G, prior: &R) {
        let first = self.nodes.len();
        let player = pos.to_move() as u8;
        match pos.turn() {
            Turn::Over => return,
            Turn::Chance => {
                pos.chance_outcomes(&mut self.outcomes);
                if first + self.outcomes.len() > self.max_nodes && node != 0 {
                    return;
                }
                let chooser = self.nodes[node].player;
                for &(mv, p) in &self.outcomes {
                    self.nodes.push(Node::leaf(mv, p as f32, chooser));
                }
            }
            Turn::Player(_) => {
                pos.legal_moves(&mut self.moves);
                if first + self.moves.len() > self.max_nodes && node != 0 {
                    return;
                }
                prior.priors(pos, &self.moves, &mut self.priors);
                let use_prior = self.priors.len() == self.moves.len() && !self.moves.is_empty();
                let total: f64 = if use_prior {
                    self.priors.iter().sum()
                } else {
                    0.0
                };
                for (i, &mv) in self.moves.iter().enumerate() {
                    let p = if use_prior && total > 0.0 {
                        (self.priors[i] / total) as f32
                    } else {
                        -1.0 // no prior: UCT
                    };
                    self.nodes.push(Node::leaf(mv, p, player));
                }
            }
        }
        let count = (self.nodes.len() - first) as u32;
        let n = &mut self.nodes[node];
        n.first_child = first as u32;
        n.num_children = count;
        n.expanded = true;
        n.chance = pos.turn() == Turn::Chance;
    }

    /// The child to descend into from `node`, where `turn` is to act.
    fn select(&mut self, node: usize, turn: Turn) -> usize {
        let n = &self.nodes[node];
        let (first, count) = (n.first_child as usize, n.num_children as usize);
        let children = &self.nodes[first..first + count];
        if turn == Turn::Chance {
            if self.chance_mode == ChanceMode::Sample {
                return first + self.rng.weighted(children.iter().map(|c| c.prior as f64));
            }
            // The outcome furthest behind its share of the visits (the first of equals).
            let total = n.visits as f64 + 1.0;
            let mut best = first;
            let mut deficit = f64::NEG_INFINITY;
            for (i, c) in children.iter().enumerate() {
                let d = c.prior as f64 * total - c.visits as f64;
                if d > deficit {
                    deficit = d;
                    best = first + i;
                }
            }
            return best;
        }
        let parent_visits = n.visits.max(1) as f64;
        let log_n = parent_visits.ln();
        let sqrt_n = parent_visits.sqrt();
        let c = self.exploration;
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        for (i, child) in children.iter().enumerate() {
            let score = if child.prior < 0.0 {
                // UCT: unvisited children first, in generation order.
                if child.visits == 0 {
                    return first + i;
                }
                let v = child.visits as f64;
                self.mean(first + i) + c * (log_n / v).sqrt()
            } else {
                let v = child.visits as f64;
                let q = if child.visits == 0 {
                    0.5
                } else {
                    self.mean(first + i)
                };
                q + c * child.prior as f64 * sqrt_n / (1.0 + v)
            };
            if score > best_score {
                best_score = score;
                best = first + i;
            }
        }
        best
    }

    /// The value in `[0, 1]` of a visited node for the player who chose it.
    #[inline]
    fn mean(&self, node: usize) -> f64 {
        let n = &self.nodes[node];
        if self.chance_mode == ChanceMode::Expectation && n.chance && n.expanded {
            let first = n.first_child as usize;
            let (mut sum, mut weight) = (0.0, 0.0);
            for c in &self.nodes[first..first + n.num_children as usize] {
                if c.visits > 0 {
                    // Outcomes accumulate the returns of the player who chose this node.
                    sum += c.prior as f64 * c.reward / c.visits as f64;
                    weight += c.prior as f64;
                }
            }
            if weight > 0.0 {
                return sum / weight;
            }
        }
        n.reward / n.visits.max(1) as f64
    }

    fn iterate<P: Policy<G>, R: Prior<G>, E: MultiEvaluator<G>>(
        &mut self,
        root: &G,
        policy: &P,
        prior: &R,
        cutoff: &E,
    ) {
        let mut pos = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut node = 0usize;
        loop {
            let turn = pos.turn();
            if turn == Turn::Over {
                break;
            }
            if !self.nodes[node].expanded {
                if self.nodes[node].visits == 0 {
                    break; // a new leaf: play out from here
                }
                self.expand(node, &pos, prior);
                if !self.nodes[node].expanded {
                    break; // the arena is full
                }
            }
            node = self.select(node, turn);
            pos.make(self.nodes[node].mv.expect("children have moves"));
            self.path.push(node as u32);
        }
        self.max_depth = self.max_depth.max(self.path.len() as u32 - 1);
        let (ret, _) = super::montecarlo::playout(
            &mut pos,
            policy,
            0,
            self.max_plies,
            &mut self.rng,
            &mut self.moves,
            &mut self.outcomes,
        );
        if ret.is_some() {
            for (p, r) in self.returns.iter_mut().enumerate() {
                *r = (pos.returns(p) + 1.0) / 2.0;
            }
        } else {
            cutoff.evaluate(&pos, &mut self.returns);
            let scale = cutoff.scale();
            for r in self.returns.iter_mut() {
                *r = ((*r / scale).clamp(-1.0, 1.0) + 1.0) / 2.0;
            }
        }
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.reward += self.returns[n.player as usize];
        }
        self.root_reward += self.returns[self.root_player];
        self.playouts += 1;
    }
}

impl<M> Node<M> {
    fn leaf(mv: M, prior: f32, player: u8) -> Self {
        Node {
            mv: Some(mv),
            first_child: 0,
            num_children: 0,
            visits: 0,
            reward: 0.0,
            prior,
            player,
            expanded: false,
            chance: false,
        }
    }
}
