//! Chinese checkers on the real 121-hole star: 2, 3, 4 or 6 players, AI players from the qiyi
//! core, and an optimal solver for the one-player crossing puzzle.
//!
//! ```
//! use qiyi_chinese_checkers::engine::{Player, PlayerKind};
//! use qiyi_chinese_checkers::{Options, Position};
//! use qiyi_core::{Game, Notation};
//!
//! let pos = Position::start(Options::players(3).unwrap()).unwrap();
//! let mut moves = Vec::new();
//! pos.legal_moves(&mut moves);
//! println!("{pos}\n{} moves, e.g. {}", moves.len(), pos.move_to_text(moves[0]));
//! let mv = pos.parse_move("n1-m5").unwrap(); // a step out of the bottom point
//! let next = pos.after(mv);
//! assert_eq!(next.to_move(), 1);
//! let mut ai = Player::new(PlayerKind::best(3), 3, 42); // the two-move racer
//! let reply = ai.choose(&next);
//! println!("the AI plays {}", next.move_to_text(reply));
//! ```
//!
//! Module map: [`board`] (holes, coordinates, tables), [`movegen`] (steps and hop chains),
//! [`position`] (the [`qiyi_core::Game`] implementation), [`rules`] (options, seats, ranking),
//! [`notation`] (hole names, moves, position text, pictures), [`error`] (the error type, below
//! all of them), [`eval`] (distance evaluators and the playout policy), [`engine`] (the players),
//! [`tournament`] (rotating-seat matches), [`solitaire`] (the proven-optimal crossing solver), [`puzzles`] ("home in N moves": the miner
//! and the prover, docs/puzzles.md).

#![warn(missing_docs)]

pub mod board;
pub mod encode;
pub mod engine;
pub mod error;
pub mod eval;
pub mod movegen;
pub mod notation;
pub mod position;
pub mod puzzles;
pub mod review;
pub mod rules;
pub mod solitaire;
pub mod tournament;

pub use error::Error;
pub use position::{Move, Position};
pub use rules::{Options, Status};
