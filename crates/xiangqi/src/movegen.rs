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

    /// Keeps only the moves for which `keep` is true (in order).
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(m) {
                self.moves[n] = m;
                n += 1;
            }
        }
        self.len = n;
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

/// Where [`Position::pseudo_legal`] writes the moves it finds.
trait MoveSink {
    /// Forgets earlier moves.
    fn clear(&mut self);
    /// Takes the move from `from` to `to`.
    fn push(&mut self, from: u8, to: u8);
    /// Whether no more moves are wanted (asked before each piece).
    fn done(&self) -> bool;
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }

    #[inline(always)]
    fn push(&mut self, from: u8, to: u8) {
        MoveList::push(self, from, to);
    }

    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

/// [`Position::pseudo_legal`] mode: every pseudo-legal move.
const GEN_ALL: u8 = 0;
/// [`Position::pseudo_legal`] mode: captures only.
const GEN_CAPTURES: u8 = 1;
/// [`Position::pseudo_legal`] mode: the quiet moves that may give check (see
/// [`Position::quiet_checks`]).
const GEN_CHECK_CANDIDATES: u8 = 2;

impl Position {
    /// Writes every pseudo-legal move of the side to move (the own general may be left in check).
    pub fn pseudo_legal_moves(&self, list: &mut MoveList) {
        self.pseudo_legal::<GEN_ALL, _>(list, 0);
    }

    /// Writes the pseudo-legal captures of the side to move, in the order
    /// [`Position::pseudo_legal_moves`] lists them (quiescence without quiet checks).
    pub fn pseudo_legal_captures(&self, list: &mut MoveList) {
        self.pseudo_legal::<GEN_CAPTURES, _>(list, 0);
    }

    /// Writes the pseudo-legal quiet (non-capturing) moves of the side to move that check the
    /// enemy general, in the order [`Position::pseudo_legal_moves`] lists them (quiescence's
    /// quiet checks). The enemy general must not be in check (true in every legal position).
    ///
    /// Generation keeps only the moves that could check: those of a piece standing on the
    /// general's rank or file or next to it diagonally (a horse leg) and those arriving on its
    /// rank or file or on a point a horse checks from; `move_gives_check` (a direct test) decides
    /// each of them. Takes `&mut self` to try moves on the board; the position is unchanged.
    pub fn quiet_checks(&mut self, list: &mut MoveList) {
        let k = self.squares[code_index(side_bit(self.side.opposite()))];
        if k == 0 {
            list.len = 0;
            return;
        }
        self.pseudo_legal::<GEN_CHECK_CANDIDATES, _>(list, k);
        // Keep the checks in order.
        let mut kept = 0;
        for i in 0..list.len {
            let mv = list.moves[i];
            if self.move_gives_check(mv, k) {
                list.moves[kept] = mv;
                kept += 1;
            }
        }
        list.len = kept;
    }

    /// The pseudo-legal moves (`MODE` [`GEN_ALL`]), only the captures ([`GEN_CAPTURES`]) or
    /// only the quiet moves that may check the enemy general on `k` ([`GEN_CHECK_CANDIDATES`]),
    /// piece kind by piece kind; the mode is resolved at compile time, so each form is as tight
    /// as a hand-written one.
    #[inline(always)]
    fn pseudo_legal<const MODE: u8, S: MoveSink>(&self, list: &mut S, k: u8) {
        list.clear();
        let color = self.side;
        let us = side_bit(color);
        let them = side_bit(color.opposite());
        let base = code_index(us);
        let b = &self.board;
        let blocked = us | OFF;
        let ci = color.index();
        // Whether a point holding `x` is a destination: empty or enemy, enemy only, or empty.
        let target = |x: u8| match MODE {
            GEN_ALL => x & blocked == 0,
            GEN_CAPTURES => x & them != 0,
            _ => x == EMPTY,
        };
        // In check-candidate mode, whether the piece on `from` may discover a check (it stands
        // on a horse leg of the enemy general, or in front of one of our chariots, our general
        // or a cannon along a line of it: see [`Position::discoverers`]) or a move of it to `to`
        // may check by arriving (on a line of the general or a horse's checking point).
        let discoverers = if MODE == GEN_CHECK_CANDIDATES {
            self.discoverers(k)
        } else {
            [0; 8]
        };
        let discovers = |from: u8| {
            MODE != GEN_CHECK_CANDIDATES || is_leg(k, from) || discoverers.contains(&from)
        };
        let arrives = |to: u8| on_lines(k, to) || NEAR_KING[delta_index(k, to)] == 2;
        let push = |list: &mut S, disc: bool, from: u8, to: u8| {
            if disc || arrives(to) {
                list.push(from, to);
            }
        };

        // General.
        let ks = self.squares[base];
        if ks != 0 {
            let disc = discovers(ks);
            for &d in ORTH.iter() {
                let t = step(ks, d);
                if IN_PALACE[ci][t as usize] && target(b[t as usize]) {
                    push(list, disc, ks, t);
                }
            }
        }
        // Advisors.
        for slot in 1..3 {
            if list.done() {
                return;
            }
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            let disc = discovers(s);
            for &d in DIAG.iter() {
                let t = step(s, d);
                if IN_PALACE[ci][t as usize] && target(b[t as usize]) {
                    push(list, disc, s, t);
                }
            }
        }
        // Elephants.
        for slot in 3..5 {
            if list.done() {
                return;
            }
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            let disc = discovers(s);
            for &d in DIAG.iter() {
                let eye = step(s, d);
                let t = step(eye, d);
                if OWN_HALF[ci][t as usize] && b[eye as usize] == EMPTY && target(b[t as usize]) {
                    push(list, disc, s, t);
                }
            }
        }
        // Horses.
        for slot in 5..7 {
            if list.done() {
                return;
            }
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            let disc = discovers(s);
            for &(j, leg) in HORSE_JUMPS.iter() {
                let t = step(s, j);
                if target(b[t as usize]) && b[step(s, leg) as usize] == EMPTY {
                    push(list, disc, s, t);
                }
            }
        }
        // Chariots and cannons: slide over empty points (quiet moves), then a chariot takes the
        // first piece met and a cannon the first one beyond a screen.
        for slot in 7..11 {
            if list.done() {
                return;
            }
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            let disc = discovers(s);
            let cannon = slot >= 9;
            for &d in ORTH.iter() {
                let mut t = step(s, d);
                while b[t as usize] == EMPTY {
                    if MODE != GEN_CAPTURES {
                        push(list, disc, s, t);
                    }
                    t = step(t, d);
                }
                if MODE == GEN_CHECK_CANDIDATES {
                    continue;
                }
                if cannon {
                    if b[t as usize] == OFF {
                        continue;
                    }
                    t = step(t, d);
                    while b[t as usize] == EMPTY {
                        t = step(t, d);
                    }
                }
                if b[t as usize] & them != 0 {
                    list.push(s, t);
                }
            }
        }
        // Soldiers.
        let fwd = FORWARD[ci];
        for slot in 11..16 {
            if list.done() {
                return;
            }
            let s = self.squares[base + slot];
            if s == 0 {
                continue;
            }
            let disc = discovers(s);
            let t = step(s, fwd);
            if target(b[t as usize]) {
                push(list, disc, s, t);
            }
            if !OWN_HALF[ci][s as usize] {
                for t in [step(s, 1), step(s, -1)] {
                    if target(b[t as usize]) {
                        push(list, disc, s, t);
                    }
                }
            }
        }
    }

