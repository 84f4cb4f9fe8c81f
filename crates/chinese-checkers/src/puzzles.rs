//! Puzzles for players (docs/puzzles.md): "bring these pieces home in N moves", N proven
//! optimal, the miner and the prover.
//!
//! **The puzzle** is a position of a seeded self-play game and the player to move in it, whose
//! pieces must all stand in its goal (the opposite point) in the fewest moves, the player moving
//! *alone*: the other players' pieces are lifted off the board (they neither block nor serve as
//! hurdles), as in the crate's one-player crossing puzzle ([`crate::solitaire`]). The goal lock of
//! the position's options applies. The distance is exact: the IDA* of
//! [`RaceSolver`] with the row-relaxation bound of [`crate::solitaire::RowBound`] (the review
//! judge's race solver), which raises its threshold one move at a time from an admissible bound,
//! so the `N` it finds is proven optimal (every shorter length was searched and refuted).
//!
//! **A puzzle is kept** only when, with `N` = the exact distance (1..=`max_n`):
//! - the first move is the only legal move after which the pieces are still home in `N - 1`
//!   (every other move is proven to need more, by a search at threshold `N - 1`);
//! - every later step of the line is optimal too (home in the moves left); at each step where
//!   the optimal move is unique it is asked, the others are played for the player (several moves
//!   of a crossing often commute, so uniqueness at every step is rare). `asked` says which steps
//!   are asked, and the theme `every-step` or `some-steps` which kind of puzzle it is; the line
//!   follows the first optimal move (in move-generation order) where there are several.
//!
//! **The miner** plays seeded two-player games with the crate's players (the two-move racer by
//! default) after 0..=R random plies, and proves every position where the player to move has at
//! least `min_out` pieces outside its goal and a row bound of at most `max_n`: real race endings
//! (stragglers, a half-filled goal, chains over one's own pieces) rather than random placements,
//! which rarely look like a game.
//!
//! Move texts are the crate's notation on the board with the player's pieces alone: `from-to`
//! for a step, every landing hole joined by `:` for a hop chain (the shortest chain).

/// The shipped puzzle set (`puzzles/chinese-checkers.jsonl` at this crate's root), proven by
/// `qiyi puzzles check`: what the server, the Python package and the tests embed.
pub const SHIPPED: &str = include_str!("../puzzles/chinese-checkers.jsonl");

use crate::board::{bit, geometry, mirror, Bits, Cell};
use crate::engine::{Player, PlayerKind};
use crate::movegen;
use crate::notation::cell_name;
use crate::position::{Move, Position};
use crate::review::RaceSolver;
use crate::rules::Options;
use qiyi_core::puzzles::{Proof, PuzzleRecord, Rating, Source};
use qiyi_core::{Game, Notation, Rng};

/// The game name in puzzle files.
pub const GAME: &str = "chinese-checkers";

/// The longest puzzle the miner and the prover handle, in moves.
pub const MAX_N: u32 = 12;

/// A player's pieces moving alone toward its goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solo {
    /// The pieces.
    pub pieces: u128,
    /// The goal (the opposite point).
    pub goal: u128,
    /// Pieces in the goal may not leave it.
    pub lock: bool,
}

impl Solo {
    /// The player to move's pieces in `pos`, alone.
    pub fn of(pos: &Position) -> Solo {
        let p = pos.to_move();
        Solo {
            pieces: pos.pieces(p),
            goal: pos.goal(p),
            lock: pos.options().goal_lock,
        }
    }

    /// Pieces outside the goal.
    pub fn outside(&self) -> u32 {
        (self.pieces & !self.goal).count_ones()
    }

    /// Every legal move (steps and hop chains over the player's own pieces), with the pieces
    /// after it.
    pub fn moves(&self) -> Vec<(Move, u128)> {
        let mut out = Vec::new();
        for from in Bits(self.pieces) {
            let mut dests = movegen::targets(self.pieces, from);
            if self.lock && self.goal & bit(from) != 0 {
                dests &= self.goal;
            }
            for to in Bits(dests) {
                out.push((Move { from, to }, self.pieces ^ bit(from) ^ bit(to)));
            }
        }
        out
    }

    /// The same pieces after a move.
    pub fn with(&self, pieces: u128) -> Solo {
        Solo { pieces, ..*self }
    }

