//! `win-rollout` settings against three `random` (or other) players, every candidate on the
//! same seeded games (common random numbers), seats rotating; prints the win rate with its 95%
//! interval and the candidate's decision times (mean and max, wall clock, one thread), and each
//! later candidate's difference from the first, game by game (paired), with its standard error.
//!
//! `cargo run --release -p qiyi-research-aeroplane --example tune_rollout -- GAMES SEED OPPONENT CAND...`
//! where CAND is a player type (`win`, `win-rollout`, ...) or `R,H,M,K` (rollouts, horizon,
//! margin, candidates of [`RolloutWeights`]), optionally `,P,A,B,Z,E,EM` (P: who plays my own
//! moves in the rollouts, 0 `race_greedy`, 1 `win`, 2 `race_safe`; A 1: antithetic pairs; B, Z:
//! rollouts in batches of B, stopped once the leader is Z paired standard errors ahead; E, EM:
//! rollouts to the end of the game over choices within EM once my expected turns are at most
//! E). Run with `RAYON_NUM_THREADS=1` for one thread.
mod common;

use qiyi_aeroplane::players::{make_player, Player, PlayerKind};
use qiyi_aeroplane::rollout::{RolloutPlayer, RolloutWeights};
use qiyi_aeroplane::tournament::{field_results, paired_summary, Field};
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::Rng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

static NANOS: AtomicU64 = AtomicU64::new(0);
static MAX_NANOS: AtomicU64 = AtomicU64::new(0);
static CALLS: AtomicU64 = AtomicU64::new(0);

/// Times every decision of the wrapped player.
struct Timed(Box<dyn Player>);

impl Player for Timed {
    fn choose(&mut self, pos: &Aero) -> AeroMove {
        let t = Instant::now();
        let mv = self.0.choose(pos);
        let ns = t.elapsed().as_nanos() as u64;
        NANOS.fetch_add(ns, Ordering::Relaxed);
        MAX_NANOS.fetch_max(ns, Ordering::Relaxed);
        CALLS.fetch_add(1, Ordering::Relaxed);
        mv
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let games: u64 = a[1].parse().expect("games");
    let seed: u64 = a[2].parse().expect("seed");
    // `random-aligned`: random opponents through `aligned_results` (sharper paired differences).
    let field: Field = a[3].parse().expect("opponent");
    let start = Aero::new(Rules::STANDARD, 4).expect("4 players");
    let mut first: Option<Vec<bool>> = None;
    for cand in &a[4..] {
        NANOS.store(0, Ordering::Relaxed);
        MAX_NANOS.store(0, Ordering::Relaxed);
        CALLS.store(0, Ordering::Relaxed);
        let t = Instant::now();
        let make = |g: u64| -> Box<dyn Player> {
            let rng = Rng::derive(seed, g);
            let inner: Box<dyn Player> = if let Ok(kind) = cand.parse::<PlayerKind>() {
                make_player(kind, rng.clone().next_u64())
            } else {
                let w: RolloutWeights = cand.parse().unwrap_or_else(|e| panic!("{e}"));
                Box::new(RolloutPlayer::new(w, rng))
            };
            Box::new(Timed(inner))
        };
        let results = field_results(&start, games, seed, field, make);
        let wins = results.iter().filter(|&&w| w).count() as u64;
        let calls = CALLS.load(Ordering::Relaxed).max(1);
        println!(
            "{cand}: {} of {games}, seed {seed} ({:.1} s; decisions {:.3} ms mean, {:.1} ms max)",
            common::rate(wins, games),
            t.elapsed().as_secs_f64(),
            NANOS.load(Ordering::Relaxed) as f64 / calls as f64 / 1e6,
            MAX_NANOS.load(Ordering::Relaxed) as f64 / 1e6,
        );
        match &first {
            None => first = Some(results),
            Some(base) => {
                println!(
                    "  paired against the first candidate: {}",
                    paired_summary(&results, base)
                );
            }
        }
    }
}