    /// The points (0 for none) of the pieces whose leaving a line of the enemy general on `k`
    /// could let one of the side to move's pieces attack it along that line: per line, with
    /// `p1`, `p2`, `p3` the nearest pieces from the general, `p1` when `p2` is our chariot (or
    /// our general, along the file), and `p1` and `p2` when `p3` is our cannon. When the enemy
    /// general is not in check, a move of any other piece checks along a line only by arriving
    /// on it.
    #[inline]
    fn discoverers(&self, k: u8) -> [u8; 8] {
        let us = side_bit(self.side);
        let ours = |p: u8, kind: u8| {
            let c = self.board[p as usize];
            c & us != 0 && CELL_KIND[c as usize] == kind
        };
        let mut out = [0u8; 8];
        for dir in 0..4 {
            let [p1, p2, p3] = self.ray_pieces(k, dir);
            if ours(p2, K_ROOK) || (dir < 2 && ours(p2, K_KING)) {
                out[2 * dir] = p1;
            }
            if ours(p3, K_CANNON) {
                out[2 * dir] = p1;
                out[2 * dir + 1] = p2;
            }
        }
        out
    }

    /// Whether the pseudo-legal `mv` leaves the mover's general safe.
    #[inline]
    pub fn is_legal_pseudo(&mut self, mv: Move) -> bool {
        let k = if CELL_KIND[self.board[mv.from as usize] as usize] == K_KING {
            mv.to
        } else {
            self.squares[code_index(side_bit(self.side))]
        };
        !self.attacked_after(mv, k, self.side)
    }

    /// Plays `mv` on the board only (no pieces list, occupancy, key or record), asks whether
    /// `color`'s general standing on `k` is then attacked, and takes the move back.
    #[inline]
    pub(crate) fn attacked_after(&mut self, mv: Move, k: u8, color: Color) -> bool {
        attacked_after_on(&mut self.board, mv, k, color)
    }

    /// The nearest, second and third occupied points from `s` along [`ORTH`]`[dir]`, found in
    /// the rank and file occupancy bits: points past the edge are off-board cells (the
    /// occupancy gets two guard bits beyond each edge, and one more at each end of the word so
    /// that the bit arithmetic never runs out, even for a point that is no board point).
    #[inline(always)]
    pub(crate) fn ray_pieces(&self, s: u8, dir: usize) -> [u8; 3] {
        let (row, col) = (u32::from(s >> 4), u32::from(s & 15));
        let (occ, p) = if dir < 2 {
            (u32::from(self.file_bits[col as usize]) | FILE_GUARDS, row)
        } else {
            (u32::from(self.rank_bits[row as usize]) | RANK_GUARDS, col)
        };
        let idx = if dir % 2 == 0 {
            let a = occ & !((2u32 << p) - 1);
            let a1 = a & a.wrapping_sub(1);
            let a2 = a1 & a1.wrapping_sub(1);
            [a.trailing_zeros(), a1.trailing_zeros(), a2.trailing_zeros()]
        } else {
            let b = occ & ((1u32 << p) - 1) | 1;
            let i0 = 31 - b.leading_zeros();
            let b1 = b & !(1 << i0) | 1;
            let i1 = 31 - b1.leading_zeros();
            let b2 = b1 & !(1 << i1) | 1;
            [i0, i1, 31 - b2.leading_zeros()]
        };
        if dir < 2 {
            idx.map(|i| (i * 16 + col) as u8)
        } else {
            idx.map(|i| (row * 16 + i) as u8)
        }
    }

    /// Whether the side to move's move `mv` (pseudo-legal) attacks the enemy general on `k`,
    /// given that the enemy general is not attacked before it (true in every legal position).
    ///
    /// Only what the move changes is examined: the lines from the general through `from` and
    /// `to` (chariots, cannons and their screens, the facing generals), the horses behind a leg
    /// that `from` frees, and a horse or soldier arriving on `to`.
    #[inline]
    pub(crate) fn move_gives_check(&mut self, mv: Move, k: u8) -> bool {
        let (from, to) = (mv.from, mv.to);
        let pc = self.board[from as usize];
        let kind = CELL_KIND[pc as usize];
        let dt = k as i16 - to as i16;
        // Direct attacks of a horse or soldier from its new point.
        if kind == K_HORSE {
            let leg = if (-34..=34).contains(&dt) {
                HORSE_LEG_TOWARD[(dt + 34) as usize]
            } else {
                0
            };
            if leg != 0 {
                let l = step(to, i16::from(leg));
                // The leg cannot be `to` itself; it may be the point the horse left.
                if l == from || self.board[l as usize] == EMPTY {
                    return true;
                }
            }
        } else if kind == K_PAWN && (dt == FORWARD[self.side.index()] || dt == 1 || dt == -1) {
            return true;
        }
        let leg = is_leg(k, from);
        if !leg && !on_lines(k, from) && !on_lines(k, to) {
            return false;
        }
        self.line_or_leg_attack(k, from, to, leg, side_bit(self.side))
    }

    /// Plays the piece on `from` to `to` on the board only, asks whether a piece of side `by`
    /// attacks the general on `k` along the lines from `k` through `from` or `to` (chariots,
    /// cannons and their screens, the facing general) or through the horse leg `from` frees
    /// (`leg`), and takes the move back. The other attacks on `k` are the caller's business.
    #[inline]
    fn line_or_leg_attack(&mut self, k: u8, from: u8, to: u8, leg: bool, by: u8) -> bool {
        line_or_leg_attack_on(&mut self.board, k, from, to, leg, by)
    }

