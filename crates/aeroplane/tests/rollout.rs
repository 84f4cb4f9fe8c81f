//! The `win-rollout` player: without rollouts it is the `win` heuristic, its rollouts are
//! reproducible from its seed, and the rollouts' own policy takes what it should.

use qiyi_aeroplane::finish::finish_tables;
use qiyi_aeroplane::players::{Player, WinPlayer, WinWeights};
use qiyi_aeroplane::record::play_game;
use qiyi_aeroplane::rollout::{race_greedy, rollout, RolloutPlayer, RolloutWeights};
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};

/// Decision nodes with two or more choices from games of random moves (4 players, standard).
fn decisions(count: usize, seed: u64) -> Vec<Aero> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Aero::new(Rules::STANDARD, 4).unwrap();
        while pos.turn() != Turn::Over && out.len() < count {
            match pos.turn() {
                Turn::Chance => {
                    pos.play(AeroMove::Roll(rng.below(6) as u8 + 1));
                }
                _ => {
                    let c = pos.choices();
                    if c.len() >= 2 && rng.below(8) == 0 {
                        out.push(pos);
                    }
                    pos.play(AeroMove::Plane(c.as_slice()[rng.below(c.len())]));
                }
            }
        }
    }
    out
}

#[test]
fn without_rollouts_it_plays_the_heuristics_move() {
    let off = RolloutWeights {
        rollouts: 0,
        ..RolloutWeights::TUNED
    };
    // A margin of zero leaves only exact ties to the rollouts; a horizon of zero, none.
    let no_horizon = RolloutWeights {
        horizon: 0,
        ..RolloutWeights::TUNED
    };
    for (k, pos) in decisions(300, 5).iter().enumerate() {
        let mut win = WinPlayer::new(WinWeights::TUNED, Rng::new(k as u64));
        let expected = win.choose(pos);
        for w in [off, no_horizon] {
            let mut p = RolloutPlayer::new(w, Rng::new(k as u64));
            assert_eq!(p.choose(pos), expected, "{w:?} at decision {k}");
        }
    }
}

#[test]
fn rollouts_are_reproducible_with_a_seed() {
    let start = Aero::new(Rules::STANDARD, 4).unwrap();
    let game = |seed: u64| {
        let mut players: Vec<Box<dyn Player>> = (0..4)
            .map(|s| -> Box<dyn Player> {
                if s == 1 {
                    Box::new(RolloutPlayer::new(RolloutWeights::TUNED, Rng::new(seed)))
                } else {
                    qiyi_aeroplane::players::make_player(
                        qiyi_aeroplane::players::PlayerKind::Random,
                        seed + s,
                    )
                }
            })
            .collect();
        play_game(&start, &mut players, 77)
    };
    let a = game(3);
    assert_eq!(a, game(3));
    assert!(a.replay().is_ok());
    // The same decisions from the same seed, one by one.
    for (k, pos) in decisions(40, 9).iter().enumerate() {
        let mut p = RolloutPlayer::new(RolloutWeights::TUNED, Rng::new(k as u64));
        let mut q = RolloutPlayer::new(RolloutWeights::TUNED, Rng::new(k as u64));
        assert_eq!(p.choose(pos), q.choose(pos));
    }
}

#[test]
fn rollouts_end_with_a_chance_in_range() {
    let tables = finish_tables(&Rules::STANDARD).unwrap();
    let model = WinPlayer::new(WinWeights::TUNED, Rng::new(1))
        .model(&Rules::STANDARD)
        .unwrap();
    assert!(std::ptr::eq(model.race, &tables.hazard_race));
    for (k, pos) in decisions(60, 13).iter().enumerate() {
        let me = pos.to_move();
        let after = pos.after(AeroMove::Plane(pos.choices().as_slice()[0]));
        for horizon in [1, 3, u32::MAX] {
            let mut dice = Rng::derive(k as u64, 0);
            let mut picks = Rng::derive(k as u64, 1);
            let v = rollout(&after, me, &model, horizon, &mut dice, &mut picks);
            assert!((0.0..=1.0 + 1e-9).contains(&v), "{v} at decision {k}");
            if horizon == u32::MAX {
                // Played to the end: a win or a loss.
                assert!(v == 0.0 || v == 1.0);
            }
        }
    }
}

#[test]
fn the_rollout_policy_captures_and_finishes_when_it_can() {
    let table = &finish_tables(&Rules::STANDARD).unwrap().hazard_race;
    let mut captures = 0;
    let mut wins = 0;
    for pos in decisions(3000, 21) {
        let me = pos.to_move();
        let chosen = pos.after(race_greedy(&pos, table));
        let best_capture = pos
            .choices()
            .as_slice()
            .iter()
            .map(|&i| {
                let mut a = pos;
                a.play(AeroMove::Plane(i)).captured
            })
            .max()
            .unwrap_or(0);
        let can_win = pos.choices().as_slice().iter().any(|&i| {
            let a = pos.after(AeroMove::Plane(i));
            a.turn() == Turn::Over && a.winner() == Some(me)
        });
        if can_win {
            wins += 1;
            assert_eq!(chosen.winner(), Some(me));
        } else if best_capture > 0 {
            captures += 1;
            let mut a = pos;
            assert_eq!(a.play(race_greedy(&pos, table)).captured, best_capture);
        }
    }
    assert!(captures > 10, "only {captures} positions with a capture");
    let _ = wins;
}
