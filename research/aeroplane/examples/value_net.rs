//! Experiment: a value network learned from game results, as the leaf of `win-rollout`'s
//! rollouts in place of `WinModel::at_my_turn`.
//!
//! A player (default `win`) plays against three `random` players; at the start of each of its
//! turns the position is logged and later labelled with the game's result. A one-hidden-layer
//! network reads every plane's progress, one input per (player relative to me, progress), and
//! optionally the model's own logit (then it learns a correction of the model through a skip
//! connection). It is trained by Adam on the log loss; the last tenth of the games is held out.
//!
//! - `value_net train GAMES SEED HIDDEN EPOCHS OUT [KIND]`: generates, trains the network without
//!   and with the model's logit, prints the hold-out log loss of the model, the model calibrated
//!   by a logistic fit, and both networks, and writes `OUT.pure` and `OUT.res`.
//! - `value_net play GAMES SEED FILE...`: `best` and `best` with each file's network as the leaf,
//!   on the same aligned games against three `random` (paired differences against `best`).
mod common;

use qiyi_aeroplane::board::PLANE_STATES;
use qiyi_aeroplane::players::{make_player, PlayerKind, WinPlayer, WinWeights};
use qiyi_aeroplane::record::Dice;
use qiyi_aeroplane::rollout::{Leaf, RolloutPlayer, RolloutWeights};
use qiyi_aeroplane::tournament::{field_results, paired_summary, seat_against, Field};
use qiyi_aeroplane::winprob::WinModel;
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};
use rayon::prelude::*;
use std::sync::Arc;
use std::time::Instant;

/// Inputs: one per (player relative to me, progress).
const INPUTS: usize = 4 * PLANE_STATES;
/// Active inputs: four planes of four players.
const ACTIVE: usize = 16;
/// The largest hidden layer (the forward pass keeps its pre-activations on the stack).
const MAX_HIDDEN: usize = 256;
/// The model's logit is clamped to this.
const LOGIT_CAP: f32 = 8.0;

/// A logged position: its active inputs, the model's logit and the result.
#[derive(Clone, Copy)]
struct Sample {
    idx: [u16; ACTIVE],
    logit: f32,
    won: bool,
}

fn encode(pos: &Aero, me: usize) -> [u16; ACTIVE] {
    let mut idx = [0u16; ACTIVE];
    let n = pos.players();
    for k in 0..4 {
        let planes = pos.planes((me + k) % n);
        for (i, &d) in planes.iter().enumerate() {
            idx[4 * k + i] = (k * PLANE_STATES + d as usize) as u16;
        }
    }
    idx
}

fn model_logit(model: &WinModel<'_>, pos: &Aero, me: usize) -> f32 {
    let p = model.at_my_turn(pos, me).clamp(1e-6, 1.0 - 1e-6);
    ((p / (1.0 - p)).ln() as f32).clamp(-LOGIT_CAP, LOGIT_CAP)
}

fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

/// The network: `z = b2 + s * logit + w2 . relu(b1 + u * logit + sum of W1's active rows)`.
#[derive(Clone)]
struct Net {
    hidden: usize,
    uses_logit: bool,
    w1: Vec<f32>,
    u: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    s: f32,
}

impl Net {
    fn new(hidden: usize, uses_logit: bool, rng: &mut Rng) -> Net {
        let mut uniform = |scale: f32| (rng.below(1 << 24) as f32 / (1 << 23) as f32 - 1.0) * scale;
        let w1 = (0..INPUTS * hidden).map(|_| uniform(0.25)).collect();
        let u = (0..hidden)
            .map(|_| if uses_logit { uniform(0.25) } else { 0.0 })
            .collect();
        let w2 = (0..hidden).map(|_| uniform(0.05)).collect();
        Net {
            hidden,
            uses_logit,
            w1,
            u,
            b1: vec![0.0; hidden],
            w2,
            b2: 0.0,
            s: if uses_logit { 1.0 } else { 0.0 },
        }
    }

