//! Xiangqi and checkers: plain minimax, then alpha-beta with one enhancement added at a time, to
//! the same fixed depth on the same positions, each value checked against the unpruned search.
//!
//! Every search gets a fresh [`Searcher`] (a cold transposition table) and one thread, so the
//! counts depend only on the position, the depth and the options. The exact variants must return
//! the plain-minimax value; the variants with quiescence and check extension must return the
//! value of [`minimax_with`](qiyi_core::search::minimax_with) with the same two options (the unpruned search that applies them the
//! same way); null move and LMR are selective, so their value is compared and reported, not
//! required.

use super::report::{ms, thousands, Chart, LabReport, Series, Table};
use super::{parse_position_lines, LabArgs};
use crate::common::{progress, Global};
use anyhow::Context;
use qiyi_core::eval::{Evaluator, Score};
use qiyi_core::game::{Notation, NullMove};
use qiyi_core::search::{
    minimax, minimax_with_budget, MinimaxOptions, SearchLimits, SearchOptions, SearchResult,
    Searcher,
};
use std::time::Instant;

/// Default Xiangqi position set.
const XIANGQI_POSITIONS: &str = include_str!("data/xiangqi.txt");
/// Default checkers position set.
const CHECKERS_POSITIONS: &str = include_str!("data/checkers.txt");

/// Nodes the quiescence oracle (unpruned minimax with quiescence) may visit per search before it
/// gives up; the quiescence variants are then not checked on that position and depth.
pub const ORACLE_BUDGET: u64 = 3_000_000;

/// Which unpruned search a variant's value must equal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Oracle {
    /// Plain minimax: the variant is exact.
    Minimax,
    /// Minimax with quiescence and check extension: exact for those options.
    MinimaxQuiescence,
    /// Compared with the quiescence oracle but allowed to differ (null move, LMR prune
    /// selectively).
    Selective,
}

/// One algorithm of the comparison.
#[derive(Clone, Debug)]
pub struct Variant {
    /// Row label.
    pub name: &'static str,
    /// `None` for plain minimax, else the alpha-beta options.
    pub options: Option<SearchOptions>,
    /// What its value is checked against.
    pub oracle: Oracle,
}

/// The ladder of algorithms, from the tutorial's minimax to the full engine.
pub fn variants() -> Vec<Variant> {
    let base = SearchOptions {
        tt_mib: 16,
        threads: 1,
        ..SearchOptions::none()
    };
    let ordering = SearchOptions {
        move_ordering: true,
        ..base.clone()
    };
    let killers = SearchOptions {
        killers: true,
        history: true,
        ..ordering.clone()
    };
    let tt = SearchOptions {
        tt: true,
        ..killers.clone()
    };
    let id = SearchOptions {
        iterative_deepening: true,
        ..tt.clone()
    };
    let pvs = SearchOptions {
        pvs: true,
        aspiration: true,
        ..id.clone()
    };
    let quiescence = SearchOptions {
        quiescence: true,
        check_extension: true,
        ..pvs.clone()
    };
    let full = SearchOptions {
        null_move: true,
        lmr: true,
        ..quiescence.clone()
    };
    let v = |name, options, oracle| Variant {
        name,
        options,
        oracle,
    };
    vec![
        v("minimax", None, Oracle::Minimax),
        v("alpha-beta", Some(base), Oracle::Minimax),
        v("+ move ordering (MVV-LVA)", Some(ordering), Oracle::Minimax),
        v("+ killers + history", Some(killers), Oracle::Minimax),
        v("+ transposition table", Some(tt), Oracle::Minimax),
        v("+ iterative deepening", Some(id), Oracle::Minimax),
        v("+ PVS + aspiration", Some(pvs), Oracle::Minimax),
        v(
            "+ quiescence + check ext.",
            Some(quiescence),
            Oracle::MinimaxQuiescence,
        ),
        v(
            "+ null move + LMR (full engine)",
            Some(full),
            Oracle::Selective,
        ),
    ]
}

/// One search: what it returned and cost.
#[derive(Clone, Debug)]
pub struct Run {
    /// Root value.
    pub score: Score,
    /// Best move in the game's notation.
    pub best: String,
    /// Nodes visited.
    pub nodes: u64,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Wall seconds.
    pub secs: f64,
    /// Whether the value equals the oracle's (`None`: the oracle gave up, see
    /// [`ORACLE_BUDGET`]).
    pub agrees: Option<bool>,
}

