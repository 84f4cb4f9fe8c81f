//! qiyi-peg-solitaire: peg solitaire on every classic board, with exact solvers.
//!
//! ```
//! use qiyi_peg_solitaire::{Board, PegPosition, Problem};
//! use qiyi_core::{Game, Notation};
//! use std::sync::Arc;
//!
//! let board = Board::named("english").unwrap();            // or Board::from_picture(text)
//! let pos = PegPosition::start(Arc::new(board.clone()));    // full but the centre, d4
//! let mut moves = Vec::new();
//! pos.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 4);                                // b4-d4, d2-d4, d6-d4, f4-d4
//! let problem = Problem::new(board, Some("d4"), Some("d4")).unwrap();
//! let solution = problem.solve(u64::MAX).jumps.unwrap();      // depth-first, dead-position memo
//! assert_eq!(solution.len(), 31);
//! ```
//!
//! Modules: [`board`] (shapes, hole names, jumps, symmetry group), [`jump`] (one jump, as hole
//! indices), [`classes`] (rule-of-three position classes), [`pagoda`] (pagoda functions found by
//! linear programming), [`position`] (core's `Game`, `Notation` and `Puzzle`), [`puzzles`] (the
//! puzzle miner and prover for core's puzzle model), [`problem`] (solve, count, fewest moves,
//! count solutions, classify) over the fast bitboard solvers in [`solver`], [`review`] (the exact
//! judge of a game for core's review model).

#![warn(missing_docs)]

pub mod bits;
pub mod board;
pub mod classes;
pub mod encode;
pub mod error;
pub mod jump;
pub mod pagoda;
pub mod position;
pub mod problem;
pub mod puzzles;
pub mod review;
pub mod solver;

pub use board::{Board, Lattice};
pub use error::PegError;
pub use jump::Jump;
pub use position::{PegPosition, PegPuzzle};
pub use problem::{classify, load_board, with_threads, Finish, Problem};
