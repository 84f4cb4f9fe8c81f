//! The learned evaluation inside the search: one pair of first-layer accumulators per ply of the
//! current line, updated lazily from the two or three inputs each move changes.
//!
//! Making a move only records its input changes ([`XiangqiFeatures::delta`]: a handful of table
//! look-ups); the accumulators of a ply are computed when that ply is first evaluated, from the
//! nearest ancestor whose accumulators are known, one copy-make per ply in between
//! ([`QuantNet::update_into`]: AVX2 where the processor has it). Moves that are pruned before
//! their node evaluates (futility after the move is made, cut-offs from the table) therefore
//! cost no row of W1. Taking a move back costs nothing: the parent's entry is still there.
//!
//! The network and its file: [`crate::learn`] (inputs, `load`, the embedded net).

use crate::learn::XiangqiFeatures;
use crate::position::{Move, Position};
use qiyi_core::eval::Score;
use qiyi_core::learn::features::{Active, Delta, FeatureSet};
use qiyi_core::learn::QuantNet;
use std::sync::Arc;

/// The largest score the network may give: far from any mate or rule win.
pub const NET_SCORE_LIMIT: Score = 15_000;

/// Per-ply accumulators of one search thread.
pub struct NetStack {
    net: Arc<QuantNet>,
    hidden: usize,
    /// Entry `ply` holds `2 * hidden` values: perspective 0 (Red), then 1 (Black).
    acc: Vec<i16>,
    /// The input changes of the move that led to each ply (entry 0 unused).
    deltas: Vec<Delta>,
    /// Whether entry `ply`'s accumulators are computed for the current line.
    fresh: Vec<bool>,
}

impl NetStack {
    /// Accumulators for lines of up to `plies` plies.
    pub fn new(net: Arc<QuantNet>, plies: usize) -> NetStack {
        let hidden = net.arch.hidden;
        NetStack {
            net,
            hidden,
            acc: vec![0; (plies + 1) * 2 * hidden],
            deltas: vec![Delta::default(); plies + 1],
            fresh: vec![false; plies + 1],
        }
    }

    /// Computes the root's accumulators from scratch (ply 0).
    pub fn reset(&mut self, root: &Position) {
        let mut active = Active::default();
        let h = self.hidden;
        for p in 0..2 {
            XiangqiFeatures::active(root, p, &mut active);
            self.net
                .refresh(&mut self.acc[p * h..(p + 1) * h], active.as_slice());
        }
        self.fresh.fill(false);
        self.fresh[0] = true;
    }

    /// Records `mv`, about to be made in `pos` at `ply`, as the way to ply `ply + 1`.
    #[inline]
    pub fn on_make(&mut self, pos: &Position, mv: Move, ply: usize) {
        if ply + 1 < self.fresh.len() {
            XiangqiFeatures::delta(pos, mv, &mut self.deltas[ply + 1]);
            self.fresh[ply + 1] = false;
        }
    }

    /// Records a null move at `ply`: ply `ply + 1` has the same pieces.
    #[inline]
    pub fn on_null(&mut self, ply: usize) {
        if ply + 1 < self.fresh.len() {
            self.deltas[ply + 1].clear();
            self.fresh[ply + 1] = false;
        }
    }

    /// The network's score of `pos`, the position at `ply` of the current line, from the side to
    /// move's view, within [`NET_SCORE_LIMIT`].
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> Score {
        if ply >= self.fresh.len() {
            return 0;
        }
        if !self.fresh[ply] {
            let mut from = ply;
            while !self.fresh[from] {
                from -= 1;
            }
            let h2 = 2 * self.hidden;
            for p in from + 1..=ply {
                let (parent, child) = self.acc[(p - 1) * h2..(p + 1) * h2].split_at_mut(h2);
                let (s0, s1) = parent.split_at(self.hidden);
                let (d0, d1) = child.split_at_mut(self.hidden);
                self.net.update_into([s0, s1], [d0, d1], &self.deltas[p]);
                self.fresh[p] = true;
            }
        }
        let h = self.hidden;
        let at = ply * 2 * h;
        let stm = pos.side_to_move().index();
        let (red, black) = self.acc[at..at + 2 * h].split_at(h);
        let (us, them) = if stm == 0 { (red, black) } else { (black, red) };
        self.net
            .evaluate(us, them)
            .clamp(-NET_SCORE_LIMIT, NET_SCORE_LIMIT)
    }
}
