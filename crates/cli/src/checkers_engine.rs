//! The checkers engine from the command line: `qiyi analyze checkers`, `qiyi match checkers`,
//! `qiyi egdb build checkers`, `qiyi hub` (Hub protocol), `qiyi book checkers`,
//! `qiyi tune checkers`.

use crate::common::{
    analyze_limits, multipv_report, print_depth, print_json, progress, AnalyzeReport, Global,
};
use anyhow::{bail, Context};
use clap::Args;
use qiyi_checkers::engine::egdb::{BuildProgress, Egdb};
use qiyi_checkers::engine::matches::{player_from_spec, run_match_range, GameScore};
use qiyi_checkers::engine::tune::{tune as spsa, TuneConfig};
use qiyi_checkers::engine::{book, hub, Engine, EvalChoice, Level, SearchChoice, Weights};
use qiyi_checkers::notation::move_to_pdn;
use qiyi_checkers::Checkers;
use qiyi_core::search::SearchLimits;
use qiyi_core::stats::{Pentanomial, Sprt, SprtStatus};
use qiyi_core::Game;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

const START_FEN: &str = "B:W21-32:B1-12";

fn level(text: &str) -> anyhow::Result<Level> {
    Level::parse(text)
        .with_context(|| format!("level must be 'seed', 'seed:DEPTH' or 1-10, not '{text}'"))
}

/// Reads `--eval`: `default`, `hand`, `net` or a net file.
fn eval_choice(text: &str) -> anyhow::Result<EvalChoice> {
    if text == "default" {
        return Ok(EvalChoice::default());
    }
    EvalChoice::parse(text).with_context(|| format!("--eval {text}"))
}

/// The environment variable naming a default endgame database directory, used in play when
/// `--egdb` is not given.
pub const EGDB_ENV: &str = "QIYI_CHECKERS_EGDB";

pub(crate) fn load_egdb(dir: &Option<PathBuf>) -> anyhow::Result<Option<Arc<Egdb>>> {
    let from_env = std::env::var_os(EGDB_ENV).map(PathBuf::from);
    let Some(d) = dir.as_ref().or(from_env.as_ref()) else {
        return Ok(None);
    };
    let n = Egdb::complete_pieces(d);
    if n == 0 {
        let via = if dir.is_some() { "--egdb" } else { EGDB_ENV };
        bail!("no complete endgame database in {} ({via})", d.display());
    }
    let db = Egdb::load(d, n)?;
    eprintln!("endgame database: {n} pieces from {}", d.display());
    Ok(Some(Arc::new(db)))
}

/// Options of `qiyi analyze checkers`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Position as a PDN FEN (default: the start position).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Think for this many milliseconds.
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Strength: `seed`, `seed:DEPTH` or 1-10.
    #[arg(long, default_value = "10")]
    level: String,
    /// Evaluation: `net` (the embedded network), `hand` (hand-written features) or a net file.
    #[arg(long, default_value = "default")]
    eval: String,
    /// Endgame database directory (from `qiyi egdb build checkers`; default: $QIYI_CHECKERS_EGDB).
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// Stop after this many nodes (with --depth or --movetime, whichever comes first; alone,
    /// the search deepens until the budget is spent).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// The search: `default`, `core` (core's generic alpha-beta, the engine before the checkers
    /// search) or switches such as `nolmr:noprune` (see `qiyi match --help`).
    #[arg(long, default_value = "default")]
    search: String,
    /// Report the best N root moves (1-10), each with its score and line, depth by depth.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=10))]
    multipv: u8,
}

/// Reads `--search`.
fn search_choice(text: &str) -> anyhow::Result<SearchChoice> {
    SearchChoice::parse(text).with_context(|| format!("bad --search '{text}'"))
}

