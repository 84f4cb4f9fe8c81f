//! Position analysis from Python: `qiyi.analyze(game, position, ...)` returns what
//! `qiyi analyze GAME ... --json` reports, as JSON text that the Python side turns into a dict:
//! the engine's lines (multi-PV) for Xiangqi and checkers, the exact solver's verdict for peg
//! solitaire, every choice's win chance for a roll in aeroplane chess, and race distances and the
//! engine's move in Chinese checkers. Every search runs in Rust with the interpreter released.

use crate::error::QiyiError;
use pyo3::prelude::*;
use qiyi_core::eval::{Score, MATE, MATE_BOUND};
use qiyi_core::review::logistic;
use qiyi_core::search::multipv::{MultiPvInfo, MAX_LINES};
use qiyi_core::search::SearchLimits;
use qiyi_core::{Game, Notation, Turn};
use serde_json::{json, Value};
use std::time::Duration;

/// What the caller asked for, checked.
struct Ask {
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    multipv: usize,
    roll: Option<u8>,
}

/// Analyses `position` (the game's position text; `None`: the start position with the default
/// rules) and returns the report as JSON text. `depth` or `movetime_ms` bound the engine
/// searches (Xiangqi and checkers default to the review's depth, Chinese checkers to the
/// engine's own node budget); `multipv` (1-10) is for Xiangqi and checkers; `roll` (1-6) is the
/// face to play in aeroplane chess.
#[pyfunction]
#[pyo3(signature = (game, position=None, *, depth=None, movetime_ms=None, multipv=1, roll=None))]
pub fn analyze_position(
    py: Python<'_>,
    game: &str,
    position: Option<&str>,
    depth: Option<u32>,
    movetime_ms: Option<u64>,
    multipv: usize,
    roll: Option<u8>,
) -> PyResult<String> {
    if depth.is_some() && movetime_ms.is_some() {
        return Err(QiyiError::Search("give depth or movetime_ms, not both".into()).into());
    }
    if depth == Some(0) {
        return Err(QiyiError::Search("depth must be at least 1, not 0".into()).into());
    }
    if movetime_ms == Some(0) {
        return Err(QiyiError::Search("movetime_ms must be at least 1, not 0".into()).into());
    }
    if multipv == 0 || multipv > MAX_LINES {
        return Err(QiyiError::Search(format!(
            "multipv {multipv} is out of range: 1-{MAX_LINES} lines"
        ))
        .into());
    }
    if let Some(r) = roll {
        if !(1..=6).contains(&r) {
            return Err(QiyiError::Search(format!("roll {r} is not a die face (1-6)")).into());
        }
    }
    let ask = Ask {
        depth,
        movetime_ms,
        multipv,
        roll,
    };
    let report = match game {
        "xiangqi" => {
            ask.no_roll("xiangqi")?;
            xiangqi(py, position, &ask)?
        }
        "checkers" => {
            ask.no_roll("checkers")?;
            checkers(py, position, &ask)?
        }
        "peg_solitaire" | "peg-solitaire" | "peg" => {
            ask.no_roll("peg solitaire")?;
            ask.one_line("peg solitaire")?;
            if depth.is_some() || movetime_ms.is_some() {
                return Err(QiyiError::Search(
                    "depth and movetime_ms do not apply to peg solitaire: its solver is exact and exhaustive"
                        .into(),
                )
                .into());
            }
            peg(py, position)?
        }
        "aeroplane" => {
            ask.one_line("aeroplane")?;
            if depth.is_some() || movetime_ms.is_some() {
                return Err(QiyiError::Search(
                    "depth and movetime_ms do not apply to aeroplane: its judge is the win-chance model"
                        .into(),
                )
                .into());
            }
            aeroplane(py, position, roll)?
        }
        "chinese_checkers" | "chinese-checkers" => {
            ask.no_roll("chinese checkers")?;
            ask.one_line("chinese checkers")?;
            chinese_checkers(py, position, &ask)?
        }
        other => {
            return Err(QiyiError::UnknownGame(
                other.to_string(),
                "xiangqi, checkers, chinese_checkers, peg_solitaire, aeroplane".into(),
            )
            .into())
        }
    };
    serde_json::to_string(&report).map_err(|e| QiyiError::Search(e.to_string()).into())
}

