//! The game with its history: end of game, threefold repetition and the 40-move rule, and the
//! core [`Game`] / [`Notation`] traits.
//!
//! - A side with no legal move loses (this takes precedence over the draw rules).
//! - Threefold repetition: the same position with the same side to move for the third time is a
//!   draw. Only positions since the last capture or man move can repeat, so only those are compared.
//! - The 40-move rule (WCDF rule 1.32): 40 moves by each side (80 plies) with no man
//!   moved and no capture is a draw.
//!
//! Both draws are applied automatically (the game ends), so `legal_moves` is empty exactly when the
//! game is over.

use crate::board::{Board, Color};
use crate::movegen::Move;
use crate::notation::{self, NotationError};
use qiyi_core::game::{Game, Notation, NullMove, Turn};

/// Plies without a capture or a man move after which the game is drawn (40 moves by each side).
pub const QUIET_PLY_LIMIT: u16 = 80;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move has no legal move and has lost; the winner is given.
    Win(Color),
    /// The same position occurred for the third time.
    DrawByRepetition,
    /// 40 moves by each side without a capture or a man move.
    DrawByFortyMoves,
}

/// English checkers with the history the draw rules need.
#[derive(Debug, PartialEq, Eq)]
pub struct Checkers {
    board: Board,
    /// Plies since the last capture or man move.
    quiet_plies: u16,
    /// Zobrist keys of every earlier position of the game, oldest first.
    history: Vec<u64>,
}

impl Clone for Checkers {
    fn clone(&self) -> Self {
        Checkers {
            board: self.board,
            quiet_plies: self.quiet_plies,
            history: self.history.clone(),
        }
    }

    /// Keeps the history's allocation (a game restarted in place does not grow it again).
    fn clone_from(&mut self, source: &Self) {
        self.board = source.board;
        self.quiet_plies = source.quiet_plies;
        self.history.clone_from(&source.history);
    }
}

/// What [`Checkers::unmake`](Game::unmake) needs.
#[derive(Clone, Copy, Debug)]
pub struct Undo {
    board: Board,
    quiet_plies: u16,
}

impl Default for Checkers {
    fn default() -> Self {
        Checkers::start()
    }
}

impl Checkers {
    /// The starting position.
    pub fn start() -> Checkers {
        Checkers::from_board(Board::start())
    }

    /// A game starting at `board`, with no history.
    pub fn from_board(board: Board) -> Checkers {
        Checkers {
            board,
            quiet_plies: 0,
            history: Vec::new(),
        }
    }

    /// Reads a PDN FEN (see [`crate::notation`]).
    pub fn from_fen(fen: &str) -> Result<Checkers, NotationError> {
        Ok(Checkers::from_board(notation::board_from_fen(fen)?))
    }

    /// The position as a PDN FEN.
    pub fn fen(&self) -> String {
        notation::board_to_fen(&self.board)
    }

    /// The current position without history.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Plies since the last capture or man move.
    pub fn quiet_plies(&self) -> u16 {
        self.quiet_plies
    }

    /// The number of plies played since the game's first position.
    pub fn plies_played(&self) -> usize {
        self.history.len()
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        let h = self.board.hash();
        let n = self.history.len();
        let window = (self.quiet_plies as usize).min(n);
        1 + self.history[n - window..]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == h)
            .count()
    }

    /// The result if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.board.has_moves() {
            return Some(Outcome::Win(self.board.side_to_move().opponent()));
        }
        if self.quiet_plies >= QUIET_PLY_LIMIT {
            return Some(Outcome::DrawByFortyMoves);
        }
        if self.quiet_plies >= 4 && self.repetitions() >= 3 {
            return Some(Outcome::DrawByRepetition);
        }
        None
    }

    /// Reads a move legal here (see [`notation::parse_move`]).
    pub fn parse(&self, text: &str) -> Result<Move, NotationError> {
        notation::parse_move(&self.board, text)
    }

    /// The legal moves as a new vector (empty when the game is over).
    pub fn moves(&self) -> Vec<Move> {
        let mut v = Vec::new();
        self.legal_moves(&mut v);
        v
    }
}

impl Game for Checkers {
    type Move = Move;
    type Undo = Undo;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else {
            Turn::Player(self.board.side_to_move().index())
        }
    }

    fn to_move(&self) -> usize {
        self.board.side_to_move().index()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.quiet_plies >= QUIET_PLY_LIMIT || (self.quiet_plies >= 4 && self.repetitions() >= 3)
        {
            return;
        }
        self.board.generate(moves);
    }

    fn make(&mut self, mv: Move) -> Undo {
        let undo = Undo {
            board: self.board,
            quiet_plies: self.quiet_plies,
        };
        let man = self.board.kings() & (1 << (mv.from() - 1)) == 0;
        self.history.push(self.board.hash());
        self.board.make(mv);
        self.quiet_plies = if man || mv.is_capture() {
            0
        } else {
            self.quiet_plies.saturating_add(1)
        };
        undo
    }

    fn unmake(&mut self, _mv: Move, undo: Undo) {
        self.board = undo.board;
        self.quiet_plies = undo.quiet_plies;
        self.history.pop();
    }

    fn returns(&self, player: usize) -> f64 {
        match self.outcome() {
            Some(Outcome::Win(c)) if c.index() == player => 1.0,
            Some(Outcome::Win(_)) => -1.0,
            _ => 0.0,
        }
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn hash_from_scratch(&self) -> u64 {
        self.board.hash_from_scratch()
    }
}

impl Notation for Checkers {
    type Error = NotationError;

    fn move_to_text(&self, mv: Move) -> String {
        notation::move_to_pdn(&mv)
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        if self.is_over() {
            return Err(NotationError::IllegalMove(format!(
                "{} (the game is over)",
                text.trim()
            )));
        }
        self.parse(text)
    }

    fn to_text(&self) -> String {
        self.fen()
    }

    fn from_text(text: &str) -> Result<Self, NotationError> {
        Checkers::from_fen(text)
    }
}

impl NullMove for Checkers {
    fn make_null(&mut self) -> Undo {
        let undo = Undo {
            board: self.board,
            quiet_plies: self.quiet_plies,
        };
        self.history.push(self.board.hash());
        self.board = self.board.with_side_flipped();
        self.quiet_plies = self.quiet_plies.saturating_add(1);
        undo
    }

    fn unmake_null(&mut self, undo: Undo) {
        self.board = undo.board;
        self.quiet_plies = undo.quiet_plies;
        self.history.pop();
    }
}
