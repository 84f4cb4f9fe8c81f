//! The crate's error type: what can be wrong with text or options given to it.
//!
//! It names no other module of the crate, so the rules, the position and the notation can all
//! return it without importing one another for it.

/// Everything that can be wrong with text given to this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// A hole name that is not a row letter a-q followed by a number within the row.
    #[error(
        "unknown hole `{0}`: a hole is a row letter a-q and its number from the left, e.g. i5"
    )]
    BadCell(String),
    /// A move that is not legal in the position.
    #[error("illegal move `{0}`")]
    IllegalMove(String),
    /// A move that cannot be read at all.
    #[error("cannot read move `{0}`: write from-to (e.g. m4-l4) or a hop chain (m4:k4:i5)")]
    BadMove(String),
    /// A position line that cannot be read.
    #[error("bad position: {0}")]
    BadPosition(String),
    /// Unsupported game options.
    #[error("unsupported options: {0}")]
    BadOptions(String),
}
