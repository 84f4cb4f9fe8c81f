//! The `qiyi` Python package (pyo3): the five games with OpenSpiel-style states, integer action
//! ids and NumPy observations ([`py`]), vectorised stepping in Rust ([`vector`]), and search
//! from Python ([`search`]). The Python side (`python/qiyi`) adds the PettingZoo and Gymnasium
//! environments and the Ray cluster runs.
//!
//! The arrow points one way: this crate -> the game crates -> `qiyi-core`.

#![warn(missing_docs)]

pub mod analyze;
pub mod batch;
pub mod dynamic;
pub mod engine;
pub mod error;
pub mod games;
pub mod learn;
pub mod matches;
pub mod puzzles;
pub mod py;
pub mod review;
pub mod search;
pub mod tournament;
pub mod vector;

use pyo3::prelude::*;

/// The extension module `qiyi._qiyi`, re-exported by `qiyi/__init__.py`.
#[pymodule]
fn _qiyi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<py::Game>()?;
    m.add_class::<py::State>()?;
    m.add_class::<py::SearchResult>()?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<vector::VectorGames>()?;
    m.add_function(wrap_pyfunction!(py::load_game, m)?)?;
    m.add_function(wrap_pyfunction!(py::registered_names, m)?)?;
    m.add_function(wrap_pyfunction!(py::rule_options, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::play_games, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::summarize, m)?)?;
    m.add_function(wrap_pyfunction!(tournament::selfplay_games, m)?)?;
    m.add_function(wrap_pyfunction!(learn::checkers_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(learn::checkers_selfplay_claim, m)?)?;
    m.add_function(wrap_pyfunction!(learn::xiangqi_selfplay, m)?)?;
    m.add_function(wrap_pyfunction!(learn::xiangqi_selfplay_claim, m)?)?;
    m.add_function(wrap_pyfunction!(learn::read_records, m)?)?;
    m.add_function(wrap_pyfunction!(matches::checkers_match_games, m)?)?;
    m.add_function(wrap_pyfunction!(matches::xiangqi_match_games, m)?)?;
    m.add_function(wrap_pyfunction!(matches::sprt_llr, m)?)?;
    m.add_function(wrap_pyfunction!(matches::match_summary, m)?)?;
    m.add_function(wrap_pyfunction!(review::review_record, m)?)?;
    m.add_function(wrap_pyfunction!(analyze::analyze_position, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles::shipped_puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles::check_puzzle_file, m)?)?;
    m.add("Error", py.get_type::<error::Error>())?;
    m.add("UnknownGameError", py.get_type::<error::UnknownGameError>())?;
    m.add("RuleError", py.get_type::<error::RuleError>())?;
    m.add(
        "IllegalActionError",
        py.get_type::<error::IllegalActionError>(),
    )?;
    m.add("GameOverError", py.get_type::<error::GameOverError>())?;
    m.add("ParseError", py.get_type::<error::ParseError>())?;
    m.add("ShapeError", py.get_type::<error::ShapeError>())?;
    m.add("SearchError", py.get_type::<error::SearchError>())?;
    m.add("CHANCE_PLAYER", dynamic::CHANCE)?;
    m.add("TERMINAL_PLAYER", dynamic::TERMINAL)?;
    Ok(())
}
