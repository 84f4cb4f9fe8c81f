//! `win-rollout`: the win-chance player ([`WinPlayer`]) whose close decisions are checked by
//! short Monte Carlo rollouts.
//!
//! At a decision, the choices are scored by [`WinPlayer::scores`]; when the runner-up is within
//! [`RolloutWeights::margin`] of the top, each of the top [`RolloutWeights::candidates`] choices
//! is played out [`RolloutWeights::rollouts`] times for [`RolloutWeights::horizon`] rounds: the
//! opponents move uniformly at random (the `random` player's published policy), the player
//! itself by [`race_greedy`] (a capture when one exists, else the fewest expected turns), and
//! the position reached when its turn comes round for the `horizon`-th time is scored by
//! [`WinModel::at_my_turn`] (1 or 0 when the game ended on the way). Every candidate meets the
//! same random numbers (rollout `k` draws its dice from one stream and one number per decision
//! from another, so the `k`-th roll and the `k`-th decision agree across candidates), which
//! keeps the comparison sharp; the highest mean wins, ties going to the heuristic's order.
//! The candidates are played out in lockstep, so with [`RolloutWeights::batch`] the rollouts
//! can stop early once one candidate leads clearly (sequential stopping; off in the tuned
//! settings). With [`RolloutWeights::endgame`] the rollouts of the end game run to the end of
//! the game (also off in the tuned settings).

use crate::board::{on_ring, send_home, PLANES};
use crate::error::AeroError;
use crate::eval::danger_with;
use crate::oneply::{WinPlayer, WinWeights};
use crate::player::Player;
use crate::position::{Aero, AeroMove};
use crate::race::RaceTable;
use crate::winprob::WinModel;
use qiyi_core::{Game, Rng, Turn};

/// The settings of the [`RolloutPlayer`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RolloutWeights {
    /// Rollouts per candidate (0: the heuristic's choice, no rollouts).
    pub rollouts: u32,
    /// Rounds played out: a rollout stops when the player's turn begins for the
    /// `horizon`-th time.
    pub horizon: u32,
    /// A decision is checked when the runner-up's heuristic score is within this margin of the
    /// top (in win chance).
    pub margin: f64,
    /// How many of the top choices (by the heuristic) are played out.
    pub candidates: usize,
    /// Who plays the player's own moves inside the rollouts.
    pub policy: RolloutPolicy,
    /// Antithetic dice: rollouts come in pairs, the second rolling `7 - d` where the first
    /// rolled `d` and picking from the other end where the first picked (variance reduction).
    pub antithetic: bool,
    /// Sequential stopping: the candidates are played out together in batches of this many
    /// rollouts, and the rollouts stop once the leader's lead over every other candidate is
    /// more than [`RolloutWeights::stop_z`] paired standard errors (0: always all rollouts).
    pub batch: u32,
    /// The lead, in paired standard errors, that stops the rollouts early (see `batch`).
    pub stop_z: f64,
    /// End game: when my expected turns to finish (by the race table) are at most this, the
    /// rollouts run to the end of the game, over every choice within [`RolloutWeights::end_margin`]
    /// (0: off).
    pub endgame: f64,
    /// The margin of the end game (see `endgame`).
    pub end_margin: f64,
}

/// The policy of the player's own moves inside a rollout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum RolloutPolicy {
    /// [`race_greedy`]: a capture when possible, else the fewest expected turns (fast, weaker).
    #[default]
    RaceGreedy,
    /// The `win` player's own choice ([`WinPlayer::scores`]): the rollouts are then a one-step
    /// policy improvement over `win`.
    Win,
    /// [`race_safe`]: [`race_greedy`] that also weighs the turns lost to the random opponents'
    /// hits before my next turn.
    RaceSafe,
}

impl RolloutWeights {
    /// The settings measured best by games against three `random` players (see the crate
    /// README: about 0.9 points above `win`; 512 rather than 128 rollouts, affordable since the
    /// evaluation became twice as fast, on weak evidence that more rollouts help).
    pub const TUNED: RolloutWeights = RolloutWeights {
        rollouts: 512,
        horizon: 2,
        margin: 0.02,
        candidates: 2,
        policy: RolloutPolicy::RaceGreedy,
        antithetic: false,
        batch: 0,
        stop_z: 0.0,
        endgame: 0.0,
        end_margin: 0.0,
    };

