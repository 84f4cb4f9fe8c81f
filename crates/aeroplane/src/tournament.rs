//! Tournaments: many seeded games between player types, seats rotating, in parallel (rayon).

use crate::error::AeroError;
use crate::players::{make_player, Player, PlayerKind};
use crate::position::{Aero, AeroMove};
use crate::record::{Dice, MAX_ROLLS};
use crate::rules::Rules;
use qiyi_core::platform::Instant;
use qiyi_core::{Game, Rng, Turn};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;

/// What to play.
#[derive(Clone, Debug)]
pub struct TournamentSpec {
    /// Rules.
    pub rules: Rules,
    /// The player type of each seat at game 0 (its length is the number of players).
    pub seats: Vec<PlayerKind>,
    /// Games to play.
    pub games: u64,
    /// Seed of everything.
    pub seed: u64,
}

/// Per-type results.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TypeStats {
    /// Seats this type holds in each game.
    pub seats: usize,
    /// Games won by any seat of this type.
    pub wins: u64,
    /// `wins / games`.
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate.
    pub interval: [f64; 2],
    /// The win rate of a player no better than the others: `seats / players`.
    pub fair_share: f64,
    /// Mean time of one decision, milliseconds.
    pub decision_ms_mean: f64,
    /// Longest decision, milliseconds.
    pub decision_ms_max: f64,
}

/// The result of a tournament.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct TournamentResult {
    /// Rules played (text).
    pub rules: String,
    /// Players per game.
    pub players: usize,
    /// Seat types at game 0 (they rotate by one seat per game).
    pub seats: Vec<String>,
    /// Games played.
    pub games: u64,
    /// Seed.
    pub seed: u64,
    /// Player type -> fraction of the games it won.
    pub win_rate: BTreeMap<String, f64>,
    /// Player type -> details.
    pub by_type: BTreeMap<String, TypeStats>,
    /// Mean game length in turns (all players' turns).
    pub mean_turns: f64,
    /// Enemy planes sent home per game.
    pub captures_per_game: f64,
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = k as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// What one game of a tournament produced.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The type of the winning seat (`None` when the game hit the roll cap).
    pub winner_type: Option<PlayerKind>,
    /// Turns played.
    pub turns: u32,
    /// Planes sent home by captures.
    pub captures: u32,
    /// Per seat: (type, decisions, total seconds, max seconds).
    pub timing: Vec<(PlayerKind, u64, f64, f64)>,
}

/// Plays game `g` of the tournament (seats rotated by `g`, dice and players seeded from
/// `spec.seed` and `g`): the same game whichever machine or thread plays it, so a tournament
/// can be sharded by index and put together with [`summarize`].
pub fn play_game(spec: &TournamentSpec, g: u64) -> Result<GameOutcome, AeroError> {
    play_one(spec, g)
}

fn play_one(spec: &TournamentSpec, g: u64) -> Result<GameOutcome, AeroError> {
    let n = spec.seats.len();
    let start = Aero::new(spec.rules, n)?;
    let kinds: Vec<PlayerKind> = (0..n).map(|s| spec.seats[(s + g as usize) % n]).collect();
    let mut seeds = Rng::derive(spec.seed, g);
    let mut dice = Dice::new(seeds.next_u64());
    let mut players: Vec<Box<dyn Player>> = kinds
        .iter()
        .map(|&k| make_player(k, seeds.next_u64()))
        .collect();
    let mut timing: Vec<(PlayerKind, u64, f64, f64)> =
        kinds.iter().map(|&k| (k, 0, 0.0, 0.0)).collect();
    let mut pos = start;
    let mut turns = 1;
    let mut captures = 0;
    let mut steps = 0;
    while pos.turn() != Turn::Over && steps < 2 * MAX_ROLLS {
        steps += 1;
        let mv = match pos.turn() {
            Turn::Player(p) => {
                let t = Instant::now();
                let mv = players[p].choose(&pos);
                let secs = t.elapsed().as_secs_f64();
                let slot = &mut timing[p];
                slot.1 += 1;
                slot.2 += secs;
                slot.3 = slot.3.max(secs);
                mv
            }
            _ => AeroMove::Roll(dice.roll()),
        };
        let e = pos.play(mv);
        captures += e.captured as u32;
        turns += e.new_turn as u32;
    }
    Ok(GameOutcome {
        winner_type: pos.winner().map(|w| kinds[w]),
        turns,
        captures,
        timing,
    })
}

/// Plays the tournament on `threads` worker threads; `progress` is called after every game.
pub fn run_with_threads(
    spec: &TournamentSpec,
    threads: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<TournamentResult, AeroError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| AeroError::BadTournament(format!("cannot start {threads} threads: {e}")))?;
    pool.install(|| run(spec, progress))
}

