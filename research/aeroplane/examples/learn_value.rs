//! Experiment: a learned correction to `win`'s chance. Positions after the candidate's own moves
//! in games against three `random` players are labelled with the game's result; a logistic
//! regression on the model's logit plus exposure features is fitted; the fitted player is then
//! played on held-out games.
//!
//! `learn_value GAMES SEED [WEIGHTS]` generates (with `win`, or the player of WEIGHTS), fits and
//! prints the weights; `learn_value play GAMES SEED WEIGHTS...` plays.
// Matrix code (Newton steps, Gaussian elimination) reads best with indices.
#![allow(clippy::needless_range_loop)]
mod common;

use qiyi_aeroplane::board::{on_ring, ring_square, steps_behind, CENTRE, HANGAR};
use qiyi_aeroplane::eval::{danger_with, value_table, ValueTable};
use qiyi_aeroplane::players::{Player, PlayerKind, WinPlayer, WinWeights};
use qiyi_aeroplane::record::play_game;
use qiyi_aeroplane::tournament::{candidate_wins, seat_against};
use qiyi_aeroplane::winprob::WinModel;
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

const NF: usize = 13;

fn logit(p: f64) -> f64 {
    let p = p.clamp(1e-4, 1.0 - 1e-4);
    (p / (1.0 - p)).ln()
}

/// Features of the position `after` my move.
fn features(
    after: &Aero,
    me: usize,
    new_turn: bool,
    model: &WinModel<'_>,
    values: &ValueTable,
) -> [f64; NF] {
    let mut f = [0.0; NF];
    f[0] = 1.0;
    if after.turn() == Turn::Over {
        f[1] = if after.winner() == Some(me) {
            12.0
        } else {
            -12.0
        };
        return f;
    }
    f[1] = logit(model.evaluate(after, me, new_turn));
    f[2] = (!new_turn && after.to_move() == me) as u8 as f64;
    let mine = after.planes(me);
    let sm = after.seat(me);
    let mut danger_v = 0.0;
    for (i, &d) in mine.iter().enumerate() {
        match d {
            HANGAR => f[5] += 1.0,
            0 => f[4] += 1.0,
            51..=55 => f[6] += 1.0,
            CENTRE => {}
            _ => f[3] += 1.0,
        }
        if !on_ring(d) || mine[..i].contains(&d) {
            continue;
        }
        let v = values[0][d as usize];
        let n = mine.iter().filter(|&&x| x == d).count() as f64;
        danger_v += n * v * danger_with(after, me, d, 0.0);
        let s_m = ring_square(sm, d);
        for q in 0..after.players() {
            if q == me || after.places()[q] != 0 {
                continue;
            }
            let sq = after.seat(q);
            for &o in after.planes(q).iter() {
                let Some(k) = steps_behind(sq, o, s_m) else {
                    continue;
                };
                let slot = match k {
                    1..=6 => 7,
                    7..=12 => 8,
                    13..=24 => 9,
                    _ => continue,
                };
                f[slot] += n * v / 10.0;
            }
        }
    }
    f[12] = danger_v / 10.0;
    // Opponent planes with mine behind them.
    for q in 0..after.players() {
        if q == me || after.places()[q] != 0 {
            continue;
        }
        let sq = after.seat(q);
        for &o in after.planes(q).iter() {
            if !on_ring(o) {
                continue;
            }
            let s_o = ring_square(sq, o);
            for &d in mine.iter() {
                let Some(k) = steps_behind(sm, d, s_o) else {
                    continue;
                };
                match k {
                    1..=6 => f[10] += 1.0,
                    7..=12 => f[11] += 1.0,
                    _ => {}
                }
            }
        }
    }
    f
}

/// `win`, or the learned correction when `w` is given; logs its positions when `log` is set.
struct Learned {
    w: Option<[f64; NF]>,
    win: WinPlayer,
    values: std::sync::Arc<ValueTable>,
    log: Option<Arc<Mutex<Vec<[f64; NF]>>>>,
}

impl Player for Learned {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let c = pos.choices();
        let first = AeroMove::Plane(c.as_slice().first().copied().unwrap_or(0));
        let model = self.win.model(&pos.rules()).expect("standard rules");
        let me = pos.to_move();
        let mut best = (first, f64::NEG_INFINITY, [0.0; NF]);
        for &i in c.as_slice() {
            let mut after = *pos;
            let e = after.play(AeroMove::Plane(i));
            let f = features(&after, me, e.new_turn, &model, &self.values);
            let s = match &self.w {
                None => {
                    let mut s = f[1];
                    if after.turn() != Turn::Over {
                        let mine = if e.new_turn {
                            model.race.value(after.planes(me))
                        } else {
                            model.race.turn_value(&after)
                        };
                        s = model.evaluate(&after, me, e.new_turn) - 0.001 * mine;
                    }
                    s
                }
                Some(w) => f.iter().zip(w).map(|(a, b)| a * b).sum(),
            };
            if s > best.1 {
                best = (AeroMove::Plane(i), s, f);
            }
        }
        if let Some(log) = &self.log {
            if c.len() >= 2 && pos.turn() != Turn::Over {
                log.lock().expect("log").push(best.2);
            }
        }
        best.0
    }
}

fn make(w: Option<[f64; NF]>, seed: u64, log: Option<Arc<Mutex<Vec<[f64; NF]>>>>) -> Learned {
    Learned {
        w,
        win: WinPlayer::new(WinWeights::TUNED, Rng::new(seed)),
        values: value_table(&Rules::STANDARD),
        log,
    }
}

