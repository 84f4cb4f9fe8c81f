//! The end of the game: checkmate and stalemate (the side to move loses), repetition with the
//! Asian/WXF verdicts (perpetual check loses, perpetual chase loses, other repetitions draw), the
//! 60-move rule (120 plies without a capture draw) and "neither side can attack" (no chariot,
//! horse, cannon or soldier left on the board) draws.
//!
//! # Repetition
//!
//! The game ends when the current position occurs for the third time (same board and side to move,
//! counted since the last capture and the last null move). The verdict looks at every position
//! from the first of the three occurrences to now:
//! - a side that gave check with every one of its moves in that span ("perpetual check") loses;
//!   when both did, the game is drawn;
//! - otherwise a side that, with every one of its moves, chased one and the same enemy piece
//!   ("perpetual chase") loses; when both did, the game is drawn;
//! - otherwise the game is drawn.
//!
//! # Chase cases covered
//!
//! A move chases an enemy piece (never the general, never a soldier that has not crossed the
//! river) when, after it, the piece is newly attacked and
//! 1. the attacker is a horse or cannon and the target a chariot, or the attacker an elephant or
//!    advisor and the target a chariot, cannon or horse (attack on a stronger piece, protected or
//!    not); or
//! 2. the target is unprotected: no piece of its side defends it (defenders that are pinned to
//!    their general do not count, nor a general that could only recapture into the flying-general
//!    position) — except that an attack on a piece of the same kind that can attack back is not a
//!    chase (mutual attack), unless the target is pinned or it is a horse whose leg is blocked.
//!
//! "Newly attacked" covers the moved piece's own attacks (for a chariot or cannon, not along the
//! line it moved on), attacks discovered by the move (a horse leg, an elephant eye or a line
//! opened, a cannon screen placed), defenders made useless because the move pinned them ("fake
//! roots"), and pieces hit by a piece that the move turned into a discovered-check threat.
//! These are the cases of the WXF rule diagrams (arXiv 2412.17334) that Fairy-Stockfish's AXF
//! chasing rule implements; the repetition fixture checked against pyffish exercises them.
//! Not covered (they are drawn): chases by the general or by soldiers, chases that alternate
//! between different pieces, "one check one chase" mixed sequences, and threats of mate.

use crate::board::*;
use crate::position::{HistEntry, Position};

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// The side to move is in check and has no legal move.
    Checkmate,
    /// The side to move is not in check and has no legal move (it loses).
    Stalemate,
    /// The third occurrence of a position where one side checked with every move.
    PerpetualCheck,
    /// The third occurrence of a position where one side chased a piece with every move.
    PerpetualChase,
    /// The third occurrence of a position without a perpetual-check or chase verdict (draw).
    Repetition,
    /// 120 plies (60 moves each) without a capture (draw).
    MoveLimit,
    /// Neither side has a piece that can attack (draw).
    NoAttackers,
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: EndReason,
}

/// Plies without a capture after which the game is drawn.
pub const MOVE_LIMIT_PLIES: u32 = 120;

type Bb = u128;

#[inline]
fn bit(sq: u8) -> Bb {
    1u128 << Square::from_mailbox(sq).index()
}

fn squares_of(mut b: Bb) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if b == 0 {
            return None;
        }
        let i = b.trailing_zeros() as u8;
        b &= b - 1;
        Some(Square::from_index(i).map(|s| s.to_mailbox()).unwrap_or(0))
    })
}

fn color_of(code: u8) -> Color {
    if code & RED_BIT != 0 {
        Color::Red
    } else {
        Color::Black
    }
}

