//! Turning scores into win chances and checking how well they predict: the logistic slope fitted
//! to game results, and calibration tables (predicted against observed, in bins).
//!
//! A review judge that searches gives a score (centipawns, hundredths of a man); a review needs a
//! win chance. [`fit_logistic`] finds the slope `k` of `1 / (1 + exp(-k * score))` that best
//! predicts the results of real games (maximum likelihood, a draw counting one half), and
//! [`calibration`] shows how the predictions compare with what happened.
//!
//! ```
//! use qiyi_core::calibration::{calibration, fit_logistic};
//! // Scores and the result for the side the score is for (1 win, 0.5 draw, 0 loss).
//! let samples = [(200.0, 1.0), (150.0, 1.0), (100.0, 0.5), (-50.0, 0.5), (-120.0, 0.0), (80.0, 0.0)];
//! let k = fit_logistic(&samples).unwrap();
//! assert!(k > 0.0);
//! let pred: Vec<(f64, f64)> = samples.iter().map(|&(s, y)| (qiyi_core::review::logistic(s, k), y)).collect();
//! let bins = calibration(&pred, 5);
//! assert_eq!(bins.iter().map(|b| b.count).sum::<usize>(), samples.len());
//! ```

use serde::{Deserialize, Serialize};

use crate::review::logistic;

/// The largest slope [`fit_logistic`] accepts: beyond it the results are separated by the score
/// (every positive score won) and the fit has no finite answer.
pub const MAX_SLOPE: f64 = 10.0;

/// The slope `k` of `1 / (1 + exp(-k * score))` that maximises the likelihood of `samples`
/// (`(score, result)`, the result 1 for a win, 0.5 a draw, 0 a loss, for the side the score is
/// for): Newton's method on the (convex) cross-entropy, halving steps that do not improve it.
/// `None` when there is nothing to fit (no sample with a non-zero score) or no finite slope fits
/// (every result agrees with the sign of its score).
pub fn fit_logistic(samples: &[(f64, f64)]) -> Option<f64> {
    if !samples.iter().any(|&(s, _)| s != 0.0 && s.is_finite()) {
        return None;
    }
    let loss = |k: f64| -> f64 {
        samples
            .iter()
            .filter(|(s, _)| s.is_finite())
            .map(|&(s, y)| {
                // -[y ln p + (1-y) ln (1-p)] with ln p = -softplus(-z), ln (1-p) = -softplus(z).
                let z = k * s;
                let (ln_p, ln_q) = (-softplus(-z), -softplus(z));
                -(y * ln_p + (1.0 - y) * ln_q)
            })
            .sum()
    };
    let mut k = 0.0f64;
    let mut current = loss(k);
    for _ in 0..200 {
        let (mut grad, mut hess) = (0.0, 0.0);
        for &(s, y) in samples.iter().filter(|(s, _)| s.is_finite()) {
            let p = logistic(s, k);
            grad += (p - y) * s;
            hess += p * (1.0 - p) * s * s;
        }
        if grad.abs() < 1e-12 * samples.len() as f64 {
            break;
        }
        let mut step = if hess > 1e-300 {
            -grad / hess
        } else {
            -grad.signum() * MAX_SLOPE
        };
        let mut improved = false;
        for _ in 0..60 {
            let next = k + step;
            let l = loss(next);
            if l < current {
                k = next;
                current = l;
                improved = true;
                break;
            }
            step *= 0.5;
        }
        if !improved || k.abs() > MAX_SLOPE {
            break;
        }
    }
    (k.is_finite() && k.abs() <= MAX_SLOPE).then_some(k)
}

/// `ln(1 + e^x)`, without overflow for large `|x|`.
fn softplus(x: f64) -> f64 {
    x.max(0.0) + (-x.abs()).exp().ln_1p()
}

/// One bin of a calibration table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CalibrationBin {
    /// The bin's lower edge (predicted win chance).
    pub lo: f64,
    /// The bin's upper edge.
    pub hi: f64,
    /// Predictions in the bin.
    pub count: usize,
    /// Their mean predicted win chance.
    pub predicted: f64,
    /// The mean result they had (a draw one half).
    pub observed: f64,
}

