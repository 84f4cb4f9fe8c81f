//! Move generation: simple moves by bitboard shifts, capture sequences by depth-first search over
//! the neighbour tables, and move counting without building the list (bulk-counting perft).
//!
//! WCDF rules: capturing is compulsory but any capture sequence may be chosen; a sequence must be
//! completed; captured pieces are removed at the end of the sequence, so they still block landing
//! squares and cannot be jumped twice; a man that reaches the far row is crowned and its move ends.

use crate::board::{step, Bitboard, Board, Color, Dir, EVEN_ROWS, NEIGHBOUR, NO_SQUARE, ODD_ROWS};

/// The most jumps one capture sequence can have (the opponent has at most 12 pieces).
pub const MAX_JUMPS: usize = 12;

/// A move: a simple step, or a capture sequence with every jump direction kept, so two sequences
/// that take the same pieces along different paths (the king "windmill") are different moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: u8,
    to: u8,
    jumps: u8,
    /// Jump `i` goes in direction `(path >> 2i) & 3`.
    path: u32,
    captured: Bitboard,
}

impl Move {
    /// The square the piece leaves (1-32).
    #[inline]
    pub fn from(&self) -> u8 {
        self.from + 1
    }

    /// The square the piece ends on (1-32).
    #[inline]
    pub fn to(&self) -> u8 {
        self.to + 1
    }

    /// Whether the move is a capture.
    #[inline]
    pub fn is_capture(&self) -> bool {
        self.jumps > 0
    }

    /// The jump directions, two bits per jump (jump `i` in bits `2i..2i + 2`); 0 for a step.
    #[inline]
    pub fn jump_path(&self) -> u32 {
        self.path
    }

    /// The number of pieces captured.
    #[inline]
    pub fn num_captured(&self) -> u32 {
        self.jumps as u32
    }

    /// The captured squares (bit `i` = square `i + 1`).
    #[inline]
    pub fn captured(&self) -> Bitboard {
        self.captured
    }

    /// The squares visited: the start, then every landing square (1-32).
    pub fn squares(&self) -> Vec<u8> {
        let mut out = vec![self.from + 1];
        if self.jumps == 0 {
            out.push(self.to + 1);
            return out;
        }
        let mut sq = self.from;
        for i in 0..self.jumps as u32 {
            let dir = Dir::from_index(self.path >> (2 * i));
            let over = NEIGHBOUR[dir as usize][sq as usize];
            sq = NEIGHBOUR[dir as usize][over as usize];
            out.push(sq + 1);
        }
        out
    }
}

/// Jumpers of `movers` in `dir`: pieces with an opponent next to them in `dir` and an empty square
/// behind it.
#[inline(always)]
fn jumpers(movers: Bitboard, dir: Dir, opp: Bitboard, empty: Bitboard) -> Bitboard {
    let back = dir.opposite();
    movers & step(step(empty, back) & opp, back)
}

/// Shift groups for simple moves: (direction, source mask, shift; positive = left shift).
const SIMPLE: [(Dir, Bitboard, i32); 8] = [
    (Dir::DownLeft, EVEN_ROWS, 4),
    (Dir::DownLeft, ODD_ROWS & !0x1111_1111, 3),
    (Dir::DownRight, EVEN_ROWS & !0x8888_8888, 5),
    (Dir::DownRight, ODD_ROWS, 4),
    (Dir::UpLeft, EVEN_ROWS, -4),
    (Dir::UpLeft, ODD_ROWS & !0x1111_1111, -5),
    (Dir::UpRight, EVEN_ROWS & !0x8888_8888, -3),
    (Dir::UpRight, ODD_ROWS, -4),
];

struct CaptureCtx {
    from: u8,
    king: bool,
    crown: Bitboard,
    dirs: [Dir; 4],
    ndirs: usize,
    opp: Bitboard,
    occupied: Bitboard,
}

impl Board {
    #[inline(always)]
    fn movers(&self) -> (Bitboard, Bitboard, Bitboard) {
        let us = self.side.index();
        let own = self.pieces[us];
        (own, own & self.kings, self.pieces[1 - us])
    }

