//! `qiyi puzzles`: mine puzzles from seeded play (proven before they are kept) and check a
//! puzzle file (every puzzle replayed and proven again). The model is core's
//! [`qiyi_core::puzzles`]; each game crate supplies its miner and prover.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Context};
use qiyi_aeroplane::endgame::{Endgame, EndgameClass};
use qiyi_aeroplane::puzzles::{self as aero, MineStats as AeroStats};
use qiyi_checkers::puzzles::{self as ck, MineStats as CkStats};
use qiyi_chinese_checkers::puzzles::{self as cc, MineStats as CcStats};
use qiyi_core::puzzles::{read_puzzles_numbered, write_puzzles, MiningRun, PuzzleRecord, Source};
use qiyi_peg_solitaire::puzzles::{self as peg, MineOptions};
use qiyi_peg_solitaire::{with_threads, Board};
use qiyi_xiangqi::puzzles::{self as xq, MineStats as XqStats};
use rayon::prelude::*;
use serde_json::json;
use std::collections::BTreeMap;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
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
    /// from the 156 tournament ballots).
    #[arg(long, conflicts_with = "from")]
    selfplay: bool,
    /// Mine the games of these record files instead: PDN (one game or several), a JSON record,
    /// or JSON Lines of records; every game of every file is mined (`--games`, `--depth` and
    /// `--random-plies` do not apply).
    #[arg(long, num_args = 1.., value_name = "RECORDS")]
    from: Vec<PathBuf>,
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
    /// from the shipped openings).
    #[arg(long, conflicts_with = "from")]
    selfplay: bool,
    /// Mine the games of these record files instead: XQ PGN (one game or several), a JSON
    /// record, or JSON Lines of records (what `qiyi match xiangqi --games-out` writes); every
    /// game of every file is mined (`--games` does not apply).
    #[arg(long, num_args = 1.., value_name = "RECORDS")]
    from: Vec<PathBuf>,
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
    /// Which puzzles: `mate` (mate in N, proven by the mate search), `material` (one move that
    /// wins material, ahead of every other by 250 cp at `--proof-depth`), or `all`.
    #[arg(long, value_enum, default_value_t = XqKind::Mate)]
    kind: XqKind,
    /// The material puzzles' proof depth: the engine's fixed depth for the best move and the
    /// best of the others (replayed by `qiyi puzzles check`).
    #[arg(long, default_value_t = xq::material::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=i64::from(xq::material::MAX_DEPTH)))]
    proof_depth: u32,
}