/// The points a piece of `kind`/`color` on `s` attacks (could capture on) over board `b`.
fn attack_set(b: &[u8; 256], kind: u8, color: Color, s: u8) -> Bb {
    let ci = color.index();
    let mut out: Bb = 0;
    match kind {
        K_KING => {
            for &d in ORTH.iter() {
                let t = step(s, d);
                if IN_PALACE[ci][t as usize] {
                    out |= bit(t);
                }
            }
        }
        K_ADVISOR => {
            for &d in DIAG.iter() {
                let t = step(s, d);
                if IN_PALACE[ci][t as usize] {
                    out |= bit(t);
                }
            }
        }
        K_ELEPHANT => {
            for &d in DIAG.iter() {
                let eye = step(s, d);
                let t = step(eye, d);
                if OWN_HALF[ci][t as usize] && b[eye as usize] == EMPTY {
                    out |= bit(t);
                }
            }
        }
        K_HORSE => {
            for &(j, leg) in HORSE_JUMPS.iter() {
                let t = step(s, j);
                if IN_BOARD[t as usize] && b[step(s, leg) as usize] == EMPTY {
                    out |= bit(t);
                }
            }
        }
        K_ROOK => {
            for &d in ORTH.iter() {
                let mut t = step(s, d);
                while b[t as usize] == EMPTY {
                    out |= bit(t);
                    t = step(t, d);
                }
                if b[t as usize] != OFF {
                    out |= bit(t);
                }
            }
        }
        K_CANNON => {
            for &d in ORTH.iter() {
                let mut t = step(s, d);
                while b[t as usize] == EMPTY {
                    t = step(t, d);
                }
                if b[t as usize] == OFF {
                    continue;
                }
                t = step(t, d);
                while b[t as usize] == EMPTY {
                    t = step(t, d);
                }
                if b[t as usize] != OFF {
                    out |= bit(t);
                }
            }
        }
        K_PAWN => {
            let t = step(s, FORWARD[ci]);
            if IN_BOARD[t as usize] {
                out |= bit(t);
            }
            if !OWN_HALF[ci][s as usize] {
                for t in [step(s, 1), step(s, -1)] {
                    if IN_BOARD[t as usize] {
                        out |= bit(t);
                    }
                }
            }
        }
        _ => {}
    }
    out
}

/// Pieces of `color` on board `b` that attack `s`.
fn attackers_to(b: &[u8; 256], s: u8, color: Color) -> Bb {
    let mine = side_bit(color);
    let target = bit(s);
    let mut out = 0;
    for &sq in BOARD_POINTS.iter() {
        let c = b[sq as usize];
        if c != OFF
            && c & mine != 0
            && attack_set(b, CELL_KIND[c as usize], color, sq) & target != 0
        {
            out |= bit(sq);
        }
    }
    out
}

/// The points of each colour's pieces of each kind on one board (indexed `[colour][kind]`), so
/// [`PieceSets::get`] answers without scanning the board again.
struct PieceSets([[Bb; 7]; 2]);

impl PieceSets {
    fn of(b: &[u8; 256]) -> PieceSets {
        let mut t = [[0; 7]; 2];
        for &sq in BOARD_POINTS.iter() {
            let c = b[sq as usize];
            if c != EMPTY {
                let side = usize::from(c & RED_BIT == 0);
                t[side][CELL_KIND[c as usize] as usize] |= bit(sq);
            }
        }
        PieceSets(t)
    }

    /// The points of `color`'s pieces of the given kinds (all kinds when `kinds` is empty).
    fn get(&self, color: Color, kinds: &[u8]) -> Bb {
        let row = &self.0[color.index()];
        if kinds.is_empty() {
            row.iter().fold(0, |acc, &x| acc | x)
        } else {
            kinds.iter().fold(0, |acc, &k| acc | row[k as usize])
        }
    }
}

/// `color`'s soldiers that have not crossed the river, and its general.
fn king_and_uncrossed(b: &[u8; 256], color: Color) -> Bb {
    let mine = side_bit(color);
    let mut out = 0;
    for &sq in BOARD_POINTS.iter() {
        let c = b[sq as usize];
        if c == OFF || c & mine == 0 {
            continue;
        }
        let k = CELL_KIND[c as usize];
        if k == K_KING || (k == K_PAWN && OWN_HALF[color.index()][sq as usize]) {
            out |= bit(sq);
        }
    }
    out
}

/// Every point on the same rank or file as `s` (not `s` itself).
fn lines(s: u8) -> Bb {
    let mut out = 0;
    for &d in ORTH.iter() {
        let mut t = step(s, d);
        while IN_BOARD[t as usize] {
            out |= bit(t);
            t = step(t, d);
        }
    }
    out
}

