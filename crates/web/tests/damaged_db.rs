//! The server's SQLite file, damaged: a real database (games created, moves played, closed
//! cleanly) is truncated, has bytes flipped in its header and in its pages, or is overwritten
//! with noise, in 200 seeded ways. Each damaged copy is opened as `qiyi serve` opens it
//! (`Db::open`, then the store and the router): it is refused with a clear error, or it opens and
//! every request gets an answer (a game state, or a JSON error `{error, code}`; a 500 only with the
//! code `internal` and the database's own error or the stored record that does not replay) —
//! never a panic.

mod common;
use axum::http::StatusCode;
use common::{call, play_first_moves};
use qiyi_web::api::AppState;
use qiyi_web::db::Db;
use qiyi_web::store::{Store, StoreConfig};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

fn temp_dir() -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("qiyi-damaged-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// xorshift64*: seeded, so every run damages the file the same ways.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Builds a database with a few games of several kinds and some moves; returns its bytes and
/// the games' ids.
async fn good_database(dir: &Path) -> (Vec<u8>, Vec<String>) {
    let path = dir.join("good.sqlite").display().to_string();
    let mut ids = Vec::new();
    {
        let state = AppState::new(
            Store::with_db(StoreConfig::default(), Db::open(&path).expect("db")),
            1,
        );
        let app = qiyi_web::router(state);
        for (game, seats) in [
            ("xiangqi", 2),
            ("checkers", 2),
            ("tictactoe", 2),
            ("peg-solitaire", 1),
            ("nim", 2),
        ] {
            let seats: Vec<Value> = (0..seats).map(|_| json!({"kind": "human"})).collect();
            let body = json!({"game": game, "hotseat": true, "seats": seats});
            let (status, v) = call(&app, "POST", "/api/games", None, &body.to_string()).await;
            assert_eq!(status, StatusCode::CREATED, "{v}");
            let id = v["id"].as_str().expect("id").to_string();
            let token = v["hotseat_token"].as_str().expect("token").to_string();
            play_first_moves(&app, &id, &token, v["state"].clone(), 6).await;
            ids.push(id);
        }
    }
    // The last connection closed: SQLite checkpointed the WAL into the file.
    let bytes = std::fs::read(&path).expect("the database file");
    assert!(bytes.len() >= 4096, "a real database of several pages");
    assert!(bytes.starts_with(b"SQLite format 3\0"));
    (bytes, ids)
}

/// One way of damaging the file, from the seed.
fn damage(good: &[u8], rng: &mut Rng, case: usize) -> (String, Vec<u8>) {
    let mut b = good.to_vec();
    match case % 5 {
        0 => {
            let at = match case / 5 % 4 {
                0 => rng.below(100),
                1 => rng.below(b.len()),
                2 => (rng.below(b.len() / 4096) + 1) * 4096 - 1,
                _ => b.len() - 1 - rng.below(64),
            };
            b.truncate(at);
            (format!("truncated to {at} bytes"), b)
        }
        1 => {
            // The 100-byte header: page size, versions, counts, schema cookie...
            let mut what = Vec::new();
            for _ in 0..1 + rng.below(3) {
                let at = rng.below(100);
                let x = (rng.below(255) + 1) as u8;
                b[at] ^= x;
                what.push(format!("{at}^{x:#04x}"));
            }
            (format!("header bytes flipped: {}", what.join(" ")), b)
        }
        2 => {
            let mut what = Vec::new();
            for _ in 0..1 + rng.below(8) {
                let at = 100 + rng.below(b.len() - 100);
                let x = (rng.below(255) + 1) as u8;
                b[at] ^= x;
                what.push(format!("{at}^{x:#04x}"));
            }
            (format!("page bytes flipped: {}", what.join(" ")), b)
        }
        3 => {
            // A whole page (not the first) overwritten with noise.
            let pages = b.len() / 4096;
            let page = 1 + rng.below(pages.saturating_sub(1).max(1));
            let start = (page * 4096).min(b.len());
            let end = (start + 4096).min(b.len());
            for x in &mut b[start..end] {
                *x = rng.next() as u8;
            }
            (format!("page {page} overwritten with noise"), b)
        }
        _ => {
            // The first page's b-tree header and cells (after the 100-byte file header).
            let mut what = Vec::new();
            for _ in 0..1 + rng.below(4) {
                let at = 100 + rng.below(4096 - 100);
                let x = (rng.below(255) + 1) as u8;
                b[at] ^= x;
                what.push(format!("{at}^{x:#04x}"));
            }
            (format!("schema page bytes flipped: {}", what.join(" ")), b)
        }
    }
}

/// Every answer of a damaged store: a success, or a JSON error; a 500 only as `internal`.
fn check(what: &str, req: &str, status: StatusCode, v: &Value) {
    if status.is_success() {
        return;
    }
    let obj = v
        .as_object()
        .unwrap_or_else(|| panic!("{what}: {req}: {status} {v}"));
    assert_eq!(obj.len(), 2, "{what}: {req}: {status} {v}");
    let error = obj["error"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: {req}: {v}"));
    assert!(!error.is_empty(), "{what}: {req}: an error in words");
    let code = obj["code"]
        .as_str()
        .unwrap_or_else(|| panic!("{what}: {req}: {v}"));
    if status.is_server_error() {
        assert_eq!(
            status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{what}: {req}: {v}"
        );
        assert_eq!(code, "internal", "{what}: {req}: {v}");
        assert!(
            error.contains("database")
                || error.contains("corrupt")
                || error.contains("does not replay"),
            "{what}: {req}: a 500 names the database or the stored record: {error}"
        );
    }
}

#[tokio::test]
async fn a_damaged_database_is_refused_clearly_or_served_never_a_panic() {
    let dir = temp_dir();
    let (good, ids) = good_database(&dir).await;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut refused, mut opened, mut served_games, mut internal) = (0, 0, 0, 0);
    let mut messages = std::collections::BTreeSet::new();
    for case in 0..200 {
        let (what, bytes) = damage(&good, &mut rng, case);
        let path = dir
            .join(format!("damaged-{case}.sqlite"))
            .display()
            .to_string();
        std::fs::write(&path, &bytes).expect("write the damaged copy");
        let db = match Db::open(&path) {
            Err(e) => {
                // The message `qiyi serve` prints after "cannot open the game database: ".
                let msg = e.to_string();
                assert!(
                    msg.starts_with("database error: ") || msg.contains("schema version"),
                    "{what}: {msg}"
                );
                messages.insert(msg);
                refused += 1;
                continue;
            }
            Ok(db) => db,
        };
        opened += 1;
        let app = qiyi_web::router(AppState::new(Store::with_db(StoreConfig::default(), db), 1));
        let mut reqs: Vec<(&str, String, String)> = vec![
            ("GET", "/api/games".into(), String::new()),
            ("GET", "/api/games?limit=50&offset=0".into(), String::new()),
            (
                "POST",
                "/api/games".into(),
                json!({"game": "tictactoe", "hotseat": true, "seats": [{"kind": "human"}, {"kind": "human"}]})
                    .to_string(),
            ),
        ];
        for id in &ids {
            reqs.push(("GET", format!("/api/games/{id}"), String::new()));
            reqs.push(("GET", format!("/api/games/{id}/export"), String::new()));
            reqs.push(("POST", format!("/api/games/{id}/undo"), "{}".into()));
            reqs.push(("DELETE", format!("/api/games/{id}"), String::new()));
        }
        for (method, uri, body) in &reqs {
            let (status, v) = call(&app, method, uri, None, body).await;
            check(&what, &format!("{method} {uri}"), status, &v);
            if *method == "GET"
                && uri.len() > 11
                && status == StatusCode::OK
                && v["legal"].is_array()
            {
                served_games += 1;
            }
            if status == StatusCode::INTERNAL_SERVER_ERROR {
                internal += 1;
            }
        }
        let _ = std::fs::remove_file(&path);
    }
    println!(
        "200 damaged copies: {refused} refused at open, {opened} opened; {served_games} stored games \
         served, {internal} requests answered 500 internal"
    );
    println!("refused with: {messages:?}");
    // Both paths were taken: the corruptions are neither all fatal nor all harmless.
    assert!(refused > 0, "some damage is refused at open");
    assert!(opened > 0, "some damage opens");
    assert!(served_games > 0, "some stored games are still served");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fuzz_regression_a_negative_schema_version_is_refused_not_a_panic() {
    // sqlite_file crash-ba18d9c5: header bytes 60-63 (`PRAGMA user_version`) flipped to a
    // negative number made the migration index its table with it.
    let dir = temp_dir();
    let path = dir.join("negative.sqlite").display().to_string();
    drop(Db::open(&path).expect("a new database"));
    {
        let conn = rusqlite::Connection::open(&path).expect("reopen");
        conn.execute_batch("PRAGMA user_version = -33554427;")
            .expect("set the version");
    }
    let msg = Db::open(&path)
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        msg.contains("schema version -33554427") && msg.contains("damaged"),
        "{msg}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
