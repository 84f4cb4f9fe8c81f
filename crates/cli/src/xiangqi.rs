//! Xiangqi commands: `qiyi perft xiangqi [--fen FEN] --depth N [--divide] [--full] [--json]`.

use crate::common::{progress, Global, PerftReport};
use anyhow::{bail, Context, Result};
use clap::Args;
use qiyi_xiangqi::{perft, MoveList, Position};
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
    let parts = parts
        .iter()
        .map(|&(i, n)| (moves[i].to_string(), n))
        .collect();
    let mut report = PerftReport::new(
        "xiangqi",
        pos.to_fen(),
        args.depth,
        parts,
        seconds,
        threads,
        args.divide,
    );
    report.counting = Some(if full { "make-unmake" } else { "bulk" });
    report.print(global.json)
}