impl Ask {
    fn no_roll(&self, game: &str) -> Result<(), QiyiError> {
        match self.roll {
            Some(_) => Err(QiyiError::Search(format!(
                "roll applies to aeroplane only, not to {game}"
            ))),
            None => Ok(()),
        }
    }

    fn one_line(&self, game: &str) -> Result<(), QiyiError> {
        if self.multipv != 1 {
            return Err(QiyiError::Search(format!(
                "multipv applies to xiangqi and checkers, not to {game}"
            )));
        }
        Ok(())
    }

    /// The engine's limits: a depth checked by the review's bounds, a movetime, or the
    /// review's default depth.
    fn limits(&self, default_depth: u32) -> SearchLimits {
        match (self.depth, self.movetime_ms) {
            (_, Some(ms)) => SearchLimits::move_time(Duration::from_millis(ms)),
            (d, None) => SearchLimits::depth(d.unwrap_or(default_depth)),
        }
    }

    fn limit_text(&self, limits: &SearchLimits) -> String {
        match (limits.depth, limits.move_time) {
            (_, Some(t)) => format!("{} ms", t.as_millis()),
            (Some(d), None) => format!("depth {d}"),
            (None, None) => "no limit".into(),
        }
    }
}

/// A score as a JSON object: `{"cp": n}` or `{"mate": n}` (moves, negative when the side to move
/// is mated).
fn score_json(score: Score) -> Value {
    if score.abs() >= MATE_BOUND {
        let plies = MATE - score.abs();
        let moves = (plies + 1) / 2;
        json!({ "mate": if score > 0 { moves } else { -moves } })
    } else {
        json!({ "cp": score })
    }
}

/// The side to move's win chance for `score`: a proven mate is 1 or 0, otherwise the logistic
/// with the game's calibrated slope.
fn win_chance(score: Score, slope: f64) -> f64 {
    if score.abs() >= MATE_BOUND {
        if score > 0 {
            1.0
        } else {
            0.0
        }
    } else {
        logistic(score as f64, slope)
    }
}

/// The multi-PV report of a two-player engine: every depth's lines and the last one's.
fn multipv_json<M>(
    info: &[MultiPvInfo<M>],
    slope: f64,
    notation: impl Fn(&[M]) -> Vec<String>,
) -> (Value, Vec<Value>) {
    let lines = |i: &MultiPvInfo<M>| -> Vec<Value> {
        i.lines
            .iter()
            .enumerate()
            .map(|(k, l)| {
                let pv = notation(&l.pv);
                json!({
                    "multipv": k + 1,
                    "move": pv.first().cloned(),
                    "depth": i.depth,
                    "score": score_json(l.score),
                    "win_chance": win_chance(l.score, slope),
                    "capped": l.capped,
                    "nodes": i.stats.nodes,
                    "pv": pv,
                })
            })
            .collect()
    };
    let depths: Vec<Value> = info
        .iter()
        .map(|i| {
            json!({
                "depth": i.depth,
                "seldepth": i.stats.seldepth,
                "nodes": i.stats.nodes,
                "time_ms": i.stats.time.as_millis() as u64,
                "lines": lines(i),
            })
        })
        .collect();
    let last = info.last().map_or_else(|| json!([]), |i| json!(lines(i)));
    (last, depths)
}

/// Fills in the common fields of an engine report from its depths.
fn engine_report<M>(
    game: &str,
    position: String,
    engine: String,
    info: Vec<MultiPvInfo<M>>,
    slope: f64,
    notation: impl Fn(&[M]) -> Vec<String>,
) -> Value {
    let (lines, depths) = multipv_json(&info, slope, notation);
    let last = info.last();
    let best = lines.get(0).and_then(|l| l.get("move")).cloned();
    json!({
        "game": game,
        "position": position,
        "engine": engine,
        "win_slope": slope,
        "exact": false,
        "bestmove": best.unwrap_or(Value::Null),
        "depth": last.map_or(0, |i| i.depth),
        "seldepth": last.map_or(0, |i| i.stats.seldepth),
        "nodes": last.map_or(0, |i| i.stats.nodes),
        "time_ms": last.map_or(0, |i| i.stats.time.as_millis() as u64),
        "lines": lines,
        "depths": depths,
    })
}

