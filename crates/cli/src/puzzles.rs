//! `qiyi puzzles`: mine puzzles from seeded play (proven before they are kept) and check a
//! puzzle file (every puzzle replayed and proven again). The model is core's
//! [`qiyi_core::puzzles`]; each game crate supplies its miner and prover.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Context};
use qiyi_core::puzzles::{read_puzzles, read_puzzles_numbered, write_puzzles, PuzzleRecord};
use qiyi_peg_solitaire::puzzles::{self as peg, MineOptions};
use qiyi_peg_solitaire::{with_threads, Board};
use qiyi_xiangqi::puzzles::{self as xq, MineStats as XqStats};
use rayon::prelude::*;
use serde_json::json;
use std::collections::{BTreeMap, HashSet};
use std::io::BufWriter;
use std::io::Write;
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
    /// Xiangqi: mate in N (杀法) from seeded self-play games, unique at every step.
    Xiangqi(XqMineArgs),
}

/// Options of `qiyi puzzles mine xiangqi`.
#[derive(clap::Args, Debug)]
struct XqMineArgs {
    /// Mine positions of seeded self-play games (the engine at a fixed depth plays both sides
    /// from the shipped openings; the only source so far).
    #[arg(long)]
    selfplay: bool,
    /// Games of the run (game `i` uses `Rng::derive(seed, i)`; a resumed run skips the games
    /// already mined).
    #[arg(long, default_value_t = 100)]
    games: u64,
    /// The JSON Lines file to append to; `FILE.games` records the run and the games mined, so
    /// the same command resumes (or extends with a larger `--games`).
    #[arg(long)]
    out: PathBuf,
    /// The engine's depth per move in the self-play games.
    #[arg(long, default_value_t = 5)]
    depth: u32,
    /// Random plies after each opening: uniformly 0..=R.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// The longest mate kept, in the player's moves (1..=5).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=5))]
    max_n: u32,
    /// Mate-search nodes per candidate position before it is given up.
    #[arg(long, default_value_t = 20_000_000)]
    budget: u64,
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
    /// Positions the solver (peg solitaire) or nodes the mate search (Xiangqi) may expand per
    /// puzzle before giving up.
    #[arg(long, default_value_t = 50_000_000)]
    budget: u64,
}

