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
    /// The starting hole's internal bit.
    pub from: u8,
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
    /// Jumps as lines of three holes `q, q + d, q + 2d` (internal bits): `(d, set of q)`, when
    /// every jump of the board is such a line (square boards in the grid layout); the successors
    /// are then found with shifts instead of a loop over the jumps.
    lines: Option<Vec<(u32, B)>>,
    /// True when the grid group is all 8 operations of a square grid (`w == h`): the images are
    /// then built from one transpose, two mirrors and byte swaps (see [`all_images`]).
    full8: bool,
    /// Number of group elements (identity included).
    group: usize,
    /// For each jump (index into `jumps`): the images of its mask under the group, in the order
    /// of [`Tables::images`]; `group` entries per jump.
    jump_img: Vec<B>,
    /// The same for each line `(k, q)` of `lines`: entry `(k * BITS + q) * group`.
    line_img: Vec<B>,
}

/// Most symmetries a group can have (the triangular lattice's 12).
pub const MAX_GROUP: usize = 12;

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

/// The eight images of `x` under the symmetries of a `n` x `n` board at the top left of an 8x8
/// grid, sharing work: one transpose, two left-right mirrors and four byte swaps (top-bottom
/// flips). Order: `x`, flip, mirror, flip∘mirror, then the same four after the transpose.
#[inline(always)]
pub fn all_images(x: u64, n: u32) -> [u64; 8] {
    let mirror = |v: u64| v.reverse_bits().swap_bytes() >> (8 - n);
    let flip = |v: u64| v.swap_bytes() >> (8 * (8 - n));
    let t = grid_op(x, 1, n, n);
    let (m, mt) = (mirror(x), mirror(t));
    [x, flip(x), m, flip(m), t, flip(t), mt, flip(mt)]
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
                from: pos[j.from as usize],
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
        let full8 = matches!(&grid, Some((w, h, ops)) if w == h && ops.len() == 7);
        let lines = Self::lines_of(board, &pos);
        let mut t = Tables {
            lines,
            group: 0,
            jump_img: Vec::new(),
            line_img: Vec::new(),
            jumps,
            from_hole,
            sym,
            bytes,
            pos,
            grid,
            full8,
        };
        t.group = t.group_size();
        let mut jump_img = Vec::with_capacity(t.jumps.len() * t.group);
        for j in &t.jumps {
            jump_img.extend_from_slice(&t.images(j.all)[..t.group]);
        }
        let mut line_img = Vec::new();
        if let Some(lines) = &t.lines {
            line_img = vec![B::ZERO; lines.len() * B::BITS as usize * t.group];
            for (k, &(d, base)) in lines.iter().enumerate() {
                let mut q = base;
                while q != B::ZERO {
                    let low = q.lowest_bit();
                    q = q ^ low;
                    let at = (k * B::BITS as usize + low.lowest() as usize) * t.group;
                    let img = t.images(low | low.shl(d) | low.shl(2 * d));
                    line_img[at..at + t.group].copy_from_slice(&img[..t.group]);
                }
            }
        }
        t.jump_img = jump_img;
        t.line_img = line_img;
        t
    }

    /// The images of `s` under every element of the group (identity first); only the first
    /// [`Tables::group_size`] entries are meaningful. Images are bitwise: the image of `a ^ b`
    /// is the xor of the images, which [`Tables::canonical_after`] relies on.
    #[inline]
    pub fn images(&self, s: B) -> [B; MAX_GROUP] {
        let mut out = [B::ZERO; MAX_GROUP];
        out[0] = s;
        if let Some((w, h, ops)) = &self.grid {
            let x = s.to_u128() as u64;
            if self.full8 {
                for (o, i) in out.iter_mut().zip(all_images(x, *w)) {
                    *o = B::from_u128(i as u128);
                }
            } else {
                for (o, &op) in out[1..].iter_mut().zip(ops) {
                    *o = B::from_u128(grid_op(x, op, *w, *h) as u128);
                }
            }
        } else {
            for (o, table) in out[1..].iter_mut().zip(&self.sym) {
                *o = self.image_with(table, s);
            }
        }
        out
    }

    /// The canonical form of `s ^ mask` given `images(s)` and the images of `mask` (a slice
    /// of `group_size` entries): one xor and one comparison per group element.
    #[inline(always)]
    fn min_xor(&self, img: &[B; MAX_GROUP], mask_img: &[B]) -> B {
        if self.group == 8 && mask_img.len() == 8 {
            let mut best = img[0] ^ mask_img[0];
            for k in 1..8 {
                let v = img[k] ^ mask_img[k];
                if v < best {
                    best = v;
                }
            }
            return best;
        }
        let mut best = img[0] ^ mask_img[0];
        for (a, b) in img.iter().zip(mask_img).skip(1) {
            let v = *a ^ *b;
            if v < best {
                best = v;
            }
        }
        best
    }

    /// The canonical form of the position after jump `index` (or before it: the same masks),
    /// given `images(s)` of the position `s`.
    #[inline]
    pub fn canonical_after(&self, img: &[B; MAX_GROUP], index: u16) -> B {
        let at = index as usize * self.group;
        self.min_xor(img, &self.jump_img[at..at + self.group])
    }

    /// Applies jump `index` to images `img` of a position (giving the images of the result).
    #[inline]
    pub fn apply_to_images(&self, img: &mut [B; MAX_GROUP], index: u16) {
        let at = index as usize * self.group;
        for (a, b) in img.iter_mut().zip(&self.jump_img[at..at + self.group]) {
            *a = *a ^ *b;
        }
    }

    /// Calls `f(next, canonical(next))` for every legal jump in `s` (or, with `REVERSE`, for
    /// every position one jump before `s`): the images of `s` are computed once and each
    /// neighbour's canonical form costs one xor and one comparison per symmetry.
    #[inline]
    pub fn for_each_neighbour<const REVERSE: bool>(&self, s: B, mut f: impl FnMut(B, B)) {
        let img = self.images(s);
        let g = self.group;
        match &self.lines {
            Some(lines) => {
                for (k, &(d, base)) in lines.iter().enumerate() {
                    let (b, c) = (s.shr(d), s.shr(2 * d));
                    let mid = if REVERSE { !b } else { b };
                    let mut q = base & mid & (s ^ c);
                    while q != B::ZERO {
                        let low = q.lowest_bit();
                        q = q ^ low;
                        let at = (k * B::BITS as usize + low.lowest() as usize) * g;
                        let n = s ^ low ^ low.shl(d) ^ low.shl(2 * d);
                        f(n, self.min_xor(&img, &self.line_img[at..at + g]));
                    }
                }
            }
            None => {
                for j in &self.jumps {
                    let ok = if REVERSE {
                        s & j.all == j.all ^ j.need
                    } else {
                        s & j.all == j.need
                    };
                    if ok {
                        f(s ^ j.all, self.canonical_after(&img, j.index));
                    }
                }
            }
        }
    }

    /// The jumps grouped into lines of constant bit offset, if every jump is such a line.
    fn lines_of(board: &Board, pos: &[u8]) -> Option<Vec<(u32, B)>> {
        let mut lines: Vec<(u32, B)> = Vec::new();
        for j in board.jumps() {
            let (a, b, c) = (
                pos[j.from as usize] as i32,
                pos[j.over as usize] as i32,
                pos[j.to as usize] as i32,
            );
            if b - a != c - b {
                return None;
            }
            let (q, d) = (a.min(c) as usize, (b - a).unsigned_abs());
            match lines.iter_mut().find(|l| l.0 == d) {
                Some(l) => l.1 = l.1 | B::bit(q),
                None => lines.push((d, B::bit(q))),
            }
        }
        Some(lines)
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

    /// The internal bit of hole `hole`.
    pub fn internal_bit(&self, hole: usize) -> usize {
        self.pos[hole] as usize
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
        if self.full8 {
            if let Some((n, _, _)) = &self.grid {
                let im = all_images(s.to_u128() as u64, *n);
                let best = im.iter().fold(u64::MAX, |a, &b| a.min(b));
                return B::from_u128(best as u128);
            }
        }
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
        if self.full8 {
            if let Some((n, _, _)) = &self.grid {
                let x = s.to_u128() as u64;
                let im = all_images(x, *n);
                // The stabiliser's order divides 8 (a power of two): no division needed.
                let fixed = im.iter().map(|&i| (i == x) as u32).sum::<u32>();
                return 8 >> fixed.trailing_zeros();
            }
        }
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

    /// Calls `f(next_state)` for every legal jump in `s` (the same successors as
    /// [`Tables::for_each_jump`], possibly in another order; with shifts where the layout allows).
    #[inline]
    pub fn for_each_successor(&self, s: B, mut f: impl FnMut(B)) {
        match &self.lines {
            Some(lines) => {
                for &(d, base) in lines {
                    let (b, c) = (s.shr(d), s.shr(2 * d));
                    // Peg, peg, hole (jump up the line) or hole, peg, peg (jump down the line).
                    let mut q = base & b & (s ^ c);
                    while q != B::ZERO {
                        let low = q.lowest_bit();
                        q = q ^ low;
                        f(s ^ low ^ low.shl(d) ^ low.shl(2 * d));
                    }
                }
            }
            None => self.for_each_jump(s, |_, n| f(n)),
        }
    }

    /// Calls `f(previous_state)` for every jump that could have led to `s`.
    #[inline]
    pub fn for_each_predecessor(&self, s: B, mut f: impl FnMut(B)) {
        match &self.lines {
            Some(lines) => {
                for &(d, base) in lines {
                    let (b, c) = (s.shr(d), s.shr(2 * d));
                    // Hole, hole, peg or peg, hole, hole: the middle peg was jumped.
                    let mut q = base & !b & (s ^ c);
                    while q != B::ZERO {
                        let low = q.lowest_bit();
                        q = q ^ low;
                        f(s ^ low ^ low.shl(d) ^ low.shl(2 * d));
                    }
                }
            }
            None => self.for_each_reverse_jump(s, |_, n| f(n)),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::Rng;
    use std::collections::BTreeSet;

    /// Neighbours and canonical forms from the shift/xor fast paths agree with the plain jump
    /// loop and with applying every symmetry hole by hole, for the whole group and subgroups.
    #[test]
    fn fast_neighbours_and_canonical_forms_agree_with_plain_ones() {
        let mut rng = Rng::new(7);
        for name in ["english", "french", "wiegleb", "triangle:6"] {
            let b = Board::named(name).unwrap();
            let all: Vec<usize> = (0..b.symmetries().len()).collect();
            let sub = b.stabilizer(1u128 << 1);
            for group in [all, sub] {
                let t = Tables::<u64>::new(&b, &group);
                assert_eq!(t.group_size(), group.len(), "{name}");
                for _ in 0..300 {
                    let holes = (rng.next_u64() as u128) & b.full();
                    let s = t.to_internal(holes);
                    let plain = |n: u64| t.to_internal(b.canonical_in(&group, t.to_holes(n)));
                    assert_eq!(t.canonical(s), plain(s), "{name}");
                    for reverse in [false, true] {
                        let mut fast = BTreeSet::new();
                        let mut slow = BTreeSet::new();
                        let mut fast_only = BTreeSet::new();
                        if reverse {
                            t.for_each_neighbour::<true>(s, |n, c| {
                                fast.insert((n, c));
                            });
                            t.for_each_predecessor(s, |n| {
                                fast_only.insert(n);
                            });
                            t.for_each_reverse_jump(s, |_, n| {
                                slow.insert((n, plain(n)));
                            });
                        } else {
                            t.for_each_neighbour::<false>(s, |n, c| {
                                fast.insert((n, c));
                            });
                            t.for_each_successor(s, |n| {
                                fast_only.insert(n);
                            });
                            t.for_each_jump(s, |_, n| {
                                slow.insert((n, plain(n)));
                            });
                        }
                        assert_eq!(fast, slow, "{name} reverse={reverse}");
                        let states: BTreeSet<u64> = slow.iter().map(|p| p.0).collect();
                        assert_eq!(fast_only, states, "{name} reverse={reverse}");
                    }
                    let img = t.images(s);
                    for j in &t.jumps {
                        assert_eq!(t.canonical_after(&img, j.index), plain(s ^ j.all));
                    }
                }
            }
        }
    }
}
