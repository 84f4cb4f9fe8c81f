//! Race: a tiny deterministic counter race for 2-8 players, the test bed of n-player search.
//!
//! A counter starts at some value below `target`. Players move in turn (0, 1, 2, ...); a move adds
//! 1 to `max_step` to the counter. The player whose move brings the counter to `target` or beyond
//! wins. Returns: the winner gets +1; with three or more players the player after the winner (the
//! one who was about to move) gets 0 and everybody else -1; with two players the loser gets -1.
//! Every game ends within `target` moves, so exact values come from brute force.
//!
//! With two players this is the subtraction game: the side to move wins exactly when
//! `(target - counter) % (max_step + 1) != 0`, by moving to a multiple of `max_step + 1` short of
//! the target.
//!
//! Text: a position is five integers `players target max_step counter to_move`
//! (e.g. `3 10 3 0 0`); a move is the amount added (e.g. `2`).

use crate::eval::MultiEvaluator;
use crate::game::{Game, Notation, NullMove, Turn};
use crate::rng::zobrist_keys;

/// The largest target a race may have.
pub const MAX_TARGET: u8 = 250;
/// The largest number of players.
pub const MAX_PLAYERS: u8 = 8;

const COUNTER_KEYS: [u64; 512] = zobrist_keys(0x7ACE_0001);
const PLAYER_KEYS: [u64; MAX_PLAYERS as usize] = zobrist_keys(0x7ACE_0002);

/// A move: the amount added to the counter (1 to `max_step`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RaceMove(pub u8);

/// Why a race position or move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RaceError {
    /// The position text does not have five integer fields.
    #[error(
        "a race position is five integers `players target max_step counter to_move`, got {0:?}"
    )]
    BadPosition(String),
    /// A field is out of its range.
    #[error("{field} = {value} is out of range ({range})")]
    OutOfRange {
        /// The field.
        field: &'static str,
        /// Its value.
        value: u64,
        /// The allowed range, in words.
        range: &'static str,
    },
    /// The move text is not an integer.
    #[error("a race move is an integer amount, got {0:?}")]
    BadMove(String),
    /// The move is not legal here.
    #[error("adding {amount} is not legal here (1..={max_step}, game not over)")]
    IllegalMove {
        /// The amount asked for.
        amount: u64,
        /// The largest step.
        max_step: u8,
    },
}

/// A race position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    players: u8,
    target: u8,
    max_step: u8,
    counter: u16,
    to_move: u8,
    hash: u64,
}

impl Race {
    /// A new race from counter 0, player 0 to move.
    pub fn new(players: u8, target: u8, max_step: u8) -> Result<Self, RaceError> {
        Self::with_counter(players, target, max_step, 0, 0)
    }

    /// A race position with the counter at `counter` and `to_move` to move.
    pub fn with_counter(
        players: u8,
        target: u8,
        max_step: u8,
        counter: u8,
        to_move: u8,
    ) -> Result<Self, RaceError> {
        let check = |field, value: u8, ok: bool, range| {
            if ok {
                Ok(())
            } else {
                Err(RaceError::OutOfRange {
                    field,
                    value: value as u64,
                    range,
                })
            }
        };
        check(
            "players",
            players,
            (2..=MAX_PLAYERS).contains(&players),
            "2..=8",
        )?;
        check(
            "target",
            target,
            (1..=MAX_TARGET).contains(&target),
            "1..=250",
        )?;
        check(
            "max_step",
            max_step,
            (1..=target).contains(&max_step),
            "1..=target",
        )?;
        check("counter", counter, counter < target, "0..target")?;
        check("to_move", to_move, to_move < players, "0..players")?;
        let mut race = Race {
            players,
            target,
            max_step,
            counter: counter as u16,
            to_move,
            hash: 0,
        };
        race.hash = race.hash_from_scratch();
        Ok(race)
    }

    /// The counter.
    pub fn counter(&self) -> u16 {
        self.counter
    }

    /// The target.
    pub fn target(&self) -> u8 {
        self.target
    }

    /// The largest step.
    pub fn max_step(&self) -> u8 {
        self.max_step
    }

    /// The winner once the game is over (the player who moved last).
    pub fn winner(&self) -> Option<usize> {
        (self.counter >= self.target as u16)
            .then(|| ((self.to_move + self.players - 1) % self.players) as usize)
    }
}

impl Game for Race {
    type Move = RaceMove;
    type Undo = ();

    fn num_players(&self) -> usize {
        self.players as usize
    }

