//! The position: mailbox board, piece squares, side to move, incremental Zobrist key, move
//! counters and the history needed for repetition rules; make and unmake with an undo record.

use crate::board::*;
use crate::eval::PSQ_TUNED;
use std::fmt;

/// A move from one point to another (capture or not). `Copy`, two bytes.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    pub(crate) from: u8,
    pub(crate) to: u8,
}

impl Move {
    /// The pass used by null-move search (never legal in a game).
    pub const NULL: Move = Move { from: 0, to: 0 };

    /// The move from `from` to `to` (legality is not checked).
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from: from.to_mailbox(),
            to: to.to_mailbox(),
        }
    }

    /// The point the piece leaves.
    #[inline]
    pub fn from(self) -> Square {
        Square::from_mailbox(self.from)
    }

    /// The point the piece arrives on.
    #[inline]
    pub fn to(self) -> Square {
        Square::from_mailbox(self.to)
    }

    /// Whether this is [`Move::NULL`].
    #[inline]
    pub fn is_null(self) -> bool {
        self.from == 0
    }
}

impl fmt::Display for Move {
    /// ICCS coordinates, e.g. `h2e2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_null() {
            return f.write_str("0000");
        }
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// What [`Position::unmake`] needs besides the move: the captured piece and the old counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    pub(crate) captured: u8,
    pub(crate) halfmove: u32,
    pub(crate) psq: i32,
}

/// One earlier position in the game record, for repetition and chase rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HistEntry {
    /// Zobrist key of the position before `mv`.
    pub(crate) hash: u64,
    /// The move played from it ([`Move::NULL`] for a pass).
    pub(crate) mv: Move,
    /// The piece code it captured (0 for none).
    pub(crate) captured: u8,
}

/// A Xiangqi position with its game record since it was set up.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: [u8; 256],
    /// Mailbox square of each piece code (index `code - 16`), 0 when absent.
    pub(crate) squares: [u8; 32],
    /// Occupied points of each rank, kept with the board for the evaluation's line scans:
    /// indexed by the mailbox row `sq >> 4`, bit `sq & 15` (so files a..i are bits 3..=11).
    pub(crate) rank_bits: [u16; 16],
    /// Occupied points of each file: indexed by the mailbox column `sq & 15`, bit `sq >> 4`
    /// (ranks 0..=9 are bits 3..=12).
    pub(crate) file_bits: [u16; 16],
    /// Material plus piece-square score of the tuned weights from Red's view, summed over the
    /// pieces and kept by make/unmake: middlegame and endgame packed as in
    /// [`crate::eval::PSQ_TUNED`].
    pub(crate) psq: i32,
    pub(crate) side: Color,
    pub(crate) hash: u64,
    /// Plies since the last capture.
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) history: Vec<HistEntry>,
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl Default for Position {
    fn default() -> Self {
        Position::start()
    }
}

/// The start position in FEN.
pub const START_FEN: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

impl Position {
    /// The standard start position.
    pub fn start() -> Position {
        match Position::from_fen(START_FEN) {
            Ok(p) => p,
            Err(e) => unreachable!("the start FEN is valid: {e}"),
        }
    }

