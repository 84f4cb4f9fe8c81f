//! The Python classes: `Game`, `State`, `SearchResult`, and `load_game`.

use crate::dynamic::DynState;
use crate::error::QiyiError;
use crate::games::{self, Rules};
use crate::search::{Algorithm, SearchOut, SearchRequest};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyInt, PyList};
use qiyi_core::search::SearchLimits;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

/// Reads `**rules` into text values (bool, int or str).
pub fn rules_of(kwargs: Option<&Bound<'_, PyDict>>) -> PyResult<Rules> {
    let mut out = Vec::new();
    if let Some(d) = kwargs {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            let value = if v.is_instance_of::<PyBool>() {
                v.extract::<bool>()?.to_string()
            } else if let Ok(i) = v.extract::<i64>() {
                i.to_string()
            } else if let Ok(s) = v.extract::<String>() {
                s
            } else {
                return Err(QiyiError::Rule(format!(
                    "rule {key} must be a bool, an int or a str, not {}",
                    v.get_type().name()?
                ))
                .into());
            };
            out.push((key, value));
        }
    }
    Ok(out)
}

/// A game with its rule options: makes states (pyspiel's `Game`).
#[pyclass(module = "qiyi", frozen)]
pub struct Game {
    name: String,
    rules: Rules,
    template: Box<dyn DynState>,
}

#[pymethods]
impl Game {
    /// The game's name (`xiangqi`, `checkers`, `chinese_checkers`, `peg_solitaire`, `aeroplane`).
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// A fresh state at the first position.
    fn new_initial_state(&self) -> State {
        let mut s = self.template.clone_box();
        s.reset();
        State { inner: s }
    }

    /// Players (1 for peg solitaire).
    fn num_players(&self) -> usize {
        self.template.num_players()
    }

    /// Distinct action ids: every action id lies in `range(num_distinct_actions())`.
    fn num_distinct_actions(&self) -> usize {
        self.template.num_actions()
    }

    /// The shape of `State.observation_tensor()`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.template.observation_shape()
    }

    /// The rule options in force (the defaults filled in).
    fn get_parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.template.params() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// A state read from the game's position text (FEN, PDN FEN, picture, ...).
    fn new_state_from_text(&self, text: &str) -> PyResult<State> {
        let mut s = self.template.clone_box();
        s.set_text(text)?;
        Ok(State { inner: s })
    }

    fn __repr__(&self) -> String {
        let params: Vec<String> = self
            .template
            .params()
            .iter()
            .map(|(k, v)| format!("{k}={v:?}"))
            .collect();
        format!(
            "qiyi.load_game({:?}{}{})",
            self.name,
            if params.is_empty() { "" } else { ", " },
            params.join(", ")
        )
    }

    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, (String, Bound<'py, PyDict>))> {
        let load = py.import("qiyi")?.getattr("_load_game_kw")?;
        let d = PyDict::new(py);
        for (k, v) in &self.rules {
            d.set_item(k, v)?;
        }
        Ok((load, (self.name.clone(), d)))
    }
}

impl Game {
    /// The rule options as text.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
}

/// Loads a game by name with rule options as keyword arguments (pyspiel's `load_game`).
#[pyfunction]
#[pyo3(signature = (name, **rules))]
pub fn load_game(name: &str, rules: Option<&Bound<'_, PyDict>>) -> PyResult<Game> {
    let rules = rules_of(rules)?;
    let template = games::load(name, &rules)?;
    Ok(Game {
        name: template.name().to_string(),
        rules,
        template,
    })
}

/// The names of the games.
#[pyfunction]
pub fn registered_names() -> Vec<&'static str> {
    games::GAMES.to_vec()
}

/// The rule options a game takes.
#[pyfunction]
pub fn rule_options(name: &str) -> PyResult<Vec<&'static str>> {
    let game = games::canonical(name)
        .ok_or_else(|| QiyiError::UnknownGame(name.to_string(), games::GAMES.join(", ")))?;
    Ok(games::rule_keys(game).to_vec())
}

/// Action ids below this many have one shared Python int each (see [`action_ints`]).
const SHARED_INTS: u32 = 16_384;

/// The Python ints `0..SHARED_INTS`, made once: a list of legal actions then costs a reference
/// count per entry instead of a new int object (CPython shares only -5..=256 itself, and action
/// ids run to 14,642), which is most of `legal_actions` in games with many moves.
fn action_ints(py: Python<'_>) -> &[Py<PyInt>] {
    static INTS: PyOnceLock<Vec<Py<PyInt>>> = PyOnceLock::new();
    INTS.get_or_init(py, || {
        (0..SHARED_INTS)
            .map(|i| PyInt::new(py, i).unbind())
            .collect()
    })
}

/// `ids` as a new Python list of ints.
pub(crate) fn id_list<'py>(py: Python<'py>, ids: &[u32]) -> PyResult<Bound<'py, PyList>> {
    let shared = action_ints(py);
    PyList::new(
        py,
        ids.iter().map(|&id| match shared.get(id as usize) {
            Some(int) => int.bind(py).clone(),
            None => PyInt::new(py, id),
        }),
    )
}

