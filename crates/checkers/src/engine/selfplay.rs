//! Checkers self-play, the one implementation behind `qiyi selfplay checkers` and
//! `qiyi.cluster.selfplay`: core's driver ([`qiyi_core::learn::selfplay`]) from the 156
//! tournament ballots with the strongest level's search, into `QIYIPOS1` shards that
//! `qiyi train checkers` reads. Any split of the shards between processes or machines writes
//! the same bytes as one process. [`relabel`] searches a run's positions again, deeper.

use super::nn::CheckersFeatures;
use super::player::{Engine, EvalChoice, Level};
use super::Weights;
use crate::ballot::tournament_ballots;
use crate::{Checkers, NotationError};
use qiyi_core::learn::relabel::{relabel_run, RelabelDone, RelabelSummary};
use qiyi_core::learn::selfplay::{self as driver, SelfPlay, SelfPlaySummary, ShardDone};
use qiyi_core::learn::{FeatureSet, LearnError, Stage};
use qiyi_core::search::SearchLimits;
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

/// What a relabelling run searches: the depth or node budget, the evaluation and which
/// positions (by piece count, both sides' men and kings together).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RelabelOptions {
    /// Search depth per position (used when `nodes` is 0).
    pub depth: u32,
    /// Node budget per position (0: the depth).
    pub nodes: u64,
    /// The evaluation: `hand`, `net` (the embedded network) or a net file's path.
    pub eval: String,
    /// The positions searched again: those with this many pieces.
    pub pieces: Stage,
}

impl RelabelOptions {
    /// The search limits of every position.
    pub fn limits(&self) -> SearchLimits {
        if self.nodes > 0 {
            SearchLimits::nodes(self.nodes)
        } else {
            SearchLimits::depth(self.depth)
        }
    }

    /// The run's manifest: the source run's own manifest and every option, so that an output
    /// directory never mixes two sources or two settings.
    pub fn manifest(&self, source_manifest: &str) -> String {
        format!(
            "qiyi relabel checkers: depth {} nodes {} pieces {} eval {} of [{}]\n",
            self.depth,
            self.nodes,
            self.pieces,
            self.eval,
            source_manifest.trim()
        )
    }
}

/// Relabels the shards `shards` of the self-play run in `src` (all when `None`; indices in
/// name order) into `out` on `threads` threads ([`qiyi_core::learn::relabel`]): every position
/// with a piece count in `options.pieces` gets the score of a fresh search within the options'
/// limits; the rest, and every game result, are copied.
pub fn relabel(
    src: &Path,
    out: &Path,
    options: &RelabelOptions,
    shards: Option<&[usize]>,
    threads: usize,
    on_shard: impl Fn(RelabelDone) + Sync,
) -> Result<RelabelSummary, LearnError> {
    if options.nodes == 0 && options.depth == 0 {
        return Err(LearnError::Config(
            "give a depth or a node budget of at least 1".into(),
        ));
    }
    let eval = EvalChoice::parse(&options.eval)?;
    let manifest_path = src.join(driver::MANIFEST);
    let source_manifest =
        std::fs::read_to_string(&manifest_path).map_err(|e| LearnError::io(&manifest_path, e))?;
    let limits = options.limits();
    let pieces = options.pieces;
    relabel_run::<Checkers, _, _, _>(
        <Checkers as SelfPlay>::TAG,
        src,
        out,
        &options.manifest(&source_manifest),
        shards,
        threads,
        |pos: &Checkers| pieces.contains(CheckersFeatures::pieces(pos) as u32),
        || {
            let mut engine = Engine::with_eval(Level::MAX, 1, Weights::default(), None, &eval);
            let limits = limits.clone();
            move |pos: &Checkers| {
                engine.new_game();
                Some(engine.analyse(pos, &limits, |_| {}).score)
            }
        },
        on_shard,
    )
}
