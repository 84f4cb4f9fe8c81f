//! Perft benchmarks: bulk-counting and full make/unmake, plus legal move generation.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use qiyi_xiangqi::{perft, MoveList, Position};

const MIDDLEGAME: &str = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";

fn benches(c: &mut Criterion) {
    let mut group = c.benchmark_group("xiangqi");
    group.sample_size(10);
    for (name, fen, depth) in [
        ("start", qiyi_xiangqi::START_FEN, 4),
        ("cpw2", MIDDLEGAME, 3),
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let leaves = perft::perft(&mut pos.clone(), depth);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(format!("perft_bulk_{name}_d{depth}"), |b| {
            let mut p = pos.clone();
            b.iter(|| perft::perft(black_box(&mut p), depth))
        });
        group.bench_function(format!("perft_full_{name}_d{depth}"), |b| {
            let mut p = pos.clone();
            b.iter(|| perft::perft_full(black_box(&mut p), depth))
        });
    }
    let mut pos = Position::start();
    group.throughput(Throughput::Elements(1));
    group.bench_function("generate_legal_start", |b| {
        let mut list = MoveList::new();
        b.iter(|| {
            black_box(&mut pos).generate_legal(&mut list);
            list.len()
        })
    });
    group.finish();
}

criterion_group!(perft_benches, benches);
criterion_main!(perft_benches);
