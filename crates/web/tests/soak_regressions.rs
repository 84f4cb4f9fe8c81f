//! Defects the soak (`scripts/server/soak.py`) found, kept as tests.

mod common;

use axum::http::StatusCode;
use common::call;
use qiyi_web::api::AppState;
use qiyi_web::error::ErrorCode;
use qiyi_web::store::Store;

/// A peg-solitaire AI move asked for in 100 ms ran a fixed 5,000,001-node search whatever its
/// time (7 s on the Wiegleb board from its start here, more under load; past the server's 10 s
/// grace the soak got `500 the search overran its time`). The solver now runs rounds of growing
/// budgets and stops when the time is spent: 100 ms cannot reach the old floor (it would need
/// rounds of 0.2 + 0.4 + 0.8 + 1.6 + 3.2 million nodes, 60 million nodes a second).
#[tokio::test]
async fn a_peg_solitaire_ai_move_keeps_to_its_time_budget() {
    let app = qiyi_web::router(AppState::new(Store::new(Default::default()), 1));
    let (status, v) = call(
        &app,
        "POST",
        "/api/games",
        None,
        r#"{"game":"peg-solitaire","rules":{"board":"wiegleb"},"hotseat":true}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["hotseat_token"].as_str().expect("token").to_string();
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/ai"),
        Some(&token),
        r#"{"level":1,"time_ms":100,"play":false}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let nodes = v["ai"]["nodes"].as_u64().expect("nodes");
    assert!(nodes > 0, "{v}");
    assert!(nodes < 5_000_000, "the search ignored its time: {v}");
    // Still a legal move.
    let mv = v["ai"]["move"].as_str().expect("move");
    let legal: Vec<&str> = v["state"]["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert!(legal.contains(&mv), "{mv} not in {legal:?}");
}

/// The soak, under a load average of 20, once got `500 the search overran its time` from `POST
/// /ai`. A search past its time is now told to stop and answers with its best move so far; one
/// that still does not answer is a 503 (the server is too loaded), never a 500.
#[tokio::test]
async fn a_search_past_its_time_is_stopped_and_answers_or_is_a_503() {
    use qiyi_web::api::await_search;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use std::time::Duration;

    // A search that ignores its time but obeys the stop flag: it answers once told.
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let job = tokio::task::spawn_blocking(move || {
        while !flag.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(5));
        }
        "best so far"
    });
    let answer = await_search(
        job,
        Duration::from_millis(50),
        Duration::from_secs(5),
        || stop.store(true, Ordering::Relaxed),
    )
    .await;
    assert_eq!(answer.ok(), Some("best so far"));

    // One that ignores the stop too (a machine too loaded to run it): 503, code `unavailable`.
    let job = tokio::task::spawn_blocking(|| std::thread::sleep(Duration::from_millis(600)));
    let mut stopped = false;
    let err = await_search(
        job,
        Duration::from_millis(50),
        Duration::from_millis(50),
        || stopped = true,
    )
    .await
    .expect_err("still running after its grace");
    assert!(stopped, "the search was told to stop");
    assert_eq!(err.code(), ErrorCode::Unavailable);
    assert_eq!(serde_json::json!(err.code()), "unavailable");
    assert_eq!(err.status(), StatusCode::SERVICE_UNAVAILABLE);

    // A search that ends in time is untouched.
    let job = tokio::task::spawn_blocking(|| 7);
    let answer = await_search(job, Duration::from_secs(5), Duration::from_secs(5), || {
        panic!("stopped a search that ended in time")
    })
    .await;
    assert_eq!(answer.ok(), Some(7));
}
