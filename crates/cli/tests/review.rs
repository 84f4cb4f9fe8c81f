//! `qiyi review`: a peg-solitaire record reviewed (table and JSON), and bad input ending with
//! `qiyi: error: ...` and exit code 2, never a panic.

mod common;
use common::qiyi;

/// Writes `text` to a file of its own in the temp dir and returns its path.
fn record(name: &str, text: &str) -> String {
    let dir = std::env::temp_dir().join(format!("qiyi-review-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("record written");
    path.to_string_lossy().into_owned()
}

const GOOD: &str = r#"{"format":"qiyi-record","version":1,"game":"peg-solitaire",
  "rules":{"board":"english"},"position":null,"seed":1,
  "moves":[{"ply":0,"player":0,"text":"d2-d4"}]}"#;

#[test]
fn a_peg_record_reviews_as_a_table_and_as_json() {
    let path = record("good.json", GOOD);
    let (code, out, err) = qiyi(&["review", "peg-solitaire", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("d2-d4"), "{out}");
    assert!(out.contains("best"), "{out}");
    assert!(out.contains("never lost"), "{out}");
    let (code, out, err) = qiyi(&["review", "peg", &path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(last).expect("the last line is JSON");
    assert_eq!(v["format"], 1);
    assert_eq!(v["unit"], "pegs");
    assert_eq!(v["plies"][0]["played"], "d2-d4");
    assert_eq!(v["plies"][0]["class"], "best");
    assert_eq!(v["plies"][0]["after_played"]["unit"], 1.0);
    assert_eq!(v["summary"][0]["counts"][0], 1);
}

#[test]
fn a_peg_review_past_its_node_budget_says_unknown() {
    // Lost on the English board after four jumps: the positions after are unsolvable, and
    // proving it takes far more than 20,000 positions a move.
    let path = record("lost.json", r#"["d2-d4","d5-d3","f4-d4","c4-e4"]"#);
    let (code, out, err) = qiyi(&["review", "peg", &path, "--nodes", "20000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("unknown (not decided within the judge's budget)"),
        "{out}"
    );
    assert!(
        out.contains("whether the solution was lost is unknown"),
        "{out}"
    );
    assert!(err.contains("judge memory: memo peak"), "{err}");
    let (code, out, err) = qiyi(&["review", "peg", &path, "--nodes", "20000", "--json"]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(last).expect("the last line is JSON");
    // The first jump keeps the solution (one peg reached: proven within any budget).
    assert_eq!(v["plies"][0]["class"], "best");
    assert!(v["plies"][0].get("unknown").is_none());
    let unknown: Vec<&serde_json::Value> = v["plies"]
        .as_array()
        .expect("plies")
        .iter()
        .filter(|p| p["unknown"] == true)
        .collect();
    assert!(!unknown.is_empty(), "{last}");
    for p in &unknown {
        assert!(
            p["class"].is_null() && p["after_played"]["unit"].is_null(),
            "{p}"
        );
        assert_eq!(p["exact"], false);
        assert_eq!(p["missed_win"], false);
    }
    assert_eq!(v["summary"][0]["unknown"], unknown.len());
    fails(
        &["review", "xiangqi", &path, "--nodes", "5"],
        "--nodes applies to peg solitaire",
    );
}

fn fails(args: &[&str], want: &str) {
    let (code, out, err) = qiyi(args);
    assert_eq!(code, 2, "qiyi {args:?}: {out}{err}");
    assert!(err.starts_with("qiyi: error: "), "{err}");
    assert!(err.contains(want), "{want:?} not in {err:?}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_records_are_clear_errors_with_exit_code_2() {
    let not_json = record("bad.json", "this is not a record {");
    fails(&["review", "peg", &not_json], "not JSON");
    let illegal = record(
        "illegal.json",
        r#"{"game":"peg-solitaire","rules":{"board":"english"},"moves":["d2-d4","d2-d4"]}"#,
    );
    fails(&["review", "peg", &illegal], "move 2 (d2-d4)");
    let other = record(
        "other.json",
        r#"{"game":"aeroplane","rules":{},"moves":[]}"#,
    );
    fails(
        &["review", "peg", &other],
        "is a aeroplane game, not peg-solitaire",
    );
    fails(
        &["review", "peg", "/nonexistent/qiyi/record.json"],
        "reading",
    );
    fails(&["review", "go", &not_json], "unknown game");
    fails(&["review", "chinese-checkers", &not_json], "not JSON");
    let board = record(
        "board.json",
        r#"{"game":"peg-solitaire","rules":{"board":"hexagon-9"},"moves":[]}"#,
    );
    fails(&["review", "peg", &board], "board");
    fails(
        &["review", "peg", "--id", "no-such-game", "--db", ":memory:"],
        "no game no-such-game",
    );
    fails(
        &["review", "peg", "--id", "x", "--db", "/nonexistent/qiyi.db"],
        "no game database",
    );
}

const CHECKERS: &str = "[Event \"review test\"]\n\n1. 10-15 22-17 2. 11-16 23-19 3. 16x23 26x19x10\n4. 6x15 24-19 5. 15x24 28x19 6. 8-11 27-23 *\n";

#[test]
fn a_checkers_game_reviews_with_an_annotated_pdn() {
    let path = record("game.pdn", CHECKERS);
    let out_pdn = record("annotated.pdn", "");
    let (code, out, err) = qiyi(&[
        "--json",
        "review",
        "checkers",
        &path,
        "--depth",
        "4",
        "--annotate",
        &out_pdn,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["game"], "checkers");
    assert_eq!(v["unit"], "cp");
    assert_eq!(v["plies"].as_array().map(Vec::len), Some(12));
    assert_eq!(v["plies"][2]["played"], "11-16");
    assert_eq!(v["plies"][4]["forced"], true, "16x23 is the only capture");
    let annotated = std::fs::read_to_string(&out_pdn).expect("annotated PDN written");
    assert_eq!(annotated.matches("[%eval ").count(), 12, "{annotated}");
    assert!(annotated.contains("[Event \"review test\"]"), "{annotated}");
    let (code, out, err) = qiyi(&["review", "checkers", &path, "--depth", "4"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("judge: qiyi checkers engine"), "{out}");
    assert!(out.contains("26x19x10"), "{out}");
    // The same game as a JSON record.
    let json = record(
        "game.json",
        r#"{"game":"checkers","moves":["10-15",{"text":"22-17"},"11-16"]}"#,
    );
    let (code, out, err) = qiyi(&["--json", "review", "checkers", &json, "--depth", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"played\":\"22-17\""), "{out}");
    assert!(err.contains("a 64 MiB transposition table"), "{err}");
    // --hash sizes the judge's table, and the review says so.
    let (code, out, err) = qiyi(&[
        "--json", "review", "checkers", &json, "--depth", "3", "--hash", "2",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"played\":\"22-17\""), "{out}");
    assert!(err.contains("a 2 MiB transposition table"), "{err}");
}

#[test]
fn bad_checkers_reviews_are_clear_errors_with_exit_code_2() {
    let path = record("ck.pdn", CHECKERS);
    fails(
        &["review", "checkers", &path, "--depth", "10000"],
        "depth 10000 is out of range",
    );
    fails(
        &["review", "checkers", &path, "--movetime", "0"],
        "at least 1 ms",
    );
    let illegal = record("ck-illegal.pdn", "1. 10-15 10-15 *\n");
    fails(&["review", "checkers", &illegal], "the PDN does not read");
    let illegal = record(
        "ck-illegal.json",
        r#"{"game":"checkers","moves":["10-15","9-14"]}"#,
    );
    fails(&["review", "checkers", &illegal], "move 2 (9-14)");
    let other = record("ck-other.json", GOOD);
    fails(
        &["review", "checkers", &other],
        "is a peg-solitaire game, not checkers",
    );
    let peg = record("peg.json", GOOD);
    fails(
        &["review", "peg", &peg, "--depth", "4"],
        "--depth does not apply to peg solitaire",
    );
    // Peg solitaire takes --hash: it bounds the exact judge's memo, and the review says so.
    let (code, out, err) = qiyi(&["review", "peg", &peg, "--hash", "8"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        err.contains("memo peak") && err.contains("of at most 8 (--hash)"),
        "{err}"
    );
    // Out of range: refused by the argument parser, before anything is read.
    for bad in ["0", "5000"] {
        let (code, out, err) = qiyi(&["review", "checkers", &path, "--hash", bad]);
        assert_eq!(code, 2, "{out}{err}");
        assert!(err.contains("--hash") && err.contains("1..=4096"), "{err}");
    }
    fails(
        &["review", "checkers", &path, "--egdb", "/nonexistent/egdb"],
        "no complete endgame database",
    );
}

const XIANGQI: &str = "[Game \"Chinese Chess\"]\n[Event \"review test\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 B9-C7 4. H0-H6 *\n";

#[test]
fn a_xiangqi_game_reviews_with_an_annotated_pgn() {
    let path = record("xq.pgn", XIANGQI);
    let out_pgn = record("xq-annotated.pgn", "");
    let (code, out, err) = qiyi(&[
        "--json",
        "review",
        "xiangqi",
        &path,
        "--depth",
        "3",
        "--annotate",
        &out_pgn,
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["game"], "xiangqi");
    assert_eq!(v["unit"], "cp");
    assert_eq!(v["plies"].as_array().map(Vec::len), Some(7));
    assert_eq!(v["plies"][0]["played"], "h2e2");
    let annotated = std::fs::read_to_string(&out_pgn).expect("annotated PGN written");
    assert_eq!(annotated.matches("[%eval ").count(), 7, "{annotated}");
    assert!(annotated.contains("[Event \"review test\"]"), "{annotated}");
    assert!(annotated.contains("1. H2-E2"), "{annotated}");
    // Chinese moves, as a table.
    let cn = record("xq-cn.pgn", "1. 炮二平五 马８进７ 2. 马二进三 *\n");
    let (code, out, err) = qiyi(&["review", "xiangqi", &cn, "--depth", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("judge: qiyi xiangqi engine"), "{out}");
    assert!(out.contains("h0g2"), "{out}");
    // A JSON record with a movetime instead of a depth.
    let json = record("xq.json", r#"{"game":"xiangqi","moves":["h2e2","H8+7"]}"#);
    let (code, out, err) = qiyi(&["--json", "review", "xiangqi", &json, "--movetime", "20"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"played\":\"h9g7\""), "{out}");
}

#[test]
fn bad_xiangqi_reviews_are_clear_errors_with_exit_code_2() {
    let path = record("xq2.pgn", XIANGQI);
    fails(
        &["review", "xiangqi", &path, "--depth", "10000"],
        "depth 10000 is out of range",
    );
    fails(
        &["review", "xiangqi", &path, "--movetime", "0"],
        "at least 1 ms",
    );
    let bad = record("xq-bad.pgn", "1. h2e2 { never closed\n");
    fails(&["review", "xiangqi", &bad], "the PGN does not read");
    let illegal = record("xq-illegal.pgn", "1. h2e2 h9g7 2. h2e2 *\n");
    fails(&["review", "xiangqi", &illegal], "move 3 (h2e2)");
    let checkers = record("xq-checkers.pdn", CHECKERS);
    fails(&["review", "xiangqi", &checkers], "move 1 (10-15)");
    let other = record("xq-other.json", GOOD);
    fails(
        &["review", "xiangqi", &other],
        "is a peg-solitaire game, not xiangqi",
    );
    fails(
        &["review", "xiangqi", &path, "--egdb", "/tmp"],
        "--egdb does not apply to xiangqi",
    );
}

/// A seeded four-player aeroplane game (the `win` player against three `random` ones) as the
/// server exports it: every move and die roll as a text, rolls with `"player": null`.
fn aeroplane_game(seed: u64) -> (usize, String) {
    use qiyi_aeroplane::players::{make_player, PlayerKind};
    use qiyi_aeroplane::{Aero, Rules};
    use qiyi_core::{Game, Notation, Turn};
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let mut players: Vec<_> = [
        PlayerKind::Win,
        PlayerKind::Random,
        PlayerKind::Random,
        PlayerKind::Random,
    ]
    .iter()
    .map(|&k| make_player(k, seed))
    .collect();
    let moves = qiyi_aeroplane::review::seeded_game(&start, &mut players, seed);
    let mut pos = start;
    let mut entries = Vec::new();
    for (i, &m) in moves.iter().enumerate() {
        let player = match pos.turn() {
            Turn::Player(p) => serde_json::json!(p),
            _ => serde_json::Value::Null,
        };
        entries
            .push(serde_json::json!({"ply": i + 1, "player": player, "text": pos.move_to_text(m)}));
        pos.make(m);
    }
    assert!(pos.is_over(), "the seeded game ends");
    let record = serde_json::json!({
        "format": "qiyi-record", "version": 1, "game": "aeroplane",
        "rules": {"players": 4, "set": "standard", "takeoff": "6", "three_sixes": "send-back",
                  "ending": "first-wins"},
        "position": null, "seed": seed, "moves": entries,
    });
    (moves.len(), record.to_string())
}

#[test]
fn an_aeroplane_record_reviews_with_luck_on_every_roll() {
    let (plies, text) = aeroplane_game(34);
    let path = record("aero.json", &text);
    let (code, out, err) = qiyi(&["review", "aeroplane", &path]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("roll, luck"), "{out}");
    assert!(out.contains("skill"), "{out}");
    let (code, out, err) = qiyi(&["review", "aeroplane", &path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let last = out.lines().last().unwrap_or("");
    let v: serde_json::Value = serde_json::from_str(last).expect("the last line is JSON");
    assert_eq!(v["format"], 1);
    assert_eq!(v["game"], "aeroplane");
    assert_eq!(v["unit"], "turns");
    assert_eq!(v["players"], 4);
    let list = v["plies"].as_array().expect("plies");
    assert_eq!(list.len(), plies);
    let (mut rolls, mut decisions) = (0, 0);
    for p in list {
        match p["kind"].as_str() {
            Some("chance") => {
                assert!(
                    p["played"].as_str().is_some_and(|t| t.starts_with('r')),
                    "{p}"
                );
                assert!(p["luck"].as_f64().is_some(), "{p}");
                assert!(p["class"].is_null(), "{p}");
                rolls += 1;
            }
            Some("decision") => {
                assert!(p["luck"].is_null(), "{p}");
                assert!(p["class"].as_str().is_some(), "{p}");
                decisions += 1;
            }
            other => panic!("kind {other:?}"),
        }
        let sum: f64 = p["wins_before"]
            .as_array()
            .expect("wins")
            .iter()
            .filter_map(serde_json::Value::as_f64)
            .sum();
        assert!((sum - 1.0).abs() < 1e-9, "{p}");
    }
    assert!(
        rolls > 50 && decisions > 20,
        "{rolls} rolls, {decisions} decisions"
    );
    let summary = v["summary"].as_array().expect("summary");
    assert_eq!(summary.len(), 4);
    let winners = summary
        .iter()
        .filter(|s| s["result"].as_f64() == Some(1.0))
        .count();
    assert_eq!(winners, 1);
    for s in summary {
        assert_eq!(s["finished"], true);
        let e = s["identity_error"].as_f64().expect("identity_error");
        assert!(e.abs() < 1e-9, "{s}");
    }
}

#[test]
fn the_crates_own_aeroplane_record_reviews_too() {
    use qiyi_aeroplane::players::{make_player, PlayerKind};
    use qiyi_aeroplane::{Aero, Rules};
    let start = Aero::new(Rules::STANDARD, 2).expect("2 players");
    let mut players = vec![
        make_player(PlayerKind::Random, 1),
        make_player(PlayerKind::Heuristic, 2),
    ];
    let rec = qiyi_aeroplane::record::play_game(&start, &mut players, 9);
    let path = record("aero-own.json", &rec.to_json());
    let (code, out, err) = qiyi(&["review", "aeroplane", &path, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    let plies = v["plies"].as_array().map_or(0, Vec::len);
    assert_eq!(plies, rec.rolls.len() + rec.choices.len());
}

#[test]
fn bad_aeroplane_records_are_clear_errors_with_exit_code_2() {
    let not_json = record("aero-bad.json", "{\"game\": \"aeroplane\", ");
    fails(&["review", "aeroplane", &not_json], "not JSON");
    // A 3 cannot take off: no plane moves, the turn passes, and yellow's roll comes next.
    let illegal = record(
        "aero-illegal.json",
        r#"{"game":"aeroplane","rules":{"players":4},"moves":["r3","a"]}"#,
    );
    fails(&["review", "aeroplane", &illegal], "move 2 (a)");
    let other = record(
        "aero-other.json",
        r#"{"game":"peg-solitaire","rules":{"board":"english"},"moves":["d2-d4"]}"#,
    );
    fails(
        &["review", "aeroplane", &other],
        "is a peg-solitaire game, not aeroplane",
    );
    let rules = record(
        "aero-rules.json",
        r#"{"game":"aeroplane","rules":{"players":2,"set":"seed"},"moves":["r6"]}"#,
    );
    fails(&["review", "aeroplane", &rules], "standard rules only");
    let players = record(
        "aero-players.json",
        r#"{"game":"aeroplane","rules":{"players":7},"moves":[]}"#,
    );
    fails(&["review", "aeroplane", &players], "2, 3 or 4 players");
    let own = record(
        "aero-own-bad.json",
        r#"{"rules":{"set":"standard","takeoff":"6","three_sixes":"send-back","ending":"first-wins"},
            "players":2,"seed":1,"rolls":[7],"choices":[],"places":[],"turns":1,"captures":0}"#,
    );
    fails(&["review", "aeroplane", &own], "roll 7 is not 1..=6");
}

/// A game played through the server's own session (its dice), stored in a database and reviewed
/// by `--id`: what `qiyi games export` writes is what the review reads.
#[test]
fn a_stored_aeroplane_game_reviews_by_id() {
    use qiyi_web::session::Seat;
    use qiyi_web::store::{NewGame, Store, StoreConfig};
    let dir = std::env::temp_dir().join(format!("qiyi-review-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let db_path = dir.join("aero-store.db");
    let _ = std::fs::remove_file(&db_path);
    let db_path = db_path.to_string_lossy().into_owned();
    let rules = serde_json::json!({"players": 3});
    let mut session =
        qiyi_web::games::create("aeroplane", &rules, None, 77).expect("an aeroplane session");
    let mut choices = 0;
    while session.player_to_move().is_some() && choices < 5000 {
        let legal = session.legal_texts();
        let text = legal[choices % legal.len()].clone();
        session.play(&text).expect("a legal move");
        choices += 1;
    }
    assert!(session.player_to_move().is_none(), "the game ends");
    let plies = session.history_from(0).len();
    let store = Store::with_db(
        StoreConfig::default(),
        qiyi_web::db::Db::open(&db_path).expect("a database"),
    );
    let created = store
        .insert(NewGame {
            scratch: false,
            session,
            seats: vec![Seat::Human; 3],
            seed: 77,
            rules,
            position: None,
            hotseat: true,
            clock: None,
        })
        .expect("stored");
    drop(store);
    let (code, out, err) = qiyi(&[
        "review",
        "aeroplane",
        "--id",
        &created.id,
        "--db",
        &db_path,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("JSON");
    assert_eq!(v["players"], 3);
    assert_eq!(v["plies"].as_array().map_or(0, Vec::len), plies);
    for s in v["summary"].as_array().expect("summary") {
        assert_eq!(s["finished"], true);
        assert!(s["identity_error"].as_f64().is_some_and(|e| e.abs() < 1e-9));
    }
}

#[test]
fn a_chinese_checkers_game_reviews_with_race_distances() {
    let two = record(
        "cc2.json",
        r#"{"game":"chinese-checkers","rules":{"players":2},"position":null,
  "moves":[{"text":"o1:m5"},{"text":"c1:e5"},{"text":"m5-l5"},{"text":"a1:c1:e7"}]}"#,
    );
    let (code, out, err) = qiyi(&["review", "chinese-checkers", &two, "--depth", "2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("race distances"), "{out}");
    assert!(out.contains("a1:c1:e7"), "{out}");
    let (code, out, err) = qiyi(&["review", "chinese-checkers", &two, "--depth", "2", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("the last line is JSON");
    assert_eq!(v["game"], "chinese-checkers");
    assert_eq!(v["unit"], "holes");
    assert_eq!(v["plies"].as_array().map(Vec::len), Some(4));
    let race = v["race"]["plies"].as_array().expect("race plies");
    assert_eq!(race.len(), 4);
    // Every seat starts 19 to 27 moves from home (the row bound and the proven optimum).
    for p in race {
        let before = p["before"]["moves"].as_u64().expect("moves");
        assert!((19..=27).contains(&before), "{p}");
    }
    let three = record(
        "cc3.json",
        r#"{"game":"chinese-checkers","rules":{"players":3},"moves":["n1-m5"]}"#,
    );
    let (code, out, err) = qiyi(&["review", "chinese-checkers", &three, "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("the last line is JSON");
    assert_eq!(v["players"], 3);
    assert_eq!(v["unit"], "moves");
    fails(
        &["review", "chinese-checkers", &three, "--depth", "3"],
        "race model",
    );
    fails(
        &["review", "chinese-checkers", &two, "--depth", "10000"],
        "depth 10000 is out of range",
    );
    let illegal = record(
        "cc-illegal.json",
        r#"{"game":"chinese-checkers","moves":["n1-m5","n2-m6"]}"#,
    );
    fails(&["review", "chinese-checkers", &illegal], "move 2 (n2-m6)");
    let other = record("cc-other.json", r#"{"game":"aeroplane","moves":[]}"#);
    fails(
        &["review", "chinese-checkers", &other],
        "not chinese-checkers",
    );

    let (code, out, err) = qiyi(&["analyze", "chinese-checkers", "--depth", "2", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("the last line is JSON");
    assert_eq!(v["race"].as_array().map(Vec::len), Some(2));
    assert!(v["bestmove"].is_string(), "{v}");
    assert_eq!(v["depths"].as_array().map(Vec::len), Some(2));
    let (code, out, err) = qiyi(&["analyze", "chinese-checkers", "--players", "6", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("the last line is JSON");
    assert_eq!(v["race"].as_array().map(Vec::len), Some(6));
    let (code, _, err) = qiyi(&["analyze", "chinese-checkers", "--position", "2 10 s"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("qiyi: error: bad --position"), "{err}");
}
