//! The players: the article's greedy `seed`, a random mover, search players from the core
//! (alpha-beta for two players, paranoid and best-reply search for more, MCTS), at levels 1-10,
//! and `race`, which plans two of its own moves ahead (the strongest with three or more players).

use crate::eval::{gain, DistanceEval, GreedyPolicy, MultiDistanceEval};
use crate::position::{Move, Position};
use qiyi_core::search::mcts::{mcts, MctsOptions};
use qiyi_core::search::nplayer::{best_reply_limited, paranoid_limited};
use qiyi_core::search::{SearchLimits, SearchOptions, Searcher};
use qiyi_core::{Game, Rng};
use std::fmt;
use std::str::FromStr;

/// Weight of the best follow-up move in the racer's evaluation (see [`PlayerKind::Race`]).
pub const RACE_LOOKAHEAD: f64 = 0.5;

/// The share of moves the racer hands to the greedy `seed` move at `level`: 15% per level
/// below 6 (75% at level 1, 15% at level 5, none from level 6 up, where the racer plays at
/// full strength).
pub fn race_greedy_share(level: u32) -> f64 {
    0.15 * 6u32.saturating_sub(level.clamp(1, 10)) as f64
}

/// The racer's distance measure for `pieces` heading to the goal tip `tip`: the sum of hex
/// distances plus the straggler penalty of [`crate::eval::badness`].
pub fn race_badness(pieces: u128, tip: usize) -> i32 {
    let g = crate::board::geometry();
    let mut sum = 0i32;
    let mut worst = 0i32;
    for c in crate::board::Bits(pieces) {
        let d = g.dist[tip][c as usize] as i32;
        sum += d;
        worst = worst.max(d);
    }
    sum + crate::eval::STRAGGLER_WEIGHT * (worst - 4).max(0)
}

/// The options of the two-player alpha-beta player: every search option but null move,
/// quiescence and check extensions, with a 16 MiB transposition table.
pub fn alpha_beta_options() -> SearchOptions {
    SearchOptions {
        null_move: false,
        quiescence: false,
        check_extension: false,
        tt_mib: 16,
        ..SearchOptions::all()
    }
}

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
    /// A racer that plans two of its own moves ahead (the board otherwise frozen): the move
    /// after which its best follow-up leaves the least distance to go, stragglers penalised.
    /// Levels 6-10 play it at full strength; below 6 a share of its moves (see
    /// [`race_greedy_share`]) are the greedy `seed` move instead.
    Race,
}

impl PlayerKind {
    /// Every name accepted by [`PlayerKind::from_str`] (plus `best`).
    pub const NAMES: [&'static str; 7] = [
        "random",
        "seed",
        "alphabeta",
        "paranoid",
        "brs",
        "mcts",
        "race",
    ];

    /// The strongest player for a game of `players` players (what `best` stands for), as
    /// measured by the tournaments in the README: alpha-beta for two players (it beat `race`
    /// in 38 of 40 games), the two-move racer for more (against `seed` it won 98.7% of 300
    /// three-player and 44.7% of 300 six-player games, where best-reply search won 80% and 30%;
    /// at tables with both, `race` won 60% of 60 three-player and 50% of 60 six-player games
    /// to 40% and 20% for best-reply search).
    pub fn best(players: usize) -> PlayerKind {
        if players == 2 {
            PlayerKind::AlphaBeta
        } else {
            PlayerKind::Race
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
#[error("unknown player `{0}`: use best, random, seed, alphabeta, paranoid, brs, mcts or race")]
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
            "race" => PlayerKind::Race,
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
            PlayerKind::Race => "race",
        };
        f.write_str(name)
    }
}

/// What [`Player::think`] chose and what it searched to choose it.
#[derive(Clone, Debug, PartialEq)]
pub struct Thought {
    /// The move to play ([`Move::PASS`] when the player has no move).
    pub best_move: Move,
    /// The root's value on the searcher's scale (0 for the players that do not search: random,
    /// seed, race, and a forced move).
    pub score: f64,
    /// The principal variation (just the move for the players that do not search).
    pub pv: Vec<Move>,
    /// Positions (alpha-beta, paranoid, best-reply) or tree nodes (MCTS) searched; 0 without
    /// a search.
    pub nodes: u64,
    /// Depth of the last completed iteration (MCTS: the deepest tree node); 0 without a search.
    pub depth: u32,
}

