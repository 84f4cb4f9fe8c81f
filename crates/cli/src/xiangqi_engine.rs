//! `qiyi uci`, `qiyi ucci` and `qiyi analyze xiangqi`: the Xiangqi engine from the command line.

use crate::common::{
    analyze_limits, multipv_report, print_depth, print_json, AnalyzeReport, Global,
};
use anyhow::{bail, Context};
use clap::Args;
use qiyi_xiangqi::engine::{Engine, EngineConfig, Level};
use qiyi_xiangqi::protocol::{self, Dialect};
use qiyi_xiangqi::{Position, START_FEN};
use serde::Serialize;
use std::time::Duration;

/// Options of the protocol commands.
#[derive(Args, Debug)]
pub struct ProtocolArgs {
    /// Strength: `seed` (the tutorial's player) or 1-10 (10 = full strength).
    #[arg(long, default_value = "10")]
    level: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Evaluation: `net` (the net that ships with qiyi), `hand` (the tuned hand-written one) or
    /// the path of a net file from `qiyi train xiangqi`.
    #[arg(long, default_value = "net")]
    eval: String,
}

/// The net `--eval` names (`None`: the hand evaluation).
pub fn eval_net(text: &str) -> anyhow::Result<Option<std::sync::Arc<qiyi_core::learn::QuantNet>>> {
    Ok(qiyi_xiangqi::learn::EvalChoice::parse(text)
        .context("--eval")?
        .net())
}

fn level(text: &str) -> anyhow::Result<Level> {
    Level::parse(text).with_context(|| format!("level must be 'seed' or 1-10, not '{text}'"))
}

/// Speaks UCI (or UCCI) on stdin/stdout until `quit`.
pub fn protocol(g: &Global, args: ProtocolArgs, dialect: Dialect) -> anyhow::Result<()> {
    let config = EngineConfig {
        hash_mib: args.hash as usize,
        threads: g.threads.map_or(1, usize::from),
        level: level(&args.level)?,
        seed: g.seed,
        net: eval_net(&args.eval)?,
    };
    let stdin = std::io::stdin();
    protocol::run(dialect, stdin.lock(), std::io::stdout(), config)?;
    Ok(())
}

/// Options of `qiyi analyze xiangqi`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    /// Position in FEN (default: the start position).
    #[arg(long, default_value = START_FEN)]
    fen: String,
    /// Think for this many milliseconds.
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Search to this depth.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: Option<u32>,
    /// Strength: `seed` or 1-10.
    #[arg(long, default_value = "10")]
    level: String,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Report the best N root moves (1-10), each with its score and line, depth by depth.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=10))]
    multipv: u8,
    /// Evaluation: `net` (the net that ships with qiyi), `hand` (the tuned hand-written one) or
    /// the path of a net file from `qiyi train xiangqi`.
    #[arg(long, default_value = "net")]
    eval: String,
}

/// Analyses one position, printing each depth and the best move.
pub fn analyze(g: &Global, args: AnalyzeArgs) -> anyhow::Result<()> {
    let pos = Position::from_fen(&args.fen).with_context(|| format!("bad FEN '{}'", args.fen))?;
    let limits = analyze_limits(args.movetime, args.depth)?;
    let config = EngineConfig {
        hash_mib: args.hash as usize,
        threads: g.threads(),
        level: level(&args.level)?,
        seed: g.seed,
        net: eval_net(&args.eval)?,
    };
    let seed_level = matches!(config.level, Level::Seed);
    let mut engine = Engine::new(config);
    let memory = if seed_level {
        "memory: no transposition table (the seed level)".to_string()
    } else {
        format!("memory: a {} MiB transposition table (--hash)", args.hash)
    };
    let json = g.json;
    if args.multipv > 1 && !engine.has_multipv() {
        bail!("--multipv needs a level 1-10 (the seed level's searcher reports one line)");
    }
    // Said once the options are known to be usable (an error is the only line then).
    eprintln!("{memory}");
    if args.multipv > 1 {
        let notation = |pv: &[qiyi_xiangqi::Move]| pv.iter().map(|m| m.to_string()).collect();
        return multipv_report(
            json,
            |on| engine.multipv(&pos, &limits, usize::from(args.multipv), on),
            notation,
            pos.to_fen(),
            args.level,
        );
    }
    let result = engine.think(&pos, &limits, |info| {
        if !json {
            let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
            print_depth(info, &pv);
        }
    });
    let report = AnalyzeReport::new(
        &result,
        result.best_move.map(|m| m.to_string()),
        result.pv.iter().map(|m| m.to_string()).collect(),
        pos.to_fen(),
        args.level,
    );
    report.print(json)
}

