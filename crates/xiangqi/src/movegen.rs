//! Move generation: pseudo-legal moves of all seven pieces from precomputed step tables, then a
//! legality filter that plays each move on the board and asks whether the own general (including
//! the flying-general rule) is attacked.

use crate::board::*;
use crate::position::{Move, Position};

/// The most pseudo-legal moves any position can have is 115 (2x17 chariot + 2x17 cannon +
/// 2x8 horse + 5x3 soldier + 4 general + 4 advisor + 8 elephant moves); a little headroom.
pub const MAX_MOVES: usize = 128;

/// A fixed-capacity move buffer on the stack (no allocation in search or perft).
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move::NULL; MAX_MOVES],
            len: 0,
        }
    }

    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn push(&mut self, from: u8, to: u8) {
        // The capacity bound above is a theorem about the piece set; guard it in debug builds.
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len] = Move { from, to };
            self.len += 1;
        }
    }

    #[inline]
    fn swap_remove(&mut self, i: usize) {
        self.len -= 1;
        self.moves[i] = self.moves[self.len];
    }
}

impl Position {
    /// Writes every pseudo-legal move of the side to move (the own general may be left in check).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        list.len = 0;
        let color = self.side;
        let us = side_bit(color);
        let them = side_bit(color.opposite());
        let base = code_index(us);
        let b = &self.board;
        let blocked = us | OFF;
        let ci = color.index();

