//! Integer action ids and an observation tensor, for learning front ends (the Python package).
//!
//! A move is one jump; its action id is its index in [`Board::jumps`], fixed for the board, so
//! ids lie in `0..board.jumps().len()`. The observation is one value per hole (index order of
//! [`Board::hole_name`]): 1 for a peg, 0 for an empty hole.

use crate::board::Board;
use crate::position::PegPosition;

/// The number of distinct action ids on `board`.
pub fn num_actions(board: &Board) -> usize {
    board.jumps().len()
}

/// Writes the pegs of `pos` into `out` (length: the board's holes); returns false (writing
/// nothing) when `out` has another length.
pub fn observation(pos: &PegPosition, out: &mut [f32]) -> bool {
    let n = pos.board().len();
    if out.len() != n {
        return false;
    }
    let pegs = pos.pegs();
    for (i, o) in out.iter_mut().enumerate() {
        *o = ((pegs >> i) & 1) as f32;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn english_board() {
        let board = Arc::new(Board::named("english").unwrap());
        assert_eq!(num_actions(&board), 76);
        let pos = PegPosition::start(board);
        let mut out = vec![0.0; 33];
        assert!(observation(&pos, &mut out));
        assert_eq!(out.iter().sum::<f32>(), 32.0);
        assert!(!observation(&pos, &mut out[..3]));
    }
}