    /// Whether a general of colour `color` standing on mailbox point `k` is attacked (including
    /// by the facing enemy general).
    ///
    /// Walks the board: the general's lines are short in the crowded palace, and reading them
    /// from the occupancy bits instead ([`Position::ray_pieces`]) measured slower in perft.
    #[inline]
    pub(crate) fn king_attacked(&self, k: u8, color: Color) -> bool {
        king_attacked_on(&self.board, k, color)
    }

    /// Writes the legal moves of the side to move (board rules only: no repetition verdicts).
    ///
    /// Takes `&mut self` to try moves on the board; the position is unchanged on return.
    pub fn generate_legal(&mut self, list: &mut MoveList) {
        let safety = KingSafety::read(self);
        self.pseudo_legal_moves(list);
        safety.filter(&mut self.board, list);
    }

    /// [`Position::generate_legal`] when the caller knows whether the side to move is in check.
    pub(crate) fn generate_legal_with(&mut self, list: &mut MoveList, in_check: bool) {
        let safety = KingSafety::knowing(self, in_check);
        self.pseudo_legal_moves(list);
        safety.filter(&mut self.board, list);
    }

    /// The number of legal moves (board rules only).
    pub fn count_legal(&mut self) -> usize {
        let mut list = MoveList::new();
        self.generate_legal(&mut list);
        list.len()
    }

    /// The legal moves (board rules only) of a position held by shared reference, in the order
    /// of [`Position::generate_legal`].
    pub fn legal_move_list(&self) -> MoveList {
        let mut list = MoveList::new();
        let safety = KingSafety::read(self);
        self.pseudo_legal_moves(&mut list);
        let mut scratch = self.board;
        safety.filter(&mut scratch, &mut list);
        list
    }

    /// Whether the position has at least one legal move (board rules only).
    ///
    /// Tests each pseudo-legal move as generation finds it and stops at the first legal one;
    /// the general's moves (which need the full attack test) are tried last.
    pub fn has_legal_move(&self) -> bool {
        let safety = KingSafety::read(self);
        let mut first = FirstLegal {
            safety: &safety,
            board: self.board,
            general: [Move::NULL; 4],
            general_len: 0,
            found: false,
        };
        self.pseudo_legal::<GEN_ALL, _>(&mut first, 0);
        let FirstLegal {
            mut board,
            general,
            general_len,
            found,
            ..
        } = first;
        found
            || general[..general_len]
                .iter()
                .any(|&mv| safety.is_legal(&mut board, mv))
    }

    /// Whether `mv` is a legal move here (board rules only).
    pub fn is_legal(&self, mv: Move) -> bool {
        self.legal_move_list().as_slice().contains(&mv)
    }
}

/// A [`MoveSink`] that tests each move for legality as it comes and is done at the first legal
/// one, keeping the general's moves aside to be tried last.
struct FirstLegal<'a> {
    safety: &'a KingSafety,
    /// A copy of the position's board to try moves on.
    board: [u8; 256],
    /// The general's moves (at most four), not yet tried.
    general: [Move; 4],
    general_len: usize,
    found: bool,
}

impl MoveSink for FirstLegal<'_> {
    #[inline(always)]
    fn clear(&mut self) {
        self.general_len = 0;
        self.found = false;
    }

    #[inline(always)]
    fn push(&mut self, from: u8, to: u8) {
        let mv = Move { from, to };
        if from == self.safety.k {
            if let Some(slot) = self.general.get_mut(self.general_len) {
                *slot = mv;
                self.general_len += 1;
            }
        } else if !self.found && self.safety.is_legal(&mut self.board, mv) {
            self.found = true;
        }
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.found
    }
}

/// What deciding the legality of the side to move's pseudo-legal moves needs to know about its
/// general, read once per position from the four lines through it: the attacks on it when it is
/// in check, else the pieces pinned to it ([`KingLines`]). With these most moves are decided
/// without being tried on the board.
struct KingSafety {
    /// The general's point.
    k: u8,
    /// The side to move.
    color: Color,
    /// What the general's situation lets the filter decide.
    guard: Guard,
}

/// The two situations of [`KingSafety`].
enum Guard {
    /// Not in check: the pins and cannon lines.
    Safe(KingLines),
    /// In check: the attacks to answer.
    Checked(Checks),
}

impl KingSafety {
    /// Reads the side to move's general's lines and finds out whether it is in check.
    #[inline]
    fn read(pos: &Position) -> KingSafety {
        let (k, rays) = Self::rays(pos);
        let checks = Checks::new(pos, k, pos.side, &rays);
        let guard = if checks.len > 0 {
            Guard::Checked(checks)
        } else {
            Guard::Safe(KingLines::new(pos, &rays))
        };
        KingSafety {
            k,
            color: pos.side,
            guard,
        }
    }

    /// [`KingSafety::read`] when the caller knows whether the side to move is in check.
    #[inline]
    fn knowing(pos: &Position, in_check: bool) -> KingSafety {
        let (k, rays) = Self::rays(pos);
        let guard = if in_check {
            Guard::Checked(Checks::new(pos, k, pos.side, &rays))
        } else {
            Guard::Safe(KingLines::new(pos, &rays))
        };
        KingSafety {
            k,
            color: pos.side,
            guard,
        }
    }

    /// The side to move's general and the three nearest pieces along each of its lines.
    #[inline(always)]
    fn rays(pos: &Position) -> (u8, [[u8; 3]; 4]) {
        let k = pos.squares[code_index(side_bit(pos.side))];
        // Written out rather than `map`ped: the calls inline.
        let rays = [
            pos.ray_pieces(k, 0),
            pos.ray_pieces(k, 1),
            pos.ray_pieces(k, 2),
            pos.ray_pieces(k, 3),
        ];
        (k, rays)
    }

    /// Whether the pseudo-legal `mv` leaves the general safe; `b` is the position's board (moves
    /// are tried on it and taken back).
    #[inline(always)]
    fn is_legal(&self, b: &mut [u8; 256], mv: Move) -> bool {
        let k = self.k;
        if mv.from == k {
            return !attacked_after_on(b, mv, mv.to, self.color);
        }
        match &self.guard {
            Guard::Checked(checks) => {
                checks.may_evade(k, mv) && !attacked_after_on(b, mv, k, self.color)
            }
            Guard::Safe(lines) => match lines.verdict(b, k, mv) {
                Some(legal) => legal,
                None => !line_or_leg_attack_on(
                    b,
                    k,
                    mv.from,
                    mv.to,
                    is_leg(k, mv.from),
                    side_bit(self.color.opposite()),
                ),
            },
        }
    }

