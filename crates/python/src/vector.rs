//! `VectorGames`: n games of one kind stepped together in Rust, NumPy arrays in and out, the GIL
//! released while the games move.

use crate::dynamic::{DynState, CHANCE, TERMINAL};
use crate::error::QiyiError;
use crate::games;
use crate::py::rules_of;
use numpy::{
    PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyReadonlyArray1, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use qiyi_core::Rng;

/// The most chance outcomes resolved in a row (a guard against endless chains).
const MAX_CHANCE_CHAIN: usize = 10_000;

/// n games of one kind stepped at once.
///
/// Chance nodes (aeroplane dice) are resolved inside, with game `i`'s own generator seeded
/// `Rng::derive(seed, i)`, so the players only ever see decision nodes. A game that ends is
/// reported (`done`, its returns as `rewards`) and restarted at once (auto-reset).
#[pyclass(module = "qiyi")]
pub struct VectorGames {
    states: Vec<Box<dyn DynState>>,
    rngs: Vec<Rng>,
    num_actions: usize,
    players: usize,
    obs_shape: Vec<usize>,
    obs_len: usize,
    /// Games finished so far.
    #[pyo3(get)]
    episodes: u64,
}

impl VectorGames {
    fn settle(state: &mut Box<dyn DynState>, rng: &mut Rng) {
        state.resolve_chance(rng, MAX_CHANCE_CHAIN);
    }

    fn observations_vec(&self) -> Vec<f32> {
        let mut out = vec![0.0f32; self.states.len() * self.obs_len];
        for (s, chunk) in self.states.iter().zip(out.chunks_mut(self.obs_len.max(1))) {
            s.observe(chunk);
        }
        out
    }

    fn obs_array<'py>(
        &self,
        py: Python<'py>,
        data: Vec<f32>,
    ) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let mut shape = vec![self.states.len()];
        shape.extend(&self.obs_shape);
        PyArray1::from_vec(py, data).reshape(shape)
    }
}

#[pymethods]
impl VectorGames {
    /// `n` games of `name` with rule options `**rules`; `seed` seeds the dice and
    /// `sample_actions`.
    #[new]
    #[pyo3(signature = (name, n, seed=0, **rules))]
    fn new(name: &str, n: usize, seed: u64, rules: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        if n == 0 || n > 1 << 22 {
            return Err(QiyiError::Shape(format!("n must be 1 to {}, not {n}", 1 << 22)).into());
        }
        let rules = rules_of(rules)?;
        let first = games::load(name, &rules)?;
        let obs_shape = first.observation_shape();
        let mut rngs: Vec<Rng> = (0..n).map(|i| Rng::derive(seed, i as u64)).collect();
        let mut states: Vec<Box<dyn DynState>> = (0..n).map(|_| first.clone_box()).collect();
        for (s, r) in states.iter_mut().zip(rngs.iter_mut()) {
            Self::settle(s, r);
        }
        Ok(VectorGames {
            num_actions: first.num_actions(),
            players: first.num_players(),
            obs_len: obs_shape.iter().product(),
            obs_shape,
            states,
            rngs,
            episodes: 0,
        })
    }

    /// Number of games.
    fn __len__(&self) -> usize {
        self.states.len()
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
        for (s, r) in self.states.iter_mut().zip(self.rngs.iter_mut()) {
            s.reset();
            Self::settle(s, r);
        }
        let data = self.observations_vec();
        self.obs_array(py, data)
    }

