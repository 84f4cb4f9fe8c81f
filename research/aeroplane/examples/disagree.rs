//! Where `win` and its own rollouts disagree (an error analysis, not a player): `win` plays
//! against three `random` players; at each of its decisions with two or more choices every
//! choice is also scored by ROLLOUTS rollouts of HORIZON rounds (the rollouts of `win-rollout`:
//! the opponents uniformly random, my own moves by `race_greedy`, `win`'s model at the leaf,
//! every choice on the same random streams). One CSV row per choice goes to stdout: the
//! decision, the choice's features, `win`'s score and the rollouts' mean and paired difference
//! from `win`'s choice with its standard error. A summary goes to stderr: the gain, in the
//! rollouts' own estimate of the win chance, of following the rollouts on `win`'s close calls
//! (top 2 or top 4 choices within 0.02), chosen by the even rollouts and measured by the odd
//! ones and the other way round, so the noise that picks a choice does not also score it.
//!
//! `cargo run --release -p qiyi-research-aeroplane --example disagree -- GAMES SEED ROLLOUTS [HORIZON] > out.csv`
use qiyi_aeroplane::board::{on_ring, ring_square, steps_behind, CENTRE, HANGAR};
use qiyi_aeroplane::eval::danger_with;
use qiyi_aeroplane::players::{make_player, Player, PlayerKind, WinPlayer, WinWeights};
use qiyi_aeroplane::record::Dice;
use qiyi_aeroplane::rollout::rollout;
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};
use rayon::prelude::*;

/// The CSV header (one row per choice).
const HEADER: &str = "game,decision,roll,after_six,n,plane_from,plane_to,captured,sent_back,\
    new_turn,is_win,win_score,win_gap,roll_mean,roll_diff,roll_se,danger_before,danger_after,\
    ring,pad,hangar,home,done,my_turns,opp_best_turns,base,danger_term,threat_term,\
    near,mid,far,ahead_near,ahead_mid,diff_even,diff_odd";

fn main() {
    let a: Vec<String> = std::env::args().collect();
    // An absent argument takes its default; a bad one stops with its name.
    let arg = |i: usize, d: u64| {
        a.get(i).map_or(d, |s| {
            s.parse()
                .unwrap_or_else(|_| panic!("argument {i} ({s:?}): GAMES SEED ROLLOUTS [HORIZON]"))
        })
    };
    let games = arg(1, 100);
    let seed = arg(2, 1);
    let rollouts = arg(3, 1024) as usize;
    let horizon = arg(4, 2) as u32;
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let win = WinPlayer::new(WinWeights::TUNED, Rng::new(seed));
    let model = win.model(&Rules::STANDARD).expect("standard tables");
    println!("{HEADER}");
    let rows: Vec<(Vec<String>, [f64; 2])> = (0..games)
        .into_par_iter()
        .map(|g| {
            let mut out = Vec::new();
            let mut gain = [0.0; 2];
            let seat = (g % 4) as usize;
            let mut players: Vec<Box<dyn Player>> = (0..4)
                .map(|s| {
                    let kind = if s == seat {
                        PlayerKind::Win
                    } else {
                        PlayerKind::Random
                    };
                    make_player(kind, seed ^ (g * 4 + s as u64).wrapping_mul(0x9E37_79B9))
                })
                .collect();
            let mut dice = Dice::new(Rng::derive(seed, g).next_u64());
            let mut pos = start;
            let mut decision = 0u32;
            while pos.turn() != Turn::Over {
                let mv = match pos.turn() {
                    Turn::Chance => AeroMove::Roll(dice.roll()),
                    Turn::Player(p) => {
                        if p == seat && pos.choices().len() > 1 {
                            decision += 1;
                            let rs = Rng::derive(seed ^ 0xD15A_62EE, g * 10_000 + decision as u64)
                                .next_u64();
                            let d = Decision {
                                game: g,
                                number: decision,
                                rollouts,
                                horizon,
                                seed: rs,
                            };
                            gain = add(gain, analyse(&pos, &win, &model, d, &mut out));
                        }
                        players[p].choose(&pos)
                    }
                    Turn::Over => break,
                };
                pos.play(mv);
            }
            (out, gain)
        })
        .collect();
    let mut gain = [0.0; 2];
    for (r, g) in rows {
        gain = add(gain, g);
        for line in r {
            println!("{line}");
        }
    }
    for (k, g) in [2, 4].iter().zip(gain) {
        eprintln!(
            "following the rollouts on win's top {k} within {MARGIN}: {:+.3} points per game \
             ({games} games, seed {seed}, {rollouts} rollouts split in halves, horizon {horizon})",
            100.0 * g / games.max(1) as f64
        );
    }
}

