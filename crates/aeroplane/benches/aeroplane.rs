//! Simulation speed: random 4-player games per second on one thread, and player decisions.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::record::random_game;
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};
use std::hint::black_box;

fn random_games(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_game");
    group.throughput(Throughput::Elements(1));
    for (name, rules) in [("standard_4p", Rules::STANDARD), ("seed_4p", Rules::SEED)] {
        let start = Aero::new(rules, 4).expect("4 players");
        let mut rng = Rng::new(1);
        group.bench_function(name, |b| {
            b.iter(|| black_box(random_game(&start, &mut rng)))
        });
    }
    group.finish();
}

/// Positions met in random standard games, at decisions with at least two choices.
fn decision_positions(n: usize) -> Vec<Aero> {
    let mut rng = Rng::new(7);
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let mut pos = start;
    let mut out = Vec::new();
    while out.len() < n {
        match pos.turn() {
            Turn::Over => pos = start,
            Turn::Chance => {
                pos.play(AeroMove::Roll(rng.below(6) as u8 + 1));
            }
            Turn::Player(_) => {
                let c = pos.choices();
                if c.len() >= 2 && rng.below(8) == 0 {
                    out.push(pos);
                }
                pos.play(AeroMove::Plane(c.as_slice()[rng.below(c.len())]));
            }
        }
    }
    out
}

fn decisions(c: &mut Criterion) {
    let positions = decision_positions(64);
    let mut group = c.benchmark_group("decision");
    group.sample_size(10);
    for kind in [
        PlayerKind::SeedGreedy,
        PlayerKind::Heuristic,
        PlayerKind::Race,
        PlayerKind::Win,
        PlayerKind::SeedMc,
        PlayerKind::Expectimax,
        PlayerKind::Mcts,
    ] {
        let mut player = make_player(kind, 1);
        let mut i = 0;
        group.bench_function(kind.to_string(), |b| {
            b.iter(|| {
                i = (i + 1) % positions.len();
                black_box(player.choose(&positions[i]))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, random_games, decisions);
criterion_main!(benches);
