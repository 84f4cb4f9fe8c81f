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
use crate::tokens::{self, Bearer, Grant};
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::{header, StatusCode};
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

/// Handlers that need only the games' store (the puzzles) take it from the state.
impl axum::extract::FromRef<AppState> for Arc<Store> {
    fn from_ref(state: &AppState) -> Self {
        state.store.clone()
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
        .route("/puzzles/{game}", get(crate::puzzles::summary))
        .route("/puzzles/{game}/next", get(crate::puzzles::next))
        .route("/puzzles/{game}/daily", get(crate::puzzles::daily))
        .route("/puzzles/{game}/{id}", get(crate::puzzles::get_puzzle))
        .route(
            "/puzzles/{game}/{id}/attempt",
            post(crate::puzzles::attempt),
        )
        .route(
            "/puzzles/{game}/{id}/refute",
            post(crate::puzzles::refute_move),
        )
        .route(
            "/games/{id}/review",
            get(crate::review::get_review)
                .post(crate::review::start_review)
                .delete(crate::review::cancel_review),
        )
        .route(
            "/games/{id}/review/puzzles",
            post(crate::review::review_puzzles),
        )
        .route("/mistakes/{game}/check", post(crate::review::check_mistake))
        .fallback(|| async { ApiError::NotFound("no such API endpoint".into()) })
}

/// `GET /api/openapi.json`: the API's OpenAPI document ([`crate::openapi`]).
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    operation_id = "openapi",
    summary = "This document.",
    responses((status = 200, description = "The OpenAPI document.", body = Object))
)]
pub(crate) async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        crate::openapi::document(),
    )
        .into_response()
}

/// The `{id}` of a game in a path.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by axum as `Path<String>`; this type only documents it
pub(crate) struct GameId {
    /// The game's id.
    id: String,
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

/// `POST /api/games`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateGame {
    /// The game, as the catalog names it (`xiangqi`, `checkers`, `chinese-checkers`,
    /// `peg-solitaire`, `aeroplane`, `tictactoe`, `nim`).
    #[schema(value_type = crate::openapi::GameName)]
    pub game: String,
    /// One seat per player; default: player 0 human, the others AI at `level`.
    #[serde(default)]
    pub seats: Option<Vec<Seat>>,
    /// Default AI level for AI seats and hints (1-10).
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[schema(minimum = 1, maximum = 10)]
    pub level: Option<u8>,
    /// Rule options of the catalog (an object; `null` or absent: the defaults).
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub rules: Value,
    /// Seed of every random choice (dice, the AI's ties); default 1.
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[schema(format = "uint64", maximum = 18446744073709551615_u64)]
    pub seed: Option<u64>,
    /// A starting position in the game's position text.
    #[serde(default)]
    pub position: Option<String>,
    /// One browser plays every human seat with one token (and asks for the AI's moves itself);
    /// default false: one secret link per human seat, AI seats moved by the server.
    #[serde(default)]
    pub hotseat: Option<bool>,
    /// A throw-away game (the analysis board's tried moves): stored, left out of
    /// `GET /api/games`, deleted a day after its last change.
    #[serde(default)]
    pub scratch: Option<bool>,
    /// A Fischer clock for a two-player game (`{"base_ms": 300000, "increment_ms": 3000}`).
    #[serde(default)]
    pub clock: Option<crate::clock::ClockSetting>,
}

/// `POST /api/games/{id}/moves`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MoveBody {
    /// The move in the game's notation, as a `legal` entry's `text`.
    #[serde(rename = "move")]
    #[schema(min_length = 1)]
    mv: String,
    /// The ply the client saw when it chose the move; a stale request (the game moved on) is
    /// refused with 409.
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[schema(format = "uint64", maximum = 18446744073709551615_u64)]
    ply: Option<usize>,
}

/// `POST /api/games/{id}/undo`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UndoBody {
    /// Player moves to take back, 1-10000 (default 1).
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[schema(minimum = 1, maximum = 10000)]
    plies: Option<usize>,
}

/// `POST /api/games/{id}/solve`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SolveBody {
    /// Time budget in milliseconds (default 10 s; more than 60 s counts as 60 s).
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[schema(format = "uint64", maximum = 18446744073709551615_u64)]
    time_ms: Option<u64>,
}

