//! A rollout oracle against three `random` players (a measuring tool, not a shipped player):
//! at each of its decisions with two or more distinct choices it scores every choice by Monte
//! Carlo rollouts to the end of the game (itself playing a fast rollout policy, the opponents
//! uniformly random, the same random streams for every choice) and plays the best. It also logs
//! where it disagrees with `win` (the shipped `best` before `win-rollout`).
//!
//! `cargo run --release -p qiyi-research-aeroplane --example oracle -- GAMES SEED ROLLOUTS POLICY [MARGIN]`
//!
//! POLICY is the rollout policy of its own side: `random`, `rg` (capture when possible, else the
//! fewest expected turns by the hazard race table), `rs` (`rg` that also pays the turns it expects
//! to lose to hits before its next turn) or `win`. ROLLOUTS 0 plays POLICY itself as the player
//! (to measure the rollout policy's strength). MARGIN (default 0): switch from
//! `win`'s choice only when the rollouts put another choice ahead by more than MARGIN (in win
//! fraction). Run with `RAYON_NUM_THREADS=1` for one thread.
mod common;

use qiyi_aeroplane::board::{CENTRE, HANGAR};
use qiyi_aeroplane::eval::danger_with;
use qiyi_aeroplane::finish::finish_tables;
use qiyi_aeroplane::players::{Player, PlayerKind, WinPlayer, WinWeights};
use qiyi_aeroplane::rollout::{race_greedy, race_safe};
use qiyi_aeroplane::tournament::candidate_wins;
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Rng, Turn};
use std::sync::Mutex;

#[derive(Clone, Copy, PartialEq)]
enum Pol {
    Random,
    RaceGreedy,
    RaceSafe,
    Win,
}

struct Oracle {
    rollouts: u32,
    pol: Pol,
    margin: f64,
    horizon: u32,
    win: WinPlayer,
    own: WinPlayer,
    rng: Rng,
    log: &'static Mutex<Log>,
}

#[derive(Default)]
struct Log {
    decisions: u64,
    disagree: u64,
    /// (feature of the oracle's choice, feature of win's choice) -> count
    kinds: std::collections::BTreeMap<(String, String), u64>,
}

/// One rollout from `sim` to the end; the dice come from `dice` and every decision draws one
/// number from `picks` (so the `k`-th roll and the `k`-th decision see the same numbers after
/// every choice: common random numbers that stay aligned).
fn rollout(
    mut sim: Aero,
    me: usize,
    dice: &mut Rng,
    picks: &mut Rng,
    pol: Pol,
    own: &mut WinPlayer,
    horizon: u32,
) -> f64 {
    let table = &finish_tables(&Rules::STANDARD).unwrap().hazard_race;
    let mut rounds = 0u32;
    loop {
        match sim.turn() {
            Turn::Over => return if sim.winner() == Some(me) { 1.0 } else { 0.0 },
            Turn::Chance => {
                if sim.to_move() == me && !sim.after_six() {
                    rounds += 1;
                    if rounds >= horizon {
                        return own.model(&Rules::STANDARD).unwrap().at_my_turn(&sim, me);
                    }
                }
                sim.play(AeroMove::Roll(dice.below(6) as u8 + 1));
            }
            Turn::Player(p) => {
                let c = sim.choices();
                let u = picks.next_u64();
                let pick = (((u >> 32) * c.len() as u64) >> 32) as usize;
                let mv = if p == me && c.len() > 1 {
                    match pol {
                        Pol::Random => AeroMove::Plane(c.as_slice()[pick]),
                        Pol::RaceGreedy => race_greedy(&sim, table),
                        Pol::RaceSafe => race_safe(&sim, table),
                        Pol::Win => own.choose(&sim),
                    }
                } else {
                    AeroMove::Plane(c.as_slice()[pick])
                };
                sim.play(mv);
            }
        }
    }
}

/// A short description of what moving `plane` does.
fn kind(pos: &Aero, plane: u8) -> String {
    let me = pos.to_move();
    let d = pos.planes(me)[plane as usize];
    let step = pos.step_of(plane as usize);
    let mut after = *pos;
    let e = after.play(AeroMove::Plane(plane));
    let mut k = Vec::new();
    if e.captured > 0 {
        k.push("capture");
    }
    if d == HANGAR {
        k.push("takeoff");
    } else if d == 0 {
        k.push("leave-pad");
    }
    if step.to == CENTRE {
        k.push("finish");
    } else if step.to > 50 {
        k.push("home-col");
    }
    if step.flew {
        k.push("fly");
    } else if step.jumped {
        k.push("jump");
    }
    if d != HANGAR && danger_with(pos, me, d, 0.0) > 0.0 {
        k.push("from-danger");
    }
    if step.to != CENTRE && danger_with(&after, me, step.to, 0.0) > 0.0 {
        k.push("to-danger");
    }
    if pos.planes(me).iter().filter(|&&x| x == step.to).count() > 0 && step.to != CENTRE {
        k.push("stack");
    }
    if k.is_empty() {
        k.push("plain");
    }
    k.join("+")
}

