//! Seeded, reproducible randomness and deterministic Zobrist keys.
//!
//! Every random choice in qiyi goes through [`Rng`] (xoshiro256++ seeded from a `u64`), so a run
//! with the same `--seed` repeats exactly. Zobrist keys come from [`zobrist_keys`], a `const fn`
//! over SplitMix64, so key tables are compile-time constants that never change between builds.

use rand::{Rng as _, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// One step of SplitMix64: returns the next state and the output.
pub const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// `N` deterministic pseudo-random 64-bit keys derived from `seed` (usable in `const` items).
pub const fn zobrist_keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut keys = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (next, out) = splitmix64(state);
        state = next;
        keys[i] = out;
        i += 1;
    }
    keys
}

/// The project's seeded random number generator (xoshiro256++).
#[derive(Clone, Debug)]
pub struct Rng(Xoshiro256PlusPlus);

impl Rng {
    /// A generator seeded with `seed`; equal seeds give equal streams.
    pub fn new(seed: u64) -> Self {
        Rng(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// A generator for sub-task `index` of a run seeded with `seed` (independent of scheduling).
    pub fn derive(seed: u64, index: u64) -> Self {
        let (_, a) = splitmix64(seed ^ splitmix64(index).1);
        Rng::new(a)
    }

    /// A uniform integer in `0..n` (`n > 0`).
    #[inline]
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        self.0.random_range(0..n)
    }

    /// A uniform float in `[0, 1)`.
    #[inline]
    pub fn unit(&mut self) -> f64 {
        self.0.random::<f64>()
    }

    /// A raw 64-bit value.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Picks an index according to `weights` (non-negative, not all zero).
    pub fn weighted(&mut self, weights: impl IntoIterator<Item = f64> + Clone) -> usize {
        let total: f64 = weights.clone().into_iter().sum();
        let mut x = self.unit() * total;
        let mut last = 0;
        for (i, w) in weights.into_iter().enumerate() {
            if x < w {
                return i;
            }
            x -= w;
            last = i;
        }
        last
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zobrist_keys_are_deterministic_and_distinct() {
        const KEYS: [u64; 64] = zobrist_keys(7);
        assert_eq!(KEYS, zobrist_keys::<64>(7));
        let mut sorted = KEYS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 64);
        assert_ne!(zobrist_keys::<4>(7), zobrist_keys::<4>(8));
    }

    #[test]
    fn rng_repeats_with_the_same_seed() {
        let a: Vec<u64> = (0..5)
            .map(|_| 0)
            .scan(Rng::new(3), |r, _| Some(r.next_u64()))
            .collect();
        let b: Vec<u64> = (0..5)
            .map(|_| 0)
            .scan(Rng::new(3), |r, _| Some(r.next_u64()))
            .collect();
        assert_eq!(a, b);
        assert_ne!(Rng::derive(3, 0).next_u64(), Rng::derive(3, 1).next_u64());
    }

    #[test]
    fn weighted_respects_zero_weights() {
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let i = rng.weighted([0.0, 1.0, 0.0]);
            assert_eq!(i, 1);
        }
    }
}
