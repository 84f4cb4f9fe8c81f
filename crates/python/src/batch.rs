//! [`Batch`]: n games of one kind in one flat vector, stepped by a loop compiled for that game
//! (no boxed state, no virtual call per game), writing into caller-provided buffers so that a
//! step allocates nothing. `VectorGames` is its Python face.

use crate::dynamic::{DynState, GameDef, State, CHANCE, TERMINAL};
use crate::error::{QiyiError, Result};
use qiyi_core::Rng;
use rayon::prelude::*;

/// The most chance outcomes resolved in a row (a guard against endless chains).
const MAX_CHANCE_CHAIN: usize = 10_000;

/// Fewest games a worker thread takes in a parallel step (below it the split costs more than
/// it saves).
const MIN_GAMES_PER_TASK: usize = 64;

/// Where a step writes: per game a row of `players` rewards, a done flag and, when asked, a row
/// of the observation. Every row is overwritten.
pub struct StepOut<'a> {
    /// `n * players` rewards (the returns of games that ended in this step, 0 elsewhere).
    pub rewards: &'a mut [f32],
    /// `n` flags: the game ended in this step (and restarted).
    pub done: &'a mut [bool],
    /// `n * obs_len` observation values, or `None` to skip them.
    pub obs: Option<&'a mut [f32]>,
}

/// n games of one kind stepped together; every game `i` owns the generator
/// `Rng::derive(seed, i)`, which resolves its chance nodes and samples its random moves, so a
/// game's trajectory does not depend on the others, on `n` or on the threads.
pub trait Batch: Send + Sync {
    /// Number of games.
    fn count(&self) -> usize;
    /// Every game back to its first position (chance resolved).
    fn reset(&mut self);
    /// Writes every game's observation (`obs_len` values each) into `out`.
    fn observe(&self, out: &mut [f32]);
    /// Sets `out[i * width + id]` for every legal id of game `i` (`out` starts all false).
    fn legal_mask(&mut self, out: &mut [bool], width: usize);
    /// Writes each game's player to move.
    fn current_players(&self, out: &mut [i64]);
    /// Writes a uniformly random legal id for each game (-1 where there is none).
    fn sample(&mut self, out: &mut [i64]);
    /// Checks every action, then plays `actions[i]` in game `i` and resolves chance; games that
    /// end report their returns and restart. Returns the games that ended.
    fn step(&mut self, actions: &[i64], out: StepOut<'_>) -> Result<u64>;
    /// Plays `steps` random moves in every game (auto-reset); returns (moves, games ended).
    fn step_random(&mut self, steps: u64) -> (u64, u64);
    /// Game `i` as a standalone state.
    fn state(&self, i: usize) -> Option<Box<dyn DynState>>;
    /// Steps use up to `threads` threads (1: the calling thread only).
    fn set_threads(&mut self, threads: usize) -> Result<()>;
}

/// The [`Batch`] of one game.
pub struct Games<D: GameDef> {
    states: Vec<State<D>>,
    rngs: Vec<Rng>,
    /// Per game, the index of its action among its legal moves (reused every step).
    picks: Vec<usize>,
    players: usize,
    obs_len: usize,
    pool: Option<rayon::ThreadPool>,
}

impl<D: GameDef> Games<D> {
    /// `n` copies of `first`, chance resolved.
    pub fn new(first: &State<D>, n: usize, seed: u64) -> Self {
        let mut states = vec![first.clone(); n];
        let mut rngs: Vec<Rng> = (0..n).map(|i| Rng::derive(seed, i as u64)).collect();
        for (s, r) in states.iter_mut().zip(rngs.iter_mut()) {
            s.resolve_chance(r, MAX_CHANCE_CHAIN);
        }
        Games {
            players: first.num_players(),
            obs_len: first.observation_shape().iter().product(),
            states,
            rngs,
            picks: vec![0; n],
            pool: None,
        }
    }

    /// Games per parallel task: the games split evenly over the pool's threads.
    fn chunk(&self) -> usize {
        let threads = self.pool.as_ref().map_or(1, |p| p.current_num_threads());
        self.states.len().div_ceil(threads).max(MIN_GAMES_PER_TASK)
    }
}

/// Plays the picked move of each game of a slice; the rows of `out` belong to these games.
fn play_picked<D: GameDef>(
    states: &mut [State<D>],
    rngs: &mut [Rng],
    picks: &[usize],
    mut out: StepOut<'_>,
    players: usize,
    obs_len: usize,
) -> u64 {
    let mut finished = 0;
    for (i, ((s, r), &k)) in states
        .iter_mut()
        .zip(rngs.iter_mut())
        .zip(picks)
        .enumerate()
    {
        s.play(k);
        s.resolve_chance(r, MAX_CHANCE_CHAIN);
        // Every row is written (zeros for games still running): `out` may hold the last step's.
        let ended = s.current_player() == TERMINAL;
        s.write_returns(&mut out.rewards[i * players..(i + 1) * players]);
        out.done[i] = ended;
        if ended {
            finished += 1;
            s.reset();
            s.resolve_chance(r, MAX_CHANCE_CHAIN);
        }
        if let Some(obs) = out.obs.as_deref_mut() {
            s.observe(&mut obs[i * obs_len..(i + 1) * obs_len]);
        }
    }
    finished
}

/// `steps` random moves in each game of a slice; returns (moves, games ended).
fn random_moves<D: GameDef>(states: &mut [State<D>], rngs: &mut [Rng], steps: u64) -> (u64, u64) {
    let (mut moves, mut finished) = (0, 0);
    for (s, r) in states.iter_mut().zip(rngs.iter_mut()) {
        for _ in 0..steps {
            if s.current_player() == CHANCE {
                s.resolve_chance(r, MAX_CHANCE_CHAIN);
            }
            if s.random_step(r) {
                moves += 1;
            }
            s.resolve_chance(r, MAX_CHANCE_CHAIN);
            if s.current_player() == TERMINAL {
                finished += 1;
                s.reset();
                s.resolve_chance(r, MAX_CHANCE_CHAIN);
            }
        }
    }
    (moves, finished)
}

impl<D: GameDef> Batch for Games<D> {
    fn count(&self) -> usize {
        self.states.len()
    }