    /// An empty board (no pieces) with Red to move; crate-internal building block.
    pub(crate) fn empty() -> Position {
        Position {
            board: EMPTY_BOARD,
            squares: [0; 32],
            rank_bits: [0; 16],
            file_bits: [0; 16],
            psq: 0,
            side: Color::Red,
            hash: 0,
            halfmove: 0,
            fullmove: 1,
            history: Vec::new(),
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<(PieceKind, Color)> {
        let c = self.board[sq.to_mailbox() as usize];
        if c == EMPTY {
            return None;
        }
        let color = if c & RED_BIT != 0 {
            Color::Red
        } else {
            Color::Black
        };
        Some((kind_from_code(CELL_KIND[c as usize]), color))
    }

    /// The square of `color`'s general.
    pub fn king_square(&self, color: Color) -> Square {
        Square::from_mailbox(self.squares[code_index(code_of(color, 0))])
    }

    /// Plies since the last capture (the 60-move rule counter).
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The move number (starts at 1, grows after Black moves).
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist key (kept incrementally).
    #[inline]
    pub fn zobrist(&self) -> u64 {
        self.hash
    }

    /// The moves played since the position was set up, oldest first.
    pub fn moves_played(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|h| h.mv)
    }

    /// The Zobrist key computed from the board alone.
    pub fn compute_hash(&self) -> u64 {
        let mut h = if self.side == Color::Black {
            ZOBRIST_SIDE
        } else {
            0
        };
        for (i, &sq) in self.squares.iter().enumerate() {
            if sq != 0 {
                h ^= zkey(i as u8 + 16, sq);
            }
        }
        h
    }

    /// Puts a piece in a free slot of its kind; returns false when the set has none left.
    pub(crate) fn put(&mut self, kind: PieceKind, color: Color, sq: Square) -> bool {
        let k = kind as usize;
        for slot in SLOT_START[k]..SLOT_START[k + 1] {
            let code = code_of(color, slot);
            if self.squares[code_index(code)] == 0 {
                let m = sq.to_mailbox();
                self.squares[code_index(code)] = m;
                self.board[m as usize] = code;
                self.flip_occupancy(m);
                self.psq += PSQ_TUNED[code_index(code)][m as usize];
                return true;
            }
        }
        false
    }

    /// Toggles mailbox point `sq` in the rank and file occupancy (a piece arrives or leaves).
    #[inline(always)]
    pub(crate) fn flip_occupancy(&mut self, sq: u8) {
        let (row, column) = ((sq >> 4) as usize, (sq & 15) as usize);
        self.rank_bits[row] ^= 1 << column;
        self.file_bits[column] ^= 1 << row;
    }

    /// Counts `color`'s pieces of `kind`.
    pub fn count(&self, kind: PieceKind, color: Color) -> usize {
        let k = kind as usize;
        (SLOT_START[k]..SLOT_START[k + 1])
            .filter(|&s| self.squares[code_index(code_of(color, s))] != 0)
            .count()
    }

    /// Applies `mv` (which must be legal, or at least pseudo-legal) and returns the undo record.
    #[inline]
    pub fn make(&mut self, mv: Move) -> Undo {
        let from = mv.from as usize;
        let to = mv.to as usize;
        let pc = self.board[from];
        let cap = self.board[to];
        self.history.push(HistEntry {
            hash: self.hash,
            mv,
            captured: cap,
        });
        let undo = Undo {
            captured: cap,
            halfmove: self.halfmove,
            psq: self.psq,
        };
        let mut h = self.hash ^ zkey(pc, mv.from) ^ zkey(pc, mv.to) ^ ZOBRIST_SIDE;
        let moving = &PSQ_TUNED[code_index(pc)];
        self.psq += moving[to] - moving[from];
        if cap != EMPTY {
            h ^= zkey(cap, mv.to);
            self.psq -= PSQ_TUNED[code_index(cap)][to];
            self.squares[code_index(cap)] = 0;
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.hash = h;
        self.board[from] = EMPTY;
        self.board[to] = pc;
        self.squares[code_index(pc)] = mv.to;
        self.flip_occupancy(mv.from);
        if cap == EMPTY {
            self.flip_occupancy(mv.to);
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opposite();
        undo
    }

    /// Takes back `mv`, the last move made.
    #[inline]
    pub fn unmake(&mut self, mv: Move, undo: Undo) {
        let from = mv.from as usize;
        let to = mv.to as usize;
        let pc = self.board[to];
        self.board[from] = pc;
        self.board[to] = undo.captured;
        self.squares[code_index(pc)] = mv.from;
        self.flip_occupancy(mv.from);
        if undo.captured != EMPTY {
            self.squares[code_index(undo.captured)] = mv.to;
        } else {
            self.flip_occupancy(mv.to);
        }
        self.side = self.side.opposite();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.halfmove = undo.halfmove;
        self.psq = undo.psq;
        match self.history.pop() {
            Some(e) => self.hash = e.hash,
            None => self.hash = self.compute_hash(),
        }
    }

    /// Passes the turn (null move); take it back with [`Position::unmake_null`].
    pub fn make_null(&mut self) -> Undo {
        self.history.push(HistEntry {
            hash: self.hash,
            mv: Move::NULL,
            captured: EMPTY,
        });
        let undo = Undo {
            captured: EMPTY,
            halfmove: self.halfmove,
            psq: self.psq,
        };
        self.hash ^= ZOBRIST_SIDE;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opposite();
        undo
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self, undo: Undo) {
        self.side = self.side.opposite();
        if self.side == Color::Black {
            self.fullmove -= 1;
        }
        self.halfmove = undo.halfmove;
        match self.history.pop() {
            Some(e) => self.hash = e.hash,
            None => self.hash = self.compute_hash(),
        }
    }

    /// A copy of the position without its game record (board, pieces, side, key, counters).
    pub(crate) fn board_snapshot(&self) -> Position {
        Position {
            board: self.board,
            squares: self.squares,
            rank_bits: self.rank_bits,
            file_bits: self.file_bits,
            psq: self.psq,
            side: self.side,
            hash: self.hash,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            history: Vec::new(),
        }
    }

    /// Forgets the game record (repetition history); the board is unchanged.
    pub fn clear_history(&mut self) {
        self.history.clear();
    }

    /// Whether `color`'s general is attacked (including by the facing enemy general).
    #[inline]
    pub fn is_in_check(&self, color: Color) -> bool {
        let k = self.squares[code_index(code_of(color, 0))];
        self.king_attacked(k, color)
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.is_in_check(self.side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::rng::Rng;

    /// The rank and file occupancy recomputed from the board.
    fn occupancy(pos: &Position) -> ([u16; 16], [u16; 16]) {
        let (mut ranks, mut files) = ([0u16; 16], [0u16; 16]);
        for &m in BOARD_POINTS.iter() {
            if pos.board[m as usize] != EMPTY {
                ranks[mb_rank(m) as usize + 3] |= 1 << (mb_file(m) + 3);
                files[mb_file(m) as usize + 3] |= 1 << (mb_rank(m) + 3);
            }
        }
        (ranks, files)
    }

    /// The tuned material and piece-square sum recomputed from the pieces.
    fn psq_from_scratch(pos: &Position) -> i32 {
        let mut sum = 0;
        for (i, &sq) in pos.squares.iter().enumerate() {
            if sq != 0 {
                sum += PSQ_TUNED[i][sq as usize];
            }
        }
        sum
    }

    #[test]
    fn occupancy_bits_and_psq_sum_follow_make_unmake_and_null_moves() {
        let mut rng = Rng::new(5);
        let mut captures = 0;
        for _ in 0..30 {
            let mut pos = Position::start();
            let start = pos.clone();
            let mut played = Vec::new();
            for _ in 0..rng.below(200) {
                let list = pos.legal_move_list();
                if list.is_empty() {
                    break;
                }
                let mv = list.as_slice()[rng.below(list.len())];
                captures += usize::from(pos.board[mv.to as usize] != EMPTY);
                let undo = pos.make(mv);
                played.push((mv, undo));
                assert_eq!((pos.rank_bits, pos.file_bits), occupancy(&pos), "{pos:?}");
                assert_eq!(pos.psq, psq_from_scratch(&pos), "{pos:?}");
                let null = pos.make_null();
                assert_eq!((pos.rank_bits, pos.file_bits), occupancy(&pos));
                pos.unmake_null(null);
                // A FEN round trip rebuilds the same bits.
                let again = Position::from_fen(&pos.to_fen()).expect("fen");
                assert_eq!((again.rank_bits, again.file_bits), occupancy(&pos));
                assert_eq!(again.psq, pos.psq);
            }
            while let Some((mv, undo)) = played.pop() {
                pos.unmake(mv, undo);
                assert_eq!((pos.rank_bits, pos.file_bits), occupancy(&pos));
                assert_eq!(pos.psq, psq_from_scratch(&pos));
            }
            assert_eq!(pos, start);
        }
        assert!(captures > 100, "too few captures: {captures}");
    }
}
