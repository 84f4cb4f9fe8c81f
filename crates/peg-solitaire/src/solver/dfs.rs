//! Depth-first search for a one-peg finish, with a memo of dead positions.
//!
//! The search tries the jumps in board order and remembers (by canonical form under the
//! symmetries that fix the allowed finish holes) every position from which it found no finish, so
//! no position is expanded twice. A node budget turns an exhaustive search into a bounded one.
//!
//! Meet in the middle: an endgame table holds every position with `k` pegs that can still finish
//! (built backwards from the finish by reverse jumps), so the search stops at `k` pegs with an
//! exact answer instead of searching the endgame again and again.

use super::layers::{previous_layer, Layer};
use super::set::StateSet;
use super::tables::Tables;
use crate::bits::Bits;

/// How a depth-first search ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DfsOutcome {
    /// A solution: the jumps, as indices into the board's jumps.
    Found(Vec<u16>),
    /// The whole reachable space was searched: no finish exists.
    Impossible,
    /// The node budget ran out first.
    GaveUp,
}

/// A depth-first solver for one board.
pub struct Dfs<'a, B: Bits> {
    t: &'a Tables<B>,
    finish: B,
    dead: StateSet<B>,
    path: Vec<u16>,
    /// Positions expanded so far.
    pub nodes: u64,
    budget: u64,
    endgame: Option<(u32, Layer<B>)>,
    /// The order in which jumps are tried (indices into the tables' jumps).
    order: Vec<u16>,
}

/// The positions with few pegs that can still end with one peg in `finish`, as canonical forms:
/// layers of reverse jumps from the one-peg goals, grown while a layer stays under `max_layer`
/// positions. Returns the peg count of the last layer and that layer.
pub fn endgame_table<B: Bits>(
    t: &Tables<B>,
    finish: B,
    max_layer: usize,
    max_pegs: u32,
) -> (u32, Layer<B>) {
    let mut goals = Vec::new();
    let mut f = finish;
    while f != B::ZERO {
        let h = f.lowest() as usize;
        f = f.clear_lowest();
        goals.push(t.canonical(B::bit(h)));
    }
    let mut layer = Layer::from_vec(goals);
    let mut pegs = 1;
    while pegs < max_pegs {
        let prev = previous_layer(t, &layer);
        if prev.is_empty() || prev.len() > max_layer {
            break;
        }
        layer = prev;
        pegs += 1;
    }
    (pegs, layer)
}

impl<'a, B: Bits> Dfs<'a, B> {
    /// A solver whose goal is one peg in a hole of `finish`, expanding at most `budget` positions.
    /// `t` must use symmetries that map `finish` onto itself.
    pub fn new(t: &'a Tables<B>, finish: B, budget: u64) -> Self {
        Dfs {
            t,
            finish,
            dead: StateSet::default(),
            path: Vec::with_capacity(128),
            nodes: 0,
            budget,
            endgame: None,
            order: (0..t.jumps.len() as u16).collect(),
        }
    }

    /// Tries the jumps in `order` (indices into the tables' jumps) instead of board order.
    pub fn with_order(mut self, order: Vec<u16>) -> Self {
        self.order = order;
        self
    }

    /// Uses an endgame table from [`endgame_table`] (built with the same tables and finish).
    pub fn with_endgame(mut self, pegs: u32, table: Layer<B>) -> Self {
        self.endgame = Some((pegs, table));
        self
    }

    /// Searches from `start`.
    pub fn solve(&mut self, start: B) -> DfsOutcome {
        self.path.clear();
        match self.go(start, start.count()) {
            Ok(true) => {
                // Finish from the endgame position without the table (a small search).
                let mut s = start;
                for &i in &self.path {
                    s = s ^ self.t.jumps[i as usize].all;
                }
                if s.count() > 1 {
                    let mut tail = Dfs::new(self.t, self.finish, u64::MAX);
                    match tail.solve(s) {
                        DfsOutcome::Found(rest) => self.path.extend(rest),
                        _ => return DfsOutcome::GaveUp,
                    }
                }
                DfsOutcome::Found(self.path.clone())
            }
            Ok(false) => DfsOutcome::Impossible,
            Err(()) => DfsOutcome::GaveUp,
        }
    }

    /// Positions known to be dead.
    pub fn dead_positions(&self) -> usize {
        self.dead.len()
    }

    fn go(&mut self, s: B, pegs: u32) -> Result<bool, ()> {
        if pegs <= 1 {
            return Ok(s & self.finish != B::ZERO);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return Err(());
        }
        let c = self.t.canonical(s);
        if let Some((k, table)) = &self.endgame {
            if pegs <= *k {
                return Ok(pegs == *k && table.contains(c));
            }
        }
        if self.dead.contains(c) {
            return Ok(false);
        }
        let t = self.t;
        for k in 0..self.order.len() {
            let j = &t.jumps[self.order[k] as usize];
            if s & j.all == j.need {
                self.path.push(j.index);
                if self.go(s ^ j.all, pegs - 1)? {
                    return Ok(true);
                }
                self.path.pop();
            }
        }
        self.dead.insert(c);
        Ok(false)
    }
}
