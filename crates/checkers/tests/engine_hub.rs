//! The Hub protocol driven with strings: the handshake pydraughts' `HubEngine` performs, position
//! and move conventions checked against what pydraughts 0.6.7 writes (see
//! `scripts/checkers/hub_pydraughts.py` for the live test with pydraughts itself), and parsers that
//! never panic.

use proptest::prelude::*;
use qiyi_checkers::engine::hub::{
    board_from_hub, board_to_hub, move_from_hub, move_to_hub, run, HubSession,
};
use qiyi_checkers::engine::{EvalChoice, Level};
use qiyi_checkers::notation::board_from_fen;
use qiyi_checkers::Board;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An output both the session (and its search thread) and the test can reach.
#[derive(Clone, Default)]
struct Shared(Arc<Mutex<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("buffer").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Shared {
    /// The lines written since the last call.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.lock().expect("buffer"));
        String::from_utf8(bytes)
            .expect("utf-8")
            .lines()
            .map(str::to_string)
            .collect()
    }
}

fn session(level: Level) -> (HubSession, Shared) {
    let out = Shared::default();
    (HubSession::new(level, 1, out.clone()), out)
}

/// Sends `lines`, lets a bounded search finish, and returns what the engine wrote.
fn talk(session: &mut (HubSession, Shared), lines: &[&str]) -> Vec<String> {
    for l in lines {
        session.0.handle(l);
    }
    session.0.finish();
    session.1.take()
}

#[test]
fn positions_match_pydraughts() {
    // pydraughts: Board(variant='english')._game.initial_hub_fen for the start position...
    assert_eq!(
        board_to_hub(&Board::start()),
        "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww"
    );
    // ...and for W:W14:B10,K6.
    let b = board_from_fen("W:W14:B10,K6").expect("FEN");
    assert_eq!(board_to_hub(&b), "BeeeeeeeeeeeeeeeeeebeeeweeeWeeeee");
    assert_eq!(
        board_from_hub("BeeeeeeeeeeeeeeeeeebeeeweeeWeeeee").expect("hub"),
        b
    );
    // pydraughts' hub_move for the capture 14x7 there is 14x7x10 (from, to, captured).
    let mv = move_from_hub(&b, "14x7x10").expect("legal");
    assert_eq!(move_to_hub(&mv), "14x7x10");
    assert_eq!(
        move_from_hub(&Board::start(), "11-15")
            .map(|m| move_to_hub(&m))
            .ok()
            .as_deref(),
        Some("11-15")
    );
    assert!(move_from_hub(&Board::start(), "11-16x3").is_err());
    assert!(move_from_hub(&Board::start(), "22-18").is_err());
}

#[test]
fn handshake_and_a_move() {
    let mut s = session(Level::Level(5));
    let out = talk(&mut s, &["hub"]);
    assert!(out[0].starts_with("id name=qiyi"));
    assert!(out
        .iter()
        .any(|l| l.contains("name=variant") && l.contains("english")));
    assert_eq!(out.last().map(String::as_str), Some("wait"));
    assert_eq!(
        talk(&mut s, &["set-param name=variant value=english", "init"]),
        vec!["ready"]
    );
    assert_eq!(talk(&mut s, &["ping"]), vec!["pong"]);
    let out = talk(
        &mut s,
        &[
            "new-game",
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 23-19\"",
            "level depth=4",
            "go think",
        ],
    );
    let done = out.last().expect("an answer");
    let mv = done
        .strip_prefix("done move=")
        .expect("done")
        .split_whitespace()
        .next()
        .expect("move");
    // Black to move after 11-15 23-19: the answer must be legal there.
    let b = board_from_fen("B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15")
        .expect("FEN");
    assert!(move_from_hub(&b, mv).is_ok(), "{done}");
    assert!(out.iter().any(|l| l.starts_with("info depth=")));
}

#[test]
fn stop_interrupts_an_infinite_search() {
    let mut s = session(Level::Level(10));
    for l in [
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 23-19\"",
        "level infinite",
        "go analyze",
    ] {
        s.0.handle(l);
    }
    // The search has no bound: it is still thinking after the first depths are out...
    let started = Instant::now();
    while !s.1 .0.lock().expect("buffer").starts_with(b"info") {
        assert!(started.elapsed() < Duration::from_secs(60), "no info line");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(s.0.searching());
    // ...answers ping meanwhile...
    s.0.handle("ping");
    // ...and stop ends it with a legal move (the test would hang if it did not).
    s.0.handle("stop");
    assert!(!s.0.searching());
    let out = s.1.take();
    assert!(out.iter().any(|l| l == "pong"), "{out:?}");
    let done = out.last().expect("done");
    let mv = done
        .strip_prefix("done move=")
        .expect("done")
        .split_whitespace()
        .next();
    let b = board_from_fen("B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15")
        .expect("FEN");
    assert!(move_from_hub(&b, mv.expect("move")).is_ok(), "{done}");
}

#[test]
fn run_reads_commands_while_the_engine_thinks() {
    // Through `run`: `stop` right after an unbounded `go` (possibly before the first depth
    // completes) still gets a legal move, and `quit` ends the session.
    let out = Shared::default();
    let input = "init\nlevel infinite\ngo think\nstop\nping\nquit\nping\n";
    run(
        input.as_bytes(),
        out.clone(),
        Level::Level(10),
        1,
        None,
        EvalChoice::default(),
    )
    .expect("run");
    let lines = out.take();
    assert_eq!(lines.first().map(String::as_str), Some("ready"));
    let done: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("done move="))
        .collect();
    assert_eq!(done.len(), 1, "{lines:?}");
    let mv = done[0]
        .strip_prefix("done move=")
        .and_then(|m| m.split_whitespace().next());
    assert!(move_from_hub(&Board::start(), mv.expect("move")).is_ok());
    // One pong: the ping after quit is never read.
    assert_eq!(lines.iter().filter(|l| *l == "pong").count(), 1);
    // The end of input stops an unbounded search too.
    let out = Shared::default();
    run(
        "level infinite\ngo think\n".as_bytes(),
        out.clone(),
        Level::Level(10),
        1,
        None,
        EvalChoice::default(),
    )
    .expect("run");
    assert!(out.take().iter().any(|l| l.starts_with("done move=")));
}

