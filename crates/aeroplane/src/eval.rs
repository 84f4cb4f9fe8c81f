//! Evaluation: what a plane at each progress is worth (from the exact lone-plane chain), how
//! likely it is to be hit, and the tunable weighted score the heuristic players maximise.

use crate::board::{
    on_ring, ring_square, steps, CENTRE, FLIGHT_CROSSES, HANGAR, PLANES, PLANE_STATES,
};
use crate::odds::LoneOdds;
use crate::position::Aero;
use crate::race::race_table;
use crate::rules::Rules;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// What a win is worth on the heuristic scale (turns saved).
pub const WIN: f64 = 100.0;

/// Two value scales of a plane at state `s`, in turns: `[0][s]` is what a lone plane at `s` has
/// saved over a hangar plane (`E[turns from hangar] - E[turns from s]`, the exact chain);
/// `[1][s]` is linear in progress from the launch pad (worth the take-off) to the centre.
pub type ValueTable = [[f64; PLANE_STATES]; 2];

/// The value table of `rules` (solved once per rule configuration and cached).
pub fn value_table(rules: &Rules) -> Arc<ValueTable> {
    static CACHE: OnceLock<Mutex<HashMap<Rules, Arc<ValueTable>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Ok(map) = cache.lock() {
        if let Some(t) = map.get(rules) {
            return t.clone();
        }
    }
    // The lone-plane chain: read from the shipped solo-race table where there is one (one plane
    // left is a lone plane; `tests/race.rs` checks they agree), else solved here (~10-50 ms).
    let (turns_to_finish, full) = match race_table(rules) {
        Some(race) => {
            let c = CENTRE;
            let turns: Vec<f64> = (0..=CENTRE).map(|d| race.value([d, c, c, c])).collect();
            (turns, race.value([HANGAR, c, c, c]))
        }
        None => {
            let odds = LoneOdds::new(rules);
            (odds.turns_to_finish, odds.turns_from_hangar)
        }
    };
    let mut table = [[0.0; PLANE_STATES]; 2];
    let pad = full - turns_to_finish[0];
    for (d, &turns) in turns_to_finish.iter().enumerate() {
        table[0][d] = full - turns;
        table[1][d] = pad + (full - pad) * d as f64 / CENTRE as f64;
    }
    let table = Arc::new(table);
    if let Ok(mut map) = cache.lock() {
        map.insert(*rules, table.clone());
    }
    table
}

/// The chance (approximate: the opponent's first roll and one reroll after a 6) that the plane of
/// player `p` at progress `d` is hit by opponent `q` on `q`'s next turn.
pub fn danger_from(pos: &Aero, p: usize, d: u8, q: usize) -> f64 {
    danger_from_with(pos, p, d, q, 1.0)
}

/// [`danger_from`] for an opponent that takes a hit it can make with chance `greedy` and
/// otherwise picks one of its distinct moves at random (`greedy = 1`: it always hits; `0`: a
/// random player). The reroll term is scaled the same way, by `greedy + (1 - greedy) / 2`.
pub fn danger_from_with(pos: &Aero, p: usize, d: u8, q: usize, greedy: f64) -> f64 {
    let in_flight_path = d == FLIGHT_CROSSES && (pos.seat(p) + 2) % 4 == pos.seat(q);
    if !on_ring(d) && !in_flight_path {
        return 0.0;
    }
    let rules = pos.rules();
    let table = steps(rules.set);
    let sq = if in_flight_path {
        255
    } else {
        ring_square(pos.seat(p), d)
    };
    let seat_q = pos.seat(q);
    let planes = pos.planes(q);
    let hits = |from: u8, roll: u8| -> bool {
        if from == CENTRE || (from == HANGAR && !rules.can_take_off(roll)) {
            return false;
        }
        let s = table[from as usize][roll as usize];
        if in_flight_path {
            s.flew
        } else {
            on_ring(s.to) && ring_square(seat_q, s.to) == sq
        }
    };
    let mut first = [false; 7];
    let mut p = 0.0;
    for r in 1..=6u8 {
        // Distinct movable planes of q for roll r, and how many of them hit.
        let mut seen = [false; PLANE_STATES];
        let (mut moves, mut hitting) = (0u32, 0u32);
        for &e in planes.iter() {
            if e == CENTRE || (e == HANGAR && !rules.can_take_off(r)) || seen[e as usize] {
                continue;
            }
            seen[e as usize] = true;
            moves += 1;
            hitting += hits(e, r) as u32;
        }
        first[r as usize] = hitting > 0;
        if hitting > 0 {
            p += (greedy + (1.0 - greedy) * hitting as f64 / moves as f64) / 6.0;
        }
    }
    if !first[6] {
        // After a six that does not hit, the best plane to move for a second chance.
        let mut best = 0u32;
        for j in 0..PLANES {
            let e = planes[j];
            if e == CENTRE || (e == HANGAR && !rules.can_take_off(6)) {
                continue;
            }
            let moved = table[e as usize][6].to;
            let c = (1..=6u8)
                .filter(|&r| {
                    hits(moved, r)
                        || planes
                            .iter()
                            .enumerate()
                            .any(|(k, &o)| k != j && hits(o, r))
                })
                .count() as u32;
            best = best.max(c);
        }
        p += (greedy + (1.0 - greedy) * 0.5) * best as f64 / 36.0;
    }
    p
}