/// Chance-outcome lists already built, with their Python lists of `(action, probability)`
/// tuples: dice give the same few lists over and over, and a copy of a list of shared
/// (immutable) tuples costs a tenth of building the tuples and floats again.
type ChanceMemo = Vec<(Vec<(u32, f64)>, Py<PyList>)>;

/// The most distinct outcome lists [`chance_list`] keeps.
const CHANCE_MEMO: usize = 16;

/// `outcomes` as a new Python list of `(action, probability)` tuples.
fn chance_list<'py>(py: Python<'py>, outcomes: Vec<(u32, f64)>) -> PyResult<Bound<'py, PyList>> {
    static MEMO: PyOnceLock<Mutex<ChanceMemo>> = PyOnceLock::new();
    let memo = MEMO.get_or_init(py, || Mutex::new(Vec::new()));
    // The GIL is held, so the lock is never contended; a poisoned one is only skipped.
    let Ok(mut memo) = memo.lock() else {
        return PyList::new(py, outcomes);
    };
    if let Some((_, list)) = memo.iter().find(|(o, _)| *o == outcomes) {
        let list = list.bind(py);
        return Ok(list.get_slice(0, list.len()));
    }
    let list = PyList::new(py, &outcomes)?;
    if memo.len() < CHANCE_MEMO {
        memo.push((outcomes, list.clone().unbind()));
        return Ok(list.get_slice(0, list.len()));
    }
    Ok(list)
}

/// A position of a game (pyspiel's `State`).
#[pyclass(module = "qiyi")]
pub struct State {
    pub(crate) inner: Box<dyn DynState>,
}

/// What a search found.
#[pyclass(module = "qiyi", get_all, frozen)]
#[derive(Clone)]
pub struct SearchResult {
    /// The action id to play (`None` when the search found none).
    pub action: Option<u32>,
    /// The action in the game's notation.
    pub move_text: Option<String>,
    /// The score from the mover's view, on the algorithm's scale.
    pub score: f64,
    /// Principal variation as action ids, starting with `action`.
    pub pv: Vec<u32>,
    /// The principal variation in the game's notation.
    pub pv_text: Vec<String>,
    /// Nodes searched (MCTS: playouts; players without a search report 0).
    pub nodes: u64,
    /// Depth completed.
    pub depth: u32,
    /// Seconds spent.
    pub seconds: f64,
    /// What searched.
    pub algorithm: String,
    /// Whether the score is exact (a solved position).
    pub exact: bool,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={:?}, action={:?}, score={}, pv={:?}, nodes={}, depth={}, seconds={:.3}, algorithm={:?})",
            self.move_text, self.action, self.score, self.pv_text, self.nodes, self.depth, self.seconds, self.algorithm
        )
    }
}

impl From<SearchOut<u32>> for SearchResult {
    fn from(o: SearchOut<u32>) -> Self {
        SearchResult {
            action: o.best,
            move_text: o.best_text,
            score: o.score,
            pv: o.pv,
            pv_text: o.pv_text,
            nodes: o.nodes,
            depth: o.depth,
            seconds: o.seconds,
            algorithm: o.algorithm,
            exact: o.exact,
        }
    }
}

/// An action id from any Python integer (NumPy integers too); anything else is an
/// `IllegalActionError` naming it.
fn action_u32(action: &Bound<'_, PyAny>) -> Result<u32, QiyiError> {
    if action.is_instance_of::<PyBool>() {
        return Err(QiyiError::Illegal("an action is an int, not a bool".into()));
    }
    match action.extract::<i64>() {
        Ok(a) => {
            u32::try_from(a).map_err(|_| QiyiError::Illegal(format!("action {a} is out of range")))
        }
        Err(_) => Err(QiyiError::Illegal(format!(
            "an action is an int, not {action}"
        ))),
    }
}

#[pymethods]
impl State {
    /// The player to move, -1 at a chance node, -4 once the game is over (as pyspiel).
    fn current_player(&self) -> i64 {
        self.inner.current_player()
    }

