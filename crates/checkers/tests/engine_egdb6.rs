//! The 6-piece endgame database, built once with `qiyi egdb build checkers --pieces 6 --out DIR`
//! (641 MB, too large to build at test time). Run with
//! `QIYI_EGDB=DIR cargo test -p qiyi-checkers --test engine_egdb6 -- --ignored`.
//!
//! Checks: endings whose value every checkers text gives (three kings beat two, four kings beat
//! two, three kings against three draw); the tables are consistent with the rules position by
//! position (a win has a move to a lost position, a loss has only moves to won ones, across
//! every table a move reaches); and the engine probing the tables converts won 6-piece endings
//! into wins by the rules (captures, crowning, the 40-move draw rule all applied).

use qiyi_checkers::engine::{Egdb, Engine, Level, Weights, Wld};
use qiyi_checkers::notation::board_from_fen;
use qiyi_checkers::{Board, Checkers, Color, Outcome};
use qiyi_core::search::SearchLimits;
use qiyi_core::{Game, Rng};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

fn db() -> Arc<Egdb> {
    static DB: OnceLock<Arc<Egdb>> = OnceLock::new();
    DB.get_or_init(|| {
        let dir = PathBuf::from(
            std::env::var("QIYI_EGDB")
                .expect("set QIYI_EGDB to a directory with the 6-piece tables"),
        );
        Arc::new(Egdb::load(&dir, 6).expect("6-piece tables"))
    })
    .clone()
}

fn probe(fen: &str) -> Option<Wld> {
    db().probe(&board_from_fen(fen).expect("FEN"))
}

#[test]
#[ignore = "needs the 6-piece tables: QIYI_EGDB=DIR cargo test --test engine_egdb6 -- --ignored"]
fn known_endings_have_their_book_values() {
    // Three kings against two, the two in the double corner: a win whoever moves.
    assert_eq!(probe("B:WK1,K5:BK22,K23,K27"), Some(Wld::Win));
    assert_eq!(probe("W:WK1,K5:BK22,K23,K27"), Some(Wld::Loss));
    // Four kings against two.
    assert_eq!(probe("W:WK28,K32:BK1,K2,K3,K4"), Some(Wld::Loss));
    assert_eq!(probe("B:WK28,K32:BK1,K2,K3,K4"), Some(Wld::Win));
    // Three kings each, far apart: a draw.
    assert_eq!(probe("B:WK21,K25,K29:BK4,K8,K12"), Some(Wld::Draw));
    assert_eq!(probe("W:WK21,K25,K29:BK4,K8,K12"), Some(Wld::Draw));
    // Colours swapped and the board turned: the same values.
    assert_eq!(probe("W:WK28,K32,K31:BK10,K11"), Some(Wld::Win));
}

/// The value of `b` from its successors' values in the tables (or the rules, at the end).
fn backed_up(db: &Egdb, b: &Board) -> Wld {
    let mut moves = Vec::new();
    b.generate(&mut moves);
    let mut best = Wld::Loss;
    for &m in &moves {
        let c = b.play(m);
        let v = if c.pieces(c.side_to_move()) == 0 {
            Wld::Loss
        } else {
            db.probe(&c).expect("every successor is in the tables")
        };
        match v {
            Wld::Loss => return Wld::Win,
            Wld::Draw => best = Wld::Draw,
            Wld::Win => {}
        }
    }
    best
}

fn random_six(rng: &mut Rng) -> Option<Board> {
    let mut occ = 0u32;
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    for i in 0..6 {
        let sq = 1u32 << rng.below(32);
        if occ & sq != 0 {
            return None;
        }
        occ |= sq;
        if i < 3 {
            black |= sq
        } else {
            white |= sq
        }
        if rng.below(2) == 0 {
            kings |= sq
        }
    }
    let side = if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    Board::new(black, white, kings, side).ok()
}

#[test]
#[ignore = "needs the 6-piece tables: QIYI_EGDB=DIR cargo test --test engine_egdb6 -- --ignored"]
fn six_piece_values_agree_with_their_successors() {
    let db = db();
    let mut rng = Rng::new(6);
    let mut counts = [0usize; 3];
    while counts.iter().sum::<usize>() < 200_000 {
        let Some(b) = random_six(&mut rng) else {
            continue;
        };
        let v = db.probe(&b).expect("a 6-piece position");
        assert_eq!(
            v,
            backed_up(&db, &b),
            "{}",
            qiyi_checkers::notation::board_to_fen(&b)
        );
        counts[v as usize] += 1;
    }
    eprintln!("W/L/D among 200,000 sampled positions: {counts:?}");
    assert!(counts.iter().all(|&c| c > 1000), "{counts:?}");
}

/// Plays `fen` out with the engine on both sides; returns the outcome and the plies played.
fn play_out(fen: &str, depth: u32) -> (Outcome, usize) {
    let db = db();
    let mut engine = Engine::with_parts(Level::MAX, 1, Weights::default(), Some(db.clone()));
    let mut pos = Checkers::from_fen(fen).expect("FEN");
    let winner = match db.probe(pos.board()) {
        Some(Wld::Win) => pos.board().side_to_move(),
        other => panic!("{fen} is not won for the side to move: {other:?}"),
    };
    let mut plies = 0;
    loop {
        if let Some(o) = pos.outcome() {
            return (o, plies);
        }
        let r = engine.think(&pos, &SearchLimits::depth(depth), |_| {});
        let mv = r.best_move.expect("a move");
        let mover = pos.board().side_to_move();
        pos.make(mv);
        plies += 1;
        // The winner's moves keep the win (the loser's cannot escape it).
        let b = pos.board();
        if b.pieces(b.side_to_move()) != 0 && b.occupied().count_ones() <= 6 {
            let v = db.probe(b).expect("in the tables");
            let expect = if mover == winner { Wld::Loss } else { Wld::Win };
            assert_eq!(v, expect, "{fen}: after ply {plies}, {}", pos.fen());
        }
    }
}

#[test]
#[ignore = "needs the 6-piece tables: QIYI_EGDB=DIR cargo test --test engine_egdb6 -- --ignored"]
fn the_engine_converts_won_six_piece_endings() {
    for fen in [
        // Three kings against two in the double corner.
        "B:WK1,K5:BK22,K23,K27",
        // Two kings and a man against two kings.
        "B:WK1,K5:BK14,K18,11",
        // Four kings against two, the two to move.
        "W:WK28,K32:BK1,K2,K3,K4",
    ] {
        let pos = Checkers::from_fen(fen).expect("FEN");
        if db().probe(pos.board()) != Some(Wld::Win) && db().probe(pos.board()) != Some(Wld::Loss) {
            eprintln!("{fen}: not decided in the tables, skipped");
            continue;
        }
        let start_fen = if db().probe(pos.board()) == Some(Wld::Loss) {
            // Let the losing side move first: the engine's reply starts the won line.
            let mut p = pos.clone();
            let mut e = Engine::with_parts(Level::MAX, 1, Weights::default(), Some(db()));
            let mv = e
                .think(&p, &SearchLimits::depth(8), |_| {})
                .best_move
                .expect("a move");
            p.make(mv);
            p.fen()
        } else {
            fen.to_string()
        };
        let winner = Checkers::from_fen(&start_fen)
            .expect("FEN")
            .board()
            .side_to_move();
        let (outcome, plies) = play_out(&start_fen, 10);
        eprintln!("{fen}: {outcome:?} in {plies} plies");
        assert_eq!(outcome, Outcome::Win(winner), "{start_fen}");
    }
}
