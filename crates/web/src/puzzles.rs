//! Puzzles on the server: the shipped, proven puzzle sets (`crates/*/puzzles/*.jsonl`, embedded
//! at build time and parsed once, lazily), the API that serves them (`/api/puzzles/...`) and the
//! Glicko-2 ratings of players and puzzles ([`qiyi_core::glicko2`]) kept in the database.
//!
//! A player is a browser: the cookie `qiyi_player` (32 random hex digits, made at the first
//! attempt) names it; nothing else identifies it. Each puzzle is answered with the page's
//! snapshot of every step of its line ([`PuzzleView::steps`]), so the page draws the board with
//! the play page's own code and checks a move without a game on the server.
//!
//! Without the `server` feature the module is the part both back ends share: the views, the
//! steps of a line, the choice of the next puzzle ([`nearest`]) and of the puzzle of the day
//! ([`daily_index`]), the score of an attempt ([`score`]) and the rating system ([`SYSTEM`]);
//! the static site's in-browser back end (`crates/wasm`, `PuzzleBook`) answers the same JSON
//! from them, keeping the ratings in the browser.

use crate::error::ApiError;
#[cfg(feature = "server")]
use crate::error::ErrorBody;
use crate::session::Snapshot;
#[cfg(feature = "server")]
use crate::store::Store;
#[cfg(feature = "server")]
use axum::body::Bytes;
#[cfg(feature = "server")]
use axum::extract::{Path, Query, State};
#[cfg(feature = "server")]
use axum::http::{header, HeaderMap, HeaderValue};
#[cfg(feature = "server")]
use axum::response::{IntoResponse, Response};
#[cfg(feature = "server")]
use axum::Json;
use qiyi_core::glicko2::Glicko2;
use qiyi_core::puzzles::{read_puzzles, PuzzleRecord, Rating};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap, HashSet};
#[cfg(feature = "server")]
use std::sync::{Arc, OnceLock};

/// The games with a puzzle set, by their API names.
pub const GAMES: [&str; 5] = [
    "xiangqi",
    "checkers",
    "chinese-checkers",
    "peg-solitaire",
    "aeroplane",
];

/// The cookie that names a player.
#[cfg(feature = "server")]
pub const PLAYER_COOKIE: &str = "qiyi_player";

/// How many of the puzzles nearest the player's rating `next` chooses among at random.
pub const NEAREST: usize = 12;

/// The rating system of puzzle attempts: Glickman's τ 0.5, deviations kept in `[45, 350]` so a
/// rating never freezes.
pub const SYSTEM: Glicko2 = Glicko2 {
    tau: 0.5,
    min_deviation: 45.0,
    max_deviation: Rating::START_DEVIATION,
};

/// The embedded puzzle file of `game`.
#[cfg(feature = "server")]
fn file(game: &str) -> Option<&'static str> {
    match game {
        "xiangqi" => Some(qiyi_xiangqi::puzzles::SHIPPED),
        "checkers" => Some(qiyi_checkers::puzzles::SHIPPED),
        "chinese-checkers" => Some(qiyi_chinese_checkers::puzzles::SHIPPED),
        "peg-solitaire" => Some(qiyi_peg_solitaire::puzzles::SHIPPED),
        "aeroplane" => Some(qiyi_aeroplane::puzzles::SHIPPED),
        _ => None,
    }
}

/// One game's puzzle set, parsed.
#[derive(Debug)]
pub struct PuzzleSet {
    /// The game.
    pub game: &'static str,
    /// The puzzles, in the file's order.
    pub puzzles: Vec<PuzzleRecord>,
    by_id: HashMap<String, usize>,
    themes: BTreeMap<String, usize>,
}

impl PuzzleSet {
    /// Parses a puzzle file (`crates/*/puzzles/*.jsonl`) of `game`: every record checked, ids
    /// unique.
    pub fn parse(game: &'static str, text: &str) -> Result<PuzzleSet, String> {
        let puzzles = read_puzzles(text.as_bytes()).map_err(|e| e.to_string())?;
        let mut by_id = HashMap::new();
        let mut themes = BTreeMap::new();
        for (i, p) in puzzles.iter().enumerate() {
            if by_id.insert(p.id.clone(), i).is_some() {
                return Err(format!("puzzle id {} twice", p.id));
            }
            for t in &p.themes {
                *themes.entry(t.clone()).or_insert(0) += 1;
            }
        }
        Ok(PuzzleSet {
            game,
            puzzles,
            by_id,
            themes,
        })
    }

    /// The puzzle with this id.
    pub fn get(&self, id: &str) -> Option<&PuzzleRecord> {
        self.by_id.get(id).map(|&i| &self.puzzles[i])
    }

    /// Every theme with the number of puzzles that have it, by name.
    pub fn themes(&self) -> &BTreeMap<String, usize> {
        &self.themes
    }
}

/// The puzzle set of `game` (its name or an old alias), parsed at the first call.
#[cfg(feature = "server")]
pub fn set(game: &str) -> Result<&'static PuzzleSet, ApiError> {
    static SETS: [OnceLock<Result<PuzzleSet, String>>; 5] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let name = crate::games::canonical(game);
    let Some(i) = GAMES.iter().position(|g| *g == name) else {
        return Err(ApiError::UnknownGame(
            game.to_string(),
            format!("games with puzzles: {}", GAMES.join(", ")),
        ));
    };
    let parsed = SETS[i].get_or_init(|| {
        let text = file(GAMES[i]).unwrap_or("");
        PuzzleSet::parse(GAMES[i], text)
    });
    parsed
        .as_ref()
        .map_err(|e| ApiError::Internal(format!("the {name} puzzle file: {e}")))
}