/// Options of `qiyi match xiangqi`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// A player, twice: `qiyi`, `qiyi:level=N`, `qiyi:seed`, `uci:COMMAND` or `ucci:COMMAND`.
    #[arg(long = "engine", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Games to play (rounded up to colour-swapped pairs).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    games: u64,
    /// Milliseconds per move.
    #[arg(long, conflicts_with_all = ["tc", "depth", "nodes"])]
    movetime: Option<u64>,
    /// Clock as BASE+INC in seconds, e.g. 10+0.1.
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    tc: Option<String>,
    /// Our engines search every move to this depth instead of on a clock (with `--nodes`,
    /// whichever comes first): a game then depends on its opening, the seed and the budget
    /// only, so a match split over machines (`--start`) plays the same games. External engines
    /// get `go depth D` (UCI, UCCI): their games are as reproducible as they are.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Our engines search every move within this many nodes instead of on a clock.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Play the match's games from this one on (0-based, even: a pair's first game): `--start
    /// 10 --games 2` plays the sixth pair (opening 6, both colours) exactly as a whole match
    /// with the same seed plays it (with `--depth`/`--nodes`).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=100_000))]
    start: u64,
    /// Opening file (one FEN or `startpos moves ...` per line); default: the shipped set.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// A game reaching this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Write every game (opening FEN, colours, ICCS moves, end, result) as one JSON line to this
    /// file, to study the games or label their positions for tuning.
    #[arg(long)]
    games_out: Option<std::path::PathBuf>,
    /// Every game a player loses by failing (no legal move returned, out of time, engine error)
    /// is appended to this file as a comment and the `position` command that replays it; the
    /// file is written only when a game fails, and its path is printed.
    #[arg(long, default_value = "qiyi-match-failures.txt")]
    failures: std::path::PathBuf,
    /// Stop as soon as a sequential probability ratio test decides: `ELO0,ELO1` (e.g. `0,10`):
    /// H0 "A is ELO0 stronger" against H1 "A is ELO1 stronger", alpha = beta = 0.05, on the
    /// colour-swapped pairs (pentanomial); `--games` is the most it plays.
    #[arg(long)]
    sprt: Option<String>,
}

#[derive(Serialize)]
struct MatchSummary {
    engines: [String; 2],
    games: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    score: f64,
    elo: f64,
    elo_low: f64,
    elo_high: f64,
    ms_per_move: [f64; 2],
    time_control: String,
    /// The first game played (`--start`).
    start: u64,
    seed: u64,
    /// Games lost by a failure, and the file that replays them (when there were any).
    failures: usize,
    failures_file: Option<String>,
    /// The SPRT, when one was asked for.
    sprt: Option<SprtSummary>,
}

#[derive(Serialize)]
struct SprtSummary {
    elo0: f64,
    elo1: f64,
    llr: f64,
    lower: f64,
    upper: f64,
    pentanomial: [u64; 5],
    result: &'static str,
}

/// Appends `text` to `path`, creating it when missing.
fn append(path: &std::path::Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?
        .write_all(text.as_bytes())
}

