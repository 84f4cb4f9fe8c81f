//! Benchmarks: move generation, canonical forms, successors with their canonical forms, the
//! English centre solve and one count layer.

use criterion::{criterion_group, criterion_main, Criterion};
use qiyi_peg_solitaire::solver::layers::{next_layer, Layer};
use qiyi_peg_solitaire::solver::tables::Tables;
use qiyi_peg_solitaire::{Board, Problem};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let board = Board::named("english").expect("english board");
    let all: Vec<usize> = (0..board.symmetries().len()).collect();
    let t = Tables::<u64>::new(&board, &all);
    let start = t.to_internal(board.picture_start());

    c.bench_function("english/canonical", |b| {
        b.iter(|| t.canonical(black_box(start ^ 0b1011_0110_1101)))
    });
    c.bench_function("english/movegen", |b| {
        b.iter(|| {
            let mut n = 0u32;
            t.for_each_jump(black_box(start), |_, _| n += 1);
            n
        })
    });
    // A position 8 jumps in (the last successor each time).
    let mut mid = start;
    for _ in 0..8 {
        let mut last = mid;
        t.for_each_successor(mid, |n| last = n);
        mid = last;
    }
    c.bench_function("english/successors-with-canonical-forms", |b| {
        b.iter(|| {
            let mut acc = 0u64;
            t.for_each_neighbour::<false>(black_box(mid), |_, c| acc ^= c);
            acc
        })
    });
    let problem = Problem::new(board.clone(), Some("d4"), Some("d4")).expect("problem");
    c.bench_function("english/solve-centre", |b| {
        b.iter(|| problem.solve(u64::MAX))
    });
    // Layer 6 (26 pegs) -> layer 7.
    let mut layer = Layer::from_vec(vec![t.canonical(start)]);
    for _ in 0..6 {
        layer = next_layer(&t, &layer);
    }
    c.bench_function("english/next-layer-26-pegs", |b| {
        b.iter(|| next_layer(&t, black_box(&layer)).len())
    });
}

criterion_group! {
    name = peg;
    config = Criterion::default().sample_size(20);
    targets = benches
}
criterion_main!(peg);
