//! The chance of winning a race: every player's remaining turns as a distribution (mean and
//! standard deviation from the exact [`crate::finish`] tables, shaped as a discretised normal),
//! combined by turn order: I win when my last turn comes before every opponent's.

use crate::board::{CENTRE, HANGAR, PLANES};
use crate::eval::{danger_from_with, danger_with};
use crate::finish::FinishTables;
use crate::position::{Aero, AeroMove};
use crate::race::RaceTable;
use qiyi_core::{Game, Turn};

/// Remaining turns of one player, as a mean and a standard deviation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Finish {
    /// Mean turns, counting the player's next turn as 1.
    pub mean: f64,
    /// Standard deviation.
    pub sd: f64,
}

/// The standard normal distribution function (Abramowitz & Stegun 7.1.26 for erf, error < 2e-7).
#[inline]
pub fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() * std::f64::consts::FRAC_1_SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let half_erfc = 0.5 * poly * (-z * z).exp();
    if x >= 0.0 {
        1.0 - half_erfc
    } else {
        half_erfc
    }
}

/// Smallest standard deviation used (a finished-in-one-turn race has none).
const MIN_SD: f64 = 0.3;

/// `P(T ≥ k)` for a discretised normal `T` (`T = t` covers `[t - 1/2, t + 1/2)`), `k ≥ 1`.
#[inline]
fn at_least(f: Finish, k: f64) -> f64 {
    1.0 - normal_cdf((k - 0.5 - f.mean) / f.sd.max(MIN_SD))
}

/// The chance that `me` finishes first: `Σ_t P(T_me = t) Π_q P(T_q ≥ t + offset_q)`, where an
/// opponent with offset 1 plays its turn before my next one (its `t`-th turn comes before my
/// `t`-th) and offset 0 after it. `T_me` is truncated to `t ≥ 1`.
pub fn win_chance(me: Finish, opponents: &[(Finish, u8)]) -> f64 {
    let sd = me.sd.max(MIN_SD);
    let lo = (me.mean - 5.0 * sd).floor().max(1.0);
    let hi = (me.mean + 5.0 * sd).ceil().max(lo);
    let mut below = normal_cdf((lo - 0.5 - me.mean) / sd);
    let norm = 1.0 - below;
    let mut total = 0.0;
    let mut t = lo;
    while t <= hi {
        let upto = normal_cdf((t + 0.5 - me.mean) / sd);
        let p = upto - below;
        below = upto;
        if p > 1e-9 {
            let mut survive = 1.0;
            for &(f, offset) in opponents {
                survive *= at_least(f, t + offset as f64);
            }
            total += p * survive;
        }
        t += 1.0;
    }
    if norm > 0.0 {
        total / norm
    } else {
        0.0
    }
}

/// The tables and weights of the win-chance evaluation.
#[derive(Clone, Copy)]
pub struct WinModel<'a> {
    /// The solo-race table (my expected turns, playing the rest of a turn perfectly).
    pub race: &'a RaceTable,
    /// Finish-time statistics of my own policy (the race table's, improved against the hazard).
    pub optimal: &'a FinishTables,
    /// Finish-time statistics of random play (the opponents').
    pub random: &'a FinishTables,
    /// How strong the opponents are taken to be: 0 = random players, 1 = optimal racers.
    pub strength: f64,
    /// Chance that an opponent able to hit a plane does so (see [`danger_with`]).
    pub greedy: f64,
    /// Weight of the danger term (1 = the estimated hit chances as they are).
    pub danger: f64,
    /// Weight of the threat term: my chances to hit each opponent plane on my next turn.
    pub threat: f64,
    /// Weight of my next roll played out ([`WinModel::evaluate`]) against the static chance.
    pub lookahead: f64,
}

