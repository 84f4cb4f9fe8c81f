//! The position as three 32-bit bitboards, with precomputed shift masks, neighbour tables and
//! Zobrist keys.
//!
//! Bit `i` is PDN square `i + 1`. Black (WCDF's "Red") starts on squares 1-12 at the top of the
//! diagram and moves towards 32; White starts on 21-32 and moves towards 1. Row `r` (0 at the top)
//! holds bits `4r..4r+4`; on even rows the playable squares are in columns 1, 3, 5, 7 and on odd rows
//! in columns 0, 2, 4, 6, so one diagonal step is a shift by 3, 4 or 5 bits depending on the parity
//! of the row ([`step`]).

use qiyi_core::rng::zobrist_keys;

/// A set of squares: bit `i` is square `i + 1`.
pub type Bitboard = u32;

/// Squares on even rows (1-4, 9-12, 17-20, 25-28).
pub const EVEN_ROWS: Bitboard = 0x0F0F_0F0F;
/// Squares on odd rows (5-8, 13-16, 21-24, 29-32).
pub const ODD_ROWS: Bitboard = 0xF0F0_F0F0;
/// The first square of every row (1, 5, 9, ...).
pub(crate) const FIRST_OF_ROW: Bitboard = 0x1111_1111;
/// The last square of every row (4, 8, 12, ...).
pub(crate) const LAST_OF_ROW: Bitboard = 0x8888_8888;
/// Where Black men are crowned (29-32).
pub const BLACK_CROWN_ROW: Bitboard = 0xF000_0000;
/// Where White men are crowned (1-4).
pub const WHITE_CROWN_ROW: Bitboard = 0x0000_000F;
/// Squares 1-12 (Black's start).
pub const BLACK_START: Bitboard = 0x0000_0FFF;
/// Squares 21-32 (White's start).
pub const WHITE_START: Bitboard = 0xFFF0_0000;
/// No square (used in the neighbour tables).
pub const NO_SQUARE: u8 = 32;

/// A side. Black (player 0) moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The dark side (WCDF's "Red"), on 1-12 at the start, moving first.
    Black = 0,
    /// The light side, on 21-32 at the start.
    White = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The row where this side's men are crowned.
    #[inline]
    pub fn crown_row(self) -> Bitboard {
        match self {
            Color::Black => BLACK_CROWN_ROW,
            Color::White => WHITE_CROWN_ROW,
        }
    }

    /// The two directions a man of this colour moves in.
    #[inline]
    pub fn forward(self) -> [Dir; 2] {
        match self {
            Color::Black => [Dir::DownLeft, Dir::DownRight],
            Color::White => [Dir::UpLeft, Dir::UpRight],
        }
    }
}

/// A diagonal direction on the PDN diagram ("down" is towards square 32).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Towards 32, one column left (e.g. 10 -> 14).
    DownLeft = 0,
    /// Towards 32, one column right (e.g. 10 -> 15).
    DownRight = 1,
    /// Towards 1, one column left (e.g. 14 -> 9).
    UpLeft = 2,
    /// Towards 1, one column right (e.g. 14 -> 10).
    UpRight = 3,
}

impl Dir {
    /// All four directions, in index order.
    pub const ALL: [Dir; 4] = [Dir::DownLeft, Dir::DownRight, Dir::UpLeft, Dir::UpRight];

    /// The direction with index `i & 3`.
    #[inline]
    pub fn from_index(i: u32) -> Dir {
        Dir::ALL[(i & 3) as usize]
    }

    /// The opposite direction.
    #[inline]
    pub fn opposite(self) -> Dir {
        Dir::ALL[3 - self as usize]
    }
}

/// Every square of `set` moved one step in `dir` (squares that would leave the board vanish).
#[inline(always)]
pub const fn step(set: Bitboard, dir: Dir) -> Bitboard {
    match dir {
        Dir::DownLeft => ((set & EVEN_ROWS) << 4) | ((set & ODD_ROWS & !FIRST_OF_ROW) << 3),
        Dir::DownRight => ((set & EVEN_ROWS & !LAST_OF_ROW) << 5) | ((set & ODD_ROWS) << 4),
        Dir::UpLeft => ((set & EVEN_ROWS) >> 4) | ((set & ODD_ROWS & !FIRST_OF_ROW) >> 5),
        Dir::UpRight => ((set & EVEN_ROWS & !LAST_OF_ROW) >> 3) | ((set & ODD_ROWS) >> 4),
    }
}

