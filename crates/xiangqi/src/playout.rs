//! Seeded random playouts through the core [`Game`] trait: the legal moves of the position
//! ([`Game::legal_moves`]), one of them uniformly at random, [`Game::make`], then
//! [`Game::turn`] for the end of the game; a finished game starts over from the opening. These
//! were the calls of the Python bindings' `VectorGames.step_random`; the bindings now read the
//! turn from the legal moves they generate after each move (none exactly when the game is
//! over), so this loop times the end-of-game test on top of what they do.
//!
//! Benchmarks time this loop per step, and tests fingerprint its seeded games, so that a change
//! of move generation shows both its speed and whether it changed any seeded game.

use crate::position::{Move, Position};
use qiyi_core::game::{Game, Turn};
use qiyi_core::rng::Rng;

/// One game played by random moves, restarted from the opening when it ends.
#[derive(Clone, Debug)]
pub struct RandomPlayout {
    pos: Position,
    moves: Vec<Move>,
    turn: Turn,
    rng: Rng,
    fingerprint: u64,
    games: u64,
}

/// What a run of [`RandomPlayout::run`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutSummary {
    /// Moves played.
    pub moves: u64,
    /// Games that ended (and started over).
    pub finished: u64,
}

impl RandomPlayout {
    /// A playout from the opening with the generator seeded by `seed`.
    pub fn new(seed: u64) -> RandomPlayout {
        let pos = Position::start();
        let turn = pos.turn();
        RandomPlayout {
            pos,
            moves: Vec::new(),
            turn,
            rng: Rng::new(seed),
            fingerprint: 0,
            games: 0,
        }
    }

    /// One step: plays a random legal move and returns `true`, or returns `false` when the game
    /// had ended (it then starts over, as the Python batch does after a terminal step).
    #[inline]
    pub fn step(&mut self) -> bool {
        let played = if self.turn == Turn::Over {
            false
        } else {
            self.pos.legal_moves(&mut self.moves);
            if self.moves.is_empty() {
                false
            } else {
                let mv = self.moves[self.rng.below(self.moves.len())];
                self.fingerprint = mix(self.fingerprint, mv);
                self.pos.make(mv);
                self.turn = self.pos.turn();
                true
            }
        };
        if self.turn == Turn::Over || !played {
            self.games += 1;
            self.fingerprint = self.fingerprint.rotate_left(7) ^ self.pos.hash;
            self.pos = Position::start();
            self.turn = self.pos.turn();
        }
        played
    }

    /// Plays `steps` steps.
    pub fn run(&mut self, steps: u64) -> PlayoutSummary {
        let before = self.games;
        let moves = (0..steps).map(|_| u64::from(self.step())).sum();
        PlayoutSummary {
            moves,
            finished: self.games - before,
        }
    }

    /// A hash of every move played and every final position so far: equal for equal games.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.pos
    }
}

/// Folds a move into a running hash (FNV-style multiply over the two points).
#[inline]
fn mix(h: u64, mv: Move) -> u64 {
    (h ^ (u64::from(mv.from) << 8 | u64::from(mv.to))).wrapping_mul(0x100_0000_01b3)
}
