//! qiyi-xiangqi: complete Xiangqi (Chinese chess) rules on the qiyi core vocabulary.
//!
//! All seven pieces with their exact rules, the flying-general rule, no move leaving the own
//! general in check, checkmate and stalemate losing, perpetual check and chase losing, other
//! repetitions, the 60-move rule and "no attackers" drawing; FEN, ICCS, WXF and Chinese notation;
//! perft with bulk counting.
//!
//! ```
//! use qiyi_xiangqi::{Position, perft};
//! use qiyi_core::Game;
//!
//! let mut pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w").unwrap();
//! let mut moves = Vec::new();
//! pos.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 44);
//! assert_eq!(perft::perft(&mut pos, 3), 79_666);   // the published count
//! let mv = pos.parse_move_text("h2e2").unwrap();   // ICCS (WXF "C2=5" works too)
//! assert_eq!(pos.move_to_chinese(mv), "炮二平五");
//! pos.make(mv);
//! // The AI (`search`: PVS over core's transposition table, tuned evaluation in `eval`):
//! let mut ai = qiyi_xiangqi::engine::Engine::new(Default::default());
//! let reply = ai.think(&pos, &qiyi_core::search::SearchLimits::depth(4), |_| {});
//! assert!(pos.is_legal(reply.best_move.unwrap()));
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod encode;
pub mod engine;
pub mod error;
pub mod eval;
pub mod game;
pub mod learn;
pub mod matchplay;
pub mod movegen;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod playout;
pub mod position;
pub mod protocol;
pub mod puzzles;
pub mod review;
pub mod rules;
pub mod search;
pub mod tune;

pub use board::{Color, PieceKind, Square};
pub use error::XiangqiError;
pub use movegen::MoveList;
pub use position::{Move, Position, Undo, START_FEN};
pub use rules::{EndReason, Outcome};
