//! `qiyi puzzles`: mine puzzles from seeded play (proven before they are kept) and check a
//! puzzle file (every puzzle replayed and proven again). The model is core's
//! [`qiyi_core::puzzles`]; each game crate supplies its miner and prover.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Context};
use qiyi_aeroplane::endgame::{Endgame, EndgameClass};
use qiyi_aeroplane::puzzles::{self as aero, MineStats as AeroStats};
use qiyi_checkers::puzzles::{self as ck, MineStats as CkStats};
use qiyi_chinese_checkers::puzzles::{self as cc, MineStats as CcStats};
use qiyi_core::puzzles::{read_puzzles_numbered, write_puzzles, MiningRun, PuzzleRecord};
use qiyi_peg_solitaire::puzzles::{self as peg, MineOptions};
use qiyi_peg_solitaire::{with_threads, Board};
use qiyi_xiangqi::puzzles::{self as xq, MineStats as XqStats};
use rayon::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
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
    /// Xiangqi: mate in N (杀法) from seeded self-play games, unique at every step.
    Xiangqi(XqMineArgs),
    /// Checkers: shots (a forced line that wins material or reaches a won ending) from seeded
    /// self-play games, unique at every step.
    Checkers(CkMineArgs),
    /// Chinese checkers: "home in N moves" (N proven optimal, the pieces moving alone) from
    /// seeded two-player self-play games, the first move unique.
    ChineseCheckers(CcMineArgs),
    /// Aeroplane chess: "you rolled R: which plane?", the best plane's exact win chance (an
    /// endgame table) ahead of every other by 5 points, from seeded two-player self-play games.
    Aeroplane(AeroMineArgs),
}

/// Options of `qiyi puzzles mine aeroplane`.
#[derive(clap::Args, Debug)]
struct AeroMineArgs {
    /// Mine decisions of seeded two-player self-play games (the only source so far).
    #[arg(long)]
    selfplay: bool,
    /// Games of the run (game `i` uses `Rng::derive(seed, i)`; a resumed run skips the games
    /// already mined).
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// The JSON Lines file to append to; `FILE.games` records the run and the games mined, so
    /// the same command resumes (or extends with a larger `--games`).
    #[arg(long)]
    out: PathBuf,
    /// The player in both seats (random, heuristic, race, win, best, level-1..level-10, ...).
    #[arg(long, default_value = "heuristic")]
    player: String,
    /// Random plies at the start of each game: uniformly 0..=R.
    #[arg(long, default_value_t = 20)]
    random_plies: u32,
    /// The endgame class solved exactly (planes out per player): 1v1, 2v1 or 2v2 (2v2: about
    /// 3 million positions, many minutes to build).
    #[arg(long, default_value = "2v1")]
    class: String,
}

/// Reads an endgame class such as `2v1`.
fn parse_class(text: &str) -> anyhow::Result<EndgameClass> {
    let (a, b) = text
        .split_once(['v', 'x'])
        .with_context(|| format!("class `{text}`: expected AvB, such as 2v1"))?;
    let num = |s: &str| {
        s.trim()
            .parse::<usize>()
            .with_context(|| format!("class `{text}`: `{s}` is not a number"))
    };
    Ok(EndgameClass::new(num(a)?, num(b)?)?)
}

/// Builds the standard-rules endgame table of `class`, saying how long it took.
fn build_endgame(g: &Global, class: EndgameClass) -> anyhow::Result<Endgame> {
    let bar = progress(0, "solving the endgame table");
    let table = Endgame::build_with(qiyi_aeroplane::Rules::STANDARD, class, 1e-13, |s, c| {
        bar.set_message(format!(
            "solving the {class} endgame table: sweep {s}, change {c:.1e}"
        ));
    })?;
    bar.finish_and_clear();
    let st = table.stats();
    if !g.json {
        eprintln!(
            "endgame table {class}: {} positions, {:.1} MB, {} sweeps, residual {:.1e}, {:.1} s",
            st.states,
            st.bytes as f64 / 1e6,
            st.sweeps,
            st.residual,
            st.seconds
        );
    }
    Ok(table)
}