/// Plays a match between two engines and reports W/D/L and Elo with a 95% interval.
pub fn play_match(g: &Global, args: MatchArgs) -> anyhow::Result<()> {
    use qiyi_xiangqi::matchplay::{self, MatchConfig, PlayerSpec, TimeControl};
    let [a, b] = args.engines.as_slice() else {
        bail!("give --engine exactly twice");
    };
    let pa = PlayerSpec::parse(a)?;
    let pb = PlayerSpec::parse(b)?;
    let time = match (args.movetime, &args.tc, args.depth, args.nodes) {
        (_, _, depth @ Some(_), nodes) | (_, _, depth, nodes @ Some(_)) => {
            TimeControl::Fixed { depth, nodes }
        }
        (Some(ms), None, None, None) => TimeControl::MoveTime(Duration::from_millis(ms.max(1))),
        (None, Some(tc), None, None) => TimeControl::parse_clock(tc)?,
        _ => bail!("give --movetime MS, --tc BASE+INC, or --depth D / --nodes N"),
    };
    if args.start % 2 != 0 {
        bail!(
            "--start must be even (the first game of a colour-swapped pair), not {}",
            args.start
        );
    }
    let openings = match &args.openings {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            matchplay::parse_openings(&text)?
        }
        None => matchplay::parse_openings(matchplay::OPENINGS)?,
    };
    if openings.is_empty() {
        bail!("the opening file has no positions");
    }
    let mut games_out = match &args.games_out {
        Some(path) => Some(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        ),
        None => None,
    };
    let opening_fens = openings.clone();
    let mut write_error = None;
    let config = MatchConfig {
        games: args.start as usize + args.games as usize,
        time: time.clone(),
        openings,
        max_plies: args.max_plies,
        seed: g.seed,
    };
    let total = args.games.div_ceil(2) * 2;
    let first = args.start as usize;
    let bar = crate::common::progress(total, "games");
    let json = g.json;
    let mut failures = Vec::new();
    let range = first..first + total as usize;
    let sprt = args
        .sprt
        .as_deref()
        .map(crate::checkers_engine::parse_sprt)
        .transpose()?;
    let mut on_game = |rec: &matchplay::GameRecord| {
        bar.inc(1);
        if rec.end.is_failure() {
            let opening = opening_fens.get(rec.opening).map_or("", String::as_str);
            failures.push(format!(
                "# game {}: {} (A = {} as {}, seed {})\n{}\n",
                first as u64 + bar.position(),
                matchplay::describe_end(&rec.end),
                pa.name(),
                if rec.a_is_red { "red" } else { "black" },
                g.seed,
                matchplay::replay_command(opening, &rec.moves)
            ));
            if let Err(e) = append(&args.failures, failures.last().map_or("", String::as_str)) {
                write_error.get_or_insert(e);
            }
        }
        if let Some(file) = games_out.as_mut() {
            use std::io::Write;
            let line = serde_json::json!({
                "game": first as u64 + bar.position() - 1,
                "opening": opening_fens.get(rec.opening),
                "a_is_red": rec.a_is_red,
                "moves": rec.moves,
                "end": matchplay::describe_end(&rec.end),
                "a_score": rec.a_score,
            });
            if let Err(e) = writeln!(file, "{line}") {
                write_error.get_or_insert(e);
            }
        }
        // Read the position before `suspend`, which holds the bar's lock while it runs.
        let played = first as u64 + bar.position();
        if !json {
            bar.suspend(|| {
                println!(
                    "game {:>3}  opening {:>2}  A={}  {:>3} plies  {}  A scores {}",
                    played,
                    rec.opening + 1,
                    if rec.a_is_red { "red  " } else { "black" },
                    rec.moves.len(),
                    matchplay::describe_end(&rec.end),
                    rec.a_score
                )
            });
        }
    };
    // With an SPRT, one colour-swapped pair at a time, so the test can stop the match.
    let step = if sprt.is_some() { 2 } else { total as usize };
    let mut report = matchplay::MatchReport::default();
    let mut at = range.start;
    let mut decided = qiyi_core::stats::SprtStatus::Continue;
    let mut penta = qiyi_core::stats::Pentanomial::default();
    while at < range.end && decided == qiyi_core::stats::SprtStatus::Continue {
        let end = (at + step).min(range.end);
        let part = matchplay::play_match_range(&pa, &pb, &config, at..end, &mut on_game)?;
        // Each part's mean weighted by its plies (both engines move in every game).
        let plies = |games: &[matchplay::GameRecord]| {
            games.iter().map(|g| g.moves.len()).sum::<usize>() as f64
        };
        let (n0, n1) = (plies(&report.games), plies(&part.games));
        let mean = |x: f64, y: f64| (x * n0 + y * n1) / (n0 + n1).max(1.0);
        report.ms_per_move = (
            mean(report.ms_per_move.0, part.ms_per_move.0),
            mean(report.ms_per_move.1, part.ms_per_move.1),
        );
        report.wdl.wins += part.wdl.wins;
        report.wdl.draws += part.wdl.draws;
        report.wdl.losses += part.wdl.losses;
        report.games.extend(part.games);
        at = end;
        // Each pair: the same opening with the colours swapped.
        penta = qiyi_core::stats::Pentanomial::default();
        for pair in report.games.chunks_exact(2) {
            penta.add_pair(pair[0].a_score, pair[1].a_score);
        }
        if let Some(t) = &sprt {
            decided = t.status(&penta);
        }
    }
    bar.finish_and_clear();
    if let Some(e) = write_error {
        bail!("cannot write the games: {e}");
    }
    if !failures.is_empty() {
        eprintln!(
            "{} game(s) lost by a failure; their moves are in {} (each line replays one)",
            failures.len(),
            args.failures.display()
        );
    }
    let (lo, hi) = report.wdl.elo_interval();
    let summary = MatchSummary {
        engines: [pa.name(), pb.name()],
        games: report.wdl.games(),
        wins: report.wdl.wins,
        draws: report.wdl.draws,
        losses: report.wdl.losses,
        score: report.wdl.score(),
        elo: report.wdl.elo(),
        elo_low: lo,
        elo_high: hi,
        ms_per_move: [report.ms_per_move.0, report.ms_per_move.1],
        time_control: match time {
            TimeControl::MoveTime(t) => format!("{} ms/move", t.as_millis()),
            TimeControl::Clock { base, increment } => {
                format!("{}+{}", base.as_secs_f64(), increment.as_secs_f64())
            }
            TimeControl::Fixed { depth, nodes } => match (depth, nodes) {
                (Some(d), Some(n)) => format!("depth {d}, {n} nodes/move"),
                (Some(d), None) => format!("depth {d}"),
                (None, Some(n)) => format!("{n} nodes/move"),
                (None, None) => String::new(),
            },
        },
        start: args.start,
        seed: g.seed,
        failures: failures.len(),
        failures_file: (!failures.is_empty()).then(|| args.failures.display().to_string()),
        sprt: sprt.map(|t| {
            let (lower, upper) = t.bounds();
            SprtSummary {
                elo0: t.elo0,
                elo1: t.elo1,
                llr: t.llr(&penta),
                lower,
                upper,
                pentanomial: penta.counts,
                result: match decided {
                    qiyi_core::stats::SprtStatus::H1 => "H1 accepted",
                    qiyi_core::stats::SprtStatus::H0 => "H0 accepted",
                    qiyi_core::stats::SprtStatus::Continue => "undecided",
                },
            }
        }),
    };
    if json {
        return print_json(&summary);
    }
    println!(
        "{} vs {}: +{} ={} -{}  score {:.1}%  Elo {:+.0} [{:+.0}, {:+.0}] (95%)",
        summary.engines[0],
        summary.engines[1],
        summary.wins,
        summary.draws,
        summary.losses,
        100.0 * summary.score,
        summary.elo,
        lo,
        hi
    );
    println!(
        "time per move: A {:.0} ms, B {:.0} ms ({}); rules: Asian/WXF (perpetual check/chase lose), 60-move rule, {}-ply cap; seed {}",
        summary.ms_per_move[0], summary.ms_per_move[1], summary.time_control, args.max_plies, g.seed
    );
    if let Some(t) = &summary.sprt {
        println!(
            "SPRT({}, {}): {} after {} pairs, LLR {:+.2} (bounds {:+.2}, {:+.2}), pentanomial {:?}",
            t.elo0,
            t.elo1,
            t.result,
            t.pentanomial.iter().sum::<u64>(),
            t.llr,
            t.lower,
            t.upper,
            t.pentanomial
        );
    }
    Ok(())
}

