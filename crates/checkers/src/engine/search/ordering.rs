//! Move-ordering memory of the checkers search: killers per ply, a history score per (side,
//! piece kind, from, to), the counter-move that refuted the opponent's last move, and the
//! late-move-reduction table.

use crate::board::Board;
use crate::movegen::Move;

/// The deepest ply the search reaches (extensions included).
pub const MAX_PLY: usize = 128;

/// History scores stay within ±this (the "gravity" update keeps them there without clamping).
const HISTORY_MAX: i32 = 1 << 14;

/// The ordering tables, kept between the moves of a game and halved at each new search.
#[derive(Clone)]
pub struct Tables {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    counter: Vec<Option<Move>>,
}

impl Default for Tables {
    fn default() -> Self {
        Tables {
            killers: vec![[None, None]; MAX_PLY + 2],
            history: vec![0; 2 * 2 * 32 * 32],
            counter: vec![None; 2 * 32 * 32],
        }
    }
}

/// The history slot of a quiet move: side to move, whether a king moves, from, to.
#[inline]
fn history_slot(board: &Board, mv: Move) -> usize {
    let from = usize::from(mv.from() - 1);
    let to = usize::from(mv.to() - 1);
    let king = usize::from(board.kings() & (1 << from) != 0);
    ((board.side_to_move().index() * 2 + king) * 32 + from) * 32 + to
}

/// The counter-move slot of the opponent's last move (side to move now, its from and to).
#[inline]
fn counter_slot(board: &Board, prev: Move) -> usize {
    (board.side_to_move().index() * 32 + usize::from(prev.from() - 1)) * 32
        + usize::from(prev.to() - 1)
}

impl Tables {
    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        *self = Tables::default();
    }

    /// Ages the tables before a new search: killers go (they belong to other plies now),
    /// history scores are halved.
    pub fn age(&mut self) {
        for k in &mut self.killers {
            *k = [None, None];
        }
        for h in &mut self.history {
            *h /= 2;
        }
    }

    /// The killers of `ply`.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn history(&self, board: &Board, mv: Move) -> i32 {
        self.history[history_slot(board, mv)]
    }

    /// The move that last refuted `prev` (the opponent's last move), if any.
    #[inline]
    pub fn counter(&self, board: &Board, prev: Option<Move>) -> Option<Move> {
        prev.and_then(|p| self.counter[counter_slot(board, p)])
    }

    /// A quiet move caused a cut-off at `ply` and `depth`: it becomes a killer and the
    /// counter-move of `prev`, its history rises and the quiet moves searched before it fall.
    pub fn reward(
        &mut self,
        board: &Board,
        mv: Move,
        prev: Option<Move>,
        ply: usize,
        depth: i32,
        tried_before: impl Iterator<Item = Move>,
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(mv) {
            k[1] = k[0];
            k[0] = Some(mv);
        }
        if let Some(p) = prev {
            self.counter[counter_slot(board, p)] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        self.bump(history_slot(board, mv), bonus);
        for other in tried_before {
            self.bump(history_slot(board, other), -bonus);
        }
    }

    /// `h += bonus − h·|bonus| / MAX`: scores approach ±MAX and never pass it.
    #[inline]
    fn bump(&mut self, slot: usize, bonus: i32) {
        let h = &mut self.history[slot];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

/// Late-move reductions by depth and move number (`[depth][moves searched]`, both capped at 63).
#[derive(Clone)]
pub struct Reductions {
    table: Vec<[u8; 64]>,
}

impl Reductions {
    /// `round(ln d × ln m / divisor)`, with `divisor` in tenths.
    pub fn new(divisor_tenths: u32) -> Reductions {
        let div = f64::from(divisor_tenths.max(1)) / 10.0;
        let mut table = vec![[0u8; 64]; 64];
        for (d, row) in table.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                let v = (d as f64).ln() * (m as f64).ln() / div;
                *r = v.round().clamp(0.0, 20.0) as u8;
            }
        }
        Reductions { table }
    }

    /// The reduction of the `searched`-th move (0-based) at `depth`.
    #[inline]
    pub fn get(&self, depth: i32, searched: usize) -> i32 {
        let d = depth.clamp(0, 63) as usize;
        let m = (searched + 1).min(63);
        i32::from(self.table[d][m])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_stays_bounded_and_rewards_cutoffs() {
        let b = Board::start();
        let mut moves = Vec::new();
        b.generate(&mut moves);
        let mut t = Tables::default();
        for _ in 0..10_000 {
            t.reward(&b, moves[0], None, 3, 30, moves[1..3].iter().copied());
        }
        assert!(t.history(&b, moves[0]) > 0 && t.history(&b, moves[0]) <= HISTORY_MAX);
        assert!(t.history(&b, moves[1]) < 0 && t.history(&b, moves[1]) >= -HISTORY_MAX);
        assert_eq!(t.killers(3)[0], Some(moves[0]));
        t.age();
        assert_eq!(t.killers(3), [None, None]);
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let r = Reductions::new(25);
        assert_eq!(r.get(1, 5), 0);
        assert!(r.get(12, 10) > r.get(4, 10));
        assert!(r.get(12, 10) > r.get(12, 2));
    }
}
