//! The exact probability model: Markov chains over a lone plane, solved by linear algebra (no
//! simulation).
//!
//! - [`turn_matrix`]: where a lone plane ends its owner's turn, from each progress value, with
//!   every reroll and the three-sixes option (A6, A8, A10, A11), by solving the absorbing chain of
//!   the rolls inside one turn.
//! - [`LoneOdds`]: expected turns to finish from each progress value and the distribution of the
//!   number of turns from the hangar.
//! - [`squares_per_turn`]: expected squares moved per turn (the die alone, no board).
//! - [`hit_chance`]: the chance that a plane is sent home before its owner's next turn.
//!
//! Floating-point: values are exact up to the rounding of `f64` Gaussian elimination (~1e-13).

use crate::board::{steps, CENTRE, HANGAR, PLANES, PLANE_STATES};
use crate::position::{Aero, AeroMove};
use crate::rules::{Rules, ThreeSixes};
use qiyi_core::{Game, Turn};
use serde::Serialize;
use std::collections::HashMap;

/// Index of the hangar in the state vectors (progress values use their own index).
pub const HANGAR_INDEX: usize = HANGAR as usize;

/// Solves `a x = b` for several right-hand sides (`b` is `n x m`, row-major), in place.
/// Gaussian elimination with partial pivoting. Returns `None` for a singular matrix.
fn solve(mut a: Vec<f64>, mut b: Vec<f64>, n: usize, m: usize) -> Option<Vec<f64>> {
    for col in 0..n {
        let pivot = (col..n).max_by(|&i, &j| {
            a[i * n + col]
                .abs()
                .partial_cmp(&a[j * n + col].abs())
                .unwrap_or(std::cmp::Ordering::Equal)
        })?;
        if a[pivot * n + col].abs() < 1e-300 {
            return None;
        }
        if pivot != col {
            for k in 0..n {
                a.swap(pivot * n + k, col * n + k);
            }
            for k in 0..m {
                b.swap(pivot * m + k, col * m + k);
            }
        }
        let inv = 1.0 / a[col * n + col];
        for row in 0..n {
            if row == col {
                continue;
            }
            let f = a[row * n + col] * inv;
            if f == 0.0 {
                continue;
            }
            for k in col..n {
                a[row * n + k] -= f * a[col * n + k];
            }
            for k in 0..m {
                b[row * m + k] -= f * b[col * m + k];
            }
        }
    }
    for row in 0..n {
        let inv = 1.0 / a[row * n + row];
        for k in 0..m {
            b[row * m + k] *= inv;
        }
    }
    Some(b)
}

/// `P[s][t]`: the probability that a lone plane at state `s` (progress 0..=56, or
/// [`HANGAR_INDEX`]) at the start of its owner's turn stands at `t` when the turn ends.
/// The centre is absorbing.
pub fn turn_matrix(rules: &Rules) -> Vec<[f64; PLANE_STATES]> {
    let table = steps(rules.set);
    let capped = rules.three_sixes != ThreeSixes::None;
    let ks = if capped { 3 } else { 1 };
    // Transient state (s, k, m): plane at s, k sixes rolled this turn, m = moved by a six.
    let idx = |s: usize, k: usize, m: usize| (s * ks + k) * 2 + m;
    let n = PLANE_STATES * ks * 2;
    let mut a = vec![0.0; n * n];
    let mut b = vec![0.0; n * PLANE_STATES];
    for s in 0..PLANE_STATES {
        for k in 0..ks {
            for m in 0..2 {
                let row = idx(s, k, m);
                a[row * n + row] += 1.0;
                if s == CENTRE as usize {
                    b[row * PLANE_STATES + s] += 1.0;
                    continue;
                }
                for f in 1..=6u8 {
                    let p = 1.0 / 6.0;
                    if f == 6 && capped && k == 2 {
                        let end = if rules.three_sixes == ThreeSixes::SendBack && m == 1 {
                            HANGAR_INDEX
                        } else {
                            s
                        };
                        b[row * PLANE_STATES + end] += p;
                        continue;
                    }
                    let (to, moved) = if s == HANGAR_INDEX && !rules.can_take_off(f) {
                        (s, false)
                    } else {
                        (table[s][f as usize].to as usize, true)
                    };
                    if to == CENTRE as usize || f != 6 {
                        b[row * PLANE_STATES + to] += p;
                    } else {
                        let nk = if capped { k + 1 } else { 0 };
                        let nm = if moved || m == 1 { 1 } else { 0 };
                        a[row * n + idx(to, nk, nm)] -= p;
                    }
                }
            }
        }
    }
    let x = solve(a, b, n, PLANE_STATES).unwrap_or_default();
    (0..PLANE_STATES)
        .map(|s| {
            let mut row = [0.0; PLANE_STATES];
            if !x.is_empty() {
                row.copy_from_slice(&x[idx(s, 0, 0) * PLANE_STATES..][..PLANE_STATES]);
            }
            row
        })
        .collect()
}

