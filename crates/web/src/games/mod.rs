//! The games the server offers: a catalog entry per game and the code that starts one.

pub mod aeroplane;
pub mod checkers;
pub mod chinese_checkers;
pub mod peg;
pub mod toys;
pub mod xiangqi;

use crate::error::ApiError;
use crate::generic::Session;
use crate::session::{GameSession, HistoryEntry};
use qiyi_core::Notation;
use serde::Serialize;
use serde_json::Value;

/// One rule option the page offers when starting a game.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct RuleOption {
    /// Key in the `rules` object of `POST /api/games`.
    #[cfg_attr(feature = "server", schema(value_type = String))]
    pub key: &'static str,
    /// What it means.
    #[cfg_attr(feature = "server", schema(value_type = String))]
    pub label: &'static str,
    /// The values allowed (as JSON); empty: free text.
    pub choices: Vec<Value>,
    /// The value used when the key is absent.
    pub default: Value,
}

/// A game the server can start.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct CatalogEntry {
    /// API name.
    #[cfg_attr(feature = "server", schema(value_type = String))]
    pub game: &'static str,
    /// Title for people.
    #[cfg_attr(feature = "server", schema(value_type = String))]
    pub title: &'static str,
    /// One line about the game.
    #[cfg_attr(feature = "server", schema(value_type = String))]
    pub about: &'static str,
    /// Rule options.
    pub options: Vec<RuleOption>,
    /// Whether `POST /solve` works for this game.
    pub solver: bool,
    /// Whether the home page lists it (core's toys are reachable at `/play/{game}` but not listed).
    pub listed: bool,
}

/// Every game the server knows.
pub fn catalog() -> Vec<CatalogEntry> {
    vec![
        CatalogEntry {
            game: "xiangqi",
            title: "Xiangqi 象棋",
            about:
                "Chinese chess: traditional pieces, check highlight, Chinese and ICCS move lists",
            options: vec![],
            solver: false,
            listed: true,
        },
        CatalogEntry {
            game: "checkers",
            title: "English checkers",
            about: "WCDF rules on the 8x8 board; multi-jumps by clicking each landing square",
            options: vec![],
            solver: false,
            listed: true,
        },
        CatalogEntry {
            game: "chinese-checkers",
            title: "Chinese checkers",
            about: "the 121-hole star for 2, 3, 4 or 6 players; hop chains drawn as paths",
            options: vec![
                RuleOption {
                    key: "players",
                    label: "players",
                    choices: [2, 3, 4, 6].into_iter().map(Value::from).collect(),
                    default: Value::from(2),
                },
                RuleOption {
                    key: "anti_spoil",
                    label: "anti-spoiling rule",
                    choices: vec![Value::from(true), Value::from(false)],
                    default: Value::from(true),
                },
            ],
            solver: false,
            listed: true,
        },
        CatalogEntry {
            game: "peg-solitaire",
            title: "Peg solitaire",
            about: "choose a board and a start hole, play, or let the solver finish it",
            options: vec![
                RuleOption {
                    key: "board",
                    label: "board",
                    choices: ["english", "french", "wiegleb", "diamond", "triangle"]
                        .into_iter()
                        .map(Value::from)
                        .collect(),
                    default: Value::from("english"),
                },
                RuleOption {
                    key: "start",
                    label: "start hole (empty: the usual one)",
                    choices: vec![],
                    default: Value::from(""),
                },
            ],
            solver: true,
            listed: true,
        },
        CatalogEntry {
            game: "aeroplane",
            title: "Aeroplane chess 飞行棋",
            about: "2-4 players, dice, planes that can move highlighted, hit chances on hover",
            options: vec![
                RuleOption {
                    key: "players",
                    label: "players",
                    choices: [2, 3, 4].into_iter().map(Value::from).collect(),
                    default: Value::from(4),
                },
                RuleOption {
                    key: "set",
                    label: "rule set",
                    choices: vec![Value::from("standard"), Value::from("seed")],
                    default: Value::from("standard"),
                },
                RuleOption {
                    key: "takeoff",
                    label: "take off on",
                    choices: vec![Value::from("6"), Value::from("5-6"), Value::from("even")],
                    default: Value::from("6"),
                },
                RuleOption {
                    key: "three_sixes",
                    label: "three sixes",
                    choices: vec![
                        Value::from("send-back"),
                        Value::from("lose-turn"),
                        Value::from("none"),
                    ],
                    default: Value::from("send-back"),
                },
                RuleOption {
                    key: "ending",
                    label: "ending",
                    choices: vec![Value::from("first-wins"), Value::from("play-on")],
                    default: Value::from("first-wins"),
                },
            ],
            solver: false,
            listed: true,
        },
        CatalogEntry {
            game: "tictactoe",
            title: "Tic-tac-toe",
            about: "core's toy game: three in a row",
            options: vec![],
            solver: false,
            listed: false,
        },
        CatalogEntry {
            game: "nim",
            title: "Nim",
            about: "core's toy game: take stones, the last stone wins",
            options: vec![RuleOption {
                key: "heaps",
                label: "heaps",
                choices: vec![
                    Value::from("3-4-5"),
                    Value::from("1-3-5-7"),
                    Value::from("2-5-7-9"),
                ],
                default: Value::from("3-4-5"),
            }],
            solver: false,
            listed: false,
        },
    ]
}

/// Older names still accepted for a game, each with the one name the game has everywhere now.
pub const ALIASES: &[(&str, &str)] = &[("peg", "peg-solitaire")];

