//! `qiyi bench` with no game: one fixed, quick suite over all five games.
//!
//! Every part is deterministic, so each game's `nodes` is a signature that changes only when an
//! algorithm changes (move generation, search, solver, playout rules); `nps` shows the speed.

use crate::common::{print_json, Global};
use anyhow::{anyhow, Result};
use qiyi_core::Rng;
use serde::Serialize;
use serde_json::{Map, Value};
use std::time::{Duration, Instant};

/// Options of the whole-house suite.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct SuiteArgs {
    /// A reduced suite (smaller depths and counts) for quick checks and tests.
    #[arg(long)]
    pub quick: bool,
    /// Also search the Xiangqi bench positions with this net file (from `qiyi train xiangqi`)
    /// and with the hand evaluation, and print both speeds (not part of the signature).
    #[arg(long, value_name = "NET")]
    pub xiangqi_net: Option<std::path::PathBuf>,
    /// Also search the checkers bench positions with this evaluation (`net`: the shipped net,
    /// or a net or net-set file) and print its nodes and speed (not part of the signature).
    #[arg(long, value_name = "NET")]
    pub checkers_net: Option<String>,
}

/// Positions the checkers net search runs on: the start, a middle game, two endings (captures
/// that cross the stages of a set are on every line).
pub const CHECKERS_FENS: [&str; 4] = [
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
    "W:W9,13,17,18,22,25,26,27,30:B1,2,3,6,7,11,12,14,15",
    "B:WK10,18,K23,26,27,30:BK7,14,15,K19,22",
    "W:W14,18,22,K26,31:B5,9,10,K19,K20",
];

/// The checkers search (one thread, level 10, no book or database) of [`CHECKERS_FENS`] to a
/// fixed depth with `eval`.
fn checkers_net(quick: bool, eval: &str) -> Result<GameBench> {
    use qiyi_checkers::engine::{Engine, EvalChoice, Level, Weights};
    let choice = EvalChoice::parse(eval).map_err(|e| anyhow!("--checkers-net: {e}"))?;
    let depth = if quick { 9 } else { 15 };
    let what = format!(
        "checkers search of {} fixed positions to depth {depth} with --eval {eval}",
        CHECKERS_FENS.len()
    );
    measure(what, || {
        let mut nodes = 0;
        for fen in CHECKERS_FENS {
            let pos = qiyi_checkers::Checkers::from_fen(fen)
                .map_err(|e| anyhow!("bench position {fen}: {e}"))?;
            let mut e = Engine::with_eval(Level::MAX, 1, Weights::default(), None, &choice);
            let limits = qiyi_core::search::SearchLimits::depth(depth);
            nodes += e.analyse(&pos, &limits, |_| {}).stats.nodes;
        }
        Ok(nodes)
    })
}

/// The Xiangqi search alone, hand evaluation against `net`, on the bench positions.
fn xiangqi_net(quick: bool, path: &std::path::Path) -> Result<(GameBench, GameBench)> {
    let net = qiyi_xiangqi::learn::load(path)?;
    let depth = if quick { 4 } else { 8 };
    let n = qiyi_xiangqi::search::BENCH_FENS.len();
    let tweaks = qiyi_xiangqi::search::SearchTweaks::default();
    let hand = measure(
        format!("search of {n} fixed positions to depth {depth}, hand evaluation"),
        || Ok(qiyi_xiangqi::search::bench_eval(depth, tweaks, None).nodes),
    )?;
    let mut with_net = measure(String::new(), || {
        Ok(qiyi_xiangqi::search::bench_eval(depth, tweaks, Some(net.clone())).nodes)
    })?;
    let a = net.arch;
    with_net.what = format!(
        "the same with the {}-{}-{} net {} ({}% of the hand evaluation's speed)",
        a.inputs,
        a.hidden,
        a.l2,
        path.display(),
        100 * with_net.nps / hand.nps.max(1)
    );
    Ok((hand, with_net))
}

/// One game's part of the suite.
#[derive(Clone, Debug, Serialize)]
struct GameBench {
    /// What was run, in words.
    what: String,
    /// Nodes (positions, leaves, playout turns): the deterministic signature.
    nodes: u64,
    /// Nodes per second.
    nps: u64,
    /// Wall time in milliseconds.
    ms: u64,
}

fn measure(what: String, run: impl FnOnce() -> Result<u64>) -> Result<GameBench> {
    let t = Instant::now();
    let nodes = run()?;
    let secs = t.elapsed().as_secs_f64().max(1e-9);
    Ok(GameBench {
        what,
        nodes,
        nps: (nodes as f64 / secs) as u64,
        ms: (secs * 1000.0) as u64,
    })
}

