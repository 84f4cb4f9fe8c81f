//! Property test: any request body, to any endpoint, gets an answer with a JSON error or a
//! success, never a panic or a 5xx.

use axum::body::Body;
use axum::http::Request;
use http_body_util::BodyExt;
use proptest::prelude::*;
use qiyi_web::api::AppState;
use qiyi_web::store::Store;
use tower::ServiceExt;

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn arbitrary_bodies_never_break_the_api(body in proptest::collection::vec(any::<u8>(), 0..200),
                                            json_text in "\\{\"(game|move|plies|level|position|rules|time_ms)\":[^}]{0,20}\\}",
                                            which in 0usize..6) {
        let rt = runtime();
        rt.block_on(async {
            let app = qiyi_web::router(AppState::new(Store::new(Default::default()), 2));
            let req = Request::builder().method("POST").uri("/api/games")
                .body(Body::from(r#"{"game":"tictactoe","seats":[{"kind":"human"},{"kind":"human"}]}"#)).expect("req");
            let resp = app.clone().oneshot(req).await.expect("resp");
            let bytes = resp.into_body().collect().await.expect("body").to_bytes();
            let v: serde_json::Value = serde_json::from_slice(&bytes).expect("json");
            let id = v["id"].as_str().expect("id").to_string();
            let uris = ["/api/games".to_string(), format!("/api/games/{id}/moves"), format!("/api/games/{id}/ai"),
                        format!("/api/games/{id}/undo"), format!("/api/games/{id}/position"), format!("/api/games/{id}/solve")];
            for payload in [body.clone(), json_text.clone().into_bytes()] {
                let req = Request::builder().method("POST").uri(&uris[which])
                    .header("content-type", "application/json")
                    .body(Body::from(payload)).expect("req");
                let resp = app.clone().oneshot(req).await.expect("resp");
                let status = resp.status();
                let bytes = resp.into_body().collect().await.expect("body").to_bytes();
                assert!(!status.is_server_error(), "{status} for {}", uris[which]);
                let v: serde_json::Value = serde_json::from_slice(&bytes).expect("answers are JSON");
                if !status.is_success() {
                    assert!(v["error"].is_string(), "{v}");
                }
            }
        });
    }
}
