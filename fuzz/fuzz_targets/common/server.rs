//! What the fuzz targets that drive the server in-process share (`web_api`, `sqlite_file`): one
//! tokio runtime per process and one request through the router.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use std::sync::OnceLock;
use tower::ServiceExt;

/// A current-thread runtime, built once per process.
pub fn runtime() -> &'static tokio::runtime::Runtime {
    static RT: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RT.get_or_init(|| {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime")
    })
}

/// Sends `method uri` with an optional bearer `token` and `body` (as JSON when `json`) through
/// `app`; returns the status and the body's bytes, or `None` for a URI that cannot be sent.
pub async fn send(
    app: &axum::Router,
    method: &str,
    uri: &str,
    token: Option<&str>,
    body: Vec<u8>,
    json: bool,
) -> Option<(StatusCode, Vec<u8>)> {
    let mut req = Request::builder().method(method).uri(uri);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {t}"));
    }
    if json {
        req = req.header("content-type", "application/json");
    }
    let req = req.body(Body::from(body)).ok()?;
    let resp = app
        .clone()
        .oneshot(req)
        .await
        .expect("the router always answers");
    let status = resp.status();
    let raw = resp
        .into_body()
        .collect()
        .await
        .expect("the body reads")
        .to_bytes()
        .to_vec();
    Some((status, raw))
}
