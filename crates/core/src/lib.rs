//! qiyi-core: the game vocabulary and every search algorithm, written once.
//!
//! - [`game`]: the traits every game implements ([`Game`], [`Notation`], [`Puzzle`]).
//! - [`eval`]: evaluation and ordering hooks, apart from the rules.
//! - [`search`]: minimax, alpha-beta with its options, iterative deepening, the transposition
//!   table and Lazy SMP; every search reports nodes, depth, time and principal variation.
//! - [`platform`]: the clock and thread count of the target (native or the browser).
//! - [`puzzle`]: generic single-agent solvers (BFS, A*, IDA*) over the [`Puzzle`] trait.
//! - [`puzzles`]: the puzzle model players solve (position, solution, proof, rating) and its
//!   JSON Lines file.
//! - [`review`]: the post-game review model (per ply and per player) every game's judge fills.
//! - [`rng`]: seeded randomness and deterministic Zobrist keys.
//! - [`learn`]: self-play data, training, quantised networks with incremental first layers.
//! - [`lines`]: protocol lines read as bytes and decoded lossily, with a length limit.
//! - [`record`]: what PGN and PDN records share (tag escapes, move text wrapped at 80 columns).
//! - [`stats`]: match statistics (Elo with a 95% interval, Wilson intervals, SPRT).
//! - [`conformance`]: the generic test suite every game calls.
//! - [`toys`]: small games (tic-tac-toe, Nim, Pig, Race, sliding tiles) for tests, benches and teaching.
//!
//! ```
//! use qiyi_core::search::{minimax, SearchLimits, SearchOptions, Searcher};
//! use qiyi_core::toys::tictactoe::{TicTacToe, TicTacToeEval};
//!
//! let pos = TicTacToe::default();
//! let plain = minimax(&pos, &TicTacToeEval, 9);
//! let mut searcher = Searcher::new(TicTacToeEval, SearchOptions::all());
//! let result = searcher.search(&pos, &SearchLimits::depth(9), |_| {});
//! assert_eq!(plain.score, 0); // tic-tac-toe is a draw
//! assert_eq!(result.score, plain.score);
//! assert!(result.stats.nodes < plain.stats.nodes);
//! ```

#![warn(missing_docs)]

pub mod calibration;
pub mod conformance;
pub mod eval;
pub mod game;
pub mod glicko2;
pub mod json_record;
pub mod learn;
pub mod lines;
pub mod platform;
pub mod puzzle;
pub mod puzzles;
pub mod record;
pub mod review;
pub mod rng;
pub mod search;
pub mod stats;
pub mod toys;

pub use eval::{Evaluator, MultiEvaluator, Policy, Score};
pub use game::{Game, Notation, NullMove, Puzzle, Turn};
pub use rng::Rng;