#[test]
fn bad_input_gets_an_error_line() {
    let mut s = session(Level::Level(3));
    let out = talk(
        &mut s,
        &[
            "pos pos=Xeee",
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-18\"",
            "frobnicate",
        ],
    );
    assert_eq!(out.len(), 3);
    assert!(out.iter().all(|l| l.starts_with("error")));
}

proptest! {
    #[test]
    fn hub_parsers_never_panic(text in "\\PC{0,40}") {
        let _ = board_from_hub(&text);
        let _ = move_from_hub(&Board::start(), &text);
        let _ = Level::parse(&text);
    }

    #[test]
    fn hub_positions_round_trip(cells in proptest::collection::vec(0u8..5, 32), white in any::<bool>()) {
        let mut s = String::from(if white { "B" } else { "W" });
        for c in cells {
            s.push(['e', 'w', 'b', 'W', 'B'][c as usize]);
        }
        if let Ok(b) = board_from_hub(&s) {
            prop_assert_eq!(board_to_hub(&b), s);
        }
    }

    #[test]
    fn session_never_panics(line in "(hub|init|pos|level|set-param|ping|new-game|stop) \\PC{0,30}") {
        let mut s = session(Level::Level(1));
        prop_assert!(s.0.handle(&line));
        s.0.finish();
    }
}

/// Runs the whole loop on `script` (bytes, as a GUI sends them) and returns the output.
fn run_bytes(script: &[u8]) -> String {
    let out = Shared::default();
    run(
        script,
        out.clone(),
        Level::Level(1),
        1,
        None,
        EvalChoice::default(),
    )
    .expect("io");
    let bytes = out.0.lock().expect("buffer").clone();
    String::from_utf8(bytes).expect("utf-8")
}

/// Each hostile line, then `ping`: the engine is still there and answers `pong`.
#[test]
fn any_bytes_are_answered_and_the_engine_stays_alive() {
    let mut long = b"pos pos=".to_vec();
    long.extend(std::iter::repeat_n(b'e', 1 << 20));
    let hostile: Vec<Vec<u8>> = vec![
        b"set-param name=\xc6\xe5\xc6\xd7 value=C:\\\xcf\xf3\xc6\xe5".to_vec(),
        b"\xff\xfe\xfd".to_vec(),
        b"ping\0".to_vec(),
        b"\0\0\0".to_vec(),
        long,
        b"set-param name=threads value=99999999999999999999999".to_vec(),
        b"level depth=1e300 move-time=0.01".to_vec(),
        b"level move-time=1e300".to_vec(),
        b"level time=1e300 inc=1e300 depth=2".to_vec(),
        b"level nodes=1e300 move-time=0.01".to_vec(),
        b"pos pos=\xe8\xbd\xa6 moves=\"\xff\"".to_vec(),
        b"\r\r\r".to_vec(),
    ];
    for line in &hostile {
        let mut script = line.clone();
        script.extend_from_slice(b"\nlevel depth=1\ngo think\nping\n");
        let out = run_bytes(&script);
        assert!(
            out.lines().any(|l| l == "pong"),
            "{:?}: {out}",
            String::from_utf8_lossy(&line[..line.len().min(60)])
        );
        assert!(out.lines().any(|l| l.starts_with("done move=")), "{out}");
    }
}

#[test]
fn absurd_levels_are_clamped_and_said_so() {
    let out = run_bytes(b"set-param name=threads value=100000\nlevel move-time=1e300\nping\n");
    assert!(
        out.contains("info message=\"threads 100000 clamped to 64\""),
        "{out}"
    );
    assert!(out.contains("info message=\"move-time "), "{out}");
    assert!(out.contains("clamped to 86400\""), "{out}");
    assert!(out.contains("pong"), "{out}");
}

#[test]
fn the_hash_param_sizes_the_table() {
    let mut s = session(Level::Level(5));
    let out = talk(&mut s, &["hub"]);
    assert!(
        out.iter()
            .any(|l| l == "param name=hash value=64 type=int min=1 max=4096"),
        "{out:?}"
    );
    talk(&mut s, &["set-param name=hash value=16"]);
    assert_eq!(s.0.hash_mib(), 16);
    let out = talk(&mut s, &["hub"]);
    assert!(
        out.iter()
            .any(|l| l.starts_with("param name=hash value=16 ")),
        "{out:?}"
    );
    // A search still answers after the table was rebuilt.
    let out = talk(&mut s, &["new-game", "level depth=4", "go think"]);
    assert!(
        out.last().is_some_and(|l| l.starts_with("done move=")),
        "{out:?}"
    );
    // (Clamping past 4096 MiB is not tried here: it would build a 4 GiB table.)
    let out = talk(&mut s, &["set-param name=hash value=x"]);
    assert!(
        out.iter().any(|l| l == "error hash must be 1-4096 MiB"),
        "{out:?}"
    );
    assert_eq!(s.0.hash_mib(), 16, "a bad value changes nothing");
    talk(&mut s, &["set-param name=hash value=1"]);
    assert_eq!(s.0.hash_mib(), 1);
}