    /// The settings in force at decision `pos`: in the end game (the mover's expected turns to
    /// finish by `race` at most [`RolloutWeights::endgame`]) the rollouts run to the end of the
    /// game ([`TO_THE_END`]) over every choice (up to [`PLANES`]) within [`RolloutWeights::end_margin`];
    /// elsewhere these settings as they are.
    pub fn at_decision(&self, pos: &Aero, race: &RaceTable) -> RolloutWeights {
        if self.endgame > 0.0 && race.value(pos.planes(pos.to_move())) <= self.endgame {
            RolloutWeights {
                horizon: TO_THE_END,
                margin: self.end_margin,
                candidates: PLANES,
                ..*self
            }
        } else {
            *self
        }
    }
}

/// A horizon no rollout reaches: it runs to the end of the game (within a guard of 100,000 steps).
pub const TO_THE_END: u32 = u32::MAX;

/// The fields of a setting text, in order (see [`RolloutWeights::from_str`]).
const SETTING: &str = "R,H,M,K[,P,A,B,Z,E,EM]: rollouts, horizon, margin, candidates, then \
    optionally P (my moves in the rollouts: 0 race_greedy, 1 win, 2 race_safe), A (1: antithetic \
    pairs), B (batch), Z (stopping lead), E (end game: my expected turns at most E) and EM (its \
    margin)";

impl std::str::FromStr for RolloutWeights {
    type Err = AeroError;

    /// Reads `R,H,M,K[,P,A,B,Z,E,EM]` (for the tuning examples): rollouts, horizon, margin,
    /// candidates, then optionally the rollout policy (0: [`race_greedy`], 1: `win`, 2:
    /// [`race_safe`]), antithetic pairs (1: on), the batch size and the stopping lead of
    /// sequential rollouts, and the end game's expected turns and margin.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || AeroError::BadOption {
            option: "rollout setting",
            value: s.to_string(),
            expected: SETTING,
        };
        let v: Vec<f64> = s
            .split(',')
            .map(|x| x.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| bad())?;
        if !(4..=10).contains(&v.len()) || v.iter().any(|x| !x.is_finite() || *x < 0.0) {
            return Err(bad());
        }
        let whole = |x: f64| (x.fract() == 0.0 && x <= u32::MAX as f64).then_some(x as u32);
        // 0 or 1 (absent: 0).
        let flag = |i: usize| match v.get(i) {
            None => Ok(false),
            Some(&x) if x == 0.0 || x == 1.0 => Ok(x == 1.0),
            Some(_) => Err(bad()),
        };
        let policy = match whole(v.get(4).copied().unwrap_or(0.0)) {
            Some(0) => RolloutPolicy::RaceGreedy,
            Some(1) => RolloutPolicy::Win,
            Some(2) => RolloutPolicy::RaceSafe,
            _ => return Err(bad()),
        };
        Ok(RolloutWeights {
            rollouts: whole(v[0]).ok_or_else(bad)?,
            horizon: whole(v[1]).ok_or_else(bad)?,
            margin: v[2],
            candidates: whole(v[3])
                .filter(|&k| k <= PLANES as u32)
                .ok_or_else(bad)? as usize,
            policy,
            antithetic: flag(5)?,
            batch: whole(v.get(6).copied().unwrap_or(0.0)).ok_or_else(bad)?,
            stop_z: v.get(7).copied().unwrap_or(0.0),
            endgame: v.get(8).copied().unwrap_or(0.0),
            end_margin: v.get(9).copied().unwrap_or(0.0),
        })
    }
}

/// The rollouts' own policy: a move that ends the game or sends enemy planes home when one
/// exists (the most planes), else the move after which `table` expects the fewest turns.
pub fn race_greedy(pos: &Aero, table: &RaceTable) -> AeroMove {
    fewest_turns(pos, table, |_, _, _| 0.0)
}

/// The rollouts' careful policy: [`race_greedy`], but each choice also pays, for every plane of
/// mine the (uniformly random) opponents may hit before my next turn, the hit chance times the
/// expected turns the hit would cost by `table`.
pub fn race_safe(pos: &Aero, table: &RaceTable) -> AeroMove {
    let me = pos.to_move();
    fewest_turns(pos, table, |after, planes, base| {
        let mut cost = 0.0;
        for k in 0..PLANES {
            let d = planes[k];
            if !on_ring(d) || planes[..k].contains(&d) {
                continue;
            }
            let r = danger_with(after, me, d, 0.0);
            if r > 0.0 {
                cost += r * (table.value(send_home(planes, d)) - base);
            }
        }
        cost
    })
}

