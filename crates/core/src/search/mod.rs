//! Every search algorithm, written once, generic over [`crate::Game`], and instrumented.
//!
//! Each search returns its [`SearchStats`] (nodes, depth, time, TT hits) and a principal
//! variation, so the claims the tutorials make (alpha-beta visits far fewer nodes than minimax; a
//! transposition table saves a third of the search) can be shown with real counts.
//!
//! | module | algorithms |
//! |---|---|
//! | [`minimax`](mod@minimax) | plain minimax (negamax form): the teaching baseline and test oracle |
//! | [`alphabeta`] | negamax alpha-beta with PVS, aspiration, TT, killers, history, null move, LMR, quiescence; iterative deepening; Lazy SMP |
//! | [`tt`] | the shared, lock-free transposition table sized in MiB |
//! | [`nplayer`] | paranoid, best-reply search and max-n for 3-6 players |
//! | [`mcts`] | Monte Carlo tree search (UCT) with n-player returns and chance nodes |
//! | [`expectimax`] | expectimax / *-minimax over chance nodes |
//! | [`montecarlo`] | flat Monte Carlo with parallel, seeded playouts |

pub mod alphabeta;
pub mod control;
pub mod expectimax;
pub mod mcts;
pub mod minimax;
pub mod montecarlo;
pub mod multipv;
pub mod nplayer;
pub mod tt;

pub use alphabeta::{SearchOptions, Searcher};
pub use control::{NodeCounter, SearchControl};
pub use minimax::{minimax, minimax_with, minimax_with_budget, MinimaxOptions};

use crate::eval::Score;
use crate::platform::Instant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What a search did: the counts that make algorithms comparable.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Positions visited (every call of the recursive search, quiescence included).
    pub nodes: u64,
    /// Of those, positions visited in quiescence.
    pub qnodes: u64,
    /// Depth of the last completed iteration (or the fixed depth searched).
    pub depth: u32,
    /// Deepest ply reached (selective depth).
    pub seldepth: u32,
    /// Transposition-table probes.
    pub tt_probes: u64,
    /// Probes that found an entry for the position.
    pub tt_hits: u64,
    /// Wall time spent.
    pub time: Duration,
}

impl SearchStats {
    /// Nodes per second (0 when no time was measured).
    pub fn nps(&self) -> u64 {
        let secs = self.time.as_secs_f64();
        if secs > 0.0 {
            (self.nodes as f64 / secs) as u64
        } else {
            0
        }
    }

    /// Adds the counts of `other` (for Lazy SMP helpers); depths take the maximum.
    pub fn merge(&mut self, other: &SearchStats) {
        self.nodes += other.nodes;
        self.qnodes += other.qnodes;
        self.tt_probes += other.tt_probes;
        self.tt_hits += other.tt_hits;
        self.seldepth = self.seldepth.max(other.seldepth);
    }
}

/// The result of a search: best move, score and what it cost.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult<M> {
    /// The move to play (`None` when the root has no legal move).
    pub best_move: Option<M>,
    /// Score of the root from the side to move's view.
    pub score: Score,
    /// Principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    /// Counts.
    pub stats: SearchStats,
}

/// Progress of an iterative-deepening search, reported after every completed depth.
#[derive(Clone, Debug)]
pub struct SearchInfo<M> {
    /// Depth just completed.
    pub depth: u32,
    /// Score at that depth.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<M>,
    /// Counts so far (all threads).
    pub stats: SearchStats,
}

/// When to stop an iterative-deepening search. Unset limits do not apply; with none set the search
/// runs to [`SearchLimits::MAX_DEPTH`] or until the stop flag is raised.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget (checked inside the search).
    pub nodes: Option<u64>,
    /// Time for this move, measured from the start of the search.
    pub move_time: Option<Duration>,
    /// Absolute deadline.
    pub deadline: Option<Instant>,
    /// External stop flag (UCI `stop`, a web request cancelled).
    pub stop: Option<Arc<AtomicBool>>,
}

impl SearchLimits {
    /// The deepest iteration any search runs.
    pub const MAX_DEPTH: u32 = 120;

    /// A fixed-depth search.
    pub fn depth(depth: u32) -> Self {
        SearchLimits {
            depth: Some(depth),
            ..Default::default()
        }
    }

    /// A search limited by time per move.
    pub fn move_time(time: Duration) -> Self {
        SearchLimits {
            move_time: Some(time),
            ..Default::default()
        }
    }

    /// A search limited by nodes.
    pub fn nodes(nodes: u64) -> Self {
        SearchLimits {
            nodes: Some(nodes),
            ..Default::default()
        }
    }

    /// The deadline implied by `move_time` and `deadline` for a search started at `start`.
    pub fn effective_deadline(&self, start: Instant) -> Option<Instant> {
        let by_time = self.move_time.map(|t| start + t);
        match (by_time, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// True when the external stop flag is raised.
    pub fn stop_requested(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}
