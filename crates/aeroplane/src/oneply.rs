//! The players that score the legal moves in front of them (one ply, some with playouts):
//! `random`, the article's `seed-greedy` and `seed-mc`, the tuned `heuristic`, `race` and `win`.
//! [`crate::players`] builds them by name; the searches ([`crate::search`]) and the rollouts
//! ([`crate::rollout`]) build on them.

use crate::board::{on_ring, ring_square, CENTRE, HANGAR, RING_LAST};
use crate::eval::{all_scores, danger_with, relative_score, value_table, Weights};
use crate::finish::finish_tables;
use crate::player::Player;
use crate::position::{Aero, AeroMove};
use crate::race::{race_table, RaceTable};
use crate::record::random_game;
use crate::winprob::{Shape, WinModel};
use qiyi_core::{Game, Rng, Turn};

/// Uniformly random moves.
pub struct RandomPlayer {
    pub(crate) rng: Rng,
}

impl Player for RandomPlayer {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let c = pos.choices();
        if c.is_empty() {
            return AeroMove::Plane(0);
        }
        AeroMove::Plane(c.as_slice()[self.rng.below(c.len())])
    }
}

/// True when some enemy plane stands 1..=6 ring squares behind progress `d` of player `p` (and
/// could reach it before turning into its home column).
pub fn enemy_behind(pos: &Aero, p: usize, d: u8) -> bool {
    if !on_ring(d) {
        return false;
    }
    let sq = ring_square(pos.seat(p), d) as i32;
    for q in 0..pos.players() {
        if q == p {
            continue;
        }
        let seat = pos.seat(q);
        for &e in pos.planes(q).iter() {
            if !on_ring(e) {
                continue;
            }
            let dist = (sq - ring_square(seat, e) as i32).rem_euclid(52);
            if (1..=6).contains(&dist) && e as i32 + dist <= RING_LAST as i32 {
                return true;
            }
        }
    }
    false
}

/// The article's greedy score of moving `plane` (as we reconstruct it): captures first, then
/// take-offs, finishing, jumps and flights, getting out of reach, a little for progress.
pub fn greedy_score(pos: &Aero, plane: u8) -> f64 {
    let p = pos.to_move();
    let d = pos.planes(p)[plane as usize];
    let step = pos.step_of(plane as usize);
    let mut after = *pos;
    let effect = after.play(AeroMove::Plane(plane));
    let mut s = 10.0 * effect.captured as f64;
    if d == HANGAR {
        s += 8.0;
    }
    if step.to == CENTRE {
        s += 7.0;
    }
    if step.jumped {
        s += 4.0;
    }
    if step.flew {
        s += 6.0;
    }
    if enemy_behind(pos, p, d) {
        s += 3.0;
    }
    if enemy_behind(&after, p, step.to) {
        s -= 3.0;
    }
    if d != HANGAR {
        s += 0.01 * d as f64;
    }
    s
}

/// The best plane by [`greedy_score`] (ties: the lowest plane).
pub fn greedy_choice(pos: &Aero) -> AeroMove {
    let c = pos.choices();
    let mut best = c.as_slice().first().copied().unwrap_or(0);
    let mut best_score = f64::NEG_INFINITY;
    for &i in c.as_slice() {
        let s = greedy_score(pos, i);
        if s > best_score {
            best_score = s;
            best = i;
        }
    }
    AeroMove::Plane(best)
}

/// `seed-greedy`: the article's greedy score; with `noise`, that share of decisions is random.
pub struct SeedGreedy {
    pub(crate) rng: Rng,
    pub(crate) noise: f64,
}

impl Player for SeedGreedy {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let c = pos.choices();
        if self.noise > 0.0 && !c.is_empty() && self.rng.unit() < self.noise {
            return AeroMove::Plane(c.as_slice()[self.rng.below(c.len())]);
        }
        greedy_choice(pos)
    }
}

