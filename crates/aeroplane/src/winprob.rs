//! The chance of winning a race: every player's remaining turns as a distribution (mean and
//! standard deviation from the exact [`crate::finish`] tables, shaped as a discretised normal),
//! combined by turn order: I win when my last turn comes before every opponent's.

use crate::board::{send_home, CENTRE, HANGAR, PLANES};
use crate::eval::{danger_from_with, danger_with};
use crate::finish::FinishTables;
use crate::position::{Aero, AeroMove};
use crate::race::RaceTable;
use qiyi_core::{Game, Rng, Turn};
use std::sync::OnceLock;

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

/// Points per unit of the [`normal_cdf`] table behind [`table_normal_cdf`].
const CDF_STEPS: f64 = 128.0;
/// The table covers `[-CDF_RANGE, CDF_RANGE]`; beyond it the function is 0 or 1 to within 1e-15.
const CDF_RANGE: f64 = 8.0;
/// Table entries: `2 * CDF_RANGE * CDF_STEPS + 1`, plus one so the last point interpolates.
const CDF_POINTS: usize = (2.0 * CDF_RANGE * CDF_STEPS) as usize + 2;

/// [`normal_cdf`] by linear interpolation in a table of 1/128 steps (error below 3e-6, no
/// `exp`): the win chance sums hundreds of these per position, and the rollouts of
/// `win-rollout` score thousands of positions per decision (half its time went to the formula).
#[inline]
pub fn table_normal_cdf(x: f64) -> f64 {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..CDF_POINTS)
            .map(|i| normal_cdf(i as f64 / CDF_STEPS - CDF_RANGE))
            .collect()
    });
    if x <= -CDF_RANGE {
        return 0.0;
    }
    if x >= CDF_RANGE {
        return 1.0;
    }
    let u = (x + CDF_RANGE) * CDF_STEPS;
    let i = u as usize;
    let w = u - i as f64;
    match (table.get(i), table.get(i + 1)) {
        (Some(&a), Some(&b)) => a + w * (b - a),
        _ => normal_cdf(x),
    }
}

