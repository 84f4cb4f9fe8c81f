//! Nim (normal play): take any number of stones from one heap; who takes the last stone wins.
//! The side to move wins exactly when the XOR of the heap sizes (the nim-sum) is not zero, which
//! makes Nim a perfect oracle for searches.
//!
//! Text: heaps joined by `-` then the player to move, `"3-4-5 0"`; a move is `heap:count` with
//! heaps numbered from 1, `"2:3"` takes three stones from the second heap.

use crate::eval::{Evaluator, Score};
use crate::game::{Game, Notation, Turn};
use crate::rng::zobrist_keys;
use thiserror::Error;

/// Most heaps a position may have.
pub const MAX_HEAPS: usize = 8;
/// Most stones a heap may hold.
pub const MAX_STONES: u8 = 31;

const KEYS: [u64; MAX_HEAPS * 32 + 1] = zobrist_keys(0x0417_0417);

/// A Nim position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    heaps: [u8; MAX_HEAPS],
    len: u8,
    to_move: u8,
    hash: u64,
}

/// Take `take` stones from heap `heap` (0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimMove {
    /// Heap index, from 0.
    pub heap: u8,
    /// Stones taken, at least 1.
    pub take: u8,
}

/// Errors of the Nim notation.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum NimError {
    /// Malformed text.
    #[error("cannot read '{0}': {1}")]
    Syntax(String, &'static str),
    /// A well-formed move that is not legal here.
    #[error("move {0} is illegal: {1}")]
    Illegal(String, &'static str),
}

impl Nim {
    /// A position with the given heaps, player 0 to move. Panics on more than [`MAX_HEAPS`] heaps
    /// or a heap over [`MAX_STONES`] (programmer error; parse text with [`Notation::from_text`]).
    pub fn new(heaps: &[u8]) -> Self {
        assert!(heaps.len() <= MAX_HEAPS && heaps.iter().all(|&h| h <= MAX_STONES));
        let mut h = [0; MAX_HEAPS];
        h[..heaps.len()].copy_from_slice(heaps);
        let mut pos = Nim {
            heaps: h,
            len: heaps.len() as u8,
            to_move: 0,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch();
        pos
    }

    /// The heap sizes.
    pub fn heaps(&self) -> &[u8] {
        &self.heaps[..self.len as usize]
    }

    /// XOR of the heap sizes: non-zero exactly when the side to move wins.
    pub fn nim_sum(&self) -> u8 {
        self.heaps().iter().fold(0, |a, &h| a ^ h)
    }

    fn key(heap: usize, size: u8) -> u64 {
        KEYS[heap * 32 + size as usize]
    }
}

impl Game for Nim {
    type Move = NimMove;
    type Undo = ();

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.heaps().iter().all(|&h| h == 0) {
            Turn::Over
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn legal_moves(&self, moves: &mut Vec<NimMove>) {
        moves.clear();
        for (heap, &size) in self.heaps().iter().enumerate() {
            for take in (1..=size).rev() {
                moves.push(NimMove {
                    heap: heap as u8,
                    take,
                });
            }
        }
    }

    fn make(&mut self, mv: NimMove) {
        let h = mv.heap as usize;
        self.hash ^= Self::key(h, self.heaps[h]);
        self.heaps[h] -= mv.take;
        self.hash ^= Self::key(h, self.heaps[h]) ^ KEYS[MAX_HEAPS * 32];
        self.to_move ^= 1;
    }

    fn unmake(&mut self, mv: NimMove, _undo: ()) {
        let h = mv.heap as usize;
        self.hash ^= Self::key(h, self.heaps[h]);
        self.heaps[h] += mv.take;
        self.hash ^= Self::key(h, self.heaps[h]) ^ KEYS[MAX_HEAPS * 32];
        self.to_move ^= 1;
    }

    /// The player to move at the end has no stone to take: the other player took the last one.
    fn returns(&self, player: usize) -> f64 {
        if player == self.to_move as usize {
            -1.0
        } else {
            1.0
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let side = if self.to_move == 1 {
            KEYS[MAX_HEAPS * 32]
        } else {
            0
        };
        self.heaps()
            .iter()
            .enumerate()
            .fold(side, |h, (i, &s)| h ^ Self::key(i, s))
    }
}

impl Notation for Nim {
    type Error = NimError;

    fn move_to_text(&self, mv: NimMove) -> String {
        format!("{}:{}", mv.heap + 1, mv.take)
    }

    fn parse_move(&self, text: &str) -> Result<NimMove, NimError> {
        let syntax = |why| NimError::Syntax(text.to_string(), why);
        let (heap, take) = text
            .trim()
            .split_once(':')
            .ok_or(syntax("write heap:count"))?;
        let heap: usize = heap.parse().map_err(|_| syntax("the heap is a number"))?;
        let take: u8 = take.parse().map_err(|_| syntax("the count is a number"))?;
        if heap == 0 || heap > self.len as usize {
            return Err(NimError::Illegal(text.to_string(), "no such heap"));
        }
        if take == 0 || take > self.heaps[heap - 1] {
            return Err(NimError::Illegal(
                text.to_string(),
                "take between 1 and the heap size",
            ));
        }
        Ok(NimMove {
            heap: (heap - 1) as u8,
            take,
        })
    }

    fn to_text(&self) -> String {
        let heaps: Vec<String> = self.heaps().iter().map(|h| h.to_string()).collect();
        format!("{} {}", heaps.join("-"), self.to_move)
    }

    fn from_text(text: &str) -> Result<Self, NimError> {
        let syntax = |why| NimError::Syntax(text.to_string(), why);
        let (heaps, side) = text
            .trim()
            .split_once(' ')
            .ok_or(syntax("write heaps then side"))?;
        let heaps: Vec<u8> = heaps
            .split('-')
            .map(|h| h.parse::<u8>())
            .collect::<Result<_, _>>()
            .map_err(|_| syntax("heaps are numbers joined by -"))?;
        if heaps.len() > MAX_HEAPS || heaps.iter().any(|&h| h > MAX_STONES) {
            return Err(syntax("at most 8 heaps of at most 31 stones"));
        }
        let mut pos = Nim::new(&heaps);
        pos.to_move = match side.trim() {
            "0" => 0,
            "1" => 1,
            _ => return Err(syntax("the side to move is 0 or 1")),
        };
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }
}

/// An evaluator that knows nothing (scores 0): searches must reach the end to see a result.
#[derive(Clone, Copy, Debug, Default)]
pub struct NimEval;

impl Evaluator<Nim> for NimEval {
    fn evaluate(&self, _pos: &Nim) -> Score {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check_game, Config};

    #[test]
    fn conformance() {
        check_game(
            &[Nim::new(&[3, 4, 5]), Nim::new(&[1, 0, 7])],
            &Config::default(),
        );
    }

    #[test]
    fn parse_errors_are_typed() {
        let pos = Nim::new(&[3, 4]);
        assert!(matches!(pos.parse_move("3:1"), Err(NimError::Illegal(..))));
        assert!(matches!(pos.parse_move("1:4"), Err(NimError::Illegal(..))));
        assert!(matches!(pos.parse_move("x"), Err(NimError::Syntax(..))));
        assert!(Nim::from_text("1-2-99 0").is_err());
        assert!(Nim::from_text("1-2 7").is_err());
    }
}
