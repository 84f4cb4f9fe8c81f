//! The analysis board's engine: one position of any game analysed live, as a stream of
//! [`Line`]s (serialised as the JSON objects of `GET /api/analyse`, see `API.md`). Shared by the
//! server's endpoint (`crate::analysis_http`, with the `server` feature) and the static site's
//! Web Worker (`crates/wasm`, without it), like [`crate::judges`].
//!
//! Every game is analysed by code its crate already has; nothing here searches by itself:
//! - Xiangqi and checkers: the engine's multi-PV search ([`qiyi_core::search::multipv`]) at full
//!   strength, one [`Line::Search`] per (depth, line) as each depth completes, the score turned
//!   into a win chance by the review's calibrated logistic;
//! - Chinese checkers: every player's race distance ([`Line::Race`], the row-relaxation lower
//!   bound of the crate's solitaire solver) and, for two players, the alpha-beta player's
//!   iterative deepening (one line per depth);
//! - peg solitaire: the review's exact judge, solvable or not after each move ([`Line::Pegs`]);
//! - aeroplane chess: the review's win-chance model for every choice of the roll
//!   ([`Line::Choices`]).
//!
//! [`prepare`] reads and checks everything a request gives (an error there is the caller's
//! fault: a 4xx before anything is streamed); [`Analysis::run`] then produces the lines until
//! the depth is reached, the cancel flag is raised or the time limit passes.
//!
//! ```
//! use qiyi_web::analysis::{analyse, AnalysisOptions, EndReason, Line};
//! use std::sync::{atomic::AtomicBool, Arc};
//! let options = AnalysisOptions { max_depth: Some(2), multipv: Some(2), ..Default::default() };
//! let mut lines = Vec::new();
//! let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
//! let end = analyse("xiangqi", fen, &options, Arc::new(AtomicBool::new(false)), &mut |l| lines.push(l))
//!     .unwrap();
//! assert_eq!(end, EndReason::Depth);
//! assert_eq!(lines.len(), 4); // depths 1 and 2, two lines each
//! assert!(matches!(&lines[3], Line::Search(s) if s.depth == 2 && s.multipv == 2));
//! ```

use crate::error::ApiError;
use crate::generic::pv_text;
use qiyi_core::eval::{is_mate_score, Score, MATE};
use qiyi_core::platform::Instant;
use qiyi_core::review::logistic;
use qiyi_core::search::multipv::MultiPvInfo;
use qiyi_core::search::{SearchInfo, SearchLimits, SearchStats};
use qiyi_core::{Game, Notation, Turn};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The games the analysis board analyses.
pub const ANALYSED: &[&str] = &[
    "xiangqi",
    "checkers",
    "chinese-checkers",
    "peg-solitaire",
    "aeroplane",
];

/// The most lines a multi-PV analysis reports.
pub const MAX_MULTIPV: u32 = 5;

/// The lines reported when none are asked for (Xiangqi and checkers).
pub const DEFAULT_MULTIPV: u32 = 3;

/// The most the Chinese checkers race solver allocates in one analysis or review, in MiB
/// (measured by `examples/memory.rs`, rounded up).
pub const CC_RACE_MIB: usize = 16;

/// The most peg solitaire's exact judge allocates in one analysis or review, in MiB, before the
/// budget's cap ([`peg_judge_mib`]): its memo is bounded to fit ([`peg_judge`]).
pub const PEG_JUDGE_MIB: usize = qiyi_peg_solitaire::review::DEFAULT_MEMO_MIB;

/// The MiB peg solitaire's exact judge may take: [`PEG_JUDGE_MIB`] capped like an engine table
/// (an eighth of the budget), so that a small budget is not taken by one review.
pub fn peg_judge_mib() -> usize {
    crate::memory::budget().table_mib(PEG_JUDGE_MIB)
}

/// The most positions peg solitaire's exact judge expands for one move of a review, and for each
/// jump of an analysis ([`qiyi_peg_solitaire::review::PegJudge::with_node_budget`]): a move or a position
/// it cannot decide within them is reported as unknown (`unknown` in a review, `solvable: null`
/// and `exact: false` in an analysis). Without it a review of an unsolvable English game ran
/// for minutes and held a review slot, and an analysis of one held its memo until closed. The
/// command line's default too ([`qiyi_peg_solitaire::review::DEFAULT_NODE_BUDGET`]).
pub const PEG_REVIEW_NODES: u64 = qiyi_peg_solitaire::review::DEFAULT_NODE_BUDGET;

/// The deepest depth a Xiangqi analysis searches (a larger `max_depth` is refused).
pub const XIANGQI_MAX_DEPTH: u32 = 30;

/// The deepest depth a checkers analysis searches (a larger `max_depth` is refused).
pub const CHECKERS_MAX_DEPTH: u32 = 40;

/// The deepest depth a two-player Chinese checkers analysis searches.
pub const CHINESE_CHECKERS_MAX_DEPTH: u32 = 20;