/// The lone-plane tables of one rule configuration.
#[derive(Clone, Debug, Serialize)]
pub struct LoneOdds {
    /// Expected turns to reach the centre from progress `d` (index = `d`, 0 = launch pad, 56 = 0).
    pub turns_to_finish: Vec<f64>,
    /// Expected turns from the hangar to the centre.
    pub turns_from_hangar: f64,
    /// Expected turns for a hangar plane to take off.
    pub turns_to_take_off: f64,
    /// `turn_distribution[t]`: probability that a plane starting in the hangar reaches the centre
    /// in exactly `t` turns (index 0 is 0), until the tail is below 1e-12.
    pub turn_distribution: Vec<f64>,
}

impl LoneOdds {
    /// Solves the chains for `rules`.
    pub fn new(rules: &Rules) -> LoneOdds {
        let p = turn_matrix(rules);
        // Expected turns: (I - P_TT) e = 1 over the non-centre states.
        let states: Vec<usize> = (0..PLANE_STATES)
            .filter(|&s| s != CENTRE as usize)
            .collect();
        let n = states.len();
        let pos = |s: usize| states.iter().position(|&x| x == s);
        let mut a = vec![0.0; n * n];
        let b = vec![1.0; n];
        for (i, &s) in states.iter().enumerate() {
            a[i * n + i] += 1.0;
            for (t, &pr) in p[s].iter().enumerate() {
                if let Some(j) = pos(t) {
                    a[i * n + j] -= pr;
                }
            }
        }
        let e = solve(a, b, n, 1).unwrap_or_else(|| vec![f64::INFINITY; n]);
        let value = |s: usize| pos(s).map_or(0.0, |i| e[i]);
        let turns_to_finish: Vec<f64> = (0..=CENTRE as usize).map(value).collect();
        // Take-off: turns until the hangar state is left (geometric).
        let stay = p[HANGAR_INDEX][HANGAR_INDEX];
        let turns_to_take_off = 1.0 / (1.0 - stay);
        // Distribution of turns from the hangar.
        let mut v = [0.0; PLANE_STATES];
        v[HANGAR_INDEX] = 1.0;
        let mut dist = vec![0.0];
        let mut done = 0.0;
        while 1.0 - done > 1e-12 && dist.len() < 100_000 {
            let mut next = [0.0; PLANE_STATES];
            for s in 0..PLANE_STATES {
                if s == CENTRE as usize || v[s] == 0.0 {
                    continue;
                }
                for t in 0..PLANE_STATES {
                    next[t] += v[s] * p[s][t];
                }
            }
            let arrived = next[CENTRE as usize];
            next[CENTRE as usize] = 0.0;
            dist.push(arrived);
            done += arrived;
            v = next;
        }
        LoneOdds {
            turns_from_hangar: value(HANGAR_INDEX),
            turns_to_finish,
            turns_to_take_off,
            turn_distribution: dist,
        }
    }

    /// The smallest number of turns by which the plane has finished with probability `q`.
    pub fn quantile(&self, q: f64) -> usize {
        let mut acc = 0.0;
        for (t, &p) in self.turn_distribution.iter().enumerate() {
            acc += p;
            if acc >= q {
                return t;
            }
        }
        self.turn_distribution.len()
    }
}

