//! Matches from Python on the same Rust code as `qiyi match checkers` and `qiyi match xiangqi`:
//! a range of a match's games (one pair for a Ray task), played at a fixed depth or node budget
//! so that each game is the one the whole match plays (or on time, for engines compared on the
//! clock), by our engines or external programs, and the pentanomial SPRT's log-likelihood ratio
//! ([`qiyi_core::stats::Sprt`], the CLI's `--sprt`).

use crate::error::QiyiError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qiyi_checkers::engine::matches::{player_from_spec, run_match_range, GameScore};
use qiyi_core::search::SearchLimits;
use qiyi_core::stats::{Pentanomial, Sprt, SprtStatus};
use std::time::Duration;

/// The most a move may be given on time from Python: ten minutes.
const MAX_MOVETIME_MS: u64 = 600_000;

/// A match on Ray plays every move to a fixed budget (`depth` 1-100 and/or `nodes` at least 1:
/// the games replay task by task) or on time (`movetime` in milliseconds, 1 to 600,000, alone:
/// the games then depend on the machine). Returns the move time for the match's clock.
fn check_budget(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
) -> Result<Option<Duration>, QiyiError> {
    if let Some(ms) = movetime {
        if depth.is_some() || nodes.is_some() {
            return Err(QiyiError::Rule(
                "give either a fixed budget (depth, nodes) or movetime, not both".into(),
            ));
        }
        if ms == 0 || ms > MAX_MOVETIME_MS {
            return Err(QiyiError::Rule(format!(
                "movetime must be 1-{MAX_MOVETIME_MS} ms, not {ms}"
            )));
        }
        return Ok(Some(Duration::from_millis(ms)));
    }
    if depth.is_none() && nodes.is_none() {
        return Err(QiyiError::Rule(
            "give a budget: depth >= 1 or nodes >= 1 (reproducible), or movetime in ms".into(),
        ));
    }
    if depth == Some(0) || depth.is_some_and(|d| d > 100) || nodes == Some(0) {
        return Err(QiyiError::Rule(
            "depth must be 1-100 and nodes at least 1 when given".into(),
        ));
    }
    Ok(None)
}

/// Plays games `start..start + count` of a checkers match between the engines `engine_a` and
/// `engine_b` (`qiyi match checkers --engine` specs: ours, e.g. `qiyi:level=10` or
/// `qiyi:seed:4`, or programs, `hub:COMMAND` and `cep:COMMAND`) with every move searched to
/// `depth` and/or within `nodes` nodes, exactly as `qiyi --seed SEED --threads 1 match checkers
/// --depth D --start START --games COUNT` plays them, or for `movetime` milliseconds.
/// Returns one dict per game: `index` (the game's number in the match), `ballot`, `a_black`,
/// `score` (1, 0.5 or 0 for A), `reason` and `moves` (PDN, from the ballot position).
#[pyfunction]
#[pyo3(signature = (engine_a, engine_b, *, start, count=2, seed=1, depth=None, nodes=None, movetime=None, no_book=false))]
#[allow(clippy::too_many_arguments)]
pub fn checkers_match_games<'py>(
    py: Python<'py>,
    engine_a: String,
    engine_b: String,
    start: usize,
    count: usize,
    seed: u64,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    no_book: bool,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let on_time = check_budget(depth, nodes, movetime)?;
    let rule = |e: qiyi_checkers::engine::matches::MatchError| QiyiError::Rule(e.to_string());
    let limits = SearchLimits {
        depth,
        nodes,
        ..Default::default()
    };
    let records = py.detach(|| {
        let mut a = player_from_spec(&engine_a, 1, None).map_err(rule)?;
        let mut b = player_from_spec(&engine_b, 1, None).map_err(rule)?;
        if no_book {
            a.set_book(false).map_err(rule)?;
            b.set_book(false).map_err(rule)?;
        }
        if on_time.is_none() {
            a.set_limits(limits.clone()).map_err(rule)?;
            b.set_limits(limits).map_err(rule)?;
        }
        let mut out = Vec::new();
        let end = start.saturating_add(count);
        run_match_range(
            a.as_mut(),
            b.as_mut(),
            end,
            start..end,
            on_time.unwrap_or(Duration::from_millis(1)),
            seed,
            None,
            |r, _| {
                out.push(r.clone());
                true
            },
        )
        .map_err(rule)?;
        Ok::<_, QiyiError>(out)
    })?;
    records
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let d = PyDict::new(py);
            d.set_item("index", start + i)?;
            d.set_item("ballot", r.ballot)?;
            d.set_item("a_black", r.a_black)?;
            d.set_item(
                "score",
                match r.score {
                    GameScore::WinA => 1.0,
                    GameScore::Draw => 0.5,
                    GameScore::WinB => 0.0,
                },
            )?;
            d.set_item("reason", r.reason)?;
            d.set_item("moves", r.moves)?;
            Ok(d)
        })
        .collect()
}

