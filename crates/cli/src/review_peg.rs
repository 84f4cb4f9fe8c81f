//! `qiyi review peg-solitaire`: the exact judge of [`qiyi_peg_solitaire::review`] on the JSON
//! record `qiyi games export` writes, or on a bare JSON list of move texts.

use anyhow::{anyhow, bail};
use qiyi_core::{Game, Notation};
use qiyi_peg_solitaire::{Board, PegPosition, Problem};
use serde_json::Value;
use std::sync::Arc;

use crate::common::{progress, Global};
use crate::review::{check_record_game, print_review, ReviewGame};

/// Reviews the peg-solitaire record `text` and prints the review.
pub fn run(g: &Global, text: &str) -> anyhow::Result<()> {
    let (start, moves) = peg_record(text)?;
    let bar = progress(moves.len() as u64, "review");
    let review = qiyi_peg_solitaire::review::review_game(&start, &moves, |done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    print_review(g, &review, 0)?;
    if g.json {
        return Ok(());
    }
    if let Some(i) = qiyi_peg_solitaire::review::first_lost(&review) {
        let p = &review.plies[i];
        println!(
            "the solution was lost at move {} ({}); {} keeps it",
            i + 1,
            p.played,
            p.best.as_deref().unwrap_or("?")
        );
    } else if review.plies.first().is_some_and(|p| p.before.win >= 1.0) {
        println!("the solution was never lost");
    } else {
        println!("the start had no solution to lose");
    }
    Ok(())
}

/// Reads a peg-solitaire record: the JSON record (`game`, `rules.board`, `rules.start`,
/// `position`, `moves` as texts or `{text}` objects) or a bare JSON list of move texts.
fn peg_record(text: &str) -> anyhow::Result<(PegPosition, Vec<u16>)> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| anyhow!("the record is not JSON: {e}"))?;
    let (rules, position, moves) = match &v {
        Value::Array(moves) => (Value::Null, None, moves.clone()),
        Value::Object(o) => {
            check_record_game(&v, ReviewGame::Peg, &["peg"])?;
            let moves = match o.get("moves") {
                Some(Value::Array(m)) => m.clone(),
                Some(_) => bail!("the record's \"moves\" is not a list"),
                None => bail!("the record has no \"moves\""),
            };
            (
                o.get("rules").cloned().unwrap_or(Value::Null),
                o.get("position")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                moves,
            )
        }
        _ => bail!("the record is neither a JSON object nor a list of moves"),
    };
    let start = match position {
        Some(p) => PegPosition::from_text(&p).map_err(|e| anyhow!("bad position: {e}"))?,
        None => {
            let board = rules
                .get("board")
                .and_then(Value::as_str)
                .unwrap_or("english");
            let hole = rules
                .get("start")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "default");
            let b = Board::named(board).map_err(|e| anyhow!("board {board:?}: {e}"))?;
            let problem = Problem::new(b, hole, None).map_err(|e| anyhow!("start: {e}"))?;
            PegPosition::new(Arc::clone(&problem.board), problem.start)
        }
    };
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let t = match m {
            Value::String(s) => s.as_str(),
            Value::Object(o) => o
                .get("text")
                .and_then(Value::as_str)
                .ok_or_else(|| anyhow!("move {}: an object without \"text\"", i + 1))?,
            _ => bail!("move {}: not a move text", i + 1),
        };
        let mv = pos
            .parse_move(t)
            .map_err(|e| anyhow!("move {} ({t}): {e}", i + 1))?;
        out.push(mv);
        pos.make(mv);
    }
    Ok((start, out))
}
