//! One-pass meet-in-the-middle refutation of every crossing of at most `B` moves.
//!
//! Layers `F_i` hold the canonical states (under the left-right mirror) at distance exactly `i`
//! from the start that pass the bound filter `i + bound <= B`; every state of every optimal
//! solution of `L <= B` moves is in its layer (the filter never cuts an optimal path of at most
//! `B` moves, and an optimal path's `i`-th state is at distance exactly `i`). Moves are reversible
//! and the top-bottom reflection swaps start and goal, so the reflection of a solution's `j`-th
//! state from the end is in `F_j`. Hence a solution of `2i - 1` or `2i` moves exists if and only
//! if some state of `F_i` has its reflection in `F_{i-1}` or `F_i`: after layer `i` is built
//! and checked, every length up to `2i` is settled, and only the last three layers are ever
//! held. States are stored as combinatorial ranks (`u64`, 8 bytes each) in sorted vectors;
//! each layer is built from sorted runs that are merged as they come.

use super::Solitaire;
use crate::board::{bit, Bits, CELLS};
use qiyi_core::platform::Instant;
use rayon::prelude::*;

/// Binomial coefficients `C(n, k)` for `n <= 121`, `k <= 10`: the combinatorial number system
/// that ranks a set of at most ten holes into a `u64` (`C(121, 10) < 2^47`).
pub struct Ranker {
    binom: [[u64; 11]; CELLS + 1],
    pieces: usize,
}

impl Ranker {
    /// The ranker for sets of `pieces` holes (at most 10).
    pub fn new(pieces: usize) -> Self {
        let mut binom = [[0u64; 11]; CELLS + 1];
        for n in 0..=CELLS {
            binom[n][0] = 1;
            for k in 1..=10.min(n) {
                binom[n][k] = binom[n - 1][k - 1] + if k < n { binom[n - 1][k] } else { 0 };
            }
        }
        Ranker {
            binom,
            pieces: pieces.min(10),
        }
    }

    /// The rank of a state: the sum of `C(c_i, i + 1)` over its holes `c_0 < c_1 < ...`.
    #[inline]
    pub fn rank(&self, state: u128) -> u64 {
        Bits(state)
            .enumerate()
            .map(|(i, c)| self.binom[c as usize][i + 1])
            .sum()
    }

    /// The state of a rank (the inverse of [`Ranker::rank`]).
    #[inline]
    pub fn unrank(&self, mut rank: u64) -> u128 {
        let mut state = 0u128;
        let mut c = CELLS;
        for k in (1..=self.pieces).rev() {
            // The largest c with C(c, k) <= rank.
            c -= 1;
            while self.binom[c][k] > rank {
                c -= 1;
            }
            rank -= self.binom[c][k];
            state |= bit(c as u8);
        }
        state
    }
}

/// What the layer builder reports while it works.
#[derive(Clone, Copy, Debug)]
pub struct MeetProgress {
    /// The budget being refuted.
    pub budget: u32,
    /// The layer being built (distance from the start).
    pub depth: u32,
    /// States of the previous layer expanded so far.
    pub expanded: usize,
    /// States in the previous layer.
    pub of: usize,
    /// States in the layers held now.
    pub held: usize,
}

/// How a refutation pass ended.
#[derive(Clone, Debug)]
pub enum MeetOutcome {
    /// No solution of at most `budget` moves exists.
    Refuted,
    /// The shortest solution has `moves` moves (found at layer `depth`); every shorter length
    /// was refuted.
    Found {
        /// Its length.
        moves: u32,
    },
    /// A limit stopped the pass; every length up to `refuted_up_to` was refuted.
    Stopped {
        /// The longest length refuted.
        refuted_up_to: u32,
        /// Which limit.
        reason: String,
    },
}

/// The counts of one pass.
#[derive(Clone, Debug, Default)]
pub struct MeetStats {
    /// The size of each layer built.
    pub layers: Vec<usize>,
    /// States expanded.
    pub expanded: u64,
    /// The most states held at once (layers and runs).
    pub peak_held: usize,
}

/// Limits of one pass.
#[derive(Clone, Copy, Debug)]
pub struct MeetLimits {
    /// Most states held at once (8 bytes each, plus merge buffers).
    pub max_held: usize,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
}

