//! Tournaments: many games between player types with rotating seats, win rates with 95%
//! intervals and mean game length.

use crate::engine::{Player, PlayerKind};
use crate::position::Position;
use crate::rules::{Options, Status};
use qiyi_core::stats::wilson_interval;
use qiyi_core::{Game, Rng};
use serde::Serialize;
use std::collections::BTreeMap;

/// How a tournament is run.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// Game options (players, pieces, rules).
    pub options: Options,
    /// One player type per seat (game `g` rotates them by `g` seats).
    pub seats: Vec<PlayerKind>,
    /// Number of games.
    pub games: usize,
    /// Seed of every random choice (game `g` derives its own streams).
    pub seed: u64,
    /// Level of every player (1-10).
    pub level: u32,
    /// Games played at once (worker threads); 0 uses every core.
    pub threads: usize,
}

/// The result of one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameRecord {
    /// Player type in each seat, in turn order.
    pub seats: Vec<String>,
    /// Winning seat, if the game was won (not stopped by the cap).
    pub winner: Option<usize>,
    /// Seats ranked first (the winner, or the best placed when the cap stopped the game).
    pub first: Vec<usize>,
    /// Moves played (all players).
    pub plies: u32,
}

/// Totals for one player type.
#[derive(Clone, Debug, Serialize)]
pub struct TypeResult {
    /// Seats this type held over all games.
    pub seats: usize,
    /// Games won (a first place shared by `k` seats counts `1/k`).
    pub wins: f64,
    /// Fraction of games won.
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate.
    pub interval: (f64, f64),
    /// The fraction a type of equal strength would win: its seats per game over the players.
    pub fair_share: f64,
}

/// A finished tournament.
#[derive(Clone, Debug, Serialize)]
pub struct TournamentResult {
    /// Number of games.
    pub games: usize,
    /// Players per game.
    pub players: usize,
    /// Results per player type.
    pub by_type: BTreeMap<String, TypeResult>,
    /// Mean moves per game (all players).
    pub mean_plies: f64,
    /// Games stopped by the move cap.
    pub capped: usize,
    /// Every game.
    pub records: Vec<GameRecord>,
}

/// Plays one game between `kinds` (one per seat); `seed` seeds every player.
pub fn play_game(
    options: Options,
    kinds: &[PlayerKind],
    level: u32,
    seed: u64,
) -> (Position, Vec<crate::Move>) {
    let mut pos = Position::start(options).unwrap_or_default();
    let mut players: Vec<Player> = kinds
        .iter()
        .enumerate()
        .map(|(i, &k)| Player::new(k, level, Rng::derive(seed, i as u64).next_u64()))
        .collect();
    let mut history = Vec::new();
    while !pos.is_over() {
        let p = pos.to_move();
        let mv = players[p].choose(&pos);
        history.push(mv);
        pos.make(mv);
    }
    (pos, history)
}

/// Runs a tournament, games in parallel; `on_game` is called after each game.
pub fn run(config: &TournamentConfig, on_game: impl Fn() + Sync + Send) -> TournamentResult {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
    {
        Ok(pool) => pool.install(|| run_here(config, &on_game)),
        Err(_) => run_here(config, &on_game),
    }
}

fn run_here(config: &TournamentConfig, on_game: &(impl Fn() + Sync)) -> TournamentResult {
    use rayon::prelude::*;
    let records: Vec<GameRecord> = (0..config.games)
        .into_par_iter()
        .map(|g| {
            let record = play_indexed(config, g);
            on_game();
            record
        })
        .collect();
    summarize(config, records)
}

/// Plays game `g` of the tournament (seats rotated by `g`, seeded from `config.seed` and `g`):
/// the same game whichever machine or thread plays it, so a tournament can be sharded by index.
pub fn play_indexed(config: &TournamentConfig, g: usize) -> GameRecord {
    let n = config.options.players;
    let kinds: Vec<PlayerKind> = (0..n)
        .map(|s| config.seats[(s + g) % config.seats.len()])
        .collect();
    let seed = Rng::derive(config.seed, g as u64).next_u64();
    let (pos, _) = play_game(config.options, &kinds, config.level, seed);
    let first: Vec<usize> = (0..n)
        .filter(|&p| pos.result(p) >= 1.0 - 1e-9 || is_top(&pos, p))
        .collect();
    GameRecord {
        seats: kinds.iter().map(|k| k.to_string()).collect(),
        winner: pos.winner(),
        first,
        plies: pos.ply(),
    }
}

/// Whether `p` shares the best rank (for games stopped by the cap).
fn is_top(pos: &Position, p: usize) -> bool {
    let n = pos.num_players();
    let best = (0..n)
        .map(|q| pos.result(q))
        .fold(f64::NEG_INFINITY, f64::max);
    (pos.result(p) - best).abs() < 1e-9
}

/// The tournament result of `records` (every game, in index order).
pub fn summarize(config: &TournamentConfig, records: Vec<GameRecord>) -> TournamentResult {
    let n = config.options.players;
    let games = records.len();
    let mut by_type: BTreeMap<String, TypeResult> = BTreeMap::new();
    for kind in &config.seats {
        let name = kind.to_string();
        let seats_per_game = config.seats.iter().filter(|k| *k == kind).count();
        by_type.entry(name).or_insert(TypeResult {
            seats: 0,
            wins: 0.0,
            win_rate: 0.0,
            interval: (0.0, 1.0),
            fair_share: seats_per_game as f64 / n as f64,
        });
    }
    for r in &records {
        for (s, name) in r.seats.iter().enumerate() {
            if let Some(t) = by_type.get_mut(name) {
                t.seats += 1;
                if r.first.contains(&s) {
                    t.wins += 1.0 / r.first.len() as f64;
                }
            }
        }
    }
    for t in by_type.values_mut() {
        if games > 0 {
            t.win_rate = t.wins / games as f64;
            t.interval = wilson_interval(t.wins.round() as u64, games as u64);
        }
    }
    let capped = records.iter().filter(|r| r.winner.is_none()).count();
    let mean_plies = if games > 0 {
        records.iter().map(|r| r.plies as f64).sum::<f64>() / games as f64
    } else {
        0.0
    };
    TournamentResult {
        games,
        players: n,
        by_type,
        mean_plies,
        capped,
        records,
    }
}

impl Status {
    /// True when the game has ended.
    pub fn is_over(self) -> bool {
        self != Status::Ongoing
    }
}
