//! The engine's evaluation: a linear sum of features, each with a middlegame and an endgame
//! weight, tapered by the attacking material left on the board (the phase).
//!
//! Features ([`features`] lists them for a position): material per kind, a piece-square table for
//! every kind (50 points per kind: the board folded left-right, seen from the piece's owner),
//! mobility of horses, chariots and cannons, general safety (missing advisors/elephants times the
//! opponent's attackers, attackers across the river, a cannon on the enemy general's file with no
//! screen or with one), chariots on files free of own soldiers, and the move (tempo).
//!
//! Because the score is linear in the weights, Texel's tuning ([`crate::tune`]) fits them by
//! logistic regression on self-play results; the tuned weights live in [`TUNED_MG`]/[`TUNED_EG`].

use crate::board::{Color, Square, BLACK_BIT, CELL_KIND, EMPTY, K_ADVISOR, K_CANNON, K_ELEPHANT};
use crate::board::{K_HORSE, K_KING, K_PAWN, K_ROOK, RED_BIT, SLOT_START};
use crate::position::Position;
use qiyi_core::eval::Score;

/// Material feature of kind `k` (0 king .. 6 soldier).
pub const F_MATERIAL: usize = 0;
/// First piece-square feature: `F_PST + kind * 50 + rank * 5 + folded file`.
pub const F_PST: usize = 7;
/// Horse mobility (per reachable point).
pub const F_MOB_HORSE: usize = F_PST + 7 * 50;
/// Chariot mobility.
pub const F_MOB_ROOK: usize = F_MOB_HORSE + 1;
/// Cannon mobility.
pub const F_MOB_CANNON: usize = F_MOB_HORSE + 2;
/// Missing advisors and elephants times the opponent's attackers (chariot 2, horse/cannon 1).
pub const F_GUARD_THREAT: usize = F_MOB_HORSE + 3;
/// A chariot on a file with no own soldier.
pub const F_OPEN_FILE_ROOK: usize = F_MOB_HORSE + 4;
/// A cannon on the enemy general's file with nothing between (a "hollow" cannon).
pub const F_HOLLOW_CANNON: usize = F_MOB_HORSE + 5;
/// A cannon on the enemy general's file with exactly one piece between.
pub const F_SCREEN_CANNON: usize = F_MOB_HORSE + 6;
/// A chariot, horse or cannon standing across the river.
pub const F_ATTACKER_ACROSS: usize = F_MOB_HORSE + 7;
/// The side to move (tempo).
pub const F_TEMPO: usize = F_MOB_HORSE + 8;
/// A horse in the enemy general's zone (the three ranks in front of and including the palace,
/// files c-g).
pub const F_ZONE_HORSE: usize = F_MOB_HORSE + 9;
/// A chariot in the enemy general's zone.
pub const F_ZONE_ROOK: usize = F_MOB_HORSE + 10;
/// A cannon in the enemy general's zone.
pub const F_ZONE_CANNON: usize = F_MOB_HORSE + 11;
/// Attackers in the enemy zone (chariot 2, horse/cannon 1) times the enemy's missing guards.
pub const F_ZONE_PRESSURE: usize = F_MOB_HORSE + 12;
/// Number of features.
pub const NUM_FEATURES: usize = F_MOB_HORSE + 13;

/// Whether a piece of the side whose ranks are counted `rank` (0 = own back rank) on `file` stands
/// in the enemy general's zone.
#[inline]
fn in_enemy_zone(rank: u8, file: u8) -> bool {
    rank >= 6 && (2..=6).contains(&file)
}

/// Whether feature `f` is a piece-square entry (regularised toward zero when tuning).
pub fn is_square_feature(f: usize) -> bool {
    (F_PST..F_MOB_HORSE).contains(&f)
}

/// Whether feature `f` is held fixed when tuning (the general's material, which never varies).
pub fn is_fixed_feature(f: usize) -> bool {
    f == F_MATERIAL + K_KING as usize
}

/// Receives the features of a position: `count` is Red's count minus Black's.
pub trait Features {
    /// Adds `count` occurrences of feature `index`.
    fn add(&mut self, index: usize, count: i32);
}

/// Every weight of the evaluation: one middlegame and one endgame weight per feature.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Middlegame weights, indexed by feature.
    pub mg: Vec<Score>,
    /// Endgame weights, indexed by feature.
    pub eg: Vec<Score>,
}

impl Default for Weights {
    /// The tuned weights.
    fn default() -> Self {
        Weights {
            mg: TUNED_MG.to_vec(),
            eg: TUNED_EG.to_vec(),
        }
    }
}

