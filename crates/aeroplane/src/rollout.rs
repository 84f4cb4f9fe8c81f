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

use crate::players::{Player, WinPlayer, WinWeights};
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
}

impl RolloutWeights {
    /// The settings measured best by games against three `random` players (see the crate
    /// README: about 0.9 points above `win`; 512 rather than 128 rollouts since session 7, when
    /// the evaluation became twice as fast, on weak evidence that more rollouts help).
    pub const TUNED: RolloutWeights = RolloutWeights {
        rollouts: 512,
        horizon: 2,
        margin: 0.02,
        candidates: 2,
        policy: RolloutPolicy::RaceGreedy,
        antithetic: false,
    };
}

/// The rollouts' own policy: a move that ends the game or sends enemy planes home when one
/// exists (the most planes), else the move after which `table` expects the fewest turns.
pub fn race_greedy(pos: &Aero, table: &RaceTable) -> AeroMove {
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
        let s = table.value(after.planes(me)) - 100.0 * e.captured as f64;
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
    rollout_by(start, me, model, horizon, dice, picks, false, |sim| {
        race_greedy(sim, model.race)
    })
}

/// [`rollout`] with my own moves (at decisions with two or more choices) picked by `own`;
/// `mirror` turns every die `d` into `7 - d` and every pick `k` of `n` into `n - 1 - k` (the
/// antithetic twin of the same streams).
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
                        return model.at_my_turn(&sim, me);
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
}

impl RolloutPlayer {
    /// A rollout player with `weights` over the tuned [`WinPlayer`]; `rng` seeds the rollouts.
    pub fn new(weights: RolloutWeights, rng: Rng) -> Self {
        let own = Rng::new(rng.clone().next_u64() ^ 0x0011_7C0E);
        RolloutPlayer {
            weights,
            win: WinPlayer::new(WinWeights::TUNED, rng),
            rng: own,
        }
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
        let w = self.weights;
        let close = ranked
            .iter()
            .take(w.candidates)
            .take_while(|&&(_, s)| s >= top_score - w.margin)
            .count();
        if w.rollouts == 0 || w.horizon == 0 || close < 2 {
            return AeroMove::Plane(top);
        }
        let me = pos.to_move();
        let seed = self.rng.next_u64();
        let mut best = (top, f64::NEG_INFINITY);
        for &(i, _) in &ranked[..close] {
            let after = pos.after(AeroMove::Plane(i));
            let mut total = 0.0;
            for k in 0..w.rollouts as u64 {
                // Antithetic pairs share the streams of their first member.
                let (stream, mirror) = if w.antithetic {
                    (k & !1, k & 1 == 1)
                } else {
                    (k, false)
                };
                let mut dice = Rng::derive(seed, 2 * stream);
                let mut picks = Rng::derive(seed, 2 * stream + 1);
                let own = |sim: &Aero| match w.policy {
                    RolloutPolicy::RaceGreedy => race_greedy(sim, model.race),
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
                total += rollout_by(
                    &after, me, &model, w.horizon, &mut dice, &mut picks, mirror, own,
                );
            }
            if total > best.1 {
                best = (i, total);
            }
        }
        AeroMove::Plane(best.0)
    }
}
