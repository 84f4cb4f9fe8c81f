//! The Xiangqi judge of a post-game review, for core's [`qiyi_core::review`].
//!
//! The engine (this crate's [`crate::search`] with the tuned evaluation, no level noise, one
//! thread) searches every position at a fixed depth (default [`DEFAULT_DEPTH`]) or time for the
//! best move and its score; the position after the move played is searched with the same limits
//! (it is the next ply's root, so each position is searched once). A score becomes a win chance
//! by the logistic `1 / (1 + exp(-k * score))` with the slope [`WIN_SLOPE`] fitted to qiyi's own
//! self-play (`qiyi calibrate xiangqi`; the fit and its table are in `docs/review.md`).
//!
//! Exact values: a child that ends the game by the rules (checkmate or stalemate, a perpetual
//! check or chase losing, another repetition or the 60-move rule drawing, no attackers left) is
//! valued by its result; a mate score the search proves is a win chance of 1 or 0. A move the
//! deeper look finds better than the root's best becomes the best move itself, so a decision
//! never gains win chance. The unit is the engine's centipawns (`"cp"`, a soldier about 100),
//! from the mover's view.
//!
//! Records: [`read_record`] reads XQ PGN (ICCS `H2-E2`/`h2e2`, WXF `C2.5`/`C2=5` or Chinese
//! `炮二平五` moves, a `[FEN]` start) and the JSON record; [`annotated_pgn`] writes the reviewed
//! game back as PGN with `{[%eval ...]}` comments, NAGs and the better line as a variation.
//!
//! ```
//! use qiyi_xiangqi::review::{read_record, review_game, JudgeOptions};
//! use qiyi_core::search::SearchLimits;
//!
//! let record = read_record("1. H2-E2 h9g7 *").unwrap();
//! let options = JudgeOptions { limits: SearchLimits::depth(2), ..JudgeOptions::default() };
//! let review = review_game(&record.start, &record.moves, &options, |_, _| {}).unwrap();
//! assert_eq!(review.plies.len(), 2);
//! assert_eq!(review.plies[0].played, "h2e2");
//! ```

use std::collections::HashMap;

use qiyi_core::eval::{Score, MATE, MATE_BOUND};
use qiyi_core::review::{self, logistic, DecisionVerdict, Judge, Review, ReviewError};
use qiyi_core::search::SearchLimits;
use qiyi_core::Game;

use crate::board::Color;
use crate::error::XiangqiError;
use crate::eval::Evaluation;
use crate::position::{Move, Position};
use crate::search::XiangqiSearch;

/// The slope of the logistic that turns an engine score (centipawns, mover's view) into a win
/// chance, fitted by maximum likelihood (`qiyi calibrate xiangqi`) to 240 seeded self-play games
/// of the judge at depth 6 (0.00266 on the 30,696 positions scored below 1000); the command, the
/// calibration table and the held-out Brier score are in `docs/review.md`.
pub const WIN_SLOPE: f64 = 0.0027;

/// The default search depth per position: a 100-ply game reviews in about 6 s of one core's
/// time (figures in `docs/review.md`).
pub const DEFAULT_DEPTH: u32 = 12;

/// The deepest fixed depth a review accepts: beyond it one position can take hours.
pub const MAX_REVIEW_DEPTH: u32 = 30;

/// The transposition table of the judge's engine, in MiB.
pub const TT_MIB: usize = 64;

/// How the judge works.
#[derive(Clone, Debug)]
pub struct JudgeOptions {
    /// The search limits per position (a depth, a movetime or a node budget).
    pub limits: SearchLimits,
    /// The logistic slope turning centipawns into win chances.
    pub slope: f64,
    /// The learned evaluation to judge with (`None`: the hand evaluation).
    pub net: Option<std::sync::Arc<qiyi_core::learn::QuantNet>>,
    /// The engine's transposition table, in MiB (default [`TT_MIB`]; the server sizes it by its
    /// memory budget).
    pub tt_mib: usize,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            limits: SearchLimits::depth(DEFAULT_DEPTH),
            slope: WIN_SLOPE,
            net: None,
            tt_mib: TT_MIB,
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
        let eval = match &self.net {
            Some(n) => format!(", a {}-{}-{} net", n.arch.inputs, n.arch.hidden, n.arch.l2),
            None => String::new(),
        };
        format!("qiyi xiangqi engine ({limit}{eval}, slope {})", self.slope)
    }
}

