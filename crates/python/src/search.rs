//! Searches from Python: the request, the result, and the algorithms every game shares (MCTS
//! with random playouts, expectimax); each game's engines live in [`crate::games`].

use crate::error::{QiyiError, Result};
use qiyi_core::eval::MultiEvaluator;
use qiyi_core::search::expectimax::expectimax_limited;
use qiyi_core::search::mcts::{mcts, ChanceMode, MctsOptions};
use qiyi_core::search::{SearchLimits, SearchResult};
use qiyi_core::{eval::RandomPolicy, Game};

/// Which search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// The game's own engine or player (alpha-beta engines for Xiangqi and checkers, the
    /// player types of Chinese checkers and aeroplane chess, the solver for peg solitaire).
    Engine,
    /// Core's MCTS (UCT) with uniform random playouts.
    Mcts,
    /// Core's n-player expectimax with iterative deepening.
    Expectimax,
    /// The exact solver (peg solitaire).
    Solve,
}

impl Algorithm {
    /// Parses the name used from Python.
    pub fn parse(text: &str) -> Result<Algorithm> {
        match text.trim().to_ascii_lowercase().as_str() {
            "engine" | "alphabeta" | "alpha-beta" | "player" => Ok(Algorithm::Engine),
            "mcts" | "uct" => Ok(Algorithm::Mcts),
            "expectimax" => Ok(Algorithm::Expectimax),
            "solve" | "solver" => Ok(Algorithm::Solve),
            other => Err(QiyiError::Search(format!(
                "unknown algorithm {other:?}; use engine, mcts, expectimax or solve"
            ))),
        }
    }
}

/// What Python asked for.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// A player type or engine variant (`seed`, `best`, `race`, ...), where the game has them.
    pub player: Option<String>,
    /// Strength 1-10 for engines with levels.
    pub level: u32,
    /// Depth, nodes (playouts for MCTS), time and the stop flag (Ctrl-C).
    pub limits: SearchLimits,
    /// Seed of every random choice.
    pub seed: u64,
}

/// What a search found; moves as the game's moves or, once converted, as action ids.
#[derive(Clone, Debug)]
pub struct SearchOut<M> {
    /// The move to play.
    pub best: Option<M>,
    /// The move in the game's notation (filled in by the conversion to ids).
    pub best_text: Option<String>,
    /// The score from the mover's view, on the algorithm's scale (engine centipawns-like
    /// units, MCTS mean return in [-1, 1], expectimax value).
    pub score: f64,
    /// Principal variation, starting with `best`.
    pub pv: Vec<M>,
    /// The principal variation in notation (filled in by the conversion to ids).
    pub pv_text: Vec<String>,
    /// Nodes searched (MCTS: playouts).
    pub nodes: u64,
    /// Depth completed (MCTS: deepest node).
    pub depth: u32,
    /// Seconds spent.
    pub seconds: f64,
    /// What searched, in words.
    pub algorithm: String,
    /// Whether the score is exact (a solved position).
    pub exact: bool,
}

impl<M> SearchOut<M> {
    /// The result of an alpha-beta style search.
    pub fn from_result(r: SearchResult<M>, algorithm: String) -> Self {
        SearchOut {
            best: r.best_move,
            best_text: None,
            score: r.score as f64,
            pv: r.pv,
            pv_text: Vec::new(),
            nodes: r.stats.nodes,
            depth: r.stats.depth,
            seconds: r.stats.time.as_secs_f64(),
            algorithm,
            exact: false,
        }
    }

    /// A bare move choice (players that report no search).
    pub fn choice(mv: M, seconds: f64, algorithm: String) -> Self
    where
        M: Copy,
    {
        SearchOut {
            best: Some(mv),
            best_text: None,
            score: 0.0,
            pv: vec![mv],
            pv_text: Vec::new(),
            nodes: 0,
            depth: 0,
            seconds,
            algorithm,
            exact: false,
        }
    }
}

/// Core's MCTS with random playouts (chance nodes by expectation).
pub fn run_mcts<G: Game>(pos: &G, req: &SearchRequest) -> SearchOut<G::Move> {
    let options = MctsOptions {
        chance: ChanceMode::Expectation,
        seed: req.seed,
        max_playout_plies: 2_000,
        ..MctsOptions::default()
    };
    let r = mcts(pos, &RandomPolicy, &options, &req.limits);
    SearchOut {
        best: r.best_move,
        best_text: None,
        score: r.value,
        pv: r.best_move.into_iter().collect(),
        pv_text: Vec::new(),
        nodes: r.playouts,
        depth: r.max_depth,
        seconds: r.time.as_secs_f64(),
        algorithm: "mcts (UCT, random playouts)".into(),
        exact: false,
    }
}

/// Core's expectimax with iterative deepening under the request's limits.
pub fn run_expectimax<G: Game, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    what: &str,
    req: &SearchRequest,
) -> SearchOut<G::Move> {
    let r = expectimax_limited(pos, eval, &req.limits);
    SearchOut {
        best: r.best_move,
        best_text: None,
        score: r.value,
        pv: r.pv,
        pv_text: Vec::new(),
        nodes: r.stats.nodes,
        depth: r.stats.depth,
        seconds: r.stats.time.as_secs_f64(),
        algorithm: format!("expectimax ({what})"),
        exact: false,
    }
}

/// The error for an algorithm a game does not offer.
pub fn unsupported(game: &str, algorithm: Algorithm, offered: &str) -> QiyiError {
    QiyiError::Search(format!(
        "{game} has no {algorithm:?} search; it offers {offered}"
    ))
}

/// How to build an engine that stays loaded between searches ([`crate::engine::Engine`] from
/// Python, and the cached engines behind `State.search`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct EngineSpec {
    /// A player type or engine variant (`seed`, `best`, `race`, ...), where the game has them.
    pub player: Option<String>,
    /// Strength 1-10 for engines with levels.
    pub level: u32,
    /// The evaluation: checkers `hand`, `net` or a network file; Xiangqi `tuned`; `None`: the
    /// game's default.
    pub evaluation: Option<String>,
    /// Transposition table in MiB (`None`: the game's default).
    pub hash_mib: Option<usize>,
    /// A directory holding a complete endgame database (checkers).
    pub endgame: Option<std::path::PathBuf>,
    /// Whether the opening book answers where it can (checkers levels 6-10).
    pub book: bool,
    /// Seed of the engine's noise or random choices.
    pub seed: u64,
}

impl EngineSpec {
    /// The error for an option `game` does not take.
    pub fn reject(&self, game: &str) -> Result<()> {
        if self.endgame.is_some() {
            return Err(QiyiError::Search(format!(
                "{game} has no endgame database (only checkers takes endgame=)"
            )));
        }
        if self.evaluation.is_some() {
            return Err(QiyiError::Search(format!(
                "{game} has one evaluation; evaluation= is for checkers (hand, net, a net file) and xiangqi (tuned)"
            )));
        }
        if self.hash_mib.is_some() {
            return Err(QiyiError::Search(format!(
                "{game} keeps no transposition table; hash_mib= is for checkers and xiangqi"
            )));
        }
        Ok(())
    }
}