impl Weights {
    /// The hand-set weights the tuner started from (session 1's evaluation, feature by feature).
    pub fn hand() -> Self {
        let mut mg = vec![0; NUM_FEATURES];
        let mut eg = vec![0; NUM_FEATURES];
        let mat_mg = [0, 120, 120, 390, 900, 440, 30];
        let mat_eg = [0, 140, 140, 450, 950, 400, 50];
        mg[F_MATERIAL..F_MATERIAL + 7].copy_from_slice(&mat_mg);
        eg[F_MATERIAL..F_MATERIAL + 7].copy_from_slice(&mat_eg);
        for rank in 0..10u8 {
            for folded in 0..5u8 {
                let i = usize::from(rank) * 5 + usize::from(folded);
                let centre = Score::from(folded); // 0 edge .. 4 centre
                let r = Score::from(rank);
                // Soldiers: a bonus for crossing, growing toward the palace; none on the last rank.
                if rank >= 5 {
                    let beyond = (r - 5).min(3);
                    let near_palace = folded >= 3 && (6..=8).contains(&rank);
                    let p = F_PST + K_PAWN as usize * 50 + i;
                    mg[p] = 40 + 6 * beyond + 10 * Score::from(near_palace);
                    eg[p] = 60 + 12 * beyond;
                    if rank == 9 {
                        mg[p] -= 20;
                        eg[p] -= 30;
                    }
                }
                let h = F_PST + K_HORSE as usize * 50 + i;
                mg[h] = centre * 4 + 4 * r.min(7) - if rank == 0 { 15 } else { 0 };
                eg[h] = (centre * 4 + 4 * r.min(7)) / 2;
                let kg = F_PST + K_KING as usize * 50 + i;
                mg[kg] = -12 * (r + 4 - centre);
                if folded == 4 {
                    mg[F_PST + K_CANNON as usize * 50 + i] = 25;
                }
            }
        }
        mg[F_MOB_HORSE] = 6;
        eg[F_MOB_HORSE] = 8;
        mg[F_MOB_ROOK] = 4;
        eg[F_MOB_ROOK] = 5;
        mg[F_MOB_CANNON] = 2;
        eg[F_MOB_CANNON] = 2;
        mg[F_GUARD_THREAT] = -6;
        mg[F_OPEN_FILE_ROOK] = 15;
        Weights { mg, eg }
    }
}

/// Game phase: 0 (bare endgame) to [`MAX_PHASE`] (all attackers on the board).
pub const MAX_PHASE: i32 = 2 * (2 * 4 + 2 * 2 + 2 * 2);

#[inline]
fn phase_weight(kind: u8) -> i32 {
    match kind {
        K_ROOK => 4,
        K_HORSE | K_CANNON => 2,
        _ => 0,
    }
}

/// Kind of each slot 0..16 of a side.
const SLOT_KIND: [u8; 16] = {
    let mut t = [0u8; 16];
    let mut slot = 0;
    while slot < 16 {
        let mut k = 0;
        while k < 7 && slot >= SLOT_START[k + 1] as usize {
            k += 1;
        }
        t[slot] = k as u8;
        slot += 1;
    }
    t
};

