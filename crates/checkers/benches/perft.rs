//! Perft and move-generation benchmarks: `cargo bench -p qiyi-checkers --bench perft`.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use qiyi_checkers::notation::board_from_fen;
use qiyi_checkers::perft::perft;
use qiyi_checkers::Board;

fn bench_perft(c: &mut Criterion) {
    let start = Board::start();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    // perft(9) from the start: 3,963,680 leaves.
    group.throughput(Throughput::Elements(3_963_680));
    group.bench_function("start_d9", |b| b.iter(|| perft(black_box(&start), 9)));
    // A king-heavy middle game with multi-jumps available: perft(11) = 2,401,218 leaves.
    let kings = board_from_fen("W:WK10,18,K23,26,27,30:BK7,14,15,K19,22").expect("valid FEN");
    let n = perft(&kings, 11);
    group.throughput(Throughput::Elements(n));
    group.bench_function("kings_d11", |b| b.iter(|| perft(black_box(&kings), 11)));
    group.finish();
}

fn bench_movegen(c: &mut Criterion) {
    let start = Board::start();
    let mut moves = Vec::with_capacity(64);
    c.bench_function("generate_start", |b| {
        b.iter(|| {
            black_box(&start).generate(&mut moves);
            moves.len()
        })
    });
}

criterion_group!(benches, bench_perft, bench_movegen);
criterion_main!(benches);
