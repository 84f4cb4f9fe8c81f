//! Self-play from Python on the same Rust driver as `qiyi selfplay`: `QIYIPOS1` shards that
//! `qiyi train` reads, byte for byte what the CLI writes for the same seed and options.

use crate::error::QiyiError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qiyi_core::learn::selfplay::{SelfPlaySummary, SelfplayOptions};
use qiyi_core::learn::LearnError;
use std::path::PathBuf;

#[allow(clippy::too_many_arguments)]
fn options(
    games: usize,
    games_per_shard: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    random_plies: u32,
    eval: String,
) -> SelfplayOptions {
    SelfplayOptions {
        games,
        games_per_shard,
        seed,
        depth,
        nodes,
        random_plies,
        eval,
    }
}

/// A game's self-play entry point (`qiyi_checkers::engine::selfplay::selfplay`,
/// `qiyi_xiangqi::learn::selfplay`).
type Play = fn(
    &std::path::Path,
    &SelfplayOptions,
    Option<&[usize]>,
    usize,
    fn(qiyi_core::learn::selfplay::ShardDone),
) -> Result<SelfPlaySummary, LearnError>;

/// Plays the shards `shards` with `play` and returns the summary as a dict.
fn run<'py>(
    py: Python<'py>,
    play: Play,
    out: PathBuf,
    options: SelfplayOptions,
    shards: Option<Vec<usize>>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let t = std::time::Instant::now();
    let summary = py
        .detach(|| play(&out, &options, shards.as_deref(), threads.max(1), |_| {}))
        .map_err(|e| QiyiError::Rule(e.to_string()))?;
    let d = PyDict::new(py);
    d.set_item("written", summary.written)?;
    d.set_item("skipped", summary.skipped)?;
    d.set_item("games", summary.games)?;
    d.set_item("positions", summary.positions)?;
    d.set_item("results", summary.results.to_vec())?;
    d.set_item("seconds", t.elapsed().as_secs_f64())?;
    d.set_item("shards", options.shards())?;
    Ok(d)
}

/// Checks a run's options and claims `out` for it with `play` on zero shards (the caller's
/// check before any worker starts): returns the run's shard count.
fn claim(play: Play, out: PathBuf, options: SelfplayOptions) -> PyResult<usize> {
    play(&out, &options, Some(&[]), 1, |_| {}).map_err(|e| QiyiError::Rule(e.to_string()))?;
    Ok(options.shards())
}

/// Plays the shards `shards` (all when `None`) of a checkers self-play run into `out` on
/// `threads` threads and returns what it did: `written`, `skipped`, `games`, `positions`,
/// `seconds`, `shards` (the run's shard count). The options are `qiyi selfplay checkers`'s.
#[pyfunction]
#[pyo3(signature = (out, *, games, games_per_shard=200, seed=1, depth=6, nodes=0, random_plies=6, eval="hand".to_string(), shards=None, threads=1))]
#[allow(clippy::too_many_arguments)]
pub fn checkers_selfplay<'py>(
    py: Python<'py>,
    out: PathBuf,
    games: usize,
    games_per_shard: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    random_plies: u32,
    eval: String,
    shards: Option<Vec<usize>>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let o = options(
        games,
        games_per_shard,
        seed,
        depth,
        nodes,
        random_plies,
        eval,
    );
    run(
        py,
        qiyi_checkers::engine::selfplay::selfplay,
        out,
        o,
        shards,
        threads,
    )
}

/// Checks a checkers self-play run's options and claims `out` for it (the caller's check before
/// any worker starts): returns the run's shard count.
#[pyfunction]
#[pyo3(signature = (out, *, games, games_per_shard=200, seed=1, depth=6, nodes=0, random_plies=6, eval="hand".to_string()))]
#[allow(clippy::too_many_arguments)]
pub fn checkers_selfplay_claim(
    out: PathBuf,
    games: usize,
    games_per_shard: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    random_plies: u32,
    eval: String,
) -> PyResult<usize> {
    let o = options(
        games,
        games_per_shard,
        seed,
        depth,
        nodes,
        random_plies,
        eval,
    );
    claim(qiyi_checkers::engine::selfplay::selfplay, out, o)
}

