//! Seat tokens: 128-bit random secrets, one per human seat, stored only as SHA-256 hashes, and
//! the check that a request's `Authorization: Bearer TOKEN` may act for a seat.

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

/// The token of `Authorization: Bearer TOKEN`, checked against the game's tokens (403 when
/// missing, malformed or not one of them). The token itself never appears in an error.
pub fn grant(headers: &HeaderMap, tokens: &[StoredToken]) -> Result<Grant, ApiError> {
    let value = headers
        .get(axum::http::header::AUTHORIZATION)
        .ok_or_else(|| forbidden("this action needs the seat's token (Authorization: Bearer TOKEN from the seat's link)"))?;
    let text = value
        .to_str()
        .map_err(|_| forbidden("the Authorization header is not text"))?;
    let token = text
        .strip_prefix("Bearer ")
        .or_else(|| text.strip_prefix("bearer "))
        .map(str::trim)
        .ok_or_else(|| forbidden("the Authorization header must be 'Bearer TOKEN'"))?;
    if token.is_empty() || token.len() > 128 {
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
        let mut headers = HeaderMap::new();
        assert!(grant(&headers, &stored).is_err());
        headers.insert(
            "authorization",
            format!("Bearer {token}").parse().expect("header"),
        );
        assert_eq!(grant(&headers, &stored), Ok(Grant::Seat(1)));
        headers.insert("authorization", "Bearer 00".parse().expect("header"));
        assert!(matches!(
            grant(&headers, &stored),
            Err(ApiError::Forbidden(_))
        ));
        headers.insert("authorization", token.parse().expect("header"));
        assert!(grant(&headers, &stored).is_err());
    }
}
