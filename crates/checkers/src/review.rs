//! The checkers judge of a post-game review, for core's [`qiyi_core::review`].
//!
//! Two kinds of value:
//!
//! - **Exact**, where the endgame database covers the position: every move's child is probed
//!   (win / draw / loss for the mover: win chance 1, ½, 0). A move that turns a won position
//!   into a draw or a loss is a blunder (`missed_win`), whatever any score says; a move that
//!   keeps the value when every other move loses some is the `only_move`. The best move shown is
//!   the engine's choice among the moves that keep the value (its line with it).
//! - **Estimated** elsewhere: the engine (the strongest level, the shipped evaluation, one
//!   thread) searches the position at a fixed depth or time for the best move and its score; the
//!   position after the move played is searched with the same limits (and is the next ply's
//!   root, so each position is searched once). A score becomes a win chance by the logistic
//!   `1 / (1 + exp(-k * score))` with the slope [`WIN_SLOPE`] fitted to qiyi's own self-play
//!   results (the fit and its calibration table are in `docs/review.md`).
//!   A move the deeper look finds better than the root's best becomes the best move itself, so a
//!   decision never gains win chance.
//!
//! A child that ends the game (the opponent has no move, or a draw by the repetition or 40-move
//! rule) is valued by its result, exactly. The unit is the engine's score, `"cp"` (a man is about
//! 100), from the mover's view; exact plies have no unit value.
//!
//! ```
//! use qiyi_checkers::review::{review_game, JudgeOptions};
//! use qiyi_checkers::Checkers;
//! use qiyi_core::Notation;
//! use qiyi_core::search::SearchLimits;
//!
//! let start = Checkers::start();
//! let mv = start.parse_move("11-15").unwrap();
//! let options = JudgeOptions { limits: SearchLimits::depth(4), ..JudgeOptions::default() };
//! let review = review_game(&start, &[mv], &options, |_, _| {}).unwrap();
//! assert_eq!(review.plies.len(), 1);
//! assert_eq!(review.plies[0].played, "11-15");
//! ```

use std::collections::HashMap;
use std::sync::Arc;

use qiyi_core::review::{self, logistic, DecisionVerdict, Judge, Review, ReviewError};
use qiyi_core::search::SearchLimits;
use qiyi_core::{Game, Notation};

use crate::board::{Board, Color};
use crate::engine::{Egdb, Engine, EvalChoice, Level, Weights, Wld};
use crate::notation;
use crate::pdn::GameResult;
use crate::{Checkers, Move};

/// The slope of the logistic that turns an engine score (centi-men, mover's view) into a win
/// chance, fitted by maximum likelihood (`qiyi calibrate`) to 96 seeded self-play games of the
/// engine with the shipped net (net7) at depth 14 from openings of 8 random plies, on the
/// positions scored below 1000 (see `docs/review.md` for the command, the calibration table and
/// why the fit is flat: most such games are drawn, and a man up draws more often than it wins).
pub const WIN_SLOPE: f64 = 0.0016;

/// The default search depth per position: a 100-ply game reviews in well under 30 s on one core
/// (figures in `docs/review.md`).
pub const DEFAULT_DEPTH: u32 = 16;

/// The deepest fixed depth a review accepts: beyond it one position can take hours.
pub const MAX_REVIEW_DEPTH: u32 = 40;

/// How the judge works.
#[derive(Clone, Debug)]
pub struct JudgeOptions {
    /// The search limits per position (a depth or a movetime).
    pub limits: SearchLimits,
    /// The endgame database for exact values (and the engine's probes); `None`: estimates only.
    pub egdb: Option<Arc<Egdb>>,
    /// The engine's evaluation.
    pub eval: EvalChoice,
    /// The logistic slope turning scores into win chances.
    pub slope: f64,
    /// The engine's transposition table, in MiB (default
    /// [`crate::engine::player::TT_MIB`]; the server sizes it by its memory budget).
    pub tt_mib: usize,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            limits: SearchLimits::depth(DEFAULT_DEPTH),
            egdb: None,
            eval: EvalChoice::default(),
            slope: WIN_SLOPE,
            tt_mib: crate::engine::player::TT_MIB,
        }
    }
}