/// The name `game` goes by: itself, or the game an old alias in [`ALIASES`] stands for.
pub fn canonical(game: &str) -> &str {
    ALIASES
        .iter()
        .find(|(alias, _)| *alias == game)
        .map_or(game, |(_, name)| name)
}

/// The names of every game, for error messages.
pub fn names() -> String {
    catalog()
        .iter()
        .map(|c| c.game)
        .collect::<Vec<_>>()
        .join(", ")
}

fn option_str<'a>(rules: &'a Value, key: &str, default: &'a str) -> Result<&'a str, ApiError> {
    match rules.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(ApiError::BadRequest(format!(
            "rules.{key} must be a string, not {other}"
        ))),
    }
}

fn option_u64(rules: &Value, key: &str, default: u64) -> Result<u64, ApiError> {
    match rules.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v.as_u64().ok_or_else(|| {
            ApiError::BadRequest(format!("rules.{key} must be a whole number, not {v}"))
        }),
    }
}

fn option_bool(rules: &Value, key: &str, default: bool) -> Result<bool, ApiError> {
    match rules.get(key) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v.as_bool().ok_or_else(|| {
            ApiError::BadRequest(format!("rules.{key} must be true or false, not {v}"))
        }),
    }
}

fn parse_position<G: Notation>(text: &str) -> Result<G, ApiError> {
    G::from_text(text).map_err(|e| ApiError::BadRequest(format!("bad position '{text}': {e}")))
}

/// Starts `game` (its name or an old alias) with the `rules` options (a JSON object), from `position` when given.
pub fn create(
    game: &str,
    rules: &Value,
    position: Option<&str>,
    seed: u64,
) -> Result<Box<dyn GameSession>, ApiError> {
    if !(rules.is_object() || rules.is_null()) {
        return Err(ApiError::BadRequest("rules must be a JSON object".into()));
    }
    match canonical(game) {
        "xiangqi" => {
            let pos = match position {
                Some(text) => parse_position(text)?,
                None => qiyi_xiangqi::Position::start(),
            };
            Ok(Box::new(Session::new(xiangqi::XiangqiAdapter, pos, seed)))
        }
        "checkers" => {
            let pos = match position {
                Some(text) => parse_position(text)?,
                None => qiyi_checkers::Checkers::start(),
            };
            Ok(Box::new(Session::new(checkers::CheckersAdapter, pos, seed)))
        }
        "chinese-checkers" => {
            let pos = match position {
                Some(text) => parse_position(text)?,
                None => {
                    let players = option_u64(rules, "players", 2)?;
                    let mut options = qiyi_chinese_checkers::Options::players(players as usize)
                        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
                    options.anti_spoil = option_bool(rules, "anti_spoil", true)?;
                    qiyi_chinese_checkers::Position::start(options)
                        .map_err(|e| ApiError::BadRequest(e.to_string()))?
                }
            };
            let adapter = chinese_checkers::ChineseCheckersAdapter {
                options: *pos.options(),
            };
            Ok(Box::new(Session::new(adapter, pos, seed)))
        }
        "aeroplane" => {
            let pos = match position {
                Some(text) => parse_position(text)?,
                None => {
                    let rules = aeroplane::rules_from(
                        option_str(rules, "set", "standard")?,
                        option_str(rules, "takeoff", "6")?,
                        option_str(rules, "three_sixes", "send-back")?,
                        option_str(rules, "ending", "first-wins")?,
                    )
                    .and_then(|r| {
                        let players = option_u64(rules, "players", 4)?;
                        qiyi_aeroplane::Aero::new(r, players as usize)
                            .map_err(|e| ApiError::BadRequest(e.to_string()))
                    })?;
                    rules
                }
            };
            let adapter = aeroplane::AeroplaneAdapter { rules: pos.rules() };
            Ok(Box::new(Session::new(adapter, pos, seed)))
        }
        "peg-solitaire" => {
            let board = option_str(rules, "board", "english")?;
            let start = option_str(rules, "start", "")?.trim();
            let start = (!start.is_empty() && start != "default").then_some(start);
            let (adapter, pos) = match position {
                Some(text) => {
                    let pos: qiyi_peg_solitaire::PegPosition = parse_position(text)?;
                    (peg::PegAdapter::for_position(&pos), pos)
                }
                None => peg::PegAdapter::start(board, start)?,
            };
            Ok(Box::new(Session::new(adapter, pos, seed)))
        }
        "tictactoe" => {
            let pos = match position {
                Some(text) => parse_position(text)?,
                None => Default::default(),
            };
            Ok(Box::new(Session::new(toys::TicTacToeAdapter, pos, seed)))
        }
        "nim" => {
            let heaps = option_str(rules, "heaps", "3-4-5")?;
            let text = match position {
                Some(text) => text.to_string(),
                None => format!("{heaps} 0"),
            };
            let pos = parse_position(&text)?;
            Ok(Box::new(Session::new(toys::NimAdapter, pos, seed)))
        }
        other => Err(ApiError::UnknownGame(other.to_string(), names())),
    }
}

/// `game` as it stood after `n` plies of `history` (its record), rebuilt from its start: the
/// player moves are played again and the die rolls after them follow from `seed`.
pub fn replay(
    game: &str,
    rules: &Value,
    position: Option<&str>,
    seed: u64,
    history: &[HistoryEntry],
    n: usize,
) -> Result<Box<dyn GameSession>, ApiError> {
    let mut session = create(game, rules, position, seed)?;
    for h in history {
        if h.ply > n {
            break;
        }
        if h.player.is_some() && session.ply() + 1 == h.ply {
            session.play(&h.text)?;
        }
    }
    Ok(session)
}
