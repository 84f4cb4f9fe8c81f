//! Post-game review from Python: `qiyi.review(game, record, ...)` returns the same review as
//! `qiyi review GAME FILE --json` (core's [`qiyi_core::review::Review`], format 1), built by the
//! game's judge in Rust with the interpreter released.

use crate::engine::limits;
use crate::error::QiyiError;
use pyo3::prelude::*;
use qiyi_core::search::SearchLimits;
use std::path::PathBuf;

/// Reviews the game in `record` (XQ PGN or a JSON record for xiangqi, a PDN game or JSON record
/// for checkers, the JSON record for peg solitaire and aeroplane) and returns the review as JSON
/// text. Checkers takes `depth` (default 16, at most 40) or `movetime` (seconds) per position
/// and an endgame database directory `egdb`; xiangqi takes `depth` (default 12, at most 30) or
/// `movetime`; chinese checkers (its JSON record) takes `depth` (default 4, at most 12) or
/// `movetime` with two players, none with more (the race model); peg solitaire's judge is exact
/// and aeroplane's is its win-chance model: they take none of them.
#[pyfunction]
#[pyo3(signature = (game, record, *, depth=None, movetime=None, egdb=None))]
pub fn review_record(
    py: Python<'_>,
    game: &str,
    record: &str,
    depth: Option<u32>,
    movetime: Option<f64>,
    egdb: Option<PathBuf>,
) -> PyResult<String> {
    let review = match game {
        "peg_solitaire" | "peg-solitaire" | "peg" => {
            refuse_engine_options(
                depth.is_some() || movetime.is_some() || egdb.is_some(),
                "peg solitaire: its judge is an exact solver",
            )?;
            let (start, moves) = qiyi_peg_solitaire::review::read_record(record)
                .map_err(|e| QiyiError::Parse(e.to_string()))?;
            py.detach(|| qiyi_peg_solitaire::review::review_game(&start, &moves, |_, _| {}))
                .map_err(|e| QiyiError::Illegal(e.to_string()))?
        }
        "checkers" => {
            use qiyi_checkers::review::{check_limits, read_record, review_game, JudgeOptions};
            let r = read_record(record).map_err(|e| QiyiError::Parse(e.to_string()))?;
            let limits = match (depth, movetime) {
                (Some(_), Some(_)) => {
                    return Err(QiyiError::Search("give depth or movetime, not both".into()).into())
                }
                (_, Some(t)) => limits(None, None, Some(t))?,
                (d, None) => SearchLimits::depth(d.unwrap_or(qiyi_checkers::review::DEFAULT_DEPTH)),
            };
            check_limits(&limits).map_err(|e| QiyiError::Search(e.to_string()))?;
            let egdb = egdb.as_deref().map(crate::games::load_egdb).transpose()?;
            let options = JudgeOptions {
                limits,
                egdb,
                ..JudgeOptions::default()
            };
            let start = qiyi_checkers::Checkers::from_board(r.start);
            py.detach(|| review_game(&start, &r.moves, &options, |_, _| {}))
                .map_err(|e| QiyiError::Illegal(e.to_string()))?
        }
        "aeroplane" => {
            refuse_engine_options(
                depth.is_some() || movetime.is_some() || egdb.is_some(),
                "aeroplane: its judge is the win-chance model",
            )?;
            let (start, moves) = qiyi_aeroplane::review::read_record(record)
                .map_err(|e| QiyiError::Parse(e.to_string()))?;
            py.detach(|| qiyi_aeroplane::review::review_game(&start, &moves, |_, _| {}))
                .map_err(|e| QiyiError::Illegal(e.to_string()))?
        }
        "xiangqi" => {
            use qiyi_xiangqi::review::{check_limits, read_record, review_game, JudgeOptions};
            if egdb.is_some() {
                return Err(QiyiError::Search(
                    "egdb does not apply to xiangqi: its judge has no endgame database".into(),
                )
                .into());
            }
            let r = read_record(record).map_err(|e| QiyiError::Parse(e.to_string()))?;
            let limits = match (depth, movetime) {
                (Some(_), Some(_)) => {
                    return Err(QiyiError::Search("give depth or movetime, not both".into()).into())
                }
                (_, Some(t)) => limits(None, None, Some(t))?,
                (d, None) => SearchLimits::depth(d.unwrap_or(qiyi_xiangqi::review::DEFAULT_DEPTH)),
            };
            check_limits(&limits).map_err(|e| QiyiError::Search(e.to_string()))?;
            // The shipped net, as `qiyi review` judges by default.
            let options = JudgeOptions {
                limits,
                net: qiyi_xiangqi::nnue::default_net(),
                ..JudgeOptions::default()
            };
            py.detach(|| review_game(&r.start, &r.moves, &options, |_, _| {}))
                .map_err(|e| QiyiError::Illegal(e.to_string()))?
        }
        "chinese_checkers" | "chinese-checkers" => {
            use qiyi_chinese_checkers::review::{
                check_limits, read_record, review_game, JudgeOptions, DEFAULT_DEPTH,
            };
            if egdb.is_some() {
                return Err(QiyiError::Search(
                    "egdb does not apply to chinese_checkers: its judge has no endgame database"
                        .into(),
                )
                .into());
            }
            let r = read_record(record).map_err(|e| QiyiError::Parse(e.to_string()))?;
            let players = qiyi_core::Game::num_players(&r.start);
            if players > 2 && (depth.is_some() || movetime.is_some()) {
                return Err(QiyiError::Search(format!(
                    "depth and movetime apply to two-player chinese_checkers only: with {players} players its judge is the race model"
                ))
                .into());
            }
            let limits = match (depth, movetime) {
                (Some(_), Some(_)) => {
                    return Err(QiyiError::Search("give depth or movetime, not both".into()).into())
                }
                (_, Some(t)) => limits(None, None, Some(t))?,
                (d, None) => SearchLimits::depth(d.unwrap_or(DEFAULT_DEPTH)),
            };
            check_limits(&limits).map_err(|e| QiyiError::Search(e.to_string()))?;
            let options = JudgeOptions {
                limits,
                ..JudgeOptions::default()
            };
            // Core's review; the race table stays with the CLI's JSON (`qiyi review
            // chinese-checkers --json`) and `qiyi.analyze`'s race distances.
            py.detach(|| review_game(&r.start, &r.moves, &options, |_, _| {}))
                .map_err(|e| QiyiError::Illegal(e.to_string()))?
                .review
        }
        other => {
            return Err(QiyiError::UnknownGame(
                other.to_string(),
                "peg_solitaire, checkers, xiangqi, aeroplane, chinese_checkers".into(),
            )
            .into())
        }
    };
    serde_json::to_string(&review).map_err(|e| QiyiError::Search(e.to_string()).into())
}

/// Refuses the engine options (`depth`, `movetime`, `egdb`) for a game whose judge `why`
/// describes (one that searches nothing).
fn refuse_engine_options(given: bool, why: &str) -> Result<(), QiyiError> {
    if given {
        return Err(QiyiError::Search(format!(
            "depth, movetime and egdb do not apply to {why}"
        )));
    }
    Ok(())
}
