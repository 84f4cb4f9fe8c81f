//! Self-play tuning of the evaluation weights by SPSA (simultaneous perturbation stochastic
//! approximation): each step plays a ballot twice (colours swapped) between the weights pushed
//! up and down along a random ±1 direction, and moves the weights towards the side that scored
//! better. Games use a fixed search depth, so a run is reproducible from its seed.

use super::eval::{CheckersEval, Weights};
use super::player::engine_options;
use crate::ballot::tournament_ballots;
use crate::board::Color;
use crate::rules::{Checkers, Outcome};
use qiyi_core::search::{SearchLimits, Searcher};
use qiyi_core::{Game, Rng};

/// Settings of a tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// SPSA steps (each is two games).
    pub iterations: usize,
    /// Search depth of the games.
    pub depth: u32,
    /// Seed of the perturbations and the ballot choice.
    pub seed: u64,
    /// Learning rate (weight units per game point, before scaling by the perturbation size).
    pub rate: f64,
}

impl Default for TuneConfig {
    fn default() -> Self {
        TuneConfig {
            iterations: 200,
            depth: 4,
            seed: 1,
            rate: 1.0,
        }
    }
}

/// Plays one game between two weight sets from a position; returns the winner.
fn self_play(black: &Weights, white: &Weights, start: &Checkers, depth: u32) -> Option<Color> {
    let mut sb = Searcher::new(CheckersEval::new(*black), engine_options(1, 4));
    let mut sw = Searcher::new(CheckersEval::new(*white), engine_options(1, 4));
    let mut game = start.clone();
    let limits = SearchLimits::depth(depth);
    for _ in 0..200 {
        if let Some(o) = game.outcome() {
            return match o {
                Outcome::Win(c) => Some(c),
                _ => None,
            };
        }
        let r = if game.board().side_to_move() == Color::Black {
            sb.search(&game, &limits, |_| {})
        } else {
            sw.search(&game, &limits, |_| {})
        };
        let mv = r.best_move?;
        game.make(mv);
    }
    None
}

/// Runs SPSA from `start`; `progress` sees every step's weights.
pub fn tune(
    start: Weights,
    cfg: &TuneConfig,
    mut progress: impl FnMut(usize, &Weights),
) -> Weights {
    let ballots = tournament_ballots();
    let mut rng = Rng::new(cfg.seed);
    let mut theta: Vec<f64> = start.to_vec().iter().map(|&x| f64::from(x)).collect();
    // Perturbation size per weight: about 10% of its magnitude, at least 1.
    let c: Vec<f64> = theta.iter().map(|x| (x.abs() * 0.1).max(1.0)).collect();
    for it in 0..cfg.iterations {
        let delta: Vec<f64> = theta
            .iter()
            .map(|_| if rng.below(2) == 0 { -1.0 } else { 1.0 })
            .collect();
        // The material of a man stays the unit.
        let plus: Vec<i32> = theta
            .iter()
            .zip(&delta)
            .zip(&c)
            .enumerate()
            .map(|(i, ((t, d), c))| {
                if i == 0 {
                    *t as i32
                } else {
                    (t + d * c).round() as i32
                }
            })
            .collect();
        let minus: Vec<i32> = theta
            .iter()
            .zip(&delta)
            .zip(&c)
            .enumerate()
            .map(|(i, ((t, d), c))| {
                if i == 0 {
                    *t as i32
                } else {
                    (t - d * c).round() as i32
                }
            })
            .collect();
        let wp = start.with_vec(&plus);
        let wm = start.with_vec(&minus);
        let ballot = &ballots[rng.below(ballots.len())];
        let Ok((board, _)) = ballot.play() else {
            continue;
        };
        let pos = Checkers::from_board(board);
        let mut result = 0.0;
        for (black, white, plus_is_black) in [(&wp, &wm, true), (&wm, &wp, false)] {
            let plus_color = if plus_is_black {
                Color::Black
            } else {
                Color::White
            };
            result += match self_play(black, white, &pos, cfg.depth) {
                Some(c) if c == plus_color => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            };
        }
        let a = cfg.rate / (1.0 + it as f64 / 50.0).powf(0.602);
        for i in 1..theta.len() {
            theta[i] += a * result * delta[i] * c[i];
        }
        let w = start.with_vec(&theta.iter().map(|x| x.round() as i32).collect::<Vec<_>>());
        progress(it + 1, &w);
    }
    start.with_vec(&theta.iter().map(|x| x.round() as i32).collect::<Vec<_>>())
}
