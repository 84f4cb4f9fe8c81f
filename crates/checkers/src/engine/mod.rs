//! The checkers player: evaluation, its own selective search, levels, opening book, endgame
//! database, the Hub engine protocol and the match runner.
//!
//! ```
//! use qiyi_checkers::engine::{Engine, Level};
//! use qiyi_checkers::Checkers;
//! use qiyi_core::search::SearchLimits;
//!
//! let pos = Checkers::from_fen("B:W21-32:B1-12").unwrap();
//! let mut engine = Engine::new(Level::Level(5), 1);
//! let result = engine.think(&pos, &SearchLimits::depth(4), |_| {});
//! assert!(result.best_move.is_some());
//! ```
//!
//! Modules: [`eval`] (weights and the evaluator), [`nn`] (the learned evaluation), [`search`]
//! (the engine's selective alpha-beta), [`player`] (levels and the engine), [`book`],
//! [`egdb`] (retrograde WLD databases), [`hub`] (the Hub protocol), [`matches`](mod@matches) (engines,
//! games, adjudication, Elo), [`tune`] (self-play weight tuning).

pub mod book;
pub mod egdb;
pub mod eval;
pub mod hub;
pub mod matches;
pub mod nn;
pub mod player;
pub mod search;
pub mod selfplay;
pub mod tune;

pub use egdb::{Egdb, Wld};
pub use eval::{CheckersEval, MaterialEval, Weights};
pub use player::{engine_options, Engine, EvalChoice, Level, LevelError, SearchChoice};
pub use search::SearchConfig;
