//! Position classes: the "rule of three" invariants, computed from the board's jumps.
//!
//! Give every hole a value `v(h)` in GF(2) such that every line of three holes `a, b, c` that a
//! jump uses has `v(a) + v(b) + v(c) = 0`. A jump empties `a` and `b` and fills `c`, so the parity
//! of the pegs on `{h : v(h) = 1}` never changes. The valid `v` form a vector space (the null space
//! of the jump triples); each basis vector gives one invariant bit. On the square lattice this is
//! de Bruijn's / Conway's position class (`v(x, y) = f(x) + g(y)` with `f`, `g` of period 3:
//! 16 classes); on a finite or triangular board it is computed the same way.
//!
//! Two positions with different classes can never be reached from one another, which proves, for
//! instance, that the French board's centre start cannot end with one peg.

use crate::jump::Jump;

/// A basis of the invariants: bitmasks `m` such that the parity of `pegs & m` is kept by every jump.
pub fn invariant_masks(holes: usize, jumps: &[Jump]) -> Vec<u128> {
    // Rows of the constraint matrix, reduced to echelon form as they come.
    let mut pivots: Vec<(usize, u128)> = Vec::new();
    for j in jumps {
        let mut row = j.mask();
        for &(p, r) in &pivots {
            if row >> p & 1 == 1 {
                row ^= r;
            }
        }
        if row != 0 {
            let p = row.trailing_zeros() as usize;
            // Keep the matrix fully reduced: clear column p from the other rows.
            for (_, r) in pivots.iter_mut() {
                if *r >> p & 1 == 1 {
                    *r ^= row;
                }
            }
            pivots.push((p, row));
        }
    }
    let pivot_cols: u128 = pivots.iter().fold(0, |a, &(p, _)| a | 1u128 << p);
    let mut basis = Vec::new();
    for free in 0..holes {
        if pivot_cols >> free & 1 == 1 {
            continue;
        }
        // Set the free variable to 1, the other free ones to 0, and solve for the pivots.
        let mut v = 1u128 << free;
        for &(p, r) in &pivots {
            if r >> free & 1 == 1 {
                v |= 1u128 << p;
            }
        }
        basis.push(v);
    }
    basis
}
