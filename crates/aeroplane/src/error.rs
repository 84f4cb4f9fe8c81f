//! The crate's typed errors.

use thiserror::Error;

/// Everything that can go wrong when reading options, positions, moves or records.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum AeroError {
    /// An option has a value outside its list.
    #[error("bad value {value:?} for {option}: expected {expected}")]
    BadOption {
        /// The option's name.
        option: &'static str,
        /// The value given.
        value: String,
        /// The accepted values.
        expected: &'static str,
    },
    /// The number of players is not 2, 3 or 4 (A1).
    #[error("aeroplane chess is played by 2, 3 or 4 players, not {0}")]
    BadPlayerCount(usize),
    /// A move is not written in the notation.
    #[error("cannot read move {0:?}: expected r1..r6 at a roll, a..d for a plane")]
    BadMoveText(String),
    /// A move is well formed but not legal here.
    #[error("move {0:?} is not legal here")]
    IllegalMove(String),
    /// A position text cannot be read.
    #[error("cannot read position: {0}")]
    BadPosition(String),
    /// A player type is unknown.
    #[error(
        "unknown player {0:?}: expected {names} or level-1..level-10",
        names = crate::kind::PlayerKind::NAMES.join(", ")
    )]
    UnknownPlayer(String),
    /// A table handed to [`crate::tables::install`] is not the shipped file.
    #[error("bad aeroplane table: {0}")]
    BadTable(String),
    /// A record cannot be replayed.
    #[error("record does not replay: {0}")]
    BadRecord(String),
    /// A tournament request is inconsistent.
    #[error("bad tournament: {0}")]
    BadTournament(String),
}
