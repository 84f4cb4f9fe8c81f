//! Precomputed tables for the fast solvers: jump masks and byte-wise symmetry lookup tables.

use crate::bits::Bits;
use crate::board::Board;

/// One jump as masks over the bitboard type `B`.
#[derive(Clone, Copy, Debug)]
pub struct JumpMask<B> {
    /// `from | over | to`.
    pub all: B,
    /// `from | over`: the jump is legal when `state & all == need`.
    pub need: B,
    /// Index of the jump in [`Board::jumps`].
    pub index: u16,
    /// The landing hole's internal bit.
    pub to: u8,
}

/// Jump masks and symmetry tables for one board and one symmetry group.
///
/// Square boards that fit in 8x8 use a grid layout inside a `u64` (bit `8y + x`), where the
/// symmetries are byte swaps, bit reversals and a diagonal flip; other boards number their holes
/// in reading order and apply symmetries with byte-wise lookup tables. States passed to and
/// returned by the solvers are in this internal layout: convert with [`Tables::to_internal`] and
/// [`Tables::to_holes`].
#[derive(Clone, Debug)]
pub struct Tables<B: Bits> {
    /// Every jump of the board.
    pub jumps: Vec<JumpMask<B>>,
    /// For each internal bit, the jumps that start there.
    pub from_hole: Vec<Vec<JumpMask<B>>>,
    /// For each non-identity symmetry of the group: `bytes * 256` partial images.
    sym: Vec<Vec<B>>,
    bytes: usize,
    /// Internal bit of each hole.
    pos: Vec<u8>,
    /// Grid layout: the board's width and height and the grid operations of the group.
    grid: Option<(u32, u32, Vec<u8>)>,
}

const K1: u64 = 0x5500_5500_5500_5500;
const K2: u64 = 0x3333_0000_3333_0000;
const K4: u64 = 0x0f0f_0f0f_0000_0000;

/// Grid operation `op` (bit 0: transpose, bit 1: mirror left-right, bit 2: flip top-bottom) on a
/// `w` x `h` board stored at the top left of an 8x8 grid.
#[inline(always)]
fn grid_op(mut x: u64, op: u8, w: u32, h: u32) -> u64 {
    if op & 1 != 0 {
        let mut t = K4 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        t = K2 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        t = K1 & (x ^ (x << 7));
        x ^= t ^ (t >> 7);
    }
    if op & 2 != 0 {
        x = x.reverse_bits().swap_bytes() >> (8 - w);
    }
    if op & 4 != 0 {
        x = x.swap_bytes() >> (8 * (8 - h));
    }
    x
}

impl<B: Bits> Tables<B> {
    /// Tables for `board` with the symmetries `group` (indices into [`Board::symmetries`]).
    pub fn new(board: &Board, group: &[usize]) -> Self {
        assert!(
            board.len() <= B::BITS as usize,
            "board too large for the bitboard type"
        );
        let grid = Self::grid_layout(board, group);
        let pos: Vec<u8> = match &grid {
            Some(_) => board
                .coords()
                .iter()
                .map(|&(x, y)| (8 * y + x) as u8)
                .collect(),
            None => (0..board.len() as u8).collect(),
        };
        let bit = |h: u8| B::bit(pos[h as usize] as usize);
        let jumps: Vec<JumpMask<B>> = board
            .jumps()
            .iter()
            .enumerate()
            .map(|(i, j)| JumpMask {
                all: bit(j.from) | bit(j.over) | bit(j.to),
                need: bit(j.from) | bit(j.over),
                index: i as u16,
                to: pos[j.to as usize],
            })
            .collect();
        let mut from_hole = vec![Vec::new(); B::BITS as usize];
        for (j, m) in board.jumps().iter().zip(&jumps) {
            from_hole[pos[j.from as usize] as usize].push(*m);
        }
        let bytes = board.len().div_ceil(8);
        let mut sym = Vec::new();
        for &g in group {
            let perm = &board.symmetries()[g];
            if perm.iter().enumerate().all(|(i, &p)| p as usize == i) {
                continue;
            }
            let mut table = vec![B::ZERO; bytes * 256];
            for k in 0..bytes {
                for v in 0..256usize {
                    let mut img = B::ZERO;
                    for bit in 0..8 {
                        let hole = 8 * k + bit;
                        if v >> bit & 1 == 1 && hole < board.len() {
                            img = img | B::bit(perm[hole] as usize);
                        }
                    }
                    table[k * 256 + v] = img;
                }
            }
            sym.push(table);
        }
        if grid.is_some() {
            sym.clear();
        }
        Tables {
            jumps,
            from_hole,
            sym,
            bytes,
            pos,
            grid,
        }
    }

