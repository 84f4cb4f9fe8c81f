//! `qiyi review GAME FILE`: a post-game review from core's review model and the game's judge.
//!
//! Built so far: peg solitaire (the exact judge of `qiyi_peg_solitaire::review`), reading the JSON
//! record `qiyi games export` writes (or a bare list of moves), from a file or the server's
//! database by `--id`. The other games answer with a
//! clear error until their judges land.

use anyhow::{anyhow, bail, Context};
use clap::Args;
use qiyi_core::review::{Class, Review};
use qiyi_core::{Game, Notation};
use qiyi_peg_solitaire::{Board, PegPosition, Problem};
use serde_json::Value;
use std::path::PathBuf;
use std::sync::Arc;

use crate::common::{print_json, progress, Global};

/// Arguments of `qiyi review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game: peg-solitaire (alias peg). Xiangqi, checkers, chinese-checkers and aeroplane
    /// are not reviewed yet.
    pub game: String,
    /// The record: the JSON record of `qiyi games export` (`-` for stdin).
    #[arg(required_unless_present = "id", conflicts_with = "id")]
    pub file: Option<PathBuf>,
    /// Review the stored game with this id (from `qiyi games list`) instead of a file.
    #[arg(long)]
    pub id: Option<String>,
    /// SQLite file of the games, with `--id` (default: the one `qiyi serve` uses).
    #[arg(long, requires = "id")]
    pub db: Option<String>,
}

/// Runs `qiyi review`.
pub fn review(g: &Global, args: ReviewArgs) -> anyhow::Result<()> {
    let game = match args.game.to_ascii_lowercase().as_str() {
        "peg" | "peg-solitaire" | "peg_solitaire" => "peg-solitaire",
        "xiangqi" | "checkers" | "chinese-checkers" | "aeroplane" => {
            bail!(
                "reviewing {} is not built yet (only peg-solitaire)",
                args.game
            )
        }
        other => bail!("unknown game {other:?} (known: peg-solitaire)"),
    };
    let text = match (&args.file, &args.id) {
        (_, Some(id)) => {
            let db = crate::serve::open_db(args.db.as_deref())?;
            let record = db
                .load(id)?
                .with_context(|| format!("no game {id} in {}", db.path()))?;
            let entry = qiyi_web::store::rebuild(&record)?;
            qiyi_web::record::export(&entry, None)?.text
        }
        (Some(f), None) if f.as_os_str() == "-" => {
            std::io::read_to_string(std::io::stdin()).context("reading the record from stdin")?
        }
        (Some(f), None) => {
            std::fs::read_to_string(f).with_context(|| format!("reading {}", f.display()))?
        }
        (None, None) => bail!("give a record FILE or --id ID"),
    };
    let (start, moves) = peg_record(&text, game)?;
    let bar = progress(moves.len() as u64, "review");
    let review = qiyi_peg_solitaire::review::review_game(&start, &moves, |done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    if g.json {
        print_json(&review)
    } else {
        print_table(&review);
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
}

/// Reads a peg-solitaire record: the JSON record (`game`, `rules.board`, `rules.start`,
/// `position`, `moves` as texts or `{text}` objects) or a bare JSON list of move texts.
fn peg_record(text: &str, game: &str) -> anyhow::Result<(PegPosition, Vec<u16>)> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| anyhow!("the record is not JSON: {e}"))?;
    let (rules, position, moves) = match &v {
        Value::Array(moves) => (Value::Null, None, moves.clone()),
        Value::Object(o) => {
            if let Some(kind) = o.get("game").and_then(Value::as_str) {
                let kind_norm = if kind == "peg" { "peg-solitaire" } else { kind };
                if kind_norm != game {
                    bail!("the record is a {kind} game, not {game}");
                }
            }
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

fn print_table(review: &Review) {
    println!(
        "{:>4}  {:<8} {:<8} {:>6} {:>6}  class",
        "ply", "played", "best", "pegs", "best"
    );
    for p in &review.plies {
        let unit = |u: Option<f64>| u.map(|x| format!("{x:.0}")).unwrap_or_default();
        let class = p.class.map(Class::name).unwrap_or("");
        let mut flags = String::new();
        if p.missed_win {
            flags.push_str(" (lost the solution)");
        }
        if p.only_move {
            flags.push_str(" (only move)");
        }
        println!(
            "{:>4}  {:<8} {:<8} {:>6} {:>6}  {}{}{}",
            p.ply + 1,
            p.played,
            p.best.as_deref().unwrap_or(""),
            unit(p.after_played.unit),
            unit(p.after_best.unit),
            class,
            p.class.map(Class::symbol).unwrap_or(""),
            flags
        );
    }
    for s in &review.summary {
        println!(
            "player {}: accuracy {}  moves {}  best {} good {} inaccuracy {} mistake {} blunder {}",
            s.player + 1,
            s.accuracy
                .map(|a| format!("{a:.1}"))
                .unwrap_or_else(|| "-".into()),
            s.moves,
            s.counts[0],
            s.counts[1],
            s.counts[2],
            s.counts[3],
            s.counts[4]
        );
    }
}
