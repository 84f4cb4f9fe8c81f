//! `qiyi review checkers`: the engine and endgame-database judge of
//! [`qiyi_checkers::review`] on a PDN game (what `qiyi games export` writes for checkers) or a
//! JSON record (`game`, `position` as a PDN FEN, `moves` as texts or `{text}` objects), with an
//! annotated PDN written on `--annotate`.

use anyhow::{anyhow, bail, Context};
use qiyi_checkers::pdn::{read_pdn_game, GameResult};
use qiyi_checkers::review::{annotated_pdn, JudgeOptions, DEFAULT_DEPTH};
use qiyi_checkers::{notation, Board, Checkers, Move};
use qiyi_core::search::SearchLimits;
use qiyi_core::Game;
use serde_json::Value;
use std::time::Instant;

use crate::common::{progress, Global};
use crate::review::{check_record_game, print_review, ReviewArgs, ReviewGame};

/// A checkers game read from a record.
struct Record {
    tags: Vec<(String, String)>,
    start: Board,
    moves: Vec<Move>,
    result: GameResult,
}

/// Reviews the checkers record `text` with the options of `args` and prints the review.
pub fn run(g: &Global, args: &ReviewArgs, text: &str) -> anyhow::Result<()> {
    let record = read_record(text)?;
    let limits = match (args.depth, args.movetime) {
        (Some(_), Some(_)) => bail!("give --depth or --movetime, not both"),
        (_, Some(0)) => bail!("--movetime must be at least 1 ms"),
        (_, Some(ms)) => SearchLimits::move_time(std::time::Duration::from_millis(ms)),
        (d, None) => SearchLimits::depth(d.unwrap_or(DEFAULT_DEPTH)),
    };
    qiyi_checkers::review::check_limits(&limits)?;
    let egdb = crate::checkers_engine::load_egdb(&args.egdb)?;
    let options = JudgeOptions {
        limits,
        egdb,
        ..JudgeOptions::default()
    };
    let start = Checkers::from_board(record.start);
    let bar = progress(record.moves.len() as u64, "review");
    let t0 = Instant::now();
    let review = qiyi_checkers::review::review_game(&start, &record.moves, &options, |done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    let secs = t0.elapsed().as_secs_f64();
    if let Some(out) = &args.annotate {
        let pdn = annotated_pdn(
            &record.tags,
            &record.start,
            &record.moves,
            record.result,
            &review,
        );
        std::fs::write(out, pdn).with_context(|| format!("writing {}", out.display()))?;
    }
    print_review(g, &review, 0)?;
    if !g.json {
        println!(
            "judge: {}; {} plies in {secs:.1} s",
            review.judge,
            review.plies.len()
        );
        if let Some(out) = &args.annotate {
            println!("annotated PDN written to {}", out.display());
        }
    }
    Ok(())
}

/// Reads a PDN game or a JSON record.
fn read_record(text: &str) -> anyhow::Result<Record> {
    if !text.trim_start().starts_with('{') {
        let game = read_pdn_game(text).map_err(|e| anyhow!("the PDN does not read: {e}"))?;
        return Ok(Record {
            tags: game.tags,
            start: game.start,
            moves: game.moves,
            result: game.result,
        });
    }
    let v: Value =
        serde_json::from_str(text).map_err(|e| anyhow!("the record is not JSON: {e}"))?;
    check_record_game(&v, ReviewGame::Checkers, &[])?;
    let start = match v.get("position").and_then(Value::as_str) {
        Some(fen) => {
            notation::board_from_fen(fen).map_err(|e| anyhow!("bad position {fen:?}: {e}"))?
        }
        None => Board::start(),
    };
    let list = match v.get("moves") {
        Some(Value::Array(m)) => m,
        Some(_) => bail!("the record's \"moves\" is not a list"),
        None => bail!("the record has no \"moves\""),
    };
    let mut pos = Checkers::from_board(start);
    let mut moves = Vec::with_capacity(list.len());
    for (i, m) in list.iter().enumerate() {
        let t = match m {
            Value::String(s) => s.as_str(),
            Value::Object(o) => o
                .get("text")
                .and_then(Value::as_str)
                .ok_or_else(|| anyhow!("move {}: an object without \"text\"", i + 1))?,
            _ => bail!("move {}: not a move text", i + 1),
        };
        let mv = pos
            .parse(t)
            .map_err(|e| anyhow!("move {} ({t}): {e}", i + 1))?;
        moves.push(mv);
        pos.make(mv);
    }
    let result = match v.get("result").and_then(Value::as_str) {
        Some("1-0") => GameResult::BlackWins,
        Some("0-1") => GameResult::WhiteWins,
        Some("1/2-1/2") => GameResult::Draw,
        _ => GameResult::Unknown,
    };
    Ok(Record {
        tags: Vec::new(),
        start,
        moves,
        result,
    })
}
