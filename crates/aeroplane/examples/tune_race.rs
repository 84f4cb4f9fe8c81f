//! Grid check of the race player's weights against three `random` (or other) players.
//!
//! `cargo run --release -p qiyi-aeroplane --example tune_race -- GAMES SEED OPPONENT D,E,L [D,E,L...]`
//! Every candidate plays the same seeded games (common random numbers), seats rotating.
use qiyi_aeroplane::players::{make_player, Player, PlayerKind, RacePlayer, RaceWeights};
use qiyi_aeroplane::record::play_game;
use qiyi_aeroplane::tournament::wilson;
use qiyi_aeroplane::{Aero, Rules};
use qiyi_core::Rng;
use rayon::prelude::*;

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
        let wins: u64 = (0..games)
            .into_par_iter()
            .map(|g| {
                let seat = (g % 4) as usize;
                let mut players: Vec<Box<dyn Player>> = (0..4)
                    .map(|s| {
                        if s == seat {
                            Box::new(RacePlayer::new(w, Rng::derive(seed, g))) as Box<dyn Player>
                        } else {
                            make_player(opponent, seed ^ (g * 4 + s as u64))
                        }
                    })
                    .collect();
                let rec = play_game(&start, &mut players, Rng::derive(seed, g).next_u64());
                (rec.places[seat] == 1) as u64
            })
            .sum();
        let [lo, hi] = wilson(wins, games);
        println!(
            "{cand}: {:.2}% [{:.1}, {:.1}]",
            100.0 * wins as f64 / games as f64,
            100.0 * lo,
            100.0 * hi
        );
    }
}
