//! The Xiangqi player: levels 1-10 over this crate's [`crate::search`] (PVS with the tuned
//! evaluation, plus seeded evaluation noise below level 10), the article's baseline player (core's
//! plain alpha-beta [`Searcher`] over material, `--level seed`), and time management for
//! clock-based games.
//!
//! ```
//! use qiyi_xiangqi::engine::{Engine, EngineConfig, Level};
//! use qiyi_xiangqi::Position;
//! use qiyi_core::search::SearchLimits;
//!
//! let mut engine = Engine::new(EngineConfig { level: Level::Strength(3), ..Default::default() });
//! let result = engine.think(&Position::start(), &SearchLimits::depth(3), |_| {});
//! assert!(result.best_move.is_some());
//! ```

use crate::board::{Color, PieceKind};
use crate::eval::Evaluation;
use crate::position::{Move, Position};
use crate::search::XiangqiSearch;
use qiyi_core::eval::{Evaluator, Score};
use qiyi_core::platform::Instant;
use qiyi_core::rng::splitmix64;
use qiyi_core::search::multipv::{multipv, MultiPvInfo};
use qiyi_core::search::{SearchInfo, SearchLimits, SearchOptions, SearchResult, Searcher};
use std::time::Duration;

/// Material values in centipawns, indexed by [`PieceKind`].
pub const PIECE_VALUES: [Score; 7] = [0, 200, 200, 450, 1000, 450, 100];

/// Material value of a piece kind.
fn piece_value(kind: PieceKind) -> Score {
    PIECE_VALUES[kind as usize]
}

/// Most valuable victim, least valuable attacker: the static order of captures.
fn mvv_lva(pos: &Position, mv: Move) -> i32 {
    let victim = pos.piece_at(mv.to()).map_or(0, |(k, _)| piece_value(k));
    let attacker = pos.piece_at(mv.from()).map_or(0, |(k, _)| piece_value(k));
    victim * 16 - attacker / 16
}

fn has_major_piece(pos: &Position, color: Color) -> bool {
    [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
        .iter()
        .any(|&k| pos.count(k, color) > 0)
}

/// Score of a repeated position inside the search: a perpetual checker or chaser loses (a large
/// score short of a mate), any other repetition is a draw.
fn repetition_score(pos: &Position, ply: usize) -> Option<Score> {
    if pos.repetitions() == 0 {
        return None;
    }
    let verdict = pos.cycle_verdict()?;
    Some(match verdict.winner {
        None => 0,
        Some(c) if c == pos.side_to_move() => RULE_WIN - ply as Score,
        Some(_) => -RULE_WIN + ply as Score,
    })
}

/// What winning by a repetition rule is worth in the search (less than any mate).
pub const RULE_WIN: Score = 20_000;

/// The article's evaluation: material only, from the side to move's view.
#[derive(Clone, Copy, Debug, Default)]
pub struct MaterialEval;

/// Material balance from `color`'s view.
pub fn material(pos: &Position, color: Color) -> Score {
    PieceKind::ALL
        .iter()
        .map(|&k| {
            piece_value(k)
                * (pos.count(k, color) as Score - pos.count(k, color.opposite()) as Score)
        })
        .sum()
}

/// The hooks every Xiangqi evaluator shares: captures are noisy and ordered MVV-LVA, checks are
/// extended, a position repeated inside the search scores as a draw, and null move is allowed
/// while the side to move keeps a chariot, horse or cannon.
macro_rules! xiangqi_hooks {
    () => {
        fn rule_score(&self, pos: &Position, ply: usize) -> Option<Score> {
            repetition_score(pos, ply)
        }

        fn move_order(&self, pos: &Position, mv: Move) -> i32 {
            mvv_lva(pos, mv)
        }

        fn is_noisy(&self, pos: &Position, mv: Move) -> bool {
            pos.piece_at(mv.to()).is_some()
        }

        fn in_check(&self, pos: &Position) -> bool {
            pos.in_check()
        }

        fn null_move_ok(&self, pos: &Position) -> bool {
            has_major_piece(pos, pos.side_to_move())
        }
    };
}

impl Evaluator<Position> for MaterialEval {
    fn evaluate(&self, pos: &Position) -> Score {
        material(pos, pos.side_to_move())
    }
    xiangqi_hooks!();
}

impl Evaluator<Position> for crate::eval::Evaluation {
    fn evaluate(&self, pos: &Position) -> Score {
        self.score(pos)
    }
    xiangqi_hooks!();
}

/// An evaluator with seeded, position-dependent noise added (for the weaker levels).
#[derive(Clone, Debug)]
pub struct Noisy<E> {
    inner: E,
    amplitude: Score,
    seed: u64,
}

impl<E> Noisy<E> {
    /// The level's noise for `pos`: seeded, the same for the same position.
    #[inline]
    fn noise(&self, pos: &Position) -> Score {
        if self.amplitude == 0 {
            return 0;
        }
        let r = splitmix64(pos.zobrist() ^ self.seed).1;
        (r % (2 * self.amplitude as u64 + 1)) as Score - self.amplitude
    }
}

impl<E: Evaluator<Position>> Evaluator<Position> for Noisy<E> {
    fn evaluate(&self, pos: &Position) -> Score {
        self.inner.evaluate(pos) + self.noise(pos)
    }
    xiangqi_hooks!();
}

impl<E: Evaluator<Position>> crate::search::SearchEval for Noisy<E> {
    /// The network's score plus the level's noise, as the hand evaluation gets it.
    #[inline]
    fn net_score(&self, pos: &Position, raw: Score) -> Score {
        raw + self.noise(pos)
    }
}

/// How strong the player is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The tutorial's player: fixed-depth (4) plain alpha-beta over material only.
    Seed,
    /// A level for people, 1 (weakest) to 10 (full strength).
    Strength(u8),
}

