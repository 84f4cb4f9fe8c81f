//! Breadth-first exploration by number of jumps, one layer per peg count, and what is computed
//! over the layers: the positions that can still reach the goal, and the number of solutions.
//!
//! Every jump removes one peg, so the positions reachable after `k` jumps are exactly the reachable
//! positions with `start_pegs - k` pegs, and no position appears in two layers. A [`Layer`] holds
//! canonical positions (the smallest image under the symmetry group) split into hash buckets,
//! each sorted: the next layer is built in parallel (rayon) by scattering successors into buckets
//! and sorting each small bucket, which keeps every sort inside the cache.

use super::tables::Tables;
use crate::bits::Bits;
use rayon::prelude::*;

/// Counts of one layer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LayerCount {
    /// Pegs on the board in this layer.
    pub pegs: u32,
    /// Distinct positions, symmetric images counted once.
    pub positions: u64,
    /// Distinct positions, every image counted (the sum of the orbit sizes).
    pub positions_full: u64,
}

/// A set of positions: hash buckets, each sorted; positions have stable indices.
#[derive(Clone, Debug, Default)]
pub struct Layer<B> {
    states: Vec<B>,
    offsets: Vec<usize>,
    shift: u32,
}

#[inline]
fn bucket<B: Bits>(s: B, shift: u32) -> usize {
    if shift >= 64 {
        0
    } else {
        (s.mix() >> shift) as usize
    }
}

