//! Your mistakes as puzzles (issue 58): a finished review's mistakes and blunders of one player
//! become personal puzzles, "find the better move", on both back ends.
//!
//! Two functions, compiled in both builds (the server's routes call them, and so does the static
//! site's WebAssembly):
//!
//! - [`puzzles`] turns a played game ([`Played`]) and its [`Review`] into one puzzle per decision
//!   of the chosen player that the review classed a mistake or a blunder: the position before
//!   the move, that player to move, the review's best move as the solution
//!   ([`Source::Review`] names the game and the ply; the proof is the review's verdict).
//! - [`check`] judges an answer: the review's best move is right, the move played is wrong (the
//!   review said so), and any other legal move is given to the same judge the review uses
//!   ([`crate::judges::prepare`], at the review's depth), which reviews it as a one-move game:
//!   the answer is right when that review classes it `best` or `good` (a loss of win chance
//!   below [`qiyi_core::review::GOOD`]), the review's own classification.
//!
//! Personal puzzles are not rated (no Glicko-2) and are kept by the page in the browser.

use crate::error::ApiError;
use crate::games;
use crate::puzzles::{PuzzleView, RatingView};
use qiyi_core::puzzles::{Proof, Rating, Source};
use qiyi_core::review::{Class, PlyKind, Review};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The goal every mistake puzzle states (the page words it in its language).
pub const GOAL: &str = "find the better move";

/// How long the server lets [`check`]'s judge work before it stops it (seconds).
pub const CHECK_SECONDS: u64 = 60;

/// The longest position text and move text [`check`] reads.
pub const MAX_TEXT: usize = 4096;

/// A played game as both back ends keep it: the game, its rule options, its start position, the
/// seed of its dice and the moves the players chose (die rolls follow from the seed).
#[derive(Clone, Debug, Deserialize)]
pub struct Played {
    /// The game's name.
    pub game: String,
    /// The rule options (a JSON object, or null).
    #[serde(default)]
    pub rules: Value,
    /// The start position (`None`: the usual one).
    #[serde(default)]
    pub position: Option<String>,
    /// The seed of the dice.
    #[serde(default)]
    pub seed: u64,
    /// The moves the players chose, in order.
    pub moves: Vec<String>,
}

/// The game of `played` written as the server's JSON record (every move and roll, with the
/// player who chose it), which every judge's record reader takes.
pub fn record_json(played: &Played) -> Result<String, ApiError> {
    let mut session = games::create(
        &played.game,
        &played.rules,
        played.position.as_deref(),
        played.seed,
    )?;
    for mv in &played.moves {
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
        "game": played.game,
        "rules": played.rules,
        "position": played.position,
        "seed": played.seed,
        "moves": moves,
    });
    Ok(text.to_string())
}

/// What the review said about the mistake a puzzle is made of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct MistakeNote {
    /// The ply of the mistake (0-based, rolls counted).
    pub ply: usize,
    /// The review's class of the move played: `mistake` or `blunder`.
    pub class: String,
    /// The move played.
    pub played: String,
    /// The review's best move.
    pub best: String,
    /// The win chance (0-1) the move played lost against the best.
    pub loss: f64,
    /// The review's best line from the position.
    pub line: Vec<String>,
    /// The review's values are exact (a solver or a database).
    pub exact: bool,
    /// The review's search depth, when its judge searches at one (the check uses it).
    pub depth: Option<u32>,
    /// The review's judge, in words.
    pub judge: String,
}

/// One personal puzzle: the puzzle page's view (its `steps`: the position before the mistake
/// and after the best move) and what the review said.
#[derive(Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct MistakePuzzle {
    /// The puzzle as the puzzle page draws it (rating: the start values; not rated).
    #[serde(flatten)]
    pub puzzle: PuzzleView,
    /// The review's word on the mistake.
    pub mistake: MistakeNote,
}

/// `POST /api/games/{id}/review/puzzles`: the personal puzzles of one player.
#[derive(Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct MistakeSet {
    /// The game.
    pub game: String,
    /// The player whose mistakes they are (0-based).
    pub side: usize,
    /// The player's name in the game's words.
    pub side_name: String,
    /// One puzzle per mistake or blunder of the player, in the order of the game (may be empty).
    pub puzzles: Vec<MistakePuzzle>,
}

