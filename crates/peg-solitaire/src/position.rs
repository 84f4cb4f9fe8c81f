//! A position as a game for the core vocabulary: core's [`Game`] and [`Notation`] (one player, a
//! move is one jump) and core's [`Puzzle`] for the generic single-agent solvers.

use crate::board::Board;
use crate::error::PegError;
use qiyi_core::game::{Game, Notation, Puzzle, Turn};
use qiyi_core::rng::zobrist_keys;
use std::fmt;
use std::sync::Arc;

const KEYS: [u64; 128] = zobrist_keys::<128>(0x9E65_0117_A12E);

/// A board with pegs on it: the state of one game of peg solitaire.
#[derive(Clone)]
pub struct PegPosition {
    board: Arc<Board>,
    pegs: u128,
    hash: u64,
}

impl PartialEq for PegPosition {
    fn eq(&self, other: &Self) -> bool {
        self.pegs == other.pegs && *self.board == *other.board
    }
}

impl fmt::Debug for PegPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PegPosition({}):\n{}",
            self.board.name(),
            self.board.picture(self.pegs)
        )
    }
}

fn zobrist(pegs: u128) -> u64 {
    let mut h = 0;
    let mut s = pegs;
    while s != 0 {
        h ^= KEYS[s.trailing_zeros() as usize];
        s &= s - 1;
    }
    h
}

impl PegPosition {
    /// `pegs` on `board`.
    pub fn new(board: Arc<Board>, pegs: u128) -> Self {
        let pegs = pegs & board.full();
        PegPosition {
            board,
            pegs,
            hash: zobrist(pegs),
        }
    }

    /// The board's own start position (full except the centre on built-in boards).
    pub fn start(board: Arc<Board>) -> Self {
        let pegs = board.picture_start();
        Self::new(board, pegs)
    }

    /// The board.
    pub fn board(&self) -> &Arc<Board> {
        &self.board
    }

    /// The pegs (bit `i` = hole `i`).
    pub fn pegs(&self) -> u128 {
        self.pegs
    }

    /// Number of pegs left.
    pub fn peg_count(&self) -> u32 {
        self.pegs.count_ones()
    }
}

impl Game for PegPosition {
    /// Index into [`Board::jumps`].
    type Move = u16;
    type Undo = ();

    fn num_players(&self) -> usize {
        1
    }

    fn turn(&self) -> Turn {
        let s = self.pegs;
        if self.board.jumps().iter().any(|j| s & j.mask() == j.need()) {
            Turn::Player(0)
        } else {
            Turn::Over
        }
    }

    fn to_move(&self) -> usize {
        0
    }

    fn legal_moves(&self, moves: &mut Vec<u16>) {
        moves.clear();
        let s = self.pegs;
        for (i, j) in self.board.jumps().iter().enumerate() {
            if s & j.mask() == j.need() {
                moves.push(i as u16);
            }
        }
    }

    fn make(&mut self, mv: u16) {
        let j = self.board.jumps()[mv as usize];
        self.pegs ^= j.mask();
        self.hash ^= KEYS[j.from as usize] ^ KEYS[j.over as usize] ^ KEYS[j.to as usize];
    }

    fn unmake(&mut self, mv: u16, _undo: ()) {
        self.make(mv);
    }

    /// +1 for one peg left; otherwise `-(pegs - 1) / (holes - 1)` (and -1 for an empty board).
    fn returns(&self, _player: usize) -> f64 {
        let p = self.peg_count() as f64;
        let n = self.board.len() as f64;
        if p == 1.0 {
            1.0
        } else if p == 0.0 || n <= 1.0 {
            -1.0
        } else {
            -((p - 1.0) / (n - 1.0)).min(1.0)
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        zobrist(self.pegs)
    }
}

impl Notation for PegPosition {
    type Error = PegError;

    /// `f4-d4`.
    fn move_to_text(&self, mv: u16) -> String {
        match self.board.jumps().get(mv as usize) {
            Some(j) => crate::problem::jump_text(&self.board, j),
            None => format!("?{mv}"),
        }
    }

    /// Reads `from-to` (e.g. `f4-d4`); the jump must be legal here.
    fn parse_move(&self, text: &str) -> Result<u16, PegError> {
        let mut parts = text.trim().split('-');
        let (Some(a), Some(b), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(PegError::BadMove(text.to_string()));
        };
        let from = self.board.hole(a)?;
        let to = self.board.hole(b)?;
        let s = self.pegs;
        self.board
            .jumps()
            .iter()
            .position(|j| j.from as usize == from && j.to as usize == to)
            .filter(|&i| {
                let j = self.board.jumps()[i];
                s & j.mask() == j.need()
            })
            .map(|i| i as u16)
            .ok_or_else(|| PegError::IllegalMove(text.to_string()))
    }

    /// The board picture (`o` peg, `.` hole, space no hole).
    fn to_text(&self) -> String {
        self.board.picture(self.pegs)
    }

    /// Reads a picture: the board and its pegs.
    fn from_text(text: &str) -> Result<Self, PegError> {
        let board = Board::from_picture(text)?;
        Ok(PegPosition::start(Arc::new(board)))
    }
}

/// Peg solitaire as core's [`Puzzle`]: states are `u128` bitboards, a move is one jump, the goal
/// is one peg in one of the `finish` holes.
#[derive(Clone, Debug)]
pub struct PegPuzzle {
    board: Arc<Board>,
    start: u128,
    finish: u128,
    group: Vec<usize>,
}

impl PegPuzzle {
    /// The puzzle from `start` to one peg in any hole of `finish`.
    pub fn new(board: Arc<Board>, start: u128, finish: u128) -> Self {
        let group = board.stabilizer(finish);
        PegPuzzle {
            board,
            start,
            finish,
            group,
        }
    }
}

impl Puzzle for PegPuzzle {
    type State = u128;
    type Move = u16;

    fn start(&self) -> u128 {
        self.start
    }

    fn is_goal(&self, s: &u128) -> bool {
        s.count_ones() == 1 && s & self.finish != 0
    }

    fn successors(&self, s: &u128, out: &mut Vec<(u16, u128)>) {
        out.clear();
        for (i, j) in self.board.jumps().iter().enumerate() {
            if s & j.mask() == j.need() {
                out.push((i as u16, s ^ j.mask()));
            }
        }
    }

    /// Every jump removes one peg: at least `pegs - 1` jumps remain.
    fn heuristic(&self, s: &u128) -> u32 {
        s.count_ones().saturating_sub(1)
    }

    /// The smallest image under the symmetries that fix the finish holes.
    fn canonical(&self, s: &u128) -> u128 {
        self.board.canonical_in(&self.group, *s)
    }

    fn predecessors(&self, s: &u128, out: &mut Vec<(u16, u128)>) {
        out.clear();
        for (i, j) in self.board.jumps().iter().enumerate() {
            if s & j.mask() == 1u128 << j.to {
                out.push((i as u16, s ^ j.mask()));
            }
        }
    }

    fn goals(&self) -> Vec<u128> {
        (0..self.board.len())
            .filter(|&h| self.finish >> h & 1 == 1)
            .map(|h| 1u128 << h)
            .collect()
    }
}
