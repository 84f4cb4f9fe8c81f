//! The measures of `docs/performance.md` that compare the browser with native: the same
//! deterministic work run by the same code, once in WebAssembly (through [`crate::bench_js`],
//! by `e2e/site-measure.mjs`) and once natively (`cargo run --release -p qiyi-wasm --example
//! bench`). Equal node counts show both did the same work; the times compare the machines' code.

use qiyi_core::search::SearchLimits;
use qiyi_core::Game;
use serde::Serialize;

/// One measure: what ran, how many nodes (positions, decisions) and how long.
#[derive(Clone, Debug, Serialize)]
pub struct Measure {
    /// The measure's name.
    pub name: &'static str,
    /// What it runs.
    pub what: String,
    /// Nodes searched (decisions for the aeroplane player): equal in the browser and natively.
    pub nodes: u64,
    /// Milliseconds it took.
    pub ms: f64,
}

impl Measure {
    /// Nodes per second.
    pub fn nps(&self) -> f64 {
        self.nodes as f64 / (self.ms / 1000.0).max(1e-9)
    }
}

/// The names [`run`] knows.
pub const NAMES: [&str; 4] = ["xiangqi", "checkers", "peg-solitaire", "aeroplane"];

fn timed(name: &'static str, what: String, f: impl FnOnce() -> u64) -> Measure {
    let start = qiyi_core::platform::Instant::now();
    let nodes = f();
    Measure {
        name,
        what,
        nodes,
        ms: start.elapsed().as_secs_f64() * 1000.0,
    }
}

/// Runs measure `name`; `None` for an unknown name or (aeroplane) missing tables.
pub fn run(name: &str) -> Option<Measure> {
    match name {
        "xiangqi" => {
            let depth = 9;
            Some(timed(
                "xiangqi",
                format!("Xiangqi search: the 6 bench positions to depth {depth}, 1 thread, 16 MiB"),
                || qiyi_xiangqi::search::bench(depth).nodes,
            ))
        }
        "checkers" => {
            let depth = 15;
            Some(timed(
                "checkers",
                format!("checkers engine (level 10, 1 thread) analyses the start to depth {depth}"),
                || {
                    let mut engine =
                        qiyi_checkers::engine::Engine::new(qiyi_checkers::engine::Level::MAX, 1);
                    let pos = qiyi_checkers::Checkers::start();
                    engine
                        .analyse(&pos, &SearchLimits::depth(depth), |_| {})
                        .stats
                        .nodes
                },
            ))
        }
        "peg-solitaire" => Some(timed(
            "peg-solitaire",
            "peg solver (the page's): the Wiegleb board from its centre, a 5,000,000-position budget".into(),
            || {
                let board = qiyi_peg_solitaire::load_board("wiegleb").ok();
                board
                    .and_then(|b| qiyi_peg_solitaire::Problem::new(b, None, None).ok())
                    .map_or(0, |p| p.solve(5_000_000).nodes)
            },
        )),
        "aeroplane" => {
            if !qiyi_aeroplane::tables::available() {
                return None;
            }
            let start = qiyi_aeroplane::Aero::new(qiyi_aeroplane::Rules::STANDARD, 4).ok()?;
            Some(timed(
                "aeroplane",
                "aeroplane: one seeded 4-player game, every seat the level-10 player; nodes are its decisions".into(),
                || {
                    use qiyi_aeroplane::players::{make_player, PlayerKind};
                    let mut pos = start;
                    let mut players: Vec<_> =
                        (0..4).map(|p| make_player(PlayerKind::Level(10), 7 + p)).collect();
                    let mut rng = qiyi_core::Rng::new(7);
                    let mut decisions = 0;
                    let mut outcomes = Vec::new();
                    for _ in 0..100_000 {
                        match pos.turn() {
                            qiyi_core::Turn::Over => break,
                            qiyi_core::Turn::Chance => {
                                pos.chance_outcomes(&mut outcomes);
                                let k = rng.weighted(outcomes.iter().map(|o| o.1).collect::<Vec<_>>());
                                pos.make(outcomes[k.min(outcomes.len() - 1)].0);
                            }
                            qiyi_core::Turn::Player(p) => {
                                let mv = players[p].choose(&pos);
                                pos.make(mv);
                                decisions += 1;
                            }
                        }
                    }
                    decisions
                },
            ))
        }
        _ => None,
    }
}
