//! Finish-time tables (`finish`) and the win chance (`winprob`): the exact chains agree with the
//! race table and with simulated games of the rules engine (with the hazard played out by
//! sending planes home at random); win chances of all seats sum to 1.

use qiyi_aeroplane::board::{CENTRE, HANGAR, PLANES};
use qiyi_aeroplane::finish::{
    finish_tables, transitions, Chain, FinishTables, SoloPolicy, SHIPPED_HAZARD,
    SHIPPED_RANDOM_HAZARD,
};
use qiyi_aeroplane::players::{make_player, Player, PlayerKind};
use qiyi_aeroplane::race::{all_multisets, race_table, rank, RaceTable};
use qiyi_aeroplane::winprob::{normal_cdf, win_chance, win_chance_shaped, Finish, Shape};
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};

/// Plays a lone player from `planes` to the end; after each of its turns every ring square holding
/// its planes is hit with chance `hazard`. Returns the turns played.
fn solo_turns(planes: [u8; PLANES], player: &mut dyn Player, hazard: f64, rng: &mut Rng) -> u32 {
    let mut pos = Aero::solo_at(Rules::STANDARD, planes);
    let mut turns = 1;
    while pos.turn() != Turn::Over {
        let mv = match pos.turn() {
            Turn::Chance => AeroMove::Roll(rng.below(6) as u8 + 1),
            _ => player.choose(&pos),
        };
        if pos.play(mv).new_turn && pos.turn() != Turn::Over {
            turns += 1;
            if hazard > 0.0 {
                let mut m = pos.planes(0);
                for d in 1..=50u8 {
                    if m.contains(&d) && rng.unit() < hazard {
                        m.iter_mut().filter(|x| **x == d).for_each(|x| *x = HANGAR);
                    }
                }
                pos = Aero::solo_at(Rules::STANDARD, m);
            }
        }
    }
    turns
}

fn check(
    table: &FinishTables,
    planes: [u8; PLANES],
    player: &mut dyn Player,
    hazard: f64,
    games: u32,
    slack: f64,
) {
    let mut rng = Rng::new(rank(planes) as u64);
    let (mut sum, mut sq) = (0.0, 0.0);
    for _ in 0..games {
        let t = solo_turns(planes, player, hazard, &mut rng) as f64;
        sum += t;
        sq += t * t;
    }
    let n = games as f64;
    let mean = sum / n;
    let sd = (sq / n - mean * mean).sqrt();
    let se = sd / n.sqrt();
    let (m, s) = table.stats(planes);
    assert!(
        (mean - m).abs() < 4.5 * se + slack,
        "{planes:?}: simulated mean {mean:.3} ± {se:.3}, table {m:.3}"
    );
    // The standard error of a standard deviation is about sd / sqrt(2n) (more for skewed data).
    assert!(
        (sd - s).abs() < 6.0 * s / (2.0 * n).sqrt() + 0.01,
        "{planes:?}: simulated sd {sd:.3}, table {s:.3}"
    );
}

/// The greedy policy against a table of values at the start of a turn (after the hazard).
struct Greedy(RaceTable);

impl Player for Greedy {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        self.0.best_choice(pos)
    }
}

#[test]
#[ignore = "solves two chains over all 521,855 multisets (~4 min CPU): cargo test --release -p qiyi-aeroplane --test finish -- --ignored"]
fn chains_without_hazard_are_the_race_table_and_simulated_games() {
    let race = race_table(&Rules::STANDARD).unwrap();
    let optimal = FinishTables::solve(Rules::STANDARD, SoloPolicy::Optimal(race), 3000, 1e-9);
    let random = FinishTables::solve(Rules::STANDARD, SoloPolicy::Random, 3000, 1e-9);
    let all = all_multisets();
    let mut rng = Rng::new(9);
    for _ in 0..20_000 {
        let m = all[rng.below(all.len())];
        let (a, b) = (optimal.mean(m), race.value(m));
        assert!((a - b).abs() < 2e-3, "{m:?}: chain {a}, race table {b}");
    }
    let h = HANGAR;
    for planes in [
        [h, h, h, h],
        [0, 20, 40, h],
        [50, 53, 55, 30],
        [12, 12, h, CENTRE],
    ] {
        check(
            &random,
            planes,
            &mut *make_player(PlayerKind::Random, 3),
            0.0,
            4_000,
            0.0,
        );
        check(
            &optimal,
            planes,
            &mut *make_player(PlayerKind::Race, 3),
            0.0,
            2_000,
            0.0,
        );
    }
}

