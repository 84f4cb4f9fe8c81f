//! The JSON API through `qiyi_web::router` in-process (`tower::ServiceExt::oneshot`, a fresh
//! in-memory store per input). The first byte picks the game to create (hot-seat, every seat
//! human, so no search runs by itself); then up to 8 requests, separated by NUL bytes, each a
//! route byte, a token byte and a body (or, for a GET, a query string).
//!
//! Checked on every answer: no 5xx but the documented 503 refusals; every error body is exactly
//! `{"error": text, "code": text}` with a code the OpenAPI document lists; a created game's state
//! reads back by `GET /api/games/{id}`; a request that answers a game state (a move, an undo, a
//! new position...) leaves the game reading back that same state; an export of the game imports
//! back to a game at the same position.
//!
//! Built with `-s none` (libFuzzer's coverage without AddressSanitizer): Rust is memory-safe and
//! the C SQLite is not what is fuzzed here; see docs/reliability.md.
#![no_main]
#[path = "common/server.rs"]
mod server;
use axum::http::StatusCode;
use libfuzzer_sys::fuzz_target;
use qiyi_web::api::AppState;
use qiyi_web::store::Store;
use serde_json::{json, Value};
use server::{runtime, send};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The error codes of the OpenAPI document's `Error` schema.
fn codes() -> &'static BTreeSet<String> {
    static CODES: OnceLock<BTreeSet<String>> = OnceLock::new();
    CODES.get_or_init(|| {
        let doc: Value = serde_json::from_str(qiyi_web::openapi::document()).expect("the document");
        doc["components"]["schemas"]["ErrorCode"]["enum"]
            .as_array()
            .expect("the error codes")
            .iter()
            .filter_map(|c| c.as_str().map(str::to_string))
            .collect()
    })
}

