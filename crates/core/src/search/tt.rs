//! The transposition table: fixed size in MiB, buckets of two entries (one depth-preferred, one
//! always-replace), lock-free and shared between the threads of a Lazy SMP search.
//!
//! Each entry is two `AtomicU64`: the data word and the key XOR the data word. A torn write (two
//! threads storing at once) leaves a pair whose XOR no longer matches any key, so a reader sees a
//! miss, never a wrong entry for its key (the "lockless hashing" of Hyatt and Mann).
//!
//! The move is stored as its index in the order [`crate::Game::legal_moves`] writes the moves, so
//! the table works for any game without a move encoding.

use crate::eval::{Score, MATE_BOUND};
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

/// What a stored score says about the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is exactly the score.
    Exact,
    /// The true value is at least the score (a fail-high).
    Lower,
    /// The true value is at most the score (a fail-low).
    Upper,
}

impl Bound {
    /// Whether a stored `score` with this bound settles a search of the window (`alpha`, `beta`):
    /// an exact score always does, a lower bound at or above `beta`, an upper bound at or below
    /// `alpha`.
    #[inline]
    pub fn cuts(self, score: Score, alpha: Score, beta: Score) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
        }
    }
}

/// One probed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Index of the best move in `legal_moves` order, if any.
    pub move_index: Option<u16>,
    /// Score, already adjusted to the probing ply for mate scores.
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: u8,
    /// Kind of bound.
    pub bound: Bound,
}

const NO_MOVE: u64 = 0xFFFF;

fn pack(move_index: Option<u16>, score: Score, depth: u8, bound: Bound, age: u8) -> u64 {
    let mv = move_index.map_or(NO_MOVE, u64::from);
    let score = (score as i16 as u16) as u64;
    let bound = match bound {
        Bound::Exact => 1u64,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    mv | (score << 16) | (u64::from(depth) << 32) | (bound << 40) | (u64::from(age) << 48)
}

fn unpack(data: u64) -> (TtEntry, u8) {
    let mv = data & 0xFFFF;
    let score = ((data >> 16) & 0xFFFF) as u16 as i16 as Score;
    let depth = ((data >> 32) & 0xFF) as u8;
    let bound = match (data >> 40) & 0x3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    };
    let age = ((data >> 48) & 0xFF) as u8;
    let entry = TtEntry {
        move_index: (mv != NO_MOVE).then_some(mv as u16),
        score,
        depth,
        bound,
    };
    (entry, age)
}

/// Converts a score found at `ply` from the root into one relative to the node (mate distances).
pub fn score_to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`].
pub fn score_from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// A shared, fixed-size transposition table.
pub struct TranspositionTable {
    slots: Vec<Slot>,
    bucket_mask: usize,
    age: AtomicU8,
}

impl std::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranspositionTable")
            .field("buckets", &(self.bucket_mask + 1))
            .finish()
    }
}

impl TranspositionTable {
    /// Bytes per bucket (two entries of two words).
    pub const BUCKET_BYTES: usize = 32;

    /// A table of at most `mib` MiB (rounded down to a power of two buckets, at least one).
    pub fn new(mib: usize) -> Self {
        let bytes = mib.max(1) * 1024 * 1024;
        let mut buckets = 1usize;
        while buckets * 2 * Self::BUCKET_BYTES <= bytes {
            buckets *= 2;
        }
        let slots = (0..buckets * 2).map(|_| Slot::default()).collect();
        TranspositionTable {
            slots,
            bucket_mask: buckets - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Empties the table.
    pub fn clear(&self) {
        for slot in &self.slots {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.bucket_mask) * 2
    }

    /// Looks `key` up.
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = self.bucket(key);
        for slot in &self.slots[b..b + 2] {
            let data = slot.data.load(Ordering::Relaxed);
            let check = slot.check.load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                return Some(unpack(data).0);
            }
        }
        None
    }

    /// Stores an entry for `key`: the first slot keeps the deepest entry of the current search,
    /// the second always takes the newest.
    pub fn store(&self, key: u64, move_index: Option<u16>, score: Score, depth: u8, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let b = self.bucket(key);
        let data = pack(move_index, score, depth, bound, age);
        let first = &self.slots[b];
        let old = first.data.load(Ordering::Relaxed);
        let old_check = first.check.load(Ordering::Relaxed);
        let (old_entry, old_age) = unpack(old);
        let same_key = old != 0 && old_check ^ old == key;
        let replace_first = old == 0
            || old_age != age
            || depth >= old_entry.depth
            || (same_key && bound == Bound::Exact);
        let slot = if replace_first {
            first
        } else {
            &self.slots[b + 1]
        };
        // Keep an older best move when the new entry has none for the same position.
        let data = if move_index.is_none() && same_key && replace_first {
            (data & !0xFFFF) | (old & 0xFFFF)
        } else {
            data
        };
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(key ^ data, Ordering::Relaxed);
    }

    /// Per-mille of a sample of entries written in the current search (UCI `hashfull`).
    pub fn hashfull(&self) -> u32 {
        let age = self.age.load(Ordering::Relaxed);
        let sample = self.slots.len().min(2000);
        let used = self.slots[..sample]
            .iter()
            .filter(|s| {
                let d = s.data.load(Ordering::Relaxed);
                d != 0 && unpack(d).1 == age
            })
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn store_then_probe_round_trips() {
        let tt = TranspositionTable::new(1);
        tt.store(0xDEAD_BEEF, Some(7), -123, 5, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF).expect("entry");
        assert_eq!(e.move_index, Some(7));
        assert_eq!(e.score, -123);
        assert_eq!(e.depth, 5);
        assert_eq!(e.bound, Bound::Lower);
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
    }

    #[test]
    fn depth_preferred_slot_keeps_the_deeper_entry() {
        let tt = TranspositionTable::new(1);
        let buckets = tt.capacity() as u64 / 2;
        let a = 5;
        let b = 5 + buckets; // same bucket, different key
        tt.store(a, None, 1, 9, Bound::Exact);
        tt.store(b, None, 2, 3, Bound::Exact);
        assert_eq!(tt.probe(a).map(|e| e.depth), Some(9));
        assert_eq!(tt.probe(b).map(|e| e.depth), Some(3));
        tt.clear();
        assert_eq!(tt.probe(a), None);
    }

    #[test]
    fn mate_scores_are_stored_relative_to_the_node() {
        let s = crate::eval::MATE - 10;
        assert_eq!(score_from_tt(score_to_tt(s, 4), 4), s);
        assert_eq!(score_to_tt(s, 4), crate::eval::MATE - 6);
        assert_eq!(score_to_tt(-s, 4), -(crate::eval::MATE - 6));
        assert_eq!(score_to_tt(57, 4), 57);
    }

    #[test]
    fn size_is_bounded_by_the_request() {
        let tt = TranspositionTable::new(2);
        assert!(tt.capacity() * 16 <= 2 * 1024 * 1024);
        assert!(tt.capacity() * 16 > 1024 * 1024);
    }
}
