//! `qiyi selfplay xiangqi`: labelled Xiangqi positions from core's self-play driver, in the
//! `QIYIPOS1` shards `qiyi selfplay checkers` writes (see `qiyi_xiangqi::learn`); and
//! `qiyi train xiangqi`, the shared trainer ([`crate::learn::train`]) over Xiangqi's inputs.

use crate::common::{print_json, progress, Global};
use clap::Args;
use qiyi_xiangqi::learn::{SelfplayOptions, MAX_PLIES};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// The rules the games are played by, as printed.
pub const RULES: &str = "Asian/WXF (perpetual check/chase lose), 60-move rule";

/// Options of `qiyi selfplay xiangqi`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: u64,
    /// Directory for the shards (created; complete shards already there are kept and skipped).
    #[arg(long)]
    out: PathBuf,
    /// Search depth per move (plies, plus quiescence).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Node budget per move instead of a depth (0: use the depth).
    #[arg(long, default_value_t = 0)]
    nodes: u64,
    /// Random plies after the shipped opening: uniformly 0..=N.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Games per shard file.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games_per_shard: u64,
    /// Play only these shards of the run (`0-9,12`): one machine's share of a distributed run;
    /// every share writes the bytes one machine would.
    #[arg(long)]
    shards: Option<String>,
    /// The evaluation the games are searched with: `hand`, `net` (the embedded network) or
    /// the path of a Xiangqi net file.
    #[arg(long, default_value = "hand")]
    eval: String,
}

#[derive(Serialize)]
struct SelfplayReport {
    dir: String,
    games: u64,
    positions: u64,
    shards_written: usize,
    shards_skipped: usize,
    shards_in_run: usize,
    red_wins: u64,
    draws: u64,
    black_wins: u64,
    seconds: f64,
    positions_per_second: f64,
    threads: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    random_plies: u32,
    eval: String,
    max_plies: usize,
    rules: &'static str,
}

/// Runs Xiangqi self-play and prints what it wrote.
pub fn selfplay(g: &Global, args: SelfplayArgs) -> anyhow::Result<()> {
    let options = SelfplayOptions {
        games: args.games as usize,
        games_per_shard: args.games_per_shard as usize,
        seed: g.seed,
        depth: args.depth,
        nodes: args.nodes,
        random_plies: args.random_plies,
        eval: args.eval.clone(),
    };
    let in_run = options.shards();
    let shards = match &args.shards {
        Some(text) => Some(crate::learn::parse_shards(text, in_run)?),
        None => None,
    };
    let threads = g.threads();
    let bar = progress(
        shards.as_ref().map_or(in_run, Vec::len) as u64,
        "self-play shards",
    );
    let started = Instant::now();
    let summary =
        qiyi_xiangqi::learn::selfplay(&args.out, &options, shards.as_deref(), threads, |done| {
            bar.inc(1);
            if !done.skipped {
                bar.set_message(format!(
                    "shard {} +{} positions",
                    done.shard, done.positions
                ));
            }
        })?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let report = SelfplayReport {
        dir: args.out.display().to_string(),
        games: summary.games,
        positions: summary.positions,
        shards_written: summary.written,
        shards_skipped: summary.skipped,
        shards_in_run: in_run,
        red_wins: summary.results[0],
        draws: summary.results[1],
        black_wins: summary.results[2],
        seconds: secs,
        positions_per_second: summary.positions as f64 / secs.max(1e-9),
        threads,
        seed: g.seed,
        depth: args.depth,
        nodes: args.nodes,
        random_plies: args.random_plies,
        eval: args.eval,
        max_plies: MAX_PLIES,
        rules: RULES,
    };
    if g.json {
        return print_json(&report);
    }
    println!(
        "self-play xiangqi ({}, {}-ply cap, eval {}), seed {}: {} games, {} positions in {} shards ({} already there) \
         to {}; Red +{} ={} Black +{}; {:.1} s, {:.0} positions/s on {} threads",
        report.rules,
        report.max_plies,
        report.eval,
        report.seed,
        report.games,
        report.positions,
        report.shards_written,
        report.shards_skipped,
        report.dir,
        report.red_wins,
        report.draws,
        report.black_wins,
        secs,
        report.positions_per_second,
        report.threads
    );
    Ok(())
}

/// Options of `qiyi train xiangqi`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    common: crate::learn::TrainOptions,
}

/// The Xiangqi net's game and input layout, as its file names them.
pub const NET: crate::learn::NetGame = crate::learn::NetGame {
    name: qiyi_xiangqi::learn::TAG,
    layout: qiyi_xiangqi::learn::LAYOUT,
    mirror: Some(qiyi_xiangqi::learn::mirror_input),
};

/// Trains a Xiangqi network and writes it quantised.
pub fn train(g: &Global, args: TrainArgs) -> anyhow::Result<()> {
    crate::learn::train::<qiyi_xiangqi::Position, qiyi_xiangqi::learn::XiangqiFeatures>(
        g,
        &args.common,
        &NET,
        |_, _| Ok(None),
    )
}