fn pv_text(pos: &Checkers, pv: &[qiyi_checkers::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in pv {
        out.push(move_to_pdn(&m));
        p.make(m);
    }
    out
}

/// Analyses one position, printing each depth and the best move.
pub fn analyze(g: &Global, args: AnalyzeArgs) -> anyhow::Result<()> {
    let pos = Checkers::from_fen(&args.fen).with_context(|| format!("bad FEN '{}'", args.fen))?;
    let limits = match (args.nodes, args.movetime, args.depth) {
        (Some(n), None, None) => SearchLimits::nodes(n),
        (n, mt, d) => {
            let mut l = analyze_limits(mt, d)?;
            l.nodes = n;
            l
        }
    };
    let lv = level(&args.level)?;
    let db = load_egdb(&args.egdb)?;
    let eval = eval_choice(&args.eval)?;
    let search = search_choice(&args.search)?;
    let mut engine = Engine::with_search(lv, g.threads(), Weights::default(), db, &eval, &search);
    let memory = match (&lv, &search) {
        (Level::Seed { .. }, _) => "memory: no transposition table (the seed level)".to_string(),
        (_, SearchChoice::Selective(c)) => {
            format!("memory: a {} MiB transposition table", c.tt_mib)
        }
        (_, SearchChoice::Core { .. }) => format!(
            "memory: a {} MiB transposition table",
            qiyi_checkers::engine::player::TT_MIB
        ),
    };
    let json = g.json;
    if args.multipv > 1 && !engine.has_multipv() {
        bail!("--multipv needs a level 1-10 and --search default (the seed level and core's searcher report one line)");
    }
    // Said once the options are known to be usable (an error is the only line then).
    eprintln!("{memory}");
    if args.multipv > 1 {
        return multipv_report(
            json,
            |on| engine.multipv(&pos, &limits, usize::from(args.multipv), on),
            |pv| pv_text(&pos, pv),
            pos.fen(),
            args.level,
        );
    }
    let result = engine.analyse(&pos, &limits, |info| {
        if !json {
            print_depth(info, &pv_text(&pos, &info.pv));
        }
    });
    let report = AnalyzeReport::new(
        &result,
        result.best_move.map(|m| move_to_pdn(&m)),
        pv_text(&pos, &result.pv),
        pos.fen(),
        args.level,
    );
    report.print(json)
}

/// Options of `qiyi match checkers`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// An engine: `qiyi[:level=N|:seed|:seed:D][:eval=hand|net|FILE][:SWITCH...]`,
    /// `hub:COMMAND`, `cep:COMMAND` (checkers-engine's line protocol, which GuiNN's driver
    /// speaks) or a command (protocol detected). Give exactly two; the score is the first one's.
    /// Search switches: `nolmr`, `noprune`, `nocapext`, `nothreat`, `nosingle`, `noiid`, `nocm`,
    /// `noasp`, `margin=N`, `vred=N`, `lmrdiv=N` (tenths), `hash=MIB`; `search=core` plays with
    /// core's generic searcher (the engine before the checkers search).
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Games to play (ballots in a seeded order, each twice with colours swapped).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    games: u32,
    /// Time per move in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    movetime: u64,
    /// Our engines search every move to this depth instead of for `--movetime` (with `--nodes`,
    /// whichever comes first): a game then depends on its ballot, the seed and the budgets only,
    /// so a match split over machines plays the same games. Protocol engines get `level depth=D`
    /// (Hub) or `GO maxdepth D` (checkers-engine's protocol).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Every move searched within this many nodes instead of for `--movetime` (Hub engines get
    /// `level nodes=N`; checkers-engine's protocol has no node budget and refuses it).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Play the match's games from this one on (0-based, even: a pair's first game): `--start
    /// 10 --games 2` plays the sixth ballot pair exactly as a whole match with the same seed
    /// plays it (with `--depth`/`--nodes`).
    #[arg(long, default_value_t = 0)]
    start: u32,
    /// Endgame database directory used to adjudicate (and by the internal engines; default:
    /// $QIYI_CHECKERS_EGDB when set).
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// Print every game's moves.
    #[arg(long)]
    verbose: bool,
    /// Run a sequential probability ratio test `ELO0,ELO1` (logistic Elo, alpha = beta = 0.05,
    /// pentanomial over ballot pairs): the match stops as soon as it decides, `--games` being
    /// the most it plays.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// Both players without their opening books (ours, and `SETPARAMETER use_book false` to
    /// checkers-engine protocol programs such as GuiNN): the search plays from the ballot on.
    #[arg(long)]
    no_book: bool,
    /// Append every game to this file, one line each: number, ballot, who moved first from it,
    /// the result for the first engine, why it ended, the ballot position and the moves (the
    /// format `ck_match.py --log` writes, which `scripts/checkers/diagnose_losses.py` reads).
    #[arg(long)]
    log: Option<PathBuf>,
}

/// What an SPRT found, for the report.
#[derive(Serialize)]
struct SprtReport {
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
    llr: f64,
    lower: f64,
    upper: f64,
    pentanomial: [u64; 5],
    result: &'static str,
}

