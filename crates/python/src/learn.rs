//! Self-play from Python on the same Rust driver as `qiyi selfplay`: `QIYIPOS1` shards that
//! `qiyi train` reads, byte for byte what the CLI writes for the same seed and options.

use crate::error::QiyiError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qiyi_checkers::engine::selfplay::{selfplay, SelfplayOptions};
use std::path::PathBuf;

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
    let options = SelfplayOptions {
        games,
        games_per_shard,
        seed,
        depth,
        nodes,
        random_plies,
        eval,
    };
    let t = std::time::Instant::now();
    let summary = py
        .detach(|| selfplay(&out, &options, shards.as_deref(), threads.max(1), |_| {}))
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
    let options = SelfplayOptions {
        games,
        games_per_shard,
        seed,
        depth,
        nodes,
        random_plies,
        eval,
    };
    // Zero shards: checks the options and the directory, plays nothing.
    selfplay(&out, &options, Some(&[]), 1, |_| {}).map_err(|e| QiyiError::Rule(e.to_string()))?;
    Ok(options.shards())
}

fn xiangqi_options(
    games: usize,
    games_per_shard: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    random_plies: u32,
) -> qiyi_xiangqi::learn::SelfplayOptions {
    qiyi_xiangqi::learn::SelfplayOptions {
        games,
        games_per_shard,
        seed,
        depth,
        nodes,
        random_plies,
    }
}

/// Plays the shards `shards` (all when `None`) of a Xiangqi self-play run into `out` on
/// `threads` threads and returns what it did, as [`checkers_selfplay`] does. The options are
/// `qiyi selfplay xiangqi`'s; the bytes are the CLI's for the same seed and options.
#[pyfunction]
#[pyo3(signature = (out, *, games, games_per_shard=200, seed=1, depth=4, nodes=0, random_plies=6, shards=None, threads=1))]
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
    shards: Option<Vec<usize>>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let options = xiangqi_options(games, games_per_shard, seed, depth, nodes, random_plies);
    let t = std::time::Instant::now();
    let summary = py
        .detach(|| {
            qiyi_xiangqi::learn::selfplay(&out, &options, shards.as_deref(), threads.max(1), |_| {})
        })
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

/// Checks a Xiangqi self-play run's options and claims `out` for it (the caller's check before
/// any worker starts): returns the run's shard count.
#[pyfunction]
#[pyo3(signature = (out, *, games, games_per_shard=200, seed=1, depth=4, nodes=0, random_plies=6))]
pub fn xiangqi_selfplay_claim(
    out: PathBuf,
    games: usize,
    games_per_shard: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    random_plies: u32,
) -> PyResult<usize> {
    let options = xiangqi_options(games, games_per_shard, seed, depth, nodes, random_plies);
    // Zero shards: checks the options and the directory, plays nothing.
    qiyi_xiangqi::learn::selfplay(&out, &options, Some(&[]), 1, |_| {})
        .map_err(|e| QiyiError::Rule(e.to_string()))?;
    Ok(options.shards())
}
