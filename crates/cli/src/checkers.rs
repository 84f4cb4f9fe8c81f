//! English checkers commands: `qiyi perft checkers [--fen FEN] --depth N [--divide]`.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Context, Result};
use clap::Args;
use qiyi_checkers::notation::{board_from_fen, board_to_fen, move_to_pdn};
use qiyi_checkers::perft::divide_parallel;
use qiyi_checkers::Board;
use serde::Serialize;
use std::time::Instant;

/// Arguments of `qiyi perft checkers`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Start position as a PDN FEN, e.g. `B:W21-32:B1-12` (default: the standard start).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies (a multi-jump is one ply).
    #[arg(long, short)]
    pub depth: u32,
    /// Print the leaf count below each root move.
    #[arg(long)]
    pub divide: bool,
}

#[derive(Serialize)]
struct DivideRow {
    #[serde(rename = "move")]
    mv: String,
    nodes: u64,
}

#[derive(Serialize)]
struct PerftReport {
    game: &'static str,
    fen: String,
    depth: u32,
    nodes: u64,
    seconds: f64,
    nodes_per_second: f64,
    threads: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideRow>>,
}

/// Runs `qiyi perft checkers`.
pub fn perft(global: &Global, args: PerftArgs) -> Result<()> {
    const MAX_DEPTH: u32 = 40;
    if args.depth > MAX_DEPTH {
        bail!("depth {} is too deep (at most {MAX_DEPTH})", args.depth);
    }
    let board = match &args.fen {
        Some(fen) => board_from_fen(fen).with_context(|| format!("cannot read FEN {fen:?}"))?,
        None => Board::start(),
    };
    let threads = global.threads();
    let bar = progress(0, "perft checkers");
    if global.json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let start = Instant::now();
    let parts = if args.depth == 0 {
        Vec::new()
    } else {
        divide_parallel(&board, args.depth, threads, &|total| {
            bar.set_length(total as u64);
            bar.inc(1);
        })
    };
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let nodes = if args.depth == 0 {
        1
    } else {
        parts.iter().map(|&(_, n)| n).sum()
    };
    let rows: Vec<DivideRow> = parts
        .iter()
        .map(|(mv, n)| DivideRow {
            mv: move_to_pdn(mv),
            nodes: *n,
        })
        .collect();
    let report = PerftReport {
        game: "checkers",
        fen: board_to_fen(&board),
        depth: args.depth,
        nodes,
        seconds,
        nodes_per_second: if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        },
        threads,
        divide: args.divide.then_some(rows),
    };
    if global.json {
        return print_json(&report);
    }
    if let Some(rows) = &report.divide {
        for r in rows {
            println!("{} {}", r.mv, r.nodes);
        }
        println!();
    }
    println!(
        "perft({}) = {} in {:.3} s ({:.1} M nodes/s, {} thread{}) from {}",
        report.depth,
        report.nodes,
        report.seconds,
        report.nodes_per_second / 1e6,
        threads,
        if threads == 1 { "" } else { "s" },
        report.fen
    );
    Ok(())
}
