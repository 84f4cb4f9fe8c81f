//! Breadth-first exploration by number of jumps, one layer per peg count, and what is computed
//! over the layers: the positions that can still reach the goal, and the number of solutions.
//!
//! Every jump removes one peg, so the positions reachable after `k` jumps are exactly the reachable
//! positions with `start_pegs - k` pegs, and no position appears in two layers. A layer is a sorted
//! vector of canonical positions (the smallest image under the symmetry group); the next layer is
//! built in parallel (rayon) and deduplicated by a parallel sort.

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

const CHUNK: usize = 1 << 12;

/// The canonical successors of one layer, sorted and deduplicated.
pub fn next_layer<B: Bits>(t: &Tables<B>, layer: &[B]) -> Vec<B> {
    let parts: Vec<Vec<B>> = layer
        .par_chunks(CHUNK)
        .map(|chunk| {
            let mut out = Vec::with_capacity(chunk.len() * 8);
            for &s in chunk {
                t.for_each_jump(s, |_, n| out.push(t.canonical(n)));
            }
            out.sort_unstable();
            out.dedup();
            out
        })
        .collect();
    let total = parts.iter().map(Vec::len).sum();
    let mut next = Vec::with_capacity(total);
    for p in parts {
        next.extend_from_slice(&p);
    }
    drop_dups(next)
}

fn drop_dups<B: Bits>(mut v: Vec<B>) -> Vec<B> {
    v.par_sort_unstable();
    v.dedup();
    v.shrink_to_fit();
    v
}

/// Counts one layer (the full count assumes the start is fixed by the whole group).
pub fn count_layer<B: Bits>(t: &Tables<B>, layer: &[B]) -> LayerCount {
    let full: u64 = layer.par_iter().map(|&s| t.orbit_size(s) as u64).sum();
    LayerCount {
        pegs: layer.first().map(|s| s.count()).unwrap_or(0),
        positions: layer.len() as u64,
        positions_full: full,
    }
}

/// Explores every position reachable from `start`, layer by layer.
///
/// `on_layer(k, layer)` is called for each layer as soon as it is built (layer 0 is the start).
/// When `keep` is false only the counts are kept and the returned layers are empty vectors.
pub fn explore<B: Bits>(
    t: &Tables<B>,
    start: B,
    keep: bool,
    mut on_layer: impl FnMut(usize, &[B]),
) -> (Vec<LayerCount>, Vec<Vec<B>>) {
    let mut counts = Vec::new();
    let mut layers = Vec::new();
    let mut cur = vec![t.canonical(start)];
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
/// `is_goal` is asked about the one-peg positions and must be invariant under the group.
pub fn good_layers<B: Bits>(
    t: &Tables<B>,
    layers: &[Vec<B>],
    is_goal: impl Fn(B) -> bool + Sync,
) -> Vec<Vec<B>> {
    let mut good: Vec<Vec<B>> = vec![Vec::new(); layers.len()];
    for k in (0..layers.len()).rev() {
        let layer = &layers[k];
        let kept: Vec<B> = if layer.first().map(|s| s.count()) == Some(1) {
            layer.iter().copied().filter(|&s| is_goal(s)).collect()
        } else if k + 1 < layers.len() {
            let below = &good[k + 1];
            if below.is_empty() {
                Vec::new()
            } else {
                layer
                    .par_iter()
                    .copied()
                    .filter(|&s| {
                        let mut ok = false;
                        t.for_each_jump(s, |_, n| {
                            ok = ok || below.binary_search(&t.canonical(n)).is_ok();
                        });
                        ok
                    })
                    .collect()
            }
        } else {
            Vec::new()
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
pub fn count_paths<B: Bits>(t: &Tables<B>, good: &[Vec<B>]) -> u128 {
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
        let cur = &good[k];
        let partial: Vec<Vec<u128>> = cur
            .par_chunks(chunk)
            .zip(f.par_chunks(chunk))
            .map(|(states, counts)| {
                let mut acc = vec![0u128; below.len()];
                for (&s, &c) in states.iter().zip(counts) {
                    t.for_each_jump(s, |_, n| {
                        if let Ok(i) = below.binary_search(&t.canonical(n)) {
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