/// The kinds of Xiangqi puzzles mined.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum XqKind {
    /// Mate in N.
    Mate,
    /// Win material or a decisive advantage in one move.
    Material,
    /// Both.
    All,
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
    if !a.selfplay && a.from.is_empty() {
        bail!("give --selfplay (seeded self-play games) or --from RECORDS (game record files)");
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
        kind: match a.kind {
            XqKind::Mate => xq::Kind::Mate,
            XqKind::Material => xq::Kind::Material,
            XqKind::All => xq::Kind::All,
        },
        proof_depth: a.proof_depth,
    };
    let records = read_record_files(&a.from, xq_record_games)?;
    let manifest = match &records {
        None => opts.manifest(),
        Some(r) => format!(
            "qiyi puzzles mine xiangqi --from {}: seed {} depth {} max_n {} budget {}{}",
            r.files,
            opts.seed,
            opts.depth,
            opts.max_n,
            opts.budget,
            opts.kind_manifest()
        ),
    };
    let mut run = MiningRun::open(&a.out, &manifest, |p| fen_key(&p.position))?;
    let kept_before = run.kept_before;
    let games = records.as_ref().map_or(a.games, |r| r.games.len() as u64);
    let todo = run.todo(games);
    if !g.json {
        match &records {
            None => println!(
                "mining xiangqi puzzles: seed {}, games {} ({} already mined), engine depth {}, random plies 0..={}, mates in 1..={}, {} puzzles in {} so far",
                g.seed,
                a.games,
                a.games as usize - todo.len(),
                opts.depth,
                opts.random_plies,
                opts.max_n,
                kept_before,
                a.out.display()
            ),
            Some(r) => println!(
                "mining xiangqi puzzles from {} games of {} record files ({} already mined): engine depth {}, mates in 1..={}, {} puzzles in {} so far",
                r.games.len(),
                a.from.len(),
                games as usize - todo.len(),
                opts.depth,
                opts.max_n,
                kept_before,
                a.out.display()
            ),
        }
    }
    let openings = match records {
        None => qiyi_xiangqi::learn::openings()?,
        Some(_) => Vec::new(),
    };
    let mine: Box<dyn Fn(u64) -> (Vec<PuzzleRecord>, XqStats) + Sync + '_> = match &records {
        None => Box::new(|i: u64| xq::mine_game(&opts, &openings, i)),
        Some(r) => Box::new(|i: u64| {
            let game = &r.games[i as usize];
            xq::mine_record(&opts, &game.start, &game.moves, |ply, c| {
                let prefix = match c {
                    xq::Candidate::Mate => "xq",
                    xq::Candidate::Material => "xqm",
                };
                game.label(prefix, ply)
            })
        }),
    };
    let started = Instant::now();
    let mut stats = XqStats::default();
    let (found, duplicates) = mine_games(g.threads(), &mut run, &todo, mine, |st| stats.add(st))?;
    let secs = started.elapsed().as_secs_f64();
    let report = MineReport::new(
        "xiangqi",
        g.seed,
        stats.games,
        &found,
        kept_before,
        &a.out,
        secs,
        secs,
        (
            stats.candidates + stats.material_candidates,
            stats.passed + stats.material_passed,
            duplicates,
        ),
        ("by_n", "distance"),
        |p| match p.proof {
            qiyi_core::puzzles::Proof::Engine { .. } => p.goal.clone().unwrap_or_default(),
            _ => format!("mate-in-{}", xq_n(p)),
        },
    );
    let mut summary = if opts.kind == xq::Kind::Mate {
        format!(
            "{} puzzles in {secs:.1} s ({:.1}/min) from {} games: {} candidates, {} passed ({:.1}%), {} not unique, {} no win found, {} repeating, {} out of budget, {} duplicates, {} mate-search nodes",
            found.len(),
            report.per_min(),
            stats.games,
            stats.candidates,
            stats.passed,
            100.0 * report.share(),
            stats.not_unique,
            stats.no_win,
            stats.repeats,
            stats.undecided,
            duplicates,
            stats.nodes
        )
    } else {
        format!(
            "{} puzzles in {secs:.1} s ({:.1}/min) from {} games: {} candidates, {} passed ({:.1}%), {} duplicates",
            found.len(),
            report.per_min(),
            stats.games,
            stats.candidates + stats.material_candidates,
            stats.passed + stats.material_passed,
            100.0 * report.share(),
            duplicates,
        )
    };
    if opts.kind == xq::Kind::All {
        summary.push_str(&format!(
            "; mates: {} candidates, {} passed, {} not unique, {} no win found, {} repeating, {} out of budget, {} mate-search nodes",
            stats.candidates,
            stats.passed,
            stats.not_unique,
            stats.no_win,
            stats.repeats,
            stats.undecided,
            stats.nodes
        ));
    }
    if opts.kind != xq::Kind::Mate {
        summary.push_str(&format!(
            "; material: {} candidates, {} passed, {} margin below {} cp, {} rejected otherwise, {} recaptures",
            stats.material_candidates,
            stats.material_passed,
            stats.small_margin,
            xq::material::MIN_MARGIN_CP,
            stats.material_rejected,
            stats.recaptures
        ));
    }
    report.print(
        g,
        json!({
            "not_unique": stats.not_unique,
            "no_win": stats.no_win,
            "repeats": stats.repeats,
            "undecided": stats.undecided,
            "nodes": stats.nodes,
            "material_candidates": stats.material_candidates,
            "material_passed": stats.material_passed,
            "small_margin": stats.small_margin,
            "material_rejected": stats.material_rejected,
            "recaptures": stats.recaptures,
        }),
        &summary,
    )
}

