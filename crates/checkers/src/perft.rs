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
        .map(|mv| {
            (
                mv,
                if depth <= 1 {
                    1
                } else {
                    perft(&board.play(mv), depth - 1)
                },
            )
        })
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
    moves
        .iter()
        .map(|&mv| perft_naive(&board.play(mv), depth - 1))
        .sum()
}

/// Perft on `threads` threads: the work is split into the positions two plies below the root,
/// which threads take one at a time. Returns the count below each root move (in the order of
/// [`Board::generate`]); `on_task` is called after each finished task with the number of tasks.
pub fn divide_parallel(
    board: &Board,
    depth: u32,
    threads: usize,
    on_task: &(dyn Fn(usize) + Sync),
) -> Vec<(Move, u64)> {
    let mut roots = Vec::new();
    board.generate(&mut roots);
    if depth <= 2 || threads <= 1 {
        let out = roots
            .iter()
            .map(|&mv| {
                let n = if depth <= 1 {
                    1
                } else {
                    perft(&board.play(mv), depth - 1)
                };
                on_task(roots.len());
                (mv, n)
            })
            .collect();
        return out;
    }
    let mut tasks: Vec<(usize, Board)> = Vec::new();
    let mut replies = Vec::new();
    for (i, &mv) in roots.iter().enumerate() {
        let child = board.play(mv);
        child.generate(&mut replies);
        tasks.extend(replies.iter().map(|&r| (i, child.play(r))));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let totals: Vec<std::sync::atomic::AtomicU64> = roots
        .iter()
        .map(|_| std::sync::atomic::AtomicU64::new(0))
        .collect();
    std::thread::scope(|s| {
        for _ in 0..threads.min(tasks.len()).max(1) {
            s.spawn(|| loop {
                let t = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((root, pos)) = tasks.get(t) else {
                    break;
                };
                let n = perft(pos, depth - 2);
                totals[*root].fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                on_task(tasks.len());
            });
        }
    });
    roots
        .into_iter()
        .zip(totals)
        .map(|(mv, n)| (mv, n.into_inner()))
        .collect()
}