/// A Xiangqi game to review, read by [`read_record`].
#[derive(Clone, Debug)]
pub struct ReviewRecord {
    /// The PGN's tags (none from a JSON record).
    pub tags: Vec<(String, String)>,
    /// The start position.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
    /// The result the record gives (`1-0`, `0-1`, `1/2-1/2`), `*` when it gives none.
    pub result: String,
}

/// Why a record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The PGN is malformed: a bad tag, an unclosed comment or variation, no moves at all.
    #[error("the PGN does not read: {0}")]
    Pgn(String),
    /// The record is of another game (its `Game` tag or JSON `game` says so).
    #[error("the record is a {0} game, not xiangqi")]
    OtherGame(String),
    /// The start position (a `FEN` tag or the JSON `position`) is not a Xiangqi FEN.
    #[error("bad start position {fen:?}: {source}")]
    Fen {
        /// The FEN as given (clipped).
        fen: String,
        /// Why.
        #[source]
        source: XiangqiError,
    },
    /// The text looks like a JSON record but is not one: not JSON or the wrong shape.
    #[error(transparent)]
    Json(#[from] qiyi_core::json_record::RecordError),
    /// A move does not read, is illegal, or comes after the game ended.
    #[error("move {ply} ({text}): {source}")]
    Move {
        /// 1-based ply number.
        ply: usize,
        /// The move's text (clipped).
        text: String,
        /// Why.
        #[source]
        source: XiangqiError,
    },
}

fn clip(s: &str) -> String {
    s.chars().take(40).collect()
}

/// The canonical form of a Chinese move text: pieces as WXF letters, numerals (Chinese, full
/// width or ASCII) as ASCII digits, 进/退/平 as `+`/`-`/`=`, 前/中/后 as `f`/`m`/`b`, traditional
/// characters as simplified.
fn chinese_key(text: &str) -> Option<String> {
    let mut out = String::new();
    for c in text.trim().chars() {
        let k = match c {
            '车' | '車' | '俥' | '伡' => 'R',
            '马' | '馬' | '傌' | '㐷' => 'H',
            '炮' | '砲' | '包' => 'C',
            '相' | '象' => 'E',
            '仕' | '士' => 'A',
            '帅' | '帥' | '将' | '將' => 'K',
            '兵' | '卒' => 'P',
            '进' | '進' => '+',
            '退' => '-',
            '平' => '=',
            '前' => 'f',
            '中' => 'm',
            '后' | '後' => 'b',
            '一' | '１' | '1' => '1',
            '二' | '２' | '2' => '2',
            '三' | '３' | '3' => '3',
            '四' | '４' | '4' => '4',
            '五' | '５' | '5' => '5',
            '六' | '６' | '6' => '6',
            '七' | '７' | '7' => '7',
            '八' | '８' | '8' => '8',
            '九' | '９' | '9' => '9',
            _ => return None,
        };
        out.push(k);
    }
    (!out.is_empty()).then_some(out)
}

/// True when `text` holds a CJK character (a Chinese move, not ICCS or WXF).
fn is_chinese(text: &str) -> bool {
    !text.is_ascii()
}

/// Parses a legal move in Chinese notation (`炮二平五`, `马８进７`, `前车进一`; traditional
/// characters and any kind of digit accepted) by matching every legal move's written form.
pub fn parse_chinese(pos: &Position, text: &str) -> Result<Move, XiangqiError> {
    let clipped: String = text.chars().take(20).collect();
    let key = chinese_key(text).ok_or_else(|| XiangqiError::BadMoveText(clipped.clone()))?;
    let list = pos.legal_move_list();
    let found: Vec<Move> = list
        .as_slice()
        .iter()
        .copied()
        .filter(|&m| chinese_key(&pos.move_to_chinese(m)).as_deref() == Some(key.as_str()))
        .collect();
    match found.len() {
        0 => Err(XiangqiError::IllegalMove(clipped)),
        1 => Ok(found[0]),
        _ => Err(XiangqiError::AmbiguousMove(clipped)),
    }
}

/// Parses a legal move in ICCS, WXF or Chinese notation, refusing moves after the game ended.
pub fn parse_any(pos: &Position, text: &str) -> Result<Move, XiangqiError> {
    if pos.turn() == qiyi_core::game::Turn::Over {
        return Err(XiangqiError::IllegalMove(format!(
            "{} (the game is over)",
            clip(text)
        )));
    }
    if is_chinese(text) {
        parse_chinese(pos, text)
    } else {
        pos.parse_move_text(text)
    }
}

