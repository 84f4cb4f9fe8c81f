//! The player types by name ([`PlayerKind`]). It names no other module, so the error type can
//! list the names without reaching up to the players; reading a name
//! (`impl FromStr for PlayerKind`) and building a player ([`crate::players::make_player`]) are in
//! [`crate::players`].

use std::fmt;

/// The player types, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlayerKind {
    /// Uniformly random among the legal moves.
    Random,
    /// The article's greedy score.
    SeedGreedy,
    /// The article's method: the greedy top-2 checked by random Monte Carlo playouts.
    SeedMc,
    /// The self-play-tuned heuristic (one ply, exact values and hit chances).
    Heuristic,
    /// The exact solo-race table (optimal play against the dice alone) plus the danger to its
    /// planes and the opponents' race (one ply); the heuristic where no table exists.
    Race,
    /// The chance of finishing first, from exact finish-time statistics of every player's race
    /// (mine under optimal play, the opponents' under random play) and the hit chances (one ply).
    Win,
    /// `win` with its close decisions checked by short rollouts against random opponents
    /// (see [`crate::rollout`]).
    WinRollout,
    /// n-player expectimax (max-n over the dice), depth-limited, heuristic leaves.
    Expectimax,
    /// Monte Carlo tree search with chance nodes and heuristic playouts.
    Mcts,
    /// The strongest player we have measured.
    Best,
    /// A level 1 (random) ..= 10 (best) for people.
    Level(u8),
}

impl PlayerKind {
    /// Every named type (for help texts).
    pub const NAMES: [&'static str; 10] = [
        "random",
        "seed-greedy",
        "seed-mc",
        "heuristic",
        "race",
        "win",
        "win-rollout",
        "expectimax",
        "mcts",
        "best",
    ];

    /// The concrete type `best` stands for (`win-rollout`: against three `random` players it
    /// won 79.31% of 76,000 held-out games, about 1.5 points more than `win`; see the crate
    /// README).
    pub const BEST: PlayerKind = PlayerKind::WinRollout;
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerKind::Random => f.write_str("random"),
            PlayerKind::SeedGreedy => f.write_str("seed-greedy"),
            PlayerKind::SeedMc => f.write_str("seed-mc"),
            PlayerKind::Heuristic => f.write_str("heuristic"),
            PlayerKind::Race => f.write_str("race"),
            PlayerKind::Win => f.write_str("win"),
            PlayerKind::WinRollout => f.write_str("win-rollout"),
            PlayerKind::Expectimax => f.write_str("expectimax"),
            PlayerKind::Mcts => f.write_str("mcts"),
            PlayerKind::Best => f.write_str("best"),
            PlayerKind::Level(l) => write!(f, "level-{l}"),
        }
    }
}
