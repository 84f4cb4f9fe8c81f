//! Match and tournament statistics: score, Elo difference with a 95% interval, and the Wilson
//! interval for win rates, and the sequential probability ratio test on game pairs ([`Sprt`]).
//! Written once so every game's match runner reports the same way.

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one side of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Score fraction in `[0, 1]` (a draw counts half); 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Elo difference implied by the score (clamped to ±1200 at 0% and 100%).
    pub fn elo(&self) -> f64 {
        elo_from_score(self.score())
    }

    /// 95% interval of the Elo difference, from the standard error of the per-game score.
    pub fn elo_interval(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (-1200.0, 1200.0);
        }
        let s = self.score();
        let mean_sq = (self.wins as f64 + 0.25 * self.draws as f64) / n;
        let var = (mean_sq - s * s).max(0.0);
        let se = (var / n).sqrt();
        (elo_from_score(s - Z95 * se), elo_from_score(s + Z95 * se))
    }

    /// Half-width of the 95% interval of the score fraction (standard error of the per-game
    /// score times z); 0.5 with no games.
    pub fn score_margin(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.5;
        }
        let s = self.score();
        let mean_sq = (self.wins as f64 + 0.25 * self.draws as f64) / n;
        Z95 * ((mean_sq - s * s).max(0.0) / n).sqrt()
    }

    /// The same result seen from the other side.
    pub fn flipped(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }
}

/// Elo difference for a score fraction (clamped to ±1200).
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    (-400.0 * (1.0 / s - 1.0).log10()).clamp(-1200.0, 1200.0)
}

/// Wilson score interval (95%) for `successes` out of `trials`; `(0, 1)` with no trials.
pub fn wilson_interval(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes as f64 / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 * ((p * (1.0 - p) + z2 / (4.0 * n)) / n).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Results of game pairs (the same opening played twice, colours swapped): how many pairs scored
/// 0, ½, 1, 1½ and 2 points for the first engine. Pairs, not games, are the independent samples
/// when openings are paired, which is why fishtest counts them this way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    /// `counts[k]`: pairs that scored `k / 2` points.
    pub counts: [u64; 5],
}

impl Pentanomial {
    /// Adds a pair whose two games scored `a` and `b` for the first engine (1, ½ or 0 each).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let k = ((a + b) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[k] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// The first engine's mean score per game.
    pub fn score(&self) -> f64 {
        let n = self.pairs();
        if n == 0 {
            return 0.5;
        }
        let pts: f64 = self
            .counts
            .iter()
            .enumerate()
            .map(|(k, &c)| k as f64 / 4.0 * c as f64)
            .sum();
        pts / n as f64
    }
}

/// What a sequential test concludes so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtStatus {
    /// Neither bound reached: play on.
    Continue,
    /// The lower bound reached: the change is not `elo1` better (H0 accepted).
    H0,
    /// The upper bound reached: the change is at least `elo0` better (H1 accepted).
    H1,
}

/// The sequential probability ratio test fishtest runs: H0 "the Elo difference is `elo0`" against
/// H1 "it is `elo1`" (logistic Elo), with error rates `alpha` (accepting H1 when H0 holds) and
/// `beta`, on pentanomial pair counts. The log-likelihood ratio is the generalised one of Michel
/// Van den Bergh: each hypothesis gets the maximum-likelihood pair distribution whose mean score
/// is that hypothesis's, and empty counts are regularised as fishtest does (1e-3 of a pair).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo difference of H0.
    pub elo0: f64,
    /// Elo difference of H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// A test of `elo0` against `elo1` at alpha = beta = 0.05.
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// The log-likelihood ratio bounds `(lower, upper)`: `ln(beta / (1 - alpha))` and
    /// `ln((1 - beta) / alpha)` (±2.94 at 0.05).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these pair counts.
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        let n = p.pairs();
        if n == 0 {
            return 0.0;
        }
        let x = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mut freq = [0.0f64; 5];
        for (f, &c) in freq.iter_mut().zip(&p.counts) {
            *f = if c == 0 { 1e-3 } else { c as f64 };
        }
        let total: f64 = freq.iter().sum();
        for f in &mut freq {
            *f /= total;
        }
        let score = |elo: f64| 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
        let ln_p0 = mle_log_probs(&freq, &x, score(self.elo0));
        let ln_p1 = mle_log_probs(&freq, &x, score(self.elo1));
        let per_pair: f64 = (0..5).map(|i| freq[i] * (ln_p1[i] - ln_p0[i])).sum();
        n as f64 * per_pair
    }

    /// Where the test stands for these counts.
    pub fn status(&self, p: &Pentanomial) -> SprtStatus {
        let llr = self.llr(p);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtStatus::H1
        } else if llr <= lo {
            SprtStatus::H0
        } else {
            SprtStatus::Continue
        }
    }
}

