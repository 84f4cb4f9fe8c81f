//! Shards of tournaments and self-play, for `qiyi.cluster` (Ray tasks call these): a shard is
//! a range of game indices, each game seeded from the seed and its index exactly as
//! `qiyi tournament` seeds it, so shards put together give the CLI's result.

use crate::error::QiyiError;
use crate::games::{self, Rules};
use crate::py::rules_of;
use crate::search::{Algorithm, SearchRequest};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qiyi_aeroplane::tournament as aero_t;
use qiyi_chinese_checkers::tournament as cc_t;
use qiyi_core::search::SearchLimits;
use qiyi_core::Rng;

/// One aeroplane game in transport form: index, winner (index into the seat list, -1 for none),
/// turns, captures, and per seat (seat-list index, decisions, seconds, max seconds).
pub type AeroGame = (u64, i64, u32, u32, Vec<(usize, u64, f64, f64)>);

/// One Chinese-checkers game in transport form: index, player type per seat, winner, seats
/// ranked first, moves.
pub type CcGame = (u64, Vec<String>, Option<usize>, Vec<usize>, u32);

fn aero_spec(
    seats: &str,
    games: u64,
    seed: u64,
    rules: &Rules,
) -> Result<aero_t::TournamentSpec, QiyiError> {
    let (r, players) = games::aero_rules(rules)?;
    let seats = aero_t::parse_seats(seats, players).map_err(|e| QiyiError::Rule(e.to_string()))?;
    Ok(aero_t::TournamentSpec {
        rules: r,
        seats,
        games,
        seed,
    })
}

fn cc_config(
    seats: &str,
    games: u64,
    seed: u64,
    level: u32,
    rules: &Rules,
) -> Result<cc_t::TournamentConfig, QiyiError> {
    use qiyi_chinese_checkers::engine::PlayerKind;
    let options = games::cc_options(rules)?;
    let listed = seats
        .split(',')
        .map(|s| PlayerKind::parse(s, options.players))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| QiyiError::Rule(e.to_string()))?;
    if listed.is_empty() || listed.len() > options.players {
        return Err(QiyiError::Rule(format!(
            "seats lists 1 to {} player types",
            options.players
        )));
    }
    if !(1..=10).contains(&level) {
        return Err(QiyiError::Rule(format!("level must be 1-10, not {level}")));
    }
    Ok(cc_t::TournamentConfig {
        options,
        seats: (0..options.players)
            .map(|i| listed[i % listed.len()])
            .collect(),
        games: games as usize,
        seed,
        level,
        threads: 1,
    })
}

/// Checks that sorted game indices are exactly `0..games`.
fn covers(indices: impl ExactSizeIterator<Item = u64>, games: u64) -> Result<(), QiyiError> {
    let n = indices.len() as u64;
    if n != games || indices.enumerate().any(|(i, g)| g != i as u64) {
        return Err(QiyiError::Rule(format!(
            "the records do not cover games 0..{games} exactly once"
        )));
    }
    Ok(())
}

fn check_range(start: u64, end: u64, games: u64) -> Result<(), QiyiError> {
    if start > end || end > games {
        return Err(QiyiError::Rule(format!(
            "game range {start}..{end} is not inside 0..{games}"
        )));
    }
    Ok(())
}

/// Plays games `start..end` of a tournament of `game` (`aeroplane` or `chinese_checkers`),
/// with the GIL released; returns them in transport form for [`summarize`].
#[pyfunction]
#[pyo3(signature = (game, seats, games, seed, start, end, level=6, **rules))]
#[allow(clippy::too_many_arguments)]
pub fn play_games(
    py: Python<'_>,
    game: &str,
    seats: &str,
    games: u64,
    seed: u64,
    start: u64,
    end: u64,
    level: u32,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    let rules = rules_of(rules)?;
    check_range(start, end, games)?;
    match games::canonical(game) {
        Some("aeroplane") => {
            let spec = aero_spec(seats, games, seed, &rules)?;
            let out = py.detach(|| -> Result<Vec<AeroGame>, QiyiError> {
                (start..end)
                    .map(|g| {
                        let o = aero_t::play_game(&spec, g)
                            .map_err(|e| QiyiError::Rule(e.to_string()))?;
                        let index = |k| spec.seats.iter().position(|&s| s == k).unwrap_or(0);
                        Ok((
                            g,
                            o.winner_type.map_or(-1, |k| index(k) as i64),
                            o.turns,
                            o.captures,
                            o.timing
                                .iter()
                                .map(|&(k, c, t, m)| (index(k), c, t, m))
                                .collect(),
                        ))
                    })
                    .collect()
            })?;
            Ok(out.into_pyobject(py)?.into_any().unbind())
        }
        Some("chinese_checkers") => {
            let config = cc_config(seats, games, seed, level, &rules)?;
            let out: Vec<CcGame> = py.detach(|| {
                (start..end)
                    .map(|g| {
                        let r = cc_t::play_indexed(&config, g as usize);
                        (g, r.seats, r.winner, r.first, r.plies)
                    })
                    .collect()
            });
            Ok(out.into_pyobject(py)?.into_any().unbind())
        }
        _ => Err(QiyiError::Rule(format!(
            "tournaments are for aeroplane and chinese_checkers, not {game:?}"
        ))
        .into()),
    }
}

