//! `qiyi puzzles`: mine a few peg-solitaire and Xiangqi puzzles, check them, and see a tampered
//! puzzle, a puzzle of an unknown game and a broken line fail `check` with exit code 2
//! and the line named; Xiangqi and checkers runs resume where they stopped.

mod common;
use common::qiyi;

#[test]
fn mined_puzzles_check_and_tampered_ones_fail() {
    let dir = std::env::temp_dir().join(format!("qiyi-puzzles-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("peg.jsonl");
    let f = file.to_string_lossy().into_owned();
    let (code, out, err) = qiyi(&[
        "--seed",
        "9",
        "puzzles",
        "mine",
        "peg-solitaire",
        "--count",
        "4",
        "--out",
        &f,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("seed 9") && out.contains("one peg in d4"),
        "{out}"
    );
    assert!(out.contains("4 puzzles in"), "{out}");
    let text = std::fs::read_to_string(&file).expect("the puzzle file");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);

    // The same seed mines the same file.
    let again = dir.join("again.jsonl");
    let (code, _, err) = qiyi(&[
        "--seed",
        "9",
        "--threads",
        "1",
        "puzzles",
        "mine",
        "peg-solitaire",
        "--count",
        "4",
        "--out",
        &again.to_string_lossy(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&again).expect("again"), text);

    let (code, out, err) = qiyi(&["--json", "puzzles", "check", &f]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["proven"], 4);

    // Tamper with the third puzzle: its second move (the first reply shown) replaced by the
    // first move of another puzzle's line, or its first move swapped with another legal jump.
    let mut puzzles: Vec<serde_json::Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("a puzzle"))
        .collect();
    let write = |ps: &[serde_json::Value], name: &str| {
        let path = dir.join(name);
        let body: String = ps.iter().map(|p| format!("{p}\n")).collect();
        std::fs::write(&path, body).expect("write");
        path.to_string_lossy().into_owned()
    };
    let second = puzzles[2]["solution"][1]
        .as_str()
        .expect("a move")
        .to_string();
    let first = puzzles[2]["solution"][0]
        .as_str()
        .expect("a move")
        .to_string();
    puzzles[2]["solution"][0] = serde_json::Value::String(second.clone());
    puzzles[2]["solution"][1] = serde_json::Value::String(first);
    let swapped = write(&puzzles, "swapped.jsonl");
    let (code, _, err) = qiyi(&["puzzles", "check", &swapped]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.starts_with("qiyi: error: ") && err.contains("line 3"),
        "{err}"
    );

    // A game without puzzles: a clear "unknown game".
    let mut other = vec![serde_json::from_str::<serde_json::Value>(lines[0]).expect("a puzzle")];
    other.push(other[0].clone());
    other[1]["game"] = "go".into();
    let other = write(&other, "other.jsonl");
    let (code, _, err) = qiyi(&["puzzles", "check", &other]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("line 2") && err.contains("unknown game"),
        "{err}"
    );
    // A peg puzzle labelled aeroplane (proven now): its position is no aeroplane position.
    let mut other = vec![serde_json::from_str::<serde_json::Value>(lines[0]).expect("a puzzle")];
    other.push(other[0].clone());
    other[1]["game"] = "aeroplane".into();
    let other = write(&other, "other-aero.jsonl");
    let (code, _, err) = qiyi(&["puzzles", "check", &other]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2") && err.contains("fails"), "{err}");
    // A peg puzzle labelled Chinese checkers (proven now): its position is no position line.
    let mut other = vec![serde_json::from_str::<serde_json::Value>(lines[0]).expect("a puzzle")];
    other.push(other[0].clone());
    other[1]["game"] = "chinese-checkers".into();
    let other = write(&other, "other-cc.jsonl");
    let (code, _, err) = qiyi(&["puzzles", "check", &other]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2") && err.contains("fails"), "{err}");
    // A peg puzzle labelled Xiangqi (a game `check` proves now): its position is no FEN.
    let mut other = vec![serde_json::from_str::<serde_json::Value>(lines[0]).expect("a puzzle")];
    other.push(other[0].clone());
    other[1]["game"] = "xiangqi".into();
    let other = write(&other, "other-xq.jsonl");
    let (code, _, err) = qiyi(&["puzzles", "check", &other]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2") && err.contains("fails"), "{err}");

    // A peg puzzle labelled checkers (proven now too): its position is no checkers FEN.
    let mut other = vec![serde_json::from_str::<serde_json::Value>(lines[0]).expect("a puzzle")];
    other.push(other[0].clone());
    other[1]["game"] = "checkers".into();
    let other = write(&other, "other-ck.jsonl");
    let (code, _, err) = qiyi(&["puzzles", "check", &other]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2") && err.contains("fails"), "{err}");

    // A broken line.
    let broken = dir.join("broken.jsonl");
    std::fs::write(&broken, format!("{}\n{{\"id\":\n", lines[0])).expect("write");
    let (code, _, err) = qiyi(&["puzzles", "check", &broken.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2"), "{err}");

    let (code, _, err) = qiyi(&["puzzles", "check", "/nonexistent/qiyi-puzzles.jsonl"]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xiangqi_mining_resumes_and_checks() {
    let dir = std::env::temp_dir().join(format!("qiyi-puzzles-xq-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mine = |file: &std::path::Path, games: &str, threads: &str| {
        mine_xiangqi(file, games, threads, &["--depth", "3", "--max-n", "2"])
    };
    // In one go, and in two steps (3 games, then resumed to 6) on another thread count.
    let whole = dir.join("whole.jsonl");
    let (code, out, err) = mine(&whole, "6", "2");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("seed 1") && out.contains("from 6 games"),
        "{out}"
    );
    let steps = dir.join("steps.jsonl");
    let (code, _, err) = mine(&steps, "3", "1");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = mine(&steps, "6", "1");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("3 already mined") && out.contains("from 3 games"),
        "{out}"
    );
    let text = std::fs::read_to_string(&whole).expect("the puzzle file");
    assert_eq!(std::fs::read_to_string(&steps).expect("steps"), text);
    assert!(!text.is_empty(), "six games give some mate");
    // Nothing left to do: the file stays as it is.
    let (code, out, err) = mine(&steps, "6", "1");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("0 puzzles in"), "{out}");
    assert_eq!(std::fs::read_to_string(&steps).expect("steps"), text);
    // Other options on the same file are refused.
    let (code, _, err) = qiyi(&[
        "--seed",
        "2",
        "puzzles",
        "mine",
        "xiangqi",
        "--selfplay",
        "--games",
        "6",
        "--out",
        &steps.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another run"), "{err}");

    // Every puzzle proven; the first move of the last one replaced by another legal move (its
    // reply's text is not legal then, or the proof names the real answer): the line is named.
    let puzzles = check_file(&whole);
    xiangqi_tampered_check_fails(&dir, &puzzles, false);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn xiangqi_material_mining_resumes_and_checks() {
    let dir = std::env::temp_dir().join(format!("qiyi-puzzles-xqm-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mine = |file: &std::path::Path, games: &str, threads: &str, kind: &str| {
        let extra = ["--depth", "4", "--kind", kind, "--proof-depth", "6"];
        mine_xiangqi(file, games, threads, &extra)
    };
    // In one go, and in two steps on another thread count.
    let whole = dir.join("whole.jsonl");
    let (code, out, err) = mine(&whole, "4", "2", "material");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("margin below 250 cp"), "{out}");
    let steps = dir.join("steps.jsonl");
    let (code, _, err) = mine(&steps, "2", "1", "material");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = mine(&steps, "4", "1", "material");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("2 already mined"), "{out}");
    let text = std::fs::read_to_string(&whole).expect("the puzzle file");
    assert_eq!(std::fs::read_to_string(&steps).expect("steps"), text);
    assert!(!text.is_empty(), "four games give some material puzzle");
    let puzzles: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a puzzle"))
        .collect();
    for p in &puzzles {
        assert!(p["id"].as_str().expect("id").starts_with("xqm-1-"), "{p}");
        assert_eq!(p["proof"]["kind"], "engine", "{p}");
        assert_eq!(p["proof"]["depth"], 6, "{p}");
        assert!(
            p["proof"]["margin_cp"].as_i64().expect("margin") >= 250,
            "{p}"
        );
        assert_eq!(p["asked"], serde_json::json!([0]), "{p}");
    }
    // Mates on the same file are another run.
    let (code, _, err) = mine(&steps, "4", "1", "mate");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another run"), "{err}");

    // Every puzzle proven; the best move of the last one replaced by another legal move: check
    // names the line and says the best move is another.
    assert_eq!(check_file(&whole), puzzles);
    let err = xiangqi_tampered_check_fails(&dir, &puzzles, true);
    assert!(err.contains("best move"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkers_mining_resumes_and_checks() {
    let dir = std::env::temp_dir().join(format!("qiyi-puzzles-ck-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mine = |file: &std::path::Path, games: &str, threads: &str| {
        qiyi(&[
            "--seed",
            "1",
            "--threads",
            threads,
            "puzzles",
            "mine",
            "checkers",
            "--selfplay",
            "--games",
            games,
            "--depth",
            "4",
            "--out",
            &file.to_string_lossy(),
        ])
    };
    // In one go, and in two steps (3 games, then resumed to 6) on another thread count.
    let whole = dir.join("whole.jsonl");
    let (code, out, err) = mine(&whole, "6", "2");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("seed 1") && out.contains("from 6 games"),
        "{out}"
    );
    let steps = dir.join("steps.jsonl");
    let (code, _, err) = mine(&steps, "3", "1");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = mine(&steps, "6", "1");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("3 already mined") && out.contains("from 3 games"),
        "{out}"
    );
    let text = std::fs::read_to_string(&whole).expect("the puzzle file");
    assert_eq!(std::fs::read_to_string(&steps).expect("steps"), text);
    assert!(!text.is_empty(), "six games give some shot");
    // Other options on the same file are refused.
    let (code, _, err) = qiyi(&[
        "puzzles",
        "mine",
        "checkers",
        "--selfplay",
        "--games",
        "6",
        "--depth",
        "5",
        "--out",
        &steps.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another run"), "{err}");

    let f = whole.to_string_lossy().into_owned();
    let (code, out, err) = qiyi(&["--json", "puzzles", "check", &f]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    let n = text.lines().count();
    assert_eq!(v["proven"], n);

    // The first move of the last puzzle replaced by another legal move.
    let mut puzzles: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a puzzle"))
        .collect();
    let last = puzzles.len() - 1;
    let fen = puzzles[last]["position"].as_str().expect("fen").to_string();
    let pos = qiyi_checkers::Checkers::from_fen(&fen).expect("fen");
    let first = puzzles[last]["solution"][0]
        .as_str()
        .expect("a move")
        .to_string();
    let other = pos
        .moves()
        .iter()
        .map(qiyi_checkers::notation::move_to_pdn)
        .find(|m| *m != first)
        .expect("another move");
    puzzles[last]["solution"][0] = other.into();
    let body: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, body).expect("write");
    let (code, _, err) = qiyi(&["puzzles", "check", &bad.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("line {n}")), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn chinese_checkers_mining_resumes_and_checks() {
    let dir = std::env::temp_dir().join(format!("qiyi-puzzles-cc-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mine = |file: &std::path::Path, games: &str, threads: &str| {
        qiyi(&[
            "--seed",
            "1",
            "--threads",
            threads,
            "puzzles",
            "mine",
            "chinese-checkers",
            "--selfplay",
            "--games",
            games,
            "--min-out",
            "1",
            "--out",
            &file.to_string_lossy(),
        ])
    };
    // In one go, and in two steps (1 game, then resumed to 2) on another thread count.
    let whole = dir.join("whole.jsonl");
    let (code, out, err) = mine(&whole, "2", "2");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("from 2 games"), "{out}");
    let steps = dir.join("steps.jsonl");
    let (code, _, err) = mine(&steps, "1", "1");
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = mine(&steps, "2", "1");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("1 already mined") && out.contains("from 1 games"),
        "{out}"
    );
    let text = std::fs::read_to_string(&whole).expect("the puzzle file");
    assert_eq!(std::fs::read_to_string(&steps).expect("steps"), text);
    assert!(!text.is_empty(), "two games give some puzzle");
    // Other options on the same file are refused.
    let (code, _, err) = qiyi(&[
        "puzzles",
        "mine",
        "chinese-checkers",
        "--selfplay",
        "--games",
        "2",
        "--max-n",
        "5",
        "--out",
        &steps.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another run"), "{err}");

    let f = whole.to_string_lossy().into_owned();
    let (code, out, err) = qiyi(&["--json", "puzzles", "check", &f]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    let n = text.lines().count();
    assert_eq!(v["proven"], n);

    // The last puzzle's first move replaced by a move no piece of it can make.
    let mut puzzles: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a puzzle"))
        .collect();
    let last = puzzles.len() - 1;
    puzzles[last]["solution"][0] = "a1-b1".into();
    let body: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, body).expect("write");
    let (code, _, err) = qiyi(&["puzzles", "check", &bad.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("line {n}")), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn aeroplane_mining_checks_and_a_worse_plane_fails() {
    let dir = std::env::temp_dir().join(format!("qiyi-puzzles-aero-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("aero.jsonl");
    let f = file.to_string_lossy().into_owned();
    // Seed 1's first 10 games hold 6 puzzles (the shipped set's run: 331 in 500 games).
    let (code, out, err) = qiyi(&[
        "--seed",
        "1",
        "--json",
        "puzzles",
        "mine",
        "aeroplane",
        "--selfplay",
        "--games",
        "10",
        "--out",
        &f,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["games"], 10, "{v}");
    assert_eq!(v["table_states"], 198_476, "{v}");
    let text = std::fs::read_to_string(&file).expect("the puzzle file");
    let n = text.lines().count();
    assert!(n > 0, "{v}");
    assert_eq!(v["puzzles"], n, "{v}");
    // The run's puzzles are the shipped set's first ones (same seed, options and games).
    let shipped = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../aeroplane/puzzles/aeroplane.jsonl"
    ))
    .expect("the shipped set");
    assert!(shipped.starts_with(&text), "{text}");
    // Other options on the same file are refused (before any table is built).
    let (code, _, err) = qiyi(&[
        "puzzles",
        "mine",
        "aeroplane",
        "--selfplay",
        "--games",
        "10",
        "--class",
        "1v1",
        "--out",
        &f,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("another run"), "{err}");

    let (code, out, err) = qiyi(&["--json", "puzzles", "check", &f]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["proven"], n);

    // The last puzzle answered with the worst recorded plane: it fails, its line named.
    let mut puzzles: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a puzzle"))
        .collect();
    let last = puzzles.len() - 1;
    let detail = puzzles[last]["proof"]["detail"]
        .as_str()
        .expect("a proof")
        .to_string();
    let worst = detail
        .split_whitespace()
        .filter_map(|w| {
            let (k, v) = w.trim_end_matches(';').split_once('=')?;
            Some((k.to_string(), v.parse::<f64>().ok()?))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("recorded chances")
        .0;
    assert_ne!(puzzles[last]["solution"][0], worst.as_str(), "{detail}");
    puzzles[last]["solution"][0] = worst.into();
    let body: String = puzzles.iter().map(|p| format!("{p}\n")).collect();
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, body).expect("write");
    let (code, _, err) = qiyi(&["puzzles", "check", &bad.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("line {n}")) && err.contains("lead below"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `qiyi --seed 1 --threads THREADS puzzles mine xiangqi --selfplay --games GAMES EXTRA.. --out
/// FILE`.
fn mine_xiangqi(
    file: &std::path::Path,
    games: &str,
    threads: &str,
    extra: &[&str],
) -> (i32, String, String) {
    let out = file.to_string_lossy();
    let mut args = vec![
        "--seed",
        "1",
        "--threads",
        threads,
        "puzzles",
        "mine",
        "xiangqi",
        "--selfplay",
        "--games",
        games,
    ];
    args.extend_from_slice(extra);
    args.extend_from_slice(&["--out", &out]);
    qiyi(&args)
}

/// Mines `game` from the record files `from` into `out` (depth 3, mates or shots in up to 2).
fn mine_from(
    game: &str,
    out: &std::path::Path,
    from: &[&std::path::Path],
) -> (i32, String, String) {
    let out = out.to_string_lossy().into_owned();
    let from: Vec<String> = from
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let mut args = vec![
        "puzzles", "mine", game, "--depth", "3", "--max-n", "2", "--out", &out, "--from",
    ];
    args.extend(from.iter().map(String::as_str));
    qiyi(&args)
}

/// The committed review game of `krate` (`crates/KRATE/tests/data/review-game.EXT`).
fn review_game(krate: &str, ext: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("../{krate}/tests/data/review-game.{ext}"))
}

/// Writes `puzzles` to `dir/bad.jsonl` with the first move of the last one's solution replaced
/// by another legal move (and the solution cut to that move when `cut`), checks that `qiyi
/// puzzles check` refuses it naming the last line, and returns its message.
fn xiangqi_tampered_check_fails(
    dir: &std::path::Path,
    puzzles: &[serde_json::Value],
    cut: bool,
) -> String {
    let mut bad = puzzles.to_vec();
    let last = bad.len() - 1;
    let fen = bad[last]["position"].as_str().expect("fen").to_string();
    let pos = qiyi_xiangqi::Position::from_fen(&fen).expect("fen");
    let first = bad[last]["solution"][0]
        .as_str()
        .expect("a move")
        .to_string();
    let other = pos
        .legal_move_list()
        .as_slice()
        .iter()
        .map(|m| m.to_string())
        .find(|m| *m != first)
        .expect("another move");
    if cut {
        bad[last]["solution"] = serde_json::json!([other]);
    } else {
        bad[last]["solution"][0] = other.into();
    }
    let body: String = bad.iter().map(|p| format!("{p}\n")).collect();
    let file = dir.join("bad.jsonl");
    std::fs::write(&file, body).expect("write");
    let (code, _, err) = qiyi(&["puzzles", "check", &file.to_string_lossy()]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("line {}", bad.len())), "{err}");
    err
}

/// Checks the puzzle file `file` with `qiyi puzzles check` and returns its puzzles.
fn check_file(file: &std::path::Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(file).expect("the puzzle file");
    let (code, out, err) = qiyi(&["--json", "puzzles", "check", &file.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["proven"], text.lines().count());
    text.lines()
        .map(|l| serde_json::from_str(l).expect("a puzzle"))
        .collect()
}

#[test]
fn xiangqi_puzzles_mine_from_records() {
    let dir = std::env::temp_dir().join(format!("qiyi-puzzles-xqrec-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pgn = review_game("xiangqi", "pgn");
    // The same game twice in one file (two PGN games), and as a JSON Lines record of
    // `qiyi match xiangqi --games-out`'s shape.
    let text = std::fs::read_to_string(&pgn).expect("the PGN");
    let two = dir.join("two.pgn");
    std::fs::write(&two, format!("{text}\n{text}")).expect("write");
    let out = dir.join("xq.jsonl");
    let (code, stdout, err) = mine_from("xiangqi", &out, &[&pgn, &two]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("from 3 games of 2 record files"),
        "{stdout}"
    );
    let puzzles = check_file(&out);
    assert!(
        !puzzles.is_empty(),
        "the won game has a mate in it: {stdout}"
    );
    // Each position once: the copies of the game are duplicates.
    assert!(
        stdout.contains(&format!("{} duplicates", 2 * puzzles.len())),
        "{stdout}"
    );
    for p in &puzzles {
        assert_eq!(p["source"]["kind"], "record", "{p}");
        assert_eq!(p["source"]["file"], pgn.to_string_lossy().as_ref(), "{p}");
        assert_eq!(p["source"]["game"], 1, "{p}");
    }
    // Resumed: nothing left to do.
    let (code, stdout, err) = mine_from("xiangqi", &out, &[&pgn, &two]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("3 already mined") && stdout.contains("0 puzzles in"),
        "{stdout}"
    );

    // A bad move names the file, the line of the game and the move.
    let bad = dir.join("bad.pgn");
    std::fs::write(&bad, format!("{text}\n{}", text.replace("H0-G2", "H0-H5"))).expect("write");
    let (code, _, err) = mine_from("xiangqi", &dir.join("bad.jsonl"), &[&bad]);
    assert_eq!(code, 2, "{err}");
    let first_lines = text.lines().count() + 2;
    assert!(
        err.contains(&bad.to_string_lossy().into_owned())
            && err.contains(&format!("line {first_lines}: game 2"))
            && err.contains("move 1"),
        "{err}"
    );
    // Not JSON past its first line: the line is named.
    let broken = dir.join("broken.jsonl");
    std::fs::write(&broken, "{\"moves\": [\"h2e2\"]}\n{\"moves\": [\n").expect("write");
    let (code, _, err) = mine_from("xiangqi", &dir.join("broken.out"), &[&broken]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 2"), "{err}");
    // --selfplay or --from, not neither.
    let (code, _, err) = qiyi(&[
        "puzzles",
        "mine",
        "xiangqi",
        "--out",
        &out.to_string_lossy(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--from RECORDS"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn checkers_puzzles_mine_from_records() {
    let dir = std::env::temp_dir().join(format!("qiyi-puzzles-ckrec-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let pdn = review_game("checkers", "pdn");
    let out = dir.join("ck.jsonl");
    let (code, stdout, err) = mine_from("checkers", &out, &[&pdn]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("from 1 games of 1 record files"),
        "{stdout}"
    );
    let puzzles = check_file(&out);
    assert!(!puzzles.is_empty(), "the game has a shot in it: {stdout}");
    for p in &puzzles {
        assert_eq!(p["source"]["kind"], "record", "{p}");
        assert_eq!(p["source"]["game"], 1, "{p}");
    }
    // An illegal move: the PDN reader names the line.
    let text = std::fs::read_to_string(&pdn).expect("the PDN");
    let bad = dir.join("bad.pdn");
    std::fs::write(&bad, text.replace("1. 10-15", "1. 10-19")).expect("write");
    let (code, _, err) = mine_from("checkers", &dir.join("bad.jsonl"), &[&bad]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&bad.to_string_lossy().into_owned()) && err.contains("line 7"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