/// One game of a record file, read for mining.
struct RecordGame<P, M> {
    /// The file, as named on the command line.
    file: String,
    /// A hash of the file's text (8 hex digits), which keeps puzzle ids apart across files.
    hash: String,
    /// The game's number in its file (1 = the first).
    number: u64,
    /// The game's start position.
    start: P,
    /// Its moves, each legal in turn.
    moves: Vec<M>,
}

impl<P, M> RecordGame<P, M> {
    /// The id (`PREFIX-HASH-GAME-PLY`) and source of the puzzle found after `ply` moves.
    fn label(&self, prefix: &str, ply: usize) -> (String, Source) {
        (
            format!("{prefix}-{}-{}-{ply}", self.hash, self.number),
            Source::Record {
                file: self.file.clone(),
                game: self.number,
                ply: ply as u32,
            },
        )
    }
}

/// The games of the record files of `--from`, in file order.
struct Records<P, M> {
    /// The files and their hashes, as the run's manifest names them.
    files: String,
    /// Every game of every file.
    games: Vec<RecordGame<P, M>>,
}

/// FNV-1a of `text`, as 8 hex digits.
fn text_hash(text: &str) -> String {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    format!("{h:08x}")
}

/// Reads the record files `files` (`None` when there are none) with `read`, which turns one
/// file's text into its games (start, moves) or an error naming the line.
#[allow(clippy::type_complexity)]
fn read_record_files<P, M>(
    files: &[PathBuf],
    read: fn(&str) -> anyhow::Result<Vec<(P, Vec<M>)>>,
) -> anyhow::Result<Option<Records<P, M>>> {
    if files.is_empty() {
        return Ok(None);
    }
    let mut names = Vec::new();
    let mut games = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        let file = path.display().to_string();
        let hash = text_hash(&text);
        let found = read(&text).with_context(|| format!("{file}: not a game record file"))?;
        if found.is_empty() {
            bail!("{file}: no games in it");
        }
        for (n, (start, moves)) in found.into_iter().enumerate() {
            games.push(RecordGame {
                file: file.clone(),
                hash: hash.clone(),
                number: n as u64 + 1,
                start,
                moves,
            });
        }
        names.push(format!("{file} ({hash})"));
    }
    Ok(Some(Records {
        files: names.join(", "),
        games,
    }))
}

/// The JSON values of a JSON record file (one record, perhaps over several lines, or JSON
/// Lines), each with its line; a syntax error names its line.
fn json_values(text: &str) -> anyhow::Result<Vec<(usize, serde_json::Value)>> {
    let mut out = Vec::new();
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<serde_json::Value>();
    let (mut at, mut line) = (0, 1);
    loop {
        let gap = &text[at..];
        let lead = gap.len() - gap.trim_start().len();
        line += text[at..at + lead].matches('\n').count();
        match stream.next() {
            None => break,
            Some(Ok(v)) => out.push((line, v)),
            // The line the broken value starts on (serde's own place is often past its end).
            Some(Err(e)) => bail!("line {line}: not JSON: {e}"),
        }
        let end = stream.byte_offset();
        line += text[at + lead..end].matches('\n').count();
        at = end;
    }
    Ok(out)
}

/// Whether a record file's text is JSON (an object, or a list of moves or records).
fn is_json(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('{')
        || (t.starts_with('[') && t[1..].trim_start().starts_with(&['"', '{', ']'][..]))
}

/// The games of PGN text, each with the line it starts on: a game starts at a tag line that
/// follows move text.
fn pgn_games(text: &str) -> Vec<(usize, String)> {
    let mut games: Vec<(usize, String)> = Vec::new();
    let mut has_moves = false;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        let tag = t.starts_with('[');
        if games.is_empty() || (tag && has_moves) {
            if t.is_empty() {
                continue;
            }
            games.push((i + 1, String::new()));
            has_moves = false;
        }
        if !tag && !t.is_empty() && !t.starts_with('%') {
            has_moves = true;
        }
        if let Some((_, g)) = games.last_mut() {
            g.push_str(line);
            g.push('\n');
        }
    }
    games
}

