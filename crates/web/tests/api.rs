//! Integration tests of the JSON API, driven in-process through the router (no socket).

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use qiyi_web::api::AppState;
use qiyi_web::store::{Store, StoreConfig};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;
use tower::ServiceExt;

/// The hot-seat token of every game the tests created (the tests play as the one browser that
/// holds every seat; `security.rs` tests the seat links).
fn tokens() -> &'static Mutex<HashMap<String, String>> {
    static TOKENS: OnceLock<Mutex<HashMap<String, String>>> = OnceLock::new();
    TOKENS.get_or_init(|| Mutex::new(HashMap::new()))
}

fn app_with(config: StoreConfig) -> axum::Router {
    qiyi_web::router(AppState::new(Store::new(config), 4))
}

fn app() -> axum::Router {
    app_with(StoreConfig::default())
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    let id = uri.split('/').nth(3).unwrap_or("");
    if let Some(token) = tokens().lock().expect("tokens").get(id) {
        req = req.header("authorization", format!("Bearer {token}"));
    }
    let req = req
        .body(Body::from(body.unwrap_or("").to_string()))
        .expect("request");
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let value = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| json!({ "raw": String::from_utf8_lossy(&bytes).to_string() }));
    (status, value)
}

async fn create(app: &axum::Router, mut body: Value) -> (String, Value) {
    if body.get("hotseat").is_none() {
        body["hotseat"] = json!(true);
    }
    let (status, v) = call(app, "POST", "/api/games", Some(&body.to_string())).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["hotseat_token"].as_str().expect("hot-seat token");
    tokens()
        .lock()
        .expect("tokens")
        .insert(id, token.to_string());
    (
        v["id"].as_str().expect("id").to_string(),
        v["state"].clone(),
    )
}

