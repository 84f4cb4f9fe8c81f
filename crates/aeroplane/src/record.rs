//! Seeded dice, whole games between players, and records that replay exactly.
//!
//! The dice of a game seeded with `seed` are the stream of `Rng::new(seed)`; each seat's player
//! gets its own generator `Rng::derive(seed, 1 + seat)`, so the dice do not depend on what the
//! players do with their randomness. A [`GameRecord`] keeps the rules, the seed, every roll and
//! every choice; [`GameRecord::replay`] plays them back through the rules and checks each step.

use crate::error::AeroError;
use crate::player::Player;
use crate::position::{Aero, AeroMove};
use crate::rules::Rules;
use qiyi_core::{Game, Rng, Turn};
use serde::{Deserialize, Serialize};

/// A seeded fair die.
#[derive(Clone, Debug)]
pub struct Dice(Rng);

impl Dice {
    /// The dice of a game seeded with `seed`.
    pub fn new(seed: u64) -> Dice {
        Dice(Rng::new(seed))
    }

    /// The next roll, 1..=6.
    #[inline]
    pub fn roll(&mut self) -> u8 {
        self.0.below(6) as u8 + 1
    }
}

/// A complete game: everything needed to replay it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The rules played.
    pub rules: Rules,
    /// Number of players.
    pub players: usize,
    /// Seed of the dice.
    pub seed: u64,
    /// Every roll, in order.
    pub rolls: Vec<u8>,
    /// Every plane chosen (0..4), in order (spent rolls have no choice).
    pub choices: Vec<u8>,
    /// Finishing places (1 = winner, 0 = unplaced).
    pub places: Vec<u8>,
    /// Turns played (all players).
    pub turns: u32,
    /// Enemy planes sent home.
    pub captures: u32,
}

/// Statistics of one game.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct GameStats {
    /// The winner.
    pub winner: Option<usize>,
    /// Turns played (all players together).
    pub turns: u32,
    /// Enemy planes sent home.
    pub captures: u32,
}

/// Safety limit on rolls in one game (a game needs a few hundred).
pub const MAX_ROLLS: usize = 100_000;

/// Plays a game from `start` with one player per seat; dice from `seed`. Returns the record.
pub fn play_game(start: &Aero, players: &mut [Box<dyn Player>], seed: u64) -> GameRecord {
    let mut dice = Dice::new(seed);
    let mut pos = *start;
    let mut rec = GameRecord {
        rules: pos.rules(),
        players: pos.players(),
        seed,
        rolls: Vec::new(),
        choices: Vec::new(),
        places: Vec::new(),
        turns: 1,
        captures: 0,
    };
    while rec.rolls.len() < MAX_ROLLS {
        let mv = match pos.turn() {
            Turn::Over => break,
            Turn::Chance => {
                let r = dice.roll();
                rec.rolls.push(r);
                AeroMove::Roll(r)
            }
            Turn::Player(p) => {
                let mv = players[p % players.len()].choose(&pos);
                if let AeroMove::Plane(i) = mv {
                    rec.choices.push(i);
                }
                mv
            }
        };
        let effect = pos.play(mv);
        rec.captures += effect.captured as u32;
        if effect.new_turn {
            rec.turns += 1;
        }
    }
    rec.places = pos.places()[..pos.players()].to_vec();
    rec
}

/// Plays a game between uniformly random players as fast as possible (no allocation, no
/// Zobrist updates on the way; dice and choices drawn from `rng`, several per random word).
pub fn random_game(start: &Aero, rng: &mut Rng) -> GameStats {
    random_game_with(start, rng, Aero::play_out_random)
}

/// [`random_game`] through the move-by-move loop of [`Aero::play`] (the earlier fast path): the
/// same games, kept as the reference for speed comparisons (`examples/speed.rs`).
pub fn random_game_move_by_move(start: &Aero, rng: &mut Rng) -> GameStats {
    random_game_with(start, rng, Aero::play_out_random_generic)
}

/// Plays `start` out with `play_out` (which returns captures and turns after the first).
#[inline(always)]
fn random_game_with(
    start: &Aero,
    rng: &mut Rng,
    play_out: fn(&mut Aero, &mut Rng) -> (u32, u32),
) -> GameStats {
    let mut pos = *start;
    let (captures, turns) = play_out(&mut pos, rng);
    GameStats {
        winner: pos.winner(),
        turns: 1 + turns,
        captures,
    }
}

impl GameRecord {
    /// Replays the record through the rules; returns the final position, or the first step that
    /// is not legal. Also checks that the rolls are the seed's dice stream.
    pub fn replay(&self) -> Result<Aero, AeroError> {
        let (mut pos, moves) = self.moves()?;
        for &mv in &moves {
            pos.play(mv);
        }
        if !self.places.is_empty() && pos.places()[..pos.players()] != self.places[..] {
            return Err(AeroError::BadRecord("places differ".into()));
        }
        Ok(pos)
    }

    /// The start position and every move of the record (rolls and choices interleaved as they
    /// were played), checked step by step as [`GameRecord::replay`] checks them (the places
    /// excepted).
    pub fn moves(&self) -> Result<(Aero, Vec<AeroMove>), AeroError> {
        let start = Aero::new(self.rules, self.players)?;
        let mut pos = start;
        let mut out = Vec::with_capacity(self.rolls.len() + self.choices.len());
        let mut dice = Dice::new(self.seed);
        let mut rolls = self.rolls.iter();
        let mut choices = self.choices.iter();
        let mut guard = 0usize;
        loop {
            guard += 1;
            if guard > 2 * MAX_ROLLS + 10 {
                return Err(AeroError::BadRecord("too many steps".into()));
            }
            let mv = match pos.turn() {
                Turn::Over => break,
                Turn::Chance => match rolls.next() {
                    None => break,
                    Some(&r) => {
                        if !(1..=6).contains(&r) {
                            return Err(AeroError::BadRecord(format!("roll {r} is not 1..=6")));
                        }
                        if dice.roll() != r {
                            return Err(AeroError::BadRecord(format!(
                                "roll {r} is not the dice stream of seed {}",
                                self.seed
                            )));
                        }
                        AeroMove::Roll(r)
                    }
                },
                Turn::Player(_) => match choices.next() {
                    None => {
                        return Err(AeroError::BadRecord("a choice is missing".into()));
                    }
                    Some(&i) => {
                        if i >= 4 || !pos.choices().as_slice().contains(&i) {
                            return Err(AeroError::BadRecord(format!(
                                "plane {i} cannot move here"
                            )));
                        }
                        AeroMove::Plane(i)
                    }
                },
            };
            out.push(mv);
            pos.play(mv);
        }
        if rolls.next().is_some() || choices.next().is_some() {
            return Err(AeroError::BadRecord("moves left over after the end".into()));
        }
        Ok((start, out))
    }

    /// The record as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a record from JSON.
    pub fn from_json(text: &str) -> Result<GameRecord, AeroError> {
        serde_json::from_str(text).map_err(|e| AeroError::BadRecord(e.to_string()))
    }
}
