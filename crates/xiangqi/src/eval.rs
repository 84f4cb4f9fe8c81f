//! The engine's evaluation: a linear sum of features, each with a middlegame and an endgame
//! weight, tapered by the attacking material left on the board (the phase).
//!
//! Features ([`features`] lists them for a position): material per kind, a piece-square table for
//! every kind (50 points per kind: the board folded left-right, seen from the piece's owner),
//! mobility of horses, chariots and cannons, general safety (missing advisors/elephants times the
//! opponent's attackers, attackers across the river and in the general's zone, a cannon on the
//! enemy general's file with no screen or with one, the palace points each kind of attacker hits,
//! and a king danger growing with the square of the pieces attacking the palace), chariots on
//! files free of own soldiers, and the move (tempo).
//!
//! Because the score is linear in the weights, Texel's tuning ([`crate::tune`]) fits them by
//! logistic regression on self-play results; the tuned weights live in [`TUNED_MG`]/[`TUNED_EG`].

use crate::board::{step, IN_PALACE, K_HORSE, K_KING, K_PAWN, OFF, RED_BIT, SLOT_START};
use crate::board::{Color, Square, BLACK_BIT, CELL_KIND, EMPTY, K_CANNON};
use crate::position::Position;
use qiyi_core::eval::Score;
use std::sync::atomic::{AtomicU64, Ordering};

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
/// Points of the enemy palace a chariot attacks (its rays up to and including the first piece).
pub const F_PALACE_ROOK: usize = F_MOB_HORSE + 13;
/// Points of the enemy palace a horse attacks (leg free).
pub const F_PALACE_HORSE: usize = F_MOB_HORSE + 14;
/// Points of the enemy palace a cannon attacks (beyond exactly one screen).
pub const F_PALACE_CANNON: usize = F_MOB_HORSE + 15;
/// Points of the enemy palace a soldier attacks.
pub const F_PALACE_PAWN: usize = F_MOB_HORSE + 16;
/// King danger: the attack units against the enemy general (see [`attack_units`]).
pub const F_DANGER: usize = F_MOB_HORSE + 17;
/// King danger, growing faster than the attack: the units squared.
pub const F_DANGER_SQ: usize = F_MOB_HORSE + 18;
/// Attack units are capped here.
pub const MAX_UNITS: i32 = 12;
/// Number of features.
pub const NUM_FEATURES: usize = F_DANGER_SQ + 1;

/// Attack units of a side against the enemy general: chariot 3, horse and cannon 2, soldier 1 for
/// each piece hitting at least one palace point, plus one per missing enemy advisor when any piece
/// attacks; capped at [`MAX_UNITS`].
#[inline]
pub fn attack_units(rooks: i32, horses: i32, cannons: i32, pawns: i32, enemy_advisors: i32) -> i32 {
    let u = 3 * rooks + 2 * horses + 2 * cannons + pawns;
    if u == 0 {
        0
    } else {
        (u + 2 - enemy_advisors).min(MAX_UNITS)
    }
}

/// Whether a piece of the side whose ranks are counted `rank` (0 = own back rank) on `file` stands
/// in the enemy general's zone.
#[inline]
const fn in_enemy_zone(rank: u8, file: u8) -> bool {
    rank >= 6 && file >= 2 && file <= 6
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
    /// The hand-set weights the tuner started from (the first evaluation, feature by feature).
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

/// Material plus piece-square score of the tuned weights ([`TUNED_MG`], [`TUNED_EG`]) for the
/// piece with code `16 + i` on mailbox point `sq`, at `[i][sq]`, from Red's view, the middlegame
/// and endgame values packed into one word (see [`pack_score`]) so that a position's sum is kept
/// by make/unmake with one add per piece moved.
pub(crate) static PSQ_TUNED: [[i32; 256]; 32] = {
    let mut t = [[0i32; 256]; 32];
    let mut largest = [0i32; 32];
    let mut i = 0;
    while i < 32 {
        let side = i / 16;
        let kind = SLOT_KIND[i % 16] as usize;
        let mut index = 0;
        while index < 90 {
            let (file, rank) = (index % 9, index / 9);
            let own_rank = if side == 0 { rank } else { 9 - rank };
            let folded = if file < 8 - file { file } else { 8 - file };
            let f = F_PST + kind * 50 + own_rank * 5 + folded;
            let sign = if side == 0 { 1 } else { -1 };
            let mg = sign * (TUNED_MG[F_MATERIAL + kind] + TUNED_MG[f]);
            let eg = sign * (TUNED_EG[F_MATERIAL + kind] + TUNED_EG[f]);
            t[i][(rank + 3) * 16 + file + 3] = pack_score(mg, eg);
            let m = if mg.abs() > eg.abs() {
                mg.abs()
            } else {
                eg.abs()
            };
            if m > largest[i] {
                largest[i] = m;
            }
            index += 1;
        }
        i += 1;
    }
    // Whatever the position, the sum's parts stay within `i16` (checked when compiling, should
    // retuned weights grow): at most the largest entries of all 32 pieces.
    let mut bound = 0;
    let mut i = 0;
    while i < 32 {
        bound += largest[i];
        i += 1;
    }
    assert!(
        bound < 32768,
        "piece-square sums would overflow their packing"
    );
    t
};

/// Packs a middlegame and an endgame score (each within `i16`) into one word whose sums unpack
/// ([`unpack_score`]) to the sums of the parts while the parts stay within `i16`.
#[inline(always)]
pub(crate) const fn pack_score(mg: Score, eg: Score) -> i32 {
    eg * 65536 + mg
}

/// The `(mg, eg)` of a packed sum ([`pack_score`]).
#[inline(always)]
pub(crate) const fn unpack_score(packed: i32) -> (Score, Score) {
    let mg = packed as i16 as Score;
    (mg, (packed - mg) >> 16)
}

/// Number of scalar features before the king-danger buckets.
const NUM_LINEAR: usize = F_DANGER - F_MOB_HORSE;

/// The largest size Red's count minus Black's of each scalar feature (index feature minus
/// [`F_MOB_HORSE`]) can have: the largest count one side can reach (both counts are never
/// negative). Horse mobility 2 x 8 jumps; chariot and cannon mobility 2 x (8 + 9) points;
/// missing guards (4) times attackers (2 x 2 + 2 + 2); 2 open-file chariots; 2 hollow or
/// screened cannons; 6 attackers across; the tempo 1; 2 of each kind in the zone; zone pressure
/// 8 x 4; palace points: a chariot or cannon hits at most 3 along its rank and 3 along its file,
/// a horse at most its 8 jumps, a soldier 3.
const MAX_SCALAR_COUNT: [i32; NUM_LINEAR] = {
    let mut t = [0i32; NUM_LINEAR];
    const S: usize = F_MOB_HORSE;
    t[F_MOB_HORSE - S] = 16;
    t[F_MOB_ROOK - S] = 34;
    t[F_MOB_CANNON - S] = 34;
    t[F_GUARD_THREAT - S] = 32;
    t[F_OPEN_FILE_ROOK - S] = 2;
    t[F_HOLLOW_CANNON - S] = 2;
    t[F_SCREEN_CANNON - S] = 2;
    t[F_ATTACKER_ACROSS - S] = 6;
    t[F_TEMPO - S] = 1;
    t[F_ZONE_HORSE - S] = 2;
    t[F_ZONE_ROOK - S] = 2;
    t[F_ZONE_CANNON - S] = 2;
    t[F_ZONE_PRESSURE - S] = 32;
    t[F_PALACE_ROOK - S] = 12;
    t[F_PALACE_HORSE - S] = 16;
    t[F_PALACE_CANNON - S] = 12;
    t[F_PALACE_PAWN - S] = 15;
    t
};

/// The scalar features of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scalars {
    /// Red's count minus Black's of feature `F_MOB_HORSE + j`, for the features before
    /// [`F_DANGER`].
    pub counts: [i32; NUM_LINEAR],
    /// Attack units of Red and of Black against the enemy general ([`attack_units`]), the
    /// count behind [`F_DANGER`] and [`F_DANGER_SQ`].
    pub units: [i32; 2],
    /// The phase, 0..=[`MAX_PHASE`].
    pub phase: i32,
}