fn xiangqi(py: Python<'_>, position: Option<&str>, ask: &Ask) -> Result<Value, QiyiError> {
    use qiyi_xiangqi::engine::{Engine, EngineConfig, Level};
    use qiyi_xiangqi::review::{check_limits, DEFAULT_DEPTH, WIN_SLOPE};
    use qiyi_xiangqi::Position;
    let pos = match position {
        None => Position::default(),
        Some(t) => Position::from_fen(t.trim())
            .map_err(|e| QiyiError::Parse(format!("bad xiangqi FEN {t:?}: {e}")))?,
    };
    let limits = ask.limits(DEFAULT_DEPTH);
    check_limits(&limits).map_err(|e| QiyiError::Search(e.to_string()))?;
    let what = format!(
        "qiyi xiangqi engine (level 10, one thread, {})",
        ask.limit_text(&limits)
    );
    let lines = ask.multipv;
    let info = py.detach(move || {
        let mut engine = Engine::new(EngineConfig {
            level: Level::Strength(10),
            threads: 1,
            net: qiyi_xiangqi::nnue::default_net(),
            ..EngineConfig::default()
        });
        let mut all = Vec::new();
        engine.multipv(&pos, &limits, lines, |i| all.push(i.clone()));
        (pos, all)
    });
    let (pos, all) = info;
    let notation = |pv: &[qiyi_xiangqi::Move]| pv.iter().map(|m| m.to_string()).collect();
    Ok(engine_report(
        "xiangqi",
        pos.to_fen(),
        what,
        all,
        WIN_SLOPE,
        notation,
    ))
}

fn checkers(py: Python<'_>, position: Option<&str>, ask: &Ask) -> Result<Value, QiyiError> {
    use qiyi_checkers::engine::{Engine, Level};
    use qiyi_checkers::notation::move_to_pdn;
    use qiyi_checkers::review::{check_limits, DEFAULT_DEPTH, WIN_SLOPE};
    use qiyi_checkers::Checkers;
    let pos = match position {
        None => Checkers::default(),
        Some(t) => Checkers::from_fen(t.trim())
            .map_err(|e| QiyiError::Parse(format!("bad checkers FEN {t:?}: {e}")))?,
    };
    let limits = ask.limits(DEFAULT_DEPTH);
    check_limits(&limits).map_err(|e| QiyiError::Search(e.to_string()))?;
    let what = format!(
        "qiyi checkers engine (level 10, one thread, {})",
        ask.limit_text(&limits)
    );
    let lines = ask.multipv;
    let (pos, all) = py.detach(move || {
        let mut engine = Engine::new(Level::MAX, 1);
        let mut all = Vec::new();
        engine.multipv(&pos, &limits, lines, |i| all.push(i.clone()));
        (pos, all)
    });
    let notation = |pv: &[qiyi_checkers::Move]| {
        let mut p = pos.clone();
        pv.iter()
            .map(|&m| {
                let t = move_to_pdn(&m);
                p.make(m);
                t
            })
            .collect()
    };
    Ok(engine_report(
        "checkers",
        pos.fen(),
        what,
        all,
        WIN_SLOPE,
        notation,
    ))
}

/// The most pegs a peg-solitaire position may hold to be analysed (the English start's 32).
pub const MAX_PEGS: u32 = 32;