const fn neighbour_table() -> [[u8; 32]; 4] {
    let mut t = [[NO_SQUARE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let dir = match d {
            0 => Dir::DownLeft,
            1 => Dir::DownRight,
            2 => Dir::UpLeft,
            _ => Dir::UpRight,
        };
        let mut sq = 0;
        while sq < 32 {
            let to = step(1 << sq, dir);
            if to != 0 {
                t[d][sq] = to.trailing_zeros() as u8;
            }
            sq += 1;
        }
        d += 1;
    }
    t
}

/// `NEIGHBOUR[dir][sq]`: the square one step from `sq` in `dir`, or [`NO_SQUARE`].
pub const NEIGHBOUR: [[u8; 32]; 4] = neighbour_table();

/// The square one step from `sq` (0-based) in `dir`, if it is on the board.
#[inline]
pub fn neighbour(sq: u8, dir: Dir) -> Option<u8> {
    let n = NEIGHBOUR[dir as usize][sq as usize & 31];
    (n != NO_SQUARE).then_some(n)
}

/// Zobrist keys: `[(colour * 2 + is_king) * 32 + square]`, then one for White to move.
const KEYS: [u64; 129] = zobrist_keys(0xC4EC_4E25_0000_0005);

/// The Zobrist key of a piece.
#[inline(always)]
pub fn piece_key(color: Color, king: bool, sq: u8) -> u64 {
    KEYS[(color as usize * 2 + king as usize) * 32 + sq as usize]
}

/// The Zobrist key xored in when White is to move.
pub const WHITE_TO_MOVE_KEY: u64 = KEYS[128];

/// A position without history: who is where and who moves. Small and `Copy` (copy-make).
///
/// Constructed through [`Board::start`], [`Board::new`] (checked) or the PDN FEN parser, so the
/// invariants hold: the sides do not overlap, kings are pieces, at most 12 pieces a side and no man
/// stands on its own crowning row.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pub(crate) pieces: [Bitboard; 2],
    pub(crate) kings: Bitboard,
    pub(crate) side: Color,
    pub(crate) hash: u64,
}

/// Why a set of bitboards is not a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BoardError {
    /// A square holds a Black and a White piece.
    #[error("square {0} holds pieces of both colours")]
    Overlap(u8),
    /// A king bit is set on an empty square.
    #[error("square {0} is marked as a king but is empty")]
    KingOnEmpty(u8),
    /// More than 12 pieces of one colour.
    #[error("{color:?} has {count} pieces (at most 12)")]
    TooManyPieces {
        /// The side.
        color: Color,
        /// How many pieces it has.
        count: u32,
    },
    /// A man on the row where it would already have been crowned.
    #[error("a {color:?} man on square {square} should have been crowned")]
    UncrownedMan {
        /// The side.
        color: Color,
        /// The square (1-32).
        square: u8,
    },
}

impl Default for Board {
    fn default() -> Self {
        Board::start()
    }
}

impl Board {
    /// The starting position: Black on 1-12, White on 21-32, Black to move.
    pub fn start() -> Board {
        Board::new(BLACK_START, WHITE_START, 0, Color::Black).expect("the start position is valid")
    }

