//! JSON game records: the shape every game's JSON record shares (what `qiyi games export`
//! writes for the games without a PGN-family format, and what a user may write by hand).
//!
//! A record is either a JSON object — `game` (checked against the reader's names), `moves` (a
//! list of move texts or `{"text": .., "player": ..}` objects), plus whatever the game adds
//! (`rules`, `position`, `result`) — or a bare JSON list of move texts. Each game's reader takes
//! the shared parts from here and reads its own moves and start.

use serde_json::{Map, Value};

/// Why a JSON record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not JSON.
    #[error("the record is not JSON: {0}")]
    Json(#[source] serde_json::Error),
    /// JSON of the wrong shape, another game, a bad start or an illegal move.
    #[error("{0}")]
    Bad(String),
}

/// The parts of a JSON record every game shares.
#[derive(Clone, Copy, Debug)]
pub struct JsonRecord<'a> {
    /// The record's object (`None` when the record is a bare list of moves).
    pub object: Option<&'a Map<String, Value>>,
    /// The record's moves, each a text or an object with a `text`.
    pub moves: &'a [Value],
}

impl<'a> JsonRecord<'a> {
    /// The record's field `key` (`None` for a bare list or a missing field).
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.object.and_then(|o| o.get(key))
    }

    /// The record's field `key` when it is a string.
    pub fn str(&self, key: &str) -> Option<&'a str> {
        self.get(key).and_then(Value::as_str)
    }
}

/// One entry of a record's `moves`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveEntry<'a> {
    /// The move's text, in the game's own notation.
    pub text: &'a str,
    /// The player the record says made it, when it says.
    pub player: Option<u64>,
}

/// Parses `text` as JSON.
pub fn parse(text: &str) -> Result<Value, RecordError> {
    serde_json::from_str(text).map_err(RecordError::Json)
}

/// Checks that the record `v` is not of another game: its `game` field, when it has one, must be
/// one of `names` (the first is the name errors use).
pub fn check_game(v: &Value, names: &[&str]) -> Result<(), RecordError> {
    let ours = names.first().copied().unwrap_or("this game");
    match v.get("game").and_then(Value::as_str) {
        Some(kind) if !names.contains(&kind) => Err(RecordError::Bad(format!(
            "the record is a {kind} game, not {ours}"
        ))),
        _ => Ok(()),
    }
}

/// The shared parts of the record `v`: an object of one of the games `names` with a list of
/// `moves`, or a bare list of moves.
pub fn read<'a>(v: &'a Value, names: &[&str]) -> Result<JsonRecord<'a>, RecordError> {
    let bad = |s: &str| Err(RecordError::Bad(s.to_string()));
    match v {
        Value::Array(moves) => Ok(JsonRecord {
            object: None,
            moves,
        }),
        Value::Object(o) => {
            check_game(v, names)?;
            match o.get("moves") {
                Some(Value::Array(moves)) => Ok(JsonRecord {
                    object: Some(o),
                    moves,
                }),
                Some(_) => bad("the record's \"moves\" is not a list"),
                None => bad("the record has no \"moves\""),
            }
        }
        _ => bad("the record is neither a JSON object nor a list of moves"),
    }
}

/// The `index`-th (0-based) entry of a record's moves: a text, or an object with a `text` and
/// perhaps a `player`. Errors name the move 1-based.
pub fn move_entry(index: usize, m: &Value) -> Result<MoveEntry<'_>, RecordError> {
    let bad = |what: &str| RecordError::Bad(format!("move {}: {what}", index + 1));
    match m {
        Value::String(s) => Ok(MoveEntry {
            text: s,
            player: None,
        }),
        Value::Object(o) => Ok(MoveEntry {
            text: o
                .get("text")
                .and_then(Value::as_str)
                .ok_or_else(|| bad("an object without \"text\""))?,
            player: o.get("player").and_then(Value::as_u64),
        }),
        _ => Err(bad("not a move text")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> Result<Vec<(String, Option<u64>)>, String> {
        let v = parse(text).map_err(|e| e.to_string())?;
        let r = read(&v, &["peg-solitaire", "peg"]).map_err(|e| e.to_string())?;
        r.moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                move_entry(i, m)
                    .map(|e| (e.text.to_string(), e.player))
                    .map_err(|e| e.to_string())
            })
            .collect()
    }

    #[test]
    fn objects_and_bare_lists_give_their_moves() {
        assert_eq!(
            read_text(r#"{"game": "peg", "moves": ["a", {"text": "b", "player": 2}]}"#),
            Ok(vec![("a".into(), None), ("b".into(), Some(2))])
        );
        assert_eq!(read_text(r#"["x"]"#), Ok(vec![("x".into(), None)]));
    }

    #[test]
    fn shape_errors_say_what_is_wrong() {
        let err = |t: &str| read_text(t).unwrap_err();
        assert_eq!(
            err(r#"{"game": "xiangqi", "moves": []}"#),
            "the record is a xiangqi game, not peg-solitaire"
        );
        assert_eq!(
            err(r#"{"moves": 3}"#),
            "the record's \"moves\" is not a list"
        );
        assert_eq!(err("{}"), "the record has no \"moves\"");
        assert_eq!(
            err("7"),
            "the record is neither a JSON object nor a list of moves"
        );
        assert_eq!(err(r#"[1]"#), "move 1: not a move text");
        assert_eq!(
            err(r#"["a", {"player": 1}]"#),
            "move 2: an object without \"text\""
        );
        assert!(err("{").starts_with("the record is not JSON"));
    }

    #[test]
    fn the_record_fields_are_read_from_the_object() {
        let v = parse(r#"{"position": "p", "rules": {"x": 1}, "moves": []}"#).unwrap();
        let r = read(&v, &["peg"]).unwrap();
        assert_eq!(r.str("position"), Some("p"));
        assert!(r.get("rules").is_some());
        let list = parse("[]").unwrap();
        assert_eq!(read(&list, &["peg"]).unwrap().str("position"), None);
    }
}
