//! Perft: the number of leaf nodes of the move tree to a fixed depth, the standard check of a move
//! generator against published counts. A multi-jump is one move, and capture sequences that take the
//! same pieces along different paths are counted separately (Aart Bik's convention).
//!
//! Perft works on [`Board`], which has no history, so the draw rules (threefold repetition, the
//! 40-move rule) play no part, as in every published table.

use crate::board::Board;
use crate::movegen::Move;

/// Leaf count to `depth` plies, with bulk counting at the last ply.
pub fn perft(board: &Board, depth: u32) -> u64 {
    let mut stack: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(64)).collect();
    perft_with(board, depth, &mut stack)
}

fn perft_with(board: &Board, depth: u32, stack: &mut [Vec<Move>]) -> u64 {
    match depth {
        0 => 1,
        1 => board.count_moves(),
        _ => {
            let (moves, rest) = match stack.split_first_mut() {
                Some(x) => x,
                None => return 0,
            };
            board.generate(moves);
            let mut n = 0;
            for &mv in moves.iter() {
                n += perft_with(&board.play(mv), depth - 1, rest);
            }
            n
        }
    }
}

/// Perft split by root move: each legal move with the leaf count below it (`depth >= 1`).
pub fn divide(board: &Board, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    board.generate(&mut moves);
    moves
        .into_iter()
        .map(|mv| (mv, if depth <= 1 { 1 } else { perft(&board.play(mv), depth - 1) }))
        .collect()
}

/// Perft without bulk counting or capture shortcuts: every leaf is made (the slow reference used
/// by tests to check [`perft`]).
pub fn perft_naive(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    board.generate(&mut moves);
    moves.iter().map(|&mv| perft_naive(&board.play(mv), depth - 1)).sum()
}
