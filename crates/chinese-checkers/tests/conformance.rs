//! The core conformance suite on every seating.

use qiyi_chinese_checkers::{Options, Position};
use qiyi_core::conformance::{check_game, Config};

#[test]
fn conformance_all_seatings() {
    let mut starts = Vec::new();
    for players in [2, 3, 4, 6] {
        starts.push(Position::start(Options::players(players).expect("valid")).expect("valid"));
    }
    starts.push(
        Position::start(Options {
            pieces: 15,
            goal_lock: true,
            anti_spoil: false,
            ..Options::default()
        })
        .expect("valid"),
    );
    let config = Config {
        playouts: 3,
        max_plies: 2_000,
        ..Config::default()
    };
    check_game(&starts, &config);
}

#[test]
fn bad_options_are_errors() {
    assert!(Options::players(5).is_err());
    assert!(Options::players(1).is_err());
    assert!(Position::start(Options {
        pieces: 15,
        ..Options::players(3).expect("valid")
    })
    .is_err());
    assert!(Position::start(Options {
        pieces: 11,
        ..Options::default()
    })
    .is_err());
}
