//! Game reviews on the server: `POST/GET/DELETE /api/games/{id}/review`.
//!
//! A review is the game's judge (core's [`qiyi_core::review`]) run over the game's exported record
//! on a blocking thread. At most [`ReviewLimits::running`] run at once; up to
//! [`ReviewLimits::queued`] more wait their turn, and a request past that is refused with 503.
//! Progress (plies done of the total) and the end are pushed to the game's live pages as `review`
//! events ([`crate::live`]). A finished review is stored in the database beside the game with the
//! SHA-256 of the record it judged, so it is computed once and served to every later viewer until
//! the game changes; a cancelled or failed review stores nothing.
//!
//! Which judge reviews which game is decided in one place, [`prepare`] (in [`crate::judges`],
//! shared with the static site's worker): adding a game is one arm.

use crate::api::{parse_body, AppState};
use crate::error::ApiError;
use crate::record;
use crate::store::lock;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

/// How many reviews may run and wait.
#[derive(Clone, Debug)]
pub struct ReviewLimits {
    /// Reviews computed at once (each takes one core).
    pub running: usize,
    /// Reviews waiting for a free slot; past running + queued a new review is refused (503).
    pub queued: usize,
}

impl Default for ReviewLimits {
    fn default() -> Self {
        ReviewLimits {
            running: 2,
            queued: 8,
        }
    }
}

/// Where a review stands.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewState {
    /// Waiting for a free slot.
    Queued,
    /// Being computed: `done` of `total` plies judged.
    Running {
        /// Plies judged.
        done: usize,
        /// Plies in the record.
        total: usize,
    },
    /// Finished and stored.
    Done,
    /// The judge failed (nothing stored).
    Failed(String),
    /// Cancelled before it finished (nothing stored).
    Cancelled,
}

/// The `status` of a review.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReviewStatusKind {
    /// No review of the game as it stands (none asked, or the game went on since).
    None,
    /// Waiting for a free slot.
    Queued,
    /// Being computed (`done` of `total` plies).
    Running,
    /// Finished (`review` holds it, in the answers that carry it).
    Done,
    /// The judge failed (`error` says why).
    Failed,
    /// Cancelled before it finished.
    Cancelled,
}

/// Where a game's review stands, as the API and the live `review` events show it.
#[derive(Clone, Debug, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ReviewStatus {
    /// Where it stands.
    pub status: ReviewStatusKind,
    /// Plies judged so far (`running`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub done: Option<usize>,
    /// Plies in the record (`running`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<usize>,
    /// Why it failed (`failed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The review (`done`): core's review JSON (format 1), see docs/review.md.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub review: Option<Value>,
}

impl ReviewStatus {
    fn of(status: ReviewStatusKind) -> ReviewStatus {
        ReviewStatus {
            status,
            done: None,
            total: None,
            error: None,
            review: None,
        }
    }
}

impl ReviewState {
    /// The state as the API and the live events show it, without the review.
    pub fn status(&self) -> ReviewStatus {
        match self {
            ReviewState::Queued => ReviewStatus::of(ReviewStatusKind::Queued),
            ReviewState::Running { done, total } => ReviewStatus {
                done: Some(*done),
                total: Some(*total),
                ..ReviewStatus::of(ReviewStatusKind::Running)
            },
            ReviewState::Done => ReviewStatus::of(ReviewStatusKind::Done),
            ReviewState::Failed(e) => ReviewStatus {
                error: Some(e.clone()),
                ..ReviewStatus::of(ReviewStatusKind::Failed)
            },
            ReviewState::Cancelled => ReviewStatus::of(ReviewStatusKind::Cancelled),
        }
    }

    fn active(&self) -> bool {
        matches!(self, ReviewState::Queued | ReviewState::Running { .. })
    }
}

/// One review job.
struct Job {
    state: Mutex<ReviewState>,
    /// Raised by `DELETE` (or shutdown): the judge's searches stop, the result is dropped.
    cancel: Arc<AtomicBool>,
    /// Wakes a queued job that is cancelled.
    wake: Notify,
    /// The game's change channel (live pages wait on it).
    changes: Arc<tokio::sync::watch::Sender<u64>>,
}

