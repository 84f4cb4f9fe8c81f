//! The exact odds (Markov chains) against the numbers of the spec and against simulations of the
//! real rules engine.

use qiyi_aeroplane::board::{CENTRE, HANGAR};
use qiyi_aeroplane::odds::{hit_chance, squares_per_turn, turn_matrix, LoneOdds, HANGAR_INDEX};
use qiyi_aeroplane::{Aero, AeroMove, Rules, Takeoff, ThreeSixes};
use qiyi_core::{Game, Notation, Rng, Turn};

fn variants() -> Vec<Rules> {
    let mut out = Vec::new();
    for base in [Rules::STANDARD, Rules::SEED] {
        for takeoff in [Takeoff::Six, Takeoff::FiveSix, Takeoff::Even] {
            for three_sixes in [ThreeSixes::None, ThreeSixes::LoseTurn, ThreeSixes::SendBack] {
                out.push(Rules {
                    takeoff,
                    three_sixes,
                    ..base
                });
            }
        }
    }
    out
}

/// Asserts that a sample mean agrees with an exact value to within 4.5 standard errors.
fn agrees(exact: f64, samples: &[f64], what: &str) {
    let n = samples.len() as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let se = (var / n).sqrt().max(1e-12);
    assert!(
        (mean - exact).abs() <= 4.5 * se,
        "{what}: exact {exact}, simulated {mean} (standard error {se})"
    );
}

#[test]
fn spec_numbers_squares_per_turn_and_take_off() {
    // Spec: 4.2 squares per turn with the 6-reroll and no cap.
    assert!((squares_per_turn(ThreeSixes::None) - 4.2).abs() < 1e-12);
    // Spec: 6 turns to take off when a 6 is needed (no cap: a six is never lost).
    let seed = LoneOdds::new(&Rules::SEED);
    assert!(
        (seed.turns_to_take_off - 6.0).abs() < 1e-9,
        "{}",
        seed.turns_to_take_off
    );
    // With 5-6 or even: 3 and 2 turns.
    let five = LoneOdds::new(&Rules {
        takeoff: Takeoff::FiveSix,
        ..Rules::SEED
    });
    assert!((five.turns_to_take_off - 3.0).abs() < 1e-9);
    let even = LoneOdds::new(&Rules {
        takeoff: Takeoff::Even,
        ..Rules::SEED
    });
    assert!((even.turns_to_take_off - 2.0).abs() < 1e-9);
    // Capped: 3.5 + (3.5 + 2.5/6)/6 under lose-turn; send-back also loses 12 squares with p=1/216.
    let lose = 3.5 + (3.5 + 2.5 / 6.0) / 6.0;
    assert!((squares_per_turn(ThreeSixes::LoseTurn) - lose).abs() < 1e-12);
    assert!((squares_per_turn(ThreeSixes::SendBack) - (lose - 12.0 / 216.0)).abs() < 1e-12);
}

#[test]
fn squares_per_turn_matches_simulated_dice() {
    let mut rng = Rng::new(11);
    for option in [ThreeSixes::None, ThreeSixes::LoseTurn, ThreeSixes::SendBack] {
        let samples: Vec<f64> = (0..200_000)
            .map(|_| {
                let mut total = 0.0;
                let mut sixes = 0;
                loop {
                    let r = rng.below(6) as u8 + 1;
                    if r == 6 {
                        sixes += 1;
                        if sixes == 3 && option != ThreeSixes::None {
                            if option == ThreeSixes::SendBack {
                                total -= 12.0;
                            }
                            break;
                        }
                    }
                    total += r as f64;
                    if r != 6 {
                        break;
                    }
                }
                total
            })
            .collect();
        agrees(
            squares_per_turn(option),
            &samples,
            &format!("squares per turn, {option}"),
        );
    }
}

#[test]
fn turn_matrix_rows_are_distributions() {
    for rules in variants() {
        let p = turn_matrix(&rules);
        for (s, row) in p.iter().enumerate() {
            let sum: f64 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-9, "{rules} row {s} sums to {sum}");
            assert!(row.iter().all(|&x| x >= -1e-12));
        }
        assert_eq!(p[CENTRE as usize][CENTRE as usize], 1.0);
    }
}

/// Plays a lone plane from `from` by the real rules until it reaches the centre; returns turns.
fn simulate_lone(rules: Rules, from: u8, rng: &mut Rng) -> u32 {
    let mut p = Aero::lone_plane(rules, from);
    let mut turns = 1;
    while p.turn() != Turn::Over {
        let mv = match p.turn() {
            Turn::Chance => AeroMove::Roll(rng.below(6) as u8 + 1),
            _ => AeroMove::Plane(0),
        };
        if p.play(mv).new_turn {
            turns += 1;
        }
    }
    turns
}

#[test]
fn expected_turns_match_the_rules_engine() {
    let mut rng = Rng::new(5);
    for rules in variants() {
        let odds = LoneOdds::new(&rules);
        let mut froms = vec![HANGAR, 1, 17, 30, 49, 53];
        if rules.launch_pad() {
            froms.push(0);
        }
        for from in froms {
            let exact = if from == HANGAR {
                odds.turns_from_hangar
            } else {
                odds.turns_to_finish[from as usize]
            };
            let samples: Vec<f64> = (0..6_000)
                .map(|_| simulate_lone(rules, from, &mut rng) as f64)
                .collect();
            agrees(exact, &samples, &format!("{rules}: turns from {from}"));
        }
    }
}