impl Level {
    /// Parses `seed` or `1`..`10`.
    pub fn parse(text: &str) -> Option<Level> {
        match text.trim() {
            "seed" => Some(Level::Seed),
            t => t
                .parse::<u8>()
                .ok()
                .filter(|l| (1..=10).contains(l))
                .map(Level::Strength),
        }
    }

    /// Depth cap for this level (`None` = no cap beyond the search limits).
    pub fn depth_cap(self) -> Option<u32> {
        match self {
            Level::Seed => Some(4),
            Level::Strength(10) => None,
            Level::Strength(l) => Some(u32::from(l) + 1),
        }
    }

    /// Evaluation noise amplitude in centipawns.
    pub fn noise(self) -> Score {
        match self {
            Level::Seed => 0,
            Level::Strength(l) => 12 * (10 - Score::from(l.min(10))),
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Level::Seed => f.write_str("seed"),
            Level::Strength(l) => write!(f, "{l}"),
        }
    }
}

/// Engine settings.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Transposition table in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Strength.
    pub level: Level,
    /// Seed of the level noise.
    pub seed: u64,
    /// The learned evaluation to search with (`None`: the hand evaluation). Ignored at the
    /// `seed` level, which plays the tutorial's material count.
    pub net: Option<std::sync::Arc<qiyi_core::learn::QuantNet>>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            hash_mib: 64,
            threads: 1,
            level: Level::Strength(10),
            seed: 1,
            net: None,
        }
    }
}

enum Inner {
    Seed(Searcher<Position, MaterialEval>),
    Strong(Box<XiangqiSearch<Noisy<Evaluation>>>),
}

/// A Xiangqi engine: settings plus a searcher whose table lives between moves.
pub struct Engine {
    config: EngineConfig,
    weights: Option<crate::eval::Weights>,
    inner: Inner,
}

impl Engine {
    /// A new engine.
    pub fn new(config: EngineConfig) -> Self {
        let inner = Self::build(&config, None);
        Engine {
            config,
            weights: None,
            inner,
        }
    }

    /// Plays with these evaluation weights instead of the tuned ones (rebuilds the searcher).
    pub fn set_weights(&mut self, weights: crate::eval::Weights) {
        self.weights = Some(weights);
        self.inner = Self::build(&self.config, self.weights.as_ref());
    }

    fn build(config: &EngineConfig, weights: Option<&crate::eval::Weights>) -> Inner {
        match config.level {
            Level::Seed => {
                let opts = SearchOptions {
                    tt_mib: 1,
                    ..SearchOptions::none()
                };
                Inner::Seed(Searcher::new(MaterialEval, opts))
            }
            level => {
                let eval = Noisy {
                    inner: weights
                        .map_or_else(Evaluation::default, |w| Evaluation::with_weights(w.clone())),
                    amplitude: level.noise(),
                    seed: config.seed,
                };
                let mut search = XiangqiSearch::new(eval, config.hash_mib, config.threads);
                search.set_net(config.net.clone());
                Inner::Strong(Box::new(search))
            }
        }
    }

    /// The settings in use.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// Changes the settings (rebuilds the searcher: the table is emptied).
    pub fn configure(&mut self, config: EngineConfig) {
        self.inner = Self::build(&config, self.weights.as_ref());
        self.config = config;
    }

