//! The memory budget through the API: work whose table does not fit the budget is refused with
//! 503, the code `unavailable` and a `Retry-After`; it runs once memory is given back; idle
//! pooled engines are dropped to make room before anything is refused. One test: the budget and
//! the engine pools are the process's, so the steps run in order in their own test binary.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::call;
use http_body_util::BodyExt;
use qiyi_web::api::AppState;
use qiyi_web::memory;
use qiyi_web::store::{Store, StoreConfig};
use serde_json::{json, Value};
use tower::ServiceExt;

/// Sends a request; the status, the `Retry-After` header and the JSON answer (or `Null` for a
/// stream that is not JSON).
async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: &str,
) -> (StatusCode, Option<String>, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = req.body(Body::from(body.to_string())).expect("request");
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let retry = resp
        .headers()
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    (
        status,
        retry,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// A new game of `game` with an AI seat at level 1; its id and the human seat's token.
async fn new_game(app: &axum::Router, game: &str) -> (String, String) {
    let (status, v) = call(
        app,
        "POST",
        "/api/games",
        None,
        &json!({ "game": game, "level": 1 }).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["seat_tokens"][0].as_str().expect("token").to_string();
    (id, token)
}

/// Everything the budget has free, held until dropped.
fn hog() -> memory::Reservation {
    let b = memory::budget();
    let free = b.total_mib() - b.used_mib();
    b.try_reserve(free).expect("the free part fits")
}

#[tokio::test]
async fn work_past_the_budget_is_refused_with_503_and_retry_after_until_memory_is_back() {
    assert!(memory::set_budget(memory::MIN_MIB), "the first budget set");
    let budget = memory::budget();
    assert_eq!(budget.total_mib(), memory::MIN_MIB - memory::BASELINE_MIB);
    let state = AppState::new(Store::new(StoreConfig::default()), 2);
    let app = qiyi_web::router(state);
    let (xq, xq_token) = new_game(&app, "xiangqi").await;
    let (ck, ck_token) = new_game(&app, "checkers").await;
    let hint = json!({ "level": 1, "time_ms": 20, "play": false }).to_string();

    // No room: the Xiangqi AI move is refused, saying when to come back.
    let held = hog();
    let (status, retry, v) = send(
        &app,
        "POST",
        &format!("/api/games/{xq}/ai"),
        Some(&xq_token),
        &hint,
    )
    .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["code"], "unavailable", "{v}");
    assert!(
        v["error"].as_str().unwrap_or("").contains("memory budget"),
        "{v}"
    );
    assert_eq!(
        retry.as_deref(),
        Some(qiyi_web::error::NO_MEMORY_RETRY_AFTER_S)
    );
    assert_eq!(
        budget.used_mib(),
        budget.total_mib(),
        "the refusal took nothing"
    );

    // Memory given back: the same request runs, and its engine stays pooled with its table
    // counted.
    drop(held);
    let (status, _, v) = send(
        &app,
        "POST",
        &format!("/api/games/{xq}/ai"),
        Some(&xq_token),
        &hint,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let pooled = budget.used_mib();
    assert!(pooled > 0, "the idle engine's table is counted");

    // The rest taken: the pooled engine serves the next Xiangqi move without new memory, and a
    // checkers move gets the room of the idle Xiangqi engine, which is dropped for it.
    let held = hog();
    let (status, _, v) = send(
        &app,
        "POST",
        &format!("/api/games/{xq}/ai"),
        Some(&xq_token),
        &hint,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, _, v) = send(
        &app,
        "POST",
        &format!("/api/games/{ck}/ai"),
        Some(&ck_token),
        &hint,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        budget.used_mib(),
        budget.total_mib(),
        "never past the budget"
    );

    // An analysis whose table is larger than everything idle: 503 and Retry-After.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR%20w";
    let uri = format!("/api/analyse?game=xiangqi&position={fen}&max_depth=1");
    let (status, retry, v) = send(&app, "GET", &uri, None, "").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["code"], "unavailable", "{v}");
    assert!(retry.is_some());
    drop(held);
    let (status, _, _) = send(&app, "GET", &uri, None, "").await;
    assert_eq!(status, StatusCode::OK);
}