fn start_from(fen: Option<&str>) -> Result<Position, RecordError> {
    match fen {
        Some(f) => Position::from_fen(f).map_err(|source| RecordError::Fen {
            fen: clip(f),
            source,
        }),
        None => Ok(Position::start()),
    }
}

fn play_texts<'a>(
    start: &Position,
    texts: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<Move>, RecordError> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for (i, t) in texts.into_iter().enumerate() {
        let mv = parse_any(&pos, t).map_err(|source| RecordError::Move {
            ply: i + 1,
            text: clip(t),
            source,
        })?;
        pos.make(mv);
        moves.push(mv);
    }
    Ok(moves)
}

/// A record's tags, in order.
type Tags = Vec<(String, String)>;

/// The result tokens of PGN move text.
const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// Whether `key` is a PGN tag name (a symbol: a letter or digit, then letters, digits and
/// `_+#=:-`; letters of any script, so Chinese tag names read). Anything else, a quote or a
/// control character, would not write back as the same tag.
fn is_tag_name(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(char::is_alphanumeric)
        && chars.all(|c| c.is_alphanumeric() || "_+#=:-".contains(c))
}

/// Splits PGN text into its tags and its main-line move tokens (comments, variations, NAGs,
/// move numbers and annotation marks removed; the result token kept last when present).
fn pgn_tokens(text: &str) -> Result<(Tags, Vec<String>), RecordError> {
    let bad = |s: String| Err(RecordError::Pgn(s));
    let mut tags = Vec::new();
    let mut body = String::new();
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('[') && body.trim().is_empty() {
            let inner = t
                .strip_prefix('[')
                .and_then(|x| x.strip_suffix(']'))
                .map(str::trim);
            let Some(inner) = inner else {
                return bad(format!("bad tag line {:?}", clip(t)));
            };
            let (key, rest) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
            let rest = rest.trim();
            let Some(v) = rest.strip_prefix('"').and_then(|x| x.strip_suffix('"')) else {
                return bad(format!("bad tag line {:?}", clip(t)));
            };
            if !is_tag_name(key) {
                return bad(format!(
                    "bad tag name {:?} (a tag name is letters, digits and _+#=:- only)",
                    clip(key)
                ));
            }
            tags.push((
                key.to_string(),
                v.replace("\\\"", "\"").replace("\\\\", "\\"),
            ));
        } else if t.starts_with('%') {
            continue;
        } else {
            body.push_str(line);
            body.push('\n');
        }
    }
    // Strip comments, line comments and (nested) variations.
    let mut clean = String::new();
    let mut depth = 0usize;
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '{' => {
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == '}' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return bad("a comment { is not closed".into());
                }
                clean.push(' ');
            }
            ';' if depth == 0 => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
                clean.push(' ');
            }
            '(' => depth += 1,
            ')' => {
                if depth == 0 {
                    return bad("a variation closes with ) that never opened".into());
                }
                depth -= 1;
            }
            '}' if depth == 0 => return bad("a comment closes with } that never opened".into()),
            c if depth == 0 => clean.push(c),
            _ => {}
        }
    }
    if depth > 0 {
        return bad("a variation ( is not closed".into());
    }
    let mut tokens = Vec::new();
    for raw in clean.split_whitespace() {
        if raw.starts_with('$') {
            continue;
        }
        if RESULTS.contains(&raw) {
            tokens.push(raw.to_string());
            continue;
        }
        // A move number, alone (`12.`, `12...`) or glued to the move (`12.h2e2`).
        let digits = raw.chars().take_while(char::is_ascii_digit).count();
        let rest = &raw[digits..];
        let t = if digits > 0 && rest.starts_with('.') {
            rest.trim_start_matches('.')
        } else {
            raw
        };
        // Annotation marks (`!`, `?`); `+` and `-` are WXF directions and stay.
        let t = t.trim_end_matches(['!', '?']);
        if !t.is_empty() {
            tokens.push(t.to_string());
        }
    }
    Ok((tags, tokens))
}