/// The search depth in a review judge's words (`"... depth 6 ..."`), if it names one.
pub fn depth_of(judge: &str) -> Option<u32> {
    let (_, rest) = judge.split_once("depth ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn same_move(a: &str, b: &str) -> bool {
    a == b || a.eq_ignore_ascii_case(b)
}

/// The personal puzzles of player `side` (0-based) from `review`, the review of `played`:
/// one per decision of that player classed a mistake or a blunder (forced moves and plies the
/// judge could not decide are left out). `source` names the game in [`Source::Review`] and in
/// the puzzles' ids. A review that is not of this game is refused (400).
pub fn puzzles(
    played: &Played,
    review: &Review,
    side: usize,
    source: &str,
) -> Result<MistakeSet, ApiError> {
    let game = games::canonical(&played.game).to_string();
    if review.game != game {
        return Err(ApiError::BadRequest(format!(
            "the review is of {}, the game is {game}",
            review.game
        )));
    }
    if side >= review.players {
        return Err(ApiError::BadRequest(format!(
            "side {side} is not a player of this game (players 0-{})",
            review.players.saturating_sub(1)
        )));
    }
    let mismatch =
        |why: String| ApiError::BadRequest(format!("the review is not of this game: {why}"));
    let depth = depth_of(&review.judge);
    let mut session = games::create(
        &game,
        &played.rules,
        played.position.as_deref(),
        played.seed,
    )?;
    let side_name = session
        .snapshot()
        .player_names
        .get(side)
        .cloned()
        .unwrap_or_else(|| format!("player {}", side + 1));
    let mut out = Vec::new();
    for mv in &played.moves {
        let ply = session.ply();
        let before = session.snapshot();
        let r = review
            .plies
            .get(ply)
            .ok_or_else(|| mismatch(format!("it has no ply {ply}")))?;
        if r.kind != PlyKind::Decision || !same_move(&r.played, mv) {
            return Err(mismatch(format!(
                "ply {ply} is {} there, {mv} here",
                r.played
            )));
        }
        let asked = r.mover == side
            && !r.forced
            && !r.unknown
            && matches!(r.class, Some(Class::Mistake | Class::Blunder));
        if asked {
            if let Some(best) = &r.best {
                // The best move in the page's words (the review may write it in another case).
                let best = before
                    .legal
                    .iter()
                    .find(|m| same_move(&m.text, best))
                    .map(|m| m.text.clone())
                    .ok_or_else(|| mismatch(format!("its best move {best} is not legal")))?;
                let mut after =
                    games::create(&game, &played.rules, Some(&before.position), played.seed)?;
                after.play(&best)?;
                let proof = if r.exact {
                    Proof::Exact {
                        by: review.judge.clone(),
                        detail: format!(
                            "the review's exact values: {best} keeps {:.3} win chance, {} {:.3}",
                            r.after_best.win, r.played, r.after_played.win
                        ),
                    }
                } else if let (Some(d), "cp", Some(b), Some(p)) = (
                    depth,
                    review.unit.as_str(),
                    r.after_best.unit,
                    r.after_played.unit,
                ) {
                    Proof::Engine {
                        depth: d,
                        margin_cp: (b - p).round().clamp(-1e9, 1e9) as i32,
                        second_best: r.played.clone(),
                    }
                } else {
                    Proof::Estimate {
                        by: review.judge.clone(),
                        margin: r.loss,
                        worse: r.played.clone(),
                    }
                };
                let class = r.class.map(Class::name).unwrap_or("mistake").to_string();
                let id = format!("mistake-{source}-{ply}");
                let src = Source::Review {
                    game: source.to_string(),
                    ply: u32::try_from(ply).unwrap_or(u32::MAX),
                };
                out.push(MistakePuzzle {
                    puzzle: PuzzleView {
                        id,
                        game: game.clone(),
                        variant: None,
                        position: before.position.clone(),
                        goal: Some(GOAL.to_string()),
                        side: side_name.clone(),
                        solution: vec![best.clone()],
                        asked: vec![0],
                        themes: vec![class.clone()],
                        rating: RatingView::from(Rating::default()),
                        source: serde_json::to_value(&src).unwrap_or(Value::Null),
                        proof: serde_json::to_value(&proof).unwrap_or(Value::Null),
                        steps: vec![before.clone(), after.snapshot()],
                        chances: None,
                        daily: None,
                    },
                    mistake: MistakeNote {
                        ply,
                        class,
                        played: r.played.clone(),
                        best,
                        loss: r.loss,
                        line: r.line.clone(),
                        exact: r.exact,
                        depth,
                        judge: review.judge.clone(),
                    },
                });
            }
        }
        session.play(mv)?;
    }
    Ok(MistakeSet {
        game,
        side,
        side_name,
        puzzles: out,
    })
}

/// `POST /api/mistakes/{game}/check`: an answer to a personal puzzle.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CheckBody {
    /// The puzzle's position (its `position`).
    pub position: String,
    /// The move tried, as a move text.
    pub answer: String,
    /// The review's best move (the puzzle's solution): always right.
    pub best: String,
    /// The move played in the game: always wrong (the review said so).
    #[serde(default)]
    pub played: Option<String>,
    /// The review's search depth (the puzzle's `mistake.depth`), for the judges that search.
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[cfg_attr(feature = "server", schema(minimum = 1, maximum = 40))]
    pub depth: Option<u32>,
}

