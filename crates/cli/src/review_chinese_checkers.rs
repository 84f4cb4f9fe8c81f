//! `qiyi review chinese-checkers` and `qiyi analyze chinese-checkers`: the judge of
//! [`qiyi_chinese_checkers::review`] (alpha-beta for two players, the race model for more) and
//! every player's race distance (exact within a node budget, else a proven lower bound shown as
//! `>=N`), on the JSON record `qiyi games export` writes.

use anyhow::{bail, Context};
use clap::Args;
use qiyi_chinese_checkers::engine::{alpha_beta_options, Player, PlayerKind};
use qiyi_chinese_checkers::eval::DistanceEval;
use qiyi_chinese_checkers::review::{
    check_limits, read_record, review_game, CcReview, JudgeOptions, RaceDistance, RaceSolver,
    DEFAULT_DEPTH, DEFAULT_RACE_NODES,
};
use qiyi_chinese_checkers::{Move, Options, Position};
use qiyi_core::search::{SearchLimits, Searcher};
use qiyi_core::{Game, Notation};
use serde::Serialize;
use std::time::Instant;

use crate::common::{print_depth, print_json, progress, Global};
use crate::review_shared::{print_review, ReviewArgs};

/// Reviews the Chinese checkers record `text` with the options of `args` and prints the review
/// and the race table.
pub fn run(g: &Global, args: &ReviewArgs, text: &str) -> anyhow::Result<()> {
    if args.annotate.is_some() || args.egdb.is_some() || args.eval.is_some() {
        bail!("--annotate, --egdb and --eval do not apply to chinese-checkers");
    }
    let record = read_record(text)?;
    let players = record.start.num_players();
    if players > 2 && (args.depth.is_some() || args.movetime.is_some()) {
        bail!(
            "--depth and --movetime do not apply to a {players}-player game: its judge is the race \
             model, which searches no game tree"
        );
    }
    let limits = match (args.depth, args.movetime) {
        (Some(_), Some(_)) => bail!("give --depth or --movetime, not both"),
        (_, Some(0)) => bail!("--movetime must be at least 1 ms"),
        (_, Some(ms)) => SearchLimits::move_time(std::time::Duration::from_millis(ms)),
        (d, None) => SearchLimits::depth(d.unwrap_or(DEFAULT_DEPTH)),
    };
    check_limits(&limits)?;
    let options = JudgeOptions {
        limits,
        ..JudgeOptions::default()
    };
    let bar = progress(record.moves.len() as u64, "review");
    let t0 = Instant::now();
    let review = review_game(&record.start, &record.moves, &options, |done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "judge memory: {}the race solver's memo{}",
        if players == 2 {
            "a 16 MiB transposition table (two players), "
        } else {
            "no transposition table (the race model searches no game tree), "
        },
        crate::common::peak_rss_note()
    );
    if g.json {
        return print_json(&review);
    }
    print_review(g, &review.review, 1)?;
    print_race(&review);
    println!(
        "judge: {}; {} plies in {secs:.1} s",
        review.review.judge,
        review.review.plies.len()
    );
    Ok(())
}

fn print_race(r: &CcReview) {
    println!();
    println!("race distances ({})", r.race.method);
    let start: Vec<String> = r.race.start.iter().map(|d| d.to_string()).collect();
    println!("start: {}", start.join("  "));
    println!(
        "{:>4}  {:>6}  {:<14} {:>6} {:>6} {:>6}",
        "ply", "player", "played", "before", "after", "change"
    );
    for p in &r.race.plies {
        println!(
            "{:>4}  {:>6}  {:<14} {:>6} {:>6} {:>+6}{}",
            p.ply + 1,
            p.mover + 1,
            p.played,
            p.before.to_string(),
            p.after.to_string(),
            p.change,
            if p.lengthened {
                "  lengthens own race"
            } else {
                ""
            }
        );
    }
}

/// Options of `qiyi analyze chinese-checkers`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// The position as the crate writes it (`players pieces flags cap to-move ply rows`;
    /// default: the start of a game of --players players).
    #[arg(long)]
    pub position: Option<String>,
    /// Players of the start position when no --position is given (2, 3, 4 or 6).
    #[arg(long, default_value_t = 2)]
    pub players: usize,
    /// Two players: search to this depth (default 6).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: Option<u32>,
    /// Two players: think for this many milliseconds instead of a depth.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub movetime: Option<u64>,
    /// Nodes per race-distance search (more proves more distances exact).
    #[arg(long, default_value_t = DEFAULT_RACE_NODES, value_parser = clap::value_parser!(u64).range(1..))]
    pub race_nodes: u64,
}

/// One player's race distance.
#[derive(Serialize)]
struct RaceEntry {
    player: usize,
    moves: u32,
    exact: bool,
}