/// `POST /api/games/{id}/position`.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PositionBody {
    /// The position in the game's position text (FEN and friends).
    #[schema(min_length = 1)]
    position: String,
}

/// `POST /api/games/{id}/resign`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SideBody {
    /// Which player, 0-5 (hot-seat tokens only; a seat token acts for its own seat); a player
    /// the game does not have is refused with 403.
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[schema(format = "uint64", maximum = 18446744073709551615_u64)]
    player: Option<usize>,
}

/// `POST /api/games/{id}/draw`.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct DrawBody {
    /// Which player (hot-seat tokens only; a seat token acts for its own seat); a player the
    /// game does not have is refused with 403.
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[schema(format = "uint64", maximum = 18446744073709551615_u64)]
    player: Option<usize>,
    /// `"offer"` (default; accepts a pending offer of the other side), `"accept"` or
    /// `"decline"`.
    #[serde(default)]
    #[schema(value_type = Option<crate::openapi::DrawAction>)]
    action: Option<String>,
}

/// A game as the API shows it: its seats and clocks, and everything the page draws.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = GameState)]
pub struct GameView {
    /// The game's id.
    id: String,
    /// Who sits in each seat.
    seats: Vec<Seat>,
    /// Seed of every random choice.
    seed: u64,
    /// Plies played.
    ply: usize,
    /// Grows with every change of the game: a page keeps the newest state it was sent.
    version: u64,
    /// One hot-seat link plays every seat.
    hotseat: bool,
    /// The seat offering a draw.
    draw_offer: Option<usize>,
    /// Seats that resigned from a game of more than two players (the server plays their turns).
    resigned: Vec<usize>,
    /// The AI's search under way.
    thinking: Option<Progress>,
    /// The clock, in clocked games.
    clock: Option<crate::clock::ClockView>,
    /// The game itself.
    #[serde(flatten)]
    snapshot: Snapshot,
}

/// `POST /api/games` and `POST /api/games/import`: the new game.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct Created {
    /// The game's id.
    id: String,
    /// The game.
    state: GameView,
    /// One per seat: the token of a human seat (32 hex digits), `null` for an AI seat.
    seat_tokens: Vec<Option<String>>,
    /// Page links to play each seat and to watch.
    links: CreatedLinks,
    /// The hot-seat token (every seat), in hot-seat games.
    #[serde(skip_serializing_if = "Option::is_none")]
    hotseat_token: Option<String>,
}

/// The page's links to a new game.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CreatedLinks {
    /// One per seat: the link that plays it (token included), `null` for an AI seat.
    seats: Vec<Option<String>>,
    /// The link to watch the game.
    watch: String,
}

/// `GET /api/games`: the catalog.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct Catalog {
    /// Every game the server offers.
    games: Vec<games::CatalogEntry>,
}

/// `GET /api/games?page=N`: one page of the archive.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct Archive {
    /// The stored games of this page, newest change first.
    games: Vec<crate::db::GameSummary>,
    /// The page, from 1.
    page: usize,
    /// Games per page.
    per_page: usize,
    /// Stored games in all.
    total: usize,
}

/// `GET /api/games`: the catalog without `page`, one page of the archive with it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum GameList {
    /// No `page`.
    Catalog(Catalog),
    /// With `page`.
    Archive(Archive),
}

/// `DELETE /api/games/{id}`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct Deleted {
    /// The id of the game deleted.
    deleted: String,
}

/// `POST /api/games/{id}/ai`: the AI's move and the game.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct AiReply {
    /// What the search found.
    ai: AiAnswer,
    /// Whether the move was played (not a hint).
    played: bool,
    /// The game, after the move if it was played.
    state: GameView,
}

/// `POST /api/games/{id}/solve`: the solver's answer and the game (not changed).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct SolveReply {
    /// What the solver found.
    solve: SolveAnswer,
    /// The game.
    state: GameView,
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

/// `GET /api/games` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    /// Archive page from 1 (20 games a page, newest change first); without it the answer is
    /// the catalog.
    #[serde(default, deserialize_with = "crate::whole::query_option")]
    #[param(minimum = 1, maximum = 1000000)]
    page: Option<usize>,
}

