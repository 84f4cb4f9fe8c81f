//! The analysis board's stream, `GET /api/analyse`: the lines of every game as events, the
//! `done` event, bad requests refused with 4xx JSON before streaming, the limit of analyses at
//! once (503 `busy`), the time cap, and a dropped stream freeing its slot.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::call;
use http_body_util::BodyExt;
use qiyi_web::analysis_http::AnalysisLimits;
use qiyi_web::api::AppState;
use qiyi_web::store::{Store, StoreConfig};
use serde_json::Value;
use std::time::Duration;
use tower::ServiceExt;

const XQ_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
const CK_START: &str = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

fn app(limits: AnalysisLimits) -> (AppState, axum::Router) {
    let state = AppState::new(Store::new(StoreConfig::default()), 2).with_analysis_limits(limits);
    (state.clone(), qiyi_web::router(state))
}

fn url(game: &str, position: &str, extra: &str) -> String {
    let mut q = String::new();
    for b in position.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            q.push(b as char);
        } else {
            q.push_str(&format!("%{b:02X}"));
        }
    }
    format!("/api/analyse?game={game}&position={q}{extra}")
}

/// The events of a finished stream: (name, data).
fn parse_events(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut name = String::from("message");
        let mut data = String::new();
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event:") {
                name = n.trim().to_string();
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.trim_start());
            }
        }
        if !data.is_empty() {
            let v = serde_json::from_str(&data).unwrap_or_else(|e| panic!("{data}: {e}"));
            out.push((name, v));
        }
    }
    out
}

/// Requests `uri` and reads the whole stream.
async fn stream(app: &axum::Router, uri: &str) -> (StatusCode, String, Vec<(String, Value)>) {
    let req = Request::builder().uri(uri).body(Body::empty()).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let kind = resp
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap_or("").to_string())
        .unwrap_or_default();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).to_string();
    (status, kind, parse_events(&text))
}

#[tokio::test]
async fn xiangqi_streams_every_line_of_every_depth_then_done() {
    let (_, app) = app(AnalysisLimits::default());
    let (status, kind, events) =
        stream(&app, &url("xiangqi", XQ_START, "&multipv=3&max_depth=4")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(kind.starts_with("text/event-stream"), "{kind}");
    let (last, lines) = events.split_last().expect("events");
    assert_eq!(last.0, "done");
    assert_eq!(last.1["reason"], "depth");
    assert_eq!(lines.len(), 12, "{lines:?}");
    let mut depth = 0;
    for (i, (name, l)) in lines.iter().enumerate() {
        assert_eq!(name, "line");
        assert_eq!(l["kind"], "search");
        let d = l["depth"].as_u64().unwrap();
        assert!(d >= depth, "depths never go down");
        depth = d;
        assert_eq!(d, i as u64 / 3 + 1);
        assert_eq!(l["multipv"], i as u64 % 3 + 1);
        assert!(
            l["score"]["cp"].is_i64() || l["score"]["mate"].is_i64(),
            "{l}"
        );
        let w = l["win_chance"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&w));
        assert!(!l["pv"].as_array().unwrap().is_empty());
        assert_eq!(
            l["pv_text"].as_array().unwrap().len(),
            l["pv"].as_array().unwrap().len()
        );
        for key in ["seldepth", "nodes", "nps", "time_ms"] {
            assert!(l[key].is_u64(), "{key} in {l}");
        }
    }
    assert_eq!(depth, 4);
}

#[tokio::test]
async fn every_game_has_its_kind_of_line() {
    let (_, app) = app(AnalysisLimits::default());
    // Checkers: multi-PV, 2 lines.
    let (_, _, events) = stream(&app, &url("checkers", CK_START, "&multipv=2&max_depth=3")).await;
    let lines: Vec<_> = events.iter().filter(|(n, _)| n == "line").collect();
    assert_eq!(lines.len(), 6);
    assert_eq!(lines[5].1["multipv"], 2);
    assert_eq!(events.last().unwrap().1["reason"], "depth");
    // Peg solitaire: exact, one line.
    let peg = "  ooo  /  ooo  /ooooooo/ooo.ooo/ooooooo/  ooo  /  ooo  ";
    let (status, _, events) = stream(&app, &url("peg-solitaire", peg, "")).await;
    assert_eq!(status, StatusCode::OK, "{events:?}");
    assert_eq!(events[0].1["kind"], "pegs");
    assert_eq!(events[0].1["solvable"], true);
    assert_eq!(events[0].1["moves"].as_array().unwrap().len(), 4);
    assert_eq!(events[1].0, "done");
    // Aeroplane: the choices of a 6 at the start (a roll is next there).
    let start = qiyi_aeroplane::Aero::new(qiyi_aeroplane::Rules::default(), 2).unwrap();
    let text = qiyi_core::Notation::to_text(&start);
    let (status, _, events) = stream(&app, &url("aeroplane", &text, "&roll=6")).await;
    assert_eq!(status, StatusCode::OK, "{events:?}");
    assert_eq!(events[0].1["kind"], "choices");
    assert_eq!(events[0].1["roll"], 6);
    let choices = events[0].1["choices"].as_array().unwrap();
    assert!(!choices.is_empty());
    assert_eq!(choices[0]["chances"].as_array().unwrap().len(), 2);
    // Chinese checkers, two players: race distances, then search lines.
    let cc =
        qiyi_chinese_checkers::Position::start(qiyi_chinese_checkers::Options::players(2).unwrap())
            .unwrap();
    let text = qiyi_core::Notation::to_text(&cc);
    let (status, _, events) = stream(&app, &url("chinese-checkers", &text, "&max_depth=2")).await;
    assert_eq!(status, StatusCode::OK, "{events:?}");
    assert_eq!(events[0].1["kind"], "race");
    assert_eq!(events[0].1["bound"], true);
    // At least the row bound of the start (19), alike for both, neither exact yet.
    let race = &events[0].1["race"];
    assert!(
        race[0].as_u64().is_some_and(|d| d >= 19) && race[0] == race[1],
        "{race}"
    );
    assert_eq!(events[0].1["exact"], serde_json::json!([false, false]));
    assert_eq!(events[1].1["kind"], "search");
    assert_eq!(events[2].1["depth"], 2);
    assert_eq!(events.last().unwrap().0, "done");
}

