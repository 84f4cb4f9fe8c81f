//! `qiyi selfplay xiangqi` (and `--shards` for both games): the same shard bytes for any thread
//! count and any split of the shards, resumable, the seed and the rules printed, bad input exit 2
//! with nothing written.

use std::path::Path;
mod common;
use common::{dir_files as files, qiyi};

fn tmp(name: &str) -> String {
    common::fresh_path("selfplay", name)
}

fn xq(dir: &str, threads: &str, extra: &[&str]) -> (i32, String, String) {
    let mut args = vec![
        "--threads",
        threads,
        "--seed",
        "5",
        "selfplay",
        "xiangqi",
        "--games",
        "6",
        "--games-per-shard",
        "2",
        "--depth",
        "2",
        "--random-plies",
        "4",
        "--out",
        dir,
    ];
    args.extend_from_slice(extra);
    qiyi(&args)
}

#[test]
fn xiangqi_selfplay_is_the_same_for_any_split_and_resumes() {
    let one = tmp("xq-one");
    let (code, out, err) = xq(&one, "1", &["--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["shards_written"], 3);
    assert_eq!(v["games"], 6);
    assert_eq!(v["seed"], 5);
    assert!(v["rules"].as_str().is_some_and(|r| r.contains("60-move")));
    assert!(v["positions"].as_u64().is_some_and(|p| p > 30), "{v}");
    let wins = ["red_wins", "draws", "black_wins"].map(|k| v[k].as_u64().unwrap_or(0));
    assert_eq!(wins.iter().sum::<u64>(), 6);
    let a = files(&one);
    assert_eq!(a.len(), 4, "three shards and run.txt");
    assert_eq!(a[0].0, "run.txt");
    assert!(a[1].1.starts_with(b"QIYIPOS1xiangqi\0"));

    // Two threads: the same bytes.
    let two = tmp("xq-two");
    let (code, out, err) = xq(&two, "2", &[]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("seed 5") && out.contains("Asian/WXF"), "{out}");
    assert_eq!(files(&two), a);

    // Two machines' shares into one directory: the same bytes; a rerun skips everything.
    let split = tmp("xq-split");
    assert_eq!(xq(&split, "1", &["--shards", "2"]).0, 0);
    assert_eq!(files(&split).len(), 2);
    let (code, out, _) = xq(&split, "1", &["--shards", "0-1", "--json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"shards_written\":2"), "{out}");
    assert_eq!(files(&split), a);
    let (code, out, _) = xq(&split, "1", &["--json"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"shards_skipped\":3"), "{out}");

    // The trainer's tools read the shards: calibrate fits a slope on them.
    let (code, out, err) = qiyi(&["--json", "calibrate", &one]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"game\":\"xiangqi\""), "{out}");
    for d in [one, two, split] {
        let _ = std::fs::remove_dir_all(d);
    }
}

#[test]
fn bad_selfplay_input_exits_2_and_writes_nothing() {
    let other = tmp("xq-other");
    assert_eq!(xq(&other, "1", &["--shards", "0"]).0, 0);
    let before = files(&other);
    // Another run's directory (another seed).
    let (code, _, err) = qiyi(&[
        "--seed",
        "6",
        "selfplay",
        "xiangqi",
        "--games",
        "6",
        "--games-per-shard",
        "2",
        "--depth",
        "2",
        "--random-plies",
        "4",
        "--out",
        &other,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("another run"), "{err}");
    assert_eq!(files(&other), before);
    let fresh = tmp("xq-fresh");
    for (extra, want) in [
        (vec!["--games", "0"], "--games"),
        (vec!["--depth", "0"], "--depth"),
        (vec!["--games-per-shard", "0"], "--games-per-shard"),
        (vec!["--shards", "3"], "past the run's 3 shards"),
        (vec!["--shards", "2-1"], "backwards"),
        (vec!["--shards", "x"], "not a shard number"),
    ] {
        let mut args = vec![
            "selfplay",
            "xiangqi",
            "--games",
            "6",
            "--games-per-shard",
            "2",
        ];
        args.extend_from_slice(&extra);
        args.extend_from_slice(&["--out", &fresh]);
        let (code, _, err) = qiyi(&args);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: {err}");
        assert!(!Path::new(&fresh).exists(), "{extra:?} wrote something");
    }
    let (code, _, _) = qiyi(&["selfplay", "go", "--out", &fresh]);
    assert_eq!(code, 2);
    // Checkers takes the same --shards.
    let (code, _, err) = qiyi(&[
        "selfplay",
        "checkers",
        "--games",
        "4",
        "--games-per-shard",
        "2",
        "--depth",
        "1",
        "--shards",
        "2",
        "--out",
        &fresh,
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("past the run's 2 shards"), "{err}");
    assert!(!Path::new(&fresh).exists());
    let _ = std::fs::remove_dir_all(other);
}
