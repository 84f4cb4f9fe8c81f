//! One test (at least) for every rule of Xiangqi as implemented: the seven pieces, the flying general, no move
//! into check, checkmate and stalemate losing, perpetual check losing, perpetual chase losing,
//! other repetitions drawing, the 60-move rule and "no attackers" drawing.
//! Positions whose verdict is not obvious were confirmed with pyffish (noted in comments).

use qiyi_core::{Game, Turn};
use qiyi_xiangqi::{Color, EndReason, Move, Position};

fn moves_of(fen: &str) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap();
    let mut v: Vec<String> = pos
        .legal_move_list()
        .as_slice()
        .iter()
        .map(|m| m.to_string())
        .collect();
    v.sort();
    v
}

fn from_square(fen: &str, sq: &str) -> Vec<String> {
    moves_of(fen)
        .into_iter()
        .filter(|m| m.starts_with(sq))
        .collect()
}

fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        let mv = pos
            .parse_move_text(m)
            .unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make(mv);
    }
    pos
}

const START: &str = qiyi_xiangqi::START_FEN;

#[test]
fn general_and_advisors_stay_in_the_palace() {
    // Red general on d0 alone with its advisor on e1.
    let fen = "4k4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1";
    assert_eq!(from_square(fen, "d0"), ["d0d1", "d0e0"]);
    assert_eq!(from_square(fen, "e1"), ["e1d2", "e1f0", "e1f2"]);
    // An advisor on a palace corner has one move (to the centre); none leave the palace.
    assert_eq!(
        from_square("3k5/9/9/9/9/9/9/9/9/4KA3 w - - 0 1", "f0"),
        ["f0e1"]
    );
}

#[test]
fn elephants_need_an_empty_eye_and_never_cross_the_river() {
    // Elephant on c4 at the river: a6 and e6 are across it, so only the two moves back.
    let fen = "3k5/9/9/9/9/2B6/9/9/9/4K4 w - - 0 1";
    assert_eq!(from_square(fen, "c4"), ["c4a2", "c4e2"]);
    // A black soldier on b3 blocks the eye of the a2 route.
    let blocked = "3k5/9/9/9/9/2B6/1p7/9/9/4K4 w - - 0 1";
    assert_eq!(from_square(blocked, "c4"), ["c4e2"]);
    // Start position: c0 elephant goes to a2 and e2.
    assert_eq!(from_square(START, "c0"), ["c0a2", "c0e2"]);
}

#[test]
fn horses_are_blocked_at_the_leg() {
    // b0 horse: d1 is blocked by the elephant on c0 (leg c0), so only a2 and c2.
    assert_eq!(from_square(START, "b0"), ["b0a2", "b0c2"]);
    // A free horse in the centre has eight moves; a piece next to it blocks two.
    let free = "4k4/9/9/9/4N4/9/9/9/9/3K5 w - - 0 1";
    assert_eq!(from_square(free, "e5").len(), 8);
    let leg = "4k4/9/9/9/4N4/4P4/9/9/9/3K5 w - - 0 1";
    let m = from_square(leg, "e5");
    assert_eq!(m.len(), 6);
    assert!(!m.contains(&"e5d3".to_string()) && !m.contains(&"e5f3".to_string()));
}

#[test]
fn chariots_slide_and_capture_the_first_piece() {
    // a0 chariot in the start position: a1, a2 up to its own soldier on a3.
    assert_eq!(from_square(START, "a0"), ["a0a1", "a0a2"]);
    let fen = "4k4/9/9/p8/9/9/9/9/9/R2K5 w - - 0 1";
    let m = from_square(fen, "a0");
    assert!(m.contains(&"a0a6".to_string()) && !m.contains(&"a0a7".to_string()));
}

#[test]
fn cannons_capture_over_exactly_one_screen() {
    // h2 cannon: captures h9 over the h7 cannon, cannot capture h7 itself.
    let m = from_square(START, "h2");
    assert!(m.contains(&"h2h9".to_string()));
    assert!(!m.contains(&"h2h7".to_string()));
    assert!(m.contains(&"h2h6".to_string()));
    // Two screens: no capture.
    let fen = "4k4/9/9/p8/P8/P8/9/9/9/C2K5 w - - 0 1";
    assert!(!from_square(fen, "a0").contains(&"a0a6".to_string()));
}

#[test]
fn soldiers_go_forward_and_sideways_only_after_the_river() {
    assert_eq!(from_square(START, "e3"), ["e3e4"]);
    let crossed = "4k4/9/9/9/4P4/9/9/9/9/3K5 w - - 0 1";
    assert_eq!(from_square(crossed, "e5"), ["e5d5", "e5e6", "e5f5"]);
    // On the last rank only sideways, never backwards.
    let top = "P2k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(from_square(top, "a9"), ["a9b9"]);
}

