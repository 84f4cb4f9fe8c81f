//! `qiyi review`: a peg-solitaire record reviewed (table and JSON), and bad input ending with
//! `qiyi: error: ...` and exit code 2, never a panic.

use std::process::Command;

/// Runs `qiyi ARGS`; returns (exit code, stdout, stderr).
fn qiyi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(args)
        .output()
        .expect("the qiyi binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `text` to a file of its own in the temp dir and returns its path.
fn record(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("qiyi-review-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("record written");
    path.to_string_lossy().into_owned()
}

const GOOD: &str = r#"{"format":"qiyi-record","version":1,"game":"peg-solitaire",
  "rules":{"board":"english"},"position":null,"seed":1,
  "moves":[{"ply":0,"player":0,"text":"d2-d4"}]}"#;

#[test]
fn a_peg_record_reviews_as_a_table_and_as_json() {
    let path = record("good.json", GOOD);
    let (code, out, err) = qiyi(&["review", "peg-solitaire", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("d2-d4"), "{out}");
    assert!(out.contains("best"), "{out}");
    assert!(out.contains("never lost"), "{out}");
    let (code, out, err) = qiyi(&["review", "peg", &path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(last).expect("the last line is JSON");
    assert_eq!(v["format"], 1);
    assert_eq!(v["unit"], "pegs");
    assert_eq!(v["plies"][0]["played"], "d2-d4");
    assert_eq!(v["plies"][0]["class"], "best");
    assert_eq!(v["plies"][0]["after_played"]["unit"], 1.0);
    assert_eq!(v["summary"][0]["counts"][0], 1);
}

fn fails(args: &[&str], want: &str) {
    let (code, out, err) = qiyi(args);
    assert_eq!(code, 2, "qiyi {args:?}: {out}{err}");
    assert!(err.starts_with("qiyi: error: "), "{err}");
    assert!(err.contains(want), "{want:?} not in {err:?}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_records_are_clear_errors_with_exit_code_2() {
    let not_json = record("bad.json", "this is not a record {");
    fails(&["review", "peg", &not_json], "not JSON");
    let illegal = record(
        "illegal.json",
        r#"{"game":"peg-solitaire","rules":{"board":"english"},"moves":["d2-d4","d2-d4"]}"#,
    );
    fails(&["review", "peg", &illegal], "move 2 (d2-d4)");
    let other = record(
        "other.json",
        r#"{"game":"aeroplane","rules":{},"moves":[]}"#,
    );
    fails(
        &["review", "peg", &other],
        "is a aeroplane game, not peg-solitaire",
    );
    fails(
        &["review", "peg", "/nonexistent/qiyi/record.json"],
        "reading",
    );
    fails(&["review", "go", &not_json], "unknown game");
    fails(&["review", "xiangqi", &not_json], "not built yet");
    let board = record(
        "board.json",
        r#"{"game":"peg-solitaire","rules":{"board":"hexagon-9"},"moves":[]}"#,
    );
    fails(&["review", "peg", &board], "board");
    fails(
        &["review", "peg", "--id", "no-such-game", "--db", ":memory:"],
        "no game no-such-game",
    );
    fails(
        &["review", "peg", "--id", "x", "--db", "/nonexistent/qiyi.db"],
        "no game database",
    );
}

const CHECKERS: &str = "[Event \"review test\"]\n\n1. 10-15 22-17 2. 11-16 23-19 3. 16x23 26x19x10\n4. 6x15 24-19 5. 15x24 28x19 6. 8-11 27-23 *\n";

#[test]
fn a_checkers_game_reviews_with_an_annotated_pdn() {
    let path = record("game.pdn", CHECKERS);
    let out_pdn = record("annotated.pdn", "");
    let (code, out, err) = qiyi(&[
        "--json",
        "review",
        "checkers",
        &path,
        "--depth",
        "4",
        "--annotate",
        &out_pdn,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["game"], "checkers");
    assert_eq!(v["unit"], "cp");
    assert_eq!(v["plies"].as_array().map(Vec::len), Some(12));
    assert_eq!(v["plies"][2]["played"], "11-16");
    assert_eq!(v["plies"][4]["forced"], true, "16x23 is the only capture");
    let annotated = std::fs::read_to_string(&out_pdn).expect("annotated PDN written");
    assert_eq!(annotated.matches("[%eval ").count(), 12, "{annotated}");
    assert!(annotated.contains("[Event \"review test\"]"), "{annotated}");
    let (code, out, err) = qiyi(&["review", "checkers", &path, "--depth", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("judge: qiyi checkers engine"), "{out}");
    assert!(out.contains("26x19x10"), "{out}");
    // The same game as a JSON record.
    let json = record(
        "game.json",
        r#"{"game":"checkers","moves":["10-15",{"text":"22-17"},"11-16"]}"#,
    );
    let (code, out, err) = qiyi(&["--json", "review", "checkers", &json, "--depth", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"played\":\"22-17\""), "{out}");
}

#[test]
fn bad_checkers_reviews_are_clear_errors_with_exit_code_2() {
    let path = record("ck.pdn", CHECKERS);
    fails(
        &["review", "checkers", &path, "--depth", "10000"],
        "depth 10000 is out of range",
    );
    fails(
        &["review", "checkers", &path, "--movetime", "0"],
        "at least 1 ms",
    );
    let illegal = record("ck-illegal.pdn", "1. 10-15 10-15 *\n");
    fails(&["review", "checkers", &illegal], "the PDN does not read");
    let illegal = record(
        "ck-illegal.json",
        r#"{"game":"checkers","moves":["10-15","9-14"]}"#,
    );
    fails(&["review", "checkers", &illegal], "move 2 (9-14)");
    let other = record("ck-other.json", GOOD);
    fails(
        &["review", "checkers", &other],
        "is a peg-solitaire game, not checkers",
    );
    let peg = record("peg.json", GOOD);
    fails(
        &["review", "peg", &peg, "--depth", "4"],
        "--depth does not apply to peg solitaire",
    );
    fails(
        &["review", "checkers", &path, "--egdb", "/nonexistent/egdb"],
        "no complete endgame database",
    );
}