impl Oracle {
    /// Wins of `n` rollouts after each choice at `pos` (the `k`-th rollout of every choice sees
    /// the same dice and picks, from `seed`).
    fn rollout_wins(&mut self, pos: &Aero, seed: u64, n: u32) -> [f64; 4] {
        let me = pos.to_move();
        let mut wins = [0f64; 4];
        for (j, &i) in pos.choices().as_slice().iter().enumerate() {
            let after = pos.after(AeroMove::Plane(i));
            for k in 0..n {
                let mut dice = Rng::derive(seed, 2 * k as u64);
                let mut picks = Rng::derive(seed, 2 * k as u64 + 1);
                wins[j] += rollout(
                    after,
                    me,
                    &mut dice,
                    &mut picks,
                    self.pol,
                    &mut self.own,
                    self.horizon,
                );
            }
        }
        wins
    }
}

impl Player for Oracle {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let base = self.win.choose(pos);
        let c = pos.choices();
        if c.len() <= 1 {
            return base;
        }
        let seed = self.rng.next_u64();
        let wins = self.rollout_wins(pos, seed, self.rollouts);
        if std::env::var("DIAG").is_ok() && self.log.lock().unwrap().decisions < 40 {
            let big = 8000u32;
            let w2 = self.rollout_wins(pos, seed ^ 0xD1A6, big);
            let f = |w: &[f64; 4], n: u32| -> String {
                (0..c.len())
                    .map(|j| format!("{:.3}", w[j] / n as f64))
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            println!(
                "choices {:?} win picks {:?}: {} rollouts [{}]  {big} rollouts [{}]",
                c.as_slice(),
                base,
                self.rollouts,
                f(&wins, self.rollouts),
                f(&w2, big)
            );
        }
        let n = self.rollouts as f64;
        let base_j = c
            .as_slice()
            .iter()
            .position(|&i| AeroMove::Plane(i) == base)
            .unwrap_or(0);
        let mut best_j = base_j;
        for j in 0..c.len() {
            if wins[j] / n > wins[best_j] / n + self.margin
                && (best_j != base_j || wins[j] / n > wins[base_j] / n + self.margin)
            {
                best_j = j;
            }
        }
        let chosen = c.as_slice()[best_j];
        let mut log = self.log.lock().unwrap();
        log.decisions += 1;
        if best_j != base_j {
            log.disagree += 1;
            let key = (kind(pos, chosen), kind(pos, c.as_slice()[base_j]));
            *log.kinds.entry(key).or_default() += 1;
        }
        AeroMove::Plane(chosen)
    }
}

struct Plain {
    pol: Pol,
    own: WinPlayer,
    rng: Rng,
}

impl Player for Plain {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let c = pos.choices();
        if c.len() <= 1 {
            return AeroMove::Plane(c.as_slice().first().copied().unwrap_or(0));
        }
        let table = &finish_tables(&Rules::STANDARD).unwrap().hazard_race;
        match self.pol {
            Pol::Random => AeroMove::Plane(c.as_slice()[self.rng.below(c.len())]),
            Pol::RaceGreedy => race_greedy(pos, table),
            Pol::RaceSafe => race_safe(pos, table),
            Pol::Win => self.own.choose(pos),
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let games: u64 = a[1].parse().expect("games");
    let seed: u64 = a[2].parse().expect("seed");
    let rollouts: u32 = a[3].parse().expect("rollouts");
    let pol = match a[4].as_str() {
        "random" => Pol::Random,
        "rg" => Pol::RaceGreedy,
        "rs" => Pol::RaceSafe,
        "win" => Pol::Win,
        other => panic!("unknown policy {other}"),
    };
    let margin: f64 = a.get(5).map(|m| m.parse().expect("margin")).unwrap_or(0.0);
    let horizon: u32 = std::env::var("HORIZON")
        .ok()
        .map(|h| h.parse().expect("horizon"))
        .unwrap_or(u32::MAX);
    let log: &'static Mutex<Log> = Box::leak(Box::new(Mutex::new(Log::default())));
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let t = std::time::Instant::now();
    let done = std::sync::atomic::AtomicU64::new(0);
    let wins = candidate_wins(
        &start,
        games,
        seed,
        |g| (g % 4) as usize,
        |g| -> Box<dyn Player> {
            let win = WinPlayer::new(WinWeights::TUNED, Rng::derive(seed, g));
            let own = WinPlayer::new(WinWeights::TUNED, Rng::derive(seed, g));
            let rng = Rng::derive(seed ^ 0x0AC1E, g);
            let k = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if k % 50 == 0 {
                eprintln!("game {k} ({:.0} s)", t.elapsed().as_secs_f64());
            }
            if rollouts == 0 {
                Box::new(Plain { pol, own, rng })
            } else {
                Box::new(Oracle {
                    rollouts,
                    pol,
                    margin,
                    horizon,
                    win,
                    own,
                    rng,
                    log,
                })
            }
        },
        |_| PlayerKind::Random,
    );
    println!(
        "oracle rollouts {rollouts} policy {} margin {margin} horizon {horizon}: {} of {games}, seed {seed} ({:.1} s)",
        a[4],
        common::rate(wins, games),
        t.elapsed().as_secs_f64()
    );
    let log = log.lock().unwrap();
    if log.decisions > 0 {
        println!(
            "decisions with >= 2 choices: {}, disagreeing with win: {} ({:.1}%)",
            log.decisions,
            log.disagree,
            100.0 * log.disagree as f64 / log.decisions as f64
        );
        let mut kinds: Vec<_> = log.kinds.iter().collect();
        kinds.sort_by(|a, b| b.1.cmp(a.1));
        for ((o, w), n) in kinds.iter().take(30) {
            println!("  {n:6}  oracle {o:30} win {w}");
        }
    }
}
