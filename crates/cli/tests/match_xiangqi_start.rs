//! `qiyi match xiangqi --depth D --start K`: a range of a fixed-budget match's games plays them
//! exactly as the whole match does, so a match can be split over machines (issue 49, item 3).

use std::path::Path;
use std::process::{Command, Output};

fn qiyi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(args)
        .output()
        .expect("qiyi runs")
}

/// Plays `extra` of a depth-2 match of two of our engines and returns its `--games-out` lines.
fn games(dir: &Path, name: &str, extra: &[&str]) -> Vec<serde_json::Value> {
    let file = dir.join(name);
    let path = file.to_str().expect("utf-8 temp path");
    let mut args = vec![
        "--seed",
        "3",
        "--threads",
        "1",
        "--json",
        "match",
        "xiangqi",
        "--engine",
        "qiyi:level=3",
        "--engine",
        "qiyi:level=8",
        "--depth",
        "2",
        "--max-plies",
        "60",
        "--games-out",
        path,
    ];
    args.extend_from_slice(extra);
    let out = qiyi(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("the report is JSON");
    assert_eq!(report["time_control"], "depth 2");
    std::fs::read_to_string(&file)
        .expect("games written")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

#[test]
fn pieces_of_a_fixed_depth_match_are_the_whole_match_s_games() {
    let dir = std::env::temp_dir().join(format!("qiyi-match-xq-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let whole = games(&dir, "whole.jsonl", &["--games", "6"]);
    assert_eq!(whole.len(), 6);
    let index: Vec<u64> = whole
        .iter()
        .map(|g| g["game"].as_u64().unwrap_or(99))
        .collect();
    assert_eq!(index, [0, 1, 2, 3, 4, 5]);
    let mut pieces = Vec::new();
    for start in ["4", "0", "2"] {
        let part = games(
            &dir,
            &format!("part-{start}.jsonl"),
            &["--games", "2", "--start", start],
        );
        assert_eq!(part.len(), 2);
        pieces.extend(part);
    }
    pieces.sort_by_key(|g| g["game"].as_u64());
    assert_eq!(pieces, whole);
    // Opening k's pair: the same opening, A red then black.
    assert_eq!(whole[2]["opening"], whole[3]["opening"]);
    assert_eq!(whole[2]["a_is_red"], true);
    assert_eq!(whole[3]["a_is_red"], false);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_fixed_budget_options_are_clear_errors() {
    let base = [
        "match",
        "xiangqi",
        "--engine",
        "qiyi",
        "--engine",
        "qiyi:seed",
        "--games",
        "2",
    ];
    let run = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let out = qiyi(&args);
        assert!(!out.status.success(), "{extra:?} should fail");
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    assert!(run(&["--depth", "2", "--start", "1"]).contains("--start must be even"));
    assert!(run(&["--depth", "2", "--movetime", "10"]).contains("cannot be used with"));
    assert!(run(&["--depth", "0"]).contains("--depth"));
    assert!(run(&[]).contains("--depth D"));
    let mut args = base.to_vec();
    args[5] = "ucci:/nonexistent/eleeye";
    args.extend_from_slice(&["--depth", "2"]);
    let out = qiyi(&args);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("play on time"), "{stderr}");
}
