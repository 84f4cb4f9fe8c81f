//! The experiment harness: candidates on common games, aligned randomness, paired differences.

use qiyi_aeroplane::players::{make_player, Player, PlayerKind};
use qiyi_aeroplane::tournament::{
    aligned_results, candidate_results, field_results, paired_difference, paired_summary,
    seat_against, wilson, Field,
};
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Turn};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

fn start() -> Aero {
    Aero::new(Rules::STANDARD, 4).expect("4 players")
}

#[test]
fn paired_difference_is_the_mean_of_the_game_differences() {
    let a = [true, true, false, true];
    let b = [true, false, false, false];
    let (d, se) = paired_difference(&a, &b);
    assert!((d - 0.5).abs() < 1e-12, "{d}");
    // Differences 0, 1, 0, 1: sample variance 1/3, standard error sqrt(1/12).
    assert!((se - (1.0f64 / 12.0).sqrt()).abs() < 1e-12, "{se}");
    assert_eq!(paired_difference(&a, &a), (0.0, 0.0));
}

#[test]
fn aligned_games_are_reproducible_and_the_same_for_the_same_player() {
    let s = start();
    let one = aligned_results(&s, 200, 5, |g| make_player(PlayerKind::Win, g));
    let two = aligned_results(&s, 200, 5, |g| make_player(PlayerKind::Win, g));
    assert_eq!(one, two);
    let other = aligned_results(&s, 200, 6, |g| make_player(PlayerKind::Win, g));
    assert_ne!(one, other, "another seed gives other games");
}

#[test]
fn aligned_opponents_are_random_players() {
    // A random candidate among three aligned random opponents wins its fair share, and `win`
    // wins as often as against the sequential random players (both within sampling error).
    let s = start();
    let n = 4000;
    let fair = aligned_results(&s, n, 11, |g| make_player(PlayerKind::Random, g));
    let k = fair.iter().filter(|&&w| w).count() as u64;
    let [lo, hi] = wilson(k, n);
    assert!(lo < 0.25 && 0.25 < hi, "random wins {k} of {n}");
    let n = 2000;
    let aligned = aligned_results(&s, n, 12, |g| make_player(PlayerKind::Win, g));
    let plain = candidate_results(
        &s,
        n,
        12,
        |g| (g % 4) as usize,
        |g| make_player(PlayerKind::Win, g),
        |_| PlayerKind::Random,
    );
    let rate = |v: &[bool]| v.iter().filter(|&&w| w).count() as f64 / v.len() as f64;
    let (a, p) = (rate(&aligned), rate(&plain));
    // Each rate has a standard error of about 0.009; the difference about 0.013.
    assert!((a - p).abs() < 0.045, "aligned {a}, sequential {p}");
    assert!(a > 0.7 && p > 0.7, "aligned {a}, sequential {p}");
}

#[test]
fn fields_parse_and_bad_ones_are_errors() {
    assert_eq!(
        "random-aligned".parse::<Field>().ok(),
        Some(Field::AlignedRandom)
    );
    assert_eq!(
        "seed-mc".parse::<Field>().ok(),
        Some(Field::Kind(PlayerKind::SeedMc))
    );
    let err = "nobody".parse::<Field>().err().map(|e| e.to_string());
    assert!(
        err.as_ref().is_some_and(|e| e.contains("nobody")),
        "{err:?}"
    );
    let s = start();
    let aligned = field_results(&s, 50, 3, Field::AlignedRandom, |g| {
        make_player(PlayerKind::Win, g)
    });
    assert_eq!(
        aligned,
        aligned_results(&s, 50, 3, |g| make_player(PlayerKind::Win, g))
    );
    assert_eq!(
        paired_summary(&[true, false], &[false, false]),
        "+50.00 points (standard error 50.00)"
    );
}

/// A player that counts its decisions and plays the first choice.
struct Counting(Arc<AtomicUsize>);

impl Player for Counting {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        self.0.fetch_add(1, Ordering::Relaxed);
        AeroMove::Plane(pos.choices().as_slice()[0])
    }
}

#[test]
fn the_candidate_takes_its_seat_and_the_field_the_others() {
    // A decision node: the first player rolls a 6 and may take off.
    let mut pos = start();
    pos.play(AeroMove::Roll(6));
    assert!(matches!(pos.turn(), Turn::Player(0)));
    for players in 2..=4 {
        for at in 0..players {
            let calls = Arc::new(AtomicUsize::new(0));
            let candidate = Box::new(Counting(calls.clone()));
            let mut seats = seat_against(players, at, candidate, PlayerKind::Random, 7, 3);
            assert_eq!(seats.len(), players);
            for (s, player) in seats.iter_mut().enumerate() {
                let before = calls.load(Ordering::Relaxed);
                let mv = player.choose(&pos);
                assert!(matches!(mv, AeroMove::Plane(_)));
                let counted = calls.load(Ordering::Relaxed) - before;
                assert_eq!(counted, usize::from(s == at), "{players} players, seat {s}");
            }
        }
    }
    // The field is seeded as `make_player(field, seed ^ (4g + s))`: the same choices.
    let mut seats = seat_against(
        4,
        0,
        make_player(PlayerKind::Win, 1),
        PlayerKind::Random,
        9,
        5,
    );
    let mut by_hand: Vec<Box<dyn Player>> = vec![make_player(PlayerKind::Win, 1)];
    by_hand.extend((1..4u64).map(|s| make_player(PlayerKind::Random, 9 ^ (5 * 4 + s))));
    let mut rng = qiyi_core::Rng::new(4);
    let mut pos = start();
    let mut field_moves = 0;
    while pos.turn() != Turn::Over {
        match pos.turn() {
            Turn::Player(p) => {
                let mv = seats[p].choose(&pos);
                assert_eq!(mv, by_hand[p].choose(&pos));
                field_moves += usize::from(p != 0 && pos.choices().len() > 1);
                pos.play(mv);
            }
            _ => {
                pos.play(AeroMove::Roll(rng.below(6) as u8 + 1));
            }
        }
    }
    assert!(field_moves > 20, "{field_moves}");
}

#[test]
fn games_played_by_index_and_summarized_equal_the_whole_tournament() {
    use qiyi_aeroplane::tournament::{play_game, run_with_threads, summarize, TournamentSpec};
    let spec = TournamentSpec {
        rules: Rules::STANDARD,
        seats: vec![
            PlayerKind::Heuristic,
            PlayerKind::Random,
            PlayerKind::Random,
        ],
        games: 40,
        seed: 27,
    };
    let whole = run_with_threads(&spec, 2, &|| {}).expect("runs");
    // Shards in any order, as machines of a cluster would return them.
    let mut outcomes: Vec<_> = (20..40)
        .chain(0..20)
        .map(|g| (g, play_game(&spec, g)))
        .collect();
    outcomes.sort_by_key(|o| o.0);
    let outcomes: Vec<_> = outcomes.into_iter().map(|o| o.1.expect("plays")).collect();
    let parts = summarize(&spec, &outcomes).expect("summarizes");
    assert_eq!(parts.win_rate, whole.win_rate);
    assert_eq!(parts.mean_turns, whole.mean_turns);
    assert_eq!(parts.captures_per_game, whole.captures_per_game);
    assert_eq!(parts.games, 40);
    assert!(summarize(&spec, &[]).is_err());
}