/// Games won by one candidate against a field, for tuning: game `g` seats the candidate
/// (`candidate(g)`) at `seat(g)` and `field(g)` everywhere else, each field player seeded with
/// `seed ^ (4g + its seat)`, and plays from `start` with dice seeded by `Rng::derive(seed, g)`.
/// Every candidate tried with the same `seed` meets the same dice (common random numbers).
/// Runs on the current rayon pool.
pub fn candidate_wins(
    start: &Aero,
    games: u64,
    seed: u64,
    seat: impl Fn(u64) -> usize + Sync,
    candidate: impl Fn(u64) -> Box<dyn Player> + Sync,
    field: impl Fn(u64) -> PlayerKind + Sync,
) -> u64 {
    candidate_results(start, games, seed, seat, candidate, field)
        .iter()
        .map(|&w| u64::from(w))
        .sum()
}

/// The players of game `g` of a candidate run seeded with `seed`: `candidate` at seat `at`,
/// a player of type `field` at each other seat (seat `s` seeded with `seed ^ (4g + s)`); with
/// `at >= players` every seat is the field's.
pub fn seat_against(
    players: usize,
    at: usize,
    candidate: Box<dyn Player>,
    field: PlayerKind,
    seed: u64,
    g: u64,
) -> Vec<Box<dyn Player>> {
    let mut candidate = Some(candidate);
    (0..players)
        .map(|s| match candidate.take_if(|_| s == at) {
            Some(c) => c,
            None => make_player(field, seed ^ (g * 4 + s as u64)),
        })
        .collect()
}

/// [`candidate_wins`] game by game: whether the candidate won game `g`, for `g` in `0..games`
/// (for paired comparisons of candidates on the same games).
pub fn candidate_results(
    start: &Aero,
    games: u64,
    seed: u64,
    seat: impl Fn(u64) -> usize + Sync,
    candidate: impl Fn(u64) -> Box<dyn Player> + Sync,
    field: impl Fn(u64) -> PlayerKind + Sync,
) -> Vec<bool> {
    (0..games)
        .into_par_iter()
        .map(|g| {
            let at = seat(g);
            let mut players = seat_against(start.players(), at, candidate(g), field(g), seed, g);
            let rec =
                crate::record::play_game(start, &mut players, Rng::derive(seed, g).next_u64());
            rec.places[at] == 1
        })
        .collect()
}

/// [`candidate_results`] against uniformly random opponents, with the randomness tied to the
/// game's course rather than drawn in sequence: the `r`-th roll of player `p`'s `t`-th turn in
/// game `g`, and the pick of a random opponent deciding after that roll, both come from one word
/// of `Rng::derive(seed, (g, p, t, r))`. Two candidates on the same `seed` then meet the same dice
/// turn by turn and the same opponent picks wherever the opponents face the same choices, so
/// their games stay alike far longer than with sequential streams and a paired comparison
/// ([`paired_difference`]) is sharper. The opponents' policy is exactly `random`'s.
pub fn aligned_results(
    start: &Aero,
    games: u64,
    seed: u64,
    candidate: impl Fn(u64) -> Box<dyn Player> + Sync,
) -> Vec<bool> {
    (0..games)
        .into_par_iter()
        .map(|g| {
            let at = (g % start.players() as u64) as usize;
            let mut me = candidate(g);
            let mut pos = *start;
            let mut turn_no = [0u64; 4];
            let mut roll_no = 0u64;
            let mut word = 0u64;
            for _ in 0..2 * MAX_ROLLS {
                if pos.winner().is_some() {
                    break;
                }
                let mv = match pos.turn() {
                    Turn::Over => break,
                    Turn::Chance => {
                        let p = pos.to_move();
                        if !pos.after_six() {
                            turn_no[p] += 1;
                            roll_no = 0;
                        }
                        let key = (g << 40) ^ ((p as u64) << 36) ^ (turn_no[p] << 8) ^ roll_no;
                        word = Rng::derive(seed, key).next_u64();
                        roll_no += 1;
                        AeroMove::Roll(((((word & 0xFFFF_FFFF) * 6) >> 32) + 1) as u8)
                    }
                    Turn::Player(p) if p == at => me.choose(&pos),
                    Turn::Player(_) => {
                        let c = pos.choices();
                        let k = (((word >> 32) * c.len() as u64) >> 32) as usize;
                        AeroMove::Plane(c.as_slice().get(k).copied().unwrap_or(0))
                    }
                };
                pos.play(mv);
            }
            pos.winner() == Some(at)
        })
        .collect()
}

/// Who a candidate meets in a tuning run: `random-aligned` (random players through
/// [`aligned_results`]) or three players of one type (through [`candidate_results`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Random opponents with aligned randomness.
    AlignedRandom,
    /// Opponents of this type, seats rotating.
    Kind(PlayerKind),
}

impl std::str::FromStr for Field {
    type Err = AeroError;

    fn from_str(s: &str) -> Result<Field, AeroError> {
        if s == "random-aligned" {
            Ok(Field::AlignedRandom)
        } else {
            s.parse().map(Field::Kind)
        }
    }
}

