//! One jump of a peg over another into an empty hole, as hole indices.
//!
//! It lives below [`crate::board`] (which computes a board's jumps) and [`crate::classes`]
//! (which derives the position-class invariants from them), so neither needs the other's file
//! for it.

/// One jump: the peg in `from` jumps over `over` into the empty hole `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Jump {
    /// The hole the jumping peg leaves.
    pub from: u8,
    /// The hole whose peg is removed.
    pub over: u8,
    /// The hole the peg lands in.
    pub to: u8,
}

impl Jump {
    /// The three holes as a bitboard.
    pub fn mask(&self) -> u128 {
        (1u128 << self.from) | (1u128 << self.over) | (1u128 << self.to)
    }
    /// `from` and `over` as a bitboard (the pegs a legal jump needs).
    pub fn need(&self) -> u128 {
        (1u128 << self.from) | (1u128 << self.over)
    }
}
