//! Game records in each field's file format: export (`GET /api/games/{id}/export`, `qiyi games
//! export`) and import (`POST /api/games/import`).
//!
//! - Xiangqi: PGN as XQ programs read it (`[Game "Chinese Chess"]`, a `[FEN]` tag, `[Format]`
//!   `ICCS` with `H2-E2` moves or `WXF` with `C2.5` moves).
//! - Checkers: PDN (written and read by `qiyi_checkers::pdn`).
//! - The others: the JSON record (game, rules, start, seed, every move and die roll).

use crate::error::ApiError;
use crate::games;
use crate::session::{GameResult, Seat};
use crate::store::{GameEntry, NewGame};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

/// A record ready to send.
pub struct Exported {
    /// MIME type.
    pub content_type: &'static str,
    /// File name extension.
    pub extension: &'static str,
    /// The file.
    pub text: String,
}

/// The civil date (`YYYY.MM.DD`) of a Unix time (days-to-civil algorithm of H. Hinnant).
pub fn pgn_date(unix_seconds: i64) -> String {
    let z = unix_seconds.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn result_token(result: Option<&GameResult>) -> &'static str {
    match result {
        None => "*",
        Some(r) => match r.winner {
            Some(0) => "1-0",
            Some(_) => "0-1",
            None => "1/2-1/2",
        },
    }
}

fn seat_name(seat: &Seat) -> String {
    match seat {
        Seat::Human => "human".into(),
        Seat::Ai { level } => format!("qiyi AI level {level}"),
        Seat::Seed => "qiyi seed player".into(),
    }
}