    /// The legal action ids (the chance outcomes at a chance node), as a list of ints.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        id_list(py, self.inner.legal_ids())
    }

    /// A 0/1 mask over `range(num_distinct_actions)` of the legal actions.
    fn legal_actions_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let mut mask = vec![0u8; self.inner.num_actions()];
        for &id in self.inner.legal_ids() {
            if let Some(m) = mask.get_mut(id as usize) {
                *m = 1;
            }
        }
        PyArray1::from_vec(py, mask)
    }

    /// Applies an action id (a chance outcome at a chance node).
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.apply_id(action_u32(action)?)?;
        Ok(())
    }

    /// `(action, probability)` pairs at a chance node; empty elsewhere.
    fn chance_outcomes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        chance_list(py, self.inner.chance())
    }

    /// Whether the current player is chance.
    fn is_chance_node(&self) -> bool {
        self.inner.current_player() == crate::dynamic::CHANCE
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.current_player() == crate::dynamic::TERMINAL
    }

    /// Every player's return (zeros before the end): +1 win, -1 loss, 0 draw in two-player
    /// games; see the README for each game's scale.
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }

    /// Players.
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }

    /// Distinct action ids.
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_actions()
    }

    /// An independent copy.
    fn clone(&self) -> State {
        State {
            inner: self.inner.clone_box(),
        }
    }

    fn __copy__(&self) -> State {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> State {
        self.clone()
    }

    /// Writes a legal action in the game's notation (`player` is accepted for pyspiel
    /// compatibility and ignored: notation does not depend on who asks).
    #[pyo3(signature = (player_or_action, action=None))]
    fn action_to_string(
        &mut self,
        player_or_action: &Bound<'_, PyAny>,
        action: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let a = action.unwrap_or(player_or_action);
        Ok(self.inner.id_to_text(action_u32(a)?)?)
    }

    /// Reads a legal action in the game's notation (`h2e2`, `11-15`, `f4-d4`, ...).
    #[pyo3(signature = (player_or_text, text=None))]
    fn string_to_action(
        &mut self,
        player_or_text: &Bound<'_, PyAny>,
        text: Option<String>,
    ) -> PyResult<u32> {
        let t: String = match text {
            Some(t) => t,
            None => player_or_text
                .extract()
                .map_err(|_| QiyiError::Parse(format!("a move is a str, not {player_or_text}")))?,
        };
        Ok(self.inner.text_to_id(&t)?)
    }

    /// The position in the game's notation (FEN, PDN FEN, picture, ...).
    fn to_text(&self) -> String {
        self.inner.to_text()
    }

    /// Replaces the position by one in the game's notation.
    #[allow(clippy::wrong_self_convention)]
    fn from_text(&mut self, text: &str) -> PyResult<()> {
        self.inner.set_text(text)?;
        Ok(())
    }

    /// The observation as a float32 NumPy array of `observation_tensor_shape()`.
    fn observation_tensor<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let shape = self.inner.observation_shape();
        let mut out = vec![0.0f32; shape.iter().product()];
        if !self.inner.observe(&mut out) {
            return Err(QiyiError::Shape("observation size mismatch".into()).into());
        }
        PyArray1::from_vec(py, out).reshape(shape)
    }

    /// The shape of `observation_tensor()`.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        self.inner.observation_shape()
    }

    /// The action ids played since the first position (chance outcomes included).
    fn history(&self) -> Vec<u32> {
        self.inner.history().to_vec()
    }

    /// The game's name.
    fn game_name(&self) -> &'static str {
        self.inner.name()
    }

    /// Searches for a move: `algorithm` is `engine` (the game's engine or player type; `player`
    /// picks one: `seed`, `best`, `race`, ...), `mcts`, `expectimax` (aeroplane) or `solve`
    /// (peg solitaire). Limits: `depth`, `nodes` (MCTS playouts, solver budget), `movetime`
    /// (seconds). Without any limit the search gets one second. Ctrl-C stops it cleanly.
    #[pyo3(signature = (algorithm="engine", *, level=10, movetime=None, depth=None, nodes=None, player=None, seed=0))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        algorithm: &str,
        level: u32,
        movetime: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        player: Option<String>,
        seed: u64,
    ) -> PyResult<SearchResult> {
        let algorithm = Algorithm::parse(algorithm)?;
        if let Some(t) = movetime {
            if !(t.is_finite() && t > 0.0) {
                return Err(QiyiError::Search(format!(
                    "movetime must be positive seconds, not {t}"
                ))
                .into());
            }
        }
        if !(1..=10).contains(&level) {
            return Err(QiyiError::Search(format!("level must be 1-10, not {level}")).into());
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut limits = SearchLimits {
            depth,
            nodes,
            move_time: movetime.map(Duration::from_secs_f64),
            deadline: None,
            stop: Some(stop.clone()),
        };
        if depth.is_none() && nodes.is_none() && movetime.is_none() {
            limits.move_time = Some(Duration::from_secs(1));
        }
        let req = SearchRequest {
            algorithm,
            player,
            level,
            limits,
            seed,
        };
        let state = self.inner.clone_box();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(state.search(&req));
        });
        let mut rx = rx;
        loop {
            // The receiver is Send but not Sync: move it into the GIL-free closure and back.
            let (got, back) = py.detach(move || (rx.recv_timeout(Duration::from_millis(50)), rx));
            rx = back;
            match got {
                Ok(result) => return Ok(result?.into()),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(QiyiError::Search("the search thread failed".into()).into())
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.store(true, Ordering::Relaxed);
                        // Give the search a moment to notice; a search without a stop flag
                        // (the peg solver) finishes on its own thread and its result is dropped.
                        let _ = py.detach(move || rx.recv_timeout(Duration::from_millis(500)));
                        return Err(e);
                    }
                }
            }
        }
    }

    fn __str__(&self) -> String {
        self.inner.describe()
    }

    fn __repr__(&self) -> String {
        format!(
            "<qiyi.State {} {:?}>",
            self.inner.name(),
            self.inner.to_text()
        )
    }
}