/// The index of the puzzle of the day `day` (days since 1970-01-01, UTC) in a set of `len`
/// puzzles of `game`: the same all day, for everyone, and spread over the set from day to day.
pub fn daily_index(game: &str, day: u64, len: usize) -> usize {
    if len == 0 {
        return 0;
    }
    // FNV-1a of the name, then SplitMix64 of the day mixed with it.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in game.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut z = day.wrapping_add(h).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z % len as u64) as usize
}

/// Today, in days since 1970-01-01 (UTC).
#[cfg(feature = "server")]
fn today() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0)
}

/// A day as `YYYY-MM-DD` (days since 1970-01-01; Howard Hinnant's civil-from-days).
pub fn date_text(day: u64) -> String {
    let z = day as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The player named by the request's cookie, if it carries a well-formed one.
#[cfg(feature = "server")]
pub fn player_id(headers: &HeaderMap) -> Option<String> {
    for value in headers.get_all(header::COOKIE) {
        let Ok(text) = value.to_str() else {
            continue;
        };
        for part in text.split(';') {
            let Some((name, id)) = part.trim().split_once('=') else {
                continue;
            };
            if name.trim() == PLAYER_COOKIE {
                let id = id.trim();
                if id.len() == 32 && id.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Some(id.to_ascii_lowercase());
                }
            }
        }
    }
    None
}

/// A Glicko-2 rating as the API shows it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema), schema(as = PuzzleRating))]
pub struct RatingView {
    /// The rating (1500 at the start).
    pub rating: f64,
    /// The rating deviation (350: nothing known yet).
    pub deviation: f64,
    /// The volatility.
    pub volatility: f64,
}

impl From<Rating> for RatingView {
    fn from(r: Rating) -> Self {
        RatingView {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

/// One theme and how many puzzles have it.
#[derive(Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct ThemeCount {
    /// The theme (`mate-in-2`, `only-move` ...).
    pub theme: String,
    /// Puzzles with it.
    pub count: usize,
}

/// `GET /api/puzzles/{game}`: the set's themes and size, and the player's rating.
#[derive(Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct PuzzleSummary {
    /// The game.
    pub game: String,
    /// Puzzles in the set.
    pub total: usize,
    /// Every theme with its count, by name.
    pub themes: Vec<ThemeCount>,
    /// The player's rating at this game's puzzles (the start rating before any attempt).
    pub player: RatingView,
    /// Puzzles of this game the player has attempted.
    pub attempted: usize,
    /// The id of today's puzzle (`GET .../daily`).
    pub daily: String,
}

/// One puzzle and every step of its line, as the page draws them.
#[derive(Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct PuzzleView {
    /// Unique within the game's set.
    pub id: String,
    /// The game.
    pub game: String,
    /// The board or rule variant, when the game has several.
    pub variant: Option<String>,
    /// The position in the game's text notation.
    pub position: String,
    /// What to achieve, in words (`mate in 2`, `one peg in d4`).
    pub goal: Option<String>,
    /// The side to find the moves, in the game's words (`red`, `black`, `player 2`).
    pub side: String,
    /// The whole line: the player's moves and the forced replies, as move texts.
    pub solution: Vec<String>,
    /// The indices in `solution` of the moves the player must find (the others are played for
    /// the player).
    pub asked: Vec<usize>,
    /// Themes.
    pub themes: Vec<String>,
    /// The puzzle's rating now (its file's until someone attempts it).
    pub rating: RatingView,
    /// Where the puzzle came from (see `docs/puzzles.md`).
    #[cfg_attr(feature = "server", schema(value_type = Object))]
    pub source: Value,
    /// Why the solution is right.
    #[cfg_attr(feature = "server", schema(value_type = Object))]
    pub proof: Value,
    /// The game before each move of `solution` and after the last (`solution.len() + 1`
    /// states): what the page draws at each step; a step's `legal` lists the moves the player
    /// may try there.
    pub steps: Vec<Snapshot>,
    /// Each choice's exact win chance (0..1) for the player to move, by move text, when the
    /// proof carries them (aeroplane: by plane letter).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chances: Option<BTreeMap<String, f64>>,
    /// The day (`YYYY-MM-DD`, UTC) when this is the puzzle of the day (`GET .../daily` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daily: Option<String>,
}

/// `GET /api/puzzles/{game}/next` query.
#[cfg(feature = "server")]
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub(crate) struct NextQuery {
    /// Only puzzles with this theme (one of `GET /api/puzzles/{game}`'s).
    #[serde(default)]
    theme: Option<String>,
    /// The id of the puzzle just played: never chosen again at once.
    #[serde(default)]
    after: Option<String>,
}

/// `POST /api/puzzles/{game}/{id}/attempt`.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AttemptBody {
    /// Whether every asked move was found with no wrong move and without the solution shown.
    pub solved: bool,
    /// Whether a hint was used (a hinted solve counts half).
    #[serde(default)]
    pub hinted: bool,
}

/// The score an attempt counts as in the ratings: 1 solved, 0.5 solved with a hint, 0 failed.
pub fn score(attempt: &AttemptBody) -> f64 {
    match (attempt.solved, attempt.hinted) {
        (true, false) => 1.0,
        (true, true) => 0.5,
        (false, _) => 0.0,
    }
}

/// `POST /api/puzzles/{game}/{id}/attempt`: both ratings before and after.
#[derive(Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct AttemptAnswer {
    /// The score the attempt counted as: 1 solved, 0.5 solved with a hint, 0 failed.
    pub score: f64,
    /// Whether the ratings moved: only a player's first attempt at a puzzle counts.
    pub rated: bool,
    /// The player's rating after the attempt.
    pub player: RatingView,
    /// The player's rating before it.
    pub player_before: RatingView,
    /// The puzzle's rating after the attempt.
    pub puzzle: RatingView,
    /// The puzzle's rating before it.
    pub puzzle_before: RatingView,
}