impl<B: Bits> Layer<B> {
    /// A layer holding `states` (in any order, duplicates allowed).
    pub fn from_vec(mut states: Vec<B>) -> Self {
        states.sort_unstable();
        states.dedup();
        Layer {
            offsets: vec![0, states.len()],
            states,
            shift: 64,
        }
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// True when empty.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The positions (bucket by bucket).
    pub fn states(&self) -> &[B] {
        &self.states
    }

    /// The index of `s`, if present.
    #[inline]
    pub fn index_of(&self, s: B) -> Option<usize> {
        let b = bucket(s, self.shift);
        let (lo, hi) = (self.offsets[b], self.offsets[b + 1]);
        self.states[lo..hi].binary_search(&s).ok().map(|i| lo + i)
    }

    /// Whether `s` is present.
    #[inline]
    pub fn contains(&self, s: B) -> bool {
        self.index_of(s).is_some()
    }

    /// The positions that pass `keep` (same buckets).
    pub fn filter(&self, keep: impl Fn(B) -> bool + Sync) -> Self {
        let parts: Vec<Vec<B>> = (0..self.offsets.len() - 1)
            .into_par_iter()
            .map(|b| {
                self.states[self.offsets[b]..self.offsets[b + 1]]
                    .iter()
                    .copied()
                    .filter(|&s| keep(s))
                    .collect()
            })
            .collect();
        Self::from_buckets(parts, self.shift)
    }

    fn from_buckets(parts: Vec<Vec<B>>, shift: u32) -> Self {
        let mut offsets = Vec::with_capacity(parts.len() + 1);
        let mut states = Vec::with_capacity(parts.iter().map(Vec::len).sum());
        offsets.push(0);
        for p in parts {
            states.extend_from_slice(&p);
            offsets.push(states.len());
        }
        Layer {
            states,
            offsets,
            shift,
        }
    }
}

/// The canonical successors of one layer.
pub fn next_layer<B: Bits>(t: &Tables<B>, layer: &Layer<B>) -> Layer<B> {
    step_layer(t, layer, false)
}

/// The canonical predecessors of one layer (positions one jump before).
pub fn previous_layer<B: Bits>(t: &Tables<B>, layer: &Layer<B>) -> Layer<B> {
    step_layer(t, layer, true)
}

fn step_layer<B: Bits>(t: &Tables<B>, layer: &Layer<B>, reverse: bool) -> Layer<B> {
    let cur = layer.states();
    let threads = rayon::current_num_threads().max(1);
    // About 32k successors per bucket (about 10 per position), at most 1024 buckets: the
    // scatter then writes to few enough places at once to stay in the cache, and each bucket's
    // dedup table (twice the bucket) stays in L2.
    let expected = cur.len() * 10;
    let bits = (expected / (1 << 15))
        .max(1)
        .next_power_of_two()
        .trailing_zeros()
        .min(10);
    let shift = 64 - bits;
    let nb = 1usize << bits;
    let chunk = (cur.len() / (threads * 4)).clamp(1 << 10, 1 << 15);
    let parts: Vec<(Vec<B>, Vec<u32>)> = cur
        .par_chunks(chunk)
        .map(|chunk| {
            let mut out = Vec::with_capacity(chunk.len() * 12);
            for &s in chunk {
                if reverse {
                    t.for_each_neighbour::<true>(s, |_, c| out.push(c));
                } else {
                    t.for_each_neighbour::<false>(s, |_, c| out.push(c));
                }
            }
            // Counting scatter by bucket.
            let mut off = vec![0u32; nb + 1];
            for &s in &out {
                off[bucket(s, shift) + 1] += 1;
            }
            for b in 0..nb {
                off[b + 1] += off[b];
            }
            let mut fill = off.clone();
            let mut scattered = vec![B::ZERO; out.len()];
            for &s in &out {
                let b = bucket(s, shift);
                scattered[fill[b] as usize] = s;
                fill[b] += 1;
            }
            (scattered, off)
        })
        .collect();
    let buckets: Vec<Vec<B>> = (0..nb)
        .into_par_iter()
        .map(|b| {
            let range = |o: &[u32]| o[b] as usize..o[b + 1] as usize;
            let total: usize = parts.iter().map(|(_, o)| range(o).len()).sum();
            // Dedup in an open-addressing table (the empty board never occurs: a successor
            // has at least one peg), then sort the distinct positions.
            let cap = (2 * total).max(16).next_power_of_two();
            let mask = cap - 1;
            let mut table = vec![B::ZERO; cap];
            let mut uniq = Vec::with_capacity(total / 4 + 16);
            for (data, off) in &parts {
                for &s in &data[range(off)] {
                    let mut i = (s.mix() as usize) & mask;
                    loop {
                        let slot = table[i];
                        if slot == s {
                            break;
                        }
                        if slot == B::ZERO {
                            table[i] = s;
                            uniq.push(s);
                            break;
                        }
                        i = (i + 1) & mask;
                    }
                }
            }
            uniq.sort_unstable();
            uniq
        })
        .collect();
    drop(parts);
    Layer::from_buckets(buckets, shift)
}

/// Counts one layer (the full count assumes the start is fixed by the whole group).
pub fn count_layer<B: Bits>(t: &Tables<B>, layer: &Layer<B>) -> LayerCount {
    let full: u64 = layer
        .states()
        .par_iter()
        .map(|&s| t.orbit_size(s) as u64)
        .sum();
    LayerCount {
        pegs: layer.states().first().map(|s| s.count()).unwrap_or(0),
        positions: layer.len() as u64,
        positions_full: full,
    }
}

/// Explores every position reachable from `start` (internal layout), layer by layer.
///
/// `on_layer(k, layer)` is called for each layer as soon as it is built (layer 0 is the start).
/// When `keep` is false only the counts are kept and no layers are returned.
pub fn explore<B: Bits>(
    t: &Tables<B>,
    start: B,
    keep: bool,
    mut on_layer: impl FnMut(usize, &Layer<B>),
) -> (Vec<LayerCount>, Vec<Layer<B>>) {
    let mut counts = Vec::new();
    let mut layers = Vec::new();
    let mut cur = Layer::from_vec(vec![t.canonical(start)]);
    let mut k = 0;
    while !cur.is_empty() {
        on_layer(k, &cur);
        counts.push(count_layer(t, &cur));
        let next = next_layer(t, &cur);
        if keep {
            layers.push(cur);
        }
        cur = next;
        k += 1;
    }
    (counts, layers)
}

/// The positions of each layer from which a goal position can still be reached.
///
/// `is_goal` is asked about the one-peg positions and must be invariant under the group. Works
/// backwards: the good positions of layer `k` are the predecessors of the good positions of
/// layer `k + 1` that are in layer `k` (far fewer lookups than testing every successor of every
/// reachable position, since few positions can still finish).
pub fn good_layers<B: Bits>(
    t: &Tables<B>,
    layers: &[Layer<B>],
    is_goal: impl Fn(B) -> bool + Sync,
) -> Vec<Layer<B>> {
    let mut good: Vec<Layer<B>> = vec![Layer::default(); layers.len()];
    for k in (0..layers.len()).rev() {
        let layer = &layers[k];
        let kept = if layer.states().first().map(|s| s.count()) == Some(1) {
            layer.filter(&is_goal)
        } else if k + 1 < layers.len() && !good[k + 1].is_empty() {
            previous_layer(t, &good[k + 1]).filter(|p| layer.contains(p))
        } else {
            Layer::from_vec(Vec::new())
        };
        good[k] = kept;
    }
    good
}

/// The number of jump sequences from the start (layer 0) to the goal positions of the last good
/// layer, summed over the goal orbits.
///
/// Works on orbit totals: `F(orbit of t) = sum over jumps s -> t' with t' in that orbit of F(s)`,
/// which equals the number of paths into the whole orbit when the start is fixed by the group.
pub fn count_paths<B: Bits>(t: &Tables<B>, good: &[Layer<B>]) -> u128 {
    if good.is_empty() || good[0].is_empty() {
        return 0;
    }
    let mut f: Vec<u128> = vec![1; good[0].len()];
    for k in 0..good.len() - 1 {
        let below = &good[k + 1];
        if below.is_empty() {
            return 0;
        }
        let threads = rayon::current_num_threads().max(1);
        let chunk = good[k].len().div_ceil(threads * 4).max(256);
        let cur = good[k].states();
        let partial: Vec<Vec<u128>> = cur
            .par_chunks(chunk)
            .zip(f.par_chunks(chunk))
            .map(|(states, counts)| {
                let mut acc = vec![0u128; below.len()];
                for (&s, &c) in states.iter().zip(counts) {
                    t.for_each_neighbour::<false>(s, |_, n| {
                        if let Some(i) = below.index_of(n) {
                            acc[i] += c;
                        }
                    });
                }
                acc
            })
            .collect();
        let mut next = vec![0u128; below.len()];
        for p in partial {
            for (a, b) in next.iter_mut().zip(p) {
                *a += b;
            }
        }
        f = next;
    }
    f.iter().sum()
}