impl WinModel<'_> {
    /// The finish-time distribution of opponent planes `planes` at the start of its turn.
    #[inline]
    pub fn opponent(&self, planes: [u8; PLANES]) -> Finish {
        let (rm, rs) = self.random.stats(planes);
        let (om, os) = self.optimal.stats(planes);
        Finish {
            mean: rm + self.strength * (om - rm),
            sd: rs + self.strength * (os - rs),
        }
    }

    /// My win chance in `pos` (not over), for player `me`, with my planes replaced by `mine`;
    /// `mid_turn`: I roll again before the turn passes (then my current turn counts as turn 1).
    fn chance_with(
        &self,
        pos: &Aero,
        me: usize,
        mine: [u8; PLANES],
        mid_turn: bool,
        sent_home: Option<(usize, u8)>,
    ) -> f64 {
        let mut opps = [(Finish { mean: 0.0, sd: 0.0 }, 0u8); 3];
        let mut k = 0;
        for q in 0..pos.players() {
            if q == me || pos.places()[q] != 0 || k >= 3 {
                continue;
            }
            let mut planes = pos.planes(q);
            if let Some((who, d)) = sent_home {
                if who == q {
                    planes
                        .iter_mut()
                        .filter(|x| **x == d)
                        .for_each(|x| *x = HANGAR);
                }
            }
            opps[k] = (self.opponent(planes), (!mid_turn) as u8);
            k += 1;
        }
        let mean = if mid_turn {
            self.race.turn_value(pos)
        } else {
            self.race.value(mine)
        };
        let sd = self.optimal.sd(mine);
        win_chance(Finish { mean, sd }, &opps[..k])
    }

    /// The static win chance of `me` in `pos`, where `me` has just moved (`moved`: the move's
    /// [`crate::Effect::new_turn`]).
    fn static_after(&self, pos: &Aero, me: usize, new_turn: bool) -> f64 {
        if pos.turn() == Turn::Over {
            return if pos.winner() == Some(me) { 1.0 } else { 0.0 };
        }
        let mid_turn = !new_turn && pos.to_move() == me;
        self.chance_with(pos, me, pos.planes(me), mid_turn, None)
    }

    /// My next roll played out: at my next turn (the opponents' planes where they are now) or
    /// right away when I roll again, the mean over the six faces of the best static win chance
    /// after my move. It sees the captures and the options my position gives me.
    fn next_roll_value(&self, after: &Aero, me: usize, mid_turn: bool) -> f64 {
        let start = if mid_turn {
            *after
        } else {
            match after.at_turn_start(me) {
                Some(p) => p,
                None => return self.static_after(after, me, true),
            }
        };
        let mut total = 0.0;
        for f in 1..=6u8 {
            let mut a = start;
            let e = a.play(AeroMove::Roll(f));
            total += match a.turn() {
                Turn::Player(_) => {
                    let mut best = f64::NEG_INFINITY;
                    for &c in a.choices().as_slice() {
                        let mut b = a;
                        let e = b.play(AeroMove::Plane(c));
                        best = best.max(self.static_after(&b, me, e.new_turn));
                    }
                    best
                }
                _ => self.static_after(&a, me, e.new_turn),
            };
        }
        total / 6.0
    }

    /// My (player `me`'s) chance of winning in `after`, the position right after my move: the
    /// turn has passed (`new_turn`) or I roll again. Each of my planes that an opponent may hit
    /// before my next turn mixes in the chance with that plane sent home.
    pub fn evaluate(&self, after: &Aero, me: usize, new_turn: bool) -> f64 {
        if after.turn() == Turn::Over {
            return if after.winner() == Some(me) { 1.0 } else { 0.0 };
        }
        let mid_turn = !new_turn && after.to_move() == me;
        let mine = after.planes(me);
        let base = self.chance_with(after, me, mine, mid_turn, None);
        let mut total = base;
        if self.lookahead > 0.0 {
            total += self.lookahead * (self.next_roll_value(after, me, mid_turn) - base);
        }
        if self.threat > 0.0 {
            // My chances to send an opponent's plane home on my next turn.
            for q in 0..after.players() {
                if q == me || after.places()[q] != 0 {
                    continue;
                }
                let planes = after.planes(q);
                for i in 0..PLANES {
                    let d = planes[i];
                    if d == HANGAR || d == CENTRE || planes[..i].contains(&d) {
                        continue;
                    }
                    let r = danger_from_with(after, q, d, me, 1.0);
                    if r > 0.0 {
                        let gain = self.chance_with(after, me, mine, mid_turn, Some((q, d)));
                        total += self.threat * r * (gain - base);
                    }
                }
            }
        }
        if self.danger == 0.0 {
            return total;
        }
        for i in 0..PLANES {
            let d = mine[i];
            if d == HANGAR || d == CENTRE || mine[..i].contains(&d) {
                continue;
            }
            let r = danger_with(after, me, d, self.greedy);
            if r > 0.0 {
                let mut hit = mine;
                for x in hit.iter_mut() {
                    if *x == d {
                        *x = HANGAR;
                    }
                }
                let lost = self.chance_with(after, me, hit, false, None);
                total += self.danger * r * (lost - base);
            }
        }
        total
    }
}
