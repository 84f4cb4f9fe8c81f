//! An open-addressing hash set of bitboards (linear probing, the empty board as the free mark).

use crate::bits::Bits;

/// A growable set of non-empty bitboards.
#[derive(Clone, Debug)]
pub struct StateSet<B: Bits> {
    slots: Vec<B>,
    len: usize,
}

impl<B: Bits> Default for StateSet<B> {
    fn default() -> Self {
        Self::with_capacity(1 << 12)
    }
}

impl<B: Bits> StateSet<B> {
    /// A set with room for about `n` states before it grows.
    pub fn with_capacity(n: usize) -> Self {
        let cap = (2 * n.max(8)).next_power_of_two();
        StateSet {
            slots: vec![B::ZERO; cap],
            len: 0,
        }
    }

    /// Number of states in the set.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when the set is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether `s` is in the set.
    #[inline]
    pub fn contains(&self, s: B) -> bool {
        let mask = self.slots.len() - 1;
        let mut i = s.mix() as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == s {
                return true;
            }
            if slot == B::ZERO {
                return false;
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds `s` (which must not be the empty board); returns true if it was new.
    #[inline]
    pub fn insert(&mut self, s: B) -> bool {
        debug_assert!(s != B::ZERO);
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = s.mix() as usize & mask;
        loop {
            let slot = self.slots[i];
            if slot == s {
                return false;
            }
            if slot == B::ZERO {
                self.slots[i] = s;
                self.len += 1;
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let cap = 2 * self.slots.len();
        let old = std::mem::replace(&mut self.slots, vec![B::ZERO; cap]);
        self.len = 0;
        for s in old {
            if s != B::ZERO {
                self.insert(s);
            }
        }
    }
}
