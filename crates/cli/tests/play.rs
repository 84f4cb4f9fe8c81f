//! `qiyi play` driven through stdin/stdout for every game (scripted games to their end, bad input,
//! undo, save/load, end of input), and `qiyi bench --quick` giving the same signature twice.

use std::io::Write;
use std::process::{Command, Stdio};

/// Starts `qiyi ARGS` with stdin, stdout and stderr piped.
fn spawn(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the qiyi binary starts")
}

/// Runs `qiyi ARGS` with `input` on stdin; returns (exit code, stdout, stderr).
fn qiyi(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = spawn(args);
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("input is written");
    let out = child.wait_with_output().expect("qiyi ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn play(args: &[&str], input: &str) -> String {
    let mut all = vec!["play"];
    all.extend_from_slice(args);
    let (code, out, err) = qiyi(&all, input);
    assert_eq!(code, 0, "qiyi {all:?} failed: {err}\n{out}");
    out
}

#[test]
fn xiangqi_bad_input_undo_and_mate() {
    // A typo and an illegal move are answered and the game goes on; undo takes back the AI's
    // reply with the human move; end of input ends cleanly.
    let out = play(
        &["xiangqi", "--seats", "human,ai:1", "--ai-ms", "50"],
        "h2e9\nhello\nh2e2\nundo\nmoves\n",
    );
    assert!(
        out.contains("not a legal move or command: \"h2e9\""),
        "{out}"
    );
    assert!(
        out.contains("not a legal move or command: \"hello\""),
        "{out}"
    );
    assert!(out.contains("(AI) plays"), "{out}");
    assert!(out.contains("undone: back to ply 0"), "{out}");
    assert!(out.contains("44 legal moves"), "{out}");
    assert!(out.contains("end of input"), "{out}");
    // Chinese notation is accepted too; a scripted mate ends the game with its reason.
    let fen = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w";
    let out = play(&["xiangqi", "--seats", "human", "--fen", fen], "车八进九\n");
    assert!(out.contains("game over: Red"), "{out}");
    assert!(out.contains("checkmate"), "{out}");
}

#[test]
fn checkers_capture_ends_the_game_and_undo() {
    let fen = "B:W18:B14";
    let out = play(
        &["checkers", "--seats", "human", "--fen", fen],
        "14-18\nundo\n14-23\n",
    );
    assert!(
        out.contains("not a legal move or command: \"14-18\""),
        "{out}"
    );
    assert!(out.contains("cannot undo"), "{out}");
    assert!(out.contains("game over: Black wins"), "{out}");
}

#[test]
fn checkers_ai_move_and_undo() {
    let out = play(
        &["checkers", "--seats", "human,ai:1", "--ai-ms", "50"],
        "11-15\nundo\nquit\n",
    );
    assert!(out.contains("White (AI) plays"), "{out}");
    assert!(out.contains("undone: back to ply 0"), "{out}");
    assert!(out.lines().any(|l| l.trim() == "quit"), "{out}");
}

#[test]
fn chinese_checkers_ai_game_to_the_end() {
    let out = play(
        &["chinese-checkers", "--seats", "ai:1,ai:1", "--ai-ms", "50"],
        "",
    );
    assert!(out.contains("game over: "), "{out}");
    assert!(out.contains("filled the opposite point"), "{out}");
}

#[test]
fn chinese_checkers_bad_input_and_from_to() {
    let out = play(
        &["chinese-checkers", "--seats", "human,human", "--ascii"],
        "moves\nz9-z10\no1-m5\nundo\n",
    );
    assert!(
        out.contains("not a legal move or command: \"z9-z10\""),
        "{out}"
    );
    assert!(out.contains("last move: o1:m5"), "{out}");
    assert!(out.contains("undone: back to ply 0"), "{out}");
}

#[test]
fn peg_solitaire_from_to_undo_and_solve() {
    let out = play(&["peg-solitaire"], "d4-d6\nd2-d4\nundo\nd2-d4\nsolve\n");
    assert!(
        out.contains("not a legal move or command: \"d4-d6\""),
        "{out}"
    );
    assert!(out.contains("undone: back to ply 0"), "{out}");
    assert!(out.contains("solution: "), "{out}");
    assert!(out.contains("game over: "), "{out}");
    assert!(out.contains("one peg left in d4"), "{out}");
    assert!(out.contains("pegs: 1 "), "{out}");
}

#[test]
fn aeroplane_ai_game_to_the_end() {
    let out = play(&["aeroplane", "--seats", "ai:1", "--seed", "7"], "");
    assert!(out.contains("game over: "), "{out}");
    assert!(out.contains("wins"), "{out}");
}

#[test]
fn aeroplane_human_sees_roll_and_bad_input() {
    let out = play(
        &[
            "aeroplane",
            "--seats",
            "human,ai:1",
            "--rules",
            "players=2",
            "--seed",
            "3",
        ],
        "zz\nquit\n",
    );
    assert!(out.contains("rolled "), "{out}");
    assert!(out.contains("not a legal move or command: \"zz\""), "{out}");
}

#[test]
fn save_and_load_round_trip() {
    let dir = std::env::temp_dir().join(format!("qiyi-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("game.json");
    let f = file.to_string_lossy().to_string();
    let out = play(
        &["checkers", "--seats", "human"],
        &format!("11-15\nsave {f}\n"),
    );
    assert!(out.contains("saved to"), "{out}");
    let out = play(
        &["checkers", "--seats", "human"],
        &format!("load {f}\nload /nonexistent/x.json\nmoves\n"),
    );
    assert!(out.contains("loaded"), "{out}");
    assert!(out.contains("cannot load"), "{out}");
    // White to move after 11-15: White's opening moves are listed.
    assert!(out.contains("22-18"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_exit_2() {
    let (code, _, err) = qiyi(&["play", "xiangqi", "--seats", "robot"], "");
    assert_eq!(code, 2);
    assert!(err.contains("bad seat"), "{err}");
    let (code, _, err) = qiyi(&["play", "xiangqi", "--fen", "nonsense"], "");
    assert_eq!(code, 2, "{err}");
}

#[test]
fn bench_quick_signature_is_stable() {
    let run = || {
        let (code, out, err) = qiyi(&["bench", "--quick", "--json"], "");
        assert_eq!(code, 0, "{err}");
        let last = out.lines().last().expect("a JSON line").to_string();
        let v: serde_json::Value = serde_json::from_str(&last).expect("JSON");
        v
    };
    let a = run();
    let b = run();
    for game in [
        "xiangqi",
        "checkers",
        "chinese-checkers",
        "peg-solitaire",
        "aeroplane",
    ] {
        let na = a[game]["nodes"].as_u64().expect("nodes");
        assert!(na > 0, "{game}");
        assert_eq!(Some(na), b[game]["nodes"].as_u64(), "{game}");
        assert!(a[game]["nps"].as_u64().is_some(), "{game}");
    }
    assert_eq!(a["signature"], b["signature"]);
}

/// Drives `qiyi play ARGS` as a person would: at each prompt it asks for `moves` and plays the
/// first one listed, until it has moved and every other seat has played (or the game ends), then
/// quits. Returns everything the program printed.
fn play_first_moves(args: &[&str], seats_to_hear: usize) -> String {
    use std::io::Read;
    use std::sync::mpsc;
    use std::time::{Duration, Instant};
    let mut child = spawn(&[&["play"][..], args].concat());
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let mut stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel::<Vec<u8>>();
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut out = String::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    // Read until new text (past `from`) ends with a prompt; false if the program ends first.
    let until_prompt = |out: &mut String, from: usize| -> bool {
        loop {
            if out.len() > from && out.trim_end().ends_with("to move>") {
                return true;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(bytes) => out.push_str(&String::from_utf8_lossy(&bytes)),
                Err(_) => return false,
            }
        }
    };
    let ai_seats = |out: &str| {
        let mut names: Vec<&str> = out
            .lines()
            .filter_map(|l| l.split_once(" (AI) plays").map(|(name, _)| name))
            .collect();
        names.sort_unstable();
        names.dedup();
        names.len()
    };
    let mut from = 0;
    for moved in 0..200 {
        if !until_prompt(&mut out, from) || (moved > 0 && ai_seats(&out) >= seats_to_hear) {
            break;
        }
        let seen = out.len();
        writeln!(stdin, "moves").expect("input is written");
        assert!(
            until_prompt(&mut out, seen),
            "no prompt after `moves`:\n{out}"
        );
        let listed = out[seen..]
            .split_once("legal moves: ")
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no legal move listed:\n{out}"))
            .to_string();
        from = out.len();
        writeln!(stdin, "{listed}").expect("input is written");
    }
    writeln!(stdin, "quit").ok();
    drop(stdin);
    let status = child.wait().expect("qiyi ends");
    reader.join().expect("the reader ends");
    while let Ok(bytes) = rx.try_recv() {
        out.push_str(&String::from_utf8_lossy(&bytes));
    }
    let mut err = String::new();
    if let Some(mut e) = child.stderr.take() {
        e.read_to_string(&mut err).ok();
    }
    assert!(status.success(), "qiyi play {args:?} failed: {err}\n{out}");
    assert_eq!(
        ai_seats(&out),
        seats_to_hear,
        "qiyi play {args:?}: every other seat is the AI by default\n{out}"
    );
    out
}

#[test]
fn every_game_and_player_count_plays_without_options() {
    // (game, rule options, players): the default seats are one human and the AI elsewhere.
    let cases: [(&str, Option<&str>, usize); 10] = [
        ("xiangqi", None, 2),
        ("checkers", None, 2),
        ("chinese-checkers", None, 2),
        ("chinese-checkers", Some("players=3"), 3),
        ("chinese-checkers", Some("players=4"), 4),
        ("chinese-checkers", Some("players=6"), 6),
        ("peg-solitaire", None, 1),
        ("aeroplane", None, 4),
        ("aeroplane", Some("players=3"), 3),
        ("aeroplane", Some("players=2"), 2),
    ];
    for (game, rules, players) in cases {
        let mut args = vec![game, "--ai-ms", "20", "--level", "1"];
        if let Some(r) = rules {
            args.extend(["--rules", r]);
        }
        let out = play_first_moves(&args, players - 1);
        assert!(
            out.contains("last move: "),
            "{game} {rules:?}: no move made\n{out}"
        );
    }
}