    /// Keeps the legal moves of the pseudo-legal `list`: each illegal one is replaced by the
    /// last of the list, so the order depends only on which moves are illegal.
    #[inline(always)]
    fn filter(&self, b: &mut [u8; 256], list: &mut MoveList) {
        let mut i = 0;
        while i < list.len {
            if self.is_legal(b, list.moves[i]) {
                i += 1;
            } else {
                list.swap_remove(i);
            }
        }
    }
}

/// [`Position::attacked_after`] on board `b`: plays `mv` on `b`, asks whether `color`'s general
/// standing on `k` is then attacked, and takes the move back.
#[inline]
fn attacked_after_on(b: &mut [u8; 256], mv: Move, k: u8, color: Color) -> bool {
    let from = mv.from as usize;
    let to = mv.to as usize;
    let pc = b[from];
    let cap = b[to];
    b[to] = pc;
    b[from] = EMPTY;
    let attacked = king_attacked_on(b, k, color);
    b[from] = pc;
    b[to] = cap;
    attacked
}

/// Plays the piece on `from` to `to` on board `b`, asks whether a piece of side `by`
/// attacks the general on `k` along the lines from `k` through `from` or `to` (chariots,
/// cannons and their screens, the facing general) or through the horse leg `from` frees
/// (`leg`), and takes the move back. The other attacks on `k` are the caller's business.
#[inline]
fn line_or_leg_attack_on(b: &mut [u8; 256], k: u8, from: u8, to: u8, leg: bool, by: u8) -> bool {
    let from_dir = line_dir(k, from);
    let to_dir = line_dir(k, to);
    let pc = b[from as usize];
    let cap = b[to as usize];
    b[to as usize] = pc;
    b[from as usize] = EMPTY;
    let mut attacked = from_dir != 0 && ray_attacked(b, k, from_dir, by);
    if !attacked && to_dir != 0 && to_dir != from_dir {
        attacked = ray_attacked(b, k, to_dir, by);
    }
    if !attacked && leg {
        let d = from as i16 - k as i16;
        let vert = if d > 0 { 16 } else { -16 };
        let horiz = d - vert;
        for s in [step(from, vert), step(from, horiz)] {
            let c = b[s as usize];
            if c & by != 0 && CELL_KIND[c as usize] == K_HORSE {
                attacked = true;
            }
        }
    }
    b[from as usize] = pc;
    b[to as usize] = cap;
    attacked
}

/// What the four lines from a general that is not in check hold, for deciding most moves'
/// legality without trying them: the pieces whose departure would expose the general, and the
/// enemy cannon that is the first piece on a line (a piece arriving between them would be its
/// screen).
struct KingLines {
    /// Per line (in [`ORTH`] order), the points (0 for none) of the first and second pieces when
    /// taking that piece away opens an attack: the first when the second is an enemy chariot (or
    /// the enemy general on the file) or the third an enemy cannon, the second when the third is
    /// an enemy cannon.
    exposing: [[u8; 2]; 4],
    /// Per line, the point of the first piece when it is an enemy cannon, else 0.
    cannon_first: [u8; 4],
}

impl KingLines {
    /// Reads the lines from the side to move's general, given the three nearest pieces along
    /// each ([`Position::ray_pieces`] in [`ORTH`] order).
    #[inline]
    fn new(pos: &Position, rays: &[[u8; 3]; 4]) -> KingLines {
        let b = &pos.board;
        let them = side_bit(pos.side.opposite());
        let mut lines = KingLines {
            exposing: [[0; 2]; 4],
            cannon_first: [0; 4],
        };
        let enemy_kind = |p: u8| {
            let c = b[p as usize];
            if c & them != 0 {
                CELL_KIND[c as usize]
            } else {
                7
            }
        };
        for (i, &[p1, p2, p3]) in rays.iter().enumerate() {
            // Past the edge the points are off-board cells (no enemy kind).
            if b[p1 as usize] == OFF {
                continue;
            }
            let (k1, k2, k3) = (enemy_kind(p1), enemy_kind(p2), enemy_kind(p3));
            if k1 == K_CANNON {
                lines.cannon_first[i] = p1;
            }
            let cannon_third = k3 == K_CANNON;
            if k2 == K_ROOK || (k2 == K_KING && i < 2) || cannon_third {
                lines.exposing[i][0] = p1;
            }
            if cannon_third {
                lines.exposing[i][1] = p2;
            }
        }
        lines
    }

