//! Engines that stay loaded: a Python `Engine` built once (level, evaluation, table size,
//! endgame database) and reused for every search, so a call costs the search and nothing more.

use crate::dynamic::{AnyEngine, DynState};
use crate::error::QiyiError;
use crate::games;
use crate::py::{SearchResult, State};
use crate::search::EngineSpec;
use pyo3::prelude::*;
use qiyi_core::search::SearchLimits;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// A game's engine, built once and kept between searches (its transposition table, its
/// network and endgame database stay loaded; `clear()` forgets the table for a new game).
#[pyclass(module = "qiyi")]
pub struct Engine {
    game: &'static str,
    spec: EngineSpec,
    /// A state of the game, to reach its typed engine code.
    template: Box<dyn DynState>,
    engine: Mutex<AnyEngine>,
}

/// The limits of one search, checked: at least one, none zero.
pub fn limits(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
) -> Result<SearchLimits, QiyiError> {
    if depth == Some(0) {
        return Err(QiyiError::Search("depth must be at least 1, not 0".into()));
    }
    if nodes == Some(0) {
        return Err(QiyiError::Search("nodes must be at least 1, not 0".into()));
    }
    if let Some(t) = movetime {
        if !(t.is_finite() && t > 0.0) {
            return Err(QiyiError::Search(format!(
                "movetime must be positive seconds, not {t}"
            )));
        }
    }
    if depth.is_none() && nodes.is_none() && movetime.is_none() {
        return Err(QiyiError::Search(
            "give a budget: depth=, nodes= or movetime= (seconds)".into(),
        ));
    }
    Ok(SearchLimits {
        depth,
        nodes,
        move_time: movetime.map(Duration::from_secs_f64),
        deadline: None,
        stop: None,
    })
}

#[pymethods]
impl Engine {
    /// An engine for `game` (a name as `load_game` takes). `level` 1-10; `player` a player
    /// type or `seed` where the game has them; `evaluation` (checkers and Xiangqi: `net`, the
    /// default, `hand` or a network file of that game); `hash_mib` the table size (checkers and Xiangqi);
    /// `endgame` a directory with a complete checkers endgame database; `book` lets the
    /// checkers opening book answer (off by default, so every result is a search); `seed`
    /// seeds the levels' noise and the players' random choices.
    #[new]
    #[pyo3(signature = (game, *, level=10, player=None, evaluation=None, hash_mib=None, endgame=None, book=false, seed=0, **rules))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        level: u32,
        player: Option<String>,
        evaluation: Option<String>,
        hash_mib: Option<usize>,
        endgame: Option<PathBuf>,
        book: bool,
        seed: u64,
        rules: Option<&Bound<'_, pyo3::types::PyDict>>,
    ) -> PyResult<Engine> {
        if !(1..=10).contains(&level) {
            return Err(QiyiError::Search(format!("level must be 1-10, not {level}")).into());
        }
        if hash_mib == Some(0) {
            return Err(QiyiError::Search("hash_mib must be at least 1, not 0".into()).into());
        }
        let rules = crate::py::rules_of(rules)?;
        let template = games::load(game, &rules)?;
        let spec = EngineSpec {
            player,
            level,
            evaluation,
            hash_mib,
            endgame,
            book,
            seed,
        };
        let engine = py.detach(|| template.new_engine(&spec))?;
        Ok(Engine {
            game: template.name(),
            spec,
            template,
            engine: Mutex::new(engine),
        })
    }

    /// The game this engine plays.
    #[getter]
    fn game(&self) -> &'static str {
        self.game
    }

    /// Searches `state` within `depth`, `nodes` or `movetime` (seconds; at least one, none
    /// zero). The engine keeps its table between calls; the result reports the nodes and
    /// depth this search really did (0 for a book or forced move, said in `algorithm`).
    #[pyo3(signature = (state, *, depth=None, nodes=None, movetime=None))]
    fn search(
        &self,
        py: Python<'_>,
        state: &State,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
    ) -> PyResult<SearchResult> {
        if state.inner.name() != self.game {
            return Err(QiyiError::Search(format!(
                "this is a {} engine; it cannot search a {} state",
                self.game,
                state.inner.name()
            ))
            .into());
        }
        let limits = limits(depth, nodes, movetime)?;
        let inner = &state.inner;
        let out = py.detach(|| {
            let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
            inner.search_engine(&mut engine, &limits)
        })?;
        Ok(out.into())
    }

    /// Forgets what earlier searches learnt (the table): call it between games.
    fn clear(&self, py: Python<'_>) -> PyResult<()> {
        py.detach(|| {
            let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
            self.template.clear_engine(&mut engine)
        })?;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "qiyi.Engine({:?}, level={}, player={:?}, evaluation={:?}, hash_mib={:?}, endgame={:?}, book={}, seed={})",
            self.game,
            self.spec.level,
            self.spec.player,
            self.spec.evaluation,
            self.spec.hash_mib,
            self.spec.endgame,
            if self.spec.book { "True" } else { "False" },
            self.spec.seed
        )
    }
}