/// Xiangqi as PGN: ICCS (`H2-E2`, default) or WXF moves.
pub fn xiangqi_pgn(
    start_fen: Option<&str>,
    moves: &[String],
    tags: &[(&str, String)],
    result: &str,
    wxf: bool,
) -> Result<String, ApiError> {
    let start = match start_fen {
        Some(f) => qiyi_xiangqi::Position::from_fen(f)
            .map_err(|e| ApiError::Internal(format!("stored start position: {e}")))?,
        None => qiyi_xiangqi::Position::start(),
    };
    let mut out = String::new();
    out.push_str("[Game \"Chinese Chess\"]\n");
    for (k, v) in tags {
        out.push_str(&format!("[{k} \"{}\"]\n", qiyi_core::record::escape_tag(v)));
    }
    out.push_str(&format!("[Result \"{result}\"]\n"));
    out.push_str(&format!("[FEN \"{}\"]\n", start.to_fen()));
    out.push_str(&format!(
        "[Format \"{}\"]\n\n",
        if wxf { "WXF" } else { "ICCS" }
    ));
    let mut pos = start;
    let mut tokens = Vec::new();
    let red_first = pos.to_fen().split_whitespace().nth(1) != Some("b");
    let mut number = 1;
    for (i, text) in moves.iter().enumerate() {
        let mv = pos
            .parse_move_text(text)
            .map_err(|e| ApiError::Internal(format!("stored move {text}: {e}")))?;
        let red = (i % 2 == 0) == red_first;
        if red {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        let written = if wxf {
            pos.move_to_wxf(mv)
        } else {
            let t = text.to_ascii_uppercase();
            if t.len() == 4 {
                format!("{}-{}", &t[..2], &t[2..])
            } else {
                t
            }
        };
        tokens.push(written);
        if !red {
            number += 1;
        }
        pos.make(mv);
    }
    tokens.push(result.to_string());
    out.push_str(&qiyi_core::record::wrap_movetext(&tokens));
    Ok(out)
}

/// The player moves of a game (die rolls left out: they follow from the seed).
fn player_moves(entry: &GameEntry) -> Vec<String> {
    entry
        .session
        .history_from(0)
        .into_iter()
        .filter(|h| h.player.is_some())
        .map(|h| h.text)
        .collect()
}

/// The record of a game in its field's format (`moves`: `wxf` for Xiangqi WXF moves).
pub fn export(entry: &GameEntry, moves: Option<&str>) -> Result<Exported, ApiError> {
    let result = entry.result();
    let token = result_token(result.as_ref());
    let date = pgn_date(entry.created);
    match entry.session.game() {
        "xiangqi" => {
            let wxf = match moves.unwrap_or("iccs") {
                "iccs" => false,
                "wxf" => true,
                other => {
                    return Err(ApiError::BadRequest(format!(
                        "moves must be iccs or wxf, not '{other}'"
                    )))
                }
            };
            let tags = [
                ("Event", "qiyi game".to_string()),
                ("Site", format!("qiyi serve, game {}", entry.id)),
                ("Date", date),
                ("Red", seat_name(&entry.seats[0])),
                ("Black", seat_name(&entry.seats[1])),
            ];
            let text = xiangqi_pgn(
                entry.position.as_deref(),
                &player_moves(entry),
                &tags,
                token,
                wxf,
            )?;
            Ok(Exported {
                content_type: "application/x-chess-pgn; charset=utf-8",
                extension: "pgn",
                text,
            })
        }
        "checkers" => {
            let start = match &entry.position {
                Some(f) => qiyi_checkers::notation::board_from_fen(f)
                    .map_err(|e| ApiError::Internal(format!("stored start position: {e}")))?,
                None => qiyi_checkers::Board::start(),
            };
            let mut game = qiyi_checkers::PdnGame::new(start);
            game.tags = vec![
                ("Event".into(), "qiyi game".into()),
                ("Site".into(), format!("qiyi serve, game {}", entry.id)),
                ("Date".into(), date),
                ("Black".into(), seat_name(&entry.seats[0])),
                ("White".into(), seat_name(&entry.seats[1])),
                ("Result".into(), token.into()),
            ];
            let mut board = start;
            for text in player_moves(entry) {
                let mv = qiyi_checkers::notation::parse_move(&board, &text)
                    .map_err(|e| ApiError::Internal(format!("stored move {text}: {e}")))?;
                board = board.play(mv);
                game.moves.push(mv);
            }
            game.result = match token {
                "1-0" => qiyi_checkers::GameResult::BlackWins,
                "0-1" => qiyi_checkers::GameResult::WhiteWins,
                "1/2-1/2" => qiyi_checkers::GameResult::Draw,
                _ => qiyi_checkers::GameResult::Unknown,
            };
            Ok(Exported {
                content_type: "application/x-pdn; charset=utf-8",
                extension: "pdn",
                text: game.to_pdn(),
            })
        }
        _ => {
            let record = JsonRecordOut {
                format: RECORD_FORMAT,
                version: 1,
                game: entry.session.game(),
                rules: entry.rules.clone(),
                position: entry.position.clone(),
                seed: entry.seed,
                seats: entry.seats.clone(),
                created: entry.created,
                moves: entry
                    .session
                    .history_from(0)
                    .into_iter()
                    .map(|h| RecordMove {
                        ply: h.ply,
                        player: h.player,
                        text: h.text,
                    })
                    .collect(),
                resigned: entry.resigned.clone(),
                result,
            };
            let text = serde_json::to_string_pretty(&record)
                .map_err(|e| ApiError::Internal(e.to_string()))?;
            Ok(Exported {
                content_type: "application/json",
                extension: "json",
                text,
            })
        }
    }
}

/// The `format` of a qiyi JSON record.
pub const RECORD_FORMAT: &str = "qiyi-record";

/// A qiyi JSON record as exported (games without PGN or PDN); `POST /api/games/import` reads it
/// back.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = JsonRecord)]
pub struct JsonRecordOut {
    /// Always `qiyi-record`.
    #[schema(value_type = String, pattern = "^qiyi-record$")]
    pub format: &'static str,
    /// The record format's version (1).
    pub version: u32,
    /// The game's API name.
    #[schema(value_type = String)]
    pub game: &'static str,
    /// The rule options the game was created with.
    #[schema(value_type = Object)]
    pub rules: Value,
    /// The starting position, when not the game's usual one.
    pub position: Option<String>,
    /// Seed of every random choice (dice).
    pub seed: u64,
    /// Who sat in each seat.
    pub seats: Vec<Seat>,
    /// Seconds since the epoch at creation.
    pub created: i64,
    /// The moves, die rolls included (`player` `null`).
    pub moves: Vec<RecordMove>,
    /// Seats that resigned from a game of more than two players.
    pub resigned: Vec<crate::db::Resignation>,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
}

/// A move of an exported JSON record.
#[derive(Serialize, utoipa::ToSchema)]
pub struct RecordMove {
    /// Ply number from 1.
    pub ply: usize,
    /// Who chose it (`null` for a die roll).
    pub player: Option<usize>,
    /// The move in the game's notation.
    pub text: String,
}

/// A move of an imported JSON record: its text, or an object with `text` and `player` (`null`
/// marks a die roll, which the seed replays).
#[derive(Deserialize)]
#[serde(untagged)]
enum JsonMove {
    Text(String),
    Entry {
        text: String,
        #[serde(default)]
        player: Option<usize>,
        #[serde(default, rename = "ply")]
        _ply: Option<usize>,
    },
}

#[derive(Deserialize)]
struct JsonRecord {
    game: String,
    #[serde(default)]
    rules: Value,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    seed: Option<u64>,
    moves: Vec<JsonMove>,
}

/// The tags and moves of a PGN game (comments, variations and move numbers skipped).
pub fn read_pgn(text: &str) -> (Vec<(String, String)>, Vec<String>) {
    let mut tags = Vec::new();
    let mut body = String::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(inner) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
            if let Some((k, v)) = inner.split_once(' ') {
                let v = v.trim().trim_matches('"').replace("\\\"", "\"");
                tags.push((k.to_string(), v));
            }
        } else {
            body.push_str(t);
            body.push(' ');
        }
    }
    let mut moves = Vec::new();
    let mut depth_brace = 0usize;
    let mut depth_paren = 0usize;
    let mut token = String::new();
    let flush = |token: &mut String, moves: &mut Vec<String>| {
        let raw = std::mem::take(token);
        let is_result = matches!(raw.as_str(), "1-0" | "0-1" | "1/2-1/2" | "*");
        let t = raw.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        let t = t.trim_end_matches(['!', '?', '+', '#']);
        if !t.is_empty() && !is_result && !t.starts_with('$') {
            moves.push(t.to_string());
        }
    };
    for c in body.chars() {
        match c {
            '{' => depth_brace += 1,
            '}' => depth_brace = depth_brace.saturating_sub(1),
            '(' if depth_brace == 0 => depth_paren += 1,
            ')' if depth_brace == 0 => depth_paren = depth_paren.saturating_sub(1),
            _ if depth_brace > 0 || depth_paren > 0 => {}
            c if c.is_whitespace() => flush(&mut token, &mut moves),
            c => token.push(c),
        }
    }
    flush(&mut token, &mut moves);
    (tags, moves)
}

