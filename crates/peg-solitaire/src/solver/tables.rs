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
    /// The landing hole.
    pub to: u8,
}

/// Jump masks and symmetry tables for one board and one symmetry group.
#[derive(Clone, Debug)]
pub struct Tables<B: Bits> {
    /// Every jump of the board.
    pub jumps: Vec<JumpMask<B>>,
    /// For each hole, the jumps that start there.
    pub from_hole: Vec<Vec<JumpMask<B>>>,
    /// For each non-identity symmetry of the group: `bytes * 256` partial images.
    sym: Vec<Vec<B>>,
    bytes: usize,
}

impl<B: Bits> Tables<B> {
    /// Tables for `board` with the symmetries `group` (indices into [`Board::symmetries`]).
    pub fn new(board: &Board, group: &[usize]) -> Self {
        assert!(board.len() <= B::BITS as usize, "board too large for the bitboard type");
        let jumps: Vec<JumpMask<B>> = board
            .jumps()
            .iter()
            .enumerate()
            .map(|(i, j)| JumpMask {
                all: B::from_u128(j.mask()),
                need: B::from_u128(j.need()),
                index: i as u16,
                to: j.to,
            })
            .collect();
        let mut from_hole = vec![Vec::new(); board.len()];
        for (j, m) in board.jumps().iter().zip(&jumps) {
            from_hole[j.from as usize].push(*m);
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
        Tables {
            jumps,
            from_hole,
            sym,
            bytes,
        }
    }

    /// Number of symmetries in the group (identity included).
    pub fn group_size(&self) -> usize {
        self.sym.len() + 1
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
        let fixed = 1 + self
            .sym
            .iter()
            .filter(|t| self.image_with(t, s) == s)
            .count();
        self.group_size() / fixed
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
