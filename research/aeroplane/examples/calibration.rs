//! How well `WinModel::at_my_turn` (the leaf value of `win-rollout`'s rollouts) predicts the
//! game: a player plays against three `random` players; at the start of each of its turns the
//! model's chance is logged, and at the end of the game each logged chance is labelled 1 or 0.
//! Prints the chances in bins against the realised win rate, and a logistic fit
//! `P(win) = sigmoid(a + b * logit(p))` (a = 0, b = 1 when the model is calibrated).
//!
//! `cargo run --release -p qiyi-research-aeroplane --example calibration -- GAMES SEED [KIND]`
//! (KIND default `win`).
mod common;

use qiyi_aeroplane::board::{on_ring, ring_square, steps_behind, CENTRE, HANGAR};
use qiyi_aeroplane::players::{make_player, PlayerKind, WinPlayer, WinWeights};
use qiyi_aeroplane::record::Dice;
use qiyi_aeroplane::tournament::seat_against;
use qiyi_aeroplane::winprob::WinModel;
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};
use rayon::prelude::*;

/// Descriptive features of a logged position (for the residuals).
const NF: usize = 7;
const NAMES: [&str; NF] = [
    "my planes in the hangar",
    "my planes on the ring",
    "my planes home or in the column",
    "my expected turns / 4",
    "leading opponent's expected turns / 4",
    "enemy planes 1-6 behind my ring planes",
    "my turn number / 10",
];

fn describe(pos: &Aero, me: usize, model: &WinModel<'_>) -> [u8; NF] {
    let mine = pos.planes(me);
    let mut f = [0u8; NF];
    f[0] = mine.iter().filter(|&&d| d == HANGAR).count() as u8;
    f[1] = mine.iter().filter(|&&d| on_ring(d)).count() as u8;
    f[2] = mine.iter().filter(|&&d| (51..=CENTRE).contains(&d)).count() as u8;
    f[3] = (model.race.value(mine) / 4.0) as u8;
    let mut lead = f64::INFINITY;
    for q in 0..pos.players() {
        if q != me && pos.places()[q] == 0 {
            lead = lead.min(model.opponent(pos.planes(q)).mean);
        }
    }
    f[4] = (lead / 4.0).min(15.0) as u8;
    let sm = pos.seat(me);
    for &d in mine.iter().filter(|&&d| on_ring(d)) {
        let s = ring_square(sm, d);
        for q in 0..pos.players() {
            if q == me || pos.places()[q] != 0 {
                continue;
            }
            for &o in pos.planes(q).iter() {
                if matches!(steps_behind(pos.seat(q), o, s), Some(1..=6)) {
                    f[5] += 1;
                }
            }
        }
    }
    f
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    (p / (1.0 - p)).ln()
}

/// One game's logged positions: the model's chance and the features.
type Logged = Vec<(f64, [u8; NF])>;

/// The model's chances at the start of the candidate's turns in game `g`, and whether it won.
fn game(g: u64, seed: u64, kind: PlayerKind) -> (Logged, bool) {
    let seat = (g % 4) as usize;
    let model_player = WinPlayer::new(WinWeights::TUNED, Rng::new(1));
    let model = model_player
        .model(&Rules::STANDARD)
        .expect("standard tables");
    let me = make_player(kind, Rng::derive(seed, g).next_u64());
    let mut players = seat_against(4, seat, me, PlayerKind::Random, seed, g);
    let mut dice = Dice::new(Rng::derive(seed ^ 0xCA11, g).next_u64());
    let mut pos = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let mut logged = Vec::new();
    let mut turns = 0u8;
    loop {
        let mv = match pos.turn() {
            Turn::Over => break,
            Turn::Chance => {
                if pos.to_move() == seat && !pos.after_six() {
                    let mut f = describe(&pos, seat, &model);
                    f[6] = turns / 10;
                    turns = turns.saturating_add(1);
                    logged.push((model.at_my_turn(&pos, seat), f));
                }
                AeroMove::Roll(dice.roll())
            }
            Turn::Player(p) => players[p].choose(&pos),
        };
        pos.play(mv);
    }
    (logged, pos.winner() == Some(seat))
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let usage = "calibration GAMES SEED [KIND]";
    let games: u64 = a.get(1).and_then(|s| s.parse().ok()).expect(usage);
    let seed: u64 = a.get(2).and_then(|s| s.parse().ok()).expect(usage);
    let kind: PlayerKind = a
        .get(3)
        .map_or(Ok(PlayerKind::Win), |s| s.parse())
        .expect(usage);
    // Each game once: its logged chances and features, labelled with its result.
    let played: Vec<(Logged, bool)> = (0..games)
        .into_par_iter()
        .map(|g| game(g, seed, kind))
        .collect();
    let wins = played.iter().filter(|(_, won)| *won).count();
    let (rows, feats): (Vec<(f64, f64)>, Vec<[u8; NF]>) = played
        .iter()
        .flat_map(|(logged, won)| {
            logged
                .iter()
                .map(move |&(p, f)| ((p, *won as u8 as f64), f))
        })
        .unzip();
    println!(
        "{kind}: {games} games, seed {seed}, {} positions, {:.2}% won",
        rows.len(),
        100.0 * wins as f64 / games as f64
    );
    println!("bin        n   mean p   won");
    for b in 0..10 {
        let (lo, hi) = (b as f64 / 10.0, (b + 1) as f64 / 10.0);
        let inside: Vec<&(f64, f64)> = rows
            .iter()
            .filter(|(p, _)| *p >= lo && (*p < hi || (b == 9 && *p <= 1.0)))
            .collect();
        let n = inside.len().max(1) as f64;
        let mp: f64 = inside.iter().map(|r| r.0).sum::<f64>() / n;
        let won: f64 = inside.iter().map(|r| r.1).sum::<f64>() / n;
        println!("{lo:.1}-{hi:.1} {:>7} {mp:.4} {won:.4}", inside.len());
    }
    // Logistic regression of the result on (1, logit p).
    let (a0, b0) = common::fit_logistic(rows.iter().map(|&(p, y)| (logit(p), y)));
    let loss = |a: f64, b: f64| {
        rows.iter()
            .map(|&(p, y)| {
                let q = sigmoid(a + b * logit(p));
                -(y * q.max(1e-12).ln() + (1.0 - y) * (1.0 - q).max(1e-12).ln())
            })
            .sum::<f64>()
            / rows.len() as f64
    };
    println!(
        "fit: a = {a0:.4}, b = {b0:.4}; log loss {:.4} (model as it is: {:.4})",
        loss(a0, b0),
        loss(0.0, 1.0)
    );
    // Residuals of the fit (won - fitted) by each descriptive feature.
    let fitted: Vec<f64> = rows
        .iter()
        .map(|&(p, _)| sigmoid(a0 + b0 * logit(p)))
        .collect();
    for (k, name) in NAMES.iter().enumerate() {
        let mut by = [(0.0f64, 0.0f64, 0u64); 16];
        for ((&(p, y), f), &q) in rows.iter().zip(&feats).zip(&fitted) {
            let b = &mut by[(f[k] as usize).min(15)];
            b.0 += y - q;
            b.1 += p;
            b.2 += 1;
        }
        let cells: Vec<String> = by
            .iter()
            .enumerate()
            .filter(|(_, b)| b.2 >= 200)
            .map(|(i, b)| {
                let n = b.2 as f64;
                format!("{i}:{:+.3}(p{:.2},n{})", b.0 / n, b.1 / n, b.2)
            })
            .collect();
        println!("{name}: {}", cells.join(" "));
    }
}
