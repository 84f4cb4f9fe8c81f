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
    assert_eq!(t.len(), 156);
    assert!(t.iter().all(|b| !b.barred));
    assert_eq!(t.iter().filter(|b| b.added_2003).count(), 12);
    let all = all_ballots();
    let barred: Vec<String> = all.iter().filter(|b| b.barred).map(|b| b.text()).collect();
    assert_eq!(barred.len(), 18);
    // 12-16 23-19 16-23 stays barred; 11-16 23-19 16-23 was one of the 2003 additions.
    assert!(barred.contains(&"12-16 23-19 16-23".to_string()));
    assert!(t
        .iter()
        .any(|b| b.text() == "11-16 23-19 16-23" && b.added_2003));
}
