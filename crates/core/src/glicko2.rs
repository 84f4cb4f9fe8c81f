//! Glicko-2 ratings, written once: the server's puzzle ratings use it, and the static site can
//! reuse it (pure arithmetic, no I/O, no dependencies beyond [`crate::puzzles::Rating`]).
//!
//! The algorithm is Mark Glickman's, step by step as in "Example of the Glicko-2 system"
//! (Glickman, 2012, <http://www.glicko.net/glicko/glicko2.pdf>): ratings go to the Glicko-2
//! scale (`μ = (r - 1500) / 173.7178`, `φ = RD / 173.7178`), the new volatility is found with the
//! Illinois algorithm, and the rating and deviation come back to the Glicko scale. A rating
//! period with no game only widens the deviation.
//!
//! A puzzle attempt is one game of one rating period, as lichess rates puzzles: the player against
//! the puzzle (1 solved, 0 failed), and the puzzle against the player (the other way round).
//!
//! ```
//! use qiyi_core::glicko2::{Game, Glicko2};
//! use qiyi_core::puzzles::Rating;
//!
//! let player = Rating { rating: 1500.0, deviation: 200.0, volatility: 0.06 };
//! let games = [
//!     Game { opponent: Rating { rating: 1400.0, deviation: 30.0, volatility: 0.06 }, score: 1.0 },
//!     Game { opponent: Rating { rating: 1550.0, deviation: 100.0, volatility: 0.06 }, score: 0.0 },
//!     Game { opponent: Rating { rating: 1700.0, deviation: 300.0, volatility: 0.06 }, score: 0.0 },
//! ];
//! let after = Glicko2::default().update(player, &games).unwrap();
//! assert!((after.rating - 1464.06).abs() < 0.01);
//! assert!((after.deviation - 151.52).abs() < 0.01);
//! ```

use crate::puzzles::Rating;
use std::f64::consts::PI;

/// The factor between the Glicko scale and the Glicko-2 scale.
pub const SCALE: f64 = 173.7178;

/// The convergence tolerance of the volatility iteration (the paper's ε).
const EPSILON: f64 = 0.000_001;

/// The most steps the volatility iteration takes (it converges in a handful; this only bounds it).
const MAX_STEPS: usize = 200;

/// One game of a rating period: the opponent as rated before the period, and the score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Game {
    /// The opponent's rating before the period.
    pub opponent: Rating,
    /// 1 a win, 0.5 a draw, 0 a loss (anything in `[0, 1]`).
    pub score: f64,
}

/// Why a rating could not be updated.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum Glicko2Error {
    /// A rating, deviation or volatility is not finite, or a deviation or volatility is not
    /// positive.
    #[error("not a rating: {0:?}")]
    BadRating(Rating),
    /// A score outside `[0, 1]` (or not a number).
    #[error("score {0} is not between 0 and 1")]
    BadScore(f64),
}

/// The system's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Glicko2 {
    /// τ, how much the volatility may change in one period (the paper suggests 0.3 to 1.2; its
    /// example uses 0.5, the default).
    pub tau: f64,
    /// The smallest deviation a rating is left with (0 in the paper; a floor keeps a rating able
    /// to move).
    pub min_deviation: f64,
    /// The largest deviation (350, the deviation of a new rating, by default).
    pub max_deviation: f64,
}

impl Default for Glicko2 {
    fn default() -> Self {
        Glicko2 {
            tau: 0.5,
            min_deviation: 0.0,
            max_deviation: Rating::START_DEVIATION,
        }
    }
}

fn check(r: Rating) -> Result<(), Glicko2Error> {
    let finite = r.rating.is_finite() && r.deviation.is_finite() && r.volatility.is_finite();
    if finite && r.deviation > 0.0 && r.volatility > 0.0 {
        Ok(())
    } else {
        Err(Glicko2Error::BadRating(r))
    }
}