/// Plays the shards `shards` (all when `None`) of a Xiangqi self-play run into `out` on
/// `threads` threads and returns what it did, as [`checkers_selfplay`] does. The options are
/// `qiyi selfplay xiangqi`'s; the bytes are the CLI's for the same seed and options.
#[pyfunction]
#[pyo3(signature = (out, *, games, games_per_shard=200, seed=1, depth=4, nodes=0, random_plies=6, eval="hand".to_string(), shards=None, threads=1))]
#[allow(clippy::too_many_arguments)]
pub fn xiangqi_selfplay<'py>(
    py: Python<'py>,
    out: PathBuf,
    games: usize,
    games_per_shard: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    random_plies: u32,
    eval: String,
    shards: Option<Vec<usize>>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let o = options(
        games,
        games_per_shard,
        seed,
        depth,
        nodes,
        random_plies,
        eval,
    );
    run(py, qiyi_xiangqi::learn::selfplay, out, o, shards, threads)
}

/// Checks a Xiangqi self-play run's options and claims `out` for it (the caller's check before
/// any worker starts): returns the run's shard count.
#[pyfunction]
#[pyo3(signature = (out, *, games, games_per_shard=200, seed=1, depth=4, nodes=0, random_plies=6, eval="hand".to_string()))]
#[allow(clippy::too_many_arguments)]
pub fn xiangqi_selfplay_claim(
    out: PathBuf,
    games: usize,
    games_per_shard: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    random_plies: u32,
    eval: String,
) -> PyResult<usize> {
    let o = options(
        games,
        games_per_shard,
        seed,
        depth,
        nodes,
        random_plies,
        eval,
    );
    claim(qiyi_xiangqi::learn::selfplay, out, o)
}

/// The records of one `QIYIPOS1` shard as columns: `game` (the shard's tag), `games` (games
/// played to make it), and lists `position` (the position's FEN: PDN FEN for checkers, Xiangqi
/// FEN), `side` (0 first player, 1 second), `score`, `result` (side to move's view) and `ply`,
/// one entry per record in file order. A file that is not a shard of a known game raises.
#[pyfunction]
pub fn read_records<'py>(py: Python<'py>, path: PathBuf) -> PyResult<Bound<'py, PyDict>> {
    use qiyi_core::learn::record::{Dataset, Encode};
    let mut ds = Dataset::default();
    ds.add_shard(&path)
        .map_err(|e| QiyiError::Rule(e.to_string()))?;
    let decode: fn(&[u8]) -> Option<(String, i8)> = match ds.tag.as_str() {
        "checkers" => |b| {
            qiyi_checkers::Checkers::decode(b)
                .map(|p| (p.fen(), p.board().side_to_move().index() as i8))
        },
        "xiangqi" => |b| {
            qiyi_xiangqi::Position::decode(b).map(|p| (p.to_fen(), p.side_to_move().index() as i8))
        },
        other => {
            return Err(QiyiError::Rule(format!(
                "{}: shards of {other:?} cannot be read here (checkers, xiangqi)",
                path.display()
            ))
            .into())
        }
    };
    let n = ds.len();
    let (mut position, mut side) = (Vec::with_capacity(n), Vec::with_capacity(n));
    let (mut score, mut result, mut ply) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for i in 0..n {
        let r = ds.get(i);
        let (fen, s) = decode(r.position).ok_or_else(|| {
            QiyiError::Rule(format!(
                "{}: record {i} is not a {} position",
                path.display(),
                ds.tag
            ))
        })?;
        position.push(fen);
        side.push(s);
        score.push(r.score);
        result.push(r.result);
        // u16, not u8: a Vec<u8> would reach Python as bytes, not a list.
        ply.push(u16::from(r.ply));
    }
    let d = PyDict::new(py);
    d.set_item("game", ds.tag.clone())?;
    d.set_item("games", ds.games)?;
    d.set_item("position", position)?;
    d.set_item("side", side)?;
    d.set_item("score", score)?;
    d.set_item("result", result)?;
    d.set_item("ply", ply)?;
    Ok(d)
}
