//! One test (at least) per WCDF rule the crate implements (see the crate README).

use qiyi_checkers::notation::{board_from_fen, move_to_pdn, parse_move};
use qiyi_checkers::rules::{Outcome, QUIET_PLY_LIMIT};
use qiyi_checkers::{Board, Checkers, Color};
use qiyi_core::{Game, Notation, Turn};

fn moves_of(fen: &str) -> Vec<String> {
    let b = board_from_fen(fen).expect("valid FEN");
    let mut v = Vec::new();
    b.generate(&mut v);
    let mut t: Vec<String> = v.iter().map(move_to_pdn).collect();
    t.sort();
    t
}

#[test]
fn thirty_two_squares_black_on_1_to_12_moves_first() {
    let g = Checkers::start();
    assert_eq!(
        g.fen(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    assert_eq!(g.turn(), Turn::Player(0));
    assert_eq!(g.board().side_to_move(), Color::Black);
    assert_eq!(g.num_players(), 2);
}

#[test]
fn men_move_diagonally_forward_only() {
    // A Black man on 14 moves to 17 or 18, never back to 9 or 10.
    assert_eq!(moves_of("B:W32:B14"), vec!["14-17", "14-18"]);
    // A White man on 14 moves to 9 or 10.
    assert_eq!(moves_of("W:W14:B1"), vec!["14-10", "14-9"]);
    // Edge squares have one forward move.
    assert_eq!(moves_of("B:W32:B5"), vec!["5-9"]);
}

#[test]
fn men_capture_forward_only() {
    // White men on 10 (behind) and 18 (in front) of a Black man on 14: only 18 can be taken.
    assert_eq!(moves_of("B:W10,18:B14"), vec!["14x23"]);
    // Nothing in front: the man on 10 behind cannot be taken backwards.
    assert_eq!(moves_of("B:W10:B14"), vec!["14-17", "14-18"]);
}

#[test]
fn kings_move_one_square_in_all_four_directions() {
    assert_eq!(
        moves_of("B:W32:BK14"),
        vec!["14-10", "14-17", "14-18", "14-9"]
    );
    // No flying kings: a king on 1 with an open diagonal still moves one square.
    assert_eq!(moves_of("B:W32:BK1"), vec!["1-5", "1-6"]);
    // Kings capture backwards.
    assert_eq!(moves_of("B:W10:BK14"), vec!["14x7"]);
}

#[test]
fn capturing_is_compulsory() {
    // The man on 1 could move, but 14 must capture.
    assert_eq!(moves_of("B:W18:B1,14"), vec!["14x23"]);
}

#[test]
fn any_capture_sequence_may_be_chosen_no_majority_rule() {
    // 12x19 takes one piece, 10x17x26 takes two: both are legal.
    assert_eq!(moves_of("B:W14,16,22:B10,12"), vec!["10x17x26", "12x19"]);
}

#[test]
fn a_capture_sequence_must_be_completed() {
    // 10x17 alone is not a move: the man must continue 17x26.
    assert_eq!(moves_of("B:W14,22:B10"), vec!["10x17x26"]);
}

#[test]
fn captured_pieces_are_removed_at_the_end_and_jumped_once() {
    // The windmill: the king goes round and lands back on 10; both directions are moves, and no
    // piece is jumped twice (the sequence stops after four captures).
    assert_eq!(
        moves_of("W:WK10:B14,15,22,23"),
        vec!["10x17x26x19x10", "10x19x26x17x10"]
    );
    // The king on 1 takes 6 then 15; from 10 it may not jump 6 a second time.
    let m = moves_of("B:W6,15:BK1");
    assert_eq!(m, vec!["1x10x19"]);
}

#[test]
fn a_man_crowned_mid_capture_stops() {
    // 22x31 crowns; the new king may not continue 31x24 over 27.
    assert_eq!(moves_of("B:W26,27:B22"), vec!["22x31"]);
    let b = board_from_fen("B:W26,27:B22").unwrap();
    let after = b.play(parse_move(&b, "22x31").unwrap());
    assert_eq!(after.piece_at(31), Some((Color::Black, true)));
    // A man reaching the far row by a simple move is crowned too.
    let b = board_from_fen("B:W5:B27").unwrap();
    let after = b.play(parse_move(&b, "27-32").unwrap());
    assert_eq!(after.piece_at(32), Some((Color::Black, true)));
}

#[test]
fn a_side_with_no_legal_move_loses() {
    // No pieces.
    let g = Checkers::from_fen("W:W:B1").unwrap();
    assert!(g.moves().is_empty());
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));
    assert_eq!(g.returns(0), 1.0);
    assert_eq!(g.returns(1), -1.0);
    // Pieces but blocked: a White man on 29 behind a Black man on 25 with 22 occupied.
    let g = Checkers::from_fen("W:W29:B25,22").unwrap();
    assert_eq!(g.turn(), Turn::Over);
    assert_eq!(g.returns(1), -1.0);
}

