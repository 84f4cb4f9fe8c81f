//! A search for the engine worker: everything it needs to rebuild the game and search it, as
//! JSON, so the worker keeps no state (the page can end it to stop a search and start another).

use qiyi_web::error::ApiError;
use qiyi_web::games;
use qiyi_web::session::{AiRequest, Progress};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// What to search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum JobKind {
    /// A move of the player to move (`POST /ai`).
    Ai {
        /// Strength 1-10.
        level: u8,
        /// The article's player instead of the strongest.
        seed_player: bool,
        /// Time budget in milliseconds.
        time_ms: u64,
        /// Seed of the search's random choices (from the game's seed and the ply).
        request_seed: u64,
        /// Whether the answer is played (false: a hint).
        play: bool,
    },
    /// The puzzle solver (`POST /solve`).
    Solve {
        /// Time budget in milliseconds.
        time_ms: u64,
    },
}

/// A game (as its record) and the search asked of its current position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchJob {
    /// Game name.
    pub game: String,
    /// Rule options.
    pub rules: Value,
    /// Start position (`None`: the usual one).
    pub position: Option<String>,
    /// Seed of the dice.
    pub seed: u64,
    /// The moves chosen so far.
    pub moves: Vec<String>,
    /// The search.
    pub kind: JobKind,
}

impl SearchJob {
    /// Rebuilds the game and runs the search, reporting progress; answers the `AiAnswer` or the
    /// `SolveAnswer` as JSON (what the server's API puts under `ai` or `solve`).
    pub fn run(&self, progress: &dyn Fn(Progress)) -> Result<String, ApiError> {
        let mut session =
            games::create(&self.game, &self.rules, self.position.as_deref(), self.seed)?;
        for mv in &self.moves {
            session.play(mv)?;
        }
        match self.kind {
            JobKind::Ai {
                level,
                seed_player,
                time_ms,
                request_seed,
                ..
            } => {
                let task = session.ai_task(AiRequest {
                    level,
                    seed_player,
                    time: Duration::from_millis(time_ms),
                    stop: Arc::new(AtomicBool::new(false)),
                    seed: request_seed,
                })?;
                to_json(&task(progress)?)
            }
            JobKind::Solve { time_ms } => {
                let task = session.solve_task(Duration::from_millis(time_ms))?;
                to_json(&task()?)
            }
        }
    }
}

/// An answer as JSON.
fn to_json<T: Serialize>(answer: &T) -> Result<String, ApiError> {
    serde_json::to_string(answer).map_err(|e| ApiError::Internal(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local::LocalGames;

    #[test]
    fn a_job_from_a_local_game_answers_a_legal_move_that_the_game_then_plays() {
        let mut games = LocalGames::new();
        let created = games.create(r#"{"game":"checkers","seed":2}"#, 1).unwrap();
        let id = created["id"].as_str().unwrap().to_string();
        games.play(&id, "11-15", None).unwrap();
        let job = games.ai_job(&id, r#"{"level":2,"time_ms":5000}"#).unwrap();
        // The job crosses to the worker as JSON.
        let job: SearchJob = serde_json::from_str(&serde_json::to_string(&job).unwrap()).unwrap();
        let answer = job.run(&|_| {}).unwrap();
        let done = games.finish(&id, &job, &answer).unwrap();
        assert_eq!(done["played"], true);
        assert_eq!(done["state"]["ply"], 2);
        assert_eq!(done["state"]["history"][1]["text"], done["ai"]["move"]);
        // A search whose game moved on is not played.
        let job = games.ai_job(&id, "{}").unwrap();
        let answer = job.run(&|_| {}).unwrap();
        games.undo(&id, 1).unwrap();
        assert!(matches!(
            games.finish(&id, &job, &answer),
            Err(ApiError::Conflict(_))
        ));
    }

    #[test]
    fn the_peg_solver_runs_as_a_job() {
        let mut games = LocalGames::new();
        let created = games.create(r#"{"game":"peg-solitaire"}"#, 1).unwrap();
        let id = created["id"].as_str().unwrap().to_string();
        let job = games.solve_job(&id, r#"{"time_ms":20000}"#).unwrap();
        let answer = job.run(&|_| {}).unwrap();
        let done = games.finish(&id, &job, &answer).unwrap();
        assert_eq!(done["solve"]["solved"], true);
        assert_eq!(done["solve"]["moves"].as_array().unwrap().len(), 31);
        // Only puzzles have a solver.
        let created = games.create(r#"{"game":"xiangqi"}"#, 1).unwrap();
        let id = created["id"].as_str().unwrap();
        let job = games.solve_job(id, "{}").unwrap();
        assert!(matches!(job.run(&|_| {}), Err(ApiError::NotSupported(_))));
    }
}