/// `win`'s close calls: choices within this much of its top are checked.
const MARGIN: f64 = 0.02;

/// One decision to analyse.
struct Decision {
    game: u64,
    number: u32,
    rollouts: usize,
    horizon: u32,
    seed: u64,
}

fn add(a: [f64; 2], b: [f64; 2]) -> [f64; 2] {
    [a[0] + b[0], a[1] + b[1]]
}

/// The gain of following the rollouts among the top `k` choices by `win` within [`MARGIN`]:
/// chosen by one half of the rollouts (`diffs[j][h]`: choice `j`'s mean difference from `win`'s
/// choice over half `h`) and measured by the other, both ways, averaged.
fn cross_validated_gain(ranked: &[(f64, [f64; 2])], k: usize) -> f64 {
    let Some(&(top, _)) = ranked.first() else {
        return 0.0;
    };
    let close: Vec<[f64; 2]> = ranked
        .iter()
        .take(k)
        .filter(|(s, _)| *s >= top - MARGIN)
        .map(|&(_, d)| d)
        .collect();
    if close.len() < 2 {
        return 0.0;
    }
    let mut gain = 0.0;
    for (by, on) in [(0, 1), (1, 0)] {
        let pick = close
            .iter()
            .fold(close[0], |b, d| if d[by] > b[by] { *d } else { b });
        gain += 0.5 * pick[on];
    }
    gain
}

