//! The API's typed errors and how they become HTTP answers (`4xx`/`5xx` with
//! `{"error": "...", "code": "..."}`).

#[cfg(feature = "server")]
use axum::http::StatusCode;
#[cfg(feature = "server")]
use axum::response::{IntoResponse, Response};
#[cfg(feature = "server")]
use axum::Json;
use serde::Serialize;
use thiserror::Error;

/// The `code` of an error answer: a short stable name of the kind of error, sent next to the
/// message so a page can say it in its reader's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The game name is not one the server knows.
    UnknownGame,
    /// No game with this id, or no such endpoint.
    NotFound,
    /// Malformed body or query, or a value out of range.
    BadRequest,
    /// The move does not parse or is not legal.
    IllegalMove,
    /// The request does not fit the game's state.
    Conflict,
    /// The endpoint does not apply to this game.
    NotSupported,
    /// No seat token at all (no `Authorization: Bearer TOKEN`).
    Unauthorized,
    /// A token that is not the game's or does not hold the seat.
    Forbidden,
    /// The server holds as many games as it may.
    TooManyGames,
    /// The server is at a limit or stopping.
    Unavailable,
    /// As many analyses as the server runs at once are running.
    Busy,
    /// The database refused a write or a search failed.
    Internal,
    /// The body is larger than the server takes (answered by the body-limit layer).
    TooLarge,
    /// Too many games created from one address (answered by the rate-limit layer).
    RateLimited,
    /// The method is not one the endpoint takes (answered by the router).
    MethodNotAllowed,
    /// Any other refusal by a layer.
    Refused,
}

/// The body of every error answer, handlers' and layers' alike.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "server", schema(as = Error))]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct ErrorBody {
    /// Why, in words.
    pub error: String,
    /// The kind of error, stable, for a page to say it in its reader's language.
    pub code: ErrorCode,
}

/// Everything an API request can fail with. Each variant maps to one HTTP status.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// The game name is not one the server knows.
    #[error("unknown game '{0}' (known: {1})")]
    UnknownGame(String, String),
    /// No game with this id (never created, or expired).
    #[error("no game with id '{0}' (it may have expired)")]
    NotFound(String),
    /// The request body is not the JSON the endpoint expects.
    #[error("malformed request: {0}")]
    BadRequest(String),
    /// The move text does not parse or is not legal here.
    #[error("illegal move '{0}': {1}")]
    IllegalMove(String, String),
    /// The request does not fit the game's state (game over, nothing to undo, AI thinking).
    #[error("{0}")]
    Conflict(String),
    /// The endpoint does not apply to this game (solve for a two-player game).
    #[error("{0}")]
    NotSupported(String),
    /// The request presents no seat token: no `Authorization` header, or not `Bearer TOKEN`
    /// (`401` with `WWW-Authenticate: Bearer`).
    #[error("unauthorized: {0}")]
    Unauthorized(String),
    /// The request's seat token is not one of the game's, or does not hold the seat it acts for.
    #[error("forbidden: {0}")]
    Forbidden(String),
    /// The server holds as many games as it may.
    #[error("too many games in memory ({0}); try again later")]
    TooManyGames(usize),
    /// The server is at a limit (live connections) or shutting down.
    #[error("{0}")]
    Unavailable(String),
    /// The server runs as many analyses as it may; try again when one ends.
    #[error("{0}")]
    Busy(String),
    /// The work would take more memory than the server's budget has free now (`503` with
    /// `Retry-After`).
    #[error("{0}")]
    NoMemory(String),
    /// A search task failed unexpectedly.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// A short stable name of the kind of error, sent next to the message (`{"error": ...,
    /// "code": ...}`) so a page can say it in its reader's language.
    pub fn code(&self) -> ErrorCode {
        match self {
            ApiError::UnknownGame(..) => ErrorCode::UnknownGame,
            ApiError::NotFound(_) => ErrorCode::NotFound,
            ApiError::BadRequest(_) => ErrorCode::BadRequest,
            ApiError::IllegalMove(..) => ErrorCode::IllegalMove,
            ApiError::Conflict(_) => ErrorCode::Conflict,
            ApiError::NotSupported(_) => ErrorCode::NotSupported,
            ApiError::Unauthorized(_) => ErrorCode::Unauthorized,
            ApiError::Forbidden(_) => ErrorCode::Forbidden,
            ApiError::TooManyGames(_) => ErrorCode::TooManyGames,
            ApiError::Unavailable(_) => ErrorCode::Unavailable,
            ApiError::Busy(_) => ErrorCode::Busy,
            ApiError::NoMemory(_) => ErrorCode::Unavailable,
            ApiError::Internal(_) => ErrorCode::Internal,
        }
    }

    /// The body this error is answered with.
    pub fn body(&self) -> ErrorBody {
        ErrorBody {
            error: self.to_string(),
            code: self.code(),
        }
    }
}

#[cfg(feature = "server")]
impl ApiError {
    /// The HTTP status this error is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::UnknownGame(..) | ApiError::BadRequest(_) | ApiError::NotSupported(_) => {
                StatusCode::BAD_REQUEST
            }
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::IllegalMove(..) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooManyGames(_)
            | ApiError::Unavailable(_)
            | ApiError::Busy(_)
            | ApiError::NoMemory(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

/// The `Retry-After` (seconds) of a [`ApiError::NoMemory`] answer: tables are given back as
/// searches end, within a few seconds.
#[cfg(feature = "server")]
pub const NO_MEMORY_RETRY_AFTER_S: &str = "2";

#[cfg(feature = "server")]
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut resp = (self.status(), Json(self.body())).into_response();
        match self {
            ApiError::NoMemory(_) => {
                resp.headers_mut().insert(
                    axum::http::header::RETRY_AFTER,
                    axum::http::HeaderValue::from_static(NO_MEMORY_RETRY_AFTER_S),
                );
            }
            // A 401 names the scheme the client should authenticate with (RFC 9110 11.6.1).
            ApiError::Unauthorized(_) => {
                resp.headers_mut().insert(
                    axum::http::header::WWW_AUTHENTICATE,
                    axum::http::HeaderValue::from_static("Bearer"),
                );
            }
            _ => {}
        }
        resp
    }
}
