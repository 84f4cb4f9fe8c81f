//! The JSON API (documented in `crates/web/API.md`): create, read, move, AI, undo, solve.

use crate::engine::{level_time, LEVELS};
use crate::error::ApiError;
use crate::games;
use crate::session::{AiAnswer, AiRequest, Progress, Seat, Snapshot, SolveAnswer};
use crate::store::{lock, GameEntry, Handle, Store, Thinking};
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The longest an AI search may be given.
pub const MAX_AI_TIME: Duration = Duration::from_secs(30);
/// The longest a solver may be given.
pub const MAX_SOLVE_TIME: Duration = Duration::from_secs(60);
/// The AI level used when neither the request nor the seat gives one.
pub const DEFAULT_LEVEL: u8 = 3;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The games.
    pub store: Arc<Store>,
    /// Limits how many searches run at once (the rest wait without blocking the runtime).
    pub searches: Arc<Semaphore>,
}

impl AppState {
    /// A state over `store`, running at most `parallel_searches` searches at once.
    pub fn new(store: Store, parallel_searches: usize) -> Self {
        AppState {
            store: Arc::new(store),
            searches: Arc::new(Semaphore::new(parallel_searches.max(1))),
        }
    }
}

/// The API routes, to be nested under `/api`.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/games", get(list_games).post(create_game))
        .route("/games/{id}", get(get_game).delete(delete_game))
        .route("/games/{id}/moves", post(play_move))
        .route("/games/{id}/ai", post(ai_move))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/solve", post(solve))
        .route("/games/{id}/position", post(set_position))
        .fallback(|| async { ApiError::NotFound("no such API endpoint".into()) })
}

/// Parses a request body; an empty body reads as `{}`.
fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    let text: &[u8] = if body.iter().all(|b| b.is_ascii_whitespace()) {
        b"{}"
    } else {
        body
    };
    let value: Value = serde_json::from_slice(text)
        .map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))?;
    if !value.is_object() {
        return Err(ApiError::BadRequest(
            "bad JSON body: expected a JSON object".into(),
        ));
    }
    serde_json::from_value(value).map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
}

/// `POST /api/games` body.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// Game name (see `GET /api/games`).
    pub game: String,
    /// One seat per player; default: player 0 human, the others AI at `level`.
    #[serde(default)]
    pub seats: Option<Vec<Seat>>,
    /// Default AI level for AI seats and hints (1-10).
    #[serde(default)]
    pub level: Option<u8>,
    /// Rule options (see the catalog).
    #[serde(default)]
    pub rules: Value,
    /// Seed for dice and AI randomness.
    #[serde(default)]
    pub seed: Option<u64>,
    /// Start position in the game's notation (FEN...).
    #[serde(default)]
    pub position: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct AiBody {
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    time_ms: Option<u64>,
    #[serde(default)]
    play: Option<bool>,
    #[serde(default)]
    seed_player: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct UndoBody {
    #[serde(default)]
    plies: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveBody {
    #[serde(default)]
    time_ms: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionBody {
    position: String,
}

/// A game as `GET /api/games/{id}` returns it.
#[derive(Serialize)]
struct GameView {
    id: String,
    seats: Vec<Seat>,
    seed: u64,
    ply: usize,
    thinking: Option<Progress>,
    #[serde(flatten)]
    snapshot: Snapshot,
}

fn view(id: &str, entry: &GameEntry) -> GameView {
    GameView {
        id: id.to_string(),
        seats: entry.seats.clone(),
        seed: entry.seed,
        ply: entry.session.ply(),
        thinking: entry.thinking.as_ref().map(|t| lock(&t.progress).clone()),
        snapshot: entry.session.snapshot(),
    }
}

fn check_level(level: u8) -> Result<u8, ApiError> {
    if LEVELS.contains(&level) {
        Ok(level)
    } else {
        Err(ApiError::BadRequest(format!(
            "level must be from 1 to 10, not {level}"
        )))
    }
}

async fn list_games() -> Json<Value> {
    Json(json!({ "games": games::catalog() }))
}

async fn create_game(
    State(app): State<AppState>,
    body: Bytes,
) -> Result<impl IntoResponse, ApiError> {
    let req: CreateGame = parse_body(&body)?;
    let level = check_level(req.level.unwrap_or(DEFAULT_LEVEL))?;
    let seed = req.seed.unwrap_or(1);
    let session = games::create(&req.game, &req.rules, req.position.as_deref(), seed)?;
    let players = session.snapshot().players;
    let seats = match req.seats {
        Some(seats) => {
            if seats.len() != players {
                return Err(ApiError::BadRequest(format!(
                    "{} has {players} players but {} seats were given",
                    req.game,
                    seats.len()
                )));
            }
            for s in &seats {
                if let Seat::Ai { level } = s {
                    check_level(*level)?;
                }
            }
            seats
        }
        None => (0..players)
            .map(|p| {
                if p == 0 {
                    Seat::Human
                } else {
                    Seat::Ai { level }
                }
            })
            .collect(),
    };
    let entry = GameEntry {
        session,
        seats,
        seed,
        last_used: Instant::now(),
        thinking: None,
    };
    let state = view("", &entry);
    let id = app.store.insert(entry)?;
    let state = GameView {
        id: id.clone(),
        ..state
    };
    Ok((
        StatusCode::CREATED,
        Json(json!({ "id": id, "state": state })),
    ))
}

fn state_of(id: &str, handle: &Handle) -> Json<Value> {
    let entry = lock(handle);
    Json(json!(view(id, &entry)))
}

async fn get_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let handle = app.store.get(&id)?;
    Ok(state_of(&id, &handle))
}

async fn delete_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    if app.store.remove(&id) {
        Ok(Json(json!({ "deleted": id })))
    } else {
        Err(ApiError::NotFound(id))
    }
}

fn not_thinking(entry: &GameEntry) -> Result<(), ApiError> {
    if entry.thinking.is_some() {
        Err(ApiError::Conflict(
            "the AI is thinking in this game; wait for its answer".into(),
        ))
    } else {
        Ok(())
    }
}

async fn play_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: MoveBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    not_thinking(&entry)?;
    entry.session.play(&req.mv)?;
    Ok(Json(json!(view(&id, &entry))))
}