/// Reads a game to review: XQ PGN (what `qiyi games export` writes for Xiangqi: tags, a `FEN`
/// tag for the start, moves in ICCS `H2-E2`, WXF `C2.5` or Chinese `炮二平五`, with comments,
/// variations and NAGs skipped), or a JSON record (`{"game": "xiangqi", "position": FEN?,
/// "moves": [text or {"text": ..}], "result"?}` or a bare list of moves; the text starting with
/// `{` or `[` followed by `"` or `{`).
pub fn read_record(text: &str) -> Result<ReviewRecord, RecordError> {
    let t = text.trim_start();
    let json = t.starts_with('{')
        || (t.starts_with('[') && t[1..].trim_start().starts_with(['"', '{', ']'].as_slice()));
    if json {
        return read_json(text);
    }
    let (tags, mut tokens) = pgn_tokens(text)?;
    let tag = |k: &str| {
        tags.iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(k))
            .map(|(_, v)| v.as_str())
    };
    if let Some(g) = tag("Game").or(tag("Variant")).or(tag("GameType")) {
        let l = g.to_ascii_lowercase();
        if !(l.contains("chinese chess") || l.contains("xiangqi") || l.contains("象棋")) {
            return Err(RecordError::OtherGame(clip(g)));
        }
    }
    let mut result = tag("Result").unwrap_or("*").to_string();
    if tokens.last().is_some_and(|t| RESULTS.contains(&t.as_str())) {
        result = tokens.pop().unwrap_or_default();
    }
    if let Some(r) = tokens.iter().find(|t| RESULTS.contains(&t.as_str())) {
        return Err(RecordError::Pgn(format!(
            "the result {r} stands before the last move"
        )));
    }
    if tokens.is_empty() && tags.is_empty() {
        return Err(RecordError::Pgn("no tags and no moves".into()));
    }
    let start = start_from(tag("FEN"))?;
    let moves = play_texts(&start, tokens.iter().map(String::as_str))?;
    if !RESULTS.contains(&result.as_str()) {
        result = "*".into();
    }
    Ok(ReviewRecord {
        tags,
        start,
        moves,
        result,
    })
}