fn king_sq(b: &[u8; 256], color: Color) -> u8 {
    let code = code_of(color, 0);
    BOARD_POINTS
        .iter()
        .copied()
        .find(|&s| b[s as usize] == code)
        .unwrap_or(0)
}

/// Pieces (of either side) standing between `color`'s general and an enemy chariot, cannon or
/// horse that would attack the general without them (Fairy-Stockfish's "blockers for king").
fn blockers_for_king(b: &[u8; 256], color: Color) -> Bb {
    let k = king_sq(b, color);
    if k == 0 {
        return 0;
    }
    let them = side_bit(color.opposite());
    let mut blockers = 0;
    // Horses whose leg (a diagonal neighbour of the general) is occupied.
    let mut horse_snipers: Bb = 0;
    for &d in DIAG.iter() {
        let leg = step(k, d);
        if b[leg as usize] == EMPTY || b[leg as usize] == OFF {
            continue;
        }
        let vert = if d > 0 { 16 } else { -16 };
        let horiz = d - vert;
        for s in [step(leg, vert), step(leg, horiz)] {
            let c = b[s as usize];
            if c != OFF && c & them != 0 && CELL_KIND[c as usize] == K_HORSE {
                blockers |= bit(leg);
                horse_snipers |= bit(s);
            }
        }
    }
    // Lines: a chariot behind exactly one piece (sliding snipers, i.e. other chariots behind a
    // piece and blocked horses, are seen through), a cannon behind exactly two pieces.
    for &d in ORTH.iter() {
        let mut seq: Vec<u8> = Vec::with_capacity(9);
        let mut t = step(k, d);
        while b[t as usize] != OFF {
            if b[t as usize] != EMPTY {
                seq.push(t);
            }
            t = step(t, d);
        }
        let is_sliding_sniper = |j: usize, q: u8| {
            let c = b[q as usize];
            (j >= 1 && c & them != 0 && CELL_KIND[c as usize] == K_ROOK)
                || horse_snipers & bit(q) != 0
        };
        for (j, &q) in seq.iter().enumerate() {
            let c = b[q as usize];
            if c & them == 0 {
                continue;
            }
            let kind = CELL_KIND[c as usize];
            if kind == K_ROOK && j >= 1 {
                let between: Vec<u8> = seq[..j]
                    .iter()
                    .enumerate()
                    .filter(|&(i, &x)| !is_sliding_sniper(i, x))
                    .map(|(_, &x)| x)
                    .collect();
                if between.len() == 1 {
                    blockers |= bit(between[0]);
                }
            }
            if kind == K_CANNON && j == 2 {
                blockers |= bit(seq[0]) | bit(seq[1]);
            }
        }
    }
    blockers
}

