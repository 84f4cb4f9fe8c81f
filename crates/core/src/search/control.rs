//! Search control shared by every thread of one search: the stop flag, the node count, the
//! limits and the clock, and each thread's batched node counter.

use super::{SearchLimits, SearchStats};
use crate::platform::Instant;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// How many nodes a thread counts locally before it adds them to the shared count and looks at
/// the limits.
const FLUSH_EVERY: u64 = 1024;

/// What the threads of one search share.
#[derive(Debug)]
pub struct SearchControl {
    /// Set when the search must stop (a limit was reached, or the main thread finished).
    pub stop: AtomicBool,
    /// Nodes counted by all threads so far (each thread adds its count in batches).
    pub nodes: AtomicU64,
    /// The hard deadline the limits give, if any.
    pub deadline: Option<Instant>,
    /// The limits of this search.
    pub limits: SearchLimits,
    /// When the search started.
    pub start: Instant,
}

impl SearchControl {
    /// Control for a search under `limits` starting now.
    pub fn new(limits: &SearchLimits) -> Self {
        let start = Instant::now();
        SearchControl {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            deadline: limits.effective_deadline(start),
            limits: limits.clone(),
            start,
        }
    }

    /// Whether a new iteration is not worth starting: half the move time is spent, or the
    /// deadline has passed.
    pub fn soft_time_up(&self) -> bool {
        self.soft_time_up_by(0.5)
    }

    /// Whether a new iteration is not worth starting: `fraction` of the move time is spent, or
    /// the deadline has passed. A search that plays the best move of an interrupted iteration
    /// can afford a later stop than one that throws that iteration away.
    pub fn soft_time_up_by(&self, fraction: f64) -> bool {
        match (self.limits.move_time, self.deadline) {
            (Some(t), _) => self.start.elapsed().as_secs_f64() > t.as_secs_f64() * fraction,
            (None, Some(d)) => Instant::now() >= d,
            _ => false,
        }
    }

    /// Whether the search must stop now (and, if so, tells every thread through the flag).
    pub fn must_stop(&self) -> bool {
        let stop = self.stop.load(Ordering::Relaxed)
            || self.limits.stop_requested()
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self
                .limits
                .nodes
                .is_some_and(|n| self.nodes.load(Ordering::Relaxed) >= n);
        if stop {
            self.stop.store(true, Ordering::Relaxed);
        }
        stop
    }
}

/// One thread's node counter: counts into its own statistics and adds to the shared count every
/// `FLUSH_EVERY` nodes, which is also when it looks at the limits.
#[derive(Debug, Default)]
pub struct NodeCounter {
    unflushed: u64,
}

impl NodeCounter {
    /// Counts a node at `ply`; returns true when the search must stop.
    #[inline]
    pub fn count(&mut self, control: &SearchControl, stats: &mut SearchStats, ply: usize) -> bool {
        stats.nodes += 1;
        self.unflushed += 1;
        if ply as u32 > stats.seldepth {
            stats.seldepth = ply as u32;
        }
        if self.unflushed >= FLUSH_EVERY {
            self.flush(control);
            return control.must_stop();
        }
        false
    }

    /// Adds the nodes counted since the last flush to the shared count.
    pub fn flush(&mut self, control: &SearchControl) {
        control.nodes.fetch_add(self.unflushed, Ordering::Relaxed);
        self.unflushed = 0;
    }

    /// The shared count plus this thread's unflushed nodes.
    pub fn total(&self, control: &SearchControl) -> u64 {
        control.nodes.load(Ordering::Relaxed) + self.unflushed
    }
}
