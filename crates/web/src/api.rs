//! The JSON API (documented in `crates/web/API.md`): create, read, move, AI, undo, solve, resign,
//! draw, live events, archive, export and import, reviews and the analysis board's stream.
//!
//! Every change of a game is committed to the database before the answer is sent
//! ([`Store::commit`]); a request that acts for a seat must carry that seat's token
//! ([`crate::tokens`]).

use crate::engine::{ai_request, check_level, seats_for};
use crate::error::ApiError;
use crate::games;
use crate::record;
use crate::resign;
use crate::session::{AiAnswer, AiBody, AiTask, GameResult, Progress, Seat, Snapshot, SolveAnswer};
use crate::store::{lock, GameEntry, Handle, NewGame, Store, Thinking};
use crate::tokens::{self, Grant};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

pub use crate::engine::{DEFAULT_LEVEL, MAX_AI_TIME};
/// The longest a solver may be given.
pub const MAX_SOLVE_TIME: Duration = Duration::from_secs(60);
/// Games per page of `GET /api/games?page=N`.
pub const PAGE_SIZE: usize = 20;

/// Limits of the server as a host.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest request body, in bytes (larger: 413).
    pub max_body: usize,
    /// Most live connections (event streams) open at once (more: 503).
    pub max_live: usize,
    /// Games one client address may create per minute (`None`: no limit; more: 429).
    pub games_per_minute: Option<u32>,
    /// Game reviews running and waiting at once (more: 503).
    pub reviews: crate::review::ReviewLimits,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_body: 256 * 1024,
            max_live: 2000,
            games_per_minute: None,
            reviews: crate::review::ReviewLimits::default(),
        }
    }
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The games.
    pub store: Arc<Store>,
    /// Limits how many searches run at once (the rest wait without blocking the runtime).
    pub searches: Arc<Semaphore>,
    /// One permit per open live connection.
    pub live: Arc<Semaphore>,
    /// Raised at shutdown: live streams end, AI seats stop.
    pub shutdown: tokio::sync::watch::Sender<bool>,
    /// Game reviews queued, running and finished ([`crate::review`]).
    pub reviews: Arc<crate::review::Reviews>,
    /// Analyses of the analysis board running now ([`crate::analysis_http`]).
    pub analyses: Arc<crate::analysis_http::Analyses>,
    /// Host limits.
    pub limits: Limits,
}

impl AppState {
    /// A state over `store`, running at most `parallel_searches` searches at once, with the
    /// default limits.
    pub fn new(store: Store, parallel_searches: usize) -> Self {
        AppState::with_limits(store, parallel_searches, Limits::default())
    }

    /// A state with explicit host limits.
    pub fn with_limits(store: Store, parallel_searches: usize, limits: Limits) -> Self {
        AppState {
            store: Arc::new(store),
            searches: Arc::new(Semaphore::new(parallel_searches.max(1))),
            live: Arc::new(Semaphore::new(limits.max_live)),
            shutdown: tokio::sync::watch::channel(false).0,
            reviews: Arc::new(crate::review::Reviews::new(limits.reviews.clone())),
            analyses: Arc::new(crate::analysis_http::Analyses::new(
                crate::analysis_http::AnalysisLimits::default(),
            )),
            limits,
        }
    }

    /// This state with other limits for the analysis board (how many run at once, for how
    /// long).
    pub fn with_analysis_limits(mut self, limits: crate::analysis_http::AnalysisLimits) -> Self {
        self.analyses = Arc::new(crate::analysis_http::Analyses::new(limits));
        self
    }

    /// Ends live streams and searches (the server is stopping).
    pub fn begin_shutdown(&self) {
        self.shutdown.send_replace(true);
        self.store.stop_all();
        self.reviews.cancel_all();
    }

    /// Starts the AI seats of every stored game still being played whose turn is an AI's
    /// (after a restart).
    pub fn resume_ai_seats(&self) -> Result<usize, ApiError> {
        let ids = self.store.db().playing()?;
        let mut n = 0;
        for id in ids {
            if let Ok(handle) = self.store.get(&id) {
                if crate::live::drive_ai(self, &handle) {
                    n += 1;
                }
            }
        }
        Ok(n)
    }
}

