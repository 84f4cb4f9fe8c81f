//! Seeded random playouts timed per step: `Game::legal_moves` into a reused `Vec`, one uniform
//! draw, `Game::make` (which computes the status), `Game::turn`, and a fresh `Position::start`
//! when a game ends. These were the calls of the Python binding's `VectorGames.step_random`
//! (`crates/python/src/dynamic.rs`); it now reads the turn from the legal moves instead of
//! calling `turn`, which in Chinese checkers only reads the stored status.
//!
//! Every criterion iteration replays the same `STEPS` steps from the same seed, so each sample
//! measures identical work; the reported time per element is the time per step.
//!
//! Run with `cargo bench -p qiyi-chinese-checkers --bench playout`.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qiyi_chinese_checkers::{Move, Options, Position};
use qiyi_core::{Game, Rng, Turn};
use std::hint::black_box;

/// Steps per timed iteration: about five 2-player games (400 plies each at the cap).
const STEPS: u64 = 2_000;
/// The seed of every iteration's random stream.
const SEED: u64 = 1;

/// Plays `steps` random steps from the start of `opts`, starting a new game whenever one ends;
/// returns the number of games that ended (so the work cannot be optimised away).
fn random_steps(opts: Options, steps: u64, seed: u64, moves: &mut Vec<Move>) -> u64 {
    let mut rng = Rng::new(seed);
    let mut pos = Position::start(opts).expect("the benchmarked options are valid");
    let mut turn = pos.turn();
    let mut ended = 0;
    for _ in 0..steps {
        if let Turn::Player(_) = turn {
            pos.legal_moves(moves);
            let mv = moves[rng.below(moves.len())];
            pos.make(mv);
            turn = pos.turn();
        }
        if turn == Turn::Over {
            ended += 1;
            pos = Position::start(opts).expect("the benchmarked options are valid");
            turn = pos.turn();
        }
    }
    ended
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_step");
    group.throughput(Throughput::Elements(STEPS));
    for players in [2, 6] {
        let opts = Options::players(players).expect("2 and 6 players are valid");
        let mut moves = Vec::with_capacity(256);
        group.bench_function(format!("{players}p_seed{SEED}"), |b| {
            b.iter(|| black_box(random_steps(opts, STEPS, SEED, &mut moves)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
