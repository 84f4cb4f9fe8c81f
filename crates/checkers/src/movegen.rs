//! Move generation: simple moves by bitboard shifts, capture sequences by depth-first search
//! (one shift per jump), and move counting without building the list (bulk-counting perft). The
//! hot code is compiled once per side to move (a `Side` type) and reports moves to a visitor.
//!
//! WCDF rules: capturing is compulsory but any capture sequence may be chosen; a sequence must be
//! completed; captured pieces are removed at the end of the sequence, so they still block landing
//! squares and cannot be jumped twice; a man that reaches the far row is crowned and its move ends.

use crate::board::{
    step, Bitboard, Board, Color, Dir, EVEN_ROWS, FIRST_OF_ROW, LAST_OF_ROW, NEIGHBOUR, ODD_ROWS,
};

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

/// The side to move as a type, so that every direction, mask and crowning row in the generator
/// folds to a constant (one copy of the hot code per colour instead of branches on the side).
pub(crate) trait Side {
    /// The other side.
    type Opp: Side;
    /// The side as a value.
    const COLOR: Color;
    /// The two directions a man moves in.
    const FORWARD: [Dir; 2];
    /// The two directions only a king moves in.
    const BACKWARD: [Dir; 2];
    /// Where this side's men are crowned.
    const CROWN: Bitboard;
}

/// Black to move.
pub(crate) struct BlackToMove;
/// White to move.
pub(crate) struct WhiteToMove;

impl Side for BlackToMove {
    type Opp = WhiteToMove;
    const COLOR: Color = Color::Black;
    const FORWARD: [Dir; 2] = [Dir::DownLeft, Dir::DownRight];
    const BACKWARD: [Dir; 2] = [Dir::UpLeft, Dir::UpRight];
    const CROWN: Bitboard = crate::board::BLACK_CROWN_ROW;
}

impl Side for WhiteToMove {
    type Opp = BlackToMove;
    const COLOR: Color = Color::White;
    const FORWARD: [Dir; 2] = [Dir::UpLeft, Dir::UpRight];
    const BACKWARD: [Dir; 2] = [Dir::DownLeft, Dir::DownRight];
    const CROWN: Bitboard = crate::board::WHITE_CROWN_ROW;
}

/// A position seen from the side to move, without the Zobrist key: what the generator reads and
/// what perft copies from ply to ply.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sides {
    /// The pieces of the side to move.
    pub(crate) own: Bitboard,
    /// The pieces of the opponent.
    pub(crate) opp: Bitboard,
    /// The kings of both sides.
    pub(crate) kings: Bitboard,
}

impl Sides {
    /// The board seen from its side to move.
    #[inline(always)]
    pub(crate) fn of(board: &Board) -> Sides {
        let us = board.side.index();
        Sides {
            own: board.pieces[us],
            opp: board.pieces[1 - us],
            kings: board.kings,
        }
    }

    /// The position after `mv` (legal here, `S` to move), seen from the opponent.
    #[inline(always)]
    pub(crate) fn after<S: Side>(self, mv: Move) -> Sides {
        let fb = 1u32 << mv.from;
        let tb = 1u32 << mv.to;
        // All ones when the mover is a king: it stays one; a man is crowned on the far row.
        let was_king = ((self.kings >> mv.from) & 1).wrapping_neg();
        let crowned = tb & (S::CROWN | was_king);
        Sides {
            own: self.opp & !mv.captured,
            opp: (self.own & !fb) | tb,
            kings: (self.kings & !fb & !mv.captured) | crowned,
        }
    }

    /// Pieces of the side to move that can capture.
    #[inline(always)]
    pub(crate) fn capturers<S: Side>(self) -> Bitboard {
        let empty = !(self.own | self.opp);
        let [f0, f1] = S::FORWARD;
        let mut set =
            jumpers(self.own, f0, self.opp, empty) | jumpers(self.own, f1, self.opp, empty);
        let kings = self.own & self.kings;
        if kings != 0 {
            let [b0, b1] = S::BACKWARD;
            set |= jumpers(kings, b0, self.opp, empty) | jumpers(kings, b1, self.opp, empty);
        }
        set
    }

