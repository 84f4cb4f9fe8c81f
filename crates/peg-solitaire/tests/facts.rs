//! Every peg-solitaire result published in tests/data/puzzles-facts.md (a copy of
//! shared/data/puzzles-facts.md), reproduced.
//!
//! The three exhaustive English results and the Wiegleb centre game take minutes on a loaded
//! 2-core machine and are
//! `#[ignore]`d; run them with
//! `cargo test -p qiyi-peg-solitaire --test facts -- --ignored --nocapture`.

use qiyi_peg_solitaire::problem::{group_moves, replay};
use qiyi_peg_solitaire::{classify, Board, Finish, Problem};

const FACTS: &str = include_str!("data/puzzles-facts.md");

/// The number written right after `marker` in the facts file (digits and commas).
fn published(marker: &str) -> u128 {
    let at = FACTS
        .find(marker)
        .unwrap_or_else(|| panic!("`{marker}` not in the facts file"));
    let digits: String = FACTS[at + marker.len()..]
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(|c| c.is_ascii_digit())
        .collect();
    digits.parse().expect("a number")
}

fn english_centre() -> Problem {
    Problem::new(Board::named("english").unwrap(), Some("d4"), Some("d4")).unwrap()
}

#[test]
fn english_centre_finish_takes_31_jumps() {
    let n = published("with every jump counted as a move it takes");
    let p = english_centre();
    let jumps = p.solve(u64::MAX).jumps.expect("a solution");
    assert_eq!(jumps.len() as u128, n);
    let end = replay(&p.board, p.start, &jumps).unwrap();
    assert_eq!(end, 1u128 << p.board.hole("d4").unwrap());
}

/// Bergholt's 18-move solution, holes as column-row digits (centre 44), read from the facts file
/// and replayed: every jump legal, one peg left in the centre, 18 moves.
#[test]
fn bergholt_solution_replays_in_18_moves() {
    let at = FACTS
        .find("`*` joins the landing holes of one multi-jump move:")
        .unwrap();
    let text = &FACTS[at..];
    let text = &text[text.find('\n').unwrap() + 1..];
    let end = text.find(".\n").unwrap_or(text.len());
    let moves: Vec<&str> = text[..end]
        .split(',')
        .map(|m| m.trim())
        .filter(|m| !m.is_empty())
        .collect();
    assert_eq!(moves.len() as u128, published("the minimum is"));
    let p = english_centre();
    let b = &p.board;
    // Column digit -> letter a-g; row digit -> row number (the board is symmetric, so either
    // row orientation is a valid reading).
    let hole = |d: &str| {
        let (c, r) = (d.as_bytes()[0] - b'1', &d[1..2]);
        b.hole(&format!("{}{}", (b'a' + c) as char, r)).unwrap()
    };
    let mut s = p.start;
    let mut jumps = Vec::new();
    for m in &moves {
        let holes: Vec<usize> = m.split('*').map(hole).collect();
        for w in holes.windows(2) {
            let j = *b
                .jumps()
                .iter()
                .find(|j| j.from as usize == w[0] && j.to as usize == w[1])
                .unwrap_or_else(|| panic!("{m}: no jump {}-{}", w[0], w[1]));
            jumps.push(j);
        }
    }
    s = replay(b, s, &jumps).expect("every jump legal");
    assert_eq!(s, 1u128 << b.hole("d4").unwrap());
    assert_eq!(group_moves(&jumps).len(), moves.len());
}

#[test]
fn french_centre_start_is_impossible_by_position_class() {
    let p = Problem::new(Board::named("french").unwrap(), Some("d4"), Some("any")).unwrap();
    let r = p.solve(1000);
    assert!(r.jumps.is_none());
    assert!(r.proved_impossible);
    assert!(r.class_reason.is_some());
    assert_eq!(p.solve(0).nodes, 0, "ruled out before any search");
}

#[test]
fn french_some_other_single_vacancy_starts_are_solvable() {
    let b = Board::named("french").unwrap();
    let centre = b.centre().unwrap();
    // Try the starts in reading order; at least one other start must be solved outright.
    let solved = (0..b.len()).filter(|&h| h != centre).find(|&h| {
        let p = Problem::new(b.clone(), Some(b.hole_name(h)), Some("any")).unwrap();
        match p.solve(2_000_000).jumps {
            Some(js) => replay(&p.board, p.start, &js).unwrap().count_ones() == 1,
            None => false,
        }
    });
    assert!(solved.is_some());
}

