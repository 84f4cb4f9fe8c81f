//! `qiyi analyze`: multi-PV for Xiangqi and checkers, and bad input ending with
//! `qiyi: error: ...` (or clap's usage error) and exit code 2, never a panic.

mod common;
use common::qiyi;

/// The JSON object on the last line of stdout.
fn last_json(out: &str) -> serde_json::Value {
    let line = out.lines().last().expect("a line of output");
    serde_json::from_str(line).expect("JSON")
}

fn check_lines(v: &serde_json::Value, n: usize) {
    let lines = v["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), n, "{v}");
    assert_eq!(v["bestmove"], lines[0]["move"]);
    let scores: Vec<i64> = lines
        .iter()
        .map(|l| l["score"].as_i64().expect("score"))
        .collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    let mut moves: Vec<&str> = lines
        .iter()
        .map(|l| l["move"].as_str().expect("move"))
        .collect();
    moves.sort_unstable();
    moves.dedup();
    assert_eq!(moves.len(), n, "distinct root moves");
}

#[test]
fn xiangqi_multipv_reports_three_sorted_lines_and_matches_single_pv() {
    let args = [
        "analyze",
        "xiangqi",
        "--depth",
        "3",
        "--threads",
        "1",
        "--hash",
        "8",
    ];
    let (code, out, err) = qiyi(&[&args[..], &["--multipv", "3", "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let multi = last_json(&out);
    check_lines(&multi, 3);
    let (code, out, err) = qiyi(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let single = last_json(&out);
    assert_eq!(single["bestmove"], multi["bestmove"]);
    assert_eq!(single["score"], multi["score"]);
    let (code, out, _) = qiyi(&[&args[..], &["--multipv", "2"]].concat());
    assert_eq!(code, 0);
    assert!(out.contains("depth  3  multipv 2"), "{out}");
}

#[test]
fn checkers_multipv_reports_sorted_lines_and_matches_single_pv() {
    let args = ["analyze", "checkers", "--depth", "5", "--threads", "1"];
    let (code, out, err) = qiyi(&[&args[..], &["--multipv", "4", "--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let multi = last_json(&out);
    check_lines(&multi, 4);
    let (code, out, err) = qiyi(&[&args[..], &["--json"]].concat());
    assert_eq!(code, 0, "{err}");
    let single = last_json(&out);
    assert_eq!(single["bestmove"], multi["bestmove"]);
    assert_eq!(single["score"], multi["score"]);
}

#[test]
fn multipv_out_of_range_or_unsupported_is_exit_2() {
    for game in ["xiangqi", "checkers"] {
        for n in ["0", "11", "x"] {
            let (code, _, err) = qiyi(&["analyze", game, "--depth", "2", "--multipv", n]);
            assert_eq!(code, 2, "{game} {n}: {err}");
            assert!(err.contains("multipv"), "{err}");
        }
    }
    let (code, _, err) = qiyi(&[
        "analyze",
        "xiangqi",
        "--depth",
        "2",
        "--multipv",
        "3",
        "--level",
        "seed",
    ]);
    assert_eq!(code, 2);
    assert!(err.starts_with("qiyi: error:"), "{err}");
    let (code, _, err) = qiyi(&[
        "analyze",
        "checkers",
        "--depth",
        "2",
        "--multipv",
        "3",
        "--search",
        "core",
    ]);
    assert_eq!(code, 2);
    assert!(err.starts_with("qiyi: error:"), "{err}");
}

#[test]
fn peg_solitaire_analysis_is_exact_per_move() {
    let (code, out, err) = qiyi(&["analyze", "peg-solitaire", "--board", "triangle", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = last_json(&out);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["exact"], true);
    assert_eq!(v["pegs"], 14);
    let moves = v["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 2);
    assert!(moves.iter().all(|m| m["solvable"] == true));
    // Two pegs apart with no jump: not solvable, no move.
    let (code, out, err) = qiyi(&["analyze", "peg", "--position", "o.o", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = last_json(&out);
    assert_eq!(v["solvable"], false);
    assert_eq!(v["fewest_pegs"], 2);
    assert!(v["bestmove"].is_null());
    // Three in a row: one jump leaves one peg, none other does.
    let (code, out, err) = qiyi(&["analyze", "peg", "--position", "oo.", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = last_json(&out);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["bestmove"], "a1-c1");
    for bad in [["--position", "x!/o"], ["--board", "nosuch"]] {
        let (code, _, err) = qiyi(&[&["analyze", "peg"][..], &bad[..]].concat());
        assert_eq!(code, 2, "{err}");
        assert!(err.starts_with("qiyi: error:"), "{err}");
    }
}

#[test]
fn a_peg_analysis_past_its_node_budget_says_unknown() {
    // The English board full but for the centre and a hole diagonal to it: unsolvable by
    // Conway's rule of three (its pegs' counts on the three diagonal classes match no single
    // peg's), and not proven so within 8,000,000 positions (`qiyi analyze peg --nodes 8000000`):
    // within a smaller budget the verdict is unknown, and never solvable.
    let lost = "  ooo  /  ooo  /oo.oooo/ooo.ooo/ooooooo/  ooo  /  ooo  ";
    let (code, out, err) = qiyi(&[
        "analyze",
        "peg",
        "--position",
        lost,
        "--nodes",
        "20000",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = last_json(&out);
    assert_eq!(v["pegs"], 31);
    assert!(v["solvable"].is_null(), "{v}");
    assert_eq!(v["exact"], false);
    assert_eq!(v["node_budget"], 20000);
    assert!(v["fewest_pegs"].as_u64().is_some_and(|p| p > 1), "{v}");
    let moves = v["moves"].as_array().expect("moves");
    // Each jump within its budget, plus the one step that finds it spent.
    let most = 20_001 * moves.len() as u64;
    assert!(v["nodes"].as_u64().is_some_and(|n| n <= most), "{v}");
    assert!(!moves.is_empty());
    assert!(
        moves
            .iter()
            .any(|m| m["solvable"].is_null() && m["exact"] == false),
        "{v}"
    );
    assert!(
        err.contains("judge memory: memo peak") && err.contains("at most 20000 a decision"),
        "{err}"
    );
    let (code, out, err) = qiyi(&["analyze", "peg", "--position", lost, "--nodes", "20000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("31 pegs; unknown (not decided within 20000 positions"),
        "{out}"
    );
    // The default budget decides a small board exactly, and says so.
    let (code, out, err) = qiyi(&["analyze", "peg", "--board", "triangle", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v = last_json(&out);
    assert_eq!(
        (v["solvable"].as_bool(), v["exact"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(v["node_budget"], 1_000_000);
    assert!(err.contains("of at most 64 (--hash)"), "{err}");
    let (code, _, err) = qiyi(&["analyze", "peg", "--hash", "0"]);
    assert_eq!(code, 2, "{err}");
}

const AERO: &str = "standard players=4 move=0 roll=0 sixes=0 moved=0 places=0,0,0,0 planes=3,12,H,H/7,H,H,H/H,H,H,H/20,H,H,H";

#[test]
fn aeroplane_analysis_gives_every_choice_a_win_chance() {
    let (code, out, err) = qiyi(&[
        "analyze",
        "aeroplane",
        "--position",
        AERO,
        "--roll",
        "6",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v = last_json(&out);
    let choices = v["choices"].as_array().expect("choices");
    assert!(
        choices.len() >= 3,
        "a six moves either plane or takes one off: {v}"
    );
    let best = choices
        .iter()
        .max_by(|a, b| {
            a["win"]
                .as_f64()
                .partial_cmp(&b["win"].as_f64())
                .expect("numbers")
        })
        .expect("a choice");
    assert_eq!(v["bestmove"], best["plane"]);
    for c in choices {
        let wins: f64 = c["wins"]
            .as_array()
            .expect("wins")
            .iter()
            .map(|w| w.as_f64().expect("f64"))
            .sum();
        assert!((wins - 1.0).abs() < 1e-9, "{c}");
    }
    assert_eq!(v["exact"], false);
    let (code, out, _) = qiyi(&[
        "analyze",
        "aeroplane",
        "--position",
        AERO,
        "--roll",
        "2",
        "--json",
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        last_json(&out)["choices"]
            .as_array()
            .expect("choices")
            .len(),
        2,
        "no take-off on a 2"
    );
    for (pos, roll) in [(AERO, "7"), (AERO, "0"), ("bogus", "2")] {
        let (code, _, err) = qiyi(&["analyze", "aeroplane", "--position", pos, "--roll", roll]);
        assert_eq!(code, 2, "{err}");
    }
}