/// Reads `--sprt ELO0,ELO1`.
pub fn parse_sprt(text: &str) -> anyhow::Result<Sprt> {
    let parts: Vec<f64> = text
        .split(',')
        .map(|x| x.trim().parse::<f64>())
        .collect::<Result<_, _>>()
        .with_context(|| format!("--sprt takes ELO0,ELO1 (two numbers), not '{text}'"))?;
    match parts[..] {
        [e0, e1] if e0.is_finite() && e1.is_finite() && e0 < e1 => Ok(Sprt::new(e0, e1)),
        _ => bail!("--sprt takes ELO0,ELO1 with ELO0 < ELO1, not '{text}'"),
    }
}

#[derive(Serialize)]
struct MatchReport {
    engine_a: String,
    engine_b: String,
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: f64,
    score_margin95: f64,
    elo: f64,
    elo_low95: f64,
    elo_high95: f64,
    movetime_ms: u64,
    /// The fixed depth of our engines' moves (`--depth`), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<u32>,
    /// The fixed node budget (`--nodes`), when given.
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<u64>,
    /// The first game played (`--start`).
    start: u32,
    seed: u64,
    seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<SprtReport>,
}

/// Plays a match and prints W/D/L, score and Elo with the 95% interval.
pub fn play_match(g: &Global, args: MatchArgs) -> anyhow::Result<()> {
    if args.engines.len() != 2 {
        bail!(
            "give exactly two --engine options, found {}",
            args.engines.len()
        );
    }
    let sprt = args.sprt.as_deref().map(parse_sprt).transpose()?;
    if args.start % 2 != 0 {
        bail!(
            "--start must be even (the first game of a ballot pair), not {}",
            args.start
        );
    }
    let db = load_egdb(&args.egdb)?;
    let threads = g.threads.map_or(1, usize::from);
    let mut a = player_from_spec(&args.engines[0], threads, db.clone())?;
    let mut b = player_from_spec(&args.engines[1], threads, db.clone())?;
    if args.no_book {
        a.set_book(false)?;
        b.set_book(false)?;
    }
    if args.depth.is_some() || args.nodes.is_some() {
        let limits = SearchLimits {
            depth: args.depth,
            nodes: args.nodes,
            ..Default::default()
        };
        a.set_limits(limits.clone())?;
        b.set_limits(limits)?;
    }
    let mut log = match &args.log {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .with_context(|| format!("cannot open the log {}", path.display()))?,
        ),
        None => None,
    };
    let ballot_starts: std::collections::HashMap<u16, qiyi_checkers::Board> =
        qiyi_checkers::ballot::tournament_ballots()
            .into_iter()
            .filter_map(|b| b.play().ok().map(|(start, _)| (b.number, start)))
            .collect();
    let mut game_number = args.start as usize;
    let mut log_error = None;
    let (na, nb) = (a.name(), b.name());
    let bar = progress(u64::from(args.games), &format!("{na} vs {nb}"));
    let started = Instant::now();
    let verbose = args.verbose && !g.json;
    let mut penta = Pentanomial::default();
    let mut first_of_pair: Option<f64> = None;
    let mut status = SprtStatus::Continue;
    let (start, games) = (args.start as usize, args.games as usize);
    let s = run_match_range(
        a.as_mut(),
        b.as_mut(),
        start + games,
        start..start + games,
        Duration::from_millis(args.movetime),
        g.seed,
        db.as_deref(),
        |rec, sum| {
            bar.inc(1);
            let points = match rec.score {
                GameScore::WinA => 1.0,
                GameScore::Draw => 0.5,
                GameScore::WinB => 0.0,
            };
            match first_of_pair.take() {
                None => first_of_pair = Some(points),
                Some(p) => penta.add_pair(p, points),
            }
            let llr = sprt.map(|t| {
                status = t.status(&penta);
                t.llr(&penta)
            });
            bar.set_message(match llr {
                None => format!("{na} vs {nb} +{}={}-{}", sum.wins, sum.draws, sum.losses),
                Some(l) => format!(
                    "{na} vs {nb} +{}={}-{} LLR {l:+.2}",
                    sum.wins, sum.draws, sum.losses
                ),
            });
            game_number += 1;
            if let (Some(f), Some(start)) = (log.as_mut(), ballot_starts.get(&rec.ballot)) {
                use std::io::Write;
                let a_color = if rec.a_black {
                    qiyi_checkers::Color::Black
                } else {
                    qiyi_checkers::Color::White
                };
                let first = if start.side_to_move() == a_color {
                    "first"
                } else {
                    "second"
                };
                let result = match rec.score {
                    GameScore::WinA => "win",
                    GameScore::Draw => "draw",
                    GameScore::WinB => "loss",
                };
                if let Err(e) = writeln!(
                    f,
                    "game {game_number}\tballot {}\tA {first}\t{result}\t{}\tfen {}\tmoves {}",
                    rec.ballot,
                    rec.reason,
                    qiyi_checkers::notation::board_to_fen(start),
                    rec.moves.join(" ")
                ) {
                    log_error.get_or_insert(e);
                }
            }
            if verbose {
                let r = match rec.score {
                    GameScore::WinA => "1-0 for A",
                    GameScore::Draw => "draw",
                    GameScore::WinB => "0-1 for A",
                };
                bar.suspend(|| {
                    println!(
                        "ballot {:>3} A={} {r} ({}): {}",
                        rec.ballot,
                        if rec.a_black { "Black" } else { "White" },
                        rec.reason,
                        rec.moves.join(" ")
                    )
                });
            }
            status == SprtStatus::Continue
        },
    )?;
    bar.finish_and_clear();
    if let Some(e) = log_error {
        bail!("could not write the game log: {e}");
    }
    let (elo, (lo, hi)) = (s.elo(), s.elo_interval());
    let report = MatchReport {
        engine_a: na,
        engine_b: nb,
        games: s.games(),
        wins: s.wins,
        draws: s.draws,
        losses: s.losses,
        score: s.score(),
        score_margin95: s.score_margin(),
        elo,
        elo_low95: lo,
        elo_high95: hi,
        movetime_ms: args.movetime,
        depth: args.depth,
        nodes: args.nodes,
        start: args.start,
        seed: g.seed,
        seconds: started.elapsed().as_secs_f64(),
        sprt: sprt.map(|t| {
            let (lower, upper) = t.bounds();
            SprtReport {
                elo0: t.elo0,
                elo1: t.elo1,
                alpha: t.alpha,
                beta: t.beta,
                llr: t.llr(&penta),
                lower,
                upper,
                pentanomial: penta.counts,
                result: match status {
                    SprtStatus::H1 => "H1 accepted",
                    SprtStatus::H0 => "H0 accepted",
                    SprtStatus::Continue => "undecided",
                },
            }
        }),
    };
    if g.json {
        print_json(&report)
    } else {
        let budget = match (report.depth, report.nodes) {
            (Some(d), Some(n)) => format!("depth {d}, {n} nodes a move"),
            (Some(d), None) => format!("depth {d}"),
            (None, Some(n)) => format!("{n} nodes a move"),
            (None, None) => format!("{} ms/move", report.movetime_ms),
        };
        println!(
            "{} vs {}: +{} ={} -{} in {} games, score {:.1}% ± {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}] (95%), {budget}, seed {}",
            report.engine_a,
            report.engine_b,
            report.wins,
            report.draws,
            report.losses,
            report.games,
            100.0 * report.score,
            100.0 * report.score_margin95,
            report.elo,
            report.elo_low95,
            report.elo_high95,
            report.seed
        );
        if let Some(t) = &report.sprt {
            println!(
                "SPRT elo0 {} elo1 {} (alpha {}, beta {}): LLR {:+.2} in [{:.2}, {:.2}], \
                 pairs 0/½/1/1½/2 = {:?}: {}",
                t.elo0, t.elo1, t.alpha, t.beta, t.llr, t.lower, t.upper, t.pentanomial, t.result
            );
        }
        Ok(())
    }
}

