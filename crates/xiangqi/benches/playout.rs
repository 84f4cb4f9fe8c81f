//! Random playouts per step (`legal_moves`, a uniform pick, `make`, `turn`: see
//! `qiyi_xiangqi::playout` for how this relates to the Python `VectorGames.step_random`), and
//! its two halves on positions of seeded
//! random games: the legal move list (`legal_moves`) and the end-of-game test (`turn`).

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use qiyi_core::game::Game;
use qiyi_xiangqi::game::random_game_positions;
use qiyi_xiangqi::playout::RandomPlayout;

/// Steps per timed iteration (the playout goes on across iterations).
const STEPS: u64 = 1_000;
/// The playout seed (printed with the figures).
const SEED: u64 = 1;

fn benches(c: &mut Criterion) {
    eprintln!("xiangqi playout bench: seed {SEED}, full rules (qiyi-xiangqi)");
    let mut group = c.benchmark_group("xiangqi_playout");
    group.throughput(Throughput::Elements(STEPS));
    group.bench_function("random_step", |b| {
        let mut playout = RandomPlayout::new(SEED);
        b.iter(|| black_box(playout.run(STEPS)))
    });
    let positions = random_game_positions(SEED, 20, 200);
    eprintln!(
        "legal_moves and turn: {} positions of 20 seeded games",
        positions.len()
    );
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("legal_moves", |b| {
        let mut moves = Vec::new();
        b.iter(|| {
            let mut n = 0;
            for pos in &positions {
                black_box(pos).legal_moves(&mut moves);
                n += moves.len();
            }
            n
        })
    });
    group.bench_function("turn", |b| {
        b.iter(|| {
            positions
                .iter()
                .filter(|p| black_box(*p).turn() == qiyi_core::game::Turn::Over)
                .count()
        })
    });
    group.finish();
}

criterion_group!(playout_benches, benches);
criterion_main!(playout_benches);
