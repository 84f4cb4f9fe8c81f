//! Texel tuning of the evaluation: positions from self-play games labelled with the game result
//! (and our own search score), and a logistic-regression fit of the evaluation weights.
//!
//! 1. [`selfplay`] plays engine-vs-engine games (fixed nodes per move, a few random plies after a
//!    shipped opening for variety) and keeps the quiet positions (not in check, reached by a
//!    non-capture and left by a non-capture) with the result from Red's view and the score of the
//!    search that chose the move there (Red's view, centipawns).
//!    [`label_game`] labels the positions of recorded games (e.g. matches against other engines)
//!    the same way; [`score_samples`] adds our own search score to samples that lack one.
//! 2. [`fit`] minimises the mean squared error between a target and `sigmoid(K * eval / 400)`
//!    over the linear features of [`crate::eval`] (Adam on the exact gradient, with an L2 pull of
//!    the piece-square entries toward their start), after fitting `K` to the starting weights.
//!    The target blends the result with the search score:
//!    `lambda * result + (1 - lambda) * sigmoid(K * score / 400)` ([`blend`]); a held-out share
//!    of the positions measures the fit.

use crate::engine::{Engine, EngineConfig, Level};
use crate::eval::{Features, Weights, NUM_FEATURES};
use crate::matchplay::{parse_openings, OPENINGS};
use crate::position::Position;
use qiyi_core::eval::Score;
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
    /// Our own search score of the position from Red's view (centipawns, mates clamped to
    /// ±[`SCORE_CLAMP`]), when known.
    pub score: Option<Score>,
}

/// Search scores beyond this (mates) are clamped to it before they label a position.
pub const SCORE_CLAMP: Score = 3000;

/// A search score from the side to move's view turned into Red's view and clamped.
fn red_score(pos: &Position, score: Score) -> Score {
    let s = score.clamp(-SCORE_CLAMP, SCORE_CLAMP);
    if pos.side_to_move() == crate::Color::Red {
        s
    } else {
        -s
    }
}

/// The training target of a sample: `lambda * result + (1 - lambda) * sigmoid(k * score / 400)`,
/// or the result alone when the sample has no score; always in [0, 1].
pub fn blend(sample: &Sample, lambda: f64, k: f64) -> f64 {
    let t = match sample.score {
        Some(s) => lambda * sample.result + (1.0 - lambda) * sigmoid(k * f64::from(s) / 400.0),
        None => sample.result,
    };
    t.clamp(0.0, 1.0)
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
        net: None,
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
        let mut kept: Vec<(String, Score)> = Vec::new();
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
                kept.push((pos.to_fen(), red_score(&pos, r.score)));
            }
            last_capture = capture;
            pos.make(mv);
        }
        on_game(g, result);
        out.extend(kept.into_iter().map(|(fen, s)| Sample {
            fen,
            result,
            score: Some(s),
        }));
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
                score: None,
            });
        }
        last_capture = capture;
        pos.make(mv);
    }
    out
}

/// Gives every sample without a score the score of our own `nodes`-node search (Red's view);
/// `on_sample` is called after each searched position. Samples whose FEN does not parse keep no
/// score.
pub fn score_samples(samples: &mut [Sample], nodes: u64, seed: u64, mut on_sample: impl FnMut()) {
    let mut engine = Engine::new(EngineConfig {
        hash_mib: 16,
        threads: 1,
        level: Level::Strength(10),
        seed,
        net: None,
    });
    for s in samples.iter_mut().filter(|s| s.score.is_none()) {
        if let Ok(pos) = Position::from_fen(&s.fen) {
            let r = engine.think(&pos, &SearchLimits::nodes(nodes), |_| {});
            s.score = Some(red_score(&pos, r.score));
        }
        on_sample();
    }
}

/// One sample as a line `FEN;result` or `FEN;result;score` (what [`parse_samples`] reads).
pub fn sample_line(s: &Sample) -> String {
    match s.score {
        Some(score) => format!("{};{};{}", s.fen, s.result, score),
        None => format!("{};{}", s.fen, s.result),
    }
}

/// Reads samples written as `FEN;result` or `FEN;result;score` lines (bad lines are skipped;
/// results must lie in [0, 1]).
pub fn parse_samples(text: &str) -> Vec<Sample> {
    text.lines()
        .filter_map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next()?;
            let result: f64 = parts.next()?.trim().parse().ok()?;
            if !(0.0..=1.0).contains(&result) {
                return None;
            }
            let score = match parts.next() {
                Some(t) => Some(
                    t.trim()
                        .parse::<Score>()
                        .ok()?
                        .clamp(-SCORE_CLAMP, SCORE_CLAMP),
                ),
                None => None,
            };
            if parts.next().is_some() {
                return None;
            }
            Some(Sample {
                fen: fen.to_string(),
                result,
                score,
            })
        })
        .collect()
}

