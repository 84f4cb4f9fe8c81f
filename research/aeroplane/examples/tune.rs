//! Self-play tuning of the heuristic weights (`Weights::TUNED`).
//!
//! `cargo run --release -p qiyi-research-aeroplane --example tune -- [games-per-eval] [rounds] [seed]`
//!
//! Coordinate search: each weight in turn is moved up and down by a step (halved every round); a
//! change is kept when the tuned player's score improves by more than 0.01. The score of a weight vector is its win rate in 4-player standard games
//! against three `random` players plus its win rate against three `seed-greedy` players, over the
//! same seeded games for every candidate (common random numbers), seats rotating.

use qiyi_aeroplane::eval::Weights;
use qiyi_aeroplane::players::{HeuristicPlayer, Player, PlayerKind};
use qiyi_aeroplane::tournament::candidate_wins;
use qiyi_aeroplane::{Aero, Rules};
use qiyi_core::Rng;

fn score(w: Weights, games: u64, seed: u64) -> f64 {
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let wins = candidate_wins(
        &start,
        games,
        seed,
        |g| (g / 2 % 4) as usize,
        |g| Box::new(HeuristicPlayer::new(w, Rng::derive(seed, g), 0.0)) as Box<dyn Player>,
        |g| {
            if g % 2 == 0 {
                PlayerKind::Random
            } else {
                PlayerKind::SeedGreedy
            }
        },
    );
    2.0 * wins as f64 / games as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(2000);
    let rounds: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2);
    let seed: u64 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut best = Weights::TUNED.to_vec();
    let mut best_score = score(Weights::from_vec(best), games, seed);
    println!("start {best:?} score {best_score:.4}");
    let mut step = 0.4;
    for round in 0..rounds {
        for i in 0..best.len() {
            for delta in [step, -step] {
                let mut cand = best;
                cand[i] = (best[i] + delta).max(0.0);
                if cand == best {
                    continue;
                }
                let s = score(Weights::from_vec(cand), games, seed);
                println!("round {round} weight {i} try {cand:?} score {s:.4}");
                if s > best_score + 0.01 {
                    best = cand;
                    best_score = s;
                    println!("  kept");
                }
            }
        }
        step /= 2.0;
    }
    // Confirm on fresh games.
    let check_old = score(Weights::TUNED, games, seed + 1000);
    let check_new = score(Weights::from_vec(best), games, seed + 1000);
    println!(
        "final {best:?} score {best_score:.4}; fresh games: old {check_old:.4} new {check_new:.4}"
    );
}
