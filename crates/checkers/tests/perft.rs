//! Perft against the published counts in tests/data/checkers-perft.tsv (copied from
//! /work/shared/data; sources: Aart Bik's checkers perft page, talkchess thread 27814, OEIS
//! A133046).
//!
//! The normal run checks every count with at most 20 million leaves; the deep counts (perft(11)
//! and beyond from the start) run with
//! `cargo test -p qiyi-checkers --release --test perft -- --ignored --nocapture`.

use qiyi_checkers::notation::board_from_fen;
use qiyi_checkers::perft::{divide, perft, perft_naive};
use qiyi_checkers::Board;

struct Row {
    name: String,
    board: Board,
    counts: Vec<u64>,
}

fn rows() -> Vec<Row> {
    let text = include_str!("data/checkers-perft.tsv");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "bad line {l}");
            Row {
                name: f[0].to_string(),
                board: board_from_fen(f[1]).expect("published FEN parses"),
                counts: f[2]
                    .split_whitespace()
                    .map(|n| n.parse().expect("count"))
                    .collect(),
            }
        })
        .collect()
}

#[test]
fn published_counts_up_to_twenty_million_leaves() {
    let rows = rows();
    assert_eq!(rows.len(), 3);
    let mut checked = 0;
    for row in &rows {
        for (i, &expected) in row.counts.iter().enumerate() {
            if expected > 20_000_000 {
                break;
            }
            let depth = i as u32 + 1;
            assert_eq!(
                perft(&row.board, depth),
                expected,
                "{} perft({depth})",
                row.name
            );
            checked += 1;
        }
    }
    assert!(checked >= 10 + 1 + 6, "only {checked} counts checked");
}

#[test]
fn bulk_counting_agrees_with_making_every_leaf() {
    for row in rows() {
        for depth in 1..=row.counts.len().min(6) as u32 {
            assert_eq!(
                perft(&row.board, depth),
                perft_naive(&row.board, depth),
                "{}",
                row.name
            );
        }
    }
}

#[test]
fn divide_sums_to_perft() {
    let start = Board::start();
    let parts = divide(&start, 6);
    assert_eq!(parts.len(), 7);
    assert_eq!(parts.iter().map(|&(_, n)| n).sum::<u64>(), 36_768);
}

fn deep(max_leaves: u64) {
    for row in rows() {
        for (i, &expected) in row.counts.iter().enumerate() {
            if expected <= 20_000_000 {
                continue;
            }
            if expected > max_leaves {
                break;
            }
            let depth = i as u32 + 1;
            let t = std::time::Instant::now();
            let n = perft(&row.board, depth);
            let s = t.elapsed().as_secs_f64();
            println!(
                "{} perft({depth}) = {n} in {s:.2} s ({:.1} M leaves/s)",
                row.name,
                n as f64 / s / 1e6
            );
            assert_eq!(n, expected, "{} perft({depth})", row.name);
        }
    }
}

/// Start position to depth 14 (7,978,439,499 leaves; a few minutes on one core).
#[test]
#[ignore]
fn published_counts_to_depth_14() {
    deep(8_000_000_000);
}

/// Depth 15 from the start (36,263,167,175 leaves; tens of minutes).
#[test]
#[ignore]
fn published_counts_to_depth_15() {
    deep(u64::MAX);
}

#[test]
fn parallel_divide_matches() {
    for row in rows() {
        let depth = row.counts.len().min(7) as u32;
        for threads in [1, 3] {
            let parts = qiyi_checkers::perft::divide_parallel(&row.board, depth, threads, &|_| {});
            let total: u64 = parts.iter().map(|&(_, n)| n).sum();
            assert_eq!(
                total,
                row.counts[depth as usize - 1],
                "{} {threads}",
                row.name
            );
        }
    }
}