/// The Xiangqi games of a record file: XQ PGN (one game or several), a JSON record or JSON
/// Lines of records (`qiyi match xiangqi --games-out` lines start at their `opening`), each read
/// by [`qiyi_xiangqi::review::read_record`].
fn xq_record_games(
    text: &str,
) -> anyhow::Result<Vec<(qiyi_xiangqi::Position, Vec<qiyi_xiangqi::Move>)>> {
    use qiyi_xiangqi::review::read_record;
    let mut out = Vec::new();
    if is_json(text) {
        for (line, mut v) in json_values(text)? {
            if let Some(o) = v.as_object_mut() {
                // `--games-out` lines: `game` is the game's index, `opening` its start.
                if o.get("game").is_some_and(serde_json::Value::is_u64) {
                    o.remove("game");
                }
                if !o.contains_key("position") {
                    if let Some(fen) = o.get("opening").cloned() {
                        o.insert("position".into(), fen);
                    }
                }
            }
            let r = read_record(&v.to_string())
                .with_context(|| format!("line {line}: game {}", out.len() + 1))?;
            out.push((r.start, r.moves));
        }
    } else {
        for (line, game) in pgn_games(text) {
            let r = read_record(&game)
                .with_context(|| format!("line {line}: game {}", out.len() + 1))?;
            out.push((r.start, r.moves));
        }
    }
    Ok(out)
}

/// The checkers games of a record file: PDN (one game or several, read by
/// [`qiyi_checkers::pdn::read_pdn`]), a JSON record or JSON Lines of records (each read by
/// [`qiyi_checkers::review::read_record`]).
fn ck_record_games(
    text: &str,
) -> anyhow::Result<Vec<(qiyi_checkers::Board, Vec<qiyi_checkers::Move>)>> {
    if is_json(text) {
        let mut out = Vec::new();
        for (line, v) in json_values(text)? {
            let r = qiyi_checkers::review::read_record(&v.to_string())
                .with_context(|| format!("line {line}: game {}", out.len() + 1))?;
            out.push((r.start, r.moves));
        }
        return Ok(out);
    }
    let games = qiyi_checkers::pdn::read_pdn(text)?;
    Ok(games.into_iter().map(|g| (g.start, g.moves)).collect())
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

/// The report every `qiyi puzzles mine` run over games ends with (all but peg solitaire): the
/// shared JSON fields and the `by ...`, `by theme` and `wrote ...` lines; each game adds its own
/// counters and summary line.
struct MineReport<'a> {
    game: &'static str,
    seed: u64,
    games: u64,
    found: &'a [PuzzleRecord],
    kept_before: usize,
    out: &'a Path,
    seconds: f64,
    /// The seconds the puzzles-per-minute rate is over (the mining alone).
    rate_seconds: f64,
    candidates: u64,
    passed: u64,
    duplicates: u64,
    /// The JSON key and the text label of the length counts.
    length_key: &'static str,
    length_label: &'static str,
    by_n: BTreeMap<String, usize>,
    by_theme: BTreeMap<String, usize>,
}

impl<'a> MineReport<'a> {
    /// The report of a run that wrote `found` (after `kept_before` puzzles already in `out`);
    /// `(candidates, passed, duplicates)` are its counts; `length` names each puzzle's length
    /// key, counted under `length_names` (the JSON key and the text label).
    #[allow(clippy::too_many_arguments)]
    fn new(
        game: &'static str,
        seed: u64,
        games: u64,
        found: &'a [PuzzleRecord],
        kept_before: usize,
        out: &'a Path,
        seconds: f64,
        rate_seconds: f64,
        (candidates, passed, duplicates): (u64, u64, u64),
        (length_key, length_label): (&'static str, &'static str),
        length: impl Fn(&PuzzleRecord) -> String,
    ) -> Self {
        let mut by_n: BTreeMap<String, usize> = BTreeMap::new();
        let mut by_theme: BTreeMap<String, usize> = BTreeMap::new();
        for p in found {
            *by_n.entry(length(p)).or_default() += 1;
            for t in &p.themes {
                *by_theme.entry(t.clone()).or_default() += 1;
            }
        }
        MineReport {
            game,
            seed,
            games,
            found,
            kept_before,
            out,
            seconds,
            rate_seconds,
            candidates,
            passed,
            duplicates,
            length_key,
            length_label,
            by_n,
            by_theme,
        }
    }

