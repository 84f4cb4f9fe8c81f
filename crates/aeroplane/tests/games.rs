//! Conformance, property tests, record/replay, and whole games with every player.

use proptest::prelude::*;
use qiyi_aeroplane::board::{HANGAR, PAD};
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::record::{play_game, random_game, GameRecord};
use qiyi_aeroplane::{Aero, AeroMove, Ending, Rules, Takeoff, ThreeSixes};
use qiyi_core::conformance::{check_game, Config};
use qiyi_core::{Game, Notation, Rng, Turn};

fn all_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for base in [Rules::STANDARD, Rules::SEED] {
        for takeoff in [Takeoff::Six, Takeoff::FiveSix, Takeoff::Even] {
            for three_sixes in [ThreeSixes::None, ThreeSixes::LoseTurn, ThreeSixes::SendBack] {
                for ending in [Ending::FirstWins, Ending::PlayOn] {
                    out.push(Rules {
                        takeoff,
                        three_sixes,
                        ending,
                        ..base
                    });
                }
            }
        }
    }
    out
}

#[test]
fn conformance_every_rule_set_and_player_count() {
    let mut starts = Vec::new();
    for rules in all_rules() {
        for n in 2..=4 {
            starts.push(Aero::new(rules, n).unwrap());
        }
    }
    let config = Config {
        playouts: 2,
        max_plies: 20_000,
        ..Config::default()
    };
    check_game(&starts, &config);
}

/// A2: no plane ever has an impossible progress (0 only with a launch pad).
fn check_invariants(p: &Aero) {
    for q in 0..4 {
        for &d in p.planes(q).iter() {
            assert!(d <= 56 || d == HANGAR, "{}", p.to_text());
            if q >= p.players() {
                assert_eq!(d, HANGAR);
            }
            if d == PAD {
                assert!(p.rules().launch_pad(), "{}", p.to_text());
            }
        }
    }
    assert!(p.pending_roll() <= 6);
}

fn arb_rules() -> impl Strategy<Value = Rules> {
    (0..all_rules().len()).prop_map(|i| all_rules()[i])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn planes_never_have_impossible_progress(rules in arb_rules(), n in 2usize..=4, seed in any::<u64>()) {
        let mut p = Aero::new(rules, n).unwrap();
        let mut rng = Rng::new(seed);
        let mut moves = Vec::new();
        for _ in 0..5_000 {
            check_invariants(&p);
            if p.turn() == Turn::Over { break; }
            p.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            p.make(mv);
        }
    }

    #[test]
    fn replay_reproduces_a_game(rules in arb_rules(), n in 2usize..=4, seed in any::<u64>()) {
        let start = Aero::new(rules, n).unwrap();
        let mut players: Vec<_> = (0..n).map(|s| make_player(PlayerKind::Random, seed ^ s as u64)).collect();
        let rec = play_game(&start, &mut players, seed);
        let json = rec.to_json();
        let back = GameRecord::from_json(&json).unwrap();
        prop_assert_eq!(&back, &rec);
        let end = back.replay().unwrap();
        prop_assert_eq!(end.turn(), Turn::Over);
        prop_assert_eq!(end.places()[..n].to_vec(), rec.places.clone());
    }

    #[test]
    fn position_parser_never_panics(text in "\\PC{0,120}") {
        let _ = Aero::from_text(&text);
    }

    #[test]
    fn position_parser_never_panics_on_near_misses(
        set in "(standard|seed|x)", n in 0u8..6, mv in 0u8..6, roll in 0u8..9, sixes in 0u8..20,
        moved in 0u8..20, a in 0u8..60, b in 0u8..60, places in "[0-5],[0-5](,[0-5]){0,3}"
    ) {
        let t = format!("{set} players={n} move={mv} roll={roll} sixes={sixes} moved={moved} places={places} planes={a},H,{b},H/H,{b},H,{a}");
        if let Ok(p) = Aero::from_text(&t) {
            check_invariants(&p);
            prop_assert_eq!(Aero::from_text(&p.to_text()).unwrap(), p);
        }
    }

    #[test]
    fn move_parser_never_panics(text in "\\PC{0,8}", face in 1u8..=6) {
        let mut p = Aero::new(Rules::STANDARD, 4).unwrap();
        let _ = p.parse_move(&text);
        p.make(AeroMove::Roll(face));
        let _ = p.parse_move(&text);
    }

    #[test]
    fn record_reader_never_panics(text in "\\PC{0,200}") {
        if let Ok(rec) = GameRecord::from_json(&text) {
            let _ = rec.replay();
        }
    }
}