    /// The text of a move of these pieces, and the number of hops it makes (0 for a step).
    pub fn move_text(&self, mv: Move) -> (String, usize) {
        let path = movegen::path(self.pieces, mv.from, mv.to).unwrap_or(vec![mv.from, mv.to]);
        let step = movegen::step_targets(self.pieces, mv.from) & bit(mv.to) != 0;
        let names: Vec<String> = path.iter().map(|&c| cell_name(c)).collect();
        if step {
            (names.join("-"), 0)
        } else {
            (names.join(":"), path.len() - 1)
        }
    }

    /// A key equal for the same pieces and goal up to the star's turns and the mirror.
    pub fn key(&self) -> u128 {
        let (s, _) = RaceSolver::to_frame(self.pieces, self.goal);
        let m = Bits(s).fold(0u128, |acc, c| acc | bit(mirror(c)));
        s.min(m)
    }
}

/// A proven puzzle: the line and which steps are asked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The exact distance (the line's length).
    pub n: u32,
    /// The line's moves.
    pub line: Vec<Move>,
    /// Their texts.
    pub texts: Vec<String>,
    /// The hops of each move (0 for a step).
    pub hops: Vec<usize>,
    /// The steps where the optimal move is unique (always including 0).
    pub asked: Vec<usize>,
    /// Legal moves at each step.
    pub legal: Vec<usize>,
    /// Optimal moves at each step.
    pub optimal: Vec<usize>,
}

/// What the prover decided about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A puzzle: the first move is the only optimal one.
    Unique(Solved),
    /// Several first moves are optimal (how many).
    NotUnique(usize),
    /// Already home (0), or more than `max_n` moves from it (`max_n + 1`: a lower bound).
    OutOfRange(u32),
    /// The search ran out of its budget.
    Undecided,
}

/// The optimal moves at `solo`, `left` moves from home: every legal move after which the pieces
/// are home in `left - 1`. `None` when a search ran out of its budget.
fn optimal_moves(
    solver: &mut RaceSolver,
    solo: &Solo,
    left: u32,
) -> Option<(Vec<(Move, u128)>, usize)> {
    let moves = solo.moves();
    let legal = moves.len();
    let mut best = Vec::new();
    for (mv, child) in moves {
        if solver.reaches_within(child, solo.goal, solo.lock, left - 1)? {
            best.push((mv, child));
        }
    }
    Some((best, legal))
}

/// Proves a position: its exact distance `N` (at most `max_n`), the first move unique among the
/// optimal ones, and the line with every step where the optimal move is unique.
pub fn prove(solver: &mut RaceSolver, solo: Solo, max_n: u32) -> Verdict {
    let max_n = max_n.min(MAX_N);
    // One pass at threshold `max_n` first: a position farther from home is dropped without
    // searching the deeper thresholds its exact distance would need.
    match solver.reaches_within(solo.pieces, solo.goal, solo.lock, max_n) {
        None => return Verdict::Undecided,
        Some(false) => return Verdict::OutOfRange(max_n + 1),
        Some(true) => {}
    }
    let d = solver.distance_to(solo.pieces, solo.goal, solo.lock);
    if !d.exact {
        return Verdict::Undecided;
    }
    let n = d.moves;
    if n == 0 || n > max_n {
        return Verdict::OutOfRange(n);
    }
    let mut s = Solved {
        n,
        line: Vec::new(),
        texts: Vec::new(),
        hops: Vec::new(),
        asked: Vec::new(),
        legal: Vec::new(),
        optimal: Vec::new(),
    };
    let mut cur = solo;
    for k in 0..n {
        let Some((best, legal)) = optimal_moves(solver, &cur, n - k) else {
            return Verdict::Undecided;
        };
        let Some(&(mv, child)) = best.first() else {
            // The distance is exact, so some move keeps it: only a budget cut reaches here.
            return Verdict::Undecided;
        };
        if k == 0 && best.len() != 1 {
            return Verdict::NotUnique(best.len());
        }
        if best.len() == 1 {
            s.asked.push(k as usize);
        }
        let (text, hops) = cur.move_text(mv);
        s.line.push(mv);
        s.texts.push(text);
        s.hops.push(hops);
        s.legal.push(legal);
        s.optimal.push(best.len());
        cur = cur.with(child);
    }
    if cur.pieces & !cur.goal != 0 {
        return Verdict::Undecided;
    }
    Verdict::Unique(s)
}

/// The goal text of a puzzle of `n` moves.
pub fn goal_text(n: u32) -> String {
    format!(
        "home in {n} move{}, moving alone",
        if n == 1 { "" } else { "s" }
    )
}

