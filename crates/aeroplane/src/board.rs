//! The board: progress values (A2), ring squares (A3), colours (A4), seats (A1) and the
//! precomputed destination table of every (rule set, progress, roll) (A6, A10, A11).

use crate::rules::RuleSet;

/// A plane in its hangar (not on the board).
pub const HANGAR: u8 = 57;
/// The launch pad, progress 0 (standard rules only).
pub const PAD: u8 = 0;
/// The last ring step before the home column.
pub const RING_LAST: u8 = 50;
/// The centre: a plane here has finished.
pub const CENTRE: u8 = 56;
/// Number of distinct plane states (progress 0..=56 and the hangar).
pub const PLANE_STATES: usize = 58;
/// Squares on the ring.
pub const RING: u8 = 52;
/// Planes per player.
pub const PLANES: usize = 4;
/// The own-colour square where the flight starts (A10).
pub const FLY_FROM: u8 = 18;
/// Where the flight lands (A10).
pub const FLY_TO: u8 = 30;
/// The square of the opposite player's home column that a flight crosses (A10).
pub const FLIGHT_CROSSES: u8 = 53;

/// The seats used by `n` players (A1): 2 players sit opposite (red + blue).
pub fn seats(n: usize) -> &'static [u8] {
    match n {
        2 => &[0, 2],
        3 => &[0, 1, 2],
        4 => &[0, 1, 2, 3],
        _ => &[0],
    }
}

/// `SEAT[n][p]`: the seat of player `p` in an `n`-player game (0 for unused entries).
pub const SEAT: [[u8; 4]; 5] = [
    [0, 0, 0, 0],
    [0, 0, 0, 0],
    [0, 2, 0, 0],
    [0, 1, 2, 0],
    [0, 1, 2, 3],
];

const fn build_ring() -> [[u8; 64]; 4] {
    let mut t = [[255u8; 64]; 4];
    let mut seat = 0;
    while seat < 4 {
        let mut d = 1;
        while d <= RING_LAST as usize {
            t[seat][d] = ((13 * seat + d - 1) % RING as usize) as u8;
            d += 1;
        }
        seat += 1;
    }
    t
}

const fn build_progress_on() -> [[u8; 64]; 4] {
    let mut t = [[0u8; 64]; 4];
    let mut seat = 0;
    while seat < 4 {
        let mut sq = 0;
        while sq < RING as usize {
            let d = (sq + RING as usize - 13 * seat) % RING as usize + 1;
            t[seat][sq] = if d <= RING_LAST as usize { d as u8 } else { 0 };
            sq += 1;
        }
        seat += 1;
    }
    t
}

/// `RING_OF[seat][d]`: ring square of progress `d` (1..=50), 255 off the ring.
pub static RING_OF: [[u8; 64]; 4] = build_ring();
/// `PROGRESS_ON[seat][sq]`: the seat's progress on ring square `sq`, 0 when it never stands there.
pub static PROGRESS_ON: [[u8; 64]; 4] = build_progress_on();

const fn build_same_square() -> [[[[u8; 64]; 4]; 4]; 5] {
    let mut t = [[[[NOWHERE; 64]; 4]; 4]; 5];
    let mut n = 2;
    while n <= 4 {
        let mut p = 0;
        while p < n {
            let mut q = 0;
            while q < n {
                if q != p {
                    let mut d = 1;
                    while d <= RING_LAST as usize {
                        let sq = (13 * SEAT[n][p] as usize + d - 1) % RING as usize;
                        let e = (sq + RING as usize - 13 * SEAT[n][q] as usize) % RING as usize + 1;
                        t[n][p][q][d] = if e <= RING_LAST as usize {
                            e as u8
                        } else {
                            NOWHERE
                        };
                        d += 1;
                    }
                }
                q += 1;
            }
            p += 1;
        }
        n += 1;
    }
    t
}

/// A progress value no plane ever has.
pub const NOWHERE: u8 = 255;

