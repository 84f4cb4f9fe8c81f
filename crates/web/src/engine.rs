//! AI helpers shared by the adapters: what a level means, alpha-beta over core's `Searcher`, and a
//! seeded random mover.

use crate::error::ApiError;
use crate::generic::AiChoice;
use crate::session::{AiRequest, Progress, Seat};
use qiyi_core::search::{SearchInfo, SearchLimits, SearchOptions, Searcher};
use qiyi_core::{Evaluator, Game, Notation, Rng};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The lowest and highest AI level.
pub const LEVELS: std::ops::RangeInclusive<u8> = 1..=10;

/// The AI level used when neither the request nor the seat gives one.
pub const DEFAULT_LEVEL: u8 = 3;

/// The longest an AI search may be given.
pub const MAX_AI_TIME: Duration = Duration::from_secs(30);

/// `level` if it is one of [`LEVELS`], else a 400-class error.
pub fn check_level(level: u8) -> Result<u8, ApiError> {
    if LEVELS.contains(&level) {
        Ok(level)
    } else {
        Err(ApiError::BadRequest(format!(
            "level must be from 1 to 10, not {level}"
        )))
    }
}

/// Seats of a new game from the request (checked against the number of players); by default
/// player 0 is human and the others are AI at `level`.
pub fn seats_for(
    req_seats: Option<Vec<Seat>>,
    game: &str,
    players: usize,
    level: u8,
) -> Result<Vec<Seat>, ApiError> {
    match req_seats {
        Some(seats) => {
            if seats.len() != players {
                return Err(ApiError::BadRequest(format!(
                    "{game} has {players} players but {} seats were given",
                    seats.len()
                )));
            }
            for s in &seats {
                if let Seat::Ai { level } = s {
                    check_level(*level)?;
                }
            }
            Ok(seats)
        }
        None => Ok((0..players)
            .map(|p| {
                if p == 0 {
                    Seat::Human
                } else {
                    Seat::Ai { level }
                }
            })
            .collect()),
    }
}

/// The search a request asks of the player in `seat` at ply `ply` of a game seeded with
/// `game_seed`: level and seed player from the request, else the seat's; time from the request
/// (at most [`MAX_AI_TIME`]), else the level's; the search's seed from the game's seed and the
/// ply, so a game replayed with the same seed gets the same AI moves wherever it runs.
pub fn ai_request(
    seat: &Seat,
    level: Option<u8>,
    time_ms: Option<u64>,
    seed_player: Option<bool>,
    game_seed: u64,
    ply: usize,
) -> Result<AiRequest, ApiError> {
    let (seat_level, seat_seed) = match seat {
        Seat::Ai { level } => (*level, false),
        Seat::Seed => (DEFAULT_LEVEL, true),
        Seat::Human => (DEFAULT_LEVEL, false),
    };
    let level = check_level(level.unwrap_or(seat_level))?;
    let time = match time_ms {
        Some(ms) => Duration::from_millis(ms).min(MAX_AI_TIME),
        None => level_time(level),
    };
    Ok(AiRequest {
        level,
        seed_player: seed_player.unwrap_or(seat_seed),
        time,
        stop: Arc::new(AtomicBool::new(false)),
        seed: game_seed ^ (ply as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
    })
}

/// The default thinking time of a level (level 1: 0.1 s ... level 10: 5 s).
pub fn level_time(level: u8) -> Duration {
    const MS: [u64; 10] = [100, 150, 200, 300, 500, 800, 1200, 2000, 3000, 5000];
    let i = usize::from(level.clamp(1, 10)) - 1;
    Duration::from_millis(MS[i])
}

/// The deepest iteration an alpha-beta player of `level` searches (`None`: only time limits it).
pub fn level_depth(level: u8) -> Option<u32> {
    match level {
        0 | 1 => Some(1),
        2 => Some(2),
        3 => Some(3),
        4 => Some(4),
        5 => Some(6),
        6 => Some(8),
        7 => Some(10),
        _ => None,
    }
}

/// Chooses a move with iterative-deepening alpha-beta (core's `Searcher`, every option on) within
/// the request's time and the level's depth, reporting each completed depth to `progress`.
pub fn alphabeta<G: Notation, E: Evaluator<G>>(
    pos: &G,
    eval: E,
    options: SearchOptions,
    request: &AiRequest,
    progress: &dyn Fn(Progress),
    engine: &str,
) -> Option<AiChoice<G::Move>> {
    let mut searcher = Searcher::new(eval, options);
    let limits = SearchLimits {
        depth: level_depth(request.level),
        move_time: Some(request.time),
        stop: Some(request.stop.clone()),
        ..Default::default()
    };
    let result = searcher.search(pos, &limits, |info| {
        progress(Progress {
            depth: info.depth,
            score: i64::from(info.score),
            nodes: info.stats.nodes,
            pv: crate::generic::pv_text(pos, &info.pv),
        })
    });
    let mv = match result.best_move {
        Some(mv) => mv,
        None => first_legal(pos)?,
    };
    Some(AiChoice {
        mv,
        engine: engine.to_string(),
        depth: result.stats.depth,
        score: i64::from(result.score),
        nodes: result.stats.nodes,
        pv: result.pv,
    })
}

/// Runs a game's own engine (`think` gets the limits and an info callback) and turns its result
/// into an [`AiChoice`]; falls back to the first legal move if the engine returns none.
pub fn think<G: Notation>(
    pos: &G,
    request: &AiRequest,
    progress: &dyn Fn(Progress),
    engine: &str,
    think: impl FnOnce(
        &SearchLimits,
        &mut dyn FnMut(&SearchInfo<G::Move>),
    ) -> qiyi_core::search::SearchResult<G::Move>,
) -> Option<AiChoice<G::Move>> {
    let limits = SearchLimits {
        move_time: Some(request.time),
        stop: Some(request.stop.clone()),
        ..Default::default()
    };
    let mut on_info = |info: &SearchInfo<G::Move>| {
        progress(Progress {
            depth: info.depth,
            score: i64::from(info.score),
            nodes: info.stats.nodes,
            pv: crate::generic::pv_text(pos, &info.pv),
        })
    };
    let result = think(&limits, &mut on_info);
    let mv = match result.best_move {
        Some(mv) => mv,
        None => first_legal(pos)?,
    };
    Some(AiChoice {
        mv,
        engine: engine.to_string(),
        depth: result.stats.depth,
        score: i64::from(result.score),
        nodes: result.stats.nodes,
        pv: result.pv,
    })
}

fn first_legal<G: Game>(pos: &G) -> Option<G::Move> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.first().copied()
}

/// Picks a uniformly random legal move with the request's seed.
pub fn random<G: Game>(pos: &G, request: &AiRequest) -> Option<AiChoice<G::Move>> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        return None;
    }
    let mut rng = Rng::derive(request.seed, pos.hash());
    let mv = moves[rng.below(moves.len())];
    Some(AiChoice {
        mv,
        engine: "random mover".into(),
        depth: 0,
        score: 0,
        nodes: moves.len() as u64,
        pv: vec![mv],
    })
}
