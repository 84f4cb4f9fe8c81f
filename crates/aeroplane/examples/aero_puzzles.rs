//! Mines aeroplane puzzles as `qiyi --seed SEED puzzles mine aeroplane --selfplay --games G
//! --out FILE` does (same options, manifest and run log), without the CLI:
//! `cargo run --release -p qiyi-aeroplane --example aero_puzzles -- SEED GAMES FILE`.

use qiyi_aeroplane::endgame::{Endgame, EndgameClass};
use qiyi_aeroplane::players::PlayerKind;
use qiyi_aeroplane::puzzles::{self as aero, MineOptions, MineStats};
use qiyi_aeroplane::Rules;
use qiyi_core::puzzles::MiningRun;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let seed: u64 = args.first().map_or(Ok(1), |s| s.parse())?;
    let games: u64 = args.get(1).map_or(Ok(1000), |s| s.parse())?;
    let out = std::path::PathBuf::from(args.get(2).map_or("aero.jsonl", |s| s.as_str()));
    let class = EndgameClass::new(2, 1)?;
    let opts = MineOptions {
        seed,
        player: PlayerKind::Heuristic,
        random_plies: 20,
    };
    let mut run = MiningRun::open(&out, &opts.manifest(class), aero::position_key)?;
    let started = Instant::now();
    let table = Endgame::build(Rules::STANDARD, class, 1e-13)?;
    let built = started.elapsed().as_secs_f64();
    let mut stats = MineStats::default();
    let mut kept = 0;
    let mut dups = 0;
    for chunk in run.todo(games).chunks(64) {
        let mut all = Vec::new();
        for &i in chunk {
            let (ps, st) = aero::mine_game(&table, &opts, i);
            stats.add(&st);
            all.extend(ps);
        }
        let (new, d) = run.commit(chunk, all)?;
        kept += new.len();
        dups += d;
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{kept} puzzles in {secs:.1} s (table {built:.1} s) from {} games: {} candidates, {} passed, {} too close, {dups} duplicates",
        stats.games, stats.candidates, stats.passed, stats.too_close
    );
    Ok(())
}
