//! Evaluation benchmarks: the search's fast score and the tuner's feature-by-feature score of
//! the same positions (from seeded random games), and legal move generation over them.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use qiyi_xiangqi::eval::Evaluation;
use qiyi_xiangqi::game::random_game_positions;
use qiyi_xiangqi::MoveList;

fn benches(c: &mut Criterion) {
    let positions = random_game_positions(3, 20, 120);
    let e = Evaluation::default();
    let mut group = c.benchmark_group("xiangqi_eval");
    group.throughput(Throughput::Elements(positions.len() as u64));
    group.bench_function("red_score", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| e.red_score(black_box(p)))
                .sum::<i32>()
        })
    });
    group.bench_function("red_score_by_features", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| e.red_score_by_features(black_box(p)))
                .sum::<i32>()
        })
    });
    group.bench_function("generate_legal", |b| {
        let mut all = positions.clone();
        let mut list = MoveList::new();
        b.iter(|| {
            let mut n = 0;
            for p in all.iter_mut() {
                black_box(p).generate_legal(&mut list);
                n += list.len();
            }
            n
        })
    });
    group.finish();
}

criterion_group!(eval_benches, benches);
criterion_main!(eval_benches);