/// The side text of player `p` (0-based): `player 1` ... `player 6`.
pub fn side_text(p: usize) -> String {
    format!("player {}", p + 1)
}

/// The themes and the rating estimate of a proven puzzle.
///
/// Themes: `home-in-N`; `every-step` when every step is asked, else `some-steps`; `hop-chain`
/// when the first move hops two or more times, `long-hop` when some asked move hops three or
/// more times; `stragglers` when at most two pieces are outside the goal; `only-move` when the
/// first position has a single legal move (never, in practice).
///
/// Rating = 800 + 120 × (N − 1) + 5 × (legal first moves − 20) + 40 × (asked steps − 1)
/// + 100 for a first move of three or more hops, clamped to 600..=2600.
pub fn themes_and_rating(solo: &Solo, s: &Solved) -> (Vec<String>, f64) {
    let mut themes = vec![format!("home-in-{}", s.n)];
    themes.push(if s.asked.len() == s.n as usize {
        "every-step".into()
    } else {
        "some-steps".into()
    });
    if s.hops.first().is_some_and(|&h| h >= 2) {
        themes.push("hop-chain".into());
    }
    if s.asked.iter().any(|&k| s.hops[k] >= 3) {
        themes.push("long-hop".into());
    }
    if solo.outside() <= 2 {
        themes.push("stragglers".into());
    }
    if s.legal.first() == Some(&1) {
        themes.push("only-move".into());
    }
    let legal = s.legal.first().copied().unwrap_or(0) as f64;
    let mut r = 800.0
        + 120.0 * (f64::from(s.n) - 1.0)
        + 5.0 * (legal - 20.0)
        + 40.0 * (s.asked.len() as f64 - 1.0);
    if s.hops.first().is_some_and(|&h| h >= 3) {
        r += 100.0;
    }
    (themes, r.clamp(600.0, 2600.0))
}

/// The proof's words for a proven puzzle.
fn proof_detail(s: &Solved) -> String {
    let steps: Vec<String> = s
        .asked
        .iter()
        .map(|&k| format!("{} (1 of {} legal)", k, s.legal[k]))
        .collect();
    format!(
        "IDA* with the row-relaxation bound (the race solver): home in {} moves and not in {}; the only move keeping the distance at steps {}; every step of the line optimal",
        s.n,
        s.n - 1,
        steps.join(", ")
    )
}

/// The puzzle record of a proven position.
pub fn record(id: String, pos: &Position, s: &Solved, source: Source) -> PuzzleRecord {
    let solo = Solo::of(pos);
    let (themes, rating) = themes_and_rating(&solo, s);
    PuzzleRecord {
        id,
        game: GAME.into(),
        variant: None,
        position: pos.to_text(),
        goal: Some(goal_text(s.n)),
        side: side_text(pos.to_move()),
        solution: s.texts.clone(),
        asked: s.asked.clone(),
        themes,
        rating: Rating::estimate(rating),
        source,
        proof: Proof::Exact {
            by: "solver".into(),
            detail: proof_detail(s),
        },
    }
}

/// The key under which a puzzle's position is kept once: the player's pieces in the solver's
/// frame (goal at the bottom), up to the mirror; the position text when it does not parse.
pub fn position_key(p: &PuzzleRecord) -> String {
    match Position::from_text(&p.position) {
        Ok(pos) => {
            let solo = Solo::of(&pos);
            format!("{:032x}{}", solo.key(), if solo.lock { "l" } else { "" })
        }
        Err(_) => p.position.clone(),
    }
}

/// The options of a mining run (everything that changes the puzzles).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MineOptions {
    /// The run's seed: game `i` uses `Rng::derive(seed, i)`.
    pub seed: u64,
    /// The players of the self-play games (both seats).
    pub player: PlayerKind,
    /// Their level (1-10).
    pub level: u32,
    /// Random plies at the start of each game: uniformly 0..=R.
    pub random_plies: u32,
    /// The longest puzzle kept, in moves (1..=[`MAX_N`]).
    pub max_n: u32,
    /// The fewest pieces outside the goal a puzzle may have.
    pub min_out: u32,
    /// Search nodes per search before a position is given up.
    pub budget: u64,
}