fn peg(py: Python<'_>, position: Option<&str>) -> Result<Value, QiyiError> {
    use qiyi_peg_solitaire::review::PegJudge;
    use qiyi_peg_solitaire::{Board, PegPosition};
    let pos = match position {
        None => {
            let board = Board::named("english").map_err(|e| QiyiError::Rule(e.to_string()))?;
            PegPosition::start(std::sync::Arc::new(board))
        }
        Some(t) => {
            // Rows may be split by `/` (one line), as `qiyi analyze peg-solitaire --position`.
            let text = if t.contains('\n') {
                t.to_string()
            } else {
                t.replace('/', "\n")
            };
            PegPosition::from_text(&text)
                .map_err(|e| QiyiError::Parse(format!("bad peg solitaire position {t:?}: {e}")))?
        }
    };
    // The exact search has no budget: beyond the English board's start its memo can outgrow
    // the machine (a stranger's picture of 40 pegs), so such positions are refused.
    if pos.peg_count() > MAX_PEGS {
        return Err(QiyiError::Search(format!(
            "{} pegs: the exact analysis takes positions of at most {MAX_PEGS} pegs",
            pos.peg_count()
        )));
    }
    let (pos, fewest, mut moves, nodes) = py.detach(move || {
        let mut judge = PegJudge::new();
        let fewest = judge.fewest_pegs(&pos);
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let moves: Vec<(String, u32)> = legal
            .iter()
            .map(|&m| (pos.move_to_text(m), judge.fewest_pegs(&pos.after(m))))
            .collect();
        (pos, fewest, moves, judge.nodes)
    });
    moves.sort_by_key(|m| m.1);
    let list: Vec<Value> = moves
        .iter()
        .map(|(m, f)| json!({ "move": m, "fewest_pegs": f, "solvable": *f == 1 }))
        .collect();
    Ok(json!({
        "game": "peg_solitaire",
        "position": pos.to_text(),
        "pegs": pos.peg_count(),
        "solvable": fewest == 1,
        "fewest_pegs": fewest,
        "exact": true,
        "engine": "exhaustive search with a memo (the review's exact judge)",
        "bestmove": moves.first().map(|m| m.0.clone()),
        "moves": list,
        "nodes": nodes,
    }))
}

fn aeroplane(py: Python<'_>, position: Option<&str>, roll: Option<u8>) -> Result<Value, QiyiError> {
    use qiyi_aeroplane::review::AeroJudge;
    use qiyi_aeroplane::{Aero, AeroMove};
    let pos = match position {
        None => Aero::new(qiyi_aeroplane::Rules::default(), 4)
            .map_err(|e| QiyiError::Rule(e.to_string()))?,
        Some(t) => Aero::from_text(t.trim())
            .map_err(|e| QiyiError::Parse(format!("bad aeroplane position {t:?}: {e}")))?,
    };
    // A roll to come: play `roll`; a roll already on the board: analyse it.
    let (before, after, face) = match pos.turn() {
        Turn::Over => {
            return Err(QiyiError::GameOver(
                "the game is over: no roll to play".into(),
            ))
        }
        Turn::Chance => {
            let Some(face) = roll else {
                return Err(QiyiError::Search(
                    "a roll is next in this position: give roll=1..6".into(),
                ));
            };
            let mut faces = Vec::new();
            pos.chance_outcomes(&mut faces);
            let m = AeroMove::Roll(face);
            if !faces.iter().any(|&(f, _)| f == m) {
                return Err(QiyiError::Illegal(format!(
                    "the roll {face} cannot happen here"
                )));
            }
            let mut after = pos;
            after.play(m);
            (pos, after, face)
        }
        Turn::Player(_) => {
            let rolled = pos.pending_roll();
            if let Some(face) = roll {
                if face != rolled {
                    return Err(QiyiError::Illegal(format!(
                        "this position has rolled {rolled} already, not {face}"
                    )));
                }
            }
            (pos, pos, rolled)
        }
    };
    let player = before.to_move();
    let rules = before.rules();
    let (choices, best) = if matches!(after.turn(), Turn::Player(_)) {
        let (list, best) = py.detach(move || -> Result<_, QiyiError> {
            let mut judge = AeroJudge::new(&rules).map_err(|e| QiyiError::Rule(e.to_string()))?;
            judge
                .choice_values(&after)
                .map_err(|e| QiyiError::Search(e.to_string()))
        })?;
        let choices: Vec<(String, Value)> = list
            .into_iter()
            .map(|(c, w, t)| {
                let plane = after.move_to_text(AeroMove::Plane(c));
                let v = json!({
                    "plane": plane,
                    "win": w.get(player).copied().unwrap_or(0.0),
                    "wins": w,
                    "turns": t,
                });
                (plane, v)
            })
            .collect();
        let best = choices.get(best).map(|c| c.0.clone());
        (choices.into_iter().map(|c| c.1).collect::<Vec<_>>(), best)
    } else {
        (Vec::new(), None)
    };
    Ok(json!({
        "game": "aeroplane",
        "position": before.to_text(),
        "roll": face,
        "player": player,
        "bestmove": best,
        "choices": choices,
        "exact": false,
        "engine": "the review's win-chance model (the `best` player's, strength 1)",
    }))
}

