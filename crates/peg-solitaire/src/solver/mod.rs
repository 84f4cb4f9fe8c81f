//! The fast, specialised solvers, generic over the bitboard type (`u64` or `u128`).
//!
//! - [`tables`]: jump masks and byte-wise symmetry tables (canonical form = smallest image);
//! - [`set`]: an open-addressing hash set of bitboards;
//! - [`beam`]: beam search with an endgame table, for boards too large to search exhaustively;
//! - [`dfs`]: depth-first search for one solution with a dead-position memo;
//! - [`layers`]: layer-by-layer exploration (counting), the positions that can reach the goal and
//!   the number of solutions;
//! - [`minmoves`]: breadth-first search by moves (a chain of jumps by one peg is one move).
//!
//! Most callers want the board-level API in [`crate::problem`] instead.

pub mod beam;
pub mod dfs;
pub mod layers;
pub mod minmoves;
pub mod set;
pub mod tables;