impl MineOptions {
    /// The run's manifest (the first line of `FILE.games`).
    pub fn manifest(&self) -> String {
        format!(
            "qiyi puzzles mine chinese-checkers: seed {} player {} level {} random_plies {} max_n {} min_out {} budget {} players 2",
            self.seed, self.player, self.level, self.random_plies, self.max_n, self.min_out, self.budget
        )
    }
}

/// Counts from mining games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MineStats {
    /// Games played.
    pub games: u64,
    /// Positions proven (enough pieces out, row bound within `max_n`): the candidates.
    pub candidates: u64,
    /// Candidates kept.
    pub passed: u64,
    /// Candidates with several optimal first moves.
    pub not_unique: u64,
    /// Candidates farther from home than `max_n`.
    pub too_far: u64,
    /// Candidates whose search ran out of its budget.
    pub undecided: u64,
    /// Search nodes.
    pub nodes: u64,
}

impl MineStats {
    /// Adds another count.
    pub fn add(&mut self, o: &MineStats) {
        self.games += o.games;
        self.candidates += o.candidates;
        self.passed += o.passed;
        self.not_unique += o.not_unique;
        self.too_far += o.too_far;
        self.undecided += o.undecided;
        self.nodes += o.nodes;
    }
}

/// Mines game `index` of a run: a seeded two-player game (random plies from
/// `Rng::derive(seed, index)`, then `opts.player` in both seats, each seeded from the same
/// stream), every candidate position proven.
pub fn mine_game(opts: &MineOptions, index: u64) -> (Vec<PuzzleRecord>, MineStats) {
    let mut stats = MineStats {
        games: 1,
        ..Default::default()
    };
    let mut out = Vec::new();
    let Ok(mut pos) = Position::start(Options::default()) else {
        return (out, stats);
    };
    let mut rng = Rng::derive(opts.seed, index);
    let random = rng.below(opts.random_plies as usize + 1) as u32;
    let mut players = [
        Player::new(opts.player, opts.level, rng.next_u64()),
        Player::new(opts.player, opts.level, rng.next_u64()),
    ];
    let mut solver = RaceSolver::new(opts.budget);
    let mut moves = Vec::new();
    while !pos.is_over() {
        let ply = pos.ply();
        let solo = Solo::of(&pos);
        if ply >= random
            && solo.outside() >= opts.min_out.max(1)
            && RaceSolver::lower_bound(&pos, pos.to_move()) <= opts.max_n
        {
            stats.candidates += 1;
            let before = solver.nodes;
            let v = prove(&mut solver, solo, opts.max_n);
            stats.nodes += solver.nodes - before;
            match v {
                Verdict::Unique(s) => {
                    stats.passed += 1;
                    let source = Source::SelfPlay {
                        seed: opts.seed,
                        game: index,
                        ply,
                    };
                    let id = format!("cc-{}-{index}-{ply}", opts.seed);
                    out.push(record(id, &pos, &s, source));
                }
                Verdict::NotUnique(_) => stats.not_unique += 1,
                Verdict::OutOfRange(_) => stats.too_far += 1,
                Verdict::Undecided => stats.undecided += 1,
            }
        }
        let mv = if ply < random {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            moves[rng.below(moves.len())]
        } else {
            players[pos.to_move() % 2].choose(&pos)
        };
        pos.make(mv);
    }
    (out, stats)
}

/// Why a Chinese checkers puzzle failed its check.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The puzzle is for another game.
    #[error("not a chinese-checkers puzzle (game `{0}`)")]
    WrongGame(String),
    /// The position does not parse.
    #[error("position: {0}")]
    Position(crate::error::Error),
    /// The side named is not the player to move.
    #[error("side `{found}` is not the player to move ({want})")]
    WrongSide {
        /// The side in the puzzle.
        found: String,
        /// The player to move.
        want: String,
    },
    /// The solution's length is not a puzzle length.
    #[error("a solution of {0} moves is not a puzzle of 1..={MAX_N} moves")]
    Length(usize),
    /// The goal does not say the solution's length.
    #[error("goal {found:?} does not match the solution ({want:?})")]
    Goal {
        /// The goal in the puzzle.
        found: Option<String>,
        /// The goal the solution implies.
        want: String,
    },
    /// A move of the solution is not legal.
    #[error("move {index} `{text}` is not a legal move of the pieces")]
    Illegal {
        /// Its index.
        index: usize,
        /// Its text.
        text: String,
    },
    /// The line does not end with every piece home.
    #[error("the line ends with {0} pieces outside the goal")]
    NotHome(u32),
    /// The pieces are not exactly the solution's length from home.
    #[error("the pieces are {found} moves from home, not {want}")]
    Distance {
        /// The exact distance found (or its bound).
        found: String,
        /// The solution's length.
        want: u32,
    },
    /// A move of the line is not optimal.
    #[error("move {index} `{text}` is not optimal")]
    NotOptimal {
        /// Its index.
        index: usize,
        /// Its text.
        text: String,
    },
    /// The asked steps are not the steps where the optimal move is unique.
    #[error(
        "asked {found:?}, but the optimal move is unique at steps {want:?} (step 0 must be one)"
    )]
    Asked {
        /// The asked steps in the puzzle.
        found: Vec<usize>,
        /// The steps where the optimal move is unique.
        want: Vec<usize>,
    },
    /// The search ran out of its budget.
    #[error("the search ran out of its budget of {0} nodes")]
    Budget(u64),
}

