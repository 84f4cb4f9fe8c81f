//! Decision times of a player on the decisions of its own games against three `random` players
//! (4 players, standard rules): each decision is timed `REPEATS` times with a fresh player of the
//! same seed and the fastest time kept, so stalls from other processes on a shared machine drop
//! out; prints the mean and the largest of these times.
//!
//! `cargo run --release -p qiyi-aeroplane --example decision_time -- KIND GAMES SEED [REPEATS]`
//! where KIND is a player type or a `win-rollout` setting `R,H,M,K[,P,A,B,Z,E,EM]`
//! ([`RolloutWeights`]'s text form).
use qiyi_aeroplane::players::{make_player, Player, PlayerKind};
use qiyi_aeroplane::rollout::{RolloutPlayer, RolloutWeights};
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};
use std::time::Instant;

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let name = a.get(1).map_or("best", |s| s);
    let setting: Option<RolloutWeights> = name.parse().ok();
    let kind: PlayerKind = match setting {
        Some(_) => PlayerKind::WinRollout,
        None => name
            .parse()
            .expect("a player type or a rollout setting R,H,M,K"),
    };
    // The player under test: `kind`, or a rollout player with `setting`.
    let make = |seed: u64| -> Box<dyn Player> {
        match setting {
            Some(w) => Box::new(RolloutPlayer::new(w, Rng::new(seed))),
            None => make_player(kind, seed),
        }
    };
    let games: u64 = a.get(2).map_or(Ok(20), |s| s.parse()).expect("games");
    let seed: u64 = a.get(3).map_or(Ok(1), |s| s.parse()).expect("seed");
    let repeats: usize = a.get(4).map_or(Ok(3), |s| s.parse()).expect("repeats");
    // Warm the tables.
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let _ = make(0).choose(&start.after(AeroMove::Roll(6)));
    let (mut total, mut max, mut count) = (0.0f64, 0.0f64, 0u64);
    for g in 0..games {
        let mut dice = Rng::derive(seed, g);
        let mut players: Vec<Box<dyn Player>> = (0..4)
            .map(|s| {
                if s == 0 {
                    make(seed ^ (4 * g))
                } else {
                    make_player(PlayerKind::Random, seed ^ (4 * g + s))
                }
            })
            .collect();
        let mut pos = start;
        while pos.turn() != Turn::Over {
            let mv = match pos.turn() {
                Turn::Chance => AeroMove::Roll(dice.below(6) as u8 + 1),
                Turn::Player(p) => {
                    if p == 0 {
                        let mut best = f64::INFINITY;
                        for _ in 0..repeats {
                            let mut fresh = make(seed ^ g);
                            let t = Instant::now();
                            let _ = fresh.choose(&pos);
                            best = best.min(t.elapsed().as_secs_f64() * 1e3);
                        }
                        total += best;
                        max = max.max(best);
                        count += 1;
                    }
                    players[p].choose(&pos)
                }
                Turn::Over => break,
            };
            pos.play(mv);
        }
    }
    println!(
        "{name}: {count} decisions in {games} games (seed {seed}), fastest of {repeats} timings each: mean {:.3} ms, max {:.2} ms",
        total / count.max(1) as f64,
        max
    );
}
