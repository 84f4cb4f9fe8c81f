//! Move generation on a bare occupancy bitboard: steps, and hop chains.
//!
//! A move is a step to an adjacent empty hole, or a chain of hops: each hop jumps over one
//! adjacent piece (of any colour) into the empty hole directly beyond, and a chain never visits a
//! hole twice (its starting hole included). While the chain is under way the moving piece's
//! starting hole is empty, so no hop can jump over it. Moves are deduplicated by destination: a
//! hole reachable by a step and by a chain is one move, and the path kept for display is the
//! step, or the chain with the fewest hops (the first one a breadth-first search finds).
//!
//! # How the destinations are found
//!
//! Tables built at compile time give every hole its neighbours as one bit mask, the neighbours
//! with a hole beyond them (the possible hurdles) as a 32-bit window of the holes around it, and
//! the landing hole beyond each hurdle. A piece's steps are then one mask operation, and its hop
//! chains a flood fill whose frontier and visited set are `u128` masks; from each reached hole
//! only the occupied hurdles are looked at, and nothing is allocated.

use crate::board::{bit, geometry, Bits, Cell, Geometry, CELLS, GEOM, NONE};

/// Every hole of the board.
pub const ALL: u128 = (1u128 << CELLS) - 1;

/// Offset added to `hurdle - hole` (hole indices) to index [`Tables::land`]; neighbours are
/// fewer than 16 indices apart (checked when the tables are built).
const LAND_OFFSET: usize = 16;

/// The move generator's tables.
struct Tables {
    /// The neighbours of each hole.
    step: [u128; CELLS],
    /// The neighbours of each hole that have a hole beyond them (in the same direction), as a
    /// window: bit `h + LAND_OFFSET - c` for hurdle `h` of hole `c` (see [`window`]).
    hurdles: [u32; CELLS],
    /// `land[c][h + LAND_OFFSET - c]`: the hole beyond hurdle `h` seen from `c`.
    land: [[u8; 2 * LAND_OFFSET]; CELLS],
    /// The single-bit mask of each hole (a load is cheaper than a variable `u128` shift).
    bits: [u128; CELLS],
}

const fn build_tables(g: &Geometry) -> Tables {
    let mut t = Tables {
        step: [0; CELLS],
        hurdles: [0; CELLS],
        land: [[NONE; 2 * LAND_OFFSET]; CELLS],
        bits: [0; CELLS],
    };
    let mut c = 0;
    while c < CELLS {
        t.bits[c] = 1u128 << c;
        let mut d = 0;
        while d < 6 {
            let n = g.neighbours[c][d];
            if n != NONE {
                t.step[c] |= 1u128 << n;
                let j = g.jumps[c][d];
                if j != NONE {
                    let k = n as usize + LAND_OFFSET - c;
                    t.hurdles[c] |= 1u32 << k;
                    assert!(
                        k < 2 * LAND_OFFSET,
                        "neighbours too far apart for the land table"
                    );
                    assert!(t.land[c][k] == NONE, "two hurdles share a land table slot");
                    t.land[c][k] = j;
                }
            }
            d += 1;
        }
        c += 1;
    }
    t
}

static TABLES: Tables = build_tables(&GEOM);

/// The empty holes next to `from`.
#[inline]
pub fn step_targets(occ: u128, from: Cell) -> u128 {
    TABLES.step[from as usize] & !occ
}

/// The holes `c - LAND_OFFSET .. c + LAND_OFFSET` of `set` as the bits of a `u32` (holes off
/// the ends of the board as 0): the neighbourhood of `c` in the layout of [`Tables::land`].
#[inline(always)]
fn window(set: u128, c: usize) -> u32 {
    if c >= LAND_OFFSET {
        (set >> (c - LAND_OFFSET)) as u32
    } else {
        (set << (LAND_OFFSET - c)) as u32
    }
}

/// The holes one hop from `c` could land in over the pieces of `hurdles` (empty or not).
#[inline(always)]
fn single_hops(hurdles: u128, c: usize) -> u128 {
    let mut h = window(hurdles, c) & TABLES.hurdles[c];
    let mut out = 0u128;
    while h != 0 {
        let k = h.trailing_zeros() as usize;
        h &= h - 1;
        out |= TABLES.bits[TABLES.land[c][k] as usize];
    }
    out
}

/// The holes of `open` that chains of hops over `hurdles` reach from `start` (itself not
/// included unless a chain comes back to it through `open`).
#[inline(always)]
fn flood(hurdles: u128, open: u128, start: usize) -> u128 {
    let mut unvisited = open;
    let mut todo = 0u128;
    let mut c = start;
    loop {
        let new = single_hops(hurdles, c) & unvisited;
        unvisited ^= new;
        todo |= new;
        if todo == 0 {
            return open & !unvisited;
        }
        c = todo.trailing_zeros() as usize;
        todo &= todo - 1;
    }
}

/// Every hole a chain of one or more hops from `from` can end in (`occ` includes `from`).
#[inline]
pub fn hop_targets(occ: u128, from: Cell) -> u128 {
    hop_targets_within(occ, from, ALL)
}

/// Like [`hop_targets`], but landing only on holes of `allowed` (a smaller board).
#[inline]
pub fn hop_targets_within(occ: u128, from: Cell, allowed: u128) -> u128 {
    let start = bit(from);
    // During the chain the starting hole is empty (no hurdle), and it is never landed on.
    flood(occ & !start, !(occ | start) & allowed & ALL, from as usize)
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