/// The distribution function of `f` under `shape` at `x`.
#[inline]
fn cdf(f: Finish, shape: Shape, x: f64) -> f64 {
    match shape {
        Shape::Normal => table_normal_cdf((x - f.mean) / f.sd.max(MIN_SD)),
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
    win_chance_from(me, opponents, shape, 1.0)
}

/// [`win_chance_shaped`] with my finish time truncated to `t ≥ floor` instead of `t ≥ 1` (floor
/// 0: I may finish before any opponent plays, e.g. within the turn I am in).
pub fn win_chance_from(me: Finish, opponents: &[(Finish, u8)], shape: Shape, floor: f64) -> f64 {
    win_chance_by(me, shape, floor, |t| {
        let mut survive = 1.0;
        for &(f, offset) in opponents {
            survive *= 1.0 - cdf(f, shape, t + offset as f64 - 0.5);
        }
        survive
    })
}

/// `Σ_t P(T_me = t) survive(t)` over my discretised finish time, normalised to `t ≥ 1` (the
/// loop of [`win_chance_shaped`]; `survive(t)` is the chance that no opponent has finished
/// before my `t`-th turn, asked only where `P(T_me = t) > 1e-9`).
#[inline]
fn win_chance_by(me: Finish, shape: Shape, floor: f64, survive: impl FnMut(f64) -> f64) -> f64 {
    let mut dist = MyDist::EMPTY;
    if dist.fill(me, shape, floor) {
        dist.combine(survive)
    } else {
        win_chance_long(me, shape, floor, survive)
    }
}

/// [`win_chance_by`] for a finish time too spread out for [`MyDist`].
fn win_chance_long(
    me: Finish,
    shape: Shape,
    floor: f64,
    mut survive: impl FnMut(f64) -> f64,
) -> f64 {
    let (lo, hi) = my_range(me, shape, floor);
    let mut below = cdf(me, shape, lo - 0.5);
    let norm = 1.0 - below;
    let mut total = 0.0;
    let mut t = lo;
    while t <= hi {
        let upto = cdf(me, shape, t + 0.5);
        let p = upto - below;
        below = upto;
        if p > 1e-9 {
            total += p * survive(t);
        }
        t += 1.0;
    }
    if norm > 0.0 {
        total / norm
    } else {
        0.0
    }
}

/// The whole turns `lo..=hi` over which my finish time is summed.
#[inline]
fn my_range(me: Finish, shape: Shape, floor: f64) -> (f64, f64) {
    let sd = me.sd.max(MIN_SD);
    let lo = (me.mean - 5.0 * sd).floor().max(floor);
    // (the log-normal's right tail is longer)
    let tail = if shape == Shape::Normal { 5.0 } else { 7.0 };
    let hi = (me.mean + tail * sd).ceil().max(lo);
    (lo, hi)
}

/// My discretised finish time `P(T_me = t)` for `t = lo, lo + 1, ...` (at most [`SPAN`] turns),
/// kept so that several win chances with the same finish time of mine share it.
struct MyDist {
    lo: f64,
    p: [f64; SPAN],
    n: usize,
    norm: f64,
}

impl MyDist {
    const EMPTY: MyDist = MyDist {
        lo: 0.0,
        p: [0.0; SPAN],
        n: 0,
        norm: 0.0,
    };

    /// Fills in `me`'s distribution; false (and empty) when it spans more than [`SPAN`] turns.
    #[inline]
    fn fill(&mut self, me: Finish, shape: Shape, floor: f64) -> bool {
        let (lo, hi) = my_range(me, shape, floor);
        let n = (hi - lo) as usize + 1;
        if n > SPAN {
            self.n = 0;
            return false;
        }
        let mut below = cdf(me, shape, lo - 0.5);
        self.norm = 1.0 - below;
        self.lo = lo;
        self.n = n;
        let mut t = lo;
        for p in self.p[..n].iter_mut() {
            let upto = cdf(me, shape, t + 0.5);
            *p = upto - below;
            below = upto;
            t += 1.0;
        }
        true
    }

    /// `Σ_t P(T_me = t) survive(t)`, normalised (the sum of [`win_chance_long`], term by term).
    #[inline]
    fn combine(&self, mut survive: impl FnMut(f64) -> f64) -> f64 {
        let mut total = 0.0;
        let mut t = self.lo;
        for &p in &self.p[..self.n] {
            if p > 1e-9 {
                total += p * survive(t);
            }
            t += 1.0;
        }
        if self.norm > 0.0 {
            total / self.norm
        } else {
            0.0
        }
    }
}

/// Survival values `1 - cdf(m - 1/2)` cached per opponent for integer `m` below this bound.
const SPAN: usize = 320;

/// The opponents of one position with their finish-time distributions and a cache of their
/// survival values, shared by the many win chances one evaluation asks for (my planes moved or
/// hit, one opponent plane sent home): the products are formed in the same order as in
/// [`win_chance_shaped`], so the results are the same to the bit, with far fewer `exp` calls.
struct Field {
    /// Player index of each opponent still racing (in player order, at most three).
    who: [usize; 3],
    /// Their planes.
    planes: [[u8; PLANES]; 3],
    /// Their finish-time distributions.
    fin: [Finish; 3],
    /// How many.
    k: usize,
    /// `surv[j][m] = 1 - cdf(fin[j], m - 1/2)`, NaN until computed.
    surv: [[f64; SPAN]; 3],
    /// My last finish time (its mean, sd and floor bits) and its distribution.
    mine: Option<(u64, u64, u64)>,
    dist: MyDist,
}

/// Survival of an opponent with finish time `f` at `m - 1/2` (`m` a whole number), through its
/// cache `surv`.
#[inline]
fn survival(surv: &mut [f64; SPAN], f: Finish, m: f64, shape: Shape) -> f64 {
    let idx = m as usize;
    if idx < SPAN {
        let v = surv[idx];
        if !v.is_nan() {
            return v;
        }
        let v = 1.0 - cdf(f, shape, m - 0.5);
        surv[idx] = v;
        v
    } else {
        1.0 - cdf(f, shape, m - 0.5)
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

    /// The opponents of `me` in `pos` still racing, with an empty cache.
    fn field(&self, pos: &Aero, me: usize) -> Field {
        let mut f = Field {
            who: [0; 3],
            planes: [[HANGAR; PLANES]; 3],
            fin: [Finish { mean: 0.0, sd: 0.0 }; 3],
            k: 0,
            surv: [[f64::NAN; SPAN]; 3],
            mine: None,
            dist: MyDist::EMPTY,
        };
        for q in 0..pos.players() {
            if q == me || pos.places()[q] != 0 || f.k >= 3 {
                continue;
            }
            let planes = pos.planes(q);
            f.who[f.k] = q;
            f.planes[f.k] = planes;
            f.fin[f.k] = self.opponent(planes);
            f.k += 1;
        }
        f
    }

    /// My win chance in `pos` (not over), for player `me`, with my planes replaced by `mine`;
    /// `mid_turn`: I roll before the turn passes (at the start of my turn, which then counts as
    /// turn 1, or after a 6, when my finish time counts the turns still to begin and may be 0);
    /// `sent_home`: the planes of opponent `who` at progress `d` go home first.
    fn chance_with(
        &self,
        pos: &Aero,
        me: usize,
        mine: [u8; PLANES],
        mid_turn: bool,
        sent_home: Option<(usize, u8)>,
    ) -> f64 {
        let mut field = self.field(pos, me);
        self.chance_in(&mut field, pos, mine, mid_turn, sent_home)
    }

    /// [`WinModel::chance_with`] over the opponents of `field` (taken from `pos` for `me`).
    fn chance_in(
        &self,
        field: &mut Field,
        pos: &Aero,
        mine: [u8; PLANES],
        mid_turn: bool,
        sent_home: Option<(usize, u8)>,
    ) -> f64 {
        let mut replaced: Option<(usize, Finish)> = None;
        if let Some((who, d)) = sent_home {
            if let Some(j) = field.who[..field.k].iter().position(|&q| q == who) {
                replaced = Some((j, self.opponent(send_home(field.planes[j], d))));
            }
        }
        let mean = if mid_turn {
            self.race.turn_value(pos)
        } else {
            self.race.value(mine)
        };
        let sd = self.optimal.sd(mine);
        // Inside my turn after a 6, `turn_value` counts the turns still to begin (0: I finish in
        // this turn), so every opponent plays its next turn before my first one: offset 1,
        // finish times from 0. At the start of my turn the current turn counts as 1: offset 0.
        let after_six = mid_turn && pos.after_six();
        let offset = (!mid_turn || after_six) as u8 as f64;
        let floor: f64 = if after_six { 0.0 } else { 1.0 };
        let shape = self.shape;
        let me = Finish { mean, sd };
        let key = (mean.to_bits(), sd.to_bits(), floor.to_bits());
        if field.mine != Some(key) {
            field.mine = field.dist.fill(me, shape, floor).then_some(key);
        }
        let Field {
            k,
            fin,
            surv,
            dist,
            mine,
            ..
        } = field;
        let survive = |t: f64| {
            let m = t + offset;
            let mut survive = 1.0;
            for j in 0..*k {
                survive *= match replaced {
                    Some((r, f)) if r == j => 1.0 - cdf(f, shape, m - 0.5),
                    _ => survival(&mut surv[j], fin[j], m, shape),
                };
            }
            survive
        };
        if mine.is_some() {
            dist.combine(survive)
        } else {
            win_chance_long(me, shape, floor, survive)
        }
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
        let mut field = self.field(after, me);
        let base = self.chance_in(&mut field, after, mine, mid_turn, None);
        let mut total = base;
        if self.lookahead > 0.0 {
            total += self.lookahead * (self.next_roll_value(after, me, mid_turn) - base);
        }
        if self.threat > 0.0 {
            // My chances to send an opponent's plane home on my next turn.
            total = self.add_threats(&mut field, after, me, mid_turn, base, total);
        }
        if self.danger == 0.0 {
            return total;
        }
        // A hit comes once my turn has passed, so it is weighed against my chance with the turn
        // passed as well (not against the extra roll I still have after a 6); computed on the
        // first plane in danger.
        let mut passed = (!mid_turn).then_some(base);
        for i in 0..PLANES {
            let d = mine[i];
            if d == HANGAR || d == CENTRE || mine[..i].contains(&d) {
                continue;
            }
            let r = danger_with(after, me, d, self.greedy);
            if r > 0.0 {
                let hit = send_home(mine, d);
                let passed = match passed {
                    Some(p) => p,
                    None => *passed.insert(self.chance_in(&mut field, after, mine, false, None)),
                };
                let lost = self.chance_in(&mut field, after, hit, false, None);
                total += self.danger * r * (lost - passed);
            }
        }
        total
    }

    /// Adds to `total` the threat term: for each distinct opponent plane I could send home, the
    /// chance that I hit it times the gain over `base` of my chance with it sent home.
    fn add_threats(
        &self,
        field: &mut Field,
        pos: &Aero,
        me: usize,
        mid_turn: bool,
        base: f64,
        mut total: f64,
    ) -> f64 {
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
                    let gain = self.chance_in(field, pos, mine, mid_turn, Some((q, d)));
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
        let mut field = self.field(pos, me);
        let base = self.chance_in(&mut field, pos, mine, true, None);
        let mut total = base;
        if self.threat > 0.0 {
            total = self.add_threats(&mut field, pos, me, true, base, total);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finish::finish_tables;
    use crate::rules::Rules;

    /// The interpolated distribution function stays within 3e-6 of the formula everywhere.
    #[test]
    fn table_cdf_matches_the_formula() {
        let mut worst = 0.0f64;
        for i in -100_000..=100_000 {
            let x = i as f64 * 1e-4;
            worst = worst.max((table_normal_cdf(x) - normal_cdf(x)).abs());
        }
        assert!(worst < 3e-6, "{worst}");
        assert_eq!(table_normal_cdf(-9.0), 0.0);
        assert_eq!(table_normal_cdf(9.0), 1.0);
    }

    /// With my finish time counted from 0 (inside my turn after a 6), finishing in this turn wins
    /// before any opponent plays; counted from 1, the opponents' next turns come first.
    #[test]
    fn a_finish_within_the_turn_beats_every_opponent() {
        let me = Finish { mean: 0.0, sd: 0.3 };
        let fast = Finish { mean: 1.5, sd: 0.3 };
        let opps = [(fast, 1), (fast, 1), (fast, 1)];
        let now = win_chance_from(me, &opps, Shape::Normal, 0.0);
        assert!(now > 0.9, "{now}");
        let later = win_chance_from(me, &opps, Shape::Normal, 1.0);
        assert!(later < 0.2, "{later}");
        assert_eq!(
            win_chance_from(me, &opps, Shape::Normal, 1.0).to_bits(),
            win_chance_shaped(me, &opps, Shape::Normal).to_bits()
        );
    }

    /// The cached chances are the plain [`win_chance_shaped`] ones, to the bit: my planes as
    /// they are or with one hit, mid-turn or not, with each opponent plane sent home.
    #[test]
    fn cached_chances_equal_the_plain_ones() {
        let t = finish_tables(&Rules::STANDARD).unwrap();
        let mut rng = Rng::new(8);
        let mut checked = 0;
        for shape in [Shape::Normal, Shape::LogNormal] {
            let model = WinModel {
                race: &t.hazard_race,
                optimal: &t.hazard,
                random: &t.random_hazard,
                strength: 0.2,
                greedy: 0.0,
                danger: 1.0,
                threat: 0.75,
                lookahead: 0.0,
                shape,
            };
            let mut pos = Aero::new(Rules::STANDARD, 4).unwrap();
            for _ in 0..1200 {
                match pos.turn() {
                    Turn::Over => pos = Aero::new(Rules::STANDARD, 4).unwrap(),
                    Turn::Chance => {
                        pos.play(AeroMove::Roll(rng.below(6) as u8 + 1));
                    }
                    Turn::Player(me) => {
                        let mut field = model.field(&pos, me);
                        for mid_turn in [true, false] {
                            let mut variants = vec![pos.planes(me)];
                            for i in 0..PLANES {
                                let mut hit = pos.planes(me);
                                hit[i] = HANGAR;
                                variants.push(hit);
                            }
                            let mut homes = vec![None];
                            for q in 0..pos.players() {
                                for &d in pos.planes(q).iter() {
                                    homes.push(Some((q, d)));
                                }
                            }
                            for &mine in &variants {
                                for &home in &homes {
                                    let got =
                                        model.chance_in(&mut field, &pos, mine, mid_turn, home);
                                    let mut opps = Vec::new();
                                    // After a 6 my finish time counts the turns still to
                                    // begin: every opponent plays first, and it may be 0.
                                    let after_six = mid_turn && pos.after_six();
                                    let offset = u8::from(!mid_turn || after_six);
                                    let floor = if after_six { 0.0 } else { 1.0 };
                                    for q in 0..pos.players() {
                                        if q == me || pos.places()[q] != 0 {
                                            continue;
                                        }
                                        let mut planes = pos.planes(q);
                                        if let Some((who, d)) = home {
                                            if who == q {
                                                for x in planes.iter_mut() {
                                                    if *x == d {
                                                        *x = HANGAR;
                                                    }
                                                }
                                            }
                                        }
                                        opps.push((model.opponent(planes), offset));
                                    }
                                    let mean = if mid_turn {
                                        model.race.turn_value(&pos)
                                    } else {
                                        model.race.value(mine)
                                    };
                                    let f = Finish {
                                        mean,
                                        sd: model.optimal.sd(mine),
                                    };
                                    let want = win_chance_from(f, &opps, shape, floor);
                                    assert_eq!(got.to_bits(), want.to_bits(), "{pos:?}");
                                    checked += 1;
                                }
                            }
                        }
                        let c = pos.choices();
                        pos.play(AeroMove::Plane(c.as_slice()[rng.below(c.len())]));
                    }
                }
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
