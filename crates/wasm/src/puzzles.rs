//! The puzzle page on the static site: the server's puzzle API (`/api/puzzles/{game}/...`)
//! answered in the browser from one game's puzzle file (fetched by the page when it opens) with
//! the server's own code ([`qiyi_web::puzzles`]: the views and steps, the choice of the next
//! puzzle and of the puzzle of the day, the score, the Glicko-2 system of
//! [`qiyi_core::glicko2`]). What the server keeps in its database (the player's rating, the
//! puzzles attempted, the puzzles' ratings moved by this player's attempts) is a [`Progress`],
//! which the page keeps in `localStorage` and hands to every call; an attempt answers the new
//! one.

use qiyi_core::puzzles::Rating;
use qiyi_web::puzzles::{
    daily_index, date_text, find, nearest, read_body, refute, score, summary_of, view_of,
    AttemptAnswer, AttemptBody, PuzzleSet, RefuteBody, GAMES, SYSTEM,
};
use qiyi_web::ApiError;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};

/// One player's puzzles of one game in this browser: what the server's database holds for a
/// player (its `puzzle_players`, `puzzle_attempts` and `puzzle_ratings` rows).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Progress {
    /// The player's rating at this game's puzzles.
    #[serde(default)]
    pub player: Rating,
    /// The puzzles attempted, by id: the first attempt's result.
    #[serde(default)]
    pub attempts: BTreeMap<String, Tried>,
    /// The ratings of the puzzles this player's attempts moved, by id (the others keep their
    /// file's).
    #[serde(default)]
    pub ratings: BTreeMap<String, Rating>,
}

/// The first attempt at a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tried {
    /// Solved with no wrong move and without the solution shown.
    pub solved: bool,
    /// A hint was used.
    pub hinted: bool,
}

impl Progress {
    /// The progress kept as JSON text; empty or unreadable text (a first visit, a damaged
    /// entry) is a fresh start.
    pub fn read(text: &str) -> Progress {
        serde_json::from_str(text).unwrap_or_default()
    }

    fn attempted(&self) -> HashSet<String> {
        self.attempts.keys().cloned().collect()
    }

    fn ratings(&self) -> HashMap<String, Rating> {
        self.ratings.iter().map(|(k, v)| (k.clone(), *v)).collect()
    }
}

/// One game's puzzle set and the API over it.
#[derive(Debug)]
pub struct Book {
    set: PuzzleSet,
}

impl Book {
    /// Parses `text`, the puzzle file of `game` (one of [`GAMES`]).
    pub fn new(game: &str, text: &str) -> Result<Book, ApiError> {
        let name = qiyi_web::games::canonical(game);
        let game = GAMES.iter().find(|g| **g == name).ok_or_else(|| {
            ApiError::UnknownGame(
                game.to_string(),
                format!("games with puzzles: {}", GAMES.join(", ")),
            )
        })?;
        let set = PuzzleSet::parse(game, text)
            .map_err(|e| ApiError::Internal(format!("the {game} puzzle file: {e}")))?;
        if set.puzzles.is_empty() {
            return Err(ApiError::Internal(format!(
                "the {game} puzzle file is empty"
            )));
        }
        Ok(Book { set })
    }

    fn rating_of(&self, progress: &Progress, id: &str, file: Rating) -> Rating {
        progress.ratings.get(id).copied().unwrap_or(file)
    }

    fn view(
        &self,
        progress: &Progress,
        id: &str,
        daily: Option<String>,
    ) -> Result<Value, ApiError> {
        let p = find(&self.set, id)?;
        let view = view_of(p, self.rating_of(progress, id, p.rating), daily)?;
        serde_json::to_value(view).map_err(|e| ApiError::Internal(e.to_string()))
    }

    /// `GET /api/puzzles/{game}` on `day` (days since 1970-01-01, UTC).
    pub fn summary(&self, progress: &Progress, day: u64) -> Result<Value, ApiError> {
        let s = summary_of(&self.set, progress.player, progress.attempts.len(), day);
        serde_json::to_value(s).map_err(|e| ApiError::Internal(e.to_string()))
    }

