//! Multi-PV: the first line is the single-PV analysis's move and score at the same depth, the
//! scores are sorted, the root moves distinct and legal, the count stops at the legal moves.

use qiyi_checkers::engine::eval::Weights;
use qiyi_checkers::engine::{Engine, EvalChoice, Level};
use qiyi_checkers::{Board, Checkers};
use qiyi_core::search::SearchLimits;
use qiyi_core::{Game, Rng};

fn positions() -> Vec<Checkers> {
    let mut rng = Rng::new(7);
    let mut out = vec![Checkers::from_board(Board::start())];
    while out.len() < 6 {
        let b = Board::start().random_walk(6 + rng.below(30), &mut rng);
        let pos = Checkers::from_board(b);
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

fn engines() -> Vec<Engine> {
    vec![
        Engine::new(Level::Level(10), 1),
        Engine::with_eval(
            Level::Level(10),
            1,
            Weights::default(),
            None,
            &EvalChoice::Hand,
        ),
    ]
}

#[test]
fn first_line_is_the_single_pv_move_and_scores_are_sorted() {
    for pos in positions() {
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        for (k, mut multi_engine) in engines().into_iter().enumerate() {
            assert!(multi_engine.has_multipv());
            for depth in [1u32, 4, 7] {
                let mut single_engine = engines().swap_remove(k);
                let single = single_engine.analyse(&pos, &SearchLimits::depth(depth), |_| {});
                let mut depths = Vec::new();
                let multi = multi_engine
                    .multipv(&pos, &SearchLimits::depth(depth), 3, |i| {
                        depths.push(i.depth)
                    })
                    .expect("lines");
                assert_eq!(depths, (1..=depth).collect::<Vec<_>>());
                assert_eq!(multi.lines.len(), legal.len().min(3));
                assert_eq!(multi.lines[0].pv.first().copied(), single.best_move);
                assert_eq!(multi.lines[0].score, single.score);
                for w in multi.lines.windows(2) {
                    assert!(w[0].score >= w[1].score, "not sorted");
                    assert_ne!(w[0].pv[0], w[1].pv[0]);
                }
                for l in &multi.lines {
                    assert!(legal.contains(&l.pv[0]));
                }
            }
        }
    }
}
