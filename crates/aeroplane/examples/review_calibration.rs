//! The review judge ([`qiyi_aeroplane::review`]) over many seeded games: the identity
//! `result - prior = skill + luck + others + drift` per player, the drift, the luck of the rolls,
//! how the players' decisions are classed, the review time, and the calibration of the model's
//! win chances (every player's predicted chance at every decision against whether it won).
//!
//! `cargo run --release -p qiyi-aeroplane --example review_calibration -- --games N --seed S
//! [--players best,random,random,random] [--threads T] [--bins B] [--record PATH]`
//!
//! `--record PATH` also writes game 0 as the crate's game record (JSON, what
//! `qiyi review aeroplane PATH` reads), for timing the CLI.
//!
//! Game `g` rolls the dice of `Rng::derive(S, g)`'s first word; the player list is rotated by `g`
//! seats so every kind plays from every seat; player seeds come from `Rng::derive(S ^ 1, ...)`.
//! Prints markdown (for `docs/review.md`).

use qiyi_aeroplane::players::{make_player, Player, PlayerKind};
use qiyi_aeroplane::record::play_game;
use qiyi_aeroplane::review::{review_game, seeded_game};
use qiyi_aeroplane::{Aero, Rules};
use qiyi_core::calibration::{brier, calibration, markdown, max_gap};
use qiyi_core::review::{Class, PlyKind};
use qiyi_core::Rng;
use rayon::prelude::*;
use std::time::Instant;