/// `SAME_SQUARE[n][p][q][d]`: in an `n`-player game, the progress at which player `q` stands on
/// the ring square of player `p`'s progress `d` ([`NOWHERE`] when `q` never stands there, off
/// the ring, or `q == p`).
pub static SAME_SQUARE: [[[[u8; 64]; 4]; 4]; 5] = build_same_square();

/// Colour names of the seats.
pub const SEAT_NAMES: [&str; 4] = ["red", "yellow", "blue", "green"];

/// True when progress `d` stands on the ring (A2).
#[inline]
pub fn on_ring(d: u8) -> bool {
    (1..=RING_LAST).contains(&d)
}

/// The ring square (0..52) of progress `d` (1..=50) of the player in `seat` (A3).
#[inline]
pub fn ring_square(seat: u8, d: u8) -> u8 {
    ((13 * seat as u16 + d as u16 - 1) % RING as u16) as u8
}

/// The progress at which the player in `seat` stands on ring square `sq`, if it is one of its
/// ring steps 1..=50.
#[inline]
pub fn progress_on(seat: u8, sq: u8) -> Option<u8> {
    let d = ((sq as u16 + RING as u16 - 13 * seat as u16) % RING as u16) as u8 + 1;
    if d <= RING_LAST {
        Some(d)
    } else {
        None
    }
}

/// How many steps a plane of the player in `seat` at progress `d` (the launch pad or the ring) is
/// behind ring square `target` (0..52), when it can reach that square without leaving the ring
/// (`None` otherwise, and for a plane already on it).
#[inline]
pub fn steps_behind(seat: u8, d: u8, target: u8) -> Option<u8> {
    let ring = RING as u16;
    let from = match d {
        // The launch pad is one step before the first ring square.
        PAD => (13 * seat as u16 + ring - 1) % ring,
        1..=RING_LAST => ring_square(seat, d) as u16,
        _ => return None,
    };
    let k = (target as u16 + ring - from) % ring;
    (k != 0 && d as u16 + k <= RING_LAST as u16).then_some(k as u8)
}

/// `planes` with every plane at progress `d` sent back to the hangar (a hit there, A9).
#[inline]
pub fn send_home(mut planes: [u8; PLANES], d: u8) -> [u8; PLANES] {
    planes
        .iter_mut()
        .filter(|x| **x == d)
        .for_each(|x| *x = HANGAR);
    planes
}

/// True when progress `d` is one of the player's own-colour ring squares (A4).
#[inline]
pub fn own_colour(d: u8) -> bool {
    on_ring(d) && d % 4 == 2
}

/// What happens when one plane moves: where it stops and what it passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Step {
    /// Final progress (the hangar value when the roll cannot move the plane).
    pub to: u8,
    /// The roll moved the plane.
    pub legal: bool,
    /// The plane jumped (A10).
    pub jumped: bool,
    /// The plane flew 18 -> 30 and crossed the opposite home column at 53 (A10).
    pub flew: bool,
}

/// The move of one plane at progress `from` (or [`HANGAR`]) by `roll` under `set`, ignoring the
/// take-off option (the caller checks it): A6 take-off, A10 jumps and flight, A11 bounce.
pub const fn step(set: RuleSet, from: u8, roll: u8) -> Step {
    let flights = matches!(set, RuleSet::Standard);
    if from == HANGAR {
        let to = if flights { PAD } else { 1 };
        return Step {
            to,
            legal: true,
            jumped: false,
            flew: false,
        };
    }
    if from >= CENTRE {
        return Step {
            to: from,
            legal: false,
            jumped: false,
            flew: false,
        };
    }
    let mut to = from + roll;
    if to > CENTRE {
        to = CENTRE - (to - CENTRE);
    }
    let mut jumped = false;
    let mut flew = false;
    // A10: landing by the roll on an own-colour ring square (d < 50).
    if to >= 1 && to < RING_LAST && to % 4 == 2 {
        if flights && to == FLY_FROM {
            // Land on 18: fly to 30, then jump to 34.
            flew = true;
            to = FLY_TO + 4;
            jumped = true;
        } else {
            to += 4;
            jumped = true;
            if flights && to == FLY_FROM {
                // Reached 18 by a jump: fly to 30 and stop.
                flew = true;
                to = FLY_TO;
            }
        }
    }
    Step {
        to,
        legal: true,
        jumped,
        flew,
    }
}

