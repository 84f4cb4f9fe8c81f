//! Texel tuning of the evaluation: positions from self-play games labelled with the game result,
//! and a logistic-regression fit of the evaluation weights to those results.
//!
//! 1. [`selfplay`] plays engine-vs-engine games (fixed nodes per move, a few random plies after a
//!    shipped opening for variety) and keeps the quiet positions (not in check, reached by a
//!    non-capture and left by a non-capture) with the result from Red's view.
//!    [`label_game`] labels the positions of recorded games (e.g. matches against other engines)
//!    the same way.
//! 2. [`fit`] minimises the mean squared error between the result and
//!    `sigmoid(K * eval / 400)` over the linear features of [`crate::eval`] (Adam on the exact
//!    gradient, with an L2 pull of the piece-square entries toward their start), after fitting `K` to the
//!    starting weights.

use crate::engine::{Engine, EngineConfig, Level};
use crate::eval::{Features, Weights, NUM_FEATURES};
use crate::matchplay::{parse_openings, OPENINGS};
use crate::position::Position;
use qiyi_core::game::Game;
use qiyi_core::rng::Rng;
use qiyi_core::search::SearchLimits;

/// One labelled position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position in FEN.
    pub fen: String,
    /// Game result from Red's view: 1, 0.5 or 0.
    pub result: f64,
}

/// Settings of [`selfplay`].
#[derive(Clone, Debug)]
pub struct SelfPlayConfig {
    /// Games to play.
    pub games: usize,
    /// Search nodes per move.
    pub nodes: u64,
    /// Random plies played after the opening position (uniformly 0..=this).
    pub random_plies: usize,
    /// Seed (game `i` uses `Rng::derive(seed, i)`).
    pub seed: u64,
    /// A game reaching this many plies is a draw.
    pub max_plies: usize,
}

/// Plays `config.games` self-play games and returns their quiet positions with the results;
/// `on_game` gets the game number and its result after each game.
pub fn selfplay(config: &SelfPlayConfig, mut on_game: impl FnMut(usize, f64)) -> Vec<Sample> {
    let openings = parse_openings(OPENINGS).unwrap_or_default();
    let mut out = Vec::new();
    let mut engine = Engine::new(EngineConfig {
        hash_mib: 16,
        threads: 1,
        level: Level::Strength(10),
        seed: config.seed,
    });
    for g in 0..config.games {
        let mut rng = Rng::derive(config.seed, g as u64);
        let fen = if openings.is_empty() {
            crate::START_FEN.to_string()
        } else {
            openings[rng.below(openings.len())].clone()
        };
        let Ok(mut pos) = Position::from_fen(&fen) else {
            continue;
        };
        pos.clear_history();
        let mut moves = Vec::new();
        for _ in 0..rng.below(config.random_plies + 1) {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
        }
        engine.new_game();
        let mut kept: Vec<String> = Vec::new();
        let mut last_capture = true;
        let mut result = 0.5;
        for _ in 0..config.max_plies {
            if let Some(o) = pos.outcome() {
                result = match o.winner {
                    Some(crate::Color::Red) => 1.0,
                    Some(crate::Color::Black) => 0.0,
                    None => 0.5,
                };
                break;
            }
            let r = engine.think(&pos, &SearchLimits::nodes(config.nodes), |_| {});
            let Some(mv) = r.best_move else { break };
            let capture = pos.piece_at(mv.to()).is_some();
            if !last_capture && !capture && !pos.in_check() {
                kept.push(pos.to_fen());
            }
            last_capture = capture;
            pos.make(mv);
        }
        on_game(g, result);
        out.extend(kept.into_iter().map(|fen| Sample { fen, result }));
    }
    out
}

/// The quiet positions of a recorded game (not in check, reached by a non-capture and left by a
/// non-capture, as in [`selfplay`]) labelled with `red_result`; `moves` are ICCS or any notation
/// [`Position::parse_move_text`] reads. A move that does not parse or is illegal ends the game.
pub fn label_game(opening_fen: &str, moves: &[String], red_result: f64) -> Vec<Sample> {
    let Ok(mut pos) = Position::from_fen(opening_fen) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut last_capture = true;
    for text in moves {
        let Ok(mv) = pos.parse_move_text(text) else {
            break;
        };
        if !pos.is_legal(mv) {
            break;
        }
        let capture = pos.piece_at(mv.to()).is_some();
        if !last_capture && !capture && !pos.in_check() {
            out.push(Sample {
                fen: pos.to_fen(),
                result: red_result,
            });
        }
        last_capture = capture;
        pos.make(mv);
    }
    out
}

/// Reads samples written as `FEN;result` lines (bad lines are skipped).
pub fn parse_samples(text: &str) -> Vec<Sample> {
    text.lines()
        .filter_map(|l| {
            let (fen, r) = l.rsplit_once(';')?;
            Some(Sample {
                fen: fen.to_string(),
                result: r.trim().parse().ok()?,
            })
        })
        .collect()
}

