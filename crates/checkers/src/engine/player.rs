//! The players: levels 1-10 for people and full strength over the checkers search
//! ([`super::search`]), and the article's seed player over core's plain alpha-beta [`Searcher`].

use super::book::table::Book;
use super::egdb::Egdb;
use super::eval::{CheckersEval, MaterialEval, Weights};
use super::nn::{self, NetEval, NetPosition};
use super::search::{ConfigError, Search, SearchConfig, SelectiveStats};
use crate::movegen::Move;
use crate::rules::Checkers;
use qiyi_core::learn::{LearnError, NetSet};
use qiyi_core::search::multipv::{multipv, MultiPvInfo};
use qiyi_core::search::{SearchInfo, SearchLimits, SearchOptions, SearchResult, Searcher};
use qiyi_core::Game;
use std::sync::Arc;

/// How strong a player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The article's player: plain alpha-beta (no ordering, no table) to a fixed depth with the
    /// material-only evaluation.
    Seed {
        /// Plies searched.
        depth: u32,
    },
    /// Level 1 (weakest) to 10 (full strength).
    Level(u8),
}

/// Why an engine description could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LevelError {
    /// Not `seed`, `seed:N` or a number from 1 to 10.
    #[error("level {0:?} is not 1-10, seed or seed:DEPTH")]
    Bad(String),
}

impl Level {
    /// The seed player's default depth.
    pub const SEED_DEPTH: u32 = 6;

    /// Full strength.
    pub const MAX: Level = Level::Level(10);

    /// Reads `1`..`10`, `seed` or `seed:DEPTH`.
    pub fn parse(text: &str) -> Result<Level, LevelError> {
        let t = text.trim();
        let bad = || LevelError::Bad(t.to_string());
        if t == "seed" {
            return Ok(Level::Seed {
                depth: Self::SEED_DEPTH,
            });
        }
        if let Some(d) = t.strip_prefix("seed:") {
            let depth: u32 = d.parse().map_err(|_| bad())?;
            if !(1..=30).contains(&depth) {
                return Err(bad());
            }
            return Ok(Level::Seed { depth });
        }
        let n: u8 = t.parse().map_err(|_| bad())?;
        if (1..=10).contains(&n) {
            Ok(Level::Level(n))
        } else {
            Err(bad())
        }
    }

    /// The deepest iteration this level searches.
    pub fn max_depth(&self) -> u32 {
        match *self {
            Level::Seed { depth } => depth,
            Level::Level(n) => [1, 2, 3, 4, 6, 8, 10, 14, 20, SearchLimits::MAX_DEPTH]
                [(n.clamp(1, 10) - 1) as usize],
        }
    }

    /// The evaluation noise (hundredths of a man) that makes low levels err like people.
    pub fn noise(&self) -> i32 {
        match *self {
            Level::Seed { .. } => 0,
            Level::Level(n) => [150, 100, 60, 30, 10, 0, 0, 0, 0, 0][(n.clamp(1, 10) - 1) as usize],
        }
    }

    /// A short name (`seed`, `level=7`).
    pub fn name(&self) -> String {
        match *self {
            Level::Seed { depth } if depth == Self::SEED_DEPTH => "seed".to_string(),
            Level::Seed { depth } => format!("seed:{depth}"),
            Level::Level(n) => format!("level={n}"),
        }
    }
}

/// The options of core's generic searcher for checkers: everything exact plus capture
/// resolution, no null move (zugzwang is common in checkers), no LMR. The engine searched with
/// these before it had its own search ([`super::search`]); they remain for the self-play tuner
/// and as the `search=core` engine of matches (the previous engine, for gauntlets).
pub fn engine_options(threads: usize, tt_mib: usize) -> SearchOptions {
    SearchOptions {
        null_move: false,
        lmr: false,
        check_extension: false,
        quiescence: true,
        threads: threads.max(1),
        tt_mib,
        ..SearchOptions::all()
    }
}

/// Which search a strong level runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchChoice {
    /// The checkers search with its selective ideas ([`super::search`]).
    Selective(SearchConfig),
    /// Core's generic alpha-beta with [`engine_options`] (the engine before the checkers
    /// search; `lmr` turns core's late-move reductions on).
    Core {
        /// Core's late-move reductions.
        lmr: bool,
    },
}

impl Default for SearchChoice {
    fn default() -> Self {
        SearchChoice::Selective(SearchConfig::default())
    }
}