const fn build_steps(set: RuleSet) -> [[Step; 7]; PLANE_STATES] {
    let mut table = [[Step {
        to: 0,
        legal: false,
        jumped: false,
        flew: false,
    }; 7]; PLANE_STATES];
    let mut d = 0;
    while d < PLANE_STATES {
        let mut r = 1;
        while r <= 6 {
            table[d][r] = step(set, d as u8, r as u8);
            r += 1;
        }
        d += 1;
    }
    table
}

/// `STEPS[set][from][roll]` for the standard rules.
pub static STEPS_STANDARD: [[Step; 7]; PLANE_STATES] = build_steps(RuleSet::Standard);
/// `STEPS[set][from][roll]` for the seed rules.
pub static STEPS_SEED: [[Step; 7]; PLANE_STATES] = build_steps(RuleSet::Seed);

/// The precomputed table for `set`.
#[inline]
pub fn steps(set: RuleSet) -> &'static [[Step; 7]; PLANE_STATES] {
    match set {
        RuleSet::Standard => &STEPS_STANDARD,
        RuleSet::Seed => &STEPS_SEED,
    }
}

const LOW7: u32 = 0x7f7f_7f7f;

/// The high bit of every byte of `x` that is zero (exact: no borrow between bytes).
#[inline(always)]
pub(crate) fn zero_bytes32(x: u32) -> u32 {
    !((((x & LOW7) + LOW7) | x) | LOW7)
}

const NOWHERES: u32 = u32::from_le_bytes([NOWHERE; 4]);

const fn build_hit_rows() -> [[[[u32; 4]; 64]; 4]; 5] {
    let mut t = [[[[NOWHERES; 4]; 64]; 4]; 5];
    let mut n = 2;
    while n <= 4 {
        let mut p = 0;
        while p < n {
            let mut d = 0;
            while d < 64 {
                let mut q = 0;
                while q < 4 {
                    t[n][p][d][q] = SAME_SQUARE[n][p][q][d] as u32 * 0x0101_0101;
                    q += 1;
                }
                d += 1;
            }
            p += 1;
        }
        n += 1;
    }
    t
}

const fn build_flight_rows() -> [[[[u32; 4]; 2]; 4]; 5] {
    let mut t = [[[[NOWHERES; 4]; 2]; 4]; 5];
    let mut n = 2;
    while n <= 4 {
        let mut p = 0;
        while p < n {
            let opposite = (SEAT[n][p] + 2) % 4;
            let mut q = 0;
            while q < n {
                if SEAT[n][q] == opposite {
                    t[n][p][1][q] = FLIGHT_CROSSES as u32 * 0x0101_0101;
                }
                q += 1;
            }
            p += 1;
        }
        n += 1;
    }
    t
}

/// `HIT_ROWS[n][p][d][q]`: for player `p` of an `n`-player game coming to rest at progress `d`,
/// the progress player `q`'s planes must have to be hit, in all four bytes of a row
/// ([`NOWHERE`] where nothing is hit): [`SAME_SQUARE`], four planes at once.
pub(crate) static HIT_ROWS: [[[[u32; 4]; 64]; 4]; 5] = build_hit_rows();

/// `FLIGHT_ROWS[n][p][flew][q]`: after a flight, [`FLIGHT_CROSSES`] in the row of the player
/// opposite `p` (A10), so the crossing is tested like a landing; [`NOWHERE`] otherwise.
pub(crate) static FLIGHT_ROWS: [[[[u32; 4]; 2]; 4]; 5] = build_flight_rows();

