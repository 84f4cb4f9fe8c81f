//! What the link-game tests share: one request through the router with an optional seat token.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::{json, Value};
use tower::ServiceExt;

/// Sends one request (with `Authorization: Bearer token` when given); returns the status and the
/// JSON answer (`{"raw": text}` for an answer that is not JSON, such as an export).
pub async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: &str,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    let req = req.body(Body::from(body.to_string())).expect("request");
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| json!({ "raw": String::from_utf8_lossy(&bytes).to_string() }));
    (status, v)
}

/// Plays the first legal move of `state` up to `plies` times (fewer when the game ends) with the
/// seat token `token`; every move must be accepted. Returns the last state.
#[allow(dead_code)] // not every test file that includes this module plays moves
pub async fn play_first_moves(
    app: &axum::Router,
    id: &str,
    token: &str,
    mut state: Value,
    plies: usize,
) -> Value {
    for _ in 0..plies {
        let Some(mv) = state["legal"][0]["text"].as_str().map(str::to_string) else {
            break;
        };
        let (status, s) = call(
            app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(token),
            &json!({ "move": mv }).to_string(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{s}");
        state = s;
    }
    state
}