/// Options of `qiyi puzzles mine chinese-checkers`.
#[derive(clap::Args, Debug)]
struct CcMineArgs {
    /// Mine positions of seeded two-player self-play games (the only source so far).
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
    /// The player in both seats: random, seed, alphabeta, paranoid, brs, mcts, race or best.
    #[arg(long, default_value = "race")]
    player: String,
    /// The players' level (1-10).
    #[arg(long, default_value_t = 6)]
    level: u32,
    /// Random plies at the start of each game: uniformly 0..=R (many, since the racer's
    /// endings otherwise repeat from game to game).
    #[arg(long, default_value_t = 24)]
    random_plies: u32,
    /// The longest puzzle kept, in moves.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=12))]
    max_n: u32,
    /// The fewest pieces outside the goal a puzzle position may have (1: a lone straggler
    /// counts too).
    #[arg(long, default_value_t = 1)]
    min_out: u32,
    /// Search nodes per search before a position is given up.
    #[arg(long, default_value_t = 2_000_000)]
    budget: u64,
}

/// Options of `qiyi puzzles mine checkers`.
#[derive(clap::Args, Debug)]
struct CkMineArgs {
    /// Mine positions of seeded self-play games (the engine at a fixed depth plays both sides
    /// from the 156 tournament ballots; the only source so far).
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
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Random plies after each ballot: uniformly 0..=R.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// The longest shot kept, in the player's moves (1..=4).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=4))]
    max_n: u32,
    /// Search nodes per position before it is given up.
    #[arg(long, default_value_t = 5_000_000)]
    budget: u64,
    /// An endgame database directory (`qiyi egdb build checkers`): positions it covers are worth
    /// their exact result (win, draw, loss) instead of their material.
    #[arg(long)]
    egdb: Option<PathBuf>,
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
    /// The checkers endgame database, for checkers puzzles proven with it (also read from
    /// `QIYI_CHECKERS_EGDB`).
    #[arg(long)]
    egdb: Option<PathBuf>,
}