impl Job {
    fn set(&self, state: ReviewState) {
        *lock(&self.state) = state;
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// Runs `first` and sets `state` after it, both under the state's lock, unless the job was
    /// cancelled (then neither; `Ok`). An error of `first` is returned and the state kept.
    fn set_unless_cancelled(
        &self,
        state: ReviewState,
        first: impl FnOnce() -> Result<(), String>,
    ) -> Result<(), String> {
        {
            let mut s = lock(&self.state);
            if self.cancel.load(Ordering::Relaxed) {
                return Ok(());
            }
            first()?;
            *s = state;
        }
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
        Ok(())
    }

    /// Raises the cancel flag and marks the job cancelled (under the state's lock: see
    /// [`Job::set_unless_cancelled`]).
    fn cancel_now(&self) {
        {
            let mut s = lock(&self.state);
            self.cancel.store(true, Ordering::Relaxed);
            self.wake.notify_one();
            *s = ReviewState::Cancelled;
        }
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// Sets a state other than done (nothing to write first), unless cancelled.
    fn update(&self, state: ReviewState) {
        let _ = self.set_unless_cancelled(state, || Ok(()));
    }
}

/// The reviews the server is computing (and the last state of those it computed since it
/// started).
pub struct Reviews {
    jobs: Mutex<HashMap<String, Arc<Job>>>,
    slots: Arc<Semaphore>,
    limits: ReviewLimits,
}

impl Reviews {
    /// No reviews yet, with these limits.
    pub fn new(limits: ReviewLimits) -> Self {
        Reviews {
            jobs: Mutex::new(HashMap::new()),
            slots: Arc::new(Semaphore::new(limits.running.max(1))),
            limits,
        }
    }

    /// The state of the game's review job, if one was started since the server started.
    pub fn state(&self, id: &str) -> Option<ReviewState> {
        lock(&self.jobs).get(id).map(|j| lock(&j.state).clone())
    }

    /// Reviews queued or running now.
    pub fn active(&self) -> usize {
        lock(&self.jobs)
            .values()
            .filter(|j| lock(&j.state).active())
            .count()
    }

    /// Cancels the game's review if one is queued or running (the game is being deleted).
    pub fn cancel(&self, id: &str) {
        if let Some(job) = lock(&self.jobs).remove(id) {
            if lock(&job.state).active() {
                job.cancel_now();
            }
        }
    }

    /// Cancels every review (the server is stopping).
    pub fn cancel_all(&self) {
        for job in lock(&self.jobs).values() {
            if lock(&job.state).active() {
                job.cancel_now();
            }
        }
    }
}

pub use crate::judges::{prepare, ReviewTask, REVIEWED};

/// `POST /api/games/{id}/review` body.
#[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReviewBody {
    /// Search depth per position (Xiangqi 1-30, checkers 1-40, two-player Chinese checkers
    /// 1-12; other games take none and refuse one with 400).
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[schema(minimum = 1, maximum = 40)]
    depth: Option<u32>,
}

/// The game's name and exported record, and the record's SHA-256 (a review is of one record).
fn record_of(app: &AppState, id: &str) -> Result<(String, String, [u8; 32], usize), ApiError> {
    let handle = app.store.get(id)?;
    let entry = lock(&handle);
    let exported = record::export(&entry, None)?;
    let hash: [u8; 32] = Sha256::digest(exported.text.as_bytes()).into();
    Ok((
        entry.session.game().to_string(),
        exported.text,
        hash,
        entry.session.ply(),
    ))
}

/// The stored review of this record, as JSON.
fn stored(app: &AppState, id: &str, hash: &[u8; 32]) -> Result<Option<Value>, ApiError> {
    match app.store.db().review(id, hash)? {
        Some(text) => Ok(Some(serde_json::from_str(&text).map_err(|e| {
            ApiError::Internal(format!("the stored review does not read: {e}"))
        })?)),
        None => Ok(None),
    }
}

fn done(review: Value) -> ReviewStatus {
    ReviewStatus {
        review: Some(review),
        ..ReviewStatus::of(ReviewStatusKind::Done)
    }
}

/// `GET /api/games/{id}/review`: the stored review (`done` with `review`), or the state of the one
/// being computed, or `none`.
#[utoipa::path(
    get,
    path = "/api/games/{id}/review",
    operation_id = "getReview",
    summary = "The stored review, or where the one under way stands, or `none`.",
    params(crate::api::GameId),
    responses(
        (status = 200, description = "The review's state.", body = ReviewStatus),
        crate::openapi::ReadErrors,
    )
)]
pub async fn get_review(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ReviewStatus>, ApiError> {
    let (_, _, hash, _) = record_of(&app, &id)?;
    if let Some(review) = stored(&app, &id, &hash)? {
        return Ok(Json(done(review)));
    }
    match app.reviews.state(&id) {
        // A review done of an earlier record (the game went on) is no longer this game's.
        Some(ReviewState::Done) | None => Ok(Json(ReviewStatus::of(ReviewStatusKind::None))),
        Some(s) => Ok(Json(s.status())),
    }
}

/// `DELETE /api/games/{id}/review`: cancels the queued or running review (409 when none is).
#[utoipa::path(
    delete,
    path = "/api/games/{id}/review",
    operation_id = "cancelReview",
    summary = "Cancels the queued or running review.",
    params(crate::api::GameId),
    responses(
        (status = 200, description = "`cancelled`.", body = ReviewStatus),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = crate::openapi::Conflict),
        (status = 500, response = crate::openapi::Internal),
        (status = 503, response = crate::openapi::Unavailable),
    )
)]
pub async fn cancel_review(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<ReviewStatus>, ApiError> {
    app.store.get(&id)?;
    let job = lock(&app.reviews.jobs).get(&id).cloned();
    match job {
        Some(job) if lock(&job.state).active() => {
            job.cancel_now();
            Ok(Json(ReviewState::Cancelled.status()))
        }
        _ => Err(ApiError::Conflict(
            "no review of this game is queued or running".into(),
        )),
    }
}

/// `POST /api/games/{id}/review`: starts the review in the background (202 with its state), or
/// answers the stored one (200, `done`) or the one already under way (202, its state).
#[utoipa::path(
    post,
    path = "/api/games/{id}/review",
    operation_id = "startReview",
    summary = "Starts the review in the background (202), or answers the stored one (200).",
    params(crate::api::GameId),
    request_body(content = Option<ReviewBody>, content_type = "application/json", description = "The search depth (Xiangqi 1-30, checkers 1-40; other games take none). An empty body reads as `{}`."),
    responses(
        (status = 200, description = "The stored review (`done`).", body = ReviewStatus),
        (status = 202, description = "Queued, or the state of the review already under way.", body = ReviewStatus),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = crate::openapi::Conflict),
        (status = 413, response = crate::openapi::TooLarge),
        (status = 500, response = crate::openapi::Internal),
        (status = 503, response = crate::openapi::Unavailable),
    )
)]
pub async fn start_review(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    let req: ReviewBody = parse_body(&body)?;
    let (game, text, hash, plies) = record_of(&app, &id)?;
    let cancel = Arc::new(AtomicBool::new(false));
    // Bad games and depths are refused before anything else, even when a review is stored.
    let task = prepare(&game, &text, req.depth, cancel.clone())?;
    if let Some(review) = stored(&app, &id, &hash)? {
        return Ok((StatusCode::OK, Json(done(review))).into_response());
    }
    if plies == 0 {
        return Err(ApiError::Conflict(
            "nothing to review: no move has been played".into(),
        ));
    }
    let handle = app.store.get(&id)?;
    let changes = lock(&handle).changes.clone();
    let job = {
        let mut jobs = lock(&app.reviews.jobs);
        if let Some(j) = jobs.get(&id) {
            let state = lock(&j.state).clone();
            if state.active() {
                return Ok((StatusCode::ACCEPTED, Json(state.status())).into_response());
            }
        }
        let active = jobs.values().filter(|j| lock(&j.state).active()).count();
        let cap = app.reviews.limits.running.max(1) + app.reviews.limits.queued;
        if active >= cap {
            return Err(ApiError::Unavailable(format!(
                "the review queue is full ({active} reviews running or waiting); try again later"
            )));
        }
        let job = Arc::new(Job {
            state: Mutex::new(ReviewState::Queued),
            cancel,
            wake: Notify::new(),
            changes,
        });
        jobs.insert(id.clone(), job.clone());
        job
    };
    job.set(ReviewState::Queued);
    tokio::spawn(run(
        app.clone(),
        id,
        hash,
        job,
        task,
        crate::judges::review_mib(&game),
    ));
    Ok((StatusCode::ACCEPTED, Json(ReviewState::Queued.status())).into_response())
}

