//! The opening book: the engine's own choice, searched deeply once, for the start, every
//! position one and two plies in, and every position after a three-move ballot.
//!
//! `book.tsv` (embedded) holds one `FEN<TAB>move<TAB>score<TAB>depth` line per position; it is
//! written by [`build_book`] (`qiyi book checkers --movetime MS --out FILE`). Lookups go by the
//! position (not the move order), so transpositions share entries.

use super::player::{Engine, Level};
use crate::ballot::all_ballots;
use crate::board::Board;
use crate::movegen::Move;
use crate::notation::{self, board_from_fen};
use crate::rules::Checkers;
use qiyi_core::search::SearchLimits;
use std::collections::HashMap;
use std::time::Duration;

const EMBEDDED: &str = include_str!("book.tsv");

/// Positions with the move to play there.
#[derive(Clone, Debug, Default)]
pub struct Book {
    moves: HashMap<Board, String>,
}

impl Book {
    /// The book compiled into the binary.
    pub fn embedded() -> Book {
        Book::parse(EMBEDDED)
    }

    /// Reads book lines; lines that do not parse are skipped.
    pub fn parse(text: &str) -> Book {
        let mut moves = HashMap::new();
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let mut f = line.split('\t');
            let (Some(fen), Some(mv)) = (f.next(), f.next()) else {
                continue;
            };
            if let Ok(b) = board_from_fen(fen) {
                if notation::parse_move(&b, mv).is_ok() {
                    moves.insert(b, mv.to_string());
                }
            }
        }
        Book { moves }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the book is empty.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The book move of `pos`, if any.
    pub fn lookup(&self, pos: &Checkers) -> Option<Move> {
        let text = self.moves.get(pos.board())?;
        notation::parse_move(pos.board(), text).ok()
    }
}

/// The positions the book covers: the start, everything one and two plies in, and the position
/// after every three-move ballot (deduplicated).
pub fn book_positions() -> Vec<Board> {
    let mut out = vec![Board::start()];
    let mut moves = Vec::new();
    Board::start().generate(&mut moves);
    for &m1 in &moves {
        let b1 = Board::start().play(m1);
        out.push(b1);
        let mut replies = Vec::new();
        b1.generate(&mut replies);
        for &m2 in &replies {
            out.push(b1.play(m2));
        }
    }
    for ballot in all_ballots() {
        if let Ok((b, _)) = ballot.play() {
            out.push(b);
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|b| seen.insert(*b));
    out
}

/// Searches every book position for `movetime` and returns the book text.
pub fn build_book(
    movetime: Duration,
    threads: usize,
    mut progress: impl FnMut(usize, usize),
) -> String {
    let positions = book_positions();
    let mut text = String::from("# FEN\tmove\tscore\tdepth (qiyi book checkers)\n");
    let mut engine = Engine::new(Level::MAX, threads);
    for (i, b) in positions.iter().enumerate() {
        let pos = Checkers::from_board(*b);
        let r = engine.analyse(&pos, &SearchLimits::move_time(movetime), |_| {});
        if let Some(mv) = r.best_move {
            text.push_str(&format!(
                "{}\t{}\t{}\t{}\n",
                notation::board_to_fen(b),
                notation::move_to_pdn(&mv),
                r.score,
                r.stats.depth
            ));
        }
        progress(i + 1, positions.len());
    }
    text
}
