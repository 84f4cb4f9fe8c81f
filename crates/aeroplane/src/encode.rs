//! Integer action ids and an observation tensor, for learning front ends (the Python package).
//!
//! Action ids: moving plane `i` is `i` (0..4); the die showing `f` (a chance outcome) is
//! `3 + f` (4..10). Ids lie in `0..NUM_ACTIONS` and do not depend on the position.
//!
//! Observation: `players * 4 * 58 + 6` values (see [`observation_len`]): for the player `k`
//! seats after the one to move (k = 0 is the mover), a one-hot of each plane's progress
//! (0 the launch pad .. 56 the centre, 57 the hangar; see [`crate::board`]), then a one-hot of
//! the roll waiting to be played (all zero at a chance node).

use crate::board::{PLANES, PLANE_STATES};
use crate::position::{Aero, AeroMove};
use qiyi_core::Game;

/// The number of distinct action ids: four planes and six die faces.
pub const NUM_ACTIONS: usize = PLANES + 6;

/// The action id of `mv`.
pub fn action_id(mv: AeroMove) -> u32 {
    match mv {
        AeroMove::Plane(i) => i as u32,
        AeroMove::Roll(f) => 3 + f as u32,
    }
}

/// The move with action id `id`, if it names one (legality is not checked).
pub fn action_move(id: u32) -> Option<AeroMove> {
    match id {
        0..=3 => Some(AeroMove::Plane(id as u8)),
        4..=9 => Some(AeroMove::Roll((id - 3) as u8)),
        _ => None,
    }
}

/// The length of [`observation`] for `players` players.
pub fn observation_len(players: usize) -> usize {
    players * PLANES * PLANE_STATES + 6
}

/// Writes the observation of `pos` into `out` (length [`observation_len`]); returns false
/// (writing nothing) when `out` has another length.
pub fn observation(pos: &Aero, out: &mut [f32]) -> bool {
    let n = pos.players();
    if out.len() != observation_len(n) {
        return false;
    }
    out.fill(0.0);
    let me = pos.to_move();
    for k in 0..n {
        for (i, &progress) in pos.planes((me + k) % n).iter().enumerate() {
            let at = (progress as usize).min(PLANE_STATES - 1);
            out[(k * PLANES + i) * PLANE_STATES + at] = 1.0;
        }
    }
    let roll = pos.pending_roll() as usize;
    if (1..=6).contains(&roll) {
        out[n * PLANES * PLANE_STATES + roll - 1] = 1.0;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn ids_round_trip_and_observation() {
        for id in 0..NUM_ACTIONS as u32 {
            assert_eq!(action_id(action_move(id).unwrap()), id);
        }
        assert_eq!(action_move(10), None);
        let mut pos = Aero::new(Rules::STANDARD, 4).unwrap();
        let mut out = vec![0.0; observation_len(4)];
        assert!(observation(&pos, &mut out));
        assert_eq!(out.iter().sum::<f32>(), 16.0);
        pos.make(AeroMove::Roll(6));
        assert!(observation(&pos, &mut out));
        assert_eq!(out[observation_len(4) - 1], 1.0);
        assert!(!observation(&pos, &mut out[..7]));
    }
}
