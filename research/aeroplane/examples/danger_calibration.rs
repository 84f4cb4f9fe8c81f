//! How well the one-round hit chance (`eval::danger_with`, random opponents) predicts the hits
//! that happen: after each of the candidate's moves that ends its turn, every plane of its on
//! the ring (or on the flight path) gets the predicted chance of being sent home before its next
//! turn; the realised hits are counted by bins of the prediction.
//!
//! `cargo run --release -p qiyi-research-aeroplane --example danger_calibration -- GAMES SEED KIND`
use qiyi_aeroplane::board::{CENTRE, HANGAR};
use qiyi_aeroplane::eval::danger_with;
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::record::Dice;
use qiyi_aeroplane::tournament::seat_against;
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let games: u64 = a[1].parse().expect("games");
    let seed: u64 = a[2].parse().expect("seed");
    let kind: PlayerKind = a[3].parse().expect("kind");
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    // Bins of the prediction (width 0.02 up to 0.3): [predicted sum, hits, planes].
    let mut bins = [[0.0f64; 3]; 16];
    for g in 0..games {
        let seat = (g % 4) as usize;
        let me = make_player(kind, Rng::derive(seed, g).next_u64());
        let mut players = seat_against(4, seat, me, PlayerKind::Random, seed, g);
        let mut dice = Dice::new(Rng::derive(seed, g).next_u64());
        let mut pos = start;
        // Planes watched since my last move: (plane index, progress, predicted chance).
        let mut watched: Vec<(usize, u8, f64)> = Vec::new();
        while pos.turn() != Turn::Over {
            let mover = pos.to_move();
            let mv = match pos.turn() {
                Turn::Chance => {
                    if mover == seat && !pos.after_six() {
                        for &(i, d, p) in &watched {
                            let hit = pos.planes(seat)[i] == HANGAR && d != HANGAR;
                            let b = ((p / 0.02) as usize).min(15);
                            bins[b][0] += p;
                            bins[b][1] += hit as u8 as f64;
                            bins[b][2] += 1.0;
                        }
                        watched.clear();
                    }
                    AeroMove::Roll(dice.roll())
                }
                Turn::Player(p) => players[p].choose(&pos),
                Turn::Over => break,
            };
            let e = pos.play(mv);
            if mover == seat && e.new_turn && pos.turn() != Turn::Over {
                watched.clear();
                for (i, &d) in pos.planes(seat).iter().enumerate() {
                    if d == HANGAR || d == CENTRE {
                        continue;
                    }
                    let p = danger_with(&pos, seat, d, 0.0);
                    if p > 0.0 {
                        watched.push((i, d, p));
                    }
                }
            }
        }
    }
    println!("bin        planes   predicted  realised");
    let (mut tp, mut th) = (0.0, 0.0);
    for (k, [p, h, n]) in bins.iter().enumerate() {
        if *n == 0.0 {
            continue;
        }
        tp += p;
        th += h;
        println!(
            "{:.2}-{:.2} {:>9} {:>10.4} {:>9.4}",
            0.02 * k as f64,
            0.02 * (k + 1) as f64,
            n,
            p / n,
            h / n
        );
    }
    println!("total predicted {tp:.0}, realised {th:.0}");
}