/// Removes from the sorted `xs` every element of the sorted `ys` (galloping through `ys`, so the
/// cost is about `|xs| log(|ys| / |xs|)` and the reads of `ys` go forward).
fn subtract_sorted(xs: &mut Vec<u64>, ys: &[u64]) {
    let mut lo = 0usize;
    xs.retain(|&x| {
        // Gallop from `lo` to bracket x, then binary search the bracket.
        let mut step = 1usize;
        let mut hi = lo;
        while hi < ys.len() && ys[hi] < x {
            lo = hi;
            hi += step;
            step *= 2;
        }
        let hi = (hi + 1).min(ys.len());
        match ys[lo..hi].binary_search(&x) {
            Ok(_) => false,
            Err(k) => {
                lo += k;
                true
            }
        }
    });
}

fn merge_dedup(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if x < y {
            out.push(x);
            i += 1;
        } else if y < x {
            out.push(y);
            j += 1;
        } else {
            out.push(x);
            i += 1;
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

impl Solitaire {
    /// The rank of the canonical (mirror-reduced) form of `state`.
    #[inline]
    fn canonical_rank(&self, ranker: &Ranker, state: u128) -> u64 {
        ranker.rank(self.canonical(state))
    }

    /// Builds layer `depth` from the two before it; `None` when a limit stopped it.
    #[allow(clippy::too_many_arguments)]
    fn build_layer(
        &self,
        ranker: &Ranker,
        budget: u32,
        depth: u32,
        prev: &[u64],
        prev2: &[u64],
        limits: &MeetLimits,
        stats: &mut MeetStats,
        progress: &mut impl FnMut(MeetProgress),
    ) -> Option<Vec<u64>> {
        const CHUNK: usize = 1 << 14;
        let left = budget - depth;
        let group = CHUNK * 4 * rayon::current_num_threads().max(1);
        let mut stack: Vec<Vec<u64>> = Vec::new();
        let held_before = prev.len() + prev2.len();
        for (g, parents) in prev.chunks(group).enumerate() {
            let runs: Vec<Vec<u64>> = parents
                .par_chunks(CHUNK)
                .map(|chunk| {
                    let mut out = Vec::with_capacity(chunk.len() * 8);
                    for &r in chunk {
                        let s = ranker.unrank(r);
                        self.expand(s, left, |c| out.push(ranker.rank(c)));
                    }
                    out.sort_unstable();
                    out.dedup();
                    subtract_sorted(&mut out, prev);
                    subtract_sorted(&mut out, prev2);
                    out
                })
                .collect();
            let mut run = Vec::new();
            for r in runs {
                run = merge_dedup(&run, &r);
            }
            stack.push(run);
            while stack.len() >= 2
                && stack[stack.len() - 2].len() <= 2 * stack[stack.len() - 1].len()
            {
                let b = stack.pop().unwrap_or_default();
                let a = stack.pop().unwrap_or_default();
                stack.push(merge_dedup(&a, &b));
            }
            let held = held_before + stack.iter().map(Vec::len).sum::<usize>();
            stats.peak_held = stats.peak_held.max(held);
            let expanded = ((g + 1) * group).min(prev.len());
            progress(MeetProgress {
                budget,
                depth,
                expanded,
                of: prev.len(),
                held,
            });
            if held > limits.max_held || limits.deadline.is_some_and(|d| Instant::now() > d) {
                return None;
            }
        }
        stats.expanded += prev.len() as u64;
        let mut layer = Vec::new();
        while let Some(r) = stack.pop() {
            layer = merge_dedup(&r, &layer);
        }
        Some(layer)
    }

    /// Whether some state of `layer` has its reflection in `other`.
    fn meets(&self, ranker: &Ranker, layer: &[u64], other: &[u64]) -> Option<u64> {
        layer
            .par_iter()
            .find_any(|&&r| {
                let f = self.flip_state(ranker.unrank(r));
                other.binary_search(&self.canonical_rank(ranker, f)).is_ok()
            })
            .copied()
    }

    /// Refutes every solution of at most `budget` moves in one pass (see the module
    /// documentation), or finds the shortest one. With `keep` the layers are returned (for
    /// rebuilding a solution); otherwise only the last three are held.
    pub fn refute_up_to(
        &self,
        budget: u32,
        limits: &MeetLimits,
        keep: bool,
        mut progress: impl FnMut(MeetProgress),
    ) -> (MeetOutcome, MeetStats, Vec<Vec<u64>>) {
        let ranker = Ranker::new(self.pieces);
        let mut stats = MeetStats::default();
        let start = self.canonical_rank(&ranker, self.start);
        let goal = self.canonical_rank(&ranker, self.goal);
        if start == goal {
            return (MeetOutcome::Found { moves: 0 }, stats, vec![vec![start]]);
        }
        let mut kept: Vec<Vec<u64>> = Vec::new();
        let mut prev2: Vec<u64> = Vec::new();
        let mut prev: Vec<u64> = vec![start];
        stats.layers.push(1);
        if keep {
            kept.push(prev.clone());
        }
        let last = budget.div_ceil(2);
        for depth in 1..=last {
            let Some(layer) = self.build_layer(
                &ranker,
                budget,
                depth,
                &prev,
                &prev2,
                limits,
                &mut stats,
                &mut progress,
            ) else {
                return (
                    MeetOutcome::Stopped {
                        refuted_up_to: 2 * (depth - 1),
                        reason: format!(
                            "a limit stopped layer {depth} of the budget-{budget} pass"
                        ),
                    },
                    stats,
                    kept,
                );
            };
            stats.layers.push(layer.len());
            // Lengths 2 * depth - 1 (reflection one layer back) and 2 * depth.
            let odd = 2 * depth - 1;
            let found = if odd <= budget && self.meets(&ranker, &layer, &prev).is_some() {
                Some(odd)
            } else if 2 * depth <= budget && self.meets(&ranker, &layer, &layer).is_some() {
                Some(2 * depth)
            } else {
                None
            };
            if keep {
                kept.push(layer.clone());
            }
            if let Some(moves) = found {
                return (MeetOutcome::Found { moves }, stats, kept);
            }
            if layer.is_empty() {
                break;
            }
            prev2 = std::mem::replace(&mut prev, layer);
        }
        (MeetOutcome::Refuted, stats, kept)
    }

    /// Rebuilds a shortest solution of `moves` moves from the layers of a pass with that budget
    /// (`layers[i]` sorted canonical ranks at distance `i`).
    pub(crate) fn rebuild(&self, moves: u32, layers: &[Vec<u64>]) -> Option<Vec<u128>> {
        let ranker = Ranker::new(self.pieces);
        let a = moves.div_ceil(2) as usize;
        let b = moves as usize - a;
        let mid = layers
            .get(a)?
            .iter()
            .map(|&r| ranker.unrank(r))
            .find(|&s| {
                let f = self.flip_state(s);
                layers[b]
                    .binary_search(&self.canonical_rank(&ranker, f))
                    .is_ok()
            })?;
        let walk = |s: u128, d: usize| -> Option<Vec<u128>> {
            let mut out = vec![s];
            let mut cur = s;
            let mut buf = Vec::new();
            for g in (0..d).rev() {
                self.successors(cur, &mut buf);
                let &(_, _, t) = buf.iter().find(|&&(_, _, t)| {
                    layers[g]
                        .binary_search(&self.canonical_rank(&ranker, t))
                        .is_ok()
                })?;
                out.push(t);
                cur = t;
            }
            Some(out)
        };
        let mut first = walk(mid, a)?;
        first.reverse();
        let second = walk(self.flip_state(mid), b)?;
        let mut states = first;
        states.extend(second.iter().skip(1).map(|&t| self.flip_state(t)));
        let states = self.fix_orientation(states);
        self.verify(&states).then_some(states)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_a_bijection_on_small_sets() {
        let r = Ranker::new(3);
        let mut seen = std::collections::HashSet::new();
        for a in 0..20u8 {
            for b in a + 1..20 {
                for c in b + 1..20 {
                    let s = bit(a) | bit(b) | bit(c);
                    let k = r.rank(s);
                    assert!(seen.insert(k));
                    assert_eq!(r.unrank(k), s);
                }
            }
        }
        assert_eq!(seen.len(), 1140);
        let r10 = Ranker::new(10);
        let top: u128 = (111..121u8).fold(0, |a, c| a | bit(c));
        assert_eq!(r10.unrank(r10.rank(top)), top);
        assert!(r10.rank(top) < 1 << 47);
    }
}
