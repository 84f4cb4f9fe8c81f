//! The players: the article's greedy `seed`, a random mover, and search players from the core
//! (alpha-beta for two players, paranoid and best-reply search for more, MCTS), at levels 1-10.

use crate::eval::{gain, DistanceEval, GreedyPolicy, MultiDistanceEval};
use crate::position::{Move, Position};
use qiyi_core::search::mcts::{mcts, MctsOptions};
use qiyi_core::search::nplayer::{best_reply_limited, paranoid_limited};
use qiyi_core::search::{SearchLimits, SearchOptions, Searcher};
use qiyi_core::{Game, Rng};
use std::fmt;
use std::str::FromStr;

/// The kinds of player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PlayerKind {
    /// Uniformly random legal moves.
    Random,
    /// The article's greedy player: the move that gains the most distance toward the goal
    /// (ties broken at random).
    Seed,
    /// Alpha-beta (two players; with more players it searches paranoid).
    AlphaBeta,
    /// Paranoid search: everyone else is against me.
    Paranoid,
    /// Best-reply search: only the strongest opponent reply is considered between my moves.
    Brs,
    /// Monte Carlo tree search with greedy playouts.
    Mcts,
}

impl PlayerKind {
    /// Every name accepted by [`PlayerKind::from_str`] (plus `best`).
    pub const NAMES: [&'static str; 6] = ["random", "seed", "alphabeta", "paranoid", "brs", "mcts"];

    /// The strongest player for a game of `players` players (what `best` stands for), as
    /// measured by the tournaments in the README.
    pub fn best(players: usize) -> PlayerKind {
        if players == 2 {
            PlayerKind::AlphaBeta
        } else {
            PlayerKind::Brs
        }
    }

    /// Parses a player name; `best` resolves to [`PlayerKind::best`] for `players` players.
    pub fn parse(text: &str, players: usize) -> Result<PlayerKind, UnknownPlayer> {
        if text.trim().eq_ignore_ascii_case("best") {
            Ok(PlayerKind::best(players))
        } else {
            text.parse()
        }
    }
}

/// A player name that is not one of [`PlayerKind::NAMES`] or `best`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown player `{0}`: use best, random, seed, alphabeta, paranoid, brs or mcts")]
pub struct UnknownPlayer(pub String);

impl FromStr for PlayerKind {
    type Err = UnknownPlayer;
    fn from_str(s: &str) -> Result<Self, UnknownPlayer> {
        Ok(match s.trim().to_ascii_lowercase().as_str() {
            "random" => PlayerKind::Random,
            "seed" | "greedy" => PlayerKind::Seed,
            "alphabeta" | "ab" => PlayerKind::AlphaBeta,
            "paranoid" => PlayerKind::Paranoid,
            "brs" | "best-reply" => PlayerKind::Brs,
            "mcts" => PlayerKind::Mcts,
            _ => return Err(UnknownPlayer(s.to_string())),
        })
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = match self {
            PlayerKind::Random => "random",
            PlayerKind::Seed => "seed",
            PlayerKind::AlphaBeta => "alphabeta",
            PlayerKind::Paranoid => "paranoid",
            PlayerKind::Brs => "brs",
            PlayerKind::Mcts => "mcts",
        };
        f.write_str(name)
    }
}

/// A player: a kind, a level (1-10, the search budget doubles with each level) and its own
/// seeded random stream.
pub struct Player {
    kind: PlayerKind,
    level: u32,
    rng: Rng,
    searcher: Option<Searcher<Position, DistanceEval>>,
    moves: Vec<Move>,
}

impl Player {
    /// A player of `kind` at `level` (clamped to 1-10) with random stream `seed`.
    pub fn new(kind: PlayerKind, level: u32, seed: u64) -> Self {
        Player {
            kind,
            level: level.clamp(1, 10),
            rng: Rng::new(seed),
            searcher: None,
            moves: Vec::new(),
        }
    }

    /// The kind of player.
    pub fn kind(&self) -> PlayerKind {
        self.kind
    }

    /// Search nodes per move for the tree searches at this level.
    pub fn node_budget(&self) -> u64 {
        500u64 << self.level
    }

    /// MCTS playouts per move at this level.
    pub fn playout_budget(&self) -> u64 {
        25u64 << self.level
    }

    /// Chooses a move in `pos` (which must not be over).
    pub fn choose(&mut self, pos: &Position) -> Move {
        pos.legal_moves(&mut self.moves);
        if self.moves.len() <= 1 {
            return self.moves.first().copied().unwrap_or(Move::PASS);
        }
        let players = pos.num_players();
        match self.kind {
            PlayerKind::Random => self.moves[self.rng.below(self.moves.len())],
            PlayerKind::Seed => self.greedy(pos),
            PlayerKind::AlphaBeta if players == 2 => {
                let nodes = self.node_budget();
                let searcher = self.searcher.get_or_insert_with(|| {
                    let options = SearchOptions {
                        null_move: false,
                        quiescence: false,
                        check_extension: false,
                        tt_mib: 16,
                        ..SearchOptions::all()
                    };
                    Searcher::new(DistanceEval, options)
                });
                let r = searcher.search(pos, &SearchLimits::nodes(nodes), |_| {});
                r.best_move.unwrap_or_else(|| self.greedy(pos))
            }
            PlayerKind::AlphaBeta | PlayerKind::Paranoid => {
                let r = paranoid_limited(pos, &self.multi_eval(), &self.limits());
                r.best_move.unwrap_or_else(|| self.greedy(pos))
            }
            PlayerKind::Brs => {
                let r = best_reply_limited(pos, &self.multi_eval(), &self.limits());
                r.best_move.unwrap_or_else(|| self.greedy(pos))
            }
            PlayerKind::Mcts => {
                let options = MctsOptions {
                    seed: self.rng.next_u64(),
                    max_playout_plies: 400,
                    ..MctsOptions::default()
                };
                let limits = SearchLimits::nodes(self.playout_budget());
                let r = mcts(pos, &GreedyPolicy::default(), &options, &limits);
                r.best_move.unwrap_or_else(|| self.greedy(pos))
            }
        }
    }

    /// The n-player evaluation: opponents' distance counted twice as much as in the plain lead
    /// (measured best among weights 0, 0.3, 1, 2 and 4 against `seed` in 3- and 6-player games).
    fn multi_eval(&self) -> MultiDistanceEval {
        MultiDistanceEval { others: 2.0 }
    }

    fn limits(&self) -> SearchLimits {
        SearchLimits {
            nodes: Some(self.node_budget()),
            depth: Some(12),
            ..SearchLimits::default()
        }
    }

    /// The article's greedy move: the greatest gain toward the goal, ties at random.
    fn greedy(&mut self, pos: &Position) -> Move {
        let best = self.moves.iter().map(|&m| gain(pos, m)).max().unwrap_or(0);
        let count = self.moves.iter().filter(|&&m| gain(pos, m) == best).count();
        let mut k = self.rng.below(count.max(1));
        for &m in &self.moves {
            if gain(pos, m) == best {
                if k == 0 {
                    return m;
                }
                k -= 1;
            }
        }
        self.moves[0]
    }
}
