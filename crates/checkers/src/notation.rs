//! PDN text: FEN positions (`B:W21,22,K30:B1,2,K9`) and moves (`11-15`, `22x15x8`, short `22x8`).
//!
//! Reading accepts the usual variants: either colour list first, square ranges (`B1-12`,
//! `WK29-32`), spaces, surrounding quotes and a trailing full stop; lower-case side letters; and
//! moves with `-`, `x` or `:` between squares. Writing is canonical: side, then the White list,
//! then the Black list, squares in increasing order, kings prefixed with `K`; a simple move as
//! `a-b`, a capture as `a x every landing square`.

use crate::board::{Bitboard, Board, BoardError, Color};
use crate::movegen::Move;

/// What is wrong with a piece of PDN text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// Nothing to read.
    #[error("empty input")]
    Empty,
    /// The FEN does not start with the side to move (`B` or `W`).
    #[error("FEN side to move must be B or W, found {0:?}")]
    BadSide(String),
    /// A FEN field is not a `W...` or `B...` piece list.
    #[error("FEN field {0:?} is not a W or B piece list")]
    BadField(String),
    /// The same colour is listed twice.
    #[error("FEN lists the {0:?} pieces twice")]
    DuplicateColor(Color),
    /// A square is not a number from 1 to 32.
    #[error("{0:?} is not a square number from 1 to 32")]
    BadSquare(String),
    /// A square range runs backwards.
    #[error("square range {0:?} is empty")]
    BadRange(String),
    /// A square is listed twice.
    #[error("square {0} is listed twice")]
    DuplicateSquare(u8),
    /// The pieces do not make a position.
    #[error("impossible position: {0}")]
    Board(#[from] BoardError),
    /// A move needs at least two squares.
    #[error("move {0:?} needs at least two squares, like 11-15 or 22x15")]
    TooFewSquares(String),
    /// No legal move goes through those squares.
    #[error("{0} is not a legal move here")]
    IllegalMove(String),
    /// Several legal captures fit the short form; the full path is needed.
    #[error("{text} is ambiguous: it could be {candidates}")]
    Ambiguous {
        /// The move as written.
        text: String,
        /// The legal moves it could mean, in full notation.
        candidates: String,
    },
    /// A PDN game file could not be read.
    #[error("PDN line {line}: {message}")]
    Pdn {
        /// The line (1-based) where reading failed.
        line: usize,
        /// What went wrong.
        message: String,
    },
}

/// Writes `board` as a PDN FEN.
pub fn board_to_fen(board: &Board) -> String {
    let mut s = String::with_capacity(64);
    s.push(match board.side_to_move() {
        Color::Black => 'B',
        Color::White => 'W',
    });
    for (color, letter) in [(Color::White, 'W'), (Color::Black, 'B')] {
        s.push(':');
        s.push(letter);
        let mut first = true;
        let mut set = board.pieces(color);
        while set != 0 {
            let sq = set.trailing_zeros();
            set &= set - 1;
            if !first {
                s.push(',');
            }
            first = false;
            if board.kings() & (1 << sq) != 0 {
                s.push('K');
            }
            s.push_str(&(sq + 1).to_string());
        }
    }
    s
}

fn parse_square(text: &str) -> Result<u8, NotationError> {
    let t = text.trim();
    if t.is_empty() || t.len() > 2 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(NotationError::BadSquare(text.to_string()));
    }
    match t.parse::<u8>() {
        Ok(n) if (1..=32).contains(&n) => Ok(n),
        _ => Err(NotationError::BadSquare(text.to_string())),
    }
}

/// Reads a PDN FEN.
pub fn board_from_fen(text: &str) -> Result<Board, NotationError> {
    let mut t = text.trim();
    t = t.trim_matches('"').trim();
    t = t.strip_suffix('.').unwrap_or(t).trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let mut fields = t.split(':');
    let side_text = fields.next().unwrap_or("").trim();
    let side = match side_text {
        "B" | "b" => Color::Black,
        "W" | "w" => Color::White,
        _ => return Err(NotationError::BadSide(side_text.to_string())),
    };
    let mut sets: [Option<Bitboard>; 2] = [None, None];
    let mut kings: Bitboard = 0;
    let mut all: Bitboard = 0;
    for field in fields {
        let f = field.trim();
        let color = match f.chars().next() {
            Some('W') | Some('w') => Color::White,
            Some('B') | Some('b') => Color::Black,
            _ => return Err(NotationError::BadField(field.to_string())),
        };
        if sets[color.index()].is_some() {
            return Err(NotationError::DuplicateColor(color));
        }
        let mut set: Bitboard = 0;
        let list = f[1..].trim();
        if !list.is_empty() {
            for item in list.split(',') {
                let mut it = item.trim();
                let king = match it.strip_prefix(['K', 'k']) {
                    Some(rest) => {
                        it = rest;
                        true
                    }
                    None => false,
                };
                let (lo, hi) = match it.split_once('-') {
                    Some((a, b)) => {
                        let (lo, hi) = (parse_square(a)?, parse_square(b)?);
                        if lo > hi {
                            return Err(NotationError::BadRange(item.to_string()));
                        }
                        (lo, hi)
                    }
                    None => {
                        let s = parse_square(it)?;
                        (s, s)
                    }
                };
                for sq in lo..=hi {
                    let bit = 1u32 << (sq - 1);
                    if all & bit != 0 {
                        return Err(NotationError::DuplicateSquare(sq));
                    }
                    all |= bit;
                    set |= bit;
                    if king {
                        kings |= bit;
                    }
                }
            }
        }
        sets[color.index()] = Some(set);
    }
    Ok(Board::new(
        sets[0].unwrap_or(0),
        sets[1].unwrap_or(0),
        kings,
        side,
    )?)
}

