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

/// What `step` returns: observations (or `None`), rewards, done flags.
type StepArrays<'py> = (
    Option<Bound<'py, PyArrayDyn<f32>>>,
    Bound<'py, PyArray2<f32>>,
    Bound<'py, PyArray1<bool>>,
);

/// An `out` array that cannot be written now (read-only, or borrowed elsewhere).
fn busy(e: numpy::BorrowError) -> PyErr {
    QiyiError::Shape(format!("an out array cannot be written: {e}")).into()
}

/// An `out` array that is not one C-contiguous block.
fn not_contiguous(e: numpy::NotContiguousError) -> PyErr {
    QiyiError::Shape(format!("an out array must be C-contiguous: {e}")).into()
}

impl VectorGames {
    /// Reads `out=(observations, rewards, done)` and checks each array's type and shape.
    fn out_arrays<'py>(&self, out: &Bound<'py, PyAny>, observe: bool) -> PyResult<StepArrays<'py>> {
        let n = self.games.count();
        let bad = |what: String| -> PyErr { QiyiError::Shape(what).into() };
        let (obs, rewards, done): (Bound<'py, PyAny>, Bound<'py, PyAny>, Bound<'py, PyAny>) = out
            .extract()
            .map_err(|_| bad("out must be a tuple (observations or None, rewards, done)".into()))?;
        let rewards = rewards.cast_into::<PyArray2<f32>>().map_err(|_| {
            bad(format!(
                "out rewards must be a float32 array of shape ({n}, {})",
                self.players
            ))
        })?;
        if rewards.shape() != [n, self.players] {
            return Err(bad(format!(
                "out rewards has shape {:?}, expected ({n}, {})",
                rewards.shape(),
                self.players
            )));
        }
        let done = done
            .cast_into::<PyArray1<bool>>()
            .map_err(|_| bad(format!("out done must be a bool array of shape ({n},)")))?;
        if done.shape() != [n] {
            return Err(bad(format!(
                "out done has shape {:?}, expected ({n},)",
                done.shape()
            )));
        }
        let mut shape = vec![n];
        shape.extend(&self.obs_shape);
        let obs = if observe {
            let obs = obs.cast_into::<PyArrayDyn<f32>>().map_err(|_| {
                bad(format!(
                    "out observations must be a float32 array of shape {shape:?}"
                ))
            })?;
            if obs.shape() != shape.as_slice() {
                return Err(bad(format!(
                    "out observations has shape {:?}, expected {shape:?}",
                    obs.shape()
                )));
            }
            Some(obs)
        } else {
            None
        };
        let c_order = rewards.is_c_contiguous()
            && done.is_c_contiguous()
            && obs.as_ref().map_or(true, |o| o.is_c_contiguous());
        if !c_order {
            return Err(bad("out arrays must be C-contiguous (row-major)".into()));
        }
        Ok((obs, rewards, done))
    }

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
    /// place (for loops that read only masks, or observe every k steps). `out=(observations,
    /// rewards, done)` (arrays of those shapes and dtypes, C-contiguous; `observations` may be
    /// `None` when `observe=False`) makes the step write into them and return them instead of
    /// new arrays: a loop that passes the same arrays allocates nothing.
    #[pyo3(signature = (actions, observe=true, out=None))]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: &Bound<'py, PyAny>,
        observe: bool,
        out: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<StepArrays<'py>> {
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
        let (obs, rewards, done) = match out {
            Some(out) => self.out_arrays(out, observe)?,
            None => (
                observe.then(|| self.obs_array(py)),
                PyArray2::<f32>::zeros(py, [n, self.players], false),
                PyArray1::<bool>::zeros(py, n, false),
            ),
        };
        let finished = {
            let mut rewards_rw = rewards.try_readwrite().map_err(busy)?;
            let mut done_rw = done.try_readwrite().map_err(busy)?;
            let mut obs_rw = match obs.as_ref() {
                Some(o) => Some(o.try_readwrite().map_err(busy)?),
                None => None,
            };
            let out = StepOut {
                rewards: rewards_rw.as_slice_mut().map_err(not_contiguous)?,
                done: done_rw.as_slice_mut().map_err(not_contiguous)?,
                obs: match obs_rw.as_mut() {
                    Some(o) => Some(o.as_slice_mut().map_err(not_contiguous)?),
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