/// The API routes, to be nested under `/api`.
pub fn routes(state: &AppState) -> Router<AppState> {
    let create = crate::host::rate_limited(post(create_game), state.limits.games_per_minute);
    Router::new()
        .route("/openapi.json", get(openapi))
        .route("/games", get(list_games).merge(create))
        .route("/games/import", post(import_game))
        .route("/games/{id}", get(get_game).delete(delete_game))
        .route("/games/{id}/moves", post(play_move))
        .route("/games/{id}/ai", post(ai_move))
        .route("/games/{id}/undo", post(undo))
        .route("/games/{id}/solve", post(solve))
        .route("/games/{id}/position", post(set_position))
        .route("/games/{id}/resign", post(resign))
        .route("/games/{id}/draw", post(draw))
        .route("/games/{id}/events", get(crate::live::events))
        .route("/games/{id}/export", get(export_game))
        .route("/analyse", get(crate::analysis_http::analyse))
        .route(
            "/games/{id}/review",
            get(crate::review::get_review)
                .post(crate::review::start_review)
                .delete(crate::review::cancel_review),
        )
        .fallback(|| async { ApiError::NotFound("no such API endpoint".into()) })
}

/// The OpenAPI 3 document of every `/api` route (`crates/web/openapi.json`), served at
/// `GET /api/openapi.json`. A test (`tests/openapi.rs`) checks that every route of [`routes`] is
/// in it and that every operation in it reaches a handler.
pub const OPENAPI: &str = include_str!("../openapi.json");

