//! Chinese checkers: the article's greedy player and 2-ply minimax against paranoid search,
//! best-reply search (BRS) and MCTS, each in short 3-player tournaments against a fixed field of
//! two greedy players, with the nodes and time each decision cost.
//!
//! The contender sits in every seat in turn (game `g` puts it in seat `g mod 3`), so no seat
//! advantage helps one algorithm more than another. Every game derives its random streams from
//! the seed and the game number only, so a run is reproducible whatever the thread count.

use super::report::{ms, pct, thousands, Chart, LabReport, Table};
use super::LabArgs;
use crate::common::{progress, Global};
use qiyi_chinese_checkers::engine::{Player, PlayerKind};
use qiyi_chinese_checkers::eval::{GreedyPolicy, MultiDistanceEval};
use qiyi_chinese_checkers::rules::Options;
use qiyi_chinese_checkers::{Move, Position};
use qiyi_core::search::mcts::{mcts, MctsOptions};
use qiyi_core::search::nplayer::{best_reply_limited, paranoid, paranoid_limited};
use qiyi_core::search::SearchLimits;
use qiyi_core::stats::wilson_interval;
use qiyi_core::{Game, Rng};
use rayon::prelude::*;
use std::time::Instant;

/// Default tree-search nodes per decision (paranoid, BRS): the engine's level 3.
pub const NODE_BUDGET: u64 = 4_000;
/// MCTS runs one playout per this many tree-search nodes of the budget (4,000 nodes = 200
/// playouts, the engine's level-3 ratio).
pub const NODES_PER_PLAYOUT: u64 = 20;

/// The contenders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Contender {
    /// The article's greedy move (the field's own player).
    Greedy,
    /// Paranoid search to a fixed depth (2 = the article's 2-ply minimax).
    Minimax(u32),
    /// Paranoid search with iterative deepening within a node budget.
    Paranoid(u64),
    /// Best-reply search with iterative deepening within a node budget.
    Brs(u64),
    /// MCTS with this many greedy playouts.
    Mcts(u64),
}

impl Contender {
    /// Row label.
    pub fn name(self) -> String {
        match self {
            Contender::Greedy => "greedy (article)".into(),
            Contender::Minimax(d) => format!("{d}-ply minimax (article)"),
            Contender::Paranoid(n) => format!("paranoid, {} nodes", thousands(n)),
            Contender::Brs(n) => format!("best-reply search, {} nodes", thousands(n)),
            Contender::Mcts(n) => format!("MCTS, {} playouts", thousands(n)),
        }
    }
}

/// What one game told about the contender.
#[derive(Clone, Debug, Default)]
struct GameStats {
    /// 1 for a win, 1/k for a first place shared by k seats.
    win: f64,
    decisions: u64,
    nodes: u64,
    secs: f64,
    plies: u32,
}

fn decide(
    who: Contender,
    pos: &Position,
    greedy: &mut Player,
    rng: &mut Rng,
    eval: &MultiDistanceEval,
) -> (Move, u64) {
    match who {
        Contender::Greedy => {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            (greedy.choose(pos), moves.len() as u64)
        }
        Contender::Minimax(d) => {
            let r = paranoid(pos, eval, d);
            (
                r.best_move.unwrap_or_else(|| greedy.choose(pos)),
                r.stats.nodes,
            )
        }
        Contender::Paranoid(nodes) | Contender::Brs(nodes) => {
            let limits = SearchLimits {
                nodes: Some(nodes),
                depth: Some(12),
                ..SearchLimits::default()
            };
            let r = if matches!(who, Contender::Paranoid(_)) {
                paranoid_limited(pos, eval, &limits)
            } else {
                best_reply_limited(pos, eval, &limits)
            };
            (
                r.best_move.unwrap_or_else(|| greedy.choose(pos)),
                r.stats.nodes,
            )
        }
        Contender::Mcts(playouts) => {
            let options = MctsOptions {
                seed: rng.next_u64(),
                max_playout_plies: 400,
                ..MctsOptions::default()
            };
            let r = mcts(
                pos,
                &GreedyPolicy::default(),
                &options,
                &SearchLimits::nodes(playouts),
            );
            (r.best_move.unwrap_or_else(|| greedy.choose(pos)), r.nodes)
        }
    }
}

fn play(who: Contender, game: u64, seed: u64) -> GameStats {
    let options = Options::players(3).unwrap_or_default();
    let mut pos = Position::start(options).unwrap_or_default();
    let seat = (game % 3) as usize;
    let mut streams = Rng::derive(seed, game);
    let mut players: Vec<Player> = (0..3)
        .map(|_| Player::new(PlayerKind::Seed, 3, streams.next_u64()))
        .collect();
    let mut rng = Rng::new(streams.next_u64());
    let eval = MultiDistanceEval { others: 2.0 };
    let mut s = GameStats::default();
    while !pos.is_over() {
        let p = pos.to_move();
        let mv = if p == seat {
            let t = Instant::now();
            let (mv, nodes) = decide(who, &pos, &mut players[p], &mut rng, &eval);
            s.secs += t.elapsed().as_secs_f64();
            s.nodes += nodes;
            s.decisions += 1;
            mv
        } else {
            players[p].choose(&pos)
        };
        pos.make(mv);
    }
    let best = (0..3)
        .map(|q| pos.result(q))
        .fold(f64::NEG_INFINITY, f64::max);
    let top: Vec<usize> = (0..3)
        .filter(|&q| (pos.result(q) - best).abs() < 1e-9)
        .collect();
    if top.contains(&seat) {
        s.win = 1.0 / top.len() as f64;
    }
    s.plies = pos.ply();
    s
}