/// Writes the features of `pos` into `out` and returns the phase (0..=[`MAX_PHASE`]).
#[inline]
pub fn features(pos: &Position, out: &mut impl Features) -> i32 {
    let mut phase = 0;
    let mut soldier_files = [0u16; 2];
    let mut guards = [0i32; 2];
    let mut attackers = [0i32; 2];
    for (side, files) in soldier_files.iter_mut().enumerate() {
        for slot in 11..16 {
            let sq = pos.squares[side * 16 + slot];
            if sq != 0 {
                *files |= 1 << Square::from_mailbox(sq).file();
            }
        }
    }
    let kings = [pos.squares[0], pos.squares[16]];
    let mut zone = [0i32; 2];
    for (i, &sq) in pos.squares.iter().enumerate() {
        if sq == 0 {
            continue;
        }
        let side = i / 16;
        let sign = if side == 0 { 1 } else { -1 };
        let kind = SLOT_KIND[i % 16];
        let point = Square::from_mailbox(sq);
        let file = point.file();
        let rank = if side == 0 {
            point.rank()
        } else {
            9 - point.rank()
        };
        let folded = file.min(8 - file);
        out.add(F_MATERIAL + kind as usize, sign);
        out.add(
            F_PST + kind as usize * 50 + rank as usize * 5 + folded as usize,
            sign,
        );
        phase += phase_weight(kind);
        if matches!(kind, K_HORSE | K_ROOK | K_CANNON) && in_enemy_zone(rank, file) {
            let (f, w) = match kind {
                K_HORSE => (F_ZONE_HORSE, 1),
                K_ROOK => (F_ZONE_ROOK, 2),
                _ => (F_ZONE_CANNON, 1),
            };
            out.add(f, sign);
            zone[side] += w;
        }
        match kind {
            K_HORSE => {
                attackers[side] += 1;
                out.add(F_MOB_HORSE, sign * horse_mobility(pos, sq));
                if rank >= 5 {
                    out.add(F_ATTACKER_ACROSS, sign);
                }
            }
            K_ROOK => {
                attackers[side] += 2;
                out.add(F_MOB_ROOK, sign * slide_mobility(pos, sq));
                if soldier_files[side] & (1 << file) == 0 {
                    out.add(F_OPEN_FILE_ROOK, sign);
                }
                if rank >= 5 {
                    out.add(F_ATTACKER_ACROSS, sign);
                }
            }
            K_CANNON => {
                attackers[side] += 1;
                out.add(F_MOB_CANNON, sign * slide_mobility(pos, sq));
                if rank >= 5 {
                    out.add(F_ATTACKER_ACROSS, sign);
                }
                let k = kings[1 - side];
                if k != 0 && (k ^ sq) & 0x0F == 0 {
                    let d: i16 = if k > sq { 16 } else { -16 };
                    let mut t = i16::from(sq) + d;
                    let mut between = 0;
                    while t != i16::from(k) && between < 2 {
                        if cell(pos, t) != EMPTY {
                            between += 1;
                        }
                        t += d;
                    }
                    match between {
                        0 => out.add(F_HOLLOW_CANNON, sign),
                        1 => out.add(F_SCREEN_CANNON, sign),
                        _ => {}
                    }
                }
            }
            K_ADVISOR | K_ELEPHANT => guards[side] += 1,
            _ => {}
        }
    }
    let threat = [
        (4 - guards[0]) * attackers[1],
        (4 - guards[1]) * attackers[0],
    ];
    out.add(F_GUARD_THREAT, threat[0] - threat[1]);
    out.add(
        F_ZONE_PRESSURE,
        zone[0] * (4 - guards[1]) - zone[1] * (4 - guards[0]),
    );
    out.add(
        F_TEMPO,
        if pos.side_to_move() == Color::Red {
            1
        } else {
            -1
        },
    );
    phase.min(MAX_PHASE)
}

/// Sums weighted features.
struct Accumulate<'a> {
    w: &'a Weights,
    mg: Score,
    eg: Score,
}

impl Features for Accumulate<'_> {
    #[inline]
    fn add(&mut self, index: usize, count: i32) {
        self.mg += self.w.mg[index] * count;
        self.eg += self.w.eg[index] * count;
    }
}

/// The evaluator of the full-strength engine: the weights, and the material plus piece-square
/// weights of every piece code on every point folded into one table for speed.
#[derive(Clone, Debug)]
pub struct Evaluation {
    weights: Weights,
    /// `(mg, eg)` of material + piece-square for piece code `c` (16..48) on mailbox point `sq`,
    /// signed from Red's view.
    psq: Vec<[(Score, Score); 256]>,
}

impl Default for Evaluation {
    fn default() -> Self {
        Evaluation::with_weights(Weights::default())
    }
}

impl Evaluation {
    /// An evaluation with the given weights.
    pub fn with_weights(weights: Weights) -> Self {
        let mut psq = vec![[(0, 0); 256]; 48];
        for (code, table) in psq.iter_mut().enumerate().skip(16) {
            let side = (code - 16) / 16;
            let sign = if side == 0 { 1 } else { -1 };
            let kind = SLOT_KIND[code % 16] as usize;
            for index in 0..90u8 {
                let Some(point) = Square::from_index(index) else {
                    continue;
                };
                let file = point.file();
                let rank = if side == 0 {
                    point.rank()
                } else {
                    9 - point.rank()
                };
                let folded = file.min(8 - file);
                let f = F_PST + kind * 50 + rank as usize * 5 + folded as usize;
                table[point.to_mailbox() as usize] = (
                    sign * (weights.mg[F_MATERIAL + kind] + weights.mg[f]),
                    sign * (weights.eg[F_MATERIAL + kind] + weights.eg[f]),
                );
            }
        }
        Evaluation { weights, psq }
    }

    /// The weights in use.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Score of `pos` from Red's view computed feature by feature (the tuner's definition; the
    /// search uses the equal but faster [`Evaluation::red_score`]).
    pub fn red_score_by_features(&self, pos: &Position) -> Score {
        let mut acc = Accumulate {
            w: &self.weights,
            mg: 0,
            eg: 0,
        };
        let phase = features(pos, &mut acc);
        (acc.mg * phase + acc.eg * (MAX_PHASE - phase)) / MAX_PHASE
    }