/// All runs of a comparison: `runs[variant][position][depth - 1]`.
pub struct Grid {
    /// The variants, in order.
    pub variants: Vec<Variant>,
    /// Position names.
    pub positions: Vec<String>,
    /// Deepest depth searched.
    pub depth: u32,
    /// The runs.
    pub runs: Vec<Vec<Vec<Run>>>,
}

fn run_of<G: Notation>(pos: &G, r: &SearchResult<G::Move>, secs: f64) -> Run {
    Run {
        score: r.score,
        best: r
            .best_move
            .map(|m| pos.move_to_text(m))
            .unwrap_or_else(|| "-".into()),
        nodes: r.stats.nodes,
        seldepth: r.stats.seldepth,
        secs,
        agrees: None,
    }
}

/// Searches every position to every depth `1..=depth` with every variant.
pub fn compare<G, E>(
    positions: &[(String, G)],
    depth: u32,
    eval: &E,
    variants: Vec<Variant>,
) -> Grid
where
    G: Notation + NullMove,
    E: Evaluator<G>,
{
    let steps = (variants.len() + 1) as u64 * positions.len() as u64 * u64::from(depth);
    let bar = progress(steps, "lab searches");
    let mut runs: Vec<Vec<Vec<Run>>> = vec![vec![Vec::new(); positions.len()]; variants.len()];
    for (p, (_, pos)) in positions.iter().enumerate() {
        // Once the quiescence oracle gives up at one depth it would at every deeper one.
        let mut q_gave_up = false;
        for d in 1..=depth {
            // The two oracles.
            let t = Instant::now();
            let plain = minimax(pos, eval, d);
            let plain_run = run_of(pos, &plain, t.elapsed().as_secs_f64());
            let q_opts = MinimaxOptions {
                quiescence: true,
                check_extension: true,
            };
            let q_value = if q_gave_up {
                None
            } else {
                minimax_with_budget(pos, eval, d, q_opts, ORACLE_BUDGET).map(|r| r.score)
            };
            q_gave_up = q_value.is_none();
            bar.inc(1);
            for (v, variant) in variants.iter().enumerate() {
                let mut run = match &variant.options {
                    None => plain_run.clone(),
                    Some(opts) => {
                        let mut s = Searcher::new(eval.clone(), opts.clone()).with_null_move();
                        let t = Instant::now();
                        let r = s.search(pos, &SearchLimits::depth(d), |_| {});
                        run_of(pos, &r, t.elapsed().as_secs_f64())
                    }
                };
                run.agrees = match variant.oracle {
                    Oracle::Minimax => Some(run.score == plain.score),
                    Oracle::MinimaxQuiescence | Oracle::Selective => {
                        q_value.map(|q| run.score == q)
                    }
                };
                runs[v][p].push(run);
                bar.inc(1);
            }
        }
    }
    bar.finish_and_clear();
    Grid {
        variants,
        positions: positions.iter().map(|(n, _)| n.clone()).collect(),
        depth,
        runs,
    }
}

impl Grid {
    /// Total nodes of variant `v` at depth `d` over all positions.
    pub fn nodes(&self, v: usize, d: u32) -> u64 {
        self.runs[v].iter().map(|r| r[d as usize - 1].nodes).sum()
    }

    fn secs(&self, v: usize, d: u32) -> f64 {
        self.runs[v].iter().map(|r| r[d as usize - 1].secs).sum()
    }

    /// (agreeing, checked, searched) over every position and depth for variant `v`; a search
    /// is not checked when its oracle gave up.
    pub fn agreement(&self, v: usize) -> (usize, usize, usize) {
        let all = self.runs[v].iter().flatten();
        let n = all.clone().count();
        let checked = all.clone().filter(|r| r.agrees.is_some()).count();
        (all.filter(|r| r.agrees == Some(true)).count(), checked, n)
    }