/// The scalar features of `pos`; material and piece-square features are left to the caller.
#[inline]
pub fn scalar_features(pos: &Position) -> Scalars {
    scalar_features_with(pos, true)
}

/// [`scalar_features`], leaving the palace-attack and king-danger counts at 0 unless `with_palace`
/// (the search skips them while their weights are all 0).
#[inline]
fn scalar_features_with(pos: &Position, with_palace: bool) -> Scalars {
    let mut c = [0i32; NUM_LINEAR];
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
    let mut advisors = [0i32; 2];
    let mut attackers = [0i32; 2];
    let mut zone = [0i32; 2];
    // Pieces of each side hitting the enemy palace: chariots, horses, cannons, soldiers.
    let mut hitters = [[0i32; 4]; 2];
    const S: usize = F_MOB_HORSE;
    for (i, &sq) in pos.squares.iter().enumerate() {
        if sq == 0 {
            continue;
        }
        let side = i / 16;
        let slot = i % 16;
        if slot == 0 {
            continue;
        }
        if slot < 5 {
            guards[side] += 1;
            advisors[side] += i32::from(slot < 3);
            continue;
        }
        let sign = if side == 0 { 1 } else { -1 };
        let palace = &IN_PALACE[1 - side];
        if slot >= 11 {
            let r = (sq >> 4) - 3;
            let rank_own = if side == 0 { r } else { 9 - r };
            if with_palace && rank_own >= 6 && ((sq & 15) - 3).abs_diff(4) <= 2 {
                let fwd: i16 = if side == 0 { 16 } else { -16 };
                let s = i16::from(sq);
                let hits = [s + fwd, s + 1, s - 1]
                    .iter()
                    .filter(|&&t| palace[(t as usize) & 255])
                    .count() as i32;
                if hits > 0 {
                    c[F_PALACE_PAWN - S] += sign * hits;
                    hitters[side][3] += 1;
                }
            }
            continue;
        }
        let crossed = if side == 0 { sq >= 0x80 } else { sq < 0x80 };
        c[F_ATTACKER_ACROSS - S] += sign * i32::from(crossed);
        let r = (sq >> 4) - 3;
        let rank_own = if side == 0 { r } else { 9 - r };
        let file = (sq & 15) - 3;
        let in_zone = in_enemy_zone(rank_own, file);
        // Whether the piece can reach the enemy palace at all: a chariot or cannon on a palace
        // file or rank, a horse within a jump of it.
        let line_near = with_palace && (file.abs_diff(4) <= 1 || rank_own >= 7);
        let horse_near = with_palace && rank_own >= 5 && file.abs_diff(4) <= 3;
        match slot {
            5 | 6 => {
                phase += 2;
                attackers[side] += 1;
                let (mob, hits) = horse_scan(pos, sq, palace, horse_near);
                c[F_MOB_HORSE - S] += sign * mob;
                c[F_PALACE_HORSE - S] += sign * hits;
                hitters[side][1] += i32::from(hits > 0);
                if in_zone {
                    c[F_ZONE_HORSE - S] += sign;
                    zone[side] += 1;
                }
            }
            7 | 8 => {
                phase += 4;
                attackers[side] += 2;
                let mob = slide_mobility(pos, sq);
                let hits = if line_near {
                    rook_hits(pos, sq, palace)
                } else {
                    0
                };
                c[F_MOB_ROOK - S] += sign * mob;
                c[F_PALACE_ROOK - S] += sign * hits;
                hitters[side][0] += i32::from(hits > 0);
                if in_zone {
                    c[F_ZONE_ROOK - S] += sign;
                    zone[side] += 2;
                }
                if soldier_files[side] & (1 << (sq & 15)) == 0 {
                    c[F_OPEN_FILE_ROOK - S] += sign;
                }
            }
            _ => {
                phase += 2;
                attackers[side] += 1;
                let mob = slide_mobility(pos, sq);
                let hits = if line_near {
                    cannon_hits(pos, sq, palace)
                } else {
                    0
                };
                c[F_MOB_CANNON - S] += sign * mob;
                c[F_PALACE_CANNON - S] += sign * hits;
                hitters[side][2] += i32::from(hits > 0);
                if in_zone {
                    c[F_ZONE_CANNON - S] += sign;
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
                        0 => c[F_HOLLOW_CANNON - S] += sign,
                        1 => c[F_SCREEN_CANNON - S] += sign,
                        _ => {}
                    }
                }
            }
        }
    }
    c[F_GUARD_THREAT - S] = (4 - guards[0]) * attackers[1] - (4 - guards[1]) * attackers[0];
    c[F_ZONE_PRESSURE - S] = zone[0] * (4 - guards[1]) - zone[1] * (4 - guards[0]);
    c[F_TEMPO - S] = if pos.side_to_move() == Color::Red {
        1
    } else {
        -1
    };
    let units = [0, 1].map(|side| {
        let [r, h, k, p] = hitters[side];
        attack_units(r, h, k, p, advisors[1 - side])
    });
    Scalars {
        counts: c,
        units,
        phase: phase.min(MAX_PHASE),
    }
}