/// The `{game}` of a puzzle path.
#[cfg(feature = "server")]
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by axum as `Path<String>`; this type only documents it
pub(crate) struct PuzzleGame {
    /// A game with a puzzle set: `xiangqi`, `checkers`, `chinese-checkers`, `peg-solitaire`,
    /// `aeroplane`.
    #[param(value_type = PuzzleGameName)]
    game: String,
}

/// The `{game}` and `{id}` of a puzzle path.
#[cfg(feature = "server")]
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
#[allow(dead_code)] // read by axum as `Path<(String, String)>`; this type only documents it
pub(crate) struct PuzzleId {
    /// A game with a puzzle set.
    #[param(value_type = PuzzleGameName)]
    game: String,
    /// The puzzle's id in that set.
    id: String,
}

/// The games with a puzzle set, by their API names: the document's enum for the path's `game`
/// (a test keeps it equal to [`GAMES`]).
#[cfg(feature = "server")]
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PuzzleGameName {
    /// Xiangqi (Chinese chess): mates in N.
    Xiangqi,
    /// English checkers: shots.
    Checkers,
    /// Chinese checkers: home in N moves.
    ChineseCheckers,
    /// Peg solitaire: the only jump that still finishes.
    PegSolitaire,
    /// Aeroplane chess: the plane that wins most often with the roll given (exact win chances).
    Aeroplane,
}

/// Reads a request body that must be one JSON object (an array is refused even where its items
/// would fill the fields in order).
pub fn read_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))?;
    if !value.is_object() {
        return Err(ApiError::BadRequest(
            "bad JSON body: expected a JSON object".into(),
        ));
    }
    serde_json::from_value(value).map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
}

/// The puzzle `id` of `set`, or the API's `not_found`.
pub fn find<'a>(set: &'a PuzzleSet, id: &str) -> Result<&'a PuzzleRecord, ApiError> {
    set.get(id)
        .ok_or_else(|| ApiError::NotFound(format!("no {} puzzle with id '{id}'", set.game)))
}

/// The puzzle's rating now: the database's once attempted, else its file's.
#[cfg(feature = "server")]
fn current_rating(
    app: &Store,
    p: &PuzzleRecord,
    ratings: Option<&HashMap<String, Rating>>,
) -> Result<Rating, ApiError> {
    if let Some(r) = ratings {
        return Ok(r.get(&p.id).copied().unwrap_or(p.rating));
    }
    Ok(app
        .db()
        .puzzle_ratings(&p.game)?
        .get(&p.id)
        .copied()
        .unwrap_or(p.rating))
}

/// The states of every step of a puzzle's line (see [`PuzzleView::steps`]).
pub fn steps(p: &PuzzleRecord) -> Result<Vec<Snapshot>, ApiError> {
    if p.game == "chinese-checkers" {
        return chinese_checkers_steps(p);
    }
    let broken = |why: String| ApiError::Internal(format!("puzzle {}: {why}", p.id));
    let mut session = crate::games::create(&p.game, &Value::Null, Some(&p.position), 1)
        .map_err(|e| broken(e.to_string()))?;
    let mut out = Vec::with_capacity(p.solution.len() + 1);
    for mv in &p.solution {
        out.push(session.snapshot());
        session
            .play(mv)
            .map_err(|e| broken(format!("move {mv}: {e}")))?;
    }
    out.push(session.snapshot());
    Ok(out)
}

/// The holes where the other player's one piece stands in a Chinese checkers puzzle: the tips
/// of the four side points, which a race home rarely comes near; the first one that changes no
/// legal move at any step is used.
const ASIDE: [(usize, usize); 4] = [(4, 0), (4, 12), (12, 0), (12, 12)];

/// Chinese checkers puzzles are played by the player's pieces alone, the player moving every
/// time (`docs/puzzles.md`). The server's game needs a piece of each player and passes the turn,
/// so each step is the position with the player's pieces, one piece of the other player set
/// aside on a side point's tip, and the player to move.
fn chinese_checkers_steps(p: &PuzzleRecord) -> Result<Vec<Snapshot>, ApiError> {
    use qiyi_chinese_checkers::puzzles::Solo;
    use qiyi_core::Notation;
    let broken = |why: String| ApiError::Internal(format!("puzzle {}: {why}", p.id));
    let fields: Vec<&str> = p.position.split_whitespace().collect();
    let [players, pieces, flags, cap, to_move, ply, rows] = fields[..] else {
        return Err(broken("not a 7-field position".into()));
    };
    let mover = to_move
        .chars()
        .next()
        .ok_or_else(|| broken("no player to move".into()))?;
    let other = if mover == '1' { '2' } else { '1' };
    'aside: for (row, col) in ASIDE {
        let mut grid: Vec<Vec<char>> = rows
            .split('/')
            .map(|r| {
                r.chars()
                    .map(|c| if c == mover { c } else { '.' })
                    .collect()
            })
            .collect();
        match grid.get_mut(row).and_then(|r| r.get_mut(col)) {
            Some(c) if *c == '.' => *c = other,
            _ => continue,
        }
        let text = |grid: &[Vec<char>], ply: &str| {
            let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
            format!(
                "{players} {pieces} {flags} {cap} {to_move} {ply} {}",
                rows.join("/")
            )
        };
        let mut position = text(&grid, ply);
        let mut out = Vec::with_capacity(p.solution.len() + 1);
        for (k, mv) in p.solution.iter().enumerate() {
            let mut session = crate::games::create(&p.game, &Value::Null, Some(&position), 1)
                .map_err(|e| broken(e.to_string()))?;
            let pos = qiyi_chinese_checkers::Position::from_text(&position)
                .map_err(|e| broken(e.to_string()))?;
            let solo = Solo::of(&pos);
            if session.legal_texts().len() != solo.moves().len() {
                continue 'aside;
            }
            out.push(session.snapshot());
            session
                .play(mv)
                .map_err(|e| broken(format!("move {k} {mv}: {e}")))?;
            let after = session.snapshot();
            if k + 1 == p.solution.len() {
                out.push(after);
                break;
            }
            // The same player moves again.
            let f: Vec<&str> = after.position.split_whitespace().collect();
            let [_, _, _, _, _, next_ply, next_rows] = f[..] else {
                return Err(broken("not a 7-field position".into()));
            };
            grid = next_rows.split('/').map(|r| r.chars().collect()).collect();
            position = text(&grid, next_ply);
        }
        return Ok(out);
    }
    Err(broken("no side point leaves the moves unchanged".into()))
}