#[test]
fn flying_general_rule() {
    // The generals may not face each other on an open file.
    assert_eq!(moves_of("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"), ["d0d1"]); // pyffish: d1d2 only
                                                                         // A lone piece between the generals is pinned.
    let pinned = "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1";
    assert_eq!(moves_of(pinned), ["e0d0", "e0e1", "e0f0"]);
    // A FEN where the generals already face each other is rejected.
    assert!(Position::from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1").is_err());
}

#[test]
fn no_move_may_leave_the_own_general_in_check() {
    // Black general d9 checked by the red chariot on d5: only moves that answer the check.
    let fen = "3k5/4a4/9/9/3R5/9/9/9/9/5K3 b - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    assert!(pos.in_check());
    for m in pos.legal_move_list().as_slice() {
        let mut p = pos.clone();
        p.make(*m);
        assert!(
            !p.is_in_check(Color::Black),
            "{m} leaves the general in check"
        );
    }
    // d9d8 stays on the chariot's file, the advisor's other moves leave the check open.
    assert_eq!(moves_of(fen), ["d9e9", "e8d7"]);
}

#[test]
fn checkmate_loses_for_the_side_to_move() {
    // pyffish: no legal moves, in check, game_result -32000 (side to move loses).
    let pos = Position::from_fen("3k5/3P5/9/2N6/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert_eq!(pos.turn(), Turn::Over);
    let o = pos.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Checkmate);
    assert_eq!(o.winner, Some(Color::Red));
    assert_eq!(pos.returns(1), -1.0);
    assert_eq!(pos.returns(0), 1.0);
}

#[test]
fn stalemate_loses_for_the_side_to_move() {
    // pyffish: no legal moves, not in check.
    let pos = Position::from_fen("3k5/4P4/9/9/9/9/9/9/9/4K4 b - - 0 1").unwrap();
    assert!(!pos.in_check());
    let o = pos.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Stalemate);
    assert_eq!(o.winner, Some(Color::Red));
    assert_eq!(pos.returns(1), -1.0);
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    assert!(v.is_empty());
}

#[test]
fn perpetual_check_loses() {
    // Red checks with every move; the third occurrence ends the game and Red loses.
    // pyffish is_optional_game_end on the same sequence: (True, +32000 for Black to move).
    let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
    let cycle = "e9e8 a9a8 e8e9 a8a9";
    let pos = play(fen, &format!("a0a9 {cycle}"));
    assert_eq!(pos.repetition_outcome(), None, "second occurrence: play on");
    assert_eq!(pos.turn(), Turn::Player(1));
    let pos = play(fen, &format!("a0a9 {cycle} {cycle}"));
    let o = pos.outcome().unwrap();
    assert_eq!(o.reason, EndReason::PerpetualCheck);
    assert_eq!(o.winner, Some(Color::Black));
    let mut v = Vec::new();
    pos.legal_moves(&mut v);
    assert!(v.is_empty(), "a finished game has no moves");
}

#[test]
fn perpetual_chase_loses() {
    // The red horse attacks the black chariot with every move (d4b5 hits c7, b5d4 hits c6) while
    // the chariot steps between c7 and c6: Red chases perpetually and loses at the third
    // occurrence. pyffish is_optional_game_end on the same sequence: (True, -32000 for Red).
    let fen = "4k4/9/2r6/9/9/3N5/9/9/9/3K5 w - - 0 1";
    let cycle = "d4b5 c7c6 b5d4 c6c7";
    let once = play(fen, cycle);
    assert_eq!(once.outcome(), None);
    let pos = play(fen, &format!("{cycle} {cycle}"));
    let o = pos.outcome().unwrap();
    assert_eq!(o.reason, EndReason::PerpetualChase);
    assert_eq!(o.winner, Some(Color::Black));
    assert_eq!(pos.returns(0), -1.0);
    // The horse's move is a chase of the chariot (a stronger piece).
    let after = play(fen, "d4b5");
    assert_eq!(
        after.chased_by_last_move(),
        vec![qiyi_xiangqi::Square::new(2, 7).unwrap()]
    );
}

#[test]
fn other_repetitions_draw() {
    // Horses out and back twice: the start position occurs a third time, nobody checks or chases.
    let pos = play(START, "b0c2 b9c7 c2b0 c7b9 b0c2 b9c7 c2b0 c7b9");
    let o = pos.outcome().unwrap();
    assert_eq!(o.reason, EndReason::Repetition);
    assert_eq!(o.winner, None);
    assert_eq!(pos.returns(0), 0.0);
    // After one cycle the position has occurred only twice: play on.
    assert_eq!(
        play(START, "b0c2 b9c7 c2b0 c7b9").repetition_outcome(),
        None
    );
}

#[test]
fn sixty_move_rule_draws() {
    let fen = "4k4/9/9/9/9/9/9/9/4p4/R2K5 w - - 119 80";
    let pos = Position::from_fen(fen).unwrap();
    assert_eq!(pos.outcome(), None);
    let quiet = play(fen, "a0a1");
    assert_eq!(
        quiet.outcome().map(|o| o.reason),
        Some(EndReason::MoveLimit)
    );
    assert_eq!(quiet.returns(0), 0.0);
    // A capture on the 120th ply resets the counter instead.
    let capture = play("4k4/9/9/9/9/9/9/9/R3p4/3K5 w - - 119 80", "a1e1");
    assert_eq!(capture.halfmove_clock(), 0);
    assert_eq!(capture.outcome(), None);
}

#[test]
fn no_attackers_draws() {
    let pos = Position::from_fen("3ak4/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1").unwrap();
    let o = pos.outcome().unwrap();
    assert_eq!(o.reason, EndReason::NoAttackers);
    assert_eq!(o.winner, None);
    // One soldier left is enough to play on.
    let pos = Position::from_fen("3ak4/4a4/4b4/9/9/9/4P4/4B4/4A4/3AK4 w - - 0 1").unwrap();
    assert_eq!(pos.outcome(), None);
}

#[test]
fn make_unmake_restores_everything() {
    let mut pos = Position::start();
    let before = pos.clone();
    let mv: Move = pos.parse_move_text("h2h9").unwrap();
    let undo = pos.make(mv);
    assert_eq!(pos.zobrist(), pos.compute_hash());
    pos.unmake(mv, undo);
    assert_eq!(pos, before);
}