impl Thought {
    fn unsearched(best_move: Move) -> Self {
        Thought {
            best_move,
            score: 0.0,
            pv: vec![best_move],
            nodes: 0,
            depth: 0,
        }
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

    /// Chooses a move in `pos` (which must not be over) within the level's budget.
    pub fn choose(&mut self, pos: &Position) -> Move {
        self.think(pos, &SearchLimits::default()).best_move
    }

    /// Starts afresh with random stream `seed`: what a new player of the same kind and level
    /// would do, keeping the searcher's allocated table (emptied in O(1)).
    pub fn reset(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    /// Chooses a move in `pos` (which must not be over) and says what was searched.
    ///
    /// Limits with any budget set (depth, nodes, movetime) replace the level's budget for the
    /// searching players (alpha-beta, paranoid, best-reply; MCTS reads `nodes` as playouts);
    /// default limits (and, for MCTS, a depth alone) keep the level's budget ([`Player::node_budget`],
    /// [`Player::playout_budget`]). Random, seed and race players do not search and ignore them.
    pub fn think(&mut self, pos: &Position, limits: &SearchLimits) -> Thought {
        pos.legal_moves(&mut self.moves);
        if self.moves.len() <= 1 {
            return Thought::unsearched(self.moves.first().copied().unwrap_or(Move::PASS));
        }
        let timed = limits.move_time.is_some() || limits.deadline.is_some();
        let custom = limits.depth.is_some() || limits.nodes.is_some() || timed;
        let tree_limits = if custom {
            limits.clone()
        } else {
            self.limits()
        };
        let players = pos.num_players();
        match self.kind {
            PlayerKind::Random => Thought::unsearched(self.moves[self.rng.below(self.moves.len())]),
            PlayerKind::Seed => Thought::unsearched(self.greedy(pos)),
            PlayerKind::Race => {
                // Below level 6 the racer sometimes plays the greedy move instead (the
                // racer has no search budget to scale; levels 6-10 are the full racer).
                let m = if self.level < 6 && self.rng.unit() < race_greedy_share(self.level) {
                    self.greedy(pos)
                } else {
                    self.race(pos)
                };
                Thought::unsearched(m)
            }
            PlayerKind::AlphaBeta if players == 2 => {
                let limits = if custom {
                    limits.clone()
                } else {
                    SearchLimits::nodes(self.node_budget())
                };
                let searcher = self
                    .searcher
                    .get_or_insert_with(|| Searcher::new(DistanceEval, alpha_beta_options()));
                let r = searcher.search(pos, &limits, |_| {});
                let best_move = match r.best_move {
                    Some(m) => m,
                    None => self.greedy(pos),
                };
                Thought {
                    best_move,
                    score: f64::from(r.score),
                    pv: r.pv,
                    nodes: r.stats.nodes,
                    depth: r.stats.depth,
                }
            }
            PlayerKind::AlphaBeta | PlayerKind::Paranoid | PlayerKind::Brs => {
                let r = if self.kind == PlayerKind::Brs {
                    best_reply_limited(pos, &self.multi_eval(), &tree_limits)
                } else {
                    paranoid_limited(pos, &self.multi_eval(), &tree_limits)
                };
                let best_move = match r.best_move {
                    Some(m) => m,
                    None => self.greedy(pos),
                };
                Thought {
                    best_move,
                    score: r.value,
                    pv: r.pv,
                    nodes: r.stats.nodes,
                    depth: r.stats.depth,
                }
            }
            PlayerKind::Mcts => {
                let options = MctsOptions {
                    seed: self.rng.next_u64(),
                    max_playout_plies: 400,
                    ..MctsOptions::default()
                };
                // MCTS has no depth: a depth alone keeps the level's playouts.
                let limits = if limits.nodes.is_some() || timed {
                    limits.clone()
                } else {
                    SearchLimits::nodes(self.playout_budget())
                };
                let r = mcts(pos, &GreedyPolicy::default(), &options, &limits);
                let best_move = match r.best_move {
                    Some(m) => m,
                    None => self.greedy(pos),
                };
                Thought {
                    best_move,
                    score: r.value,
                    pv: vec![best_move],
                    nodes: r.nodes,
                    depth: r.max_depth,
                }
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

    /// The racer's move (see [`PlayerKind::Race`]): an immediate win if there is one, else the
    /// move minimising `(1 - w) * bad(after it) + w * bad(after the best own follow-up)`, with
    /// `w` = [`RACE_LOOKAHEAD`], ties at random.
    fn race(&mut self, pos: &Position) -> Move {
        let me = pos.to_move();
        let tip = pos.goal_tip(me) as usize;
        let goal = pos.goal(me);
        let lock = pos.options().goal_lock;
        let occ = pos.occupied();
        let mine = pos.pieces(me);
        let mut best = f64::INFINITY;
        let mut count = 0usize;
        let mut choice = self.moves[0];
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            if m.is_pass() {
                continue;
            }
            let after = pos.after(m);
            if after.winner() == Some(me) {
                return m;
            }
            let flip = crate::board::bit(m.from) | crate::board::bit(m.to);
            let (occ1, mine1) = (occ ^ flip, mine ^ flip);
            let now = race_badness(mine1, tip) as f64;
            let mut next = now;
            for from in crate::board::Bits(mine1) {
                let mut dests = crate::movegen::targets(occ1, from);
                if lock && goal & crate::board::bit(from) != 0 {
                    dests &= goal;
                }
                for to in crate::board::Bits(dests) {
                    let b =
                        race_badness(mine1 ^ crate::board::bit(from) ^ crate::board::bit(to), tip);
                    next = next.min(b as f64);
                }
            }
            let v = (1.0 - RACE_LOOKAHEAD) * now + RACE_LOOKAHEAD * next;
            if v < best - 1e-9 {
                best = v;
                count = 1;
                choice = m;
            } else if (v - best).abs() <= 1e-9 {
                count += 1;
                if self.rng.below(count) == 0 {
                    choice = m;
                }
            }
        }
        choice
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