/// `seed-mc`: the greedy top-2 candidates, each checked by random playouts to the end.
pub struct SeedMc {
    pub(crate) rng: Rng,
    pub(crate) playouts: usize,
}

impl SeedMc {
    /// Playouts per candidate.
    pub const PLAYOUTS: usize = 200;
}

impl Player for SeedMc {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let c = pos.choices();
        if c.len() <= 1 {
            return AeroMove::Plane(c.as_slice().first().copied().unwrap_or(0));
        }
        let mut scored: Vec<(f64, u8)> = c
            .as_slice()
            .iter()
            .map(|&i| (greedy_score(pos, i), i))
            .collect();
        scored.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
        let me = pos.to_move();
        let mut best = scored[0].1;
        let mut best_wins = -1i64;
        for &(_, i) in scored.iter().take(2) {
            let after = pos.after(AeroMove::Plane(i));
            let mut wins = 0i64;
            for _ in 0..self.playouts {
                if random_game(&after, &mut self.rng).winner == Some(me) {
                    wins += 1;
                }
            }
            if wins > best_wins {
                best_wins = wins;
                best = i;
            }
        }
        AeroMove::Plane(best)
    }
}

/// The tuned one-ply heuristic: the move after which the mover's relative score is highest.
pub struct HeuristicPlayer {
    weights: Weights,
    rng: Rng,
    noise: f64,
}

impl HeuristicPlayer {
    /// A heuristic player with `weights`; `noise` is the share of random decisions (levels).
    pub fn new(weights: Weights, rng: Rng, noise: f64) -> Self {
        HeuristicPlayer {
            weights,
            rng,
            noise,
        }
    }
}

/// The move maximising the mover's relative heuristic score one ply ahead.
pub fn heuristic_choice(pos: &Aero, weights: &Weights) -> AeroMove {
    let values = value_table(&pos.rules());
    let me = pos.to_move();
    let n = pos.players();
    let c = pos.choices();
    let mut best = c.as_slice().first().copied().unwrap_or(0);
    let mut best_score = f64::NEG_INFINITY;
    let mut scores = [0.0; 4];
    for &i in c.as_slice() {
        let after = pos.after(AeroMove::Plane(i));
        let s = if after.turn() == Turn::Over {
            if after.winner() == Some(me) {
                f64::INFINITY
            } else {
                -1e9
            }
        } else {
            all_scores(&after, &values, weights, &mut scores);
            relative_score(&scores, me, n, weights)
        };
        if s > best_score {
            best_score = s;
            best = i;
        }
    }
    AeroMove::Plane(best)
}

impl Player for HeuristicPlayer {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let c = pos.choices();
        if self.noise > 0.0 && !c.is_empty() && self.rng.unit() < self.noise {
            return AeroMove::Plane(c.as_slice()[self.rng.below(c.len())]);
        }
        heuristic_choice(pos, &self.weights)
    }
}

/// The weights of the [`RacePlayer`]'s score, in turns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RaceWeights {
    /// Weight of the expected turns lost to the opponents' hits.
    pub danger: f64,
    /// Weight of the opponents' mean expected turns.
    pub enemy: f64,
    /// Weight of the leading opponent's expected turns (on top of the mean).
    pub leader: f64,
    /// Sampled rounds of the opponents' replies per choice (0: one ply with the danger estimate).
    pub samples: u32,
    /// In the sampled rounds, the chance that an opponent who can send a plane home does so
    /// (otherwise it moves at random).
    pub capture: f64,
    /// In the danger estimate, the chance that an opponent able to hit a plane does so (else it
    /// moves at random): see [`crate::eval::danger_from_with`].
    pub greedy: f64,
}

impl RaceWeights {
    /// The weights found by self-play against the random field and `seed-mc`.
    pub const TUNED: RaceWeights = RaceWeights {
        danger: 1.0,
        enemy: 0.3,
        leader: 0.3,
        samples: 0,
        capture: 0.5,
        greedy: 1.0,
    };
}