/// The game each first byte creates: (name, rules, seats).
const GAMES: [(&str, &str, usize); 8] = [
    ("xiangqi", "{}", 2),
    ("checkers", "{}", 2),
    ("chinese-checkers", r#"{"players":2}"#, 2),
    ("chinese-checkers", r#"{"players":3}"#, 3),
    ("peg-solitaire", "{}", 1),
    ("aeroplane", r#"{"players":2}"#, 2),
    ("tictactoe", "{}", 2),
    ("nim", "{}", 2),
];

struct Answer {
    status: StatusCode,
    json: Option<Value>,
    raw: Vec<u8>,
}

async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Vec<u8>,
) -> Option<Answer> {
    // A URI the fuzzer made unparsable never reaches the server.
    let (status, raw) = send(app, method, uri, token, body, false).await?;
    let json = serde_json::from_slice(&raw).ok();
    let answer = Answer { status, json, raw };
    check_answer(method, uri, &answer);
    Some(answer)
}

/// No 5xx but 503; every error `{error, code}` with a listed code.
fn check_answer(method: &str, uri: &str, a: &Answer) {
    let text = String::from_utf8_lossy(&a.raw);
    assert!(
        !a.status.is_server_error() || a.status == StatusCode::SERVICE_UNAVAILABLE,
        "{method} {uri}: {} {text}",
        a.status
    );
    if !a.status.is_success() {
        let v = a
            .json
            .as_ref()
            .unwrap_or_else(|| panic!("{method} {uri}: {} not JSON: {text}", a.status));
        let obj = v
            .as_object()
            .unwrap_or_else(|| panic!("{method} {uri}: error not an object: {text}"));
        assert_eq!(
            obj.len(),
            2,
            "{method} {uri}: error has other fields: {text}"
        );
        assert!(
            obj.get("error").is_some_and(Value::is_string),
            "{method} {uri}: {text}"
        );
        let code = obj
            .get("code")
            .and_then(Value::as_str)
            .unwrap_or_else(|| panic!("{method} {uri}: no code: {text}"));
        assert!(
            codes().contains(code),
            "{method} {uri}: unknown code {code}: {text}"
        );
    }
}

/// The parts of a state that must read back the same.
fn same_state(a: &Value, b: &Value, what: &str) {
    for key in ["position", "history", "legal", "ply", "status"] {
        assert_eq!(a[key], b[key], "{what}: `{key}` differs: {a} / {b}");
    }
}

async fn read_back(app: &axum::Router, id: &str, state: &Value, what: &str) {
    let a = call(app, "GET", &format!("/api/games/{id}"), None, Vec::new())
        .await
        .expect("a valid URI");
    assert_eq!(
        a.status,
        StatusCode::OK,
        "{what}: GET {id}: {}",
        String::from_utf8_lossy(&a.raw)
    );
    same_state(a.json.as_ref().expect("a state"), state, what);
}

/// Caps `time_ms` (and `level`) of a JSON body so an AI move or a solve stays short. The body is
/// read as the server reads it (`body_json_text`): an empty one is the server's defaults (a 10 s
/// solve), so it becomes `{"time_ms": 10}`; a corpus input with one such solve took 5 s to replay.
fn capped(body: &[u8]) -> Vec<u8> {
    match serde_json::from_slice::<Value>(qiyi_web::api::body_json_text(body)) {
        Ok(Value::Object(mut m)) => {
            if let Some(t) = m.get("time_ms").and_then(Value::as_u64) {
                m.insert("time_ms".into(), json!(t.min(20)));
            } else if m.get("time_ms").is_none() {
                m.insert("time_ms".into(), json!(10));
            }
            if let Some(l) = m.get("level").and_then(Value::as_u64) {
                m.insert("level".into(), json!(l.min(2)));
            }
            serde_json::to_vec(&Value::Object(m)).unwrap_or_default()
        }
        _ => body.to_vec(),
    }
}

/// Percent-encodes what a URI cannot hold (the fuzzer's query text).
fn query(bytes: &[u8]) -> String {
    let mut q = String::new();
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"=&-_.~,".contains(&b) {
            q.push(b as char);
        } else {
            q.push_str(&format!("%{b:02X}"));
        }
    }
    q
}

async fn session(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let (game, rules, seats) = GAMES[first as usize % GAMES.len()];
    let app = qiyi_web::router(AppState::new(Store::new(Default::default()), 1));
    let seats: Vec<Value> = (0..seats).map(|_| json!({"kind": "human"})).collect();
    let rules: Value = serde_json::from_str(rules).expect("rules");
    let body = json!({"game": game, "rules": rules, "hotseat": true, "seats": seats, "seed": 1});
    let created = call(
        &app,
        "POST",
        "/api/games",
        None,
        body.to_string().into_bytes(),
    )
    .await
    .expect("a valid URI");
    assert_eq!(
        created.status,
        StatusCode::CREATED,
        "create {game}: {}",
        String::from_utf8_lossy(&created.raw)
    );
    let created = created.json.expect("the created game");
    let id = created["id"].as_str().expect("id").to_string();
    let token = created["hotseat_token"]
        .as_str()
        .expect("a hot-seat token")
        .to_string();
    read_back(&app, &id, &created["state"], "the created game").await;
    // The last game the fuzzer's own POST /api/games made (and one of its tokens).
    let mut other: Option<(String, Option<String>)> = None;

    for part in rest.split(|&b| b == 0).take(8) {
        let [route, tok, body @ ..] = part else {
            continue;
        };
        let (gid, gtoken) = match (&other, tok & 0x10 != 0) {
            (Some((oid, otoken)), true) => (oid.clone(), otoken.clone()),
            _ => (id.clone(), Some(token.clone())),
        };
        let token: Option<&str> = match tok % 4 {
            0 => None,
            1 | 2 => gtoken.as_deref(),
            _ => Some("00112233445566778899aabbccddeeff"),
        };
        let g = format!("/api/games/{gid}");
        let body = body.to_vec();
        let (method, uri, body, returns_state) = match route % 16 {
            0 => ("POST", "/api/games".to_string(), body, false),
            1 => ("POST", "/api/games/import".to_string(), body, false),
            2 => ("GET", format!("{g}?{}", query(&body)), Vec::new(), false),
            3 => ("DELETE", g.clone(), Vec::new(), false),
            4 => ("POST", format!("{g}/moves"), body, true),
            5 => ("POST", format!("{g}/ai"), capped(&body), true),
            6 => ("POST", format!("{g}/undo"), body, true),
            7 => ("POST", format!("{g}/solve"), capped(&body), false),
            8 => ("POST", format!("{g}/position"), body, true),
            9 => ("POST", format!("{g}/resign"), body, true),
            10 => ("POST", format!("{g}/draw"), body, true),
            11 => (
                "GET",
                format!("{g}/export?{}", query(&body)),
                Vec::new(),
                false,
            ),
            12 => ("GET", format!("{g}/review"), Vec::new(), false),
            13 => ("DELETE", format!("{g}/review"), Vec::new(), false),
            14 => (
                "GET",
                format!("/api/games?{}", query(&body)),
                Vec::new(),
                false,
            ),
            _ => {
                // A legal move of the current state, picked by the body's first byte, so the
                // games get past their first move.
                let Some(a) = call(&app, "GET", &g, None, Vec::new()).await else {
                    continue;
                };
                let Some(mv) = a.json.as_ref().and_then(|s| {
                    let legal = s["legal"].as_array()?;
                    let i = *body.first().unwrap_or(&0) as usize % legal.len().max(1);
                    legal.get(i)?["text"].as_str().map(str::to_string)
                }) else {
                    continue;
                };
                let ply = a.json.as_ref().and_then(|s| s["ply"].as_u64());
                (
                    "POST",
                    format!("{g}/moves"),
                    json!({"move": mv, "ply": ply}).to_string().into_bytes(),
                    true,
                )
            }
        };
        let Some(a) = call(&app, method, &uri, token, body).await else {
            continue;
        };
        if !a.status.is_success() {
            continue;
        }
        let v = a.json.clone();
        match route % 16 {
            0 | 1 => {
                // A game made by the fuzzer's body reads back as created.
                let v = v.expect("a created game is JSON");
                let nid = v["id"].as_str().expect("id").to_string();
                read_back(&app, &nid, &v["state"], "a fuzzed create/import").await;
                let t = v["hotseat_token"]
                    .as_str()
                    .or_else(|| {
                        v["tokens"]
                            .as_array()
                            .and_then(|t| t.first())
                            .and_then(|t| t["token"].as_str())
                    })
                    .map(str::to_string);
                other = Some((nid, t));
            }
            11 if body_is_empty_query(&uri) => {
                // The default export (a JSON record) imports to a game at the same position.
                let import = call(&app, "POST", "/api/games/import", None, a.raw.clone())
                    .await
                    .expect("a valid URI");
                assert_eq!(
                    import.status,
                    StatusCode::CREATED,
                    "the export of {gid} imports: {}",
                    String::from_utf8_lossy(&import.raw)
                );
                let now = call(&app, "GET", &g, None, Vec::new())
                    .await
                    .expect("a valid URI");
                let (now, imported) = (now.json.expect("state"), import.json.expect("import"));
                assert_eq!(
                    imported["state"]["position"], now["position"],
                    "export/import of {gid}"
                );
                assert_eq!(
                    imported["state"]["history"], now["history"],
                    "export/import of {gid}"
                );
            }
            _ if returns_state => {
                if let Some(state) = v.filter(|v| v.get("position").is_some()) {
                    read_back(&app, &gid, &state, &uri).await;
                }
            }
            _ => {}
        }
    }
}

fn body_is_empty_query(uri: &str) -> bool {
    uri.ends_with('?')
}

fuzz_target!(|data: &[u8]| {
    if data.len() > 8192 {
        return;
    }
    runtime().block_on(session(data));
});