#[test]
fn transitions_are_distributions() {
    let race = race_table(&Rules::STANDARD).unwrap();
    let all = all_multisets();
    let mut rng = Rng::new(10);
    let mut out = Vec::new();
    for _ in 0..300 {
        let m = all[rng.below(all.len())];
        for policy in [SoloPolicy::Random, SoloPolicy::Optimal(race)] {
            transitions(Rules::STANDARD, m, policy, &mut out);
            let total: f64 = out.iter().map(|e| e.1).sum();
            assert!((total - 1.0).abs() < 1e-6, "{m:?}: {total}");
            assert!(out.windows(2).all(|w| w[0].0 < w[1].0));
        }
    }
}

#[test]
fn random_hazard_table_matches_simulated_games_under_the_hazard() {
    let t = finish_tables(&Rules::STANDARD).expect("shipped");
    let h = HANGAR;
    for planes in [
        [h, h, h, h],
        [0, 20, 40, h],
        [45, 5, 55, 30],
        [12, 12, h, CENTRE],
    ] {
        let mut random = make_player(PlayerKind::Random, 3);
        check(
            &t.random_hazard,
            planes,
            &mut *random,
            SHIPPED_RANDOM_HAZARD,
            4_000,
            0.0,
        );
    }
}

#[test]
fn hazard_table_matches_its_policy_in_simulated_games_under_the_hazard() {
    // The shipped policy-iteration result: playing greedily against its own values after the
    // hazard takes the turns the table says (up to the last round's improvement, < 0.1 turn).
    let t = finish_tables(&Rules::STANDARD).expect("shipped");
    let chain = Chain::new(Rules::STANDARD, SHIPPED_HAZARD);
    let means: Vec<f64> = all_multisets().iter().map(|&m| t.hazard.mean(m)).collect();
    let after: Vec<f32> = chain.hit_values(&means).iter().map(|&v| v as f32).collect();
    let mut greedy = Greedy(RaceTable::from_values(Rules::STANDARD, after).unwrap());
    let h = HANGAR;
    for planes in [[h, h, h, h], [0, 20, 40, h], [45, 5, 55, 30]] {
        check(&t.hazard, planes, &mut greedy, SHIPPED_HAZARD, 3_000, 0.1);
    }
    // Against the hazard, the race is longer; the improved policy beats the race table's own
    // policy under the same hazard (its hangar value after round 0 of the generator).
    let race = race_table(&Rules::STANDARD).unwrap();
    assert!(t.hazard.mean([h; 4]) > race.value([h; 4]) + 5.0);
}

#[test]
fn win_chances_of_all_seats_sum_to_one() {
    let fs = [
        Finish {
            mean: 40.0,
            sd: 10.0,
        },
        Finish {
            mean: 55.0,
            sd: 14.0,
        },
        Finish {
            mean: 30.0,
            sd: 6.0,
        },
        Finish {
            mean: 61.0,
            sd: 15.0,
        },
    ];
    // Seat 0 is about to play; seat k sees the seats before it (already played this round in its
    // view: they move before its next turn) with offset 1.
    let mut total = 0.0;
    for me in 0..4 {
        let opps: Vec<(Finish, u8)> = (0..4)
            .filter(|&q| q != me)
            .map(|q| (fs[q], (q < me) as u8))
            .collect();
        total += win_chance(fs[me], &opps);
    }
    assert!((total - 1.0).abs() < 1e-3, "{total}");
    // Identical races: moving first is an advantage (ties go to the earlier turn).
    let f = Finish {
        mean: 20.0,
        sd: 5.0,
    };
    let first = win_chance(f, &[(f, 0)]);
    assert!(first > 0.5 && first < 0.6, "{first}");
    // (up to the tails cut at 5 standard deviations and below one turn)
    assert!((first + win_chance(f, &[(f, 1)]) - 1.0).abs() < 1e-4);
    assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
    assert!((normal_cdf(1.959_964) - 0.975).abs() < 1e-6);
}

/// The log-normal shape is a distribution too: the seats' chances sum to 1, and a race against
/// itself favours the seat that moves first.
#[test]
fn log_normal_win_chances_of_all_seats_sum_to_one() {
    let fs = [
        (40.0, 10.0),
        (55.0, 14.0),
        (30.0, 6.0),
        (61.0, 15.0),
        (3.0, 1.5),
    ]
    .map(|(mean, sd)| Finish { mean, sd });
    for n in [4, 5] {
        let mut total = 0.0;
        for me in 0..n {
            let opps: Vec<(Finish, u8)> = (0..n)
                .filter(|&q| q != me)
                .map(|q| (fs[q], (q < me) as u8))
                .collect();
            total += win_chance_shaped(fs[me], &opps, Shape::LogNormal);
        }
        assert!((total - 1.0).abs() < 2e-3, "{n} seats: {total}");
    }
    let f = fs[0];
    let first = win_chance_shaped(f, &[(f, 0)], Shape::LogNormal);
    assert!(first > 0.5 && first < 0.6, "{first}");
    // In a symmetric race the shape only moves the first mover's edge a little.
    let normal = win_chance(f, &[(f, 0)]);
    assert!((first - normal).abs() < 0.05, "{first} {normal}");
}

