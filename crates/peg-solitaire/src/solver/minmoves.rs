//! The fewest moves, when consecutive jumps by one peg count as one move.
//!
//! A breadth-first search by move count over the positions that can still reach the goal (the
//! "good" layers): from each position of distance `d`, every chain of jumps by one peg (each prefix
//! of a chain is a move too) leads to a position of distance at most `d + 1`. The search is
//! exhaustive, so the first distance at which a goal position is met is the minimum: no shorter
//! solution exists. The solution itself is rebuilt backwards over the stored frontiers.

use super::layers::Layer;
use super::tables::{Tables, MAX_GROUP};
use crate::bits::Bits;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};

const UNSEEN: u8 = u8::MAX;

/// What a chain visitor wants next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Stop the whole enumeration.
    Stop,
    /// Go on, including longer chains through this position.
    Go,
    /// Go on, but not through this position.
    Prune,
}

/// Calls `visit(next_state, canonical, jumps_made, path)` for every chain of jumps by the peg in
/// `hole`; stops when `visit` returns [`Step::Stop`] and reports whether it did. `img` holds the
/// images of `s` under the group ([`Tables::images`]); they are updated by xor along the chain.
pub fn chains<B: Bits>(
    t: &Tables<B>,
    s: B,
    img: &[B; MAX_GROUP],
    hole: usize,
    depth: usize,
    path: &mut Vec<u16>,
    visit: &mut impl FnMut(B, B, usize, &[u16]) -> Step,
) -> bool {
    for j in &t.from_hole[hole] {
        if s & j.all != j.need {
            continue;
        }
        let n = s ^ j.all;
        let c = t.canonical_after(img, j.index);
        path.push(j.index);
        let stop = match visit(n, c, depth + 1, path) {
            Step::Stop => true,
            Step::Prune => false,
            Step::Go => {
                let mut next_img = *img;
                t.apply_to_images(&mut next_img, j.index);
                chains(t, n, &next_img, j.to as usize, depth + 1, path, visit)
            }
        };
        path.pop();
        if stop {
            return true;
        }
    }
    false
}

/// Calls `visit` for every move (chain by one peg) from `s`; stops early when `visit` returns
/// [`Step::Stop`].
pub fn moves<B: Bits>(
    t: &Tables<B>,
    s: B,
    visit: &mut impl FnMut(B, B, usize, &[u16]) -> Step,
) -> bool {
    let mut path = Vec::new();
    let img = t.images(s);
    let mut pegs = s;
    while pegs != B::ZERO {
        let h = pegs.lowest() as usize;
        pegs = pegs.clear_lowest();
        if chains(t, s, &img, h, 0, &mut path, visit) {
            return true;
        }
    }
    false
}

/// Calls `visit(previous_state, jumps_undone)` for every move that could have led to `s` (a chain
/// of jumps by one peg, undone from its last landing hole backwards), pruned by
/// `keep(jumps_undone, canonical)`; stops when `visit` returns true.
fn reverse_moves<B: Bits>(
    t: &Tables<B>,
    s: B,
    keep: &impl Fn(usize, B) -> bool,
    visit: &mut impl FnMut(B, usize) -> bool,
) -> bool {
    fn undo<B: Bits>(
        t: &Tables<B>,
        s: B,
        hole: u8,
        depth: usize,
        keep: &impl Fn(usize, B) -> bool,
        visit: &mut impl FnMut(B, usize) -> bool,
    ) -> bool {
        for j in t.jumps.iter().filter(|j| j.to == hole) {
            if s & j.all != j.all ^ j.need {
                continue;
            }
            let p = s ^ j.all;
            if !keep(depth + 1, t.canonical(p)) {
                continue;
            }
            if visit(p, depth + 1) || undo(t, p, j.from, depth + 1, keep, visit) {
                return true;
            }
        }
        false
    }
    let mut pegs = s;
    while pegs != B::ZERO {
        let h = pegs.lowest() as u8;
        pegs = pegs.clear_lowest();
        if undo(t, s, h, 0, keep, visit) {
            return true;
        }
    }
    false
}

/// An open-addressing index of one layer: position -> its place in [`Layer::states`].
struct LayerIndex<B> {
    slots: Vec<(B, u32)>,
    mask: usize,
}

impl<B: Bits> LayerIndex<B> {
    fn new(layer: &Layer<B>) -> Self {
        let cap = (2 * layer.len()).max(16).next_power_of_two();
        let mut slots = vec![(B::ZERO, 0u32); cap];
        let mask = cap - 1;
        for (i, &s) in layer.states().iter().enumerate() {
            let mut at = s.mix() as usize & mask;
            while slots[at].0 != B::ZERO {
                at = (at + 1) & mask;
            }
            slots[at] = (s, i as u32);
        }
        LayerIndex { slots, mask }
    }

    #[inline]
    fn get(&self, s: B) -> Option<usize> {
        let mut at = s.mix() as usize & self.mask;
        loop {
            let (k, i) = self.slots[at];
            if k == s {
                return Some(i as usize);
            }
            if k == B::ZERO {
                return None;
            }
            at = (at + 1) & self.mask;
        }
    }
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
    // A hash index per layer: position -> place in the layer (one probe instead of a search).
    let index: Vec<LayerIndex<B>> = good.par_iter().map(LayerIndex::new).collect();
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
                moves(t, s, &mut |_, c, dk, _| {
                    let kk = k + dk;
                    // Positions that cannot finish are not followed (nor chains through them).
                    let Some(idx) = index.get(kk).and_then(|x| x.get(c)) else {
                        return Step::Prune;
                    };
                    let slot = &dist[kk][idx];
                    if slot.load(Ordering::Relaxed) > next_d
                        && slot.fetch_min(next_d, Ordering::Relaxed) > next_d
                    {
                        out.push((kk, idx as u32));
                    }
                    Step::Go
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
    // Rebuild a canonical path backwards: from the goal, undo moves to a position settled one
    // move earlier (every position at distance d + 1 was reached by a move from distance d).
    let (gk, gi) = match frontiers[total].iter().find(|&&(k, _)| k == last) {
        Some(&x) => x,
        None => return none,
    };
    let mut target = Some((gk, good[gk].states()[gi as usize]));
    let mut canon_path = vec![target];
    for d in (0..total).rev() {
        let (tk, tc) = target.expect("target on the path");
        let keep_back = |dk: usize, c: B| dk <= tk && good[tk - dk].contains(c);
        let mut prev = None;
        reverse_moves(t, tc, &keep_back, &mut |p, dk| {
            let k = tk - dk;
            let c = t.canonical(p);
            match good[k].index_of(c) {
                Some(i) if dist[k][i].load(Ordering::Relaxed) == d as u8 => {
                    prev = Some((k, c));
                    true
                }
                _ => false,
            }
        });
        target = prev;
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
        moves(t, s, &mut |n, c, _, path| {
            if c == want {
                chosen = Some((n, path.to_vec()));
                Step::Stop
            } else {
                Step::Go
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
