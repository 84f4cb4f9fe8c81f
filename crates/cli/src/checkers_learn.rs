//! Learning a checkers evaluation from the command line: `qiyi selfplay checkers` writes labelled
//! positions, `qiyi train checkers` trains and quantises a network from them.

use crate::common::{print_json, progress, Global};
use anyhow::Context;
use clap::Args;
use qiyi_checkers::engine::nn::CheckersFeatures;
use qiyi_checkers::engine::selfplay::SelfplayOptions;
use qiyi_checkers::engine::EvalChoice;
use qiyi_checkers::Checkers;
use qiyi_core::learn::train::Sample;
use qiyi_core::learn::Dataset;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Options of `qiyi selfplay checkers`.
#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    games: u64,
    /// Directory for the shards (created; complete shards already there are kept and skipped).
    #[arg(long)]
    out: PathBuf,
    /// Search depth per move (plies, plus capture resolution).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// Node budget per move instead of a depth (0: use the depth).
    #[arg(long, default_value_t = 0)]
    nodes: u64,
    /// Random plies after the three-move ballot: uniformly 0..=N.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(0..=40))]
    random_plies: u32,
    /// Games per shard file.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    games_per_shard: u64,
    /// Evaluation of the playing engine: `hand`, `net` (the embedded net) or a net file.
    #[arg(long, default_value = "hand")]
    eval: String,
    /// Play only these shards of the run (`0-9,12`): one machine's share of a distributed run;
    /// every share writes the bytes one machine would.
    #[arg(long)]
    shards: Option<String>,
}

#[derive(Serialize)]
struct SelfplayReport {
    dir: String,
    games: u64,
    positions: u64,
    shards_written: usize,
    shards_skipped: usize,
    first_player_wins: u64,
    draws: u64,
    second_player_wins: u64,
    seconds: f64,
    positions_per_second: f64,
    threads: usize,
    seed: u64,
    depth: u32,
    nodes: u64,
    eval: String,
    rules: &'static str,
}

/// Runs self-play and prints what it wrote.
pub fn selfplay(g: &Global, args: SelfplayArgs) -> anyhow::Result<()> {
    let eval = EvalChoice::parse(&args.eval).context("--eval")?;
    let options = SelfplayOptions {
        games: args.games as usize,
        games_per_shard: args.games_per_shard as usize,
        seed: g.seed,
        depth: args.depth,
        nodes: args.nodes,
        random_plies: args.random_plies,
        eval: args.eval.clone(),
    };
    let shards = match &args.shards {
        Some(text) => Some(crate::learn::parse_shards(text, options.shards())?),
        None => None,
    };
    let threads = g.threads();
    let bar = progress(
        shards.as_ref().map_or(options.shards(), Vec::len) as u64,
        "self-play shards",
    );
    let started = Instant::now();
    let summary = qiyi_checkers::engine::selfplay::selfplay(
        &args.out,
        &options,
        shards.as_deref(),
        threads,
        |done| {
            bar.inc(1);
            if !done.skipped {
                bar.set_message(format!(
                    "shard {} +{} positions",
                    done.shard, done.positions
                ));
            }
        },
    )?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let report = SelfplayReport {
        dir: args.out.display().to_string(),
        games: summary.games,
        positions: summary.positions,
        shards_written: summary.written,
        shards_skipped: summary.skipped,
        first_player_wins: summary.results[0],
        draws: summary.results[1],
        second_player_wins: summary.results[2],
        seconds: secs,
        positions_per_second: summary.positions as f64 / secs.max(1e-9),
        threads,
        seed: g.seed,
        depth: args.depth,
        nodes: args.nodes,
        eval: eval.name().to_string(),
        rules: "english (WCDF)",
    };
    if g.json {
        return print_json(&report);
    }
    println!(
        "self-play checkers ({}), seed {}: {} games, {} positions in {} shards ({} already there) \
         to {}; Black +{} ={} White +{}; {:.1} s, {:.0} positions/s on {} threads",
        report.rules,
        report.seed,
        report.games,
        report.positions,
        report.shards_written,
        report.shards_skipped,
        report.dir,
        report.first_player_wins,
        report.draws,
        report.second_player_wins,
        secs,
        report.positions_per_second,
        report.threads
    );
    Ok(())
}

/// Options of `qiyi relabel checkers`.
#[derive(Args, Debug)]
pub struct RelabelArgs {
    /// The self-play run whose positions are searched again (a `qiyi selfplay checkers` directory).
    #[arg(long)]
    data: PathBuf,
    /// Directory for the relabelled shards (created; complete shards already there are kept and
    /// skipped, so a stopped run resumes).
    #[arg(long)]
    out: PathBuf,
    /// Search depth per position (plies, plus capture resolution).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: u32,
    /// Node budget per position instead of a depth (0: use the depth).
    #[arg(long, default_value_t = 0)]
    nodes: u64,
    /// Search again only the positions with this many pieces (men and kings of both sides):
    /// `MIN-MAX`, e.g. `14-20` for the middlegame.
    #[arg(long, default_value = "1-24")]
    pieces: String,
    /// Evaluation of the searching engine: `hand`, `net` (the embedded net) or a net file.
    #[arg(long, default_value = "net")]
    eval: String,
    /// Relabel only these shards of the source, by index in name order (`0-3,7`): one part of
    /// a run split over sessions or machines.
    #[arg(long)]
    shards: Option<String>,
}