/// Proves a puzzle again, trusting nothing in it: reads the position, checks the side, the
/// goal and the length, replays every move (each a legal move of the pieces alone) to every
/// piece home, proves the distance exactly `N` with a fresh solver, every move of the line
/// optimal, and `asked` exactly the steps where the optimal move is unique (step 0 among them).
pub fn check_puzzle(p: &PuzzleRecord, budget: u64) -> Result<(), CheckError> {
    if p.game != GAME {
        return Err(CheckError::WrongGame(p.game.clone()));
    }
    let pos = Position::from_text(&p.position).map_err(CheckError::Position)?;
    let want_side = side_text(pos.to_move());
    if p.side != want_side {
        return Err(CheckError::WrongSide {
            found: p.side.clone(),
            want: want_side,
        });
    }
    let n = p.solution.len();
    if n == 0 || n > MAX_N as usize {
        return Err(CheckError::Length(n));
    }
    let n = n as u32;
    if p.goal.as_deref() != Some(goal_text(n).as_str()) {
        return Err(CheckError::Goal {
            found: p.goal.clone(),
            want: goal_text(n),
        });
    }
    let mut solver = RaceSolver::new(budget);
    let start = Solo::of(&pos);
    let d = solver.distance_to(start.pieces, start.goal, start.lock);
    if !d.exact {
        return Err(CheckError::Budget(budget));
    }
    if d.moves != n {
        return Err(CheckError::Distance {
            found: d.to_string(),
            want: n,
        });
    }
    let mut cur = start;
    let mut unique = Vec::new();
    for (k, text) in p.solution.iter().enumerate() {
        let legal = cur.moves();
        let Some(&(mv, child)) = legal.iter().find(|(mv, _)| cur.move_text(*mv).0 == *text) else {
            return Err(CheckError::Illegal {
                index: k,
                text: text.clone(),
            });
        };
        let left = n - k as u32;
        let (best, _) = optimal_moves(&mut solver, &cur, left).ok_or(CheckError::Budget(budget))?;
        if !best.iter().any(|&(m, _)| m == mv) {
            return Err(CheckError::NotOptimal {
                index: k,
                text: text.clone(),
            });
        }
        if best.len() == 1 {
            unique.push(k);
        }
        cur = cur.with(child);
    }
    if cur.outside() != 0 {
        return Err(CheckError::NotHome(cur.outside()));
    }
    if p.asked != unique || unique.first() != Some(&0) {
        return Err(CheckError::Asked {
            found: p.asked.clone(),
            want: unique,
        });
    }
    Ok(())
}

/// The hole names of a set of pieces (for messages and tests).
pub fn holes(pieces: u128) -> Vec<String> {
    Bits(pieces).map(|c: Cell| cell_name(c)).collect()
}