    /// The output logit; `pre` receives the hidden pre-activations.
    fn forward(&self, idx: &[u16; ACTIVE], logit: f32, pre: &mut [f32]) -> f32 {
        let x = if self.uses_logit { logit } else { 0.0 };
        for ((p, b), u) in pre.iter_mut().zip(&self.b1).zip(&self.u) {
            *p = b + u * x;
        }
        for &i in idx {
            let row = &self.w1[i as usize * self.hidden..][..self.hidden];
            for (p, w) in pre.iter_mut().zip(row) {
                *p += w;
            }
        }
        let mut z = self.b2 + self.s * x;
        for (p, w) in pre.iter().zip(&self.w2) {
            z += p.max(0.0) * w;
        }
        z
    }

    /// My chance of winning at the start of my turn in `pos`.
    fn value(&self, model: &WinModel<'_>, pos: &Aero, me: usize) -> f64 {
        if pos.turn() == Turn::Over {
            return if pos.winner() == Some(me) { 1.0 } else { 0.0 };
        }
        let logit = if self.uses_logit {
            model_logit(model, pos, me)
        } else {
            0.0
        };
        let mut pre = [0f32; MAX_HIDDEN];
        sigmoid(self.forward(&encode(pos, me), logit, &mut pre[..self.hidden])) as f64
    }

    fn params(&mut self) -> Vec<&mut f32> {
        let mut v: Vec<&mut f32> = Vec::new();
        v.extend(self.w1.iter_mut());
        v.extend(self.u.iter_mut());
        v.extend(self.b1.iter_mut());
        v.extend(self.w2.iter_mut());
        v.push(&mut self.b2);
        v.push(&mut self.s);
        v
    }

    fn save(&mut self, path: &str) -> std::io::Result<()> {
        let mut text = format!("{} {}\n", self.hidden, self.uses_logit as u8);
        for p in self.params() {
            text.push_str(&format!("{} ", *p));
        }
        std::fs::write(path, text)
    }

    fn load(path: &str) -> Net {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut words = text.split_whitespace();
        let mut next = || words.next().expect("short file");
        let hidden: usize = next().parse().expect("hidden");
        assert!(
            (1..=MAX_HIDDEN).contains(&hidden),
            "{path}: hidden layer of {hidden}, not 1..={MAX_HIDDEN}"
        );
        let uses_logit = next() == "1";
        let mut net = Net::new(hidden, uses_logit, &mut Rng::new(0));
        let values: Vec<f32> = std::iter::from_fn(|| words.next())
            .map(|w| w.parse().expect("number"))
            .collect();
        let mut params = net.params();
        assert_eq!(values.len(), params.len(), "{path}: wrong length");
        for (p, v) in params.iter_mut().zip(values) {
            **p = v;
        }
        net
    }
}

/// Mean log loss of `predict` over `samples`.
fn log_loss(samples: &[Sample], predict: impl Fn(&Sample) -> f32 + Sync) -> f64 {
    samples
        .par_iter()
        .map(|s| {
            let q = predict(s).clamp(1e-7, 1.0 - 1e-7) as f64;
            if s.won {
                -q.ln()
            } else {
                -(1.0 - q).ln()
            }
        })
        .sum::<f64>()
        / samples.len() as f64
}

