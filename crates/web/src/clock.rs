//! Fischer clocks for two-player games: each side has a base time, gains an increment with every
//! move it makes, and loses the game when its time runs out (a draw when the other side has no
//! material left to win with).

use crate::session::GameResult;
use qiyi_core::platform::Instant;
use serde::{Deserialize, Serialize};

/// The time control chosen at creation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ClockSetting {
    /// Starting time of each side, in milliseconds (1 s to 10 h).
    #[cfg_attr(feature = "server", schema(minimum = 1000, maximum = 36000000))]
    #[serde(deserialize_with = "crate::whole::exact")]
    pub base_ms: u64,
    /// Time added after each of a side's moves, in milliseconds (at most 10 min).
    #[serde(default, deserialize_with = "crate::whole::exact")]
    #[cfg_attr(feature = "server", schema(maximum = 600000))]
    pub increment_ms: u64,
}

impl ClockSetting {
    /// Checks the bounds.
    pub fn check(&self) -> Result<(), String> {
        if !(1_000..=36_000_000).contains(&self.base_ms) {
            return Err("clock.base_ms must be from 1000 to 36000000".into());
        }
        if self.increment_ms > 600_000 {
            return Err("clock.increment_ms must be at most 600000".into());
        }
        Ok(())
    }
}

/// A running clock.
#[derive(Clone, Debug)]
pub struct Clock {
    /// The time control.
    pub setting: ClockSetting,
    /// Time left of each side when its turn began (or now, for the side not to move).
    pub remaining: Vec<u64>,
    /// When the current turn began; `None` until the first move (the clock starts with it).
    pub since: Option<Instant>,
}

/// The clock as the API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct ClockView {
    /// Starting time, ms.
    pub base_ms: u64,
    /// Increment, ms.
    pub increment_ms: u64,
    /// Time left of each side now, ms.
    pub remaining_ms: Vec<u64>,
    /// The side whose clock runs (`None`: not started or the game is over).
    pub running: Option<usize>,
}

impl Clock {
    /// A clock for `players` sides, not yet started.
    pub fn new(setting: ClockSetting, players: usize) -> Clock {
        Clock {
            setting,
            remaining: vec![setting.base_ms; players],
            since: None,
        }
    }

    fn used(&self) -> u64 {
        self.since
            .map(|s| s.elapsed().as_millis() as u64)
            .unwrap_or(0)
    }

    /// Time `player` has left now if their clock runs.
    pub fn left(&self, player: usize) -> u64 {
        self.remaining
            .get(player)
            .copied()
            .unwrap_or(0)
            .saturating_sub(self.used())
    }

    /// Charges `player` for the move just made and adds the increment; false when their time
    /// had run out (the move is then void). Starts the clock at the first move.
    pub fn charge(&mut self, player: usize) -> bool {
        let used = self.used();
        let Some(r) = self.remaining.get_mut(player) else {
            return true;
        };
        if self.since.is_some() && used >= *r {
            *r = 0;
            return false;
        }
        *r = r.saturating_sub(used) + self.setting.increment_ms;
        self.since = Some(Instant::now());
        true
    }

    /// Whether `player`'s time is up while their clock runs.
    pub fn flagged(&self, player: usize) -> bool {
        self.since.is_some() && self.left(player) == 0
    }

    /// The clock now, with `to_move`'s time running.
    pub fn view(&self, to_move: Option<usize>) -> ClockView {
        let running = to_move.filter(|_| self.since.is_some());
        ClockView {
            base_ms: self.setting.base_ms,
            increment_ms: self.setting.increment_ms,
            remaining_ms: (0..self.remaining.len())
                .map(|p| {
                    if Some(p) == running {
                        self.left(p)
                    } else {
                        self.remaining[p]
                    }
                })
                .collect(),
            running,
        }
    }
}

/// Whether `player` still has material that could win in `game` at `position` (the game's text
/// notation): in Xiangqi a rook, horse, cannon or pawn; in the other games any piece.
pub fn can_win(game: &str, position: &str, player: usize) -> bool {
    match game {
        "xiangqi" => {
            let board = position.split_whitespace().next().unwrap_or("");
            board.chars().any(|c| {
                let attacker = matches!(c.to_ascii_lowercase(), 'r' | 'n' | 'h' | 'c' | 'p');
                attacker && (c.is_ascii_uppercase() == (player == 0))
            })
        }
        _ => true,
    }
}

/// The result when `flagged`'s time ran out in a two-player game: the other side wins, or a
/// draw when it cannot win.
pub fn flag_result(game: &str, position: &str, flagged: usize, names: &[String]) -> GameResult {
    let other = 1 - flagged.min(1);
    let name = names
        .get(flagged)
        .cloned()
        .unwrap_or_else(|| format!("player {}", flagged + 1));
    if can_win(game, position, other) {
        let mut returns = vec![-1.0; 2];
        returns[other] = 1.0;
        GameResult {
            returns,
            winner: Some(other),
            reason: format!("{name} ran out of time"),
        }
    } else {
        GameResult {
            returns: vec![0.0; 2],
            winner: None,
            reason: format!("{name} ran out of time, but the other side cannot win: draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xiangqi_material() {
        // Kings and advisors only for Black; Red has a rook.
        let fen = "3akab2/9/9/9/9/9/9/9/9/4K3R w";
        assert!(can_win("xiangqi", fen, 0));
        assert!(!can_win("xiangqi", fen, 1));
        let r = flag_result("xiangqi", fen, 0, &["Red".into(), "Black".into()]);
        assert_eq!(r.winner, None, "Black cannot win: a draw");
        let r = flag_result("xiangqi", fen, 1, &["Red".into(), "Black".into()]);
        assert_eq!(r.winner, Some(0));
    }

    #[test]
    fn charge_adds_the_increment_and_starts_at_the_first_move() {
        let mut c = Clock::new(
            ClockSetting {
                base_ms: 1000,
                increment_ms: 500,
            },
            2,
        );
        assert_eq!(c.view(Some(0)).running, None);
        assert!(c.charge(0));
        assert_eq!(c.remaining[0], 1500);
        assert_eq!(c.view(Some(1)).running, Some(1));
        assert!(!c.flagged(1));
    }
}
