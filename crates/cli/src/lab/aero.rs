//! Aeroplane chess: the article's greedy and flat Monte Carlo players against expectimax, MCTS
//! and the tuned heuristic, each in a 4-player tournament against a fixed field of three random
//! players, with the time each decision took.
//!
//! The tournaments are the crate's own (`qiyi_aeroplane::tournament`): seats rotate game by
//! game, dice and players derive from the seed and the game number, so a run is reproducible.

use super::report::{ms, pct, Chart, LabReport, Table};
use super::LabArgs;
use crate::common::{progress, Global};
use qiyi_aeroplane::players::PlayerKind;
use qiyi_aeroplane::tournament::{run_with_threads, TournamentSpec};
use qiyi_aeroplane::Rules;

/// The contenders, from the article's players to ours.
pub const CONTENDERS: [(PlayerKind, &str); 5] = [
    (PlayerKind::SeedGreedy, "greedy (article)"),
    (
        PlayerKind::SeedMc,
        "flat Monte Carlo (article: greedy top-2 x 200 random playouts)",
    ),
    (
        PlayerKind::Expectimax,
        "expectimax (max-n over the dice, depth 5)",
    ),
    (
        PlayerKind::Mcts,
        "MCTS (chance nodes, 300 heuristic playouts)",
    ),
    (PlayerKind::Heuristic, "tuned one-ply heuristic (best)"),
];

/// The field every contender plays against.
pub const FIELD: PlayerKind = PlayerKind::Random;

/// The aeroplane lab.
pub fn run(g: &Global, args: &LabArgs, positions: Option<&str>) -> anyhow::Result<LabReport> {
    if positions.is_some() {
        anyhow::bail!("aeroplane plays whole games from the start: --positions does not apply");
    }
    let games = args.games.unwrap_or(100);
    let bar = progress(games * CONTENDERS.len() as u64, "lab aeroplane games");
    let mut rep = LabReport::new("aeroplane", g.seed);
    rep.notes = vec![
        format!("4 players, standard rules; each contender against three `{FIELD}` players, seats rotating; {games} games per contender, seed {}.", g.seed),
        "Win rate with 95% Wilson interval (fair share 25%); decision time = mean wall time of the contender's decisions (games run in parallel, so on a loaded machine it is inflated).".into(),
    ];
    let mut t = Table::new(
        "Win rate against three random players, and the time of a decision",
        &[
            "algorithm",
            "games",
            "win rate",
            "95% interval",
            "time/decision (ms)",
            "max decision (ms)",
        ],
    );
    let mut points = Vec::new();
    let mut times = Vec::new();
    for (kind, label) in CONTENDERS {
        let spec = TournamentSpec {
            rules: Rules::STANDARD,
            seats: vec![kind, FIELD, FIELD, FIELD],
            games,
            seed: g.seed,
        };
        let result = run_with_threads(&spec, g.threads(), &|| bar.inc(1))?;
        let s = result
            .by_type
            .get(&kind.to_string())
            .ok_or_else(|| anyhow::anyhow!("no result for {kind}"))?;
        t.push(vec![
            label.to_string(),
            games.to_string(),
            pct(s.win_rate),
            format!("[{}, {}]", pct(s.interval[0]), pct(s.interval[1])),
            ms(s.decision_ms_mean / 1e3),
            ms(s.decision_ms_max / 1e3),
        ]);
        let short = kind.to_string();
        points.push((short.clone(), s.win_rate, s.interval[0], s.interval[1]));
        times.push((short, Some(s.decision_ms_mean.max(1e-4))));
    }
    bar.finish_and_clear();
    rep.tables.push(t);
    rep.charts.push(Chart::Intervals {
        file: "aeroplane-win-rate".into(),
        title: format!("Aeroplane chess: win rate vs three random players ({games} games each)"),
        y_label: "win rate (fraction, 95% interval)".into(),
        points,
        reference: Some(("fair share 1/4".into(), 0.25)),
    });
    rep.charts.push(Chart::Bars {
        file: "aeroplane-decision-time".into(),
        title: "Aeroplane chess: time per decision".into(),
        y_label: "time per decision (ms, log scale)".into(),
        log_y: true,
        groups: times.iter().map(|(n, _)| n.clone()).collect(),
        series: vec![(
            "mean over the contender's decisions".into(),
            times.iter().map(|(_, v)| *v).collect(),
        )],
    });
    Ok(rep)
}
