//! qiyi-aeroplane: aeroplane chess (飞行棋) with the rules of `docs/aeroplane-chess.md` (A1-A12),
//! an exact probability model, players from random to tuned, and tournaments.
//!
//! ```
//! use qiyi_aeroplane::{Aero, AeroMove, Rules, players::{PlayerKind, make_player}};
//! use qiyi_core::{Game, Notation};
//!
//! let mut pos = Aero::new(Rules::STANDARD, 4).unwrap();      // four players, all planes home
//! pos.make(AeroMove::Roll(6));                                 // red rolls a 6 (a chance node)
//! let mut moves = Vec::new();
//! pos.legal_moves(&mut moves);                                 // [Plane(0)]: take off
//! assert_eq!(pos.move_to_text(moves[0]), "a");
//! let mut ai = make_player(PlayerKind::Best, 1);
//! let choice = ai.choose(&pos);                                // the strongest player decides
//! assert!(moves.contains(&choice));
//! ```

#![warn(missing_docs)]

pub mod board;
pub mod encode;
pub mod endgame;
pub mod error;
pub mod eval;
pub mod finish;
pub mod kind;
pub mod notation;
pub mod odds;
pub mod oneply;
pub mod player;
pub mod players;
pub mod position;
pub mod puzzles;
pub mod race;
pub mod record;
pub mod review;
pub mod rollout;
pub mod rules;
pub mod search;
pub mod tables;
pub mod tournament;
pub mod winprob;

pub use error::AeroError;
pub use position::{Aero, AeroMove, Choices, Effect};
pub use rules::{Ending, RuleSet, Rules, Takeoff, ThreeSixes};