/// A position reduced to its features: `(index, count)` pairs and the phase.
struct Row {
    feats: Vec<(u16, i16)>,
    /// Middlegame share in [0, 1].
    mg: f64,
    /// Game result from Red's view.
    result: f64,
    /// Training target (see [`blend`]).
    target: f64,
}

/// Collects the features of one position.
struct Collect(Vec<(u16, i16)>);

impl Features for Collect {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.0.push((index as u16, count as i16));
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
    /// Features that keep their starting weights (e.g. the chariot's material, which pins the
    /// scale of the evaluation so that the search margins keep fitting it).
    pub pinned: Vec<usize>,
    /// Weight of the game result in the target (1: pure Texel; the rest is our search score).
    pub lambda: f64,
    /// Share of the positions held out of the fit to measure it (blocks of `holdout_block`
    /// consecutive samples, so that one game's positions mostly stay together).
    pub holdout: f64,
    /// Consecutive samples that go together into the training or the hold-out set.
    pub holdout_block: usize,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 300,
            learning_rate: 1.0,
            l2: 1e-6,
            free: None,
            pinned: Vec::new(),
            lambda: 1.0,
            holdout: 0.0,
            holdout_block: 500,
        }
    }
}

/// Errors of the weights at one point of the fit.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FitErrors {
    /// Mean squared error against the targets on the training positions.
    pub train: f64,
    /// Mean squared error against the targets on the held-out positions (0 when none).
    pub holdout: f64,
    /// Mean squared error against the game results alone on the held-out positions (the Texel
    /// error, comparable between fits with different `lambda`; 0 when none).
    pub holdout_result: f64,
}