    /// Changes the seed of the level's noise without rebuilding the searcher, so its table is
    /// not allocated again (it is kept: call [`Engine::new_game`] for an empty one). After
    /// `new_game` and `set_seed(s)` the engine plays as a new one built with seed `s`.
    pub fn set_seed(&mut self, seed: u64) {
        self.config.seed = seed;
        if let Inner::Strong(s) = &mut self.inner {
            s.evaluator_mut().seed = seed;
        }
    }

    /// Forgets what earlier searches learnt (new game).
    pub fn new_game(&mut self) {
        match &mut self.inner {
            Inner::Seed(s) => s.clear(),
            Inner::Strong(s) => s.clear(),
        }
    }

    /// Searches `pos` within `limits` (further capped by the level), reporting each depth.
    pub fn think(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        on_info: impl FnMut(&SearchInfo<Move>),
    ) -> SearchResult<Move> {
        let mut limits = limits.clone();
        if let Some(cap) = self.config.level.depth_cap() {
            limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        }
        match &mut self.inner {
            Inner::Seed(s) => s.search(pos, &limits, on_info),
            Inner::Strong(s) => s.search(pos, &limits, on_info),
        }
    }
}

impl Engine {
    /// Whether [`Engine::multipv`] can report more than one line (every level but `seed`, whose
    /// generic searcher cannot leave root moves out).
    pub fn has_multipv(&self) -> bool {
        matches!(self.inner, Inner::Strong(_))
    }

    /// The best `lines` root moves (1 to [`qiyi_core::search::multipv::MAX_LINES`]), each with its score and line, depth by
    /// depth (`on_depth` sees each completed depth): at every depth the table is cleared and the
    /// root searched again without the moves already found, so the first line is exactly the
    /// single-PV search to that depth. The level's depth cap applies. `None` when the side to
    /// move has no legal move. At the `seed` level only the first line is reported.
    pub fn multipv(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        lines: usize,
        on_depth: impl FnMut(&MultiPvInfo<Move>),
    ) -> Option<MultiPvInfo<Move>> {
        let mut limits = limits.clone();
        if let Some(cap) = self.config.level.depth_cap() {
            limits.depth = Some(limits.depth.map_or(cap, |d| d.min(cap)));
        }
        let legal = pos.legal_move_list().len();
        let lines = if self.has_multipv() { lines } else { 1 };
        let inner = std::cell::RefCell::new(&mut self.inner);
        multipv(
            &limits,
            lines,
            legal,
            || match &mut **inner.borrow_mut() {
                Inner::Seed(s) => s.clear(),
                Inner::Strong(s) => s.clear(),
            },
            |excluded: &[Move], l: &SearchLimits| match &mut **inner.borrow_mut() {
                Inner::Seed(s) => s.search(pos, l, |_| {}),
                Inner::Strong(s) => {
                    s.set_root_exclusions(excluded);
                    let r = s.search(pos, l, |_| {});
                    s.set_root_exclusions(&[]);
                    r
                }
            },
            on_depth,
        )
    }
}

/// A clock situation, as `go` reports it (all times in milliseconds).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left for the side to move.
    pub time_left: Option<u64>,
    /// Increment per move for the side to move.
    pub increment: u64,
    /// Moves until the next time control (0 = sudden death).
    pub moves_to_go: u32,
}

/// Never plan to leave less than this on the clock (process and pipe latency).
pub const SAFETY_MARGIN_MS: u64 = 50;

