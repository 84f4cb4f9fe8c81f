//! Core's generic conformance suite, from the start, the ballot openings and king endings.

use qiyi_checkers::ballot::all_ballots;
use qiyi_checkers::{Board, Checkers};
use qiyi_core::conformance::{check_game, Config};

#[test]
fn conformance_from_the_start_and_king_endings() {
    let starts = vec![
        Checkers::start(),
        Checkers::from_fen("W:WK10:B14,15,22,23").unwrap(),
        Checkers::from_fen("B:WK32,K31,21:BK1,K2,12").unwrap(),
        Checkers::from_fen("B:W26,27:B22").unwrap(),
    ];
    check_game(
        &starts,
        &Config {
            playouts: 40,
            ..Config::default()
        },
    );
}

#[test]
fn conformance_from_ballot_openings() {
    let starts: Vec<Checkers> = all_ballots()
        .iter()
        .step_by(7)
        .map(|b| Checkers::from_board(b.play().expect("ballot plays").0))
        .collect();
    assert!(starts.len() >= 20);
    check_game(
        &starts,
        &Config {
            playouts: 3,
            ..Config::default()
        },
    );
    let _ = Board::start();
}
