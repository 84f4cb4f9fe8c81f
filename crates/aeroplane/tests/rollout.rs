//! The `win-rollout` player: without rollouts it is the `win` heuristic, its rollouts are
//! reproducible from its seed, and the rollouts' own policy takes what it should.

use qiyi_aeroplane::eval::danger_with;
use qiyi_aeroplane::finish::finish_tables;
use qiyi_aeroplane::players::{Player, WinPlayer, WinWeights};
use qiyi_aeroplane::record::play_game;
use qiyi_aeroplane::rollout::{
    race_greedy, race_safe, rollout, rollout_by, RolloutPlayer, RolloutPolicy, RolloutWeights,
    TO_THE_END,
};
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
    // The same with `win` playing its own moves in the rollouts, and antithetic pairs.
    let win_off = RolloutWeights {
        policy: RolloutPolicy::Win,
        antithetic: true,
        ..off
    };
    let win_no_horizon = RolloutWeights {
        policy: RolloutPolicy::Win,
        antithetic: true,
        ..no_horizon
    };
    for (k, pos) in decisions(300, 5).iter().enumerate() {
        let mut win = WinPlayer::new(WinWeights::TUNED, Rng::new(k as u64));
        let expected = win.choose(pos);
        for w in [off, no_horizon, win_off, win_no_horizon] {
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
    // The same decisions from the same seed, one by one, with either rollout policy.
    let win_policy = RolloutWeights {
        rollouts: 32,
        policy: RolloutPolicy::Win,
        antithetic: true,
        ..RolloutWeights::TUNED
    };
    for w in [RolloutWeights::TUNED, win_policy] {
        for (k, pos) in decisions(40, 9).iter().enumerate() {
            let mut p = RolloutPlayer::new(w, Rng::new(k as u64));
            let mut q = RolloutPlayer::new(w, Rng::new(k as u64));
            assert_eq!(p.choose(pos), q.choose(pos), "{w:?} at decision {k}");
        }
    }
}

/// Rollouts whose own moves are `win`'s: chances in range, reproducible from their streams,
/// and the antithetic twin (dice `7 - d`, picks from the other end) a different game of the
/// same streams.
#[test]
fn win_policy_rollouts_are_reproducible_and_in_range() {
    let model = WinPlayer::new(WinWeights::TUNED, Rng::new(1))
        .model(&Rules::STANDARD)
        .unwrap();
    let win = WinPlayer::new(WinWeights::TUNED, Rng::new(1));
    let mut own_moves = 0;
    let mut twins_differ = 0;
    for (k, pos) in decisions(40, 17).iter().enumerate() {
        let me = pos.to_move();
        let after = pos.after(AeroMove::Plane(pos.choices().as_slice()[0]));
        let run = |horizon: u32, mirror: bool, moves: &mut u32| {
            let mut dice = Rng::derive(k as u64, 0);
            let mut picks = Rng::derive(k as u64, 1);
            rollout_by(
                &after,
                me,
                &model,
                horizon,
                &mut dice,
                &mut picks,
                mirror,
                |sim| {
                    *moves += 1;
                    let scored = win.scores(sim, &model, 0);
                    let best = scored.best().unwrap().0;
                    // `win`'s own choice in the same position.
                    assert_eq!(
                        WinPlayer::new(WinWeights::TUNED, Rng::new(2)).choose(sim),
                        AeroMove::Plane(best)
                    );
                    assert_eq!(sim.to_move(), me);
                    AeroMove::Plane(best)
                },
                |sim| model.at_my_turn(sim, me),
            )
        };
        for horizon in [1, 2, 4, u32::MAX] {
            let mut moves = 0;
            let v = run(horizon, false, &mut moves);
            own_moves += moves;
            assert!((0.0..=1.0 + 1e-9).contains(&v), "{v} at decision {k}");
            assert_eq!(v.to_bits(), run(horizon, false, &mut 0).to_bits());
            let twin = run(horizon, true, &mut 0);
            assert!((0.0..=1.0 + 1e-9).contains(&twin), "{twin} at decision {k}");
            if twin != v {
                twins_differ += 1;
            }
            if horizon == u32::MAX {
                assert!(v == 0.0 || v == 1.0);
            }
        }
    }
    assert!(own_moves > 100, "only {own_moves} own moves played by win");
    assert!(twins_differ > 40, "antithetic twins equal too often");
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

/// The turns `table` expects me to lose to hits before my next turn after `after` (the random
/// opponents' hit chance of each of my ring planes times the turns its hit costs).
fn expected_hit_cost(after: &Aero, me: usize, table: &qiyi_aeroplane::race::RaceTable) -> f64 {
    let planes = after.planes(me);
    let base = table.value(planes);
    let mut cost = 0.0;
    for (k, &d) in planes.iter().enumerate() {
        if !qiyi_aeroplane::board::on_ring(d) || planes[..k].contains(&d) {
            continue;
        }
        let mut hit = planes;
        hit.iter_mut()
            .filter(|x| **x == d)
            .for_each(|x| *x = qiyi_aeroplane::board::HANGAR);
        cost += danger_with(after, me, d, 0.0) * (table.value(hit) - base);
    }
    cost
}

/// `race_safe` finishes and captures like `race_greedy`, plays `race_greedy`'s move when no
/// choice leaves a plane in reach, and where the two differ it takes the choice that risks fewer
/// expected turns (it gives up speed only for safety).
#[test]
fn the_careful_rollout_policy_gives_up_speed_only_for_safety() {
    let table = &finish_tables(&Rules::STANDARD).unwrap().hazard_race;
    let (mut differ, mut quiet) = (0, 0);
    for pos in decisions(3000, 22) {
        let me = pos.to_move();
        let greedy = race_greedy(&pos, table);
        let safe = race_safe(&pos, table);
        let (mut g, mut s) = (pos, pos);
        let (eg, es) = (g.play(greedy), s.play(safe));
        if g.turn() == Turn::Over || eg.captured > 0 {
            assert_eq!(g.turn() == Turn::Over, s.turn() == Turn::Over);
            assert_eq!(eg.captured, es.captured);
            continue;
        }
        let choices = pos.choices();
        let in_reach = choices.as_slice().iter().any(|&i| {
            let a = pos.after(AeroMove::Plane(i));
            a.turn() != Turn::Over && expected_hit_cost(&a, me, table) > 0.0
        });
        if !in_reach {
            quiet += 1;
            assert_eq!(safe, greedy);
        } else if safe != greedy {
            differ += 1;
            let turns = |a: &Aero| table.value(a.planes(me));
            assert!(turns(&s) >= turns(&g));
            assert!(expected_hit_cost(&s, me, table) < expected_hit_cost(&g, me, table));
        }
    }
    assert!(differ > 50 && quiet > 50, "{differ} differ, {quiet} quiet");
}

/// Sequential rollouts: with a stopping lead no candidate reaches, the batches play every
/// rollout and choose exactly what one batch of all of them chooses; with a stopping lead of
/// zero they may stop early but still pick one of the choices, reproducibly.
#[test]
fn batched_rollouts_choose_as_one_batch_unless_they_stop() {
    let base = RolloutWeights {
        rollouts: 64,
        margin: 1.0,
        candidates: 4,
        ..RolloutWeights::TUNED
    };
    let never = RolloutWeights {
        batch: 16,
        stop_z: f64::INFINITY,
        ..base
    };
    let eager = RolloutWeights {
        batch: 8,
        stop_z: 0.0,
        ..base
    };
    for (k, pos) in decisions(60, 23).iter().enumerate() {
        let choose = |w: RolloutWeights| RolloutPlayer::new(w, Rng::new(k as u64)).choose(pos);
        assert_eq!(choose(never), choose(base), "decision {k}");
        let early = choose(eager);
        assert_eq!(early, choose(eager), "decision {k}");
        let AeroMove::Plane(i) = early else {
            panic!("a roll chosen at decision {k}");
        };
        assert!(pos.choices().as_slice().contains(&i), "decision {k}");
    }
}

#[test]
fn end_game_rollouts_run_to_the_end_only_in_the_end_game() {
    let table = &finish_tables(&Rules::STANDARD).unwrap().hazard_race;
    let end = RolloutWeights {
        endgame: 14.0,
        end_margin: 0.05,
        ..RolloutWeights::TUNED
    };
    let (mut inside, mut outside) = (Vec::new(), 0);
    for (k, pos) in decisions(4000, 23).iter().enumerate() {
        // Off by default: the tuned settings hold everywhere.
        assert_eq!(
            RolloutWeights::TUNED.at_decision(pos, table),
            RolloutWeights::TUNED
        );
        let w = end.at_decision(pos, table);
        if table.value(pos.planes(pos.to_move())) <= 14.0 {
            inside.push(*pos);
            let expected = RolloutWeights {
                horizon: TO_THE_END,
                margin: 0.05,
                candidates: 4,
                ..end
            };
            assert_eq!(w, expected, "decision {k}");
        } else {
            outside += 1;
            assert_eq!(w, end, "decision {k}");
        }
    }
    assert!(
        inside.len() > 20 && outside > 100,
        "{} / {outside}",
        inside.len()
    );
    // A player in the end game is reproducible from its seed and plays a legal choice.
    for (k, pos) in inside.iter().take(20).enumerate() {
        let w = RolloutWeights {
            rollouts: 64,
            ..end
        };
        let a = RolloutPlayer::new(w, Rng::new(k as u64)).choose(pos);
        assert_eq!(a, RolloutPlayer::new(w, Rng::new(k as u64)).choose(pos));
        let AeroMove::Plane(i) = a else {
            panic!("{a:?} is not a plane");
        };
        assert!(pos.choices().as_slice().contains(&i), "decision {k}");
    }
}

#[test]
fn a_replaced_leaf_scores_the_rollouts() {
    use qiyi_aeroplane::rollout::Leaf;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    let w = RolloutWeights {
        rollouts: 16,
        margin: 0.05,
        ..RolloutWeights::TUNED
    };
    let calls = Arc::new(AtomicUsize::new(0));
    let counted = calls.clone();
    // The model's own leaf, counted: the same choices as the player without a leaf.
    let same: Leaf = Arc::new(move |model, pos, me| {
        counted.fetch_add(1, Ordering::Relaxed);
        model.at_my_turn(pos, me)
    });
    // A leaf that only values my progress: rollouts then favour the faster choices, so some
    // decisions must change.
    let progress: Leaf =
        Arc::new(|_, pos: &Aero, me| f64::from(pos.total_progress(me).max(0)) / 224.0);
    let mut changed = 0;
    for (k, pos) in decisions(200, 13).iter().enumerate() {
        let plain = RolloutPlayer::new(w, Rng::new(k as u64)).choose(pos);
        let with_same = RolloutPlayer::new(w, Rng::new(k as u64))
            .with_leaf(same.clone())
            .choose(pos);
        assert_eq!(plain, with_same, "decision {k}");
        let by_progress = RolloutPlayer::new(w, Rng::new(k as u64))
            .with_leaf(progress.clone())
            .choose(pos);
        assert!(pos.choices().as_slice().contains(&match by_progress {
            AeroMove::Plane(i) => i,
            AeroMove::Roll(_) => panic!("a roll at a decision"),
        }));
        changed += usize::from(by_progress != plain);
    }
    assert!(
        calls.load(Ordering::Relaxed) > 0,
        "the leaf was never asked"
    );
    assert!(changed > 0, "no decision followed the replaced leaf");
}
