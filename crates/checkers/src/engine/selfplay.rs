//! Checkers self-play, the one implementation behind `qiyi selfplay checkers` and
//! `qiyi.cluster.selfplay`: core's driver ([`qiyi_core::learn::selfplay`]) from the 156
//! tournament ballots with the strongest level's search, into `QIYIPOS1` shards that
//! `qiyi train checkers` reads. Any split of the shards between processes or machines writes
//! the same bytes as one process.

use super::player::{Engine, EvalChoice, Level};
use super::Weights;
use crate::ballot::tournament_ballots;
use crate::{Checkers, NotationError};
use qiyi_core::learn::selfplay::{self as driver, SelfPlaySummary, ShardDone};
use qiyi_core::learn::LearnError;
use std::path::Path;

/// What a self-play run plays: core's options, shared with the other games.
pub use qiyi_core::learn::selfplay::SelfplayOptions;

/// A checkers game still going after this many plies is scored a draw.
pub const MAX_PLIES: usize = 300;

/// The run's manifest (written to the shard directory; another run's is refused).
pub fn manifest(options: &SelfplayOptions) -> String {
    options.manifest("checkers", &options.eval, MAX_PLIES)
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
    options.check()?;
    let eval = EvalChoice::parse(&options.eval)?;
    let openings =
        openings().map_err(|e| LearnError::Config(format!("replaying the ballots: {e}")))?;
    let limits = options.limits();
    driver::play_run(
        dir,
        options,
        &manifest(options),
        MAX_PLIES,
        &openings,
        shards,
        threads,
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