/// What a caller may ask of an analysis (every field optional).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalysisOptions {
    /// Lines to report, 1 to [`MAX_MULTIPV`] (Xiangqi and checkers; default
    /// [`DEFAULT_MULTIPV`]; ignored by the other games).
    #[serde(default)]
    pub multipv: Option<u32>,
    /// The face rolled, 1-6 (aeroplane only, where it is required unless the position already
    /// holds the roll).
    #[serde(default)]
    pub roll: Option<u8>,
    /// The deepest depth (1 to the game's maximum, which is the default).
    #[serde(default)]
    pub max_depth: Option<u32>,
    /// The longest the analysis runs, in milliseconds (none: until the depth or a cancel).
    #[serde(default)]
    pub time_ms: Option<u64>,
    /// The engine's transposition table in MiB (default 64; the browser asks for less).
    #[serde(default)]
    pub hash_mib: Option<usize>,
}

/// A score from the side to move's view, as `{"cp": n}` or `{"mate": n}`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScoreView {
    /// Centipawns (Xiangqi), hundredths of a man (checkers) or the distance evaluation's unit
    /// (Chinese checkers).
    Cp(i32),
    /// A forced mate in this many moves of the side to move (negative: it is mated).
    Mate(i32),
}

impl ScoreView {
    /// The view of an engine score.
    pub fn of(score: Score) -> ScoreView {
        if is_mate_score(score) {
            let plies = MATE - score.abs();
            let moves = (plies + 1) / 2;
            ScoreView::Mate(if score > 0 { moves.max(1) } else { -moves })
        } else {
            ScoreView::Cp(score)
        }
    }
}

/// One line of a searching engine at one depth.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchLine {
    /// The depth every line of this depth was searched to.
    pub depth: u32,
    /// The deepest ply reached so far.
    pub seldepth: u32,
    /// Which line (1 is the engine's choice).
    pub multipv: u32,
    /// The line's score from the side to move's view.
    pub score: ScoreView,
    /// The side to move's win chance (the review's calibrated logistic; mates 1 or 0). Absent
    /// where no calibration exists (Chinese checkers).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub win_chance: Option<f64>,
    /// Positions searched so far (every line of every depth).
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The line's moves in the game's move text (what `POST /moves` accepts).
    pub pv: Vec<String>,
    /// The same moves in the traditional notation (Xiangqi's Chinese notation).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub pv_text: Option<Vec<String>>,
    /// The search of this line scored above the line before it and was capped there.
    #[serde(skip_serializing_if = "std::ops::Not::not", default)]
    pub capped: bool,
}

/// One choice of an aeroplane roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// The choice's move text (the plane).
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's win chance after it.
    pub win_chance: f64,
    /// Every player's win chance after it.
    pub chances: Vec<f64>,
    /// The mover's expected turns to finish after it.
    pub turns: f64,
}

/// One peg-solitaire jump and what remains possible after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PegMove {
    /// The jump's move text.
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether one peg can still remain after it (`None`: unknown, not decided within
    /// [`PEG_REVIEW_NODES`] positions).
    pub solvable: Option<bool>,
    /// The fewest pegs reachable after it (an upper bound when not `exact`).
    pub fewest_pegs: u32,
    /// Whether `fewest_pegs` is proven.
    pub exact: bool,
}

/// One message of an analysis (a `line` event's data).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Line {
    /// A searching engine's line (Xiangqi, checkers, two-player Chinese checkers).
    Search(SearchLine),
    /// Every choice of an aeroplane roll.
    Choices {
        /// The face rolled.
        roll: u8,
        /// The player to move.
        player: usize,
        /// The choices, in the position's order (none when the roll leaves no choice).
        choices: Vec<Choice>,
        /// The best choice's move text.
        best: Option<String>,
    },
    /// Peg solitaire, exactly.
    Pegs {
        /// Whether one peg can remain (`None`: unknown, not decided within
        /// [`PEG_REVIEW_NODES`] positions).
        solvable: Option<bool>,
        /// Pegs on the board.
        pegs: u32,
        /// The fewest pegs reachable (an upper bound when not `exact`).
        fewest_pegs: u32,
        /// Whether the verdict is proven.
        exact: bool,
        /// Positions the judge expanded.
        nodes: u64,
        /// Every jump, the best first.
        moves: Vec<PegMove>,
        /// A jump keeping the fewest pegs (none when no jump is left).
        best: Option<String>,
    },
    /// Chinese checkers race distances.
    Race {
        /// Per player, the moves it needs to bring its pieces home moving alone (exact, or a
        /// proven lower bound: see `exact`).
        race: Vec<u32>,
        /// Per player, whether `race` is the exact distance (the race solver finished within
        /// its node budget) rather than a proven lower bound.
        exact: Vec<bool>,
        /// True when some distance is a lower bound rather than exact.
        bound: bool,
        /// The player to move.
        player: usize,
    },
}

/// Why an analysis ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EndReason {
    /// It reached its deepest depth (or, for the games that do not deepen, it is complete).
    Depth,
    /// The cancel flag was raised (the page stopped it or went away).
    Stopped,
    /// The time limit passed.
    Limit,
}

/// An analysis whose request was read and checked, ready to run.
pub struct Analysis {
    kind: Kind,
    max_depth: u32,
    time: Option<Duration>,
    hash_mib: usize,
}