/// Runs `qiyi puzzles`.
pub fn puzzles(g: &Global, a: PuzzlesArgs) -> anyhow::Result<()> {
    match a.action {
        PuzzlesAction::Mine(m) => match m.game {
            MineGame::PegSolitaire(p) => mine_peg(g, p),
            MineGame::Xiangqi(x) => mine_xiangqi(g, x),
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
const PLANNED: &[&str] = &["checkers", "chinese-checkers", "aeroplane"];

fn check(g: &Global, a: CheckArgs) -> anyhow::Result<()> {
    let file =
        std::fs::File::open(&a.file).with_context(|| format!("opening {}", a.file.display()))?;
    let puzzles = read_puzzles_numbered(std::io::BufReader::new(file))
        .with_context(|| format!("reading {}", a.file.display()))?;
    for (line, p) in &puzzles {
        if p.game == peg::GAME || p.game == xq::GAME {
            continue;
        }
        if PLANNED.contains(&p.game.as_str()) {
            bail!(
                "{}: line {line}: puzzles for `{}` cannot be checked yet (only peg-solitaire and xiangqi so far)",
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
    let results: Vec<Result<(), String>> = with_threads(g.threads(), || {
        puzzles
            .par_iter()
            .map(|(_, p)| {
                let r = if p.game == xq::GAME {
                    xq::check_puzzle(p, a.budget).map_err(|e| e.to_string())
                } else {
                    peg::check_puzzle(p, a.budget).map_err(|e| e.to_string())
                };
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

/// The mate distance of a Xiangqi puzzle (its first theme, `mate-in-N`).
fn xq_n(p: &PuzzleRecord) -> usize {
    p.solution.len().div_ceil(2)
}

/// The board and side of a FEN, without the counters: equal positions compare equal.
fn fen_key(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
}

fn mine_xiangqi(g: &Global, a: XqMineArgs) -> anyhow::Result<()> {
    if !a.selfplay {
        bail!("give --selfplay: Xiangqi puzzles are mined from seeded self-play games (reading game records is not there yet)");
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let opts = xq::MineOptions {
        seed: g.seed,
        depth: a.depth.max(1),
        random_plies: a.random_plies,
        max_n: a.max_n,
        budget: a.budget,
    };
    let manifest = opts.manifest();
    let mut log_path = a.out.clone().into_os_string();
    log_path.push(".games");
    let log_path = PathBuf::from(log_path);
    // Resume: the log names the run and lists the games mined; the file holds their puzzles.
    let mut done = HashSet::new();
    let mut keys = HashSet::new();
    let mut ids = HashSet::new();
    let mut kept_before = 0usize;
    if log_path.exists() {
        let text = std::fs::read_to_string(&log_path)
            .with_context(|| format!("reading {}", log_path.display()))?;
        let mut lines = text.lines();
        let head = lines.next().unwrap_or("");
        if head != manifest {
            bail!(
                "{} belongs to another run ({head}); this one is: {manifest}",
                log_path.display()
            );
        }
        for l in lines.filter(|l| !l.trim().is_empty()) {
            let i: u64 = l
                .trim()
                .parse()
                .with_context(|| format!("{}: `{l}` is not a game index", log_path.display()))?;
            done.insert(i);
        }
    } else if a.out.exists() && std::fs::metadata(&a.out)?.len() > 0 {
        bail!(
            "{} exists without {}: not a run this command can resume",
            a.out.display(),
            log_path.display()
        );
    }
    if a.out.exists() {
        let file =
            std::fs::File::open(&a.out).with_context(|| format!("opening {}", a.out.display()))?;
        for p in read_puzzles(std::io::BufReader::new(file))
            .with_context(|| format!("reading {}", a.out.display()))?
        {
            keys.insert(fen_key(&p.position));
            ids.insert(p.id);
            kept_before += 1;
        }
    }
    let mut log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log_path)
        .with_context(|| format!("opening {}", log_path.display()))?;
    if done.is_empty() && std::fs::metadata(&log_path)?.len() == 0 {
        writeln!(log, "{manifest}")?;
    }
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.out)
        .with_context(|| format!("opening {}", a.out.display()))?;
    let todo: Vec<u64> = (0..a.games).filter(|i| !done.contains(i)).collect();
    if !g.json {
        println!(
            "mining xiangqi puzzles: seed {}, games {} ({} already mined), engine depth {}, random plies 0..={}, mates in 1..={}, {} puzzles in {} so far",
            g.seed,
            a.games,
            a.games as usize - todo.len(),
            opts.depth,
            opts.random_plies,
            opts.max_n,
            kept_before,
            a.out.display()
        );
    }
    let openings = qiyi_xiangqi::learn::openings()?;
    let threads = g.threads();
    let bar = progress(todo.len() as u64, "mining");
    let started = Instant::now();
    let mut stats = XqStats::default();
    let mut duplicates = 0u64;
    let mut found: Vec<PuzzleRecord> = Vec::new();
    // Games in chunks, each chunk in parallel; written in game order so a seed gives the same
    // file on any thread count.
    for chunk in todo.chunks(threads * 2) {
        let mined: Vec<(Vec<PuzzleRecord>, XqStats)> = with_threads(threads, || {
            chunk
                .par_iter()
                .map(|&i| xq::mine_game(&opts, &openings, i))
                .collect()
        });
        let mut new = Vec::new();
        for (ps, st) in mined {
            stats.add(&st);
            for p in ps {
                if ids.contains(&p.id) || !keys.insert(fen_key(&p.position)) {
                    duplicates += 1;
                    continue;
                }
                ids.insert(p.id.clone());
                new.push(p);
            }
        }
        write_puzzles(&mut out, &new).with_context(|| format!("writing {}", a.out.display()))?;
        out.flush()?;
        for i in chunk {
            writeln!(log, "{i}")?;
        }
        log.flush()?;
        found.extend(new);
        bar.inc(chunk.len() as u64);
        bar.set_message(format!("mining ({} puzzles)", found.len()));
    }
    bar.finish_and_clear();
    let secs = started.elapsed().as_secs_f64();
    let per_min = found.len() as f64 * 60.0 / secs.max(1e-9);
    let share = stats.passed as f64 / stats.candidates.max(1) as f64;
    let mut by_n: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_theme: BTreeMap<String, usize> = BTreeMap::new();
    for p in &found {
        *by_n.entry(format!("mate-in-{}", xq_n(p))).or_default() += 1;
        for t in &p.themes {
            *by_theme.entry(t.clone()).or_default() += 1;
        }
    }
    if g.json {
        print_json(&json!({
            "game": "xiangqi",
            "seed": g.seed,
            "games": stats.games,
            "puzzles": found.len(),
            "puzzles_in_file": kept_before + found.len(),
            "out": a.out.display().to_string(),
            "seconds": secs,
            "puzzles_per_minute": per_min,
            "candidates": stats.candidates,
            "passed": stats.passed,
            "pass_share": share,
            "not_unique": stats.not_unique,
            "no_win": stats.no_win,
            "repeats": stats.repeats,
            "undecided": stats.undecided,
            "duplicates": duplicates,
            "nodes": stats.nodes,
            "by_n": by_n,
            "by_theme": by_theme,
        }))?;
    } else {
        println!(
            "{} puzzles in {secs:.1} s ({per_min:.1}/min) from {} games: {} candidates, {} passed ({:.1}%), {} not unique, {} no win found, {} repeating, {} out of budget, {} duplicates, {} mate-search nodes",
            found.len(),
            stats.games,
            stats.candidates,
            stats.passed,
            100.0 * share,
            stats.not_unique,
            stats.no_win,
            stats.repeats,
            stats.undecided,
            duplicates,
            stats.nodes
        );
        let list = |m: &BTreeMap<String, usize>| {
            m.iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        println!("by distance: {}", list(&by_n));
        println!("by theme: {}", list(&by_theme));
        println!(
            "wrote {} ({} puzzles in all; seed {})",
            a.out.display(),
            kept_before + found.len(),
            g.seed
        );
    }
    Ok(())
}