/// The logs of the maximum-likelihood distribution over values `x` with mean `s`, given observed
/// frequencies `freq`: `p_i = freq_i / (1 + lambda (x_i - s))`, `lambda` the root of
/// `sum freq_i (x_i - s) / (1 + lambda (x_i - s)) = 0` (found by bisection: the sum falls as
/// `lambda` grows).
fn mle_log_probs(freq: &[f64; 5], x: &[f64; 5], s: f64) -> [f64; 5] {
    let s = s.clamp(1e-6, 1.0 - 1e-6);
    let f = |l: f64| -> f64 {
        (0..5)
            .map(|i| freq[i] * (x[i] - s) / (1.0 + l * (x[i] - s)))
            .sum()
    };
    // 1 + lambda (x_i - s) > 0 for every i: lambda in (-1 / (1 - s), 1 / s).
    let (mut lo, mut hi) = (-1.0 / (1.0 - s) + 1e-12, 1.0 / s - 1e-12);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let l = 0.5 * (lo + hi);
    let mut out = [0.0; 5];
    for i in 0..5 {
        out[i] = (freq[i] / (1.0 + l * (x[i] - s))).ln();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_known_scores() {
        assert!((elo_from_score(0.5)).abs() < 1e-9);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.01);
        assert!((elo_from_score(0.25) + 190.85).abs() < 0.01);
    }

    #[test]
    fn interval_contains_the_estimate_and_shrinks() {
        let small = Wdl {
            wins: 6,
            draws: 2,
            losses: 2,
        };
        let large = Wdl {
            wins: 600,
            draws: 200,
            losses: 200,
        };
        let (lo, hi) = small.elo_interval();
        assert!(lo < small.elo() && small.elo() < hi);
        let (lo2, hi2) = large.elo_interval();
        assert!(hi2 - lo2 < (hi - lo) / 5.0);
        assert_eq!(small.flipped().flipped(), small);
        assert!((small.score() - 0.7).abs() < 1e-12);
    }

    #[test]
    fn score_margin_is_z_times_the_standard_error() {
        // 10 wins, 10 losses: per-game variance 0.25, standard error sqrt(0.25 / 20).
        let even = Wdl {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert!((even.score_margin() - Z95 * (0.25f64 / 20.0).sqrt()).abs() < 1e-12);
        // All draws: no spread at all.
        let draws = Wdl {
            wins: 0,
            draws: 8,
            losses: 0,
        };
        assert!(draws.score_margin().abs() < 1e-12);
        assert_eq!(Wdl::default().score_margin(), 0.5);
    }

    #[test]
    fn wilson_matches_a_textbook_value() {
        // 8 of 10: the 95% Wilson interval is about (0.490, 0.943).
        let (lo, hi) = wilson_interval(8, 10);
        assert!((lo - 0.490).abs() < 0.001, "{lo}");
        assert!((hi - 0.943).abs() < 0.001, "{hi}");
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }

    #[test]
    fn pentanomial_counts_pairs_and_scores() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 0.5);
        p.add_pair(0.0, 0.0);
        p.add_pair(0.5, 0.5);
        assert_eq!(p.counts, [1, 0, 1, 1, 0]);
        assert_eq!(p.pairs(), 3);
        assert!((p.score() - 2.5 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn sprt_bounds_and_signs() {
        let t = Sprt::new(0.0, 10.0);
        let (lo, hi) = t.bounds();
        assert!((lo + 2.944).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3);
        // A clearly better engine: positive and growing with the number of pairs.
        let better = Pentanomial {
            counts: [5, 20, 40, 25, 10],
        };
        let more = Pentanomial {
            counts: better.counts.map(|c| c * 10),
        };
        assert!(t.llr(&better) > 0.0);
        assert!(t.llr(&more) > 9.0 * t.llr(&better));
        assert_eq!(t.status(&more), SprtStatus::H1);
        // The mirror image: negative, and H0.
        let worse = Pentanomial {
            counts: [100, 250, 400, 200, 50],
        };
        assert!(t.llr(&worse) < 0.0);
        assert_eq!(t.status(&worse), SprtStatus::H0);
        // At a mean score exactly halfway between the hypotheses the ratio is about zero.
        assert_eq!(t.llr(&Pentanomial::default()), 0.0);
    }

    /// The MLE distribution has the required mean and sums to one.
    #[test]
    fn mle_distribution_has_the_constrained_mean() {
        let freq = [0.1, 0.2, 0.4, 0.2, 0.1];
        let x = [0.0, 0.25, 0.5, 0.75, 1.0];
        for s in [0.3, 0.5, 0.55, 0.8] {
            let p: Vec<f64> = mle_log_probs(&freq, &x, s)
                .iter()
                .map(|l| l.exp())
                .collect();
            let sum: f64 = p.iter().sum();
            let mean: f64 = p.iter().zip(&x).map(|(p, x)| p * x).sum();
            assert!((sum - 1.0).abs() < 1e-9, "{sum}");
            assert!((mean - s).abs() < 1e-9, "{mean} vs {s}");
        }
    }

    /// Simulated matches: with the true difference at elo0 the test accepts H1 about alpha of the
    /// time or less, at elo1 about 1 - beta or more (a test's error rates are its whole point).
    #[test]
    fn sprt_error_rates_hold_in_simulation() {
        use crate::rng::Rng;
        let t = Sprt::new(0.0, 40.0);
        let run = |elo: f64, seed: u64| -> bool {
            let mut rng = Rng::new(seed);
            let s = 1.0 / (1.0 + 10f64.powf(-elo / 400.0));
            // Games with 40% draws and mean score s.
            let draw = 0.4;
            let win = s - draw / 2.0;
            let game = |rng: &mut Rng| {
                let u = rng.unit();
                if u < win {
                    1.0
                } else if u < win + draw {
                    0.5
                } else {
                    0.0
                }
            };
            let mut p = Pentanomial::default();
            for _ in 0..20_000 {
                let (a, b) = (game(&mut rng), game(&mut rng));
                p.add_pair(a, b);
                match t.status(&p) {
                    SprtStatus::H1 => return true,
                    SprtStatus::H0 => return false,
                    SprtStatus::Continue => {}
                }
            }
            false
        };
        let runs = 200;
        let false_pos = (0..runs).filter(|&i| run(0.0, 1000 + i)).count();
        let true_pos = (0..runs).filter(|&i| run(40.0, 5000 + i)).count();
        // alpha = beta = 0.05: allow sampling noise (3 standard errors of 200 Bernoulli(0.05)).
        assert!(
            false_pos <= 20,
            "accepted H1 at elo0 in {false_pos} of {runs}"
        );
        assert!(
            true_pos >= 180,
            "accepted H1 at elo1 in only {true_pos} of {runs}"
        );
    }
}