#[cfg(feature = "server")]
fn view(
    app: &Store,
    p: &PuzzleRecord,
    ratings: Option<&HashMap<String, Rating>>,
    daily: Option<String>,
) -> Result<PuzzleView, ApiError> {
    view_of(p, current_rating(app, p, ratings)?, daily)
}

/// The view of puzzle `p` whose rating is now `rating`; `daily`: the day it is the puzzle of
/// the day, when asked as that.
pub fn view_of(
    p: &PuzzleRecord,
    rating: Rating,
    daily: Option<String>,
) -> Result<PuzzleView, ApiError> {
    Ok(PuzzleView {
        id: p.id.clone(),
        game: p.game.clone(),
        variant: p.variant.clone(),
        position: p.position.clone(),
        goal: p.goal.clone(),
        side: p.side.clone(),
        solution: p.solution.clone(),
        asked: p.asked.clone(),
        themes: p.themes.clone(),
        rating: rating.into(),
        source: serde_json::to_value(&p.source).unwrap_or(Value::Null),
        proof: serde_json::to_value(&p.proof).unwrap_or(Value::Null),
        steps: steps(p)?,
        chances: chances(p),
        daily,
    })
}

/// The exact win chance of every choice that an aeroplane proof records (`letter=value` pairs
/// after the colon of its detail), or `None` for other proofs.
pub fn chances(p: &PuzzleRecord) -> Option<BTreeMap<String, f64>> {
    if p.game != "aeroplane" {
        return None;
    }
    let qiyi_core::puzzles::Proof::Exact { detail, .. } = &p.proof else {
        return None;
    };
    let list = detail.split_once("): ").map_or(detail.as_str(), |(_, l)| l);
    let out: BTreeMap<String, f64> = list
        .split_whitespace()
        .filter_map(|w| {
            let (k, v) = w.trim_end_matches(';').split_once('=')?;
            Some((k.to_string(), v.parse().ok()?))
        })
        .filter(|(_, v): &(String, f64)| (0.0..=1.0).contains(v))
        .collect();
    (!out.is_empty()).then_some(out)
}

#[cfg(feature = "server")]
fn player_rating(app: &Store, player: Option<&str>, game: &str) -> Result<Rating, ApiError> {
    Ok(match player {
        Some(id) => app.db().puzzle_player(id, game)?.unwrap_or_default(),
        None => Rating::default(),
    })
}

/// `GET /api/puzzles/{game}`: the set's themes with their counts, its size, and the player's
/// rating.
#[cfg(feature = "server")]
#[utoipa::path(
    get,
    path = "/api/puzzles/{game}",
    operation_id = "puzzleSet",
    summary = "A game's puzzle set: its size, its themes with their counts, the player's rating.",
    params(PuzzleGame),
    responses(
        (status = 200, description = "The set.", body = PuzzleSummary),
        (status = 400, description = "A game without a puzzle set, an unknown theme or query field, a malformed body (`unknown_game`, `bad_request`).", body = ErrorBody),
        (status = 500, description = "The database refused a write (`internal`); nothing changed.", body = ErrorBody),
    )
)]
pub(crate) async fn summary(
    State(app): State<Arc<Store>>,
    Path(game): Path<String>,
    headers: HeaderMap,
) -> Result<Json<PuzzleSummary>, ApiError> {
    let set = set(&game)?;
    let player = player_id(&headers);
    let rating = player_rating(&app, player.as_deref(), set.game)?;
    let attempted = match &player {
        Some(id) => app.db().puzzles_attempted(id, set.game)?.len(),
        None => 0,
    };
    Ok(Json(summary_of(set, rating, attempted, today())))
}

/// The summary of `set` for a player rated `player` who attempted `attempted` of its puzzles,
/// on day `day` (days since 1970-01-01, UTC).
pub fn summary_of(set: &PuzzleSet, player: Rating, attempted: usize, day: u64) -> PuzzleSummary {
    let daily = set
        .puzzles
        .get(daily_index(set.game, day, set.puzzles.len()))
        .map(|p| p.id.clone())
        .unwrap_or_default();
    PuzzleSummary {
        game: set.game.to_string(),
        total: set.puzzles.len(),
        themes: set
            .themes()
            .iter()
            .map(|(theme, &count)| ThemeCount {
                theme: theme.clone(),
                count,
            })
            .collect(),
        player: player.into(),
        attempted,
        daily,
    }
}

