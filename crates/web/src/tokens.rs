//! Seat tokens: 128-bit random secrets, one per human seat, stored only as SHA-256 hashes, and
//! the check that a request's `Authorization: Bearer TOKEN` may act for a seat: no token at all
//! is 401 `unauthorized`, a token that does not hold the seat 403 `forbidden`.

use crate::db::StoredToken;
use crate::error::ApiError;
use axum::http::HeaderMap;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// A fresh token: 128 random bits from the operating system's generator, as 32 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    rand::rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

/// A fresh game id: 64 random bits as 16 hex digits.
pub fn new_id() -> String {
    let mut bytes = [0u8; 8];
    rand::rng().fill_bytes(&mut bytes);
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of a token (what the database keeps).
pub fn hash(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// What a request's token may do in a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    /// A hot-seat token: every seat.
    Every,
    /// One seat's token.
    Seat(usize),
}

impl Grant {
    /// Whether it acts for `player`.
    pub fn covers(self, player: usize) -> bool {
        match self {
            Grant::Every => true,
            Grant::Seat(s) => s == player,
        }
    }
}

fn forbidden(why: &str) -> ApiError {
    ApiError::Forbidden(why.to_string())
}

fn unauthorized(why: &str) -> ApiError {
    ApiError::Unauthorized(why.to_string())
}

/// The seat token a request presents: the `TOKEN` of its `Authorization: Bearer TOKEN` header.
///
/// As an extractor it answers 401 `unauthorized` (with `WWW-Authenticate: Bearer`) when the
/// request presents no token at all: no `Authorization` header, one that is not text, one of
/// another scheme, or `Bearer` with nothing after it. It runs before the game is looked up or the
/// body is read, so a request without credentials is told so whatever else is wrong with it.
/// Whether the token holds a seat is [`grant`]'s question (403).
#[derive(Clone, PartialEq, Eq)]
pub struct Bearer(String);

impl std::fmt::Debug for Bearer {
    // The token is a secret: it never appears in a log or an error.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Bearer(..)")
    }
}

impl Bearer {
    /// The token a request's headers present (401 [`ApiError::Unauthorized`] when none).
    pub fn from_headers(headers: &HeaderMap) -> Result<Bearer, ApiError> {
        let value = headers
            .get(axum::http::header::AUTHORIZATION)
            .ok_or_else(|| {
                unauthorized(
                    "this action needs the seat's token (Authorization: Bearer TOKEN from the seat's link)",
                )
            })?;
        let text = value
            .to_str()
            .map_err(|_| unauthorized("the Authorization header is not text"))?;
        // The scheme's name is case-insensitive (RFC 7235 section 2.1).
        let token = text
            .get(..7)
            .filter(|scheme| scheme.eq_ignore_ascii_case("bearer "))
            .and_then(|_| text.get(7..))
            .map(str::trim)
            .ok_or_else(|| unauthorized("the Authorization header must be 'Bearer TOKEN'"))?;
        if token.is_empty() {
            return Err(unauthorized(
                "the Authorization header has no token after 'Bearer'",
            ));
        }
        Ok(Bearer(token.to_string()))
    }
}

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Bearer {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _state: &S,
    ) -> Result<Self, Self::Rejection> {
        Bearer::from_headers(&parts.headers)
    }
}

/// What a request's token may do in a game with these tokens (403 [`ApiError::Forbidden`] when
/// it is not one of them). The token itself never appears in an error.
pub fn grant(bearer: &Bearer, tokens: &[StoredToken]) -> Result<Grant, ApiError> {
    let token = bearer.0.as_str();
    if token.len() > 128 {
        return Err(forbidden("the token is not one of this game's"));
    }
    let h = hash(token);
    let found = tokens
        .iter()
        .find(|t| t.hash == h)
        .ok_or_else(|| forbidden("the token is not one of this game's"))?;
    Ok(match found.seat {
        None => Grant::Every,
        Some(s) => Grant::Seat(s),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_128_bit_hex_and_differ() {
        let a = new_token();
        let b = new_token();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn grant_checks_the_hash() {
        let token = new_token();
        let stored = vec![StoredToken {
            hash: hash(&token),
            seat: Some(1),
        }];
        let bearer = |value: &str| {
            let mut headers = HeaderMap::new();
            headers.insert("authorization", value.parse().expect("header"));
            Bearer::from_headers(&headers)
        };
        let ok = bearer(&format!("Bearer {token}")).expect("a bearer token");
        assert_eq!(grant(&ok, &stored), Ok(Grant::Seat(1)));
        let lower = bearer(&format!("bearer {token}")).expect("the scheme is case-insensitive");
        assert_eq!(grant(&lower, &stored), Ok(Grant::Seat(1)));
        // A token that is not the game's: 403.
        for other in ["Bearer 00", &format!("Bearer {}", "f".repeat(200))] {
            let b = bearer(other).expect("a bearer token");
            assert!(matches!(grant(&b, &stored), Err(ApiError::Forbidden(_))));
        }
    }

    #[test]
    fn no_bearer_token_is_unauthorized() {
        assert!(matches!(
            Bearer::from_headers(&HeaderMap::new()),
            Err(ApiError::Unauthorized(_))
        ));
        let token = new_token();
        for value in [
            token.as_str(),
            "Basic dXNlcjpwYXNz",
            "Bearer",
            "Bearer ",
            "Bearer    ",
            "Token abc",
        ] {
            let mut headers = HeaderMap::new();
            headers.insert("authorization", value.parse().expect("header"));
            assert!(
                matches!(
                    Bearer::from_headers(&headers),
                    Err(ApiError::Unauthorized(_))
                ),
                "{value:?}"
            );
        }
        let mut headers = HeaderMap::new();
        headers.insert(
            "authorization",
            axum::http::HeaderValue::from_bytes(b"Bearer \xff").expect("header"),
        );
        assert!(matches!(
            Bearer::from_headers(&headers),
            Err(ApiError::Unauthorized(_))
        ));
    }

    #[test]
    fn the_token_stays_out_of_debug_output() {
        let token = new_token();
        let mut headers = HeaderMap::new();
        headers.insert(
            "authorization",
            format!("Bearer {token}").parse().expect("header"),
        );
        let b = Bearer::from_headers(&headers).expect("a bearer token");
        assert!(!format!("{b:?}").contains(&token));
    }
}