enum Kind {
    Xiangqi {
        pos: Box<qiyi_xiangqi::Position>,
        lines: usize,
    },
    Checkers {
        pos: qiyi_checkers::Checkers,
        lines: usize,
    },
    ChineseCheckers {
        pos: Box<qiyi_chinese_checkers::Position>,
    },
    Peg {
        pos: qiyi_peg_solitaire::PegPosition,
    },
    Aeroplane {
        /// The decision node (the roll applied).
        pos: Box<qiyi_aeroplane::Aero>,
        roll: u8,
    },
}

fn bad_position(text: &str, e: impl std::fmt::Display) -> ApiError {
    let shown: String = text.chars().take(200).collect();
    ApiError::BadRequest(format!("bad position '{shown}': {e}"))
}

fn parse<G: Notation>(text: &str) -> Result<G, ApiError> {
    parse_exact(text.trim())
}

/// [`parse`] of `text` as it is (a peg solitaire picture's leading spaces are part of it).
fn parse_exact<G: Notation>(text: &str) -> Result<G, ApiError> {
    let pos = G::from_text(text).map_err(|e| bad_position(text, e))?;
    if pos.is_over() {
        return Err(ApiError::Conflict(
            "the game is over in this position: there is nothing to analyse".into(),
        ));
    }
    Ok(pos)
}

fn lines_of(options: &AnalysisOptions) -> Result<usize, ApiError> {
    match options.multipv {
        None => Ok(DEFAULT_MULTIPV as usize),
        Some(k) if (1..=MAX_MULTIPV).contains(&k) => Ok(k as usize),
        Some(k) => Err(ApiError::BadRequest(format!(
            "multipv must be from 1 to {MAX_MULTIPV}, not {k}"
        ))),
    }
}

/// Reads `position` (the game's position text: a Xiangqi FEN, a checkers FEN, ...) and
/// `options` for `game`, and checks them: an unknown game, a position that does not parse or
/// where the game is over, `multipv` out of 1..=[`MAX_MULTIPV`], a `max_depth` of 0 or beyond
/// the game's maximum (Xiangqi 30, checkers 40, Chinese checkers 20, 1 for the exact games), an
/// aeroplane roll missing or impossible are errors (4xx), before anything runs.
pub fn prepare(
    game: &str,
    position: &str,
    options: &AnalysisOptions,
) -> Result<Analysis, ApiError> {
    let game = crate::games::canonical(game);
    if options.max_depth == Some(0) {
        return Err(ApiError::BadRequest("max_depth must be at least 1".into()));
    }
    if options.roll.is_some() && game != "aeroplane" {
        return Err(ApiError::BadRequest(format!(
            "roll applies to aeroplane only, not to {game}"
        )));
    }
    let (kind, cap) = match game {
        "xiangqi" => (
            Kind::Xiangqi {
                pos: Box::new(parse(position)?),
                lines: lines_of(options)?,
            },
            XIANGQI_MAX_DEPTH,
        ),
        "checkers" => (
            Kind::Checkers {
                pos: parse(position)?,
                lines: lines_of(options)?,
            },
            CHECKERS_MAX_DEPTH,
        ),
        "chinese-checkers" => (
            Kind::ChineseCheckers {
                pos: Box::new(parse(position)?),
            },
            CHINESE_CHECKERS_MAX_DEPTH,
        ),
        "peg-solitaire" => {
            // Not trimmed: the first row's leading spaces place its holes (trimmed, the
            // English board's top row moved two holes left and its symmetry was lost).
            let text = position.replace('/', "\n");
            (
                Kind::Peg {
                    pos: parse_exact(&text)?,
                },
                1,
            )
        }
        "aeroplane" => {
            let (pos, roll) = aeroplane_decision(position, options.roll)?;
            (
                Kind::Aeroplane {
                    pos: Box::new(pos),
                    roll,
                },
                1,
            )
        }
        other => {
            return Err(ApiError::UnknownGame(
                other.to_string(),
                ANALYSED.join(", "),
            ))
        }
    };
    if let Some(depth) = options.max_depth.filter(|&d| d > cap) {
        return Err(ApiError::BadRequest(format!(
            "max_depth {depth} is beyond {game}'s maximum of {cap}"
        )));
    }
    Ok(Analysis {
        kind,
        max_depth: options.max_depth.unwrap_or(cap),
        time: options.time_ms.map(Duration::from_millis),
        hash_mib: crate::memory::budget().table_mib(options.hash_mib.unwrap_or(64).clamp(1, 1024)),
    })
}