/// `GET /api/puzzles/{game}/next`: a puzzle near the player's rating, of a theme if asked, not
/// the one just played and, while there are others, none the player has attempted.
#[cfg(feature = "server")]
#[utoipa::path(
    get,
    path = "/api/puzzles/{game}/next",
    operation_id = "nextPuzzle",
    summary = "A puzzle chosen near the player's rating (of a theme if asked; not `after`, not one attempted before while others are left).",
    params(PuzzleGame, NextQuery),
    responses(
        (status = 200, description = "The puzzle and its steps.", body = PuzzleView),
        (status = 400, description = "A game without a puzzle set, an unknown theme or query field, a malformed body (`unknown_game`, `bad_request`).", body = ErrorBody),
        (status = 500, description = "The database refused a write (`internal`); nothing changed.", body = ErrorBody),
    )
)]
pub(crate) async fn next(
    State(app): State<Arc<Store>>,
    Path(game): Path<String>,
    headers: HeaderMap,
    query: Result<Query<NextQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<PuzzleView>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let set = set(&game)?;
    let player = player_id(&headers);
    let target = player_rating(&app, player.as_deref(), set.game)?.rating;
    let attempted = match &player {
        Some(id) => app.db().puzzles_attempted(id, set.game)?,
        None => Default::default(),
    };
    let ratings = app.db().puzzle_ratings(set.game)?;
    let pool = nearest(
        set,
        query.theme.as_deref(),
        query.after.as_deref(),
        &attempted,
        &ratings,
        target,
    )?;
    let pick = {
        use rand::Rng;
        rand::rng().random_range(0..pool.len().max(1))
    };
    let p = pool
        .get(pick)
        .ok_or_else(|| ApiError::Internal(format!("the {} puzzle set is empty", set.game)))?;
    Ok(Json(view(&app, p, Some(&ratings), None)?))
}

/// The puzzles `GET .../next` chooses among at random: of `theme` (when not empty), not
/// `after`, not one in `attempted` while others are left, the [`NEAREST`] whose ratings (from
/// `ratings`, else their file's) are nearest `target`. An unknown theme is a bad request.
pub fn nearest<'a>(
    set: &'a PuzzleSet,
    theme: Option<&str>,
    after: Option<&str>,
    attempted: &HashSet<String>,
    ratings: &HashMap<String, Rating>,
    target: f64,
) -> Result<Vec<&'a PuzzleRecord>, ApiError> {
    let theme = theme.filter(|t| !t.is_empty());
    if let Some(t) = theme {
        if !set.themes().contains_key(t) {
            return Err(ApiError::BadRequest(format!(
                "no {} puzzle has the theme '{t}' (themes: {})",
                set.game,
                set.themes().keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
    }
    let of_theme = |p: &&PuzzleRecord| theme.map_or(true, |t| p.themes.iter().any(|x| x == t));
    let not_after = |p: &&PuzzleRecord| after != Some(p.id.as_str());
    let mut pool: Vec<&PuzzleRecord> = set
        .puzzles
        .iter()
        .filter(of_theme)
        .filter(not_after)
        .filter(|p| !attempted.contains(&p.id))
        .collect();
    if pool.is_empty() {
        // Every one attempted: any but the one just played.
        pool = set
            .puzzles
            .iter()
            .filter(of_theme)
            .filter(not_after)
            .collect();
    }
    if pool.is_empty() {
        // The theme has one puzzle, the one just played.
        pool = set.puzzles.iter().filter(of_theme).collect();
    }
    let distance = |p: &PuzzleRecord| {
        (ratings.get(&p.id).map_or(p.rating.rating, |r| r.rating) - target).abs()
    };
    pool.sort_by(|a, b| distance(a).total_cmp(&distance(b)));
    pool.truncate(NEAREST);
    Ok(pool)
}

/// `GET /api/puzzles/{game}/daily`: the puzzle of the day (UTC), the same for everyone.
#[cfg(feature = "server")]
#[utoipa::path(
    get,
    path = "/api/puzzles/{game}/daily",
    operation_id = "dailyPuzzle",
    summary = "The puzzle of the day: chosen from the UTC date, the same for everyone all day.",
    params(PuzzleGame),
    responses(
        (status = 200, description = "The puzzle and its steps (`daily`: the date).", body = PuzzleView),
        (status = 400, description = "A game without a puzzle set, an unknown theme or query field, a malformed body (`unknown_game`, `bad_request`).", body = ErrorBody),
        (status = 500, description = "The database refused a write (`internal`); nothing changed.", body = ErrorBody),
    )
)]
pub(crate) async fn daily(
    State(app): State<Arc<Store>>,
    Path(game): Path<String>,
) -> Result<Json<PuzzleView>, ApiError> {
    let set = set(&game)?;
    let day = today();
    let p = set
        .puzzles
        .get(daily_index(set.game, day, set.puzzles.len()))
        .ok_or_else(|| ApiError::Internal(format!("the {} puzzle set is empty", set.game)))?;
    Ok(Json(view(&app, p, None, Some(date_text(day)))?))
}

/// `GET /api/puzzles/{game}/{id}`: one puzzle.
#[cfg(feature = "server")]
#[utoipa::path(
    get,
    path = "/api/puzzles/{game}/{id}",
    operation_id = "getPuzzle",
    summary = "One puzzle and the state at every step of its line.",
    params(PuzzleId),
    responses(
        (status = 200, description = "The puzzle and its steps.", body = PuzzleView),
        (status = 400, description = "A game without a puzzle set, an unknown theme or query field, a malformed body (`unknown_game`, `bad_request`).", body = ErrorBody),
        (status = 404, description = "No puzzle with this id in the game's set (`not_found`).", body = ErrorBody),
        (status = 500, description = "The database refused a write (`internal`); nothing changed.", body = ErrorBody),
    )
)]
pub(crate) async fn get_puzzle(
    State(app): State<Arc<Store>>,
    Path((game, id)): Path<(String, String)>,
) -> Result<Json<PuzzleView>, ApiError> {
    let set = set(&game)?;
    let p = find(set, &id)?;
    Ok(Json(view(&app, p, None, None)?))
}

