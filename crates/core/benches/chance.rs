//! MCTS, flat Monte Carlo and Star1 on the toy games, and the puzzle solvers on the 8-puzzle
//! (including the Fx hasher against the standard SipHash in BFS and A*).
//! Run: `cargo bench -p qiyi-core --bench chance`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qiyi_core::eval::RandomPolicy;
use qiyi_core::puzzle::{
    astar_with_hasher, bfs_with_hasher, bidirectional_bfs, ida_star, FxBuildHasher, PuzzleLimits,
};
use qiyi_core::search::expectimax::{expectiminimax, star1};
use qiyi_core::search::mcts::{mcts, MctsOptions};
use qiyi_core::search::montecarlo::{flat_monte_carlo, FlatOptions};
use qiyi_core::search::nplayer::{max_n, paranoid};
use qiyi_core::search::SearchLimits;
use qiyi_core::toys::pig::{Pig, PigEval};
use qiyi_core::toys::race::{Race, RaceEval};
use qiyi_core::toys::sliding::SlidingPuzzle;
use std::collections::hash_map::RandomState;

fn playouts(c: &mut Criterion) {
    const N: u64 = 2_000;
    let mut g = c.benchmark_group("playouts");
    g.throughput(Throughput::Elements(N));
    let race = Race::new(3, 40, 3).unwrap();
    g.bench_function("mcts/race3-40", |b| {
        b.iter(|| {
            mcts(
                &race,
                &RandomPolicy,
                &MctsOptions::default(),
                &SearchLimits::nodes(N),
            )
            .playouts
        })
    });
    let pig = Pig::new(50).unwrap();
    g.bench_function("mcts/pig50", |b| {
        b.iter(|| {
            mcts(
                &pig,
                &RandomPolicy,
                &MctsOptions::default(),
                &SearchLimits::nodes(N),
            )
            .playouts
        })
    });
    let flat = FlatOptions {
        playouts: (N / 3) as usize,
        ..Default::default()
    };
    g.bench_function("flat/race3-40", |b| {
        b.iter(|| flat_monte_carlo(&race, &RandomPolicy, &flat).playouts)
    });
    g.finish();
}

fn chance_search(c: &mut Criterion) {
    let pig = Pig::from_parts(40, [10, 20], 0, 0, false).unwrap();
    c.bench_function("pig40/expectiminimax/depth8", |b| {
        b.iter(|| expectiminimax(&pig, &PigEval, 8).value)
    });
    c.bench_function("pig40/star1/depth8", |b| {
        b.iter(|| star1(&pig, &PigEval, 8, PigEval::BOUND as f64).value)
    });
    let race = Race::new(3, 40, 3).unwrap();
    c.bench_function("race3/max-n/depth9", |b| {
        b.iter(|| max_n(&race, &RaceEval, 9).value)
    });
    c.bench_function("race3/paranoid/depth9", |b| {
        b.iter(|| paranoid(&race, &RaceEval, 9).value)
    });
}

fn puzzles(c: &mut Criterion) {
    let hard = SlidingPuzzle::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let none = PuzzleLimits::default();
    let mut g = c.benchmark_group("8-puzzle");
    g.sample_size(10);
    g.bench_function("ida*/31-moves", |b| {
        b.iter(|| ida_star(&hard, &none).length())
    });
    g.bench_function("bidirectional-bfs/31-moves", |b| {
        b.iter(|| bidirectional_bfs(&hard, &none).length())
    });
    g.bench_function("a*-fx/31-moves", |b| {
        b.iter(|| astar_with_hasher::<_, FxBuildHasher>(&hard, &none).length())
    });
    g.bench_function("a*-siphash/31-moves", |b| {
        b.iter(|| astar_with_hasher::<_, RandomState>(&hard, &none).length())
    });
    g.bench_function("bfs-fx/31-moves", |b| {
        b.iter(|| bfs_with_hasher::<_, FxBuildHasher>(&hard, &none).length())
    });
    g.bench_function("bfs-siphash/31-moves", |b| {
        b.iter(|| bfs_with_hasher::<_, RandomState>(&hard, &none).length())
    });
    g.finish();
}

criterion_group!(benches, playouts, chance_search, puzzles);
criterion_main!(benches);