    /// Score of `pos` from Red's view (positive = good for Red).
    pub fn red_score(&self, pos: &Position) -> Score {
        let w = &self.weights;
        let (mut mg, mut eg) = (0, 0);
        let mut phase = 0;
        let mut soldier_files = [0u16; 2];
        for (side, files) in soldier_files.iter_mut().enumerate() {
            for slot in 11..16 {
                let sq = pos.squares[side * 16 + slot];
                if sq != 0 {
                    *files |= 1 << (sq & 15);
                }
            }
        }
        let mut guards = [0i32; 2];
        let mut attackers = [0i32; 2];
        // Red-view counts of the scalar features.
        let (mut mob_h, mut mob_r, mut mob_c) = (0, 0, 0);
        let (mut open, mut hollow, mut screen, mut across) = (0, 0, 0, 0);
        let (mut zh, mut zr, mut zc) = (0, 0, 0);
        let mut zone = [0i32; 2];
        for (i, &sq) in pos.squares.iter().enumerate() {
            if sq == 0 {
                continue;
            }
            let side = i / 16;
            let (m, e) = self.psq[i + 16][sq as usize];
            mg += m;
            eg += e;
            let slot = i % 16;
            if slot < 5 {
                guards[side] += i32::from(slot > 0);
                continue;
            }
            if slot >= 11 {
                continue;
            }
            let sign = if side == 0 { 1 } else { -1 };
            let crossed = if side == 0 { sq >= 0x80 } else { sq < 0x80 };
            across += sign * i32::from(crossed);
            let r = (sq >> 4) - 3;
            let rank_own = if side == 0 { r } else { 9 - r };
            let in_zone = in_enemy_zone(rank_own, (sq & 15) - 3);
            match slot {
                5 | 6 => {
                    phase += 2;
                    attackers[side] += 1;
                    mob_h += sign * horse_mobility(pos, sq);
                    if in_zone {
                        zh += sign;
                        zone[side] += 1;
                    }
                }
                7 | 8 => {
                    phase += 4;
                    attackers[side] += 2;
                    if in_zone {
                        zr += sign;
                        zone[side] += 2;
                    }
                    mob_r += sign * slide_mobility(pos, sq);
                    if soldier_files[side] & (1 << (sq & 15)) == 0 {
                        open += sign;
                    }
                }
                _ => {
                    phase += 2;
                    attackers[side] += 1;
                    mob_c += sign * slide_mobility(pos, sq);
                    if in_zone {
                        zc += sign;
                        zone[side] += 1;
                    }
                    let k = pos.squares[16 * (1 - side)];
                    if k != 0 && (k ^ sq) & 0x0F == 0 {
                        let d: i16 = if k > sq { 16 } else { -16 };
                        let mut t = i16::from(sq) + d;
                        let mut between = 0;
                        while t != i16::from(k) && between < 2 {
                            if cell(pos, t) != EMPTY {
                                between += 1;
                            }
                            t += d;
                        }
                        match between {
                            0 => hollow += sign,
                            1 => screen += sign,
                            _ => {}
                        }
                    }
                }
            }
        }
        let threat = (4 - guards[0]) * attackers[1] - (4 - guards[1]) * attackers[0];
        let tempo = if pos.side_to_move() == Color::Red {
            1
        } else {
            -1
        };
        for (f, c) in [
            (F_MOB_HORSE, mob_h),
            (F_MOB_ROOK, mob_r),
            (F_MOB_CANNON, mob_c),
            (F_GUARD_THREAT, threat),
            (F_OPEN_FILE_ROOK, open),
            (F_HOLLOW_CANNON, hollow),
            (F_SCREEN_CANNON, screen),
            (F_ATTACKER_ACROSS, across),
            (F_TEMPO, tempo),
            (F_ZONE_HORSE, zh),
            (F_ZONE_ROOK, zr),
            (F_ZONE_CANNON, zc),
            (
                F_ZONE_PRESSURE,
                zone[0] * (4 - guards[1]) - zone[1] * (4 - guards[0]),
            ),
        ] {
            mg += w.mg[f] * c;
            eg += w.eg[f] * c;
        }
        let phase = phase.min(MAX_PHASE);
        (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }

    /// Score from the side to move's view.
    pub fn score(&self, pos: &Position) -> Score {
        let s = self.red_score(pos);
        if pos.side_to_move() == Color::Red {
            s
        } else {
            -s
        }
    }
}

const ORTHO: [i16; 4] = [1, -1, 16, -16];
const HORSE_JUMPS: [(i16, i16); 8] = [
    (33, 16),
    (31, 16),
    (-33, -16),
    (-31, -16),
    (18, 1),
    (-14, 1),
    (14, -1),
    (-18, -1),
];

#[inline]
fn cell(pos: &Position, sq: i16) -> u8 {
    pos.board[(sq as usize) & 255]
}

/// Empty points a chariot or cannon on `sq` can slide to.
fn slide_mobility(pos: &Position, sq: u8) -> Score {
    let mut n = 0;
    for d in ORTHO {
        let mut t = i16::from(sq) + d;
        while cell(pos, t) == EMPTY {
            n += 1;
            t += d;
        }
    }
    n
}

/// Points a horse on `sq` can jump to (leg free, target empty or enemy).
fn horse_mobility(pos: &Position, sq: u8) -> Score {
    let me = pos.board[sq as usize] & (RED_BIT | BLACK_BIT);
    let mut n = 0;
    for (jump, leg) in HORSE_JUMPS {
        let s = i16::from(sq);
        if cell(pos, s + leg) != EMPTY {
            continue;
        }
        let t = cell(pos, s + jump);
        if t == EMPTY || (CELL_KIND[t as usize] != 7 && t & me == 0) {
            n += 1;
        }
    }
    n
}

include!("eval_weights.rs");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_balanced_but_for_the_move() {
        for w in [Weights::hand(), Weights::default()] {
            let tempo = w.mg[F_TEMPO];
            let e = Evaluation::with_weights(w);
            assert_eq!(e.red_score(&Position::start()), tempo);
        }
    }

