//! `qiyi review GAME FILE|--id ID`: a post-game review from core's review model and the game's
//! judge.
//!
//! This file is the dispatcher: it reads the record (a file, stdin or the server's database) and
//! hands it to the game's own file. What the dispatcher and the games share, the arguments and
//! the printed table or JSON, is in [`crate::review_shared`], below them all. Each game's record
//! format and judge live in its own file: [`crate::review_peg`] (exact),
//! [`crate::review_checkers`] (the engine, exact within the endgame database),
//! [`crate::review_xiangqi`] (the engine, mates and rule endings exact),
//! [`crate::review_aeroplane`] (win-chance model) and [`crate::review_chinese_checkers`] (the
//! engine for two players, the race model for more, and every player's race distance).

use anyhow::{bail, Context};

use crate::common::Global;
pub use crate::review_shared::ReviewArgs;

/// The games `qiyi review` knows, by their canonical names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewGame {
    /// Peg solitaire.
    Peg,
    /// English checkers.
    Checkers,
    /// Aeroplane chess.
    Aeroplane,
    /// Xiangqi.
    Xiangqi,
    /// Chinese checkers.
    ChineseCheckers,
}

fn parse_game(name: &str) -> anyhow::Result<ReviewGame> {
    Ok(match name.to_ascii_lowercase().as_str() {
        "peg" | "peg-solitaire" | "peg_solitaire" => ReviewGame::Peg,
        "checkers" => ReviewGame::Checkers,
        "aeroplane" => ReviewGame::Aeroplane,
        "xiangqi" => ReviewGame::Xiangqi,
        "chinese-checkers" | "chinese_checkers" => ReviewGame::ChineseCheckers,
        other => bail!("unknown game {other:?} (known: peg-solitaire, checkers, xiangqi, aeroplane, chinese-checkers)"),
    })
}

/// Runs `qiyi review`.
pub fn review(g: &Global, args: ReviewArgs) -> anyhow::Result<()> {
    let game = parse_game(&args.game)?;
    let text = record_text(&args)?;
    if args.nodes.is_some() && !matches!(game, ReviewGame::Peg) {
        bail!("--nodes applies to peg solitaire's judge only");
    }
    match game {
        ReviewGame::Peg => {
            let hash = args.hash;
            let args = ReviewArgs { hash: None, ..args };
            refuse_engine_options(&args, "peg solitaire: its judge is an exact solver")?;
            crate::review_peg::run(g, &text, args.nodes, hash)
        }
        ReviewGame::Checkers => crate::review_checkers::run(g, &args, &text),
        ReviewGame::Xiangqi => crate::review_xiangqi::run(g, &args, &text),
        ReviewGame::Aeroplane => {
            refuse_engine_options(&args, "aeroplane chess: its judge is the win-chance model")?;
            crate::review_aeroplane::run(g, &text)
        }
        ReviewGame::ChineseCheckers => {
            if args.hash.is_some() {
                bail!("--hash does not apply to chinese-checkers: its judge keeps no transposition table");
            }
            crate::review_chinese_checkers::run(g, &args, &text)
        }
    }
}

/// Refuses the engine options (`--depth`, `--movetime`, `--annotate`, `--egdb`) for a game whose
/// judge takes none; `why` names the game and its judge.
fn refuse_engine_options(args: &ReviewArgs, why: &str) -> anyhow::Result<()> {
    for (given, what) in [
        (args.depth.is_some(), "--depth"),
        (args.movetime.is_some(), "--movetime"),
        (args.annotate.is_some(), "--annotate"),
        (args.egdb.is_some(), "--egdb"),
        (args.eval.is_some(), "--eval"),
        (args.hash.is_some(), "--hash"),
    ] {
        if given {
            bail!("{what} does not apply to {why}");
        }
    }
    Ok(())
}

/// The record's text, from `--id` (exported as the JSON record), stdin (`-`) or a file.
fn record_text(args: &ReviewArgs) -> anyhow::Result<String> {
    Ok(match (&args.file, &args.id) {
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
    })
}