    /// Pieces of the side to move that can capture.
    #[inline]
    pub fn capturers(&self) -> Bitboard {
        let (own, kings, opp) = self.movers();
        let empty = self.empty();
        let [f0, f1] = self.side.forward();
        let [b0, b1] = self.side.opponent().forward();
        jumpers(own, f0, opp, empty)
            | jumpers(own, f1, opp, empty)
            | jumpers(kings, b0, opp, empty)
            | jumpers(kings, b1, opp, empty)
    }

    /// Whether the side to move must capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.capturers() != 0
    }

    /// Destinations of simple moves in one shift group, for the side to move.
    #[inline(always)]
    fn simple_targets(
        &self,
        dir: Dir,
        mask: Bitboard,
        shift: i32,
        own: Bitboard,
        kings: Bitboard,
        empty: Bitboard,
    ) -> Bitboard {
        let forward = self.side.forward();
        let movers = if dir == forward[0] || dir == forward[1] {
            own
        } else {
            kings
        };
        let src = movers & mask;
        let moved = if shift > 0 {
            src << shift
        } else {
            src >> (-shift)
        };
        moved & empty
    }

    /// Whether the side to move has any legal move.
    pub fn has_moves(&self) -> bool {
        let (own, kings, _) = self.movers();
        let empty = self.empty();
        let [f0, f1] = self.side.forward();
        let [b0, b1] = self.side.opponent().forward();
        (step(own, f0) | step(own, f1) | step(kings, b0) | step(kings, b1)) & empty != 0
            || self.has_capture()
    }

    /// Replaces `out` with every legal move (captures only, when one exists).
    pub fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        let capturers = self.capturers();
        if capturers != 0 {
            let mut set = capturers;
            while set != 0 {
                let sq = set.trailing_zeros() as u8;
                set &= set - 1;
                let ctx = self.capture_ctx(sq);
                capture_dfs(&ctx, sq, 0, 0, 0, &mut |m| out.push(m));
            }
            return;
        }
        let (own, kings, _) = self.movers();
        let empty = self.empty();
        for &(dir, mask, shift) in SIMPLE.iter() {
            let mut targets = self.simple_targets(dir, mask, shift, own, kings, empty);
            while targets != 0 {
                let to = targets.trailing_zeros() as i32;
                targets &= targets - 1;
                let from = to - shift;
                out.push(Move {
                    from: from as u8,
                    to: to as u8,
                    jumps: 0,
                    path: 0,
                    captured: 0,
                });
            }
        }
    }

    /// The number of legal moves, without building them (the leaves of a bulk-counting perft).
    pub fn count_moves(&self) -> u64 {
        let capturers = self.capturers();
        if capturers != 0 {
            let mut n = 0u64;
            let mut set = capturers;
            while set != 0 {
                let sq = set.trailing_zeros() as u8;
                set &= set - 1;
                let ctx = self.capture_ctx(sq);
                capture_dfs(&ctx, sq, 0, 0, 0, &mut |_| n += 1);
            }
            return n;
        }
        let (own, kings, _) = self.movers();
        let empty = self.empty();
        let [f0, f1] = self.side.forward();
        let [b0, b1] = self.side.opponent().forward();
        // Each direction maps pieces to distinct squares, so a popcount counts the moves.
        (step(own, f0) & empty).count_ones() as u64
            + (step(own, f1) & empty).count_ones() as u64
            + (step(kings, b0) & empty).count_ones() as u64
            + (step(kings, b1) & empty).count_ones() as u64
    }

    fn capture_ctx(&self, sq: u8) -> CaptureCtx {
        let (_, kings, opp) = self.movers();
        let king = kings & (1 << sq) != 0;
        let [f0, f1] = self.side.forward();
        let [b0, b1] = self.side.opponent().forward();
        CaptureCtx {
            from: sq,
            king,
            crown: self.side.crown_row(),
            dirs: [f0, f1, b0, b1],
            ndirs: if king { 4 } else { 2 },
            opp,
            // The mover has left its square; captured pieces stay until the sequence ends.
            occupied: self.occupied() & !(1 << sq),
        }
    }

    /// Applies `mv` (legal here) to a copy.
    #[inline]
    pub fn play(&self, mv: Move) -> Board {
        let mut b = *self;
        b.make(mv);
        b
    }

    /// Applies `mv` (legal here) in place, updating the Zobrist key.
    #[inline]
    pub fn make(&mut self, mv: Move) {
        let us = self.side;
        let them = us.opponent();
        let fb = 1u32 << mv.from;
        let tb = 1u32 << mv.to;
        let was_king = self.kings & fb != 0;
        let is_king = was_king || tb & us.crown_row() != 0;
        let mut h = self.hash ^ piece_key_pair(us, was_king, mv.from, is_king, mv.to);
        self.pieces[us.index()] = (self.pieces[us.index()] & !fb) | tb;
        self.kings &= !fb;
        if is_king {
            self.kings |= tb;
        }
        let mut cap = mv.captured;
        while cap != 0 {
            let sq = cap.trailing_zeros() as u8;
            cap &= cap - 1;
            h ^= crate::board::piece_key(them, self.kings & (1 << sq) != 0, sq);
        }
        self.pieces[them.index()] &= !mv.captured;
        self.kings &= !mv.captured;
        self.side = them;
        self.hash = h ^ crate::board::WHITE_TO_MOVE_KEY;
    }

    /// Finds the legal move that goes through `squares` (1-32): the start, optionally some landing
    /// squares in order, and the end. A move whose full path is `squares` is the only match;
    /// otherwise every move that fits is returned (more than one means ambiguous).
    pub fn find_moves(&self, squares: &[u8], out: &mut Vec<Move>) {
        let mut legal = Vec::new();
        self.generate(&mut legal);
        out.clear();
        if squares.len() < 2 {
            return;
        }
        let first = squares[0];
        let last = squares[squares.len() - 1];
        for mv in legal {
            if mv.from() != first || mv.to() != last {
                continue;
            }
            let path = mv.squares();
            if path == squares {
                // The full path names exactly one move, even when it is also part of a longer one.
                out.clear();
                out.push(mv);
                return;
            }
            // The given squares must be a subsequence of the path that starts and ends with it.
            let mut it = path[1..path.len() - 1].iter();
            let inner = &squares[1..squares.len() - 1];
            if inner.iter().all(|s| it.any(|p| p == s)) {
                out.push(mv);
            }
        }
    }

    /// A move by its squares (1-32), if such a step or capture is legal: used by tests.
    pub fn move_by_squares(&self, squares: &[u8]) -> Option<Move> {
        let mut out = Vec::new();
        self.find_moves(squares, &mut out);
        (out.len() == 1).then(|| out[0])
    }
}

