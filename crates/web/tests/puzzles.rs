//! The puzzle API (`/api/puzzles/...`): every shipped puzzle plays through the server's own games,
//! the set's themes, the next puzzle by theme and never the one just played, the puzzle of the
//! day, an attempt moving both Glicko-2 ratings (first attempt only) with the player's cookie,
//! and bad input answered 4xx with the error shape.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use qiyi_web::api::AppState;
use qiyi_web::store::Store;
use serde_json::{json, Value};
use tower::ServiceExt;

fn app() -> axum::Router {
    qiyi_web::router(AppState::new(Store::new(Default::default()), 1))
}

/// One request with an optional player cookie; the status, the JSON answer and the
/// `Set-Cookie` header.
async fn call(
    app: &axum::Router,
    method: &str,
    uri: &str,
    cookie: Option<&str>,
    body: &str,
) -> (StatusCode, Value, Option<String>) {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(c) = cookie {
        req = req.header(header::COOKIE, c);
    }
    let req = req.body(Body::from(body.to_string())).expect("request");
    let resp = app.clone().oneshot(req).await.expect("response");
    let status = resp.status();
    let set_cookie = resp
        .headers()
        .get(header::SET_COOKIE)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let v = serde_json::from_slice(&bytes)
        .unwrap_or_else(|_| json!({ "raw": String::from_utf8_lossy(&bytes).to_string() }));
    (status, v, set_cookie)
}

#[test]
fn every_shipped_puzzle_plays_through_the_servers_games() {
    let mut total = 0;
    for game in qiyi_web::puzzles::GAMES {
        let set = qiyi_web::puzzles::set(game).expect("the set parses");
        assert!(!set.puzzles.is_empty(), "{game}");
        for p in &set.puzzles {
            let steps = qiyi_web::puzzles::steps(p).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert_eq!(steps.len(), p.solution.len() + 1, "{}", p.id);
            for &i in &p.asked {
                let s = &steps[i];
                assert!(
                    s.legal.iter().any(|m| m.text == p.solution[i]),
                    "{} step {i}: {} is not among the legal moves",
                    p.id,
                    p.solution[i]
                );
            }
            total += 1;
        }
    }
    assert_eq!(total, 1282 + 1501 + 219 + 220 + 331);
}

#[tokio::test]
async fn the_set_lists_its_themes_and_size() {
    let app = app();
    let (status, v, _) = call(&app, "GET", "/api/puzzles/xiangqi", None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["total"], 1282);
    assert_eq!(v["game"], "xiangqi");
    let themes = v["themes"].as_array().expect("themes");
    assert!(themes.iter().any(|t| t["theme"] == "mate-in-1"), "{v}");
    assert!(themes.iter().all(|t| t["count"].as_u64().unwrap_or(0) >= 1));
    assert_eq!(v["player"]["rating"], 1500.0);
    assert_eq!(v["attempted"], 0);
    // The old alias of peg solitaire works too.
    let (status, v, _) = call(&app, "GET", "/api/puzzles/peg", None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["total"], 220);
}