/// `GET /api/games`: the catalog; `GET /api/games?page=N`: the stored games, newest first.
#[utoipa::path(
    get,
    path = "/api/games",
    operation_id = "listGames",
    summary = "The catalog of games, or (with `page`) the archive of stored games.",
    params(ListQuery),
    responses(
        (status = 200, description = "The catalog (no `page`) or one page of the archive.", body = GameList),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 500, response = crate::openapi::Internal),
    )
)]
pub(crate) async fn list_games(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<GameList>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    match query.page {
        None => Ok(Json(GameList::Catalog(Catalog {
            games: games::catalog(),
        }))),
        Some(page) => {
            if page == 0 || page > 1_000_000 {
                return Err(ApiError::BadRequest("page must be from 1".into()));
            }
            let (list, total) = app.store.db().list(page, PAGE_SIZE)?;
            Ok(Json(GameList::Archive(Archive {
                games: list,
                page,
                per_page: PAGE_SIZE,
                total,
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
    let answer = Created {
        id: created.id,
        state,
        seat_tokens: created.seat_tokens,
        links: CreatedLinks {
            seats: links,
            watch: base,
        },
        hotseat_token: created.hotseat_token,
    };
    Ok((StatusCode::CREATED, Json(answer)).into_response())
}

/// `POST /api/games`: creates a game.
#[utoipa::path(
    post,
    path = "/api/games",
    operation_id = "createGame",
    summary = "Creates a game.",
    request_body(content = CreateGame, content_type = "application/json"),
    responses(
        (status = 201, description = "The new game, its seat tokens and links.", body = Created),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 413, response = crate::openapi::TooLarge),
        (status = 429, response = crate::openapi::TooManyRequests),
        (status = 500, response = crate::openapi::Internal),
        (status = 503, response = crate::openapi::Unavailable),
    )
)]
pub(crate) async fn create_game(
    State(app): State<AppState>,
    body: Bytes,
) -> Result<Response, ApiError> {
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

/// `GET /api/games/{id}` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetQuery {
    /// Show the game after this many plies (replay); default: now.
    #[serde(default, deserialize_with = "crate::whole::query_option")]
    #[param(maximum = 18446744073709551615_u64)]
    ply: Option<usize>,
}

/// `GET /api/games/{id}`: the state of a game.
#[utoipa::path(
    get,
    path = "/api/games/{id}",
    operation_id = "getGame",
    summary = "The state of a game (or, with `ply`, as it stood after that ply).",
    params(GameId, GetQuery),
    responses(
        (status = 200, description = "The game.", body = GameView),
        crate::openapi::ReadErrors,
    )
)]
pub(crate) async fn get_game(
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

/// The seat token's grant in this game (403 unless it is one of the game's tokens; a request
/// with no token at all was answered 401 by the [`Bearer`] extractor before this).
fn grant_of(entry: &GameEntry, bearer: &Bearer) -> Result<Grant, ApiError> {
    tokens::grant(bearer, &entry.tokens)
}

/// Requires a token that acts for every human seat (hot-seat, or the only human): undo, paste,
/// solve and delete change the game for everyone.
fn require_all_seats(entry: &GameEntry, bearer: &Bearer, what: &str) -> Result<(), ApiError> {
    let grant = grant_of(entry, bearer)?;
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

fn require_turn(entry: &GameEntry, bearer: &Bearer) -> Result<usize, ApiError> {
    let grant = grant_of(entry, bearer)?;
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

/// `DELETE /api/games/{id}`.
#[utoipa::path(
    delete,
    path = "/api/games/{id}",
    operation_id = "deleteGame",
    summary = "Deletes a game (a token holding every human seat).",
    params(GameId),
    security(("seatToken" = [])),
    responses(
        (status = 200, description = "Deleted.", body = Deleted),
        (status = 401, response = crate::openapi::Unauthorized),
        (status = 403, response = crate::openapi::Forbidden),
        (status = 404, response = crate::openapi::NotFound),
        (status = 500, response = crate::openapi::Internal),
        (status = 503, response = crate::openapi::Unavailable),
    )
)]
pub(crate) async fn delete_game(
    State(app): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
) -> Result<Json<Deleted>, ApiError> {
    let handle = app.store.get(&id)?;
    require_all_seats(&lock(&handle), &bearer, "deleting")?;
    if app.store.remove(&id)? {
        app.reviews.cancel(&id);
        Ok(Json(Deleted { deleted: id }))
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

/// `POST /api/games/{id}/moves`: plays a move for the seat to move.
#[utoipa::path(
    post,
    path = "/api/games/{id}/moves",
    operation_id = "playMove",
    summary = "Plays a move for the seat to move.",
    params(GameId),
    security(("seatToken" = [])),
    request_body(content = MoveBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The game after the move.", body = GameView),
        crate::openapi::SeatActionErrors,
        (status = 422, response = crate::openapi::IllegalMove),
    )
)]
pub(crate) async fn play_move(
    State(app): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: MoveBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let state = {
        let mut entry = lock(&handle);
        require_turn(&entry, &bearer)?;
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

/// `POST /api/games/{id}/undo`: takes back player moves.
#[utoipa::path(
    post,
    path = "/api/games/{id}/undo",
    operation_id = "undo",
    summary = "Takes back player moves (a token holding every human seat).",
    params(GameId),
    security(("seatToken" = [])),
    request_body(content = Option<UndoBody>, content_type = "application/json", description = "How many moves. An empty body reads as `{}`."),
    responses(
        (status = 200, description = "The game after the undo.", body = GameView),
        crate::openapi::SeatActionErrors,
    )
)]
pub(crate) async fn undo(
    State(app): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: UndoBody = parse_body(&body)?;
    let plies = req.plies.unwrap_or(1);
    if plies == 0 || plies > 10_000 {
        return Err(ApiError::BadRequest("plies must be from 1 to 10000".into()));
    }
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    require_all_seats(&entry, &bearer, "undo")?;
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

/// `POST /api/games/{id}/position`: replaces the game by a pasted position.
#[utoipa::path(
    post,
    path = "/api/games/{id}/position",
    operation_id = "setPosition",
    summary = "Replaces the game by a pasted position.",
    params(GameId),
    security(("seatToken" = [])),
    request_body(content = PositionBody, content_type = "application/json"),
    responses(
        (status = 200, description = "The game from the new position.", body = GameView),
        crate::openapi::SeatActionErrors,
    )
)]
pub(crate) async fn set_position(
    State(app): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: PositionBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let state = {
        let mut entry = lock(&handle);
        require_all_seats(&entry, &bearer, "pasting a position")?;
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
    bearer: &Bearer,
    player: Option<usize>,
) -> Result<usize, ApiError> {
    let grant = grant_of(entry, bearer)?;
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

/// `POST /api/games/{id}/resign`: a seat resigns.
#[utoipa::path(
    post,
    path = "/api/games/{id}/resign",
    operation_id = "resign",
    summary = "The token's seat resigns.",
    params(GameId),
    security(("seatToken" = [])),
    request_body(content = Option<SideBody>, content_type = "application/json", description = "Which seat (hot-seat tokens only). An empty body reads as `{}`."),
    responses(
        (status = 200, description = "The game after the resignation.", body = GameView),
        crate::openapi::SeatActionErrors,
    )
)]
pub(crate) async fn resign(
    State(app): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: SideBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    let p = acting_player(&entry, &bearer, req.player)?;
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

/// `POST /api/games/{id}/draw`: offers, accepts or declines a draw.
#[utoipa::path(
    post,
    path = "/api/games/{id}/draw",
    operation_id = "draw",
    summary = "Offers, accepts or declines a draw (two-player games).",
    params(GameId),
    security(("seatToken" = [])),
    request_body(content = Option<DrawBody>, content_type = "application/json", description = "The action. An empty body reads as `{}`."),
    responses(
        (status = 200, description = "The game after the offer.", body = GameView),
        crate::openapi::SeatActionErrors,
    )
)]
pub(crate) async fn draw(
    State(app): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<GameView>, ApiError> {
    let req: DrawBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let mut entry = lock(&handle);
    let p = acting_player(&entry, &bearer, req.player)?;
    if entry.to_move().is_none() {
        return Err(ApiError::Conflict("the game is over".into()));
    }
    decided(&entry, None, String::new())?;
    let other = 1 - p;
    let grant = grant_of(&entry, &bearer)?;
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

/// `POST /api/games/{id}/ai`: the AI's move for the seat to move, played or as a hint.
#[utoipa::path(
    post,
    path = "/api/games/{id}/ai",
    operation_id = "aiMove",
    summary = "Asks the AI for the move of the seat to move (a hint, or played).",
    params(GameId),
    security(("seatToken" = [])),
    request_body(content = Option<AiBody>, content_type = "application/json", description = "Level, time and whether to play. An empty body reads as `{}`."),
    responses(
        (status = 200, description = "The AI's move and the game.", body = AiReply),
        crate::openapi::SeatActionErrors,
        (status = 422, response = crate::openapi::IllegalMove),
    )
)]
pub(crate) async fn ai_move(
    State(app): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<AiReply>, ApiError> {
    let req: AiBody = parse_body(&body)?;
    let handle = app.store.get(&id)?;
    let play = req.play.unwrap_or(true);
    let search = {
        let mut entry = lock(&handle);
        require_turn(&entry, &bearer)?;
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
    Ok(Json(AiReply {
        ai: answer,
        played: play,
        state,
    }))
}

/// `POST /api/games/{id}/solve`: runs the game's solver without playing its moves.
#[utoipa::path(
    post,
    path = "/api/games/{id}/solve",
    operation_id = "solve",
    summary = "Runs the game's solver (peg solitaire) without playing its moves.",
    params(GameId),
    security(("seatToken" = [])),
    request_body(content = Option<SolveBody>, content_type = "application/json", description = "The time budget. An empty body reads as `{}`."),
    responses(
        (status = 200, description = "The solver's answer and the game.", body = SolveReply),
        crate::openapi::SeatActionErrors,
    )
)]
pub(crate) async fn solve(
    State(app): State<AppState>,
    bearer: Bearer,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<SolveReply>, ApiError> {
    let req: SolveBody = parse_body(&body)?;
    let budget = req
        .time_ms
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(10))
        .min(MAX_SOLVE_TIME);
    let handle = app.store.get(&id)?;
    let task = {
        let entry = lock(&handle);
        require_all_seats(&entry, &bearer, "solving")?;
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
    Ok(Json(SolveReply {
        solve: answer,
        state: view(&entry),
    }))
}

/// How an exported Xiangqi record writes its moves.
#[derive(Clone, Copy, Debug, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum MoveNotation {
    /// `h2e2` (the default).
    Iccs,
    /// `C2.5`.
    Wxf,
}