/// How long a review waiting for memory waits before it asks the budget again.
const MEMORY_RETRY: Duration = Duration::from_millis(250);

/// Waits for a slot and for `mib` MiB of the memory budget, runs the review on a blocking thread,
/// stores it if it was not cancelled.
async fn run(
    app: AppState,
    id: String,
    hash: [u8; 32],
    job: Arc<Job>,
    task: ReviewTask,
    mib: usize,
) {
    let slots = app.reviews.slots.clone();
    let permit = tokio::select! {
        p = slots.acquire_owned() => p,
        _ = job.wake.notified() => return,
    };
    let Ok(_permit) = permit else {
        job.set(ReviewState::Failed("the server is shutting down".into()));
        return;
    };
    if job.cancel.load(Ordering::Relaxed) {
        return;
    }
    // The judge's memory drawn from the budget: while it does not fit (searches and other
    // reviews hold it), the review stays queued and tries again, never growing past the budget.
    let _lease = loop {
        match crate::memory::reserve(mib, "a review") {
            Ok(lease) => break lease,
            Err(_) => {
                tokio::select! {
                    _ = tokio::time::sleep(MEMORY_RETRY) => {},
                    _ = job.wake.notified() => return,
                }
                if job.cancel.load(Ordering::Relaxed) {
                    return;
                }
            }
        }
    };
    // Through the state's lock: a cancel that came while the budget was asked (after the
    // last check above) must not be overwritten by `running`.
    if job.cancel.load(Ordering::Relaxed) {
        return;
    }
    job.update(ReviewState::Running { done: 0, total: 0 });
    let reporter = job.clone();
    // At background priority: reviews on every core must not slow the players' moves.
    let result = crate::background::spawn("qiyi-review", move || {
        let mut progress = |done: usize, total: usize| {
            reporter.update(ReviewState::Running { done, total });
        };
        task(&mut progress)
    })
    .await
    .unwrap_or_else(|_| Err("the review's thread ended without an answer".to_string()));
    // A cancelled review's result is dropped (its state says so already); the check and the
    // write happen under the state's lock, so a cancel never races a store.
    match result {
        Ok(Ok(review)) => match serde_json::to_string(&review) {
            Ok(text) => {
                let db = app.store.db();
                let stored = job.set_unless_cancelled(ReviewState::Done, || {
                    db.store_review(&id, &hash, &review.judge, &text)
                        .map_err(|e| format!("storing the review: {e}"))
                });
                if let Err(e) = stored {
                    job.update(ReviewState::Failed(e));
                }
            }
            Err(e) => {
                let e = format!("the review does not serialise: {e}");
                job.update(ReviewState::Failed(e));
            }
        },
        Ok(Err(message)) => {
            job.update(ReviewState::Failed(message));
        }
        Err(e) => {
            let e = format!("the review failed unexpectedly: {e}");
            job.update(ReviewState::Failed(e));
        }
    }
}