/// The paper's g(φ): how much a game against an opponent of deviation φ counts.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// The paper's E: the expected score of μ against μj of deviation φj.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko2 {
    /// The expected score of `player` against `opponent` (the paper's E, with the opponent's
    /// deviation).
    pub fn expected_score(player: Rating, opponent: Rating) -> f64 {
        expected(
            (player.rating - Rating::START) / SCALE,
            (opponent.rating - Rating::START) / SCALE,
            opponent.deviation / SCALE,
        )
    }

    /// `player`'s rating after a rating period with `games` (each against an opponent as rated
    /// before the period). No games: only the deviation grows.
    pub fn update(&self, player: Rating, games: &[Game]) -> Result<Rating, Glicko2Error> {
        check(player)?;
        for game in games {
            check(game.opponent)?;
            if !(0.0..=1.0).contains(&game.score) {
                return Err(Glicko2Error::BadScore(game.score));
            }
        }
        // Step 2: the Glicko-2 scale.
        let mu = (player.rating - Rating::START) / SCALE;
        let phi = player.deviation / SCALE;
        let sigma = player.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Ok(self.bounded(Rating {
                rating: player.rating,
                deviation: phi_star * SCALE,
                volatility: sigma,
            }));
        }
        // Steps 3 and 4: the estimated variance v and the improvement Δ.
        let mut inv_v = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = (game.opponent.rating - Rating::START) / SCALE;
            let phi_j = game.opponent.deviation / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            inv_v += gj * gj * e * (1.0 - e);
            sum += gj * (game.score - e);
        }
        let v = 1.0 / inv_v;
        let delta = v * sum;
        // Step 5: the new volatility, by the Illinois algorithm.
        let a = (sigma * sigma).ln();
        let tau2 = self.tau * self.tau;
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / tau2
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * self.tau) < 0.0 && k < MAX_STEPS as f64 {
                k += 1.0;
            }
            a - k * self.tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        for _ in 0..MAX_STEPS {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
        }
        let new_sigma = (big_a / 2.0).exp();
        // Steps 6 and 7: the new deviation and rating.
        let phi_star = (phi * phi + new_sigma * new_sigma).sqrt();
        let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let new_mu = mu + new_phi * new_phi * sum;
        let out = Rating {
            rating: new_mu * SCALE + Rating::START,
            deviation: new_phi * SCALE,
            volatility: new_sigma,
        };
        check(out)?;
        Ok(self.bounded(out))
    }

    /// The ratings of both sides after one game of `a` against `b` (`score`: `a`'s), each against
    /// the other as rated before it.
    pub fn game(&self, a: Rating, b: Rating, score: f64) -> Result<(Rating, Rating), Glicko2Error> {
        let new_a = self.update(a, &[Game { opponent: b, score }])?;
        let new_b = self.update(
            b,
            &[Game {
                opponent: a,
                score: 1.0 - score,
            }],
        )?;
        Ok((new_a, new_b))
    }

    fn bounded(&self, mut r: Rating) -> Rating {
        r.deviation = r.deviation.clamp(self.min_deviation, self.max_deviation);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    /// Glickman's worked example (section "Example of the Glicko-2 system"): 1500/200/0.06 beats
    /// 1400/30 and loses to 1550/100 and 1700/300, τ = 0.5: r' = 1464.06, RD' = 151.52,
    /// σ' = 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let games = [
            Game {
                opponent: r(1400.0, 30.0),
                score: 1.0,
            },
            Game {
                opponent: r(1550.0, 100.0),
                score: 0.0,
            },
            Game {
                opponent: r(1700.0, 300.0),
                score: 0.0,
            },
        ];
        let out = Glicko2::default().update(r(1500.0, 200.0), &games).unwrap();
        assert!((out.rating - 1464.06).abs() < 0.01, "{out:?}");
        assert!((out.deviation - 151.52).abs() < 0.01, "{out:?}");
        assert!((out.volatility - 0.05999).abs() < 0.00001, "{out:?}");
    }

    #[test]
    fn no_game_only_widens_the_deviation() {
        let out = Glicko2::default().update(r(1600.0, 50.0), &[]).unwrap();
        assert_eq!(out.rating, 1600.0);
        assert!(out.deviation > 50.0 && out.deviation < 52.0, "{out:?}");
        let wide = Glicko2::default().update(r(1600.0, 350.0), &[]).unwrap();
        assert_eq!(wide.deviation, 350.0, "bounded by max_deviation");
    }

    #[test]
    fn a_win_raises_one_side_and_lowers_the_other() {
        let sys = Glicko2::default();
        let (a, b) = sys.game(r(1500.0, 350.0), r(1500.0, 350.0), 1.0).unwrap();
        assert!(a.rating > 1500.0 && b.rating < 1500.0, "{a:?} {b:?}");
        assert!((a.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(a.deviation < 350.0);
        let e = Glicko2::expected_score(r(1700.0, 50.0), r(1500.0, 50.0));
        assert!(e > 0.7 && e < 0.8, "{e}");
    }

    #[test]
    fn bad_inputs_are_errors() {
        let sys = Glicko2::default();
        let bad = r(f64::NAN, 100.0);
        assert!(matches!(
            sys.update(bad, &[]),
            Err(Glicko2Error::BadRating(_))
        ));
        assert!(matches!(
            sys.update(r(1500.0, 0.0), &[]),
            Err(Glicko2Error::BadRating(_))
        ));
        assert_eq!(
            sys.game(r(1500.0, 100.0), r(1500.0, 100.0), 1.5),
            Err(Glicko2Error::BadScore(1.5))
        );
    }
}