#[test]
fn turn_distribution_matches_the_rules_engine() {
    let mut rng = Rng::new(8);
    for rules in [Rules::STANDARD, Rules::SEED] {
        let odds = LoneOdds::new(&rules);
        let total: f64 = odds.turn_distribution.iter().sum();
        assert!((total - 1.0).abs() < 1e-9);
        let mean: f64 = odds
            .turn_distribution
            .iter()
            .enumerate()
            .map(|(t, p)| t as f64 * p)
            .sum();
        assert!((mean - odds.turns_from_hangar).abs() < 1e-6);
        // Kolmogorov-Smirnov distance between the exact and the simulated distribution.
        let n = 40_000;
        let mut counts = vec![0u32; odds.turn_distribution.len() + 1];
        for _ in 0..n {
            let t = simulate_lone(rules, HANGAR, &mut rng) as usize;
            let last = counts.len() - 1;
            counts[t.min(last)] += 1;
        }
        let (mut exact_cdf, mut sim_cdf, mut ks) = (0.0, 0.0, 0.0f64);
        for (t, &p) in odds.turn_distribution.iter().enumerate() {
            exact_cdf += p;
            sim_cdf += counts[t] as f64 / n as f64;
            ks = ks.max((exact_cdf - sim_cdf).abs());
        }
        // The 0.1% critical value of the KS statistic is 1.95 / sqrt(n).
        assert!(ks < 1.95 / (n as f64).sqrt(), "{rules}: KS distance {ks}");
    }
}

#[test]
fn hangar_row_of_the_turn_matrix_under_send_back() {
    // From the hangar with take-off on 6 and send-back: the plane is out after the turn unless it
    // rolled no 6 (5/6) or rolled three sixes (1/216, sent back).
    let p = turn_matrix(&Rules::STANDARD);
    let stay = p[HANGAR_INDEX][HANGAR_INDEX];
    assert!((stay - (5.0 / 6.0 + 1.0 / 216.0)).abs() < 1e-12, "{stay}");
}

/// Simulates the opponents' turns with the real rules and counts how often the target is hit.
/// Every opponent has one plane left, so its moves are forced.
fn simulate_hits(
    start: &Aero,
    player: usize,
    plane: usize,
    runs: usize,
    rng: &mut Rng,
) -> Vec<f64> {
    (0..runs)
        .map(|_| {
            let mut p = start.at_turn_start((player + 1) % start.players()).unwrap();
            while p.to_move() != player && p.turn() != Turn::Over {
                let mv = match p.turn() {
                    Turn::Chance => AeroMove::Roll(rng.below(6) as u8 + 1),
                    _ => AeroMove::Plane(p.choices().as_slice()[0]),
                };
                p.play(mv);
                if p.planes(player)[plane] == HANGAR {
                    return 1.0;
                }
            }
            0.0
        })
        .collect()
}

#[test]
fn hit_chance_matches_simulated_opponents() {
    let mut rng = Rng::new(21);
    let cases = [
        // Blue 4 behind red's 11 on plain squares, standard rules.
        "standard players=2 move=1 roll=0 sixes=0 moved=0 places=0,0 planes=11,H,H,H/56,56,56,33",
        // Blue could hit with a jump, and after a six.
        "standard players=2 move=1 roll=0 sixes=0 moved=0 places=0,0 planes=24,H,H,H/56,56,56,41",
        // Red on its 53: blue's flight crosses it.
        "standard players=2 move=1 roll=0 sixes=0 moved=0 places=0,0 planes=53,H,H,H/56,56,56,14",
        // Seed rules, no cap on sixes, target 12 ahead.
        "seed players=2 move=1 roll=0 sixes=0 moved=0 places=0,0 planes=20,H,H,H/56,56,56,33",
        // Three opponents, each with one plane, far from each other.
        "standard three-sixes=lose-turn players=4 move=1 roll=0 sixes=0 moved=0 places=0,0,0,0 planes=30,H,H,H/56,56,56,13/56,56,56,51/56,56,56,33",
    ];
    for text in cases {
        let p = Aero::from_text(text).unwrap();
        let exact = hit_chance(&p, 0, 0);
        assert!(exact > 0.0, "{text}: the case should be reachable");
        let samples = simulate_hits(&p, 0, 0, 60_000, &mut rng);
        agrees(exact, &samples, text);
    }
}

#[test]
fn hit_chance_is_zero_where_safe() {
    let p = Aero::from_text(
        "standard players=2 move=1 roll=0 sixes=0 moved=0 places=0,0 planes=0,52,H,H/30,31,H,H",
    )
    .unwrap();
    assert_eq!(hit_chance(&p, 0, 0), 0.0, "the launch pad is safe (A5)");
    assert_eq!(hit_chance(&p, 0, 1), 0.0, "the home column is safe (A5)");
    assert_eq!(hit_chance(&p, 0, 2), 0.0, "nothing to hit in the hangar");
}
