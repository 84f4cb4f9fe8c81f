//! Depth-first search for a one-peg finish, with a memo of dead positions.
//!
//! The search tries the jumps in board order and remembers (by canonical form under the
//! symmetries that fix the allowed finish holes) every position from which it found no finish, so
//! no position is expanded twice. A node budget turns an exhaustive search into a bounded one.

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
        }
    }

    /// Searches from `start`.
    pub fn solve(&mut self, start: B) -> DfsOutcome {
        self.path.clear();
        match self.go(start, start.count()) {
            Ok(true) => DfsOutcome::Found(self.path.clone()),
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
        if self.dead.contains(c) {
            return Ok(false);
        }
        let t = self.t;
        for j in &t.jumps {
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