/// With no samples, the sampled win chance of the `win` player is its static one; with samples
/// from the start position, the chance stays a probability.
#[test]
fn sampled_win_chance_without_samples_is_the_static_one() {
    let player = qiyi_aeroplane::players::WinPlayer::new(
        qiyi_aeroplane::players::WinWeights::TUNED,
        Rng::new(1),
    );
    let model = player
        .model(&Rules::STANDARD)
        .expect("standard tables ship");
    let mut pos = Aero::new(Rules::STANDARD, 4).unwrap();
    let mut rng = Rng::new(9);
    let mut checked = 0;
    for _ in 0..400 {
        if pos.turn() == Turn::Over {
            break;
        }
        let mv = match pos.turn() {
            Turn::Chance => AeroMove::Roll(rng.below(6) as u8 + 1),
            _ => {
                let c = pos.choices();
                AeroMove::Plane(c.as_slice()[rng.below(c.len())])
            }
        };
        let me = pos.to_move();
        let e = pos.play(mv);
        if matches!(mv, AeroMove::Plane(_)) {
            let s = model.sampled(&pos, me, e.new_turn, 0, 5);
            assert_eq!(s, model.evaluate(&pos, me, e.new_turn));
            let s = model.sampled(&pos, me, e.new_turn, 8, 5);
            assert!((-0.05..=1.05).contains(&s), "{s}");
            checked += 1;
        }
    }
    assert!(checked > 50);
}

/// The shipped tables are the bytes their documented generator writes: the checksums pinned in
/// `finish` (next to the generator's parameters) match the files, so a regenerated or edited table
/// cannot drift from its documentation silently.
#[test]
fn shipped_tables_match_their_pinned_checksums() {
    use qiyi_aeroplane::finish::{
        checksum, shipped_bytes, FINISH_HAZARD_CHECKSUM, FINISH_RANDOM_HAZARD_CHECKSUM,
        SHIPPED_ROUNDS, SHIPPED_SWEEPS, SHIPPED_TOLERANCE,
    };
    let (hazard, random) = shipped_bytes();
    assert_eq!(
        checksum(hazard),
        FINISH_HAZARD_CHECKSUM,
        "finish-hazard.u16"
    );
    assert_eq!(
        checksum(random),
        FINISH_RANDOM_HAZARD_CHECKSUM,
        "finish-random-hazard.u16"
    );
    // The parameters the checksums belong to (change them together with the tables).
    assert_eq!(
        (
            SHIPPED_HAZARD,
            SHIPPED_RANDOM_HAZARD,
            SHIPPED_ROUNDS,
            SHIPPED_SWEEPS
        ),
        (0.025, 0.035, 4, 3000)
    );
    assert_eq!(SHIPPED_TOLERANCE, 1e-9);
    // The checksum itself: FNV-1a of "a" is a published test vector.
    assert_eq!(checksum(b"a"), 0xaf63_dc4c_8601_ec8c);
}

/// Regenerates both tables with the documented parameters and compares them byte for byte with
/// the shipped files (what `examples/finish_tables` writes with its defaults).
#[test]
#[ignore = "solves the chains again (~3 min CPU on one thread, 3 GB): cargo test --release -p qiyi-aeroplane --test finish -- --ignored shipped_tables_are_reproduced"]
fn shipped_tables_are_reproduced_by_their_generator() {
    use qiyi_aeroplane::finish::{
        shipped_bytes, solve_random_hazard, solve_standard_hazard, SHIPPED_ROUNDS, SHIPPED_SWEEPS,
        SHIPPED_TOLERANCE,
    };
    let (hazard, random) = shipped_bytes();
    let rnd = solve_random_hazard(SHIPPED_RANDOM_HAZARD, SHIPPED_SWEEPS, SHIPPED_TOLERANCE);
    assert!(rnd.to_bytes() == random, "finish-random-hazard.u16 differs");
    let opt = solve_standard_hazard(
        SHIPPED_HAZARD,
        SHIPPED_ROUNDS,
        SHIPPED_SWEEPS,
        SHIPPED_TOLERANCE,
        &mut |_, _| {},
    )
    .expect("the race table ships");
    assert!(opt.to_bytes() == hazard, "finish-hazard.u16 differs");
}