/// Arguments of `qiyi tune xiangqi`: Texel's method in two steps.
#[derive(Args, Debug)]
pub struct TuneArgs {
    #[command(subcommand)]
    step: TuneStep,
}

/// The two steps of Xiangqi tuning.
#[derive(clap::Subcommand, Debug)]
enum TuneStep {
    /// Play self-play games and append their quiet positions as `FEN;result` lines.
    Selfplay {
        /// Games to play.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        games: u64,
        /// Search nodes per move.
        #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u64).range(100..))]
        nodes: u64,
        /// Random plies after the opening position (uniformly 0..=this), for variety.
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=40))]
        random_plies: u64,
        /// File the samples are appended to (`FEN;result;score` lines, score = the search's,
        /// from Red's view).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Label the quiet positions of games written by `qiyi match xiangqi --games-out` with their
    /// results and append them as `FEN;result` lines.
    Label {
        /// File the samples are appended to.
        #[arg(long)]
        out: std::path::PathBuf,
        /// Also label each position with the score of our own search of this many nodes
        /// (`FEN;result;score` lines; 0: results only).
        #[arg(long, default_value_t = 0)]
        nodes: u64,
        /// Game files (one JSON object per line).
        #[arg(required = true)]
        games: Vec<std::path::PathBuf>,
    },
    /// Fit the evaluation weights to sample files by logistic regression (Texel's method).
    Fit {
        /// Passes over the data.
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..))]
        epochs: u64,
        /// Rust file the fitted weights are written to (the crate's `src/eval_weights.rs`).
        #[arg(long)]
        out: std::path::PathBuf,
        /// Weights the fit starts from: `hand` (the hand-set ones) or `tuned` (the shipped ones).
        #[arg(long, default_value = "hand", value_parser = ["hand", "tuned"])]
        from: String,
        /// Adam step size in centipawns (smaller steps and fewer epochs keep the fit nearer
        /// its start).
        #[arg(long, default_value_t = 1.0)]
        learning_rate: f64,
        /// Refit only the scalar terms (mobility, safety, king danger, tempo), keeping material
        /// and piece-square weights where they start.
        #[arg(long)]
        scalars_only: bool,
        /// Weight of the game result in the target; the rest is the sigmoid of the search score
        /// stored with the sample (samples without a score use the result alone).
        #[arg(long, default_value_t = 1.0)]
        lambda: f64,
        /// Share of the samples held out of the fit to measure it (blocks of 500 lines).
        #[arg(long, default_value_t = 0.1)]
        holdout: f64,
        /// L2 pull of the piece-square entries toward their start.
        #[arg(long, default_value_t = 1e-6)]
        l2: f64,
        /// Keep the chariot's material where it starts (pins the scale of the evaluation, so
        /// that the search margins keep fitting it).
        #[arg(long)]
        pin_chariot: bool,
        /// Keep the king-safety terms (general zone, palace attacks, king danger) where they
        /// start: their values were chosen by games against ElephantEye, not by a fit.
        #[arg(long)]
        pin_king_safety: bool,
        /// Sample files written by `selfplay`.
        #[arg(required = true)]
        data: Vec<std::path::PathBuf>,
    },
}

