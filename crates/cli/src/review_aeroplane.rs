//! `qiyi review aeroplane`: the win-chance judge of [`qiyi_aeroplane::review`] on the JSON
//! record `qiyi games export` writes (every move and die roll as texts: `r1`..`r6`, `a`..`d`),
//! on the crate's own game record ([`qiyi_aeroplane::record::GameRecord`]: rules, players, seed,
//! rolls, choices), or on a bare JSON list of move texts (four players, standard rules).

use anyhow::{anyhow, bail};
use qiyi_aeroplane::record::GameRecord;
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Notation, Turn};
use serde_json::Value;

use crate::common::{progress, Global};
use crate::review::print_review;

/// Reviews the aeroplane record `text` and prints the review.
pub fn run(g: &Global, text: &str) -> anyhow::Result<()> {
    let (start, moves) = aeroplane_record(text)?;
    let bar = progress(moves.len() as u64, "review");
    let review = qiyi_aeroplane::review::review_game(&start, &moves, |done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    print_review(g, &review, 1)
}

/// The start position of a server record: its `position` text, else its `rules` options (the
/// ones `POST /api/games` takes: `players`, `set`, `takeoff`, `three_sixes`, `ending`).
fn start_of(rules: &Value, position: Option<&str>) -> anyhow::Result<Aero> {
    if let Some(p) = position {
        return Aero::from_text(p).map_err(|e| anyhow!("bad position: {e}"));
    }
    let text = |key: &str, default: &'static str| -> anyhow::Result<String> {
        match rules.get(key) {
            None | Some(Value::Null) => Ok(default.to_string()),
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => bail!("rules.{key} must be a string, not {other}"),
        }
    };
    let r: Rules = qiyi_web::games::aeroplane::rules_from(
        &text("set", "standard")?,
        &text("takeoff", "6")?,
        &text("three_sixes", "send-back")?,
        &text("ending", "first-wins")?,
    )?;
    let players = match rules.get("players") {
        None | Some(Value::Null) => 4,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| anyhow!("rules.players must be a whole number, not {v}"))?,
    };
    Ok(Aero::new(
        r,
        usize::try_from(players).unwrap_or(usize::MAX),
    )?)
}

/// Reads an aeroplane record into its start and its moves (rolls and choices in order).
fn aeroplane_record(text: &str) -> anyhow::Result<(Aero, Vec<AeroMove>)> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| anyhow!("the record is not JSON: {e}"))?;
    let (start, moves) = match &v {
        Value::Array(moves) => (Aero::new(Rules::STANDARD, 4)?, moves.clone()),
        Value::Object(o) => {
            if let Some(kind) = o.get("game").and_then(Value::as_str) {
                if kind != "aeroplane" {
                    bail!("the record is a {kind} game, not aeroplane");
                }
            }
            if o.contains_key("rolls") && o.contains_key("choices") {
                // The crate's own record: replayed (and checked against its seed's dice).
                let rec = GameRecord::from_json(text)?;
                return Ok(rec.moves()?);
            }
            let moves = match o.get("moves") {
                Some(Value::Array(m)) => m.clone(),
                Some(_) => bail!("the record's \"moves\" is not a list"),
                None => bail!("the record has no \"moves\""),
            };
            let rules = o.get("rules").cloned().unwrap_or(Value::Null);
            let position = o.get("position").and_then(Value::as_str);
            (start_of(&rules, position)?, moves)
        }
        _ => bail!("the record is neither a JSON object nor a list of moves"),
    };
    let mut pos = start;
    let mut out = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let (t, player) = match m {
            Value::String(s) => (s.as_str(), None),
            Value::Object(o) => (
                o.get("text")
                    .and_then(Value::as_str)
                    .ok_or_else(|| anyhow!("move {}: an object without \"text\"", i + 1))?,
                o.get("player").and_then(Value::as_u64),
            ),
            _ => bail!("move {}: not a move text", i + 1),
        };
        if pos.turn() == Turn::Over {
            bail!("move {} ({t}): the game was already over", i + 1);
        }
        let mv = pos
            .parse_move(t)
            .map_err(|e| anyhow!("move {} ({t}): {e}", i + 1))?;
        if let (Some(p), Turn::Player(q)) = (player, pos.turn()) {
            if p != q as u64 {
                bail!(
                    "move {} ({t}): the record says player {p} moved, but player {q} is to move",
                    i + 1
                );
            }
        }
        out.push(mv);
        pos.play(mv);
    }
    Ok((start, out))
}