/// What one game's review showed.
#[derive(Default)]
struct GameStats {
    identity: f64,
    /// (drift per player per game)
    drift: Vec<f64>,
    luck_sum: f64,
    rolls: usize,
    /// |sum of win chances - 1| at every ply.
    sum_err: Vec<f64>,
    /// Per kind index: decisions with a choice, classed best, largest loss.
    classes: Vec<(usize, usize, f64, [usize; 5])>,
    pairs: Vec<(f64, f64)>,
    plies: usize,
    seconds: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let games: u64 = get("--games")
        .map_or(Ok(200), |s| s.parse())
        .expect("--games N");
    let seed: u64 = get("--seed")
        .map_or(Ok(1), |s| s.parse())
        .expect("--seed S");
    let bins: usize = get("--bins")
        .map_or(Ok(10), |s| s.parse())
        .expect("--bins B");
    let names = get("--players").unwrap_or_else(|| "win,win,win,win".into());
    let kinds: Vec<PlayerKind> = names
        .split(',')
        .map(|s| s.parse().expect("a player type"))
        .collect();
    if let Some(t) = get("--threads") {
        rayon::ThreadPoolBuilder::new()
            .num_threads(t.parse().expect("--threads T"))
            .build_global()
            .expect("thread pool");
    }
    let mut distinct: Vec<PlayerKind> = Vec::new();
    for k in &kinds {
        if !distinct.contains(k) {
            distinct.push(*k);
        }
    }
    let kind_of: Vec<usize> = kinds
        .iter()
        .map(|k| distinct.iter().position(|d| d == k).unwrap_or(0))
        .collect();
    let n = kinds.len().clamp(2, 4);
    let start = Aero::new(Rules::STANDARD, n).expect("2-4 players");
    let make = |g: u64| -> (Vec<usize>, Vec<Box<dyn Player>>) {
        let seats: Vec<usize> = (0..n).map(|s| (s + g as usize) % kinds.len()).collect();
        let players = seats
            .iter()
            .enumerate()
            .map(|(s, &k)| {
                make_player(kinds[k], Rng::derive(seed ^ 1, g * 4 + s as u64).next_u64())
            })
            .collect();
        (seats, players)
    };
    if let Some(path) = get("--record") {
        let (_, mut players) = make(0);
        let rec = play_game(&start, &mut players, Rng::derive(seed, 0).next_u64());
        std::fs::write(&path, rec.to_json()).expect("the record is written");
        eprintln!(
            "wrote game 0 to {path}: {} rolls, {} choices",
            rec.rolls.len(),
            rec.choices.len()
        );
    }
    let t0 = Instant::now();
    let stats: Vec<GameStats> = (0..games)
        .into_par_iter()
        .map(|g| {
            let (seats, mut players) = make(g);
            let dice = Rng::derive(seed, g).next_u64();
            let moves = seeded_game(&start, &mut players, dice);
            let t = Instant::now();
            let r = review_game(&start, &moves, |_, _| {}).expect("the game reviews");
            let seconds = t.elapsed().as_secs_f64();
            let winner = r.summary.iter().position(|s| s.finished && s.result > 0.5);
            let mut st = GameStats {
                seconds,
                plies: r.plies.len(),
                classes: vec![(0, 0, 0.0, [0; 5]); distinct.len()],
                ..Default::default()
            };
            for s in &r.summary {
                st.identity = st.identity.max(s.identity_error.abs());
                st.drift.push(s.drift);
            }
            for p in &r.plies {
                st.sum_err
                    .push((p.wins_before.iter().sum::<f64>() - 1.0).abs());
                match p.kind {
                    PlyKind::Chance => {
                        st.luck_sum += p.luck.unwrap_or(0.0);
                        st.rolls += 1;
                    }
                    PlyKind::Decision => {
                        if let Some(w) = winner {
                            for (q, &x) in p.wins_before.iter().enumerate() {
                                st.pairs.push((x, f64::from(u8::from(q == w))));
                            }
                        }
                        if !p.forced {
                            let c = &mut st.classes[kind_of[seats[p.mover]]];
                            c.0 += 1;
                            c.1 += usize::from(p.class == Some(Class::Best));
                            c.2 = c.2.max(p.loss);
                            if let Some(k) = p.class {
                                c.3[Class::ALL.iter().position(|&x| x == k).unwrap_or(0)] += 1;
                            }
                        }
                    }
                }
            }
            st
        })
        .collect();
    let wall = t0.elapsed().as_secs_f64();
    let identity = stats.iter().map(|s| s.identity).fold(0.0, f64::max);
    let drifts: Vec<f64> = stats.iter().flat_map(|s| s.drift.iter().copied()).collect();
    let mean_abs_drift = drifts.iter().map(|d| d.abs()).sum::<f64>() / drifts.len() as f64;
    let mean_drift = drifts.iter().sum::<f64>() / drifts.len() as f64;
    let max_drift = drifts.iter().map(|d| d.abs()).fold(0.0, f64::max);
    let rolls: usize = stats.iter().map(|s| s.rolls).sum();
    let luck: f64 = stats.iter().map(|s| s.luck_sum).sum();
    let sum_errs: Vec<f64> = stats
        .iter()
        .flat_map(|s| s.sum_err.iter().copied())
        .collect();
    let mean_sum_err = sum_errs.iter().sum::<f64>() / sum_errs.len() as f64;
    let max_sum_err = sum_errs.iter().copied().fold(0.0, f64::max);
    let pairs: Vec<(f64, f64)> = stats.iter().flat_map(|s| s.pairs.iter().copied()).collect();
    let plies: usize = stats.iter().map(|s| s.plies).sum();
    let secs: Vec<f64> = stats.iter().map(|s| s.seconds).collect();
    let mean_secs = secs.iter().sum::<f64>() / secs.len() as f64;
    let max_secs = secs.iter().copied().fold(0.0, f64::max);
    println!(
        "{games} games of {n} players ({names}, rotated over the seats), seed {seed}, {plies} plies \
         ({rolls} rolls); {wall:.1} s wall"
    );
    println!();
    println!("- largest |identity_error| over every player of every game: {identity:.2e}");
    println!(
        "- drift per player and game: mean {mean_drift:+.4}, mean |drift| {mean_abs_drift:.4}, \
         largest |drift| {max_drift:.4}"
    );
    println!(
        "- luck per roll: mean {:+.2e} over {rolls} rolls",
        luck / rolls.max(1) as f64
    );
    println!(
        "- |sum of the players' win chances - 1| at each ply: mean {mean_sum_err:.4}, largest \
         {max_sum_err:.4}"
    );
    println!(
        "- review time per game (one thread each): mean {:.3} s, largest {max_secs:.3} s",
        mean_secs
    );
    for (k, kind) in distinct.iter().enumerate() {
        let (d, b, l, c) = stats.iter().fold((0, 0, 0.0f64, [0usize; 5]), |acc, s| {
            let x = s.classes[k];
            let mut c = acc.3;
            for (ci, xi) in c.iter_mut().zip(x.3) {
                *ci += xi;
            }
            (acc.0 + x.0, acc.1 + x.1, acc.2.max(x.2), c)
        });
        if d > 0 {
            println!(
                "- {kind}: {d} decisions with a choice, {:.2}% classed best, largest loss \
                 {l:.4}; best/good/inaccuracy/mistake/blunder {c:?}",
                100.0 * b as f64 / d as f64
            );
        }
    }
    let table = calibration(&pairs, bins);
    println!();
    println!(
        "Calibration: every player's predicted win chance before every decision ({} predictions) \
         against whether it won. Brier score {:.4}; largest gap (bins of 100+) {:.4}.",
        pairs.len(),
        brier(&pairs).unwrap_or(f64::NAN),
        max_gap(&table, 100)
    );
    println!();
    print!("{}", markdown(&table));
}
