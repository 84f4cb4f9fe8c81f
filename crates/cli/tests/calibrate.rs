//! `qiyi calibrate`: a slope fitted on a small seeded self-play run, its held-out table, and bad
//! input as clear errors.

mod common;
use common::qiyi;

#[test]
fn a_self_play_run_calibrates_and_bad_input_is_refused() {
    let dir = std::env::temp_dir().join(format!("qiyi-calibrate-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_string_lossy().into_owned();
    let (code, _, err) = qiyi(&[
        "--threads",
        "1",
        "--seed",
        "3",
        "selfplay",
        "checkers",
        "--games",
        "24",
        "--games-per-shard",
        "6",
        "--depth",
        "3",
        "--out",
        &d,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = qiyi(&["--json", "calibrate", &d, "--slope", "0.004"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["game"], "checkers");
    assert_eq!(v["shards"], 4);
    assert_eq!(v["games"], 24);
    let k = v["slope"].as_f64().expect("a slope");
    assert!(k > 0.0 && k < 0.1, "slope {k}");
    let table = v["table"].as_array().expect("a table");
    let counted: u64 = table.iter().map(|b| b["count"].as_u64().unwrap_or(0)).sum();
    assert_eq!(counted, v["held_out"].as_u64().unwrap_or(0));
    assert!(v["brier"].as_f64().is_some_and(|b| b < 0.25), "{v}");
    let (code, out, err) = qiyi(&["calibrate", &d]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("| predicted |"), "{out}");
    for (args, want) in [
        (
            vec!["calibrate", "/nonexistent/qiyi-shards"],
            "reading shards",
        ),
        (vec!["calibrate", &d, "--slope=-1"], "positive"),
    ] {
        let (code, _, err) = qiyi(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.starts_with("qiyi: error: ") && err.contains(want),
            "{err}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xiangqi_calibrates_on_its_own_seeded_self_play() {
    let args = [
        "--json",
        "--threads",
        "1",
        "--seed",
        "2",
        "calibrate",
        "xiangqi",
        "--games",
        "4",
        "--depth",
        "2",
    ];
    let (code, out, err) = qiyi(&args);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["game"], "xiangqi");
    assert_eq!(v["games"], 4);
    assert_eq!(v["shards"], 0);
    assert!(v["positions"].as_u64().unwrap_or(0) > 0, "{out}");
    assert!(v["slope"].as_f64().is_some_and(|k| k > 0.0), "{out}");
    // The same seed plays the same games.
    let (_, again, _) = qiyi(&args);
    assert_eq!(out, again);
    let (code, _, err) = qiyi(&["calibrate", "xiangqi", "--depth", "0"]);
    assert_eq!(code, 2, "{err}");
}