fn play(g: &mut Checkers, moves: &[&str]) {
    for m in moves {
        let mv = g.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        g.make(mv);
    }
}

#[test]
fn threefold_repetition_is_a_draw() {
    let mut g = Checkers::from_fen("B:WK32:BK1").unwrap();
    let cycle = ["1-5", "32-28", "5-1", "28-32"];
    play(&mut g, &cycle);
    assert_eq!(g.repetitions(), 2);
    assert!(!g.is_over());
    play(&mut g, &cycle[..3]);
    assert!(!g.is_over());
    play(&mut g, &cycle[3..]);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.outcome(), Some(Outcome::DrawByRepetition));
    assert!(g.moves().is_empty());
    assert_eq!(g.returns(0), 0.0);
    assert_eq!(g.returns(1), 0.0);
}

#[test]
fn a_man_move_resets_repetition() {
    let mut g = Checkers::from_fen("B:WK32,21:BK1,12").unwrap();
    play(&mut g, &["1-5", "32-28", "5-1", "28-32", "12-16", "21-17"]);
    play(&mut g, &["1-5", "32-28", "5-1", "28-32"]);
    assert_eq!(g.repetitions(), 2);
    assert!(!g.is_over());
}

#[test]
fn forty_moves_each_without_man_move_or_capture_is_a_draw() {
    // Four kings wander without repeating thrice; men stay put.
    let mut g = Checkers::from_fen("B:WK32,K31,21:BK1,K2,12").unwrap();
    let mut plies = 0;
    let mut moves = Vec::new();
    // Deterministic walk: pick the king move whose position has been seen least.
    while !g.is_over() {
        g.legal_moves(&mut moves);
        let mut best = None;
        for &m in &moves {
            let mvs = g.board().kings() & (1 << (m.from() - 1)) != 0;
            if !mvs || m.is_capture() {
                continue;
            }
            let mut c = g.clone();
            c.make(m);
            if c.board().has_capture() {
                continue;
            }
            let reps = c.repetitions();
            if best.map_or(true, |(r, _)| reps < r) {
                best = Some((reps, m));
            }
        }
        let (_, m) = best.expect("a quiet king move exists");
        g.make(m);
        plies += 1;
        assert!(plies <= QUIET_PLY_LIMIT as usize);
    }
    assert_eq!(plies, QUIET_PLY_LIMIT as usize);
    assert_eq!(g.outcome(), Some(Outcome::DrawByFortyMoves));
    assert_eq!(g.quiet_plies(), 80);
}

#[test]
fn man_moves_and_captures_reset_the_forty_move_count() {
    let mut g = Checkers::from_fen("B:WK32,21:BK1,12").unwrap();
    play(&mut g, &["1-5", "32-28"]);
    assert_eq!(g.quiet_plies(), 2);
    play(&mut g, &["12-16"]);
    assert_eq!(g.quiet_plies(), 0);
}

#[test]
fn unmake_restores_history() {
    let mut g = Checkers::start();
    let before = g.clone();
    let mv = g.parse_move("11-15").unwrap();
    let undo = g.make(mv);
    assert_ne!(g, before);
    g.unmake(mv, undo);
    assert_eq!(g, before);
}

#[test]
fn start_board_helpers() {
    let b = Board::start();
    assert_eq!(b.pieces(Color::Black).count_ones(), 12);
    assert!(b.diagram().starts_with("   b   b   b   b"));
}

#[test]
fn a_full_path_is_never_ambiguous_and_short_forms_may_be() {
    // From the oracle fixture: 23x14x21x30 is also a subsequence of 23x16x7x14x21x30.
    let b = board_from_fen("B:W10,11,15,19,25,9,K17,K18,K2,K24,K29:BK23").unwrap();
    let short = parse_move(&b, "23x14x21x30").unwrap();
    assert_eq!(move_to_pdn(&short), "23x14x21x30");
    let long = parse_move(&b, "23x16x7x14x21x30").unwrap();
    assert_ne!(short, long);
    assert!(matches!(
        parse_move(&b, "23x30"),
        Err(qiyi_checkers::NotationError::Ambiguous { .. })
    ));
    assert_eq!(parse_move(&b, "23x16x30").unwrap(), long);
    assert_eq!(
        moves_of("B:W10,11,15,19,25,9,K17,K18,K2,K24,K29:BK23").len(),
        6
    );
}