/// A game to review from a record (PGN, PDN or JSON): every seat human, hot-seat.
pub fn import(text: &str) -> Result<NewGame, ApiError> {
    let bad = |why: String| ApiError::BadRequest(format!("cannot import the record: {why}"));
    let trimmed = text.trim_start();
    let (game, rules, position, seed, moves): (String, Value, Option<String>, u64, Vec<String>) =
        if trimmed.starts_with('{') {
            let record: JsonRecord =
                serde_json::from_str(text).map_err(|e| bad(format!("bad JSON record: {e}")))?;
            let moves = record
                .moves
                .into_iter()
                .filter_map(|m| match m {
                    JsonMove::Text(t) => Some(t),
                    JsonMove::Entry { text, player, .. } => player.map(|_| text),
                })
                .collect();
            let rules = if record.rules.is_null() {
                json!({})
            } else {
                record.rules
            };
            (
                record.game,
                rules,
                record.position,
                record.seed.unwrap_or(1),
                moves,
            )
        } else if trimmed.starts_with('[') || !trimmed.is_empty() {
            let (tags, moves) = read_pgn(text);
            let tag = |k: &str| tags.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
            let xiangqi = tag("Game").is_some_and(|g| g.to_ascii_lowercase().contains("chinese"))
                || tag("Format").is_some();
            if xiangqi {
                ("xiangqi".into(), json!({}), tag("FEN"), 1, moves)
            } else {
                let pdn = qiyi_checkers::pdn::read_pdn_game(text)
                    .map_err(|e| bad(format!("not a Xiangqi PGN nor a checkers PDN: {e}")))?;
                let start = qiyi_checkers::notation::board_to_fen(&pdn.start);
                let moves = pdn
                    .moves
                    .iter()
                    .map(qiyi_checkers::notation::move_to_pdn)
                    .collect();
                let position = (pdn.start != qiyi_checkers::Board::start()).then_some(start);
                ("checkers".into(), json!({}), position, 1, moves)
            }
        } else {
            return Err(bad("the record is empty".into()));
        };
    if moves.len() > 100_000 {
        return Err(bad("more than 100000 moves".into()));
    }
    let mut session = games::create(&game, &rules, position.as_deref(), seed)?;
    for (i, mv) in moves.iter().enumerate() {
        session
            .play(mv)
            .map_err(|e| bad(format!("move {} ({mv}): {e}", i + 1)))?;
    }
    let players = session.snapshot().players;
    Ok(NewGame {
        scratch: false,
        session,
        seats: vec![Seat::Human; players],
        seed,
        rules,
        position,
        hotseat: true,
        clock: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_764_547_200), "2025.12.01");
    }

    #[test]
    fn pgn_reader_skips_numbers_comments_and_variations() {
        let (tags, moves) = read_pgn(
            "[Game \"Chinese Chess\"]\n[FEN \"x\"]\n\n1. H2-E2 {centre cannon} H9-G7 (1... h7e7) 2. h0g2 1-0\n",
        );
        assert_eq!(tags[1], ("FEN".to_string(), "x".to_string()));
        assert_eq!(moves, vec!["H2-E2", "H9-G7", "h0g2"]);
    }
}