fn read_json(text: &str) -> Result<ReviewRecord, RecordError> {
    use qiyi_core::json_record;
    let v = json_record::parse(text)?;
    if let Some(kind) = v.get("game").and_then(|g| g.as_str()) {
        if !matches!(kind, "xiangqi" | "chinese-chess") {
            return Err(RecordError::OtherGame(clip(kind)));
        }
    }
    let record = json_record::read(&v, &["xiangqi", "chinese-chess"])?;
    let start = start_from(record.str("position"))?;
    let mut texts = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        texts.push(json_record::move_entry(i, m)?.text);
    }
    let moves = play_texts(&start, texts)?;
    let result = match record.str("result") {
        Some(r) if RESULTS.contains(&r) => r.to_string(),
        _ => "*".into(),
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
pub enum XiangqiJudgeError {
    /// The limits ask for something a review cannot do.
    #[error("{0}")]
    Limits(String),
    /// The engine returned no move in a position that has moves.
    #[error("the engine found no move in {0}")]
    NoMove(String),
}

/// Refuses limits a review cannot use: none at all, or a depth outside 1..=[`MAX_REVIEW_DEPTH`].
pub fn check_limits(limits: &SearchLimits) -> Result<(), XiangqiJudgeError> {
    match (limits.depth, limits.move_time, limits.nodes) {
        (None, None, None) => Err(XiangqiJudgeError::Limits(
            "a review needs a depth, a movetime or a node budget per position".into(),
        )),
        (Some(d), _, _) if d == 0 || d > MAX_REVIEW_DEPTH => Err(XiangqiJudgeError::Limits(
            format!("depth {d} is out of range: a review searches at depth 1-{MAX_REVIEW_DEPTH}"),
        )),
        (_, Some(t), _) if t.is_zero() => Err(XiangqiJudgeError::Limits(
            "a movetime must be at least 1 ms".into(),
        )),
        _ => Ok(()),
    }
}

/// One search's result, kept so each position is searched once.
#[derive(Clone, Debug)]
struct Searched {
    score: Score,
    best: Option<Move>,
    pv: Vec<Move>,
}

/// A value from one player's view.
type Val = qiyi_core::review::MoverValue;

/// The Xiangqi judge: the engine at fixed limits, mates and rule endings exact.
pub struct XiangqiJudge {
    search: XiangqiSearch<Evaluation>,
    options: JudgeOptions,
    memo: HashMap<(u64, usize), Searched>,
    /// Nodes the engine searched.
    pub nodes: u64,
    /// Positions the engine searched.
    pub searches: u64,
}

impl XiangqiJudge {
    /// A judge with `options`; fails on limits a review cannot use (none, or too deep).
    pub fn new(options: JudgeOptions) -> Result<XiangqiJudge, XiangqiJudgeError> {
        check_limits(&options.limits)?;
        let mut search = XiangqiSearch::new(Evaluation::default(), options.tt_mib.max(1), 1);
        search.set_net(options.net.clone());
        Ok(XiangqiJudge {
            search,
            options,
            memo: HashMap::new(),
            nodes: 0,
            searches: 0,
        })
    }

    /// Judges with the learned evaluation `net` (a Xiangqi net: [`crate::nnue::load`]) instead
    /// of the hand evaluation (`None`). Earlier judgements are forgotten.
    pub fn set_net(&mut self, net: Option<std::sync::Arc<qiyi_core::learn::QuantNet>>) {
        self.search.set_net(net);
        self.search.clear();
        self.memo.clear();
    }

    /// The engine's score of `pos` (side to move's view, centipawns or a mate score), its best
    /// move and line, searched with the judge's limits (memoised).
    pub fn score(&mut self, pos: &Position) -> (Score, Option<Move>, Vec<Move>) {
        let s = self.searched(pos);
        (s.score, s.best, s.pv)
    }

    /// The win chance the judge gives the side to move for a score from its view.
    pub fn win_chance(&self, score: Score) -> f64 {
        self.value(score).win
    }

    fn searched(&mut self, pos: &Position) -> Searched {
        let key = (pos.hash(), pos.moves_played().count());
        if let Some(s) = self.memo.get(&key) {
            return s.clone();
        }
        let r = self.search.search(pos, &self.options.limits, |_| {});
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

    /// The value of a score (from `me`'s view): a proven mate is exact.
    fn value(&self, score: Score) -> Val {
        if score.abs() >= MATE_BOUND {
            return Val {
                win: if score > 0 { 1.0 } else { 0.0 },
                unit: Some(score as f64),
                exact: true,
            };
        }
        Val {
            win: logistic(score as f64, self.options.slope),
            unit: Some(score as f64),
            exact: false,
        }
    }

    /// The value of `child` (reached by `mover`'s move) for `mover`.
    fn child_value(&mut self, child: &Position, mover: usize) -> Val {
        if child.turn() == qiyi_core::game::Turn::Over {
            let win = review::result_from_returns(child)[mover];
            let unit = if win > 0.5 {
                MATE
            } else if win < 0.5 {
                -MATE
            } else {
                0
            };
            return Val {
                win,
                unit: Some(unit as f64),
                exact: true,
            };
        }
        let s = self.searched(child);
        self.value(-s.score)
    }
}

impl Judge<Position> for XiangqiJudge {
    type Error = XiangqiJudgeError;

    fn unit(&self) -> &'static str {
        "cp"
    }

    fn decision(
        &mut self,
        pos: &Position,
        played: Move,
    ) -> Result<DecisionVerdict<Move>, XiangqiJudgeError> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mover = pos.to_move();
        let root = self.searched(pos);
        let root_best = root
            .best
            .filter(|m| moves.contains(m))
            .ok_or_else(|| XiangqiJudgeError::NoMove(pos.to_fen()))?;
        let mut after_best = pos.clone();
        after_best.make(root_best);
        let root_val = if after_best.turn() == qiyi_core::game::Turn::Over {
            self.child_value(&after_best, mover)
        } else {
            self.value(root.score)
        };
        let (best, line, best_val, played_val) = if played == root_best {
            (root_best, root.pv, root_val, root_val)
        } else {
            let mut child = pos.clone();
            child.make(played);
            let pv = self.child_value(&child, mover);
            if pv.win > root_val.win {
                // Searched one ply deeper, the move played is better than the root's choice.
                let mut line = vec![played];
                if child.turn() != qiyi_core::game::Turn::Over {
                    line.extend(self.searched(&child).pv);
                }
                (played, line, pv, pv)
            } else {
                (root_best, root.pv, root_val, pv)
            }
        };
        let line = if line.first() == Some(&best) {
            line
        } else {
            vec![best]
        };
        Ok(DecisionVerdict::two_player(
            mover, best, line, best_val, played_val,
        ))
    }
}