/// What one side's pieces add up to besides their signed feature counts.
#[derive(Clone, Copy, Default)]
struct SideScan {
    /// Advisors and elephants on the board.
    guards: i32,
    /// Advisors on the board.
    advisors: i32,
    /// Chariots count 2, horses and cannons 1.
    attackers: i32,
    /// Pieces in the enemy general's zone (chariot 2, horse/cannon 1).
    zone: i32,
    /// Chariots, horses, cannons and soldiers hitting the enemy palace.
    hitters: [i32; 4],
    /// This side's share of the phase.
    phase: i32,
}

impl SideScan {
    /// Counts one horse, chariot or cannon standing on a point with `flags`: `weight` (chariot
    /// 2, horse and cannon 1) toward the attackers, the zone and half the phase; a crossed
    /// river to `across`; and its zone feature `zone_feature` (signed by `sign`) to `sink`.
    #[inline(always)]
    fn count_attacker(
        &mut self,
        flags: u8,
        weight: i32,
        across: &mut i32,
        sink: &mut impl Sink,
        zone_feature: usize,
        sign: i32,
    ) {
        self.phase += 2 * weight;
        self.attackers += weight;
        *across += i32::from(flags & P_ACROSS != 0);
        if flags & P_ZONE != 0 {
            sink.add(zone_feature, sign);
            self.zone += weight;
        }
    }
}

/// The horse jumps grouped by the leg that must be free for them.
const HORSE_JUMPS_BY_LEG: [(i16, [i16; 2]); 4] = [
    (16, [33, 31]),
    (-16, [-33, -31]),
    (1, [18, -14]),
    (-1, [14, -18]),
];

/// The colour bit of side `side` (0 Red, 1 Black).
#[inline(always)]
const fn side_bit_of(side: usize) -> u8 {
    if side == 0 {
        RED_BIT
    } else {
        BLACK_BIT
    }
}

/// Receives the scalar counts of [`scan_side`] one feature at a time: either kept as counts
/// ([`Counts`], for [`fast_scalars`]) or weighted on the spot ([`Weighted`], for the search).
trait Sink {
    /// Adds `n` to the count of scalar feature `f` (an index `F_MOB_HORSE..F_DANGER`).
    fn add(&mut self, f: usize, n: i32);
}

/// Scalar counts, indexed by feature minus [`F_MOB_HORSE`].
struct Counts([i32; NUM_LINEAR]);

impl Sink for Counts {
    #[inline(always)]
    fn add(&mut self, f: usize, n: i32) {
        self.0[f - F_MOB_HORSE] += n;
    }
}

/// The weighted sum of scalar counts with middlegame and endgame weights packed into one word
/// each ([`pack_score`]); the sum is taken modulo 2^32 and unpacks to the true middlegame and
/// endgame sums whenever those stay within `i16` ([`Evaluation`] checks a bound that
/// guarantees it before using this).
struct Weighted<'a> {
    weights: &'a [i32; NUM_LINEAR],
    sum: i32,
}

impl Sink for Weighted<'_> {
    #[inline(always)]
    fn add(&mut self, f: usize, n: i32) {
        self.sum = self
            .sum
            .wrapping_add(n.wrapping_mul(self.weights[f - F_MOB_HORSE]));
    }
}