/// Trains `net` on `train` by Adam, printing the hold-out log loss after each epoch, and keeps
/// the weights of the epoch with the lowest hold-out loss (the positions of one game share its
/// label, so the network soon starts to learn the games by heart).
fn train(net: &mut Net, train: &[Sample], hold: &[Sample], epochs: usize, seed: u64) {
    let mut best: Option<(f64, Net)> = None;
    let h = net.hidden;
    let n_params = net.params().len();
    let (mut m, mut v) = (vec![0f32; n_params], vec![0f32; n_params]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let batch = 256;
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut rng = Rng::new(seed);
    let mut step = 0i32;
    let mut grad = vec![0f32; n_params];
    let mut pre = vec![0f32; h];
    // Offsets of the parameter groups in `params()` order.
    let (o_u, o_b1, o_w2) = (INPUTS * h, INPUTS * h + h, INPUTS * h + 2 * h);
    let (o_b2, o_s) = (o_w2 + h, o_w2 + h + 1);
    for epoch in 0..epochs {
        let lr = 1e-3 * 0.5f32.powi(epoch as i32 / 2);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for chunk in order.chunks(batch) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &k in chunk {
                let s = &train[k];
                let x = if net.uses_logit { s.logit } else { 0.0 };
                let z = net.forward(&s.idx, x, &mut pre);
                let dz = sigmoid(z) - s.won as u8 as f32;
                grad[o_b2] += dz;
                grad[o_s] += dz * x;
                for j in 0..h {
                    if pre[j] > 0.0 {
                        grad[o_w2 + j] += dz * pre[j];
                        let dh = dz * net.w2[j];
                        grad[o_b1 + j] += dh;
                        grad[o_u + j] += dh * x;
                        for &i in &s.idx {
                            grad[i as usize * h + j] += dh;
                        }
                    }
                }
            }
            if !net.uses_logit {
                grad[o_s] = 0.0;
                grad[o_u..o_b1].iter_mut().for_each(|g| *g = 0.0);
            }
            step += 1;
            let (c1, c2) = (1.0 - b1.powi(step), 1.0 - b2.powi(step));
            let scale = 1.0 / chunk.len() as f32;
            for (((p, g), m), v) in net.params().into_iter().zip(&grad).zip(&mut m).zip(&mut v) {
                let g = g * scale;
                *m = b1 * *m + (1.0 - b1) * g;
                *v = b2 * *v + (1.0 - b2) * g * g;
                *p -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
            }
        }
        let net_ref = &*net;
        let loss = log_loss(hold, |s| {
            let mut pre = [0f32; MAX_HIDDEN];
            sigmoid(net_ref.forward(&s.idx, s.logit, &mut pre[..net_ref.hidden]))
        });
        println!(
            "  {} epoch {}: hold-out log loss {loss:.5}",
            if net.uses_logit { "res" } else { "pure" },
            epoch + 1
        );
        if best.as_ref().map_or(true, |(l, _)| loss < *l) {
            best = Some((loss, net.clone()));
        }
    }
    if let Some((_, kept)) = best {
        *net = kept;
    }
}

/// The positions at the start of the candidate's turns in game `g`, labelled with its result.
fn game(g: u64, seed: u64, kind: PlayerKind, model: &WinModel<'_>) -> Vec<Sample> {
    let seat = (g % 4) as usize;
    let me = make_player(kind, Rng::derive(seed, g).next_u64());
    let mut players = seat_against(4, seat, me, PlayerKind::Random, seed, g);
    let mut dice = Dice::new(Rng::derive(seed ^ 0xCA11, g).next_u64());
    let mut pos = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let mut logged = Vec::new();
    loop {
        let mv = match pos.turn() {
            Turn::Over => break,
            Turn::Chance => {
                if pos.to_move() == seat && !pos.after_six() {
                    logged.push(Sample {
                        idx: encode(&pos, seat),
                        logit: model_logit(model, &pos, seat),
                        won: false,
                    });
                }
                AeroMove::Roll(dice.roll())
            }
            Turn::Player(p) => players[p].choose(&pos),
        };
        pos.play(mv);
    }
    let won = pos.winner() == Some(seat);
    logged.iter_mut().for_each(|s| s.won = won);
    logged
}

/// Logistic fit `sigmoid(a + b * logit)` of the results on the model's logit.
fn calibrate(samples: &[Sample]) -> (f64, f64) {
    common::fit_logistic(samples.iter().map(|s| (s.logit as f64, s.won as u8 as f64)))
}