/// Reviews the game from `start` through `moves` with a fresh judge of `options`; `progress`
/// sees `(plies done, plies)`. Moves print in ICCS (`h2e2`).
pub fn review_game(
    start: &Position,
    moves: &[Move],
    options: &JudgeOptions,
    progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError<XiangqiJudgeError>> {
    let mut judge = XiangqiJudge::new(options.clone())
        .map_err(|source| ReviewError::Judge { ply: 0, source })?;
    review::review(
        "xiangqi",
        &options.describe(),
        start,
        moves,
        &mut judge,
        |_, m| m.to_string(),
        progress,
    )
}

/// A move in the PGN's ICCS form, `H2-E2`.
fn iccs_pgn(text: &str) -> String {
    let t = text.to_ascii_uppercase();
    if t.len() == 4 && t.is_ascii() {
        format!("{}-{}", &t[..2], &t[2..])
    } else {
        t
    }
}

/// An evaluation in PGN's `%eval` form from Red's view: pawns with two decimals, or `#n` (mate
/// in n moves, negative when Black mates).
fn eval_text(cp_red: f64) -> String {
    let s = cp_red.round() as Score;
    if s.abs() >= MATE_BOUND {
        let plies = MATE - s.abs();
        let moves = (plies + 1) / 2;
        if s > 0 {
            format!("#{moves}")
        } else {
            format!("#-{moves}")
        }
    } else {
        format!("{:.2}", cp_red / 100.0)
    }
}

/// The NAG of a class: `$6` (?!), `$2` (?), `$4` (??), none for best and good.
fn nag(symbol: &str) -> Option<&'static str> {
    match symbol {
        "?!" => Some("$6"),
        "?" => Some("$2"),
        "??" => Some("$4"),
        _ => None,
    }
}

