//! `qiyi relabel checkers`: a self-play run's positions of a range of piece counts searched
//! again; every record kept in order, the same bytes for any thread count and any split of
//! the shards, resumable, readable by `qiyi train`, bad input exit 2 with nothing written.

use std::path::Path;
mod common;
use common::{dir_files as files, qiyi};

fn tmp(name: &str) -> String {
    common::fresh_path("relabel", name)
}

/// The records of a shard file: (position bytes, score, result and ply).
fn records(bytes: &[u8]) -> Vec<(Vec<u8>, i16, [u8; 2])> {
    const POSITION: usize = 13;
    bytes[32..]
        .chunks(POSITION + 4)
        .map(|r| {
            (
                r[..POSITION].to_vec(),
                i16::from_le_bytes([r[POSITION], r[POSITION + 1]]),
                [r[POSITION + 2], r[POSITION + 3]],
            )
        })
        .collect()
}

fn relabel(src: &str, out: &str, threads: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "--threads",
        threads,
        "relabel",
        "checkers",
        "--data",
        src,
        "--out",
        out,
    ];
    // Depth 5 and 16-22 pieces unless the test gives its own (clap refuses an option twice).
    for (option, value) in [("--depth", "5"), ("--pieces", "16-22")] {
        if !extra.contains(&option) {
            args.extend_from_slice(&[option, value]);
        }
    }
    args.extend_from_slice(extra);
    qiyi(&args)
}

#[test]
fn relabelling_keeps_every_record_is_the_same_for_any_split_and_trains() {
    let src = tmp("src");
    common::checkers_selfplay("3", &src, None);

    let one = tmp("one");
    let (code, out, err) = relabel(&src, &one, "1", &["--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["shards_written"], 2, "{v}");
    assert_eq!(
        (v["depth"].as_u64(), v["pieces"].as_str()),
        (Some(5), Some("16-22"))
    );
    let positions = v["positions"].as_u64().unwrap_or(0);
    let relabelled = v["relabelled"].as_u64().unwrap_or(0);
    assert!(
        relabelled > 0 && relabelled < positions,
        "some positions have 16-22 pieces, not all: {v}"
    );

    // Record for record: the same positions, results and plies; only scores of 16-22 pieces
    // may change, and some of them do (depth 5 against self-play's depth 2).
    let (before, after) = (files(&src), files(&one));
    assert_eq!(before.len(), after.len(), "the same shards and a run.txt");
    let mut changed = 0;
    for ((name, b), (name2, a)) in before.iter().zip(&after) {
        assert_eq!(name, name2);
        if name == "run.txt" {
            assert!(
                String::from_utf8_lossy(a).contains("qiyi relabel checkers: depth 5"),
                "the manifest names the relabelling"
            );
            continue;
        }
        assert_eq!(a[..32], b[..32], "{name}: the same header");
        let (rb, ra) = (records(b), records(a));
        assert_eq!(rb.len(), ra.len(), "{name}");
        for (x, y) in rb.iter().zip(&ra) {
            assert_eq!((&x.0, x.2), (&y.0, y.2));
            let pieces: u32 = x.0[..8].iter().map(|b| b.count_ones()).sum();
            if x.1 != y.1 {
                changed += 1;
                assert!((16..=22).contains(&pieces), "{pieces} pieces relabelled");
            }
        }
    }
    assert!(changed > 0, "deeper search changed no score");

    // Two threads, or the shards one at a time: the same bytes; a rerun writes nothing.
    let two = tmp("two");
    let (code, out, err) = relabel(&src, &two, "2", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("depth 5") && out.contains("WCDF"), "{out}");
    assert_eq!(files(&two), after);
    let split = tmp("split");
    for part in ["1", "0"] {
        let (code, _, err) = relabel(&src, &split, "1", &["--shards", part]);
        assert_eq!(code, 0, "{err}");
    }
    assert_eq!(files(&split), after);
    let (code, out, _) = relabel(&src, &one, "1", &["--json"]);
    assert_eq!(code, 0);
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(
        (v["shards_written"].as_u64(), v["shards_skipped"].as_u64()),
        (Some(0), Some(2))
    );

    // The trainer reads the relabelled run.
    let net = format!("{one}.qnet");
    let (code, _, err) = qiyi(&[
        "--threads",
        "1",
        "train",
        "checkers",
        "--data",
        &one,
        "--out",
        &net,
        "--epochs",
        "1",
        "--hidden",
        "16",
        "--l2",
        "8",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(Path::new(&net).exists());

    // Bad input: exit 2, a message naming the problem, nothing written.
    let fresh = tmp("fresh");
    for (extra, want) in [
        (vec!["--pieces", "22-16"], "MIN <= MAX"),
        (vec!["--pieces", "many"], "give piece counts MIN-MAX"),
        (vec!["--depth", "0"], "0 is not in 1..=40"),
        (vec!["--eval", "no-such.qnet"], "--eval"),
        (vec!["--shards", "2"], "past"),
        (vec!["--shards", "x"], "not a shard number"),
    ] {
        let (code, _, err) = relabel(&src, &fresh, "1", &extra);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: {err}");
        assert!(!err.contains("cannot be used multiple times"), "{err}");
        assert!(!Path::new(&fresh).exists(), "{extra:?} wrote something");
    }
    let (code, _, err) = relabel(&fresh, &one, "1", &[]);
    assert_eq!(code, 2);
    assert!(err.contains(&fresh), "{err}");
    // The relabelled run's directory holds another run's shards: refused, left as it was.
    let (code, _, err) = relabel(&src, &one, "1", &["--depth", "6"]);
    assert_eq!(code, 2);
    assert!(err.contains("another run"), "{err}");
    assert_eq!(files(&one), after);
    for d in [src, one, two, split] {
        let _ = std::fs::remove_dir_all(d);
    }
    let _ = std::fs::remove_file(net);
}
