//! Board geometry and piece vocabulary: colours, piece kinds, squares and the precomputed tables
//! move generation reads.
//!
//! Internally the 9x10 board sits in a 16x16 mailbox (three guard files/ranks on each side) so
//! that sliding and jumping moves stop on an off-board sentinel without bounds checks. The public
//! [`Square`] is the compact index `rank * 9 + file` (file `a..i` = 0..8 from Red's left, rank
//! 0..9 from Red's side), matching ICCS coordinates.

use std::fmt;

/// One of the two sides. Red moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// Red (player 0), at the bottom (ranks 0-4), moves first.
    Red = 0,
    /// Black (player 1), at the top (ranks 5-9).
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::Red => Color::Black,
            Color::Black => Color::Red,
        }
    }

    /// 0 for Red, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// The seven kinds of piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// General (帅/将): one step orthogonally inside the palace.
    King = 0,
    /// Advisor (仕/士): one step diagonally inside the palace.
    Advisor = 1,
    /// Elephant (相/象): two points diagonally, eye empty, never across the river.
    Elephant = 2,
    /// Horse (马): one orthogonal then one diagonal step, leg empty.
    Horse = 3,
    /// Chariot (车): slides orthogonally.
    Rook = 4,
    /// Cannon (炮): slides to move, captures by jumping exactly one screen.
    Cannon = 5,
    /// Soldier (兵/卒): forward; also sideways once across the river.
    Pawn = 6,
}

impl PieceKind {
    /// All kinds in index order.
    pub const ALL: [PieceKind; 7] = [
        PieceKind::King,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Rook,
        PieceKind::Cannon,
        PieceKind::Pawn,
    ];

    /// How many of this kind one side has in the full set.
    pub fn set_count(self) -> usize {
        match self {
            PieceKind::King => 1,
            PieceKind::Pawn => 5,
            _ => 2,
        }
    }

    /// The FEN letter (upper case for Red, lower case for Black).
    pub fn fen_char(self, color: Color) -> char {
        let c = match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'B',
            PieceKind::Horse => 'N',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        };
        match color {
            Color::Red => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// Reads a FEN letter (`K A B N R C P`, also `E` for elephant and `H` for horse).
    pub fn from_fen_char(c: char) -> Option<(PieceKind, Color)> {
        let color = if c.is_ascii_uppercase() {
            Color::Red
        } else {
            Color::Black
        };
        let kind = match c.to_ascii_uppercase() {
            'K' => PieceKind::King,
            'A' => PieceKind::Advisor,
            'B' | 'E' => PieceKind::Elephant,
            'N' | 'H' => PieceKind::Horse,
            'R' => PieceKind::Rook,
            'C' => PieceKind::Cannon,
            'P' => PieceKind::Pawn,
            _ => return None,
        };
        Some((kind, color))
    }

    /// The WXF letter (`K A E H R C P`).
    pub fn wxf_char(self) -> char {
        match self {
            PieceKind::King => 'K',
            PieceKind::Advisor => 'A',
            PieceKind::Elephant => 'E',
            PieceKind::Horse => 'H',
            PieceKind::Rook => 'R',
            PieceKind::Cannon => 'C',
            PieceKind::Pawn => 'P',
        }
    }

    /// The Chinese character for this kind on `color`'s side.
    pub fn chinese_char(self, color: Color) -> char {
        match (self, color) {
            (PieceKind::King, Color::Red) => '帅',
            (PieceKind::King, Color::Black) => '将',
            (PieceKind::Advisor, Color::Red) => '仕',
            (PieceKind::Advisor, Color::Black) => '士',
            (PieceKind::Elephant, Color::Red) => '相',
            (PieceKind::Elephant, Color::Black) => '象',
            (PieceKind::Horse, _) => '马',
            (PieceKind::Rook, _) => '车',
            (PieceKind::Cannon, _) => '炮',
            (PieceKind::Pawn, Color::Red) => '兵',
            (PieceKind::Pawn, Color::Black) => '卒',
        }
    }
}

/// A point of the board: `rank * 9 + file`, 0..90 (a0 = 0, i9 = 89).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square on `file` (0..9, a..i) and `rank` (0..10, from Red's side); `None` off the board.
    pub fn new(file: u8, rank: u8) -> Option<Square> {
        (file < 9 && rank < 10).then_some(Square(rank * 9 + file))
    }

