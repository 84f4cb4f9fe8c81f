//! Flat Monte Carlo: for every legal root move, a fixed number of random playouts; the move with
//! the best mean return is played. The method of the aeroplane-chess seed, and a baseline for MCTS.
//!
//! Playouts run in parallel on the current rayon pool. Playout `i` of root move `m` draws its
//! random numbers from [`Rng::derive`]`(seed, m * playouts + i)` and the means are summed in a
//! fixed order, so the result is the same whatever the number of threads.
//!
//! ```
//! use qiyi_core::eval::RandomPolicy;
//! use qiyi_core::search::montecarlo::{flat_monte_carlo, FlatOptions};
//! use qiyi_core::toys::race::{Race, RaceMove};
//!
//! // Two players, counter 7 of 10, steps of 1-3: adding 3 wins at once.
//! let race = Race::with_counter(2, 10, 3, 7, 0).unwrap();
//! let r = flat_monte_carlo(&race, &RandomPolicy, &FlatOptions { playouts: 200, ..Default::default() });
//! assert_eq!(r.best_move, Some(RaceMove(3))); // reaching the target at once
//! ```

use crate::eval::Policy;
use crate::game::{Game, Turn};
use crate::platform::Instant;
use crate::rng::Rng;
use rayon::prelude::*;
use std::time::Duration;

/// Options of [`flat_monte_carlo`].
#[derive(Clone, Debug)]
pub struct FlatOptions {
    /// Playouts per root move.
    pub playouts: usize,
    /// A playout still going after this many moves is stopped and scored 0 (a draw) for everyone.
    pub max_plies: usize,
    /// Seed of the playouts.
    pub seed: u64,
}

impl Default for FlatOptions {
    fn default() -> Self {
        FlatOptions {
            playouts: 1000,
            max_plies: 10_000,
            seed: 0,
        }
    }
}

/// The playouts of one root move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveEstimate<M> {
    /// The root move.
    pub mv: M,
    /// Mean return for the root player over its playouts, in `[-1, 1]`.
    pub mean: f64,
    /// Playouts run.
    pub playouts: usize,
}

/// The result of [`flat_monte_carlo`].
#[derive(Clone, Debug, PartialEq)]
pub struct FlatResult<M> {
    /// The move with the highest mean (the first of equals); `None` when the root is not a
    /// player's turn.
    pub best_move: Option<M>,
    /// Every root move with its mean, in generation order.
    pub moves: Vec<MoveEstimate<M>>,
    /// Playouts run in all.
    pub playouts: u64,
    /// Playouts cut by `max_plies`.
    pub truncated: u64,
    /// Moves played in all playouts.
    pub plies: u64,
    /// Wall time.
    pub time: Duration,
}

/// Plays one game from `pos` to the end (or `max_plies`); returns the final position's return
/// for `player` and the moves played, with `None` when cut short.
pub fn playout<G: Game, P: Policy<G>>(
    pos: &mut G,
    policy: &P,
    player: usize,
    max_plies: usize,
    rng: &mut Rng,
    moves: &mut Vec<G::Move>,
    outcomes: &mut Vec<(G::Move, f64)>,
) -> (Option<f64>, usize) {
    let mut plies = 0;
    loop {
        let mv = match pos.turn() {
            Turn::Over => return (Some(pos.returns(player)), plies),
            _ if plies >= max_plies => return (None, plies),
            Turn::Chance => {
                pos.chance_outcomes(outcomes);
                outcomes[rng.weighted(outcomes.iter().map(|&(_, p)| p))].0
            }
            Turn::Player(_) => {
                pos.legal_moves(moves);
                policy.choose(pos, moves, rng)
            }
        };
        pos.make(mv);
        plies += 1;
    }
}

/// Flat Monte Carlo from `pos` (a player's turn) with `policy` playouts.
pub fn flat_monte_carlo<G: Game, P: Policy<G>>(
    pos: &G,
    policy: &P,
    options: &FlatOptions,
) -> FlatResult<G::Move> {
    let start = Instant::now();
    let mut root_moves = Vec::new();
    let player = match pos.turn() {
        Turn::Player(p) => {
            pos.legal_moves(&mut root_moves);
            p
        }
        _ => 0,
    };
    let n = options.playouts;
    let total = root_moves.len() * n;
    // (return or None when truncated, plies), in playout-index order.
    // Playouts run in fixed blocks of consecutive indices (never across root moves); each block
    // sums its returns in index order and the blocks are added in order, so the sums do not
    // depend on how rayon schedules them. Memory stays one record per block.
    let blocks_per_move = n.div_ceil(BLOCK);
    let blocks: Vec<Block> = (0..root_moves.len() * blocks_per_move)
        .into_par_iter()
        .map_init(
            || (Vec::new(), Vec::new()),
            |(moves, outcomes), b| {
                let m = b / blocks_per_move;
                let first = (b % blocks_per_move) * BLOCK;
                let mut block = Block::default();
                for i in first..(first + BLOCK).min(n) {
                    let mut game = pos.clone();
                    game.make(root_moves[m]);
                    let mut rng = Rng::derive(options.seed, (m * n + i) as u64);
                    let (r, plies) = playout(
                        &mut game,
                        policy,
                        player,
                        options.max_plies,
                        &mut rng,
                        moves,
                        outcomes,
                    );
                    block.sum += r.unwrap_or(0.0);
                    block.truncated += u64::from(r.is_none());
                    block.plies += plies as u64 + 1;
                }
                block
            },
        )
        .collect();
    let mut estimates = Vec::with_capacity(root_moves.len());
    let mut best: Option<(f64, G::Move)> = None;
    for (m, &mv) in root_moves.iter().enumerate() {
        let sum: f64 = blocks[m * blocks_per_move..(m + 1) * blocks_per_move]
            .iter()
            .map(|b| b.sum)
            .sum();
        let mean = if n > 0 { sum / n as f64 } else { 0.0 };
        if best.is_none_or_lower(mean) {
            best = Some((mean, mv));
        }
        estimates.push(MoveEstimate {
            mv,
            mean,
            playouts: n,
        });
    }
    FlatResult {
        best_move: best.map(|(_, mv)| mv),
        moves: estimates,
        playouts: total as u64,
        truncated: blocks.iter().map(|b| b.truncated).sum(),
        plies: blocks.iter().map(|b| b.plies).sum(),
        time: start.elapsed(),
    }
}

/// Playouts per block of parallel work.
const BLOCK: usize = 64;

/// What one block of playouts adds up to.
#[derive(Default)]
struct Block {
    sum: f64,
    truncated: u64,
    plies: u64,
}

trait BestSoFar {
    fn is_none_or_lower(&self, mean: f64) -> bool;
}

impl<M> BestSoFar for Option<(f64, M)> {
    fn is_none_or_lower(&self, mean: f64) -> bool {
        match self {
            Some((b, _)) => mean > *b,
            None => true,
        }
    }
}