impl JudgeOptions {
    /// A short description for the review's `judge` field.
    pub fn describe(&self) -> String {
        let limit = match (self.limits.depth, self.limits.move_time, self.limits.nodes) {
            (_, Some(t), _) => format!("{} ms", t.as_millis()),
            (Some(d), None, _) => format!("depth {d}"),
            (None, None, Some(n)) => format!("{n} nodes"),
            (None, None, None) => "no limit".into(),
        };
        let db = match &self.egdb {
            Some(db) if db.max_pieces() > 0 => {
                format!(", exact within {} pieces", db.max_pieces())
            }
            _ => String::new(),
        };
        format!(
            "qiyi checkers engine ({} eval, {limit}, slope {}){db}",
            self.eval.name(),
            self.slope
        )
    }
}

/// A checkers game to review, read from a PDN game or a JSON record by [`read_record`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRecord {
    /// The PDN's tags (none from a JSON record).
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start: Board,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
    /// The result the record gives.
    pub result: GameResult,
}

/// Why a record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The PDN did not read (bad tags or move text, an illegal move).
    #[error("the PDN does not read: {0}")]
    Pdn(#[source] crate::NotationError),
    /// The text looks like a JSON record but is not one: not JSON, the wrong shape, another
    /// game or a bad start.
    #[error(transparent)]
    Json(#[from] qiyi_core::json_record::RecordError),
    /// A move of the JSON record does not read or is illegal.
    #[error("move {ply} ({text}): {source}")]
    Move {
        /// 1-based move number.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why.
        #[source]
        source: crate::NotationError,
    },
}

/// Reads a game to review: a PDN game (what `qiyi games export` writes for checkers), or a JSON
/// record (`{"game": "checkers", "position": FEN?, "moves": [text or {"text": ..}], "result"?}`,
/// the text starting with `{`).
pub fn read_record(text: &str) -> Result<ReviewRecord, RecordError> {
    if !text.trim_start().starts_with('{') {
        let game = crate::pdn::read_pdn_game(text).map_err(RecordError::Pdn)?;
        return Ok(ReviewRecord {
            tags: game.tags,
            start: game.start,
            moves: game.moves,
            result: game.result,
        });
    }
    use qiyi_core::json_record;
    let v = json_record::parse(text)?;
    let record = json_record::read(&v, &["checkers"])?;
    let start = match record.str("position") {
        Some(fen) => notation::board_from_fen(fen)
            .map_err(|e| json_record::RecordError::Bad(format!("bad position {fen:?}: {e}")))?,
        None => Board::start(),
    };
    let mut pos = Checkers::from_board(start);
    let mut moves = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        let t = json_record::move_entry(i, m)?.text;
        let mv = pos.parse(t).map_err(|source| RecordError::Move {
            ply: i + 1,
            text: t.to_string(),
            source,
        })?;
        moves.push(mv);
        pos.make(mv);
    }
    let result = match record.str("result") {
        Some("1-0") => GameResult::BlackWins,
        Some("0-1") => GameResult::WhiteWins,
        Some("1/2-1/2") => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    Ok(ReviewRecord {
        tags: Vec::new(),
        start,
        moves,
        result,
    })
}

/// Why judging failed.
#[derive(Debug, thiserror::Error)]
pub enum CheckersJudgeError {
    /// The limits ask for something a review cannot do.
    #[error("{0}")]
    Limits(String),
    /// The engine returned no move in a position that has moves.
    #[error("the engine found no move in {0}")]
    NoMove(String),
}

/// One search's result, kept so each position is searched once.
#[derive(Clone, Debug)]
struct Searched {
    /// Score from the side to move's view.
    score: i32,
    best: Option<Move>,
    pv: Vec<Move>,
}

/// A value from one player's view.
type Val = qiyi_core::review::MoverValue;

/// The checkers judge: the engine for estimates, the endgame database for exact values.
pub struct CheckersJudge {
    engine: Engine,
    options: JudgeOptions,
    memo: HashMap<u64, Searched>,
    /// Nodes the engine searched.
    pub nodes: u64,
    /// Positions the engine searched.
    pub searches: u64,
    /// Decisions judged exactly by the database.
    pub exact_decisions: u64,
}

impl CheckersJudge {
    /// A judge with `options`; fails on limits a review cannot use (none, or too deep).
    pub fn new(options: JudgeOptions) -> Result<CheckersJudge, CheckersJudgeError> {
        check_limits(&options.limits)?;
        let config = crate::engine::SearchConfig {
            tt_mib: options.tt_mib.max(1),
            ..crate::engine::SearchConfig::default()
        };
        let engine = Engine::with_search(
            Level::MAX,
            1,
            Weights::default(),
            options.egdb.clone(),
            &options.eval,
            &crate::engine::SearchChoice::Selective(config),
        );
        Ok(CheckersJudge {
            engine,
            options,
            memo: HashMap::new(),
            nodes: 0,
            searches: 0,
            exact_decisions: 0,
        })
    }

    fn search(&mut self, pos: &Checkers) -> Searched {
        let key = pos.hash();
        if let Some(s) = self.memo.get(&key) {
            return s.clone();
        }
        let r = self.engine.analyse(pos, &self.options.limits, |_| {});
        self.nodes += r.stats.nodes;
        self.searches += 1;
        let s = Searched {
            score: r.score,
            best: r.best_move,
            pv: r.pv,
        };
        self.memo.insert(key, s.clone());
        s
    }

    fn exact(&self, pos: &Checkers) -> Option<Wld> {
        self.options.egdb.as_ref()?.probe(pos.board())
    }

    fn estimate(&self, score_for_me: i32) -> Val {
        Val {
            win: logistic(score_for_me as f64, self.options.slope),
            unit: Some(score_for_me as f64),
            exact: false,
        }
    }

    /// The value of `child` (reached by `mover`'s move) for `mover`.
    fn child_value(&mut self, child: &Checkers, mover: usize) -> Val {
        if child.is_over() {
            return Val {
                win: review::result_from_returns(child)[mover],
                unit: None,
                exact: true,
            };
        }
        if let Some(w) = self.exact(child) {
            return Val {
                win: wld_win(w, false),
                unit: None,
                exact: true,
            };
        }
        let s = self.search(child);
        self.estimate(-s.score)
    }

    fn exact_decision(
        &mut self,
        pos: &Checkers,
        played: Move,
        moves: &[Move],
    ) -> Result<DecisionVerdict<Move>, CheckersJudgeError> {
        self.exact_decisions += 1;
        let mover = pos.to_move();
        let vals: Vec<(Move, f64)> = moves
            .iter()
            .map(|&m| (m, self.child_value(&pos.after(m), mover).win))
            .collect();
        let best_val = vals.iter().map(|v| v.1).fold(f64::NEG_INFINITY, f64::max);
        let worst_val = vals.iter().map(|v| v.1).fold(f64::INFINITY, f64::min);
        let played_val = vals
            .iter()
            .find(|v| v.0 == played)
            .map(|v| v.1)
            .ok_or_else(|| CheckersJudgeError::NoMove(pos.fen()))?;
        let keepers = vals.iter().filter(|v| v.1 == best_val).count();
        let engine = self.search(pos);
        let (best, line) = match engine.best {
            Some(m) if vals.iter().any(|v| v.0 == m && v.1 == best_val) => (m, engine.pv),
            _ => {
                let m = if played_val == best_val {
                    played
                } else {
                    vals.iter()
                        .find(|v| v.1 == best_val)
                        .map(|v| v.0)
                        .ok_or_else(|| CheckersJudgeError::NoMove(pos.fen()))?
                };
                (m, vec![m])
            }
        };
        let both = |w: f64| two(mover, w);
        Ok(DecisionVerdict {
            best,
            line,
            before: both(best_val),
            after_played: both(played_val),
            after_best: both(best_val),
            unit_before: None,
            unit_after_played: None,
            unit_after_best: None,
            exact: true,
            only_move: keepers == 1 && worst_val < best_val,
            unknown: false,
        })
    }
}

// Every player's win chance in a two-player game where `mover` has `w`.
use qiyi_core::review::two_player_wins as two;

/// The win chance of a database value; `for_side_to_move` false turns it to the other side.
fn wld_win(w: Wld, for_side_to_move: bool) -> f64 {
    let v = match w {
        Wld::Win => 1.0,
        Wld::Draw => 0.5,
        Wld::Loss => 0.0,
    };
    if for_side_to_move {
        v
    } else {
        1.0 - v
    }
}

/// Refuses limits a review cannot use: none at all, or a depth beyond [`MAX_REVIEW_DEPTH`].
pub fn check_limits(limits: &SearchLimits) -> Result<(), CheckersJudgeError> {
    match (limits.depth, limits.move_time, limits.nodes) {
        (None, None, None) => Err(CheckersJudgeError::Limits(
            "a review needs a depth, a movetime or a node budget per position".into(),
        )),
        (Some(d), _, _) if d == 0 || d > MAX_REVIEW_DEPTH => Err(CheckersJudgeError::Limits(
            format!("depth {d} is out of range: a review searches at depth 1-{MAX_REVIEW_DEPTH}"),
        )),
        _ => Ok(()),
    }
}

impl Judge<Checkers> for CheckersJudge {
    type Error = CheckersJudgeError;

    fn unit(&self) -> &'static str {
        "cp"
    }

    fn decision(
        &mut self,
        pos: &Checkers,
        played: Move,
    ) -> Result<DecisionVerdict<Move>, CheckersJudgeError> {
        let moves = pos.moves();
        if self.exact(pos).is_some() {
            return self.exact_decision(pos, played, &moves);
        }
        let mover = pos.to_move();
        let root = self.search(pos);
        let root_best = root
            .best
            .filter(|m| moves.contains(m))
            .ok_or_else(|| CheckersJudgeError::NoMove(pos.fen()))?;
        let root_val = match pos.after(root_best) {
            c if c.is_over() || self.exact(&c).is_some() => self.child_value(&c, mover),
            _ => self.estimate(root.score),
        };
        let (best, line, best_val, played_val) = if played == root_best {
            (root_best, root.pv, root_val, root_val)
        } else {
            let pv = self.child_value(&pos.after(played), mover);
            if pv.win > root_val.win {
                // Searched one ply deeper, the move played is better than the root's choice.
                let child = pos.after(played);
                let mut line = vec![played];
                if !child.is_over() {
                    line.extend(self.search(&child).pv);
                }
                (played, line, pv, pv)
            } else {
                (root_best, root.pv, root_val, pv)
            }
        };
        Ok(DecisionVerdict::two_player(
            mover, best, line, best_val, played_val,
        ))
    }
}