    /// The square with compact index `index` (0..90).
    pub fn from_index(index: u8) -> Option<Square> {
        (index < 90).then_some(Square(index))
    }

    /// The compact index 0..90.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..9 (a..i).
    #[inline]
    pub fn file(self) -> u8 {
        self.0 % 9
    }

    /// Rank 0..10 from Red's side.
    #[inline]
    pub fn rank(self) -> u8 {
        self.0 / 9
    }

    #[inline]
    pub(crate) fn to_mailbox(self) -> u8 {
        (self.rank() + 3) * 16 + self.file() + 3
    }

    #[inline]
    pub(crate) fn from_mailbox(sq: u8) -> Square {
        Square(((sq >> 4) - 3) * 9 + (sq & 15) - 3)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank())
    }
}

// ---------------------------------------------------------------------------------------------
// Mailbox encoding (crate-private).
//
// A board cell holds 0 (empty), OFF (outside the board) or a piece code 16..48: bit 4 set for Red,
// bit 5 for Black, low four bits the piece's slot within its side. Slots are fixed per kind so the
// kind of a piece is a table look-up: 0 king, 1-2 advisors, 3-4 elephants, 5-6 horses,
// 7-8 chariots, 9-10 cannons, 11-15 soldiers.

pub(crate) const EMPTY: u8 = 0;
pub(crate) const OFF: u8 = 64;
pub(crate) const RED_BIT: u8 = 16;
pub(crate) const BLACK_BIT: u8 = 32;

/// The colour bit of `color`'s pieces.
#[inline]
pub(crate) const fn side_bit(color: Color) -> u8 {
    match color {
        Color::Red => RED_BIT,
        Color::Black => BLACK_BIT,
    }
}

/// First slot of each kind within a side, and one past the last.
pub(crate) const SLOT_START: [u8; 8] = [0, 1, 3, 5, 7, 9, 11, 16];

/// Kind code (0..7) of a board cell holding a piece; 7 for empty/off.
pub(crate) const CELL_KIND: [u8; 256] = {
    let mut t = [7u8; 256];
    let mut code = 16;
    while code < 48 {
        let slot = (code & 15) as u8;
        let mut k = 0;
        while k < 7 {
            if slot >= SLOT_START[k] && slot < SLOT_START[k + 1] {
                t[code] = k as u8;
            }
            k += 1;
        }
        code += 1;
    }
    t
};

pub(crate) const K_KING: u8 = 0;
pub(crate) const K_ADVISOR: u8 = 1;
pub(crate) const K_ELEPHANT: u8 = 2;
pub(crate) const K_HORSE: u8 = 3;
pub(crate) const K_ROOK: u8 = 4;
pub(crate) const K_CANNON: u8 = 5;
pub(crate) const K_PAWN: u8 = 6;

/// The board cell code of `color`'s piece of kind `kind` in slot `slot`.
#[inline]
pub(crate) const fn code_of(color: Color, slot: u8) -> u8 {
    side_bit(color) | slot
}

/// Index 0..32 into the piece-square array of a piece code.
#[inline]
pub(crate) const fn code_index(code: u8) -> usize {
    (code - 16) as usize
}

pub(crate) fn kind_from_code(k: u8) -> PieceKind {
    PieceKind::ALL[k as usize]
}

/// Mailbox index of (file, rank).
#[inline]
pub(crate) const fn mb(file: u8, rank: u8) -> u8 {
    (rank + 3) * 16 + file + 3
}

#[inline]
pub(crate) const fn mb_file(sq: u8) -> u8 {
    (sq & 15) - 3
}

#[inline]
pub(crate) const fn mb_rank(sq: u8) -> u8 {
    (sq >> 4) - 3
}

/// Whether a mailbox index is on the board.
pub(crate) const IN_BOARD: [bool; 256] = {
    let mut t = [false; 256];
    let mut r = 0;
    while r < 10 {
        let mut f = 0;
        while f < 9 {
            t[mb(f, r) as usize] = true;
            f += 1;
        }
        r += 1;
    }
    t
};

/// The mailbox indices of the 90 points, in compact-index order (a0, b0, ..., i9).
pub(crate) const BOARD_POINTS: [u8; 90] = {
    let mut t = [0u8; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = mb((i % 9) as u8, (i / 9) as u8);
        i += 1;
    }
    t
};