/// One completed depth of the two-player search.
#[derive(Serialize)]
struct DepthEntry {
    depth: u32,
    score: i32,
    nodes: u64,
    pv: Vec<String>,
}

/// What `qiyi analyze chinese-checkers` reports.
#[derive(Serialize)]
struct CcAnalyzeReport {
    game: &'static str,
    position: String,
    /// The player to move (0-based).
    player: usize,
    /// How the race distances were computed.
    race_method: String,
    /// Every player's race distance (`exact` false: a proven lower bound).
    race: Vec<RaceEntry>,
    /// The engine's move (`None` when the game is over).
    bestmove: Option<String>,
    /// Which engine chose it.
    engine: String,
    /// Two players: the score (tenths of a hole, side to move's view) at the last depth.
    score: Option<i32>,
    /// Two players: every completed depth.
    depths: Vec<DepthEntry>,
    /// The mover's race distance after the engine's move.
    race_after: Option<RaceEntry>,
}

fn pv_text(pos: &Position, pv: &[Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for &m in pv {
        let mut legal = Vec::new();
        p.legal_moves(&mut legal);
        if p.is_over() || !legal.contains(&m) {
            break;
        }
        out.push(p.move_to_text(m));
        p.make(m);
    }
    out
}

fn entry(player: usize, d: RaceDistance) -> RaceEntry {
    RaceEntry {
        player,
        moves: d.moves,
        exact: d.exact,
    }
}

/// Runs `qiyi analyze chinese-checkers`: race distances per player and the engine's move.
pub fn analyze(g: &Global, a: AnalyzeArgs) -> anyhow::Result<()> {
    let pos = match &a.position {
        Some(text) => Position::from_text(text).context("bad --position")?,
        None => Position::start(Options::players(a.players).context("bad --players")?)?,
    };
    let n = pos.num_players();
    if n > 2 && (a.depth.is_some() || a.movetime.is_some()) {
        bail!("--depth and --movetime apply to two players only: with {n} the engine is the racer, which searches no game tree");
    }
    let mut solver = RaceSolver::new(a.race_nodes);
    let race: Vec<RaceEntry> = (0..n).map(|p| entry(p, solver.distance(&pos, p))).collect();
    let me = pos.to_move();
    let json = g.json;
    let mut depths = Vec::new();
    let (best, score, engine) = if pos.is_over() {
        (None, None, "none: the game is over".to_string())
    } else if n == 2 {
        let limits = match (a.depth, a.movetime) {
            (_, Some(ms)) => SearchLimits::move_time(std::time::Duration::from_millis(ms)),
            (d, None) => SearchLimits::depth(d.unwrap_or(6)),
        };
        let mut options = alpha_beta_options();
        options.threads = g.threads();
        let mut searcher = Searcher::new(DistanceEval, options);
        let r = searcher.search(&pos, &limits, |info| {
            let pv = pv_text(&pos, &info.pv);
            if !json {
                print_depth(info, &pv);
            }
            depths.push(DepthEntry {
                depth: info.depth,
                score: info.score,
                nodes: info.stats.nodes,
                pv,
            });
        });
        (
            r.best_move,
            Some(r.score),
            "alpha-beta, distance evaluation (score in tenths of a hole)".to_string(),
        )
    } else {
        let mut racer = Player::new(PlayerKind::best(n), 10, 0);
        (
            Some(racer.choose(&pos)),
            None,
            format!(
                "{} (the strongest player for {n} players)",
                PlayerKind::best(n)
            ),
        )
    };
    let race_after = best.map(|m| entry(me, solver.distance(&pos.after(m), me)));
    eprintln!(
        "memory: {}the race solver's memo ({} positions expanded){}",
        if n == 2 && !pos.is_over() {
            format!(
                "a {} MiB transposition table, ",
                alpha_beta_options().tt_mib
            )
        } else {
            "no transposition table, ".to_string()
        },
        solver.nodes,
        crate::common::peak_rss_note()
    );
    let report = CcAnalyzeReport {
        game: "chinese-checkers",
        position: pos.to_text(),
        player: me,
        race_method: solver.describe(),
        race,
        bestmove: best.map(|m| pos.move_to_text(m)),
        engine,
        score,
        depths,
        race_after,
    };
    if json {
        return print_json(&report);
    }
    let show = |e: &RaceEntry| RaceDistance {
        moves: e.moves,
        exact: e.exact,
    };
    println!("{pos}");
    println!("race distances ({}):", report.race_method);
    for e in &report.race {
        println!(
            "  player {}{}: {}",
            e.player + 1,
            if e.player == me { " (to move)" } else { "" },
            show(e)
        );
    }
    match (&report.bestmove, &report.race_after) {
        (Some(m), Some(after)) => println!(
            "bestmove {m} ({}); player {}'s race after it: {}",
            report.engine,
            me + 1,
            show(after)
        ),
        _ => println!("no move: {}", report.engine),
    }
    Ok(())
}