/// Reviews the game from `start` through `moves` with a fresh judge of `options`; `progress`
/// sees `(plies done, plies)`.
pub fn review_game(
    start: &Checkers,
    moves: &[Move],
    options: &JudgeOptions,
    progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError<CheckersJudgeError>> {
    let mut judge = CheckersJudge::new(options.clone())
        .map_err(|source| ReviewError::Judge { ply: 0, source })?;
    review::review(
        "checkers",
        &options.describe(),
        start,
        moves,
        &mut judge,
        |p, m| p.move_to_text(m),
        progress,
    )
}

/// Writes the reviewed game as PDN that other programs read: the tags (plus `Annotator`), every
/// move with its class's mark (`?!`, `?`, `??`), a comment after it with the evaluation from
/// Black's view in men (`{[%eval 0.35]}`; the database's result instead on exact plies) and what
/// the class means, and the better line as a variation after an inaccuracy, mistake or blunder.
///
/// White's moves carry no repeated move number after a comment, and comments hold no
/// parentheses or result tokens, so simple readers that strip comments and variations (such as
/// pydraughts') still read the main line.
pub fn annotated_pdn(
    tags: &[(String, String)],
    start: &Board,
    moves: &[Move],
    result: GameResult,
    review: &Review,
) -> String {
    let mut out = String::new();
    let mut has_fen = false;
    for (k, v) in tags {
        if k == "Annotator" {
            continue;
        }
        has_fen |= k == "FEN";
        out.push_str(&format!("[{k} \"{}\"]\n", qiyi_core::record::escape_tag(v)));
    }
    if !has_fen && *start != Board::start() {
        out.push_str(&format!("[FEN \"{}\"]\n", notation::board_to_fen(start)));
    }
    out.push_str(&format!(
        "[Annotator \"{}\"]\n\n",
        qiyi_core::record::escape_tag(&format!("qiyi review: {}", review.judge))
    ));
    let mut tokens: Vec<String> = Vec::new();
    let mut board = *start;
    let mut number = 1;
    for (i, &mv) in moves.iter().enumerate() {
        let black = board.side_to_move() == Color::Black;
        if black {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        let ply = review.plies.get(i);
        let mark = ply
            .filter(|p| !p.forced)
            .and_then(|p| p.class)
            .map(|c| c.symbol())
            .unwrap_or("");
        tokens.push(format!("{}{mark}", notation::move_to_pdn(&mv)));
        if let Some(p) = ply {
            tokens.push(format!("{{{}}}", ply_comment(p, black)));
            let poor = p.loss > 0.0 && !mark.is_empty();
            if poor && p.best.as_deref() != Some(p.played.as_str()) && !p.line.is_empty() {
                let mut var = vec!["(".to_string()];
                var.push(if black {
                    format!("{number}.")
                } else {
                    format!("{number}...")
                });
                let mut n = number;
                let mut side_black = black;
                for (j, m) in p.line.iter().take(8).enumerate() {
                    if j > 0 && side_black {
                        var.push(format!("{n}."));
                    }
                    var.push(m.clone());
                    if !side_black {
                        n += 1;
                    }
                    side_black = !side_black;
                }
                var.push(")".to_string());
                tokens.push(var.join(" "));
            }
        }
        if !black {
            number += 1;
        }
        board = board.play(mv);
    }
    tokens.push(result.as_str().to_string());
    out.push_str(&qiyi_core::record::wrap_movetext(&tokens));
    out
}

/// The comment after a reviewed move: the evaluation (Black's view) and the verdict.
fn ply_comment(p: &review::PlyReview, black_moved: bool) -> String {
    let sign = if black_moved { 1.0 } else { -1.0 };
    let mut parts = Vec::new();
    match p.after_played.unit {
        Some(cp) => parts.push(format!("[%eval {:.2}]", sign * cp / 100.0)),
        None => {
            let w = p.after_played.win;
            let (black_w, what) = (if black_moved { w } else { 1.0 - w }, "database");
            parts.push(if black_w >= 1.0 - 1e-9 {
                format!("{what}: Black wins")
            } else if black_w <= 1e-9 {
                format!("{what}: White wins")
            } else {
                format!("{what}: draw")
            });
        }
    }
    parts.push(format!("win {:.0}%", 100.0 * p.after_played.win));
    if p.forced {
        parts.push("forced".into());
    } else if let Some(c) = p.class {
        if p.loss > 0.0 && c.symbol() != "" {
            let name = c.name();
            let mut first = name[..1].to_ascii_uppercase();
            first.push_str(&name[1..]);
            parts.push(format!(
                "{first}: {} was best, losing {:.0}% of win chance",
                p.best.as_deref().unwrap_or("?"),
                100.0 * p.loss
            ));
        }
        if p.missed_win {
            parts.push("the win is gone".into());
        }
        if p.only_move {
            parts.push("the only move".into());
        }
    }
    parts.join(" ").replace(['{', '}', '(', ')'], "")
}