#[test]
fn tampered_records_are_rejected() {
    let start = Aero::new(Rules::STANDARD, 4).unwrap();
    let mut players: Vec<_> = (0..4)
        .map(|s| make_player(PlayerKind::SeedGreedy, s))
        .collect();
    let rec = play_game(&start, &mut players, 42);
    assert!(rec.replay().is_ok());
    let mut wrong_roll = rec.clone();
    wrong_roll.rolls[3] = wrong_roll.rolls[3] % 6 + 1;
    assert!(
        wrong_roll.replay().is_err(),
        "a roll that is not the seed's dice"
    );
    let mut wrong_seed = rec.clone();
    wrong_seed.seed += 1;
    assert!(wrong_seed.replay().is_err());
    let mut extra = rec.clone();
    extra.choices.push(0);
    assert!(extra.replay().is_err());
    assert!(GameRecord::from_json("{\"rules\":1}").is_err());
}

#[test]
fn same_seed_same_game() {
    let start = Aero::new(Rules::SEED, 3).unwrap();
    let run = || {
        let mut players: Vec<_> = (0..3)
            .map(|s| make_player(PlayerKind::SeedMc, 7 + s))
            .collect();
        play_game(&start, &mut players, 9)
    };
    assert_eq!(run(), run());
}

#[test]
fn both_rule_sets_play_to_the_end_with_every_player() {
    let kinds = [
        PlayerKind::Random,
        PlayerKind::SeedGreedy,
        PlayerKind::SeedMc,
        PlayerKind::Heuristic,
        PlayerKind::Race,
        PlayerKind::Win,
        PlayerKind::WinRollout,
        PlayerKind::Expectimax,
        PlayerKind::Mcts,
        PlayerKind::Best,
        PlayerKind::Level(1),
        PlayerKind::Level(5),
        PlayerKind::Level(10),
    ];
    for rules in [Rules::STANDARD, Rules::SEED] {
        for (k, &kind) in kinds.iter().enumerate() {
            let start = Aero::new(rules, 2).unwrap();
            let mut players = vec![make_player(kind, 1), make_player(PlayerKind::Random, 2)];
            let rec = play_game(&start, &mut players, k as u64);
            let end = rec.replay().unwrap();
            assert_eq!(end.turn(), Turn::Over, "{kind} under {rules}");
            assert!(end.winner().is_some());
        }
    }
}

#[test]
fn random_games_end_and_every_seat_can_win() {
    let start = Aero::new(Rules::STANDARD, 4).unwrap();
    let mut rng = Rng::new(3);
    let mut wins = [0; 4];
    for _ in 0..2_000 {
        let s = random_game(&start, &mut rng);
        wins[s.winner.unwrap()] += 1;
        assert!(s.turns > 20);
    }
    assert!(wins.iter().all(|&w| w > 300), "{wins:?}");
}

#[test]
fn fast_random_games_follow_the_same_distribution_as_random_players() {
    // `random_game` skips the Zobrist updates and draws several dice per random word; its games
    // must look like games of `random` players through `play_game` (mean length within 4.5
    // standard errors of the difference).
    let start = Aero::new(Rules::STANDARD, 4).unwrap();
    let n = 3_000u64;
    let mut rng = Rng::new(11);
    let fast: Vec<f64> = (0..n)
        .map(|_| random_game(&start, &mut rng).turns as f64)
        .collect();
    let slow: Vec<f64> = (0..n)
        .map(|g| {
            let mut players: Vec<_> = (0..4)
                .map(|s| make_player(PlayerKind::Random, g * 4 + s))
                .collect();
            play_game(&start, &mut players, 50_000 + g).turns as f64
        })
        .collect();
    let stats = |v: &[f64]| {
        let m = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64;
        (m, var / v.len() as f64)
    };
    let (mf, vf) = stats(&fast);
    let (ms, vs) = stats(&slow);
    assert!(
        (mf - ms).abs() < 4.5 * (vf + vs).sqrt(),
        "fast {mf:.2}, play_game {ms:.2}"
    );
    // It also plays on from the middle of a turn.
    let mut rng = Rng::new(2);
    for _ in 0..50 {
        let mut pos = start;
        for _ in 0..37 {
            match pos.turn() {
                Turn::Over => break,
                Turn::Chance => {
                    pos.play(AeroMove::Roll(rng.below(6) as u8 + 1));
                }
                Turn::Player(_) => {
                    let c = pos.choices();
                    pos.play(AeroMove::Plane(c.as_slice()[0]));
                }
            }
        }
        let s = random_game(&pos, &mut rng);
        assert!(s.winner.is_some());
    }
}

