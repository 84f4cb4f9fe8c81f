//! The OpenAPI document (generated from the handlers' types by `qiyi_web::openapi`, served at
//! `GET /api/openapi.json`, committed as `crates/web/openapi.json`) cannot drift from the router:
//! every route the code declares is in it with its methods, and every operation it documents
//! reaches a handler (not the API's "no such endpoint" fallback, not 405). The committed file is
//! the generated document (`QIYI_BLESS=1 cargo test -p qiyi-web --test openapi` rewrites it).
//! Error answers, from handlers and from layers alike, share one shape: `{"error", "code"}`.

mod common;

use axum::http::StatusCode;
use common::call;
use qiyi_web::api::{AppState, Limits};
use qiyi_web::store::Store;
use serde_json::Value;
use std::collections::BTreeSet;

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

fn app() -> axum::Router {
    qiyi_web::router(AppState::new(Store::new(Default::default()), 1))
}

fn document() -> Value {
    serde_json::from_str(qiyi_web::openapi::document()).expect("the document is JSON")
}

/// Every `$ref` of `v`, with where it is.
fn refs(v: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => out.push((at.to_string(), r.clone())),
                    _ => refs(x, &format!("{at}/{k}"), out),
                }
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                refs(x, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_reference_resolves() {
    let doc = document();
    let mut found = Vec::new();
    refs(&doc, "", &mut found);
    assert!(found.len() > 50, "too few references: {}", found.len());
    for (at, r) in found {
        let pointer = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("{at}: external {r}"));
        assert!(doc.pointer(pointer).is_some(), "{at}: {r} does not resolve");
    }
}

#[test]
fn optional_bodies_are_objects_not_null() {
    let doc = document();
    for (m, path) in documented() {
        let Some(body) = doc["paths"][&path][&m].get("requestBody") else {
            continue;
        };
        let text = body.to_string();
        assert!(!text.contains("\"null\""), "{m} {path}: {text}");
    }
}

#[test]
fn the_committed_document_is_the_generated_one() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("openapi.json");
    let generated = format!("{}\n", qiyi_web::openapi::document());
    if std::env::var_os("QIYI_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write openapi.json");
    }
    let committed = std::fs::read_to_string(&path).expect("read crates/web/openapi.json");
    assert!(
        committed == generated,
        "crates/web/openapi.json is not the document the code generates; run \
         QIYI_BLESS=1 cargo test -p qiyi-web --test openapi and commit the file"
    );
}

/// `(method, path)` of every operation in the document.
fn documented() -> BTreeSet<(String, String)> {
    let doc = document();
    let paths = doc["paths"].as_object().expect("paths");
    let mut ops = BTreeSet::new();
    for (path, item) in paths {
        for m in METHODS {
            if item.get(m).is_some() {
                ops.insert((m.to_string(), path.clone()));
            }
        }
    }
    ops
}

/// The text of the call that starts at `from` (an opening parenthesis), up to its closing one.
fn call_text(src: &str, from: usize) -> &str {
    let mut depth = 0usize;
    for (i, c) in src[from..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &src[from..from + i + 1];
                }
            }
            _ => {}
        }
    }
    &src[from..]
}