    /// Calls `emit` with every capture sequence of the pieces in `capturers` (non-empty), in the
    /// order of their squares.
    #[inline(always)]
    fn captures<S: Side>(self, capturers: Bitboard, emit: &mut impl FnMut(Move)) {
        let mut set = capturers;
        while set != 0 {
            let sq = set.trailing_zeros() as u8;
            set &= set - 1;
            let ctx = CaptureCtx {
                from: sq,
                opp: self.opp,
                // The mover has left its square; captured pieces stay until the sequence ends.
                empty: !(self.own | self.opp) | (1 << sq),
            };
            if self.kings & (1 << sq) != 0 {
                capture_dfs::<S, true>(&ctx, sq, 0, 0, 0, emit);
            } else {
                capture_dfs::<S, false>(&ctx, sq, 0, 0, 0, emit);
            }
        }
    }

    /// Calls `emit` with every legal move (captures only, when one exists), in the order of
    /// [`Board::generate`].
    #[inline(always)]
    pub(crate) fn for_each_move<S: Side>(self, emit: &mut impl FnMut(Move)) {
        let capturers = self.capturers::<S>();
        if capturers != 0 {
            self.captures::<S>(capturers, emit);
            return;
        }
        let empty = !(self.own | self.opp);
        let kings = self.own & self.kings;
        // Men move down (towards 32) for Black and up for White; kings both ways.
        let (down, up) = match S::COLOR {
            Color::Black => (self.own, kings),
            Color::White => (kings, self.own),
        };
        simple_group::<4>(down & EVEN_ROWS, empty, emit);
        simple_group::<3>(down & ODD_ROWS & !FIRST_OF_ROW, empty, emit);
        simple_group::<5>(down & EVEN_ROWS & !LAST_OF_ROW, empty, emit);
        simple_group::<4>(down & ODD_ROWS, empty, emit);
        if up != 0 {
            simple_group::<-4>(up & EVEN_ROWS, empty, emit);
            simple_group::<-5>(up & ODD_ROWS & !FIRST_OF_ROW, empty, emit);
            simple_group::<-3>(up & EVEN_ROWS & !LAST_OF_ROW, empty, emit);
            simple_group::<-4>(up & ODD_ROWS, empty, emit);
        }
    }

    /// The number of legal moves, without building them: a popcount per direction when there is
    /// no capture, and the capture sequences of men counted a jump at a time for all men at once
    /// ([`men_sequences`]); only kings' captures are followed one by one.
    #[inline(always)]
    pub(crate) fn count_moves<S: Side>(self) -> u64 {
        let empty = !(self.own | self.opp);
        let [f0, f1] = S::FORWARD;
        let kings = self.own & self.kings;
        let men = self.own & !self.kings;
        // The first jump of every man, one set per direction: each landing square is one jump.
        let land0 = step(step(men, f0) & self.opp, f0) & empty;
        let land1 = step(step(men, f1) & self.opp, f1) & empty;
        let king_capturers = if kings != 0 {
            let [b0, b1] = S::BACKWARD;
            jumpers(kings, f0, self.opp, empty)
                | jumpers(kings, f1, self.opp, empty)
                | jumpers(kings, b0, self.opp, empty)
                | jumpers(kings, b1, self.opp, empty)
        } else {
            0
        };
        if land0 | land1 | king_capturers != 0 {
            let mut n = 0u64;
            if land0 | land1 != 0 {
                n = men_sequences::<S>(land0, self.opp, empty)
                    + men_sequences::<S>(land1, self.opp, empty);
            }
            if king_capturers != 0 {
                self.captures::<S>(king_capturers, &mut |_| n += 1);
            }
            return n;
        }
        // Each direction maps pieces to distinct squares, so a popcount counts the moves.
        let mut n =
            (step(self.own, f0) & empty).count_ones() + (step(self.own, f1) & empty).count_ones();
        if kings != 0 {
            let [b0, b1] = S::BACKWARD;
            n += (step(kings, b0) & empty).count_ones() + (step(kings, b1) & empty).count_ones();
        }
        n as u64
    }
}

