//! The game review in the static site's Web Worker: the same judges as the server
//! ([`qiyi_web::judges::prepare`]) run over a game the page keeps (its [`Record`]), answering the
//! same Review JSON as `GET /api/games/{id}/review`.
//!
//! The page's record holds the moves the players chose; die rolls follow from the seed. The game
//! is replayed from it and written as the server's JSON record (every move and roll, with the
//! player who chose it), which each judge's record reader takes, so the judge sees exactly the
//! start and moves the server's review of the same game sees.

use crate::local::Record;
use qiyi_web::error::ApiError;
use qiyi_web::games;
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The search depth of the Xiangqi judge in the browser when the page asks for none (the server
/// uses [`qiyi_xiangqi::review::DEFAULT_DEPTH`]): modest, for one core in WebAssembly.
pub const BROWSER_XIANGQI_DEPTH: u32 = 6;

/// The search depth of the checkers judge in the browser when the page asks for none: modest,
/// so a game is reviewed in seconds on one core (docs/review.md has the measure); the server
/// uses [`qiyi_checkers::review::DEFAULT_DEPTH`].
pub const BROWSER_CHECKERS_DEPTH: u32 = 8;

/// The game of `record` written as the server's JSON record (`qiyi games export` for the games
/// without a PGN/PDN form), which every judge's record reader takes.
pub fn review_text(record: &Record) -> Result<String, ApiError> {
    let mut session = games::create(
        &record.game,
        &record.rules,
        record.position.as_deref(),
        record.seed,
    )?;
    for mv in &record.moves {
        session.play(mv)?;
    }
    let moves: Vec<_> = session
        .history_from(0)
        .iter()
        .map(|h| json!({ "ply": h.ply, "player": h.player, "text": h.text }))
        .collect();
    let text = json!({
        "format": "qiyi-record",
        "version": 1,
        "game": record.game,
        "rules": record.rules,
        "position": record.position,
        "seed": record.seed,
        "moves": moves,
    });
    Ok(text.to_string())
}

/// Reviews the game of `record` (a [`Record`] as JSON, what the page stores); `depth`: the
/// searching judges' depth (`None`: [`BROWSER_XIANGQI_DEPTH`], [`BROWSER_CHECKERS_DEPTH`]; peg
/// solitaire and aeroplane take none).
/// `progress(done, total)` is called after each ply; when it answers `true` the review stops
/// before the next ply (an error saying it was cancelled). Answers the Review as JSON.
pub fn review_record(
    record: &str,
    depth: Option<u32>,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<String, ApiError> {
    let record: Record = serde_json::from_str(record)
        .map_err(|e| ApiError::BadRequest(format!("stored game unreadable: {e}")))?;
    if record.moves.is_empty() {
        return Err(ApiError::Conflict(
            "nothing to review: no move has been played".into(),
        ));
    }
    let depth = match (record.game.as_str(), depth) {
        ("checkers", None) => Some(BROWSER_CHECKERS_DEPTH),
        ("xiangqi", None) => Some(BROWSER_XIANGQI_DEPTH),
        (_, d) => d,
    };
    let text = review_text(&record)?;
    let cancel = Arc::new(AtomicBool::new(false));
    let task = qiyi_web::judges::prepare(&record.game, &text, depth, cancel.clone())?;
    let mut report = |done: usize, total: usize| {
        if !cancel.load(Ordering::Relaxed) && progress(done, total) {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let review = task(&mut report).map_err(ApiError::Internal)?;
    // The checkers judge's searches end early once stopped and the review runs out: drop it.
    if cancel.load(Ordering::Relaxed) {
        return Err(ApiError::Internal("the review was cancelled".into()));
    }
    serde_json::to_string(&review).map_err(|e| ApiError::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local::LocalGames;
    use serde_json::Value;

    fn played(body: &str, moves: &[&str]) -> String {
        let mut games = LocalGames::new();
        let created = games.create(body, 1).unwrap();
        let id = created["id"].as_str().unwrap().to_string();
        for m in moves {
            games.play(&id, m, None).unwrap();
        }
        games.record(&id).unwrap().to_string()
    }

    #[test]
    fn a_checkers_game_is_reviewed_ply_by_ply_like_the_server() {
        let record = played(
            r#"{"game":"checkers"}"#,
            &["11-15", "23-19", "8-11", "22-17"],
        );
        let mut seen = Vec::new();
        let text = review_record(&record, Some(4), &mut |d, t| {
            seen.push((d, t));
            false
        })
        .unwrap();
        let review: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(review["plies"].as_array().unwrap().len(), 4);
        assert_eq!(review["plies"][0]["played"], "11-15");
        assert_eq!(seen.last(), Some(&(4, 4)));
        // The server's judge, given the server's export (PDN) of the same game, says the same.
        let cancel = Arc::new(AtomicBool::new(false));
        let pdn = "[Event \"t\"]\n\n1. 11-15 23-19 2. 8-11 22-17 *\n";
        let server = qiyi_web::judges::prepare("checkers", pdn, Some(4), cancel).unwrap();
        let server = serde_json::to_value(server(&mut |_, _| {}).unwrap()).unwrap();
        assert_eq!(review, server);
    }

    #[test]
    fn a_stop_from_progress_ends_the_review_before_the_next_ply() {
        let record = played(r#"{"game":"peg-solitaire"}"#, &[]);
        assert!(matches!(
            review_record(&record, None, &mut |_, _| false),
            Err(ApiError::Conflict(_))
        ));
        let record = played(r#"{"game":"checkers"}"#, &["11-15", "23-19", "8-11"]);
        let mut calls = 0;
        let out = review_record(&record, Some(2), &mut |_, _| {
            calls += 1;
            true
        });
        assert!(matches!(out, Err(ApiError::Internal(ref e)) if e.contains("cancelled")));
        assert_eq!(calls, 1);
        // Depth is for checkers only, within its bounds.
        let record = played(r#"{"game":"peg-solitaire"}"#, &["d2-d4"]);
        assert!(matches!(
            review_record(&record, Some(3), &mut |_, _| false),
            Err(ApiError::BadRequest(_))
        ));
        let record = played(r#"{"game":"chinese-checkers"}"#, &[]);
        let mut games = LocalGames::new();
        let created = games.create(r#"{"game":"chinese-checkers"}"#, 1).unwrap();
        let id = created["id"].as_str().unwrap().to_string();
        let first = created["state"]["legal"][0]["text"]
            .as_str()
            .unwrap()
            .to_string();
        games.play(&id, &first, None).unwrap();
        let cc = games.record(&id).unwrap().to_string();
        // Chinese checkers is reviewed by its own judge now (two players: the engine at a depth).
        let text = review_record(&cc, Some(1), &mut |_, _| false).expect("reviewed");
        let review: serde_json::Value = serde_json::from_str(&text).expect("review JSON");
        assert_eq!(review["game"], "chinese-checkers");
        assert_eq!(review["plies"].as_array().map(Vec::len), Some(1));
        assert!(matches!(
            review_record(&record, None, &mut |_, _| false),
            Err(ApiError::Conflict(_))
        ));
    }

    #[test]
    fn a_xiangqi_game_is_reviewed_with_the_servers_judge() {
        let record = played(r#"{"game":"xiangqi"}"#, &["h2e2", "h9g7"]);
        let text = review_record(&record, Some(2), &mut |_, _| false).unwrap();
        let review: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(review["game"], "xiangqi");
        assert_eq!(review["plies"].as_array().unwrap().len(), 2);
        assert_eq!(review["plies"][1]["played"], "h9g7");
    }
}
