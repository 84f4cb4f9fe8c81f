//! Grid check of the race player's weights against three `random` (or other) players.
//!
//! `cargo run --release -p qiyi-research-aeroplane --example tune_race -- GAMES SEED OPPONENT D,E,L [D,E,L...]`
//! Every candidate plays the same seeded games (common random numbers), seats rotating.
mod common;

use qiyi_aeroplane::players::{Player, PlayerKind, RacePlayer, RaceWeights};
use qiyi_aeroplane::tournament::candidate_wins;
use qiyi_aeroplane::{Aero, Rules};
use qiyi_core::Rng;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let games: u64 = a[1].parse().expect("games");
    let seed: u64 = a[2].parse().expect("seed");
    let opponent: PlayerKind = a[3].parse().expect("opponent");
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    for cand in &a[4..] {
        let v: Vec<f64> = cand
            .split(',')
            .map(|x| x.parse().expect("weight"))
            .collect();
        let w = RaceWeights {
            danger: v[0],
            enemy: v[1],
            leader: v[2],
            samples: v.get(3).map_or(0, |&x| x as u32),
            capture: v.get(4).copied().unwrap_or(0.5),
            greedy: v.get(5).copied().unwrap_or(1.0),
        };
        let wins = candidate_wins(
            &start,
            games,
            seed,
            |g| (g % 4) as usize,
            |g| Box::new(RacePlayer::new(w, Rng::derive(seed, g))) as Box<dyn Player>,
            |_| opponent,
        );
        println!("{cand}: {}", common::rate(wins, games));
    }
}