/// Expected squares moved per turn by the die alone (no board): every roll counts its face, a
/// reroll after each 6. Under `lose-turn` the third 6 of a turn is not played; under `send-back`
/// it is not played and the 12 squares of the two earlier sixes are lost (counted as -12).
/// With no cap this is 3.5 / (5/6) = 4.2.
pub fn squares_per_turn(three_sixes: ThreeSixes) -> f64 {
    match three_sixes {
        // E = 3.5 + E/6.
        ThreeSixes::None => 3.5 / (5.0 / 6.0),
        _ => {
            let third_six = if three_sixes == ThreeSixes::SendBack {
                -12.0
            } else {
                0.0
            };
            // S(k) = sum over faces of 1/6 * (face, or 6 + S(k+1) on a six; the third six scores
            // `third_six`).
            let s2 = (15.0 + third_six) / 6.0;
            let s1 = (15.0 + 6.0 + s2) / 6.0;
            (15.0 + 6.0 + s1) / 6.0
        }
    }
}

/// The chance that plane `plane` of `player` is sent home before `player`'s next turn, when the
/// opponents in turn order each roll once for their turn (with rerolls) and each, on every roll,
/// picks the move that maximises its chance of hitting the plane this turn. Opponents are treated
/// as independent (one opponent's moves do not change another's chances).
///
/// `pos` is read only for the planes; the owner's turn is taken to be over.
pub fn hit_chance(pos: &Aero, player: usize, plane: usize) -> f64 {
    let target = pos.planes(player)[plane];
    if target == HANGAR || target == CENTRE || pos.is_over() {
        return 0.0;
    }
    let n = pos.players();
    let mut survive = 1.0;
    for k in 1..n {
        let q = (player + k) % n;
        if pos.places()[q] != 0 {
            continue;
        }
        let Some(start) = pos.at_turn_start(q) else {
            continue;
        };
        let mut memo = HashMap::new();
        survive *= 1.0 - opponent_hits(&start, player, plane, 0, &mut memo);
    }
    1.0 - survive
}

/// Deepest chain of sixes followed under the `none` option (6^-20 is far below 1e-12).
const MAX_SIXES: u32 = 20;

fn opponent_hits(
    pos: &Aero,
    player: usize,
    plane: usize,
    depth: u32,
    memo: &mut HashMap<u64, f64>,
) -> f64 {
    if depth > MAX_SIXES {
        return 0.0;
    }
    if let Some(&v) = memo.get(&pos.hash()) {
        return v;
    }
    let q = pos.to_move();
    let mut total = 0.0;
    for f in 1..=6 {
        let mut after = *pos;
        after.play(AeroMove::Roll(f));
        let value = match after.turn() {
            Turn::Player(_) => {
                let mut best: f64 = 0.0;
                for &c in after.choices().as_slice() {
                    let mut next = after;
                    next.play(AeroMove::Plane(c));
                    let v = if next.planes(player)[plane] == HANGAR {
                        1.0
                    } else if next.turn() == Turn::Chance && next.to_move() == q {
                        opponent_hits(&next, player, plane, depth + 1, memo)
                    } else {
                        0.0
                    };
                    best = best.max(v);
                }
                best
            }
            Turn::Chance if after.to_move() == q => {
                opponent_hits(&after, player, plane, depth + 1, memo)
            }
            _ => 0.0,
        };
        total += value / 6.0;
    }
    memo.insert(pos.hash(), total);
    total
}

/// One row of the hit table: an enemy plane `distance` ring squares behind.
#[derive(Clone, Debug, Serialize)]
pub struct HitRow {
    /// Ring squares between the enemy plane and the target.
    pub distance: u8,
    /// Progress of the enemy plane (its own count).
    pub enemy_progress: u8,
    /// Chance the target is hit before its owner's next turn.
    pub hit: f64,
}

/// Hit chances for a red plane at `target` (1..=50) with one blue plane `1..=max` squares behind
/// (two players, every other plane in its hangar).
pub fn hit_table(rules: &Rules, target: u8, max: u8) -> Vec<HitRow> {
    let mut rows = Vec::new();
    let sq = crate::board::ring_square(0, target.clamp(1, 50));
    for k in 1..=max {
        let esq = (sq as i32 - k as i32).rem_euclid(52) as u8;
        let Some(e) = crate::board::progress_on(2, esq) else {
            continue;
        };
        let mut planes = [[HANGAR; PLANES]; 4];
        planes[0][0] = target.clamp(1, 50);
        planes[1][0] = e;
        let Ok(pos) = Aero::from_parts(*rules, 2, planes, 1, 0, 0, 0, [0; 4]) else {
            continue;
        };
        rows.push(HitRow {
            distance: k,
            enemy_progress: e,
            hit: hit_chance(&pos, 0, 0),
        });
    }
    rows
}