/// The number of capture sequences of men that have so far jumped along the same directions and
/// stand on the squares of `landed` (one square per sequence: the same directions from different
/// squares end on different squares).
///
/// A man only jumps forward, so the pieces it has taken are behind it and its start square is
/// never a landing square: every sequence continues on the board as it was, and the sequences of
/// one set extend together, by one shift per direction. A sequence ends where no jump follows; a
/// man on the crowning row (crowned, its move over) has no square forward, so it ends there too.
#[inline(always)]
fn men_sequences<S: Side>(landed: Bitboard, opp: Bitboard, empty: Bitboard) -> u64 {
    let [f0, f1] = S::FORWARD;
    let next0 = step(step(landed, f0) & opp, f0) & empty;
    let next1 = step(step(landed, f1) & opp, f1) & empty;
    if next0 | next1 == 0 {
        return landed.count_ones() as u64;
    }
    // The squares that jump again, by stepping the landings back.
    let back0 = step(step(next0, f0.opposite()), f0.opposite());
    let back1 = step(step(next1, f1.opposite()), f1.opposite());
    (landed & !(back0 | back1)).count_ones() as u64
        + longer_men_sequences::<S>(next0, opp, empty)
        + longer_men_sequences::<S>(next1, opp, empty)
}

/// [`men_sequences`] past the second jump (rare: a separate function, so the common case stays
/// small once inlined).
fn longer_men_sequences<S: Side>(landed: Bitboard, opp: Bitboard, empty: Bitboard) -> u64 {
    if landed == 0 {
        return 0;
    }
    men_sequences::<S>(landed, opp, empty)
}

/// Simple moves of the pieces in `src` (already masked to those that stay on the board) by one
/// shift (`SHIFT > 0`: left, towards 32) onto empty squares.
#[inline(always)]
fn simple_group<const SHIFT: i32>(src: Bitboard, empty: Bitboard, emit: &mut impl FnMut(Move)) {
    let mut targets = if SHIFT > 0 {
        src << SHIFT
    } else {
        src >> -SHIFT
    } & empty;
    while targets != 0 {
        let to = targets.trailing_zeros() as i32;
        targets &= targets - 1;
        emit(Move {
            from: (to - SHIFT) as u8,
            to: to as u8,
            jumps: 0,
            path: 0,
            captured: 0,
        });
    }
}

/// What a capture sequence needs besides where it stands.
struct CaptureCtx {
    from: u8,
    opp: Bitboard,
    empty: Bitboard,
}

impl Board {
    /// Pieces of the side to move that can capture.
    #[inline]
    pub fn capturers(&self) -> Bitboard {
        let s = Sides::of(self);
        match self.side {
            Color::Black => s.capturers::<BlackToMove>(),
            Color::White => s.capturers::<WhiteToMove>(),
        }
    }