/// What [`fit`] found.
#[derive(Clone, Debug)]
pub struct FitReport {
    /// The scaling constant of the sigmoid.
    pub k: f64,
    /// Errors of the starting weights.
    pub before: FitErrors,
    /// Errors of the fitted weights.
    pub after: FitErrors,
    /// Mean squared error of the starting weights on the training targets.
    pub error_before: f64,
    /// Mean squared error of the fitted weights on the training targets.
    pub error_after: f64,
    /// The fitted weights (rounded to centipawns).
    pub weights: Weights,
    /// Training positions used.
    pub samples: usize,
    /// Held-out positions.
    pub holdout_samples: usize,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn rows(samples: &[Sample]) -> Vec<(Row, &Sample)> {
    samples
        .iter()
        .filter_map(|s| {
            let pos = Position::from_fen(&s.fen).ok()?;
            let mut c = Collect(Vec::with_capacity(48));
            let phase = crate::eval::features(&pos, &mut c);
            Some((
                Row {
                    feats: c.0,
                    mg: f64::from(phase) / f64::from(crate::eval::MAX_PHASE),
                    result: s.result,
                    target: s.result,
                },
                s,
            ))
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

/// Mean squared error against the targets (`by_result`: against the results).
fn error(rows: &[Row], mg: &[f64], eg: &[f64], k: f64, by_result: bool) -> f64 {
    let s: f64 = rows
        .iter()
        .map(|r| {
            let p = sigmoid(k * eval_row(r, mg, eg) / 400.0);
            let t = if by_result { r.result } else { r.target };
            (t - p) * (t - p)
        })
        .sum();
    s / rows.len().max(1) as f64
}

fn errors(train: &[Row], held: &[Row], mg: &[f64], eg: &[f64], k: f64) -> FitErrors {
    FitErrors {
        train: error(train, mg, eg, k, false),
        holdout: error(held, mg, eg, k, false),
        holdout_result: error(held, mg, eg, k, true),
    }
}

/// Fits the weights to the samples starting from `start`; `on_epoch` gets the epoch and the
/// errors every ten epochs and at the end.
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    config: &FitConfig,
    mut on_epoch: impl FnMut(usize, FitErrors),
) -> FitReport {
    let held_every = if config.holdout > 0.0 {
        (1.0 / config.holdout.min(0.5)).round() as usize
    } else {
        0
    };
    let (mut train, mut held) = (Vec::new(), Vec::new());
    for (n, r) in rows(samples).into_iter().enumerate() {
        if held_every > 0 && (n / config.holdout_block.max(1)) % held_every == held_every - 1 {
            held.push(r);
        } else {
            train.push(r);
        }
    }
    let mut mg: Vec<f64> = start.mg.iter().map(|&w| f64::from(w)).collect();
    let mut eg: Vec<f64> = start.eg.iter().map(|&w| f64::from(w)).collect();
    let (mg0, eg0) = (mg.clone(), eg.clone());
    // K: a scan of the starting weights against the results, good enough for a one-dimensional
    // convex-ish fit.
    let mut k = 1.0;
    let mut best = f64::MAX;
    for step in 1..=40 {
        let kk = f64::from(step) * 0.1;
        let e: f64 = train
            .iter()
            .map(|(r, _)| {
                let p = sigmoid(kk * eval_row(r, &mg, &eg) / 400.0);
                (r.result - p) * (r.result - p)
            })
            .sum();
        if e < best {
            best = e;
            k = kk;
        }
    }
    let finish = |v: Vec<(Row, &Sample)>| -> Vec<Row> {
        v.into_iter()
            .map(|(mut r, s)| {
                r.target = blend(s, config.lambda, k);
                r
            })
            .collect()
    };
    let (train, held) = (finish(train), finish(held));
    let before = errors(&train, &held, &mg, &eg, k);
    let n = train.len().max(1) as f64;
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let mut m = vec![0.0; 2 * NUM_FEATURES];
    let mut v = vec![0.0; 2 * NUM_FEATURES];
    let mut grad = vec![0.0; 2 * NUM_FEATURES];
    for epoch in 1..=config.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for r in &train {
            let e = eval_row(r, &mg, &eg);
            let p = sigmoid(k * e / 400.0);
            // d(target - p)^2 / d eval
            let d = -2.0 * (r.target - p) * p * (1.0 - p) * k / 400.0;
            for &(i, c) in &r.feats {
                let c = f64::from(c);
                grad[i as usize] += d * c * r.mg;
                grad[NUM_FEATURES + i as usize] += d * c * (1.0 - r.mg);
            }
        }
        for i in 0..2 * NUM_FEATURES {
            let f = i % NUM_FEATURES;
            if crate::eval::is_fixed_feature(f)
                || config.pinned.contains(&f)
                || config.free.as_ref().is_some_and(|r| !r.contains(&f))
            {
                continue;
            }
            let w = if i < NUM_FEATURES {
                mg[f] - mg0[f]
            } else {
                eg[f] - eg0[f]
            };
            let mut g = grad[i] / n;
            if crate::eval::is_square_feature(f) {
                g += config.l2 * w;
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
            on_epoch(epoch, errors(&train, &held, &mg, &eg, k));
        }
    }
    let mut weights = start.clone();
    for f in 0..NUM_FEATURES {
        weights.mg[f] = mg[f].round() as i32;
        weights.eg[f] = eg[f].round() as i32;
    }
    let rounded_mg: Vec<f64> = weights.mg.iter().map(|&w| f64::from(w)).collect();
    let rounded_eg: Vec<f64> = weights.eg.iter().map(|&w| f64::from(w)).collect();
    let after = errors(&train, &held, &rounded_mg, &rounded_eg, k);
    FitReport {
        k,
        before,
        after,
        error_before: before.train,
        error_after: after.train,
        weights,
        samples: train.len(),
        holdout_samples: held.len(),
    }
}

/// The piece-square table of piece kind `kind` (0 general .. 6 soldier) as a 10x5 grid: one line
/// per rank from the owner's back rank (0) up, files a..e (e = the central file), middlegame
/// weights when `middlegame`, else endgame.
pub fn square_table(w: &Weights, kind: usize, middlegame: bool) -> String {
    let v = if middlegame { &w.mg } else { &w.eg };
    let mut s = String::new();
    for rank in (0..10).rev() {
        s.push_str(&format!("{rank}:"));
        for folded in 0..5 {
            let f = crate::eval::F_PST + kind.min(6) * 50 + rank * 5 + folded;
            s.push_str(&format!(" {:5}", v[f]));
        }
        s.push('\n');
    }
    s
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

        #[test]
        fn blended_targets_lie_between_the_result_and_the_score(
            r in prop::sample::select(vec![0.0, 0.5, 1.0]),
            score in proptest::option::of(-40_000i32..40_000),
            lambda in 0.0f64..=1.0,
            k in 0.1f64..4.0,
        ) {
            let s = Sample { fen: String::new(), result: r, score };
            let t = blend(&s, lambda, k);
            prop_assert!((0.0..=1.0).contains(&t));
            match score {
                None => prop_assert_eq!(t, r),
                Some(v) => {
                    let p = sigmoid(k * f64::from(v) / 400.0);
                    prop_assert!(t >= r.min(p) - 1e-12 && t <= r.max(p) + 1e-12);
                    prop_assert!((blend(&s, 1.0, k) - r).abs() < 1e-12);
                    prop_assert!((blend(&s, 0.0, k) - p).abs() < 1e-12);
                }
            }
        }

        #[test]
        fn sample_lines_round_trip(
            r in prop::sample::select(vec![0.0, 0.5, 1.0]),
            score in proptest::option::of(-SCORE_CLAMP..=SCORE_CLAMP),
        ) {
            let s = Sample { fen: crate::START_FEN.to_string(), result: r, score };
            let back = parse_samples(&sample_line(&s));
            prop_assert_eq!(back.len(), 1);
            prop_assert_eq!(&back[0].fen, &s.fen);
            prop_assert_eq!(back[0].result, r);
            prop_assert_eq!(back[0].score, score);
        }
    }

    #[test]
    fn scores_and_results_out_of_range_are_clamped_or_skipped() {
        let f = crate::START_FEN;
        let s = parse_samples(&format!(
            "{f};1;99999\n{f};0;-99999\n{f};2\n{f};0;x\n{f};1;5;6\n"
        ));
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].score, Some(SCORE_CLAMP));
        assert_eq!(s[1].score, Some(-SCORE_CLAMP));
    }