/// A position of a two-player game (player 1 to move, whose goal is the top point) with player
/// 1's pieces on `mine` and player 2's on `theirs` (hole names); for tests and hand-made puzzles.
pub fn position_with(mine: &[&str], theirs: &[&str]) -> Result<Position, crate::error::Error> {
    let g = geometry();
    let mut owner = vec!['.'; g.coords.len()];
    for (names, mark) in [(mine, '1'), (theirs, '2')] {
        for name in names {
            let c = crate::notation::parse_cell(name)?;
            owner[c as usize] = mark;
        }
    }
    let rows: Vec<String> = crate::board::ROW_LEN
        .iter()
        .enumerate()
        .map(|(r, &len)| {
            let start = g.row_start[r] as usize;
            owner[start..start + len as usize].iter().collect()
        })
        .collect();
    Position::from_text(&format!("2 10 s 200 1 0 {}", rows.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::puzzles::read_puzzles;

    /// The top point's holes (player 1's goal), tip first.
    const TOP: [&str; 10] = ["a1", "b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3", "d4"];

    /// A plain breadth-first search over the pieces alone (no bound, no solver code): the
    /// distance home, capped at `cap` (None beyond).
    fn bfs_distance(solo: Solo, cap: u32) -> Option<u32> {
        use std::collections::HashSet;
        let mut layer = vec![solo.pieces];
        let mut seen: HashSet<u128> = layer.iter().copied().collect();
        for d in 0..=cap {
            if layer.iter().any(|&s| s & !solo.goal == 0) {
                return Some(d);
            }
            let mut next = Vec::new();
            for &s in &layer {
                for (_, c) in solo.with(s).moves() {
                    if seen.insert(c) {
                        next.push(c);
                    }
                }
            }
            layer = next;
        }
        None
    }

    fn solved(pos: &Position) -> Verdict {
        prove(&mut RaceSolver::new(5_000_000), Solo::of(pos), MAX_N)
    }

    /// Nine pieces home, the tip a1 empty and a straggler on e5: the straggler cannot reach a1,
    /// but c1 can hop into it (c1:a1) and the straggler then hops into c1 (e5:c1): home in 2.
    fn hand_made() -> Position {
        let mine = ["b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3", "d4", "e5"];
        position_with(&mine, &["q1"]).expect("a valid position")
    }

    #[test]
    fn a_hand_made_position_is_proven_and_agrees_with_a_plain_search() {
        let pos = hand_made();
        let solo = Solo::of(&pos);
        let Verdict::Unique(s) = solved(&pos) else {
            panic!("not a puzzle: {:?}", solved(&pos));
        };
        assert_eq!(Some(s.n), bfs_distance(solo, 6));
        // Independently: exactly one first move keeps the plain distance.
        let keep: Vec<Move> = solo
            .moves()
            .into_iter()
            .filter(|&(_, c)| bfs_distance(solo.with(c), s.n - 1) == Some(s.n - 1))
            .map(|(m, _)| m)
            .collect();
        assert_eq!(keep, vec![s.line[0]]);
        let p = record(
            "t".into(),
            &pos,
            &s,
            Source::Enumeration {
                by: "hand".into(),
                index: 0,
            },
        );
        check_puzzle(&p, 5_000_000).expect("the hand-made puzzle checks");
    }

    #[test]
    fn a_position_with_two_optimal_first_moves_is_rejected() {
        // Two stragglers placed symmetrically about the axis (d1 and d4 empty): a move and its
        // mirror image are both optimal.
        let mut mine: Vec<&str> = TOP[..6].to_vec();
        mine.extend(["d2", "d3", "e5", "e9"]);
        let pos = position_with(&mine, &["q1"]).expect("a valid position");
        match solved(&pos) {
            Verdict::NotUnique(k) => assert!(k >= 2),
            v => panic!("expected several optimal first moves, got {v:?}"),
        }
    }

    fn hand_puzzle() -> PuzzleRecord {
        let pos = hand_made();
        let Verdict::Unique(s) = solved(&pos) else {
            panic!("not a puzzle")
        };
        record(
            "t".into(),
            &pos,
            &s,
            Source::Enumeration {
                by: "hand".into(),
                index: 0,
            },
        )
    }

    #[test]
    fn tampered_puzzles_fail() {
        let good = hand_puzzle();
        check_puzzle(&good, 5_000_000).expect("good");
        let mut p = good.clone();
        p.game = "checkers".into();
        assert!(matches!(
            check_puzzle(&p, 5_000_000),
            Err(CheckError::WrongGame(_))
        ));
        let mut p = good.clone();
        p.side = "player 2".into();
        assert!(matches!(
            check_puzzle(&p, 5_000_000),
            Err(CheckError::WrongSide { .. })
        ));
        let mut p = good.clone();
        p.solution[0] = "q1-p1".into();
        assert!(check_puzzle(&p, 5_000_000).is_err());
        let mut p = good.clone();
        p.position = p.position.replace("2 10 s", "2 10 x");
        assert!(matches!(
            check_puzzle(&p, 5_000_000),
            Err(CheckError::Position(_))
        ));
        // Another first move: a legal but slower one.
        let pos = Position::from_text(&good.position).expect("parses");
        let solo = Solo::of(&pos);
        let s = match solved(&pos) {
            Verdict::Unique(s) => s,
            _ => unreachable!(),
        };
        let other = solo
            .moves()
            .into_iter()
            .find(|&(m, _)| m != s.line[0])
            .expect("another move");
        let mut p = good.clone();
        p.solution[0] = solo.move_text(other.0).0;
        assert!(check_puzzle(&p, 5_000_000).is_err());
        // A longer goal with a move added or dropped.
        let mut p = good.clone();
        p.solution.pop();
        p.goal = Some(goal_text(p.solution.len().max(1) as u32));
        assert!(check_puzzle(&p, 5_000_000).is_err());
        let mut p = good.clone();
        p.goal = Some(goal_text(s.n + 1));
        assert!(matches!(
            check_puzzle(&p, 5_000_000),
            Err(CheckError::Goal { .. })
        ));
        // The straggler moved one hole on: the line no longer fits.
        let mine = ["b1", "b2", "c1", "c2", "c3", "d1", "d2", "d3", "d4", "e6"];
        let mut p = good.clone();
        p.position = position_with(&mine, &["q1"]).expect("valid").to_text();
        assert!(check_puzzle(&p, 5_000_000).is_err());
        // An asked step dropped from a puzzle asking every step.
        let mut p = good.clone();
        p.asked = vec![0];
        assert!(matches!(
            check_puzzle(&p, 5_000_000),
            Err(CheckError::Asked { .. })
        ));
    }

    #[test]
    fn mined_games_give_puzzles_that_check() {
        // Game 1 of seed 1 (the shipped run's options) gives four puzzles.
        let opts = MineOptions {
            seed: 1,
            player: PlayerKind::Race,
            level: 6,
            random_plies: 6,
            max_n: 8,
            min_out: 2,
            budget: 2_000_000,
        };
        let (all, st) = mine_game(&opts, 1);
        assert_eq!(st.passed as usize, all.len());
        assert!(!all.is_empty(), "game 1 gave no puzzle");
        for p in &all {
            check_puzzle(p, 5_000_000).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            let pos = Position::from_text(&p.position).expect("parses");
            let solo = Solo::of(&pos);
            let n = p.solution.len() as u32;
            if n <= 3 {
                assert_eq!(bfs_distance(solo, n), Some(n), "{}", p.id);
            }
        }
        // The same seed gives the same puzzles.
        assert_eq!(mine_game(&opts, 1).0, all);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Checking never panics, whatever the position and moves say.
        #[test]
        fn checking_mangled_puzzles_never_panics(
            cut in 0usize..200,
            junk in ".{0,8}",
            moves in proptest::collection::vec("[a-q][0-9]{1,2}([-:][a-q][0-9]{1,2}){0,3}|.{0,6}", 0..8),
            asked in proptest::collection::vec(0usize..10, 0..4),
        ) {
            let good = hand_puzzle();
            let mut p = good.clone();
            let mut text = good.position.clone();
            let at = cut.min(text.len());
            if text.is_char_boundary(at) {
                text.insert_str(at, &junk);
            }
            p.position = text;
            let _ = check_puzzle(&p, 20_000);
            let mut q = good.clone();
            q.solution = moves;
            q.asked = asked;
            let _ = check_puzzle(&q, 20_000);
        }
    }

    /// The shipped set (`crates/chinese-checkers/puzzles/chinese-checkers.jsonl`): a sample
    /// proven again, and each of its first moves confirmed by the plain search.
    #[test]
    fn a_sample_of_the_shipped_set_is_proven_again() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/puzzles/chinese-checkers.jsonl"
        );
        let Ok(file) = std::fs::File::open(path) else {
            panic!("{path} is missing");
        };
        let all = read_puzzles(std::io::BufReader::new(file)).expect("the shipped file reads");
        assert!(all.len() >= 200, "only {} shipped puzzles", all.len());
        let step = all.len() / 30;
        for p in all.iter().step_by(step.max(1)) {
            check_puzzle(p, 20_000_000).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            let pos = Position::from_text(&p.position).expect("parses");
            let solo = Solo::of(&pos);
            let n = p.solution.len() as u32;
            if n <= 3 {
                assert_eq!(bfs_distance(solo, n), Some(n), "{}", p.id);
            }
        }
    }
}