/// Plays games `start..start + count` of a Xiangqi match between `engine_a` and `engine_b`
/// (`qiyi match xiangqi --engine` specs: ours, `qiyi`, `qiyi:level=N`, `qiyi:seed`, ..., or
/// programs, `uci:COMMAND` and `ucci:COMMAND`) with every move searched to `depth` and/or within
/// `nodes` nodes (or for `movetime` milliseconds: then the games depend on the machine), from the shipped openings
/// with a `max_plies` cap, exactly as `qiyi --seed SEED --threads 1 match xiangqi --depth D
/// --start START --games COUNT` plays them (a match is whole colour-swapped pairs: game `g`
/// opens with opening `g / 2`, A red when `g` is even). Returns one dict per game: `index`,
/// `opening` (0-based), `opening_fen`, `a_red`, `score` (1, 0.5 or 0 for A), `reason` and
/// `moves` (ICCS). Xiangqi's engines have no opening book: `no_book=True` is refused.
#[pyfunction]
#[pyo3(signature = (engine_a, engine_b, *, start, count=2, seed=1, depth=None, nodes=None, movetime=None, no_book=false, max_plies=300))]
#[allow(clippy::too_many_arguments)]
pub fn xiangqi_match_games<'py>(
    py: Python<'py>,
    engine_a: String,
    engine_b: String,
    start: usize,
    count: usize,
    seed: u64,
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<u64>,
    no_book: bool,
    max_plies: usize,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    use qiyi_xiangqi::matchplay::{
        describe_end, parse_openings, play_match_range, MatchConfig, PlayerSpec, TimeControl,
        OPENINGS,
    };
    let on_time = check_budget(depth, nodes, movetime)?;
    if no_book {
        return Err(QiyiError::Rule(
            "no_book is for checkers: Xiangqi's engines play without an opening book".into(),
        )
        .into());
    }
    if max_plies == 0 {
        return Err(QiyiError::Rule("max_plies must be at least 1".into()).into());
    }
    let rule = |e: qiyi_xiangqi::matchplay::MatchError| QiyiError::Rule(e.to_string());
    let a = PlayerSpec::parse(&engine_a).map_err(rule)?;
    let b = PlayerSpec::parse(&engine_b).map_err(rule)?;
    let openings = parse_openings(OPENINGS).map_err(rule)?;
    let end = start.saturating_add(count);
    let config = MatchConfig {
        games: end,
        time: match on_time {
            Some(t) => TimeControl::MoveTime(t),
            None => TimeControl::Fixed { depth, nodes },
        },
        openings: openings.clone(),
        max_plies,
        seed,
    };
    let report =
        py.detach(|| play_match_range(&a, &b, &config, start..end, |_| {}).map_err(rule))?;
    report
        .games
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let d = PyDict::new(py);
            d.set_item("index", start + i)?;
            d.set_item("opening", r.opening)?;
            d.set_item("opening_fen", openings.get(r.opening))?;
            d.set_item("a_red", r.a_is_red)?;
            d.set_item("score", r.a_score)?;
            d.set_item("reason", describe_end(&r.end))?;
            d.set_item("moves", r.moves)?;
            Ok(d)
        })
        .collect()
}

/// The pentanomial SPRT of `qiyi match --sprt`: for pair counts `counts` (pairs that scored 0,
/// ½, 1, 1½ and 2 points for the first engine) returns `(llr, lower, upper, status)`, `status`
/// one of `"H0"`, `"H1"` and `"continue"`.
#[pyfunction]
#[pyo3(signature = (counts, elo0, elo1, alpha=0.05, beta=0.05))]
pub fn sprt_llr(
    counts: [u64; 5],
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
) -> PyResult<(f64, f64, f64, &'static str)> {
    if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
        return Err(QiyiError::Rule(format!(
            "the SPRT needs finite elo0 < elo1, not {elo0}, {elo1}"
        ))
        .into());
    }
    let open = |x: f64| x > 0.0 && x < 0.5;
    if !(open(alpha) && open(beta)) {
        return Err(QiyiError::Rule(format!(
            "alpha and beta must be in (0, 0.5), not {alpha}, {beta}"
        ))
        .into());
    }
    let test = Sprt {
        elo0,
        elo1,
        alpha,
        beta,
    };
    let p = Pentanomial { counts };
    let (lower, upper) = test.bounds();
    let status = match test.status(&p) {
        SprtStatus::H0 => "H0",
        SprtStatus::H1 => "H1",
        SprtStatus::Continue => "continue",
    };
    Ok((test.llr(&p), lower, upper, status))
}

/// The summary `qiyi match` prints for A's `wins`, `draws` and `losses`: a dict with `games`,
/// `score`, `score_margin95`, `elo`, `elo_low95` and `elo_high95` (core's [`Wdl`]).
///
/// [`Wdl`]: qiyi_core::stats::Wdl
#[pyfunction]
pub fn match_summary(
    py: Python<'_>,
    wins: u64,
    draws: u64,
    losses: u64,
) -> PyResult<Bound<'_, PyDict>> {
    let s = qiyi_core::stats::Wdl {
        wins,
        draws,
        losses,
    };
    let (lo, hi) = s.elo_interval();
    let d = PyDict::new(py);
    d.set_item("games", s.games())?;
    d.set_item("score", s.score())?;
    d.set_item("score_margin95", s.score_margin())?;
    d.set_item("elo", s.elo())?;
    d.set_item("elo_low95", lo)?;
    d.set_item("elo_high95", hi)?;
    Ok(d)
}