    /// True when every exact variant returned its oracle's value everywhere.
    pub fn exact_variants_agree(&self) -> bool {
        self.variants
            .iter()
            .enumerate()
            .filter(|(_, var)| var.oracle != Oracle::Selective)
            .all(|(v, _)| {
                let (a, checked, _) = self.agreement(v);
                a == checked
            })
    }
}

fn check_cell(oracle: Oracle, (agree, n, searched): (usize, usize, usize)) -> String {
    let mark = match (oracle, agree == n) {
        (Oracle::Selective, true) => "✓ (selective)",
        (Oracle::Selective, false) => "≠ (selective, allowed)",
        (_, true) => "✓",
        (_, false) => "✗",
    };
    let against = match oracle {
        Oracle::Minimax => "minimax",
        _ => "minimax+q",
    };
    let unchecked = if n < searched {
        format!(" ({} not checked: oracle over budget)", searched - n)
    } else {
        String::new()
    };
    format!("{mark} {agree}/{n} vs {against}{unchecked}")
}

/// Builds the report of a comparison.
pub fn report(game: &str, seed: u64, grid: &Grid, notes: Vec<String>) -> LabReport {
    let mut rep = LabReport::new(game, seed);
    rep.notes = notes;
    let d = grid.depth;
    let minimax_nodes = grid.nodes(0, d).max(1);
    let mut summary = Table::new(
        &format!(
            "All {} positions at depth {d}: nodes, time and the value check (every depth 1-{d})",
            grid.positions.len()
        ),
        &[
            "algorithm",
            "nodes",
            "% of minimax",
            "time (ms)",
            "nodes/s",
            "EBF",
            "max seldepth",
            "same value",
        ],
    );
    for (v, var) in grid.variants.iter().enumerate() {
        let nodes = grid.nodes(v, d);
        let secs = grid.secs(v, d);
        let ebf = if d >= 2 {
            format!("{:.2}", nodes as f64 / grid.nodes(v, d - 1).max(1) as f64)
        } else {
            "-".into()
        };
        let seldepth = grid.runs[v]
            .iter()
            .map(|r| r[d as usize - 1].seldepth)
            .max()
            .unwrap_or(0);
        summary.push(vec![
            var.name.to_string(),
            thousands(nodes),
            format!("{:.2}%", 100.0 * nodes as f64 / minimax_nodes as f64),
            ms(secs),
            if secs > 0.0 {
                thousands((nodes as f64 / secs) as u64)
            } else {
                "-".into()
            },
            ebf,
            seldepth.to_string(),
            check_cell(var.oracle, grid.agreement(v)),
        ]);
    }
    rep.tables.push(summary);

    let mut per = Table::new(
        &format!("Each position at depth {d}: best move and value"),
        &[
            "position",
            "algorithm",
            "best move",
            "value",
            "nodes",
            "time (ms)",
            "same value",
        ],
    );
    for (p, name) in grid.positions.iter().enumerate() {
        for (v, var) in grid.variants.iter().enumerate() {
            let r = &grid.runs[v][p][d as usize - 1];
            per.push(vec![
                name.clone(),
                var.name.to_string(),
                r.best.clone(),
                r.score.to_string(),
                thousands(r.nodes),
                ms(r.secs),
                match r.agrees {
                    Some(true) => "✓",
                    Some(false) => "≠",
                    None => "not checked",
                }
                .to_string(),
            ]);
        }
    }
    rep.tables.push(per);

    let mut by_depth = Table::new(
        "Nodes per depth (all positions)",
        &std::iter::once("algorithm")
            .chain((1..=d).map(|_| ""))
            .collect::<Vec<_>>(),
    );
    by_depth.columns = std::iter::once("algorithm".to_string())
        .chain((1..=d).map(|k| format!("depth {k}")))
        .collect();
    for (v, var) in grid.variants.iter().enumerate() {
        by_depth.push(
            std::iter::once(var.name.to_string())
                .chain((1..=d).map(|k| thousands(grid.nodes(v, k))))
                .collect(),
        );
    }
    rep.tables.push(by_depth);

    let series = |f: &dyn Fn(usize, u32) -> Option<f64>| -> Vec<Series> {
        grid.variants
            .iter()
            .enumerate()
            .map(|(v, var)| Series {
                name: var.name.to_string(),
                points: (1..=d)
                    .filter_map(|k| f(v, k).map(|y| (f64::from(k), y)))
                    .collect(),
            })
            .collect()
    };
    rep.charts.push(Chart::Lines {
        file: format!("{game}-nodes"),
        title: format!(
            "{game}: nodes searched vs depth ({} positions)",
            grid.positions.len()
        ),
        x_label: "depth (plies)".into(),
        y_label: "nodes (log scale)".into(),
        log_y: true,
        series: series(&|v, k| Some(grid.nodes(v, k).max(1) as f64)),
    });
    rep.charts.push(Chart::Lines {
        file: format!("{game}-ebf"),
        title: format!("{game}: effective branching factor nodes(d)/nodes(d-1)"),
        x_label: "depth (plies)".into(),
        y_label: "effective branching factor (ratio)".into(),
        log_y: false,
        series: series(&|v, k| {
            (k >= 2).then(|| grid.nodes(v, k) as f64 / grid.nodes(v, k - 1).max(1) as f64)
        }),
    });
    rep.charts.push(Chart::Bars {
        file: format!("{game}-time"),
        title: format!("{game}: time to search all positions to depth {d} (1 thread)"),
        y_label: "time (ms, log scale)".into(),
        log_y: true,
        groups: grid.variants.iter().map(|v| v.name.to_string()).collect(),
        series: vec![(
            format!("depth {d}, sum over positions"),
            (0..grid.variants.len())
                .map(|v| Some(grid.secs(v, d) * 1e3))
                .collect(),
        )],
    });
    rep.all_agree = Some(grid.exact_variants_agree());
    rep
}