/// A position reduced to its features: `(index, count)` pairs and the phase.
struct Row {
    feats: Vec<(u16, i8)>,
    /// Middlegame share in [0, 1].
    mg: f64,
    result: f64,
}

/// Collects the features of one position.
struct Collect(Vec<(u16, i8)>);

impl Features for Collect {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.0.push((index as u16, count as i8));
    }
}

/// Settings of [`fit`].
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// Full passes over the data.
    pub epochs: usize,
    /// Adam step size (centipawns).
    pub learning_rate: f64,
    /// L2 pull of piece-square entries toward their starting values (a prior that keeps
    /// rarely seen points where the hand put them).
    pub l2: f64,
    /// Only the features in this range move (`None`: every feature but the general's material);
    /// e.g. `F_MOB_HORSE..NUM_FEATURES` refits the scalar terms over fixed material and squares.
    pub free: Option<std::ops::Range<usize>>,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 300,
            learning_rate: 1.0,
            l2: 1e-6,
            free: None,
        }
    }
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The scaling constant of the sigmoid.
    pub k: f64,
    /// Mean squared error of the starting weights.
    pub error_before: f64,
    /// Mean squared error of the fitted weights.
    pub error_after: f64,
    /// The fitted weights (rounded to centipawns).
    pub weights: Weights,
    /// Positions used.
    pub samples: usize,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn rows(samples: &[Sample]) -> Vec<Row> {
    samples
        .iter()
        .filter_map(|s| {
            let pos = Position::from_fen(&s.fen).ok()?;
            let mut c = Collect(Vec::with_capacity(48));
            let phase = crate::eval::features(&pos, &mut c);
            Some(Row {
                feats: c.0,
                mg: f64::from(phase) / f64::from(crate::eval::MAX_PHASE),
                result: s.result,
            })
        })
        .collect()
}

fn eval_row(r: &Row, mg: &[f64], eg: &[f64]) -> f64 {
    let (mut a, mut b) = (0.0, 0.0);
    for &(i, c) in &r.feats {
        a += mg[i as usize] * f64::from(c);
        b += eg[i as usize] * f64::from(c);
    }
    a * r.mg + b * (1.0 - r.mg)
}

fn error(rows: &[Row], mg: &[f64], eg: &[f64], k: f64) -> f64 {
    let s: f64 = rows
        .iter()
        .map(|r| {
            let p = sigmoid(k * eval_row(r, mg, eg) / 400.0);
            (r.result - p) * (r.result - p)
        })
        .sum();
    s / rows.len().max(1) as f64
}

/// Fits the weights to the samples starting from `start`; `on_epoch` gets (epoch, error).
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    config: &FitConfig,
    mut on_epoch: impl FnMut(usize, f64),
) -> FitReport {
    let rows = rows(samples);
    let mut mg: Vec<f64> = start.mg.iter().map(|&w| f64::from(w)).collect();
    let mut eg: Vec<f64> = start.eg.iter().map(|&w| f64::from(w)).collect();
    let (mg0, eg0) = (mg.clone(), eg.clone());
    // K: golden-section-free scan, good enough for a one-dimensional convex-ish fit.
    let mut k = 1.0;
    let mut best = f64::MAX;
    for step in 1..=40 {
        let kk = f64::from(step) * 0.1;
        let e = error(&rows, &mg, &eg, kk);
        if e < best {
            best = e;
            k = kk;
        }
    }
    let error_before = best;
    let n = rows.len().max(1) as f64;
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; 2 * NUM_FEATURES];
    let mut v = vec![0.0; 2 * NUM_FEATURES];
    let mut grad = vec![0.0; 2 * NUM_FEATURES];
    for epoch in 1..=config.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for r in &rows {
            let e = eval_row(r, &mg, &eg);
            let p = sigmoid(k * e / 400.0);
            // d(result - p)^2 / d eval
            let d = -2.0 * (r.result - p) * p * (1.0 - p) * k / 400.0;
            for &(i, c) in &r.feats {
                let c = f64::from(c);
                grad[i as usize] += d * c * r.mg;
                grad[NUM_FEATURES + i as usize] += d * c * (1.0 - r.mg);
            }
        }
        for i in 0..2 * NUM_FEATURES {
            let f = i % NUM_FEATURES;
            let w = if i < NUM_FEATURES {
                mg[f] - mg0[f]
            } else {
                eg[f] - eg0[f]
            };
            let mut g = grad[i] / n;
            if crate::eval::is_square_feature(f) {
                g += config.l2 * w;
            }
            if crate::eval::is_fixed_feature(f)
                || config.free.as_ref().is_some_and(|r| !r.contains(&f))
            {
                continue;
            }
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - f64::powi(b1, epoch as i32));
            let vh = v[i] / (1.0 - f64::powi(b2, epoch as i32));
            let delta = config.learning_rate * mh / (vh.sqrt() + eps);
            if i < NUM_FEATURES {
                mg[f] -= delta;
            } else {
                eg[f] -= delta;
            }
        }
        if epoch % 10 == 0 || epoch == config.epochs {
            on_epoch(epoch, error(&rows, &mg, &eg, k));
        }
    }
    let error_after = error(&rows, &mg, &eg, k);
    let mut weights = start.clone();
    for f in 0..NUM_FEATURES {
        weights.mg[f] = mg[f].round() as i32;
        weights.eg[f] = eg[f].round() as i32;
    }
    FitReport {
        k,
        error_before,
        error_after,
        weights,
        samples: rows.len(),
    }
}