/// `SPREAD[mask]`: bit `i` of a 4-bit mask spread to all of byte `i`.
pub(crate) static SPREAD: [u32; 16] = {
    let mut t = [0u32; 16];
    let mut m = 0;
    while m < 16 {
        let mut i = 0;
        while i < 4 {
            if m & (1 << i) != 0 {
                t[m] |= 0xff << (8 * i);
            }
            i += 1;
        }
        m += 1;
    }
    t
};

const fn build_select() -> [[u8; 4]; 16] {
    let mut t = [[0u8; 4]; 16];
    let mut m = 0;
    while m < 16 {
        let mut k = 0;
        let mut i = 0;
        while i < 4 {
            if m & (1 << i) != 0 {
                t[m][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        m += 1;
    }
    t
}

/// `SELECT[mask][k]`: the index of the `k`-th set bit of a 4-bit mask.
pub(crate) static SELECT: [[u8; 4]; 16] = build_select();

/// Slots of the occupancy board of [`Aero::play_out_random`](crate::Aero): the 52 ring squares,
/// then one private slot per player for every progress off the ring (64: indexes masked by 63
/// need no bounds check).
pub(crate) const OCC_SLOTS: usize = 64;

const fn build_slot_of() -> [[[u8; 64]; 4]; 5] {
    let mut t = [[[0u8; 64]; 4]; 5];
    let mut n = 0;
    while n <= 4 {
        let mut p = 0;
        while p < 4 {
            let mut d = 0;
            while d < 64 {
                t[n][p][d] = if d >= 1 && d <= RING_LAST as usize {
                    ((13 * SEAT[n][p] as usize + d - 1) % RING as usize) as u8
                } else {
                    RING + p as u8
                };
                d += 1;
            }
            p += 1;
        }
        n += 1;
    }
    t
}

/// `SLOT_OF[n][p][d]`: the occupancy slot of player `p`'s plane at progress `d` in an `n`-player
/// game: its ring square for `1..=RING_LAST`, else `RING + p` (a slot only `p` ever uses, so a
/// plane at rest there never meets an enemy).
pub(crate) static SLOT_OF: [[[u8; 64]; 4]; 5] = build_slot_of();

const fn build_flat(set: RuleSet) -> [Step; 512] {
    let mut t = [Step {
        to: 0,
        legal: false,
        jumped: false,
        flew: false,
    }; 512];
    let mut d = 0;
    while d < PLANE_STATES {
        let mut r = 1;
        while r <= 6 {
            t[(d << 3) | r] = step(set, d as u8, r as u8);
            r += 1;
        }
        d += 1;
    }
    t
}

static FLAT_STANDARD: [Step; 512] = build_flat(RuleSet::Standard);
static FLAT_SEED: [Step; 512] = build_flat(RuleSet::Seed);

/// [`steps`] flattened: entry `(d & 63) << 3 | (roll & 7)` (indexes that need no bounds check).
#[inline]
pub(crate) fn flat_steps(set: RuleSet) -> &'static [Step; 512] {
    match set {
        RuleSet::Standard => &FLAT_STANDARD,
        RuleSet::Seed => &FLAT_SEED,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn send_home_sends_every_plane_at_that_progress_and_no_other() {
        assert_eq!(
            send_home([7, 20, 7, CENTRE], 7),
            [HANGAR, 20, HANGAR, CENTRE]
        );
        assert_eq!(send_home([7, 20, 7, CENTRE], 21), [7, 20, 7, CENTRE]);
    }

    /// `steps_behind` against walking the plane forward step by step on the ring.
    #[test]
    fn steps_behind_matches_walking_the_ring() {
        for seat in 0..4u8 {
            for d in 0..=HANGAR {
                for target in 0..RING {
                    let walked = (1..=RING_LAST)
                        .filter(|&k| (PAD..RING_LAST).contains(&d) && d + k <= RING_LAST)
                        .find(|&k| ring_square(seat, d + k) == target);
                    assert_eq!(
                        steps_behind(seat, d, target),
                        walked,
                        "seat {seat}, d {d}, square {target}"
                    );
                }
            }
        }
    }
}