fn legal_texts(state: &Value) -> Vec<String> {
    state["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .map(|m| m["text"].as_str().expect("text").to_string())
        .collect()
}

#[tokio::test]
async fn catalog_lists_games() {
    let (status, v) = call(&app(), "GET", "/api/games", None).await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = v["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["game"].as_str())
        .collect();
    assert!(names.contains(&"tictactoe"), "{names:?}");
}

#[tokio::test]
async fn create_get_move_ai_undo() {
    let app = app();
    let (id, state) = create(&app, json!({"game": "tictactoe", "level": 9})).await;
    assert_eq!(state["turn"], json!({"kind": "player", "player": 0}));
    assert_eq!(legal_texts(&state).len(), 9);
    assert_eq!(
        state["seats"],
        json!([{"kind": "human"}, {"kind": "ai", "level": 9}])
    );
    assert!(state["result"].is_null());

    let (status, got) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(got["position"], state["position"]);

    // A legal move: the corner.
    let (status, after) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move":"a1"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["history"][0]["text"], "a1");
    assert_eq!(after["history"][0]["path"], json!(["a1"]));
    assert_eq!(legal_texts(&after).len(), 8);
    assert_eq!(after["turn"]["player"], 1);

    // The AI answers: against a corner the only non-losing reply is the centre.
    let (status, ai) = call(&app, "POST", &format!("/api/games/{id}/ai"), Some("{}")).await;
    assert_eq!(status, StatusCode::OK, "{ai}");
    assert_eq!(ai["ai"]["move"], "b2", "{ai}");
    assert!(ai["ai"]["nodes"].as_u64().expect("nodes") > 0);
    assert!(ai["ai"]["depth"].as_u64().expect("depth") >= 1);
    assert!(ai["ai"]["engine"]
        .as_str()
        .expect("engine")
        .contains("alpha-beta"));
    assert_eq!(ai["state"]["history"].as_array().expect("history").len(), 2);
    assert_eq!(ai["state"]["turn"]["player"], 0);
    assert!(ai["state"]["thinking"].is_null());

    // A hint does not play.
    let (status, hint) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/ai"),
        Some(r#"{"play":false,"level":2}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    assert_eq!(hint["played"], false);
    assert_eq!(
        hint["state"]["history"].as_array().expect("history").len(),
        2
    );
    assert!(legal_texts(&hint["state"])
        .contains(&hint["ai"]["move"].as_str().expect("move").to_string()));

    // Undo both moves at once, then one more is too many.
    let (status, undone) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(r#"{"plies":2}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{undone}");
    assert_eq!(undone["history"], json!([]));
    assert_eq!(undone["position"], state["position"]);
    let (status, err) = call(&app, "POST", &format!("/api/games/{id}/undo"), None).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert!(err["error"].as_str().expect("error").contains("take back"));

    // Solve is for puzzles only.
    let (status, err) = call(&app, "POST", &format!("/api/games/{id}/solve"), None).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(err["error"].as_str().expect("error").contains("no solver"));

    // Delete, then the game is gone.
    let (status, _) = call(&app, "DELETE", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
    let (status, err) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(err["error"].is_string());
}

#[tokio::test]
async fn game_played_to_the_end_reports_result() {
    let app = app();
    // x: a1 b1 c1 wins the bottom row while o plays a2 b2.
    let (id, _) = create(
        &app,
        json!({"game": "tictactoe", "seats": [{"kind":"human"},{"kind":"human"}]}),
    )
    .await;
    let mut last = Value::Null;
    for mv in ["a1", "a2", "b1", "b2", "c1"] {
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": mv}).to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        last = v;
    }
    assert_eq!(last["turn"]["kind"], "over");
    assert_eq!(last["result"]["winner"], 0);
    assert_eq!(last["result"]["returns"], json!([1.0, -1.0]));
    assert_eq!(last["result"]["reason"], "three in a row");
    assert!(legal_texts(&last).is_empty());
    let (status, err) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move":"c3"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    let (status, err) = call(&app, "POST", &format!("/api/games/{id}/ai"), None).await;
    assert_eq!(status, StatusCode::CONFLICT, "{err}");
    assert!(err["error"].as_str().expect("error").contains("over"));
}

#[tokio::test]
async fn ai_plays_both_sides_of_nim_perfectly() {
    let app = app();
    let (id, _) = create(
        &app,
        json!({"game": "nim", "rules": {"heaps": "1-3-5-7"},
        "seats": [{"kind":"ai","level":10},{"kind":"ai","level":10}]}),
    )
    .await;
    // 1^3^5^7 = 0: the first player loses against perfect play, so the second player wins.
    let mut state = Value::Null;
    for _ in 0..40 {
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/ai"),
            Some(r#"{"time_ms":2000}"#),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        state = v["state"].clone();
        if state["turn"]["kind"] == "over" {
            break;
        }
    }
    assert_eq!(state["turn"]["kind"], "over");
    assert_eq!(state["result"]["winner"], 1, "{state}");
}

#[tokio::test]
async fn bad_requests_get_4xx_json_errors() {
    let app = app();
    let cases: Vec<(&str, String, Option<&str>, StatusCode, &str)> = vec![
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"go"}"#),
            StatusCode::BAD_REQUEST,
            "unknown game 'go'",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"#),
            StatusCode::BAD_REQUEST,
            "bad JSON",
        ),
        (
            "POST",
            "/api/games".into(),
            Some("not json at all"),
            StatusCode::BAD_REQUEST,
            "bad JSON",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"gme":"nim"}"#),
            StatusCode::BAD_REQUEST,
            "bad JSON",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"nim","level":11}"#),
            StatusCode::BAD_REQUEST,
            "level",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"nim","seats":[{"kind":"human"}]}"#),
            StatusCode::BAD_REQUEST,
            "seats",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"nim","seats":[{"kind":"robot"},{"kind":"human"}]}"#),
            StatusCode::BAD_REQUEST,
            "bad JSON",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"tictactoe","position":"xxxxxxxxx o"}"#),
            StatusCode::BAD_REQUEST,
            "bad position",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"nim","rules":[1,2]}"#),
            StatusCode::BAD_REQUEST,
            "rules",
        ),
        (
            "POST",
            "/api/games".into(),
            Some(r#"{"game":"nim","rules":{"heaps":7}}"#),
            StatusCode::BAD_REQUEST,
            "heaps",
        ),
        (
            "GET",
            "/api/games/0123456789abcdef".into(),
            None,
            StatusCode::NOT_FOUND,
            "no game",
        ),
        // No token for a seat action is 401 before the game is looked up (security.rs: a
        // token on a game that does not exist is 404).
        (
            "POST",
            "/api/games/nope/moves".into(),
            Some(r#"{"move":"a1"}"#),
            StatusCode::UNAUTHORIZED,
            "unauthorized",
        ),
        (
            "GET",
            "/api/nothing".into(),
            None,
            StatusCode::NOT_FOUND,
            "endpoint",
        ),
    ];
    for (method, uri, body, want, text) in cases {
        let (status, v) = call(&app, method, &uri, body).await;
        assert_eq!(status, want, "{method} {uri} {body:?}: {v}");
        let msg = v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error text: {v}"));
        assert!(
            msg.contains(text),
            "{method} {uri} {body:?}: '{msg}' lacks '{text}'"
        );
    }

    let (id, _) = create(&app, json!({"game": "tictactoe"})).await;
    let moves = format!("/api/games/{id}/moves");
    for (body, want, text) in [
        (
            r#"{"move":"d4"}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal move 'd4'",
        ),
        (
            r#"{"move":""}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
            "illegal move",
        ),
        (r#"{"mv":"a1"}"#, StatusCode::BAD_REQUEST, "bad JSON"),
        (r#"{"move":5}"#, StatusCode::BAD_REQUEST, "bad JSON"),
        ("", StatusCode::BAD_REQUEST, "bad JSON"),
    ] {
        let (status, v) = call(&app, "POST", &moves, Some(body)).await;
        assert_eq!(status, want, "{body}: {v}");
        assert!(
            v["error"].as_str().expect("error").contains(text),
            "{body}: {v}"
        );
    }
    // A taken square is illegal too, and the failed move changed nothing.
    call(&app, "POST", &moves, Some(r#"{"move":"b2"}"#)).await;
    let (status, v) = call(&app, "POST", &moves, Some(r#"{"move":"b2"}"#)).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (_, state) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(state["history"].as_array().expect("history").len(), 1);

    for body in [r#"{"level":0}"#, r#"{"lvl":3}"#, "[]"] {
        let (status, v) = call(&app, "POST", &format!("/api/games/{id}/ai"), Some(body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
    }
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(r#"{"plies":0}"#),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/position"),
        Some(r#"{"position":"junk"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

#[tokio::test]
async fn position_paste_replaces_the_game() {
    let app = app();
    let (id, _) = create(&app, json!({"game": "tictactoe"})).await;
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/position"),
        Some(r#"{"position":"xx.oo.... x"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["position"], "xx.oo.... x");
    assert_eq!(legal_texts(&v).len(), 5);
    let (status, ai) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/ai"),
        Some(r#"{"level":5}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{ai}");
    assert_eq!(ai["ai"]["move"], "c3", "x completes the top row");
    assert_eq!(ai["state"]["result"]["winner"], 0);
}

#[tokio::test]
async fn store_cap_and_expiry() {
    // A full memory drops the least recently used game (still in the database)...
    let state = AppState::new(
        Store::new(StoreConfig {
            capacity: 3,
            idle_expiry: Duration::from_secs(3600),
        }),
        2,
    );
    let app = qiyi_web::router(state.clone());
    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(create(&app, json!({"game": "nim"})).await.0);
    }
    assert_eq!(state.store.len(), 3);
    let (status, v) = call(&app, "GET", &format!("/api/games/{}", ids[0]), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // ...but not one a page is watching: with every game watched, one more answers 503.
    let mut streams = Vec::new();
    for id in &ids[1..] {
        let req = Request::builder()
            .uri(format!("/api/games/{id}/events"))
            .body(Body::empty())
            .expect("request");
        streams.push(app.clone().oneshot(req).await.expect("stream"));
    }
    let (status, v) = call(&app, "POST", "/api/games", Some(r#"{"game":"nim"}"#)).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(v["error"]
        .as_str()
        .expect("error")
        .contains("too many games"));
    drop(streams);

    // An idle game leaves memory but not the database: it comes back when asked for.
    let state = AppState::new(
        Store::new(StoreConfig {
            capacity: 3,
            idle_expiry: Duration::from_millis(50),
        }),
        2,
    );
    let app = qiyi_web::router(state.clone());
    let (id, _) = create(&app, json!({"game": "nim"})).await;
    call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move":"1:1"}"#),
    )
    .await;
    tokio::time::sleep(Duration::from_millis(120)).await;
    assert_eq!(state.store.purge_expired(), 1);
    assert_eq!(state.store.len(), 0);
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["history"][0]["text"], "1:1", "{v}");
    tokio::time::sleep(Duration::from_millis(120)).await;
    for _ in 0..3 {
        create(&app, json!({"game": "nim"})).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn fifty_concurrent_games() {
    let app = app();
    let mut tasks = Vec::new();
    for g in 0..50u64 {
        let app = app.clone();
        tasks.push(tokio::spawn(async move {
            let (id, _) = create(
                &app,
                json!({"game": "tictactoe", "seed": g,
                "seats": [{"kind":"seed"},{"kind":"ai","level":4}]}),
            )
            .await;
            // Both seats are AIs: the random mover against alpha-beta, to the end.
            let mut state = Value::Null;
            for _ in 0..9 {
                let (status, v) = call(
                    &app,
                    "POST",
                    &format!("/api/games/{id}/ai"),
                    Some(r#"{"time_ms":500}"#),
                )
                .await;
                assert_eq!(status, StatusCode::OK, "{v}");
                state = v["state"].clone();
                if state["turn"]["kind"] == "over" {
                    break;
                }
            }
            assert_eq!(state["turn"]["kind"], "over", "{state}");
            // Alpha-beta never loses tic-tac-toe.
            assert_ne!(state["result"]["winner"], 0, "{state}");
            (id, state["history"].as_array().map_or(0, |h| h.len()))
        }));
    }
    let mut ids = std::collections::HashSet::new();
    for t in tasks {
        let (id, plies) = t.await.expect("task");
        assert!(plies >= 5);
        ids.insert(id);
    }
    assert_eq!(ids.len(), 50, "every game got its own id");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_search_does_not_block_other_requests() {
    let app = app();
    let (slow, _) = create(&app, json!({"game": "nim", "rules": {"heaps": "2-5-7-9"}})).await;
    let (fast, _) = create(&app, json!({"game": "tictactoe"})).await;
    let app2 = app.clone();
    let search = tokio::spawn(async move {
        call(
            &app2,
            "POST",
            &format!("/api/games/{slow}/ai"),
            Some(r#"{"level":10,"time_ms":1500}"#),
        )
        .await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    // While it searches, other games answer, and the searching game says it is thinking.
    let started = std::time::Instant::now();
    for _ in 0..20 {
        let (status, _) = call(&app, "GET", &format!("/api/games/{fast}"), None).await;
        assert_eq!(status, StatusCode::OK);
    }
    let quick = started.elapsed();
    let (status, busy) = call(
        &app,
        "POST",
        &format!("/api/games/{fast}/moves"),
        Some(r#"{"move":"b2"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{busy}");
    let (status, done) = search.await.expect("search task");
    assert_eq!(status, StatusCode::OK, "{done}");
    // Not a timing assertion on the machine's speed: the 20 reads must not have waited for the
    // whole search (they ran while it was going on).
    assert!(quick < Duration::from_millis(1400), "reads took {quick:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_listed_game_plays_a_move_and_the_ai_answers() {
    let app = app();
    let (_, cat) = call(&app, "GET", "/api/games", None).await;
    let games: Vec<String> = cat["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| g["listed"] == true)
        .map(|g| g["game"].as_str().expect("name").to_string())
        .collect();
    for game in ["xiangqi", "checkers", "peg-solitaire"] {
        assert!(
            games.iter().any(|g| g == game),
            "{game} missing from {games:?}"
        );
    }
    for game in &games {
        let (id, state) = create(&app, json!({"game": game, "level": 1})).await;
        let legal = legal_texts(&state);
        assert!(!legal.is_empty(), "{game}: no legal move at the start");
        for m in state["legal"].as_array().expect("legal") {
            assert!(
                !m["path"].as_array().expect("path").is_empty(),
                "{game}: move without a path"
            );
        }
        let before = state["history"].as_array().expect("history").len();
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": legal[0]}).to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{game}: {v}");
        assert!(v["history"].as_array().expect("history").len() > before);
        let (status, ai) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/ai"),
            Some(r#"{"time_ms":300}"#),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{game}: {ai}");
        assert!(ai["ai"]["engine"].is_string(), "{game}: {ai}");
        // The position text round-trips through the paste endpoint.
        let pos = ai["state"]["position"]
            .as_str()
            .expect("position")
            .to_string();
        let (status, v) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/position"),
            Some(&json!({"position": pos}).to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{game}: {v}");
        assert_eq!(v["position"].as_str(), Some(pos.as_str()), "{game}");
    }
}

#[tokio::test]
async fn xiangqi_moves_have_chinese_labels_and_check_is_shown() {
    let app = app();
    let (id, state) = create(&app, json!({"game": "xiangqi"})).await;
    assert_eq!(
        legal_texts(&state).len(),
        44,
        "the published count of opening moves"
    );
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(r#"{"move":"h2e2"}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["history"][0]["label"], "炮二平五");
    assert_eq!(v["history"][0]["path"], json!(["h2", "e2"]));
    let glyphs: String = v["view"]["pieces"]
        .as_array()
        .expect("pieces")
        .iter()
        .map(|p| p["glyph"].as_str().unwrap_or(""))
        .collect();
    for g in ["帥", "將", "俥", "砲", "卒", "兵"] {
        assert!(glyphs.contains(g), "missing {g} in {glyphs}");
    }
    assert!(v["view"]["check"].is_null());
    // A position with Black in check from a rook on the open e-file.
    let (id, state) = create(
        &app,
        json!({"game": "xiangqi", "position": "4k4/9/9/9/9/9/9/9/9/3KR4 b"}),
    )
    .await;
    assert_eq!(state["view"]["check"], "e9", "{state}");
    let (status, _) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn checkers_multi_jump_path_lists_every_landing_square() {
    let app = app();
    // Black man on 9 can jump 14 and then 23: 9x18x27.
    let (id, state) = create(
        &app,
        json!({"game": "checkers", "position": "B:W14,23,32:B9"}),
    )
    .await;
    let legal: Vec<&Value> = state["legal"].as_array().expect("legal").iter().collect();
    assert_eq!(legal.len(), 1, "{state}");
    assert_eq!(legal[0]["path"], json!(["9", "18", "27"]), "{state}");
    let text = legal[0]["text"].as_str().expect("text").to_string();
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&json!({"move": text}).to_string()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["view"]["pieces"].as_array().expect("pieces").len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn peg_solitaire_solves_the_english_board() {
    let app = app();
    let (id, state) = create(
        &app,
        json!({"game": "peg-solitaire", "rules": {"board": "english"}}),
    )
    .await;
    assert_eq!(state["view"]["pegs"], 32);
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/solve"),
        Some(r#"{"time_ms":20000}"#),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["solve"]["solved"], true, "{v}");
    let moves: Vec<String> = v["solve"]["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("m").to_string())
        .collect();
    assert_eq!(moves.len(), 31, "31 jumps from 32 pegs to 1");
    for mv in &moves {
        let (status, s) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&json!({"move": mv}).to_string()),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{mv}: {s}");
    }
    let (_, end) = call(&app, "GET", &format!("/api/games/{id}"), None).await;
    assert_eq!(end["turn"]["kind"], "over");
    assert_eq!(end["view"]["pegs"], 1);
    assert!(
        end["result"]["reason"]
            .as_str()
            .expect("reason")
            .contains("solved"),
        "{end}"
    );
    // French board, centre start: impossible by the position-class argument.
    let (id, _) = create(&app, json!({"game": "peg", "rules": {"board": "french"}})).await;
    let (status, v) = call(&app, "POST", &format!("/api/games/{id}/solve"), None).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["solve"]["solved"], false, "{v}");
    assert!(
        v["solve"]["note"]
            .as_str()
            .expect("note")
            .contains("impossible"),
        "{v}"
    );
    let (status, v) = call(
        &app,
        "POST",
        "/api/games",
        Some(r#"{"game":"peg","rules":{"board":"hexagon"}}"#),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
}

/// Plays every game to its end with AI seats only (level 1, short searches): each game must
/// finish with a result and a reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_can_be_played_to_the_end() {
    let app = app();
    for (game, players, rules) in [
        ("xiangqi", 2, json!({})),
        ("checkers", 2, json!({})),
        ("chinese-checkers", 2, json!({"players": 2})),
        ("peg-solitaire", 1, json!({"board": "english"})),
        ("aeroplane", 2, json!({"players": 2})),
    ] {
        let seats: Vec<Value> = (0..players)
            .map(|_| json!({"kind": "ai", "level": 1}))
            .collect();
        let (id, _) = create(
            &app,
            json!({"game": game, "seats": seats, "rules": rules, "seed": 7}),
        )
        .await;
        let mut state = Value::Null;
        let mut calls = 0;
        while calls < 3000 {
            calls += 1;
            let (status, v) = call(
                &app,
                "POST",
                &format!("/api/games/{id}/ai"),
                Some(r#"{"time_ms":30}"#),
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{game}: {v}");
            state = v["state"].clone();
            if state["turn"]["kind"] == "over" {
                break;
            }
        }
        assert_eq!(
            state["turn"]["kind"], "over",
            "{game} did not end in {calls} AI moves"
        );
        let reason = state["result"]["reason"].as_str().expect("reason");
        assert!(!reason.is_empty());
        eprintln!("{game}: over after {calls} AI moves: {reason}");
    }
}

/// One name per game: the catalog, the state and the page use the command line's names, and the
/// old name `peg` still starts peg solitaire and its page address redirects.
#[tokio::test]
async fn games_have_one_name_and_old_names_still_work() {
    let app = app();
    let (_, cat) = call(&app, "GET", "/api/games", None).await;
    let names: Vec<&str> = cat["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter(|g| g["listed"] == true)
        .filter_map(|g| g["game"].as_str())
        .collect();
    assert_eq!(
        names,
        [
            "xiangqi",
            "checkers",
            "chinese-checkers",
            "peg-solitaire",
            "aeroplane"
        ]
    );
    for name in ["peg", "peg-solitaire"] {
        let (_, state) = create(&app, json!({"game": name})).await;
        assert_eq!(state["game"], "peg-solitaire", "{name}");
    }
    let page = |uri: &str| {
        Request::builder()
            .uri(uri)
            .body(Body::empty())
            .expect("request")
    };
    let resp = app
        .clone()
        .oneshot(page("/play/peg"))
        .await
        .expect("response");
    assert_eq!(resp.status(), StatusCode::PERMANENT_REDIRECT);
    assert_eq!(
        resp.headers().get("location").and_then(|v| v.to_str().ok()),
        Some("/play/peg-solitaire")
    );
    let resp = app
        .clone()
        .oneshot(page("/play/peg-solitaire"))
        .await
        .expect("response");
    assert_eq!(resp.status(), StatusCode::OK);
}