/// `POST /api/puzzles/{game}/{id}/attempt`: rates the player against the puzzle (Glicko-2, one
/// game: 1 solved, 0.5 solved with a hint, 0 failed) and the puzzle against the player; a
/// player without the cookie gets one.
#[cfg(feature = "server")]
#[utoipa::path(
    post,
    path = "/api/puzzles/{game}/{id}/attempt",
    operation_id = "attemptPuzzle",
    summary = "Records an attempt: the player's and the puzzle's Glicko-2 ratings move (first attempt only).",
    params(PuzzleId),
    request_body(content = AttemptBody, description = "How the attempt went."),
    responses(
        (status = 200, description = "Both ratings before and after; sets the `qiyi_player` cookie when the request had none.", body = AttemptAnswer),
        (status = 400, description = "A game without a puzzle set, an unknown theme or query field, a malformed body (`unknown_game`, `bad_request`).", body = ErrorBody),
        (status = 404, description = "No puzzle with this id in the game's set (`not_found`).", body = ErrorBody),
        (status = 413, description = "The body is larger than `--max-body-kb` (`too_large`).", body = ErrorBody),
        (status = 500, description = "The database refused a write (`internal`); nothing changed.", body = ErrorBody),
    )
)]
pub(crate) async fn attempt(
    State(app): State<Arc<Store>>,
    Path((game, id)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Response, ApiError> {
    let set = set(&game)?;
    let p = find(set, &id)?;
    let body: AttemptBody = read_body(&body)?;
    let (player, fresh) = match player_id(&headers) {
        Some(id) => (id, false),
        None => (crate::tokens::new_token(), true),
    };
    let score = score(&body);
    let rated = app
        .db()
        .record_puzzle_attempt(
            &player,
            set.game,
            &p.id,
            (body.solved, body.hinted),
            Rating::default(),
            p.rating,
            |me, puzzle| SYSTEM.game(me, puzzle, score),
        )?
        .map_err(|e| ApiError::Internal(format!("rating: {e}")))?;
    let answer = AttemptAnswer {
        score,
        rated: rated.rated,
        player: rated.player_after.into(),
        player_before: rated.player_before.into(),
        puzzle: rated.puzzle_after.into(),
        puzzle_before: rated.puzzle_before.into(),
    };
    let mut resp = Json(answer).into_response();
    if fresh {
        let cookie =
            format!("{PLAYER_COOKIE}={player}; Path=/; Max-Age=63072000; SameSite=Lax; HttpOnly");
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            resp.headers_mut().insert(header::SET_COOKIE, v);
        }
    }
    Ok(resp)
}

/// `POST /api/puzzles/{game}/{id}/refute`: a move tried at a step of the line.
#[derive(Debug, Deserialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct RefuteBody {
    /// The index in `solution` of the step (one of `asked`).
    #[serde(deserialize_with = "crate::whole::exact")]
    pub step: usize,
    /// The move tried there, as one of that step's `legal` texts.
    #[serde(rename = "move")]
    pub mv: String,
}

/// What a move tried at an asked step allows, as the puzzle's own judge sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(rename_all = "kebab-case")]
pub enum RefutationKind {
    /// The move is the solution's: nothing to refute.
    Right,
    /// The other side has a reply after which the goal is out of reach (`reply`; Xiangqi: no
    /// mate within the moves left, checkers: less than the shot's gain).
    Reply,
    /// Peg solitaire: after the move the board can no longer be finished.
    NoFinish,
    /// Chinese checkers: after the move the pieces need more than the moves left.
    TooSlow,
    /// Aeroplane: the chosen plane wins less often than the best (`chance`, `best_chance`).
    Chance,
    /// The search ran out of its budget before it found the reply.
    Undecided,
}

/// `POST /api/puzzles/{game}/{id}/refute`: what a wrong move allows.
#[derive(Debug, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)] // for the schema: no other field (`additionalProperties: false`)
pub struct Refutation {
    /// The step of the line the move was tried at.
    pub step: usize,
    /// The move tried.
    #[serde(rename = "move")]
    pub mv: String,
    /// Whether it is the solution's move.
    pub right: bool,
    /// What the move allows.
    pub kind: RefutationKind,
    /// The other side's best reply (`kind` `reply`), as a move text of the state after the move.
    pub reply: Option<String>,
    /// The game after the move tried and, with a reply, after the reply: what the page shows
    /// before it takes them back (Xiangqi and checkers).
    pub states: Vec<Snapshot>,
    /// The player's moves left to reach the goal after the one tried (Xiangqi: the mate no
    /// longer comes within them; Chinese checkers: the pieces are no longer home within them).
    pub moves_left: Option<u32>,
    /// Aeroplane: the exact win chance of the plane chosen.
    pub chance: Option<f64>,
    /// Aeroplane: the exact win chance of the best plane.
    pub best_chance: Option<f64>,
    /// What judged it (`mate search`, `search`, `solver`, `endgame table`).
    pub by: String,
}

/// The node budget of a refutation search (Xiangqi's mate search, checkers' shot search).
pub const REFUTE_BUDGET: u64 = 4_000_000;

/// The game at `step` of `p`'s line, as the server plays it.
fn session_at(
    p: &PuzzleRecord,
    step: usize,
) -> Result<Box<dyn crate::session::GameSession>, ApiError> {
    let broken = |why: String| ApiError::Internal(format!("puzzle {}: {why}", p.id));
    let mut session = crate::games::create(&p.game, &Value::Null, Some(&p.position), 1)
        .map_err(|e| broken(e.to_string()))?;
    for mv in &p.solution[..step] {
        session
            .play(mv)
            .map_err(|e| broken(format!("move {mv}: {e}")))?;
    }
    Ok(session)
}

/// The moves the player has left at `step` (its own moves from there to the end of the line).
fn player_moves_left(p: &PuzzleRecord, step: usize) -> u32 {
    if p.game == "chinese-checkers" {
        return (p.solution.len() - step) as u32;
    }
    // Xiangqi and checkers alternate: the player's moves are every other one.
    (p.solution.len() - step).div_ceil(2) as u32
}