async fn undo(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: UndoBody = parse_body(&body)?;
    let plies = req.plies.unwrap_or(1);
    if plies == 0 || plies > 10_000 {
        return Err(ApiError::BadRequest("plies must be from 1 to 10000".into()));
    }
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    not_thinking(&entry)?;
    // All or nothing: check there are enough moves before taking any back.
    let mut probe_ok = true;
    {
        let snapshot_moves = entry
            .session
            .snapshot()
            .history
            .iter()
            .filter(|h| h.player.is_some())
            .count();
        if snapshot_moves < plies {
            probe_ok = false;
        }
    }
    if !probe_ok {
        return Err(ApiError::Conflict(format!(
            "cannot take back {plies} move(s): not enough moves played"
        )));
    }
    for _ in 0..plies {
        entry.session.undo()?;
    }
    Ok(Json(json!(view(&id, &entry))))
}

async fn set_position(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: PositionBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    not_thinking(&entry)?;
    entry.session.set_position(&req.position)?;
    Ok(Json(json!(view(&id, &entry))))
}

/// Clears the "thinking" mark when the search ends, however it ends.
struct ThinkingGuard(Handle);

impl Drop for ThinkingGuard {
    fn drop(&mut self) {
        lock(&self.0).thinking = None;
    }
}

async fn ai_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: AiBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let play = req.play.unwrap_or(true);
    let (task, progress, start_ply, time) = {
        let mut entry = lock(&handle);
        not_thinking(&entry)?;
        let player = entry.session.player_to_move().ok_or_else(|| {
            ApiError::Conflict("the game is over: there is no move to choose".into())
        })?;
        let seat = entry.seats.get(player).cloned().unwrap_or(Seat::Human);
        let (seat_level, seat_seed) = match seat {
            Seat::Ai { level } => (level, false),
            Seat::Seed => (DEFAULT_LEVEL, true),
            Seat::Human => (DEFAULT_LEVEL, false),
        };
        let level = check_level(req.level.unwrap_or(seat_level))?;
        let time = match req.time_ms {
            Some(ms) => Duration::from_millis(ms).min(MAX_AI_TIME),
            None => level_time(level),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let request = AiRequest {
            level,
            seed_player: req.seed_player.unwrap_or(seat_seed),
            time,
            stop: stop.clone(),
            seed: entry.seed ^ (entry.session.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        };
        let task = entry.session.ai_task(request)?;
        let progress = Arc::new(Mutex::new(Progress::default()));
        let start_ply = entry.session.ply();
        entry.thinking = Some(Thinking {
            progress: progress.clone(),
            stop,
            ply: start_ply,
        });
        (task, progress, start_ply, time)
    };
    let guard = ThinkingGuard(handle.clone());
    let _permit = app
        .searches
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Internal("the server is shutting down".into()))?;
    let sink = progress.clone();
    let job = tokio::task::spawn_blocking(move || task(&move |p| *lock(&sink) = p));
    // The search stops itself at its time limit; the outer timeout only guards against a player
    // that ignores it.
    let answer: AiAnswer = match tokio::time::timeout(time + Duration::from_secs(10), job).await {
        Ok(Ok(result)) => result?,
        Ok(Err(e)) => return Err(ApiError::Internal(format!("the search failed: {e}"))),
        Err(_) => {
            if let Some(t) = &lock(&handle).thinking {
                t.stop.store(true, std::sync::atomic::Ordering::Relaxed);
            }
            return Err(ApiError::Internal("the search overran its time".into()));
        }
    };
    drop(guard);
    let mut entry = lock(&handle);
    if play {
        if entry.session.ply() != start_ply {
            return Err(ApiError::Conflict(
                "the game changed during the search".into(),
            ));
        }
        entry.session.play(&answer.mv)?;
    }
    Ok(Json(
        json!({ "ai": answer, "played": play, "state": view(&id, &entry) }),
    ))
}

async fn solve(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: SolveBody = parse_body(&body)?;
    let budget = req
        .time_ms
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(10))
        .min(MAX_SOLVE_TIME);
    let handle = app.store.get(&id)?;
    let task = {
        let entry = lock(&handle);
        not_thinking(&entry)?;
        entry.session.solve_task(budget)?
    };
    let _permit = app
        .searches
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Internal("the server is shutting down".into()))?;
    let answer: SolveAnswer = tokio::task::spawn_blocking(task)
        .await
        .map_err(|e| ApiError::Internal(format!("the solver failed: {e}")))??;
    let entry = lock(&handle);
    Ok(Json(json!({ "solve": answer, "state": view(&id, &entry) })))
}