    fn turn(&self) -> Turn {
        if self.counter >= self.target as u16 {
            Turn::Over
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn legal_moves(&self, moves: &mut Vec<RaceMove>) {
        moves.clear();
        if self.counter < self.target as u16 {
            moves.extend((1..=self.max_step).map(RaceMove));
        }
    }

    fn make(&mut self, mv: RaceMove) {
        self.hash ^= COUNTER_KEYS[self.counter as usize] ^ PLAYER_KEYS[self.to_move as usize];
        self.counter += mv.0 as u16;
        self.to_move = (self.to_move + 1) % self.players;
        self.hash ^= COUNTER_KEYS[self.counter as usize] ^ PLAYER_KEYS[self.to_move as usize];
    }

    fn unmake(&mut self, mv: RaceMove, _undo: ()) {
        self.hash ^= COUNTER_KEYS[self.counter as usize] ^ PLAYER_KEYS[self.to_move as usize];
        self.counter -= mv.0 as u16;
        self.to_move = (self.to_move + self.players - 1) % self.players;
        self.hash ^= COUNTER_KEYS[self.counter as usize] ^ PLAYER_KEYS[self.to_move as usize];
    }

    fn returns(&self, player: usize) -> f64 {
        match self.winner() {
            Some(w) if w == player => 1.0,
            Some(_) if self.players > 2 && player == self.to_move as usize => 0.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        COUNTER_KEYS[self.counter as usize] ^ PLAYER_KEYS[self.to_move as usize]
    }
}

impl NullMove for Race {
    fn make_null(&mut self) {
        self.hash ^= PLAYER_KEYS[self.to_move as usize];
        self.to_move = (self.to_move + 1) % self.players;
        self.hash ^= PLAYER_KEYS[self.to_move as usize];
    }

    fn unmake_null(&mut self, _undo: ()) {
        self.hash ^= PLAYER_KEYS[self.to_move as usize];
        self.to_move = (self.to_move + self.players - 1) % self.players;
        self.hash ^= PLAYER_KEYS[self.to_move as usize];
    }
}

impl Notation for Race {
    type Error = RaceError;

    fn move_to_text(&self, mv: RaceMove) -> String {
        mv.0.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<RaceMove, RaceError> {
        let amount: u64 = text
            .trim()
            .parse()
            .map_err(|_| RaceError::BadMove(text.to_string()))?;
        if self.is_over() || amount == 0 || amount > self.max_step as u64 {
            return Err(RaceError::IllegalMove {
                amount,
                max_step: self.max_step,
            });
        }
        Ok(RaceMove(amount as u8))
    }

    fn to_text(&self) -> String {
        format!(
            "{} {} {} {} {}",
            self.players, self.target, self.max_step, self.counter, self.to_move
        )
    }

    fn from_text(text: &str) -> Result<Self, RaceError> {
        let bad = || RaceError::BadPosition(text.to_string());
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 5 {
            return Err(bad());
        }
        let mut v = [0u16; 5];
        for (slot, field) in v.iter_mut().zip(&fields) {
            *slot = field.parse().map_err(|_| bad())?;
        }
        let [players, target, max_step, counter, to_move] = v;
        let small = |field, value: u16| {
            u8::try_from(value).map_err(|_| RaceError::OutOfRange {
                field,
                value: value as u64,
                range: "0..=255",
            })
        };
        let (players, target, max_step) = (
            small("players", players)?,
            small("target", target)?,
            small("max_step", max_step)?,
        );
        let to_move = small("to_move", to_move)?;
        // A finished race (counter at or past the target) is also a valid position.
        if counter >= target as u16 && target > 0 {
            if counter >= target as u16 + max_step as u16 {
                return Err(RaceError::OutOfRange {
                    field: "counter",
                    value: counter as u64,
                    range: "below target + max_step",
                });
            }
            let mut race = Race::with_counter(players, target, max_step, 0, to_move)?;
            race.counter = counter;
            race.hash = race.hash_from_scratch();
            return Ok(race);
        }
        Race::with_counter(
            players,
            target,
            max_step,
            small("counter", counter)?,
            to_move,
        )
    }
}

/// A heuristic for depth-limited n-player search on [`Race`], from the two-player theory: the
/// player to move gets 0.5 when the distance to the target is not a multiple of `max_step + 1`
/// (it could win a duel from here) and -0.5 otherwise; every other player gets minus that share
/// divided among them. Finished races get their returns.
#[derive(Clone, Copy, Debug, Default)]
pub struct RaceEval;

impl MultiEvaluator<Race> for RaceEval {
    fn evaluate(&self, pos: &Race, out: &mut [f64]) {
        let left = (pos.target as u16).saturating_sub(pos.counter);
        let mover = if left % (pos.max_step as u16 + 1) != 0 {
            0.5
        } else {
            -0.5
        };
        let others = -mover / (pos.players as f64 - 1.0);
        for (p, v) in out.iter_mut().enumerate() {
            *v = if p == pos.to_move as usize {
                mover
            } else {
                others
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check_game, Config};

    #[test]
    fn conformance() {
        let starts = [
            Race::new(3, 10, 3).unwrap(),
            Race::new(2, 21, 4).unwrap(),
            Race::new(5, 40, 6).unwrap(),
        ];
        check_game(&starts, &Config::default());
    }

    #[test]
    fn returns_follow_the_rules() {
        let mut r = Race::with_counter(3, 10, 3, 9, 1).unwrap();
        r.make(RaceMove(2));
        assert_eq!(r.winner(), Some(1));
        assert_eq!(r.returns(1), 1.0);
        assert_eq!(r.returns(2), 0.0);
        assert_eq!(r.returns(0), -1.0);
    }

    #[test]
    fn bad_text_is_an_error() {
        assert!(Race::from_text("3 10 3 0").is_err());
        assert!(Race::from_text("9 10 3 0 0").is_err());
        assert!(Race::from_text("3 10 3 0 5").is_err());
        let r = Race::new(3, 10, 3).unwrap();
        assert!(r.parse_move("4").is_err());
        assert!(r.parse_move("0").is_err());
        assert!(r.parse_move("x").is_err());
    }

    proptest::proptest! {
        #[test]
        fn parsers_never_panic(s in "\\PC{0,40}") {
            let _ = Race::from_text(&s);
            let _ = Race::new(3, 10, 3).unwrap().parse_move(&s);
        }
    }
}
