//! Hosting: the tower layers that keep a public server healthy (request-body limit, games created
//! per client address per minute), and one JSON shape for every error a layer answers with
//! (`{"error", "code"}`, as the API's own errors).

use crate::api::AppState;
use crate::error::{ErrorBody, ErrorCode};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{header, Request, Response, StatusCode};
use axum::routing::MethodRouter;
use axum::Router;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;
use tower_governor::governor::GovernorConfigBuilder;
use tower_governor::key_extractor::KeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};

/// Rate-limit key: the client's address as the socket saw it (no forwarded headers are trusted);
/// requests without one (in-process tests) share one key.
#[derive(Clone, Copy, Debug)]
pub struct PeerAddress;

impl KeyExtractor for PeerAddress {
    type Key = IpAddr;

    fn extract<T>(&self, req: &Request<T>) -> Result<IpAddr, GovernorError> {
        Ok(req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(a)| a.ip())
            .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED)))
    }
}

/// `route` limited to `per_minute` requests per client address per minute (bursts of that
/// size, refilled evenly); `None` leaves it unlimited. Past the limit: 429.
pub fn rate_limited(
    route: MethodRouter<AppState>,
    per_minute: Option<u32>,
) -> MethodRouter<AppState> {
    let Some(n) = per_minute.filter(|&n| n > 0) else {
        return route;
    };
    let period = Duration::from_millis((60_000 / u64::from(n)).max(1));
    let config = GovernorConfigBuilder::default()
        .period(period)
        .burst_size(n)
        .key_extractor(PeerAddress)
        .finish();
    match config {
        Some(config) => route.layer(GovernorLayer::new(Arc::new(config))),
        None => route,
    }
}

/// The `code` of an error a layer answers with (the API's own errors carry [`ApiError::code`]).
///
/// [`ApiError::code`]: crate::error::ApiError::code
fn code(status: StatusCode) -> ErrorCode {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::TooLarge,
        StatusCode::TOO_MANY_REQUESTS => ErrorCode::RateLimited,
        StatusCode::METHOD_NOT_ALLOWED => ErrorCode::MethodNotAllowed,
        StatusCode::NOT_FOUND => ErrorCode::NotFound,
        s if s.is_server_error() => ErrorCode::Internal,
        _ => ErrorCode::Refused,
    }
}

/// What an error status means, for layers that answer without a JSON body.
fn message(status: StatusCode, limit: usize) -> String {
    match status {
        StatusCode::PAYLOAD_TOO_LARGE => format!("the request body is larger than {limit} bytes"),
        StatusCode::TOO_MANY_REQUESTS => {
            "too many games created from this address; wait a minute".into()
        }
        StatusCode::METHOD_NOT_ALLOWED => "method not allowed on this endpoint".into(),
        s => s
            .canonical_reason()
            .unwrap_or("request refused")
            .to_string(),
    }
}

/// Adds the host layers to the whole application: the body limit, and JSON errors for answers
/// that layers (not handlers) give.
pub fn layers(router: Router, state: &AppState) -> Router {
    let limit = state.limits.max_body;
    router
        .layer(axum::middleware::map_response(
            move |resp: Response<Body>| async move { json_error(resp, limit) },
        ))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(limit))
}

fn json_error(resp: Response<Body>, limit: usize) -> Response<Body> {
    let status = resp.status();
    let is_json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return resp;
    }
    let mut out = axum::response::IntoResponse::into_response((
        status,
        axum::Json(ErrorBody {
            error: message(status, limit),
            code: code(status),
        }),
    ));
    for name in [header::RETRY_AFTER, header::ALLOW] {
        if let Some(v) = resp.headers().get(&name) {
            out.headers_mut().insert(name, v.clone());
        }
    }
    out
}