/// Puts the games of [`play_games`] (all of them, any order) together into the tournament
/// result, as the JSON text `qiyi tournament GAME --json` prints.
#[pyfunction]
#[pyo3(signature = (game, seats, games, seed, records, level=6, **rules))]
#[allow(clippy::too_many_arguments)]
pub fn summarize(
    game: &str,
    seats: &str,
    games: u64,
    seed: u64,
    records: &Bound<'_, PyAny>,
    level: u32,
    rules: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let rules = rules_of(rules)?;
    let fail = |e: String| QiyiError::Rule(e);
    match games::canonical(game) {
        Some("aeroplane") => {
            let spec = aero_spec(seats, games, seed, &rules)?;
            let mut recs: Vec<AeroGame> = records.extract()?;
            recs.sort_by_key(|r| r.0);
            covers(recs.iter().map(|r| r.0), games)?;
            let kind = |i: usize| {
                spec.seats
                    .get(i)
                    .copied()
                    .ok_or_else(|| fail(format!("seat index {i} out of range")))
            };
            let outcomes = recs
                .iter()
                .map(|(_, w, turns, captures, timing)| {
                    Ok(aero_t::GameOutcome {
                        winner_type: if *w < 0 {
                            None
                        } else {
                            Some(kind(*w as usize)?)
                        },
                        turns: *turns,
                        captures: *captures,
                        timing: timing
                            .iter()
                            .map(|&(i, c, t, m)| Ok((kind(i)?, c, t, m)))
                            .collect::<Result<_, QiyiError>>()?,
                    })
                })
                .collect::<Result<Vec<_>, QiyiError>>()?;
            let result = aero_t::summarize(&spec, &outcomes).map_err(|e| fail(e.to_string()))?;
            serde_json::to_string(&result).map_err(|e| fail(e.to_string()).into())
        }
        Some("chinese_checkers") => {
            let config = cc_config(seats, games, seed, level, &rules)?;
            let mut recs: Vec<CcGame> = records.extract()?;
            recs.sort_by_key(|r| r.0);
            covers(recs.iter().map(|r| r.0), games)?;
            let records = recs
                .into_iter()
                .map(|(_, seats, winner, first, plies)| cc_t::GameRecord {
                    seats,
                    winner,
                    first,
                    plies,
                })
                .collect();
            let result = cc_t::summarize(&config, records);
            serde_json::to_string(&result).map_err(|e| fail(e.to_string()).into())
        }
        _ => Err(fail(format!(
            "tournaments are for aeroplane and chinese_checkers, not {game:?}"
        ))
        .into()),
    }
}

/// Self-play games `start..end` of `game`: every decision searched with `algorithm` under a
/// node or depth budget (deterministic, unlike time), chance outcomes sampled from
/// `Rng::derive(seed, g)`. Returns columns (a dict of lists): game, ply, player, position,
/// action, move, score, result (the mover's final return).
#[pyfunction]
#[pyo3(signature = (game, seed, start, end, algorithm="mcts", level=5, depth=None, nodes=None, player=None, max_plies=400, **rules))]
#[allow(clippy::too_many_arguments)]
pub fn selfplay_games<'py>(
    py: Python<'py>,
    game: &str,
    seed: u64,
    start: u64,
    end: u64,
    algorithm: &str,
    level: u32,
    depth: Option<u32>,
    nodes: Option<u64>,
    player: Option<String>,
    max_plies: usize,
    rules: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = rules_of(rules)?;
    let first = games::load(game, &rules)?;
    if start > end {
        return Err(QiyiError::Rule(format!("game range {start}..{end} is empty")).into());
    }
    if depth.is_none() && nodes.is_none() {
        return Err(QiyiError::Rule(
            "self-play needs depth or nodes (deterministic budgets)".into(),
        )
        .into());
    }
    let algorithm = Algorithm::parse(algorithm)?;
    type Row = (u64, u32, i64, String, u32, String, f64, f64);
    let rows = py.detach(|| -> Result<Vec<Row>, QiyiError> {
        let mut rows: Vec<Row> = Vec::new();
        for g in start..end {
            let mut state = first.clone_box();
            state.reset();
            let mut dice = Rng::derive(seed, g);
            let from = rows.len();
            let mut ply = 0u32;
            loop {
                state.resolve_chance(&mut dice, 10_000);
                let p = state.current_player();
                if p < 0 || ply as usize >= max_plies {
                    break;
                }
                let req = SearchRequest {
                    algorithm,
                    player: player.clone(),
                    level,
                    limits: SearchLimits {
                        depth,
                        nodes,
                        ..Default::default()
                    },
                    seed: Rng::derive(seed ^ 0x5e1f, g * 1_000_003 + ply as u64).next_u64(),
                };
                let position = state.to_text();
                let out = state.search(&req)?;
                let Some(action) = out.best else { break };
                let text = out.best_text.unwrap_or_default();
                rows.push((g, ply, p, position, action, text, out.score, 0.0));
                state.apply_id(action)?;
                ply += 1;
            }
            let returns = state.returns();
            for r in &mut rows[from..] {
                r.7 = returns.get(r.2 as usize).copied().unwrap_or(0.0);
            }
        }
        Ok(rows)
    })?;
    let d = PyDict::new(py);
    d.set_item("game", rows.iter().map(|r| r.0).collect::<Vec<_>>())?;
    d.set_item("ply", rows.iter().map(|r| r.1).collect::<Vec<_>>())?;
    d.set_item("player", rows.iter().map(|r| r.2).collect::<Vec<_>>())?;
    d.set_item(
        "position",
        rows.iter().map(|r| r.3.clone()).collect::<Vec<_>>(),
    )?;
    d.set_item("action", rows.iter().map(|r| r.4).collect::<Vec<_>>())?;
    d.set_item("move", rows.iter().map(|r| r.5.clone()).collect::<Vec<_>>())?;
    d.set_item("score", rows.iter().map(|r| r.6).collect::<Vec<_>>())?;
    d.set_item("result", rows.iter().map(|r| r.7).collect::<Vec<_>>())?;
    Ok(d)
}