    fn reset(&mut self) {
        for (s, r) in self.states.iter_mut().zip(self.rngs.iter_mut()) {
            s.reset();
            s.resolve_chance(r, MAX_CHANCE_CHAIN);
        }
    }

    fn observe(&self, out: &mut [f32]) {
        for (s, row) in self.states.iter().zip(out.chunks_mut(self.obs_len.max(1))) {
            s.observe(row);
        }
    }

    fn legal_mask(&mut self, out: &mut [bool], width: usize) {
        for (s, row) in self.states.iter_mut().zip(out.chunks_mut(width.max(1))) {
            for &id in s.legal_ids() {
                if let Some(m) = row.get_mut(id as usize) {
                    *m = true;
                }
            }
        }
    }

    fn current_players(&self, out: &mut [i64]) {
        for (s, o) in self.states.iter().zip(out.iter_mut()) {
            *o = s.current_player();
        }
    }

    fn sample(&mut self, out: &mut [i64]) {
        for ((s, r), o) in self.states.iter_mut().zip(self.rngs.iter_mut()).zip(out) {
            *o = s.sample_id(r).map_or(-1, i64::from);
        }
    }

    fn step(&mut self, actions: &[i64], out: StepOut<'_>) -> Result<u64> {
        for (i, ((s, &a), pick)) in self
            .states
            .iter_mut()
            .zip(actions)
            .zip(self.picks.iter_mut())
            .enumerate()
        {
            match u32::try_from(a).ok().and_then(|id| s.find(id)) {
                Some(k) => *pick = k,
                None => {
                    let legal = s.legal_ids();
                    return Err(QiyiError::Illegal(format!(
                        "game {i}: action {a} is not legal (legal: {:?})",
                        &legal[..legal.len().min(20)]
                    )));
                }
            }
        }
        let (players, obs_len) = (self.players, self.obs_len);
        let Some(pool) = &self.pool else {
            return Ok(play_picked(
                &mut self.states,
                &mut self.rngs,
                &self.picks,
                out,
                players,
                obs_len,
            ));
        };
        let chunk = self.chunk();
        // One entry per task (a handful, not one per game).
        let tasks = self.states.len().div_ceil(chunk);
        let obs_rows: Vec<Option<&mut [f32]>> = match out.obs {
            Some(o) => o.chunks_mut(chunk * obs_len.max(1)).map(Some).collect(),
            None => (0..tasks).map(|_| None).collect(),
        };
        let states = &mut self.states;
        let rngs = &mut self.rngs;
        let picks = &self.picks;
        Ok(pool.install(|| {
            states
                .par_chunks_mut(chunk)
                .zip(rngs.par_chunks_mut(chunk))
                .zip(picks.par_chunks(chunk))
                .zip(out.rewards.par_chunks_mut(chunk * players))
                .zip(out.done.par_chunks_mut(chunk))
                .zip(obs_rows.into_par_iter())
                .map(|(((((s, r), k), rewards), done), obs)| {
                    let out = StepOut { rewards, done, obs };
                    play_picked(s, r, k, out, players, obs_len)
                })
                .sum()
        }))
    }

    fn step_random(&mut self, steps: u64) -> (u64, u64) {
        let Some(pool) = &self.pool else {
            return random_moves(&mut self.states, &mut self.rngs, steps);
        };
        let chunk = self.chunk();
        let states = &mut self.states;
        let rngs = &mut self.rngs;
        pool.install(|| {
            states
                .par_chunks_mut(chunk)
                .zip(rngs.par_chunks_mut(chunk))
                .map(|(s, r)| random_moves(s, r, steps))
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
        })
    }

    fn state(&self, i: usize) -> Option<Box<dyn DynState>> {
        self.states.get(i).map(|s| s.clone_box())
    }

    fn set_threads(&mut self, threads: usize) -> Result<()> {
        self.pool = if threads <= 1 {
            None
        } else {
            Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .map_err(|e| {
                        QiyiError::Shape(format!("cannot start {threads} threads: {e}"))
                    })?,
            )
        };
        Ok(())
    }
}