        // General.
        let k = self.squares[base];
        if k != 0 {
            for &d in ORTH.iter() {
                let t = step(k, d);
                if IN_PALACE[ci][t as usize] && b[t as usize] & us == 0 {
                    list.push(k, t);
                }
            }
        }
        // Advisors.
        for slot in 1..3 {
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            for &d in DIAG.iter() {
                let t = step(s, d);
                if IN_PALACE[ci][t as usize] && b[t as usize] & us == 0 {
                    list.push(s, t);
                }
            }
        }
        // Elephants.
        for slot in 3..5 {
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            for &d in DIAG.iter() {
                let eye = step(s, d);
                let t = step(eye, d);
                if OWN_HALF[ci][t as usize] && b[eye as usize] == EMPTY && b[t as usize] & us == 0 {
                    list.push(s, t);
                }
            }
        }
        // Horses.
        for slot in 5..7 {
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            for &(j, leg) in HORSE_JUMPS.iter() {
                let t = step(s, j);
                if b[step(s, leg) as usize] == EMPTY && b[t as usize] & blocked == 0 {
                    list.push(s, t);
                }
            }
        }
        // Chariots.
        for slot in 7..9 {
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            for &d in ORTH.iter() {
                let mut t = step(s, d);
                while b[t as usize] == EMPTY {
                    list.push(s, t);
                    t = step(t, d);
                }
                if b[t as usize] & them != 0 {
                    list.push(s, t);
                }
            }
        }
        // Cannons.
        for slot in 9..11 {
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            for &d in ORTH.iter() {
                let mut t = step(s, d);
                while b[t as usize] == EMPTY {
                    list.push(s, t);
                    t = step(t, d);
                }
                if b[t as usize] == OFF {
                    continue;
                }
                t = step(t, d);
                while b[t as usize] == EMPTY {
                    t = step(t, d);
                }
                if b[t as usize] & them != 0 {
                    list.push(s, t);
                }
            }
        }
        // Soldiers.
        let fwd = FORWARD[ci];
        for slot in 11..16 {
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            let t = step(s, fwd);
            if b[t as usize] & blocked == 0 {
                list.push(s, t);
            }
            if !OWN_HALF[ci][s as usize] {
                for t in [step(s, 1), step(s, -1)] {
                    if b[t as usize] & blocked == 0 {
                        list.push(s, t);
                    }
                }
            }
        }
    }

    /// Whether the pseudo-legal `mv` leaves the mover's general safe.
    #[inline]
    pub fn is_legal_pseudo(&mut self, mv: Move) -> bool {
        let from = mv.from as usize;
        let to = mv.to as usize;
        let pc = self.board[from];
        let cap = self.board[to];
        self.board[to] = pc;
        self.board[from] = EMPTY;
        let k = if CELL_KIND[pc as usize] == K_KING {
            mv.to
        } else {
            self.squares[code_index(side_bit(self.side))]
        };
        let attacked = self.king_attacked(k, self.side);
        self.board[from] = pc;
        self.board[to] = cap;
        !attacked
    }

    /// Legality of a pseudo-legal move given the mover's general square `k` and check status.
    ///
    /// Outside check a non-general move can only expose the general along the rank or file it
    /// leaves or enters (chariot, facing general, cannon screens) or through a horse leg it
    /// vacates, so only those lines are scanned.
    #[inline]
    fn legal_given(&mut self, k: u8, in_check: bool, mv: Move) -> bool {
        if in_check || mv.from == k {
            return self.is_legal_pseudo(mv);
        }
        let (from, to) = (mv.from, mv.to);
        let from_dir = line_dir(k, from);
        let to_dir = line_dir(k, to);
        let leg = matches!(from as i16 - k as i16, 15 | 17 | -15 | -17);
        if from_dir == 0 && to_dir == 0 && !leg {
            return true;
        }
        let pc = self.board[from as usize];
        let cap = self.board[to as usize];
        self.board[to as usize] = pc;
        self.board[from as usize] = EMPTY;
        let them = side_bit(self.side.opposite());
        let b = &self.board;
        let mut attacked = from_dir != 0 && ray_attacked(b, k, from_dir, them);
        if !attacked && to_dir != 0 && to_dir != from_dir {
            attacked = ray_attacked(b, k, to_dir, them);
        }
        if !attacked && leg {
            let d = from as i16 - k as i16;
            let vert = if d > 0 { 16 } else { -16 };
            let horiz = d - vert;
            for s in [step(from, vert), step(from, horiz)] {
                let c = b[s as usize];
                if c & them != 0 && CELL_KIND[c as usize] == K_HORSE {
                    attacked = true;
                }
            }
        }
        self.board[from as usize] = pc;
        self.board[to as usize] = cap;
        !attacked
    }

    /// Writes the legal moves of the side to move (board rules only: no repetition verdicts).
    ///
    /// Takes `&mut self` to try moves on the board; the position is unchanged on return.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        self.pseudo_legal_moves(list);
        let k = self.squares[code_index(side_bit(self.side))];
        let in_check = self.king_attacked(k, self.side);
        let mut i = 0;
        while i < list.len {
            let mv = list.moves[i];
            if self.legal_given(k, in_check, mv) {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }

    /// The number of legal moves (board rules only).
    pub fn count_legal(&mut self) -> usize {
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        let k = self.squares[code_index(side_bit(self.side))];
        let in_check = self.king_attacked(k, self.side);
        let mut n = 0;
        for &mv in list.as_slice() {
            n += self.legal_given(k, in_check, mv) as usize;
        }
        n
    }

    /// The legal moves (board rules only) of a position held by shared reference.
    pub fn legal_move_list(&self) -> MoveList {
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        let mut scratch = self.board;
        let k = self.squares[code_index(side_bit(self.side))];
        let in_check = self.king_attacked(k, self.side);
        let mut i = 0;
        while i < list.len {
            let mv = list.moves[i];
            if (!in_check && cannot_expose(k, mv)) || self.legal_on(&mut scratch, mv) {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
        list
    }

    /// Whether the position has at least one legal move (board rules only).
    pub fn has_legal_move(&self) -> bool {
        let mut list = MoveList::new();
        self.pseudo_legal_moves(&mut list);
        let mut scratch = self.board;
        let k = self.squares[code_index(side_bit(self.side))];
        let in_check = self.king_attacked(k, self.side);
        list.as_slice()
            .iter()
            .any(|&mv| (!in_check && cannot_expose(k, mv)) || self.legal_on(&mut scratch, mv))
    }

    /// Legality of `mv` tested on a scratch copy of the board (for `&self` callers).
    fn legal_on(&self, scratch: &mut [u8; 256], mv: Move) -> bool {
        let from = mv.from as usize;
        let to = mv.to as usize;
        let pc = scratch[from];
        let cap = scratch[to];
        scratch[to] = pc;
        scratch[from] = EMPTY;
        let k = if CELL_KIND[pc as usize] == K_KING {
            mv.to
        } else {
            self.squares[code_index(side_bit(self.side))]
        };
        let attacked = king_attacked_on(scratch, k, self.side);
        scratch[from] = pc;
        scratch[to] = cap;
        !attacked
    }

    /// Whether `mv` is a legal move here (board rules only).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_move_list().as_slice().contains(&mv)
    }
}

/// The step from `k` toward `s` when they share a rank or file (0 otherwise or when equal).
#[inline]
fn line_dir(k: u8, s: u8) -> i16 {
    if s == k {
        0
    } else if (s ^ k) & 0x0F == 0 {
        if s > k {
            16
        } else {
            -16
        }
    } else if (s ^ k) & 0xF0 == 0 {
        if s > k {
            1
        } else {
            -1
        }
    } else {
        0
    }
}

/// Whether the general on `k` is attacked along the ray `d` by a chariot, the facing general
/// (vertical rays) or a cannon with one screen.
#[inline]
fn ray_attacked(b: &[u8; 256], k: u8, d: i16, them: u8) -> bool {
    let mut s = step(k, d);
    while b[s as usize] == EMPTY {
        s = step(s, d);
    }
    let c = b[s as usize];
    if c == OFF {
        return false;
    }
    if c & them != 0 {
        let kind = CELL_KIND[c as usize];
        if kind == K_ROOK || (kind == K_KING && (d == 16 || d == -16)) {
            return true;
        }
    }
    s = step(s, d);
    while b[s as usize] == EMPTY {
        s = step(s, d);
    }
    let c = b[s as usize];
    c & them != 0 && CELL_KIND[c as usize] == K_CANNON
}

/// Whether a move by a side that is not in check, with its general on `k`, certainly leaves the
/// general safe: the general does not move, the move neither leaves nor enters the general's rank
/// or file (which could open a chariot line, the facing generals or change a cannon's screens)
/// and does not leave a point diagonally next to the general (a horse's leg).
#[inline]
fn cannot_expose(k: u8, mv: Move) -> bool {
    let (from, to) = (mv.from, mv.to);
    let aligned = |s: u8| (s ^ k) & 0xF0 == 0 || (s ^ k) & 0x0F == 0;
    let d = from as i16 - k as i16;
    !aligned(from) && !aligned(to) && !matches!(d, 15 | 17 | -15 | -17)
}

/// [`Position::king_attacked`] over an arbitrary board array.
#[inline]
pub(crate) fn king_attacked_on(b: &[u8; 256], k: u8, color: Color) -> bool {
    let them = side_bit(color.opposite());
    for (i, &d) in ORTH.iter().enumerate() {
        let mut s = step(k, d);
        while b[s as usize] == EMPTY {
            s = step(s, d);
        }
        let c = b[s as usize];
        if c == OFF {
            continue;
        }
        if c & them != 0 {
            let kind = CELL_KIND[c as usize];
            if kind == K_ROOK || (kind == K_KING && i < 2) {
                return true;
            }
        }
        s = step(s, d);
        while b[s as usize] == EMPTY {
            s = step(s, d);
        }
        let c = b[s as usize];
        if c & them != 0 && CELL_KIND[c as usize] == K_CANNON {
            return true;
        }
    }
    for &d in DIAG.iter() {
        let leg = step(k, d);
        if b[leg as usize] != EMPTY {
            continue;
        }
        let vert = if d > 0 { 16 } else { -16 };
        let horiz = d - vert;
        for s in [step(leg, vert), step(leg, horiz)] {
            let c = b[s as usize];
            if c & them != 0 && CELL_KIND[c as usize] == K_HORSE {
                return true;
            }
        }
    }
    for s in [step(k, FORWARD[color.index()]), step(k, 1), step(k, -1)] {
        let c = b[s as usize];
        if c & them != 0 && CELL_KIND[c as usize] == K_PAWN {
            return true;
        }
    }
    false
}
