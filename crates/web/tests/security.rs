//! Seat links: only a seat's token acts for that seat. A request with no token at all is refused
//! with 401 (and `WWW-Authenticate: Bearer`); watch links, other seats' tokens, made-up tokens and
//! stale requests with 403/409; none of them changes the stored game.

mod common;
use axum::http::StatusCode;
use common::call;
use qiyi_web::api::AppState;
use qiyi_web::store::Store;
use serde_json::Value;

struct Game {
    id: String,
    red: String,
    black: String,
    watch: String,
}

async fn two_player_xiangqi(app: &axum::Router) -> Game {
    let (status, v) = call(
        app,
        "POST",
        "/api/games",
        None,
        r#"{"game":"xiangqi","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let tokens = v["seat_tokens"].as_array().expect("seat_tokens");
    assert_eq!(tokens.len(), 2);
    let red = tokens[0].as_str().expect("red token").to_string();
    let black = tokens[1].as_str().expect("black token").to_string();
    assert_ne!(red, black);
    assert_eq!(red.len(), 32, "128-bit hex token");
    let links = v["links"]["seats"].as_array().expect("links");
    assert!(links[0]
        .as_str()
        .expect("link")
        .ends_with(&format!("&seat=0#token={red}")));
    let watch = v["links"]["watch"].as_str().expect("watch").to_string();
    assert!(!watch.contains(&red) && !watch.contains(&black));
    Game {
        id: v["id"].as_str().expect("id").to_string(),
        red,
        black,
        watch,
    }
}

async fn history_len(app: &axum::Router, id: &str) -> usize {
    let (_, v) = call(app, "GET", &format!("/api/games/{id}"), None, "").await;
    v["history"].as_array().expect("history").len()
}

#[tokio::test]
async fn only_the_seat_to_move_moves() {
    let app = qiyi_web::router(AppState::new(Store::new(Default::default()), 2));
    let g = two_player_xiangqi(&app).await;
    let moves = format!("/api/games/{}/moves", g.id);
    let forged = "0123456789abcdef0123456789abcdef";
    // Refused with 401: no token, `Bearer` with nothing after it.
    for token in [None, Some("")] {
        let (status, v) = call(&app, "POST", &moves, token, r#"{"move":"h2e2"}"#).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{token:?}: {v}");
        assert_eq!(v["code"], "unauthorized", "{token:?}: {v}");
        assert_eq!(history_len(&app, &g.id).await, 0);
    }
    // Refused with 403: the watch link's (it has none: its query string is not a token), the
    // other seat's token, a made-up one.
    for token in [g.watch.as_str(), g.black.as_str(), forged] {
        let (status, v) = call(&app, "POST", &moves, Some(token), r#"{"move":"h2e2"}"#).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{token:?}: {v}");
        assert_eq!(v["code"], "forbidden", "{token:?}: {v}");
        assert!(
            v["error"].as_str().expect("error").contains("forbidden"),
            "{v}"
        );
        assert_eq!(history_len(&app, &g.id).await, 0);
    }
    // Red's token moves Red.
    let (status, v) = call(
        &app,
        "POST",
        &moves,
        Some(&g.red),
        r#"{"move":"h2e2","ply":0}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Now Red's token may not move Black.
    let (status, _) = call(&app, "POST", &moves, Some(&g.red), r#"{"move":"h9g7"}"#).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A replayed stale request (Black's move chosen at ply 0) is refused and changes nothing.
    let (status, v) = call(
        &app,
        "POST",
        &moves,
        Some(&g.black),
        r#"{"move":"h9g7","ply":0}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{v}");
    assert_eq!(history_len(&app, &g.id).await, 1);
    // Replaying Red's own accepted request is refused too (not Red's turn any more).
    let (status, _) = call(
        &app,
        "POST",
        &moves,
        Some(&g.red),
        r#"{"move":"h2e2","ply":0}"#,
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = call(
        &app,
        "POST",
        &moves,
        Some(&g.black),
        r#"{"move":"h9g7","ply":1}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(history_len(&app, &g.id).await, 2);
    // Actions for everyone (undo, paste, delete) need every human seat: refused to one seat.
    for (uri, body) in [
        (format!("/api/games/{}/undo", g.id), "{}"),
        (
            format!("/api/games/{}/position", g.id),
            r#"{"position":"4k4/9/9/9/9/9/9/9/9/4K4 w"}"#,
        ),
    ] {
        let (status, v) = call(&app, "POST", &uri, Some(&g.red), body).await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{uri}: {v}");
    }
    let (status, _) = call(
        &app,
        "DELETE",
        &format!("/api/games/{}", g.id),
        Some(&g.black),
        "",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // Hints and resigning need the seat's token too.
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{}/ai", g.id),
        None,
        r#"{"play":false}"#,
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{}/resign", g.id),
        Some(forged),
        "{}",
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(history_len(&app, &g.id).await, 2);
    // The game is unchanged and still playable.
    let (_, v) = call(&app, "GET", &format!("/api/games/{}", g.id), None, "").await;
    assert_eq!(v["turn"]["player"], 0);
    assert!(v["result"].is_null());
}

#[tokio::test]
async fn resign_and_draw_by_links() {
    let app = qiyi_web::router(AppState::new(Store::new(Default::default()), 2));
    let g = two_player_xiangqi(&app).await;
    let draw = format!("/api/games/{}/draw", g.id);
    let (status, v) = call(&app, "POST", &draw, Some(&g.red), "{}").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["draw_offer"], 0);
    assert!(v["result"].is_null());
    let (status, v) = call(
        &app,
        "POST",
        &draw,
        Some(&g.black),
        r#"{"action":"accept"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["reason"], "draw agreed");
    assert_eq!(v["turn"]["kind"], "over");

    let g = two_player_xiangqi(&app).await;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{}/resign", g.id),
        Some(&g.black),
        "{}",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["winner"], 0, "{v}");
    assert!(v["result"]["reason"]
        .as_str()
        .expect("reason")
        .contains("resigned"));
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{}/moves", g.id),
        Some(&g.red),
        r#"{"move":"h2e2"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "no move after a resignation");
}

/// The server's log output (stdout and stderr of `qiyi serve`) never shows a token: checked on
/// the real binary in `crates/cli/tests/serve.rs`; here, no answer but the creation's carries one.
#[tokio::test]
async fn tokens_appear_only_in_the_creation_answer() {
    let app = qiyi_web::router(AppState::new(Store::new(Default::default()), 2));
    let g = two_player_xiangqi(&app).await;
    let (_, v) = call(
        &app,
        "POST",
        &format!("/api/games/{}/moves", g.id),
        Some(&g.red),
        r#"{"move":"h2e2"}"#,
    )
    .await;
    let (_, got) = call(&app, "GET", &format!("/api/games/{}", g.id), None, "").await;
    let (_, list) = call(&app, "GET", "/api/games?page=1", None, "").await;
    let (_, export) = call(
        &app,
        "GET",
        &format!("/api/games/{}/export", g.id),
        None,
        "",
    )
    .await;
    for text in [
        v.to_string(),
        got.to_string(),
        list.to_string(),
        export.to_string(),
    ] {
        assert!(!text.contains(&g.red) && !text.contains(&g.black), "{text}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_fall_ends_a_clocked_game() {
    let app = qiyi_web::router(AppState::new(Store::new(Default::default()), 2));
    let (status, v) = call(
        &app,
        "POST",
        "/api/games",
        None,
        r#"{"game":"xiangqi","seats":[{"kind":"human"},{"kind":"human"}],
            "clock":{"base_ms":1000,"increment_ms":0}}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(
        v["state"]["clock"]["running"],
        Value::Null,
        "starts with the first move"
    );
    let id = v["id"].as_str().expect("id").to_string();
    let red = v["seat_tokens"][0].as_str().expect("token").to_string();
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&red),
        r#"{"move":"h2e2"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["clock"]["running"], 1, "{v}");
    // Black lets the clock run out: the server ends the game on time, Red wins.
    tokio::time::sleep(std::time::Duration::from_millis(1400)).await;
    let (_, v) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
    assert_eq!(v["result"]["winner"], 0, "{v}");
    assert!(v["result"]["reason"]
        .as_str()
        .expect("reason")
        .contains("ran out of time"));
    assert_eq!(v["clock"]["remaining_ms"][1], 0);
    // Bad clocks are refused.
    for clock in [r#"{"base_ms":5}"#, r#"{"base_ms":60000,"inc":1}"#] {
        let body = format!(r#"{{"game":"xiangqi","clock":{clock}}}"#);
        let (status, v) = call(&app, "POST", "/api/games", None, &body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{clock}: {v}");
    }
    let (status, _) = call(
        &app,
        "POST",
        "/api/games",
        None,
        r#"{"game":"aeroplane","clock":{"base_ms":60000}}"#,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "clocks are for two-player games"
    );
}

/// Every seat action answers a request with no seat token 401 `unauthorized` with
/// `WWW-Authenticate: Bearer`, before it looks at the game or the body: on a game that exists, on
/// one that does not, and with a body it would refuse. With a token, a game that does not exist
/// is 404 and a token that is not the game's 403.
#[tokio::test]
async fn no_token_is_401_with_www_authenticate() {
    use axum::body::Body;
    use axum::http::Request;
    use tower::ServiceExt;

    let app = qiyi_web::router(AppState::new(Store::new(Default::default()), 2));
    let g = two_player_xiangqi(&app).await;
    let forged = "0123456789abcdef0123456789abcdef";
    let on = |id: &str| -> Vec<(&'static str, String, &'static str)> {
        vec![
            (
                "POST",
                format!("/api/games/{id}/moves"),
                r#"{"move":"h2e2"}"#,
            ),
            ("POST", format!("/api/games/{id}/ai"), r#"{"play":false}"#),
            ("POST", format!("/api/games/{id}/undo"), "{}"),
            ("POST", format!("/api/games/{id}/solve"), "{}"),
            (
                "POST",
                format!("/api/games/{id}/position"),
                r#"{"position":"4k4/9/9/9/9/9/9/9/9/4K4 w"}"#,
            ),
            ("POST", format!("/api/games/{id}/resign"), "{}"),
            ("POST", format!("/api/games/{id}/draw"), "{}"),
            ("DELETE", format!("/api/games/{id}"), ""),
        ]
    };
    let missing = "ffffffffffffffff";
    for (method, uri, body) in on(&g.id).into_iter().chain(on(missing)) {
        // No header, another scheme, a token without its scheme, `Bearer` with no token.
        for authorization in [
            None,
            Some("Basic dXNlcjpwYXNz"),
            Some(forged),
            Some("Bearer "),
        ] {
            // A body the handler would refuse (400) does not hide the missing token.
            for body in [body, "{not json"] {
                let mut req = Request::builder().method(method).uri(&uri);
                if let Some(a) = authorization {
                    req = req.header("authorization", a);
                }
                let req = req.body(Body::from(body.to_string())).expect("request");
                let resp = app.clone().oneshot(req).await.expect("response");
                assert_eq!(
                    resp.status(),
                    StatusCode::UNAUTHORIZED,
                    "{method} {uri} {authorization:?}"
                );
                assert_eq!(
                    resp.headers()
                        .get("www-authenticate")
                        .and_then(|v| v.to_str().ok()),
                    Some("Bearer"),
                    "{method} {uri}"
                );
                let bytes = http_body_util::BodyExt::collect(resp.into_body())
                    .await
                    .expect("body")
                    .to_bytes();
                let v: Value = serde_json::from_slice(&bytes).expect("a JSON error");
                assert_eq!(v["code"], "unauthorized", "{v}");
                assert!(
                    v["error"].as_str().expect("error").contains("Bearer"),
                    "the message says how to send the token: {v}"
                );
            }
        }
        // With a token that is not the game's: 403 on the game, 404 on a game that is not there.
        let (status, v) = call(&app, method, &uri, Some(forged), body).await;
        let want = if uri.contains(missing) {
            StatusCode::NOT_FOUND
        } else {
            StatusCode::FORBIDDEN
        };
        assert_eq!(status, want, "{method} {uri}: {v}");
    }
    assert_eq!(history_len(&app, &g.id).await, 0);
}
