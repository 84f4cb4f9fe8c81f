//! The fewest moves, when consecutive jumps by one peg count as one move.
//!
//! A breadth-first search by move count over the positions that can still reach the goal (the
//! "good" layers): from each position of distance `d`, every chain of jumps by one peg (each prefix
//! of a chain is a move too) leads to a position of distance at most `d + 1`. The search is
//! exhaustive, so the first distance at which a goal position is met is the minimum: no shorter
//! solution exists. The solution itself is rebuilt backwards over the stored frontiers.

use super::layers::Layer;
use super::tables::Tables;
use crate::bits::Bits;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};

const UNSEEN: u8 = u8::MAX;

/// Calls `visit(next_state, jumps_made, path)` for every chain of jumps by the peg in `hole`,
/// pruned to positions whose canonical form passes `keep(k, canonical)`; stops when `visit`
/// returns true and reports whether it did.
#[allow(clippy::too_many_arguments)]
pub fn chains<B: Bits>(
    t: &Tables<B>,
    s: B,
    hole: usize,
    depth: usize,
    path: &mut Vec<u16>,
    keep: &impl Fn(usize, B) -> bool,
    visit: &mut impl FnMut(B, B, usize, &[u16]) -> bool,
) -> bool {
    for j in &t.from_hole[hole] {
        if s & j.all != j.need {
            continue;
        }
        let n = s ^ j.all;
        let c = t.canonical(n);
        if !keep(depth + 1, c) {
            continue;
        }
        path.push(j.index);
        if visit(n, c, depth + 1, path) || chains(t, n, j.to as usize, depth + 1, path, keep, visit)
        {
            path.pop();
            return true;
        }
        path.pop();
    }
    false
}

/// Calls `visit` for every move (chain by one peg) from `s`; stops early when `visit` returns true.
pub fn moves<B: Bits>(
    t: &Tables<B>,
    s: B,
    keep: &impl Fn(usize, B) -> bool,
    visit: &mut impl FnMut(B, B, usize, &[u16]) -> bool,
) -> bool {
    let mut path = Vec::new();
    let mut pegs = s;
    while pegs != B::ZERO {
        let h = pegs.lowest() as usize;
        pegs = pegs.clear_lowest();
        if chains(t, s, h, 0, &mut path, keep, visit) {
            return true;
        }
    }
    false
}

/// The result of the search.
#[derive(Clone, Debug)]
pub struct MinMoves {
    /// The fewest moves (`None` if the goal cannot be reached).
    pub moves: Option<usize>,
    /// A shortest solution: the jumps of each move (indices into the board's jumps).
    pub solution: Vec<Vec<u16>>,
    /// Positions settled at each distance (the size of each frontier).
    pub frontier_sizes: Vec<usize>,
}

/// Breadth-first search by moves over the good layers (`good[k]`: sorted canonical positions after
/// `k` jumps that can still reach the goal; the goal positions are the last layer).
pub fn min_moves<B: Bits>(
    t: &Tables<B>,
    start: B,
    good: &[Layer<B>],
    mut on_frontier: impl FnMut(usize, usize),
) -> MinMoves {
    let none = MinMoves {
        moves: None,
        solution: Vec::new(),
        frontier_sizes: Vec::new(),
    };
    if good.is_empty() || good[0].is_empty() || good.last().map_or(true, |l| l.is_empty()) {
        return none;
    }
    let last = good.len() - 1;
    let dist: Vec<Vec<AtomicU8>> = good
        .iter()
        .map(|l| l.states().iter().map(|_| AtomicU8::new(UNSEEN)).collect())
        .collect();
    let keep_from = |k0: usize| {
        move |dk: usize, c: B| {
            let k = k0 + dk;
            k < good.len() && good[k].contains(c)
        }
    };
    dist[0][0].store(0, Ordering::Relaxed);
    let mut frontiers: Vec<Vec<(usize, u32)>> = vec![vec![(0, 0)]];
    let mut found = None;
    while found.is_none() {
        let d = frontiers.len() - 1;
        let cur = &frontiers[d];
        if cur.is_empty() {
            break;
        }
        on_frontier(d, cur.len());
        let next_d = (d + 1) as u8;
        let next: Vec<(usize, u32)> = cur
            .par_iter()
            .flat_map_iter(|&(k, i)| {
                let s = good[k].states()[i as usize];
                let mut out = Vec::new();
                moves(t, s, &keep_from(k), &mut |_, c, dk, _| {
                    let kk = k + dk;
                    if let Some(idx) = good[kk].index_of(c) {
                        let prev = dist[kk][idx].fetch_min(next_d, Ordering::Relaxed);
                        if prev > next_d {
                            out.push((kk, idx as u32));
                        }
                    }
                    false
                });
                out
            })
            .collect();
        if next.iter().any(|&(k, _)| k == last) {
            found = Some(d + 1);
        }
        frontiers.push(next);
    }
    let Some(total) = found else {
        return none;
    };
    // Rebuild a canonical path backwards: the goal, then a frontier position with a move into it.
    let mut target = frontiers[total]
        .iter()
        .find(|&&(k, _)| k == last)
        .map(|&(k, i)| (k, good[k].states()[i as usize]));
    let mut canon_path = vec![target];
    for d in (0..total).rev() {
        let (tk, tc) = target.expect("target on the path");
        let prev = frontiers[d].iter().find(|&&(k, i)| {
            k < tk
                && moves(
                    t,
                    good[k].states()[i as usize],
                    &keep_from(k),
                    &mut |_, c, dk, _| k + dk == tk && c == tc,
                )
        });
        target = prev.map(|&(k, i)| (k, good[k].states()[i as usize]));
        canon_path.push(target);
    }
    canon_path.reverse();
    // Replay on the real board: from each real position, the move whose result is the next
    // canonical position.
    let mut s = start;
    let mut solution = Vec::new();
    for step in canon_path.iter().skip(1) {
        let Some((_, want)) = *step else {
            return none;
        };
        let mut chosen = None;
        moves(t, s, &|_, _| true, &mut |n, c, _, path| {
            if c == want {
                chosen = Some((n, path.to_vec()));
                true
            } else {
                false
            }
        });
        let Some((n, path)) = chosen else {
            return none;
        };
        solution.push(path);
        s = n;
    }
    MinMoves {
        moves: Some(total),
        solution,
        frontier_sizes: frontiers.iter().map(Vec::len).collect(),
    }
}
