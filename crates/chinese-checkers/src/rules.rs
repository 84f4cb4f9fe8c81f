//! The rules that are a matter of choice: number of players and their seats, pieces per player,
//! how a game is won, the move cap and the final ranking.
//!
//! # Defaults ([`Options::default`])
//!
//! - 2 players, 10 pieces each (15 is allowed for two players: the point plus the next row of 5).
//! - **Anti-spoiling on**: you have won when every hole of your goal is occupied and at least one
//!   of them holds your piece, so an opponent cannot block you by never leaving your goal.
//!   With it off, you win only when all your goal holes hold your own pieces.
//! - **Goal lock off**: when on, a piece standing in its goal may only move to another goal hole.
//! - **Move cap 200 moves per player**: when reached, the game ends and players are ranked by the
//!   distance their pieces still have to go (see [`crate::Position::remaining`]); ties share a rank.
//!
//! The game ends as soon as one player has won; the others are ranked by remaining distance.
//!
//! # Seats
//!
//! Points are numbered as in [`crate::board`]. Players move in clockwise order:
//! 2 players sit on opposite points (bottom, top); 3 on every other point (bottom, upper left,
//! upper right), so no one's goal is someone's start; 4 on two opposite pairs (lower right,
//! lower left, upper left, upper right); 6 on all points, clockwise from the bottom.

use crate::error::Error;

/// The options of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    /// Number of players: 2, 3, 4 or 6.
    pub players: usize,
    /// Pieces per player: 10, or 15 for two players.
    pub pieces: usize,
    /// The anti-spoiling rule (see the module documentation).
    pub anti_spoil: bool,
    /// Pieces that stand in their goal may not leave it.
    pub goal_lock: bool,
    /// Moves per player before the game is stopped and ranked (0: no cap).
    pub max_moves: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            players: 2,
            pieces: 10,
            anti_spoil: true,
            goal_lock: false,
            max_moves: 200,
        }
    }
}

impl Options {
    /// The default options for `players` players.
    pub fn players(players: usize) -> Result<Self, Error> {
        let o = Options {
            players,
            ..Options::default()
        };
        o.validate()?;
        Ok(o)
    }

    /// Checks that the options describe a supported game.
    pub fn validate(&self) -> Result<(), Error> {
        if !matches!(self.players, 2 | 3 | 4 | 6) {
            return Err(Error::BadOptions(format!(
                "{} players: the star seats 2, 3, 4 or 6",
                self.players
            )));
        }
        match (self.pieces, self.players) {
            (10, _) | (15, 2) => {}
            (15, _) => {
                return Err(Error::BadOptions(
                    "15 pieces each is only possible with 2 players".into(),
                ))
            }
            (n, _) => {
                return Err(Error::BadOptions(format!(
                    "{n} pieces: each player has 10 (or 15 with 2 players)"
                )))
            }
        }
        Ok(())
    }

    /// The cap in plies (all players' moves), `u32::MAX` when there is none.
    pub fn cap_plies(&self) -> u32 {
        if self.max_moves == 0 {
            u32::MAX
        } else {
            self.max_moves.saturating_mul(self.players as u32)
        }
    }
}

/// The start point of each player in turn order, for `players` players.
pub fn seats(players: usize) -> &'static [usize] {
    match players {
        2 => &[3, 0],
        3 => &[3, 5, 1],
        4 => &[2, 4, 5, 1],
        6 => &[3, 4, 5, 0, 1, 2],
        _ => &[],
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Still being played.
    Ongoing,
    /// Won by this player.
    Won(u8),
    /// Stopped by the move cap; players are ranked by remaining distance.
    Capped,
}

/// Ranks players (0 = best) by the key `remaining` (lower is better), with `winner` first when
/// there is one; tied players share the average of their ranks. Returns one rank per player.
pub fn ranks(remaining: &[u32], winner: Option<usize>) -> Vec<f64> {
    let n = remaining.len();
    let key = |p: usize| -> (u8, u32) {
        if Some(p) == winner {
            (0, 0)
        } else {
            (1, remaining[p])
        }
    };
    (0..n)
        .map(|p| {
            let better = (0..n).filter(|&q| key(q) < key(p)).count();
            let equal = (0..n).filter(|&q| key(q) == key(p)).count();
            better as f64 + (equal as f64 - 1.0) / 2.0
        })
        .collect()
}
