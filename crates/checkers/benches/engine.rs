//! Engine benchmarks: `cargo bench -p qiyi-checkers --bench engine` (evaluation by hand and by
//! the network, AVX2 and scalar, a move with its accumulator update, fixed-depth search from the
//! start with each evaluation, database probes).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use qiyi_checkers::engine::eval::{evaluate_board, Weights};
use qiyi_checkers::engine::nn::{self, NetPosition};
use qiyi_checkers::engine::{Egdb, Engine, EvalChoice, Level};
use qiyi_checkers::notation::board_from_fen;
use qiyi_checkers::{Board, Checkers};
use qiyi_core::search::SearchLimits;
use qiyi_core::Game;
use std::sync::Arc;

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
    let pos = Checkers::from_board(b);
    let net = nn::embedded();
    let mut scalar = (*net).clone();
    scalar.set_simd(false);
    for (name, n) in [
        ("net_evaluate_middlegame", net),
        ("net_evaluate_middlegame_scalar", Arc::new(scalar)),
    ] {
        let p = NetPosition::with_set(pos.clone(), n);
        c.bench_function(name, |x| x.iter(|| black_box(&p).evaluate()));
    }
    // A move and its take-back, with and without the accumulators.
    let mv = pos.moves()[0];
    let mut plain = pos.clone();
    c.bench_function("make_unmake", |x| {
        x.iter(|| {
            let u = plain.make(black_box(mv));
            plain.unmake(mv, u);
        })
    });
    let mut acc = NetPosition::with_set(pos.clone(), nn::embedded());
    c.bench_function("make_unmake_with_accumulators", |x| {
        x.iter(|| {
            let u = acc.make(black_box(mv));
            acc.unmake(mv, u);
        })
    });
}

fn bench_search(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    let pos = Checkers::start();
    for (name, eval) in [
        ("start_depth10", EvalChoice::Hand),
        ("start_depth10_net", EvalChoice::Net),
    ] {
        group.bench_function(name, |x| {
            x.iter(|| {
                let mut e = Engine::with_eval(Level::MAX, 1, Weights::default(), None, &eval);
                e.analyse(black_box(&pos), &SearchLimits::depth(10), |_| {})
                    .stats
                    .nodes
            })
        });
    }
    group.finish();
}

fn bench_egdb(c: &mut Criterion) {
    let db = Egdb::build_in_memory(4).expect("4-piece tables build");
    let b = board_from_fen("W:WK10,K27:BK7,14").expect("valid FEN");
    c.bench_function("egdb_probe_4", |x| x.iter(|| db.probe(black_box(&b))));
}

criterion_group!(benches, bench_eval, bench_search, bench_egdb);
criterion_main!(benches);