#[test]
fn player_names_parse_and_bad_ones_are_errors() {
    for name in PlayerKind::NAMES {
        let k: PlayerKind = name.parse().unwrap();
        assert_eq!(k.to_string(), name);
    }
    assert_eq!(
        "level-7".parse::<PlayerKind>().unwrap(),
        PlayerKind::Level(7)
    );
    assert!("level-11".parse::<PlayerKind>().is_err());
    // The error names the bad input and every type that would have been accepted.
    let e = "grandmaster".parse::<PlayerKind>().unwrap_err().to_string();
    assert!(e.contains("\"grandmaster\""), "{e}");
    for name in PlayerKind::NAMES.iter().chain(&["level-1..level-10"]) {
        assert!(e.contains(name), "{name} missing from: {e}");
    }
}

#[test]
fn core_chance_searches_work_on_the_game_unchanged() {
    use qiyi_aeroplane::eval::Weights;
    use qiyi_aeroplane::search::{AeroEval, GreedyPolicy};
    use qiyi_core::eval::RandomPolicy;
    use qiyi_core::search::expectimax::expectimax;
    use qiyi_core::search::mcts::{mcts, MctsOptions};
    use qiyi_core::search::montecarlo::{flat_monte_carlo, FlatOptions};
    use qiyi_core::search::SearchLimits;
    // A decision with several choices: red has planes out and rolls a 6.
    let mut p = Aero::from_text(
        "standard players=4 move=0 roll=0 sixes=0 moved=0 places=0,0,0,0 planes=3,12,H,H/7,H,H,H/H,H,H,H/20,H,H,H",
    )
    .unwrap();
    p.make(AeroMove::Roll(6));
    let mut legal = Vec::new();
    p.legal_moves(&mut legal);
    assert_eq!(legal.len(), 3);
    let eval = AeroEval::new(&p, Weights::TUNED);
    let e = expectimax(&p, &eval, 3);
    assert!(legal.contains(&e.best_move.unwrap()));
    assert!(
        e.stats.nodes > 6 * legal.len() as u64,
        "the search went through chance nodes"
    );
    let m = mcts(
        &p,
        &GreedyPolicy { epsilon: 0.1 },
        &MctsOptions::default(),
        &SearchLimits::nodes(200),
    );
    assert!(legal.contains(&m.best_move.unwrap()));
    assert_eq!(m.playouts, 200);
    let f = flat_monte_carlo(
        &p,
        &RandomPolicy,
        &FlatOptions {
            playouts: 60,
            ..FlatOptions::default()
        },
    );
    assert!(legal.contains(&f.best_move.unwrap()));
    // At a chance node the searches see six outcomes.
    let q = Aero::new(Rules::STANDARD, 2).unwrap();
    let mut outcomes = Vec::new();
    q.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 6);
    assert!(outcomes
        .iter()
        .all(|&(_, pr)| (pr - 1.0 / 6.0).abs() < 1e-15));
}

#[test]
fn levels_are_ordered_by_strength_at_the_ends() {
    // Level 10 (best) against three level-1 (random) players wins far more than a fair 25%
    // (about 80%: 50 of 100 is more than 7 standard deviations below that).
    let start = Aero::new(Rules::STANDARD, 4).unwrap();
    let games = 100;
    let mut wins = 0;
    for g in 0..games {
        let seat = (g % 4) as usize;
        let mut players: Vec<_> = (0..4)
            .map(|s| {
                let kind = if s == seat {
                    PlayerKind::Level(10)
                } else {
                    PlayerKind::Level(1)
                };
                make_player(kind, g * 4 + s as u64)
            })
            .collect();
        let rec = play_game(&start, &mut players, 1000 + g);
        wins += (rec.places[seat] == 1) as u32;
    }
    assert!(wins > 50, "level 10 won {wins} of {games}");
}
