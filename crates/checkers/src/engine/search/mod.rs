//! The checkers engine's own search: alpha-beta with the selective ideas strong checkers engines
//! use, over any evaluation (the net or the hand-written one).
//!
//! Core's generic [`qiyi_core::search::Searcher`] stays the reference (the lab, the seed player
//! and the equivalence tests); this one adds what checkers needs and the generic one cannot know:
//!
//! | idea | what it does |
//! |---|---|
//! | capture resolution | at the horizon a pending capture is played out (captures are compulsory, so there is no standing pat) |
//! | threat extension | a horizon node where the *opponent* threatens a capture is searched one ply more, so the threat is met or seen |
//! | capture extensions | a capture on the principal variation, and a recapture, use no depth |
//! | single-reply extension | a node with one legal move uses no depth |
//! | late-move reductions | quiet moves after the first few are searched shallower (less for moves with a good history, more off the PV), and again at full depth if they beat alpha |
//! | verified pruning | a non-PV node whose static score is a margin above beta is cut only if a search four plies shallower also fails high above beta + margin |
//! | ordering | table move, captures by size, killers, the counter-move of the opponent's last move, history with a malus for the quiet moves that failed before a cut |
//! | iterative deepening | aspiration windows, internal iterative deepening, Lazy SMP over core's shared table |
//!
//! Every idea is a switch of [`SearchConfig`], so a match can measure each one (`qiyi match
//! checkers --engine qiyi --engine qiyi:nolmr ...`). `tests/search.rs` checks the search with
//! every selective idea off against core's plain minimax with capture resolution.

mod config;
mod ordering;
mod worker;

pub use config::{ConfigError, SearchConfig};
pub use ordering::MAX_PLY;

use crate::movegen::Move;
use crate::rules::Checkers;
use ordering::{Reductions, Tables};
use qiyi_core::eval::Evaluator;
use qiyi_core::search::tt::TranspositionTable;
use qiyi_core::search::{SearchControl, SearchInfo, SearchLimits, SearchResult};
use qiyi_core::Game;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use worker::Worker;

/// A position the checkers search can run on: the game itself, or the game carrying network
/// accumulators.
pub trait CheckersNode: Game<Move = Move> {
    /// The game (board, history, draw counters).
    fn checkers(&self) -> &Checkers;
}

impl CheckersNode for Checkers {
    #[inline]
    fn checkers(&self) -> &Checkers {
        self
    }
}

impl CheckersNode for super::nn::NetPosition {
    #[inline]
    fn checkers(&self) -> &Checkers {
        self.inner()
    }
}

/// Counts of what the selective ideas did in one search (main thread).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SelectiveStats {
    /// Horizon nodes searched one ply more for a threatened capture.
    pub threat_extensions: u64,
    /// Captures on the PV or recaptures searched without using depth.
    pub capture_extensions: u64,
    /// Single replies searched without using depth.
    pub single_extensions: u64,
    /// Moves searched at reduced depth.
    pub reductions: u64,
    /// Of those, re-searched at full depth.
    pub re_searches: u64,
    /// Verification searches started by the pruning.
    pub prune_tries: u64,
    /// Nodes cut by the verified pruning.
    pub prunes: u64,
}

/// The checkers search: an evaluator, the options, a transposition table and ordering tables
/// kept between the moves of a game.
pub struct Search<G: CheckersNode, E: Evaluator<G>> {
    eval: E,
    config: SearchConfig,
    tt: Arc<TranspositionTable>,
    tables: Tables,
    reductions: Reductions,
    last: SelectiveStats,
    /// Root moves the next searches leave out (multi-PV: the lines already reported).
    exclude: Vec<Move>,
    _g: std::marker::PhantomData<fn(G)>,
}

impl<G: CheckersNode, E: Evaluator<G>> Search<G, E> {
    /// A search with a fresh table of `config.tt_mib` MiB.
    pub fn new(eval: E, config: SearchConfig) -> Self {
        Search {
            tt: Arc::new(TranspositionTable::new(config.tt_mib)),
            reductions: Reductions::new(config.lmr_divisor_tenths),
            eval,
            config,
            tables: Tables::default(),
            last: SelectiveStats::default(),
            exclude: Vec::new(),
            _g: std::marker::PhantomData,
        }
    }

    /// The options in use.
    pub fn config(&self) -> &SearchConfig {
        &self.config
    }

    /// Changes the options (a new table size reallocates the table).
    pub fn set_config(&mut self, config: SearchConfig) {
        if config.tt_mib != self.config.tt_mib {
            self.tt = Arc::new(TranspositionTable::new(config.tt_mib));
        }
        self.reductions = Reductions::new(config.lmr_divisor_tenths);
        self.config = config;
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Replaces the evaluator (the table is kept).
    pub fn set_evaluator(&mut self, eval: E) {
        self.eval = eval;
    }

    /// What the selective ideas did in the last search.
    pub fn selective_stats(&self) -> &SelectiveStats {
        &self.last
    }

    /// Leaves these root moves out of the following searches (empty: search every move). The
    /// multi-PV search uses it to find the best move among those not yet reported.
    pub fn set_root_exclusions(&mut self, moves: &[Move]) {
        self.exclude = moves.to_vec();
    }

    /// Forgets the table and the ordering tables (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.tables.clear();
    }

    /// Searches `pos` within `limits`, calling `on_info` after every completed depth.
    pub fn search(
        &mut self,
        pos: &G,
        limits: &SearchLimits,
        mut on_info: impl FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        self.tt.new_search();
        self.tables.age();
        let shared = SearchControl::new(limits);
        let threads = self.config.threads.max(1);
        let tables = std::mem::take(&mut self.tables);
        let (mut result, tables, sel) = if threads == 1 {
            let mut w = Worker::new(self, &shared, 0, tables);
            let r = w.iterate(pos, &mut on_info);
            (r, w.tables, w.sel)
        } else {
            std::thread::scope(|scope| {
                let helpers: Vec<_> = (1..threads)
                    .map(|id| {
                        let shared = &shared;
                        let this = &*self;
                        let pos = pos.clone();
                        let t = tables.clone();
                        scope.spawn(move || {
                            let mut w = Worker::new(this, shared, id, t);
                            let r = w.iterate(&pos, &mut |_: &SearchInfo<Move>| {});
                            r.stats
                        })
                    })
                    .collect();
                let mut w = Worker::new(self, &shared, 0, tables);
                let mut r = w.iterate(pos, &mut on_info);
                shared.stop.store(true, Ordering::Relaxed);
                for h in helpers {
                    if let Ok(stats) = h.join() {
                        r.stats.merge(&stats);
                    }
                }
                (r, w.tables, w.sel)
            })
        };
        self.tables = tables;
        self.last = sel;
        result.stats.time = shared.start.elapsed();
        result
    }
}
