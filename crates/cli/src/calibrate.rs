//! `qiyi calibrate DIR`: the logistic slope that turns search scores into win chances, fitted to
//! the results of self-play games (the `QIYIPOS1` shards `qiyi selfplay` writes), and how well
//! the fitted curve predicts games it never saw.
//!
//! Each record holds the search score from the side to move's view and that side's result. The
//! slope is fitted by maximum likelihood (a draw counting one half) on the even-numbered shards,
//! and the calibration table and Brier score are measured on the odd-numbered shards (other
//! games); the slope for all shards together is printed too (the one a judge ships with).
//! Scores far from 0 (by default 1,000 centi-units or more: decided positions, mates, database
//! wins) are left out: whether self-play converts them depends on the 40-move rule and on an
//! endgame database, not on the slope near equality, where the review's classes are decided; left
//! in, their many draws flatten the fitted curve everywhere.
//!
//! `qiyi --seed S calibrate xiangqi --games N --depth D` has no shards to read: it plays `N`
//! seeded self-play games itself (the review judge at depth `D` choosing every move, from the
//! crate's opening set plus a few seeded random plies), scores every position with that judge,
//! and fits the same way with the even-numbered games as the fit and the odd ones held out.

use anyhow::{bail, Context};
use clap::Args;
use qiyi_core::calibration::{brier, calibration, fit_logistic, markdown, max_gap, CalibrationBin};
use qiyi_core::learn::record::{shard_paths, Dataset};
use qiyi_core::review::logistic;
use serde::Serialize;
use std::path::PathBuf;

use crate::common::{print_json, Global};

/// Arguments of `qiyi calibrate`.
#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// A directory of self-play shards (`qiyi selfplay GAME --out DIR`), or `xiangqi` to play
    /// seeded self-play games here (with `--games`, `--depth` and the global `--seed`).
    pub data: PathBuf,
    /// `xiangqi`: self-play games to play.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(2..=100_000))]
    pub games: u32,
    /// `xiangqi`: the judge's search depth, which also chooses the moves.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// `xiangqi`: random plies played after the shipped opening.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// `xiangqi`: a game still going after this many plies counts as a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(10..=2000))]
    pub max_plies: u32,
    /// Leave out positions whose score is at least this far from 0 (decided positions).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(i32).range(1..=32767))]
    pub max_score: i32,
    /// Bins of the calibration table.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=100))]
    pub bins: u32,
    /// Also measure this slope on the held-out shards (e.g. the one a judge ships with).
    #[arg(long)]
    pub slope: Option<f64>,
}

/// What `qiyi calibrate` reports (its `--json`).
#[derive(Serialize, Debug)]
pub struct CalibrateReport {
    /// The shards' game tag.
    pub game: String,
    /// Shard files read.
    pub shards: usize,
    /// Games that made them.
    pub games: u64,
    /// Positions used (after leaving out decided ones).
    pub positions: usize,
    /// Positions left out as decided.
    pub decided: usize,
    /// The slope fitted on all shards.
    pub slope: f64,
    /// The slope fitted on the even-numbered shards.
    pub fit_slope: f64,
    /// Positions of the odd-numbered (held-out) shards.
    pub held_out: usize,
    /// Brier score of the even-shard fit on the held-out shards.
    pub brier: f64,
    /// Brier score of always predicting one half, on the held-out shards.
    pub brier_half: f64,
    /// The largest gap between predicted and observed over held-out bins of 100 positions or more.
    pub max_gap: f64,
    /// The held-out calibration table of the even-shard fit.
    pub table: Vec<CalibrationBin>,
    /// The slope given with `--slope`, measured the same way: (slope, Brier, max gap).
    pub given: Option<(f64, f64, f64)>,
}

/// Runs `qiyi calibrate`.
pub fn calibrate(g: &Global, args: CalibrateArgs) -> anyhow::Result<()> {
    if let Some(k) = args.slope {
        if !(k.is_finite() && k > 0.0) {
            bail!("--slope must be a positive number, not {k}");
        }
    }
    let (game, games, shards, even, odd, decided) =
        if args.data.as_os_str() == "xiangqi" && !args.data.is_dir() {
            let (even, odd, decided) = xiangqi_selfplay(&args, g.seed)?;
            (
                "xiangqi".to_string(),
                u64::from(args.games),
                0,
                even,
                odd,
                decided,
            )
        } else {
            read_shards(&args)?
        };
    report(g, &args, game, games, shards, even, odd, decided)
}

/// Samples `(score, result)` of the fit (even) and held-out (odd) halves.
type Samples = Vec<(f64, f64)>;

/// Reads the shards of `args.data`: (game tag, games, shards, even, odd, decided).
fn read_shards(
    args: &CalibrateArgs,
) -> anyhow::Result<(String, u64, usize, Samples, Samples, usize)> {
    let paths = shard_paths(&args.data)
        .with_context(|| format!("reading shards in {}", args.data.display()))?;
    if paths.is_empty() {
        bail!(
            "no shards in {} (make them with `qiyi selfplay GAME --out DIR`)",
            args.data.display()
        );
    }
    let mut game = String::new();
    let mut games = 0u64;
    let (mut even, mut odd) = (Vec::new(), Vec::new());
    let mut decided = 0;
    for (i, path) in paths.iter().enumerate() {
        let mut data = Dataset::default();
        data.add_shard(path)?;
        if game.is_empty() {
            game = data.tag.clone();
        } else if data.tag != game {
            bail!(
                "{} holds {} positions, not {game}",
                path.display(),
                data.tag
            );
        }
        games += u64::from(Dataset::header(path)?.games);
        for j in 0..data.len() {
            let r = data.get(j);
            if i32::from(r.score).abs() >= args.max_score {
                decided += 1;
                continue;
            }
            let sample = (f64::from(r.score), (f64::from(r.result) + 1.0) / 2.0);
            if i % 2 == 0 {
                even.push(sample);
            } else {
                odd.push(sample);
            }
        }
    }
    if odd.is_empty() {
        bail!("calibration needs at least two shards (the fit uses the even ones, the table the odd ones)");
    }
    Ok((game, games, paths.len(), even, odd, decided))
}

