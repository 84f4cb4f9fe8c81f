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
use qiyi_web::mistakes::{CheckBody, Played};
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
    qiyi_web::mistakes::record_json(&played(record))
}

fn played(record: &Record) -> Played {
    Played {
        game: record.game.clone(),
        rules: record.rules.clone(),
        position: record.position.clone(),
        seed: record.seed,
        moves: record.moves.clone(),
    }
}

/// The personal puzzles of player `side` from `review` (Review JSON), the review of the page's
/// stored `record` (JSON): [`qiyi_web::mistakes::puzzles`], as JSON.
pub fn mistake_puzzles(record: &str, review: &str, side: usize) -> Result<String, ApiError> {
    let record: Record = serde_json::from_str(record)
        .map_err(|e| ApiError::BadRequest(format!("stored game unreadable: {e}")))?;
    let review: qiyi_core::review::Review = serde_json::from_str(review)
        .map_err(|e| ApiError::BadRequest(format!("the review does not read: {e}")))?;
    let set = qiyi_web::mistakes::puzzles(&played(&record), &review, side, &record.id)?;
    serde_json::to_string(&set).map_err(|e| ApiError::Internal(e.to_string()))
}

/// Judges an answer to a personal puzzle (`body`: `POST /api/mistakes/{game}/check`'s JSON) with
/// [`qiyi_web::mistakes::check`]; answers the verdict as JSON.
pub fn check_mistake(game: &str, body: &str) -> Result<String, ApiError> {
    let body: CheckBody = qiyi_web::puzzles::read_body(body.as_bytes())?;
    let answer = qiyi_web::mistakes::check(game, &body, Arc::new(AtomicBool::new(false)))?;
    serde_json::to_string(&answer).map_err(|e| ApiError::Internal(e.to_string()))
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

    #[test]
    fn a_blunder_of_a_kept_game_becomes_a_puzzle_as_on_the_server() {
        let record = played(
            r#"{"game":"checkers"}"#,
            &["10-14", "24-20", "14-17", "22x13"],
        );
        let review = review_record(&record, Some(4), &mut |_, _| false).unwrap();
        let set: Value =
            serde_json::from_str(&mistake_puzzles(&record, &review, 0).unwrap()).unwrap();
        let list = set["puzzles"].as_array().unwrap();
        assert_eq!(list.len(), 1, "{set}");
        let p = &list[0];
        assert_eq!(p["mistake"]["played"], "14-17");
        let best = p["solution"][0].as_str().unwrap();
        let check = |answer: &str| {
            let body = serde_json::json!({"position": p["position"], "answer": answer,
                "best": best, "depth": p["mistake"]["depth"]});
            let v: Value =
                serde_json::from_str(&check_mistake("checkers", &body.to_string()).unwrap())
                    .unwrap();
            v["right"].as_bool().unwrap()
        };
        assert!(check(best));
        assert!(!check("14-17"));
        assert!(mistake_puzzles(&record, &review, 5).is_err());
        assert!(mistake_puzzles(&record, "{}", 0).is_err());
        assert!(check_mistake("checkers", "[1]").is_err());
    }
}
