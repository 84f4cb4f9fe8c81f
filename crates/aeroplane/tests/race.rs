//! The solo-race table (`race`): exact by three independent checks — the Bellman equation on
//! sampled states, the lone-plane Markov chain of `odds` (a different method) where one plane is
//! left, and simulation of the rules engine under the table's own policy.

use qiyi_aeroplane::board::{CENTRE, HANGAR, PLANE_STATES};
use qiyi_aeroplane::odds::LoneOdds;
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::race::{all_multisets, race_table, rank, MULTISETS};
use qiyi_aeroplane::record::play_game;
use qiyi_aeroplane::{Aero, Rules};
use qiyi_core::Rng;

#[test]
fn rank_is_a_bijection_onto_the_multisets() {
    let all = all_multisets();
    assert_eq!(all.len(), MULTISETS);
    for (i, m) in all.iter().enumerate() {
        assert_eq!(rank(*m), i);
        // Any order of the same planes has the same rank.
        assert_eq!(rank([m[3], m[1], m[0], m[2]]), i);
    }
}

#[test]
fn the_table_ships_for_the_standard_rules_only() {
    assert!(race_table(&Rules::STANDARD).is_some());
    assert!(race_table(&Rules::SEED).is_none());
    assert_eq!(
        race_table(&Rules::STANDARD).unwrap().values().len(),
        MULTISETS
    );
}

#[test]
fn table_satisfies_the_bellman_equation() {
    // A2/A6-A11 through the rules engine: V(s) = 1 + E[min over choices of V(next)].
    let table = race_table(&Rules::STANDARD).unwrap();
    let all = all_multisets();
    let mut rng = Rng::new(5);
    let mut worst: f64 = 0.0;
    for _ in 0..3_000 {
        let m = all[rng.below(all.len())];
        let residual = (table.bellman(m) - table.value(m)).abs();
        worst = worst.max(residual);
    }
    // The table holds thousandths of a turn.
    assert!(worst < 2e-3, "largest Bellman residual {worst}");
    let h = HANGAR;
    assert_eq!(table.value([CENTRE; 4]), 0.0);
    assert!((table.bellman([h, h, h, h]) - table.value([h, h, h, h])).abs() < 2e-3);
}

#[test]
fn one_plane_left_is_the_lone_plane_chain() {
    let table = race_table(&Rules::STANDARD).unwrap();
    let lone = LoneOdds::new(&Rules::STANDARD);
    let c = CENTRE;
    for d in 0..PLANE_STATES as u8 {
        let exact = if d == HANGAR {
            lone.turns_from_hangar
        } else {
            lone.turns_to_finish[d as usize]
        };
        let v = table.value([d, c, c, c]);
        assert!(
            (v - exact).abs() < 1e-3,
            "progress {d}: table {v}, chain {exact}"
        );
    }
}

#[test]
fn simulated_solo_races_take_the_expected_turns() {
    // The race player alone plays the table's policy; its games must last V(hangar) on average.
    let table = race_table(&Rules::STANDARD).unwrap();
    let expected = table.value([HANGAR; 4]);
    let start = Aero::solo(Rules::STANDARD);
    let games = 3_000u64;
    let mut sum = 0.0;
    let mut sq = 0.0;
    for g in 0..games {
        let mut p = vec![make_player(PlayerKind::Race, g)];
        let t = play_game(&start, &mut p, 1_000 + g).turns as f64;
        sum += t;
        sq += t * t;
    }
    let mean = sum / games as f64;
    let se = ((sq / games as f64 - mean * mean) / games as f64).sqrt();
    assert!(
        (mean - expected).abs() < 4.5 * se,
        "simulated {mean:.3} ± {se:.3}, table {expected:.4}"
    );
    // The table's policy is at least as good as the simpler players (by its own numbers).
    assert!(expected < 48.0 && expected > 40.0, "{expected}");
}