/// Runs `qiyi puzzles`.
pub fn puzzles(g: &Global, a: PuzzlesArgs) -> anyhow::Result<()> {
    match a.action {
        PuzzlesAction::Mine(m) => match m.game {
            MineGame::PegSolitaire(p) => mine_peg(g, p),
            MineGame::Xiangqi(x) => mine_xiangqi(g, x),
            MineGame::Checkers(c) => mine_checkers(g, c),
            MineGame::ChineseCheckers(c) => mine_chinese_checkers(g, c),
            MineGame::Aeroplane(a) => mine_aeroplane(g, a),
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

fn check(g: &Global, a: CheckArgs) -> anyhow::Result<()> {
    let file =
        std::fs::File::open(&a.file).with_context(|| format!("opening {}", a.file.display()))?;
    let puzzles = read_puzzles_numbered(std::io::BufReader::new(file))
        .with_context(|| format!("reading {}", a.file.display()))?;
    for (line, p) in &puzzles {
        if [peg::GAME, xq::GAME, ck::GAME, cc::GAME, aero::GAME].contains(&p.game.as_str()) {
            continue;
        }
        bail!(
            "{}: line {line}: unknown game `{}`",
            a.file.display(),
            p.game
        );
    }
    let egdb = if puzzles.iter().any(|(_, p)| p.game == ck::GAME) {
        crate::checkers_engine::load_egdb(&a.egdb)?
    } else {
        None
    };
    // One endgame table holds every aeroplane puzzle: the smallest class above all of theirs.
    let mut need: Option<(usize, usize)> = None;
    for (line, p) in puzzles.iter().filter(|(_, p)| p.game == aero::GAME) {
        let c = aero::puzzle_class(p).map_err(|e| {
            anyhow::anyhow!(
                "{}: line {line}: puzzle `{}` fails: {e}",
                a.file.display(),
                p.id
            )
        })?;
        let (x, y) = need.unwrap_or((1, 1));
        need = Some((x.max(c.a()), y.max(c.b())));
    }
    let started = Instant::now();
    let endgame = match need {
        Some((x, y)) => Some(build_endgame(g, EndgameClass::new(x, y)?)?),
        None => None,
    };
    let bar = progress(puzzles.len() as u64, "checking");
    let results: Vec<Result<(), String>> = with_threads(g.threads(), || {
        puzzles
            .par_iter()
            .map(|(_, p)| {
                let r = if p.game == xq::GAME {
                    xq::check_puzzle(p, a.budget).map_err(|e| e.to_string())
                } else if p.game == cc::GAME {
                    cc::check_puzzle(p, a.budget).map_err(|e| e.to_string())
                } else if p.game == aero::GAME {
                    match &endgame {
                        Some(t) => aero::check_puzzle(p, t).map_err(|e| e.to_string()),
                        None => Err("no endgame table".to_string()),
                    }
                } else if p.game == ck::GAME {
                    ck::check_puzzle(p, egdb.as_deref(), a.budget).map_err(|e| e.to_string())
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
    let mut run = MiningRun::open(&a.out, &opts.manifest(), |p| fen_key(&p.position))?;
    let kept_before = run.kept_before;
    let todo = run.todo(a.games);
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
    let started = Instant::now();
    let mut stats = XqStats::default();
    let (found, duplicates) = mine_games(
        g.threads(),
        &mut run,
        &todo,
        |i| xq::mine_game(&opts, &openings, i),
        |st| stats.add(st),
    )?;
    let secs = started.elapsed().as_secs_f64();
    let per_min = found.len() as f64 * 60.0 / secs.max(1e-9);
    let share = stats.passed as f64 / stats.candidates.max(1) as f64;
    let (by_n, by_theme) = counts(&found, |p| format!("mate-in-{}", xq_n(p)));
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
        println!("by distance: {}", list_counts(&by_n));
        println!("by theme: {}", list_counts(&by_theme));
        println!(
            "wrote {} ({} puzzles in all; seed {})",
            a.out.display(),
            kept_before + found.len(),
            g.seed
        );
    }
    Ok(())
}

/// Mines the games `todo` of a run in chunks of 2 × threads, each chunk in parallel, and writes
/// their puzzles in game order (so a seed gives the same file on any thread count and in any
/// number of resumed steps), with a progress bar; `add` sees each game's counts. Returns the
/// puzzles written and the duplicates skipped.
fn mine_games<S: Send>(
    threads: usize,
    run: &mut MiningRun,
    todo: &[u64],
    mine: impl Fn(u64) -> (Vec<PuzzleRecord>, S) + Sync,
    mut add: impl FnMut(&S),
) -> anyhow::Result<(Vec<PuzzleRecord>, u64)> {
    let bar = progress(todo.len() as u64, "mining");
    let mut found = Vec::new();
    let mut duplicates = 0;
    for chunk in todo.chunks(threads.max(1) * 2) {
        let mined: Vec<(Vec<PuzzleRecord>, S)> =
            with_threads(threads, || chunk.par_iter().map(|&i| mine(i)).collect());
        let mut all = Vec::new();
        for (ps, st) in mined {
            add(&st);
            all.extend(ps);
        }
        let (new, dups) = run.commit(chunk, all)?;
        duplicates += dups;
        found.extend(new);
        bar.inc(chunk.len() as u64);
        bar.set_message(format!("mining ({} puzzles)", found.len()));
    }
    bar.finish_and_clear();
    Ok((found, duplicates))
}

/// How many of `found` fall under each `length` key and under each theme.
fn counts(
    found: &[PuzzleRecord],
    length: impl Fn(&PuzzleRecord) -> String,
) -> (BTreeMap<String, usize>, BTreeMap<String, usize>) {
    let mut by_n: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_theme: BTreeMap<String, usize> = BTreeMap::new();
    for p in found {
        *by_n.entry(length(p)).or_default() += 1;
        for t in &p.themes {
            *by_theme.entry(t.clone()).or_default() += 1;
        }
    }
    (by_n, by_theme)
}

/// Counts of a list of strings, as `a 3, b 1`.
fn list_counts(m: &BTreeMap<String, usize>) -> String {
    m.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn mine_checkers(g: &Global, a: CkMineArgs) -> anyhow::Result<()> {
    if !a.selfplay {
        bail!("give --selfplay: checkers puzzles are mined from seeded self-play games (reading game records is not there yet)");
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let egdb = match &a.egdb {
        Some(_) => crate::checkers_engine::load_egdb(&a.egdb)?,
        None => None,
    };
    let opts = ck::MineOptions {
        seed: g.seed,
        depth: a.depth.max(1),
        random_plies: a.random_plies,
        max_n: a.max_n,
        budget: a.budget,
        db_pieces: egdb.as_ref().map_or(0, |d| d.max_pieces()),
    };
    let mut run = MiningRun::open(&a.out, &opts.manifest(), |p| p.position.clone())?;
    let kept_before = run.kept_before;
    let todo = run.todo(a.games);
    if !g.json {
        println!(
            "mining checkers puzzles: seed {}, games {} ({} already mined), engine depth {}, random plies 0..={}, shots in 1..={} moves, endgame database {}, {} puzzles in {} so far",
            g.seed,
            a.games,
            a.games as usize - todo.len(),
            opts.depth,
            opts.random_plies,
            opts.max_n,
            if opts.db_pieces > 0 { format!("{} pieces", opts.db_pieces) } else { "none".into() },
            kept_before,
            a.out.display()
        );
    }
    let openings = ck::openings()?;
    let started = Instant::now();
    let mut stats = CkStats::default();
    let (found, duplicates) = mine_games(
        g.threads(),
        &mut run,
        &todo,
        |i| ck::mine_game(&opts, &openings, egdb.as_deref(), i),
        |st| stats.add(st),
    )?;
    let secs = started.elapsed().as_secs_f64();
    let per_min = found.len() as f64 * 60.0 / secs.max(1e-9);
    let share = stats.passed as f64 / stats.candidates.max(1) as f64;
    let (by_n, by_theme) = counts(&found, |p| {
        let goal = p.goal.as_deref().unwrap_or_default();
        goal.rsplit(" in ").next().unwrap_or("").to_string()
    });
    if g.json {
        print_json(&json!({
            "game": "checkers",
            "seed": g.seed,
            "games": stats.games,
            "puzzles": found.len(),
            "puzzles_in_file": kept_before + found.len(),
            "out": a.out.display().to_string(),
            "seconds": secs,
            "puzzles_per_minute": per_min,
            "positions": stats.positions,
            "candidates": stats.candidates,
            "passed": stats.passed,
            "pass_share": share,
            "not_unique": stats.not_unique,
            "unstable": stats.unstable,
            "undecided": stats.undecided,
            "duplicates": duplicates,
            "nodes": stats.nodes,
            "by_n": by_n,
            "by_theme": by_theme,
        }))?;
    } else {
        println!(
            "{} puzzles in {secs:.1} s ({per_min:.1}/min) from {} games: {} positions searched, {} candidates, {} passed ({:.1}%), {} not unique, {} lost one move deeper, {} out of budget, {} duplicates, {} search nodes",
            found.len(),
            stats.games,
            stats.positions,
            stats.candidates,
            stats.passed,
            100.0 * share,
            stats.not_unique,
            stats.unstable,
            stats.undecided,
            duplicates,
            stats.nodes
        );
        println!("by length: {}", list_counts(&by_n));
        println!("by theme: {}", list_counts(&by_theme));
        println!(
            "wrote {} ({} puzzles in all; seed {})",
            a.out.display(),
            kept_before + found.len(),
            g.seed
        );
    }
    Ok(())
}

fn mine_chinese_checkers(g: &Global, a: CcMineArgs) -> anyhow::Result<()> {
    if !a.selfplay {
        bail!("give --selfplay: Chinese checkers puzzles are mined from seeded self-play games (reading game records is not there yet)");
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let player = qiyi_chinese_checkers::engine::PlayerKind::parse(&a.player, 2)
        .with_context(|| format!("--player `{}`", a.player))?;
    let opts = cc::MineOptions {
        seed: g.seed,
        player,
        level: a.level.clamp(1, 10),
        random_plies: a.random_plies,
        max_n: a.max_n,
        min_out: a.min_out,
        budget: a.budget,
    };
    let mut run = MiningRun::open(&a.out, &opts.manifest(), cc::position_key)?;
    let kept_before = run.kept_before;
    let todo = run.todo(a.games);
    if !g.json {
        println!(
            "mining chinese-checkers puzzles: seed {}, games {} ({} already mined), player {} level {}, random plies 0..={}, home in 1..={} moves, at least {} pieces out, {} puzzles in {} so far",
            g.seed,
            a.games,
            a.games as usize - todo.len(),
            opts.player,
            opts.level,
            opts.random_plies,
            opts.max_n,
            opts.min_out,
            kept_before,
            a.out.display()
        );
    }
    let started = Instant::now();
    let mut stats = CcStats::default();
    let (found, duplicates) = mine_games(
        g.threads(),
        &mut run,
        &todo,
        |i| cc::mine_game(&opts, i),
        |st| stats.add(st),
    )?;
    let secs = started.elapsed().as_secs_f64();
    let per_min = found.len() as f64 * 60.0 / secs.max(1e-9);
    let share = stats.passed as f64 / stats.candidates.max(1) as f64;
    let (by_n, by_theme) = counts(&found, |p| format!("{:02}", p.solution.len()));
    if g.json {
        print_json(&json!({
            "game": "chinese-checkers",
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
            "too_far": stats.too_far,
            "undecided": stats.undecided,
            "duplicates": duplicates,
            "nodes": stats.nodes,
            "by_n": by_n,
            "by_theme": by_theme,
        }))?;
    } else {
        println!(
            "{} puzzles in {secs:.1} s ({per_min:.1}/min) from {} games: {} candidates, {} passed ({:.1}%), {} not unique, {} too far, {} out of budget, {} duplicates, {} search nodes",
            found.len(),
            stats.games,
            stats.candidates,
            stats.passed,
            100.0 * share,
            stats.not_unique,
            stats.too_far,
            stats.undecided,
            duplicates,
            stats.nodes
        );
        println!("by length (moves): {}", list_counts(&by_n));
        println!("by theme: {}", list_counts(&by_theme));
        println!(
            "wrote {} ({} puzzles in all; seed {})",
            a.out.display(),
            kept_before + found.len(),
            g.seed
        );
    }
    Ok(())
}

fn mine_aeroplane(g: &Global, a: AeroMineArgs) -> anyhow::Result<()> {
    if !a.selfplay {
        bail!("give --selfplay: aeroplane puzzles are mined from seeded self-play games (reading game records is not there yet)");
    }
    if a.games == 0 {
        bail!("--games must be at least 1");
    }
    let player: qiyi_aeroplane::players::PlayerKind = a
        .player
        .parse()
        .with_context(|| format!("--player `{}`", a.player))?;
    let class = parse_class(&a.class)?;
    let opts = aero::MineOptions {
        seed: g.seed,
        player,
        random_plies: a.random_plies,
    };
    let mut run = MiningRun::open(&a.out, &opts.manifest(class), aero::position_key)?;
    let kept_before = run.kept_before;
    let todo = run.todo(a.games);
    if !g.json {
        println!(
            "mining aeroplane puzzles: seed {}, games {} ({} already mined), player {}, random plies 0..={}, endgame class {class}, lead at least {:.0} points, {} puzzles in {} so far",
            g.seed,
            a.games,
            a.games as usize - todo.len(),
            opts.player,
            opts.random_plies,
            aero::MARGIN * 100.0,
            kept_before,
            a.out.display()
        );
    }
    let started = Instant::now();
    let table = build_endgame(g, class)?;
    let built = started.elapsed().as_secs_f64();
    let mut stats = AeroStats::default();
    let (found, duplicates) = mine_games(
        g.threads(),
        &mut run,
        &todo,
        |i| aero::mine_game(&table, &opts, i),
        |st| stats.add(st),
    )?;
    let secs = started.elapsed().as_secs_f64();
    let mining = secs - built;
    let per_min = found.len() as f64 * 60.0 / mining.max(1e-9);
    let share = stats.passed as f64 / stats.candidates.max(1) as f64;
    let (by_n, by_theme) = counts(&found, |p| {
        let r = p.rating.rating;
        format!("{:04}", (r / 100.0).floor() as i64 * 100)
    });
    let st = table.stats();
    if g.json {
        print_json(&json!({
            "game": "aeroplane",
            "seed": g.seed,
            "games": stats.games,
            "puzzles": found.len(),
            "puzzles_in_file": kept_before + found.len(),
            "out": a.out.display().to_string(),
            "seconds": secs,
            "table_seconds": built,
            "table_states": st.states,
            "table_bytes": st.bytes,
            "table_sweeps": st.sweeps,
            "table_residual": st.residual,
            "mining_seconds": mining,
            "puzzles_per_minute": per_min,
            "candidates": stats.candidates,
            "passed": stats.passed,
            "pass_share": share,
            "too_close": stats.too_close,
            "duplicates": duplicates,
            "by_rating": by_n,
            "by_theme": by_theme,
        }))?;
    } else {
        println!(
            "{} puzzles in {secs:.1} s (table {built:.1} s, mining {mining:.1} s, {per_min:.1}/min) from {} games: {} candidates, {} passed ({:.1}%), {} too close, {} duplicates",
            found.len(),
            stats.games,
            stats.candidates,
            stats.passed,
            100.0 * share,
            stats.too_close,
            duplicates,
        );
        println!("by rating: {}", list_counts(&by_n));
        println!("by theme: {}", list_counts(&by_theme));
        println!(
            "wrote {} ({} puzzles in all; seed {})",
            a.out.display(),
            kept_before + found.len(),
            g.seed
        );
    }
    Ok(())
}
