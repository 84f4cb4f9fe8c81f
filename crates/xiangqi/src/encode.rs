//! Integer action ids and an observation tensor, for learning front ends (the Python package).
//!
//! Action id of a move: `from * 90 + to`, both points by their compact index (`rank * 9 + file`,
//! a0 = 0, i9 = 89), so ids lie in `0..NUM_ACTIONS` and never depend on the position.
//!
//! Observation: [`OBSERVATION_SHAPE`] = 15 planes of 10 ranks x 9 files; plane `kind` holds Red's
//! pieces of that [`PieceKind`](crate::board::PieceKind) (index order), plane `7 + kind` Black's, plane 14 is all ones
//! when Red is to move.

use crate::board::{Color, Square};
use crate::position::{Move, Position};

/// The number of distinct action ids (90 x 90).
pub const NUM_ACTIONS: usize = 90 * 90;

/// The shape of [`observation`]: planes, ranks, files.
pub const OBSERVATION_SHAPE: [usize; 3] = [15, 10, 9];

/// The action id of `mv`.
pub fn action_id(mv: Move) -> u32 {
    (mv.from().index() * 90 + mv.to().index()) as u32
}

/// Writes the observation of `pos` into `out` (length 15 * 90); returns false (writing nothing)
/// when `out` has another length.
pub fn observation(pos: &Position, out: &mut [f32]) -> bool {
    if out.len() != 15 * 90 {
        return false;
    }
    out.fill(0.0);
    for i in 0..90u8 {
        let Some(sq) = Square::from_index(i) else {
            continue;
        };
        if let Some((kind, color)) = pos.piece_at(sq) {
            out[(color.index() * 7 + kind as usize) * 90 + i as usize] = 1.0;
        }
    }
    if pos.side_to_move() == Color::Red {
        out[14 * 90..].fill(1.0);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::Game;

    #[test]
    fn ids_are_distinct_and_in_range() {
        let pos = Position::start();
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut ids: Vec<u32> = moves.iter().map(|&m| action_id(m)).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 44);
        assert!(ids.iter().all(|&i| (i as usize) < NUM_ACTIONS));
        let h2e2 = pos.parse_move_text("h2e2").unwrap();
        // h2 = rank 2 file 7 = 25, e2 = 22.
        assert_eq!(action_id(h2e2), 25 * 90 + 22);
    }

    #[test]
    fn observation_counts_pieces() {
        let pos = Position::start();
        let mut out = vec![0.0; 15 * 90];
        assert!(observation(&pos, &mut out));
        let pieces: f32 = out[..14 * 90].iter().sum();
        assert_eq!(pieces, 32.0);
        assert_eq!(out[14 * 90], 1.0);
        assert!(!observation(&pos, &mut [0.0; 3]));
    }
}