/// The verdict on an answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct CheckAnswer {
    /// Right: the review's best move, or a move its judge classes `best` or `good`.
    pub right: bool,
    /// The judge's class of the answer (`best`, `good`, `inaccuracy`, `mistake`, `blunder`;
    /// absent when the judge could not decide).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// The win chance (0-1) the answer loses against the judge's best.
    pub loss: f64,
    /// Whether the judge was asked (not for the best move or the move played).
    pub judged: bool,
}

/// Judges `body.answer` in `body.position` of `game` (see the module docs); the judge's
/// searches stop when `cancel` is raised. Bad positions, moves or depths are refused (400).
pub fn check(
    game: &str,
    body: &CheckBody,
    cancel: Arc<AtomicBool>,
) -> Result<CheckAnswer, ApiError> {
    let game = games::canonical(game);
    if !crate::judges::REVIEWED.contains(&game) {
        return Err(ApiError::UnknownGame(
            game.to_string(),
            crate::judges::REVIEWED.join(", "),
        ));
    }
    if body.position.len() > MAX_TEXT || body.answer.len() > MAX_TEXT || body.best.len() > MAX_TEXT
    {
        return Err(ApiError::BadRequest(format!(
            "position and moves are at most {MAX_TEXT} bytes"
        )));
    }
    let session = games::create(game, &Value::Null, Some(&body.position), 1)?;
    if session.player_to_move().is_none() {
        return Err(ApiError::BadRequest(
            "no player is to move in this position".into(),
        ));
    }
    let legal = session.legal_texts();
    for (what, mv) in [("answer", &body.answer), ("best", &body.best)] {
        if !legal.iter().any(|m| m == mv) {
            return Err(ApiError::IllegalMove(
                mv.clone(),
                format!("the {what} is not a legal move in this position"),
            ));
        }
    }
    if body.answer == body.best {
        return Ok(CheckAnswer {
            right: true,
            class: Some("best".into()),
            loss: 0.0,
            judged: false,
        });
    }
    if body.played.as_deref() == Some(body.answer.as_str()) {
        return Ok(CheckAnswer {
            right: false,
            class: None,
            loss: 0.0,
            judged: false,
        });
    }
    let played = Played {
        game: game.to_string(),
        rules: Value::Null,
        position: Some(body.position.clone()),
        seed: 1,
        moves: vec![body.answer.clone()],
    };
    let task = crate::judges::prepare(game, &record_json(&played)?, body.depth, cancel.clone())?;
    let review = task(&mut |_, _| {}).map_err(ApiError::Internal)?;
    // A stopped search's verdict is not the judge's: none is given.
    if cancel.load(Ordering::Relaxed) {
        return Err(ApiError::Unavailable(
            "the judge was stopped before it decided; try again".into(),
        ));
    }
    let ply = review
        .plies
        .iter()
        .find(|p| p.kind == PlyKind::Decision)
        .ok_or_else(|| ApiError::Internal("the judge reviewed no decision".into()))?;
    Ok(CheckAnswer {
        right: !ply.unknown && matches!(ply.class, Some(Class::Best | Class::Good)),
        class: ply.class.map(|c| c.name().to_string()),
        loss: ply.loss,
        judged: true,
    })
}
