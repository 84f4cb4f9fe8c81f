//! Xiangqi commands: `qiyi perft xiangqi [--fen FEN] --depth N [--divide] [--full] [--json]`.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Context, Result};
use clap::Args;
use qiyi_xiangqi::{perft, MoveList, Position};
use serde::Serialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of `qiyi perft xiangqi`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    /// Start position as FEN (default: the standard start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long, short)]
    pub depth: u32,
    /// Print the leaf count below each root move (ICCS).
    #[arg(long)]
    pub divide: bool,
    /// Make and unmake every move down to the leaves instead of bulk-counting the last ply.
    #[arg(long)]
    pub full: bool,
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
    counting: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    divide: Option<Vec<DivideRow>>,
}

/// Runs `qiyi perft xiangqi`.
pub fn perft(global: &Global, args: PerftArgs) -> Result<()> {
    const MAX_DEPTH: u32 = 12;
    if args.depth > MAX_DEPTH {
        bail!("depth {} is too deep (at most {MAX_DEPTH})", args.depth);
    }
    let pos = match &args.fen {
        Some(fen) => Position::from_fen(fen).with_context(|| format!("cannot read FEN {fen:?}"))?,
        None => Position::start(),
    };
    let mut root = pos.clone();
    let mut list = MoveList::new();
    root.generate_legal(&mut list);
    let moves: Vec<_> = list.as_slice().to_vec();
    let threads = global.threads().min(moves.len().max(1));
    let bar = progress(moves.len() as u64, "perft xiangqi");
    if global.json {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let full = args.full;
    let count = |p: &mut Position, d: u32| {
        if full {
            perft::perft_full(p, d)
        } else {
            perft::perft(p, d)
        }
    };
    let start = Instant::now();
    let results: Mutex<Vec<(usize, u64)>> = Mutex::new(Vec::with_capacity(moves.len()));
    if args.depth > 0 {
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| {
                    let mut p = pos.clone();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= moves.len() {
                            break;
                        }
                        let undo = p.make(moves[i]);
                        let n = count(&mut p, args.depth - 1);
                        p.unmake(moves[i], undo);
                        if let Ok(mut r) = results.lock() {
                            r.push((i, n));
                        }
                        bar.inc(1);
                    }
                });
            }
        });
    }
    let seconds = start.elapsed().as_secs_f64();
    bar.finish_and_clear();
    let mut parts = results
        .into_inner()
        .map_err(|_| anyhow::anyhow!("a perft worker panicked"))?;
    parts.sort_unstable();
    let nodes = if args.depth == 0 {
        1
    } else {
        parts.iter().map(|&(_, n)| n).sum()
    };
    let rows: Vec<DivideRow> = parts
        .iter()
        .map(|&(i, n)| DivideRow {
            mv: moves[i].to_string(),
            nodes: n,
        })
        .collect();
    let report = PerftReport {
        game: "xiangqi",
        fen: pos.to_fen(),
        depth: args.depth,
        nodes,
        seconds,
        nodes_per_second: if seconds > 0.0 {
            nodes as f64 / seconds
        } else {
            0.0
        },
        threads,
        counting: if full { "make-unmake" } else { "bulk" },
        divide: args.divide.then_some(rows),
    };
    if global.json {
        return print_json(&report);
    }
    if args.divide {
        for row in report.divide.iter().flatten() {
            println!("{}: {}", row.mv, row.nodes);
        }
        println!();
    }
    println!("fen      {}", report.fen);
    println!("depth    {}", report.depth);
    println!("nodes    {}", report.nodes);
    println!(
        "time     {:.3} s ({:.1} M nodes/s, {} thread{}, {} counting)",
        report.seconds,
        report.nodes_per_second / 1e6,
        report.threads,
        if report.threads == 1 { "" } else { "s" },
        report.counting
    );
    Ok(())
}