impl SearchChoice {
    /// Reads `default`, `core` (core's generic searcher), `core:lmr`, or the selective search's
    /// switches joined by `:` or `,` (`nolmr:margin=40`, see [`SearchConfig::apply`]).
    pub fn parse(text: &str) -> Result<SearchChoice, ConfigError> {
        let t = text.trim();
        match t {
            "" | "default" | "selective" => return Ok(SearchChoice::default()),
            "core" => return Ok(SearchChoice::Core { lmr: false }),
            "core:lmr" | "core,lmr" => return Ok(SearchChoice::Core { lmr: true }),
            _ => {}
        }
        let mut c = SearchConfig::default();
        for token in t.split([':', ',']).filter(|s| !s.is_empty()) {
            if !c.apply(token)? {
                return Err(ConfigError(token.to_string()));
            }
        }
        Ok(SearchChoice::Selective(c))
    }

    /// A short name for results: `default`, the options that differ (`nolmr:margin=40`), or
    /// `search=core`.
    pub fn name(&self) -> String {
        match self {
            SearchChoice::Selective(c) => c.to_string(),
            SearchChoice::Core { lmr: false } => "search=core".to_string(),
            SearchChoice::Core { lmr: true } => "search=core:lmr".to_string(),
        }
    }
}

/// Which evaluation a strong level uses.
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The hand-written features of [`super::eval`].
    Hand,
    /// The embedded network ([`nn::embedded`]): the default since it won an SPRT(0, 10) against
    /// the hand evaluation at equal time (+112 =192 −58 in 362 games at 50 ms a move).
    #[default]
    Net,
    /// A network, or a set of networks by stage, read from a file.
    NetFile(Arc<NetSet>),
}

impl EvalChoice {
    /// Reads `hand`, `net` (the embedded network) or the path of a network file.
    pub fn parse(text: &str) -> Result<EvalChoice, LearnError> {
        match text.trim() {
            "hand" => Ok(EvalChoice::Hand),
            "net" => Ok(EvalChoice::Net),
            path => Ok(EvalChoice::NetFile(nn::load(std::path::Path::new(path))?)),
        }
    }

    /// A short name for results: `hand`, `net` or `net-file`.
    pub fn name(&self) -> &'static str {
        match self {
            EvalChoice::Hand => "hand",
            EvalChoice::Net => "net",
            EvalChoice::NetFile(_) => "net-file",
        }
    }

    fn net(&self) -> Option<Arc<NetSet>> {
        match self {
            EvalChoice::Hand => None,
            EvalChoice::Net => Some(nn::embedded()),
            EvalChoice::NetFile(n) => Some(n.clone()),
        }
    }
}

enum Inner {
    Seed(Searcher<Checkers, MaterialEval>),
    Hand(Box<Search<Checkers, CheckersEval>>),
    Net(Box<Search<NetPosition, NetEval>>, Arc<NetSet>),
    CoreHand(Box<Searcher<Checkers, CheckersEval>>),
    CoreNet(Box<Searcher<NetPosition, NetEval>>, Arc<NetSet>),
}

/// A checkers player: a level, its search (with its tables kept between moves), the opening
/// book and the endgame database.
pub struct Engine {
    level: Level,
    threads: usize,
    inner: Inner,
    book: Option<Book>,
}

/// The transposition-table size of the strong levels, in MiB.
pub const TT_MIB: usize = 64;

impl Engine {
    /// A player at `level` using `threads` search threads.
    pub fn new(level: Level, threads: usize) -> Engine {
        Self::with_parts(level, threads, Weights::default(), None)
    }

    /// A player with explicit weights and an optional endgame database, with the default
    /// evaluation ([`EvalChoice::default`]).
    pub fn with_parts(
        level: Level,
        threads: usize,
        weights: Weights,
        egdb: Option<Arc<Egdb>>,
    ) -> Engine {
        Self::with_eval(level, threads, weights, egdb, &EvalChoice::default())
    }

    /// A player with explicit weights (the hand evaluation's, and its rules and noise with a
    /// network), an optional endgame database and the evaluation `eval`, searching with the
    /// default [`SearchChoice`].
    pub fn with_eval(
        level: Level,
        threads: usize,
        weights: Weights,
        egdb: Option<Arc<Egdb>>,
        eval: &EvalChoice,
    ) -> Engine {
        Self::with_search(
            level,
            threads,
            weights,
            egdb,
            eval,
            &SearchChoice::default(),
        )
    }

