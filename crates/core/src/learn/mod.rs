//! Learning an evaluation from self-play: the generic half of the pipeline, written once for
//! every two-player game.
//!
//! 1. [`selfplay`]: games from varied openings played by a searcher; each quiet position is
//!    written with the search score and the game result ([`record`]: a compact, documented,
//!    sharded binary format; runs are seeded, resumable and use every thread).
//! 2. [`train`]: a small network ([`net`]) trained on the CPU by Adam on a mix of score and
//!    result, with a held-out loss per epoch, deterministic for a seed, resumable from a
//!    checkpoint.
//! 3. [`quant`]: the network quantised to int16/int8 with AVX2 kernels (the scalar path is the
//!    reference the tests compare with), and [`accumulated`]: a position wrapper whose first
//!    layer is updated by the inputs each move changes ([`features`]), so the search runs the
//!    network at a few rows of weights per move; [`netset`]: a set of such nets, one per stage
//!    of the game (a range of piece counts), which the accumulators switch between.
//! 4. [`relabel`]: a run's positions searched again deeper (those of one stage, say), the
//!    results kept, into a new run the trainer reads in place of the old.
//!
//! A game supplies the inputs ([`features::FeatureSet`]), the byte encoding
//! ([`record::Encode`]) and which positions are quiet ([`selfplay::SelfPlay`]); checkers is the
//! first (`qiyi_checkers::engine::nn`). Whether a trained network is better is decided by a
//! sequential test: [`crate::stats::Sprt`].

pub mod accumulated;
pub mod features;
pub mod net;
pub mod netset;
pub mod quant;
pub mod record;
pub mod relabel;
pub mod selfplay;
pub mod train;

pub use accumulated::Accumulated;
pub use features::{Active, Delta, FeatureSet};
pub use net::{Arch, Network};
pub use netset::{NetSet, Stage};
pub use quant::{NetId, QuantNet};
pub use record::{Dataset, Encode};
pub use selfplay::{SelfPlay, SelfPlayConfig};
pub use train::{TrainConfig, Trainer};

use std::path::{Path, PathBuf};

/// What can go wrong in the learning pipeline.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The system's error (in the message, and so not also a `source`: an error chain
        /// printed whole would say it twice).
        error: std::io::Error,
    },
    /// A shard file is not one, or does not match the others.
    #[error("{path}: {why}")]
    BadShard {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// A game tag that does not fit a shard header.
    #[error("bad game tag {0:?}: at most 16 ASCII characters")]
    BadTag(String),
    /// A directory without data.
    #[error("{0}: no position shards (*.bin) here")]
    NoData(PathBuf),
    /// A network or checkpoint file that cannot be read.
    #[error("bad network: {0}")]
    BadNet(String),
    /// Settings that cannot work.
    #[error("{0}")]
    Config(String),
}

impl LearnError {
    /// The same error said of the file at `path` (a network's message gains the path in front).
    pub fn in_file(self, path: &Path) -> LearnError {
        match self {
            LearnError::BadNet(why) => LearnError::BadNet(format!("{}: {why}", path.display())),
            other => other,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: &Path, source: std::io::Error) -> LearnError {
        LearnError::Io {
            path: path.to_path_buf(),
            error: source,
        }
    }
}
