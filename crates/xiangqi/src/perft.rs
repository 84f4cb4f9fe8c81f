//! Perft: counting the leaves of the legal-move tree, the standard test of a move generator.
//!
//! [`perft`] counts the legal moves at the last ply without playing them ("bulk counting");
//! [`perft_full`] plays and takes back every move down to depth 0 (the full make/unmake cost).
//! Both use board rules only (no repetition verdicts), as published perft counts do.

use crate::movegen::MoveList;
use crate::position::{Move, Position};

/// Leaf count at `depth` with bulk counting at the last ply.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal() as u64;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut nodes = 0;
    for &mv in list.as_slice() {
        let undo = pos.make(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake(mv, undo);
    }
    nodes
}

/// Leaf count at `depth`, making and unmaking every move including the last ply.
pub fn perft_full(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut nodes = 0;
    for &mv in list.as_slice() {
        let undo = pos.make(mv);
        nodes += perft_full(pos, depth - 1);
        pos.unmake(mv, undo);
    }
    nodes
}

/// Leaf counts below each legal root move ("divide"), in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    pos.generate_legal(&mut list);
    let mut out = Vec::with_capacity(list.len());
    for &mv in list.as_slice() {
        let undo = pos.make(mv);
        let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
        pos.unmake(mv, undo);
        out.push((mv, n));
    }
    out
}