/// Writes the reviewed game as XQ PGN: the tags (plus `Game`, `FEN` and `Format` when missing,
/// and `Annotator`), every move in ICCS (`H2-E2`) with its class's NAG (`$6` ?!, `$2` ?, `$4` ??),
/// a comment after it with the evaluation from Red's view (`{[%eval 0.35] ...}`, `#n` for a mate)
/// and what the class means, and the better line as a variation `( ... )` after an inaccuracy,
/// mistake or blunder.
pub fn annotated_pgn(
    tags: &[(String, String)],
    start: &Position,
    moves: &[Move],
    result: &str,
    review: &Review,
) -> String {
    let mut out = String::new();
    let has = |k: &str| tags.iter().any(|(key, _)| key.eq_ignore_ascii_case(k));
    if !has("Game") {
        out.push_str("[Game \"Chinese Chess\"]\n");
    }
    for (k, v) in tags {
        if k == "Annotator" || k.eq_ignore_ascii_case("Format") || k.eq_ignore_ascii_case("FEN") {
            continue;
        }
        out.push_str(&format!("[{k} \"{}\"]\n", qiyi_core::record::escape_tag(v)));
    }
    if !has("Result") {
        out.push_str(&format!("[Result \"{result}\"]\n"));
    }
    out.push_str(&format!("[FEN \"{}\"]\n", start.to_fen()));
    out.push_str("[Format \"ICCS\"]\n");
    out.push_str(&format!(
        "[Annotator \"{}\"]\n\n",
        qiyi_core::record::escape_tag(&format!("qiyi review: {}", review.judge))
    ));
    let mut tokens: Vec<String> = Vec::new();
    let mut pos = start.clone();
    let mut number = start.fullmove_number().max(1);
    for (i, &mv) in moves.iter().enumerate() {
        let red = pos.side_to_move() == Color::Red;
        if red {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(iccs_pgn(&mv.to_string()));
        let ply = review.plies.get(i);
        let symbol = ply
            .filter(|p| !p.forced)
            .and_then(|p| p.class)
            .map(|c| c.symbol())
            .unwrap_or("");
        if let Some(n) = nag(symbol) {
            tokens.push(n.to_string());
        }
        if let Some(p) = ply {
            tokens.push(format!("{{{}}}", ply_comment(p, red)));
            let poor = p.loss > 0.0 && nag(symbol).is_some();
            if poor && p.best.as_deref() != Some(p.played.as_str()) && !p.line.is_empty() {
                let mut var = vec!["(".to_string()];
                var.push(if red {
                    format!("{number}.")
                } else {
                    format!("{number}...")
                });
                let mut n = number;
                let mut side_red = red;
                for (j, m) in p.line.iter().take(8).enumerate() {
                    if j > 0 && side_red {
                        var.push(format!("{n}."));
                    }
                    var.push(iccs_pgn(m));
                    if !side_red {
                        n += 1;
                    }
                    side_red = !side_red;
                }
                var.push(")".to_string());
                tokens.push(var.join(" "));
            }
        }
        if !red {
            number += 1;
        }
        pos.make(mv);
    }
    tokens.push(result.to_string());
    out.push_str(&qiyi_core::record::wrap_movetext(&tokens));
    out
}

/// The comment after a reviewed move: the evaluation (Red's view) and the verdict.
fn ply_comment(p: &review::PlyReview, red_moved: bool) -> String {
    let sign = if red_moved { 1.0 } else { -1.0 };
    let mut parts = Vec::new();
    if let Some(cp) = p.after_played.unit {
        parts.push(format!("[%eval {}]", eval_text(sign * cp)));
    }
    parts.push(format!("win {:.0}%", 100.0 * p.after_played.win));
    if p.forced {
        parts.push("forced".into());
    } else if let Some(c) = p.class {
        if p.loss > 0.0 && nag(c.symbol()).is_some() {
            let name = c.name();
            let mut first = name[..1].to_ascii_uppercase();
            first.push_str(&name[1..]);
            parts.push(format!(
                "{first}: {} was best, losing {:.0}% of win chance",
                p.best
                    .as_deref()
                    .map(iccs_pgn)
                    .unwrap_or_else(|| "?".into()),
                100.0 * p.loss
            ));
        }
        if p.missed_win {
            parts.push("the win is gone".into());
        }
    }
    parts.join(" ").replace(['{', '}', '(', ')'], "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use qiyi_core::review::Class;

    fn opts(depth: u32) -> JudgeOptions {
        JudgeOptions {
            limits: SearchLimits::depth(depth),
            ..JudgeOptions::default()
        }
    }

    #[test]
    fn iccs_wxf_and_chinese_records_read_the_same_game() {
        let iccs = read_record("[Game \"Chinese Chess\"]\n1. H2-E2 h9g7 2. H0-G2 i9h9 *").unwrap();
        let wxf = read_record("1. C2.5 H8+7 2. H2+3 R9=8 *").unwrap();
        let cn = read_record("1. 炮二平五 马８进７ 2. 马二进三 車９平８ *").unwrap();
        let json = read_record(
            r#"{"game": "xiangqi", "moves": ["h2e2", "H8+7", "马二进三", {"text": "i9h9"}]}"#,
        )
        .unwrap();
        assert_eq!(iccs.moves.len(), 4);
        assert_eq!(iccs.moves, wxf.moves);
        assert_eq!(iccs.moves, cn.moves);
        assert_eq!(iccs.moves, json.moves);
        assert_eq!(iccs.result, "*");
    }

    #[test]
    fn comments_variations_nags_and_fen_tags_are_read() {
        let text = "[Game \"Chinese Chess\"]\n[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1\"]\n\
                    1... h9g7 $2 {a comment (with brackets)} ( 1... b9c7 2. h2e2 ) 2. H2-E2! ; line comment\n 0-1\n";
        let r = read_record(text).unwrap();
        assert_eq!(r.moves.len(), 2);
        assert_eq!(r.result, "0-1");
        assert_eq!(r.start.side_to_move(), Color::Black);
    }

    #[test]
    fn bad_records_are_typed_errors() {
        assert!(matches!(
            read_record("1. h2e2 h2e2 *"),
            Err(RecordError::Move { ply: 2, .. })
        ));
        assert!(matches!(
            read_record("1. z9z9 *"),
            Err(RecordError::Move { ply: 1, .. })
        ));
        assert!(matches!(
            read_record("[GameType \"21\"]\n1. 11-15 23-19 *"),
            Err(RecordError::OtherGame(_))
        ));
        assert!(matches!(
            read_record(r#"{"game": "checkers", "moves": ["11-15"]}"#),
            Err(RecordError::OtherGame(_))
        ));
        assert!(matches!(
            read_record("[FEN \"9/9/9 w\"]\n*"),
            Err(RecordError::Fen { .. })
        ));
        assert!(matches!(read_record("{oops"), Err(RecordError::Json(_))));
        assert!(matches!(
            read_record("1. h2e2 { unclosed"),
            Err(RecordError::Pgn(_))
        ));
        assert!(matches!(read_record(""), Err(RecordError::Pgn(_))));
        // A checkers PDN without a GameType tag still fails on its first move.
        assert!(matches!(
            read_record("[Event \"x\"]\n1. 11-15 23-19 *"),
            Err(RecordError::Move { ply: 1, .. })
        ));
    }

    #[test]
    fn limits_outside_the_range_are_refused() {
        assert!(check_limits(&SearchLimits::depth(10_000)).is_err());
        assert!(check_limits(&SearchLimits::depth(0)).is_err());
        assert!(check_limits(&SearchLimits::default()).is_err());
        assert!(check_limits(&SearchLimits::depth(MAX_REVIEW_DEPTH)).is_ok());
        assert!(XiangqiJudge::new(opts(31)).is_err());
    }

    #[test]
    fn hanging_a_chariot_is_a_blunder_with_the_better_move() {
        // Red's chariot on a0 walks to a6, where Black's chariot on a9 takes it for free.
        let fen = "r1bakab2/9/1cn4c1/p1p1p1p1p/9/9/2P1P1P1P/1C2C1N2/9/R1BAKAB2 w - - 0 1";
        let start = Position::from_fen(fen).unwrap();
        let mv = start.parse_move_text("a0a6").unwrap();
        let review = review_game(&start, &[mv], &opts(5), |_, _| {}).unwrap();
        let p = &review.plies[0];
        assert_eq!(p.class, Some(Class::Blunder), "{p:?}");
        assert!(p.loss >= 0.15, "{p:?}");
        let best = p.best.clone().unwrap();
        assert_ne!(best, "a0a6");
        let annotated = annotated_pgn(&[], &start, &[mv], "*", &review);
        assert!(annotated.contains("A0-A6 $4"), "{annotated}");
        assert!(
            annotated.contains(&format!("( 1. {}", iccs_pgn(&best))),
            "{annotated}"
        );
        assert!(annotated.contains("[%eval "), "{annotated}");
    }

    #[test]
    fn a_forced_mate_is_exact() {
        // Red mates in one: the chariot to the back rank, the other chariot holding rank 8 and
        // the flying-general rule the e-file.
        let fen = "3k5/1R7/9/9/9/9/9/9/4K4/R8 w - - 0 1";
        let start = Position::from_fen(fen).unwrap();
        let mv = start.parse_move_text("a0a9").unwrap();
        let mut after = start.clone();
        after.make(mv);
        assert_eq!(
            after.turn(),
            qiyi_core::game::Turn::Over,
            "not a mate: {}",
            after.to_fen()
        );
        let review = review_game(&start, &[mv], &opts(3), |_, _| {}).unwrap();
        let p = &review.plies[0];
        assert!(p.exact, "{p:?}");
        assert_eq!(p.after_played.win, 1.0);
        assert_eq!(p.class, Some(Class::Best));
        let annotated = annotated_pgn(&[], &start, &[mv], "1-0", &review);
        assert!(annotated.contains("[%eval #"), "{annotated}");
    }

    #[test]
    fn a_mate_found_in_search_is_exact() {
        // The search proves the mate in one.
        let fen = "3k5/1R7/9/9/9/9/9/9/4K4/R8 w - - 0 1";
        let start = Position::from_fen(fen).unwrap();
        let mut judge = XiangqiJudge::new(opts(5)).unwrap();
        let (score, best, _) = judge.score(&start);
        assert!(score >= MATE_BOUND, "score {score}");
        assert_eq!(judge.win_chance(score), 1.0);
        assert!(best.is_some());
    }

    #[test]
    fn the_annotated_pgn_reads_back_to_the_same_game() {
        let r = read_record("1. C2.5 H8+7 2. H2+3 R9=8 3. R1=2 C8+4 *").unwrap();
        let review = review_game(&r.start, &r.moves, &opts(3), |_, _| {}).unwrap();
        let text = annotated_pgn(&r.tags, &r.start, &r.moves, &r.result, &review);
        let back = read_record(&text).unwrap();
        assert_eq!(back.moves, r.moves);
        assert_eq!(text.matches("[%eval").count(), r.moves.len());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn any_text_is_a_record_or_a_clean_error(s in "\\PC{0,80}") {
            let _ = read_record(&s);
        }

        #[test]
        fn pgn_like_text_is_a_record_or_a_clean_error(
            s in "(\\[[A-Za-z]{1,5} \"[^\"]{0,10}\"\\]\n){0,2}([0-9]{1,2}\\.{1,3} ?|[a-i][0-9]-?[a-i][0-9] |[KAEHRCP][1-9+-][+=.-][1-9] |[{}()$;!?]|炮二平五 |马８进７ |1-0|\\*| ){0,20}"
        ) {
            let _ = read_record(&s);
        }
    }
}
