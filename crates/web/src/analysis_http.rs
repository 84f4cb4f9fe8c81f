//! The analysis board on the server: `GET /api/analyse?game=..&position=..` streams the lines of
//! [`crate::analysis`] as Server-Sent Events (`line` events, then one `done` event with the
//! reason; an `error` event if the analysis fails once streaming has started).
//!
//! A request is read and checked before anything is streamed, so a bad game, position, roll or
//! `multipv` is a 4xx JSON error like the rest of the API. At most
//! [`AnalysisLimits::running`] analyses run at once (one core each); past that the answer is
//! 503 with the code `busy`. Each runs on a blocking thread for at most [`AnalysisLimits::time`]
//! (then `done` says `limit`), and stops as soon as the page goes away: dropping the stream
//! raises the search's stop flag, the search returns and its slot is free again.

use crate::analysis::{prepare, AnalysisOptions, EndReason, Line};
use crate::api::AppState;
use crate::error::ApiError;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream};
use serde::Deserialize;
use serde_json::json;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, Semaphore};

/// How many analyses may run and for how long.
#[derive(Clone, Debug)]
pub struct AnalysisLimits {
    /// Analyses running at once (each takes one core); more are refused with 503 `busy`.
    pub running: usize,
    /// The longest one analysis runs.
    pub time: Duration,
}

impl Default for AnalysisLimits {
    fn default() -> Self {
        AnalysisLimits {
            running: 2,
            time: Duration::from_secs(30),
        }
    }
}

/// The analyses the server is running.
pub struct Analyses {
    slots: Arc<Semaphore>,
    limits: AnalysisLimits,
}

impl Analyses {
    /// No analysis running yet, with these limits.
    pub fn new(limits: AnalysisLimits) -> Self {
        Analyses {
            slots: Arc::new(Semaphore::new(limits.running.max(1))),
            limits,
        }
    }

    /// Analyses running now (a stream dropped counts until its search has noticed).
    pub fn running(&self) -> usize {
        self.limits
            .running
            .max(1)
            .saturating_sub(self.slots.available_permits())
    }

    /// The limits.
    pub fn limits(&self) -> &AnalysisLimits {
        &self.limits
    }
}

/// `GET /api/analyse` query.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct AnalyseQuery {
    /// The game: xiangqi, checkers, chinese-checkers, peg-solitaire, aeroplane.
    #[param(value_type = crate::openapi::AnalysedGame)]
    pub game: String,
    /// The position in the game's position text (as `POST /api/games/{id}/position` takes).
    pub position: String,
    /// Lines for Xiangqi and checkers (1-5, default 3).
    #[serde(default, deserialize_with = "crate::whole::query_option")]
    #[param(minimum = 1, maximum = 5)]
    pub multipv: Option<u32>,
    /// Aeroplane only: the face rolled.
    #[serde(default, deserialize_with = "crate::whole::query_option")]
    #[param(minimum = 1, maximum = 6)]
    pub roll: Option<u8>,
    /// The deepest depth, 1 to the game's maximum (the default): Xiangqi 30, checkers 40,
    /// Chinese checkers 20, 1 for the exact games; beyond it 400.
    #[serde(default, deserialize_with = "crate::whole::query_option")]
    #[param(minimum = 1, maximum = 40)]
    pub max_depth: Option<u32>,
}

/// Raises the stop flag when the stream is dropped (the page went away or closed it).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

fn json_event(name: &str, data: &impl serde::Serialize) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| Event::default().event(name).data("null"))
}

fn line_event(line: &Line) -> Event {
    json_event("line", line)
}

fn done_event(reason: EndReason) -> Event {
    json_event("done", &json!({ "reason": reason }))
}

fn error_event(e: &ApiError) -> Event {
    json_event("error", &e.body())
}

/// `GET /api/analyse`: the position analysed live, as an event stream (see the module doc).
#[utoipa::path(
    get,
    path = "/api/analyse",
    operation_id = "analyse",
    summary = "Analyses one position of any game as a Server-Sent Events stream: `line` events (the engine's lines depth by depth, race distances, each choice's win chance or solvable per move), then `done` with the reason; `error` if it fails once streaming. Closing the stream stops the search.",
    params(AnalyseQuery),
    responses(
        (status = 200, description = "A `text/event-stream` that ends with a `done` event (at the deepest depth, when stopped, or at the server's time cap).", body = crate::openapi::SseEvent, content_type = "text/event-stream"),
        (status = 400, response = crate::openapi::BadRequest),
        (status = 409, response = crate::openapi::Conflict),
        (status = 422, response = crate::openapi::IllegalMove),
        (status = 500, response = crate::openapi::Internal),
        (status = 503, response = crate::openapi::Busy),
    )
)]
pub async fn analyse(
    State(app): State<AppState>,
    query: Result<Query<AnalyseQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let limits = app.analyses.limits.clone();
    let options = AnalysisOptions {
        multipv: q.multipv,
        roll: q.roll,
        max_depth: q.max_depth,
        time_ms: Some(u64::try_from(limits.time.as_millis()).unwrap_or(u64::MAX)),
        hash_mib: None,
    };
    let analysis = prepare(&q.game, &q.position, &options)?;
    if *app.shutdown.borrow() {
        return Err(ApiError::Unavailable("the server is shutting down".into()));
    }
    let permit = app
        .analyses
        .slots
        .clone()
        .try_acquire_owned()
        .map_err(|_| {
            ApiError::Busy(format!(
                "the server is running as many analyses as it may ({}); try again when one ends",
                limits.running.max(1)
            ))
        })?;
    // Its table drawn from the memory budget before it is built (503 and Retry-After if it does
    // not fit), given back when the search has returned.
    let lease = crate::memory::reserve(analysis.memory_mib(), "an analysis")?;
    let cancel = Arc::new(AtomicBool::new(false));
    let (tx, rx) = mpsc::unbounded_channel::<Event>();
    let flag = cancel.clone();
    tokio::task::spawn_blocking(move || {
        // The slot and the memory are this thread's until the search has returned.
        let _permit = permit;
        let _lease = lease;
        let stop = flag.clone();
        let result = analysis.run(flag, &mut |line| {
            if tx.send(line_event(&line)).is_err() {
                stop.store(true, Ordering::Relaxed);
            }
        });
        let last = match result {
            Ok(reason) => done_event(reason),
            Err(e) => error_event(&e),
        };
        let _ = tx.send(last);
    });
    let state = (rx, app.shutdown.subscribe(), StopOnDrop(cancel));
    let stream = stream::unfold(state, |(mut rx, mut shutdown, guard)| async move {
        if *shutdown.borrow() {
            return None;
        }
        let event = tokio::select! {
            e = rx.recv() => e?,
            _ = shutdown.changed() => return None,
        };
        Some((Ok(event), (rx, shutdown, guard)))
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}
