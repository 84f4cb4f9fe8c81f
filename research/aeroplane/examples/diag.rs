//! Diagnostics of one player type against three others: captures suffered and made, plane-turns on
//! the ring, turns to finish. `diag GAMES SEED KIND OPPONENT`
use qiyi_aeroplane::board::{CENTRE, HANGAR};
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
    let opp: PlayerKind = a[4].parse().expect("opponent");
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let (mut wins, mut suffered, mut made, mut ring_turns, mut my_turns) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut lost_progress = 0u64;
    // Games and wins by the number of captures suffered (0, 1, 2, 3+), and my expected turns
    // still to go when I lost (by the solo-race table), in bins of 2 turns.
    let mut by_hits = [[0u64; 2]; 4];
    let mut margin = [0u64; 16];
    let table = qiyi_aeroplane::race::race_table(&Rules::STANDARD).expect("table");
    for g in 0..games {
        let mut hits_this_game = 0usize;
        let seat = (g % 4) as usize;
        let me = make_player(kind, Rng::derive(seed, g).next_u64());
        let mut players = seat_against(4, seat, me, opp, seed, g);
        let mut dice = Dice::new(Rng::derive(seed, g).next_u64());
        let mut pos = start;
        while pos.turn() != Turn::Over {
            let mover = pos.to_move();
            let mv = match pos.turn() {
                Turn::Chance => {
                    if mover == seat && !pos.after_six() {
                        my_turns += 1;
                        ring_turns += pos
                            .planes(seat)
                            .iter()
                            .filter(|&&d| (1..=50).contains(&d))
                            .count() as u64;
                    }
                    AeroMove::Roll(dice.roll())
                }
                Turn::Player(p) => players[p].choose(&pos),
                Turn::Over => break,
            };
            let before = pos;
            pos.play(mv);
            if let AeroMove::Plane(_) = mv {
                for q in 0..4 {
                    if q == mover {
                        continue;
                    }
                    for i in 0..4 {
                        let (b, n) = (before.planes(q)[i], pos.planes(q)[i]);
                        if b != HANGAR && b != CENTRE && n == HANGAR {
                            if q == seat {
                                suffered += 1;
                                hits_this_game += 1;
                                lost_progress += b as u64;
                            }
                            if mover == seat {
                                made += 1;
                            }
                        }
                    }
                }
            }
        }
        let won = pos.winner() == Some(seat);
        wins += won as u64;
        by_hits[hits_this_game.min(3)][0] += 1;
        by_hits[hits_this_game.min(3)][1] += won as u64;
        if !won {
            let left = table.value(pos.planes(seat));
            margin[((left / 2.0) as usize).min(15)] += 1;
        }
    }
    for (k, [n, w]) in by_hits.iter().enumerate() {
        println!(
            "hit {k}{} times: {:.1}% of games, won {:.1}% of them",
            if k == 3 { "+" } else { "" },
            100.0 * *n as f64 / games as f64,
            100.0 * *w as f64 / (*n).max(1) as f64
        );
    }
    let losses: u64 = margin.iter().sum();
    let m: Vec<String> = margin
        .iter()
        .map(|x| format!("{:.1}", 100.0 * *x as f64 / losses.max(1) as f64))
        .collect();
    println!(
        "losses by my expected turns left (bins of 2 turns, %): {}",
        m.join(" ")
    );
    let n = games as f64;
    println!(
        "{kind} vs 3 {opp}: win {:.2}%, captures suffered {:.3}/game (mean progress lost {:.1}), made {:.3}/game, own turns {:.1}/game, plane-turns on the ring {:.1}/game, hits per ring plane-turn {:.4}",
        100.0 * wins as f64 / n,
        suffered as f64 / n,
        lost_progress as f64 / suffered.max(1) as f64,
        made as f64 / n,
        my_turns as f64 / n,
        ring_turns as f64 / n,
        suffered as f64 / ring_turns.max(1) as f64
    );
}
