//! Integer action ids and an observation tensor, for learning front ends (the Python package).
//!
//! A move is a whole step or capture sequence (as in PDN), not one jump. Its action id is
//! `variant * 1024 + (from - 1) * 32 + (to - 1)` with squares 1-32: `variant` is 0 except when
//! several legal capture sequences share the same start and end square (a king going round a loop
//! either way), where the sequences are numbered 0, 1, ... in the order of their jump directions.
//! Ids therefore lie in `0..NUM_ACTIONS` and, for every move but such loops, do not depend on the
//! position. A position with more than [`MAX_VARIANTS`] such sequences (none is known) would give
//! ids beyond the range, which [`action_id`] reports as `None`.
//!
//! Observation: [`OBSERVATION_SHAPE`] = 5 planes of the 32 dark squares (square `s` at index
//! `s - 1`): Black men, Black kings, White men, White kings, and all ones when Black is to move.

use crate::board::Color;
use crate::movegen::Move;
use crate::rules::Checkers;

/// Capture sequences with the same start and end square that get distinct ids.
pub const MAX_VARIANTS: usize = 8;

/// The number of distinct action ids.
pub const NUM_ACTIONS: usize = 1024 * MAX_VARIANTS;

/// The shape of [`observation`]: planes, squares.
pub const OBSERVATION_SHAPE: [usize; 2] = [5, 32];

/// The id of `mv` among the legal moves `legal` (which contain it); `None` past the range.
pub fn action_id(legal: &[Move], mv: Move) -> Option<u32> {
    let base = (mv.from() as u32 - 1) * 32 + mv.to() as u32 - 1;
    let variant = if mv.is_capture() {
        legal
            .iter()
            .filter(|m| {
                m.from() == mv.from() && m.to() == mv.to() && m.jump_path() < mv.jump_path()
            })
            .count()
    } else {
        0
    };
    (variant < MAX_VARIANTS).then(|| variant as u32 * 1024 + base)
}

/// Writes the observation of `pos` into `out` (length 5 * 32); returns false (writing nothing)
/// when `out` has another length.
pub fn observation(pos: &Checkers, out: &mut [f32]) -> bool {
    if out.len() != 5 * 32 {
        return false;
    }
    out.fill(0.0);
    let b = pos.board();
    for sq in 1..=32u8 {
        if let Some((color, king)) = b.piece_at(sq) {
            let plane = 2 * color.index() + king as usize;
            out[plane * 32 + sq as usize - 1] = 1.0;
        }
    }
    if b.side_to_move() == Color::Black {
        out[4 * 32..].fill(1.0);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::{Game, Notation};

    fn ids(pos: &Checkers) -> Vec<u32> {
        let legal = pos.moves();
        legal
            .iter()
            .map(|&m| action_id(&legal, m).unwrap())
            .collect()
    }

    #[test]
    fn start_ids() {
        let pos = Checkers::start();
        let mv = pos.parse_move("11-15").unwrap();
        assert_eq!(action_id(&pos.moves(), mv), Some(10 * 32 + 14));
        let mut all = ids(&pos);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 7);
    }

    #[test]
    fn ids_are_distinct_over_random_games() {
        let mut rng = qiyi_core::Rng::new(27);
        let mut variants = 0;
        for _ in 0..300 {
            let mut pos = Checkers::start();
            while !pos.is_over() {
                let mut all = ids(&pos);
                variants += all.iter().filter(|&&i| i >= 1024).count();
                let n = all.len();
                all.sort_unstable();
                all.dedup();
                assert_eq!(all.len(), n, "{}", pos.to_text());
                assert!(all.iter().all(|&i| (i as usize) < NUM_ACTIONS));
                let legal = pos.moves();
                pos.make(legal[rng.below(legal.len())]);
            }
        }
        // Loops are rare; the count is printed for curiosity, not asserted.
        println!("moves with a variant > 0: {variants}");
    }

    #[test]
    fn observation_counts_pieces() {
        let mut out = vec![0.0; 160];
        assert!(observation(&Checkers::start(), &mut out));
        assert_eq!(out[..128].iter().sum::<f32>(), 24.0);
        assert_eq!(out[128], 1.0);
    }
}
