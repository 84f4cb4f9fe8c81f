//! `qiyi serve` as a process: games stored in `--db`, no seat token in its output, a graceful stop
//! on SIGTERM, and `qiyi games list|export` reading what it stored.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

fn temp_db() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("qiyi-serve-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join("games.sqlite").display().to_string()
}

/// One HTTP/1.1 request; returns (status, body).
fn http(addr: &str, method: &str, path: &str, token: Option<&str>, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).expect("connect");
    let auth = token
        .map(|t| format!("authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n{auth}content-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
    .expect("write");
    let mut out = String::new();
    s.read_to_string(&mut out).expect("read");
    let status = out
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = out
        .split_once("\r\n\r\n")
        .map(|x| x.1)
        .unwrap_or("")
        .to_string();
    (status, body)
}

fn field<'a>(json: &'a str, key: &str) -> Vec<&'a str> {
    // The values of `"key":"..."` in order (enough for ids and tokens, which are hex).
    json.match_indices(&format!("\"{key}\":"))
        .filter_map(|(i, m)| {
            let rest = &json[i + m.len()..];
            let rest = rest.strip_prefix('"')?;
            Some(&rest[..rest.find('"')?])
        })
        .collect()
}

#[test]
fn serve_stores_games_hides_tokens_and_stops_on_sigterm() {
    let db = temp_db();
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(["serve", "--port", "0", "--db", &db, "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qiyi serve starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("first line");
    assert!(first.contains(&db), "the database path is printed: {first}");
    let url = field(&first, "url")[0].to_string();
    let addr = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();

    let (status, created) = http(
        &addr,
        "POST",
        "/api/games",
        None,
        r#"{"game":"xiangqi","seats":[{"kind":"human"},{"kind":"human"}]}"#,
    );
    assert_eq!(status, 201, "{created}");
    let id = field(&created, "id")[0].to_string();
    let tokens: Vec<String> = created
        .split("\"seat_tokens\":[")
        .nth(1)
        .and_then(|r| r.split(']').next())
        .expect("seat_tokens")
        .split(',')
        .map(|t| t.trim_matches('"').to_string())
        .collect();
    assert_eq!(tokens.len(), 2);
    let moves = format!("/api/games/{id}/moves");
    let (status, _) = http(
        &addr,
        "POST",
        &moves,
        Some(&tokens[1]),
        r#"{"move":"h2e2"}"#,
    );
    assert_eq!(status, 403, "Black's token cannot move Red");
    let (status, body) = http(
        &addr,
        "POST",
        &moves,
        Some(&tokens[0]),
        r#"{"move":"h2e2"}"#,
    );
    assert_eq!(status, 200, "{body}");
    let (status, body) = http(
        &addr,
        "POST",
        &moves,
        Some(&tokens[1]),
        r#"{"move":"h9g7"}"#,
    );
    assert_eq!(status, 200, "{body}");

    let term = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(term.success());
    let status = child.wait().expect("the server stops");
    assert!(status.success(), "graceful stop on SIGTERM: {status}");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("stdout");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("stderr");
    for t in &tokens {
        for text in [&first, &rest, &err] {
            assert!(
                !text.contains(t.as_str()),
                "a token in the server's output: {text}"
            );
        }
    }

    let list = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(["games", "list", "--db", &db])
        .output()
        .expect("games list");
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(list.status.success() && text.contains(&id), "{text}");
    let export = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(["games", "export", &id, "--db", &db])
        .output()
        .expect("games export");
    let pgn = String::from_utf8_lossy(&export.stdout);
    assert!(
        export.status.success(),
        "{}",
        String::from_utf8_lossy(&export.stderr)
    );
    assert!(pgn.contains("1. H2-E2 H9-G7 *"), "{pgn}");
    let missing = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(["games", "export", "nope", "--db", &db])
        .output()
        .expect("games export");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no game nope"));
}