/// `(method, path)` of every `.route("...", ...)` in `src`, paths prefixed with `prefix`. The
/// methods are read from the method router: `get(`, `post(`, `.delete(`..., and `merge(create)`
/// (the rate-limited `POST /api/games`).
fn declared(src: &str, prefix: &str) -> BTreeSet<(String, String)> {
    let mut out = BTreeSet::new();
    for (at, _) in src.match_indices(".route(") {
        let text = call_text(src, at + ".route".len());
        let Some(start) = text.find('"') else {
            continue;
        };
        let Some(len) = text[start + 1..].find('"') else {
            continue;
        };
        let path = &text[start + 1..start + 1 + len];
        let rest = &text[start + 2 + len..];
        let full = format!("{prefix}{path}");
        let mut found = false;
        for m in METHODS {
            let called = rest.match_indices(&format!("{m}(")).any(|(i, _)| {
                i == 0 || !rest[..i].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            if called {
                out.insert((m.to_string(), full.clone()));
                found = true;
            }
        }
        if rest.contains("merge(create)") {
            out.insert(("post".to_string(), full.clone()));
            found = true;
        }
        assert!(found, "no method read from the route {full}: {text}");
    }
    out
}

#[test]
fn the_document_is_openapi_3_with_the_error_shape() {
    let doc = document();
    assert!(doc["openapi"].as_str().expect("openapi").starts_with("3."));
    let error = &doc["components"]["schemas"]["Error"];
    let required: Vec<&str> = error["required"]
        .as_array()
        .expect("required")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(required, ["error", "code"]);
    // Every operation documents its success and at least one error with the shared shape.
    for (m, path) in documented() {
        let responses = doc["paths"][&path][&m]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{m} {path} has no responses"));
        assert!(
            responses.keys().any(|s| s.starts_with('2')),
            "{m} {path}: no success status"
        );
        if path != "/api/openapi.json" {
            assert!(
                responses.keys().any(|s| s.starts_with('4')),
                "{m} {path}: no error status"
            );
        }
    }
}

#[test]
fn every_route_of_the_router_is_documented() {
    let mut routes = declared(include_str!("../src/api.rs"), "/api");
    // Routes added at the top level under /api (not through `api::routes`).
    routes.extend(
        declared(include_str!("../src/lib.rs"), "")
            .into_iter()
            .filter(|(_, p)| p.starts_with("/api")),
    );
    assert!(
        routes.len() >= 17,
        "the route scan found too few routes: {routes:?}"
    );
    let documented = documented();
    let missing: Vec<_> = routes.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "routes missing from crates/web/openapi.json: {missing:?}"
    );
    let extra: Vec<_> = documented.difference(&routes).collect();
    assert!(
        extra.is_empty(),
        "operations in crates/web/openapi.json the router does not declare: {extra:?}"
    );
}

#[tokio::test]
async fn every_documented_operation_reaches_a_handler() {
    let app = app();
    for (m, path) in documented() {
        // A game id that does not exist: a real handler says "no game with id", the fallback
        // says "no such API endpoint", a missing method is 405.
        let uri = path
            .replace("{id}", "0123456789abcdef")
            .replace("{game}", "xiangqi");
        let body = if m == "get" || m == "delete" {
            ""
        } else {
            "{}"
        };
        let (status, v) = call(&app, &m.to_uppercase(), &uri, None, body).await;
        assert_ne!(
            status,
            StatusCode::METHOD_NOT_ALLOWED,
            "{m} {path}: 405 {v}"
        );
        let said = v["error"].as_str().unwrap_or("");
        assert!(
            !said.contains("no such API endpoint"),
            "{m} {path} is documented but has no route: {v}"
        );
        assert!(!status.is_server_error(), "{m} {path}: {status} {v}");
    }
}

#[tokio::test]
async fn the_document_is_served() {
    let (status, v) = call(&app(), "GET", "/api/openapi.json", None, "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(v, document());
}

#[tokio::test]
async fn every_error_has_the_same_shape_handlers_and_layers_alike() {
    let limits = Limits {
        max_body: 64,
        ..Limits::default()
    };
    let app = qiyi_web::router(AppState::with_limits(
        Store::new(Default::default()),
        1,
        limits,
    ));
    let cases = [
        // A handler's error.
        (
            "POST",
            "/api/games",
            "{\"game\":\"go\"}",
            StatusCode::BAD_REQUEST,
        ),
        ("GET", "/api/games/nope", "", StatusCode::NOT_FOUND),
        // The API's fallback.
        ("GET", "/api/nothing-here", "", StatusCode::NOT_FOUND),
        // Layers: body limit and method router.
        (
            "POST",
            "/api/games",
            &format!(
                "{{\"game\":\"xiangqi\",\"position\":\"{}\"}}",
                "x".repeat(100)
            ),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        ("PUT", "/api/games", "", StatusCode::METHOD_NOT_ALLOWED),
    ];
    let codes: BTreeSet<String> = document()["components"]["schemas"]["ErrorCode"]["enum"]
        .as_array()
        .expect("codes")
        .iter()
        .filter_map(|c| c.as_str().map(String::from))
        .collect();
    for (method, uri, body, want) in cases {
        let (status, v) = call(&app, method, uri, None, body).await;
        assert_eq!(status, want, "{method} {uri}: {v}");
        let obj = v.as_object().expect("a JSON object");
        assert!(obj["error"].is_string(), "{method} {uri}: {v}");
        let code = obj["code"].as_str().expect("a code");
        assert!(
            codes.contains(code),
            "{method} {uri}: code {code} not in the document"
        );
        assert_eq!(obj.len(), 2, "{method} {uri}: {v}");
    }
}

/// A hot-seat game of `game` with one move played, its id and token.
async fn game_with_a_move(app: &axum::Router, game: &str) -> (String, String) {
    let (status, v) = call(
        app,
        "POST",
        "/api/games",
        None,
        &format!("{{\"game\":\"{game}\",\"hotseat\":true}}"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["hotseat_token"].as_str().expect("token").to_string();
    let mv = v["state"]["legal"][0]["text"]
        .as_str()
        .expect("a legal move");
    let (status, v) = call(
        app,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(&token),
        &format!("{{\"move\":\"{mv}\"}}"),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    (id, token)
}

/// Found by schemathesis: `GET /export?moves=garbage` was answered 200 for games other than
/// Xiangqi (the value was only read for Xiangqi); the document allows `iccs` and `wxf` only.
#[tokio::test]
async fn export_refuses_an_unknown_move_notation_for_every_game() {
    let app = app();
    for game in ["xiangqi", "checkers", "aeroplane", "peg-solitaire"] {
        let (id, _) = game_with_a_move(&app, game).await;
        let (status, v) = call(
            &app,
            "GET",
            &format!("/api/games/{id}/export?moves=%F3%97%A0%93"),
            None,
            "",
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{game}: {v}");
        assert_eq!(v["code"], "bad_request", "{game}: {v}");
        for ok in ["iccs", "wxf"] {
            let (status, v) = call(
                &app,
                "GET",
                &format!("/api/games/{id}/export?moves={ok}"),
                None,
                "",
            )
            .await;
            assert_eq!(status, StatusCode::OK, "{game} {ok}: {v}");
        }
    }
}

/// The `enum` of a schema in the document's components.
fn component_enum(doc: &Value, name: &str) -> Vec<String> {
    doc["components"]["schemas"][name]["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("{name} has no enum"))
        .iter()
        .map(|v| v.as_str().expect("a name").to_string())
        .collect()
}

/// The game names the document offers are exactly the ones the server starts (its catalog) and
/// analyses (`ANALYSED`), so a schema-valid name is never `unknown_game`.
#[test]
fn the_game_enums_are_the_games_the_server_knows() {
    let doc = document();
    let catalog: Vec<String> = qiyi_web::games::catalog()
        .iter()
        .map(|c| c.game.to_string())
        .collect();
    assert_eq!(component_enum(&doc, "GameName"), catalog);
    let analysed: Vec<String> = qiyi_web::analysis::ANALYSED
        .iter()
        .map(|g| g.to_string())
        .collect();
    assert_eq!(component_enum(&doc, "AnalysedGame"), analysed);
    let create = &doc["components"]["schemas"]["CreateGame"]["properties"]["game"]["$ref"];
    assert_eq!(create, "#/components/schemas/GameName");
}

/// JSON Schema counts `5.0` as the integer 5: the server reads it as 5 where the document says
/// `integer`, and still refuses a fraction.
#[tokio::test]
async fn whole_numbers_written_with_a_fraction_of_zero_are_integers() {
    let app = app();
    let (status, created) = call(
        &app,
        "POST",
        "/api/games",
        None,
        r#"{"game": "checkers", "level": 5.0, "seed": 7.0, "seats": [{"kind": "human"}, {"kind": "ai", "level": 2.0}]}"#,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["state"]["seed"], 7);
    assert_eq!(created["state"]["seats"][1]["level"], 2);
    let (status, refused) = call(
        &app,
        "POST",
        "/api/games",
        None,
        r#"{"game": "checkers", "level": 5.5}"#,
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert_eq!(refused["code"], "bad_request");
    let id = created["id"].as_str().expect("id");
    let (status, state) = call(&app, "GET", &format!("/api/games/{id}?ply=0.0"), None, "").await;
    assert_eq!(status, StatusCode::OK, "{state}");
    let (status, _) = call(&app, "GET", &format!("/api/games/{id}?ply=0.5"), None, "").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}
