//! Live games: the event stream every open page reads (Server-Sent Events), and the driver that
//! moves the AI seats of games played by links.
//!
//! `GET /api/games/{id}/events?after=PLY` sends a `move` event for each ply after `PLY` (its SSE
//! id is the ply, so a browser that reconnects sends `Last-Event-ID` and resumes where it left
//! off: no move missed or shown twice), an `undo` event when moves were taken back, a `state`
//! event with the whole game after every change (also with its ply as id), `thinking` events
//! while an AI searches, and `review` events when the game's review ([`crate::review`]) changes
//! state (queued, running with plies done of the total, done, failed, cancelled).

use crate::api::{prepare_search, run_search, view, AppState};
use crate::error::ApiError;
use crate::session::Seat;
use crate::store::{lock, Handle};
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::stream::{self, Stream, StreamExt};
use serde::Deserialize;
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

/// Query of the event stream.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct EventsQuery {
    /// Start after this ply (default: the current ply; `Last-Event-ID` wins).
    #[serde(default, deserialize_with = "crate::whole::query_option")]
    #[param(maximum = 18446744073709551615_u64)]
    pub after: Option<usize>,
}

/// What a stream has sent so far.
struct Cursor {
    handle: Handle,
    changes: tokio::sync::watch::Receiver<u64>,
    shutdown: tokio::sync::watch::Receiver<bool>,
    /// Last ply sent.
    last: usize,
    /// (ply, over, draw offer, resignations) of the last `state` event.
    sent: Option<(usize, bool, Option<usize>, usize)>,
    first: bool,
    done: bool,
    /// The game's reviews, and the last review state sent.
    reviews: Arc<crate::review::Reviews>,
    review_sent: Option<crate::review::ReviewState>,
    _permit: tokio::sync::OwnedSemaphorePermit,
}

fn json_event(name: &str, data: &impl serde::Serialize) -> Event {
    Event::default()
        .event(name)
        .json_data(data)
        .unwrap_or_else(|_| Event::default().event(name).data("null"))
}

impl Cursor {
    /// The events that bring the page from what it has to the game as it is.
    fn catch_up(&mut self) -> Vec<Event> {
        let mut entry = lock(&self.handle);
        if entry.deleted {
            self.done = true;
            return vec![json_event("gone", &json!({ "id": entry.id }))];
        }
        let mut events = Vec::new();
        let review = self.reviews.state(&entry.id);
        if review.is_some() && review != self.review_sent {
            if let Some(r) = &review {
                events.push(json_event("review", &r.status()));
            }
            self.review_sent = review;
        }
        let ply = entry.session.ply();
        if ply < self.last {
            events.push(json_event("undo", &json!({ "ply": ply })).id(ply.to_string()));
            self.last = ply;
        }
        for h in entry.session.history_from(self.last) {
            let id = h.ply.to_string();
            events.push(json_event("move", &h).id(id));
        }
        self.last = ply;
        let signature = (
            ply,
            entry.to_move().is_none(),
            entry.draw_offer,
            entry.resigned.len(),
        );
        if !events.is_empty() || self.sent != Some(signature) {
            // The state's id is its ply too: a reconnecting page resumes after it.
            let version = *entry.changes.borrow();
            let text = match &entry.state_cache {
                Some((v, text)) if *v == version => text.clone(),
                _ => {
                    let text: Arc<str> = serde_json::to_string(&view(&entry))
                        .unwrap_or_else(|_| "null".into())
                        .into();
                    entry.state_cache = Some((version, text.clone()));
                    text
                }
            };
            events.push(
                Event::default()
                    .event("state")
                    .data(&*text)
                    .id(ply.to_string()),
            );
            self.sent = Some(signature);
        } else {
            let progress = entry.thinking.as_ref().map(|t| lock(&t.progress).clone());
            events.push(json_event("thinking", &progress));
        }
        events
    }
}

