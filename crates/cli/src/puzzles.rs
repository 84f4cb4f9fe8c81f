//! `qiyi puzzles`: mine puzzles from seeded play (proven before they are kept) and check a
//! puzzle file (every puzzle replayed and proven again). The model is core's
//! [`qiyi_core::puzzles`]; each game crate supplies its miner and prover.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Context};
use qiyi_core::puzzles::{read_puzzles_numbered, write_puzzles};
use qiyi_peg_solitaire::puzzles::{self as peg, MineOptions};
use qiyi_peg_solitaire::{with_threads, Board};
use rayon::prelude::*;
use serde_json::json;
use std::io::BufWriter;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `qiyi puzzles`.
#[derive(clap::Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    action: PuzzlesAction,
}

/// What `qiyi puzzles` does.
#[derive(clap::Subcommand, Debug)]
enum PuzzlesAction {
    /// Mine puzzles for a game (seeded; each puzzle proven before it is kept).
    Mine(MineArgs),
    /// Replay and prove again every puzzle of a JSON Lines file (exit code 2 on the first failure).
    Check(CheckArgs),
}

/// Arguments of `qiyi puzzles mine`.
#[derive(clap::Args, Debug)]
struct MineArgs {
    #[command(subcommand)]
    game: MineGame,
}

/// The games `qiyi puzzles mine` knows.
#[derive(clap::Subcommand, Debug)]
enum MineGame {
    /// Peg solitaire: positions from which exactly one jump still finishes.
    PegSolitaire(PegMineArgs),
}

/// Options of `qiyi puzzles mine peg-solitaire`.
#[derive(clap::Args, Debug)]
struct PegMineArgs {
    /// How many puzzles to keep.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// The JSON Lines file to write.
    #[arg(long)]
    out: PathBuf,
    /// A built-in board: english, french, wiegleb, diamond, triangle, triangle:N.
    #[arg(long, default_value = "english")]
    board: String,
    /// Fewest pegs a puzzle position may have.
    #[arg(long, default_value_t = 6)]
    min_pegs: u32,
    /// Positions the solver may expand per walk before the walk gives up.
    #[arg(long, default_value_t = 50_000_000)]
    budget: u64,
}

/// Arguments of `qiyi puzzles check`.
#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// The JSON Lines puzzle file.
    file: PathBuf,
    /// Positions the solver may expand per puzzle before giving up (peg solitaire).
    #[arg(long, default_value_t = 50_000_000)]
    budget: u64,
}

/// Runs `qiyi puzzles`.
pub fn puzzles(g: &Global, a: PuzzlesArgs) -> anyhow::Result<()> {
    match a.action {
        PuzzlesAction::Mine(m) => match m.game {
            MineGame::PegSolitaire(p) => mine_peg(g, p),
        },
        PuzzlesAction::Check(c) => check(g, c),
    }
}

fn mine_peg(g: &Global, a: PegMineArgs) -> anyhow::Result<()> {
    if a.count == 0 {
        bail!("--count must be at least 1");
    }
    let board = Board::named(&a.board).with_context(|| format!("board `{}`", a.board))?;
    let finish = peg::board_finish(&board)?;
    if !g.json {
        println!(
            "mining peg-solitaire puzzles: seed {}, board {} ({} holes), goal {}, at least {} pegs",
            g.seed,
            board.name(),
            board.len(),
            peg::goal_text(&board, finish),
            a.min_pegs
        );
        print!("{}", board.picture_spaced(board.picture_start()));
    }
    let opts = MineOptions {
        count: a.count,
        min_pegs: a.min_pegs,
        budget: a.budget,
        ..MineOptions::new(&a.board, g.seed)
    };
    let bar = progress(a.count as u64, "mining");
    let started = Instant::now();
    let (found, stats) = with_threads(g.threads(), || {
        peg::mine(&opts, |n| bar.set_position(n as u64))
    })?;
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let file =
        std::fs::File::create(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    write_puzzles(BufWriter::new(file), &found)
        .with_context(|| format!("writing {}", a.out.display()))?;
    let per_sec = found.len() as f64 / secs.max(1e-9);
    let share = stats.passed as f64 / (stats.candidates.max(1)) as f64;
    if g.json {
        print_json(&json!({
            "game": "peg-solitaire",
            "board": board.name(),
            "seed": g.seed,
            "puzzles": found.len(),
            "out": a.out.display().to_string(),
            "seconds": secs,
            "puzzles_per_second": per_sec,
            "pass_share": share,
            "stats": stats,
        }))?;
    } else {
        println!(
            "{} puzzles in {secs:.1} s ({per_sec:.2}/s) from {} walks: {} candidates, {} passed ({:.1}%), {} duplicates, {} walks out of budget, {} solver positions",
            found.len(),
            stats.walks,
            stats.candidates,
            stats.passed,
            100.0 * share,
            stats.duplicates,
            stats.undecided,
            stats.nodes
        );
        println!("wrote {} (seed {})", a.out.display(), g.seed);
    }
    if found.len() < a.count {
        eprintln!(
            "qiyi: warning: only {} of {} puzzles found within the walk limit",
            found.len(),
            a.count
        );
    }
    Ok(())
}

/// The games puzzles exist for, and whether `check` can prove them yet.
const PLANNED: &[&str] = &["xiangqi", "checkers", "chinese-checkers", "aeroplane"];

fn check(g: &Global, a: CheckArgs) -> anyhow::Result<()> {
    let file =
        std::fs::File::open(&a.file).with_context(|| format!("opening {}", a.file.display()))?;
    let puzzles = read_puzzles_numbered(std::io::BufReader::new(file))
        .with_context(|| format!("reading {}", a.file.display()))?;
    for (line, p) in &puzzles {
        if p.game == peg::GAME {
            continue;
        }
        if PLANNED.contains(&p.game.as_str()) {
            bail!(
                "{}: line {line}: puzzles for `{}` cannot be checked yet (only peg-solitaire so far)",
                a.file.display(),
                p.game
            );
        }
        bail!(
            "{}: line {line}: unknown game `{}`",
            a.file.display(),
            p.game
        );
    }
    let bar = progress(puzzles.len() as u64, "checking");
    let started = Instant::now();
    let results: Vec<Result<(), peg::CheckError>> = with_threads(g.threads(), || {
        puzzles
            .par_iter()
            .map(|(_, p)| {
                let r = peg::check_puzzle(p, a.budget);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    for ((line, p), r) in puzzles.iter().zip(&results) {
        if let Err(e) = r {
            bail!(
                "{}: line {line}: puzzle `{}` fails: {e}",
                a.file.display(),
                p.id
            );
        }
    }
    let secs = started.elapsed().as_secs_f64();
    if g.json {
        print_json(&json!({
            "file": a.file.display().to_string(),
            "puzzles": puzzles.len(),
            "proven": puzzles.len(),
            "seconds": secs,
        }))?;
    } else {
        println!(
            "{}: {} puzzles replayed and proven again in {secs:.1} s",
            a.file.display(),
            puzzles.len()
        );
    }
    Ok(())
}
