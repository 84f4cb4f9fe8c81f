//! Integer action ids and an observation tensor, for learning front ends (the Python package).
//!
//! Action id of a move: `from * 121 + to` with holes by their index (0..121, see
//! [`crate::board`]); the pass (legal only for a player without another move) is
//! `121 * 121`. Ids lie in `0..NUM_ACTIONS` and do not depend on the position.
//!
//! Observation: `[players, 121]` (see [`observation_shape`]): plane `k` marks the pieces of the
//! player `k` seats after the one to move, so plane 0 is always the mover's own pieces.

use crate::board::CELLS;
use crate::position::{Move, Position};
use qiyi_core::Game;

/// The number of distinct action ids: every (from, to) pair and the pass.
pub const NUM_ACTIONS: usize = CELLS * CELLS + 1;

/// The action id of `mv`.
pub fn action_id(mv: Move) -> u32 {
    if mv.is_pass() {
        (CELLS * CELLS) as u32
    } else {
        mv.from as u32 * CELLS as u32 + mv.to as u32
    }
}

/// The shape of [`observation`] for `players` players: planes, holes.
pub fn observation_shape(players: usize) -> [usize; 2] {
    [players, CELLS]
}

/// Writes the observation of `pos` into `out` (length players * 121); returns false (writing
/// nothing) when `out` has another length.
pub fn observation(pos: &Position, out: &mut [f32]) -> bool {
    let n = pos.num_players();
    if out.len() != n * CELLS {
        return false;
    }
    out.fill(0.0);
    let me = pos.to_move();
    for k in 0..n {
        let mut bits = pos.pieces((me + k) % n);
        while bits != 0 {
            let cell = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out[k * CELLS + cell] = 1.0;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Options;
    use qiyi_core::Notation;

    #[test]
    fn ids_and_observation() {
        let pos = Position::start(Options::players(3).unwrap()).unwrap();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut ids: Vec<u32> = moves.iter().map(|&m| action_id(m)).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), moves.len());
        assert!(ids.iter().all(|&i| (i as usize) < NUM_ACTIONS));
        assert_eq!(action_id(Move::PASS) as usize, NUM_ACTIONS - 1);
        let mut out = vec![0.0; 3 * CELLS];
        assert!(observation(&pos, &mut out));
        for k in 0..3 {
            assert_eq!(out[k * CELLS..(k + 1) * CELLS].iter().sum::<f32>(), 10.0);
        }
        let next = pos.after(pos.parse_move("n1-m5").unwrap());
        assert!(observation(&next, &mut out));
        // The mover's plane is now player 1's pieces.
        assert_eq!(out[next.pieces(1).trailing_zeros() as usize], 1.0);
        assert!(!observation(&pos, &mut out[..5]));
    }
}