/// The weights as the Rust source of `eval_weights.rs` (`TUNED_MG`, `TUNED_EG`).
pub fn weights_to_rust(w: &Weights, note: &str) -> String {
    let fmt = |v: &[i32]| {
        let mut s = String::new();
        for (i, chunk) in v.chunks(10).enumerate() {
            let items: Vec<String> = chunk.iter().map(|x| x.to_string()).collect();
            s.push_str(&format!("    {}, // {}\n", items.join(", "), i * 10));
        }
        s
    };
    format!(
        "// Written by the Xiangqi Texel tuner ({note}). Feature layout: see the F_* constants.\n\
         /// Tuned middlegame weights, indexed by feature.\n\
         pub const TUNED_MG: [Score; NUM_FEATURES] = [\n{}];\n\
         /// Tuned endgame weights, indexed by feature.\n\
         pub const TUNED_EG: [Score; NUM_FEATURES] = [\n{}];\n",
        fmt(&w.mg),
        fmt(&w.eg)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn sample_parsing_never_panics(text in "\\PC{0,200}") {
            let _ = parse_samples(&text);
        }
    }

    #[test]
    fn recorded_games_are_labelled_from_reds_view() {
        let moves: Vec<String> = ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h4"]
            .iter()
            .map(|m| m.to_string())
            .collect();
        let s = label_game(crate::START_FEN, &moves, 1.0);
        // The first position follows no move, so it counts as reached by a capture.
        assert_eq!(s.len(), moves.len() - 1);
        assert!(s.iter().all(|x| x.result == 1.0));
        assert_eq!(s[0].fen.split(' ').nth(1), Some("b"));
        // A bad move ends the game; a bad opening gives nothing.
        let bad: Vec<String> = vec!["h2e2".into(), "zz".into(), "h9g7".into()];
        assert!(label_game(crate::START_FEN, &bad, 0.0).is_empty());
        assert!(label_game("not a fen", &moves, 0.0).is_empty());
    }

    #[test]
    fn samples_round_trip_and_bad_lines_are_skipped() {
        let text = format!(
            "{};1\nnot a sample\n{};0.5\nfen;x\ngarbage fen;0\n",
            crate::START_FEN,
            crate::START_FEN
        );
        let s = parse_samples(&text);
        assert_eq!(
            s.len(),
            3,
            "the FEN-less line parses as a sample but not as a position"
        );
        assert_eq!(s[0].result, 1.0);
        // Rows skip positions that do not parse.
        assert_eq!(rows(&s).len(), 2);
    }

    #[test]
    fn fitting_self_play_positions_lowers_the_error() {
        let config = SelfPlayConfig {
            games: 2,
            nodes: 300,
            random_plies: 4,
            seed: 3,
            max_plies: 160,
        };
        let samples = selfplay(&config, |_, _| {});
        assert!(!samples.is_empty());
        assert!(samples
            .iter()
            .all(|s| Position::from_fen(&s.fen).is_ok() && [0.0, 0.5, 1.0].contains(&s.result)));
        let fit_config = FitConfig {
            epochs: 20,
            ..FitConfig::default()
        };
        let r = fit(&samples, &Weights::hand(), &fit_config, |_, _| {});
        assert!(r.error_after <= r.error_before, "{r:?}");
        // Refitting only the scalar terms leaves material and squares where they were.
        let scalars = FitConfig {
            epochs: 20,
            free: Some(crate::eval::F_MOB_HORSE..NUM_FEATURES),
            ..FitConfig::default()
        };
        let start = Weights::default();
        let s = fit(&samples, &start, &scalars, |_, _| {});
        assert!(s.error_after <= s.error_before, "{s:?}");
        assert_eq!(
            s.weights.mg[..crate::eval::F_MOB_HORSE],
            start.mg[..crate::eval::F_MOB_HORSE]
        );
        assert_eq!(
            s.weights.eg[..crate::eval::F_MOB_HORSE],
            start.eg[..crate::eval::F_MOB_HORSE]
        );
        assert!(weights_to_rust(&r.weights, "test").contains("pub const TUNED_EG"));
    }
}
