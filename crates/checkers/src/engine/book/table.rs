//! The book itself: reading book lines, looking a position up, the positions a book covers, the
//! budget a book was built with and the header that names it. It needs no engine, so the engine
//! ([`crate::engine::player`]) can consult it without a circle.

use crate::ballot::all_ballots;
use crate::board::Board;
use crate::movegen::Move;
use crate::notation::{self, board_from_fen};
use crate::rules::Checkers;
use qiyi_core::search::SearchLimits;
use std::collections::HashMap;
use std::time::Duration;

const EMBEDDED: &str = include_str!("../book.tsv");

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

/// How long each book position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookBudget {
    /// A fixed depth (deterministic with one thread).
    Depth(u32),
    /// A fixed node count (deterministic with one thread).
    Nodes(u64),
    /// A move time (depends on the machine and its load).
    MoveTime(Duration),
}

impl BookBudget {
    /// The budget as the `qiyi book checkers` option that asks for it (`--depth 20`).
    pub fn option(&self) -> String {
        match self {
            BookBudget::Depth(d) => format!("--depth {d}"),
            BookBudget::Nodes(n) => format!("--nodes {n}"),
            BookBudget::MoveTime(t) => format!("--movetime {}", t.as_millis()),
        }
    }

    /// Whether the same budget gives the same book on any machine (one thread).
    pub fn is_deterministic(&self) -> bool {
        !matches!(self, BookBudget::MoveTime(_))
    }

    /// The search limits of the budget (what [`super::builder`] searches each position with).
    pub(super) fn limits(&self) -> SearchLimits {
        match *self {
            BookBudget::Depth(d) => SearchLimits::depth(d),
            BookBudget::Nodes(n) => SearchLimits::nodes(n),
            BookBudget::MoveTime(t) => SearchLimits::move_time(t),
        }
    }
}

/// The first line of a book file built with `budget`; [`book_header_budget`] reads it back.
pub fn book_header(budget: &BookBudget) -> String {
    format!("{HEADER_PREFIX}{})\n", budget.option())
}

/// What every book file's first line starts with; the budget and `)` follow.
const HEADER_PREFIX: &str = "# FEN\tmove\tscore\tdepth (qiyi book checkers ";

/// The budget named by a book file's first line, if it names one (books written before budgets
/// were recorded do not).
pub fn book_header_budget(text: &str) -> Option<String> {
    let first = text.lines().next()?;
    let rest = first.strip_prefix(HEADER_PREFIX)?;
    let option = rest.strip_suffix(')')?;
    (!option.is_empty()).then(|| option.to_string())
}

/// The positions of a book text that already have a valid line (a resumed build skips them).
pub fn positions_in(text: &str) -> std::collections::HashSet<Board> {
    Book::parse(text).moves.into_keys().collect()
}