/// Palace membership per colour.
pub(crate) const IN_PALACE: [[bool; 256]; 2] = {
    let mut t = [[false; 256]; 2];
    let mut f = 3;
    while f < 6 {
        let mut r = 0;
        while r < 3 {
            t[0][mb(f, r) as usize] = true;
            t[1][mb(f, 9 - r) as usize] = true;
            r += 1;
        }
        f += 1;
    }
    t
};

/// Own half of the board per colour (elephants stay there; soldiers there have not crossed).
pub(crate) const OWN_HALF: [[bool; 256]; 2] = {
    let mut t = [[false; 256]; 2];
    let mut f = 0;
    while f < 9 {
        let mut r = 0;
        while r < 5 {
            t[0][mb(f, r) as usize] = true;
            t[1][mb(f, 9 - r) as usize] = true;
            r += 1;
        }
        f += 1;
    }
    t
};

/// The empty mailbox: every cell OFF except the 90 points.
pub(crate) const EMPTY_BOARD: [u8; 256] = {
    let mut t = [OFF; 256];
    let mut i = 0;
    while i < 256 {
        if IN_BOARD[i] {
            t[i] = EMPTY;
        }
        i += 1;
    }
    t
};

/// Orthogonal steps.
pub(crate) const ORTH: [i16; 4] = [16, -16, 1, -1];
/// Diagonal steps.
pub(crate) const DIAG: [i16; 4] = [17, 15, -15, -17];
/// Horse jumps with their leg (the orthogonal neighbour of the horse that must be empty).
pub(crate) const HORSE_JUMPS: [(i16, i16); 8] = [
    (33, 16),
    (31, 16),
    (-31, -16),
    (-33, -16),
    (18, 1),
    (-14, 1),
    (14, -1),
    (-18, -1),
];
/// Forward step of a soldier per colour.
pub(crate) const FORWARD: [i16; 2] = [16, -16];

#[inline]
pub(crate) fn step(sq: u8, d: i16) -> u8 {
    (sq as i16 + d) as u8
}

/// Zobrist keys: 14 piece types (colour * 7 + kind) times 256 mailbox cells, then the side key.
pub(crate) static ZOBRIST: [u64; 14 * 256 + 1] =
    qiyi_core::rng::zobrist_keys(0x5851_414E_4751_4931);

#[inline]
pub(crate) fn zkey(code: u8, sq: u8) -> u64 {
    let color = if code & RED_BIT != 0 { 0 } else { 1 };
    ZOBRIST[(color * 7 + CELL_KIND[code as usize] as usize) * 256 + sq as usize]
}

pub(crate) const ZOBRIST_SIDE: u64 =
    qiyi_core::rng::zobrist_keys::<{ 14 * 256 + 1 }>(0x5851_414E_4751_4931)[14 * 256];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_round_trips_through_the_mailbox() {
        for i in 0..90 {
            let s = Square::from_index(i).unwrap();
            let m = s.to_mailbox();
            assert!(IN_BOARD[m as usize]);
            assert_eq!(Square::from_mailbox(m), s);
            assert_eq!(mb_file(m), s.file());
            assert_eq!(mb_rank(m), s.rank());
        }
        assert_eq!(IN_BOARD.iter().filter(|&&b| b).count(), 90);
    }

    #[test]
    fn slots_give_the_set() {
        for k in PieceKind::ALL {
            let i = k as usize;
            assert_eq!((SLOT_START[i + 1] - SLOT_START[i]) as usize, k.set_count());
            for slot in SLOT_START[i]..SLOT_START[i + 1] {
                assert_eq!(CELL_KIND[(RED_BIT | slot) as usize], k as u8);
                assert_eq!(CELL_KIND[(BLACK_BIT | slot) as usize], k as u8);
            }
        }
        assert_eq!(CELL_KIND[EMPTY as usize], 7);
        assert_eq!(CELL_KIND[OFF as usize], 7);
    }

    #[test]
    fn horse_legs_are_orthogonal_neighbours_toward_the_jump() {
        for (jump, leg) in HORSE_JUMPS {
            assert!(ORTH.contains(&leg));
            let rest = jump - leg;
            assert!(DIAG.contains(&rest), "{jump} {leg}");
        }
    }
}
