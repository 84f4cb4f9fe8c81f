//! Multi-PV: the first line is the single-PV search's move at the same depth, scores are
//! sorted, the root moves are distinct, and the count stops at the legal moves.

use qiyi_core::search::SearchLimits;
use qiyi_xiangqi::engine::{Engine, EngineConfig, Level};
use qiyi_xiangqi::{Position, START_FEN};

fn engine() -> Engine {
    Engine::new(EngineConfig {
        hash_mib: 8,
        threads: 1,
        level: Level::Strength(10),
        seed: 1,
        net: None,
    })
}

const POSITIONS: [&str; 3] = [
    START_FEN,
    // A middlegame after a few moves of the central cannon opening.
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
    // Rook and cannon against a bare guard.
    "4k4/4a4/9/9/9/9/9/9/3C5/R3K4 w - - 0 1",
];

#[test]
fn first_line_is_the_single_pv_move_and_scores_are_sorted() {
    for fen in POSITIONS {
        let pos = Position::from_fen(fen).expect("fen");
        for depth in [1u32, 3, 4] {
            let single = engine().think(&pos, &SearchLimits::depth(depth), |_| {});
            let mut depths = Vec::new();
            let multi = engine()
                .multipv(&pos, &SearchLimits::depth(depth), 3, |i| {
                    depths.push(i.depth)
                })
                .expect("lines");
            assert_eq!(depths, (1..=depth).collect::<Vec<_>>(), "{fen}");
            assert_eq!(multi.depth, depth);
            assert_eq!(multi.lines.len(), 3, "{fen}");
            assert_eq!(
                multi.lines[0].pv.first().copied(),
                single.best_move,
                "{fen} d{depth}"
            );
            assert_eq!(multi.lines[0].score, single.score, "{fen} d{depth}");
            for w in multi.lines.windows(2) {
                assert!(w[0].score >= w[1].score, "{fen} d{depth}: not sorted");
                assert_ne!(w[0].pv[0], w[1].pv[0]);
            }
            for l in &multi.lines {
                assert!(pos.is_legal(l.pv[0]), "{fen}: {} is not legal", l.pv[0]);
            }
        }
    }
}

#[test]
fn lines_stop_at_the_number_of_legal_moves() {
    // Black's king alone on its file with a single guard: few legal moves.
    let pos = Position::from_fen("3k5/4a4/9/9/9/9/9/9/9/4K4 b - - 0 1").expect("fen");
    let legal = pos.legal_move_list().len();
    assert!(legal < 10);
    let multi = engine()
        .multipv(&pos, &SearchLimits::depth(2), 10, |_| {})
        .expect("lines");
    assert_eq!(multi.lines.len(), legal);
}
