//! Quick tournaments: `cargo run --release -p qiyi-chinese-checkers --example tourney -- 2 alphabeta,seed 20 5`.
use qiyi_chinese_checkers::engine::PlayerKind;
use qiyi_chinese_checkers::tournament::{run, TournamentConfig};
use qiyi_chinese_checkers::Options;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let players: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2);
    let seats: Vec<PlayerKind> = args
        .get(2)
        .map(|s| {
            s.split(',')
                .filter_map(|x| PlayerKind::parse(x, players).ok())
                .collect()
        })
        .unwrap_or_default();
    let games: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let level: u32 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(5);
    let Ok(options) = Options::players(players) else {
        return;
    };
    let t = std::time::Instant::now();
    let r = run(
        &TournamentConfig {
            options,
            seats,
            games,
            seed: 1,
            level,
            threads: 0,
        },
        || {},
    );
    for (k, v) in &r.by_type {
        println!(
            "{k}: win {:.3} [{:.3}, {:.3}] fair {:.3}",
            v.win_rate, v.interval.0, v.interval.1, v.fair_share
        );
    }
    println!(
        "mean plies {:.1}, capped {}, time {:?}",
        r.mean_plies,
        r.capped,
        t.elapsed()
    );
}