/// `GET /api/games/{id}/events`: the game's live event stream (503 past the connection cap).
#[utoipa::path(
    get,
    path = "/api/games/{id}/events",
    operation_id = "events",
    summary = "The game's live Server-Sent Events stream (move, undo, state, thinking, review, gone); it does not end by itself.",
    params(
        crate::api::GameId,
        EventsQuery,
        ("Last-Event-ID" = Option<String>, Header, description = "The last ply a reconnecting browser saw (wins over `after`)."),
    ),
    responses(
        (status = 200, description = "An endless `text/event-stream`.", body = crate::openapi::SseEvent, content_type = "text/event-stream"),
        crate::openapi::ReadErrors,
    )
)]
pub async fn events(
    State(app): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
    query: Result<Query<EventsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let resume = match headers.get("last-event-id") {
        Some(v) => Some(
            v.to_str()
                .ok()
                .and_then(|s| s.trim().parse::<usize>().ok())
                .ok_or_else(|| ApiError::BadRequest("Last-Event-ID must be a ply number".into()))?,
        ),
        None => query.after,
    };
    let permit = app.live.clone().try_acquire_owned().map_err(|_| {
        ApiError::Unavailable(format!(
            "too many live connections (at most {}); try again later",
            app.limits.max_live
        ))
    })?;
    let handle = app.store.get(&id)?;
    let (changes, ply) = {
        let e = lock(&handle);
        (e.changes.subscribe(), e.session.ply())
    };
    let cursor = Cursor {
        handle,
        changes,
        shutdown: app.shutdown.subscribe(),
        last: resume.unwrap_or(ply),
        sent: None,
        first: true,
        done: false,
        reviews: app.reviews.clone(),
        review_sent: None,
        _permit: permit,
    };
    let stream = stream::unfold(cursor, |mut c| async move {
        if c.done || *c.shutdown.borrow() {
            return None;
        }
        if !c.first {
            tokio::select! {
                changed = c.changes.changed() => changed.ok()?,
                _ = c.shutdown.changed() => return None,
            }
        }
        c.first = false;
        let events = c.catch_up();
        Some((stream::iter(events.into_iter().map(Ok)), c))
    })
    .flatten();
    Ok(Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15))))
}

/// Starts the AI's search when an AI seat is to move in a game played by links, and plays its
/// answer when it comes (then looks again: the next seat may be an AI too). True when a search
/// was started.
pub fn drive_ai(app: &AppState, handle: &Handle) -> bool {
    /// How long an AI seat refused memory waits before it asks again.
    const NO_MEMORY_RETRY: std::time::Duration = std::time::Duration::from_millis(500);
    if *app.shutdown.borrow() {
        return false;
    }
    watch_flag(app, handle);
    let search = {
        let mut e = lock(handle);
        if !e.server_drives_ai() || e.thinking.is_some() || e.deleted {
            return false;
        }
        let Some(p) = e.to_move() else {
            return false;
        };
        if matches!(e.seats.get(p), Some(Seat::Human) | None) {
            return false;
        }
        match prepare_search(&mut e, None, None, None) {
            Ok(s) => s,
            Err(_) => return false,
        }
    };
    let app = app.clone();
    let handle = handle.clone();
    tokio::spawn(async move {
        let start = search.start_ply;
        let answer = match run_search(&app, &handle, search).await {
            Ok(answer) => answer,
            // The memory budget had no room for its table: the seat waits and tries again (a
            // person asking for a move gets 503 and Retry-After instead).
            Err(crate::ApiError::NoMemory(_)) => {
                tokio::time::sleep(NO_MEMORY_RETRY).await;
                drive_ai(&app, &handle);
                return;
            }
            Err(_) => return,
        };
        let played = {
            let mut e = lock(&handle);
            e.session.ply() == start
                && e.to_move().is_some()
                && !e.deleted
                && crate::api::play_and_commit(&app, &mut e, &answer.mv).is_ok()
        };
        if played {
            drive_ai(&app, &handle);
        }
    });
    true
}

/// In a clocked game, ends the game on time when the side to move lets its clock run out (a
/// timer per move; it does nothing if a move came first).
pub fn watch_flag(app: &AppState, handle: &Handle) {
    let (ply, p, wait) = {
        let e = lock(handle);
        let Some(clock) = &e.clock else {
            return;
        };
        let Some(p) = e.to_move() else {
            return;
        };
        if clock.since.is_none() {
            return;
        }
        (e.session.ply(), p, clock.left(p))
    };
    let app = app.clone();
    let handle = handle.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(wait + 20)).await;
        let mut e = lock(&handle);
        let flagged = e.clock.as_ref().is_some_and(|c| c.flagged(p));
        if e.session.ply() == ply && e.to_move() == Some(p) && flagged && !e.deleted {
            crate::api::flag(&mut e, p);
            let keep = e.session.ply();
            let _ = app.store.commit(&mut e, keep);
        }
    });
}
