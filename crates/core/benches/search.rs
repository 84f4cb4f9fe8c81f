//! Alpha-beta on toy games: the baseline for every search optimisation.
//! Run: `cargo bench -p qiyi-core --bench search`.

use criterion::{criterion_group, criterion_main, Criterion};
use qiyi_core::search::{minimax, SearchLimits, SearchOptions, Searcher};
use qiyi_core::toys::nim::{Nim, NimEval};
use qiyi_core::toys::tictactoe::{TicTacToe, TicTacToeEval};

fn tictactoe(c: &mut Criterion) {
    let pos = TicTacToe::default();
    c.bench_function("tictactoe/minimax/depth9", |b| {
        b.iter(|| minimax(&pos, &TicTacToeEval, 9).score)
    });
    c.bench_function("tictactoe/alphabeta-plain/depth9", |b| {
        b.iter(|| {
            Searcher::new(TicTacToeEval, SearchOptions::none())
                .search(&pos, &SearchLimits::depth(9), |_| {})
                .score
        })
    });
    c.bench_function("tictactoe/alphabeta-all/depth9", |b| {
        b.iter(|| {
            let opts = SearchOptions {
                tt_mib: 1,
                ..SearchOptions::all()
            };
            Searcher::new(TicTacToeEval, opts)
                .search(&pos, &SearchLimits::depth(9), |_| {})
                .score
        })
    });
}

fn nim(c: &mut Criterion) {
    let pos = Nim::new(&[3, 4, 5]);
    c.bench_function("nim345/alphabeta-exact/depth12", |b| {
        b.iter(|| {
            let opts = SearchOptions {
                tt_mib: 1,
                ..SearchOptions::exact()
            };
            Searcher::new(NimEval, opts)
                .search(&pos, &SearchLimits::depth(12), |_| {})
                .score
        })
    });
}

criterion_group!(benches, tictactoe, nim);
criterion_main!(benches);