impl Position {
    /// How the game has ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.has_legal_move() {
            let reason = if self.in_check() {
                EndReason::Checkmate
            } else {
                EndReason::Stalemate
            };
            return Some(Outcome {
                winner: Some(self.side.opposite()),
                reason,
            });
        }
        self.rule_ending()
    }

    /// Whether either side still has a chariot, horse, cannon or soldier.
    pub fn any_attacker(&self) -> bool {
        (0..32).any(|i| {
            let slot = (i % 16) as u8;
            slot >= SLOT_START[K_HORSE as usize] && self.squares[i] != 0
        })
    }

    /// How many plies ago (4, 6, ... newest first) the current position occurred before, within
    /// the plies the repetition rules may look back: since the last capture, the last null move
    /// and the start of the record.
    ///
    /// One stride over the keys; the record is searched for a null move only at a match (rare),
    /// and a null move ends every older match too.
    fn earlier_occurrences(&self) -> impl Iterator<Item = usize> + '_ {
        let n = self.history.len();
        let end = (self.halfmove as usize).min(n);
        // The entries 4, 6, ... plies back, newest first (none when `end` < 4).
        let lo = n - end;
        let hi = n.saturating_sub(3).max(lo);
        self.history[lo..hi]
            .iter()
            .rev()
            .step_by(2)
            .enumerate()
            .filter(move |(_, e)| e.hash == self.hash)
            .map(|(j, _)| 4 + 2 * j)
            .take_while(move |&i| !self.history[n - i..].iter().any(|e| e.mv.is_null()))
    }

    /// How many times the current position occurred before (within the repetition window).
    pub fn repetitions(&self) -> usize {
        self.earlier_occurrences().count()
    }

    /// The verdict of the most recent cycle when the current position has occurred before
    /// (one repetition, as a search sees it), else `None`: perpetual check or chase loses, any
    /// other cycle draws.
    pub fn cycle_verdict(&self) -> Option<Outcome> {
        self.earlier_occurrences()
            .next()
            .map(|i| self.repetition_verdict(i))
    }

    /// The verdict when the current position occurs for the third time, else `None`.
    pub fn repetition_outcome(&self) -> Option<Outcome> {
        self.earlier_occurrences()
            .nth(1)
            .map(|i| self.repetition_verdict(i))
    }

    /// Takes back the last move using only the record (counters are not restored).
    fn take_back_for_analysis(&mut self) -> Option<HistEntry> {
        let e = self.history.pop()?;
        if e.mv.is_null() {
            self.side = self.side.opposite();
            self.hash = e.hash;
            return Some(e);
        }
        let pc = self.board[e.mv.to as usize];
        self.board[e.mv.from as usize] = pc;
        self.board[e.mv.to as usize] = e.captured;
        self.squares[code_index(pc)] = e.mv.from;
        self.flip_occupancy(e.mv.from);
        let moving = &crate::eval::PSQ_TUNED[code_index(pc)];
        self.psq += moving[e.mv.from as usize] - moving[e.mv.to as usize];
        if e.captured != EMPTY {
            self.psq += crate::eval::PSQ_TUNED[code_index(e.captured)][e.mv.to as usize];
            self.squares[code_index(e.captured)] = e.mv.to;
        } else {
            self.flip_occupancy(e.mv.to);
        }
        self.side = self.side.opposite();
        self.hash = e.hash;
        Some(e)
    }

    /// The verdict of a repetition spanning the last `span` plies (two cycles back to the first
    /// occurrence), from Fairy-Stockfish's reading of the AXF rules.
    fn repetition_verdict(&self, span: usize) -> Outcome {
        let us = self.side;
        // boards[k] = the position k plies ago, k = 0..=span+1 where available.
        // Only the last `span + 1` record entries are taken back, and the stored positions carry
        // no record at all (chase and check tests read the board), so nothing here grows with the
        // length of the game.
        let mut boards: Vec<Position> = Vec::with_capacity(span + 2);
        let mut p = self.board_snapshot();
        let n = self.history.len();
        p.history
            .extend_from_slice(&self.history[n - (span + 1).min(n)..]);
        boards.push(self.board_snapshot());
        let mut moves: Vec<HistEntry> = Vec::with_capacity(span + 1);
        for _ in 0..=span {
            match p.take_back_for_analysis() {
                Some(e) => {
                    moves.push(e);
                    boards.push(p.board_snapshot());
                }
                None => break,
            }
        }
        // moves[k] is the move that led into boards[k]; boards[k + 1] is the position before it.
        let chased = |k: usize| -> u16 {
            match (moves.get(k), boards.get(k + 1)) {
                (Some(e), Some(prev)) if !e.mv.is_null() => chased_by(&boards[k], prev, e),
                _ => 0,
            }
        };
        let mut check_them = true; // we were in check at every one of our turns
        let mut check_us = true;
        for (k, pos) in boards.iter().enumerate().take(span + 1) {
            if k % 2 == 0 {
                check_them &= pos.in_check();
            } else {
                check_us &= pos.in_check();
            }
        }
        let verdict = |them: bool, mine: bool| -> Option<Option<Color>> {
            match (them, mine) {
                (false, false) => None,
                (true, false) => Some(Some(us)),
                (false, true) => Some(Some(us.opposite())),
                (true, true) => Some(None),
            }
        };
        if let Some(w) = verdict(check_them, check_us) {
            return Outcome {
                winner: w,
                reason: if w.is_some() {
                    EndReason::PerpetualCheck
                } else {
                    EndReason::Repetition
                },
            };
        }
        // Chases decide only without perpetual check, and a side's chase mask, once empty,
        // stays empty: the (costly) chase tests stop as soon as both are.
        let mut chase_them = u16::MAX;
        let mut chase_us = u16::MAX;
        for k in 0..boards.len().min(span + 1) {
            if chase_them == 0 && chase_us == 0 {
                break;
            }
            if k % 2 == 0 {
                // The move into the first occurrence counts when the record has it.
                if chase_them != 0 && (k < span || moves.get(k).is_some_and(|e| !e.mv.is_null())) {
                    chase_them &= chased(k);
                }
            } else if chase_us != 0 {
                chase_us &= chased(k);
            }
        }
        if let Some(w) = verdict(chase_them != 0, chase_us != 0) {
            return Outcome {
                winner: w,
                reason: if w.is_some() {
                    EndReason::PerpetualChase
                } else {
                    EndReason::Repetition
                },
            };
        }
        Outcome {
            winner: None,
            reason: EndReason::Repetition,
        }
    }

    /// The squares of the side to move's pieces that the last move chased (empty without one).
    pub fn chased_by_last_move(&self) -> Vec<Square> {
        let mut prev = self.clone();
        let mask = match prev.take_back_for_analysis() {
            Some(e) if !e.mv.is_null() => chased_by(self, &prev, &e),
            _ => 0,
        };
        (0..16u8)
            .filter(|slot| mask & (1 << slot) != 0)
            .map(|slot| Square::from_mailbox(self.squares[code_index(code_of(self.side, slot))]))
            .collect()
    }
}