#[tokio::test]
async fn one_puzzle_with_its_steps() {
    let app = app();
    let (status, v, _) = call(&app, "GET", "/api/puzzles/xiangqi/xq-1-0-269", None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        v["solution"],
        json!(["d2e2", "i3a3", "e2f2", "a3i3", "f2f1"])
    );
    assert_eq!(v["asked"], json!([0, 2, 4]));
    let steps = v["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 6);
    assert_eq!(steps[0]["turn"], json!({"kind": "player", "player": 1}));
    assert_eq!(steps[5]["turn"]["kind"], "over");
    // Chinese checkers: the same player moves at every step.
    let (_, cc, _) = call(
        &app,
        "GET",
        "/api/puzzles/chinese-checkers/cc-1-0-93",
        None,
        "",
    )
    .await;
    let steps = cc["steps"].as_array().expect("steps");
    assert_eq!(steps.len(), 7, "{cc}");
    for s in &steps[..6] {
        assert_eq!(s["turn"], json!({"kind": "player", "player": 1}), "{s}");
    }
}

#[tokio::test]
async fn an_aeroplane_puzzle_asks_for_a_plane_and_carries_every_choices_chance() {
    let app = app();
    let (status, v, _) = call(&app, "GET", "/api/puzzles/aeroplane/aero-1-3-198", None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["solution"], json!(["c"]));
    assert_eq!(v["asked"], json!([0]));
    let first = &v["steps"][0];
    assert_eq!(
        first["turn"],
        json!({"kind": "player", "player": 1}),
        "{first}"
    );
    assert_eq!(first["view"]["roll"], 3, "{first}");
    let legal: Vec<&str> = first["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter_map(|m| m["text"].as_str())
        .collect();
    assert!(legal.contains(&"c") && legal.contains(&"b"), "{legal:?}");
    assert_eq!(
        v["chances"],
        json!({"b": 0.085141967856, "c": 0.143025552010})
    );
    // Every shipped aeroplane puzzle: its answer is the choice with the best chance.
    let set = qiyi_web::puzzles::set("aeroplane").expect("the set");
    for p in &set.puzzles {
        let c = qiyi_web::puzzles::chances(p).unwrap_or_else(|| panic!("{}: no chances", p.id));
        let best = c
            .iter()
            .max_by(|a, b| a.1.total_cmp(b.1))
            .map(|(k, _)| k.clone());
        assert_eq!(best.as_deref(), Some(p.solution[0].as_str()), "{}", p.id);
    }
    // Other games carry none.
    let (_, x, _) = call(&app, "GET", "/api/puzzles/xiangqi/xq-1-0-269", None, "").await;
    assert!(x.get("chances").is_none(), "{x}");
    let (status, s, _) = call(&app, "GET", "/api/puzzles/aeroplane", None, "").await;
    assert_eq!(status, StatusCode::OK, "{s}");
    assert_eq!(s["total"], 331);
}

/// The first legal move at `step` of the puzzle that is not the solution's.
fn a_wrong_move(v: &Value, step: usize) -> String {
    let want = v["solution"][step].as_str().expect("solution");
    v["steps"][step]["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .filter_map(|m| m["text"].as_str())
        .find(|t| *t != want)
        .expect("another legal move")
        .to_string()
}

async fn refute(app: &axum::Router, game: &str, id: &str, step: usize, mv: &str) -> Value {
    let body = json!({ "step": step, "move": mv }).to_string();
    let uri = format!("/api/puzzles/{game}/{id}/refute");
    let (status, v, _) = call(app, "POST", &uri, None, &body).await;
    assert_eq!(status, StatusCode::OK, "{game} {id} {mv}: {v}");
    v
}

#[tokio::test]
async fn a_wrong_xiangqi_move_is_refuted_by_a_reply_that_escapes_the_mate() {
    let app = app();
    let (_, v, _) = call(&app, "GET", "/api/puzzles/xiangqi/xq-1-0-269", None, "").await;
    let wrong = a_wrong_move(&v, 0);
    let r = refute(&app, "xiangqi", "xq-1-0-269", 0, &wrong).await;
    assert_eq!(r["right"], false, "{r}");
    assert_eq!(r["kind"], "reply", "{r}");
    assert_eq!(r["moves_left"], 3, "{r}");
    let reply = r["reply"].as_str().expect("a reply");
    let states = r["states"].as_array().expect("states");
    assert_eq!(states.len(), 2, "{r}");
    assert!(
        states[0]["legal"]
            .as_array()
            .expect("legal")
            .iter()
            .any(|m| m["text"] == reply),
        "{r}"
    );
    // Checked apart from the server: after the reply the attacker has no mate in the 2 moves left.
    let fen = states[1]["position"].as_str().expect("position");
    let mut pos = qiyi_xiangqi::Position::from_fen(fen)
        .expect("FEN")
        .played_on();
    let mut search = qiyi_xiangqi::puzzles::MateSearch::new(50_000_000);
    assert_eq!(search.wins_within(&mut pos, 2), Ok(false), "{fen}");
    // The solution's move is right.
    let r = refute(&app, "xiangqi", "xq-1-0-269", 0, "d2e2").await;
    assert_eq!(r["right"], true, "{r}");
    assert_eq!(r["kind"], "right", "{r}");
}

#[tokio::test]
async fn a_wrong_move_of_a_xiangqi_material_puzzle_is_refuted_by_the_engines_reply() {
    let app = app();
    let set = qiyi_web::puzzles::set("xiangqi").expect("the set parses");
    let id = set
        .puzzles
        .iter()
        .find(|p| p.id.starts_with("xqm-"))
        .expect("a material puzzle")
        .id
        .clone();
    let (_, v, _) = call(&app, "GET", &format!("/api/puzzles/xiangqi/{id}"), None, "").await;
    assert_eq!(v["asked"], json!([0]), "{v}");
    let wrong = a_wrong_move(&v, 0);
    let r = refute(&app, "xiangqi", &id, 0, &wrong).await;
    assert_eq!(r["right"], false, "{r}");
    assert_eq!(r["kind"], "reply", "{r}");
    assert_eq!(r["by"], "engine", "{r}");
    assert_eq!(r["states"].as_array().expect("states").len(), 2, "{r}");
    let right = v["solution"][0].as_str().expect("a move").to_string();
    let r = refute(&app, "xiangqi", &id, 0, &right).await;
    assert_eq!(r["right"], true, "{r}");
}

#[tokio::test]
async fn wrong_moves_of_the_other_games_say_what_they_allow() {
    let app = app();
    // Checkers: the reply of the shot search, played on the board after the move.
    let (_, v, _) = call(&app, "GET", "/api/puzzles/checkers/ck-1-0-43", None, "").await;
    let wrong = a_wrong_move(&v, 0);
    let r = refute(&app, "checkers", "ck-1-0-43", 0, &wrong).await;
    assert_eq!(r["kind"], "reply", "{r}");
    assert_eq!(r["states"].as_array().map(Vec::len), Some(2), "{r}");
    assert_eq!(r["by"], "search", "{r}");
    // Peg solitaire: no finish after the move (the solver's proof).
    let (_, v, _) = call(&app, "GET", "/api/puzzles/peg-solitaire/next", None, "").await;
    let id = v["id"].as_str().expect("id");
    let wrong = a_wrong_move(&v, 0);
    let r = refute(&app, "peg-solitaire", id, 0, &wrong).await;
    assert_eq!(r["kind"], "no-finish", "{r}");
    // Chinese checkers: home no longer within the moves left.
    let (_, v, _) = call(
        &app,
        "GET",
        "/api/puzzles/chinese-checkers/cc-1-0-93",
        None,
        "",
    )
    .await;
    let wrong = a_wrong_move(&v, 0);
    let r = refute(&app, "chinese-checkers", "cc-1-0-93", 0, &wrong).await;
    assert_eq!(r["kind"], "too-slow", "{r}");
    assert_eq!(r["moves_left"], 6, "{r}");
    // Aeroplane: the plane's exact win chance against the best one's.
    let r = refute(&app, "aeroplane", "aero-1-3-198", 0, "b").await;
    assert_eq!(r["kind"], "chance", "{r}");
    assert_eq!(r["chance"], 0.085141967856, "{r}");
    assert_eq!(r["best_chance"], 0.143025552010, "{r}");
    let r = refute(&app, "aeroplane", "aero-1-3-198", 0, "c").await;
    assert_eq!(r["right"], true, "{r}");
    // Bad requests: a step not asked, a move not legal, a step past the line, a bad body.
    let uri = "/api/puzzles/xiangqi/xq-1-0-269/refute";
    for body in [
        r#"{"step": 1, "move": "i3a3"}"#,
        r#"{"step": 0, "move": "a0a9"}"#,
        r#"{"step": 99, "move": "d2e2"}"#,
        r#"{"step": 0}"#,
        r#"{"step": -1, "move": "d2e2"}"#,
        "[0]",
    ] {
        let (status, v, _) = call(&app, "POST", uri, None, body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {v}");
        assert_eq!(v["code"], "bad_request", "{body}: {v}");
    }
    let (status, v, _) = call(
        &app,
        "POST",
        "/api/puzzles/xiangqi/nope/refute",
        None,
        r#"{"step": 0, "move": "d2e2"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{v}");
}

#[tokio::test]
async fn next_keeps_to_the_theme_and_never_repeats_the_one_just_played() {
    let app = app();
    let (_, summary, _) = call(&app, "GET", "/api/puzzles/checkers", None, "").await;
    let themes = summary["themes"].as_array().expect("themes");
    // The rarest theme with at least two puzzles.
    let rare = themes
        .iter()
        .filter(|t| t["count"].as_u64().unwrap_or(0) >= 2)
        .min_by_key(|t| t["count"].as_u64().unwrap_or(0))
        .expect("a theme");
    let theme = rare["theme"].as_str().expect("name");
    let mut after = String::new();
    for _ in 0..8 {
        let uri = format!("/api/puzzles/checkers/next?theme={theme}&after={after}");
        let (status, v, _) = call(&app, "GET", &uri, None, "").await;
        assert_eq!(status, StatusCode::OK, "{v}");
        let themes = v["themes"].as_array().expect("themes");
        assert!(themes.iter().any(|t| t == theme), "{theme}: {v}");
        let id = v["id"].as_str().expect("id").to_string();
        assert_ne!(id, after, "the puzzle just played came again");
        after = id;
    }
    // Without a theme: any puzzle of the game.
    let (status, v, _) = call(&app, "GET", "/api/puzzles/peg-solitaire/next", None, "").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["game"], "peg-solitaire");
}

#[tokio::test]
async fn the_daily_puzzle_is_the_same_all_day() {
    let app = app();
    let (status, a, _) = call(&app, "GET", "/api/puzzles/xiangqi/daily", None, "").await;
    assert_eq!(status, StatusCode::OK, "{a}");
    let (_, b, _) = call(&app, "GET", "/api/puzzles/xiangqi/daily", None, "").await;
    let (_, summary, _) = call(&app, "GET", "/api/puzzles/xiangqi", None, "").await;
    assert_eq!(a["id"], b["id"]);
    assert_eq!(a["id"], summary["daily"]);
    let date = a["daily"].as_str().expect("the date");
    assert_eq!(date.len(), 10, "{date}");
    // Each game has its own.
    let (status, c, _) = call(&app, "GET", "/api/puzzles/checkers/daily", None, "").await;
    assert_eq!(status, StatusCode::OK, "{c}");
    assert_eq!(c["game"], "checkers");
}

#[tokio::test]
async fn an_attempt_moves_both_ratings_once_and_names_the_player() {
    let app = app();
    let uri = "/api/puzzles/xiangqi/xq-1-0-269/attempt";
    let (status, v, set) = call(&app, "POST", uri, None, r#"{"solved": true}"#).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let set = set.expect("a new player gets a cookie");
    assert!(
        set.starts_with("qiyi_player=") && set.contains("HttpOnly"),
        "{set}"
    );
    let cookie = set.split(';').next().expect("name=value").to_string();
    assert_eq!(v["rated"], true);
    assert_eq!(v["score"], 1.0);
    let f = |x: &Value| x.as_f64().expect("a number");
    assert!(
        f(&v["player"]["rating"]) > f(&v["player_before"]["rating"]),
        "{v}"
    );
    assert!(
        f(&v["player"]["deviation"]) < f(&v["player_before"]["deviation"]),
        "{v}"
    );
    assert!(
        f(&v["puzzle"]["rating"]) < f(&v["puzzle_before"]["rating"]),
        "{v}"
    );
    assert_eq!(f(&v["puzzle_before"]["rating"]), 1770.0);
    // The player is known by the cookie: the rating and the attempt are kept.
    let (_, summary, _) = call(&app, "GET", "/api/puzzles/xiangqi", Some(&cookie), "").await;
    assert_eq!(summary["player"], v["player"]);
    assert_eq!(summary["attempted"], 1);
    let (_, p, _) = call(&app, "GET", "/api/puzzles/xiangqi/xq-1-0-269", None, "").await;
    assert_eq!(p["rating"], v["puzzle"]);
    // A second attempt at the same puzzle is recorded but moves nothing.
    let (status, again, set) = call(
        &app,
        "POST",
        uri,
        Some(&cookie),
        r#"{"solved": false, "hinted": true}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{again}");
    assert!(set.is_none(), "a known player keeps its cookie");
    assert_eq!(again["rated"], false);
    assert_eq!(again["player"], v["player"]);
    // A failure at another puzzle lowers the player and raises the puzzle.
    let (_, fail, _) = call(
        &app,
        "POST",
        "/api/puzzles/xiangqi/xq-1-0-271/attempt",
        Some(&cookie),
        r#"{"solved": false}"#,
    )
    .await;
    assert_eq!(fail["score"], 0.0);
    assert!(
        f(&fail["player"]["rating"]) < f(&v["player"]["rating"]),
        "{fail}"
    );
    assert!(
        f(&fail["puzzle"]["rating"]) > f(&fail["puzzle_before"]["rating"]),
        "{fail}"
    );
    // A hinted solve counts half.
    let (_, half, _) = call(
        &app,
        "POST",
        "/api/puzzles/checkers/ck-1-0-43/attempt",
        Some(&cookie),
        r#"{"solved": true, "hinted": true}"#,
    )
    .await;
    assert_eq!(half["score"], 0.5, "{half}");
    // Ratings are per game: the checkers rating started at 1500.
    assert_eq!(half["player_before"]["rating"], 1500.0);
}

#[tokio::test]
async fn next_skips_puzzles_the_player_attempted() {
    let app = app();
    let (_, summary, _) = call(&app, "GET", "/api/puzzles/chinese-checkers", None, "").await;
    let themes = summary["themes"].as_array().expect("themes");
    let two = themes
        .iter()
        .find(|t| t["count"] == 2)
        .or_else(|| themes.iter().find(|t| t["count"] == 3));
    let Some(two) = two else {
        return;
    };
    let theme = two["theme"].as_str().expect("name");
    let uri = format!("/api/puzzles/chinese-checkers/next?theme={theme}");
    let (_, first, _) = call(&app, "GET", &uri, None, "").await;
    let id = first["id"].as_str().expect("id");
    let (_, _, set) = call(
        &app,
        "POST",
        &format!("/api/puzzles/chinese-checkers/{id}/attempt"),
        None,
        r#"{"solved": true}"#,
    )
    .await;
    let cookie = set.expect("cookie");
    let cookie = cookie.split(';').next().expect("name=value");
    for _ in 0..6 {
        let (_, v, _) = call(&app, "GET", &uri, Some(cookie), "").await;
        assert_ne!(
            v["id"].as_str(),
            Some(id),
            "an attempted puzzle came again: {v}"
        );
    }
}

#[tokio::test]
async fn bad_input_is_a_clear_4xx() {
    let app = app();
    let cases: [(&str, &str, &str, StatusCode, &str); 12] = [
        (
            "GET",
            "/api/puzzles/go",
            "",
            StatusCode::BAD_REQUEST,
            "unknown_game",
        ),
        (
            "GET",
            "/api/puzzles/tictactoe/next",
            "",
            StatusCode::BAD_REQUEST,
            "unknown_game",
        ),
        (
            "GET",
            "/api/puzzles/xiangqi/nope",
            "",
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            "GET",
            "/api/puzzles/xiangqi/next?theme=flying",
            "",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "GET",
            "/api/puzzles/xiangqi/next?colour=red",
            "",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "POST",
            "/api/puzzles/xiangqi/nope/attempt",
            r#"{"solved":true}"#,
            StatusCode::NOT_FOUND,
            "not_found",
        ),
        (
            "POST",
            "/api/puzzles/nim/x/attempt",
            r#"{"solved":true}"#,
            StatusCode::BAD_REQUEST,
            "unknown_game",
        ),
        (
            "POST",
            "/api/puzzles/xiangqi/xq-1-0-269/attempt",
            "{}",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "POST",
            "/api/puzzles/xiangqi/xq-1-0-269/attempt",
            r#"{"solved":"yes"}"#,
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "POST",
            "/api/puzzles/xiangqi/xq-1-0-269/attempt",
            r#"{"solved":true,"score":9}"#,
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "POST",
            "/api/puzzles/xiangqi/xq-1-0-269/attempt",
            "[1]",
            StatusCode::BAD_REQUEST,
            "bad_request",
        ),
        (
            "DELETE",
            "/api/puzzles/xiangqi/xq-1-0-269",
            "",
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
        ),
    ];
    for (method, uri, body, want, code) in cases {
        let (status, v, _) = call(&app, method, uri, None, body).await;
        assert_eq!(status, want, "{method} {uri}: {v}");
        assert_eq!(v["code"], code, "{method} {uri}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    // A malformed cookie is no player (and gets a fresh one).
    let (status, _, set) = call(
        &app,
        "POST",
        "/api/puzzles/xiangqi/xq-1-0-269/attempt",
        Some("qiyi_player=<script>"),
        r#"{"solved":true}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(set.is_some());
}

#[tokio::test]
async fn the_puzzle_page_is_served() {
    let app = app();
    for path in [
        "/puzzles/xiangqi",
        "/puzzles/checkers",
        "/puzzles/peg",
        "/puzzles/aeroplane",
    ] {
        let req = Request::builder()
            .uri(path)
            .body(Body::empty())
            .expect("request");
        let resp = app.clone().oneshot(req).await.expect("response");
        assert!(
            resp.status() == StatusCode::OK || resp.status().is_redirection(),
            "{path}: {}",
            resp.status()
        );
    }
}

/// The document's enum of games with puzzles is the server's list, so a schema-valid game name is
/// never `unknown_game`.
#[test]
fn the_documents_puzzle_games_are_the_sets() {
    let doc: Value = serde_json::from_str(qiyi_web::openapi::document()).expect("JSON");
    let names: Vec<&str> = doc["components"]["schemas"]["PuzzleGameName"]["enum"]
        .as_array()
        .expect("an enum")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(names, qiyi_web::puzzles::GAMES);
    let param = &doc["paths"]["/api/puzzles/{game}"]["get"]["parameters"][0];
    assert_eq!(
        param["schema"]["$ref"], "#/components/schemas/PuzzleGameName",
        "{param}"
    );
}