    /// The grid operations that realise `group`, when the board fits the 8x8 grid layout.
    fn grid_layout(board: &Board, group: &[usize]) -> Option<(u32, u32, Vec<u8>)> {
        if B::BITS != 64 || board.lattice() != crate::board::Lattice::Square {
            return None;
        }
        let w = board.coords().iter().map(|c| c.0).max()? as u32 + 1;
        let h = board.coords().iter().map(|c| c.1).max()? as u32 + 1;
        if w > 8 || h > 8 {
            return None;
        }
        let at = |i: usize| {
            let (x, y) = board.coords()[i];
            1u64 << (8 * y + x)
        };
        let mut ops = Vec::new();
        for &g in group {
            let perm = &board.symmetries()[g];
            let op = (0u8..8).find(|&op| {
                (0..board.len()).all(|i| grid_op(at(i), op, w, h) == at(perm[i] as usize))
            })?;
            if op != 0 {
                ops.push(op);
            }
        }
        Some((w, h, ops))
    }

    /// A set of holes (bit `i` = hole `i`) in the internal layout.
    pub fn to_internal(&self, holes: u128) -> B {
        let mut out = B::ZERO;
        for (i, &p) in self.pos.iter().enumerate() {
            if holes >> i & 1 == 1 {
                out = out | B::bit(p as usize);
            }
        }
        out
    }

    /// An internal state as a set of holes (bit `i` = hole `i`).
    pub fn to_holes(&self, s: B) -> u128 {
        let v = s.to_u128();
        let mut out = 0u128;
        for (i, &p) in self.pos.iter().enumerate() {
            if v >> p & 1 == 1 {
                out |= 1u128 << i;
            }
        }
        out
    }

    /// Number of symmetries in the group (identity included).
    pub fn group_size(&self) -> usize {
        match &self.grid {
            Some((_, _, ops)) => ops.len() + 1,
            None => self.sym.len() + 1,
        }
    }

    #[inline]
    fn image_with(&self, table: &[B], s: B) -> B {
        let mut img = B::ZERO;
        for k in 0..self.bytes {
            img = img | table[k * 256 + s.byte(k)];
        }
        img
    }

    /// The smallest image of `s` under the group.
    #[inline]
    pub fn canonical(&self, s: B) -> B {
        if let Some((w, h, ops)) = &self.grid {
            let x = s.to_u128() as u64;
            let mut best = x;
            for &op in ops {
                best = best.min(grid_op(x, op, *w, *h));
            }
            return B::from_u128(best as u128);
        }
        let mut best = s;
        for table in &self.sym {
            let img = self.image_with(table, s);
            if img < best {
                best = img;
            }
        }
        best
    }

    /// The number of distinct images of `s` (the size of its orbit).
    #[inline]
    pub fn orbit_size(&self, s: B) -> usize {
        if let Some((w, h, ops)) = &self.grid {
            let x = s.to_u128() as u64;
            let fixed = 1 + ops
                .iter()
                .filter(|&&op| grid_op(x, op, *w, *h) == x)
                .count();
            return self.group_size() / fixed;
        }
        let fixed = 1 + self
            .sym
            .iter()
            .filter(|t| self.image_with(t, s) == s)
            .count();
        self.group_size() / fixed
    }

    /// Calls `f(jump, previous_state)` for every jump that could have led to `s`.
    #[inline]
    pub fn for_each_reverse_jump(&self, s: B, mut f: impl FnMut(&JumpMask<B>, B)) {
        for j in &self.jumps {
            if s & j.all == j.all ^ j.need {
                f(j, s ^ j.all);
            }
        }
    }

    /// Calls `f(jump, next_state)` for every legal jump in `s`.
    #[inline]
    pub fn for_each_jump(&self, s: B, mut f: impl FnMut(&JumpMask<B>, B)) {
        for j in &self.jumps {
            if s & j.all == j.need {
                f(j, s ^ j.all);
            }
        }
    }
}
