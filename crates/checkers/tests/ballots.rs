//! The 3-move ballot data: every opening plays legally and reaches the position pydraughts wrote.

use qiyi_checkers::ballot::{all_ballots, tournament_ballots};
use qiyi_checkers::notation::board_from_fen;
use std::collections::HashSet;

#[test]
fn all_174_openings_are_legal_distinct_and_match_the_source_positions() {
    let all = all_ballots();
    assert_eq!(all.len(), 174);
    let mut seen = HashSet::new();
    for b in &all {
        let (board, _) = b
            .play()
            .unwrap_or_else(|e| panic!("ballot {} {}: {e}", b.number, b.text()));
        let expected = board_from_fen(b.fen_after).expect("source FEN parses");
        assert_eq!(board, expected, "ballot {} {}", b.number, b.text());
        assert!(seen.insert(b.text()), "ballot {} listed twice", b.number);
    }
    let numbers: Vec<u16> = all.iter().map(|b| b.number).collect();
    assert_eq!(numbers, (1..=174).collect::<Vec<u16>>());
}

#[test]
fn tournament_set_excludes_the_barred_openings() {
    let t = tournament_ballots();
    // 157 from the source (see the ballot module: the ACF deck has 156).
    assert_eq!(t.len(), 157);
    assert!(t.iter().all(|b| !b.barred));
    assert!(!t.iter().any(|b| b.text() == "12-16 23-19 16-23"));
}