/// What `mv` at `step` of `p` allows (see [`Refutation`]); `mv` must be legal there.
pub fn refute(p: &PuzzleRecord, step: usize, mv: &str) -> Result<Refutation, ApiError> {
    if step >= p.solution.len() {
        return Err(ApiError::BadRequest(format!(
            "step {step} is past the line's {} moves",
            p.solution.len()
        )));
    }
    if !p.asked.contains(&step) {
        return Err(ApiError::BadRequest(format!(
            "step {step} is not one the player is asked (asked: {:?})",
            p.asked
        )));
    }
    let mut answer = Refutation {
        step,
        mv: mv.to_string(),
        right: p.solution[step] == mv,
        kind: RefutationKind::Right,
        reply: None,
        states: Vec::new(),
        moves_left: None,
        chance: None,
        best_chance: None,
        by: match &p.proof {
            qiyi_core::puzzles::Proof::Exact { by, .. } => by.clone(),
            qiyi_core::puzzles::Proof::Engine { .. } => "engine".into(),
            qiyi_core::puzzles::Proof::Estimate { by, .. } => by.clone(),
        },
    };
    // Legal at that step? (Chinese checkers: the page's steps, which put the other player's
    // piece aside, list the same moves.)
    let legal: Vec<String> = if p.game == "chinese-checkers" {
        steps(p)?[step]
            .legal
            .iter()
            .map(|m| m.text.clone())
            .collect()
    } else {
        session_at(p, step)?.legal_texts()
    };
    if !legal.iter().any(|m| m == mv) {
        return Err(ApiError::BadRequest(format!(
            "'{mv}' is not a legal move at step {step} of {} (legal: {})",
            p.id,
            legal.join(", ")
        )));
    }
    if answer.right {
        return Ok(answer);
    }
    match p.game.as_str() {
        "xiangqi" => refute_xiangqi(p, step, mv, &mut answer)?,
        "checkers" => refute_checkers(p, step, mv, &mut answer)?,
        "peg-solitaire" => {
            // The proof: every other legal jump was proven unsolvable by the solver.
            answer.kind = RefutationKind::NoFinish;
        }
        "chinese-checkers" => {
            // The proof: every other move at an asked step needs more than the moves left.
            answer.kind = RefutationKind::TooSlow;
            answer.moves_left = Some(player_moves_left(p, step));
        }
        "aeroplane" => {
            let c = chances(p).ok_or_else(|| {
                ApiError::Internal(format!("puzzle {}: no recorded chances", p.id))
            })?;
            answer.kind = RefutationKind::Chance;
            answer.chance = c.get(mv).copied();
            answer.best_chance = c.get(&p.solution[step]).copied();
        }
        other => {
            return Err(ApiError::Internal(format!("no refutation for {other}")));
        }
    }
    Ok(answer)
}

/// Plays `mv` and then `reply` (when given) on the game at `step`: the states after each.
fn states_after(
    p: &PuzzleRecord,
    step: usize,
    mv: &str,
    reply: Option<&str>,
) -> Result<Vec<Snapshot>, ApiError> {
    let mut session = session_at(p, step)?;
    session.play(mv)?;
    let mut out = vec![session.snapshot()];
    if let Some(r) = reply {
        session.play(r)?;
        out.push(session.snapshot());
    }
    Ok(out)
}

/// Xiangqi: the mate search of the miner, `k` attacker moves left: a reply after which no mate
/// comes within `k - 1`; for a material puzzle, the engine's best reply at the proof's depth.
fn refute_xiangqi(
    p: &PuzzleRecord,
    step: usize,
    mv: &str,
    answer: &mut Refutation,
) -> Result<(), ApiError> {
    use qiyi_xiangqi::puzzles::MateSearch;
    use qiyi_xiangqi::Position;
    let broken = |why: String| ApiError::Internal(format!("puzzle {}: {why}", p.id));
    let mut pos = Position::from_fen(&p.position)
        .map_err(|e| broken(e.to_string()))?
        .played_on();
    for text in &p.solution[..step] {
        let m = pos
            .parse_move_text(text)
            .map_err(|e| broken(e.to_string()))?;
        pos.make(m);
    }
    let m = pos
        .parse_move_text(mv)
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    pos.make(m);
    let after = session_at(p, step).and_then(|mut s| {
        s.play(mv)?;
        Ok(s.legal_texts())
    })?;
    let reply = if let qiyi_core::puzzles::Proof::Engine { depth, .. } = p.proof {
        // A material puzzle: the engine's best reply at the proof's depth, which keeps the
        // material the solution wins (the proof: every other move scores at least the margin
        // less).
        qiyi_xiangqi::puzzles::material::best_reply(&pos, depth).map(|(r, _)| r)
    } else {
        let k = player_moves_left(p, step);
        answer.moves_left = Some(k);
        let mut search = MateSearch::new(REFUTE_BUDGET);
        let mut found = None;
        let replies = pos.legal_move_list();
        for &r in replies.as_slice() {
            let mut next = pos.clone();
            next.make(r);
            let escapes = if !next.any_attacker() || k <= 1 {
                true
            } else {
                match search.wins_within(&mut next, k - 1) {
                    Ok(won) => !won,
                    Err(_) => {
                        answer.kind = RefutationKind::Undecided;
                        return Ok(());
                    }
                }
            };
            if escapes {
                found = Some(r);
                break;
            }
        }
        found
    };
    let Some(r) = reply else {
        // No reply at all (material), or every reply loses in time (mate): the move wins too
        // (the puzzle's check says a mate puzzle cannot have such a move).
        answer.kind = RefutationKind::Right;
        answer.right = true;
        return Ok(());
    };
    let text = after
        .into_iter()
        .find(|t| pos.parse_move_text(t).is_ok_and(|x| x == r))
        .ok_or_else(|| broken(format!("reply {r} has no move text")))?;
    answer.kind = RefutationKind::Reply;
    answer.states = states_after(p, step, mv, Some(&text))?;
    answer.reply = Some(text);
    Ok(())
}