impl Clock {
    /// Turns the clock into search limits started at `start`: a target time (the search stops
    /// starting new depths after half of it) and a hard deadline that always keeps
    /// [`SAFETY_MARGIN_MS`] on the clock.
    pub fn limits(&self, start: Instant) -> SearchLimits {
        let Some(left) = self.time_left else {
            return SearchLimits::default();
        };
        let usable = left.saturating_sub(SAFETY_MARGIN_MS).max(1);
        let moves = if self.moves_to_go > 0 {
            u64::from(self.moves_to_go).min(40)
        } else {
            30
        };
        let target = (usable / moves + self.increment * 3 / 4)
            .min(usable / 3)
            .max(1);
        let hard = (target * 3).min(usable * 2 / 3).max(1);
        SearchLimits {
            move_time: Some(Duration::from_millis(target)),
            deadline: Some(start + Duration::from_millis(hard)),
            ..Default::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::eval::MATE_BOUND;

    #[test]
    fn a_reused_engine_after_new_game_and_set_seed_plays_as_a_new_one() {
        // The web keeps engines loaded between AI requests: a new game and the request's seed
        // must make one play exactly as an engine built with that seed.
        let mut positions = Vec::new();
        let mut pos = Position::from_fen(crate::START_FEN).expect("start");
        for m in ["h2e2", "h9g7", "h0g2", "i9h9", "b0c2", "b9c7"] {
            let mv = pos.parse_move_text(m).expect("legal");
            pos = qiyi_core::Game::after(&pos, mv);
            positions.push(pos.clone());
        }
        let limits = SearchLimits::depth(5);
        let engine = |level, seed| {
            Engine::new(EngineConfig {
                hash_mib: 4,
                threads: 1,
                level,
                seed,
                net: None,
            })
        };
        for level in [Level::Strength(3), Level::Strength(10), Level::Seed] {
            let mut reused = engine(level, 99);
            for (i, pos) in positions.iter().enumerate() {
                let seed = 1000 + i as u64;
                reused.new_game();
                reused.set_seed(seed);
                let again = reused.think(pos, &limits, |_| {});
                let first = engine(level, seed).think(pos, &limits, |_| {});
                assert_eq!(again.best_move, first.best_move, "{level:?} {i}");
                assert_eq!(again.score, first.score, "{level:?} {i}");
                assert_eq!(again.stats.nodes, first.stats.nodes, "{level:?} {i}");
                assert!(first.stats.nodes > 100, "{level:?} {i}");
            }
        }
        // The seed matters: level 3 with another seed searches other scores somewhere.
        let differs = positions.iter().any(|pos| {
            let a = engine(Level::Strength(3), 1).think(pos, &limits, |_| {});
            let b = engine(Level::Strength(3), 2).think(pos, &limits, |_| {});
            a.score != b.score || a.stats.nodes != b.stats.nodes
        });
        assert!(
            differs,
            "the noise seed changes nothing: the test above would prove nothing"
        );
    }

    #[test]
    fn finds_a_mate_in_one() {
        // One chariot holds rank 8, the other mates along rank 9.
        let pos = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1").expect("fen");
        let mut engine = Engine::new(EngineConfig::default());
        let r = engine.think(&pos, &SearchLimits::depth(3), |_| {});
        assert!(r.score >= MATE_BOUND, "score {}", r.score);
        // i0i9 mates; a8f8 stalemates (which also loses for Black). Either ends the game.
        let mv = r.best_move.expect("a move");
        let after = qiyi_core::Game::after(&pos, mv);
        assert!(
            qiyi_core::Game::is_over(&after),
            "{mv} does not end the game"
        );
    }

    #[test]
    fn a_perpetual_checker_loses_inside_the_search() {
        let mut pos = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").expect("fen");
        for m in ["a1a9", "e9e8", "a9a8", "e8e9", "a8a9"] {
            let mv = pos.parse_move_text(m).expect("legal");
            pos.make(mv);
        }
        // Black to move; Red has checked on every move of the cycle, so Black wins by the rule.
        let s = repetition_score(&pos, 5).expect("a repetition");
        assert_eq!(s, RULE_WIN - 5);
        // A quiet shuffle repeats as a draw.
        let mut quiet = Position::from_fen("4k4/9/9/9/9/9/9/9/R8/3K5 w - - 0 1").expect("fen");
        for m in ["a1a2", "e9e8", "a2a1", "e8e9"] {
            let mv = quiet.parse_move_text(m).expect("legal");
            quiet.make(mv);
        }
        assert_eq!(repetition_score(&quiet, 4), Some(0));
    }

    #[test]
    fn clock_limits_keep_a_margin() {
        let start = Instant::now();
        let c = Clock {
            time_left: Some(1_000),
            increment: 0,
            moves_to_go: 0,
        };
        let l = c.limits(start);
        let deadline = l.deadline.expect("deadline");
        assert!(deadline <= start + Duration::from_millis(1_000 - SAFETY_MARGIN_MS));
        assert!(l.move_time.expect("target") >= Duration::from_millis(1));
        let tiny = Clock {
            time_left: Some(10),
            ..c
        };
        assert!(tiny.limits(start).deadline.is_some());
    }

    #[test]
    fn levels_parse() {
        assert_eq!(Level::parse("seed"), Some(Level::Seed));
        assert_eq!(Level::parse("7"), Some(Level::Strength(7)));
        assert_eq!(Level::parse("11"), None);
        assert_eq!(Level::parse("x"), None);
    }

    #[test]
    fn seed_level_searches_fixed_depth() {
        let mut engine = Engine::new(EngineConfig {
            level: Level::Seed,
            ..Default::default()
        });
        let r = engine.think(&Position::start(), &SearchLimits::default(), |_| {});
        assert_eq!(r.stats.depth, 4);
        assert!(r.best_move.is_some());
    }
}