fn train_main(a: &[String]) {
    let usage = "value_net train GAMES SEED HIDDEN EPOCHS OUT [KIND]";
    let arg = |i: usize| a.get(i).expect(usage);
    let games: u64 = arg(2).parse().expect(usage);
    let seed: u64 = arg(3).parse().expect(usage);
    let hidden: usize = arg(4).parse().expect(usage);
    assert!(
        (1..=MAX_HIDDEN).contains(&hidden),
        "{usage}: HIDDEN 1..={MAX_HIDDEN}"
    );
    let epochs: usize = arg(5).parse().expect(usage);
    let out = arg(6);
    let kind: PlayerKind = a
        .get(7)
        .map_or(Ok(PlayerKind::Win), |s| s.parse())
        .expect(usage);
    let t = Instant::now();
    let model_player = WinPlayer::new(WinWeights::TUNED, Rng::new(1));
    let model = model_player
        .model(&Rules::STANDARD)
        .expect("standard tables");
    let held_from = games - games / 10;
    let played: Vec<(u64, Vec<Sample>)> = (0..games)
        .into_par_iter()
        .map(|g| (g, game(g, seed, kind, &model)))
        .collect();
    let (mut tr, mut hold) = (Vec::new(), Vec::new());
    let mut wins = 0;
    for (g, samples) in played {
        wins += samples.first().is_some_and(|s| s.won) as u64;
        if g < held_from {
            tr.extend(samples);
        } else {
            hold.extend(samples);
        }
    }
    println!(
        "{kind}: {games} games, seed {seed}, {:.2}% won; {} training and {} hold-out positions ({:.1} s)",
        100.0 * wins as f64 / games as f64,
        tr.len(),
        hold.len(),
        t.elapsed().as_secs_f64()
    );
    let (ca, cb) = calibrate(&tr);
    println!(
        "hold-out log loss: model {:.5}, calibrated (a = {ca:.3}, b = {cb:.3}) {:.5}",
        log_loss(&hold, |s| sigmoid(s.logit)),
        log_loss(&hold, |s| sigmoid((ca + cb * s.logit as f64) as f32))
    );
    let mut rng = Rng::new(seed ^ 0x5EED);
    for uses_logit in [false, true] {
        let t = Instant::now();
        let mut net = Net::new(hidden, uses_logit, &mut rng);
        train(&mut net, &tr, &hold, epochs, seed);
        let path = format!("{out}.{}", if uses_logit { "res" } else { "pure" });
        net.save(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        println!("  wrote {path} ({:.1} s)", t.elapsed().as_secs_f64());
    }
}

fn play_main(a: &[String]) {
    let usage = "value_net play GAMES SEED FILE...";
    let games: u64 = a.get(2).and_then(|s| s.parse().ok()).expect(usage);
    let seed: u64 = a.get(3).and_then(|s| s.parse().ok()).expect(usage);
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let mut first: Option<Vec<bool>> = None;
    let names = std::iter::once("best").chain(a[4..].iter().map(|s| s.as_str()));
    for name in names {
        let leaf: Option<Leaf> = (name != "best").then(|| {
            let net = Arc::new(Net::load(name));
            Arc::new(move |model: &WinModel<'_>, pos: &Aero, me: usize| net.value(model, pos, me))
                as Leaf
        });
        let t = Instant::now();
        let results = field_results(&start, games, seed, Field::AlignedRandom, |g| {
            let player = RolloutPlayer::new(RolloutWeights::TUNED, Rng::derive(seed, g));
            Box::new(match &leaf {
                Some(l) => player.with_leaf(l.clone()),
                None => player,
            })
        });
        let wins = results.iter().filter(|&&w| w).count() as u64;
        println!(
            "{name}: {} of {games}, seed {seed} ({:.1} s)",
            common::rate(wins, games),
            t.elapsed().as_secs_f64()
        );
        match &first {
            None => first = Some(results),
            Some(base) => println!("  paired against best: {}", paired_summary(&results, base)),
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    match a.get(1).map(|s| s.as_str()) {
        Some("train") => train_main(&a),
        Some("play") => play_main(&a),
        _ => eprintln!("value_net train GAMES SEED HIDDEN EPOCHS OUT [KIND] | value_net play GAMES SEED FILE..."),
    }
}
