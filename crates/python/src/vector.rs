//! `VectorGames`: n games of one kind stepped together in Rust, NumPy arrays in and out, the GIL
//! released while the games move.

use crate::batch::{Batch, StepOut};
use crate::error::QiyiError;
use crate::games;
use crate::py::rules_of;
use numpy::{
    PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// n games of one kind stepped at once.
///
/// Chance nodes (aeroplane dice) are resolved inside, with game `i`'s own generator seeded
/// `Rng::derive(seed, i)`, so the players only ever see decision nodes. A game that ends is
/// reported (`done`, its returns as `rewards`) and restarted at once (auto-reset). The games
/// live in one flat [`Batch`] stepped by a loop compiled for the game, with the GIL released;
/// outputs are written straight into the NumPy arrays returned.
#[pyclass(module = "qiyi")]
pub struct VectorGames {
    games: Box<dyn Batch>,
    /// The actions of the step under way (reused).
    actions: Vec<i64>,
    num_actions: usize,
    players: usize,
    obs_shape: Vec<usize>,
    /// Games finished so far.
    #[pyo3(get)]
    episodes: u64,
}

impl VectorGames {
    fn obs_array<'py>(&self, py: Python<'py>) -> Bound<'py, PyArrayDyn<f32>> {
        let mut shape = vec![self.games.count()];
        shape.extend(&self.obs_shape);
        PyArrayDyn::zeros(py, shape, false)
    }

    fn observations_now<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let arr = self.obs_array(py);
        {
            let mut rw = arr.readwrite();
            let out = rw.as_slice_mut()?;
            let games = &self.games;
            py.detach(|| games.observe(out));
        }
        Ok(arr)
    }
}

#[pymethods]
impl VectorGames {
    /// `n` games of `name` with rule options `**rules`; `seed` seeds the dice and
    /// `sample_actions`; `threads` > 1 splits each step over that many threads (the games and
    /// their results do not depend on it).
    #[new]
    #[pyo3(signature = (name, n, seed=0, threads=1, **rules))]
    fn new(
        name: &str,
        n: usize,
        seed: u64,
        threads: usize,
        rules: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Self> {
        if n == 0 || n > 1 << 22 {
            return Err(QiyiError::Shape(format!("n must be 1 to {}, not {n}", 1 << 22)).into());
        }
        if threads == 0 || threads > 256 {
            return Err(
                QiyiError::Shape(format!("threads must be 1 to 256, not {threads}")).into(),
            );
        }
        let rules = rules_of(rules)?;
        let first = games::load(name, &rules)?;
        let mut games = first.batch(n, seed);
        games.set_threads(threads)?;
        Ok(VectorGames {
            games,
            actions: vec![0; n],
            num_actions: first.num_actions(),
            players: first.num_players(),
            obs_shape: first.observation_shape(),
            episodes: 0,
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.games.count()
    }

    /// Distinct action ids (the width of `legal_mask`).
    #[getter]
    fn num_distinct_actions(&self) -> usize {
        self.num_actions
    }

    /// Players per game (the width of `rewards`).
    #[getter]
    fn num_players(&self) -> usize {
        self.players
    }

    /// Every game back to its first position; returns the observations.
    fn reset<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let games = &mut self.games;
        py.detach(|| games.reset());
        self.observations_now(py)
    }

    /// Observations, shape `(n, *observation_tensor_shape)`, float32.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        self.observations_now(py)
    }

    /// Legal actions as a bool mask, shape `(n, num_distinct_actions)`.
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let width = self.num_actions;
        let arr = PyArray2::<bool>::zeros(py, [self.games.count(), width], false);
        {
            let mut rw = arr.readwrite();
            let out = rw.as_slice_mut()?;
            let games = &mut self.games;
            py.detach(|| games.legal_mask(out, width));
        }
        Ok(arr)
    }

    /// The player to move in each game, shape `(n,)` (never -1: chance is resolved inside).
    fn current_player<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let arr = PyArray1::<i64>::zeros(py, self.games.count(), false);
        self.games.current_players(arr.readwrite().as_slice_mut()?);
        Ok(arr)
    }

    /// A uniformly random legal action for each game (from game `i`'s generator), shape `(n,)`.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let arr = PyArray1::<i64>::zeros(py, self.games.count(), false);
        {
            let mut rw = arr.readwrite();
            let out = rw.as_slice_mut()?;
            let games = &mut self.games;
            py.detach(|| games.sample(out));
        }
        Ok(arr)
    }

    /// Plays `actions[i]` in game `i` (shape `(n,)`, integers); returns `(observations,
    /// rewards, done)`: rewards `(n, num_players)` are the returns of games that just ended (0
    /// elsewhere), and those games restart. Every action is checked before any is played.
    /// With `observe=False` the observations are not computed and `None` is returned in their
    /// place (for loops that read only masks, or observe every k steps).
    #[allow(clippy::type_complexity)]
    #[pyo3(signature = (actions, observe=true))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        observe: bool,
    ) -> PyResult<(
        Option<Bound<'py, PyArrayDyn<f32>>>,
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let n = self.games.count();
        let arr: PyReadonlyArray1<i64> = actions.extract().map_err(|_| {
            QiyiError::Shape(format!(
                "actions must be a one-dimensional int64 array of length {n}"
            ))
        })?;
        if arr.len() != n {
            return Err(QiyiError::Shape(format!(
                "actions has length {}, expected {n} (one per game)",
                arr.len()
            ))
            .into());
        }
        for (dst, &src) in self.actions.iter_mut().zip(arr.as_array().iter()) {
            *dst = src;
        }
        drop(arr);
        let rewards = PyArray2::<f32>::zeros(py, [n, self.players], false);
        let done = PyArray1::<bool>::zeros(py, n, false);
        let obs = observe.then(|| self.obs_array(py));
        let finished = {
            let mut rewards_rw = rewards.readwrite();
            let mut done_rw = done.readwrite();
            let mut obs_rw = obs.as_ref().map(|o| o.readwrite());
            let out = StepOut {
                rewards: rewards_rw.as_slice_mut()?,
                done: done_rw.as_slice_mut()?,
                obs: match obs_rw.as_mut() {
                    Some(o) => Some(o.as_slice_mut()?),
                    None => None,
                },
            };
            let games = &mut self.games;
            let actions = &self.actions;
            py.detach(|| games.step(actions, out))?
        };
        self.episodes += finished;
        Ok((obs, rewards, done))
    }

    /// Plays `steps` uniformly random moves in every game without leaving Rust (auto-reset);
    /// returns the moves played (all games). The loop a learner's own policy would replace.
    fn step_random(&mut self, py: Python<'_>, steps: u64) -> u64 {
        let games = &mut self.games;
        let (moves, finished) = py.detach(|| games.step_random(steps));
        self.episodes += finished;
        moves
    }

    /// Game `i`'s state, as a `State` copy.
    fn state(&self, i: usize) -> PyResult<crate::py::State> {
        let inner = self.games.state(i).ok_or_else(|| {
            QiyiError::Shape(format!(
                "game {i} does not exist (n = {})",
                self.games.count()
            ))
        })?;
        Ok(crate::py::State { inner })
    }
}