/// [`POINT_INFO`] flag: the point is across the river for the piece's side.
const P_ACROSS: u8 = 1;
/// [`POINT_INFO`] flag: the point is in the enemy general's zone ([`in_enemy_zone`]).
const P_ZONE: u8 = 2;
/// [`POINT_INFO`] flag: a horse here may reach the enemy palace (across, at most three files
/// from the centre).
const P_HORSE_NEAR: u8 = 4;
/// [`POINT_INFO`] flag: the point is on the enemy palace's three ranks or beyond (own rank 7+).
const P_PALACE_RANKS: u8 = 8;
/// [`POINT_INFO`] flag: the point is on one of the palace files (d, e, f).
const P_PALACE_FILE: u8 = 16;
/// [`POINT_INFO`] shift of the number of enemy palace points a soldier here attacks (0 unless
/// own rank 6+ and at most two files from the centre, as the plain definition counts them).
const P_SOLDIER_HITS: u8 = 5;

/// Facts about mailbox point `sq` for a piece of side `side` (0 Red, 1 Black) that the
/// evaluation would otherwise compute from the rank and file: the `P_*` flags and the soldier's
/// palace hits.
const POINT_INFO: [[u8; 256]; 2] = {
    let mut t = [[0u8; 256]; 2];
    let mut side = 0;
    while side < 2 {
        let mut rank = 0u8;
        while rank < 10 {
            let mut file = 0u8;
            while file < 9 {
                let sq = (rank + 3) * 16 + file + 3;
                let own = if side == 0 { rank } else { 9 - rank };
                let off_centre = file.abs_diff(4);
                let mut v = 0u8;
                if own >= 5 {
                    v |= P_ACROSS;
                }
                if in_enemy_zone(own, file) {
                    v |= P_ZONE;
                }
                if own >= 5 && off_centre <= 3 {
                    v |= P_HORSE_NEAR;
                }
                if own >= 7 {
                    v |= P_PALACE_RANKS;
                }
                if off_centre <= 1 {
                    v |= P_PALACE_FILE;
                }
                if own >= 6 && off_centre <= 2 {
                    let palace = &IN_PALACE[1 - side];
                    let fwd: i16 = if side == 0 { 16 } else { -16 };
                    let mut hits = 0u8;
                    let targets = [sq as i16 + fwd, sq as i16 + 1, sq as i16 - 1];
                    let mut i = 0;
                    while i < 3 {
                        if palace[targets[i] as usize] {
                            hits += 1;
                        }
                        i += 1;
                    }
                    v |= hits << P_SOLDIER_HITS;
                }
                t[side][sq as usize] = v;
                file += 1;
            }
            rank += 1;
        }
        side += 1;
    }
    t
};

/// [`scalar_features_with`] computed faster, side by side and kind by kind, a horse's jumps leg
/// by leg, and chariots and cannons from the rank and file occupancy bits instead of walking
/// their rays (tested equal to the plain definition).
#[inline]
fn fast_scalars(pos: &Position, with_palace: bool) -> Scalars {
    let mut c = Counts([0i32; NUM_LINEAR]);
    let (units, phase) = if with_palace {
        scan::<true>(pos, &mut c)
    } else {
        scan::<false>(pos, &mut c)
    };
    Scalars {
        counts: c.0,
        units,
        phase,
    }
}

/// Both sides' scalar features into `sink` (the counts that depend on both sides too); returns
/// the attack units of Red and Black and the phase.
#[inline(always)]
fn scan<const PALACE: bool>(pos: &Position, sink: &mut impl Sink) -> ([i32; 2], i32) {
    let red = scan_side::<0, PALACE>(pos, sink);
    let black = scan_side::<1, PALACE>(pos, sink);
    sink.add(
        F_GUARD_THREAT,
        (4 - red.guards) * black.attackers - (4 - black.guards) * red.attackers,
    );
    sink.add(
        F_ZONE_PRESSURE,
        red.zone * (4 - black.guards) - black.zone * (4 - red.guards),
    );
    sink.add(
        F_TEMPO,
        if pos.side_to_move() == Color::Red {
            1
        } else {
            -1
        },
    );
    let units = |s: &SideScan, enemy_advisors: i32| {
        let [r, h, k, p] = s.hitters;
        attack_units(r, h, k, p, enemy_advisors)
    };
    (
        [units(&red, black.advisors), units(&black, red.advisors)],
        (red.phase + black.phase).min(MAX_PHASE),
    )
}

