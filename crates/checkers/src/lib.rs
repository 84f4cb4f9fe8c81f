//! qiyi-checkers: English checkers (WCDF rules) on 32-bit bitboards.
//!
//! ```
//! use qiyi_checkers::{Checkers, perft};
//! use qiyi_core::{Game, Notation};
//!
//! let pos = Checkers::from_fen("B:W21-32:B1-12").unwrap();   // PDN FEN in...
//! let moves = pos.moves();                                  // ...legal moves out
//! let texts: Vec<String> = moves.iter().map(|&m| pos.move_to_text(m)).collect();
//! assert!(texts.contains(&"11-15".to_string()));
//! let next = pos.after(pos.parse_move("11-15").unwrap());   // PDN moves in
//! assert_eq!(next.to_text(), "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
//! assert_eq!(perft::perft(pos.board(), 4), 1469);           // published perft(4)
//!
//! // The engine: alpha-beta over core's Searcher, with the hand or the learned evaluation.
//! use qiyi_checkers::engine::{Engine, EvalChoice, Level, Weights};
//! let mut ai = Engine::with_eval(Level::MAX, 1, Weights::default(), None, &EvalChoice::Net);
//! let r = ai.analyse(&pos, &qiyi_core::search::SearchLimits::depth(6), |_| {});
//! assert!(moves.contains(&r.best_move.unwrap()));
//! ```
//!
//! Modules: [`board`] (bitboards, tables, Zobrist), [`movegen`] (moves and captures),
//! [`rules`] (the game with history, draws, the core `Game` trait), [`notation`] (PDN FEN and
//! moves), [`pdn`] (game files), [`perft`], [`ballot`] (3-move openings), [`engine`] (the
//! players, with the learned evaluation in [`engine::nn`]), [`puzzles`] (shots: the miner and
//! the prover, docs/puzzles.md).

#![warn(missing_docs)]

pub mod ballot;
pub mod board;
pub mod encode;
pub mod engine;
pub mod movegen;
pub mod notation;
pub mod pdn;
pub mod perft;
pub mod puzzles;
pub mod review;
pub mod rules;

pub use board::{Bitboard, Board, Color};
pub use movegen::Move;
pub use notation::NotationError;
pub use pdn::{read_pdn, GameResult, PdnGame};
pub use rules::{Checkers, Outcome};