    /// Puzzles kept per minute of mining.
    fn per_min(&self) -> f64 {
        self.found.len() as f64 * 60.0 / self.rate_seconds.max(1e-9)
    }

    /// The share of candidates proven.
    fn share(&self) -> f64 {
        self.passed as f64 / self.candidates.max(1) as f64
    }

    /// Prints the report: one JSON object (the shared fields and the game's `extra` ones) or the
    /// game's `summary` line and the shared lines.
    fn print(&self, g: &Global, extra: serde_json::Value, summary: &str) -> anyhow::Result<()> {
        let total = self.kept_before + self.found.len();
        if g.json {
            let mut v = json!({
                "game": self.game,
                "seed": self.seed,
                "games": self.games,
                "puzzles": self.found.len(),
                "puzzles_in_file": total,
                "out": self.out.display().to_string(),
                "seconds": self.seconds,
                "puzzles_per_minute": self.per_min(),
                "candidates": self.candidates,
                "passed": self.passed,
                "pass_share": self.share(),
                "duplicates": self.duplicates,
                self.length_key: self.by_n,
                "by_theme": self.by_theme,
            });
            if let (Some(o), serde_json::Value::Object(e)) = (v.as_object_mut(), extra) {
                o.extend(e);
            }
            print_json(&v)?;
        } else {
            println!("{summary}");
            println!("by {}: {}", self.length_label, list_counts(&self.by_n));
            println!("by theme: {}", list_counts(&self.by_theme));
            println!(
                "wrote {} ({total} puzzles in all; seed {})",
                self.out.display(),
                self.seed
            );
        }
        Ok(())
    }
}