    /// Whether the pseudo-legal `mv` (not a general move) is legal, or `None` when these lines
    /// cannot tell: a piece leaving a horse leg of the general, or moving along one of its lines.
    #[inline(always)]
    fn verdict(&self, b: &[u8; 256], k: u8, mv: Move) -> Option<bool> {
        let (from, to) = (mv.from, mv.to);
        let from_line = KING_RELATION[delta_index(k, from)];
        let to_line = KING_RELATION[delta_index(k, to)] & 7;
        if from_line == NO_LINE && to_line == NO_LINE {
            return Some(true);
        }
        if from_line == to_line || from_line & KING_LEG != 0 {
            return None;
        }
        if from_line != NO_LINE && self.exposing[from_line as usize].contains(&from) {
            return Some(false);
        }
        if to_line != NO_LINE && b[to as usize] == EMPTY {
            // Arriving (not capturing) between the general and an enemy cannon that faces it
            // with nothing between makes the arriving piece the cannon's screen. A capture on a
            // line changes no occupancy there, so it opens nothing.
            let c = self.cannon_first[to_line as usize];
            if c != 0 && (to as i16 - k as i16).abs() < (c as i16 - k as i16).abs() {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// One attack on a general: along a line (`dir` != 0) by the piece on `far` over the screen
/// `screen` (0 for a chariot or the facing general), or from a point (`dir` == 0) by the horse
/// or soldier on `far` through the leg `screen` (0 for a soldier).
#[derive(Clone, Copy, Default)]
struct Check {
    dir: i16,
    far: u8,
    screen: u8,
}

/// The attacks on a general in check, for rejecting most moves that cannot evade them all.
struct Checks {
    list: [Check; 16],
    len: usize,
}

impl Checks {
    /// The attacks on `color`'s general on `k` (the attack test of [`king_attacked_on`], every
    /// attacker kept), given the three nearest pieces along each of its lines
    /// ([`Position::ray_pieces`] in [`ORTH`] order). None exactly when it is not in check.
    #[inline]
    fn new(pos: &Position, k: u8, color: Color, rays: &[[u8; 3]; 4]) -> Checks {
        let b = &pos.board;
        let them = side_bit(color.opposite());
        let mut checks = Checks {
            list: [Check::default(); 16],
            len: 0,
        };
        let enemy = |s: u8, kind: u8| {
            let c = b[s as usize];
            c & them != 0 && CELL_KIND[c as usize] == kind
        };
        let mut add = |dir: i16, far: u8, screen: u8| {
            if checks.len < checks.list.len() {
                checks.list[checks.len] = Check { dir, far, screen };
                checks.len += 1;
            }
        };
        for (i, (&d, &[p1, p2, _])) in ORTH.iter().zip(rays).enumerate() {
            if b[p1 as usize] == OFF {
                continue;
            }
            if enemy(p1, K_ROOK) || (i < 2 && enemy(p1, K_KING)) {
                add(d, p1, 0);
                continue;
            }
            if enemy(p2, K_CANNON) {
                add(d, p2, p1);
            }
        }
        for &d in DIAG.iter() {
            let leg = step(k, d);
            if b[leg as usize] != EMPTY {
                continue;
            }
            let vert = if d > 0 { 16 } else { -16 };
            for s in [step(leg, vert), step(leg, d - vert)] {
                if enemy(s, K_HORSE) {
                    add(0, s, leg);
                }
            }
        }
        for s in [step(k, FORWARD[color.index()]), step(k, 1), step(k, -1)] {
            if enemy(s, K_PAWN) {
                add(0, s, 0);
            }
        }
        checks
    }

    /// Whether the move `mv` of a piece other than the general (on `k`) could answer every
    /// attack: capture the attacker or step between it and the general, block a horse's leg,
    /// or take a cannon's screen away. A move that cannot is illegal; one that can still needs
    /// the full test (it may open another line).
    #[inline]
    fn may_evade(&self, k: u8, mv: Move) -> bool {
        let (from, to) = (mv.from, mv.to);
        self.list[..self.len].iter().all(|c| {
            if c.dir != 0 {
                from == c.screen
                    || (line_dir(k, to) == c.dir
                        && (to as i16 - k as i16).abs() <= (c.far as i16 - k as i16).abs())
            } else {
                to == c.far || to == c.screen
            }
        })
    }
}

/// [`KING_RELATION`] of a point on none of the general's lines.
const NO_LINE: u8 = 4;
/// [`KING_RELATION`] flag of a point diagonally next to the general (a horse leg).
const KING_LEG: u8 = 8;

/// By `s - k` (see [`delta_index`]) for a general on `k` in a palace (FEN parsing and the moves
/// keep it there) and a point `s` of the board: the index in [`ORTH`] of the direction from `k`
/// to `s` when they share a rank or file (from a palace file, an offset of at most 8 stays on
/// the rank or leaves the board; a multiple of 16 stays on the file), else [`NO_LINE`] (also for
/// `s == k`), plus [`KING_LEG`] for the diagonal neighbours.
const KING_RELATION: [u8; 512] = {
    let mut t = [NO_LINE; 512];
    let mut d: i32 = -255;
    while d < 256 {
        let i = (256 + d) as usize;
        if d != 0 && d % 16 == 0 {
            t[i] = if d > 0 { 0 } else { 1 };
        } else if d != 0 && d >= -8 && d <= 8 {
            t[i] = if d > 0 { 2 } else { 3 };
        }
        d += 1;
    }
    let mut j = 0;
    while j < 4 {
        t[(256 + DIAG[j]) as usize] |= KING_LEG;
        j += 1;
    }
    t
};

/// Whether `s` shares a rank or file with `k` (or is `k`).
#[inline(always)]
fn on_lines(k: u8, s: u8) -> bool {
    SAME_LINE_XOR[(s ^ k) as usize]
}

/// Whether two mailbox points whose indices XOR to `x` share a rank or file.
const SAME_LINE_XOR: [bool; 256] = {
    let mut t = [false; 256];
    let mut x = 0;
    while x < 256 {
        t[x] = x & 0xF0 == 0 || x & 0x0F == 0;
        x += 1;
    }
    t
};

/// The index of `s - k` in [`NEAR_KING`].
#[inline(always)]
fn delta_index(k: u8, s: u8) -> usize {
    (s as usize + 256 - k as usize) & 511
}

/// By `s - k` (see [`delta_index`]): 1 for the general's diagonal neighbours (horse legs), 2 for
/// the eight points a horse attacks it from, 0 otherwise.
const NEAR_KING: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut i = 0;
    while i < 4 {
        t[(256 + DIAG[i]) as usize] = 1;
        i += 1;
    }
    let mut i = 0;
    while i < HORSE_JUMPS.len() {
        t[(256 + HORSE_JUMPS[i].0) as usize] = 2;
        i += 1;
    }
    t
};

/// Whether `s` is diagonally next to `k` (a horse leg of a general on `k`).
#[inline(always)]
fn is_leg(k: u8, s: u8) -> bool {
    NEAR_KING[delta_index(k, s)] == 1
}

/// For a horse jump of `d` (index `d + 34`, `d` in -34..=34), the step from the horse to its
/// leg; 0 for other offsets.
const HORSE_LEG_TOWARD: [i8; 69] = {
    let mut t = [0i8; 69];
    let mut i = 0;
    while i < HORSE_JUMPS.len() {
        let (j, leg) = HORSE_JUMPS[i];
        t[(j + 34) as usize] = leg as i8;
        i += 1;
    }
    t
};

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
    near_attack(b, k, color)
}

/// Whether an enemy horse or soldier attacks `color`'s general on `k` (the attacks that are not
/// along a line).
#[inline(always)]
fn near_attack(b: &[u8; 256], k: u8, color: Color) -> bool {
    let them = side_bit(color.opposite());
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

/// Guard bits of a file's occupancy (bit `row`): rows 1, 2 and 13, 14 are off-board cells
/// next to the edges, bits 0 and 31 keep the bit arithmetic of [`Position::ray_pieces`] total.
const FILE_GUARDS: u32 = 1 | 0b11 << 1 | 0b11 << 13 | 1 << 31;
/// Guard bits of a rank's occupancy (bit `column`): columns 1, 2 and 12, 13, plus bits 0, 31.
const RANK_GUARDS: u32 = 1 | 0b11 << 1 | 0b11 << 12 | 1 << 31;

/// Whether any piece of `color` attacks the point `s` on board `b` (could capture a piece
/// standing there; pins ignored, the general only by its palace step, not by facing).
#[inline]
pub(crate) fn attacked_by(b: &[u8; 256], s: u8, color: Color) -> bool {
    scan_attackers(b, s, color, |_, _| true)
}

/// The point of `color`'s piece attacking `s` on board `b` that comes first in `rank` (indexed by
/// slot: lower ranks are tried first), or `None`; pins ignored, the general only by its palace step.
///
/// Reads the board only (a piece list may be stale on a scratch board).
#[inline]
pub(crate) fn best_attacker(b: &[u8; 256], s: u8, color: Color, rank: &[u8; 16]) -> Option<u8> {
    let mut best = u8::MAX;
    let mut best_sq = 0u8;
    scan_attackers(b, s, color, |c, sq| {
        let r = rank[(c & 15) as usize];
        if r < best {
            best = r;
            best_sq = sq;
        }
        false
    });
    (best != u8::MAX).then_some(best_sq)
}

/// Calls `visit(piece, point)` for every piece of `color` attacking `s` on board `b` (pins
/// ignored, the general only by its palace step) and returns `true` as soon as `visit` does.
///
/// Looks outward from `s`: along the four lines (chariot on the first piece, cannon on the
/// second, general or soldier next to it), the diagonal neighbours (advisors), the elephant
/// points behind free eyes and the eight horse points behind free legs.
#[inline(always)]
fn scan_attackers(
    b: &[u8; 256],
    s: u8,
    color: Color,
    mut visit: impl FnMut(u8, u8) -> bool,
) -> bool {
    let mine = side_bit(color);
    let ci = color.index();
    let palace = IN_PALACE[ci][s as usize];
    for &d in ORTH.iter() {
        let mut t = step(s, d);
        let first = b[t as usize];
        if first != EMPTY {
            if first == OFF {
                continue;
            }
            if first & mine != 0 {
                let attacks = match CELL_KIND[first as usize] {
                    K_ROOK => true,
                    K_KING => palace,
                    // The soldier on `t` steps by `-d` onto `s`.
                    K_PAWN => {
                        -d == FORWARD[ci] || ((d == 1 || d == -1) && !OWN_HALF[ci][t as usize])
                    }
                    _ => false,
                };
                if attacks && visit(first, t) {
                    return true;
                }
            }
        } else {
            t = step(t, d);
            while b[t as usize] == EMPTY {
                t = step(t, d);
            }
            let c = b[t as usize];
            if c == OFF {
                continue;
            }
            if c & mine != 0 && CELL_KIND[c as usize] == K_ROOK && visit(c, t) {
                return true;
            }
        }
        t = step(t, d);
        while b[t as usize] == EMPTY {
            t = step(t, d);
        }
        let c = b[t as usize];
        if c & mine != 0 && CELL_KIND[c as usize] == K_CANNON && visit(c, t) {
            return true;
        }
    }
    let own_half = OWN_HALF[ci][s as usize];
    for &d in DIAG.iter() {
        let t = step(s, d);
        let c = b[t as usize];
        if c == EMPTY {
            if own_half {
                let e2 = step(t, d);
                let e = b[e2 as usize];
                if e & mine != 0 && CELL_KIND[e as usize] == K_ELEPHANT && visit(e, e2) {
                    return true;
                }
            }
        } else if palace && c & mine != 0 && CELL_KIND[c as usize] == K_ADVISOR && visit(c, t) {
            return true;
        }
    }
    for &(j, leg) in HORSE_JUMPS.iter() {
        // A horse on `s - j` jumps over its leg `s - j + leg`.
        let p = step(s, -j);
        let c = b[p as usize];
        if c & mine != 0
            && CELL_KIND[c as usize] == K_HORSE
            && b[step(p, leg) as usize] == EMPTY
            && visit(c, p)
        {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::rng::Rng;

    /// Positions from seeded random games (a few hundred, all phases).
    fn random_positions() -> Vec<Position> {
        let mut rng = Rng::new(11);
        let mut out = Vec::new();
        for _ in 0..40 {
            let mut pos = Position::start();
            for _ in 0..150 {
                let list = pos.legal_move_list();
                if list.is_empty() {
                    break;
                }
                out.push(pos.clone());
                let mv = list.as_slice()[rng.below(list.len())];
                pos.make(mv);
            }
        }
        out
    }

    #[test]
    fn attacked_by_agrees_with_pseudo_legal_captures() {
        // Reference: put an enemy piece on the point (if empty) and ask whether any pseudo-legal
        // move of `color` lands there.
        let mut hits = 0;
        for pos in random_positions() {
            for color in [Color::Red, Color::Black] {
                let enemy = side_bit(color.opposite());
                for s in 0..=255u8 {
                    let c = pos.board[s as usize];
                    if c == OFF || c & side_bit(color) != 0 {
                        continue;
                    }
                    let mut p = pos.clone();
                    p.side = color;
                    if c == EMPTY {
                        p.board[s as usize] = enemy | 11;
                    }
                    let mut list = MoveList::new();
                    p.pseudo_legal_moves(&mut list);
                    let reference = list.as_slice().iter().any(|m| m.to == s);
                    assert_eq!(
                        attacked_by(&pos.board, s, color),
                        reference,
                        "{:?} point {} colour {color:?}",
                        pos,
                        Square::from_mailbox(s)
                    );
                    hits += usize::from(reference);
                }
            }
        }
        assert!(hits > 10_000, "too few attacked points: {hits}");
    }

    /// The first non-empty point (a piece or the edge) from `s` in direction `d`, `s` excluded.
    fn next_piece(b: &[u8; 256], s: u8, d: i16) -> u8 {
        let mut t = step(s, d);
        while b[t as usize] == EMPTY {
            t = step(t, d);
        }
        t
    }

    #[test]
    fn occupancy_rays_and_attack_tests_agree_with_walking_the_board() {
        let mut tried = 0;
        for mut pos in random_positions() {
            // The three nearest pieces (or off-board cells) along every line from every point.
            for &s in BOARD_POINTS.iter() {
                for (dir, &d) in ORTH.iter().enumerate() {
                    let [p1, p2, p3] = pos.ray_pieces(s, dir);
                    let w1 = next_piece(&pos.board, s, d);
                    assert_eq!(p1, w1, "{pos:?} {s} {d}");
                    if pos.board[w1 as usize] == OFF {
                        assert_eq!(pos.board[p2 as usize], OFF);
                        assert_eq!(pos.board[p3 as usize], OFF);
                        continue;
                    }
                    let w2 = next_piece(&pos.board, w1, d);
                    assert_eq!(p2, w2, "{pos:?} {s} {d}");
                    if pos.board[w2 as usize] == OFF {
                        assert_eq!(pos.board[p3 as usize], OFF);
                    } else {
                        assert_eq!(p3, next_piece(&pos.board, w2, d), "{pos:?} {s} {d}");
                    }
                }
            }
            // Both generals where they stand, then after every pseudo-legal move on a copy of
            // the board (the moving side's general may be the mover).
            for color in [Color::Red, Color::Black] {
                let k = pos.squares[code_index(code_of(color, 0))];
                assert_eq!(
                    pos.king_attacked(k, color),
                    king_attacked_on(&pos.board, k, color)
                );
            }
            let mut pseudo = MoveList::new();
            pos.pseudo_legal_moves(&mut pseudo);
            let before = pos.clone();
            for &m in pseudo.as_slice() {
                let mut b = pos.board;
                b[m.to as usize] = b[m.from as usize];
                b[m.from as usize] = EMPTY;
                for color in [Color::Red, Color::Black] {
                    let mut k = pos.squares[code_index(code_of(color, 0))];
                    if k == m.from {
                        k = m.to;
                    }
                    let fast = pos.attacked_after(m, k, color);
                    assert_eq!(fast, king_attacked_on(&b, k, color), "{m} {pos:?}");
                    tried += usize::from(fast);
                }
                assert_eq!(pos, before);
            }
        }
        assert!(tried > 1_000, "too few attacked generals: {tried}");
    }

    #[test]
    fn quiet_checks_are_the_checking_quiet_moves_of_the_full_list_in_order() {
        let mut total = 0;
        for mut pos in random_positions() {
            let enemy = pos.side.opposite();
            let mut all = MoveList::new();
            pos.pseudo_legal_moves(&mut all);
            let mut expected = Vec::new();
            for &m in all.as_slice() {
                if pos.board[m.to as usize] != EMPTY {
                    continue;
                }
                let undo = pos.make(m);
                if pos.is_in_check(enemy) {
                    expected.push(m);
                }
                pos.unmake(m, undo);
            }
            let before = pos.clone();
            let mut checks = MoveList::new();
            pos.quiet_checks(&mut checks);
            assert_eq!(checks.as_slice(), &expected[..], "{pos:?}");
            assert_eq!(pos, before);
            total += expected.len();
        }
        assert!(total > 1_000, "too few quiet checks: {total}");
    }

    #[test]
    fn move_gives_check_agrees_with_the_full_attack_test() {
        let mut checks = 0;
        for mut pos in random_positions() {
            let enemy = pos.side.opposite();
            let k = pos.squares[code_index(code_of(enemy, 0))];
            let mut pseudo = MoveList::new();
            pos.pseudo_legal_moves(&mut pseudo);
            for &m in pseudo.as_slice() {
                let fast = pos.move_gives_check(m, k);
                let undo = pos.make(m);
                let slow = pos.is_in_check(enemy);
                pos.unmake(m, undo);
                assert_eq!(fast, slow, "{m} in {pos:?}");
                checks += usize::from(slow);
            }
        }
        assert!(checks > 500, "too few checking moves: {checks}");
    }

    #[test]
    fn king_relation_matches_the_geometry_of_board_points() {
        let palaces = BOARD_POINTS
            .iter()
            .filter(|&&k| IN_PALACE[0][k as usize] || IN_PALACE[1][k as usize]);
        for &k in palaces {
            for &s in BOARD_POINTS.iter() {
                let r = KING_RELATION[delta_index(k, s)];
                let line = if s == k {
                    NO_LINE
                } else if mb_file(s) == mb_file(k) {
                    u8::from(s < k)
                } else if mb_rank(s) == mb_rank(k) {
                    2 + u8::from(s < k)
                } else {
                    NO_LINE
                };
                assert_eq!(r & 7, line, "{k} {s}");
                assert_eq!(
                    ORTH.get(line as usize).copied().unwrap_or(0),
                    line_dir(k, s)
                );
                assert_eq!(r & KING_LEG != 0, is_leg(k, s));
            }
        }
    }

    #[test]
    fn captures_are_the_captures_of_the_full_list_in_order() {
        let mut total = 0;
        for pos in random_positions() {
            let mut all = MoveList::new();
            pos.pseudo_legal_moves(&mut all);
            let expected: Vec<Move> = all
                .as_slice()
                .iter()
                .copied()
                .filter(|m| pos.board[m.to as usize] != EMPTY)
                .collect();
            let mut caps = MoveList::new();
            pos.pseudo_legal_captures(&mut caps);
            assert_eq!(caps.as_slice(), &expected[..], "{pos:?}");
            total += expected.len();
        }
        assert!(total > 5_000, "too few captures: {total}");
    }

    /// A random position with both generals in their palaces and up to `pieces` more pieces
    /// (each on a point its kind may stand on), crowded around the generals' lines and horse
    /// points so that pins by chariots, cannon screens, horse legs and the facing generals are
    /// common; `None` when the side not to move is in check (an unreachable position).
    fn random_pinned_position(seed: u64, pieces: usize) -> Option<Position> {
        let mut rng = Rng::new(seed);
        let mut pos = Position::empty();
        let palace = |rng: &mut Rng, color: Color| {
            let (file, rank) = (3 + rng.below(3) as u8, rng.below(3) as u8);
            let rank = if color == Color::Red { rank } else { 9 - rank };
            Square::new(file, rank)
        };
        for color in [Color::Red, Color::Black] {
            let sq = palace(&mut rng, color)?;
            pos.put(PieceKind::King, color, sq);
        }
        // The kinds that pin and their screens most often.
        const KINDS: [PieceKind; 10] = [
            PieceKind::Rook,
            PieceKind::Rook,
            PieceKind::Cannon,
            PieceKind::Cannon,
            PieceKind::Horse,
            PieceKind::Horse,
            PieceKind::Pawn,
            PieceKind::Pawn,
            PieceKind::Advisor,
            PieceKind::Elephant,
        ];
        for _ in 0..pieces {
            let kind = KINDS[rng.below(KINDS.len())];
            let color = if rng.below(2) == 0 {
                Color::Red
            } else {
                Color::Black
            };
            let near = pos.squares[code_index(code_of(
                if rng.below(2) == 0 {
                    Color::Red
                } else {
                    Color::Black
                },
                0,
            ))];
            let (kf, kr) = (mb_file(near), mb_rank(near));
            let (file, rank) = match rng.below(4) {
                0 => (kf, rng.below(10) as u8),
                1 => (rng.below(9) as u8, kr),
                2 => {
                    let f = i16::from(kf) + rng.below(5) as i16 - 2;
                    let r = i16::from(kr) + rng.below(5) as i16 - 2;
                    (u8::try_from(f).ok()?, u8::try_from(r).ok()?)
                }
                _ => (rng.below(9) as u8, rng.below(10) as u8),
            };
            let Some(sq) = Square::new(file, rank) else {
                continue;
            };
            // Ranks counted from the piece's own side.
            let own = if color == Color::Red { rank } else { 9 - rank };
            let fits = match kind {
                PieceKind::Advisor => (3..=5).contains(&file) && own <= 2 && (file + own) % 2 == 1,
                PieceKind::Elephant => file % 2 == 0 && own <= 4 && (file + own) % 4 == 2,
                PieceKind::Pawn => own >= 5 || (own >= 3 && file % 2 == 0),
                _ => true,
            };
            if fits && pos.piece_at(sq).is_none() {
                pos.put(kind, color, sq);
            }
        }
        pos.side = if rng.below(2) == 0 {
            Color::Red
        } else {
            Color::Black
        };
        pos.hash = pos.compute_hash();
        (!pos.is_in_check(pos.side.opposite())).then_some(pos)
    }

    /// The plain legality filter: every pseudo-legal move played on a copy of the board and the
    /// own general (where it then stands) tested by [`king_attacked_on`]; illegal moves are
    /// replaced by the last of the list, as the generators do, so the order is theirs too.
    fn plain_legal(pos: &Position) -> Vec<Move> {
        let mut list = MoveList::new();
        pos.pseudo_legal_moves(&mut list);
        let k = pos.squares[code_index(side_bit(pos.side))];
        let mut moves = list.as_slice().to_vec();
        let mut i = 0;
        while i < moves.len() {
            let mv = moves[i];
            let mut b = pos.board;
            b[mv.to as usize] = b[mv.from as usize];
            b[mv.from as usize] = EMPTY;
            let king = if mv.from == k { mv.to } else { k };
            if king_attacked_on(&b, king, pos.side) {
                moves.swap_remove(i);
            } else {
                i += 1;
            }
        }
        moves
    }

    /// Checks every legal generator on `pos` against [`plain_legal`] (same moves, same order)
    /// and returns the kinds (bit per kind) of the enemy pieces that some pinned piece's move,
    /// not in check, would let attack the general.
    fn compare_with_plain_filter(pos: &Position) -> u8 {
        let expected = plain_legal(pos);
        assert_eq!(pos.legal_move_list().as_slice(), &expected[..], "{pos:?}");
        let mut p = pos.clone();
        let mut list = MoveList::new();
        p.generate_legal(&mut list);
        assert_eq!(list.as_slice(), &expected[..], "{pos:?}");
        let in_check = pos.in_check();
        p.generate_legal_with(&mut list, in_check);
        assert_eq!(list.as_slice(), &expected[..], "{pos:?}");
        assert_eq!(p.count_legal(), expected.len());
        assert_eq!(pos.has_legal_move(), !expected.is_empty(), "{pos:?}");
        assert_eq!(&p, pos);
        // Which enemy kinds the rejected moves of pinned pieces would unleash.
        let mut pinners = 0u8;
        let k = pos.squares[code_index(side_bit(pos.side))];
        let mut pseudo = MoveList::new();
        pos.pseudo_legal_moves(&mut pseudo);
        for &mv in pseudo.as_slice() {
            if in_check || mv.from == k || expected.contains(&mv) {
                continue;
            }
            let mut after = pos.clone();
            after.make(mv);
            let rays = [0, 1, 2, 3].map(|d| after.ray_pieces(k, d));
            let checks = Checks::new(&after, k, pos.side, &rays);
            for c in &checks.list[..checks.len] {
                pinners |= 1 << CELL_KIND[after.board[c.far as usize] as usize];
            }
        }
        pinners
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]

        #[test]
        fn legal_generators_agree_with_the_plain_filter_on_random_positions(
            seed in proptest::prelude::any::<u64>(),
            pieces in 0usize..30,
        ) {
            if let Some(pos) = random_pinned_position(seed, pieces) {
                compare_with_plain_filter(&pos);
            }
        }
    }

    #[test]
    fn random_positions_pin_by_every_line_and_leg_attacker() {
        // The same comparison over fixed seeds, with proof that the positions exercise every
        // kind of pin: chariot lines, cannon screens, horse legs and the facing generals.
        let (mut positions, mut in_check, mut pinners) = (0, 0, 0u8);
        for seed in 0..4_000 {
            if let Some(pos) = random_pinned_position(seed, 4 + (seed % 24) as usize) {
                pinners |= compare_with_plain_filter(&pos);
                positions += 1;
                in_check += usize::from(pos.in_check());
            }
        }
        assert!(positions > 1_000, "too few positions: {positions}");
        assert!(in_check > 200, "too few positions in check: {in_check}");
        for kind in [K_ROOK, K_CANNON, K_HORSE, K_KING] {
            assert!(pinners & (1 << kind) != 0, "no pin by kind {kind}");
        }
    }

    #[test]
    fn legal_generation_agrees_with_the_plain_filter() {
        // Every pseudo-legal move tried on the board against the shortcuts of `generate_legal`,
        // `legal_move_list` and `count_legal`.
        let mut in_check = 0;
        for mut pos in random_positions() {
            let mut pseudo = MoveList::new();
            pos.pseudo_legal_moves(&mut pseudo);
            let mut reference: Vec<Move> = Vec::new();
            for &m in pseudo.as_slice() {
                if pos.is_legal_pseudo(m) {
                    reference.push(m);
                }
            }
            let mut fast = MoveList::new();
            pos.generate_legal(&mut fast);
            let mut a: Vec<Move> = fast.as_slice().to_vec();
            let mut b = pos.legal_move_list().as_slice().to_vec();
            a.sort_by_key(|m| (m.from, m.to));
            b.sort_by_key(|m| (m.from, m.to));
            reference.sort_by_key(|m| (m.from, m.to));
            assert_eq!(a, reference, "{pos:?}");
            assert_eq!(b, reference, "{pos:?}");
            assert_eq!(pos.count_legal(), reference.len());
            assert_eq!(pos.has_legal_move(), !reference.is_empty());
            in_check += usize::from(pos.in_check());
        }
        assert!(in_check > 100, "too few positions in check: {in_check}");
    }
}
