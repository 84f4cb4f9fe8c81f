//! Move generation and random playouts per second.
//!
//! Run with `CARGO_TARGET_DIR=/work/targets/cc cargo bench -p qiyi-chinese-checkers`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qiyi_chinese_checkers::eval::GreedyPolicy;
use qiyi_chinese_checkers::{Options, Position};
use qiyi_core::eval::Policy;
use qiyi_core::{Game, Rng};
use std::hint::black_box;

/// Positions from the middle of random games (2 and 6 players), to generate moves in.
fn midgame_positions(players: usize, count: usize) -> Vec<Position> {
    let mut rng = Rng::new(7);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(Options::players(players).expect("valid")).expect("valid");
        for _ in 0..(20 * players) {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    for players in [2, 6] {
        let positions = midgame_positions(players, 64);
        let mut moves = Vec::with_capacity(256);
        let total: usize = positions
            .iter()
            .map(|p| {
                p.legal_moves(&mut moves);
                moves.len()
            })
            .sum();
        let mut group = c.benchmark_group(format!("movegen_{players}p"));
        group.throughput(Throughput::Elements(total as u64));
        group.bench_function("legal_moves", |b| {
            b.iter(|| {
                let mut n = 0;
                for p in &positions {
                    p.legal_moves(&mut moves);
                    n += moves.len();
                }
                black_box(n)
            })
        });
        group.finish();

        let mut group = c.benchmark_group(format!("playout_{players}p"));
        group.throughput(Throughput::Elements(1));
        group.sample_size(20);
        let start = Position::start(Options::players(players).expect("valid")).expect("valid");
        let mut rng = Rng::new(1);
        group.bench_function("random_playout_to_cap", |b| {
            b.iter(|| {
                let mut pos = start.clone();
                let mut moves = Vec::with_capacity(256);
                while !pos.is_over() {
                    pos.legal_moves(&mut moves);
                    pos.make(moves[rng.below(moves.len())]);
                }
                black_box(pos.ply())
            })
        });
        // The MCTS playout policy (greedy with 15% exploration): games that end with a winner.
        let policy = GreedyPolicy::default();
        group.bench_function("greedy_playout_to_end", |b| {
            b.iter(|| {
                let mut pos = start.clone();
                let mut moves = Vec::with_capacity(256);
                while !pos.is_over() {
                    pos.legal_moves(&mut moves);
                    let mv = policy.choose(&pos, &moves, &mut rng);
                    pos.make(mv);
                }
                black_box(pos.ply())
            })
        });
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