/// The move that ends the game when one does, else the one with the least expected turns by
/// `table` plus `extra(after, my planes, turns)`, less 100 per enemy plane sent home.
fn fewest_turns(
    pos: &Aero,
    table: &RaceTable,
    extra: impl Fn(&Aero, [u8; PLANES], f64) -> f64,
) -> AeroMove {
    let me = pos.to_move();
    let c = pos.choices();
    let mut best = c.as_slice().first().copied().unwrap_or(0);
    let mut best_score = f64::INFINITY;
    for &i in c.as_slice() {
        let mut after = *pos;
        let e = after.play(AeroMove::Plane(i));
        if after.turn() == Turn::Over {
            return AeroMove::Plane(i);
        }
        let planes = after.planes(me);
        let turns = table.value(planes);
        let s = turns - 100.0 * e.captured as f64 + extra(&after, planes, turns);
        if s < best_score {
            best_score = s;
            best = i;
        }
    }
    AeroMove::Plane(best)
}

/// Largest number of steps (rolls and choices) one rollout may take (a guard; a whole game
/// needs a few hundred).
const MAX_STEPS: u32 = 100_000;

/// One rollout from `start` for player `me` (see the module doc): dice from `dice`, one number
/// from `picks` per decision, my own moves by [`race_greedy`]. Returns my estimated chance of
/// winning where it stops.
pub fn rollout(
    start: &Aero,
    me: usize,
    model: &WinModel<'_>,
    horizon: u32,
    dice: &mut Rng,
    picks: &mut Rng,
) -> f64 {
    rollout_by(
        start,
        me,
        model,
        horizon,
        dice,
        picks,
        false,
        |sim| race_greedy(sim, model.race),
        |sim| model.at_my_turn(sim, me),
    )
}

/// [`rollout`] with my own moves (at decisions with two or more choices) picked by `own` and the
/// position where the rollout stops scored by `leaf`; `mirror` turns every die `d` into `7 - d`
/// and every pick `k` of `n` into `n - 1 - k` (the antithetic twin of the same streams).
#[allow(clippy::too_many_arguments)]
pub fn rollout_by(
    start: &Aero,
    me: usize,
    model: &WinModel<'_>,
    horizon: u32,
    dice: &mut Rng,
    picks: &mut Rng,
    mirror: bool,
    mut own: impl FnMut(&Aero) -> AeroMove,
    mut leaf: impl FnMut(&Aero) -> f64,
) -> f64 {
    let mut sim = *start;
    let mut rounds = 0;
    for _ in 0..MAX_STEPS {
        match sim.turn() {
            Turn::Over => return if sim.winner() == Some(me) { 1.0 } else { 0.0 },
            Turn::Chance => {
                if sim.to_move() == me && !sim.after_six() {
                    rounds += 1;
                    if rounds >= horizon {
                        return leaf(&sim);
                    }
                }
                let d = dice.below(6) as u8 + 1;
                sim.play(AeroMove::Roll(if mirror { 7 - d } else { d }));
            }
            Turn::Player(p) => {
                let c = sim.choices();
                // Always one draw per decision, so the streams stay aligned across candidates.
                let u = picks.next_u64() >> 32;
                let mut pick = ((u * c.len() as u64) >> 32) as usize;
                if mirror {
                    pick = c.len().saturating_sub(1 + pick);
                }
                let mv = if p == me && c.len() > 1 {
                    own(&sim)
                } else {
                    AeroMove::Plane(c.as_slice().get(pick).copied().unwrap_or(0))
                };
                sim.play(mv);
            }
        }
    }
    model.evaluate(&sim, me, false)
}

/// The win-chance player with rollouts on close decisions (falls back to [`WinPlayer`] under
/// rules without finish tables).
pub struct RolloutPlayer {
    weights: RolloutWeights,
    win: WinPlayer,
    rng: Rng,
    leaf: Option<Leaf>,
}

