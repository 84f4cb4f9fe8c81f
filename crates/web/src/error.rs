//! The API's typed errors and how they become HTTP answers (`4xx`/`5xx` with
//! `{"error": "...", "code": "..."}`).

#[cfg(feature = "server")]
use axum::http::StatusCode;
#[cfg(feature = "server")]
use axum::response::{IntoResponse, Response};
#[cfg(feature = "server")]
use axum::Json;
#[cfg(feature = "server")]
use serde_json::json;
use thiserror::Error;

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
    /// The request's seat token is missing, malformed, or does not hold the seat it acts for.
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
    /// A search task failed unexpectedly.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// A short stable name of the kind of error, sent next to the message (`{"error": ...,
    /// "code": ...}`) so a page can say it in its reader's language.
    pub fn code(&self) -> &'static str {
        match self {
            ApiError::UnknownGame(..) => "unknown_game",
            ApiError::NotFound(_) => "not_found",
            ApiError::BadRequest(_) => "bad_request",
            ApiError::IllegalMove(..) => "illegal_move",
            ApiError::Conflict(_) => "conflict",
            ApiError::NotSupported(_) => "not_supported",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::TooManyGames(_) => "too_many_games",
            ApiError::Unavailable(_) => "unavailable",
            ApiError::Busy(_) => "busy",
            ApiError::Internal(_) => "internal",
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
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::IllegalMove(..) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooManyGames(_) | ApiError::Unavailable(_) | ApiError::Busy(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

#[cfg(feature = "server")]
impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = json!({ "error": self.to_string(), "code": self.code() });
        (self.status(), Json(body)).into_response()
    }
}