/// `POST /api/games/{id}/review/puzzles` body.
#[derive(Debug, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MistakesBody {
    /// The player whose mistakes become puzzles (0-based).
    #[serde(deserialize_with = "crate::whole::exact")]
    #[schema(minimum = 0, maximum = 5)]
    side: usize,
}

/// `POST /api/games/{id}/review/puzzles`: the stored review's mistakes and blunders of one player
/// as personal puzzles ([`crate::mistakes::puzzles`]); the page keeps them (not rated).
#[utoipa::path(
    post,
    path = "/api/games/{id}/review/puzzles",
    operation_id = "reviewPuzzles",
    summary = "The finished review's mistakes and blunders of one player as personal puzzles (\"find the better move\").",
    params(crate::api::GameId),
    request_body(content = MistakesBody, content_type = "application/json", description = "The player (0-based)."),
    responses(
        (status = 200, description = "The puzzles, one per mistake or blunder (maybe none).", body = crate::mistakes::MistakeSet),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 404, response = crate::openapi::NotFound),
        (status = 409, response = crate::openapi::Conflict),
        (status = 413, response = crate::openapi::TooLarge),
        (status = 500, response = crate::openapi::Internal),
        (status = 503, response = crate::openapi::Unavailable),
    )
)]
pub async fn review_puzzles(
    State(app): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<crate::mistakes::MistakeSet>, ApiError> {
    let req: MistakesBody = parse_body(&body)?;
    let (_, _, hash, _) = record_of(&app, &id)?;
    let Some(review) = stored(&app, &id, &hash)? else {
        return Err(ApiError::Conflict(
            "no finished review of this game as it stands: review it first".into(),
        ));
    };
    let review: qiyi_core::review::Review = serde_json::from_value(review)
        .map_err(|e| ApiError::Internal(format!("the stored review does not read: {e}")))?;
    let played = {
        let handle = app.store.get(&id)?;
        let entry = lock(&handle);
        crate::mistakes::Played {
            game: entry.session.game().to_string(),
            rules: entry.rules.clone(),
            position: entry.position.clone(),
            seed: entry.seed,
            moves: entry
                .session
                .history_from(0)
                .into_iter()
                .filter(|h| h.player.is_some())
                .map(|h| h.text)
                .collect(),
        }
    };
    let set = tokio::task::spawn_blocking(move || {
        crate::mistakes::puzzles(&played, &review, req.side, &id)
    })
    .await
    .map_err(|e| ApiError::Internal(format!("the mistakes' puzzles: {e}")))??;
    Ok(Json(set))
}

/// `POST /api/mistakes/{game}/check`: an answer to a personal puzzle, judged as the review
/// judges a move ([`crate::mistakes::check`]): right when the judge classes it best or good.
#[utoipa::path(
    post,
    path = "/api/mistakes/{game}/check",
    operation_id = "checkMistakeAnswer",
    summary = "Judges an answer to a personal puzzle with the review's judge: right when it is the review's best move or the judge classes it best or good.",
    params(crate::puzzles::PuzzleGame),
    request_body(content = crate::mistakes::CheckBody, content_type = "application/json", description = "The puzzle's position, the answer, the review's best move, the move played and the review's depth."),
    responses(
        (status = 200, description = "The verdict.", body = crate::mistakes::CheckAnswer),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 422, response = crate::openapi::IllegalMove),
        (status = 413, response = crate::openapi::TooLarge),
        (status = 500, response = crate::openapi::Internal),
        (status = 503, response = crate::openapi::Unavailable),
    )
)]
pub async fn check_mistake(
    Path(game): Path<String>,
    body: Bytes,
) -> Result<Json<crate::mistakes::CheckAnswer>, ApiError> {
    let req: crate::mistakes::CheckBody = parse_body(&body)?;
    let mib = crate::judges::review_mib(crate::games::canonical(&game));
    let lease = crate::memory::reserve(mib, "checking an answer")?;
    // The judge is stopped after a while (a deep search must not hold a thread for long).
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = cancel.clone();
    let timer = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_secs(crate::mistakes::CHECK_SECONDS)).await;
        stop.store(true, Ordering::Relaxed);
    });
    let answer = crate::background::spawn("qiyi-check", move || {
        let _lease = lease;
        crate::mistakes::check(&game, &req, cancel)
    })
    .await
    .map_err(|_| ApiError::Internal("the check's thread ended without an answer".into()))?
    .map_err(ApiError::Internal);
    timer.abort();
    Ok(Json(answer??))
}
