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

/// Plays `extra` of a depth-2 match of `engine_a` against our level 8 and returns its
/// `--games-out` lines.
fn games(dir: &Path, name: &str, engine_a: &str, extra: &[&str]) -> Vec<serde_json::Value> {
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
        engine_a,
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
    let whole = games(&dir, "whole.jsonl", "qiyi:level=3", &["--games", "6"]);
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
            "qiyi:level=3",
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
fn an_external_uci_engine_takes_the_fixed_budget_and_its_pieces_are_the_whole_match() {
    let dir = std::env::temp_dir().join(format!("qiyi-match-xq-uci-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // This very binary as the external engine, over UCI: `go depth 2` every move.
    let uci = format!("uci:{} --threads 1 uci", env!("CARGO_BIN_EXE_qiyi"));
    let whole = games(&dir, "whole.jsonl", &uci, &["--games", "4"]);
    assert_eq!(whole.len(), 4);
    assert!(whole
        .iter()
        .all(|g| g["moves"].as_array().is_some_and(|m| m.len() > 2)));
    // Nobody lost on time or by an illegal answer: every game ended by the rules or the cap.
    for g in &whole {
        let end = g["end"].as_str().unwrap_or("");
        let by_rules = [
            "checkmate",
            "stalemate",
            "60-move",
            "no attackers",
            "repetition",
            "ply cap",
        ];
        assert!(by_rules.iter().any(|r| end.contains(r)), "{end}");
    }
    let second = games(
        &dir,
        "part-2.jsonl",
        &uci,
        &["--games", "2", "--start", "2"],
    );
    assert_eq!(second, whole[2..].to_vec());
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
    args.extend_from_slice(&["--depth", "2", "--nodes", "1000"]);
    let out = qiyi(&args);
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("not both"), "{stderr}");
}
