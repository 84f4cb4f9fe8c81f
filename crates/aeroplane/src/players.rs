//! The players: `random`, the article's `seed-greedy` and `seed-mc`, the tuned `heuristic`,
//! `expectimax`, `mcts`, `best` (the strongest, by measurement) and levels 1-10 for people.
//!
//! This is the top of the players: reading a player's name and building the player
//! ([`make_player`]). The players themselves live below it, in [`crate::oneply`],
//! [`crate::search`] and [`crate::rollout`], over the [`Player`] trait ([`crate::player`]) and
//! the names ([`crate::kind`]); everything is re-exported here under its old path.

use crate::error::AeroError;
use crate::eval::Weights;
pub use crate::kind::PlayerKind;
pub use crate::oneply::{
    enemy_behind, greedy_choice, greedy_score, heuristic_choice, race_score, round_score,
    HeuristicPlayer, RacePlayer, RaceWeights, RandomPlayer, ScoredChoices, SeedGreedy, SeedMc,
    WinPlayer, WinWeights,
};
pub use crate::player::Player;
use crate::rollout::{RolloutPlayer, RolloutWeights};
use crate::search::{ExpectimaxPlayer, MctsPlayer};
use qiyi_core::Rng;
use std::str::FromStr;

impl FromStr for PlayerKind {
    type Err = AeroError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim().to_ascii_lowercase();
        Ok(match t.as_str() {
            "random" => PlayerKind::Random,
            "seed-greedy" | "greedy" => PlayerKind::SeedGreedy,
            "seed-mc" => PlayerKind::SeedMc,
            "heuristic" | "tuned" => PlayerKind::Heuristic,
            "race" => PlayerKind::Race,
            "win" => PlayerKind::Win,
            "win-rollout" => PlayerKind::WinRollout,
            "expectimax" => PlayerKind::Expectimax,
            "mcts" => PlayerKind::Mcts,
            "best" => PlayerKind::Best,
            _ => {
                let level = t
                    .strip_prefix("level-")
                    .or_else(|| t.strip_prefix("level"))
                    .and_then(|l| l.parse::<u8>().ok())
                    .filter(|l| (1..=10).contains(l));
                match level {
                    Some(l) => PlayerKind::Level(l),
                    None => return Err(AeroError::UnknownPlayer(s.to_string())),
                }
            }
        })
    }
}

/// Builds a player of `kind`; `seed` seeds its private randomness.
pub fn make_player(kind: PlayerKind, seed: u64) -> Box<dyn Player> {
    let rng = Rng::new(seed);
    match kind {
        PlayerKind::Random => Box::new(RandomPlayer { rng }),
        PlayerKind::SeedGreedy => Box::new(SeedGreedy { rng, noise: 0.0 }),
        PlayerKind::SeedMc => Box::new(SeedMc {
            rng,
            playouts: SeedMc::PLAYOUTS,
        }),
        PlayerKind::Heuristic => Box::new(HeuristicPlayer::new(Weights::TUNED, rng, 0.0)),
        PlayerKind::Race => Box::new(RacePlayer::new(RaceWeights::TUNED, rng)),
        PlayerKind::Win => Box::new(WinPlayer::new(WinWeights::TUNED, rng)),
        PlayerKind::WinRollout => Box::new(RolloutPlayer::new(RolloutWeights::TUNED, rng)),
        PlayerKind::Best => make_player(PlayerKind::BEST, seed),
        PlayerKind::Expectimax => Box::new(ExpectimaxPlayer::new(
            Weights::TUNED,
            ExpectimaxPlayer::DEPTH,
        )),
        PlayerKind::Mcts => Box::new(MctsPlayer::new(MctsPlayer::PLAYOUTS, rng)),
        PlayerKind::Level(l) => match l {
            0 | 1 => Box::new(RandomPlayer { rng }),
            2 => Box::new(SeedGreedy { rng, noise: 0.5 }),
            3 => Box::new(SeedGreedy { rng, noise: 0.0 }),
            4 => Box::new(SeedMc { rng, playouts: 50 }),
            5 => Box::new(SeedMc {
                rng,
                playouts: SeedMc::PLAYOUTS,
            }),
            6 => Box::new(HeuristicPlayer::new(Weights::TUNED, rng, 0.4)),
            7 => Box::new(HeuristicPlayer::new(Weights::TUNED, rng, 0.15)),
            8 => Box::new(ExpectimaxPlayer::new(Weights::TUNED, 3)),
            9 => Box::new(ExpectimaxPlayer::new(
                Weights::TUNED,
                ExpectimaxPlayer::DEPTH,
            )),
            _ => make_player(PlayerKind::Best, seed),
        },
    }
}