/// The race player: each choice is scored by the exact solo-race table (expected turns the mover
/// still needs, playing the rest of the turn perfectly), plus the expected turns its planes lose
/// to hits before its next turn, against the opponents' expected turns by the same table.
pub struct RacePlayer {
    weights: RaceWeights,
    fallback: HeuristicPlayer,
    rng: Rng,
}

impl RacePlayer {
    /// A race player with `weights` (`rng` only feeds the heuristic fallback).
    pub fn new(weights: RaceWeights, rng: Rng) -> Self {
        let own = Rng::new(rng.clone().next_u64() ^ 0x5EED);
        RacePlayer {
            weights,
            fallback: HeuristicPlayer::new(Weights::TUNED, rng, 0.0),
            rng: own,
        }
    }
}

/// The score of the race player for the mover of `pos` after `mv` (higher is better).
pub fn race_score(pos: &Aero, mv: AeroMove, table: &RaceTable, w: &RaceWeights) -> f64 {
    let me = pos.to_move();
    let mut after = *pos;
    let effect = after.play(mv);
    if after.turn() == Turn::Over {
        return if after.winner() == Some(me) {
            f64::INFINITY
        } else {
            -1e9
        };
    }
    let mine = after.planes(me);
    let own = if effect.new_turn {
        table.value(mine)
    } else {
        table.turn_value(&after)
    };
    let base = table.value(mine);
    let mut risk = 0.0;
    for i in 0..mine.len() {
        let d = mine[i];
        if d == HANGAR || d == CENTRE {
            continue;
        }
        let r = danger_with(&after, me, d, w.greedy);
        if r > 0.0 {
            let mut hit = mine;
            hit[i] = HANGAR;
            risk += r * (table.value(hit) - base);
        }
    }
    let mut sum = 0.0;
    let mut count = 0.0;
    let mut leader = f64::INFINITY;
    for q in 0..pos.players() {
        if q == me || after.places()[q] != 0 {
            continue;
        }
        let v = table.value(after.planes(q));
        sum += v;
        count += 1.0;
        leader = leader.min(v);
    }
    let mean = if count > 0.0 { sum / count } else { 0.0 };
    let leader = if count > 0.0 { leader } else { 0.0 };
    -(own + w.danger * risk) + w.enemy * mean + w.leader * leader
}

impl Player for RacePlayer {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let Some(table) = race_table(&pos.rules()) else {
            return self.fallback.choose(pos);
        };
        let c = pos.choices();
        let mut best = AeroMove::Plane(c.as_slice().first().copied().unwrap_or(0));
        if c.len() <= 1 {
            return best;
        }
        let mut best_score = f64::NEG_INFINITY;
        let round_seed = self.rng.next_u64();
        for &i in c.as_slice() {
            let s = if self.weights.samples > 0 {
                round_score(pos, AeroMove::Plane(i), table, &self.weights, round_seed)
            } else {
                race_score(pos, AeroMove::Plane(i), table, &self.weights)
            };
            if s > best_score {
                best_score = s;
                best = AeroMove::Plane(i);
            }
        }
        best
    }
}

