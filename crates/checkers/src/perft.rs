//! Perft: the number of leaf nodes of the move tree to a fixed depth, the standard check of a move
//! generator against published counts. A multi-jump is one move, and capture sequences that take the
//! same pieces along different paths are counted separately (Aart Bik's convention).
//!
//! Perft works on [`Board`], which has no history, so the draw rules (threefold repetition, the
//! 40-move rule) play no part, as in every published table.

use crate::board::Board;
use crate::movegen::{Move, Sides};

/// Leaf count to `depth` plies, with bulk counting at the last ply.
///
/// The tree is walked without a move list: each move the generator finds is made at once on a
/// copy of three bitboards (no Zobrist key) and its subtree counted, and the last ply is a count
/// ([`Board::count_moves`]) instead of a generation.
pub fn perft(board: &Board, depth: u32) -> u64 {
    let s = Sides::of(board);
    let side = board.side_to_move();
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has POPCNT (checked just above).
        return unsafe { native::perft(s, side, depth) };
    }
    portable::perft(s, side, depth)
}

/// The recursive walk, defined once per instruction set: `$($feature)?` is the target feature
/// the whole recursion is compiled for (a function only inherits it by being inlined, and the
/// recursive calls are not).
macro_rules! walk {
    ($($feature:literal)?) => {
        use crate::board::Color;
        use crate::movegen::{BlackToMove, Side, Sides, WhiteToMove};

        $(#[target_feature(enable = $feature)])?
        pub(super) fn perft(s: Sides, side: Color, depth: u32) -> u64 {
            match side {
                Color::Black => below::<BlackToMove>(s, depth),
                Color::White => below::<WhiteToMove>(s, depth),
            }
        }

        $(#[target_feature(enable = $feature)])?
        fn below<S: Side>(s: Sides, depth: u32) -> u64 {
            match depth {
                0 => 1,
                1 => s.count_moves::<S>(),
                _ => {
                    let mut n = 0;
                    s.for_each_move::<S>(&mut |mv| n += below::<S::Opp>(s.after::<S>(mv), depth - 1));
                    n
                }
            }
        }
    };
}

/// The walk for any processor.
mod portable {
    walk!();
}

/// The walk compiled for POPCNT (the default x86-64 target lacks it and counts bits with a dozen
/// instructions), chosen at run time.
#[cfg(target_arch = "x86_64")]
mod native {
    walk!("popcnt");
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

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::rng::Rng;

    #[test]
    fn both_compiled_walks_agree_with_making_every_leaf() {
        let mut rng = Rng::new(2026);
        // Under Miri (docs/reliability.md, item 5) fewer and shallower trees: it interprets
        // every instruction.
        let (count, max_depth) = if cfg!(miri) { (40, 2) } else { (150, 4) };
        let positions: Vec<Board> = (0..count)
            .map(|_| Board::start().random_walk(10 + rng.below(60), &mut rng))
            .collect();
        let with_kings = positions.iter().filter(|b| b.kings() != 0).count();
        assert!(
            with_kings >= count / 5,
            "only {with_kings} positions with kings"
        );
        for b in &positions {
            for depth in 0..=max_depth {
                let expected = perft_naive(b, depth);
                let s = Sides::of(b);
                let side = b.side_to_move();
                assert_eq!(portable::perft(s, side, depth), expected, "{b:?} d{depth}");
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("popcnt") {
                    // SAFETY: the processor has POPCNT (checked just above).
                    let n = unsafe { native::perft(s, side, depth) };
                    assert_eq!(n, expected, "{b:?} d{depth}");
                }
            }
        }
    }
}
