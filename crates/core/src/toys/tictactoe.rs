//! Tic-tac-toe: the smallest two-player game worth searching. Squares `a1`..`c3` (file letter,
//! rank digit, `a1` bottom left); positions as nine characters `x`, `o` or `.` from `a3` to `c1`
//! row by row from the top, then the side to move: `"x.o.x.... o"`.

use crate::eval::{Evaluator, Score};
use crate::game::{Game, Notation, Turn};
use crate::rng::zobrist_keys;
use thiserror::Error;

const KEYS: [u64; 19] = zobrist_keys(0x7177_7AC0);
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// A tic-tac-toe position. Bit `i` of a mask is square `i` = file `i % 3`, rank `i / 3`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TicTacToe {
    marks: [u16; 2],
    to_move: u8,
    hash: u64,
}

/// Errors of the tic-tac-toe notation.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TicTacToeError {
    /// A square name that is not `a1`..`c3`.
    #[error("'{0}' is not a square (a1..c3)")]
    BadSquare(String),
    /// The square is taken or the game is over.
    #[error("move {0} is illegal: {1}")]
    Illegal(String, &'static str),
    /// Malformed position text.
    #[error("bad position '{0}': {1}")]
    BadPosition(String, &'static str),
}

impl TicTacToe {
    fn winner(&self) -> Option<usize> {
        (0..2).find(|&p| LINES.iter().any(|&l| self.marks[p] & l == l))
    }

    fn full(&self) -> bool {
        self.marks[0] | self.marks[1] == 0x1FF
    }

    /// The marks of player `p` as a 9-bit mask.
    pub fn marks(&self, p: usize) -> u16 {
        self.marks[p]
    }
}

impl Game for TicTacToe {
    type Move = u8;
    type Undo = ();

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.winner().is_some() || self.full() {
            Turn::Over
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.turn() == Turn::Over {
            return;
        }
        let empty = !(self.marks[0] | self.marks[1]) & 0x1FF;
        moves.extend((0..9u8).filter(|&i| empty & (1 << i) != 0));
    }

    fn make(&mut self, mv: u8) {
        let p = self.to_move as usize;
        self.marks[p] |= 1 << mv;
        self.hash ^= KEYS[p * 9 + mv as usize] ^ KEYS[18];
        self.to_move ^= 1;
    }

    fn unmake(&mut self, mv: u8, _undo: ()) {
        self.to_move ^= 1;
        let p = self.to_move as usize;
        self.marks[p] &= !(1 << mv);
        self.hash ^= KEYS[p * 9 + mv as usize] ^ KEYS[18];
    }

    fn returns(&self, player: usize) -> f64 {
        match self.winner() {
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.to_move == 1 { KEYS[18] } else { 0 };
        for p in 0..2 {
            for i in 0..9 {
                if self.marks[p] & (1 << i) != 0 {
                    h ^= KEYS[p * 9 + i];
                }
            }
        }
        h
    }
}

fn square_name(i: u8) -> String {
    format!("{}{}", (b'a' + i % 3) as char, i / 3 + 1)
}

impl Notation for TicTacToe {
    type Error = TicTacToeError;

    fn move_to_text(&self, mv: u8) -> String {
        square_name(mv)
    }

    fn parse_move(&self, text: &str) -> Result<u8, TicTacToeError> {
        let bytes = text.trim().as_bytes();
        let bad = || TicTacToeError::BadSquare(text.to_string());
        let [f, r] = bytes else { return Err(bad()) };
        if !(b'a'..=b'c').contains(f) || !(b'1'..=b'3').contains(r) {
            return Err(bad());
        }
        let sq = (r - b'1') * 3 + (f - b'a');
        if self.turn() == Turn::Over {
            return Err(TicTacToeError::Illegal(
                text.to_string(),
                "the game is over",
            ));
        }
        if (self.marks[0] | self.marks[1]) & (1 << sq) != 0 {
            return Err(TicTacToeError::Illegal(
                text.to_string(),
                "the square is taken",
            ));
        }
        Ok(sq)
    }

    fn to_text(&self) -> String {
        let mut s = String::new();
        for rank in (0..3).rev() {
            for file in 0..3 {
                let i = rank * 3 + file;
                s.push(if self.marks[0] & (1 << i) != 0 {
                    'x'
                } else if self.marks[1] & (1 << i) != 0 {
                    'o'
                } else {
                    '.'
                });
            }
        }
        s.push(' ');
        s.push(if self.to_move == 0 { 'x' } else { 'o' });
        s
    }

    fn from_text(text: &str) -> Result<Self, TicTacToeError> {
        let bad = |why| TicTacToeError::BadPosition(text.to_string(), why);
        let mut parts = text.split_whitespace();
        let board = parts.next().ok_or_else(|| bad("empty"))?;
        let side = parts.next().ok_or_else(|| bad("missing side to move"))?;
        if parts.next().is_some() {
            return Err(bad("trailing text"));
        }
        let cells: Vec<char> = board.chars().collect();
        if cells.len() != 9 {
            return Err(bad("the board needs 9 cells"));
        }
        let mut pos = TicTacToe::default();
        for (k, c) in cells.iter().enumerate() {
            let i = (2 - k / 3) * 3 + k % 3;
            match c {
                'x' | 'X' => pos.marks[0] |= 1 << i,
                'o' | 'O' => pos.marks[1] |= 1 << i,
                '.' => {}
                _ => return Err(bad("cells are x, o or .")),
            }
        }
        pos.to_move = match side {
            "x" | "X" => 0,
            "o" | "O" => 1,
            _ => return Err(bad("side to move is x or o")),
        };
        let (nx, no) = (pos.marks[0].count_ones(), pos.marks[1].count_ones());
        let expected_o = if pos.to_move == 0 { nx } else { nx - 1 };
        if nx < no || no != expected_o {
            return Err(bad("mark counts do not fit the side to move"));
        }
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }
}

/// A simple evaluator: lines still open for the side to move minus lines open for the opponent;
/// the centre first in move ordering.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeEval;

impl Evaluator<TicTacToe> for TicTacToeEval {
    fn evaluate(&self, pos: &TicTacToe) -> Score {
        let me = pos.to_move as usize;
        let open = |p: usize| {
            LINES
                .iter()
                .filter(|&&l| pos.marks[1 - p] & l == 0 && pos.marks[p] & l != 0)
                .count() as Score
        };
        10 * (open(me) - open(1 - me))
    }

    fn move_order(&self, _pos: &TicTacToe, mv: u8) -> i32 {
        match mv {
            4 => 2,
            0 | 2 | 6 | 8 => 1,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check_game, Config};

    #[test]
    fn conformance() {
        check_game(&[TicTacToe::default()], &Config::default());
    }

    #[test]
    fn notation_errors_are_typed() {
        let pos = TicTacToe::default();
        assert!(matches!(
            pos.parse_move("d1"),
            Err(TicTacToeError::BadSquare(_))
        ));
        let pos = pos.after(4);
        assert!(matches!(
            pos.parse_move("b2"),
            Err(TicTacToeError::Illegal(..))
        ));
        assert!(TicTacToe::from_text("xxxxxxxxx o").is_err());
        assert!(TicTacToe::from_text("xx. o").is_err());
    }
}