/// The race player's score with the opponents' next round sampled: after `mv`, when the turn
/// passes, `w.samples` rounds of the opponents' turns are played (the same dice for every choice:
/// `seed`), each opponent sending a plane home when it can with chance `w.capture` and otherwise
/// moving at random; the score is the mean over the rounds of the table's race terms when the
/// mover's next turn begins (a loss scores -[`crate::eval::WIN`] turns).
pub fn round_score(pos: &Aero, mv: AeroMove, table: &RaceTable, w: &RaceWeights, seed: u64) -> f64 {
    let me = pos.to_move();
    let mut after = *pos;
    let effect = after.play(mv);
    if after.turn() == Turn::Over || !effect.new_turn || after.to_move() == me {
        return race_score(pos, mv, table, w);
    }
    let mut total = 0.0;
    for k in 0..w.samples {
        let mut rng = Rng::derive(seed, k as u64);
        let mut sim = after;
        let mut guard = 0;
        while sim.turn() != Turn::Over && !(sim.turn() == Turn::Chance && sim.to_move() == me) {
            guard += 1;
            if guard > 1000 {
                break;
            }
            let mv = match sim.turn() {
                Turn::Chance => AeroMove::Roll(rng.below(6) as u8 + 1),
                _ => opponent_model(&sim, w.capture, &mut rng),
            };
            sim.play(mv);
        }
        total += if sim.turn() == Turn::Over {
            if sim.winner() == Some(me) {
                0.0
            } else {
                -crate::eval::WIN
            }
        } else {
            race_terms(&sim, me, table, w)
        };
    }
    total / w.samples as f64
}

/// The table's race terms for `me` in `pos` (higher is better): minus its expected turns, plus
/// the weighted opponents' expected turns.
fn race_terms(pos: &Aero, me: usize, table: &RaceTable, w: &RaceWeights) -> f64 {
    let mut sum = 0.0;
    let mut count = 0.0;
    let mut leader = f64::INFINITY;
    for q in 0..pos.players() {
        if q == me || pos.places()[q] != 0 {
            continue;
        }
        let v = table.value(pos.planes(q));
        sum += v;
        count += 1.0;
        leader = leader.min(v);
    }
    let (mean, leader) = if count > 0.0 {
        (sum / count, leader)
    } else {
        (0.0, 0.0)
    };
    -table.value(pos.planes(me)) + w.enemy * mean + w.leader * leader
}

/// A model of an opponent's choice: a capture with chance `capture` when one exists, else random.
fn opponent_model(pos: &Aero, capture: f64, rng: &mut Rng) -> AeroMove {
    let c = pos.choices();
    if c.is_empty() {
        return AeroMove::Plane(0);
    }
    if capture > 0.0 && rng.unit() < capture {
        for &i in c.as_slice() {
            let mut next = *pos;
            if next.play(AeroMove::Plane(i)).captured > 0 {
                return AeroMove::Plane(i);
            }
        }
    }
    AeroMove::Plane(c.as_slice()[rng.below(c.len())])
}

/// The weights of the [`WinPlayer`] (see [`WinModel`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinWeights {
    /// How strong the opponents are taken to be: 0 = random players, 1 = optimal racers.
    pub strength: f64,
    /// Chance that an opponent able to hit a plane does so.
    pub greedy: f64,
    /// Weight of the danger term.
    pub danger: f64,
    /// Weight of the threat term (my chances to hit opponents on my next turn).
    pub threat: f64,
    /// Weight of my next roll played out against the static chance.
    pub lookahead: f64,
    /// Weight per expected turn of my own race (a tie-break where the chance saturates).
    pub tiebreak: f64,
    /// Sampled rounds of the random opponents' replies per choice (0: the static one-ply
    /// chance with the danger term; see [`WinModel::sampled`]).
    pub samples: u32,
    /// The shape of the finish-time distributions.
    pub shape: Shape,
}

impl WinWeights {
    /// The weights chosen by games against three `random` players (`research/aeroplane/examples/tune_win.rs`,
    /// common seeds; see the crate README).
    pub const TUNED: WinWeights = WinWeights {
        strength: 0.0,
        greedy: 0.0,
        danger: 1.0,
        threat: 0.75,
        lookahead: 0.0,
        tiebreak: 0.001,
        samples: 0,
        shape: Shape::Normal,
    };
}

/// The win-chance player: each choice is scored by [`WinModel::evaluate`], the chance of finishing
/// first estimated from the exact finish-time statistics of every player's race and the chance
/// that each of its planes is hit before its next turn. Falls back to [`RacePlayer`] under rules
/// without tables.
pub struct WinPlayer {
    weights: WinWeights,
    fallback: RacePlayer,
    rng: Rng,
}