/// The chance that the plane of `p` at `d` is hit before `p`'s next turn (opponents independent).
pub fn danger(pos: &Aero, p: usize, d: u8) -> f64 {
    danger_with(pos, p, d, 1.0)
}

/// [`danger`] against opponents modelled as in [`danger_from_with`].
pub fn danger_with(pos: &Aero, p: usize, d: u8, greedy: f64) -> f64 {
    let mut survive = 1.0;
    for q in 0..pos.players() {
        if q != p && pos.places()[q] == 0 {
            survive *= 1.0 - danger_from_with(pos, p, d, q, greedy);
        }
    }
    1.0 - survive
}

/// The weights of the heuristic score (tuned by self-play; see `research/aeroplane/examples/tune.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// How much of a plane's value is at stake per unit of danger.
    pub danger: f64,
    /// Weight of the opponents' strength (their mean score) against one's own.
    pub enemy: f64,
    /// Bonus per plane out of the hangar and not finished (more choices per roll).
    pub out: f64,
    /// Extra weight of the leading opponent (on top of the mean).
    pub leader: f64,
    /// Bonus per finished plane (on top of its value).
    pub finished: f64,
    /// Blend of the two value scales: 0 = the exact lone-plane chain, 1 = linear progress.
    pub linear: f64,
}

impl Weights {
    /// The weights found by self-play tuning (`cargo run --release -p qiyi-research-aeroplane --example tune`).
    pub const TUNED: Weights = Weights {
        danger: 1.0,
        enemy: 0.6,
        out: 0.5,
        leader: 0.3,
        finished: 0.5,
        linear: 0.0,
    };

    /// As a vector (for tuning).
    pub fn to_vec(&self) -> [f64; 6] {
        [
            self.danger,
            self.enemy,
            self.out,
            self.leader,
            self.finished,
            self.linear,
        ]
    }

    /// From a vector (for tuning).
    pub fn from_vec(v: [f64; 6]) -> Weights {
        Weights {
            danger: v[0],
            enemy: v[1],
            out: v[2],
            leader: v[3],
            finished: v[4],
            linear: v[5],
        }
    }
}

/// The heuristic strength of one player: the value of its planes, less what is at risk.
pub fn player_score(pos: &Aero, p: usize, values: &ValueTable, w: &Weights) -> f64 {
    let mut s = 0.0;
    for &d in pos.planes(p).iter() {
        let v = values[0][d as usize] + w.linear * (values[1][d as usize] - values[0][d as usize]);
        s += v;
        if d == CENTRE {
            s += w.finished;
        } else if d != HANGAR {
            s += w.out;
            let risk = danger(pos, p, d);
            if risk > 0.0 {
                s -= w.danger * risk * v;
            }
        }
    }
    s
}

/// Scores of every player into `out` (one per player).
pub fn all_scores(pos: &Aero, values: &ValueTable, w: &Weights, out: &mut [f64]) {
    for (p, slot) in out.iter_mut().enumerate().take(pos.players()) {
        *slot = player_score(pos, p, values, w);
    }
}

/// The score of `p` relative to the opponents: own score minus `enemy` times their mean and
/// `leader` times the best of them.
pub fn relative_score(scores: &[f64], p: usize, n: usize, w: &Weights) -> f64 {
    if n <= 1 {
        return scores[p];
    }
    let mut sum = 0.0;
    let mut best = f64::NEG_INFINITY;
    for (q, &s) in scores.iter().enumerate().take(n) {
        if q != p {
            sum += s;
            best = best.max(s);
        }
    }
    let mean = sum / (n - 1).max(1) as f64;
    scores[p] - w.enemy * mean - w.leader * best
}