/// The aeroplane decision node of `position` after `roll`: a position waiting for a roll takes
/// `roll` (required, and a face that can happen there); a position that already holds a roll
/// takes none or the same.
fn aeroplane_decision(
    position: &str,
    roll: Option<u8>,
) -> Result<(qiyi_aeroplane::Aero, u8), ApiError> {
    use qiyi_aeroplane::{Aero, AeroMove};
    let pos: Aero = parse(position)?;
    match pos.turn() {
        Turn::Chance => {
            let roll = roll.ok_or_else(|| {
                ApiError::BadRequest(
                    "roll (1-6) is required: this position waits for a roll".into(),
                )
            })?;
            let mut faces = Vec::new();
            pos.chance_outcomes(&mut faces);
            if !faces.iter().any(|&(m, _)| m == AeroMove::Roll(roll)) {
                return Err(ApiError::IllegalMove(
                    roll.to_string(),
                    "this roll cannot happen here (faces are 1-6)".into(),
                ));
            }
            Ok((pos.after(AeroMove::Roll(roll)), roll))
        }
        _ => {
            let held = pos.pending_roll();
            match roll {
                // The request contradicts itself (400), as schemathesis's positive-data check
                // expects: no move was tried, so 422 (an illegal move) would be the wrong word.
                Some(r) if r != held => Err(ApiError::BadRequest(format!(
                    "roll={r} contradicts the position, which already holds the roll {held}: \
                     leave roll out or give {held}"
                ))),
                _ => Ok((pos, held)),
            }
        }
    }
}

/// Reads and checks the request ([`prepare`]) and runs it ([`Analysis::run`]).
pub fn analyse(
    game: &str,
    position: &str,
    options: &AnalysisOptions,
    cancel: Arc<AtomicBool>,
    on_line: &mut dyn FnMut(Line),
) -> Result<EndReason, ApiError> {
    prepare(game, position, options)?.run(cancel, on_line)
}

fn win(score: Score, slope: f64) -> f64 {
    if is_mate_score(score) {
        if score > 0 {
            1.0
        } else {
            0.0
        }
    } else {
        logistic(f64::from(score), slope)
    }
}

fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// The search lines of one completed multi-PV depth.
fn multipv_lines<M: Copy>(
    info: &MultiPvInfo<M>,
    slope: f64,
    text: impl Fn(&[M]) -> Vec<String>,
    chinese: impl Fn(&[M]) -> Option<Vec<String>>,
) -> Vec<Line> {
    info.lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            Line::Search(SearchLine {
                depth: info.depth,
                seldepth: info.stats.seldepth,
                multipv: i as u32 + 1,
                score: ScoreView::of(l.score),
                win_chance: Some(win(l.score, slope)),
                nodes: info.stats.nodes,
                nps: info.stats.nps(),
                time_ms: millis(info.stats.time),
                pv: text(&l.pv),
                pv_text: chinese(&l.pv),
                capped: l.capped,
            })
        })
        .collect()
}