#[inline(always)]
fn piece_key_pair(us: Color, was_king: bool, from: u8, is_king: bool, to: u8) -> u64 {
    crate::board::piece_key(us, was_king, from) ^ crate::board::piece_key(us, is_king, to)
}

/// Extends a capture sequence from `sq`; calls `emit` with every completed sequence.
fn capture_dfs(
    ctx: &CaptureCtx,
    sq: u8,
    captured: Bitboard,
    path: u32,
    jumps: u8,
    emit: &mut impl FnMut(Move),
) {
    let mut extended = false;
    for &dir in &ctx.dirs[..ctx.ndirs] {
        let over = NEIGHBOUR[dir as usize][sq as usize];
        if over == NO_SQUARE {
            continue;
        }
        let land = NEIGHBOUR[dir as usize][over as usize];
        if land == NO_SQUARE {
            continue;
        }
        let ob = 1u32 << over;
        let lb = 1u32 << land;
        if ctx.opp & ob == 0 || captured & ob != 0 || ctx.occupied & lb != 0 {
            continue;
        }
        extended = true;
        let captured = captured | ob;
        let path = path | (dir as u32) << (2 * jumps as u32);
        let jumps = jumps + 1;
        if !ctx.king && lb & ctx.crown != 0 {
            // A man reaching the far row is crowned and the move ends there.
            emit(Move {
                from: ctx.from,
                to: land,
                jumps,
                path,
                captured,
            });
        } else {
            capture_dfs(ctx, land, captured, path, jumps, emit);
        }
    }
    if !extended && jumps > 0 {
        emit(Move {
            from: ctx.from,
            to: sq,
            jumps,
            path,
            captured,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_has_seven_moves() {
        let b = Board::start();
        let mut moves = Vec::new();
        b.generate(&mut moves);
        assert_eq!(moves.len(), 7);
        assert_eq!(b.count_moves(), 7);
        let mut pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from(), m.to())).collect();
        pairs.sort();
        assert_eq!(
            pairs,
            vec![
                (9, 13),
                (9, 14),
                (10, 14),
                (10, 15),
                (11, 15),
                (11, 16),
                (12, 16)
            ]
        );
    }
}