/// Whether the candidate won each of `games` games against `field` (the candidate's seat
/// rotating), by [`aligned_results`] or [`candidate_results`].
pub fn field_results(
    start: &Aero,
    games: u64,
    seed: u64,
    field: Field,
    candidate: impl Fn(u64) -> Box<dyn Player> + Sync,
) -> Vec<bool> {
    match field {
        Field::AlignedRandom => aligned_results(start, games, seed, candidate),
        Field::Kind(kind) => candidate_results(
            start,
            games,
            seed,
            |g| (g % start.players() as u64) as usize,
            candidate,
            |_| kind,
        ),
    }
}

/// "+d points (standard error e)": [`paired_difference`] of `a` against `b`, in points.
pub fn paired_summary(a: &[bool], b: &[bool]) -> String {
    let (d, se) = paired_difference(a, b);
    format!(
        "{:+.2} points (standard error {:.2})",
        100.0 * d,
        100.0 * se
    )
}

/// The difference in win rate of two candidates played on the same games (`a` minus `b`,
/// game by game) with its standard error from the per-game differences.
pub fn paired_difference(a: &[bool], b: &[bool]) -> (f64, f64) {
    let n = a.len().min(b.len());
    if n < 2 {
        return (0.0, 0.0);
    }
    let d: Vec<f64> = a
        .iter()
        .zip(b)
        .map(|(&x, &y)| f64::from(u8::from(x)) - f64::from(u8::from(y)))
        .collect();
    let mean = d.iter().sum::<f64>() / n as f64;
    let var = d.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    (mean, (var / n as f64).sqrt())
}

/// Plays the tournament on the current rayon pool; `progress` is called after every game.
pub fn run(
    spec: &TournamentSpec,
    progress: &(dyn Fn() + Sync),
) -> Result<TournamentResult, AeroError> {
    let n = spec.seats.len();
    if !(2..=4).contains(&n) {
        return Err(AeroError::BadTournament(format!(
            "{n} seats given; aeroplane chess needs 2, 3 or 4"
        )));
    }
    if spec.games == 0 {
        return Err(AeroError::BadTournament("no games to play".into()));
    }
    let outcomes: Vec<GameOutcome> = (0..spec.games)
        .into_par_iter()
        .map(|g| {
            let r = play_one(spec, g);
            progress();
            r
        })
        .collect::<Result<_, _>>()?;
    summarize(spec, &outcomes)
}

/// The tournament result of `outcomes` (every game, in index order; their number is the number
/// of games).
pub fn summarize(
    spec: &TournamentSpec,
    outcomes: &[GameOutcome],
) -> Result<TournamentResult, AeroError> {
    let n = spec.seats.len();
    if outcomes.is_empty() {
        return Err(AeroError::BadTournament("no games to play".into()));
    }
    let mut by_type: BTreeMap<String, TypeStats> = BTreeMap::new();
    let mut timing: BTreeMap<String, (u64, f64, f64)> = BTreeMap::new();
    for &k in &spec.seats {
        let e = by_type.entry(k.to_string()).or_insert(TypeStats {
            seats: 0,
            wins: 0,
            win_rate: 0.0,
            interval: [0.0, 1.0],
            fair_share: 0.0,
            decision_ms_mean: 0.0,
            decision_ms_max: 0.0,
        });
        e.seats += 1;
    }
    let mut turns = 0u64;
    let mut captures = 0u64;
    for o in outcomes {
        turns += o.turns as u64;
        captures += o.captures as u64;
        if let Some(w) = o.winner_type {
            if let Some(e) = by_type.get_mut(&w.to_string()) {
                e.wins += 1;
            }
        }
        for &(k, count, total, max) in &o.timing {
            let t = timing.entry(k.to_string()).or_insert((0, 0.0, 0.0));
            t.0 += count;
            t.1 += total;
            t.2 = t.2.max(max);
        }
    }
    let games = outcomes.len() as u64;
    let mut win_rate = BTreeMap::new();
    for (name, e) in by_type.iter_mut() {
        e.win_rate = e.wins as f64 / games as f64;
        e.interval = wilson(e.wins, games);
        e.fair_share = e.seats as f64 / n as f64;
        if let Some(&(count, total, max)) = timing.get(name) {
            e.decision_ms_mean = if count > 0 {
                1e3 * total / count as f64
            } else {
                0.0
            };
            e.decision_ms_max = 1e3 * max;
        }
        win_rate.insert(name.clone(), e.win_rate);
    }
    Ok(TournamentResult {
        rules: spec.rules.to_string(),
        players: n,
        seats: spec.seats.iter().map(|k| k.to_string()).collect(),
        games,
        seed: spec.seed,
        win_rate,
        by_type,
        mean_turns: turns as f64 / games as f64,
        captures_per_game: captures as f64 / games as f64,
    })
}

/// Parses a comma-separated seat list (`best,seed-mc,seed-mc,seed-mc`): exactly `players` types.
pub fn parse_seats(text: &str, players: usize) -> Result<Vec<PlayerKind>, AeroError> {
    let kinds: Vec<PlayerKind> = text
        .split(',')
        .map(|s| s.parse())
        .collect::<Result<_, _>>()?;
    if kinds.len() != players {
        return Err(AeroError::BadTournament(format!(
            "{} seat types given for {players} players",
            kinds.len()
        )));
    }
    Ok(kinds)
}