#[derive(Serialize)]
struct RelabelReport {
    source: String,
    dir: String,
    shards_written: usize,
    shards_skipped: usize,
    positions: u64,
    relabelled: u64,
    changed: u64,
    mean_abs_change: f64,
    seconds: f64,
    relabelled_per_second: f64,
    threads: usize,
    depth: u32,
    nodes: u64,
    pieces: String,
    eval: String,
    rules: &'static str,
}

/// Relabels a self-play run's positions of a range of piece counts with a deeper search.
pub fn relabel(g: &Global, args: RelabelArgs) -> anyhow::Result<()> {
    use qiyi_checkers::engine::selfplay::RelabelOptions;
    let eval = EvalChoice::parse(&args.eval).context("--eval")?;
    let pieces = qiyi_core::learn::Stage::parse(&args.pieces).context("--pieces")?;
    let options = RelabelOptions {
        depth: args.depth,
        nodes: args.nodes,
        eval: args.eval.clone(),
        pieces,
    };
    let in_source =
        qiyi_core::learn::relabel::source_shards::<Checkers>(&args.data, "checkers")?.len();
    let shards = match &args.shards {
        Some(text) => Some(crate::learn::parse_shards(text, in_source)?),
        None => None,
    };
    let threads = g.threads();
    let bar = progress(
        shards.as_ref().map_or(in_source, Vec::len) as u64,
        "relabelled shards",
    );
    let started = Instant::now();
    let summary = qiyi_checkers::engine::selfplay::relabel(
        &args.data,
        &args.out,
        &options,
        shards.as_deref(),
        threads,
        |done| {
            bar.inc(1);
            if !done.skipped {
                bar.set_message(format!(
                    "shard {} {} of {} searched",
                    done.shard, done.relabelled, done.positions
                ));
            }
        },
    )?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let report = RelabelReport {
        source: args.data.display().to_string(),
        dir: args.out.display().to_string(),
        shards_written: summary.written,
        shards_skipped: summary.skipped,
        positions: summary.positions,
        relabelled: summary.relabelled,
        changed: summary.changed,
        mean_abs_change: summary.abs_change as f64 / summary.relabelled.max(1) as f64,
        seconds: secs,
        relabelled_per_second: summary.relabelled as f64 / secs.max(1e-9),
        threads,
        depth: args.depth,
        nodes: args.nodes,
        pieces: pieces.to_string(),
        eval: eval.name().to_string(),
        rules: "english (WCDF)",
    };
    if g.json {
        return print_json(&report);
    }
    println!(
        "relabel checkers ({}): {} of {} positions with {} pieces searched again at {} ({} eval) \
         from {} to {} in {} shards ({} already there); {} changed, by {:.1} on average; \
         {:.1} s, {:.1} positions/s on {} threads",
        report.rules,
        report.relabelled,
        report.positions,
        report.pieces,
        if args.nodes > 0 {
            format!("{} nodes", args.nodes)
        } else {
            format!("depth {}", args.depth)
        },
        report.eval,
        report.source,
        report.dir,
        report.shards_written,
        report.shards_skipped,
        report.changed,
        report.mean_abs_change,
        secs,
        report.relabelled_per_second,
        report.threads
    );
    Ok(())
}

/// Options of `qiyi train checkers`.
#[derive(Args, Debug)]
pub struct TrainArgs {
    #[command(flatten)]
    common: crate::learn::TrainOptions,
    /// Endgame database directory: positions it covers are labelled exactly (a won position's
    /// target is 1, a drawn one's 0.5, a lost one's 0) instead of by their score and result.
    #[arg(long)]
    egdb: Option<PathBuf>,
}

/// The checkers net's game and input layout, as its file names them.
pub const NET: crate::learn::NetGame = crate::learn::NetGame {
    name: "checkers",
    layout: qiyi_checkers::engine::nn::LAYOUT,
    mirror: None,
};

/// Trains a checkers network and writes it quantised.
pub fn train(g: &Global, args: TrainArgs) -> anyhow::Result<()> {
    let egdb = args.egdb;
    crate::learn::train::<Checkers, CheckersFeatures>(g, &args.common, &NET, |ds, samples| {
        Ok(match crate::checkers_engine::load_egdb(&egdb)? {
            Some(db) => Some(format!(
                "{} positions labelled exactly by the endgame database",
                relabel_by_egdb(ds, samples, &db)?
            )),
            None => None,
        })
    })
}

/// Sets the target of every position the database covers to its exact value (from the side to
/// move's view: win 1, draw 0.5, loss 0) and returns how many there were.
fn relabel_by_egdb(
    ds: &Dataset,
    samples: &mut [Sample],
    db: &qiyi_checkers::engine::Egdb,
) -> anyhow::Result<usize> {
    use qiyi_checkers::engine::Wld;
    use qiyi_core::learn::record::Encode;
    let mut n = 0;
    for (i, sample) in samples.iter_mut().enumerate() {
        let pos = Checkers::decode(ds.get(i).position)
            .with_context(|| format!("record {i} does not decode to a checkers position"))?;
        if let Some(v) = db.probe(pos.board()) {
            sample.target = match v {
                Wld::Win => 1.0,
                Wld::Draw => 0.5,
                Wld::Loss => 0.0,
            };
            n += 1;
        }
    }
    Ok(n)
}