#[test]
fn triangle_15_every_single_vacancy_start_is_solvable() {
    let b = Board::named("triangle").unwrap();
    let rows = classify(&b, u64::MAX, |_, _| {});
    assert_eq!(rows.len(), 15);
    for r in &rows {
        assert!(r.solvable(), "start {} not solvable", r.start);
        assert!(r.undecided.is_empty(), "start {} undecided", r.start);
    }
}

#[test]
fn french_classification_decides_every_start() {
    let b = Board::named("french").unwrap();
    let rows = classify(&b, 100_000_000, |_, _| {});
    assert_eq!(rows.len(), 37);
    // The centre: impossible, explained by the position class, no search needed.
    let centre = rows.iter().find(|r| r.start == "d4").unwrap();
    assert!(!centre.solvable());
    assert_eq!(centre.ruled_out_by_class, 37);
    assert!(centre.reason.as_deref().unwrap().contains("position class"));
    for r in &rows {
        assert!(r.decided(), "start {} undecided", r.start);
        assert!(
            r.undecided.is_empty(),
            "start {}: {:?}",
            r.start,
            r.undecided
        );
        // A start whose class matches some single peg is solvable; the others are ruled out by
        // the class alone (no search), with the reason given.
        if r.ruled_out_by_class < 37 {
            assert!(r.solvable(), "start {}", r.start);
        } else {
            assert!(r.reason.is_some(), "start {}", r.start);
        }
    }
    // Some starts other than the centre are solvable (the published claim): re-solve each with
    // any finish, replay, and check the last peg stands on a finish the classification lists.
    let solvable: Vec<_> = rows.iter().filter(|r| r.solvable()).collect();
    assert!(!solvable.is_empty());
    for r in solvable {
        let p = Problem::new(b.clone(), Some(&r.start), Some("any")).unwrap();
        let js = p.solve(100_000_000).jumps.expect("a finish");
        let end = replay(&p.board, p.start, &js).unwrap();
        assert_eq!(end.count_ones(), 1);
        let hole = b.hole_name(end.trailing_zeros() as usize).to_string();
        assert!(r.finishes.contains(&hole), "{} -> {hole}", r.start);
    }
}

#[test]
#[ignore = "exhaustive: ~20-75 s (see README); run with --ignored"]
fn english_centre_reachable_positions() {
    let p = english_centre();
    let c = p.count(&mut |_, _, _, _| {});
    assert_eq!(
        c.positions as u128,
        published("counting the 8 symmetric images of a position once:")
    );
    assert_eq!(c.layers.len(), 32);
    assert_eq!(c.layers[0].positions, 1);
    assert_eq!(c.layers[31].pegs, 1);
}

#[test]
#[ignore = "exhaustive: minutes on a loaded machine; run with --ignored"]
fn english_centre_min_moves_is_18() {
    let p = english_centre();
    let r = p.min_moves(&mut |_, _, _, _| {});
    assert_eq!(
        r.moves.map(|m| m as u128),
        Some(published("the minimum is"))
    );
    let jumps: Vec<_> = r.solution.iter().flatten().copied().collect();
    assert_eq!(replay(&p.board, p.start, &jumps).unwrap(), 1u128 << 16);
    assert_eq!(group_moves(&jumps).len(), 18);
}

#[test]
#[ignore = "exhaustive: minutes on a loaded machine; run with --ignored"]
fn english_centre_solution_count() {
    let p = english_centre();
    assert_eq!(p.finish, Finish::Hole(p.board.hole("d4").unwrap()));
    let n = p.count_solutions(&mut |_, _, _, _| {});
    assert_eq!(n, published("end with one peg in the centre:"));
}

/// Wiegleb's 45-hole board: the centre game is solved (beam searches, then the depth-first
/// search with an endgame table, farthest pegs first), and the solution replays to one peg in
/// the centre. About 30 s CPU.
#[test]
#[ignore = "about 30 s CPU; run with --ignored"]
fn wiegleb_centre_game_is_solved() {
    let p = Problem::new(Board::named("wiegleb").unwrap(), Some("e5"), Some("e5")).unwrap();
    let jumps = p
        .solve(100_000_000)
        .jumps
        .expect("a solution within the CLI's default budget");
    assert_eq!(jumps.len(), 43);
    let end = replay(&p.board, p.start, &jumps).unwrap();
    assert_eq!(end, 1u128 << p.board.hole("e5").unwrap());
}