impl WinPlayer {
    /// A win-chance player with `weights` (`rng` only feeds the fallback).
    pub fn new(weights: WinWeights, rng: Rng) -> Self {
        let own = Rng::new(rng.clone().next_u64() ^ 0x0A11_CE5E);
        WinPlayer {
            weights,
            fallback: RacePlayer::new(RaceWeights::TUNED, rng),
            rng: own,
        }
    }

    /// The model of `rules`, when its tables exist.
    pub fn model(&self, rules: &crate::rules::Rules) -> Option<WinModel<'static>> {
        let t = finish_tables(rules)?;
        Some(WinModel {
            race: &t.hazard_race,
            optimal: &t.hazard,
            random: &t.random_hazard,
            strength: self.weights.strength,
            greedy: self.weights.greedy,
            danger: self.weights.danger,
            threat: self.weights.threat,
            lookahead: self.weights.lookahead,
            shape: self.weights.shape,
        })
    }
}

impl WinPlayer {
    /// Every distinct choice of `pos` (a decision node) with its score by `model` (higher is
    /// better), in the order of [`Aero::choices`]; `seed` feeds the sampled rounds when
    /// [`WinWeights::samples`] is not 0.
    pub fn scores(&self, pos: &Aero, model: &WinModel<'_>, seed: u64) -> ScoredChoices {
        let mut out = ScoredChoices::default();
        let me = pos.to_move();
        for &i in pos.choices().as_slice() {
            let mut after = *pos;
            let e = after.play(AeroMove::Plane(i));
            let mut s = model.sampled(&after, me, e.new_turn, self.weights.samples, seed);
            if self.weights.tiebreak > 0.0 && after.turn() != Turn::Over {
                // Where the chance saturates (far ahead or far behind), fewer expected turns.
                let mine = if e.new_turn {
                    model.race.value(after.planes(me))
                } else {
                    model.race.turn_value(&after)
                };
                s -= self.weights.tiebreak * mine;
            }
            out.push(i, s);
        }
        out
    }
}

/// Up to four choices (plane numbers) with scores, without allocation.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScoredChoices {
    items: [(u8, f64); 4],
    len: usize,
}

impl ScoredChoices {
    /// Appends a choice (ignored past four).
    pub fn push(&mut self, plane: u8, score: f64) {
        if self.len < 4 {
            self.items[self.len] = (plane, score);
            self.len += 1;
        }
    }

    /// The choices and their scores.
    pub fn as_slice(&self) -> &[(u8, f64)] {
        &self.items[..self.len]
    }

    /// The first choice with the highest score (`None` when empty).
    pub fn best(&self) -> Option<(u8, f64)> {
        let mut best: Option<(u8, f64)> = None;
        for &(i, s) in self.as_slice() {
            match best {
                Some((_, b)) if s <= b => {}
                _ => best = Some((i, s)),
            }
        }
        best
    }

    /// Sorted by score, highest first (stable: ties keep their order).
    pub fn sorted(&self) -> ScoredChoices {
        let mut out = *self;
        out.items[..out.len]
            .sort_by(|a, b| b.1.partial_cmp(&a.1).unwrap_or(std::cmp::Ordering::Equal));
        out
    }
}

impl Player for WinPlayer {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let Some(model) = self.model(&pos.rules()) else {
            return self.fallback.choose(pos);
        };
        let c = pos.choices();
        let first = AeroMove::Plane(c.as_slice().first().copied().unwrap_or(0));
        if c.len() <= 1 {
            return first;
        }
        let seed = if self.weights.samples > 0 {
            self.rng.next_u64()
        } else {
            0
        };
        self.scores(pos, &model, seed)
            .best()
            .map_or(first, |(i, _)| AeroMove::Plane(i))
    }
}
