//! The opening book: the engine's own choice, searched deeply once, for the start, every
//! position one and two plies in, and every position after a three-move ballot.
//!
//! `book.tsv` (embedded) holds one `FEN<TAB>move<TAB>score<TAB>depth` line per position; it is
//! written by [`build_lines`] (`qiyi book checkers --depth D --out FILE`; its first line,
//! [`book_header`], names the budget). Lookups go by the
//! position (not the move order), so transpositions share entries.
//!
//! Two parts: [`table`] (reading and looking up, what the engine consults) and [`builder`]
//! (searching the positions with the engine); the engine needs only the first.

pub mod builder;
pub mod table;

pub use builder::{book_line, build_lines};
pub use table::{book_header, book_header_budget, book_positions, positions_in, Book, BookBudget};
