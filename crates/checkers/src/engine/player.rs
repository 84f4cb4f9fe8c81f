//! The players: levels 1-10 for people, full strength, and the article's seed player, all over
//! core's alpha-beta [`Searcher`].

use super::book::Book;
use super::egdb::Egdb;
use super::eval::{CheckersEval, MaterialEval, Weights};
use super::nn::{self, NetEval, NetPosition};
use crate::movegen::Move;
use crate::rules::Checkers;
use qiyi_core::learn::{LearnError, QuantNet};
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

/// The search options of the strong engine: everything exact plus capture resolution; no null
/// move (zugzwang is common in checkers) and no LMR: core's late-move reductions measured
/// +27 =47 −26 (50.5% ± 7.1%, Elo +3 [−46, +53]) against this setting in 100 games at 50 ms a
/// move (`qiyi match checkers --engine qiyi:level=10:lmr --engine qiyi:level=10:nolmr
/// --games 100 --movetime 50 --threads 1 --seed 3`), no measurable gain, so it stays off.
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

/// Which evaluation a strong level uses.
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The hand-written features of [`super::eval`].
    Hand,
    /// The embedded network ([`nn::embedded`]): the default since it won an SPRT(0, 10) against
    /// the hand evaluation at equal time (+112 =192 −58 in 362 games at 50 ms a move).
    #[default]
    Net,
    /// A network read from a file.
    NetFile(Arc<QuantNet>),
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

    fn net(&self) -> Option<Arc<QuantNet>> {
        match self {
            EvalChoice::Hand => None,
            EvalChoice::Net => Some(nn::embedded()),
            EvalChoice::NetFile(n) => Some(n.clone()),
        }
    }
}

enum Inner {
    Seed(Searcher<Checkers, MaterialEval>),
    Strong(Box<Searcher<Checkers, CheckersEval>>),
    Net(Box<Searcher<NetPosition, NetEval>>, Arc<QuantNet>),
}

/// A checkers player: a level, its searcher (with its table kept between moves), the opening
/// book and the endgame database.
pub struct Engine {
    level: Level,
    inner: Inner,
    book: Option<Book>,
}

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
    /// network), an optional endgame database and the evaluation `eval`.
    pub fn with_eval(
        level: Level,
        threads: usize,
        weights: Weights,
        egdb: Option<Arc<Egdb>>,
        eval: &EvalChoice,
    ) -> Engine {
        let inner = match level {
            Level::Seed { .. } => Inner::Seed(Searcher::new(MaterialEval, SearchOptions::none())),
            Level::Level(_) => {
                let mut w = weights;
                w.noise = level.noise();
                let hand = CheckersEval::new(w).with_egdb(egdb);
                let options = engine_options(threads, 64);
                match eval.net() {
                    None => Inner::Strong(Box::new(Searcher::new(hand, options))),
                    Some(net) => {
                        Inner::Net(Box::new(Searcher::new(NetEval { hand }, options)), net)
                    }
                }
            }
        };
        let book = match level {
            Level::Level(n) if n >= 6 => Some(Book::embedded()),
            _ => None,
        };
        Engine { level, inner, book }
    }

    /// The level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Varies the low levels' noise from game to game.
    pub fn set_noise_seed(&mut self, seed: u64) {
        match &mut self.inner {
            Inner::Seed(_) => {}
            Inner::Strong(s) => {
                let mut e = s.evaluator().clone();
                e.weights.noise_seed = seed;
                let opts = s.options().clone();
                **s = Searcher::new(e, opts);
            }
            Inner::Net(s, _) => {
                let mut e = s.evaluator().clone();
                e.hand.weights.noise_seed = seed;
                let opts = s.options().clone();
                **s = Searcher::new(e, opts);
            }
        }
    }

    /// Turns late-move reductions on or off (strong levels only; the seed player has none).
    pub fn set_lmr(&mut self, on: bool) {
        match &mut self.inner {
            Inner::Seed(_) => {}
            Inner::Strong(s) => {
                let mut opts = s.options().clone();
                opts.lmr = on;
                let e = s.evaluator().clone();
                **s = Searcher::new(e, opts);
            }
            Inner::Net(s, _) => {
                let mut opts = s.options().clone();
                opts.lmr = on;
                let e = s.evaluator().clone();
                **s = Searcher::new(e, opts);
            }
        }
    }

    /// The evaluation in use: `material` (the seed player), `hand` or `net`.
    pub fn eval_name(&self) -> &'static str {
        match self.inner {
            Inner::Seed(_) => "material",
            Inner::Strong(_) => "hand",
            Inner::Net(..) => "net",
        }
    }

    /// Forgets the table (a new game).
    pub fn new_game(&mut self) {
        match &mut self.inner {
            Inner::Seed(s) => s.clear(),
            Inner::Strong(s) => s.clear(),
            Inner::Net(s, _) => s.clear(),
        }
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
            Inner::Strong(s) => s.search(pos, &limits, on_info),
            Inner::Net(s, net) => {
                let root = NetPosition::new(pos.clone(), net.clone());
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
