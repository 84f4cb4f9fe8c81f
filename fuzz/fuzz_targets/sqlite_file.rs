//! The server opening a damaged SQLite file of games (`qiyi serve --db FILE`). Once per process a
//! real database is made through the router (three hot-seat games, a few moves each, closed
//! cleanly). Each input then damages a copy: the first byte picks how — the input's bytes are
//! the whole file; or 3-byte patches (a 16-bit offset into the file and a byte XORed there); or
//! the file truncated at a 16-bit offset, then patched — and the copy is opened as the server
//! opens it (`Db::open`, the store, the router).
//!
//! Checked: a file refused says so in words (`database error: ...` or the schema version); one
//! that opens answers every request (the list, each game, a move in each, an export) with a
//! success or the JSON error `{error, code}`, and a 5xx only as `500 internal` naming the
//! database, a corrupt file or a stored record that does not replay — never a panic.
//!
//! Built with `-s none`, as `web_api`: the C SQLite is not what is fuzzed; see
//! docs/reliability.md.
#![no_main]
#[path = "common/server.rs"]
mod server;
use axum::http::StatusCode;
use libfuzzer_sys::fuzz_target;
use qiyi_web::api::AppState;
use qiyi_web::db::Db;
use qiyi_web::store::{Store, StoreConfig};
use serde_json::{json, Value};
use server::{runtime, send};
use std::path::PathBuf;
use std::sync::OnceLock;

fn dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("qiyi-fuzz-sqlite-{}", std::process::id()));
        std::fs::create_dir_all(&d).expect("temp dir");
        d
    })
}

/// Sends one request; returns the status and the body as JSON (`Value::Null` when it is not).
async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: &Value,
) -> (StatusCode, Value) {
    let body = if body.is_null() {
        Vec::new()
    } else {
        body.to_string().into_bytes()
    };
    let (status, raw) = send(app, method, uri, token, body, true)
        .await
        .expect("a valid request");
    (status, serde_json::from_slice(&raw).unwrap_or(Value::Null))
}

/// The good database's bytes and its games (id, hot-seat token).
fn good() -> &'static (Vec<u8>, Vec<(String, String)>) {
    static GOOD: OnceLock<(Vec<u8>, Vec<(String, String)>)> = OnceLock::new();
    GOOD.get_or_init(|| {
        let path = dir().join("good.sqlite").display().to_string();
        let games = runtime().block_on(async {
            let db = Db::open(&path).expect("a new database");
            let app =
                qiyi_web::router(AppState::new(Store::with_db(StoreConfig::default(), db), 1));
            let mut games = Vec::new();
            for game in ["xiangqi", "checkers", "nim"] {
                let seats = json!([{"kind": "human"}, {"kind": "human"}]);
                let body = json!({"game": game, "hotseat": true, "seats": seats, "seed": 1});
                let (status, v) = call(&app, "POST", "/api/games", None, &body).await;
                assert_eq!(status, StatusCode::CREATED, "{v}");
                let id = v["id"].as_str().expect("id").to_string();
                let token = v["hotseat_token"].as_str().expect("token").to_string();
                let mut state = v["state"].clone();
                for _ in 0..4 {
                    let Some(mv) = state["legal"][0]["text"].as_str().map(str::to_string) else {
                        break;
                    };
                    let body = json!({"move": mv, "ply": state["ply"]});
                    let (status, v) = call(
                        &app,
                        "POST",
                        &format!("/api/games/{id}/moves"),
                        Some(&token),
                        &body,
                    )
                    .await;
                    assert_eq!(status, StatusCode::OK, "{v}");
                    state = v;
                }
                games.push((id, token));
            }
            games
        });
        // Every connection is closed: SQLite has checkpointed its log into the file.
        let bytes = std::fs::read(&path).expect("the database file");
        assert!(bytes.starts_with(b"SQLite format 3\0") && bytes.len() >= 4096);
        (bytes, games)
    })
}

/// The damaged copy the input describes.
fn damaged(data: &[u8], good: &[u8]) -> Vec<u8> {
    let Some((&how, rest)) = data.split_first() else {
        return good.to_vec();
    };
    let patch = |b: &mut Vec<u8>, patches: &[u8]| {
        for p in patches.chunks_exact(3) {
            if !b.is_empty() {
                let at = usize::from(u16::from_le_bytes([p[0], p[1]])) * 7 % b.len();
                b[at] ^= p[2];
            }
        }
    };
    match how % 3 {
        0 => rest.to_vec(),
        1 => {
            let mut b = good.to_vec();
            patch(&mut b, rest);
            b
        }
        _ => {
            let mut b = good.to_vec();
            if rest.len() >= 2 {
                let at = usize::from(u16::from_le_bytes([rest[0], rest[1]])) * 7 % b.len();
                b.truncate(at);
                patch(&mut b, &rest[2..]);
            }
            b
        }
    }
}

/// A success, or `{error, code}`; a 5xx only as `500 internal` about the database or a record.
fn check(req: &str, status: StatusCode, v: &Value) {
    if status.is_success() {
        return;
    }
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{req}: {status} not a JSON object: {v}"));
    assert_eq!(obj.len(), 2, "{req}: {status} {v}");
    let error = obj
        .get("error")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{req}: {v}"));
    let code = obj
        .get("code")
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{req}: {v}"));
    assert!(!error.is_empty(), "{req}: an error in words");
    if status.is_server_error() {
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{req}: {v}");
        assert_eq!(code, "internal", "{req}: {v}");
        assert!(
            error.contains("database")
                || error.contains("corrupt")
                || error.contains("does not replay"),
            "{req}: a 500 names the database or the stored record: {error}"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let (good, games) = good();
    let bytes = damaged(data, good);
    let path = dir().join("damaged.sqlite");
    for suffix in ["-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
    std::fs::write(&path, &bytes).expect("write the damaged copy");
    let db = match Db::open(&path.display().to_string()) {
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.starts_with("database error: ") || msg.contains("schema version"),
                "a refused file says why: {msg}"
            );
            return;
        }
        Ok(db) => db,
    };
    runtime().block_on(async {
        let app = qiyi_web::router(AppState::new(Store::with_db(StoreConfig::default(), db), 1));
        let (status, v) = call(&app, "GET", "/api/games", None, &Value::Null).await;
        check("GET /api/games", status, &v);
        for (id, token) in games {
            let uri = format!("/api/games/{id}");
            let (status, state) = call(&app, "GET", &uri, None, &Value::Null).await;
            check(&format!("GET {uri}"), status, &state);
            if let Some(mv) = state["legal"][0]["text"].as_str() {
                let body = json!({"move": mv, "ply": state["ply"]});
                let (status, v) =
                    call(&app, "POST", &format!("{uri}/moves"), Some(token), &body).await;
                check(&format!("POST {uri}/moves"), status, &v);
            }
            let (status, v) = call(&app, "GET", &format!("{uri}/export"), None, &Value::Null).await;
            check(&format!("GET {uri}/export"), status, &v);
        }
    });
});
