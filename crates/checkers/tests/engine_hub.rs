//! The Hub protocol driven with strings: the handshake pydraughts' `HubEngine` performs, position
//! and move conventions checked against what pydraughts 0.6.7 writes (see
//! `scripts/checkers/hub_pydraughts.py` for the live test with pydraughts itself), and parsers that
//! never panic.

use proptest::prelude::*;
use qiyi_checkers::engine::hub::{
    board_from_hub, board_to_hub, move_from_hub, move_to_hub, HubSession,
};
use qiyi_checkers::engine::Level;
use qiyi_checkers::notation::board_from_fen;
use qiyi_checkers::Board;

fn talk(session: &mut HubSession, lines: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    for l in lines {
        session.handle(l, &mut out).expect("writing to a Vec");
    }
    String::from_utf8(out)
        .expect("utf-8")
        .lines()
        .map(str::to_string)
        .collect()
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
    let mut s = HubSession::new(Level::Level(5), 1);
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
fn bad_input_gets_an_error_line() {
    let mut s = HubSession::new(Level::Level(3), 1);
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
        let mut s = HubSession::new(Level::Level(1), 1);
        let mut out = Vec::new();
        prop_assert!(s.handle(&line, &mut out).is_ok());
    }
}
