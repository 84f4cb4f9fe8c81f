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

/// Where an entry's table generation sits in its data word (the top byte; `pack` leaves it 0).
const GENERATION_SHIFT: u32 = 56;

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
    /// The generation live entries carry (1..=255): [`TranspositionTable::clear`] moves to the
    /// next one, so every older entry reads as empty without touching the slots.
    generation: AtomicU8,
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
            generation: AtomicU8::new(1),
        }
    }

    /// Number of entries.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    /// Empties the table.
    ///
    /// O(1) almost always: the table moves to the next generation and entries of older ones
    /// count as empty (for probes and for replacement alike, so a search after `clear` behaves
    /// exactly as on a new table). Once every 255 clears the generations run out and the slots
    /// are zeroed for real.
    pub fn clear(&self) {
        let generation = self.generation.load(Ordering::Relaxed);
        if generation == u8::MAX {
            for slot in &self.slots {
                slot.check.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
            self.generation.store(1, Ordering::Relaxed);
        } else {
            self.generation.store(generation + 1, Ordering::Relaxed);
        }
    }

    /// Whether `data` is an entry of the current generation (zero, the empty slot, never is).
    #[inline]
    fn live(&self, data: u64) -> bool {
        (data >> GENERATION_SHIFT) as u8 == self.generation.load(Ordering::Relaxed)
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
            if self.live(data) && check ^ data == key {
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
        let data = pack(move_index, score, depth, bound, age)
            | u64::from(self.generation.load(Ordering::Relaxed)) << GENERATION_SHIFT;
        let first = &self.slots[b];
        let old = first.data.load(Ordering::Relaxed);
        let old_check = first.check.load(Ordering::Relaxed);
        let (old_entry, old_age) = unpack(old);
        let old_live = self.live(old);
        let same_key = old_live && old_check ^ old == key;
        let replace_first = !old_live
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
                self.live(d) && unpack(d).1 == age
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
    fn clear_empties_through_every_generation_wrap() {
        let tt = TranspositionTable::new(1);
        for round in 0..600u64 {
            assert_eq!(tt.probe(round), None, "round {round}");
            assert_eq!(tt.probe(round.wrapping_sub(1)), None, "round {round}");
            tt.store(round, Some(1), 5, 4, Bound::Exact);
            assert_eq!(tt.probe(round).map(|e| e.score), Some(5));
            tt.clear();
        }
    }

    #[test]
    fn a_cleared_table_replaces_like_a_new_one() {
        // A stale deep entry must not push a shallow new one into the second slot.
        let tt = TranspositionTable::new(1);
        let buckets = tt.capacity() as u64 / 2;
        let (a, b, c) = (7, 7 + buckets, 7 + 2 * buckets);
        tt.store(a, None, 1, 9, Bound::Exact);
        tt.clear();
        let fresh = TranspositionTable::new(1);
        for t in [&tt, &fresh] {
            t.store(b, None, 2, 3, Bound::Exact);
            t.store(c, None, 3, 1, Bound::Exact);
        }
        for key in [a, b, c] {
            assert_eq!(tt.probe(key), fresh.probe(key), "key {key}");
        }
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
