//! The review's record reader: every form it reads replays the game exactly, and any text is
//! either a record or a clean error, never a panic.

use proptest::prelude::*;
use qiyi_aeroplane::players::{make_player, Player, PlayerKind};
use qiyi_aeroplane::review::{read_record, seeded_game, RecordError};
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Notation, Turn};

/// A seeded game of `n` players, with its start and the move texts.
fn game(n: usize, seed: u64) -> (Aero, Vec<AeroMove>, Vec<String>) {
    let start = Aero::new(Rules::STANDARD, n).expect("2-4 players");
    let mut players: Vec<Box<dyn Player>> = (0..n)
        .map(|i| make_player(PlayerKind::Win, seed * 10 + i as u64))
        .collect();
    let moves = seeded_game(&start, &mut players, seed);
    let mut pos = start;
    let texts = moves
        .iter()
        .map(|&mv| {
            let t = pos.move_to_text(mv);
            pos.play(mv);
            t
        })
        .collect();
    (start, moves, texts)
}

#[test]
fn a_bare_list_of_move_texts_replays_the_game() {
    let (start, moves, texts) = game(4, 3);
    let json = serde_json::to_string(&texts).expect("json");
    let (s, m) = read_record(&json).expect("reads");
    assert_eq!(s, start);
    assert_eq!(m, moves);
}

#[test]
fn the_server_record_replays_with_its_rules_and_players() {
    let (start, moves, texts) = game(3, 5);
    let mut pos = start;
    let entries: Vec<serde_json::Value> = moves
        .iter()
        .zip(&texts)
        .enumerate()
        .map(|(ply, (&mv, t))| {
            let player = match pos.turn() {
                Turn::Player(p) => serde_json::json!(p),
                _ => serde_json::Value::Null,
            };
            pos.play(mv);
            serde_json::json!({"ply": ply, "player": player, "text": t})
        })
        .collect();
    let record = serde_json::json!({
        "game": "aeroplane",
        "rules": {"players": 3, "set": "standard", "takeoff": "6"},
        "moves": entries,
    });
    let (s, m) = read_record(&record.to_string()).expect("reads");
    assert_eq!(s, start);
    assert_eq!(m, moves);

    // The same record with one entry's player changed is refused, naming the move.
    let mut wrong = record.clone();
    let i = entries
        .iter()
        .position(|e| e["player"] == serde_json::json!(1))
        .expect("player 1 moves");
    wrong["moves"][i]["player"] = serde_json::json!(2);
    let err = read_record(&wrong.to_string()).expect_err("wrong player");
    assert!(
        err.to_string().contains(&format!("move {}", i + 1))
            && err.to_string().contains("player 1 is to move"),
        "{err}"
    );
}

#[test]
fn bad_records_say_what_is_wrong() {
    let cases: [(&str, &str); 7] = [
        ("not json", "not JSON"),
        ("42", "neither a JSON object"),
        (
            r#"{"game":"checkers","moves":[]}"#,
            "checkers game, not aeroplane",
        ),
        (r#"{"game":"aeroplane"}"#, "no \"moves\""),
        (r#"{"moves":["r6","z"]}"#, "move 2 (z)"),
        (r#"{"rules":{"players":9},"moves":[]}"#, ""),
        (
            r#"{"rules":{"ending":"never"},"moves":[]}"#,
            "first-wins | play-on",
        ),
    ];
    for (text, says) in cases {
        let err = read_record(text).expect_err(text);
        assert!(err.to_string().contains(says), "{text}: {err}");
        if text == "not json" {
            assert!(matches!(err, RecordError::Json(_)));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any text reads or fails cleanly; what reads replays legally from its start.
    #[test]
    fn any_text_is_a_record_or_an_error(text in "\\PC{0,80}") {
        if let Ok((start, moves)) = read_record(&text) {
            let mut pos = start;
            for mv in moves {
                prop_assert!(pos.turn() != Turn::Over);
                pos.play(mv);
            }
        }
    }

    /// Lists of plausible move texts: a prefix of legal moves reads, the first illegal one is
    /// named by its number.
    #[test]
    fn lists_of_move_texts(moves in proptest::collection::vec(
        prop_oneof![Just("r1"), Just("r6"), Just("r3"), Just("a"), Just("b"), Just("r7"), Just("x")],
        0..30,
    )) {
        let json = serde_json::to_string(&moves).expect("json");
        match read_record(&json) {
            Ok((_, read)) => prop_assert_eq!(read.len(), moves.len()),
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.starts_with("move "), "{}", msg);
            }
        }
    }
}