fn xiangqi(quick: bool) -> Result<GameBench> {
    let (perft_depth, search_depth) = if quick { (3, 4) } else { (4, 8) };
    let n = qiyi_xiangqi::search::BENCH_FENS.len();
    measure(
        format!("perft({perft_depth}) from the start + search of {n} fixed positions to depth {search_depth} (1 thread)"),
        || {
            let mut pos = qiyi_xiangqi::Position::start();
            let leaves = qiyi_xiangqi::perft::perft(&mut pos, perft_depth);
            Ok(leaves + qiyi_xiangqi::search::bench(search_depth).nodes)
        },
    )
}

fn checkers(quick: bool) -> Result<GameBench> {
    let depth = if quick { 7 } else { 9 };
    measure(format!("perft({depth}) from the start"), || {
        let pos = qiyi_checkers::Checkers::start();
        Ok(qiyi_checkers::perft::perft(pos.board(), depth))
    })
}

fn peg_solitaire() -> Result<GameBench> {
    use qiyi_peg_solitaire::{load_board, Problem};
    measure("English board solve from the centre".into(), || {
        let board = load_board("english")?;
        let problem = Problem::new(board, None, None)?;
        let r = problem.solve(u64::MAX);
        if r.jumps.is_none() {
            return Err(anyhow!("the English board was not solved"));
        }
        Ok(r.nodes)
    })
}

fn chinese_checkers(quick: bool) -> Result<GameBench> {
    use qiyi_chinese_checkers::solitaire::{Board, Solitaire, SolveLimits};
    let pieces = if quick { 1 } else { 6 };
    measure(
        format!("{pieces}-piece solitaire across the star (fewest moves)"),
        || {
            let puzzle = Solitaire::new(pieces, Board::Star)?;
            let limits = SolveLimits {
                max_budget: None,
                max_states: 50_000_000,
                deadline: Some(Instant::now() + Duration::from_secs(60)),
            };
            let sol = puzzle
                .solve_bidirectional(&limits, |_, _, _| {})
                .map_err(|u| anyhow!("the solitaire gave up: {}", u.reason))?;
            Ok(sol.stats.nodes)
        },
    )
}

fn aeroplane(quick: bool, seed: u64) -> Result<GameBench> {
    use qiyi_aeroplane::record::random_game;
    use qiyi_aeroplane::{Aero, Rules};
    let games = if quick { 2_000 } else { 50_000 };
    measure(
        format!("{games} random 4-player games (nodes: turns)"),
        || {
            let start = Aero::new(Rules::default(), 4)?;
            let mut rng = Rng::new(seed);
            let mut turns = 0u64;
            for _ in 0..games {
                turns += random_game(&start, &mut rng).turns as u64;
            }
            Ok(turns)
        },
    )
}

/// Runs the suite and prints per game the nodes (signature) and the speed.
pub fn run(g: &Global, a: &SuiteArgs) -> Result<()> {
    let q = a.quick;
    let total = Instant::now();
    let parts: [(&str, &dyn Fn() -> Result<GameBench>); 5] = [
        ("xiangqi", &|| xiangqi(q)),
        ("checkers", &|| checkers(q)),
        ("chinese-checkers", &|| chinese_checkers(q)),
        ("peg-solitaire", &peg_solitaire),
        ("aeroplane", &|| aeroplane(q, g.seed)),
    ];
    let mut out = Map::new();
    let mut signature = 0u64;
    for (name, part) in parts {
        let b = part().map_err(|e| anyhow!("{name}: {e:#}"))?;
        if !g.json {
            println!(
                "{name:<17} {:>13} nodes {:>12} nodes/s {:>7} ms  {}",
                b.nodes, b.nps, b.ms, b.what
            );
        }
        signature = signature
            .wrapping_mul(0x100_0000_01B3)
            .wrapping_add(b.nodes);
        out.insert(name.to_string(), serde_json::to_value(&b)?);
    }
    if let Some(path) = &a.xiangqi_net {
        let (hand, net) = xiangqi_net(q, path)?;
        for (name, b) in [("xiangqi-search-hand", hand), ("xiangqi-search-net", net)] {
            if !g.json {
                println!(
                    "{name:<17} {:>13} nodes {:>12} nodes/s {:>7} ms  {}",
                    b.nodes, b.nps, b.ms, b.what
                );
            }
            out.insert(name.to_string(), serde_json::to_value(&b)?);
        }
    }
    if let Some(eval) = &a.checkers_net {
        let b = checkers_net(q, eval)?;
        if !g.json {
            println!(
                "{:<17} {:>13} nodes {:>12} nodes/s {:>7} ms  {}",
                "checkers-net", b.nodes, b.nps, b.ms, b.what
            );
        }
        out.insert("checkers-net".to_string(), serde_json::to_value(&b)?);
    }
    let ms = total.elapsed().as_millis() as u64;
    if g.json {
        out.insert("signature".into(), Value::from(format!("{signature:016x}")));
        out.insert("seed".into(), Value::from(g.seed));
        out.insert("ms".into(), Value::from(ms));
        print_json(&Value::Object(out))
    } else {
        println!(
            "signature {signature:016x} (seed {}), {ms} ms in all",
            g.seed
        );
        Ok(())
    }
}
