//! Win-chance player (`win`) weights against three `random` (or other) players, every candidate on
//! the same seeded games (common random numbers), seats rotating; each later candidate's
//! difference from the first, game by game, with its standard error. OPPONENT `random-aligned`
//! plays random opponents through `tournament::aligned_results` (sharper paired differences).
//!
//! `cargo run --release -p qiyi-research-aeroplane --example tune_win -- GAMES SEED OPPONENT CAND...`
//! where CAND is `race`, `win`, or `S,G,D[,T,L,B,N,Z]` (strength, greedy, danger, threat, lookahead, tie-break, samples, Z > 0 for
//! log-normal finish times, of
//! [`WinWeights`]).
mod common;

use qiyi_aeroplane::players::{make_player, Player, PlayerKind, WinPlayer, WinWeights};
use qiyi_aeroplane::tournament::{field_results, paired_summary, Field};
use qiyi_aeroplane::winprob::Shape;
use qiyi_aeroplane::{Aero, Rules};
use qiyi_core::Rng;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let games: u64 = a[1].parse().expect("games");
    let seed: u64 = a[2].parse().expect("seed");
    // `random-aligned`: random opponents through `aligned_results` (sharper paired differences).
    let field: Field = a[3].parse().expect("opponent");
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let mut first: Option<Vec<bool>> = None;
    for cand in &a[4..] {
        let t = std::time::Instant::now();
        let make = |g: u64| -> Box<dyn Player> {
            if let Ok(kind) = cand.parse::<PlayerKind>() {
                return make_player(kind, Rng::derive(seed, g).next_u64());
            }
            let v: Vec<f64> = cand
                .split(',')
                .map(|x| x.parse().expect("weight"))
                .collect();
            let w = WinWeights {
                strength: v[0],
                greedy: v[1],
                danger: v[2],
                threat: v.get(3).copied().unwrap_or(0.0),
                lookahead: v.get(4).copied().unwrap_or(0.0),
                tiebreak: v.get(5).copied().unwrap_or(0.0),
                samples: v.get(6).copied().unwrap_or(0.0) as u32,
                shape: if v.get(7).copied().unwrap_or(0.0) > 0.0 {
                    Shape::LogNormal
                } else {
                    Shape::Normal
                },
            };
            Box::new(WinPlayer::new(w, Rng::derive(seed, g)))
        };
        let results = field_results(&start, games, seed, field, make);
        let wins = results.iter().filter(|&&w| w).count() as u64;
        println!(
            "{cand}: {} of {games} ({:.1} s)",
            common::rate(wins, games),
            t.elapsed().as_secs_f64()
        );
        // Experiments across runs (e.g. an environment switch): SAVE=FILE keeps these results,
        // BASE=FILE compares against results kept earlier.
        if let Ok(path) = std::env::var("SAVE") {
            let bits: String = results.iter().map(|&w| if w { '1' } else { '0' }).collect();
            std::fs::write(path, bits).expect("write SAVE");
        }
        if let Ok(path) = std::env::var("BASE") {
            let base: Vec<bool> = std::fs::read_to_string(path)
                .expect("read BASE")
                .chars()
                .map(|c| c == '1')
                .collect();
            println!("  paired against BASE: {}", paired_summary(&results, &base));
        }
        match &first {
            None => first = Some(results),
            Some(base) => {
                println!(
                    "  paired against the first candidate: {}",
                    paired_summary(&results, base)
                );
            }
        }
    }
}