/// Scores every choice of `pos` by `win` and by rollouts and appends one row per choice.
/// Returns the cross-validated gains of following the rollouts among the top 2 and top 4.
fn analyse(
    pos: &Aero,
    win: &WinPlayer,
    model: &qiyi_aeroplane::winprob::WinModel<'_>,
    d: Decision,
    out: &mut Vec<String>,
) -> [f64; 2] {
    let Decision {
        game: g,
        number: decision,
        rollouts,
        horizon,
        seed,
    } = d;
    let me = pos.to_move();
    let scores = win.scores(pos, model, 0);
    let Some((top, top_score)) = scores.best() else {
        return [0.0; 2];
    };
    let mut halves: Vec<(f64, [f64; 2])> = Vec::new();
    let mine = pos.planes(me);
    let mut values: Vec<Vec<f64>> = Vec::new();
    for &(i, _) in scores.as_slice() {
        let after = pos.after(AeroMove::Plane(i));
        let v = (0..rollouts as u64)
            .map(|k| {
                let mut dice = Rng::derive(seed, 2 * k);
                let mut picks = Rng::derive(seed, 2 * k + 1);
                rollout(&after, me, model, horizon, &mut dice, &mut picks)
            })
            .collect();
        values.push(v);
    }
    let top_idx = scores
        .as_slice()
        .iter()
        .position(|&(i, _)| i == top)
        .unwrap_or(0);
    let opp_best = (0..4)
        .filter(|&q| q != me && pos.places()[q] == 0)
        .map(|q| model.opponent(pos.planes(q)).mean)
        .fold(f64::INFINITY, f64::min);
    let danger_sum = |p: &Aero| -> f64 {
        let planes = p.planes(me);
        (0..4)
            .filter(|&i| {
                let d = planes[i];
                d != HANGAR && d != CENTRE && !planes[..i].contains(&d)
            })
            .map(|i| {
                let n = planes.iter().filter(|&&x| x == planes[i]).count() as f64;
                n * danger_with(p, me, planes[i], 0.0)
            })
            .sum()
    };
    let danger_before = danger_sum(pos);
    let plain = qiyi_aeroplane::winprob::WinModel {
        danger: 0.0,
        threat: 0.0,
        ..*model
    };
    let no_threat = qiyi_aeroplane::winprob::WinModel {
        threat: 0.0,
        ..*model
    };
    let count = |f: &dyn Fn(u8) -> bool| mine.iter().filter(|&&d| f(d)).count();
    for (j, &(i, s)) in scores.as_slice().iter().enumerate() {
        let mut after = *pos;
        let e = after.play(AeroMove::Plane(i));
        let from = mine[i as usize];
        let to = after.planes(me)[i as usize];
        let n = values[j].len().max(1) as f64;
        let mean = values[j].iter().sum::<f64>() / n;
        let diffs: Vec<f64> = values[j]
            .iter()
            .zip(&values[top_idx])
            .map(|(a, b)| a - b)
            .collect();
        let dm = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - dm) * (d - dm)).sum::<f64>() / (n - 1.0).max(1.0);
        let se = (var / n).sqrt();
        // The two halves (even and odd rollouts) apart: choose by one, measure by the other.
        let half = |parity: usize| -> f64 {
            let h: Vec<f64> = diffs.iter().skip(parity).step_by(2).copied().collect();
            h.iter().sum::<f64>() / h.len().max(1) as f64
        };
        let base = plain.evaluate(&after, me, e.new_turn);
        let with_danger = no_threat.evaluate(&after, me, e.new_turn);
        let full = model.evaluate(&after, me, e.new_turn);
        let ex = exposure(&after, me);
        halves.push((s, [half(0), half(1)]));
        out.push(format!(
            "{g},{decision},{},{},{},{},{},{},{},{},{},{:.6},{:.6},{:.6},{:.6},{:.6},{:.4},{:.4},{},{},{},{},{},{:.3},{:.3},{:.6},{:.6},{:.6},{},{},{},{},{},{:.6},{:.6}",
            pos.pending_roll(),
            pos.after_six() as u8,
            scores.as_slice().len(),
            fmt_d(from),
            fmt_d(to),
            e.captured,
            e.sent_back,
            e.new_turn as u8,
            (i == top) as u8,
            s,
            top_score - s,
            mean,
            dm,
            se,
            danger_before,
            danger_sum(&after),
            count(&|d| (1..=50).contains(&d)),
            count(&|d| d == 0),
            count(&|d| d == HANGAR),
            count(&|d| (51..CENTRE).contains(&d)),
            count(&|d| d == CENTRE),
            model.race.value(mine),
            opp_best,
            base,
            with_danger - base,
            full - with_danger,
            ex[0],
            ex[1],
            ex[2],
            ex[3],
            ex[4],
            half(0),
            half(1),
        ));
    }
    // Highest score first; the stable sort keeps `win`'s own pick (the first best) first.
    halves.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap_or(std::cmp::Ordering::Equal));
    [
        cross_validated_gain(&halves, 2),
        cross_validated_gain(&halves, 4),
    ]
}

/// Enemy planes (on the ring or the pad) behind my ring planes by 1-6, 7-12 and 13-18 steps,
/// and enemy ring planes ahead of them by 1-6 and 7-12 (each pair counted once per plane of
/// mine; only steps that stay on the mover's ring count).
fn exposure(pos: &Aero, me: usize) -> [u32; 5] {
    let mut out = [0u32; 5];
    let seat = pos.seat(me);
    for &d in pos.planes(me).iter().filter(|&&d| on_ring(d)) {
        let at = ring_square(seat, d);
        for q in (0..pos.players()).filter(|&q| q != me) {
            for &e in &pos.planes(q) {
                match steps_behind(pos.seat(q), e, at) {
                    Some(1..=6) => out[0] += 1,
                    Some(7..=12) => out[1] += 1,
                    Some(13..=18) => out[2] += 1,
                    _ => {}
                }
                if on_ring(e) {
                    match steps_behind(seat, d, ring_square(pos.seat(q), e)) {
                        Some(1..=6) => out[3] += 1,
                        Some(7..=12) => out[4] += 1,
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

/// A progress value for the CSV (the hangar as -1).
fn fmt_d(d: u8) -> i32 {
    if d == HANGAR {
        -1
    } else {
        d as i32
    }
}
