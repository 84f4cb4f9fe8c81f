//! The typed errors of the Xiangqi parsers.

use crate::board::{Color, PieceKind, Square};
use thiserror::Error;

/// Why a FEN, a move or a notation string was rejected.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum XiangqiError {
    /// The FEN string has no board field.
    #[error("the FEN is empty")]
    EmptyFen,
    /// The board field does not have ten ranks.
    #[error("the FEN board has {0} ranks, expected 10")]
    RankCount(usize),
    /// A rank does not describe exactly nine points.
    #[error("FEN rank {rank} (from the top) describes {len} points, expected 9")]
    RankLength {
        /// 1-based rank number counted from the top (Black's side), as written in the FEN.
        rank: usize,
        /// Points described.
        len: usize,
    },
    /// A character that is neither a piece letter nor a digit 1-9.
    #[error("unknown piece letter '{0}' in the FEN")]
    UnknownPiece(char),
    /// A side has no general.
    #[error("{0:?} has no general")]
    MissingGeneral(Color),
    /// A side has two or more generals.
    #[error("{0:?} has more than one general")]
    TwoGenerals(Color),
    /// A general stands outside its palace.
    #[error("the {color:?} general on {square} is outside the palace")]
    GeneralOutsidePalace {
        /// Whose general.
        color: Color,
        /// Where it stands.
        square: Square,
    },
    /// An advisor, elephant or soldier stands on a point it can never reach.
    #[error("the {color:?} {kind:?} on {square} stands on a point it can never reach")]
    UnreachablePoint {
        /// Whose piece.
        color: Color,
        /// Its kind.
        kind: PieceKind,
        /// Where it stands.
        square: Square,
    },
    /// More pieces of one kind than the set has.
    #[error("{color:?} has {count} {kind:?} pieces, the set has only {max}")]
    TooManyPieces {
        /// Whose pieces.
        color: Color,
        /// Which kind.
        kind: PieceKind,
        /// How many the FEN places.
        count: usize,
        /// How many the set has.
        max: usize,
    },
    /// The side-to-move field is missing.
    #[error("the FEN has no side to move (expected w, r or b)")]
    MissingSide,
    /// The side-to-move field is not `w`, `r` or `b`.
    #[error("side to move '{0}' is not w, r or b")]
    BadSide(String),
    /// The side that is not to move is in check: its general could be captured.
    #[error("{0:?}, the side not to move, is in check")]
    OpponentInCheck(Color),
    /// A move counter is not a number, or there are too many fields.
    #[error("bad FEN counter or extra field '{0}'")]
    BadCounter(String),
    /// The text is not a move in ICCS (`h2e2`) or WXF (`C2=5`) notation.
    #[error("'{0}' is not a move in ICCS (h2e2) or WXF (C2=5) notation")]
    BadMoveText(String),
    /// The move is well formed but not legal in the position.
    #[error("move {0} is not legal in this position")]
    IllegalMove(String),
    /// A WXF move matches more than one legal move.
    #[error("WXF move {0} is ambiguous here")]
    AmbiguousMove(String),
}