    /// [`Engine::with_eval`] with the search `search`.
    pub fn with_search(
        level: Level,
        threads: usize,
        weights: Weights,
        egdb: Option<Arc<Egdb>>,
        eval: &EvalChoice,
        search: &SearchChoice,
    ) -> Engine {
        let threads = threads.max(1);
        let inner = match level {
            Level::Seed { .. } => Inner::Seed(Searcher::new(MaterialEval, SearchOptions::none())),
            Level::Level(_) => {
                let mut w = weights;
                w.noise = level.noise();
                let hand = CheckersEval::new(w).with_egdb(egdb);
                match (search, eval.net()) {
                    (SearchChoice::Selective(c), net) => {
                        let mut config = c.clone();
                        config.threads = threads;
                        match net {
                            None => Inner::Hand(Box::new(Search::new(hand, config))),
                            Some(net) => {
                                Inner::Net(Box::new(Search::new(NetEval { hand }, config)), net)
                            }
                        }
                    }
                    (SearchChoice::Core { lmr }, net) => {
                        let mut options = engine_options(threads, TT_MIB);
                        options.lmr = *lmr;
                        match net {
                            None => Inner::CoreHand(Box::new(Searcher::new(hand, options))),
                            Some(net) => Inner::CoreNet(
                                Box::new(Searcher::new(NetEval { hand }, options)),
                                net,
                            ),
                        }
                    }
                }
            }
        };
        let book = match level {
            Level::Level(n) if n >= 6 => Some(Book::embedded()),
            _ => None,
        };
        Engine {
            level,
            threads,
            inner,
            book,
        }
    }

    /// Turns the opening book off (or back on for the levels that have one): matches that must
    /// measure the search from the ballot on play without it.
    pub fn set_book(&mut self, on: bool) {
        self.book = match self.level {
            Level::Level(n) if on && n >= 6 => Some(Book::embedded()),
            _ => None,
        };
    }

    /// Whether the opening book is in use.
    pub fn uses_book(&self) -> bool {
        self.book.is_some()
    }

    /// The search in use (the seed player reports core's, without LMR).
    pub fn search_choice(&self) -> SearchChoice {
        match &self.inner {
            Inner::Hand(s) => SearchChoice::Selective(s.config().clone()),
            Inner::Net(s, _) => SearchChoice::Selective(s.config().clone()),
            Inner::CoreHand(s) => SearchChoice::Core {
                lmr: s.options().lmr,
            },
            Inner::CoreNet(s, _) => SearchChoice::Core {
                lmr: s.options().lmr,
            },
            Inner::Seed(_) => SearchChoice::Core { lmr: false },
        }
    }

    /// What the selective ideas did in the last search (`None` for core's searcher).
    pub fn selective_stats(&self) -> Option<&SelectiveStats> {
        match &self.inner {
            Inner::Hand(s) => Some(s.selective_stats()),
            Inner::Net(s, _) => Some(s.selective_stats()),
            _ => None,
        }
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Varies the low levels' noise from game to game.
    pub fn set_noise_seed(&mut self, seed: u64) {
        match &mut self.inner {
            Inner::Seed(_) => {}
            Inner::Hand(s) => {
                let mut e = s.evaluator().clone();
                e.weights.noise_seed = seed;
                s.set_evaluator(e);
            }
            Inner::Net(s, _) => {
                let mut e = s.evaluator().clone();
                e.hand.weights.noise_seed = seed;
                s.set_evaluator(e);
            }
            Inner::CoreHand(s) => {
                let mut e = s.evaluator().clone();
                e.weights.noise_seed = seed;
                let opts = s.options().clone();
                **s = Searcher::new(e, opts);
            }
            Inner::CoreNet(s, _) => {
                let mut e = s.evaluator().clone();
                e.hand.weights.noise_seed = seed;
                let opts = s.options().clone();
                **s = Searcher::new(e, opts);
            }
        }
    }

    /// Changes the selective search's options (the table is kept unless its size changes);
    /// no effect on core's searcher or the seed player.
    pub fn set_search_config(&mut self, config: SearchConfig) {
        let mut config = config;
        config.threads = self.threads;
        match &mut self.inner {
            Inner::Hand(s) => s.set_config(config),
            Inner::Net(s, _) => s.set_config(config),
            _ => {}
        }
    }

    /// The evaluation in use: `material` (the seed player), `hand` or `net`.
    pub fn eval_name(&self) -> &'static str {
        match self.inner {
            Inner::Seed(_) => "material",
            Inner::Hand(_) | Inner::CoreHand(_) => "hand",
            Inner::Net(..) | Inner::CoreNet(..) => "net",
        }
    }