    /// `GET /api/puzzles/{game}/next?theme=&after=`; `random` in `[0, 1)` picks among the
    /// nearest puzzles (the server draws its own).
    pub fn next(
        &self,
        progress: &Progress,
        theme: Option<&str>,
        after: Option<&str>,
        random: f64,
    ) -> Result<Value, ApiError> {
        let pool = nearest(
            &self.set,
            theme,
            after,
            &progress.attempted(),
            &progress.ratings(),
            progress.player.rating,
        )?;
        let pick = ((random.clamp(0.0, 1.0) * pool.len() as f64) as usize)
            .min(pool.len().saturating_sub(1));
        let p = pool.get(pick).ok_or_else(|| {
            ApiError::Internal(format!("the {} puzzle set is empty", self.set.game))
        })?;
        self.view(progress, &p.id, None)
    }

    /// `GET /api/puzzles/{game}/daily` on `day`: the server's choice for that day.
    pub fn daily(&self, progress: &Progress, day: u64) -> Result<Value, ApiError> {
        let i = daily_index(self.set.game, day, self.set.puzzles.len());
        let p = self.set.puzzles.get(i).ok_or_else(|| {
            ApiError::Internal(format!("the {} puzzle set is empty", self.set.game))
        })?;
        self.view(progress, &p.id, Some(date_text(day)))
    }

    /// `GET /api/puzzles/{game}/{id}`.
    pub fn get(&self, progress: &Progress, id: &str) -> Result<Value, ApiError> {
        self.view(progress, id, None)
    }

    /// `POST /api/puzzles/{game}/{id}/attempt` with `body`: the server's answer and the progress
    /// after it. As on the server, only the first attempt at a puzzle moves the ratings.
    pub fn attempt(
        &self,
        progress: &Progress,
        id: &str,
        body: &str,
    ) -> Result<(AttemptAnswer, Progress), ApiError> {
        let p = find(&self.set, id)?;
        let body: AttemptBody = read_body(body.as_bytes())?;
        let score = score(&body);
        let player_before = progress.player;
        let puzzle_before = self.rating_of(progress, id, p.rating);
        let mut after = progress.clone();
        let rated = !progress.attempts.contains_key(id);
        let (player, puzzle) = if rated {
            SYSTEM
                .game(player_before, puzzle_before, score)
                .map_err(|e| ApiError::Internal(format!("rating: {e}")))?
        } else {
            (player_before, puzzle_before)
        };
        if rated {
            after.player = player;
            after.ratings.insert(id.to_string(), puzzle);
            after.attempts.insert(
                id.to_string(),
                Tried {
                    solved: body.solved,
                    hinted: body.hinted,
                },
            );
        }
        let answer = AttemptAnswer {
            score,
            rated,
            player: player.into(),
            player_before: player_before.into(),
            puzzle: puzzle.into(),
            puzzle_before: puzzle_before.into(),
        };
        Ok((answer, after))
    }

