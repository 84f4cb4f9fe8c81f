//! Checkers self-play, the one implementation behind `qiyi selfplay checkers` and
//! `qiyi.cluster.selfplay`: core's driver ([`qiyi_core::learn::selfplay`]) from the 156
//! tournament ballots with the strongest level's search, into `QIYIPOS1` shards that
//! `qiyi train checkers` reads. Any split of the shards between processes or machines writes
//! the same bytes as one process.

use super::player::{Engine, EvalChoice, Level};
use super::Weights;
use crate::ballot::tournament_ballots;
use crate::{Checkers, NotationError};
use qiyi_core::learn::selfplay::{self as driver, SelfPlayConfig, SelfPlaySummary, ShardDone};
use qiyi_core::learn::LearnError;
use qiyi_core::search::SearchLimits;
use std::path::Path;

/// What a self-play run plays: everything that changes the positions it writes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfplayOptions {
    /// Games in all.
    pub games: usize,
    /// Games per shard file.
    pub games_per_shard: usize,
    /// The run's seed.
    pub seed: u64,
    /// Search depth per move (used when `nodes` is 0).
    pub depth: u32,
    /// Node budget per move (0: the depth).
    pub nodes: u64,
    /// Random plies after the ballot: uniformly `0..=random_plies`.
    pub random_plies: u32,
    /// Evaluation of the playing engine: `hand`, `net` or a network file.
    pub eval: String,
}

impl SelfplayOptions {
    /// The driver's configuration on `threads` threads.
    pub fn config(&self, threads: usize) -> SelfPlayConfig {
        SelfPlayConfig {
            games: self.games,
            games_per_shard: self.games_per_shard,
            seed: self.seed,
            threads,
            random_plies: self.random_plies,
            max_plies: 300,
        }
    }

    /// The run's manifest (written to the shard directory; another run's is refused).
    pub fn manifest(&self) -> String {
        format!(
            "qiyi selfplay checkers: games {} games_per_shard {} seed {} depth {} nodes {} random_plies {} eval {} max_plies 300\n",
            self.games, self.games_per_shard, self.seed, self.depth, self.nodes, self.random_plies, self.eval
        )
    }

    /// Shards the run writes.
    pub fn shards(&self) -> usize {
        self.config(1).shards()
    }
}

/// The openings of self-play games (and of the puzzle miner's): the 156 tournament ballots,
/// played out.
pub fn openings() -> Result<Vec<Checkers>, NotationError> {
    tournament_ballots()
        .iter()
        .map(|b| b.play().map(|(board, _)| Checkers::from_board(board)))
        .collect()
}

/// Plays the shards `shards` of the run `options` (all of them when `None`) into `dir` on
/// `threads` threads, skipping complete ones; `on_shard` sees each shard as it finishes.
pub fn selfplay(
    dir: &Path,
    options: &SelfplayOptions,
    shards: Option<&[usize]>,
    threads: usize,
    on_shard: impl Fn(ShardDone) + Sync,
) -> Result<SelfPlaySummary, LearnError> {
    if options.games == 0 || options.games_per_shard == 0 {
        return Err(LearnError::Config(
            "games and games per shard must be at least 1".into(),
        ));
    }
    if options.nodes == 0 && options.depth == 0 {
        return Err(LearnError::Config(
            "give a depth or a node budget of at least 1".into(),
        ));
    }
    let eval = EvalChoice::parse(&options.eval)?;
    let openings =
        openings().map_err(|e| LearnError::Config(format!("replaying the ballots: {e}")))?;
    let config = options.config(threads);
    let all: Vec<usize>;
    let shards = match shards {
        Some(s) => s,
        None => {
            all = (0..config.shards()).collect();
            &all
        }
    };
    let limits = if options.nodes > 0 {
        SearchLimits::nodes(options.nodes)
    } else {
        SearchLimits::depth(options.depth)
    };
    driver::claim(dir, &options.manifest())?;
    driver::run_shards(
        dir,
        &openings,
        &config,
        shards,
        || {
            let mut engine = Engine::with_eval(Level::MAX, 1, Weights::default(), None, &eval);
            let limits = limits.clone();
            move |pos: &Checkers| {
                let r = engine.analyse(pos, &limits, |_| {});
                r.best_move.map(|m| (m, r.score))
            }
        },
        on_shard,
    )
}
