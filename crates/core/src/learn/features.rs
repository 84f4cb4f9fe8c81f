//! Input features: which inputs of a network a position switches on, seen from each player, and
//! how a move changes them (what lets the first layer be updated instead of recomputed).

use crate::game::Game;

/// The most inputs one perspective can have on at once.
pub const MAX_ACTIVE: usize = 32;
/// The most input changes one move can make (per perspective).
pub const MAX_CHANGES: usize = 16;

/// The active inputs of one perspective: a small fixed list, no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Active {
    len: u8,
    idx: [u16; MAX_ACTIVE],
}

impl Default for Active {
    fn default() -> Self {
        Active {
            len: 0,
            idx: [0; MAX_ACTIVE],
        }
    }
}

impl Active {
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds input `i` (ignored past [`MAX_ACTIVE`], which a [`FeatureSet`] must never reach).
    #[inline]
    pub fn push(&mut self, i: u16) {
        debug_assert!((self.len as usize) < MAX_ACTIVE);
        if (self.len as usize) < MAX_ACTIVE {
            self.idx[self.len as usize] = i;
            self.len += 1;
        }
    }

    /// The inputs.
    #[inline]
    pub fn as_slice(&self) -> &[u16] {
        &self.idx[..self.len as usize]
    }
}

/// One input change of a move: the input's index from each player's view, and whether it is
/// switched on (`true`) or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Change {
    /// The input index for perspective 0 and for perspective 1.
    pub input: [u16; 2],
    /// On (`true`) or off.
    pub on: bool,
}

/// The input changes of one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delta {
    len: u8,
    items: [Change; MAX_CHANGES],
}

impl Default for Delta {
    fn default() -> Self {
        Delta {
            len: 0,
            items: [Change::default(); MAX_CHANGES],
        }
    }
}

impl Delta {
    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds a change.
    #[inline]
    pub fn push(&mut self, input: [u16; 2], on: bool) {
        debug_assert!((self.len as usize) < MAX_CHANGES);
        if (self.len as usize) < MAX_CHANGES {
            self.items[self.len as usize] = Change { input, on };
            self.len += 1;
        }
    }

    /// The changes.
    #[inline]
    pub fn as_slice(&self) -> &[Change] {
        &self.items[..self.len as usize]
    }
}

/// A game's network inputs: two perspectives (player 0's view and player 1's), each a set of
/// `INPUTS` binary inputs of which a few are on.
pub trait FeatureSet<G: Game>: Send + Sync + 'static {
    /// Inputs per perspective.
    const INPUTS: usize;

    /// Writes the inputs that are on in `pos` seen from `perspective` (0 or 1).
    fn active(pos: &G, perspective: usize, out: &mut Active);

    /// Writes the changes `mv` makes to the inputs of both perspectives (`pos` is the position
    /// before the move).
    fn delta(pos: &G, mv: G::Move, out: &mut Delta);

    /// The number of pieces on the board: the stage measure that picks a net from a
    /// [`NetSet`](super::NetSet). The default counts player 0's active inputs (right when each
    /// piece switches on one input); a game overrides it with something cheaper.
    fn pieces(pos: &G) -> usize {
        let mut active = Active::default();
        Self::active(pos, 0, &mut active);
        active.as_slice().len()
    }
}