/// The moves of `pv` from `pos` in Xiangqi's Chinese notation (as far as they are legal).
fn chinese_pv(pos: &qiyi_xiangqi::Position, pv: &[qiyi_xiangqi::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut legal = Vec::new();
    let mut out = Vec::with_capacity(pv.len());
    for &mv in pv {
        p.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        out.push(p.move_to_chinese(mv));
        p.make(mv);
    }
    out
}

/// Every player's race distance in `pos` — the Chinese checkers judge's race solver
/// ([`qiyi_chinese_checkers::review::RaceSolver`]): exact within
/// [`qiyi_chinese_checkers::review::DEFAULT_RACE_NODES`] nodes a player, else its proven lower
/// bound — and, per player, whether the distance is exact.
pub fn race_distances(pos: &qiyi_chinese_checkers::Position) -> (Vec<u32>, Vec<bool>) {
    use qiyi_chinese_checkers::review::{RaceSolver, DEFAULT_RACE_NODES};
    let mut solver = RaceSolver::new(DEFAULT_RACE_NODES);
    (0..pos.num_players())
        .map(|p| {
            let d = solver.distance(pos, p);
            (d.moves, d.exact)
        })
        .unzip()
}

impl Analysis {
    /// The MiB this analysis allocates at most (its engine's table, or its solver's working
    /// set), to reserve in the memory budget before it runs.
    pub fn memory_mib(&self) -> usize {
        match &self.kind {
            Kind::Xiangqi { .. } | Kind::Checkers { .. } => self.hash_mib,
            Kind::ChineseCheckers { pos } => {
                let search = if pos.num_players() == 2 {
                    self.hash_mib.min(16)
                } else {
                    0
                };
                search + CC_RACE_MIB
            }
            Kind::Peg { .. } => peg_judge_mib(),
            Kind::Aeroplane { .. } => 1,
        }
    }

    /// Runs the analysis, handing each line to `on_line` as it comes; ends at the deepest
    /// depth, when `cancel` is raised (checked between depths and inside the searches) or when
    /// the time limit passes, and says which.
    pub fn run(
        self,
        cancel: Arc<AtomicBool>,
        on_line: &mut dyn FnMut(Line),
    ) -> Result<EndReason, ApiError> {
        let start = Instant::now();
        let limits = SearchLimits {
            depth: Some(self.max_depth),
            nodes: None,
            move_time: self.time,
            deadline: None,
            stop: Some(cancel.clone()),
        };
        match self.kind {
            Kind::Xiangqi { pos, lines } => {
                use qiyi_xiangqi::engine::{Engine, EngineConfig};
                let mut engine = Engine::new(EngineConfig {
                    hash_mib: self.hash_mib,
                    net: crate::games::xiangqi::net(),
                    ..EngineConfig::default()
                });
                let slope = qiyi_xiangqi::review::WIN_SLOPE;
                engine.multipv(&pos, &limits, lines, |info| {
                    for l in multipv_lines(
                        info,
                        slope,
                        |pv| pv_text(&*pos, pv),
                        |pv| Some(chinese_pv(&pos, pv)),
                    ) {
                        on_line(l);
                    }
                });
            }
            Kind::Checkers { pos, lines } => {
                use qiyi_checkers::engine::Level;
                let mut engine =
                    crate::games::checkers::engine_with_table(Level::MAX, self.hash_mib);
                let slope = qiyi_checkers::review::WIN_SLOPE;
                engine.multipv(&pos, &limits, lines, |info| {
                    for l in multipv_lines(info, slope, |pv| pv_text(&pos, pv), |_| None) {
                        on_line(l);
                    }
                });
            }
            Kind::ChineseCheckers { pos } => {
                let (race, exact) = race_distances(&pos);
                let bound = exact.iter().any(|e| !e);
                on_line(Line::Race {
                    race,
                    exact,
                    bound,
                    player: pos.to_move(),
                });
                if pos.num_players() == 2 && !cancel.load(Ordering::Relaxed) {
                    use qiyi_chinese_checkers::engine::alpha_beta_options;
                    use qiyi_chinese_checkers::eval::DistanceEval;
                    let mut options = alpha_beta_options();
                    options.tt_mib = self.hash_mib.min(options.tt_mib.max(1));
                    let mut searcher = qiyi_core::search::Searcher::new(DistanceEval, options);
                    searcher.search(&*pos, &limits, |info: &SearchInfo<_>| {
                        on_line(Line::Search(search_line(info, &pv_text(&*pos, &info.pv))));
                    });
                }
            }
            Kind::Peg { pos } => {
                let line = peg_line(&pos, &cancel);
                match line {
                    Some(l) => on_line(l),
                    None => return Ok(EndReason::Stopped),
                }
            }
            Kind::Aeroplane { pos, roll } => {
                on_line(aeroplane_line(&pos, roll)?);
            }
        }
        Ok(if cancel.load(Ordering::Relaxed) {
            EndReason::Stopped
        } else if self.time.is_some_and(|t| start.elapsed() >= t) {
            EndReason::Limit
        } else {
            EndReason::Depth
        })
    }
}

/// A single-PV search line (no calibrated win chance).
fn search_line(info: &SearchInfo<impl Copy>, pv: &[String]) -> SearchLine {
    let stats: &SearchStats = &info.stats;
    SearchLine {
        depth: info.depth,
        seldepth: stats.seldepth,
        multipv: 1,
        score: ScoreView::of(info.score),
        win_chance: None,
        nodes: stats.nodes,
        nps: stats.nps(),
        time_ms: millis(stats.time),
        pv: pv.to_vec(),
        pv_text: None,
        capped: false,
    }
}

/// Peg solitaire's exact judge with its memo bounded to [`peg_judge_mib`] (unbounded, one
/// judgement from an unsolvable English position grew it past 8 GiB).
pub fn peg_judge() -> qiyi_peg_solitaire::review::PegJudge {
    use qiyi_peg_solitaire::review::{PegJudge, MEMO_ENTRY_BYTES};
    PegJudge::with_memo_limit(peg_judge_mib() * 1024 * 1024 / MEMO_ENTRY_BYTES / 2)
}

/// Whether one peg can remain, as far as `f` tells (`None`: not decided).
fn peg_solvable(f: qiyi_peg_solitaire::review::Fewest) -> Option<bool> {
    (f.exact || f.pegs <= 1).then_some(f.pegs == 1)
}

/// Peg solitaire by the review's exact judge within [`PEG_REVIEW_NODES`] positions (past them
/// the verdict is unknown); `None` when cancelled.
fn peg_line(pos: &qiyi_peg_solitaire::PegPosition, cancel: &Arc<AtomicBool>) -> Option<Line> {
    peg_line_within(pos, cancel, PEG_REVIEW_NODES)
}

/// [`peg_line`] within `nodes` positions.
fn peg_line_within(
    pos: &qiyi_peg_solitaire::PegPosition,
    cancel: &Arc<AtomicBool>,
    nodes: u64,
) -> Option<Line> {
    let mut judge = peg_judge().with_node_budget(nodes);
    judge.set_stop(cancel.clone());
    let analysis = judge.analyse(pos);
    if judge.was_stopped() || cancel.load(Ordering::Relaxed) {
        return None;
    }
    let mut moves: Vec<PegMove> = analysis
        .moves
        .iter()
        .map(|&(m, f)| PegMove {
            mv: pos.move_to_text(m),
            solvable: peg_solvable(f),
            fewest_pegs: f.pegs,
            exact: f.exact,
        })
        .collect();
    // The proven first, fewest pegs first; then the unknown.
    moves.sort_by_key(|m| (!m.exact, m.fewest_pegs));
    let fewest = analysis.fewest;
    Some(Line::Pegs {
        solvable: peg_solvable(fewest),
        pegs: pos.peg_count(),
        fewest_pegs: fewest.pegs,
        exact: fewest.exact,
        nodes: judge.nodes,
        best: moves
            .iter()
            .filter(|m| m.fewest_pegs == fewest.pegs)
            .min_by_key(|m| !m.exact)
            .map(|m| m.mv.clone()),
        moves,
    })
}

/// Every choice of the roll on `pos` (a decision node) by the review's win-chance model.
fn aeroplane_line(pos: &qiyi_aeroplane::Aero, roll: u8) -> Result<Line, ApiError> {
    use qiyi_aeroplane::review::AeroJudge;
    use qiyi_aeroplane::AeroMove;
    let player = pos.to_move();
    if !matches!(pos.turn(), Turn::Player(_)) {
        // The roll leaves no choice (the turn passes on by itself).
        return Ok(Line::Choices {
            roll,
            player,
            choices: Vec::new(),
            best: None,
        });
    }
    let mut judge = AeroJudge::new(&pos.rules())
        .map_err(|e| ApiError::Internal(format!("the aeroplane model: {e}")))?;
    let (list, best) = judge
        .choice_values(pos)
        .map_err(|e| ApiError::Internal(format!("the aeroplane model: {e}")))?;
    let choices: Vec<Choice> = list
        .into_iter()
        .map(|(c, chances, turns)| Choice {
            mv: pos.move_to_text(AeroMove::Plane(c)),
            win_chance: chances.get(player).copied().unwrap_or(0.0),
            chances,
            turns,
        })
        .collect();
    Ok(Line::Choices {
        roll,
        player,
        best: choices.get(best).map(|c| c.mv.clone()),
        choices,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(game: &str, position: &str, options: AnalysisOptions) -> (Vec<Line>, EndReason) {
        let mut lines = Vec::new();
        let end = analyse(
            game,
            position,
            &options,
            Arc::new(AtomicBool::new(false)),
            &mut |l| lines.push(l),
        )
        .expect("analysis");
        (lines, end)
    }

    fn searches(lines: &[Line]) -> Vec<&SearchLine> {
        lines
            .iter()
            .filter_map(|l| match l {
                Line::Search(s) => Some(s),
                _ => None,
            })
            .collect()
    }

    const XQ_START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";

    #[test]
    fn xiangqi_reports_every_line_of_every_depth_best_first() {
        let options = AnalysisOptions {
            multipv: Some(3),
            max_depth: Some(3),
            ..Default::default()
        };
        let (lines, end) = run("xiangqi", XQ_START, options);
        assert_eq!(end, EndReason::Depth);
        let s = searches(&lines);
        assert_eq!(s.len(), 9);
        for (i, l) in s.iter().enumerate() {
            assert_eq!(l.depth, i as u32 / 3 + 1);
            assert_eq!(l.multipv, i as u32 % 3 + 1);
            assert!(!l.pv.is_empty());
            let chinese = l.pv_text.as_ref().expect("Chinese notation");
            assert_eq!(chinese.len(), l.pv.len());
            let w = l.win_chance.expect("win chance");
            assert!((0.0..=1.0).contains(&w));
        }
        // Three different first moves at each depth, scores never rising down the list.
        for d in s.chunks(3) {
            assert_ne!(d[0].pv[0], d[1].pv[0]);
            assert_ne!(d[1].pv[0], d[2].pv[0]);
            assert!(d[0].win_chance >= d[1].win_chance && d[1].win_chance >= d[2].win_chance);
        }
        // The moves are the game's own move text: the start position plays them.
        let pos = qiyi_xiangqi::Position::from_text(XQ_START).unwrap();
        assert!(pos.parse_move(&s[8].pv[0]).is_ok());
    }

    #[test]
    fn a_mate_is_reported_as_a_mate_with_certainty() {
        // A rook ladder: the rook on b7 goes to b9 and the black king has no square left.
        let fen = "4k4/R8/1R7/9/9/9/9/9/9/3K5 w";
        let (lines, _) = run(
            "xiangqi",
            fen,
            AnalysisOptions {
                multipv: Some(1),
                max_depth: Some(4),
                ..Default::default()
            },
        );
        let last = searches(&lines).last().cloned().cloned().expect("a line");
        assert_eq!(last.score, ScoreView::Mate(1), "{last:?}");
        assert_eq!(last.win_chance, Some(1.0));
    }

    #[test]
    fn checkers_reports_lines_in_its_own_notation() {
        let start = qiyi_checkers::Checkers::start().to_text();
        let (lines, end) = run(
            "checkers",
            &start,
            AnalysisOptions {
                multipv: Some(2),
                max_depth: Some(4),
                ..Default::default()
            },
        );
        assert_eq!(end, EndReason::Depth);
        let s = searches(&lines);
        assert_eq!(s.len(), 8);
        assert_eq!(s[7].depth, 4);
        assert_eq!(s[7].multipv, 2);
        let pos = qiyi_checkers::Checkers::start();
        assert!(pos.parse_move(&s[7].pv[0]).is_ok(), "{:?}", s[7].pv);
        assert!(s[0].pv_text.is_none());
        // A checkers score is not a mate at the start.
        assert!(matches!(s[7].score, ScoreView::Cp(_)));
    }

    #[test]
    fn a_cancel_stops_the_search_and_says_so() {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut n = 0;
        let flag = cancel.clone();
        let end = analyse(
            "xiangqi",
            XQ_START,
            &AnalysisOptions {
                multipv: Some(1),
                ..Default::default()
            },
            cancel,
            &mut |_| {
                n += 1;
                if n == 3 {
                    flag.store(true, Ordering::Relaxed);
                }
            },
        )
        .unwrap();
        assert_eq!(end, EndReason::Stopped);
        assert!(n <= 4, "{n} lines after the stop");
    }

    #[test]
    fn the_time_limit_ends_the_search_with_limit() {
        let (lines, end) = run(
            "checkers",
            &qiyi_checkers::Checkers::start().to_text(),
            AnalysisOptions {
                multipv: Some(1),
                time_ms: Some(200),
                ..Default::default()
            },
        );
        assert_eq!(end, EndReason::Limit);
        assert!(!lines.is_empty());
    }

    #[test]
    fn peg_solitaire_says_which_jumps_keep_it_solvable() {
        let start = qiyi_peg_solitaire::PegPosition::start(std::sync::Arc::new(
            qiyi_peg_solitaire::Board::named("english").unwrap(),
        ));
        // The page may send the rows split by '/'.
        let text = start.to_text().replace('\n', "/");
        let (lines, end) = run("peg-solitaire", &text, AnalysisOptions::default());
        assert_eq!(end, EndReason::Depth);
        let [Line::Pegs {
            solvable,
            pegs,
            moves,
            best,
            ..
        }] = lines.as_slice()
        else {
            panic!("{lines:?}")
        };
        assert_eq!(*solvable, Some(true));
        assert_eq!(*pegs, 32);
        // The English board's four first jumps are symmetric: all keep it solvable.
        assert_eq!(moves.len(), 4);
        assert!(
            moves
                .iter()
                .all(|m| m.solvable == Some(true) && m.exact && m.fewest_pegs == 1),
            "{moves:?}"
        );
        assert_eq!(best.as_deref(), Some(moves[0].mv.as_str()));
    }

    #[test]
    fn a_peg_analysis_past_its_node_budget_says_unknown() {
        // The English board full but for the centre and a hole diagonal to it: unsolvable by
        // Conway's rule of three, and not proven so within 8,000,000 positions (`qiyi analyze
        // peg --nodes 8000000`): within 20,000 a jump the verdict is unknown.
        let pos = qiyi_peg_solitaire::PegPosition::from_text(
            "  ooo  \n  ooo  \noo.oooo\nooo.ooo\nooooooo\n  ooo  \n  ooo  ",
        )
        .unwrap();
        let cancel = Arc::new(AtomicBool::new(false));
        let Some(Line::Pegs {
            solvable,
            exact,
            fewest_pegs,
            nodes,
            moves,
            ..
        }) = peg_line_within(&pos, &cancel, 20_000)
        else {
            panic!("no line")
        };
        assert_eq!(solvable, None);
        assert!(!exact && fewest_pegs > 1);
        assert!(nodes <= 20_001 * moves.len() as u64, "{nodes}");
        assert!(moves.iter().any(|m| m.solvable.is_none() && !m.exact));
        let json = serde_json::to_string(&Line::Pegs {
            solvable,
            pegs: 24,
            fewest_pegs,
            exact,
            nodes,
            moves: Vec::new(),
            best: None,
        })
        .unwrap();
        assert!(
            json.contains("\"solvable\":null") && json.contains("\"exact\":false"),
            "{json}"
        );
        // Raised, the stop ends it with no line.
        cancel.store(true, Ordering::Relaxed);
        assert!(peg_line_within(&pos, &cancel, 20_000).is_none());
    }

    #[test]
    fn aeroplane_values_every_choice_of_the_roll() {
        let pos = qiyi_aeroplane::Aero::new(qiyi_aeroplane::Rules::default(), 4).unwrap();
        let text = pos.to_text();
        // A 6 lets a plane take off: one choice per plane in the hangar.
        let (lines, _) = run(
            "aeroplane",
            &text,
            AnalysisOptions {
                roll: Some(6),
                ..Default::default()
            },
        );
        let [Line::Choices {
            roll,
            choices,
            best,
            ..
        }] = lines.as_slice()
        else {
            panic!("{lines:?}")
        };
        assert_eq!(*roll, 6);
        assert!(!choices.is_empty());
        for c in choices {
            assert_eq!(c.chances.len(), 4);
            assert!((0.0..=1.0).contains(&c.win_chance));
        }
        assert!(best.is_some());
        // A 1 cannot take off under the standard rules: no choice.
        let (lines, _) = run(
            "aeroplane",
            &text,
            AnalysisOptions {
                roll: Some(1),
                ..Default::default()
            },
        );
        assert!(
            matches!(&lines[0], Line::Choices { choices, best: None, .. } if choices.is_empty())
        );
    }

    #[test]
    fn chinese_checkers_gives_race_bounds_then_searches_two_players() {
        let pos = qiyi_chinese_checkers::Position::start(
            qiyi_chinese_checkers::Options::players(2).unwrap(),
        )
        .unwrap();
        let (lines, end) = run(
            "chinese-checkers",
            &pos.to_text(),
            AnalysisOptions {
                max_depth: Some(2),
                ..Default::default()
            },
        );
        assert_eq!(end, EndReason::Depth);
        let Line::Race { race, bound, .. } = &lines[0] else {
            panic!("{lines:?}")
        };
        assert!(*bound);
        // Both camps are a full crossing away: at least the solver's row bound of the start, 19
        // (`solitaire.rs`: "the row bound is 19 at the start"); the race solver's IDA* raises
        // the proven bound past it within its node budget, the same for both.
        assert!(race[0] >= 19 && race[0] == race[1], "{race:?}");
        let s = searches(&lines);
        assert_eq!(s.iter().map(|l| l.depth).collect::<Vec<_>>(), vec![1, 2]);
        assert!(s[1].win_chance.is_none());
        // Six players: race distances only, every camp the same distance from home.
        let pos = qiyi_chinese_checkers::Position::start(
            qiyi_chinese_checkers::Options::players(6).unwrap(),
        )
        .unwrap();
        let (lines, _) = run(
            "chinese-checkers",
            &pos.to_text(),
            AnalysisOptions::default(),
        );
        assert_eq!(lines.len(), 1);
        let Line::Race { race, .. } = &lines[0] else {
            panic!()
        };
        assert!(
            race[0] >= 19 && race.iter().all(|&d| d == race[0]),
            "{race:?}"
        );
    }

    #[test]
    fn bad_requests_are_refused_before_anything_runs() {
        let bad = |game: &str, pos: &str, o: AnalysisOptions| prepare(game, pos, &o).err();
        assert!(matches!(
            bad("go", XQ_START, AnalysisOptions::default()),
            Some(ApiError::UnknownGame(..))
        ));
        assert!(matches!(
            bad("xiangqi", "not a fen", AnalysisOptions::default()),
            Some(ApiError::BadRequest(_))
        ));
        for k in [0, 6, 1000] {
            assert!(matches!(
                bad(
                    "xiangqi",
                    XQ_START,
                    AnalysisOptions {
                        multipv: Some(k),
                        ..Default::default()
                    }
                ),
                Some(ApiError::BadRequest(_))
            ));
        }
        assert!(matches!(
            bad(
                "checkers",
                &qiyi_checkers::Checkers::start().to_text(),
                AnalysisOptions {
                    max_depth: Some(0),
                    ..Default::default()
                }
            ),
            Some(ApiError::BadRequest(_))
        ));
        let aero = qiyi_aeroplane::Aero::new(qiyi_aeroplane::Rules::default(), 4)
            .unwrap()
            .to_text();
        assert!(matches!(
            bad("aeroplane", &aero, AnalysisOptions::default()),
            Some(ApiError::BadRequest(_))
        ));
        for r in [0, 7] {
            assert!(matches!(
                bad(
                    "aeroplane",
                    &aero,
                    AnalysisOptions {
                        roll: Some(r),
                        ..Default::default()
                    }
                ),
                Some(ApiError::IllegalMove(..))
            ));
        }
        // A depth of 10,000 is refused; the game's maximum is the default and accepted.
        let depth = |d| AnalysisOptions {
            max_depth: d,
            ..Default::default()
        };
        assert!(matches!(
            bad("xiangqi", XQ_START, depth(Some(10_000))),
            Some(ApiError::BadRequest(..))
        ));
        let a = prepare("xiangqi", XQ_START, &depth(Some(XIANGQI_MAX_DEPTH))).unwrap();
        assert_eq!(a.max_depth, XIANGQI_MAX_DEPTH);
        assert_eq!(
            prepare("xiangqi", XQ_START, &depth(None))
                .unwrap()
                .max_depth,
            XIANGQI_MAX_DEPTH
        );
    }

    #[test]
    fn lines_serialise_as_the_protocol_says() {
        let line = Line::Search(SearchLine {
            depth: 3,
            seldepth: 7,
            multipv: 2,
            score: ScoreView::Mate(-2),
            win_chance: Some(0.0),
            nodes: 10,
            nps: 100,
            time_ms: 100,
            pv: vec!["h2e2".into()],
            pv_text: None,
            capped: false,
        });
        let v = serde_json::to_value(&line).unwrap();
        assert_eq!(v["kind"], "search");
        assert_eq!(v["score"], serde_json::json!({ "mate": -2 }));
        assert!(v.get("pv_text").is_none() && v.get("capped").is_none());
        assert_eq!(ScoreView::of(35), ScoreView::Cp(35));
        assert_eq!(ScoreView::of(MATE - 3), ScoreView::Mate(2));
        assert_eq!(ScoreView::of(-(MATE - 2)), ScoreView::Mate(-1));
        let v = serde_json::to_value(EndReason::Limit).unwrap();
        assert_eq!(v, "limit");
    }
}