#[tokio::test]
async fn bad_requests_are_4xx_json_before_any_stream() {
    let (_, app) = app(AnalysisLimits::default());
    let cases = [
        (
            "/api/analyse?game=go&position=x".to_string(),
            400,
            "unknown_game",
        ),
        (url("xiangqi", "not a fen", ""), 400, "bad_request"),
        (url("xiangqi", XQ_START, "&multipv=6"), 400, "bad_request"),
        (url("xiangqi", XQ_START, "&multipv=0"), 400, "bad_request"),
        (url("xiangqi", XQ_START, "&multipv=abc"), 400, "bad_request"),
        (url("xiangqi", XQ_START, "&max_depth=0"), 400, "bad_request"),
        (url("xiangqi", XQ_START, "&colour=red"), 400, "bad_request"),
        ("/api/analyse?game=xiangqi".to_string(), 400, "bad_request"),
        (url("checkers", CK_START, "&roll=3"), 400, "bad_request"),
        // A position where the game is over (White has no piece left).
        (url("checkers", "W:W:B1,2", ""), 409, "conflict"),
    ];
    for (uri, status, code) in cases {
        let (s, v) = call(&app, "GET", &uri, None, "").await;
        assert_eq!(s.as_u16(), status, "{uri}: {v}");
        assert_eq!(v["code"], code, "{uri}: {v}");
        assert!(v["error"].as_str().is_some_and(|e| !e.is_empty()), "{v}");
    }
    let start = qiyi_aeroplane::Aero::new(qiyi_aeroplane::Rules::default(), 4).unwrap();
    let text = qiyi_core::Notation::to_text(&start);
    for (extra, status) in [("", 400), ("&roll=7", 422), ("&roll=0", 422)] {
        let (s, v) = call(&app, "GET", &url("aeroplane", &text, extra), None, "").await;
        assert_eq!(s.as_u16(), status, "{extra}: {v}");
    }
    // A depth of 10,000 is refused with the game's maximum named, before anything runs.
    let peg = "  ooo  /  ooo  /ooooooo/ooo.ooo/ooooooo/  ooo  /  ooo  ";
    for uri in [
        url("peg-solitaire", peg, "&max_depth=10000"),
        url("xiangqi", XQ_START, "&max_depth=10000"),
        url("checkers", CK_START, "&max_depth=41"),
    ] {
        let (s, v) = call(&app, "GET", &uri, None, "").await;
        assert_eq!(s.as_u16(), 400, "{uri}: {v}");
        assert!(
            v["error"].as_str().is_some_and(|e| e.contains("maximum")),
            "{v}"
        );
    }
    // The game's maximum itself is accepted.
    let (s, _, events) = stream(&app, &url("peg-solitaire", peg, "&max_depth=1")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(events.last().unwrap().1["reason"], "depth");
}

#[tokio::test]
async fn the_time_cap_ends_an_analysis_with_limit() {
    let (_, app) = app(AnalysisLimits {
        running: 2,
        time: Duration::from_millis(300),
    });
    let (_, _, events) = stream(&app, &url("xiangqi", XQ_START, "&multipv=1")).await;
    let last = events.last().expect("events");
    assert_eq!(last.0, "done");
    assert_eq!(last.1["reason"], "limit");
    assert!(events.len() > 1, "some depths completed: {events:?}");
}

#[tokio::test]
async fn only_so_many_run_at_once_and_a_dropped_stream_frees_its_slot() {
    let (state, app) = app(AnalysisLimits {
        running: 1,
        time: Duration::from_secs(60),
    });
    // An analysis that runs for a long while (no max_depth: depth 30 of Xiangqi).
    let req = Request::builder()
        .uri(url("xiangqi", XQ_START, "&multipv=1"))
        .body(Body::empty())
        .unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    let mut body = resp.into_body();
    // The first line arrives while it runs.
    let frame = body.frame().await.expect("a frame").expect("data");
    let first = String::from_utf8_lossy(frame.data_ref().expect("bytes")).to_string();
    assert!(first.contains("event: line"), "{first}");
    assert_eq!(state.analyses.running(), 1);
    // A second one is refused while it runs.
    let (s, v) = call(&app, "GET", &url("xiangqi", XQ_START, ""), None, "").await;
    assert_eq!(s, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert_eq!(v["code"], "busy");
    // The page goes away: the search stops and the slot is free again.
    drop(body);
    let mut freed = false;
    for _ in 0..200 {
        if state.analyses.running() == 0 {
            freed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(freed, "the slot was not freed within 10 s of the drop");
    let (s, _, events) = stream(&app, &url("xiangqi", XQ_START, "&multipv=1&max_depth=2")).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(events.last().unwrap().1["reason"], "depth");
}