/// Writes `mv` in PDN: `a-b` for a step, `axbx...` with every landing square for a capture.
pub fn move_to_pdn(mv: &Move) -> String {
    let squares = mv.squares();
    let sep = if mv.is_capture() { "x" } else { "-" };
    squares
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(sep)
}

/// Writes `mv` in the short form `a-b` / `axb` (start and end square only).
pub fn move_to_short_pdn(mv: &Move) -> String {
    let sep = if mv.is_capture() { "x" } else { "-" };
    format!("{}{}{}", mv.from(), sep, mv.to())
}

/// Splits a PDN move into its squares.
pub fn move_squares(text: &str) -> Result<Vec<u8>, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty);
    }
    let squares = t
        .split(['-', 'x', 'X', ':'])
        .map(parse_square)
        .collect::<Result<Vec<u8>, _>>()?;
    if squares.len() < 2 {
        return Err(NotationError::TooFewSquares(t.to_string()));
    }
    Ok(squares)
}

/// Reads a PDN move legal in `board`: the full path, or any shorter list of its squares that
/// starts and ends like it, as long as only one legal move fits.
pub fn parse_move(board: &Board, text: &str) -> Result<Move, NotationError> {
    let squares = move_squares(text)?;
    let mut found = Vec::new();
    board.find_moves(&squares, &mut found);
    match found.len() {
        0 => Err(NotationError::IllegalMove(text.trim().to_string())),
        1 => Ok(found[0]),
        _ => Err(NotationError::Ambiguous {
            text: text.trim().to_string(),
            candidates: found
                .iter()
                .map(move_to_pdn)
                .collect::<Vec<_>>()
                .join(" or "),
        }),
    }
}

/// Writes `mv` as short as PDN allows: `a-b`/`axb` when that is unambiguous in `board`, the full
/// path otherwise.
pub fn move_to_pdn_shortest(board: &Board, mv: &Move) -> String {
    let short = move_to_short_pdn(mv);
    match parse_move(board, &short) {
        Ok(m) if m == *mv => short,
        _ => move_to_pdn(mv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fen_round_trip_and_variants() {
        let b = board_from_fen("B:W21,22,K30:B1,2,K9").unwrap();
        assert_eq!(board_to_fen(&b), "B:W21,22,K30:B1,2,K9");
        let start = board_from_fen("B:W21-32:B1-12").unwrap();
        assert_eq!(start, Board::start());
        let swapped = board_from_fen(" \"b:b1-12:w21-32.\" ").unwrap();
        assert_eq!(swapped, Board::start());
        let kings = board_from_fen("W:WK1-3:BK30-32").unwrap();
        assert_eq!(board_to_fen(&kings), "W:WK1,K2,K3:BK30,K31,K32");
        let empty = board_from_fen("W:W:B").unwrap();
        assert_eq!(board_to_fen(&empty), "W:W:B");
    }

    #[test]
    fn fen_errors_are_typed() {
        assert_eq!(board_from_fen(""), Err(NotationError::Empty));
        assert!(matches!(
            board_from_fen("X:W1:B2"),
            Err(NotationError::BadSide(_))
        ));
        assert!(matches!(
            board_from_fen("B:W33:B1"),
            Err(NotationError::BadSquare(_))
        ));
        assert!(matches!(
            board_from_fen("B:W0:B1"),
            Err(NotationError::BadSquare(_))
        ));
        assert!(matches!(
            board_from_fen("B:W5:B5"),
            Err(NotationError::DuplicateSquare(5))
        ));
        assert!(matches!(
            board_from_fen("B:W5:W6"),
            Err(NotationError::DuplicateColor(_))
        ));
        assert!(matches!(
            board_from_fen("B:Q5"),
            Err(NotationError::BadField(_))
        ));
        assert!(matches!(
            board_from_fen("B:W9-5"),
            Err(NotationError::BadRange(_))
        ));
        assert!(matches!(
            board_from_fen("B:W1:B30"),
            Err(NotationError::Board(_))
        ));
        assert!(matches!(
            board_from_fen("B:W1-13"),
            Err(NotationError::Board(_))
        ));
    }

    #[test]
    fn moves_read_and_write() {
        let b = Board::start();
        let m = parse_move(&b, "11-15").unwrap();
        assert_eq!(move_to_pdn(&m), "11-15");
        assert!(matches!(
            parse_move(&b, "11-17"),
            Err(NotationError::IllegalMove(_))
        ));
        assert!(matches!(
            parse_move(&b, "11"),
            Err(NotationError::TooFewSquares(_))
        ));
        assert!(matches!(
            parse_move(&b, "11-x"),
            Err(NotationError::BadSquare(_))
        ));
        assert!(matches!(parse_move(&b, ""), Err(NotationError::Empty)));
    }
}
