//! Engine benchmarks: `cargo bench -p qiyi-checkers --bench engine` (evaluation, fixed-depth
//! search from the start, database probes).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use qiyi_checkers::engine::eval::{evaluate_board, Weights};
use qiyi_checkers::engine::{Egdb, Engine, Level};
use qiyi_checkers::notation::board_from_fen;
use qiyi_checkers::{Board, Checkers};
use qiyi_core::search::SearchLimits;

fn bench_eval(c: &mut Criterion) {
    let w = Weights::default();
    let b = board_from_fen("W:WK10,18,K23,26,27,30:BK7,14,15,K19,22").expect("valid FEN");
    c.bench_function("evaluate_middlegame", |x| {
        x.iter(|| evaluate_board(&w, black_box(&b)))
    });
    let s = Board::start();
    c.bench_function("evaluate_start", |x| {
        x.iter(|| evaluate_board(&w, black_box(&s)))
    });
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let pos = Checkers::start();
    group.bench_function("start_depth10", |x| {
        x.iter(|| {
            let mut e = Engine::new(Level::MAX, 1);
            e.analyse(black_box(&pos), &SearchLimits::depth(10), |_| {})
                .stats
                .nodes
        })
    });
    group.finish();
}

fn bench_egdb(c: &mut Criterion) {
    let db = Egdb::build_in_memory(4).expect("4-piece tables build");
    let b = board_from_fen("W:WK10,K27:BK7,14").expect("valid FEN");
    c.bench_function("egdb_probe_4", |x| x.iter(|| db.probe(black_box(&b))));
}

criterion_group!(benches, bench_eval, bench_search, bench_egdb);
criterion_main!(benches);
