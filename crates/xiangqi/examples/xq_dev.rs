//! Development driver for the engine without the CLI:
//! `cargo run -p qiyi-xiangqi --release --example xq_dev -- analyze FEN|startpos[ moves ...] DEPTH|Nms`
//! `cargo run -p qiyi-xiangqi --release --example xq_dev -- match SPEC_A SPEC_B GAMES MS [SKIP]`
//! `cargo run -p qiyi-xiangqi --release --example xq_dev -- bench [DEPTH] [TWEAKS]` (the `qiyi bench` suite)
//! `cargo run -p qiyi-xiangqi --release --example xq_dev -- blunders FILE NODES [TWEAKS] [-v]`
//! (fixed-node searches of a blunder set `FEN;played;judge_best;...`, see
//! scripts/xiangqi/blunder_set.py; TWEAKS as in `SearchTweaks::apply`, e.g. `danger=2,null_r=2`)
//! (specs as in `qiyi match xiangqi`: `qiyi`, `qiyi:seed`, `ucci:CMD`, `uci:CMD`; SKIP = openings
//! to skip, so several shards can run side by side).

use qiyi_core::search::SearchLimits;
use qiyi_xiangqi::engine::{Engine, EngineConfig};
use qiyi_xiangqi::eval::Evaluation;
use qiyi_xiangqi::matchplay::{self, MatchConfig, PlayerSpec, TimeControl, OPENINGS};
use qiyi_xiangqi::search::{SearchTweaks, XiangqiSearch};
use qiyi_xiangqi::{Position, START_FEN};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("analyze") => {
            // FEN, `startpos`, or either followed by ` moves m1 m2 ...`.
            let arg = args.get(2).map_or("startpos", String::as_str);
            let (setup, moves) = arg.split_once(" moves ").unwrap_or((arg, ""));
            let fen = if setup.trim() == "startpos" {
                START_FEN
            } else {
                setup
            };
            let mut pos = Position::from_fen(fen).expect("fen");
            for m in moves.split_whitespace() {
                let mv = pos.parse_move_text(m).expect("legal move");
                pos.make(mv);
            }
            let lim = args.get(3).map_or("8", String::as_str);
            let limits = if let Some(ms) = lim.strip_suffix("ms") {
                SearchLimits::move_time(Duration::from_millis(ms.parse().expect("ms")))
            } else {
                SearchLimits::depth(lim.parse().expect("depth"))
            };
            let mut e = Engine::new(EngineConfig::default());
            let r = e.think(&pos, &limits, |i| {
                let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
                println!(
                    "depth {:2} score {:6} nodes {:9} time {:6} ms sel {:3} pv {}",
                    i.depth,
                    i.score,
                    i.stats.nodes,
                    i.stats.time.as_millis(),
                    i.stats.seldepth,
                    pv.join(" ")
                );
            });
            println!(
                "bestmove {:?} score {} nodes {} time {:?}",
                r.best_move, r.score, r.stats.nodes, r.stats.time
            );
        }
        Some("match") => {
            let a = PlayerSpec::parse(&args[2]).expect("spec a");
            let b = PlayerSpec::parse(&args[3]).expect("spec b");
            let games: usize = args[4].parse().expect("games");
            let ms: u64 = args[5].parse().expect("ms");
            let skip: usize = args.get(6).map_or(0, |s| s.parse().expect("skip"));
            let mut openings = matchplay::parse_openings(OPENINGS).expect("openings");
            let len = openings.len();
            openings.rotate_left(skip % len);
            let config = MatchConfig {
                games,
                time: TimeControl::MoveTime(Duration::from_millis(ms)),
                openings,
                max_plies: 300,
                seed: 1,
            };
            let mut n = 0;
            let r = matchplay::play_match(&a, &b, &config, |g| {
                n += 1;
                eprintln!(
                    "game {n}: opening {} a_red {} plies {} a_score {} ({:?}) moves {}",
                    g.opening,
                    g.a_is_red,
                    g.moves.len(),
                    g.a_score,
                    g.end,
                    g.moves.join(" ")
                );
            })
            .expect("match");
            let (lo, hi) = r.wdl.elo_interval();
            println!(
                "A +{} ={} -{} score {:.3} elo {:.0} [{:.0}, {:.0}] ms/move A {:.1} B {:.1}",
                r.wdl.wins,
                r.wdl.draws,
                r.wdl.losses,
                r.wdl.score(),
                r.wdl.elo(),
                lo,
                hi,
                r.ms_per_move.0,
                r.ms_per_move.1
            );
        }
        Some("blunders") => {
            // blunders FILE NODES [TWEAKS] [-v]: fixed-node searches of a blunder set.
            let text = std::fs::read_to_string(&args[2]).expect("blunder file");
            let nodes: u64 = args[3].parse().expect("nodes");
            let mut tweaks = SearchTweaks::default();
            if let Some(t) = args.get(4).filter(|t| *t != "-v") {
                tweaks.apply(t).expect("tweaks");
            }
            let verbose = args.iter().any(|a| a == "-v");
            let (mut total, mut avoided, mut found, mut spent) = (0, 0, 0, 0u64);
            for line in text
                .lines()
                .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            {
                let f: Vec<&str> = line.split(';').collect();
                let pos = Position::from_fen(f[0]).expect("fen");
                let mut s = XiangqiSearch::new(Evaluation::default(), 64, 1);
                s.set_tweaks(tweaks);
                let r = s.search(&pos, &SearchLimits::nodes(nodes), |_| {});
                let best = r.best_move.map(|m| m.to_string()).unwrap_or_default();
                total += 1;
                spent += r.stats.nodes;
                let ok_avoid = best != f[1];
                let ok_found = best == f[2];
                avoided += usize::from(ok_avoid);
                found += usize::from(ok_found);
                if verbose {
                    println!(
                        "{} played {} judge {} ours {} score {} depth {} {}",
                        f.get(5).unwrap_or(&""),
                        f[1],
                        f[2],
                        best,
                        r.score,
                        r.stats.depth,
                        if ok_found {
                            "FOUND"
                        } else if ok_avoid {
                            "avoid"
                        } else {
                            "BLUNDER"
                        }
                    );
                }
            }
            println!(
                "blunder set {}: {total} positions, avoided {avoided}, judge move {found}, nodes {spent} ({tweaks:?})",
                args[2]
            );
        }
        Some("bench") => {
            let depth: u32 = args.get(2).map_or(8, |d| d.parse().expect("depth"));
            let mut tweaks = SearchTweaks::default();
            if let Some(t) = args.get(3) {
                tweaks.apply(t).expect("tweaks");
            }
            let r = qiyi_xiangqi::search::bench_with(depth, tweaks);
            let secs = r.time.as_secs_f64().max(1e-9);
            println!(
                "search suite depth {depth}: {} nodes in {:.3} s = {:.0} nodes/s; best moves {:?}",
                r.nodes,
                secs,
                r.nodes as f64 / secs,
                r.best_moves
            );
        }
        _ => eprintln!("usage: xq_dev analyze FEN DEPTH|Nms | xq_dev match A B GAMES MS [SKIP]"),
    }
}