/// A value for the position where a rollout stops, in place of [`WinModel::at_my_turn`]: my
/// (the second argument's) chance of winning, given the model of the decision.
pub type Leaf = std::sync::Arc<dyn Fn(&WinModel<'_>, &Aero, usize) -> f64 + Send + Sync>;

impl RolloutPlayer {
    /// A rollout player with `weights` over the tuned [`WinPlayer`]; `rng` seeds the rollouts.
    pub fn new(weights: RolloutWeights, rng: Rng) -> Self {
        let own = Rng::new(rng.clone().next_u64() ^ 0x0011_7C0E);
        RolloutPlayer {
            weights,
            win: WinPlayer::new(WinWeights::TUNED, rng),
            rng: own,
            leaf: None,
        }
    }

    /// The same player with the rollouts scored by `leaf` where they stop.
    pub fn with_leaf(mut self, leaf: Leaf) -> Self {
        self.leaf = Some(leaf);
        self
    }
}

impl Player for RolloutPlayer {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let Some(model) = self.win.model(&pos.rules()) else {
            return self.win.choose(pos);
        };
        let c = pos.choices();
        let first = AeroMove::Plane(c.as_slice().first().copied().unwrap_or(0));
        if c.len() <= 1 {
            return first;
        }
        let ranked = self.win.scores(pos, &model, 0).sorted();
        let ranked = ranked.as_slice();
        let Some(&(top, top_score)) = ranked.first() else {
            return first;
        };
        let w = self.weights.at_decision(pos, model.race);
        let me = pos.to_move();
        let close = ranked
            .iter()
            .take(w.candidates)
            .take_while(|&&(_, s)| s >= top_score - w.margin)
            .count();
        if w.rollouts == 0 || w.horizon == 0 || close < 2 {
            return AeroMove::Plane(top);
        }
        let seed = self.rng.next_u64();
        let afters: Vec<Aero> = ranked[..close]
            .iter()
            .map(|&(i, _)| pos.after(AeroMove::Plane(i)))
            .collect();
        // My own moves inside the rollouts.
        let own = |sim: &Aero| match w.policy {
            RolloutPolicy::RaceGreedy => race_greedy(sim, model.race),
            RolloutPolicy::RaceSafe => race_safe(sim, model.race),
            RolloutPolicy::Win => {
                let fallback = sim.choices().as_slice().first().copied();
                self.win
                    .scores(sim, &model, 0)
                    .best()
                    .map(|(i, _)| i)
                    .or(fallback)
                    .map_or(AeroMove::Plane(0), AeroMove::Plane)
            }
        };
        let mut stats = PairedStats::default();
        let batch = if w.batch == 0 { w.rollouts } else { w.batch };
        let mut k = 0u64;
        while k < w.rollouts as u64 {
            let end = (k + batch as u64).min(w.rollouts as u64);
            for k in k..end {
                // Antithetic pairs share the streams of their first member.
                let (stream, mirror) = if w.antithetic {
                    (k & !1, k & 1 == 1)
                } else {
                    (k, false)
                };
                // At most one candidate per plane: `ranked` holds one per distinct plane.
                let mut values = [0.0; PLANES];
                for (value, after) in values.iter_mut().zip(&afters) {
                    let mut dice = Rng::derive(seed, 2 * stream);
                    let mut picks = Rng::derive(seed, 2 * stream + 1);
                    *value = rollout_by(
                        after,
                        me,
                        &model,
                        w.horizon,
                        &mut dice,
                        &mut picks,
                        mirror,
                        &own,
                        |sim| match &self.leaf {
                            Some(f) => f(&model, sim, me),
                            None => model.at_my_turn(sim, me),
                        },
                    );
                }
                stats.add(&values[..afters.len()]);
            }
            k = end;
            if w.batch > 0 && stats.decided(afters.len(), w.stop_z) {
                break;
            }
        }
        let best = ranked[..close].iter().zip(stats.sum).fold(
            (top, f64::NEG_INFINITY),
            |b, (&(i, _), total)| {
                if total > b.1 {
                    (i, total)
                } else {
                    b
                }
            },
        );
        AeroMove::Plane(best.0)
    }
}

/// Running sums of the rollout values of up to four candidates, for paired comparisons.
#[derive(Default)]
struct PairedStats {
    /// Rollouts added.
    n: f64,
    /// Sum of each candidate's values.
    sum: [f64; PLANES],
    /// Sum of the products of two candidates' values of the same rollout.
    cross: [[f64; PLANES]; PLANES],
}

