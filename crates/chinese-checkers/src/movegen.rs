//! Move generation on a bare occupancy bitboard: steps, and hop chains found by breadth-first
//! search.
//!
//! A move is a step to an adjacent empty hole, or a chain of hops: each hop jumps over one
//! adjacent piece (of any colour) into the empty hole directly beyond, and a chain never visits a
//! hole twice (its starting hole included). While the chain is under way the moving piece's
//! starting hole is empty, so no hop can jump over it. Moves are deduplicated by destination: a
//! hole reachable by a step and by a chain is one move, and the path kept for display is the
//! step, or the chain with the fewest hops (the first one the search finds).

use crate::board::{bit, geometry, Bits, Cell, CELLS, NONE};

/// The empty holes next to `from`.
#[inline]
pub fn step_targets(occ: u128, from: Cell) -> u128 {
    let g = geometry();
    let mut out = 0u128;
    for &n in &g.neighbours[from as usize] {
        if n != NONE && occ & bit(n) == 0 {
            out |= bit(n);
        }
    }
    out
}

/// Every hole a chain of one or more hops from `from` can end in (`occ` includes `from`).
#[inline]
pub fn hop_targets(occ: u128, from: Cell) -> u128 {
    hop_targets_within(occ, from, ALL)
}

/// Every hole of the board.
pub const ALL: u128 = (1u128 << CELLS) - 1;

/// Like [`hop_targets`], but landing only on holes of `allowed` (a smaller board).
#[inline]
pub fn hop_targets_within(occ: u128, from: Cell, allowed: u128) -> u128 {
    let g = geometry();
    let occ = occ & !bit(from);
    let mut visited = bit(from);
    let mut queue = [0u8; CELLS];
    queue[0] = from;
    let (mut head, mut tail) = (0usize, 1usize);
    while head < tail {
        let c = queue[head] as usize;
        head += 1;
        let nb = &g.neighbours[c];
        let jp = &g.jumps[c];
        for d in 0..6 {
            let land = jp[d];
            if land == NONE {
                continue;
            }
            let lb = bit(land);
            if occ & bit(nb[d]) != 0 && (occ | visited | !allowed) & lb == 0 {
                visited |= lb;
                queue[tail] = land;
                tail += 1;
            }
        }
    }
    visited & !bit(from)
}

/// Every destination of the piece on `from`: steps and hop chains, each hole once.
#[inline]
pub fn targets(occ: u128, from: Cell) -> u128 {
    step_targets(occ, from) | hop_targets(occ, from)
}

/// The holes a move from `from` to `to` passes through, both ends included: the step, or the
/// shortest hop chain. `None` when `to` is not a destination of the piece on `from`.
pub fn path(occ: u128, from: Cell, to: Cell) -> Option<Vec<Cell>> {
    if occ & bit(from) == 0 || from == to || (to as usize) >= CELLS {
        return None;
    }
    if step_targets(occ, from) & bit(to) != 0 {
        return Some(vec![from, to]);
    }
    let g = geometry();
    let occ = occ & !bit(from);
    let mut parent = [NONE; CELLS];
    let mut visited = bit(from);
    let mut queue = [0u8; CELLS];
    queue[0] = from;
    let (mut head, mut tail) = (0usize, 1usize);
    while head < tail {
        let c = queue[head];
        head += 1;
        if c == to {
            let mut out = vec![to];
            let mut cur = to;
            while cur != from {
                cur = parent[cur as usize];
                out.push(cur);
            }
            out.reverse();
            return Some(out);
        }
        for d in 0..6 {
            let land = g.jumps[c as usize][d];
            if land == NONE {
                continue;
            }
            let over = g.neighbours[c as usize][d];
            if occ & bit(over) != 0 && (occ | visited) & bit(land) == 0 {
                visited |= bit(land);
                parent[land as usize] = c;
                queue[tail] = land;
                tail += 1;
            }
        }
    }
    None
}

/// Whether `a` to `b` is a single hop over an occupied hole into an empty one (`occ` as during
/// the chain: the mover's starting hole already emptied).
pub fn is_hop(occ: u128, a: Cell, b: Cell) -> bool {
    let g = geometry();
    (0..6).any(|d| {
        g.jumps[a as usize][d] == b
            && occ & bit(g.neighbours[a as usize][d]) != 0
            && occ & bit(b) == 0
    })
}

/// Calls `f(from, to)` for every move of the pieces in `mine` (a subset of `occ`).
#[inline]
pub fn for_each_move(occ: u128, mine: u128, mut f: impl FnMut(Cell, Cell)) {
    for from in Bits(mine) {
        for to in Bits(targets(occ, from)) {
            f(from, to);
        }
    }
}