    /// Forgets the tables (a new game).
    pub fn new_game(&mut self) {
        match &mut self.inner {
            Inner::Seed(s) => s.clear(),
            Inner::Hand(s) => s.clear(),
            Inner::Net(s, _) => s.clear(),
            Inner::CoreHand(s) => s.clear(),
            Inner::CoreNet(s, _) => s.clear(),
        }
    }

    /// Whether [`Engine::multipv`] can report more than one line (the checkers search can; the
    /// seed level and `search=core`, core's generic searcher, cannot leave root moves out).
    pub fn has_multipv(&self) -> bool {
        matches!(self.inner, Inner::Hand(_) | Inner::Net(..))
    }

    /// The best `lines` root moves (1 to [`qiyi_core::search::multipv::MAX_LINES`]), each with
    /// its score and line, depth by depth (`on_depth` sees each completed depth): at every depth
    /// the tables are cleared and the root searched again without the moves already found, so the
    /// first line is exactly [`Engine::analyse`] to that depth. The level's depth cap applies.
    /// `None` when the side to move has no legal move. Without [`Engine::has_multipv`] only the
    /// first line is reported.
    pub fn multipv(
        &mut self,
        pos: &Checkers,
        limits: &SearchLimits,
        lines: usize,
        on_depth: impl FnMut(&MultiPvInfo<Move>),
    ) -> Option<MultiPvInfo<Move>> {
        let mut limits = limits.clone();
        let cap = self.level.max_depth();
        limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        let mut moves = Vec::new();
        pos.board().generate(&mut moves);
        let lines = if self.has_multipv() { lines } else { 1 };
        let inner = std::cell::RefCell::new(&mut self.inner);
        multipv(
            &limits,
            lines,
            moves.len(),
            || match &mut **inner.borrow_mut() {
                Inner::Seed(s) => s.clear(),
                Inner::Hand(s) => s.clear(),
                Inner::Net(s, _) => s.clear(),
                Inner::CoreHand(s) => s.clear(),
                Inner::CoreNet(s, _) => s.clear(),
            },
            |excluded: &[Move], l: &SearchLimits| match &mut **inner.borrow_mut() {
                Inner::Seed(s) => s.search(pos, l, |_| {}),
                Inner::Hand(s) => {
                    s.set_root_exclusions(excluded);
                    let r = s.search(pos, l, |_| {});
                    s.set_root_exclusions(&[]);
                    r
                }
                Inner::Net(s, net) => {
                    let root = NetPosition::with_set(pos.clone(), net.clone());
                    s.set_root_exclusions(excluded);
                    let r = s.search(&root, l, |_| {});
                    s.set_root_exclusions(&[]);
                    r
                }
                Inner::CoreHand(s) => s.search(pos, l, |_| {}),
                Inner::CoreNet(s, net) => {
                    let root = NetPosition::with_set(pos.clone(), net.clone());
                    s.search(&root, l, |_| {})
                }
            },
            on_depth,
        )
    }

    /// Searches `pos` within `limits` (the level's depth cap applies) without the book or the
    /// forced-move shortcut: the honest score and principal variation, for analysis.
    pub fn analyse(
        &mut self,
        pos: &Checkers,
        limits: &SearchLimits,
        on_info: impl FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        let mut limits = limits.clone();
        let cap = self.level.max_depth();
        limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        match &mut self.inner {
            Inner::Seed(s) => s.search(pos, &limits, on_info),
            Inner::Hand(s) => s.search(pos, &limits, on_info),
            Inner::Net(s, net) => {
                let root = NetPosition::with_set(pos.clone(), net.clone());
                s.search(&root, &limits, on_info)
            }
            Inner::CoreHand(s) => s.search(pos, &limits, on_info),
            Inner::CoreNet(s, net) => {
                let root = NetPosition::with_set(pos.clone(), net.clone());
                s.search(&root, &limits, on_info)
            }
        }
    }

    /// Chooses a move within `limits` (the level's depth cap applies too); `on_info` sees every
    /// completed depth. `None` when the game is over.
    pub fn think(
        &mut self,
        pos: &Checkers,
        limits: &SearchLimits,
        on_info: impl FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        if let Some(book) = &self.book {
            if let Some(mv) = book.lookup(pos) {
                return SearchResult {
                    best_move: Some(mv),
                    score: 0,
                    pv: vec![mv],
                    stats: Default::default(),
                };
            }
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        if moves.len() == 1 && !matches!(self.level, Level::Seed { .. }) {
            // A forced move (common: captures are compulsory) needs no thought.
            return SearchResult {
                best_move: Some(moves[0]),
                score: 0,
                pv: moves,
                stats: Default::default(),
            };
        }
        self.analyse(pos, limits, on_info)
    }
}
