//! Beam search: a layer-by-layer search that keeps only the most promising positions of each
//! layer, for boards whose full state space is too large (Wiegleb's 45 holes).
//!
//! Every layer holds positions with the same number of pegs (canonical forms, duplicates
//! merged); when a layer grows past the beam width only the positions with the best score are
//! kept. The score prefers pegs close to the finish and punishes pegs with no neighbour (a lonely
//! peg can only go once another peg comes next to it). When a layer reaches the peg count of an
//! endgame table (every position with that many pegs that can still finish, built backwards from
//! the finish), any position in both is the middle of a solution. The search is not exhaustive:
//! a failure proves nothing, it only says this width was not enough.

use super::dfs::{Dfs, DfsOutcome};
use super::layers::Layer;
use super::tables::Tables;
use crate::bits::Bits;
use rayon::prelude::*;

/// What the score of a position is made of.
#[derive(Clone, Debug)]
pub struct BeamScore<B> {
    /// Per internal bit: the weight of a peg there (squared distance to the nearest finish hole).
    weight: Vec<i64>,
    /// Per internal bit: its lattice neighbours.
    neighbours: Vec<B>,
    /// Penalty for a peg without a neighbouring peg.
    lonely: i64,
}

impl<B: Bits> BeamScore<B> {
    /// Weights from the distances (in lattice steps) between holes and the finish holes `finish`.
    pub fn new(t: &Tables<B>, finish: B) -> Self {
        let bits = B::BITS as usize;
        let mut neighbours = vec![B::ZERO; bits];
        let mut holes = B::ZERO;
        for j in &t.jumps {
            neighbours[j.from as usize] =
                neighbours[j.from as usize] | (j.need ^ B::bit(j.from as usize));
            holes = holes | j.all;
        }
        // Breadth-first distances from the finish holes over the neighbour graph.
        let mut dist = vec![i64::MAX; bits];
        let mut frontier: Vec<usize> = (0..bits)
            .filter(|&b| finish & B::bit(b) != B::ZERO)
            .collect();
        for &b in &frontier {
            dist[b] = 0;
        }
        let mut d = 0;
        while !frontier.is_empty() {
            d += 1;
            let mut next = Vec::new();
            for &b in &frontier {
                let mut n = neighbours[b];
                while n != B::ZERO {
                    let c = n.lowest() as usize;
                    n = n.clear_lowest();
                    if dist[c] == i64::MAX {
                        dist[c] = d;
                        next.push(c);
                    }
                }
            }
            frontier = next;
        }
        let weight = dist
            .iter()
            .map(|&d| if d == i64::MAX { 0 } else { d * d })
            .collect();
        BeamScore {
            weight,
            neighbours,
            lonely: 12,
        }
    }

    /// The weight of a peg on internal bit `b` (larger: farther from the finish).
    pub fn weight(&self, b: usize) -> i64 {
        self.weight[b]
    }

    /// The score of a position: lower is better.
    #[inline]
    pub fn score(&self, s: B) -> i64 {
        let mut total = 0;
        let mut pegs = s;
        while pegs != B::ZERO {
            let b = pegs.lowest() as usize;
            pegs = pegs.clear_lowest();
            total += self.weight[b];
            if s & self.neighbours[b] == B::ZERO {
                total += self.lonely;
            }
        }
        total
    }
}

/// Searches from `start` for one peg in `finish` keeping at most `width` positions per layer,
/// with the endgame table `(pegs, positions that can finish)`. Returns the jumps (indices into
/// the board's jumps) of a solution, checked by replaying them, or `None`.
pub fn beam_search<B: Bits>(
    t: &Tables<B>,
    start: B,
    finish: B,
    width: usize,
    endgame: &(u32, Layer<B>),
    mut on_layer: impl FnMut(usize, usize),
) -> Option<Vec<u16>> {
    let score = BeamScore::new(t, finish);
    let (table_pegs, table) = endgame;
    let mut layers: Vec<Vec<B>> = vec![vec![t.canonical(start)]];
    let meet = loop {
        let cur = layers.last()?;
        let pegs = cur.first()?.count();
        on_layer(layers.len() - 1, cur.len());
        if pegs <= *table_pegs {
            if pegs < *table_pegs {
                return None;
            }
            break cur.iter().copied().find(|&s| table.contains(s))?;
        }
        let mut next: Vec<B> = cur
            .par_chunks(1024)
            .flat_map_iter(|chunk| {
                let mut out = Vec::with_capacity(chunk.len() * 8);
                for &s in chunk {
                    t.for_each_neighbour::<false>(s, |_, c| out.push(c));
                }
                out
            })
            .collect();
        next.par_sort_unstable();
        next.dedup();
        if next.is_empty() {
            return None;
        }
        if next.len() > width {
            let mut scored: Vec<(i64, B)> = next.par_iter().map(|&s| (score.score(s), s)).collect();
            scored.select_nth_unstable(width - 1);
            scored.truncate(width);
            next = scored.into_iter().map(|(_, s)| s).collect();
            next.par_sort_unstable();
        }
        layers.push(next);
    };
    // Canonical path backwards: a position of the layer above with a successor equal to the
    // current one.
    let mut path = vec![meet];
    for k in (0..layers.len() - 1).rev() {
        let want = *path.last()?;
        let prev = layers[k].par_iter().find_any(|&&s| {
            let mut hit = false;
            t.for_each_neighbour::<false>(s, |_, c| hit |= c == want);
            hit
        })?;
        path.push(*prev);
    }
    path.reverse();
    // Replay on the real board, then finish from the endgame position with a small search.
    let mut s = start;
    let mut jumps = Vec::new();
    for &want in &path[1..] {
        let img = t.images(s);
        let j = t
            .jumps
            .iter()
            .find(|j| s & j.all == j.need && t.canonical_after(&img, j.index) == want)?;
        jumps.push(j.index);
        s = s ^ j.all;
    }
    match Dfs::new(t, finish, u64::MAX).solve(s) {
        DfsOutcome::Found(rest) => jumps.extend(rest),
        _ => return None,
    }
    Some(jumps)
}
