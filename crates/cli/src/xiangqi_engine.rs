//! `qiyi uci`, `qiyi ucci` and `qiyi analyze xiangqi`: the Xiangqi engine from the command line.

use crate::common::{print_json, Global};
use anyhow::{bail, Context};
use clap::Args;
use qiyi_core::search::SearchLimits;
use qiyi_xiangqi::engine::{Engine, EngineConfig, Level};
use qiyi_xiangqi::protocol::{self, Dialect};
use qiyi_xiangqi::{Position, START_FEN};
use serde::Serialize;
use std::time::Duration;

/// Options of the protocol commands.
#[derive(Args, Debug)]
pub struct ProtocolArgs {
    /// Strength: `seed` (the tutorial's player) or 1-10 (10 = full strength).
    #[arg(long, default_value = "10")]
    level: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
}

fn level(text: &str) -> anyhow::Result<Level> {
    Level::parse(text).with_context(|| format!("level must be 'seed' or 1-10, not '{text}'"))
}

/// Speaks UCI (or UCCI) on stdin/stdout until `quit`.
pub fn protocol(g: &Global, args: ProtocolArgs, dialect: Dialect) -> anyhow::Result<()> {
    let config = EngineConfig {
        hash_mib: args.hash as usize,
        threads: g.threads.map_or(1, usize::from),
        level: level(&args.level)?,
        seed: g.seed,
    };
    let stdin = std::io::stdin();
    protocol::run(dialect, stdin.lock(), std::io::stdout(), config)?;
    Ok(())
}

/// Options of `qiyi analyze xiangqi`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Position in FEN (default: the start position).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Think for this many milliseconds.
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Strength: `seed` or 1-10.
    #[arg(long, default_value = "10")]
    level: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
}

#[derive(Serialize)]
struct AnalyzeReport {
    bestmove: Option<String>,
    score: i32,
    depth: u32,
    seldepth: u32,
    nodes: u64,
    nps: u64,
    ms: u128,
    pv: Vec<String>,
    fen: String,
    level: String,
}

/// Analyses one position, printing each depth and the best move.
pub fn analyze(g: &Global, args: AnalyzeArgs) -> anyhow::Result<()> {
    let pos = Position::from_fen(&args.fen).with_context(|| format!("bad FEN '{}'", args.fen))?;
    let limits = match (args.movetime, args.depth) {
        (Some(ms), None) => SearchLimits::move_time(Duration::from_millis(ms.max(1))),
        (None, Some(d)) => SearchLimits::depth(d),
        (None, None) => bail!("give --movetime MS or --depth N"),
        (Some(_), Some(_)) => bail!("give either --movetime or --depth, not both"),
    };
    let config = EngineConfig {
        hash_mib: args.hash as usize,
        threads: g.threads(),
        level: level(&args.level)?,
        seed: g.seed,
    };
    let mut engine = Engine::new(config);
    let json = g.json;
    let result = engine.think(&pos, &limits, |info| {
        if !json {
            let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
            println!(
                "depth {:>2}  score {:>6}  nodes {:>10}  nps {:>9}  time {:>6} ms  pv {}",
                info.depth,
                info.score,
                info.stats.nodes,
                info.stats.nps(),
                info.stats.time.as_millis(),
                pv.join(" ")
            );
        }
    });
    let report = AnalyzeReport {
        bestmove: result.best_move.map(|m| m.to_string()),
        score: result.score,
        depth: result.stats.depth,
        seldepth: result.stats.seldepth,
        nodes: result.stats.nodes,
        nps: result.stats.nps(),
        ms: result.stats.time.as_millis(),
        pv: result.pv.iter().map(|m| m.to_string()).collect(),
        fen: pos.to_fen(),
        level: args.level,
    };
    if json {
        print_json(&report)
    } else {
        match &report.bestmove {
            Some(m) => println!(
                "bestmove {m} (score {}, depth {})",
                report.score, report.depth
            ),
            None => println!("no legal move: the game is over"),
        }
        Ok(())
    }
}