/// Counts of a list of strings, as `a 3, b 1`.
fn list_counts(m: &BTreeMap<String, usize>) -> String {
    m.iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn mine_checkers(g: &Global, a: CkMineArgs) -> anyhow::Result<()> {
    if !a.selfplay && a.from.is_empty() {
        bail!("give --selfplay (seeded self-play games) or --from RECORDS (game record files)");
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
    let records = read_record_files(&a.from, ck_record_games)?;
    let manifest = match &records {
        None => opts.manifest(),
        Some(r) => format!(
            "qiyi puzzles mine checkers --from {}: max_n {} budget {} egdb {}",
            r.files, opts.max_n, opts.budget, opts.db_pieces
        ),
    };
    let mut run = MiningRun::open(&a.out, &manifest, |p| p.position.clone())?;
    let kept_before = run.kept_before;
    let games = records.as_ref().map_or(a.games, |r| r.games.len() as u64);
    let todo = run.todo(games);
    if !g.json {
        let db = if opts.db_pieces > 0 {
            format!("{} pieces", opts.db_pieces)
        } else {
            "none".into()
        };
        match &records {
            None => println!(
                "mining checkers puzzles: seed {}, games {} ({} already mined), engine depth {}, random plies 0..={}, shots in 1..={} moves, endgame database {db}, {} puzzles in {} so far",
                g.seed,
                a.games,
                a.games as usize - todo.len(),
                opts.depth,
                opts.random_plies,
                opts.max_n,
                kept_before,
                a.out.display()
            ),
            Some(r) => println!(
                "mining checkers puzzles from {} games of {} record files ({} already mined): shots in 1..={} moves, endgame database {db}, {} puzzles in {} so far",
                r.games.len(),
                a.from.len(),
                games as usize - todo.len(),
                opts.max_n,
                kept_before,
                a.out.display()
            ),
        }
    }
    let openings = match records {
        None => ck::openings()?,
        Some(_) => Vec::new(),
    };
    let db = egdb.as_deref();
    let mine: Box<dyn Fn(u64) -> (Vec<PuzzleRecord>, CkStats) + Sync + '_> = match &records {
        None => Box::new(|i: u64| ck::mine_game(&opts, &openings, db, i)),
        Some(r) => Box::new(|i: u64| {
            let game = &r.games[i as usize];
            ck::mine_record(&opts, &game.start, &game.moves, db, |ply| {
                game.label("ck", ply)
            })
        }),
    };
    let started = Instant::now();
    let mut stats = CkStats::default();
    let (found, duplicates) = mine_games(g.threads(), &mut run, &todo, mine, |st| stats.add(st))?;
    let secs = started.elapsed().as_secs_f64();
    let report = MineReport::new(
        "checkers",
        g.seed,
        stats.games,
        &found,
        kept_before,
        &a.out,
        secs,
        secs,
        (stats.candidates, stats.passed, duplicates),
        ("by_n", "length"),
        |p| {
            let goal = p.goal.as_deref().unwrap_or_default();
            goal.rsplit(" in ").next().unwrap_or("").to_string()
        },
    );
    let summary = format!(
        "{} puzzles in {secs:.1} s ({:.1}/min) from {} games: {} positions searched, {} candidates, {} passed ({:.1}%), {} not unique, {} lost one move deeper, {} out of budget, {} duplicates, {} search nodes",
        found.len(),
        report.per_min(),
        stats.games,
        stats.positions,
        stats.candidates,
        stats.passed,
        100.0 * report.share(),
        stats.not_unique,
        stats.unstable,
        stats.undecided,
        duplicates,
        stats.nodes
    );
    report.print(
        g,
        json!({
            "positions": stats.positions,
            "not_unique": stats.not_unique,
            "unstable": stats.unstable,
            "undecided": stats.undecided,
            "nodes": stats.nodes,
        }),
        &summary,
    )
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
    let report = MineReport::new(
        "chinese-checkers",
        g.seed,
        stats.games,
        &found,
        kept_before,
        &a.out,
        secs,
        secs,
        (stats.candidates, stats.passed, duplicates),
        ("by_n", "length (moves)"),
        |p| format!("{:02}", p.solution.len()),
    );
    let summary = format!(
        "{} puzzles in {secs:.1} s ({:.1}/min) from {} games: {} candidates, {} passed ({:.1}%), {} not unique, {} too far, {} out of budget, {} duplicates, {} search nodes",
        found.len(),
        report.per_min(),
        stats.games,
        stats.candidates,
        stats.passed,
        100.0 * report.share(),
        stats.not_unique,
        stats.too_far,
        stats.undecided,
        duplicates,
        stats.nodes
    );
    report.print(
        g,
        json!({
            "not_unique": stats.not_unique,
            "too_far": stats.too_far,
            "undecided": stats.undecided,
            "nodes": stats.nodes,
        }),
        &summary,
    )
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
    let report = MineReport::new(
        "aeroplane",
        g.seed,
        stats.games,
        &found,
        kept_before,
        &a.out,
        secs,
        mining,
        (stats.candidates, stats.passed, duplicates),
        ("by_rating", "rating"),
        |p| {
            let r = p.rating.rating;
            format!("{:04}", (r / 100.0).floor() as i64 * 100)
        },
    );
    let st = table.stats();
    let summary = format!(
        "{} puzzles in {secs:.1} s (table {built:.1} s, mining {mining:.1} s, {:.1}/min) from {} games: {} candidates, {} passed ({:.1}%), {} too close, {} duplicates",
        found.len(),
        report.per_min(),
        stats.games,
        stats.candidates,
        stats.passed,
        100.0 * report.share(),
        stats.too_close,
        duplicates,
    );
    report.print(
        g,
        json!({
            "table_seconds": built,
            "table_states": st.states,
            "table_bytes": st.bytes,
            "table_sweeps": st.sweeps,
            "table_residual": st.residual,
            "mining_seconds": mining,
            "too_close": stats.too_close,
        }),
        &summary,
    )
}