/// Options of `qiyi egdb build checkers`.
#[derive(Args, Debug)]
pub struct EgdbBuildArgs {
    /// Build every table with at most this many pieces.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=8))]
    pieces: u8,
    /// Directory for the tables (created; finished tables found there are kept: resumable).
    #[arg(long)]
    out: PathBuf,
}

#[derive(Serialize)]
struct EgdbReport {
    pieces: u8,
    tables: usize,
    positions: u64,
    wins: u64,
    losses: u64,
    draws: u64,
    bytes: usize,
    seconds: f64,
    threads: usize,
    dir: String,
}

/// Builds the endgame database with a progress bar.
pub fn egdb_build(g: &Global, args: EgdbBuildArgs) -> anyhow::Result<()> {
    let threads = g.threads();
    let total = qiyi_checkers::engine::egdb::Material::all_up_to(args.pieces as usize).len();
    let bar = progress(total as u64, "egdb");
    let started = Instant::now();
    let mut counts = [0u64; 3];
    let mut positions = 0u64;
    let json = g.json;
    let db = Egdb::build_with_threads(
        args.pieces as usize,
        Some(&args.out),
        threads,
        |p: &BuildProgress| {
            bar.set_position(p.done as u64);
            bar.set_message(format!("egdb {}", p.material.file_name()));
            for (c, n) in counts.iter_mut().zip(p.counts) {
                *c += n;
            }
            positions += p.counts.iter().sum::<u64>();
            if !json && p.passes > 0 {
                bar.suspend(|| {
                    println!(
                        "{:<14} {:>11} slots {:>3} passes  W {:>10} L {:>10} D {:>10}  {:.1}s",
                        p.material.file_name(),
                        p.slots,
                        p.passes,
                        p.counts[0],
                        p.counts[1],
                        p.counts[2],
                        started.elapsed().as_secs_f64()
                    )
                });
            }
        },
    )?;
    bar.finish_and_clear();
    let report = EgdbReport {
        pieces: args.pieces,
        tables: total,
        positions,
        wins: counts[0],
        losses: counts[1],
        draws: counts[2],
        bytes: db.bytes(),
        seconds: started.elapsed().as_secs_f64(),
        threads,
        dir: args.out.display().to_string(),
    };
    if json {
        print_json(&report)
    } else {
        println!(
            "{} tables up to {} pieces: {} positions built now (W {} L {} D {}), {} bytes, {:.1}s on {} threads, in {}",
            report.tables,
            report.pieces,
            report.positions,
            report.wins,
            report.losses,
            report.draws,
            report.bytes,
            report.seconds,
            report.threads,
            report.dir
        );
        Ok(())
    }
}

