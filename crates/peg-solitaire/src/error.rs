//! The typed errors of the peg-solitaire crate.

use thiserror::Error;

/// Everything that can go wrong reading boards, holes, moves and options.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PegError {
    /// A board name that is not one of the built-in boards.
    #[error("unknown board `{0}` (not a board name nor a readable file; try english, french, wiegleb, diamond, triangle, triangle:N)")]
    UnknownBoard(String),
    /// `triangle:N` with a side outside the supported range.
    #[error("triangle side {0} is out of range (4 to 8)")]
    TriangleSide(String),
    /// A character other than `o`, `.` or space in a board picture.
    #[error(
        "line {line}, column {column}: unexpected character `{ch}` (use `o` peg, `.` hole, space)"
    )]
    BadChar {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// The character found.
        ch: char,
    },
    /// A picture without any hole.
    #[error("the board picture has no holes")]
    EmptyBoard,
    /// A board with more holes than the widest bitboard holds.
    #[error("the board has {0} holes; at most 128 are supported")]
    TooManyHoles(usize),
    /// A board too wide for letter column names, or too tall.
    #[error("the board is {width} columns by {height} rows; at most 26 by 99 are supported")]
    TooLarge {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A triangular-lattice picture whose holes do not sit on the staggered lattice.
    #[error("line {line}: holes of a staggered (triangular) picture must alternate with spaces")]
    BadLattice {
        /// 1-based line.
        line: usize,
    },
    /// A hole name that does not name a hole of the board.
    #[error("no hole `{0}` on this board (holes are letter + row number, e.g. d4)")]
    UnknownHole(String),
    /// A move that is not written `from-to` (or a chain `a-b-c`).
    #[error("cannot read move `{0}` (write from-to, e.g. f4-d4)")]
    BadMove(String),
    /// A well-formed move that is not legal in the position.
    #[error("move `{0}` is not legal here")]
    IllegalMove(String),
    /// A start or finish request that makes no sense on the board.
    #[error("{0}")]
    BadRequest(String),
}