    /// Whether the side to move must capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.capturers() != 0
    }

    /// Pieces of the side *not* to move that could capture if it were its turn: the captures it
    /// threatens. A search uses it to see a threat at its horizon.
    #[inline]
    pub fn threats(&self) -> Bitboard {
        let us = self.side.index();
        let s = Sides {
            own: self.pieces[1 - us],
            opp: self.pieces[us],
            kings: self.kings,
        };
        match self.side {
            Color::Black => s.capturers::<WhiteToMove>(),
            Color::White => s.capturers::<BlackToMove>(),
        }
    }

    /// Whether the side to move has any legal move.
    pub fn has_moves(&self) -> bool {
        let own = self.pieces[self.side.index()];
        let kings = own & self.kings;
        let empty = self.empty();
        let [f0, f1] = self.side.forward();
        let [b0, b1] = self.side.opponent().forward();
        (step(own, f0) | step(own, f1) | step(kings, b0) | step(kings, b1)) & empty != 0
            || self.has_capture()
    }

    /// Replaces `out` with every legal move (captures only, when one exists).
    pub fn generate(&self, out: &mut Vec<Move>) {
        out.clear();
        let s = Sides::of(self);
        let mut push = |m| out.push(m);
        match self.side {
            Color::Black => s.for_each_move::<BlackToMove>(&mut push),
            Color::White => s.for_each_move::<WhiteToMove>(&mut push),
        }
    }

    /// The number of legal moves, without building them (the leaves of a bulk-counting perft).
    pub fn count_moves(&self) -> u64 {
        let s = Sides::of(self);
        match self.side {
            Color::Black => s.count_moves::<BlackToMove>(),
            Color::White => s.count_moves::<WhiteToMove>(),
        }
    }

    /// The position after up to `plies` uniformly random legal moves from this one (fewer when
    /// the side to move has none): seeded random positions for tests and varied openings.
    pub fn random_walk(&self, plies: usize, rng: &mut qiyi_core::Rng) -> Board {
        let mut board = *self;
        let mut moves = Vec::new();
        for _ in 0..plies {
            board.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            board = board.play(moves[rng.below(moves.len())]);
        }
        board
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

/// Extends a capture sequence from `sq` (`KING`: the mover is a king and jumps in all four
/// directions); calls `emit` with every completed sequence.
fn capture_dfs<S: Side, const KING: bool>(
    ctx: &CaptureCtx,
    sq: u8,
    captured: Bitboard,
    path: u32,
    jumps: u8,
    emit: &mut impl FnMut(Move),
) {
    let at = 1u32 << sq;
    let [f0, f1] = S::FORWARD;
    // Unrolled by hand: a loop over the directions compiles to a jump table on the direction.
    let mut extended = jump::<S, KING>(ctx, at, f0, captured, path, jumps, emit);
    extended |= jump::<S, KING>(ctx, at, f1, captured, path, jumps, emit);
    if KING {
        let [b0, b1] = S::BACKWARD;
        extended |= jump::<S, KING>(ctx, at, b0, captured, path, jumps, emit);
        extended |= jump::<S, KING>(ctx, at, b1, captured, path, jumps, emit);
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

/// One jump of a capture sequence from `at` in `dir`, if there is an opponent not yet jumped
/// next to it and an empty square behind; continues the sequence from there. Returns whether it
/// jumped.
#[inline(always)]
fn jump<S: Side, const KING: bool>(
    ctx: &CaptureCtx,
    at: Bitboard,
    dir: Dir,
    captured: Bitboard,
    path: u32,
    jumps: u8,
    emit: &mut impl FnMut(Move),
) -> bool {
    let over = step(at, dir) & ctx.opp & !captured;
    let land = step(over, dir) & ctx.empty;
    if land == 0 {
        return false;
    }
    let captured = captured | over;
    let path = path | (dir as u32) << (2 * jumps as u32);
    let jumps = jumps + 1;
    let to = land.trailing_zeros() as u8;
    if !KING && land & S::CROWN != 0 {
        // A man reaching the far row is crowned and the move ends there.
        emit(Move {
            from: ctx.from,
            to,
            jumps,
            path,
            captured,
        });
    } else {
        capture_dfs::<S, KING>(ctx, to, captured, path, jumps, emit);
    }
    true
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

    /// `count_moves` counts the sequences of men a jump at a time for all men at once: it must
    /// agree with the generator at every ply of many random games, multi-jumps and kings included.
    #[test]
    fn counting_agrees_with_generating_along_random_games() {
        let mut rng = qiyi_core::rng::Rng::new(26);
        let mut moves = Vec::new();
        let (mut positions, mut man_multi, mut king_captures) = (0, 0, 0);
        for _ in 0..400 {
            let mut b = Board::start();
            for _ in 0..150 {
                b.generate(&mut moves);
                assert_eq!(b.count_moves(), moves.len() as u64, "{b:?}");
                positions += 1;
                for m in &moves {
                    let king = b.kings() & (1 << (m.from() - 1)) != 0;
                    man_multi += (!king && m.num_captured() >= 2) as u32;
                    king_captures += (king && m.is_capture()) as u32;
                }
                if moves.is_empty() {
                    break;
                }
                b = b.play(moves[rng.below(moves.len())]);
            }
        }
        assert!(positions > 10_000, "{positions} positions");
        assert!(man_multi > 100, "{man_multi} multi-jumps of men");
        assert!(king_captures > 100, "{king_captures} king captures");
    }

    #[test]
    fn random_walks_are_seeded_and_stop_without_moves() {
        use qiyi_core::Rng;
        let start = Board::start();
        assert_eq!(start.random_walk(0, &mut Rng::new(1)), start);
        let a = start.random_walk(30, &mut Rng::new(5));
        assert_eq!(a, start.random_walk(30, &mut Rng::new(5)));
        assert_ne!(a, start);
        // White has no piece: no move, the walk stays put.
        let lost = Board::new(1, 0, 0, Color::White).expect("valid board");
        assert_eq!(lost.random_walk(5, &mut Rng::new(5)), lost);
    }
}