impl MoveNotation {
    /// The name [`record::export`] takes.
    fn as_str(self) -> &'static str {
        match self {
            MoveNotation::Iccs => "iccs",
            MoveNotation::Wxf => "wxf",
        }
    }
}

/// `GET /api/games/{id}/export` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExportQuery {
    /// Xiangqi move notation: `iccs` (default) or `wxf`. Read for every game (another value is
    /// a bad request whatever the game: schemathesis found `?moves=garbage` accepted for other
    /// games when only Xiangqi read it).
    #[serde(default)]
    #[param(inline)]
    moves: Option<MoveNotation>,
}

/// `GET /api/games/{id}/export`: the record in the game's format (PGN, PDN or JSON).
#[utoipa::path(
    get,
    path = "/api/games/{id}/export",
    operation_id = "exportGame",
    summary = "The record as a download: Xiangqi PGN, checkers PDN, else qiyi JSON.",
    params(GameId, ExportQuery),
    responses(
        (status = 200, description = "The record.",
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"qiyi-ID.EXT\"`")),
            content(
                (String = "application/x-chess-pgn"),
                (String = "application/x-pdn"),
                (crate::record::JsonRecordOut = "application/json"),
            )
        ),
        crate::openapi::ReadErrors,
    )
)]
pub(crate) async fn export_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<ExportQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let handle = app.store.get(&id)?;
    let exported = {
        let entry = lock(&handle);
        record::export(&entry, query.moves.map(MoveNotation::as_str))?
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
#[utoipa::path(
    post,
    path = "/api/games/import",
    operation_id = "importGame",
    summary = "A record (PGN, PDN or qiyi JSON) becomes a new hot-seat game.",
    request_body(content = String, content_type = "text/plain", description = "The record's text (UTF-8)."),
    responses(
        (status = 201, description = "The new game (every seat human, one hot-seat token).", body = Created),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 413, response = crate::openapi::TooLarge),
        (status = 500, response = crate::openapi::Internal),
        (status = 503, response = crate::openapi::Unavailable),
    )
)]
pub(crate) async fn import_game(
    State(app): State<AppState>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::BadRequest("the record is not UTF-8 text".into()))?;
    let new = record::import(text)?;
    start_game(&app, new)
}