/// `pairs` of `(predicted win chance, result)` in `bins` equal bins of the prediction over
/// `[0, 1]` (empty bins left out; a prediction of exactly 1 goes to the last bin).
pub fn calibration(pairs: &[(f64, f64)], bins: usize) -> Vec<CalibrationBin> {
    let bins = bins.max(1);
    let mut acc = vec![(0usize, 0.0f64, 0.0f64); bins];
    for &(p, y) in pairs {
        if !p.is_finite() {
            continue;
        }
        let i = ((p.clamp(0.0, 1.0) * bins as f64) as usize).min(bins - 1);
        acc[i].0 += 1;
        acc[i].1 += p;
        acc[i].2 += y;
    }
    acc.iter()
        .enumerate()
        .filter(|(_, a)| a.0 > 0)
        .map(|(i, &(n, sp, sy))| CalibrationBin {
            lo: i as f64 / bins as f64,
            hi: (i + 1) as f64 / bins as f64,
            count: n,
            predicted: sp / n as f64,
            observed: sy / n as f64,
        })
        .collect()
}

/// The mean squared error of the predictions (the Brier score; 0.25 for always saying one half).
pub fn brier(pairs: &[(f64, f64)]) -> Option<f64> {
    if pairs.is_empty() {
        return None;
    }
    Some(pairs.iter().map(|&(p, y)| (p - y) * (p - y)).sum::<f64>() / pairs.len() as f64)
}

/// The largest gap between predicted and observed over bins of at least `min_count` predictions.
pub fn max_gap(bins: &[CalibrationBin], min_count: usize) -> f64 {
    bins.iter()
        .filter(|b| b.count >= min_count)
        .map(|b| (b.predicted - b.observed).abs())
        .fold(0.0, f64::max)
}

/// A calibration table as Markdown (`| predicted | n | mean predicted | observed |`).
pub fn markdown(bins: &[CalibrationBin]) -> String {
    let mut out = String::from(
        "| predicted | positions | mean predicted | observed |\n|---|---:|---:|---:|\n",
    );
    for b in bins {
        out.push_str(&format!(
            "| {:.1}–{:.1} | {} | {:.3} | {:.3} |\n",
            b.lo, b.hi, b.count, b.predicted, b.observed
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rng;

    /// Results drawn from a known logistic: the fit finds its slope back.
    fn synthetic(k: f64, n: usize, seed: u64) -> Vec<(f64, f64)> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let s = (rng.unit() - 0.5) * 1200.0;
                let y = if rng.unit() < logistic(s, k) {
                    1.0
                } else {
                    0.0
                };
                (s, y)
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_a_known_slope() {
        for (k, seed) in [(0.004, 1), (0.01, 2), (0.002, 3)] {
            let got = fit_logistic(&synthetic(k, 20_000, seed)).unwrap();
            assert!((got - k).abs() < 0.12 * k, "slope {k}: fitted {got}");
        }
    }

    #[test]
    fn draws_count_one_half() {
        // Every sample a draw: the best slope is 0 (one half everywhere).
        let samples: Vec<_> = (-50..50).map(|i| (i as f64 * 10.0, 0.5)).collect();
        let k = fit_logistic(&samples).unwrap();
        assert!(k.abs() < 1e-9, "{k}");
    }

    #[test]
    fn nothing_to_fit_or_separated_results_give_none() {
        assert_eq!(fit_logistic(&[]), None);
        assert_eq!(fit_logistic(&[(0.0, 1.0), (0.0, 0.0)]), None);
        // Every positive score won and every negative lost: no finite slope.
        let separated: Vec<_> = (1..100)
            .flat_map(|i| [(i as f64, 1.0), (-(i as f64), 0.0)])
            .collect();
        assert_eq!(fit_logistic(&separated), None);
    }

    #[test]
    fn calibrated_predictions_match_their_results() {
        let k = 0.005;
        let pairs: Vec<_> = synthetic(k, 50_000, 7)
            .into_iter()
            .map(|(s, y)| (logistic(s, k), y))
            .collect();
        let bins = calibration(&pairs, 10);
        assert_eq!(bins.iter().map(|b| b.count).sum::<usize>(), pairs.len());
        assert!(max_gap(&bins, 500) < 0.03, "{bins:?}");
        // A miscalibrated model (slope 3x too steep) shows in the table.
        let steep: Vec<_> = synthetic(k, 50_000, 7)
            .into_iter()
            .map(|(s, y)| (logistic(s, 3.0 * k), y))
            .collect();
        assert!(max_gap(&calibration(&steep, 10), 500) > 0.08);
        assert!(brier(&pairs).unwrap() < brier(&steep).unwrap());
        assert!(markdown(&bins).lines().count() == bins.len() + 2);
    }
}