fn load<G: Notation>(text: &str, game: &str) -> anyhow::Result<Vec<(String, G)>> {
    let list = parse_position_lines(text);
    if list.is_empty() {
        anyhow::bail!("the {game} position set is empty");
    }
    list.into_iter()
        .map(|(name, t)| {
            let pos = G::from_text(&t).with_context(|| format!("position {name}: {t}"))?;
            if pos.is_over() {
                anyhow::bail!("position {name} is already over: nothing to search");
            }
            Ok((name, pos))
        })
        .collect()
}

fn common_notes(depth: u32) -> Vec<String> {
    vec![
        format!("Every algorithm searches every position to each depth 1..={depth}, one thread, a fresh 16 MiB table per search."),
        "\"same value\": exact variants must equal plain minimax; quiescence/extension variants must equal minimax_with (the unpruned search with the same quiescence and check extension); null move and LMR are selective and may differ.".into(),
        "EBF = nodes(depth d) / nodes(depth d-1), summed over the positions; time is wall time (compare nodes on a loaded machine).".into(),
    ]
}

/// The Xiangqi comparison.
pub fn xiangqi(g: &Global, args: &LabArgs, positions: Option<&str>) -> anyhow::Result<LabReport> {
    use qiyi_xiangqi::Position;
    let set: Vec<(String, Position)> = load(positions.unwrap_or(XIANGQI_POSITIONS), "xiangqi")?;
    let depth = args.depth.unwrap_or(4);
    let eval = qiyi_xiangqi::eval::Evaluation::default();
    let grid = compare(&set, depth, &eval, variants());
    let mut notes = common_notes(depth);
    notes.insert(0, "Evaluator: the engine's (qiyi_xiangqi::eval::Evaluation, default weights) for every row; captures are noisy, MVV-LVA ordering, repetition inside the search = draw.".into());
    Ok(report("xiangqi", g.seed, &grid, notes))
}

/// The checkers comparison.
pub fn checkers(g: &Global, args: &LabArgs, positions: Option<&str>) -> anyhow::Result<LabReport> {
    use qiyi_checkers::Checkers;
    let set: Vec<(String, Checkers)> = load(positions.unwrap_or(CHECKERS_POSITIONS), "checkers")?;
    let depth = args.depth.unwrap_or(7);
    let eval = qiyi_checkers::engine::eval::CheckersEval::default();
    let grid = compare(&set, depth, &eval, variants());
    let mut notes = common_notes(depth);
    notes.insert(0, "Evaluator: the engine's (CheckersEval, default weights, no endgame database) for every row; a pending capture counts as check (quiescence plays captures out).".into());
    Ok(report("checkers", g.seed, &grid, notes))
}