    /// A position from bitboards (bit `i` = square `i + 1`), checked for consistency.
    pub fn new(
        black: Bitboard,
        white: Bitboard,
        kings: Bitboard,
        side: Color,
    ) -> Result<Board, BoardError> {
        if black & white != 0 {
            return Err(BoardError::Overlap(
                (black & white).trailing_zeros() as u8 + 1,
            ));
        }
        let all = black | white;
        if kings & !all != 0 {
            return Err(BoardError::KingOnEmpty(
                (kings & !all).trailing_zeros() as u8 + 1,
            ));
        }
        for (color, set) in [(Color::Black, black), (Color::White, white)] {
            if set.count_ones() > 12 {
                return Err(BoardError::TooManyPieces {
                    color,
                    count: set.count_ones(),
                });
            }
            let bad = set & !kings & color.crown_row();
            if bad != 0 {
                return Err(BoardError::UncrownedMan {
                    color,
                    square: bad.trailing_zeros() as u8 + 1,
                });
            }
        }
        let mut board = Board {
            pieces: [black, white],
            kings,
            side,
            hash: 0,
        };
        board.hash = board.hash_from_scratch();
        Ok(board)
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The pieces (men and kings) of `color`.
    #[inline]
    pub fn pieces(&self, color: Color) -> Bitboard {
        self.pieces[color.index()]
    }

    /// All kings of both sides.
    #[inline]
    pub fn kings(&self) -> Bitboard {
        self.kings
    }

    /// The men (uncrowned pieces) of `color`.
    #[inline]
    pub fn men(&self, color: Color) -> Bitboard {
        self.pieces[color.index()] & !self.kings
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Every empty square.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        !self.occupied()
    }

    /// What stands on square `sq` (1-32): `None` when empty (or out of range).
    pub fn piece_at(&self, sq: u8) -> Option<(Color, bool)> {
        if !(1..=32).contains(&sq) {
            return None;
        }
        let bit = 1u32 << (sq - 1);
        let king = self.kings & bit != 0;
        if self.pieces[0] & bit != 0 {
            Some((Color::Black, king))
        } else if self.pieces[1] & bit != 0 {
            Some((Color::White, king))
        } else {
            None
        }
    }

    /// The incrementally kept Zobrist key.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist key computed from the pieces and side alone.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Color::White {
            WHITE_TO_MOVE_KEY
        } else {
            0
        };
        for color in [Color::Black, Color::White] {
            let mut set = self.pieces[color.index()];
            while set != 0 {
                let sq = set.trailing_zeros() as u8;
                set &= set - 1;
                h ^= piece_key(color, self.kings & (1 << sq) != 0, sq);
            }
        }
        h
    }

    /// The same position with the other side to move (for tests and null-move search).
    pub fn with_side_flipped(&self) -> Board {
        let mut b = *self;
        b.side = b.side.opponent();
        b.hash ^= WHITE_TO_MOVE_KEY;
        b
    }

    /// A text diagram (Black `b`/`B`, White `w`/`W`, capitals are kings), row 1-4 at the top.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for row in 0..8u8 {
            for col in 0..8u8 {
                let playable = (row + col) % 2 == 1;
                if !playable {
                    s.push_str("  ");
                    continue;
                }
                let sq = row * 4 + col / 2 + 1;
                let c = match self.piece_at(sq) {
                    Some((Color::Black, false)) => 'b',
                    Some((Color::Black, true)) => 'B',
                    Some((Color::White, false)) => 'w',
                    Some((Color::White, true)) => 'W',
                    None => '.',
                };
                s.push(' ');
                s.push(c);
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: u8) -> Bitboard {
        1 << (n - 1)
    }

    #[test]
    fn steps_follow_the_pdn_diagram() {
        assert_eq!(step(sq(10), Dir::DownLeft), sq(14));
        assert_eq!(step(sq(10), Dir::DownRight), sq(15));
        assert_eq!(step(sq(10), Dir::UpLeft), sq(6));
        assert_eq!(step(sq(10), Dir::UpRight), sq(7));
        assert_eq!(step(sq(14), Dir::UpLeft), sq(9));
        assert_eq!(step(sq(14), Dir::UpRight), sq(10));
        assert_eq!(step(sq(5), Dir::DownLeft), 0);
        assert_eq!(step(sq(5), Dir::DownRight), sq(9));
        assert_eq!(step(sq(4), Dir::DownRight), 0);
        assert_eq!(step(sq(4), Dir::DownLeft), sq(8));
        assert_eq!(step(sq(1), Dir::UpLeft) | step(sq(1), Dir::UpRight), 0);
        assert_eq!(
            step(sq(29), Dir::DownLeft) | step(sq(32), Dir::DownRight),
            0
        );
        assert_eq!(step(sq(28), Dir::DownLeft), sq(32));
        assert_eq!(step(sq(12), Dir::DownRight), 0);
    }

    #[test]
    fn steps_are_reversible() {
        for s in 0..32u8 {
            for d in Dir::ALL {
                if let Some(n) = neighbour(s, d) {
                    assert_eq!(neighbour(n, d.opposite()), Some(s));
                }
            }
        }
        // 32 squares * 4 directions minus the edges: 49 diagonal adjacencies, each counted twice.
        let links: usize = (0..32u8)
            .map(|s| {
                Dir::ALL
                    .iter()
                    .filter(|&&d| neighbour(s, d).is_some())
                    .count()
            })
            .sum();
        assert_eq!(links, 98);
    }

    #[test]
    fn bad_boards_are_rejected() {
        assert!(matches!(
            Board::new(1, 1, 0, Color::Black),
            Err(BoardError::Overlap(1))
        ));
        assert!(matches!(
            Board::new(1, 2, 4, Color::Black),
            Err(BoardError::KingOnEmpty(3))
        ));
        assert!(matches!(
            Board::new(BLACK_CROWN_ROW, 0, 0, Color::Black),
            Err(BoardError::UncrownedMan { .. })
        ));
        assert!(matches!(
            Board::new(0x1FFF, 0, 0, Color::Black),
            Err(BoardError::TooManyPieces { .. })
        ));
    }
}