/// Adds side `SIDE`'s signed counts to `sink` and returns the rest of what its pieces add up
/// to; the palace-attack counts only when `PALACE`.
#[inline(always)]
fn scan_side<const SIDE: usize, const PALACE: bool>(
    pos: &Position,
    sink: &mut impl Sink,
) -> SideScan {
    let sign: i32 = if SIDE == 0 { 1 } else { -1 };
    let sq = &pos.squares[SIDE * 16..SIDE * 16 + 16];
    let info = &POINT_INFO[SIDE];
    let palace = &IN_PALACE[1 - SIDE];
    let b = &pos.board;
    let mut out = SideScan::default();
    let present = |s: u8| i32::from(s != 0);
    out.advisors = present(sq[1]) + present(sq[2]);
    out.guards = out.advisors + present(sq[3]) + present(sq[4]);
    // Soldiers: the files they stand on (for open chariot files; an absent soldier's point 0
    // sets bit 0, which is no board column) and their palace hits (point 0 has no flags).
    let mut soldier_files = 0u16;
    let mut pawn_hits = 0;
    for &s in &sq[11..16] {
        soldier_files |= 1 << (s & 15);
        if PALACE {
            let hits = info[s as usize] >> P_SOLDIER_HITS;
            pawn_hits += i32::from(hits);
            out.hitters[3] += i32::from(hits != 0);
        }
    }
    if PALACE {
        sink.add(F_PALACE_PAWN, sign * pawn_hits);
    }
    let mut across = 0;
    // Horses.
    let (mut mob, mut hits_total) = (0, 0);
    for &s in &sq[5..7] {
        if s == 0 {
            continue;
        }
        let flags = info[s as usize];
        out.count_attacker(flags, 1, &mut across, sink, F_ZONE_HORSE, sign);
        let near = PALACE && flags & P_HORSE_NEAR != 0;
        // Each free leg opens two jumps; a jump counts for mobility onto an empty or enemy
        // point and, when near, for the palace point it hits whatever stands there.
        let blocked = side_bit_of(SIDE) | OFF;
        let mut hits = 0;
        for (leg, jumps) in HORSE_JUMPS_BY_LEG {
            if b[step(s, leg) as usize] != EMPTY {
                continue;
            }
            for j in jumps {
                let t = step(s, j);
                if near {
                    hits += i32::from(palace[t as usize]);
                }
                mob += i32::from(b[t as usize] & blocked == 0);
            }
        }
        hits_total += hits;
        out.hitters[1] += i32::from(hits > 0);
    }
    sink.add(F_MOB_HORSE, sign * mob);
    if PALACE {
        sink.add(F_PALACE_HORSE, sign * hits_total);
    }
    // Chariots and cannons read the rank and file occupancy bits: the nearest pieces on each
    // side of the slider along its rank and its file give the mobility (the empty points
    // between), a chariot's palace hits (points up to and including those pieces) and a
    // cannon's (points beyond them up to and including the next ones), and whether the enemy
    // general is the first or the second piece on the cannon's file. Indices along a line are
    // mailbox columns (files a..i = 3..=11) or rows (ranks 0..9 = 3..=12).
    let k = pos.squares[16 * (1 - SIDE)];
    // The enemy palace: its first row along a file; columns 6..=8 along a rank.
    let palace_row: u32 = if SIDE == 0 { 10 } else { 3 };
    let (mut mob, mut hits_total) = (0, 0);
    for &s in &sq[7..9] {
        if s == 0 {
            continue;
        }
        let flags = info[s as usize];
        out.count_attacker(flags, 2, &mut across, sink, F_ZONE_ROOK, sign);
        if soldier_files & (1 << (s & 15)) == 0 {
            sink.add(F_OPEN_FILE_ROOK, sign);
        }
        let (across_line, along) = Line::both(pos, s);
        // The enemy palace spans three points of a rank or file; a line that misses it
        // contributes no hits.
        let mut hits = 0;
        if PALACE && flags & P_PALACE_RANKS != 0 {
            hits += across_line.rook_hits(6);
        }
        if PALACE && flags & P_PALACE_FILE != 0 {
            hits += along.rook_hits(palace_row);
        }
        mob += across_line.mobility() + along.mobility();
        hits_total += hits;
        out.hitters[0] += i32::from(hits > 0);
    }
    sink.add(F_MOB_ROOK, sign * mob);
    if PALACE {
        sink.add(F_PALACE_ROOK, sign * hits_total);
    }
    let (mut mob, mut hits_total) = (0, 0);
    for &s in &sq[9..11] {
        if s == 0 {
            continue;
        }
        let flags = info[s as usize];
        out.count_attacker(flags, 1, &mut across, sink, F_ZONE_CANNON, sign);
        let (across_line, along) = Line::both(pos, s);
        let mut hits = 0;
        if PALACE && flags & P_PALACE_RANKS != 0 {
            hits += across_line.cannon_hits(6);
        }
        if PALACE && flags & P_PALACE_FILE != 0 {
            hits += along.cannon_hits(palace_row);
        }
        if k != 0 && (k ^ s) & 0x0F == 0 {
            let kr = u32::from(k >> 4);
            let (first, second) = if kr > along.p {
                (along.hi(), along.hi2())
            } else {
                (along.lo(), along.lo2())
            };
            if first == kr {
                sink.add(F_HOLLOW_CANNON, sign);
            } else if second == kr {
                sink.add(F_SCREEN_CANNON, sign);
            }
        }
        mob += across_line.mobility() + along.mobility();
        hits_total += hits;
        out.hitters[2] += i32::from(hits > 0);
    }
    sink.add(F_MOB_CANNON, sign * mob);
    if PALACE {
        sink.add(F_PALACE_CANNON, sign * hits_total);
    }
    sink.add(F_ATTACKER_ACROSS, sign * across);
    out
}

/// Off-board bits added to a rank's occupancy (columns 1, 2 and 12, 13) so that every search
/// for the nearest or next piece meets one: a slider that reaches the edge meets index 2 or 12.
const RANK_SENTINELS: u32 = 0b11 << 1 | 0b11 << 12;
/// Off-board bits added to a file's occupancy (rows 1, 2 and 13, 14).
const FILE_SENTINELS: u32 = 0b11 << 1 | 0b11 << 13;

/// A slider's view along one rank or file: the occupied indices above and below its own (with
/// two sentinels past each edge), from which the nearest and next pieces each way follow.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// The slider's index along the line.
    p: u32,
    /// Occupied indices above `p`.
    above: u32,
    /// Occupied indices below `p`.
    below: u32,
}

impl Line {
    /// The view from mailbox point `s` along its rank and along its file.
    #[inline(always)]
    fn both(pos: &Position, s: u8) -> (Line, Line) {
        let (row, column) = (u32::from(s >> 4), u32::from(s & 15));
        let ranks = u32::from(pos.rank_bits[row as usize]) | RANK_SENTINELS;
        let files = u32::from(pos.file_bits[column as usize]) | FILE_SENTINELS;
        (Line::new(ranks, column), Line::new(files, row))
    }