    /// `POST /api/puzzles/{game}/{id}/refute` with `body` (`{"step", "move"}`): what a wrong
    /// move allows, judged by the puzzle's own judge as on the server.
    pub fn refute(&self, id: &str, body: &str) -> Result<Value, ApiError> {
        let p = find(&self.set, id)?;
        let body: RefuteBody = read_body(body.as_bytes())?;
        let answer = refute(p, body.step, &body.mv)?;
        serde_json::to_value(answer).map_err(|e| ApiError::Internal(format!("refutation: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xiangqi() -> Book {
        Book::new("xiangqi", qiyi_xiangqi::puzzles::SHIPPED).unwrap()
    }

    #[test]
    fn the_book_answers_the_servers_shapes() {
        let book = xiangqi();
        let fresh = Progress::read("");
        let s = book.summary(&fresh, 20_429).unwrap();
        assert_eq!(s["total"], 1282);
        assert_eq!(s["player"]["rating"], 1500.0);
        let daily = book.daily(&fresh, 20_429).unwrap();
        assert_eq!(daily["daily"], "2025-12-07");
        assert_eq!(s["daily"], daily["id"]);
        let i = daily_index("xiangqi", 20_429, 1282);
        assert_eq!(daily["id"], book.set.puzzles[i].id.as_str());
        let next = book.next(&fresh, Some("mate-in-1"), None, 0.5).unwrap();
        let steps = next["steps"].as_array().unwrap();
        assert_eq!(steps.len(), next["solution"].as_array().unwrap().len() + 1);
        assert!(next["themes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "mate-in-1"));
        // Bad input is the server's errors, not a panic.
        assert!(matches!(
            book.next(&fresh, Some("nope"), None, 0.0),
            Err(ApiError::BadRequest(_))
        ));
        assert!(matches!(
            book.get(&fresh, "nope"),
            Err(ApiError::NotFound(_))
        ));
        assert!(matches!(
            Book::new("go", ""),
            Err(ApiError::UnknownGame(..))
        ));
        assert!(Book::new("xiangqi", "{not json").is_err());
    }

    #[test]
    fn the_book_refutes_as_the_server_does() {
        let book = xiangqi();
        let right = book
            .refute("xq-1-0-269", r#"{"step": 0, "move": "d2e2"}"#)
            .unwrap();
        assert_eq!(
            (right["right"].as_bool(), right["kind"].as_str()),
            (Some(true), Some("right"))
        );
        // Another legal move of the first step: the mate search's reply escapes the mate.
        let view = book.get(&Progress::default(), "xq-1-0-269").unwrap();
        let wrong = view["steps"][0]["legal"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m["text"].as_str())
            .find(|m| *m != "d2e2")
            .unwrap()
            .to_string();
        let body = serde_json::json!({ "step": 0, "move": wrong }).to_string();
        let r = book.refute("xq-1-0-269", &body).unwrap();
        assert_eq!(r["right"], false, "{r}");
        assert!(r["kind"] == "reply" || r["kind"] == "undecided", "{r}");
        assert_eq!(
            r,
            serde_json::to_value(
                refute(find(&book.set, "xq-1-0-269").unwrap(), 0, &wrong).unwrap()
            )
            .unwrap()
        );
        // Bad bodies and ids are the server's errors.
        assert!(matches!(
            book.refute("xq-1-0-269", "{}"),
            Err(ApiError::BadRequest(_))
        ));
        assert!(matches!(
            book.refute("nope", r#"{"step": 0, "move": "d2e2"}"#),
            Err(ApiError::NotFound(_))
        ));
    }

    #[test]
    fn only_the_first_attempt_moves_the_ratings() {
        let book = xiangqi();
        let id = book.set.puzzles[0].id.clone();
        let start = Progress::read("{damaged");
        assert_eq!(start, Progress::default());
        assert!(book.attempt(&start, &id, "[true]").is_err());
        assert!(book.attempt(&start, &id, r#"{"solved": 1}"#).is_err());
        let (a, after) = book.attempt(&start, &id, r#"{"solved": true}"#).unwrap();
        assert!(a.rated);
        assert_eq!(a.score, 1.0);
        // The server's system: the same numbers as SYSTEM.game.
        let (me, puzzle) = SYSTEM
            .game(Rating::default(), book.set.puzzles[0].rating, 1.0)
            .unwrap();
        assert_eq!(a.player.rating, me.rating);
        assert_eq!(a.puzzle.rating, puzzle.rating);
        assert!(after.player.rating > 1500.0);
        // Kept as text and read back, the second attempt is not rated.
        let text = serde_json::to_string(&after).unwrap();
        let (b, again) = book
            .attempt(&Progress::read(&text), &id, r#"{"solved": false}"#)
            .unwrap();
        assert!(!b.rated);
        assert_eq!(b.player, a.player);
        assert_eq!(again, after);
        // The next puzzle is never the one attempted while others are left.
        for k in 0..20 {
            let n = book.next(&after, None, None, f64::from(k) / 20.0).unwrap();
            assert_ne!(n["id"], id.as_str());
        }
        let summary = book.summary(&after, 1).unwrap();
        assert_eq!(summary["attempted"], 1);
    }
}
