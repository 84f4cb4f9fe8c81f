//! Perft against the published counts in tests/data/xiangqi-perft.tsv (a copy of the shared file).
//!
//! Counts above 20 million leaves are `#[ignore]`d; run them with
//! `cargo test -p qiyi-xiangqi --test perft -- --ignored`.

use qiyi_xiangqi::{perft, Position};

const DATA: &str = include_str!("data/xiangqi-perft.tsv");
const FAST_LIMIT: u64 = 20_000_000;

fn cases() -> Vec<(String, String, u32, u64)> {
    let mut out = Vec::new();
    for line in DATA.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols.len(), 3, "bad line {line}");
        for (i, n) in cols[2].split_whitespace().enumerate() {
            if let Ok(n) = n.parse::<u64>() {
                out.push((cols[0].to_string(), cols[1].to_string(), i as u32 + 1, n));
            }
        }
    }
    out
}

fn run(filter: impl Fn(u64) -> bool) -> usize {
    let mut checked = 0;
    for (name, fen, depth, want) in cases() {
        if !filter(want) {
            continue;
        }
        let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(perft::perft(&mut pos, depth), want, "{name} depth {depth}");
        assert_eq!(pos.to_fen(), Position::from_fen(&fen).unwrap().to_fen());
        checked += 1;
    }
    checked
}

#[test]
fn published_counts_up_to_twenty_million() {
    assert!(run(|n| n <= FAST_LIMIT) >= 15);
}

#[test]
fn full_make_unmake_agrees_with_bulk_counting() {
    for (name, fen, depth, want) in cases() {
        if depth <= 3 {
            let mut pos = Position::from_fen(&fen).unwrap();
            assert_eq!(
                perft::perft_full(&mut pos, depth),
                want,
                "{name} depth {depth}"
            );
        }
    }
}

#[test]
#[ignore = "deep (minutes): cargo test -p qiyi-xiangqi --test perft -- --ignored"]
fn published_counts_deep() {
    assert!(run(|n| n > FAST_LIMIT) >= 5);
}