/// Plays `args.games` seeded Xiangqi self-play games with the review judge at `args.depth`
/// choosing every move (openings and random plies from `seed`); every position's score (side to move's view) with that side's result.
fn xiangqi_selfplay(args: &CalibrateArgs, seed: u64) -> anyhow::Result<(Samples, Samples, usize)> {
    use qiyi_core::game::{Game, Turn};
    use qiyi_core::search::SearchLimits;
    use qiyi_xiangqi::review::{JudgeOptions, XiangqiJudge};
    let openings = qiyi_xiangqi::matchplay::parse_openings(qiyi_xiangqi::matchplay::OPENINGS)?;
    let mut rng = qiyi_core::rng::Rng::new(seed);
    let (mut even, mut odd) = (Vec::new(), Vec::new());
    let mut decided = 0;
    let bar = crate::common::progress(u64::from(args.games), "self-play");
    let mut moves = Vec::new();
    for g in 0..args.games as usize {
        let fen = &openings[rng.below(openings.len())];
        let mut pos =
            qiyi_xiangqi::Position::from_fen(fen).with_context(|| format!("opening {fen}"))?;
        for _ in 0..args.random_plies {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
        }
        let mut judge = XiangqiJudge::new(JudgeOptions {
            limits: SearchLimits::depth(args.depth),
            ..JudgeOptions::default()
        })?;
        let mut scored: Vec<(i32, usize)> = Vec::new();
        let mut plies = 0;
        while pos.turn() != Turn::Over && plies < args.max_plies {
            let (score, best, _) = judge.score(&pos);
            let Some(mv) = best else { break };
            scored.push((score, pos.to_move()));
            pos.make(mv);
            plies += 1;
        }
        for (score, mover) in scored {
            if score.abs() >= args.max_score {
                decided += 1;
                continue;
            }
            let result = (pos.returns(mover) + 1.0) / 2.0;
            let sample = (f64::from(score), result);
            if g % 2 == 0 {
                even.push(sample);
            } else {
                odd.push(sample);
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    if odd.is_empty() || even.is_empty() {
        bail!("no positions to fit: play more games");
    }
    Ok((even, odd, decided))
}

/// Fits and prints (or writes as JSON) the report.
#[allow(clippy::too_many_arguments)]
fn report(
    g: &Global,
    args: &CalibrateArgs,
    game: String,
    games: u64,
    shards: usize,
    even: Samples,
    odd: Samples,
    decided: usize,
) -> anyhow::Result<()> {
    let all: Vec<(f64, f64)> = even.iter().chain(odd.iter()).copied().collect();
    let slope = fit_logistic(&all).context("no finite slope fits these results")?;
    let fit_slope = fit_logistic(&even).context("no finite slope fits the even shards")?;
    let measure = |k: f64| {
        let pred: Vec<(f64, f64)> = odd.iter().map(|&(s, y)| (logistic(s, k), y)).collect();
        let table = calibration(&pred, args.bins as usize);
        let b = brier(&pred).unwrap_or(f64::NAN);
        let gap = max_gap(&table, 100);
        (table, b, gap)
    };
    let (table, b, gap) = measure(fit_slope);
    let half: Vec<(f64, f64)> = odd.iter().map(|&(_, y)| (0.5, y)).collect();
    let report = CalibrateReport {
        game,
        shards,
        games,
        positions: all.len(),
        decided,
        slope,
        fit_slope,
        held_out: odd.len(),
        brier: b,
        brier_half: brier(&half).unwrap_or(f64::NAN),
        max_gap: gap,
        table,
        given: args.slope.map(|k| {
            let (_, b, gap) = measure(k);
            (k, b, gap)
        }),
    };
    if g.json {
        return print_json(&report);
    }
    println!(
        "{}: {} positions from {} games in {} shards ({} decided ones left out, |score| >= {})",
        report.game, report.positions, report.games, report.shards, report.decided, args.max_score
    );
    if report.shards == 0 {
        println!(
            "(self-play here: depth {}, seed {}, {} random plies after the opening; even games fit, odd games held out)",
            args.depth, g.seed, args.random_plies
        );
    }
    println!("slope fitted on all shards: {:.6}", report.slope);
    println!(
        "slope fitted on the even shards: {:.6}; on the {} positions of the odd shards: Brier {:.4} (always 1/2: {:.4}), largest gap {:.3}",
        report.fit_slope, report.held_out, report.brier, report.brier_half, report.max_gap
    );
    if let Some((k, b, gap)) = report.given {
        println!("slope {k} on the odd shards: Brier {b:.4}, largest gap {gap:.3}");
    }
    print!("{}", markdown(&report.table));
    Ok(())
}
