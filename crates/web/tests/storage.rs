//! Games in SQLite: a game outlives its server (rebuilt by replaying its record), an older
//! schema's file opens, the archive lists and exports games, live pages see moves as they
//! happen and resume where they left off, and AI seats of link games move by themselves.

mod common;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{call, play_first_moves};
use http_body_util::BodyExt;
use qiyi_web::api::AppState;
use qiyi_web::db::Db;
use qiyi_web::store::{Store, StoreConfig};
use serde_json::{json, Value};
use std::time::Duration;
use tower::ServiceExt;

fn temp_db(name: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("qiyi-test-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name).display().to_string()
}

fn app_on(path: &str) -> (AppState, axum::Router) {
    let state = AppState::new(
        Store::with_db(StoreConfig::default(), Db::open(path).expect("db")),
        2,
    );
    (state.clone(), qiyi_web::router(state))
}

async fn create(app: &axum::Router, body: Value) -> Value {
    let (status, v) = call(app, "POST", "/api/games", None, &body.to_string()).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    v
}

#[tokio::test]
async fn games_survive_a_restart_with_dice_and_moves() {
    let path = temp_db("restart.sqlite");
    let (id, token, before) = {
        let (_, app) = app_on(&path);
        let v = create(
            &app,
            json!({"game": "aeroplane", "rules": {"players": 2}, "seed": 9, "hotseat": true,
                   "seats": [{"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
        let id = v["id"].as_str().expect("id").to_string();
        let token = v["hotseat_token"].as_str().expect("token").to_string();
        let state = play_first_moves(&app, &id, &token, v["state"].clone(), 30).await;
        (id, token, state)
    };
    assert!(before["history"].as_array().expect("history").len() > 30);
    // A new server on the same file rebuilds the game by replaying its record.
    let (state, app) = app_on(&path);
    assert_eq!(state.store.len(), 0);
    let (status, after) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["position"], before["position"]);
    assert_eq!(after["history"], before["history"]);
    assert_eq!(after["legal"], before["legal"]);
    // The old token still plays.
    let mv = after["legal"][0]["text"]
        .as_str()
        .expect("legal move")
        .to_string();
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&token),
        &json!({ "move": mv }).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// The schema of version 1 exactly as that release wrote it (frozen here on purpose).
const SCHEMA_V1: &str = "CREATE TABLE games (
        id TEXT PRIMARY KEY, game TEXT NOT NULL, rules TEXT NOT NULL, position TEXT,
        seed INTEGER NOT NULL, seats TEXT NOT NULL, hotseat INTEGER NOT NULL,
        created INTEGER NOT NULL, updated INTEGER NOT NULL, status TEXT NOT NULL);
    CREATE TABLE tokens (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        hash BLOB NOT NULL, seat INTEGER);
    CREATE INDEX tokens_game ON tokens(game_id);
    CREATE TABLE moves (game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL, player INTEGER, text TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)) WITHOUT ROWID;
    CREATE INDEX games_updated ON games(updated);
    PRAGMA user_version = 1;";

#[tokio::test]
async fn a_database_of_the_previous_schema_opens_and_plays_on() {
    let path = temp_db("v1.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        conn.execute_batch(SCHEMA_V1).expect("v1 schema");
        let token = "00112233445566778899aabbccddeeff";
        conn.execute(
            "INSERT INTO games VALUES ('00000000000000a1', 'tictactoe', '{}', NULL, 1,
             '[{\"kind\":\"human\"},{\"kind\":\"human\"}]', 1, 1700000000, 1700000000, 'playing')",
            [],
        )
        .expect("game");
        conn.execute(
            "INSERT INTO tokens VALUES ('00000000000000a1', ?1, NULL)",
            [&qiyi_web::tokens::hash(token)[..]],
        )
        .expect("token");
        conn.execute_batch(
            "INSERT INTO moves VALUES ('00000000000000a1', 1, 0, 'a1');
             INSERT INTO moves VALUES ('00000000000000a1', 2, 1, 'b2');",
        )
        .expect("moves");
    }
    let (_, app) = app_on(&path);
    let (status, v) = call(&app, "GET", "/api/games/00000000000000a1", None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["history"][1]["text"], "b2");
    let (status, v) = call(
        &app,
        "POST",
        "/api/games/00000000000000a1/moves",
        Some("00112233445566778899aabbccddeeff"),
        r#"{"move":"c3"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let conn = rusqlite::Connection::open(&path).expect("open");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("version");
    assert_eq!(version, qiyi_web::db::schema_version());
    let n: i64 = conn
        .query_row("SELECT COUNT(*) FROM moves", [], |r| r.get(0))
        .expect("count");
    assert_eq!(n, 3, "the new move is stored in the migrated file");
}

#[tokio::test]
async fn a_record_that_does_not_replay_is_an_error_not_a_panic() {
    let path = temp_db("bad.sqlite");
    let (_, app) = app_on(&path);
    let v = create(&app, json!({"game": "tictactoe", "hotseat": true})).await;
    let id = v["id"].as_str().expect("id").to_string();
    drop(app);
    let conn = rusqlite::Connection::open(&path).expect("open");
    conn.execute(
        "INSERT INTO moves (game_id, ply, player, text) VALUES (?1, 1, 0, 'z9')",
        [&id],
    )
    .expect("insert");
    let (_, app) = app_on(&path);
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{v}");
    assert!(
        v["error"]
            .as_str()
            .expect("error")
            .contains("does not replay"),
        "{v}"
    );
}

#[tokio::test]
async fn archive_lists_pages_and_exports_each_format() {
    let (_, app) = app_on(":memory:");
    let x = create(
        &app,
        json!({"game": "xiangqi", "hotseat": true, "seats": [{"kind":"human"},{"kind":"human"}]}),
    )
    .await;
    let xid = x["id"].as_str().expect("id");
    let xt = x["hotseat_token"].as_str().expect("token");
    for mv in ["h2e2", "h9g7", "h0g2"] {
        let (s, v) = call(
            &app,
            "POST",
            &format!("/api/games/{xid}/moves"),
            Some(xt),
            &json!({"move": mv}).to_string(),
        )
        .await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
    let c = create(
        &app,
        json!({"game": "checkers", "hotseat": true, "seats": [{"kind":"human"},{"kind":"human"}]}),
    )
    .await;
    let cid = c["id"].as_str().expect("id");
    let ct = c["hotseat_token"].as_str().expect("token");
    let first = c["state"]["legal"][0]["text"]
        .as_str()
        .expect("move")
        .to_string();
    call(
        &app,
        "POST",
        &format!("/api/games/{cid}/moves"),
        Some(ct),
        &json!({"move": first}).to_string(),
    )
    .await;
    let a = create(
        &app,
        json!({"game": "aeroplane", "rules": {"players": 2}, "seed": 3}),
    )
    .await;
    let aid = a["id"].as_str().expect("id");

    let (status, list) = call(&app, "GET", "/api/games?page=1", None, "").await;
    assert_eq!(status, StatusCode::OK, "{list}");
    assert_eq!(list["total"], 3);
    let ids: Vec<&str> = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert!(
        ids.contains(&xid) && ids.contains(&cid) && ids.contains(&aid),
        "{list}"
    );
    let (status, _) = call(&app, "GET", "/api/games?page=0", None, "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (_, cat) = call(&app, "GET", "/api/games", None, "").await;
    assert!(
        cat["games"][0]["title"].is_string(),
        "without page: the catalog"
    );

    let export = |id: &str, q: &str| format!("/api/games/{id}/export{q}");
    let (status, v) = call(&app, "GET", &export(xid, ""), None, "").await;
    assert_eq!(status, StatusCode::OK);
    let pgn = v["raw"].as_str().expect("pgn text").to_string();
    assert!(
        pgn.contains("[Game \"Chinese Chess\"]")
            && pgn.contains("[FEN \"")
            && pgn.contains("[Format \"ICCS\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. H2-E2 H9-G7 2. H0-G2 *"), "{pgn}");
    let (_, v) = call(&app, "GET", &export(xid, "?moves=wxf"), None, "").await;
    let wxf = v["raw"].as_str().expect("pgn text").to_string();
    assert!(wxf.contains("1. C2=5 H8+7 2. H2+3 *"), "{wxf}");
    let (_, v) = call(&app, "GET", &export(cid, ""), None, "").await;
    let pdn = v["raw"].as_str().expect("pdn text").to_string();
    assert!(pdn.contains(&format!("1. {first} *")), "{pdn}");
    let (_, record) = call(&app, "GET", &export(aid, ""), None, "").await;
    assert_eq!(record["game"], "aeroplane");
    assert!(
        !record["moves"].as_array().expect("moves").is_empty(),
        "die rolls are in the record"
    );

    // Each export imports back to the same moves.
    for (id, text) in [
        (xid, pgn),
        (xid, wxf),
        (cid, pdn),
        (aid, record.to_string()),
    ] {
        let (status, v) = call(&app, "POST", "/api/games/import", None, &text).await;
        assert_eq!(status, StatusCode::CREATED, "{text}: {v}");
        let (_, orig) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
        assert_eq!(v["state"]["history"], orig["history"], "{text}");
        assert_eq!(v["state"]["position"], orig["position"]);
    }
    for bad in [
        "",
        "[Game \"Chinese Chess\"]\n\n1. H2-E9 *",
        "{\"game\":\"go\",\"moves\":[]}",
        "1. 99-98 *",
    ] {
        let (status, v) = call(&app, "POST", "/api/games/import", None, bad).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {v}");
    }
}

/// Reads SSE frames from a response body until `want` appears (or 5 s pass); returns the text.
async fn read_until(body: &mut Body, want: &str) -> String {
    let mut text = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    while !text.contains(want) {
        let frame = tokio::time::timeout_at(deadline, body.frame()).await;
        match frame {
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

async fn open_events(app: &axum::Router, uri: &str, last: Option<&str>) -> Body {
    let mut req = Request::builder().uri(uri);
    if let Some(l) = last {
        req = req.header("last-event-id", l);
    }
    let resp = app
        .clone()
        .oneshot(req.body(Body::empty()).expect("req"))
        .await
        .expect("resp");
    assert_eq!(resp.status(), StatusCode::OK);
    resp.into_body()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_pages_see_moves_and_the_ai_moves_by_itself() {
    let (_, app) = app_on(":memory:");
    let v = create(
        &app,
        json!({"game": "tictactoe", "seats": [{"kind":"human"},{"kind":"ai","level":2}]}),
    )
    .await;
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["seat_tokens"][0].as_str().expect("token").to_string();
    assert!(v["seat_tokens"][1].is_null());
    let mut watcher = open_events(&app, &format!("/api/games/{id}/events"), None).await;
    read_until(&mut watcher, "event: state").await;
    let (status, _) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&token),
        r#"{"move":"a1"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // The watcher sees the move, then the AI's answer (the server plays the AI seat).
    let text = read_until(&mut watcher, "id: 2").await;
    assert!(
        text.contains("event: move") && text.contains("\"text\":\"a1\""),
        "{text}"
    );
    assert!(text.contains("id: 1"), "{text}");
    // A page that reconnects after ply 1 gets ply 2 once, and not ply 1 again.
    let mut again = open_events(&app, &format!("/api/games/{id}/events"), Some("1")).await;
    let text = read_until(&mut again, "event: state").await;
    assert!(
        text.contains("id: 2") && !text.contains("id: 1\n"),
        "{text}"
    );
    // A bad resume point is a clear error.
    let req = Request::builder()
        .uri(format!("/api/games/{id}/events?after=x"))
        .body(Body::empty())
        .expect("req");
    let resp = app.clone().oneshot(req).await.expect("resp");
    assert_eq!(resp.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn live_connections_are_capped() {
    let state = AppState::with_limits(
        Store::new(StoreConfig::default()),
        2,
        qiyi_web::api::Limits {
            max_live: 1,
            ..Default::default()
        },
    );
    let app = qiyi_web::router(state);
    let v = create(&app, json!({"game": "nim"})).await;
    let id = v["id"].as_str().expect("id");
    let _first = open_events(&app, &format!("/api/games/{id}/events"), None).await;
    let (status, v) = call(&app, "GET", &format!("/api/games/{id}/events"), None, "").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(v["error"]
        .as_str()
        .expect("error")
        .contains("live connections"));
}

#[tokio::test]
async fn oversize_bodies_and_rate_limits_get_json_errors() {
    let state = AppState::with_limits(
        Store::new(StoreConfig::default()),
        2,
        qiyi_web::api::Limits {
            max_body: 1000,
            games_per_minute: Some(2),
            ..Default::default()
        },
    );
    let app = qiyi_web::router(state);
    let big = format!("{{\"game\":\"nim\",\"position\":\"{}\"}}", "1".repeat(5000));
    let (status, v) = call(&app, "POST", "/api/games/import", None, &big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{v}");
    assert!(
        v["error"]
            .as_str()
            .expect("error")
            .contains("larger than 1000"),
        "{v}"
    );
    create(&app, json!({"game": "nim"})).await;
    create(&app, json!({"game": "nim"})).await;
    let (status, v) = call(&app, "POST", "/api/games", None, r#"{"game":"nim"}"#).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(
        v["error"]
            .as_str()
            .expect("error")
            .contains("too many games"),
        "{v}"
    );
}

/// Plays the first legal move for the player to move with that seat's token; returns the state.
async fn play_first(app: &axum::Router, id: &str, tokens: &[String], state: &Value) -> Value {
    let p = state["turn"]["player"].as_u64().expect("a player to move") as usize;
    let mv = state["legal"][0]["text"].as_str().expect("a legal move");
    let (status, v) = call(
        app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&tokens[p]),
        &json!({ "move": mv }).to_string(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    v
}

/// The seat tokens of a creation answer whose seats are all human.
fn human_tokens(created: &Value) -> Vec<String> {
    created["seat_tokens"]
        .as_array()
        .expect("seat_tokens")
        .iter()
        .map(|t| t.as_str().expect("a human seat's token").to_string())
        .collect()
}

/// Resigns with `token` (and the JSON `body`); returns the status and the answer.
async fn resign_with(
    app: &axum::Router,
    id: &str,
    token: Option<&str>,
    body: &str,
) -> (StatusCode, Value) {
    call(app, "POST", &format!("/api/games/{id}/resign"), token, body).await
}

/// The moves of `history` chosen by `player`.
fn moves_of(history: &Value, player: usize) -> usize {
    history
        .as_array()
        .expect("history")
        .iter()
        .filter(|h| h["player"] == player)
        .count()
}

#[tokio::test]
async fn a_seat_resigns_from_a_four_player_game_and_the_others_play_on() {
    let path = temp_db("resign.sqlite");
    let (id, before, export) = {
        let (_, app) = app_on(&path);
        let v = create(
            &app,
            json!({"game": "aeroplane", "rules": {"players": 4}, "seed": 5,
                   "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"},
                             {"kind": "human"}]}),
        )
        .await;
        let id = v["id"].as_str().expect("id").to_string();
        let tokens = human_tokens(&v);
        let watch = v["links"]["watch"].as_str().expect("watch").to_string();
        let mut state = v["state"].clone();
        for _ in 0..6 {
            state = play_first(&app, &id, &tokens, &state).await;
        }
        // Refused: no token (401), the watch link, a made-up token, and one seat's token naming
        // another seat (403). The game is unchanged.
        for (token, body, want) in [
            (None, "{}", StatusCode::UNAUTHORIZED),
            (Some(watch.as_str()), "{}", StatusCode::FORBIDDEN),
            (
                Some("0123456789abcdef0123456789abcdef"),
                "{}",
                StatusCode::FORBIDDEN,
            ),
            (
                Some(tokens[0].as_str()),
                r#"{"player": 1}"#,
                StatusCode::FORBIDDEN,
            ),
        ] {
            let (status, v) = resign_with(&app, &id, token, body).await;
            assert_eq!(status, want, "{token:?} {body}: {v}");
        }
        let (_, unchanged) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
        assert_eq!(unchanged["history"], state["history"]);
        assert_eq!(unchanged["resigned"], json!([]));

        // Seat 1 resigns with its own token: the game goes on without it.
        let (status, v) = resign_with(&app, &id, Some(&tokens[1]), "{}").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["resigned"], json!([1]));
        assert!(v["result"].is_null(), "three seats are left: {v}");
        assert_ne!(
            v["turn"]["player"], 1,
            "the server plays a resigned seat's turns"
        );
        let (status, again) = resign_with(&app, &id, Some(&tokens[1]), "{}").await;
        assert_eq!(status, StatusCode::CONFLICT, "{again}");
        let resigned_at = v["ply"].as_u64().expect("ply");
        state = v;
        // Play on through several rounds: seat 1 is never asked to move, and the server moves
        // for it whenever its die allows a move.
        let mut turns_seen = std::collections::HashSet::new();
        for _ in 0..40 {
            if state["result"].is_object() {
                break;
            }
            turns_seen.insert(state["turn"]["player"].as_u64().expect("player"));
            state = play_first(&app, &id, &tokens, &state).await;
        }
        assert!(!turns_seen.contains(&1), "{turns_seen:?}");
        assert_eq!(turns_seen.len(), 3, "{turns_seen:?}");
        let after_resign: Vec<&Value> = state["history"]
            .as_array()
            .expect("history")
            .iter()
            .filter(|h| h["ply"].as_u64().expect("ply") > resigned_at)
            .collect();
        assert!(
            after_resign.iter().any(|h| h["player"] == 1),
            "the server moved seat 1's planes after it resigned"
        );
        // The watcher's view says who resigned; a token of a seat still in may not resign for it.
        let (status, _) = resign_with(&app, &id, Some(&tokens[2]), r#"{"player": 3}"#).await;
        assert_eq!(status, StatusCode::FORBIDDEN);
        // Seats 3 and then 0 resign: seat 2 is the last one left and wins.
        let (status, v) = resign_with(&app, &id, Some(&tokens[3]), "{}").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert!(v["result"].is_null(), "{v}");
        let (status, v) = resign_with(&app, &id, Some(&tokens[0]), "{}").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["resigned"], json!([1, 3, 0]));
        assert_eq!(v["turn"]["kind"], "over");
        assert_eq!(v["result"]["winner"], 2, "{v}");
        assert_eq!(v["result"]["returns"], json!([-1.0, -1.0, 1.0, -1.0]));
        let (status, _) = call(
            &app,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(&tokens[2]),
            r#"{"move":"a"}"#,
        )
        .await;
        assert_eq!(status, StatusCode::CONFLICT, "the game is over");
        let (_, export) = call(&app, "GET", &format!("/api/games/{id}/export"), None, "").await;
        (id, v, export)
    };
    assert!(moves_of(&before["history"], 1) > 0);
    // The export keeps the resignations with their plies.
    let text = export["raw"].as_str().map(str::to_string);
    let record: Value = match text {
        Some(t) => serde_json::from_str(&t).expect("JSON record"),
        None => export,
    };
    let resigned: Vec<u64> = record["resigned"]
        .as_array()
        .expect("resigned in the export")
        .iter()
        .map(|r| r["player"].as_u64().expect("player"))
        .collect();
    assert_eq!(resigned, vec![1, 3, 0]);
    assert_eq!(record["result"]["winner"], 2);
    // A new server on the same file replays the record to the same game, resignations included.
    let (state, app) = app_on(&path);
    assert_eq!(state.store.len(), 0);
    let (status, after) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
    assert_eq!(status, StatusCode::OK, "{after}");
    for key in ["history", "position", "resigned", "result", "turn", "legal"] {
        assert_eq!(after[key], before[key], "{key} after the reload");
    }
}

#[tokio::test]
async fn a_resigned_seat_of_chinese_checkers_is_skipped_and_ranked_last_after_a_reload() {
    let path = temp_db("resign-cc.sqlite");
    let (id, tokens, before) = {
        let (_, app) = app_on(&path);
        let v = create(
            &app,
            json!({"game": "chinese-checkers", "rules": {"players": 3},
                   "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}),
        )
        .await;
        let id = v["id"].as_str().expect("id").to_string();
        let tokens = human_tokens(&v);
        let mut state = v["state"].clone();
        state = play_first(&app, &id, &tokens, &state).await;
        assert_eq!(state["turn"]["player"], 1);
        // Seat 1 resigns on its own turn: the server moves for it at once and seat 2 is next.
        let (status, v) = resign_with(&app, &id, Some(&tokens[1]), "{}").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        assert_eq!(v["turn"]["player"], 2, "{v}");
        assert_eq!(moves_of(&v["history"], 1), 1);
        state = v;
        for _ in 0..4 {
            state = play_first(&app, &id, &tokens, &state).await;
            assert_ne!(state["turn"]["player"], 1);
        }
        assert_eq!(moves_of(&state["history"], 1), 3);
        (id, tokens, state)
    };
    // After a reload the game replays to the same position and plays on the same way.
    let (_, app) = app_on(&path);
    let (_, after) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
    for key in ["history", "position", "resigned", "turn", "legal"] {
        assert_eq!(after[key], before[key], "{key} after the reload");
    }
    let next = play_first(&app, &id, &tokens, &after).await;
    assert_eq!(next["resigned"], json!([1]));
    assert_ne!(next["turn"]["player"], 1);
    // Seat 0 resigns too: seat 2 is the last left and wins.
    let (status, v) = resign_with(&app, &id, Some(&tokens[0]), "{}").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["result"]["winner"], 2, "{v}");
}

#[tokio::test]
async fn undo_takes_back_a_resignation_and_the_servers_moves_after_it() {
    let (_, app) = app_on(":memory:");
    let v = create(
        &app,
        json!({"game": "chinese-checkers", "rules": {"players": 3}, "hotseat": true,
               "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]}),
    )
    .await;
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["hotseat_token"].as_str().expect("token").to_string();
    let tokens = vec![token.clone(); 3];
    let start = v["state"]["position"].clone();
    play_first(&app, &id, &tokens, &v["state"]).await;
    // The hot-seat page names the seat; the server then plays seat 1's turn.
    let (status, v) = resign_with(&app, &id, Some(&token), r#"{"player": 1}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["resigned"], json!([1]));
    assert_eq!(v["ply"], 2);
    assert_eq!(v["turn"]["player"], 2);
    // One undo takes back seat 0's move with the server's move for seat 1 after it, and the
    // resignation made after the ply it returns to.
    let (status, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(&token),
        "{}",
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["ply"], 0);
    assert_eq!(v["resigned"], json!([]));
    assert_eq!(v["turn"]["player"], 0);
    assert_eq!(v["position"], start);
}

#[tokio::test]
async fn a_game_ends_when_every_human_seat_has_resigned() {
    let (_, app) = app_on(":memory:");
    let v = create(
        &app,
        json!({"game": "aeroplane", "rules": {"players": 4}, "seed": 3,
               "seats": [{"kind": "human"}, {"kind": "human"},
                         {"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}]}),
    )
    .await;
    let id = v["id"].as_str().expect("id").to_string();
    let tokens: Vec<String> = v["seat_tokens"]
        .as_array()
        .expect("seat_tokens")
        .iter()
        .filter_map(|t| t.as_str().map(str::to_string))
        .collect();
    assert_eq!(tokens.len(), 2);
    let (status, v) = resign_with(&app, &id, Some(&tokens[0]), "{}").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["result"].is_null(), "a human seat is still in: {v}");
    let (status, v) = resign_with(&app, &id, Some(&tokens[1]), "{}").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["turn"]["kind"], "over", "{v}");
    assert!(v["result"]["winner"].is_null(), "{v}");
    assert_eq!(v["result"]["returns"], json!([-1.0, -1.0, 0.0, 0.0]));
    let (_, stored) = call(&app, "GET", "/api/games?page=1", None, "").await;
    assert_eq!(stored["games"][0]["status"], "over");
}

/// The analysis board's throw-away games (`"scratch": true`) are stored and playable, but the
/// archive leaves them out, and once untouched for a day the server deletes them.
#[tokio::test]
async fn scratch_games_stay_out_of_the_archive_and_expire() {
    let path = temp_db("scratch.sqlite");
    let (state, app) = app_on(&path);
    let kept = create(
        &app,
        json!({"game": "xiangqi", "hotseat": true, "seats": [{"kind":"human"},{"kind":"human"}]}),
    )
    .await;
    let kept_id = kept["id"].as_str().expect("id").to_string();
    let scratch = create(
        &app,
        json!({"game": "xiangqi", "hotseat": true, "scratch": true,
               "seats": [{"kind":"human"},{"kind":"human"}]}),
    )
    .await;
    let id = scratch["id"].as_str().expect("id").to_string();
    let token = scratch["hotseat_token"].as_str().expect("token");
    let (s, v) = call(
        &app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(token),
        &json!({"move": "h2e2"}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let (s, list) = call(&app, "GET", "/api/games?page=1", None, "").await;
    assert_eq!(s, StatusCode::OK, "{list}");
    assert_eq!(list["total"], 1, "{list}");
    let ids: Vec<&str> = list["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(ids, vec![kept_id.as_str()]);
    // Stored with its mark: a fresh look at the file says so, and the game plays on from there.
    let conn = rusqlite::Connection::open(&path).expect("open");
    let marks: Vec<(String, bool)> = conn
        .prepare("SELECT id, scratch FROM games ORDER BY scratch")
        .expect("select")
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("rows")
        .collect::<Result<_, _>>()
        .expect("marks");
    assert_eq!(marks, vec![(kept_id.clone(), false), (id.clone(), true)]);
    // A fresh scratch game is not stale yet.
    assert_eq!(state.store.purge_scratch().expect("purge"), 0);
    // A day and a minute untouched: deleted, the kept game (as old) stays.
    conn.execute("UPDATE games SET updated = updated - 86460", [])
        .expect("age");
    assert_eq!(state.store.purge_scratch().expect("purge"), 1);
    let (s, _) = call(&app, "GET", &format!("/api/games/{id}"), None, "").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = call(&app, "GET", &format!("/api/games/{kept_id}"), None, "").await;
    assert_eq!(s, StatusCode::OK);
    // Anything but a boolean is refused with a JSON error.
    let (s, v) = call(
        &app,
        "POST",
        "/api/games",
        None,
        &json!({"game": "xiangqi", "scratch": "yes"}).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    assert!(v["error"].is_string(), "{v}");
}

/// Schema version 4 (before scratch games) as that release wrote it: its games open, play and
/// stay in the archive, and the file is brought to the current version.
#[tokio::test]
async fn a_database_of_the_schema_before_scratch_games_keeps_its_games_listed() {
    let path = temp_db("v4.sqlite");
    {
        let conn = rusqlite::Connection::open(&path).expect("open");
        qiyi_web::db::migrate_to(&conn, 4).expect("v4");
        conn.execute(
            "INSERT INTO games (id, game, rules, position, seed, seats, hotseat, created, updated,
                status, clock, ended, resigned) VALUES ('00000000000000d4', 'checkers', '{}', NULL,
                1, '[{\"kind\":\"human\"},{\"kind\":\"human\"}]', 1, 1700000000, 1700000000,
                'playing', NULL, NULL, NULL)",
            [],
        )
        .expect("game");
        conn.execute(
            "INSERT INTO moves VALUES ('00000000000000d4', 1, 0, '11-15', NULL)",
            [],
        )
        .expect("move");
        let version: i64 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .expect("version");
        assert_eq!(version, 4);
    }
    let (state, app) = app_on(&path);
    let (s, list) = call(&app, "GET", "/api/games?page=1", None, "").await;
    assert_eq!(s, StatusCode::OK, "{list}");
    assert_eq!(list["total"], 1, "{list}");
    assert_eq!(list["games"][0]["id"], "00000000000000d4");
    let (s, v) = call(&app, "GET", "/api/games/00000000000000d4", None, "").await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["history"][0]["text"], "11-15");
    // Old games are no scratch games, however old: the purge leaves them.
    assert_eq!(state.store.purge_scratch().expect("purge"), 0);
    let conn = rusqlite::Connection::open(&path).expect("open");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("version");
    assert_eq!(version, qiyi_web::db::schema_version());
}