/// The result of one contender's tournament.
#[derive(Clone, Debug)]
pub struct Row {
    /// Which contender.
    pub who: Contender,
    /// Games played.
    pub games: u64,
    /// Wins (shared first places count a fraction).
    pub wins: f64,
    /// 95% Wilson interval of the win rate.
    pub interval: (f64, f64),
    /// Mean nodes per decision.
    pub nodes_per_decision: f64,
    /// Mean seconds per decision.
    pub secs_per_decision: f64,
    /// Mean plies per game.
    pub mean_plies: f64,
}

/// Plays `games` games for `who` (games in parallel on `threads` threads).
pub fn tournament(
    who: Contender,
    games: u64,
    seed: u64,
    threads: usize,
    on_game: &(dyn Fn() + Sync),
) -> Row {
    let run = || {
        (0..games)
            .into_par_iter()
            .map(|g| {
                let s = play(who, g, seed);
                on_game();
                s
            })
            .collect::<Vec<_>>()
    };
    let stats = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    };
    let wins: f64 = stats.iter().map(|s| s.win).sum();
    let decisions: u64 = stats.iter().map(|s| s.decisions).sum::<u64>().max(1);
    Row {
        who,
        games,
        wins,
        interval: wilson_interval(wins.round() as u64, games),
        nodes_per_decision: stats.iter().map(|s| s.nodes).sum::<u64>() as f64 / decisions as f64,
        secs_per_decision: stats.iter().map(|s| s.secs).sum::<f64>() / decisions as f64,
        mean_plies: stats.iter().map(|s| f64::from(s.plies)).sum::<f64>() / games.max(1) as f64,
    }
}

/// The Chinese-checkers lab.
pub fn run(g: &Global, args: &LabArgs, positions: Option<&str>) -> anyhow::Result<LabReport> {
    if positions.is_some() {
        anyhow::bail!(
            "chinese-checkers plays whole games from the start: --positions does not apply"
        );
    }
    let games = args.games.unwrap_or(12);
    let depth = args.depth.unwrap_or(2);
    let budget = args.budget.unwrap_or(NODE_BUDGET);
    let playouts = (budget / NODES_PER_PLAYOUT).max(1);
    let contenders = [
        Contender::Greedy,
        Contender::Minimax(depth),
        Contender::Paranoid(budget),
        Contender::Brs(budget),
        Contender::Mcts(playouts),
    ];
    let bar = progress(
        games * contenders.len() as u64,
        "lab chinese-checkers games",
    );
    let rows: Vec<Row> = contenders
        .iter()
        .map(|&c| tournament(c, games, g.seed, g.threads(), &|| bar.inc(1)))
        .collect();
    bar.finish_and_clear();
    let mut rep = LabReport::new("chinese-checkers", g.seed);
    rep.notes = vec![
        format!("3 players, 10 pieces, default rules; the contender plays against two greedy (article) players, in seat g mod 3 of game g; {games} games per contender."),
        "Win = first place (a shared first place counts 1/k); fair share 33.3%. Intervals: 95% Wilson.".into(),
        "Nodes: positions searched per decision (greedy: the moves it scores; MCTS: tree nodes created). The n-player searches use the engine's evaluation (own distance to goal vs the others' mean, weight 2).".into(),
        format!("minimax = paranoid search to a fixed {depth} plies (my move, then the next opponents minimise my value); paranoid and BRS deepen iteratively within {} nodes; MCTS runs {} greedy playouts (default: the engine's level-3 budgets).", thousands(budget), thousands(playouts)),
    ];
    let mut t = Table::new(
        "Win rate against two greedy players, and the cost of a decision",
        &[
            "algorithm",
            "games",
            "win rate",
            "95% interval",
            "nodes/decision",
            "time/decision (ms)",
            "plies/game",
        ],
    );
    for r in &rows {
        t.push(vec![
            r.who.name(),
            r.games.to_string(),
            pct(r.wins / r.games as f64),
            format!("[{}, {}]", pct(r.interval.0), pct(r.interval.1)),
            thousands(r.nodes_per_decision.round() as u64),
            ms(r.secs_per_decision),
            format!("{:.1}", r.mean_plies),
        ]);
    }
    rep.tables.push(t);
    rep.charts.push(Chart::Intervals {
        file: "chinese-checkers-win-rate".into(),
        title: format!("Chinese checkers: win rate vs two greedy players ({games} games each)"),
        y_label: "win rate (fraction, 95% interval)".into(),
        points: rows
            .iter()
            .map(|r| {
                (
                    r.who.name(),
                    r.wins / r.games as f64,
                    r.interval.0,
                    r.interval.1,
                )
            })
            .collect(),
        reference: Some(("fair share 1/3".into(), 1.0 / 3.0)),
    });
    rep.charts.push(Chart::Bars {
        file: "chinese-checkers-nodes".into(),
        title: "Chinese checkers: nodes per decision".into(),
        y_label: "nodes per decision (log scale)".into(),
        log_y: true,
        groups: rows.iter().map(|r| r.who.name()).collect(),
        series: vec![(
            "mean over the contender's decisions".into(),
            rows.iter()
                .map(|r| Some(r.nodes_per_decision.max(1.0)))
                .collect(),
        )],
    });
    Ok(rep)
}