    /// Observations, shape `(n, *observation_tensor_shape)`, float32.
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
        let data = py.detach(|| self.observations_vec());
        self.obs_array(py, data)
    }

    /// Legal actions as a bool mask, shape `(n, num_distinct_actions)`.
    fn legal_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let width = self.num_actions;
        let n = self.states.len();
        let states = &mut self.states;
        let mask = py.detach(|| {
            let mut mask = vec![false; n * width];
            for (s, row) in states.iter_mut().zip(mask.chunks_mut(width)) {
                for &id in s.legal_ids() {
                    if let Some(m) = row.get_mut(id as usize) {
                        *m = true;
                    }
                }
            }
            mask
        });
        PyArray1::from_vec(py, mask).reshape([n, width])
    }

    /// The player to move in each game, shape `(n,)` (never -1: chance is resolved inside).
    fn current_player<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(py, self.states.iter().map(|s| s.current_player()).collect())
    }

    /// A uniformly random legal action for each game (from game `i`'s generator), shape `(n,)`.
    fn sample_actions<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let states = &mut self.states;
        let rngs = &mut self.rngs;
        let out = py.detach(|| {
            states
                .iter_mut()
                .zip(rngs.iter_mut())
                .map(|(s, r)| {
                    let ids = s.legal_ids();
                    if ids.is_empty() {
                        -1
                    } else {
                        ids[r.below(ids.len())] as i64
                    }
                })
                .collect::<Vec<i64>>()
        });
        PyArray1::from_vec(py, out)
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
        let n = self.states.len();
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
        let acts: Vec<i64> = arr.as_array().iter().copied().collect();
        let players = self.players;
        let obs_len = self.obs_len;
        let states = &mut self.states;
        let rngs = &mut self.rngs;
        let (obs, rewards, done, finished) = py.detach(|| -> Result<_, QiyiError> {
            for (i, (s, &a)) in states.iter_mut().zip(&acts).enumerate() {
                let legal = s.legal_ids();
                if a < 0 || !legal.contains(&(a as u32)) {
                    return Err(QiyiError::Illegal(format!(
                        "game {i}: action {a} is not legal (legal: {:?})",
                        &legal[..legal.len().min(20)]
                    )));
                }
            }
            let mut rewards = vec![0.0f32; n * players];
            let mut done = vec![false; n];
            let mut obs = vec![0.0f32; if observe { n * obs_len } else { 0 }];
            let mut finished = 0;
            for (i, (s, r)) in states.iter_mut().zip(rngs.iter_mut()).enumerate() {
                s.apply_id(acts[i] as u32)?;
                Self::settle(s, r);
                if s.current_player() == TERMINAL {
                    for (p, v) in s.returns().into_iter().enumerate() {
                        rewards[i * players + p] = v as f32;
                    }
                    done[i] = true;
                    finished += 1;
                    s.reset();
                    Self::settle(s, r);
                }
                if observe {
                    s.observe(&mut obs[i * obs_len..(i + 1) * obs_len]);
                }
            }
            Ok((obs, rewards, done, finished))
        })?;
        self.episodes += finished;
        let obs = if observe {
            Some(self.obs_array(py, obs)?)
        } else {
            None
        };
        Ok((
            obs,
            PyArray1::from_vec(py, rewards).reshape([n, players])?,
            PyArray1::from_vec(py, done),
        ))
    }

    /// Plays `steps` uniformly random moves in every game without leaving Rust (auto-reset);
    /// returns the moves played (all games). The loop a learner's own policy would replace.
    fn step_random(&mut self, py: Python<'_>, steps: u64) -> u64 {
        let states = &mut self.states;
        let rngs = &mut self.rngs;
        let (moves, finished) = py.detach(|| {
            let mut moves = 0u64;
            let mut finished = 0u64;
            for (s, r) in states.iter_mut().zip(rngs.iter_mut()) {
                for _ in 0..steps {
                    if s.current_player() == CHANCE {
                        Self::settle(s, r);
                    }
                    if s.random_step(r) {
                        moves += 1;
                    }
                    Self::settle(s, r);
                    if s.current_player() == TERMINAL {
                        finished += 1;
                        s.reset();
                        Self::settle(s, r);
                    }
                }
            }
            (moves, finished)
        });
        self.episodes += finished;
        moves
    }

    /// Game `i`'s state, as a `State` copy.
    fn state(&self, i: usize) -> PyResult<crate::py::State> {
        let s = self.states.get(i).ok_or_else(|| {
            QiyiError::Shape(format!(
                "game {i} does not exist (n = {})",
                self.states.len()
            ))
        })?;
        Ok(crate::py::State {
            inner: s.clone_box(),
        })
    }
}
