//! Building the book: every position searched by the engine within a budget, one line each.
//!
//! It sits above both the engine ([`crate::engine::player`]) and the book's table
//! ([`super::table`]); the engine only needs the table.

use super::table::BookBudget;
use crate::board::Board;
use crate::engine::player::{Engine, Level};
use crate::notation;
use crate::rules::Checkers;

/// Searches one position within `budget` with the tables cleared first, so its line does not
/// depend on which positions were searched before it (a resumed or split build is identical to
/// one run). `None` when the position has no move.
pub fn book_line(engine: &mut Engine, board: &Board, budget: &BookBudget) -> Option<String> {
    engine.new_game();
    let pos = Checkers::from_board(*board);
    let r = engine.analyse(&pos, &budget.limits(), |_| {});
    let mv = r.best_move?;
    Some(format!(
        "{}\t{}\t{}\t{}\n",
        notation::board_to_fen(board),
        notation::move_to_pdn(&mv),
        r.score,
        r.stats.depth
    ))
}

/// Searches every position of `positions` not in `done` within `budget`, handing each finished
/// line to `emit` as soon as it exists (the CLI appends it to the book file, so an interrupted
/// build resumes where it stopped); `progress` sees (positions finished, positions in all).
pub fn build_lines(
    positions: &[Board],
    done: &std::collections::HashSet<Board>,
    budget: &BookBudget,
    threads: usize,
    mut emit: impl FnMut(&str) -> std::io::Result<()>,
    mut progress: impl FnMut(usize, usize),
) -> std::io::Result<()> {
    let mut engine = Engine::new(Level::MAX, threads);
    for (i, b) in positions.iter().enumerate() {
        if !done.contains(b) {
            if let Some(line) = book_line(&mut engine, b, budget) {
                emit(&line)?;
            }
        }
        progress(i + 1, positions.len());
    }
    Ok(())
}