/// `GET /api/openapi.json`.
async fn openapi() -> Response {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

/// The JSON text a request body stands for: an empty (or all-whitespace) body is `{}`, so every
/// field takes its default.
pub fn body_json_text(body: &[u8]) -> &[u8] {
    if body.trim_ascii().is_empty() {
        b"{}"
    } else {
        body
    }
}

/// Parses a request body; an empty body reads as `{}` ([`body_json_text`]).
pub fn parse_body<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    let value: Value = serde_json::from_slice(body_json_text(body))
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
    /// One browser plays every human seat with one token (and asks for the AI's moves itself);
    /// default false: one secret link per human seat, AI seats moved by the server.
    #[serde(default)]
    pub hotseat: Option<bool>,
    /// A throw-away game (the analysis board's tried moves): stored like any other, but left out
    /// of `GET /api/games` and deleted a day after its last change. Default false.
    #[serde(default)]
    pub scratch: Option<bool>,
    /// A Fischer clock for a two-player game (`{"base_ms": 300000, "increment_ms": 3000}`).
    #[serde(default)]
    pub clock: Option<crate::clock::ClockSetting>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    #[serde(rename = "move")]
    mv: String,
    /// The ply the client saw when it chose the move; a stale request (the game moved on) is
    /// refused with 409.
    #[serde(default)]
    ply: Option<usize>,
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

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SideBody {
    /// Which player (hot-seat tokens only; a seat token acts for its own seat).
    #[serde(default)]
    player: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct DrawBody {
    #[serde(default)]
    player: Option<usize>,
    /// `"offer"` (default; accepts a pending offer of the other side) or `"decline"`.
    #[serde(default)]
    action: Option<String>,
}

/// A game as `GET /api/games/{id}` returns it.
#[derive(Serialize)]
pub struct GameView {
    id: String,
    seats: Vec<Seat>,
    seed: u64,
    ply: usize,
    /// Grows with every change of the game: a page keeps the newest state it was sent.
    version: u64,
    hotseat: bool,
    draw_offer: Option<usize>,
    /// Seats that resigned from a game of more than two players (the server plays their turns).
    resigned: Vec<usize>,
    thinking: Option<Progress>,
    clock: Option<crate::clock::ClockView>,
    #[serde(flatten)]
    snapshot: Snapshot,
}

/// The view of a game the API answers with (a decided end overrides the rules' state).
pub fn view(entry: &GameEntry) -> GameView {
    let mut snapshot = entry.session.snapshot();
    if let Some(r) = &entry.ended {
        snapshot.result = Some(r.clone());
        snapshot.turn = crate::session::TurnView::Over;
        snapshot.legal.clear();
    } else if let Some(r) = snapshot.result.take() {
        snapshot.result = Some(resign::rank_resigned(r, &entry.resigned));
    }
    GameView {
        id: entry.id.clone(),
        seats: entry.seats.clone(),
        seed: entry.seed,
        ply: entry.session.ply(),
        version: *entry.changes.borrow(),
        hotseat: entry.hotseat,
        draw_offer: entry.draw_offer,
        resigned: entry.resigned.iter().map(|r| r.player).collect(),
        clock: entry.clock.as_ref().map(|c| c.view(entry.to_move())),
        thinking: entry.thinking.as_ref().map(|t| lock(&t.progress).clone()),
        snapshot,
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ListQuery {
    #[serde(default)]
    page: Option<usize>,
}

/// `GET /api/games`: the catalog; `GET /api/games?page=N`: the stored games, newest first.
async fn list_games(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    match query.page {
        None => Ok(Json(json!({ "games": games::catalog() }))),
        Some(page) => {
            if page == 0 || page > 1_000_000 {
                return Err(ApiError::BadRequest("page must be from 1".into()));
            }
            let (list, total) = app.store.db().list(page, PAGE_SIZE)?;
            Ok(Json(json!({
                "games": list,
                "page": page,
                "per_page": PAGE_SIZE,
                "total": total,
            })))
        }
    }
}

/// Stores a new game and answers `201` with its id, state, tokens and links.
pub fn start_game(app: &AppState, new: NewGame) -> Result<Response, ApiError> {
    let game = new.session.game();
    let created = app.store.insert(new)?;
    let base = format!("/play/{game}?id={}", created.id);
    // The token rides in the fragment, which browsers never send to a server.
    let links: Vec<Option<String>> = created
        .seat_tokens
        .iter()
        .enumerate()
        .map(|(p, t)| t.as_ref().map(|t| format!("{base}&seat={p}#token={t}")))
        .collect();
    let state = view(&lock(&created.handle));
    crate::live::drive_ai(app, &created.handle);
    let mut answer = json!({
        "id": created.id,
        "state": state,
        "seat_tokens": created.seat_tokens,
        "links": { "seats": links, "watch": base },
    });
    if let Some(token) = created.hotseat_token {
        answer["hotseat_token"] = json!(token);
    }
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

async fn create_game(State(app): State<AppState>, body: Bytes) -> Result<Response, ApiError> {
    let req: CreateGame = parse_body(&body)?;
    let level = check_level(req.level.unwrap_or(DEFAULT_LEVEL))?;
    let seed = req.seed.unwrap_or(1);
    let session = games::create(&req.game, &req.rules, req.position.as_deref(), seed)?;
    let players = session.snapshot().players;
    let seats = seats_for(req.seats, &req.game, players, level)?;
    let rules = if req.rules.is_null() {
        json!({})
    } else {
        req.rules
    };
    if let Some(c) = &req.clock {
        c.check().map_err(ApiError::BadRequest)?;
        if players != 2 {
            return Err(ApiError::BadRequest(
                "clocks are for two-player games".into(),
            ));
        }
    }
    start_game(
        &app,
        NewGame {
            session,
            seats,
            seed,
            rules,
            position: req.position,
            hotseat: req.hotseat.unwrap_or(false),
            scratch: req.scratch.unwrap_or(false),
            clock: req.clock,
        },
    )
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GetQuery {
    /// Show the position after this many plies (replay); default: now.
    #[serde(default)]
    ply: Option<usize>,
}

async fn get_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<GetQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<GameView>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let handle = app.store.get(&id)?;
    let entry = lock(&handle);
    match query.ply {
        Some(n) if n < entry.session.ply() => Ok(Json(replay_view(&entry, n)?)),
        _ => Ok(Json(view(&entry))),
    }
}

/// The game as it stood after `n` plies (replaying its record from the start; die rolls that
/// follow a move come with it).
fn replay_view(entry: &GameEntry, n: usize) -> Result<GameView, ApiError> {
    let session = games::replay(
        entry.session.game(),
        &entry.rules,
        entry.position.as_deref(),
        entry.seed,
        &entry.session.history_from(0),
        n,
    )?;
    Ok(GameView {
        id: entry.id.clone(),
        seats: entry.seats.clone(),
        seed: entry.seed,
        ply: session.ply(),
        version: *entry.changes.borrow(),
        hotseat: entry.hotseat,
        draw_offer: None,
        resigned: resign::resigned_by(&entry.resigned, session.ply()),
        clock: None,
        thinking: None,
        snapshot: session.snapshot(),
    })
}

/// The seat token's grant in this game (403 unless it is one of the game's tokens).
fn grant_of(entry: &GameEntry, headers: &HeaderMap) -> Result<Grant, ApiError> {
    tokens::grant(headers, &entry.tokens)
}

/// Requires a token that acts for every human seat (hot-seat, or the only human): undo, paste,
/// solve and delete change the game for everyone.
fn require_all_seats(entry: &GameEntry, headers: &HeaderMap, what: &str) -> Result<(), ApiError> {
    let grant = grant_of(entry, headers)?;
    let all = (0..entry.seats.len())
        .filter(|&p| entry.seats[p] == Seat::Human)
        .all(|p| grant.covers(p));
    if all {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!(
            "{what} changes the game for every player; only a game's single human or its hot-seat link may do it"
        )))
    }
}

fn require_turn(entry: &GameEntry, headers: &HeaderMap) -> Result<usize, ApiError> {
    let grant = grant_of(entry, headers)?;
    let player = entry
        .to_move()
        .ok_or_else(|| ApiError::Conflict("the game is over: there is no move to choose".into()))?;
    if !grant.covers(player) {
        return Err(ApiError::Forbidden(format!(
            "it is {}'s turn and this token does not hold that seat",
            player_name(entry, player)
        )));
    }
    Ok(player)
}

fn player_name(entry: &GameEntry, player: usize) -> String {
    entry
        .session
        .snapshot()
        .player_names
        .get(player)
        .cloned()
        .unwrap_or_else(|| format!("player {}", player + 1))
}

async fn delete_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<Value>, ApiError> {
    let handle = app.store.get(&id)?;
    require_all_seats(&lock(&handle), &headers, "deleting")?;
    if app.store.remove(&id)? {
        app.reviews.cancel(&id);
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

/// Plays `mv` for the side to move, charges its clock, plays the turns of resigned seats that
/// follow, and commits (a move made after the
/// mover's flag fell is void: the game ends on time instead, and 409 says so).
pub(crate) fn play_and_commit(
    app: &AppState,
    entry: &mut GameEntry,
    mv: &str,
) -> Result<(), ApiError> {
    let before = entry.session.ply();
    let mover = entry.to_move();
    entry.session.play(mv)?;
    entry.draw_offer = None;
    if let (Some(clock), Some(p)) = (entry.clock.as_mut(), mover) {
        if !clock.charge(p) {
            entry.session.undo()?;
            flag(entry, p);
            app.store.commit(entry, before)?;
            return Err(ApiError::Conflict(
                "time is up: the move came after the flag fell".into(),
            ));
        }
    }
    resign::play_resigned_turns(entry)?;
    app.store.commit(entry, before)
}

/// Ends the game on time: `p`'s flag fell.
pub(crate) fn flag(entry: &mut GameEntry, p: usize) {
    let snapshot = entry.session.snapshot();
    entry.ended = Some(crate::clock::flag_result(
        snapshot.game,
        &snapshot.position,
        p,
        &snapshot.player_names,
    ));
    if let Some(c) = entry.clock.as_mut() {
        if let Some(r) = c.remaining.get_mut(p) {
            *r = 0;
        }
    }
    stop_search(entry);
}

async fn play_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: MoveBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let state = {
        let mut entry = lock(&handle);
        require_turn(&entry, &headers)?;
        not_thinking(&entry)?;
        if let Some(ply) = req.ply {
            if ply != entry.session.ply() {
                return Err(ApiError::Conflict(format!(
                    "stale move: it was chosen at ply {ply} but the game is at ply {}",
                    entry.session.ply()
                )));
            }
        }
        play_and_commit(&app, &mut entry, &req.mv)?;
        view(&entry)
    };
    crate::live::drive_ai(&app, &handle);
    Ok(Json(state))
}

async fn undo(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: UndoBody = parse_body(&body)?;
    let plies = req.plies.unwrap_or(1);
    if plies == 0 || plies > 10_000 {
        return Err(ApiError::BadRequest("plies must be from 1 to 10000".into()));
    }
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    require_all_seats(&entry, &headers, "undo")?;
    not_thinking(&entry)?;
    // All or nothing: check there are enough moves before taking any back. The server's moves
    // for resigned seats go back with the move before them.
    let undos = resign::undo_count(&entry.session.history_from(0), &entry.resigned, plies)
        .ok_or_else(|| {
            ApiError::Conflict(format!(
                "cannot take back {plies} move(s): not enough moves played"
            ))
        })?;
    for _ in 0..undos {
        entry.session.undo()?;
    }
    entry.ended = None;
    entry.draw_offer = None;
    // Resignations made after the ply the game returns to are taken back too.
    let keep = entry.session.ply();
    entry.resigned.retain(|r| r.ply <= keep);
    resign::play_resigned_turns(&mut entry)?;
    app.store.commit(&mut entry, keep)?;
    Ok(Json(view(&entry)))
}

async fn set_position(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: PositionBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let state = {
        let mut entry = lock(&handle);
        require_all_seats(&entry, &headers, "pasting a position")?;
        not_thinking(&entry)?;
        entry.session.set_position(&req.position)?;
        entry.ended = None;
        entry.draw_offer = None;
        app.store.commit_position(&mut entry, &req.position)?;
        view(&entry)
    };
    crate::live::drive_ai(&app, &handle);
    Ok(Json(state))
}

/// The two-player result where `winner` wins, for `reason`.
fn decided(
    entry: &GameEntry,
    winner: Option<usize>,
    reason: String,
) -> Result<GameResult, ApiError> {
    if entry.seats.len() != 2 {
        return Err(ApiError::NotSupported(
            "resigning and draws are for two-player games".into(),
        ));
    }
    let returns = (0..2)
        .map(|p| match winner {
            None => 0.0,
            Some(w) if w == p => 1.0,
            Some(_) => -1.0,
        })
        .collect();
    Ok(GameResult {
        returns,
        winner,
        reason,
    })
}

/// The player a resign/draw request acts for: a seat token's own seat, or (hot-seat) the given
/// player, else the player to move.
fn acting_player(
    entry: &GameEntry,
    headers: &HeaderMap,
    player: Option<usize>,
) -> Result<usize, ApiError> {
    let grant = grant_of(entry, headers)?;
    let p = match (grant, player) {
        (Grant::Seat(s), None) => s,
        (_, Some(p)) => p,
        (Grant::Every, None) => entry.to_move().unwrap_or(0),
    };
    if p >= entry.seats.len() || !grant.covers(p) {
        return Err(ApiError::Forbidden(format!(
            "this token does not hold seat {p}"
        )));
    }
    Ok(p)
}

async fn resign(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: SideBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    let p = acting_player(&entry, &headers, req.player)?;
    if entry.to_move().is_none() {
        return Err(ApiError::Conflict("the game is over".into()));
    }
    let keep = entry.session.ply();
    if entry.seats.len() > 2 {
        // The seat drops out; the others play on (see `crate::resign`). A search for its turn
        // (a hint) is stopped: the server now plays that turn.
        if entry.to_move() == Some(p) {
            stop_search(&entry);
        }
        resign::resign_seat(&mut entry, p)?;
        if entry.ended.is_some() {
            stop_search(&entry);
        }
    } else {
        let reason = format!("{} resigned", player_name(&entry, p));
        entry.ended = Some(decided(&entry, Some(1 - p), reason)?);
        stop_search(&entry);
    }
    app.store.commit(&mut entry, keep)?;
    let state = view(&entry);
    drop(entry);
    crate::live::drive_ai(&app, &handle);
    Ok(Json(state))
}

async fn draw(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: DrawBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    let p = acting_player(&entry, &headers, req.player)?;
    if entry.to_move().is_none() {
        return Err(ApiError::Conflict("the game is over".into()));
    }
    decided(&entry, None, String::new())?;
    let other = 1 - p;
    let grant = grant_of(&entry, &headers)?;
    match req.action.as_deref().unwrap_or("offer") {
        "offer" | "accept" => {
            // Both sides agree when the other side offered, when the other side is an AI (it
            // accepts) or when one browser holds both seats.
            let agreed = entry.draw_offer == Some(other)
                || entry.seats[other] != Seat::Human
                || grant.covers(other);
            if agreed {
                entry.ended = Some(decided(&entry, None, "draw agreed".into())?);
                entry.draw_offer = None;
                stop_search(&entry);
            } else {
                entry.draw_offer = Some(p);
            }
        }
        "decline" => {
            if entry.draw_offer == Some(other) {
                entry.draw_offer = None;
            } else {
                return Err(ApiError::Conflict(
                    "there is no draw offer to decline".into(),
                ));
            }
        }
        other => {
            return Err(ApiError::BadRequest(format!(
                "action must be offer, accept or decline, not '{other}'"
            )))
        }
    }
    let keep = entry.session.ply();
    app.store.commit(&mut entry, keep)?;
    Ok(Json(view(&entry)))
}

fn stop_search(entry: &GameEntry) {
    if let Some(t) = &entry.thinking {
        t.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// Clears the "thinking" mark when the search ends, however it ends.
pub struct ThinkingGuard(pub Handle);

impl Drop for ThinkingGuard {
    fn drop(&mut self) {
        let mut e = lock(&self.0);
        e.thinking = None;
        e.notify();
    }
}

/// A search prepared on a game: the task, where it reports, and when it started.
pub struct PreparedSearch {
    /// The search.
    pub task: AiTask,
    /// Its progress (shown while it runs).
    pub progress: Arc<Mutex<Progress>>,
    /// The ply it searches from.
    pub start_ply: usize,
    /// Its time budget.
    pub time: Duration,
}

/// Prepares a search for the side to move and marks the game as thinking.
pub fn prepare_search(
    entry: &mut GameEntry,
    level: Option<u8>,
    time_ms: Option<u64>,
    seed_player: Option<bool>,
) -> Result<PreparedSearch, ApiError> {
    not_thinking(entry)?;
    let player = entry
        .to_move()
        .ok_or_else(|| ApiError::Conflict("the game is over: there is no move to choose".into()))?;
    let seat = entry.seats.get(player).cloned().unwrap_or(Seat::Human);
    let request = ai_request(
        &seat,
        level,
        time_ms,
        seed_player,
        entry.seed,
        entry.session.ply(),
    )?;
    let stop = request.stop.clone();
    let time = request.time;
    let task = entry.session.ai_task(request)?;
    let progress = Arc::new(Mutex::new(Progress::default()));
    let start_ply = entry.session.ply();
    entry.thinking = Some(Thinking {
        progress: progress.clone(),
        stop,
        ply: start_ply,
    });
    entry.notify();
    Ok(PreparedSearch {
        task,
        progress,
        start_ply,
        time,
    })
}

/// Runs a prepared search on a blocking thread (waiting for a search slot first), reporting its
/// progress to the game's live pages; clears the thinking mark when done.
pub async fn run_search(
    app: &AppState,
    handle: &Handle,
    search: PreparedSearch,
) -> Result<AiAnswer, ApiError> {
    let guard = ThinkingGuard(handle.clone());
    let _permit = app
        .searches
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Unavailable("the server is shutting down".into()))?;
    let sink = search.progress.clone();
    let changes = lock(handle).changes.clone();
    let task = search.task;
    let job = tokio::task::spawn_blocking(move || {
        task(&move |p| {
            *lock(&sink) = p;
            changes.send_modify(|v| *v = v.wrapping_add(1));
        })
    });
    // The search stops itself at its time limit; the outer timeout only guards against a player
    // that ignores it, or a machine too loaded to run it.
    let answer = await_search(job, search.time + OVERRUN_GRACE, STOP_GRACE, || {
        stop_search(&lock(handle))
    })
    .await??;
    drop(guard);
    Ok(answer)
}

/// How long past its time a search may run before it is told to stop.
const OVERRUN_GRACE: Duration = Duration::from_secs(10);
/// How long a search told to stop has to answer with its best move so far.
const STOP_GRACE: Duration = Duration::from_secs(5);

/// Waits for a search `job` for `limit`; past it, calls `stop` (the search then answers with
/// its best move so far) and waits `grace` more. A search that still has not answered means the
/// machine is too loaded to run it: `503 unavailable`, never a 500 (the soak, under a load
/// average of 20, once saw `500 the search overran its time` here).
pub async fn await_search<T>(
    mut job: tokio::task::JoinHandle<T>,
    limit: Duration,
    grace: Duration,
    stop: impl FnOnce(),
) -> Result<T, ApiError> {
    let failed = |e: tokio::task::JoinError| ApiError::Internal(format!("the search failed: {e}"));
    match tokio::time::timeout(limit, &mut job).await {
        Ok(done) => return done.map_err(failed),
        Err(_) => stop(),
    }
    match tokio::time::timeout(grace, job).await {
        Ok(done) => done.map_err(failed),
        Err(_) => Err(ApiError::Unavailable(
            "the server is too loaded: the search did not stop in time; try again".into(),
        )),
    }
}

async fn ai_move(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let req: AiBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let play = req.play.unwrap_or(true);
    let search = {
        let mut entry = lock(&handle);
        require_turn(&entry, &headers)?;
        if play && entry.server_drives_ai() {
            let p = entry.to_move().unwrap_or(0);
            if entry.seats.get(p) != Some(&Seat::Human) {
                return Err(ApiError::Conflict(
                    "the server plays the AI seats of this game by itself".into(),
                ));
            }
        }
        prepare_search(&mut entry, req.level, req.time_ms, req.seed_player)?
    };
    let start_ply = search.start_ply;
    let answer = run_search(&app, &handle, search).await?;
    let state = {
        let mut entry = lock(&handle);
        if play {
            if entry.session.ply() != start_ply || entry.to_move().is_none() {
                return Err(ApiError::Conflict(
                    "the game changed during the search".into(),
                ));
            }
            play_and_commit(&app, &mut entry, &answer.mv)?;
        }
        view(&entry)
    };
    if play {
        crate::live::drive_ai(&app, &handle);
    }
    Ok(Json(
        json!({ "ai": answer, "played": play, "state": state }),
    ))
}

async fn solve(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
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
        require_all_seats(&entry, &headers, "solving")?;
        not_thinking(&entry)?;
        entry.session.solve_task(budget)?
    };
    let _permit = app
        .searches
        .clone()
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Unavailable("the server is shutting down".into()))?;
    let answer: SolveAnswer = tokio::task::spawn_blocking(task)
        .await
        .map_err(|e| ApiError::Internal(format!("the solver failed: {e}")))??;
    let entry = lock(&handle);
    Ok(Json(json!({ "solve": answer, "state": view(&entry) })))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExportQuery {
    /// `iccs` (default) or `wxf` for Xiangqi moves.
    #[serde(default)]
    moves: Option<String>,
}

/// `GET /api/games/{id}/export`: the record in the game's format (PGN, PDN or JSON).
async fn export_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    // Checked for every game, not only Xiangqi (where it is used): a bad value is a bad request
    // whatever the game (schemathesis found `?moves=garbage` accepted for other games).
    if let Some(m) = query.moves.as_deref() {
        if m != "iccs" && m != "wxf" {
            return Err(ApiError::BadRequest(format!(
                "moves must be iccs or wxf, not '{m}'"
            )));
        }
    }
    let handle = app.store.get(&id)?;
    let exported = {
        let entry = lock(&handle);
        record::export(&entry, query.moves.as_deref())?
    };
    Ok((
        [
            (header::CONTENT_TYPE, exported.content_type),
            (
                header::CONTENT_DISPOSITION,
                &format!("attachment; filename=\"qiyi-{id}.{}\"", exported.extension),
            ),
        ],
        exported.text,
    )
        .into_response())
}

/// `POST /api/games/import`: a record (PGN, PDN or JSON) becomes a hot-seat game to review.
async fn import_game(State(app): State<AppState>, body: Bytes) -> Result<Response, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the record is not UTF-8 text".into()))?;
    let new = record::import(text)?;
    start_game(&app, new)
}