/// Runs one step of Texel tuning for the Xiangqi evaluation.
pub fn tune(g: &Global, args: TuneArgs) -> anyhow::Result<()> {
    use qiyi_xiangqi::eval::Weights;
    use qiyi_xiangqi::tune::{self, FitConfig, SelfPlayConfig};
    use std::io::Write;
    match args.step {
        TuneStep::Selfplay {
            games,
            nodes,
            random_plies,
            out,
        } => {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out)
                .with_context(|| format!("cannot open {}", out.display()))?;
            let bar = crate::common::progress(games, "self-play");
            // Chunks of ten games, so that partial data lands on disk.
            let (mut done, mut samples_written) = (0u64, 0usize);
            while done < games {
                let config = SelfPlayConfig {
                    games: (games - done).min(10) as usize,
                    nodes,
                    random_plies: random_plies as usize,
                    seed: g.seed.wrapping_mul(1_000_003).wrapping_add(done),
                    max_plies: 300,
                };
                let samples = tune::selfplay(&config, |_, _| bar.inc(1));
                for s in &samples {
                    writeln!(file, "{}", tune::sample_line(s))
                        .with_context(|| format!("cannot write {}", out.display()))?;
                }
                samples_written += samples.len();
                done += config.games as u64;
            }
            bar.finish_and_clear();
            let report = serde_json::json!({
                "games": games, "nodes": nodes, "samples": samples_written,
                "out": out.display().to_string(), "seed": g.seed,
            });
            if g.json {
                return print_json(&report);
            }
            println!(
                "{games} games, {samples_written} positions appended to {} (seed {})",
                out.display(),
                g.seed
            );
            Ok(())
        }
        TuneStep::Label { out, nodes, games } => {
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&out)
                .with_context(|| format!("cannot open {}", out.display()))?;
            let (mut read, mut written) = (0usize, 0usize);
            for path in &games {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                for (n, line) in text.lines().enumerate() {
                    let v: serde_json::Value = serde_json::from_str(line)
                        .with_context(|| format!("{}:{}: not JSON", path.display(), n + 1))?;
                    let (Some(fen), Some(a_red), Some(a_score), Some(moves)) = (
                        v["opening"].as_str(),
                        v["a_is_red"].as_bool(),
                        v["a_score"].as_f64(),
                        v["moves"].as_array(),
                    ) else {
                        bail!("{}:{}: not a game record", path.display(), n + 1);
                    };
                    let moves: Vec<String> = moves
                        .iter()
                        .filter_map(|m| m.as_str().map(str::to_string))
                        .collect();
                    let red = if a_red { a_score } else { 1.0 - a_score };
                    let mut samples = tune::label_game(fen, &moves, red);
                    if nodes > 0 {
                        tune::score_samples(&mut samples, nodes, g.seed, || {});
                    }
                    for s in &samples {
                        writeln!(file, "{}", tune::sample_line(s))
                            .with_context(|| format!("cannot write {}", out.display()))?;
                        written += 1;
                    }
                    read += 1;
                }
            }
            if g.json {
                return print_json(&serde_json::json!({"games": read, "samples": written}));
            }
            println!(
                "{read} games, {written} positions appended to {}",
                out.display()
            );
            Ok(())
        }
        TuneStep::Fit {
            epochs,
            out,
            from,
            learning_rate,
            scalars_only,
            lambda,
            holdout,
            l2,
            pin_chariot,
            pin_king_safety,
            data,
        } => {
            let mut samples = Vec::new();
            for path in &data {
                let text = std::fs::read_to_string(path)
                    .with_context(|| format!("cannot read {}", path.display()))?;
                samples.extend(tune::parse_samples(&text));
            }
            if samples.is_empty() {
                bail!("no `FEN;result` samples in the data files");
            }
            use qiyi_xiangqi::eval::{F_MATERIAL, F_MOB_HORSE, F_ZONE_HORSE, NUM_FEATURES};
            if !(0.0..=1.0).contains(&lambda) || !(0.0..=0.5).contains(&holdout) || l2 < 0.0 {
                bail!("need 0 <= lambda <= 1, 0 <= holdout <= 0.5 and l2 >= 0");
            }
            let config = FitConfig {
                epochs: epochs as usize,
                free: scalars_only.then_some(F_MOB_HORSE..NUM_FEATURES),
                learning_rate,
                l2,
                lambda,
                holdout,
                // Kind 4 is the chariot.
                pinned: pin_chariot
                    .then_some(F_MATERIAL + 4)
                    .into_iter()
                    .chain((F_ZONE_HORSE..NUM_FEATURES).filter(|_| pin_king_safety))
                    .collect(),
                ..FitConfig::default()
            };
            let start = if from == "tuned" {
                Weights::default()
            } else {
                Weights::hand()
            };
            let r = tune::fit(&samples, &start, &config, |epoch, e| {
                eprintln!(
                    "epoch {epoch}: train {:.6}, hold-out {:.6} (vs results {:.6})",
                    e.train, e.holdout, e.holdout_result
                )
            });
            for (kind, name) in [(4, "chariot"), (3, "horse"), (5, "cannon"), (6, "soldier")] {
                eprintln!(
                    "{name} middlegame squares (rank 9 = enemy back rank; files a..e):\n{}",
                    tune::square_table(&r.weights, kind, true)
                );
            }
            let note = format!(
                "{} positions + {} held out, from {from} weights{}{}, lambda {lambda}, l2 {l2}, K {:.2}, {} epochs at rate {}, train error {:.6} -> {:.6}, hold-out {:.6} -> {:.6} (vs results {:.6} -> {:.6})",
                r.samples,
                r.holdout_samples,
                if scalars_only { ", scalar terms only" } else { "" },
                match (pin_chariot, pin_king_safety) {
                    (true, true) => ", chariot and king safety pinned",
                    (true, false) => ", chariot pinned",
                    (false, true) => ", king safety pinned",
                    (false, false) => "",
                },
                r.k,
                epochs,
                learning_rate,
                r.before.train,
                r.after.train,
                r.before.holdout,
                r.after.holdout,
                r.before.holdout_result,
                r.after.holdout_result,
            );
            std::fs::write(&out, tune::weights_to_rust(&r.weights, &note))
                .with_context(|| format!("cannot write {}", out.display()))?;
            if g.json {
                return print_json(&serde_json::json!({
                    "samples": r.samples, "k": r.k, "error_before": r.error_before, "from": from,
                    "error_after": r.error_after, "out": out.display().to_string(),
                    "holdout_samples": r.holdout_samples, "holdout_before": r.before.holdout,
                    "holdout_after": r.after.holdout, "holdout_result_before": r.before.holdout_result,
                    "holdout_result_after": r.after.holdout_result, "lambda": lambda,
                }));
            }
            println!("{note}; weights written to {}", out.display());
            Ok(())
        }
    }
}