    /// The view from index `p` of a line with occupancy `occ` (sentinels included).
    #[inline(always)]
    fn new(occ: u32, p: u32) -> Line {
        Line {
            p,
            above: occ & !((2u32 << p) - 1),
            below: occ & ((1u32 << p) - 1),
        }
    }

    /// The nearest occupied index above (a sentinel past the edge when there is none).
    #[inline(always)]
    fn hi(&self) -> u32 {
        self.above.trailing_zeros()
    }

    /// The next occupied index above [`Line::hi`].
    #[inline(always)]
    fn hi2(&self) -> u32 {
        (self.above & self.above.wrapping_sub(1)).trailing_zeros()
    }

    /// The nearest occupied index below.
    #[inline(always)]
    fn lo(&self) -> u32 {
        31 - self.below.leading_zeros()
    }

    /// The next occupied index below [`Line::lo`].
    #[inline(always)]
    fn lo2(&self) -> u32 {
        31 - (self.below ^ (1 << self.lo())).leading_zeros()
    }

    /// The empty points between the nearest pieces (or edges) each way.
    #[inline(always)]
    fn mobility(&self) -> i32 {
        (self.hi() - self.lo()) as i32 - 2
    }

    /// Points of the three-point span starting at index `a` (on the board) that a chariot here
    /// attacks: up to and including the nearest piece each way, its own point excluded.
    #[inline(always)]
    fn rook_hits(&self, a: u32) -> i32 {
        overlap3(self.lo(), self.hi(), a) - i32::from((a..a + 3).contains(&self.p))
    }

    /// Points of the three-point span starting at `a` that a cannon here attacks: beyond the
    /// nearest piece each way up to and including the next one (past an edge the indices are
    /// sentinels, never in the span).
    #[inline(always)]
    fn cannon_hits(&self, a: u32) -> i32 {
        overlap3(self.hi() + 1, self.hi2(), a) + overlap3(self.lo2(), self.lo() - 1, a)
    }
}

/// The number of indices in both `lo..=hi` and `a..a + 3`.
#[inline(always)]
fn overlap3(lo: u32, hi: u32, a: u32) -> i32 {
    (hi.min(a + 2) as i32 - lo.max(a) as i32 + 1).max(0)
}

/// Writes the features of `pos` into `out` and returns the phase (0..=[`MAX_PHASE`]).
#[inline]
pub fn features(pos: &Position, out: &mut impl Features) -> i32 {
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
    }
    let s = scalar_features(pos);
    for (j, &n) in s.counts.iter().enumerate() {
        if n != 0 {
            out.add(F_MOB_HORSE + j, n);
        }
    }
    let [r, b] = s.units;
    if r != b {
        out.add(F_DANGER, r - b);
    }
    if r * r != b * b {
        out.add(F_DANGER_SQ, r * r - b * b);
    }
    s.phase
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

/// Entries of the evaluation cache (a power of two).
const CACHE_SLOTS: usize = 1 << 16;

/// A small lock-free cache of side-to-move scores keyed by the Zobrist hash: each slot packs the
/// hash's upper 48 bits and the score (as `i16`) into one atomic word, so search threads can share
/// it without locks and never read a torn entry.
struct EvalCache {
    slots: Box<[AtomicU64]>,
}

impl EvalCache {
    fn new() -> Self {
        EvalCache {
            slots: (0..CACHE_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        }
    }

    #[inline]
    fn get(&self, key: u64) -> Option<Score> {
        let e = self.slots[key as usize & (CACHE_SLOTS - 1)].load(Ordering::Relaxed);
        (e != 0 && (e ^ key) >> 16 == 0).then_some(Score::from(e as u16 as i16))
    }

    #[inline]
    fn put(&self, key: u64, score: Score) {
        if let Ok(s) = i16::try_from(score) {
            self.slots[key as usize & (CACHE_SLOTS - 1)]
                .store((key & !0xFFFF) | u64::from(s as u16), Ordering::Relaxed);
        }
    }
}

/// The evaluator of the full-strength engine: the weights, the material plus piece-square
/// weights of every piece code on every point folded into one table for speed, and a cache of
/// scores by position hash.
pub struct Evaluation {
    weights: Weights,
    /// `(mg, eg)` of material + piece-square for piece code `c` (16..48) on mailbox point `sq`,
    /// signed from Red's view.
    psq: Box<[[(Score, Score); 256]; 48]>,
    /// The middlegame and endgame weights of the scalar features ([`Scalars::counts`]), as
    /// fixed-size arrays so the weighted sum needs no bounds checks.
    linear: Box<[[Score; NUM_LINEAR]; 2]>,
    /// The scalar weights packed per feature ([`pack_score`]), for [`Weighted`].
    linear_packed: Box<[i32; NUM_LINEAR]>,
    /// Whether the packed weighted sum of the scalar counts certainly unpacks right: the largest
    /// possible count of each feature ([`MAX_SCALAR_COUNT`]) times its weight sums to less than
    /// `i16` allows, for the middlegame and the endgame weights alike.
    packed_ok: bool,
    /// Whether any palace-attack or king-danger weight is set (otherwise they are not computed).
    palace_terms: bool,
    /// Whether the material and piece-square weights are the tuned ones, so that the sum the
    /// position keeps ([`PSQ_TUNED`]) can be used instead of summing `psq`.
    tuned_psq: bool,
    cache: EvalCache,
}

impl Clone for Evaluation {
    /// The same weights with an empty cache.
    fn clone(&self) -> Self {
        Evaluation {
            weights: self.weights.clone(),
            psq: self.psq.clone(),
            linear: self.linear.clone(),
            linear_packed: self.linear_packed.clone(),
            packed_ok: self.packed_ok,
            palace_terms: self.palace_terms,
            tuned_psq: self.tuned_psq,
            cache: EvalCache::new(),
        }
    }
}

impl std::fmt::Debug for Evaluation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Evaluation")
            .field("weights", &self.weights)
            .finish_non_exhaustive()
    }
}

