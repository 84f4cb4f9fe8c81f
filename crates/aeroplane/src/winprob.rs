//! The chance of winning a race: every player's remaining turns as a distribution (mean and
//! standard deviation from the exact [`crate::finish`] tables, shaped as a discretised normal),
//! combined by turn order: I win when my last turn comes before every opponent's.

use crate::board::{CENTRE, HANGAR, PLANES};
use crate::eval::{danger_from_with, danger_with};
use crate::finish::FinishTables;
use crate::position::{Aero, AeroMove};
use crate::race::RaceTable;
use qiyi_core::{Game, Rng, Turn};

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

/// The shape given to a finish time with a known mean and standard deviation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Shape {
    /// A normal distribution.
    #[default]
    Normal,
    /// A log-normal distribution (right-skewed: long waits are likelier than early finishes).
    LogNormal,
}

/// The distribution function of `f` under `shape` at `x`.
#[inline]
fn cdf(f: Finish, shape: Shape, x: f64) -> f64 {
    match shape {
        Shape::Normal => normal_cdf((x - f.mean) / f.sd.max(MIN_SD)),
        Shape::LogNormal => {
            if x <= 0.0 {
                return 0.0;
            }
            let m = f.mean.max(0.5);
            let cv = f.sd.max(MIN_SD) / m;
            let s2 = (1.0 + cv * cv).ln();
            let mu = m.ln() - 0.5 * s2;
            normal_cdf((x.ln() - mu) / s2.sqrt())
        }
    }
}

/// The chance that `me` finishes first: `Σ_t P(T_me = t) Π_q P(T_q ≥ t + offset_q)`, where an
/// opponent with offset 1 plays its turn before my next one (its `t`-th turn comes before my
/// `t`-th) and offset 0 after it. `T_me` is truncated to `t ≥ 1`. Finish times are discretised
/// normals (`T = t` covers `[t - 1/2, t + 1/2)`).
pub fn win_chance(me: Finish, opponents: &[(Finish, u8)]) -> f64 {
    win_chance_shaped(me, opponents, Shape::Normal)
}

/// [`win_chance`] with finish times of the given `shape`.
pub fn win_chance_shaped(me: Finish, opponents: &[(Finish, u8)], shape: Shape) -> f64 {
    let sd = me.sd.max(MIN_SD);
    let lo = (me.mean - 5.0 * sd).floor().max(1.0);
    // (the log-normal's right tail is longer)
    let tail = if shape == Shape::Normal { 5.0 } else { 7.0 };
    let hi = (me.mean + tail * sd).ceil().max(lo);
    let mut below = cdf(me, shape, lo - 0.5);
    let norm = 1.0 - below;
    let mut total = 0.0;
    let mut t = lo;
    while t <= hi {
        let upto = cdf(me, shape, t + 0.5);
        let p = upto - below;
        below = upto;
        if p > 1e-9 {
            let mut survive = 1.0;
            for &(f, offset) in opponents {
                survive *= 1.0 - cdf(f, shape, t + offset as f64 - 0.5);
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
    /// The shape of the finish-time distributions.
    pub shape: Shape,
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
        win_chance_shaped(Finish { mean, sd }, &opps[..k], self.shape)
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
            total = self.add_threats(after, me, mid_turn, base, total);
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

    /// Adds to `total` the threat term: for each distinct opponent plane I could send home, the
    /// chance that I hit it times the gain over `base` of my chance with it sent home.
    fn add_threats(&self, pos: &Aero, me: usize, mid_turn: bool, base: f64, mut total: f64) -> f64 {
        let mine = pos.planes(me);
        for q in 0..pos.players() {
            if q == me || pos.places()[q] != 0 {
                continue;
            }
            let planes = pos.planes(q);
            for i in 0..PLANES {
                let d = planes[i];
                if d == HANGAR || d == CENTRE || planes[..i].contains(&d) {
                    continue;
                }
                let r = danger_from_with(pos, q, d, me, 1.0);
                if r > 0.0 {
                    let gain = self.chance_with(pos, me, mine, mid_turn, Some((q, d)));
                    total += self.threat * r * (gain - base);
                }
            }
        }
        total
    }

    /// My chance of winning at the start of my turn in `pos` (`pos` is a chance node of `me` with
    /// no roll yet): the static chance with this turn counted as turn 1, plus the threat term
    /// (my chances to send each opponent plane home on this turn).
    pub fn at_my_turn(&self, pos: &Aero, me: usize) -> f64 {
        let mine = pos.planes(me);
        let base = self.chance_with(pos, me, mine, true, None);
        let mut total = base;
        if self.threat > 0.0 {
            total = self.add_threats(pos, me, true, base, total);
        }
        total
    }

    /// My chance of winning after my move to `after`, with the opponents' next round played
    /// out: when the turn has passed, `samples` rounds of the (uniformly random) opponents'
    /// turns are drawn (round `k` from `Rng::derive(seed, k)`, so every choice of one decision
    /// meets the same dice) and scored by [`WinModel::at_my_turn`] when my turn comes back (1 or 0
    /// when the game ends). When I roll again (or `samples` is 0), [`WinModel::evaluate`].
    pub fn sampled(&self, after: &Aero, me: usize, new_turn: bool, samples: u32, seed: u64) -> f64 {
        if after.turn() == Turn::Over {
            return if after.winner() == Some(me) { 1.0 } else { 0.0 };
        }
        let mid_turn = !new_turn && after.to_move() == me;
        if mid_turn || samples == 0 {
            return self.evaluate(after, me, new_turn);
        }
        let mut total = 0.0;
        for k in 0..samples {
            let mut rng = Rng::derive(seed, k as u64);
            let mut sim = *after;
            let mut guard = 0;
            loop {
                match sim.turn() {
                    Turn::Over => break,
                    Turn::Chance if sim.to_move() == me => break,
                    Turn::Chance => {
                        sim.play(AeroMove::Roll(rng.below(6) as u8 + 1));
                    }
                    Turn::Player(_) => {
                        let c = sim.choices();
                        let Some(&first) = c.as_slice().first() else {
                            break;
                        };
                        let k = rng.below(c.len());
                        sim.play(AeroMove::Plane(
                            c.as_slice().get(k).copied().unwrap_or(first),
                        ));
                    }
                }
                guard += 1;
                if guard > 10_000 {
                    break;
                }
            }
            total += match sim.turn() {
                Turn::Over => {
                    if sim.winner() == Some(me) {
                        1.0
                    } else {
                        0.0
                    }
                }
                _ => self.at_my_turn(&sim, me),
            };
        }
        total / samples as f64
    }
}