/// Checkers: the shot search of the miner (without the endgame database): the reply that
/// leaves the player least within the line's plies left.
fn refute_checkers(
    p: &PuzzleRecord,
    step: usize,
    mv: &str,
    answer: &mut Refutation,
) -> Result<(), ApiError> {
    use qiyi_checkers::notation::{board_from_fen, parse_move};
    use qiyi_checkers::puzzles::ShotSearch;
    let broken = |why: String| ApiError::Internal(format!("puzzle {}: {why}", p.id));
    let mut b = board_from_fen(&p.position).map_err(|e| broken(e.to_string()))?;
    for text in &p.solution[..step] {
        let m = parse_move(&b, text).map_err(|e| broken(e.to_string()))?;
        b.make(m);
    }
    let m = parse_move(&b, mv).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let after = b.play(m);
    // The line's full-width plies: 2n - 1 for a shot in n moves.
    let n = p
        .goal
        .as_deref()
        .and_then(|g| g.rsplit_once(" in "))
        .and_then(|(_, r)| r.split_whitespace().next())
        .and_then(|x| x.parse::<u32>().ok())
        .unwrap_or_else(|| p.solution.len().div_ceil(2) as u32);
    let rem = (2 * n).saturating_sub(1).saturating_sub(step as u32);
    answer.by = "search".into();
    let mut search = ShotSearch::new(None, 0, REFUTE_BUDGET);
    let mut replies = Vec::new();
    after.generate(&mut replies);
    if replies.is_empty() {
        // The move leaves the other side without a move: it wins outright.
        answer.right = true;
        return Ok(());
    }
    let mut best: Option<(i32, qiyi_checkers::movegen::Move)> = None;
    for r in replies {
        // The player's value after the reply: the reply's owner wants it lowest.
        let v = match search.value(
            &after.play(r),
            rem.saturating_sub(2),
            -qiyi_checkers::puzzles::WIN - 1,
            qiyi_checkers::puzzles::WIN + 1,
        ) {
            Ok(v) => v,
            Err(_) => {
                answer.kind = RefutationKind::Undecided;
                return Ok(());
            }
        };
        if best.map_or(true, |(bv, _)| v < bv) {
            best = Some((v, r));
        }
    }
    let Some((_, r)) = best else {
        return Ok(());
    };
    let target = after.play(r);
    let mut session = session_at(p, step)?;
    session.play(mv)?;
    let text = session
        .legal_texts()
        .into_iter()
        .find(|t| parse_move(&after, t).is_ok_and(|x| after.play(x) == target))
        .ok_or_else(|| broken("the reply has no move text".into()))?;
    answer.kind = RefutationKind::Reply;
    answer.states = states_after(p, step, mv, Some(&text))?;
    answer.reply = Some(text);
    Ok(())
}

/// `POST /api/puzzles/{game}/{id}/refute`: what a move tried at an asked step allows, judged
/// as the puzzle was proven (mate search, shot search, solver proof, exact win chances).
#[cfg(feature = "server")]
#[utoipa::path(
    post,
    path = "/api/puzzles/{game}/{id}/refute",
    operation_id = "refutePuzzleMove",
    summary = "What a wrong move allows: the best reply (Xiangqi, checkers), no finish (peg solitaire), too slow (Chinese checkers), or its win chance against the best (aeroplane).",
    params(PuzzleId),
    request_body(content = RefuteBody, description = "The step and the move tried."),
    responses(
        (status = 200, description = "The refutation (`right` when the move is the solution's).", body = Refutation),
        (status = 400, description = "A game without a puzzle set, a step not asked, a move not legal there, a malformed body (`unknown_game`, `bad_request`).", body = ErrorBody),
        (status = 404, description = "No puzzle with this id in the game's set (`not_found`).", body = ErrorBody),
        (status = 413, description = "The body is larger than `--max-body-kb` (`too_large`).", body = ErrorBody),
        (status = 500, description = "The puzzle cannot be replayed (`internal`).", body = ErrorBody),
    )
)]
pub(crate) async fn refute_move(
    Path((game, id)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Refutation>, ApiError> {
    let set = set(&game)?;
    let p = find(set, &id)?;
    let body: RefuteBody = read_body(&body)?;
    let answer = tokio::task::spawn_blocking(move || refute(p, body.step, &body.mv))
        .await
        .map_err(|e| ApiError::Internal(format!("refutation: {e}")))??;
    Ok(Json(answer))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_day_is_deterministic_and_moves() {
        let a = daily_index("xiangqi", 20_000, 1038);
        assert_eq!(a, daily_index("xiangqi", 20_000, 1038));
        let days: std::collections::HashSet<usize> = (0..30)
            .map(|d| daily_index("xiangqi", 20_000 + d, 1038))
            .collect();
        assert!(days.len() > 20, "{days:?}");
        assert_eq!(daily_index("x", 1, 0), 0);
        assert_eq!(date_text(0), "1970-01-01");
        assert_eq!(date_text(20_429), "2025-12-07");
        assert_eq!(date_text(11_016), "2000-02-29");
    }

    #[test]
    #[cfg(feature = "server")]
    fn cookies_are_read_strictly() {
        let mut h = HeaderMap::new();
        assert_eq!(player_id(&h), None);
        h.insert(
            header::COOKIE,
            HeaderValue::from_static("a=b; qiyi_player=0123456789ABCDEF0123456789abcdef"),
        );
        assert_eq!(
            player_id(&h).as_deref(),
            Some("0123456789abcdef0123456789abcdef")
        );
        h.insert(header::COOKIE, HeaderValue::from_static("qiyi_player=../x"));
        assert_eq!(player_id(&h), None);
    }
}
