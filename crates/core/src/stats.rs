//! Match and tournament statistics: score, Elo difference with a 95% interval, and the Wilson
//! interval for win rates. Written once so every game's match runner reports the same way.

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
}