    #[test]
    fn mirrored_positions_score_opposite() {
        for w in [Weights::hand(), Weights::default()] {
            let e = Evaluation::with_weights(w);
            let red = Position::from_fen("4k4/9/9/9/9/2P6/9/9/4A4/3AK1R2 w - - 0 1").expect("fen");
            let black =
                Position::from_fen("3ak1r2/4a4/9/9/2p6/9/9/9/9/4K4 b - - 0 1").expect("fen");
            assert_eq!(e.red_score(&red), -e.red_score(&black));
            assert_eq!(e.score(&red), e.score(&black));
            // Left-right mirror images score the same.
            let mirrored =
                Position::from_fen("4k4/9/9/9/9/6P2/9/9/4A4/2R1KA3 w - - 0 1").expect("fen");
            assert_eq!(e.red_score(&red), e.red_score(&mirrored));
        }
    }

    #[test]
    fn material_and_activity_count() {
        for w in [Weights::hand(), Weights::default()] {
            let e = Evaluation::with_weights(w);
            let up_a_chariot = Position::from_fen(
                "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
            )
            .expect("fen");
            assert!(e.score(&up_a_chariot) > 500);
            // A soldier across the river is worth more than one at home.
            let home = Position::from_fen("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1").expect("fen");
            let crossed = Position::from_fen("4k4/9/9/4P4/9/9/9/9/9/4K4 w - - 0 1").expect("fen");
            assert!(e.score(&crossed) > e.score(&home));
        }
    }

    #[test]
    fn the_fast_score_equals_the_feature_sum() {
        use qiyi_core::game::Game;
        use qiyi_core::rng::Rng;
        // Every scalar feature weighted (the shipped weights leave some at 0).
        let mut all = Weights::hand();
        for (i, f) in (F_MOB_HORSE..NUM_FEATURES).enumerate() {
            all.mg[f] = 3 + i as Score;
            all.eg[f] = 17 - 2 * i as Score;
        }
        for w in [Weights::hand(), Weights::default(), all] {
            let e = Evaluation::with_weights(w);
            let mut rng = Rng::new(7);
            let mut moves = Vec::new();
            for _ in 0..40 {
                let mut pos = Position::start();
                for _ in 0..rng.below(120) {
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    pos.make(moves[rng.below(moves.len())]);
                    assert_eq!(e.red_score(&pos), e.red_score_by_features(&pos), "{pos:?}");
                }
            }
        }
    }

    #[test]
    fn features_are_collected_for_every_piece() {
        struct Count(usize);
        impl Features for Count {
            fn add(&mut self, _: usize, _: i32) {
                self.0 += 1;
            }
        }
        let mut c = Count(0);
        let phase = features(&Position::start(), &mut c);
        assert_eq!(phase, MAX_PHASE);
        assert!(c.0 >= 64, "two features per piece at least, got {}", c.0);
    }
}