/// Options of `qiyi hub`.
#[derive(Args, Debug)]
pub struct HubArgs {
    /// Strength: `seed`, `seed:DEPTH` or 1-10.
    #[arg(long, default_value = "10")]
    level: String,
    /// Evaluation: `net` (the embedded network), `hand` (hand-written features) or a net file.
    #[arg(long, default_value = "default")]
    eval: String,
    /// Endgame database directory (from `qiyi egdb build checkers`), probed during the search
    /// (default: $QIYI_CHECKERS_EGDB when set).
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// The search: `default`, `core` or switches such as `nolmr:noprune` (see `qiyi match --help`).
    #[arg(long, default_value = "default")]
    search: String,
    /// Play without the opening book (from the first move on, the search decides).
    #[arg(long)]
    no_book: bool,
}

/// Speaks the Hub protocol (English checkers) on stdin/stdout until `quit`.
pub fn hub(g: &Global, args: HubArgs) -> anyhow::Result<()> {
    let options = hub::HubOptions {
        level: level(&args.level)?,
        threads: g.threads.map_or(1, usize::from),
        egdb: load_egdb(&args.egdb)?,
        eval: eval_choice(&args.eval)?,
        search: search_choice(&args.search)?,
        book: !args.no_book,
    };
    let stdin = std::io::stdin();
    hub::run_with_options(stdin.lock(), std::io::stdout(), options)?;
    Ok(())
}

/// Options of `qiyi book checkers`.
#[derive(Args, Debug)]
#[command(group(clap::ArgGroup::new("budget").args(["depth", "nodes", "movetime"])))]
pub struct BookArgs {
    /// Search every book position to this depth (reproducible with --threads 1).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Search every book position for this many nodes (reproducible with --threads 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000_000))]
    nodes: Option<u64>,
    /// Search time per book position in milliseconds (the default: 1000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=600_000))]
    movetime: Option<u64>,
    /// Only part K of N (`--part 2/4`: every fourth position from the third): one machine's
    /// share; the parts' files together are the whole book, identical to one run.
    #[arg(long, value_parser = parse_part)]
    part: Option<(usize, usize)>,
    /// Where to write the book (TSV). A file that exists is resumed: its positions are kept and
    /// skipped, if it was built with the same budget.
    #[arg(long)]
    out: PathBuf,
}