/// The pieces of the side to move in `pos` (slot mask) that the move `e`, played from `prev`,
/// chases. See the module documentation for the cases.
fn chased_by(pos: &Position, prev: &Position, e: &HistEntry) -> u16 {
    let b = &pos.board;
    let v = pos.side; // victim: the side to move
    let s_side = v.opposite(); // the side that just moved
    let from = e.mv.from;
    let to = e.mv.to;
    let mut chased: Bb = 0;

    let v_king = king_sq(b, v);
    let s_king = king_sq(b, s_side);
    let mut pins = blockers_for_king(b, v);
    // Flying general: a lone piece of ours between the two generals on one file is pinned.
    if v_king != 0 && s_king != 0 && mb_file(v_king) == mb_file(s_king) {
        let file = mb_file(s_king);
        let on_file: Vec<u8> = (0..10u8)
            .map(|r| mb(file, r))
            .filter(|&s| {
                let c = b[s as usize];
                c != EMPTY && c & side_bit(v) != 0 && CELL_KIND[c as usize] != K_KING
            })
            .collect();
        if on_file.len() == 1 {
            pins |= bit(on_file[0]);
        }
    }
    let sets = PieceSets::of(b);
    let v_pieces = sets.get(v, &[]);
    let excluded = king_and_uncrossed(b, v);

    let add_chased = |attacker_sq: u8, attacker: u8, mut attacks: Bb, chased: &mut Bb| {
        if attacks & !*chased == 0 {
            return;
        }
        attacks &= !excluded;
        if attacker == K_HORSE || attacker == K_CANNON {
            *chased |= attacks & sets.get(v, &[K_ROOK]);
        }
        if attacker == K_ELEPHANT || attacker == K_ADVISOR {
            *chased |= attacks & sets.get(v, &[K_ROOK, K_CANNON, K_HORSE]);
        }
        let diag_occupied = DIAG
            .iter()
            .any(|&d| !matches!(b[step(attacker_sq, d) as usize], EMPTY | OFF));
        if attacker == K_HORSE && diag_occupied {
            for s in squares_of(attacks & sets.get(v, &[K_HORSE])) {
                if attack_set(b, K_HORSE, v, s) & bit(attacker_sq) != 0 {
                    attacks &= !bit(s);
                }
            }
        } else {
            attacks &= !sets.get(v, &[attacker]) | pins;
        }
        let mut without = *b;
        without[attacker_sq as usize] = EMPTY;
        for s in squares_of(attacks) {
            let roots = attackers_to(&without, s, v) & !pins;
            let king_only = v_king != 0 && roots == bit(v_king);
            if roots == 0
                || (king_only
                    && s_king != 0
                    && attack_set(&without, K_ROOK, s_side, s_king) & bit(s) != 0)
            {
                *chased |= bit(s);
            }
        }
    };

    // Direct attacks of the moved piece.
    let moved = CELL_KIND[b[to as usize] as usize];
    if moved != K_KING && moved != K_PAWN {
        let mut direct = attack_set(b, moved, s_side, to) & v_pieces;
        if moved == K_ROOK || moved == K_CANNON {
            let line = if mb_rank(from) == mb_rank(to) {
                (0..9u8).fold(0, |acc, f| acc | bit(mb(f, mb_rank(to))))
            } else {
                (0..10u8).fold(0, |acc, r| acc | bit(mb(mb_file(to), r)))
            };
            direct &= !line;
        }
        add_chased(to, moved, direct, &mut chased);
    }

    // Discovered attacks.
    let mut candidates: Bb = 0;
    for &d in ORTH.iter() {
        let s = step(from, d);
        if b[s as usize] != OFF
            && b[s as usize] & side_bit(s_side) != 0
            && CELL_KIND[b[s as usize] as usize] == K_HORSE
        {
            candidates |= bit(s);
        }
    }
    for &d in DIAG.iter() {
        let s = step(from, d);
        if b[s as usize] != OFF
            && b[s as usize] & side_bit(s_side) != 0
            && CELL_KIND[b[s as usize] as usize] == K_ELEPHANT
        {
            candidates |= bit(s);
        }
    }
    candidates |= lines(from) & sets.get(s_side, &[K_CANNON, K_ROOK]);
    candidates |= lines(to) & sets.get(s_side, &[K_CANNON]);
    let mut before = *b;
    if e.captured == EMPTY {
        before[to as usize] = EMPTY;
    }
    before[from as usize] = b[to as usize];
    for s in squares_of(candidates) {
        let kind = CELL_KIND[b[s as usize] as usize];
        let discoveries =
            v_pieces & attack_set(b, kind, s_side, s) & !attack_set(&before, kind, s_side, s);
        add_chased(s, kind, discoveries, &mut chased);
    }

    // Fake roots and discovered checks: compare the blockers of our general with those before.
    let new_blockers = blockers_for_king(b, v) & !blockers_for_king(&prev.board, v);
    let s_blockers = blockers_for_king(b, s_side);
    for s in squares_of(new_blockers & v_pieces) {
        let kind = CELL_KIND[b[s as usize] as usize];
        let fake_rooted = v_pieces & !excluded & attack_set(b, kind, v, s);
        for s2 in squares_of(fake_rooted) {
            if attackers_to(b, s2, s_side) & !s_blockers != 0 {
                chased |= bit(s2);
            }
        }
    }
    let s_pieces = sets.get(s_side, &[]);
    for s in squares_of(new_blockers & s_pieces) {
        let kind = CELL_KIND[b[s as usize] as usize];
        let mut d_attacks = attack_set(b, kind, s_side, s) & v_pieces;
        let king_reach = if v_king != 0 {
            attack_set(b, K_KING, v, v_king)
        } else {
            0
        };
        chased |= d_attacks & !king_reach;
        d_attacks &= king_reach;
        for s2 in squares_of(d_attacks) {
            let mut occ = *b;
            occ[s as usize] = EMPTY;
            if v_king != 0 {
                occ[v_king as usize] = EMPTY;
            }
            if attackers_to(&occ, s2, s_side) != 0 {
                chased |= bit(s2);
            }
        }
    }

    // Square set to slot mask of the victim's pieces.
    let mut mask = 0u16;
    for s in squares_of(chased) {
        let c = b[s as usize];
        if c != EMPTY && c != OFF && color_of(c) == v {
            mask |= 1 << (c & 15);
        }
    }
    mask
}