/// Logistic regression by Newton's method with a small ridge.
fn fit(x: &[[f64; NF]], y: &[f64]) -> [f64; NF] {
    let mut w = [0.0; NF];
    w[1] = 1.0;
    for it in 0..12 {
        let (g, h, loss) = x
            .par_iter()
            .zip(y.par_iter())
            .fold(
                || ([0.0; NF], [[0.0; NF]; NF], 0.0),
                |(mut g, mut h, mut loss), (f, &t)| {
                    let z: f64 = f.iter().zip(&w).map(|(a, b)| a * b).sum();
                    let p = 1.0 / (1.0 + (-z).exp());
                    loss -= t * p.max(1e-12).ln() + (1.0 - t) * (1.0 - p).max(1e-12).ln();
                    let r = p - t;
                    let s = p * (1.0 - p);
                    for i in 0..NF {
                        g[i] += r * f[i];
                        for j in 0..NF {
                            h[i][j] += s * f[i] * f[j];
                        }
                    }
                    (g, h, loss)
                },
            )
            .reduce(
                || ([0.0; NF], [[0.0; NF]; NF], 0.0),
                |mut a, b| {
                    for i in 0..NF {
                        a.0[i] += b.0[i];
                        for j in 0..NF {
                            a.1[i][j] += b.1[i][j];
                        }
                    }
                    a.2 += b.2;
                    a
                },
            );
        let mut h = h;
        for (i, row) in h.iter_mut().enumerate() {
            row[i] += 1e-3 * x.len() as f64 * 1e-6 + 1e-9;
        }
        let step = solve(h, g);
        for i in 0..NF {
            w[i] -= step[i];
        }
        eprintln!("iter {it}: loss {:.6}", loss / x.len() as f64);
    }
    w
}

fn solve(mut a: [[f64; NF]; NF], mut b: [f64; NF]) -> [f64; NF] {
    for c in 0..NF {
        let p = (c..NF)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, p);
        b.swap(c, p);
        if a[c][c].abs() < 1e-12 {
            continue;
        }
        for r in 0..NF {
            if r != c {
                let m = a[r][c] / a[c][c];
                for k in c..NF {
                    a[r][k] -= m * a[c][k];
                }
                b[r] -= m * b[c];
            }
        }
    }
    let mut x = [0.0; NF];
    for i in 0..NF {
        x[i] = if a[i][i].abs() < 1e-12 {
            0.0
        } else {
            b[i] / a[i][i]
        };
    }
    x
}

fn loss(x: &[[f64; NF]], y: &[f64], w: &[f64; NF]) -> f64 {
    x.iter()
        .zip(y)
        .map(|(f, &t)| {
            let z: f64 = f.iter().zip(w).map(|(a, b)| a * b).sum();
            let p = (1.0 / (1.0 + (-z).exp())).clamp(1e-12, 1.0 - 1e-12);
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / x.len() as f64
}

fn parse_w(s: &str) -> [f64; NF] {
    let v: Vec<f64> = s.split(',').map(|x| x.parse().expect("weight")).collect();
    let mut w = [0.0; NF];
    w[..v.len()].copy_from_slice(&v);
    w
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    if a[1] == "play" {
        let games: u64 = a[2].parse().expect("games");
        let seed: u64 = a[3].parse().expect("seed");
        for cand in &a[4..] {
            let t = std::time::Instant::now();
            let w = if cand == "win" {
                None
            } else {
                Some(parse_w(cand))
            };
            let wins = candidate_wins(
                &start,
                games,
                seed,
                |g| (g % 4) as usize,
                |g| Box::new(make(w, Rng::derive(seed, g).next_u64(), None)),
                |_| PlayerKind::Random,
            );
            println!(
                "{cand}: {} of {games} ({:.1} s)",
                common::rate(wins, games),
                t.elapsed().as_secs_f64()
            );
        }
        return;
    }
    let games: u64 = a[1].parse().expect("games");
    let seed: u64 = a[2].parse().expect("seed");
    let gen_w = a.get(3).map(|s| parse_w(s));
    let t = std::time::Instant::now();
    let data: Vec<(u64, Vec<[f64; NF]>, f64)> = (0..games)
        .into_par_iter()
        .map(|g| {
            let at = (g % 4) as usize;
            let log = Arc::new(Mutex::new(Vec::new()));
            let me = make(gen_w, Rng::derive(seed, g).next_u64(), Some(log.clone()));
            let mut players = seat_against(4, at, Box::new(me), PlayerKind::Random, seed, g);
            let rec = play_game(&start, &mut players, Rng::derive(seed, g).next_u64());
            drop(players);
            let won = (rec.places[at] == 1) as u8 as f64;
            let v = log.lock().expect("log").clone();
            (g, v, won)
        })
        .collect();
    let wins: f64 = data.iter().map(|d| d.2).sum();
    eprintln!(
        "{games} games, generator wins {:.2}%, {:.1} s",
        100.0 * wins / games as f64,
        t.elapsed().as_secs_f64()
    );
    let (mut xt, mut yt, mut xh, mut yh) = (vec![], vec![], vec![], vec![]);
    for (g, v, won) in data {
        for f in v {
            if g % 5 == 0 {
                xh.push(f);
                yh.push(won);
            } else {
                xt.push(f);
                yt.push(won);
            }
        }
    }
    let mut base = [0.0; NF];
    base[1] = 1.0;
    eprintln!(
        "{} train, {} hold-out samples; base loss train {:.6} hold-out {:.6}",
        xt.len(),
        xh.len(),
        loss(&xt, &yt, &base),
        loss(&xh, &yh, &base)
    );
    let w = fit(&xt, &yt);
    eprintln!(
        "fitted loss train {:.6} hold-out {:.6}",
        loss(&xt, &yt, &w),
        loss(&xh, &yh, &w)
    );
    let s: Vec<String> = w.iter().map(|x| format!("{x:.5}")).collect();
    println!("{}", s.join(","));
}