impl PairedStats {
    /// Adds one rollout: the value of each candidate on the same random numbers.
    fn add(&mut self, values: &[f64]) {
        self.n += 1.0;
        for (a, &x) in values.iter().enumerate() {
            self.sum[a] += x;
            for (b, &y) in values.iter().enumerate() {
                self.cross[a][b] += x * y;
            }
        }
    }

    /// True when the candidate with the highest mean leads every other one of the first `k` by
    /// more than `z` standard errors of the paired difference.
    fn decided(&self, k: usize, z: f64) -> bool {
        if self.n < 2.0 {
            return false;
        }
        let n = self.n;
        let mut lead = 0;
        for c in 1..k {
            if self.sum[c] > self.sum[lead] {
                lead = c;
            }
        }
        (0..k).filter(|&c| c != lead).all(|c| {
            let mean = (self.sum[lead] - self.sum[c]) / n;
            let square =
                (self.cross[lead][lead] - 2.0 * self.cross[lead][c] + self.cross[c][c]) / n;
            let var = (square - mean * mean).max(0.0) * n / (n - 1.0);
            // Identical outcomes so far (equivalent choices) also settle it.
            mean > z * (var / n).sqrt() || (var == 0.0 && mean == 0.0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::PairedStats;

    fn stats(rows: &[[f64; 2]]) -> PairedStats {
        let mut s = PairedStats::default();
        for r in rows {
            s.add(r);
        }
        s
    }

    #[test]
    fn settings_are_read_and_bad_ones_named() {
        use super::{RolloutPolicy, RolloutWeights};
        let w: RolloutWeights = "1024,4,0.02,4".parse().unwrap();
        assert_eq!(
            (w.rollouts, w.horizon, w.margin, w.candidates),
            (1024, 4, 0.02, 4)
        );
        assert_eq!(
            (w.policy, w.antithetic, w.batch, w.stop_z),
            (RolloutPolicy::RaceGreedy, false, 0, 0.0)
        );
        let w: RolloutWeights = "64, 2, 0.04, 3, 1, 1, 16, 2.5".parse().unwrap();
        assert_eq!(
            (w.policy, w.antithetic, w.batch, w.stop_z),
            (RolloutPolicy::Win, true, 16, 2.5)
        );
        let w: RolloutWeights = "1024,3,0.02,2,2".parse().unwrap();
        assert_eq!(w.policy, RolloutPolicy::RaceSafe);
        assert_eq!((w.endgame, w.end_margin), (0.0, 0.0));
        let w: RolloutWeights = "512,2,0.02,2,0,0,0,0,8,0.05".parse().unwrap();
        assert_eq!((w.endgame, w.end_margin), (8.0, 0.05));
        for bad in [
            "",
            "512",
            "512,2,0.02",
            "512,2,0.02,5",
            "1.5,2,0.02,2",
            "-1,2,0.02,2",
            "a,2,0.02,2",
            "512,2,NaN,2",
            "512,2,0.02,2,3",
            "512,2,0.02,2,1.5",
            "512,2,0.02,2,0,0.5",
            "1,2,3,4,5,6,7,8,9,10,11",
            "512,2,0.02,2,0,0,0,0,-8,0.05",
        ] {
            let e = bad.parse::<RolloutWeights>().unwrap_err().to_string();
            assert!(
                e.contains("rollout setting") && e.contains(&format!("{bad:?}")),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn a_clear_lead_stops_and_a_noisy_one_does_not() {
        // The second candidate is ahead by 0.1 in every rollout: no variance, a sure lead.
        let sure: Vec<[f64; 2]> = (0..10)
            .map(|i| [0.1 * i as f64, 0.1 * i as f64 + 0.1])
            .collect();
        assert!(stats(&sure).decided(2, 3.0));
        // Ahead by 0.1 on average, but by +1.1 or -0.9 in turn: about 0.3 standard errors.
        let noisy: Vec<[f64; 2]> = (0..20)
            .map(|i| if i % 2 == 0 { [0.0, 1.1] } else { [1.0, 0.1] })
            .collect();
        assert!(!stats(&noisy).decided(2, 3.0));
        assert!(stats(&noisy).decided(2, 0.0));
        // Identical outcomes (equivalent choices) settle it; one rollout never does.
        assert!(stats(&[[0.5, 0.5], [0.2, 0.2]]).decided(2, 3.0));
        assert!(!stats(&[[0.0, 1.0]]).decided(2, 3.0));
    }
}
