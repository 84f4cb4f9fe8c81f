//! `qiyi review checkers`: the engine and endgame-database judge of
//! [`qiyi_checkers::review`] on a PDN game (what `qiyi games export` writes for checkers) or a
//! JSON record (`game`, `position` as a PDN FEN, `moves` as texts or `{text}` objects), with an
//! annotated PDN written on `--annotate`.

use anyhow::{bail, Context};
use qiyi_checkers::review::{annotated_pdn, read_record, JudgeOptions, DEFAULT_DEPTH};
use qiyi_checkers::Checkers;
use qiyi_core::search::SearchLimits;
use std::time::Instant;

use crate::common::{progress, Global};
use crate::review_shared::{print_review, ReviewArgs};

/// Reviews the checkers record `text` with the options of `args` and prints the review.
pub fn run(g: &Global, args: &ReviewArgs, text: &str) -> anyhow::Result<()> {
    if args.eval.is_some() {
        bail!("--eval applies to xiangqi reviews only: the checkers judge plays its shipped net");
    }
    let record = read_record(text)?;
    let limits = match (args.depth, args.movetime) {
        (Some(_), Some(_)) => bail!("give --depth or --movetime, not both"),
        (_, Some(0)) => bail!("--movetime must be at least 1 ms"),
        (_, Some(ms)) => SearchLimits::move_time(std::time::Duration::from_millis(ms)),
        (d, None) => SearchLimits::depth(d.unwrap_or(DEFAULT_DEPTH)),
    };
    qiyi_checkers::review::check_limits(&limits)?;
    let egdb = crate::checkers_engine::load_egdb(&args.egdb)?;
    let mut options = JudgeOptions {
        limits,
        egdb,
        ..JudgeOptions::default()
    };
    if let Some(mib) = args.hash {
        options.tt_mib = mib as usize;
    }
    let start = Checkers::from_board(record.start);
    eprintln!(
        "judge memory: a {} MiB transposition table, plus its memo of judged positions",
        options.tt_mib
    );
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
