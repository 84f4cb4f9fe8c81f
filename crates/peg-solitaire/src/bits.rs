//! Bitboards: one bit per hole, in `u64` for boards of up to 64 holes and `u128` beyond.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// An unsigned integer used as a set of holes (bit `i` = a peg in hole `i`).
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Default
    + Debug
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + 'static
{
    /// The empty set.
    const ZERO: Self;
    /// Number of bits.
    const BITS: u32;
    /// The set holding only hole `i`.
    fn bit(i: usize) -> Self;
    /// Narrows a `u128` set (bits beyond `BITS` are dropped).
    fn from_u128(v: u128) -> Self;
    /// Widens to `u128`.
    fn to_u128(self) -> u128;
    /// Number of holes in the set.
    fn count(self) -> u32;
    /// Byte `i` (bits `8i..8i+8`) as an index.
    fn byte(self, i: usize) -> usize;
    /// A well-mixed 64-bit hash of the set (for open addressing).
    fn mix(self) -> u64;
    /// Index of the lowest set bit (`BITS` when empty).
    fn lowest(self) -> u32;
    /// The set without its lowest element.
    fn clear_lowest(self) -> Self;
    /// The set shifted towards higher bits by `n` (`n < BITS`).
    fn shl(self, n: u32) -> Self;
    /// The set shifted towards lower bits by `n` (`n < BITS`).
    fn shr(self, n: u32) -> Self;
    /// The lowest element alone (`ZERO` when empty).
    fn lowest_bit(self) -> Self;
}

#[inline]
fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Bits for u64 {
    #[inline]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    #[inline]
    fn lowest_bit(self) -> Self {
        self & self.wrapping_neg()
    }
    const ZERO: Self = 0;
    const BITS: u32 = 64;
    #[inline]
    fn bit(i: usize) -> Self {
        1u64 << i
    }
    #[inline]
    fn from_u128(v: u128) -> Self {
        v as u64
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self as u128
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn byte(self, i: usize) -> usize {
        ((self >> (8 * i)) & 0xff) as usize
    }
    #[inline]
    fn mix(self) -> u64 {
        mix64(self)
    }
    #[inline]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline]
    fn clear_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
}

impl Bits for u128 {
    #[inline]
    fn shl(self, n: u32) -> Self {
        self << n
    }
    #[inline]
    fn shr(self, n: u32) -> Self {
        self >> n
    }
    #[inline]
    fn lowest_bit(self) -> Self {
        self & self.wrapping_neg()
    }
    const ZERO: Self = 0;
    const BITS: u32 = 128;
    #[inline]
    fn bit(i: usize) -> Self {
        1u128 << i
    }
    #[inline]
    fn from_u128(v: u128) -> Self {
        v
    }
    #[inline]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn byte(self, i: usize) -> usize {
        ((self >> (8 * i)) & 0xff) as usize
    }
    #[inline]
    fn mix(self) -> u64 {
        mix64((self as u64) ^ mix64((self >> 64) as u64))
    }
    #[inline]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline]
    fn clear_lowest(self) -> Self {
        self & self.wrapping_sub(1)
    }
}
