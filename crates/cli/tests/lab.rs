//! `qiyi lab` through the binary: the "same value as minimax" checks at small depths for Xiangqi
//! and checkers, the peg-solitaire variants agreeing, every game's lab running with tiny
//! settings, the charts written, and bad input refused with exit code 2.

use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};

fn qiyi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(args)
        .output()
        .expect("the qiyi binary runs")
}

/// Runs `qiyi --json lab ...`, checks success and returns the report (the last stdout line).
fn lab_json(args: &[&str]) -> Value {
    let mut all = vec!["--json", "lab"];
    all.extend_from_slice(args);
    let out = qiyi(&all);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "qiyi {all:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = stdout.lines().last().expect("a JSON line");
    serde_json::from_str(last).expect("valid JSON")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qiyi-lab-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write temp file");
    path
}

/// The rows of the first (summary) table as (algorithm, same-value cell).
fn summary_checks(report: &Value) -> Vec<(String, String)> {
    let t = &report["tables"][0];
    let cols = t["columns"].as_array().expect("columns");
    let check = cols
        .iter()
        .position(|c| c == "same value")
        .expect("a same-value column");
    t["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r[0].as_str().unwrap_or_default().to_string(),
                r[check].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn assert_exact_rows_agree(report: &Value, depth: usize, positions: usize) {
    assert_eq!(report["all_agree"], Value::Bool(true), "{report}");
    let rows = summary_checks(report);
    assert_eq!(rows.len(), 9, "{rows:?}");
    // Every exact variant (all rows but the last two) matched minimax on every position and depth.
    let n = depth * positions;
    for (name, cell) in &rows[..7] {
        assert_eq!(cell, &format!("✓ {n}/{n} vs minimax"), "{name}");
    }
    assert!(rows[7].1.starts_with('✓'), "{:?}", rows[7]);
}

#[test]
fn xiangqi_alpha_beta_variants_return_the_minimax_value() {
    let positions = temp_file(
        "xiangqi.txt",
        "start\trnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n\
         cpw6\tR1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1\n",
    );
    let report = lab_json(&[
        "xiangqi",
        "--depth",
        "3",
        "--positions",
        positions.to_str().unwrap_or_default(),
    ]);
    assert_exact_rows_agree(&report, 3, 2);
    // Alpha-beta visits fewer nodes than minimax.
    let rows = report["tables"][2]["rows"].as_array().expect("rows");
    let nodes = |r: &Value| -> u64 {
        r[3].as_str()
            .unwrap_or_default()
            .replace(',', "")
            .parse()
            .unwrap_or(0)
    };
    assert!(nodes(&rows[1]) < nodes(&rows[0]), "{rows:?}");
}

#[test]
fn checkers_alpha_beta_variants_return_the_minimax_value() {
    let report = lab_json(&["checkers", "--depth", "4"]);
    assert_exact_rows_agree(&report, 4, 6);
    assert_eq!(report["game"], "checkers");
    assert!(report["command"]
        .as_str()
        .unwrap_or_default()
        .starts_with("qiyi lab checkers --seed 1"));
}

#[test]
fn peg_variants_agree_on_solvability_and_counts() {
    // The triangle: every variant finishes both questions within the budget.
    let problems = temp_file("peg.txt", "triangle\ttriangle a1 a1\n");
    let report = lab_json(&[
        "peg-solitaire",
        "--positions",
        problems.to_str().unwrap_or_default(),
        "--budget",
        "2000000",
    ]);
    assert_eq!(report["all_agree"], Value::Bool(true), "{report}");
    let first = report["tables"][0]["rows"].as_array().expect("rows");
    let counts = report["tables"][1]["rows"].as_array().expect("rows");
    for r in &first[..4] {
        assert_eq!(r[2], "solved", "{r}");
        assert_eq!(r[3], "13", "{r}");
    }
    // Every variant's count equals the peg-solitaire crate's own solver (forward/backward
    // layers, a different algorithm).
    let problem = qiyi_peg_solitaire::Problem::new(
        qiyi_peg_solitaire::Board::named("triangle").expect("board"),
        Some("a1"),
        Some("a1"),
    )
    .expect("problem");
    let expected = problem.count_solutions(&mut |_, _, _, _| {});
    assert!(expected > 0);
    for r in &counts[..4] {
        assert_eq!(
            r[2].as_str().unwrap_or_default().replace(',', ""),
            expected.to_string(),
            "{r}"
        );
    }
    // A finish in another position class: the classes variant proves it impossible without a
    // search; the others give up within a small budget.
    let problems = temp_file("peg2.txt", "impossible\tenglish d4 c4 first\n");
    let report = lab_json(&[
        "peg-solitaire",
        "--positions",
        problems.to_str().unwrap_or_default(),
        "--budget",
        "20000",
    ]);
    assert_eq!(report["all_agree"], Value::Bool(true), "{report}");
    let first = report["tables"][0]["rows"].as_array().expect("rows");
    assert_eq!(first[3][2], "impossible", "{}", first[3]);
    assert_eq!(first[3][4], "0", "{}", first[3]);
    assert!(first[..3].iter().all(|r| r[2] == "gave up"), "{first:?}");
    assert!(report["tables"][1]["rows"]
        .as_array()
        .expect("rows")
        .is_empty());
}

#[test]
fn chinese_checkers_lab_runs_with_tiny_settings() {
    let report = lab_json(&["chinese-checkers", "--games", "1", "--budget", "200"]);
    let rows = report["tables"][0]["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 5);
    for r in rows {
        assert_eq!(r[1], "1", "{r}");
    }
}

#[test]
fn aeroplane_lab_runs_with_tiny_settings() {
    let report = lab_json(&["aeroplane", "--games", "2"]);
    let rows = report["tables"][0]["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 5);
    assert!(rows.iter().all(|r| r[1] == "2"));
}

#[test]
fn plots_are_written_as_svg() {
    let dir = std::env::temp_dir().join(format!("qiyi-lab-plots-{}", std::process::id()));
    let out = qiyi(&[
        "lab",
        "checkers",
        "--depth",
        "2",
        "--plot",
        dir.to_str().unwrap_or_default(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["checkers-nodes", "checkers-ebf", "checkers-time"] {
        let svg = std::fs::read_to_string(dir.join(format!("{name}.svg"))).expect("an SVG file");
        assert!(svg.starts_with("<svg"), "{name}");
        assert!(svg.contains("alpha-beta"), "{name}: legend");
    }
    // Plain output is Markdown tables.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("| algorithm | nodes |"), "{text}");
}

#[test]
fn bad_input_is_refused_with_exit_code_2() {
    let out = qiyi(&[
        "lab",
        "xiangqi",
        "--positions",
        "/nonexistent/positions.txt",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read positions file"));
    let bad = temp_file("bad.txt", "broken\tnot a fen\n");
    let out = qiyi(&[
        "lab",
        "checkers",
        "--positions",
        bad.to_str().unwrap_or_default(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("position broken"));
    let out = qiyi(&[
        "lab",
        "peg-solitaire",
        "--positions",
        bad.to_str().unwrap_or_default(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = qiyi(&["lab", "go"]);
    assert_eq!(out.status.code(), Some(2));
}
