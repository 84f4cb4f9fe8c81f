//! `qiyi review xiangqi`: the engine judge of [`qiyi_xiangqi::review`] on XQ PGN (what `qiyi
//! games export` writes for Xiangqi: ICCS, WXF or Chinese moves, a `[FEN]` start) or a JSON
//! record (`game`, `position` as a FEN, `moves` as texts or `{text}` objects), with an annotated
//! PGN written on `--annotate`.

use anyhow::{bail, Context};
use qiyi_core::search::SearchLimits;
use qiyi_xiangqi::review::{annotated_pgn, check_limits, read_record, JudgeOptions, DEFAULT_DEPTH};
use std::time::Instant;

use crate::common::{progress, Global};
use crate::review_shared::{print_review, ReviewArgs};

/// Reviews the Xiangqi record `text` with the options of `args` and prints the review.
pub fn run(g: &Global, args: &ReviewArgs, text: &str) -> anyhow::Result<()> {
    if args.egdb.is_some() {
        bail!("--egdb does not apply to xiangqi: its judge has no endgame database");
    }
    let limits = match (args.depth, args.movetime) {
        (Some(_), Some(_)) => bail!("give --depth or --movetime, not both"),
        (_, Some(0)) => bail!("--movetime must be at least 1 ms"),
        (_, Some(ms)) => SearchLimits::move_time(std::time::Duration::from_millis(ms)),
        (d, None) => SearchLimits::depth(d.unwrap_or(DEFAULT_DEPTH)),
    };
    check_limits(&limits)?;
    let record = read_record(text)?;
    let mut options = JudgeOptions {
        limits,
        net: crate::xiangqi_engine::eval_net(args.eval.as_deref().unwrap_or("net"))?,
        ..JudgeOptions::default()
    };
    if let Some(mib) = args.hash {
        options.tt_mib = mib as usize;
    }
    eprintln!(
        "judge memory: a {} MiB transposition table, plus its memo of judged positions",
        options.tt_mib
    );
    let bar = progress(record.moves.len() as u64, "review");
    let t0 = Instant::now();
    let review =
        qiyi_xiangqi::review::review_game(&record.start, &record.moves, &options, |done, _| {
            bar.set_position(done as u64)
        })?;
    bar.finish_and_clear();
    let secs = t0.elapsed().as_secs_f64();
    if let Some(out) = &args.annotate {
        let pgn = annotated_pgn(
            &record.tags,
            &record.start,
            &record.moves,
            &record.result,
            &review,
        );
        std::fs::write(out, pgn).with_context(|| format!("writing {}", out.display()))?;
    }
    print_review(g, &review, 0)?;
    if !g.json {
        println!(
            "judge: {}; {} plies in {secs:.1} s",
            review.judge,
            review.plies.len()
        );
        if let Some(out) = &args.annotate {
            println!("annotated PGN written to {}", out.display());
        }
    }
    Ok(())
}