    #[test]
    fn search_scores_are_from_reds_view() {
        // Red has an extra chariot; with either side to move the score favours Red.
        let red_up = [
            "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
            "3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1",
        ];
        let mut samples: Vec<Sample> = red_up
            .iter()
            .map(|f| Sample {
                fen: f.to_string(),
                result: 1.0,
                score: None,
            })
            .collect();
        samples.push(Sample {
            fen: "not a fen".into(),
            result: 0.5,
            score: None,
        });
        let mut searched = 0;
        score_samples(&mut samples, 2000, 1, || searched += 1);
        assert_eq!(searched, 3);
        assert!(samples[0].score.is_some_and(|s| s > 300), "{samples:?}");
        assert!(samples[1].score.is_some_and(|s| s > 300), "{samples:?}");
        assert_eq!(samples[2].score, None);
    }

    /// Positions of seeded random games labelled by a known evaluation (the hand weights): a fit
    /// from the tuned weights must move toward it, on the training and on the held-out part.
    #[test]
    fn fit_lowers_the_error_on_a_synthetic_set_and_keeps_pinned_weights() {
        let hand = crate::eval::Evaluation::with_weights(Weights::hand());
        let positions = crate::game::random_game_positions(7, 120, 60);
        let mut rng = qiyi_core::rng::Rng::new(5);
        let samples: Vec<Sample> = positions
            .iter()
            .filter(|p| !p.in_check())
            .map(|p| {
                let e = hand.red_score_by_features(p);
                let win = sigmoid(f64::from(e) / 400.0);
                let result = if rng.unit() < win { 1.0 } else { 0.0 };
                Sample {
                    fen: p.to_fen(),
                    result,
                    score: Some(e.clamp(-SCORE_CLAMP, SCORE_CLAMP)),
                }
            })
            .collect();
        assert!(samples.len() > 2000, "{}", samples.len());
        let config = FitConfig {
            epochs: 40,
            lambda: 0.5,
            holdout: 0.1,
            holdout_block: 50,
            pinned: vec![crate::eval::F_MATERIAL + 4],
            ..FitConfig::default()
        };
        let start = Weights::default();
        let mut seen = Vec::new();
        let r = fit(&samples, &start, &config, |e, errs| seen.push((e, errs)));
        assert!(
            r.holdout_samples > 0 && r.holdout_samples < r.samples / 4,
            "{r:?}"
        );
        assert_eq!(seen.len(), 4);
        assert!(
            r.after.train < r.before.train,
            "{:?} {:?}",
            r.before,
            r.after
        );
        assert!(
            r.after.holdout < r.before.holdout,
            "{:?} {:?}",
            r.before,
            r.after
        );
        assert_eq!(
            r.weights.mg[crate::eval::F_MATERIAL + 4],
            start.mg[crate::eval::F_MATERIAL + 4]
        );
        assert_eq!(
            r.weights.eg[crate::eval::F_MATERIAL + 4],
            start.eg[crate::eval::F_MATERIAL + 4]
        );
        assert!(square_table(&r.weights, 4, true).lines().count() == 10);
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
        // Every self-play position carries the score of the search that moved from it.
        assert!(samples
            .iter()
            .all(|s| s.score.is_some_and(|v| v.abs() <= SCORE_CLAMP)));
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
