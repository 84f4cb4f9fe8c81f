//! English checkers commands: `qiyi perft checkers [--fen FEN] --depth N [--divide]`.

use crate::common::{progress, Global, PerftReport};
use anyhow::{bail, Context, Result};
use clap::Args;
use qiyi_checkers::notation::{board_from_fen, board_to_fen, move_to_pdn};
use qiyi_checkers::perft::divide_parallel;
use qiyi_checkers::Board;
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
    let parts = parts.iter().map(|(mv, n)| (move_to_pdn(mv), *n)).collect();
    PerftReport::new(
        "checkers",
        board_to_fen(&board),
        args.depth,
        parts,
        seconds,
        threads,
        args.divide,
    )
    .print(global.json)
}