fn chinese_checkers(py: Python<'_>, position: Option<&str>, ask: &Ask) -> Result<Value, QiyiError> {
    use qiyi_chinese_checkers::engine::{Player, PlayerKind};
    use qiyi_chinese_checkers::review::{RaceDistance, RaceSolver, DEFAULT_RACE_NODES};
    use qiyi_chinese_checkers::Position;
    let pos = match position {
        None => Position::default(),
        Some(t) => Position::from_text(t.trim())
            .map_err(|e| QiyiError::Parse(format!("bad chinese checkers position {t:?}: {e}")))?,
    };
    let players = pos.num_players();
    let limits = match (ask.depth, ask.movetime_ms) {
        (Some(d), _) if d > 30 => {
            return Err(QiyiError::Search(format!(
                "depth {d} is out of range: the chinese checkers engine searches at depth 1-30"
            )))
        }
        (d, Some(ms)) => SearchLimits {
            depth: d,
            move_time: Some(Duration::from_millis(ms)),
            ..SearchLimits::default()
        },
        (d, None) => SearchLimits {
            depth: d,
            ..SearchLimits::default()
        },
    };
    let budget = match (ask.depth, ask.movetime_ms) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(ms)) => format!("{ms} ms"),
        (None, None) => "the level-10 node budget".into(),
    };
    let over = pos.turn() == Turn::Over;
    let (pos, race, thought) = py.detach(move || -> Result<_, QiyiError> {
        // The Chinese checkers judge's race solver: exact within its node budget, else the
        // proven lower bound (qiyi_chinese_checkers::review::RaceSolver).
        let mut solver = RaceSolver::new(DEFAULT_RACE_NODES);
        let race: Vec<RaceDistance> = (0..players).map(|p| solver.distance(&pos, p)).collect();
        let thought = if over {
            None
        } else {
            let kind = PlayerKind::best(players);
            let mut player = Player::new(kind, 10, 1);
            Some((kind, player.think(&pos, &limits)))
        };
        Ok((pos, race, thought))
    })?;
    let search = thought.as_ref().map(|(kind, t)| {
        let mut p = pos.clone();
        let pv: Vec<String> =
            t.pv.iter()
                .map(|&m| {
                    let s = p.move_to_text(m);
                    p.make(m);
                    s
                })
                .collect();
        json!({
            "player": kind.to_string(),
            "move": pos.move_to_text(t.best_move),
            "score": t.score,
            "depth": t.depth,
            "nodes": t.nodes,
            "pv": pv,
        })
    });
    let bestmove = search.as_ref().and_then(|s| s.get("move").cloned());
    Ok(json!({
        "game": "chinese_checkers",
        "position": pos.to_text(),
        "players": players,
        "to_move": if over { Value::Null } else { json!(pos.to_move()) },
        "race": race.iter().map(|d| d.moves).collect::<Vec<_>>(),
        "race_exact": race.iter().map(|d| d.exact).collect::<Vec<_>>(),
        "race_bound": race.iter().any(|d| !d.exact),
        "race_method": format!(
            "the review's race solver: exact within {DEFAULT_RACE_NODES} nodes a player \
             (race_exact), else a proven lower bound (the row relaxation of \
             qiyi_chinese_checkers::solitaire; with 15 pieces the pieces outside the goal), \
             each player alone on the star; a bound is never more than the true distance"
        ),
        "engine": match &thought {
            Some((kind, _)) if players == 2 => format!("qiyi chinese checkers {kind} (level 10, {budget})"),
            Some((kind, _)) => format!("qiyi chinese checkers {kind} (level 10; it does not search)"),
            None => "none: the game is over".into(),
        },
        "bestmove": bestmove.unwrap_or(Value::Null),
        "search": search,
        "exact": false,
    }))
}
