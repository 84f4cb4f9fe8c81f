//! The game review on the server: start, progress, the stored review, cancel, the queue's
//! limits, bad requests, live `review` events, and a database of the previous schema.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::call;
use http_body_util::BodyExt;
use qiyi_web::api::{AppState, Limits};
use qiyi_web::db::Db;
use qiyi_web::review::ReviewLimits;
use qiyi_web::store::{Store, StoreConfig};
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

fn app_with(reviews: ReviewLimits) -> (AppState, axum::Router) {
    let state = AppState::with_limits(
        Store::new(StoreConfig::default()),
        2,
        Limits {
            reviews,
            ..Limits::default()
        },
    );
    (state.clone(), qiyi_web::router(state))
}

/// A hot-seat game of `game` with both seats human, and its token.
async fn create(app: &axum::Router, game: &str) -> (String, String, Value) {
    let body = json!({"game": game, "hotseat": true,
        "seats": [{"kind": "human"}, {"kind": "human"}]});
    let body = match game {
        "peg-solitaire" => json!({"game": game, "hotseat": true}),
        "aeroplane" => {
            json!({"game": game, "hotseat": true, "seats": vec![json!({"kind": "human"}); 4]})
        }
        _ => body,
    };
    let (status, v) = call(app, "POST", "/api/games", None, &body.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    (
        v["id"].as_str().expect("id").to_string(),
        v["hotseat_token"].as_str().expect("token").to_string(),
        v["state"].clone(),
    )
}

/// Plays the first legal move `n` times; returns the moves played.
async fn play_first_moves(app: &axum::Router, id: &str, token: &str, n: usize) -> Vec<String> {
    let (_, mut state) = call(app, "GET", &format!("/api/games/{id}"), None, "").await;
    let mut played = Vec::new();
    for _ in 0..n {
        let mv = state["legal"][0]["text"]
            .as_str()
            .expect("a legal move")
            .to_string();
        let (status, v) = call(
            app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(token),
            &json!({ "move": mv }).to_string(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        played.push(mv);
        state = v;
    }
    played
}

/// Polls `GET .../review` until it is no longer queued or running. The bound only catches a
/// review that never ends: reviews run at the lowest priority (nice 19), so on a loaded machine
/// a debug build's Chinese checkers review took over a minute.
async fn wait_review(app: &axum::Router, id: &str) -> Value {
    for _ in 0..6000 {
        let (status, v) = call(app, "GET", &format!("/api/games/{id}/review"), None, "").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        if v["status"] != "queued" && v["status"] != "running" {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the review of {id} did not end within five minutes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_checkers_game_is_reviewed_once_and_stored() {
    let (state, app) = app_with(ReviewLimits::default());
    let (id, token, _) = create(&app, "checkers").await;
    let played = play_first_moves(&app, &id, &token, 8).await;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/resign"),
        Some(&token),
        "{}",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}/review"), None, "").await;
    assert_eq!(
        (status, v["status"].as_str()),
        (StatusCode::OK, Some("none"))
    );

    let uri = format!("/api/games/{id}/review");
    let (status, v) = call(&app, "POST", &uri, None, r#"{"depth": 3}"#).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let v = wait_review(&app, &id).await;
    assert_eq!(v["status"], "done", "{v}");
    let review = &v["review"];
    assert_eq!(review["game"], "checkers");
    let plies = review["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), played.len(), "one reviewed ply per move");
    for (p, mv) in plies.iter().zip(&played) {
        assert_eq!(p["played"].as_str(), Some(mv.as_str()));
        assert!(p["class"].is_string() || p["forced"] == true, "{p}");
    }
    assert_eq!(review["summary"].as_array().expect("summary").len(), 2);

    // Stored: a later POST answers it at once (200) and starts nothing.
    let (status, again) = call(&app, "POST", &uri, None, "").await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert_eq!(again["review"], *review);
    assert_eq!(state.reviews.active(), 0);
    let hash = {
        use sha2_like::digest_of_export;
        digest_of_export(&app, &id).await
    };
    assert!(state.store.db().review(&id, &hash).expect("db").is_some());
}

/// The SHA-256 the server keys a review by: of the game's export.
mod sha2_like {
    pub async fn digest_of_export(app: &axum::Router, id: &str) -> [u8; 32] {
        let (_, v) = super::call(app, "GET", &format!("/api/games/{id}/export"), None, "").await;
        let text = v["raw"]
            .as_str()
            .map(str::to_string)
            .unwrap_or(v.to_string());
        use sha2::Digest;
        sha2::Sha256::digest(text.as_bytes()).into()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_review_requests_are_clear_errors_and_the_server_keeps_serving() {
    let (_, app) = app_with(ReviewLimits::default());
    let (status, v) = call(&app, "POST", "/api/games/ffffffffffffffff/review", None, "").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
    let (status, _) = call(&app, "GET", "/api/games/ffffffffffffffff/review", None, "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let (id, token, _) = create(&app, "checkers").await;
    let uri = format!("/api/games/{id}/review");
    // Nothing played yet.
    let (status, v) = call(&app, "POST", &uri, None, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    play_first_moves(&app, &id, &token, 2).await;
    for body in [
        r#"{"depth": 10000}"#,
        r#"{"depth": 0}"#,
        r#"{"depht": 3}"#,
        "[1]",
    ] {
        let (status, v) = call(&app, "POST", &uri, None, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert!(v["error"].is_string(), "{v}");
    }
    let (_, v) = call(&app, "POST", &uri, None, r#"{"depth": 10000}"#).await;
    assert!(v["error"].as_str().expect("error").contains("depth"), "{v}");
    // Nothing to cancel.
    let (status, v) = call(&app, "DELETE", &uri, None, "").await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");

    // A judge that searches nothing takes no depth.
    let (pid, ptoken, _) = create(&app, "peg-solitaire").await;
    play_first_moves(&app, &pid, &ptoken, 1).await;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{pid}/review"),
        None,
        r#"{"depth": 4}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");

    let (status, _) = call(&app, "GET", "/api/games", None, "").await;
    assert_eq!(status, StatusCode::OK, "the server keeps serving");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_is_bounded_duplicates_join_and_cancel_stores_nothing() {
    let (state, app) = app_with(ReviewLimits {
        running: 1,
        queued: 1,
    });
    let mut ids = Vec::new();
    let mut tokens = Vec::new();
    for _ in 0..3 {
        let (id, token, _) = create(&app, "checkers").await;
        play_first_moves(&app, &id, &token, 12).await;
        ids.push(id);
        tokens.push(token);
    }
    // Depth 30 per position: far longer than this test runs, until it is cancelled.
    let deep = r#"{"depth": 30}"#;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{}/review", ids[0]),
        None,
        deep,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    // A second POST of the same game joins it.
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{}/review", ids[0]),
        None,
        deep,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    assert!(v["status"] == "queued" || v["status"] == "running", "{v}");
    assert_eq!(state.reviews.active(), 1, "no duplicate work");
    // The second game waits; the third finds the queue full.
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{}/review", ids[1]),
        None,
        deep,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{}/review", ids[2]),
        None,
        deep,
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(
        v["error"]
            .as_str()
            .expect("error")
            .contains("queue is full"),
        "{v}"
    );
    let (_, v) = call(
        &app,
        "GET",
        &format!("/api/games/{}/review", ids[1]),
        None,
        "",
    )
    .await;
    assert_eq!(v["status"], "queued", "{v}");

    // Cancel both: nothing stored, the slots free up, the server serves on.
    for id in &ids[..2] {
        let (status, v) = call(&app, "DELETE", &format!("/api/games/{id}/review"), None, "").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["status"], "cancelled");
        let (_, v) = call(&app, "GET", &format!("/api/games/{id}/review"), None, "").await;
        assert_eq!(v["status"], "cancelled", "{v}");
    }
    assert_eq!(state.reviews.active(), 0);
    // Deleting a game under review cancels its review.
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{}/review", ids[1]),
        None,
        deep,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    assert_eq!(state.reviews.active(), 1);
    let (status, v) = call(
        &app,
        "DELETE",
        &format!("/api/games/{}", ids[1]),
        Some(&tokens[1]),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        state.reviews.active(),
        0,
        "the deleted game's review is cancelled"
    );
    // The cancelled deep search stops at once, so a shallow review of the third game runs.
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{}/review", ids[2]),
        None,
        r#"{"depth": 2}"#,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let v = wait_review(&app, &ids[2]).await;
    assert_eq!(v["status"], "done", "{v}");
    // The cancelled one stored nothing.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for id in &ids[..1] {
        let (_, v) = call(&app, "GET", &format!("/api/games/{id}/review"), None, "").await;
        assert_eq!(v["status"], "cancelled", "{v}");
    }
}

async fn read_until(body: &mut Body, want: &str) -> String {
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while !text.contains(want) {
        match tokio::time::timeout_at(deadline, body.frame()).await {
            Ok(Some(Ok(f))) => {
                if let Some(data) = f.data_ref() {
                    text.push_str(&String::from_utf8_lossy(data));
                }
            }
            _ => panic!("no '{want}' in the stream; got: {text}"),
        }
    }
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_pages_see_the_review_progress_and_its_end() {
    let (_, app) = app_with(ReviewLimits::default());
    let (id, token, _) = create(&app, "checkers").await;
    play_first_moves(&app, &id, &token, 6).await;
    let resp = app
        .clone()
        .oneshot(
            Request::builder()
                .uri(format!("/api/games/{id}/events"))
                .body(Body::empty())
                .expect("req"),
        )
        .await
        .expect("resp");
    assert_eq!(resp.status(), StatusCode::OK);
    let mut events = resp.into_body();
    read_until(&mut events, "event: state").await;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/review"),
        None,
        r#"{"depth": 4}"#,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let text = read_until(&mut events, r#""status":"done""#).await;
    assert!(text.contains("event: review"), "{text}");
    assert!(text.contains(r#""total":6"#), "progress is sent: {text}");
    let v = wait_review(&app, &id).await;
    assert_eq!(v["review"]["plies"].as_array().map(Vec::len), Some(6));
}

/// Schema version 3 (before reviews) as that release wrote it, via the migrations up to it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_of_the_schema_before_reviews_opens_with_its_games_intact() {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("qiyi-review-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("v3.sqlite").display().to_string();
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        qiyi_web::db::migrate_to(&conn, 3).expect("v3");
        conn.execute(
            "INSERT INTO games (id, game, rules, position, seed, seats, hotseat, created, updated,
                status, clock, ended, resigned) VALUES ('00000000000000c3', 'checkers', '{}', NULL,
                1, '[{\"kind\":\"human\"},{\"kind\":\"human\"}]', 1, 1700000000, 1700000000,
                'playing', NULL, NULL, NULL)",
            [],
        )
        .expect("game");
        conn.execute_batch(
            "INSERT INTO moves VALUES ('00000000000000c3', 1, 0, '11-15', NULL);
             INSERT INTO moves VALUES ('00000000000000c3', 2, 1, '23-19', NULL);",
        )
        .expect("moves");
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, 3);
    }
    let state = AppState::new(
        Store::with_db(StoreConfig::default(), Db::open(&path).expect("db")),
        2,
    );
    let app = qiyi_web::router(state);
    let (status, v) = call(&app, "GET", "/api/games/00000000000000c3", None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["history"][1]["text"], "23-19");
    let (status, v) = call(&app, "GET", "/api/games?page=1", None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["total"], 1);
    // The new table works on the migrated file.
    let (status, v) = call(
        &app,
        "POST",
        "/api/games/00000000000000c3/review",
        None,
        r#"{"depth": 2}"#,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let v = wait_review(&app, "00000000000000c3").await;
    assert_eq!(v["status"], "done", "{v}");
    let conn = rusqlite::Connection::open(&path).expect("open");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("version");
    assert_eq!(version, qiyi_web::db::schema_version());
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM reviews", [], |r| r.get(0))
        .expect("reviews");
    assert_eq!(n, 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aeroplane_game_is_reviewed_from_the_servers_own_record() {
    let (_, app) = app_with(ReviewLimits::default());
    let (id, token, _) = create(&app, "aeroplane").await;
    play_first_moves(&app, &id, &token, 6).await;
    let (_, game) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
    let plies = game["history"].as_array().expect("history").len();
    let uri = format!("/api/games/{id}/review");
    let (status, v) = call(&app, "POST", &uri, None, r#"{"depth": 3}"#).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "no depth for aeroplane: {v}"
    );
    let (status, v) = call(&app, "POST", &uri, None, "").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let v = wait_review(&app, &id).await;
    assert_eq!(v["status"], "done", "{v}");
    let review = &v["review"];
    assert_eq!(review["game"], "aeroplane");
    assert_eq!(
        review["plies"].as_array().map(Vec::len),
        Some(plies),
        "one reviewed ply per move and roll"
    );
    assert!(
        review["plies"]
            .as_array()
            .expect("plies")
            .iter()
            .any(|p| p["kind"] == "chance"),
        "the rolls are judged for luck"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chinese_checkers_games_are_reviewed_from_the_servers_own_record() {
    let (_, app) = app_with(ReviewLimits::default());
    // Two players: the engine judge at a depth.
    let (id, token, _) = create(&app, "chinese-checkers").await;
    let played = play_first_moves(&app, &id, &token, 6).await;
    let uri = format!("/api/games/{id}/review");
    let (status, v) = call(&app, "POST", &uri, None, r#"{"depth": 10000}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = call(&app, "POST", &uri, None, r#"{"depth": 2}"#).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let v = wait_review(&app, &id).await;
    assert_eq!(v["status"], "done", "{v}");
    let review = &v["review"];
    assert_eq!(review["game"], "chinese-checkers");
    assert_eq!(review["unit"], "holes");
    let plies = review["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), played.len(), "one reviewed ply per move");
    for (p, mv) in plies.iter().zip(&played) {
        assert_eq!(p["played"].as_str(), Some(mv.as_str()));
        assert!(p["class"].is_string(), "{p}");
    }

    // Three players: the race model, which takes no depth.
    let body = json!({"game": "chinese-checkers", "hotseat": true, "rules": {"players": 3},
        "seats": vec![json!({"kind": "human"}); 3]});
    let (status, v) = call(&app, "POST", "/api/games", None, &body.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id3 = v["id"].as_str().expect("id").to_string();
    let token3 = v["hotseat_token"].as_str().expect("token").to_string();
    let played = play_first_moves(&app, &id3, &token3, 6).await;
    let uri = format!("/api/games/{id3}/review");
    let (status, v) = call(&app, "POST", &uri, None, r#"{"depth": 3}"#).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "no depth for the race model: {v}"
    );
    let (status, v) = call(&app, "POST", &uri, None, "").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let v = wait_review(&app, &id3).await;
    assert_eq!(v["status"], "done", "{v}");
    let review = &v["review"];
    assert_eq!(review["players"], 3);
    assert_eq!(review["unit"], "moves");
    let plies = review["plies"].as_array().expect("plies");
    assert_eq!(plies.len(), played.len());
    for p in plies {
        // The unit is the mover's race distance after the move: at most 27 moves from the start.
        let after = p["after_played"]["unit"].as_f64().expect("a race distance");
        assert!((19.0..=27.0).contains(&after), "{p}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_peg_review_frees_its_slot_for_the_next() {
    let (state, app) = app_with(ReviewLimits {
        running: 1,
        queued: 2,
    });
    // A whole peg game (the first legal move until stuck): its exact review takes a while.
    let (id, token, mut st) = create(&app, "peg-solitaire").await;
    while let Some(m) = st["legal"].get(0) {
        let mv = m["text"].as_str().expect("text").to_string();
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            &json!({ "move": mv }).to_string(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        st = v;
    }
    let (status, v) = call(&app, "POST", &format!("/api/games/{id}/review"), None, "").await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let (cid, ctoken, _) = create(&app, "checkers").await;
    play_first_moves(&app, &cid, &ctoken, 4).await;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{cid}/review"),
        None,
        r#"{"depth": 2}"#,
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{v}");
    let (_, v) = call(&app, "GET", &format!("/api/games/{cid}/review"), None, "").await;
    assert_eq!(
        v["status"], "queued",
        "one slot, held by the peg review: {v}"
    );
    let (status, v) = call(&app, "DELETE", &format!("/api/games/{id}/review"), None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // The peg judge stops at its next ply, so the checkers review gets the slot and ends.
    let v = wait_review(&app, &cid).await;
    assert_eq!(v["status"], "done", "{v}");
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}/review"), None, "").await;
    assert_eq!(v["status"], "cancelled", "nothing stored: {v}");
    assert_eq!(state.reviews.active(), 0);
}

/// Your mistakes as puzzles on the server: the stored review's blunder becomes a puzzle, its
/// best move is right, the blunder wrong, bad bodies 400.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewed_blunder_becomes_a_personal_puzzle() {
    let (_state, app) = app_with(ReviewLimits::default());
    let (id, token, _) = create(&app, "checkers").await;
    for mv in ["10-14", "24-20", "14-17", "22x13"] {
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&token),
            &json!({ "move": mv }).to_string(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let puzzles = format!("/api/games/{id}/review/puzzles");
    let (status, v) = call(&app, "POST", &puzzles, None, r#"{"side": 0}"#).await;
    assert_eq!(status, StatusCode::CONFLICT, "no review yet: {v}");
    let uri = format!("/api/games/{id}/review");
    let (status, v) = call(&app, "POST", &uri, None, r#"{"depth": 4}"#).await;
    assert!(status.is_success(), "{v}");
    let v = wait_review(&app, &id).await;
    assert_eq!(v["status"], "done", "{v}");
    // A man given away: a mistake or a blunder (by the shipped net's slope); both are puzzles.
    let class = &v["review"]["plies"][2]["class"];
    assert!(class == "mistake" || class == "blunder", "{v}");

    let (status, v) = call(&app, "POST", &puzzles, None, r#"{"side": 0}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["side"], 0);
    let list = v["puzzles"].as_array().expect("puzzles");
    assert_eq!(list.len(), 1, "{v}");
    let p = &list[0];
    assert_eq!(p["source"], json!({"kind": "review", "game": id, "ply": 2}));
    assert_eq!(p["mistake"]["played"], "14-17");
    let best = p["solution"][0].as_str().expect("best").to_string();
    assert_eq!(p["mistake"]["best"], best);
    for bad in [
        r#"{"side": 2}"#,
        r#"{"side": -1}"#,
        r#"{}"#,
        r#"{"side": 0, "x": 1}"#,
        "[0]",
    ] {
        let (status, v) = call(&app, "POST", &puzzles, None, bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }

    let check = |answer: &str| {
        json!({"position": p["position"], "answer": answer, "best": best,
               "played": "14-17", "depth": 4})
        .to_string()
    };
    // The best move is right, the move played wrong, a move that is not legal refused.
    for (answer, want) in [
        (best.as_str(), Ok(true)),
        ("14-17", Ok(false)),
        ("1-2", Err(StatusCode::UNPROCESSABLE_ENTITY)),
    ] {
        let (status, v) = call(
            &app,
            "POST",
            "/api/mistakes/checkers/check",
            None,
            &check(answer),
        )
        .await;
        match want {
            Ok(right) => assert_eq!(
                (status, v["right"].as_bool()),
                (StatusCode::OK, Some(right)),
                "{answer}: {v}"
            ),
            Err(code) => assert_eq!(status, code, "{answer}: {v}"),
        }
    }
    let (status, v) = call(&app, "POST", "/api/mistakes/nim/check", None, &check(&best)).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = call(
        &app,
        "POST",
        "/api/mistakes/checkers/check",
        None,
        r#"{"position": 1}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}
