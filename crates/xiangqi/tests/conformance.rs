//! qiyi-core's generic conformance suite on Xiangqi: notation round trips, make/unmake, the
//! incremental hash, "no moves exactly when over", and random games that end.

use qiyi_core::conformance::{check_game, Config};
use qiyi_xiangqi::Position;

#[test]
fn core_conformance_suite() {
    let starts = [
        Position::start(),
        // Middlegame and endgame positions from the published perft set.
        Position::from_fen(
            "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
        )
        .unwrap(),
        Position::from_fen("5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1").unwrap(),
        Position::from_fen("R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1").unwrap(),
    ];
    let config = Config {
        playouts: 20,
        max_plies: 3_000,
        ..Config::default()
    };
    check_game(&starts, &config);
}