/// Reads `K/N` with 1 <= K <= N.
fn parse_part(text: &str) -> Result<(usize, usize), String> {
    let (k, n) = text
        .split_once('/')
        .ok_or_else(|| format!("`{text}`: expected K/N, e.g. 1/4"))?;
    let k: usize = k
        .trim()
        .parse()
        .map_err(|_| format!("`{k}` is not a part number"))?;
    let n: usize = n
        .trim()
        .parse()
        .map_err(|_| format!("`{n}` is not a number of parts"))?;
    if n == 0 || k == 0 || k > n {
        return Err(format!("part {k}/{n}: K must be between 1 and N"));
    }
    Ok((k, n))
}

/// Builds the opening book (resumable, appended one position at a time).
pub fn book(g: &Global, args: BookArgs) -> anyhow::Result<()> {
    use std::io::Write;
    let budget = match (args.depth, args.nodes, args.movetime) {
        (Some(d), _, _) => book::BookBudget::Depth(d),
        (_, Some(n), _) => book::BookBudget::Nodes(n),
        (_, _, ms) => book::BookBudget::MoveTime(Duration::from_millis(ms.unwrap_or(1000))),
    };
    let threads = g.threads();
    if budget.is_deterministic() && threads > 1 {
        eprintln!("note: with --threads {threads} the book depends on thread timing; --threads 1 makes it reproducible");
    }
    let all = book::book_positions();
    let positions: Vec<_> = match args.part {
        Some((k, n)) => all.iter().skip(k - 1).step_by(n).copied().collect(),
        None => all,
    };
    let existing = match std::fs::read_to_string(&args.out) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", args.out.display())),
    };
    if !existing.is_empty() {
        match book::book_header_budget(&existing) {
            Some(option) if option == budget.option() => {}
            Some(option) => bail!(
                "{} holds a book built with {option}, not {}: pass the same budget to resume it, or another --out",
                args.out.display(),
                budget.option()
            ),
            None => bail!(
                "{} is not a book written by `qiyi book checkers` with a recorded budget; choose another --out",
                args.out.display()
            ),
        }
    }
    let done = book::positions_in(&existing);
    let already = positions.iter().filter(|b| done.contains(b)).count();
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .with_context(|| format!("opening {}", args.out.display()))?;
    if existing.is_empty() {
        file.write_all(book::book_header(&budget).as_bytes())
            .with_context(|| format!("writing {}", args.out.display()))?;
    }
    let bar = progress(positions.len() as u64, "book");
    let started = Instant::now();
    book::build_lines(
        &positions,
        &done,
        &budget,
        threads,
        |line| {
            file.write_all(line.as_bytes())?;
            file.flush()
        },
        |i, _| bar.set_position(i as u64),
    )
    .with_context(|| format!("writing {}", args.out.display()))?;
    bar.finish_and_clear();
    let n = positions.len();
    let searched = n - already;
    let secs = started.elapsed().as_secs_f64();
    if g.json {
        print_json(&serde_json::json!({
            "positions": n, "searched": searched, "resumed": already,
            "budget": budget.option(), "threads": threads, "seconds": secs,
            "out": args.out.display().to_string(),
        }))
    } else {
        println!(
            "{n} book positions in {} ({searched} searched, {already} kept from before; {}, {threads} thread(s), {secs:.1} s)",
            args.out.display(),
            budget.option()
        );
        Ok(())
    }
}

/// Options of `qiyi tune checkers`.
#[derive(Args, Debug)]
pub struct TuneArgs {
    /// SPSA steps (two games each).
    #[arg(long, default_value_t = 200)]
    iterations: usize,
    /// Search depth of the self-play games.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
}

/// Tunes the evaluation weights by self-play and prints them.
pub fn tune(g: &Global, args: TuneArgs) -> anyhow::Result<()> {
    let bar = progress(args.iterations as u64, "tune");
    let cfg = TuneConfig {
        iterations: args.iterations,
        depth: args.depth,
        seed: g.seed,
        rate: 1.0,
    };
    let w = spsa(Weights::HAND, &cfg, |i, _| bar.set_position(i as u64));
    bar.finish_and_clear();
    let pairs: Vec<(String, i32)> = Weights::NAMES
        .iter()
        .map(|n| n.to_string())
        .zip(w.to_vec())
        .collect();
    if g.json {
        print_json(
            &serde_json::json!({ "weights": pairs.iter().map(|(n, v)| (n.clone(), *v)).collect::<std::collections::BTreeMap<_, _>>(), "seed": g.seed, "iterations": args.iterations, "depth": args.depth }),
        )
    } else {
        for (n, v) in pairs {
            println!("{n:<14} {v}");
        }
        Ok(())
    }
}