impl Default for Evaluation {
    fn default() -> Self {
        Evaluation::with_weights(Weights::default())
    }
}

impl Evaluation {
    /// An evaluation with the given weights.
    pub fn with_weights(weights: Weights) -> Self {
        let mut psq = Box::new([[(0, 0); 256]; 48]);
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
        let palace_terms =
            (F_PALACE_ROOK..=F_DANGER_SQ).any(|f| weights.mg[f] != 0 || weights.eg[f] != 0);
        let mut linear = Box::new([[0; NUM_LINEAR]; 2]);
        for j in 0..NUM_LINEAR {
            linear[0][j] = weights.mg[F_MOB_HORSE + j];
            linear[1][j] = weights.eg[F_MOB_HORSE + j];
        }
        let mut linear_packed = Box::new([0; NUM_LINEAR]);
        let (mut bound_mg, mut bound_eg) = (0i64, 0i64);
        for j in 0..NUM_LINEAR {
            linear_packed[j] = pack_score(linear[0][j], linear[1][j]);
            bound_mg += i64::from(MAX_SCALAR_COUNT[j]) * i64::from(linear[0][j]).abs();
            bound_eg += i64::from(MAX_SCALAR_COUNT[j]) * i64::from(linear[1][j]).abs();
        }
        let packed_ok = bound_mg.max(bound_eg) < 30_000;
        let tuned_psq =
            (0..32).all(|i| (0..256).all(|sq| psq[i + 16][sq] == unpack_score(PSQ_TUNED[i][sq])));
        Evaluation {
            weights,
            psq,
            linear,
            linear_packed,
            packed_ok,
            palace_terms,
            tuned_psq,
            cache: EvalCache::new(),
        }
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
        if self.tuned_psq {
            (mg, eg) = unpack_score(pos.psq);
        } else {
            for (i, &sq) in pos.squares.iter().enumerate() {
                if sq != 0 {
                    let (m, e) = self.psq[i + 16][sq as usize];
                    mg += m;
                    eg += e;
                }
            }
        }
        let ([r, b], phase) = if self.packed_ok {
            let mut sink = Weighted {
                weights: &self.linear_packed,
                sum: 0,
            };
            let units_phase = if self.palace_terms {
                scan::<true>(pos, &mut sink)
            } else {
                scan::<false>(pos, &mut sink)
            };
            let (m, e) = unpack_score(sink.sum);
            mg += m;
            eg += e;
            units_phase
        } else {
            let s = fast_scalars(pos, self.palace_terms);
            for ((&n, &wm), &we) in s.counts.iter().zip(&self.linear[0]).zip(&self.linear[1]) {
                mg += wm * n;
                eg += we * n;
            }
            (s.units, s.phase)
        };
        let (lin, sq) = (r - b, r * r - b * b);
        mg += w.mg[F_DANGER] * lin + w.mg[F_DANGER_SQ] * sq;
        eg += w.eg[F_DANGER] * lin + w.eg[F_DANGER_SQ] * sq;
        (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }

    /// Score from the side to move's view.
    pub fn score(&self, pos: &Position) -> Score {
        let key = pos.zobrist();
        if let Some(s) = self.cache.get(key) {
            return s;
        }
        let s = self.red_score(pos);
        let s = if pos.side_to_move() == Color::Red {
            s
        } else {
            -s
        };
        self.cache.put(key, s);
        s
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
#[inline]
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

/// Points of `palace` a chariot on `sq` attacks (its rays up to and including the first piece).
#[inline]
fn rook_hits(pos: &Position, sq: u8, palace: &[bool; 256]) -> i32 {
    ORTHO
        .iter()
        .map(|&d| ray_hits(pos, i16::from(sq) + d, d, palace))
        .sum()
}

/// Points of `palace` on the ray from `t` in direction `d`, up to and including the first piece.
#[inline]
fn ray_hits(pos: &Position, mut t: i16, d: i16, palace: &[bool; 256]) -> i32 {
    let mut hits = 0;
    loop {
        hits += i32::from(palace[(t as usize) & 255]);
        if cell(pos, t) != EMPTY {
            return hits;
        }
        t += d;
    }
}

/// Points of `palace` a cannon on `sq` attacks (beyond exactly one screen, up to and including
/// the next piece).
#[inline]
fn cannon_hits(pos: &Position, sq: u8, palace: &[bool; 256]) -> i32 {
    let mut hits = 0;
    for d in ORTHO {
        let mut t = i16::from(sq) + d;
        while cell(pos, t) == EMPTY {
            t += d;
        }
        if cell(pos, t) == OFF {
            continue;
        }
        hits += ray_hits(pos, t + d, d, palace);
    }
    hits
}

/// A horse on `sq`: the points it can jump to (leg free, target empty or enemy), and, when `near`,
/// the points of `palace` it attacks (leg free, whatever stands there).
#[inline]
fn horse_scan(pos: &Position, sq: u8, palace: &[bool; 256], near: bool) -> (Score, i32) {
    let me = pos.board[sq as usize] & (RED_BIT | BLACK_BIT);
    let (mut n, mut hits) = (0, 0);
    let s = i16::from(sq);
    for (jump, leg) in HORSE_JUMPS {
        if cell(pos, s + leg) != EMPTY {
            continue;
        }
        let to = s + jump;
        if near {
            hits += i32::from(palace[(to as usize) & 255]);
        }
        let t = cell(pos, to);
        if t == EMPTY || (CELL_KIND[t as usize] != 7 && t & me == 0) {
            n += 1;
        }
    }
    (n, hits)
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
        // Every scalar feature weighted (the shipped weights leave some at 0).
        let mut all = Weights::hand();
        for (i, f) in (F_MOB_HORSE..NUM_FEATURES).enumerate() {
            all.mg[f] = 3 + i as Score;
            all.eg[f] = 17 - 2 * i as Score;
        }
        // Scalar weights too big for the packed sum: the search falls back to counting.
        let mut big = Weights::default();
        big.mg[F_MOB_ROOK] = 1000;
        big.eg[F_HOLLOW_CANNON] = -9000;
        let positions = crate::game::random_game_positions(7, 40, 120);
        for (w, packed) in [
            (Weights::hand(), true),
            (Weights::default(), true),
            (all, true),
            (big, false),
        ] {
            let e = Evaluation::with_weights(w);
            assert_eq!(e.packed_ok, packed);
            for pos in &positions {
                assert_eq!(e.red_score(pos), e.red_score_by_features(pos), "{pos:?}");
            }
        }
    }

    #[test]
    fn the_fast_scan_equals_the_plain_feature_definition() {
        let (mut hollow, mut screen, mut palace) = (0, 0, 0);
        for pos in crate::game::random_game_positions(23, 60, 160) {
            for with_palace in [true, false] {
                let plain = scalar_features_with(&pos, with_palace);
                assert_eq!(fast_scalars(&pos, with_palace), plain, "{pos:?}");
                for (j, n) in plain.counts.iter().enumerate() {
                    assert!(
                        n.abs() <= MAX_SCALAR_COUNT[j],
                        "feature {j}: {n} in {pos:?}"
                    );
                }
                let n = |f: usize| plain.counts[f - F_MOB_HORSE] != 0;
                hollow += usize::from(n(F_HOLLOW_CANNON));
                screen += usize::from(n(F_SCREEN_CANNON));
                palace += usize::from(n(F_PALACE_ROOK) && n(F_PALACE_CANNON));
            }
        }
        // The positions exercise the rarer terms too.
        assert!(
            hollow > 50 && screen > 20 && palace > 50,
            "{hollow} {screen} {palace}"
        );
    }

    #[test]
    fn the_kept_piece_square_sum_is_used_only_for_the_tuned_weights() {
        assert!(Evaluation::default().tuned_psq);
        assert!(!Evaluation::with_weights(Weights::hand()).tuned_psq);
        let mut w = Weights::default();
        w.eg[F_PST + 3 * 50 + 17] += 1;
        assert!(!Evaluation::with_weights(w).tuned_psq);
        let mut w = Weights::default();
        w.mg[F_MOB_ROOK] += 1;
        assert!(Evaluation::with_weights(w).tuned_psq);
        for (mg, eg) in [
            (0, 0),
            (-1, 1),
            (1234, -4321),
            (-32768, 32767),
            (32767, -32768),
        ] {
            assert_eq!(unpack_score(pack_score(mg, eg)), (mg, eg));
            let two = pack_score(mg / 2, eg / 2) + pack_score(mg / 3, -eg / 5);
            assert_eq!(unpack_score(two), (mg / 2 + mg / 3, eg / 2 - eg / 5));
        }
    }

    #[test]
    fn cached_scores_equal_fresh_ones() {
        let e = Evaluation::default();
        for pos in crate::game::random_game_positions(11, 20, 100) {
            let fresh = if pos.side_to_move() == Color::Red {
                e.red_score(&pos)
            } else {
                -e.red_score(&pos)
            };
            assert_eq!(e.score(&pos), fresh);
            assert_eq!(e.score(&pos), fresh, "second look-up, from the cache");
            assert_eq!(e.clone().score(&pos), fresh);
        }
    }

    #[test]
    fn palace_attacks_and_king_danger_are_counted() {
        let count = |fen: &str, f: usize| {
            let pos = Position::from_fen(fen).expect("fen");
            (
                scalar_features(&pos).counts[f - F_MOB_HORSE],
                scalar_features(&pos).units,
            )
        };
        // A chariot on the open d-file hits d7, d8, d9: 3 units plus 2 missing advisors.
        let rook = "4k4/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1";
        assert_eq!(count(rook, F_PALACE_ROOK), (3, [5, 0]));
        // With both advisors home the same chariot hits d7, d8 and the advisor on d9.
        let guarded = "3akab2/9/9/9/9/9/9/9/9/3R1K3 w - - 0 1";
        assert_eq!(count(guarded, F_PALACE_ROOK), (3, [3, 0]));
        // A cannon behind its own advisor: e7, e8 and the general on e9.
        let cannon = "4k4/9/9/9/9/9/9/9/4A4/3KC4 b - - 0 1";
        assert_eq!(count(cannon, F_PALACE_CANNON), (3, [4, 0]));
        // A horse on e6 reaches d8 and f8; a soldier on d7 hits d8 and e7; Black's chariot on
        // its own back rank hits nothing of Red's palace.
        let horse = "r3k4/9/3P5/4N4/9/9/9/9/9/3K5 w - - 0 1";
        assert_eq!(count(horse, F_PALACE_HORSE), (2, [2 + 1 + 2, 0]));
        assert_eq!(count(horse, F_PALACE_PAWN).0, 2);
        // The start position: no attacker reaches the other palace.
        assert_eq!(count(crate::START_FEN, F_PALACE_ROOK), (0, [0, 0]));
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
