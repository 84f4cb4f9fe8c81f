//! The Chinese checkers judge of a post-game review, for core's [`qiyi_core::review`], and every
//! player's **race distance**.
//!
//! # Race distance
//!
//! A player's race distance is the number of moves it needs to bring its own pieces into its goal
//! **alone**: every other piece taken off the board, the player moving every turn (the same
//! steps, hop chains and goal lock as in the game). [`RaceSolver`] computes it by IDA* with the
//! admissible row-relaxation bound of [`crate::solitaire::RowBound`] (the player's pieces turned
//! so that its goal is the bottom point, where the database is built), a table of the states met
//! in each iteration, and a node budget per position:
//!
//! - when the search finds a way home within the budget the distance is **exact** (IDA* raises
//!   its threshold one move at a time from a lower bound, so the first way found is a shortest);
//! - when the budget runs out it reports the **proven lower bound**: every threshold below the
//!   one it was searching was refuted, so no shorter way exists ([`RaceDistance::exact`] is
//!   false, and the text shows it as `>=N`).
//!
//! With 10 pieces the bound is the row database (19 at the start, whose exact distance is 27
//! moves: G. I. Bell's proof); with another number of pieces (15, or a position with fewer) it is
//! the number of pieces outside the goal. Mid-game the bound is close and the search exact
//! within the default budget; in the opening it is a bound. A move that makes the mover's own
//! race longer is flagged ([`RacePly::lengthened`]) only when that is proven: the distance before
//! is exact and the bound after is larger.
//!
//! # Values of moves
//!
//! - **Two players**: the crate's alpha-beta engine ([`crate::engine::alpha_beta_options`], the
//!   [`crate::eval::DistanceEval`] evaluation, one thread) searches each position at a fixed
//!   depth (default [`DEFAULT_DEPTH`]) for the best move and its score; the position after the
//!   move played is searched with the same limits (it is the next ply's root, so each position is
//!   searched once). The score (tenths of a hole, mover's view) becomes a win chance by the
//!   logistic `1 / (1 + exp(-k * score))` with the slope [`WIN_SLOPE`], fitted by maximum
//!   likelihood to seeded self-play (the `fit_win_slope` test, `cargo test -p
//!   qiyi-chinese-checkers --release -- --ignored fit_win_slope --nocapture`, prints the fit and
//!   its calibration table; the figures are in `docs/review.md`). A win the search proves (or a
//!   finished game) is exact. The unit is holes of distance lead (`score / 10`).
//! - **Three or more players**: the race model. Each candidate move is valued by the mover's race
//!   distance after it (the same [`RaceSolver`]); the best move is the one with the shortest race
//!   (exact before bound on ties). Every player's win chance is a softmax of `-RACE_BETA *
//!   (distance + turns before it moves / players)` ([`race_wins`]): a model of a pure race, not a
//!   search of the interaction. The unit is the mover's race distance in moves (lower is better).
//!   Only the [`RACE_CANDIDATES`] moves with the lowest bound (plus the move played) are solved.
//!
//! ```
//! use qiyi_chinese_checkers::review::{review_game, JudgeOptions};
//! use qiyi_chinese_checkers::Position;
//! use qiyi_core::Notation;
//! use qiyi_core::search::SearchLimits;
//!
//! let start = Position::default();
//! let mv = start.parse_move("n1-m5").unwrap();
//! let options = JudgeOptions { limits: SearchLimits::depth(2), ..JudgeOptions::default() };
//! let r = review_game(&start, &[mv], &options, |_, _| {}).unwrap();
//! assert_eq!(r.review.plies.len(), 1);
//! assert_eq!(r.race.plies[0].played, "n1-m5");
//! ```

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use qiyi_core::review::{self, logistic, DecisionVerdict, Judge, MoverValue, Review, ReviewError};
use qiyi_core::search::{SearchLimits, Searcher};
use qiyi_core::{Game, Notation};
use serde::{Deserialize, Serialize};

use crate::board::{bit, geometry, Bits, Cell, CELLS};
use crate::engine::alpha_beta_options;
use crate::eval::DistanceEval;
use crate::movegen;
use crate::position::{Move, Position};
use crate::rules::Options;
use crate::solitaire::{self, RowBound};

/// The slope of the logistic turning an engine score (tenths of a hole, mover's view) into a win
/// chance. Fitted by maximum likelihood to seeded self-play (see the module documentation).
pub const WIN_SLOPE: f64 = 0.02;

/// The default search depth per position for two players.
pub const DEFAULT_DEPTH: u32 = 4;

/// The deepest fixed depth a review accepts.
pub const MAX_REVIEW_DEPTH: u32 = 12;

/// The default node budget of one race-distance search.
pub const DEFAULT_RACE_NODES: u64 = 20_000;

/// Moves solved per decision by the race model (the rest are not candidates for best).
pub const RACE_CANDIDATES: usize = 8;

/// The race model's weight of one move of race distance in the softmax of win chances.
pub const RACE_BETA: f64 = 0.7;

/// A player's race distance: moves to bring its own pieces home alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaceDistance {
    /// The distance, or its proven lower bound when not `exact`.
    pub moves: u32,
    /// True when `moves` is the exact distance, false when it is a proven lower bound.
    pub exact: bool,
}

impl fmt::Display for RaceDistance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.exact {
            write!(f, "{}", self.moves)
        } else {
            write!(f, ">={}", self.moves)
        }
    }
}

/// The row database for 10 pieces heading to the bottom point, built once (about 5.3 M states).
fn bound10() -> &'static RowBound {
    static DB: OnceLock<RowBound> = OnceLock::new();
    DB.get_or_init(|| RowBound::new(10, solitaire::Board::Star.mask(), geometry().points[3]))
}

/// The six rotations of the star by multiples of 60 degrees, as hole tables.
fn rotations() -> &'static [[Cell; CELLS]; 6] {
    static ROT: OnceLock<[[Cell; CELLS]; 6]> = OnceLock::new();
    ROT.get_or_init(|| {
        let g = geometry();
        let by_coords: HashMap<(i8, i8, i8), Cell> = g
            .coords
            .iter()
            .enumerate()
            .map(|(c, &xyz)| (xyz, c as Cell))
            .collect();
        // A turn by 60 degrees in cube coordinates; the star is symmetric under it.
        let turn = |c: Cell| -> Cell {
            let (x, y, z) = g.coords[c as usize];
            by_coords.get(&(-z, -x, -y)).copied().unwrap_or(c)
        };
        let mut all = [[0 as Cell; CELLS]; 6];
        for (c, slot) in all[0].iter_mut().enumerate() {
            *slot = c as Cell;
        }
        for k in 1..6 {
            let prev = all[k - 1];
            for (slot, &p) in all[k].iter_mut().zip(prev.iter()) {
                *slot = turn(p);
            }
        }
        all
    })
}

fn rotate(state: u128, table: &[Cell; CELLS]) -> u128 {
    Bits(state).fold(0, |acc, c| acc | bit(table[c as usize]))
}

/// Computes race distances (see the module documentation), remembering every answer.
pub struct RaceSolver {
    budget: u64,
    memo: HashMap<(u128, u128, bool), RaceDistance>,
    /// Nodes expanded by every search so far.
    pub nodes: u64,
    /// Searches run (answers not found in the memo).
    pub searches: u64,
}

/// A threshold no search reaches.
const UNREACHABLE: u32 = u32::MAX / 4;

enum Dfs {
    Found,
    Over(u32),
    OutOfBudget,
}

impl RaceSolver {
    /// A solver that expands at most `budget` nodes per position.
    pub fn new(budget: u64) -> Self {
        RaceSolver {
            budget: budget.max(1),
            memo: HashMap::new(),
            nodes: 0,
            searches: 0,
        }
    }

    /// What the distances are: for the review's description.
    pub fn describe(&self) -> String {
        format!(
            "race distance: IDA* with the row-relaxation bound, exact within {} nodes per position, \
             else the proven lower bound (>=)",
            self.budget
        )
    }

    /// `player`'s pieces and goal in `pos`, turned so that the goal is the bottom point, and the
    /// goal lock.
    fn frame(pos: &Position, player: usize) -> (u128, u128, bool) {
        let goal = pos.goal(player);
        let target = if goal.count_ones() == 15 {
            geometry().points15[3]
        } else {
            geometry().points[3]
        };
        let rot = rotations()
            .iter()
            .find(|t| rotate(goal, t) == target)
            .unwrap_or(&rotations()[0]);
        (
            rotate(pos.pieces(player), rot),
            rotate(goal, rot),
            pos.options().goal_lock,
        )
    }

    /// `player`'s race distance in `pos`.
    pub fn distance(&mut self, pos: &Position, player: usize) -> RaceDistance {
        let (state, goal, lock) = Self::frame(pos, player);
        self.distance_of(state, goal, lock)
    }

    /// The admissible lower bound on `player`'s race distance in `pos` (no search).
    pub fn lower_bound(pos: &Position, player: usize) -> u32 {
        let (state, goal, _) = Self::frame(pos, player);
        Self::bound(state, goal)
    }

    /// The race distance of the pieces `state` to fill (or, with fewer pieces, stand in) `goal`,
    /// pieces in the goal kept there when `lock`.
    pub fn distance_of(&mut self, state: u128, goal: u128, lock: bool) -> RaceDistance {
        if let Some(d) = self.memo.get(&(state, goal, lock)) {
            return *d;
        }
        self.searches += 1;
        let d = self.ida(state, goal, lock);
        self.memo.insert((state, goal, lock), d);
        d
    }

    /// The pieces `state` and their `goal` turned so that the goal is the bottom point (the
    /// frame whose row database [`RaceSolver`] uses); unchanged when no turn of the star does it.
    pub fn to_frame(state: u128, goal: u128) -> (u128, u128) {
        let target = if goal.count_ones() == 15 {
            geometry().points15[3]
        } else {
            geometry().points[3]
        };
        match rotations().iter().find(|t| rotate(goal, t) == target) {
            Some(rot) => (rotate(state, rot), rotate(goal, rot)),
            None => (state, goal),
        }
    }

    /// [`RaceSolver::distance_of`] for a goal at any point (turned to the bottom first).
    pub fn distance_to(&mut self, state: u128, goal: u128, lock: bool) -> RaceDistance {
        let (s, g) = Self::to_frame(state, goal);
        self.distance_of(s, g, lock)
    }

    /// Whether the pieces `state` can fill (or stand in) `goal` in at most `limit` moves, moving
    /// alone: one depth-first pass of the same search at threshold `limit`, so `Some(false)` is a
    /// proof that no way home of `limit` moves or fewer exists. `None` when the budget ran out.
    pub fn reaches_within(
        &mut self,
        state: u128,
        goal: u128,
        lock: bool,
        limit: u32,
    ) -> Option<bool> {
        let (state, goal) = Self::to_frame(state, goal);
        if let Some(d) = self.memo.get(&(state, goal, lock)) {
            if d.exact {
                return Some(d.moves <= limit);
            }
            if d.moves > limit {
                return Some(false);
            }
        }
        if Self::bound(state, goal) > limit {
            return Some(false);
        }
        let mut left = self.budget;
        let mut seen: HashMap<u128, u32> = HashMap::new();
        let r = Self::dfs(state, 0, limit, goal, lock, &mut left, &mut seen);
        self.nodes += self.budget - left;
        match r {
            Dfs::Found => Some(true),
            Dfs::Over(_) => Some(false),
            Dfs::OutOfBudget => None,
        }
    }

    fn bound(state: u128, goal: u128) -> u32 {
        let outside = (state & !goal).count_ones();
        if state.count_ones() == 10 && goal == geometry().points[3] {
            bound10().bound(state).max(outside)
        } else {
            outside
        }
    }

    fn ida(&mut self, start: u128, goal: u128, lock: bool) -> RaceDistance {
        let mut threshold = Self::bound(start, goal);
        // The budget is per position: what is left carries over between iterations.
        let mut left = self.budget;
        let mut seen: HashMap<u128, u32> = HashMap::new();
        let answer = loop {
            seen.clear();
            match Self::dfs(start, 0, threshold, goal, lock, &mut left, &mut seen) {
                Dfs::Found => break (threshold, true),
                Dfs::OutOfBudget => break (threshold, false),
                // Nothing reaches the goal (cannot happen on the open star): keep the bound.
                Dfs::Over(next) if next >= UNREACHABLE => break (threshold, false),
                Dfs::Over(next) => threshold = next,
            }
        };
        self.nodes += self.budget - left;
        RaceDistance {
            moves: answer.0,
            exact: answer.1,
        }
    }

    fn dfs(
        state: u128,
        g: u32,
        threshold: u32,
        goal: u128,
        lock: bool,
        budget: &mut u64,
        seen: &mut HashMap<u128, u32>,
    ) -> Dfs {
        if state & !goal == 0 {
            return Dfs::Found;
        }
        let h = Self::bound(state, goal);
        if g + h > threshold {
            return Dfs::Over(g + h);
        }
        match seen.get(&state) {
            Some(&best) if best <= g => return Dfs::Over(UNREACHABLE),
            _ => {}
        }
        seen.insert(state, g);
        if *budget == 0 {
            return Dfs::OutOfBudget;
        }
        *budget -= 1;
        let mut children: Vec<(u32, u128)> = Vec::new();
        for from in Bits(state) {
            let mut dests = movegen::targets(state, from);
            if lock && goal & bit(from) != 0 {
                dests &= goal;
            }
            for to in Bits(dests) {
                let child = state ^ bit(from) ^ bit(to);
                children.push((Self::bound(child, goal), child));
            }
        }
        children.sort_unstable_by_key(|c| c.0);
        let mut next = UNREACHABLE;
        for (_, child) in children {
            match Self::dfs(child, g + 1, threshold, goal, lock, budget, seen) {
                Dfs::Found => return Dfs::Found,
                Dfs::OutOfBudget => return Dfs::OutOfBudget,
                Dfs::Over(t) => next = next.min(t),
            }
        }
        Dfs::Over(next)
    }
}

/// Every player's win chance in the race model: a softmax of `-RACE_BETA * (distance + turns
/// before the player moves / players)`, `to_move` moving first.
pub fn race_wins(distances: &[RaceDistance], to_move: usize) -> Vec<f64> {
    let n = distances.len().max(1);
    let e: Vec<f64> = distances
        .iter()
        .enumerate()
        .map(|(p, d)| {
            let wait = (p + n - to_move % n) % n;
            -RACE_BETA * (f64::from(d.moves) + wait as f64 / n as f64)
        })
        .collect();
    let top = e.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = e.iter().map(|x| (x - top).exp()).sum();
    e.iter().map(|x| (x - top).exp() / sum).collect()
}

/// How the judge works.
#[derive(Clone, Debug)]
pub struct JudgeOptions {
    /// The search limits per position (two players): a depth, a node budget or a movetime.
    pub limits: SearchLimits,
    /// The logistic slope turning scores into win chances (two players).
    pub slope: f64,
    /// The node budget of one race-distance search.
    pub race_nodes: u64,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            limits: SearchLimits::depth(DEFAULT_DEPTH),
            slope: WIN_SLOPE,
            race_nodes: DEFAULT_RACE_NODES,
        }
    }
}

impl JudgeOptions {
    /// A short description for the review's `judge` field, for a game of `players` players.
    pub fn describe(&self, players: usize) -> String {
        if players == 2 {
            let limit = match (self.limits.depth, self.limits.move_time, self.limits.nodes) {
                (_, Some(t), _) => format!("{} ms", t.as_millis()),
                (Some(d), None, _) => format!("depth {d}"),
                (None, None, Some(n)) => format!("{n} nodes"),
                (None, None, None) => "no limit".into(),
            };
            format!(
                "qiyi chinese-checkers alpha-beta ({limit}, slope {})",
                self.slope
            )
        } else {
            format!(
                "race model (each move valued by the mover's race distance, {} nodes per position; \
                 win chances a softmax of the distances, beta {RACE_BETA})",
                self.race_nodes
            )
        }
    }
}

/// Why judging failed.
#[derive(Debug, thiserror::Error)]
pub enum CcJudgeError {
    /// The limits ask for something a review cannot do.
    #[error("{0}")]
    Limits(String),
    /// The engine returned no move in a position that has moves.
    #[error("the engine found no move in {0}")]
    NoMove(String),
}

/// Refuses limits a review cannot use: none at all, or a depth beyond [`MAX_REVIEW_DEPTH`].
pub fn check_limits(limits: &SearchLimits) -> Result<(), CcJudgeError> {
    match (limits.depth, limits.move_time, limits.nodes) {
        (None, None, None) => Err(CcJudgeError::Limits(
            "a review needs a depth, a movetime or a node budget per position".into(),
        )),
        (Some(d), _, _) if d == 0 || d > MAX_REVIEW_DEPTH => Err(CcJudgeError::Limits(format!(
            "depth {d} is out of range: a review searches at depth 1-{MAX_REVIEW_DEPTH}"
        ))),
        _ => Ok(()),
    }
}

#[derive(Clone, Debug)]
struct Searched {
    score: i32,
    best: Option<Move>,
    pv: Vec<Move>,
}

/// The Chinese checkers judge: the engine for two players, the race model for more.
pub struct CcJudge {
    searcher: Searcher<Position, DistanceEval>,
    options: JudgeOptions,
    memo: HashMap<u64, Searched>,
    /// The race-distance solver (shared with the race report).
    pub race: RaceSolver,
    /// Nodes the engine searched.
    pub nodes: u64,
    /// Positions the engine searched.
    pub searches: u64,
    /// Players of the games judged (the unit depends on it).
    players: usize,
}

impl CcJudge {
    /// A judge with `options`; fails on limits a review cannot use.
    pub fn new(options: JudgeOptions) -> Result<CcJudge, CcJudgeError> {
        check_limits(&options.limits)?;
        let mut ab = alpha_beta_options();
        ab.threads = 1;
        Ok(CcJudge {
            searcher: Searcher::new(DistanceEval, ab),
            race: RaceSolver::new(options.race_nodes),
            options,
            memo: HashMap::new(),
            nodes: 0,
            searches: 0,
            players: 2,
        })
    }

    /// The same judge for a game of `players` players (it names its unit by it: `holes` of
    /// lead for two, the mover's race distance in `moves` for more).
    pub fn for_players(mut self, players: usize) -> Self {
        self.players = players;
        self
    }

    /// The engine's search of `pos` (memoised by position).
    fn search(&mut self, pos: &Position) -> Searched {
        let key = pos.hash() ^ u64::from(pos.ply()).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        if let Some(s) = self.memo.get(&key) {
            return s.clone();
        }
        let r = self.searcher.search(pos, &self.options.limits, |_| {});
        self.nodes += r.stats.nodes;
        self.searches += 1;
        let s = Searched {
            score: r.score,
            best: r.best_move,
            pv: r.pv,
        };
        self.memo.insert(key, s.clone());
        s
    }

    fn estimate(&self, score: i32) -> MoverValue {
        if qiyi_core::eval::is_mate_score(score) {
            return MoverValue {
                win: if score > 0 { 1.0 } else { 0.0 },
                unit: None,
                exact: true,
            };
        }
        MoverValue {
            win: logistic(f64::from(score), self.options.slope),
            unit: Some(f64::from(score) / 10.0),
            exact: false,
        }
    }

    /// The value of `child` (reached by `mover`'s move) for `mover`.
    fn child_value(&mut self, child: &Position, mover: usize) -> MoverValue {
        if child.is_over() {
            return MoverValue {
                win: review::result_from_returns(child)[mover],
                unit: None,
                exact: true,
            };
        }
        let s = self.search(child);
        self.estimate(-s.score)
    }

    fn two_player(
        &mut self,
        pos: &Position,
        played: Move,
        moves: &[Move],
    ) -> Result<DecisionVerdict<Move>, CcJudgeError> {
        let mover = pos.to_move();
        let root = self.search(pos);
        let root_best = root
            .best
            .filter(|m| moves.contains(m))
            .ok_or_else(|| CcJudgeError::NoMove(pos.to_text()))?;
        let after_best = pos.after(root_best);
        let root_val = if after_best.is_over() {
            self.child_value(&after_best, mover)
        } else {
            self.estimate(root.score)
        };
        let (best, line, best_val, played_val) = if played == root_best {
            (root_best, root.pv, root_val, root_val)
        } else {
            let pv = self.child_value(&pos.after(played), mover);
            if pv.win > root_val.win {
                // Searched one ply deeper, the move played is better than the root's choice.
                let child = pos.after(played);
                let mut line = vec![played];
                if !child.is_over() {
                    line.extend(self.search(&child).pv);
                }
                (played, line, pv, pv)
            } else {
                (root_best, root.pv, root_val, pv)
            }
        };
        Ok(DecisionVerdict::two_player(
            mover, best, line, best_val, played_val,
        ))
    }

    /// Every player's race distance in `pos`.
    pub fn distances(&mut self, pos: &Position) -> Vec<RaceDistance> {
        (0..pos.num_players())
            .map(|p| self.race.distance(pos, p))
            .collect()
    }

    fn race_decision(
        &mut self,
        pos: &Position,
        played: Move,
        moves: &[Move],
    ) -> Result<DecisionVerdict<Move>, CcJudgeError> {
        let mover = pos.to_move();
        // Candidates: the moves with the lowest bound after them, and the move played.
        let mut ranked: Vec<(u32, i32, Move)> = moves
            .iter()
            .map(|&m| {
                let after = pos.after(m);
                let b = crate::engine::race_badness(
                    after.pieces(mover),
                    after.goal_tip(mover) as usize,
                );
                (RaceSolver::lower_bound(&after, mover), b, m)
            })
            .collect();
        ranked.sort_by_key(|r| (r.0, r.1));
        let mut candidates: Vec<Move> = ranked.iter().take(RACE_CANDIDATES).map(|r| r.2).collect();
        if !candidates.contains(&played) {
            candidates.push(played);
        }
        let value = |judge: &mut CcJudge, m: Move| -> (Vec<f64>, RaceDistance, bool) {
            let after = pos.after(m);
            if after.is_over() {
                let d = judge.race.distance(&after, mover);
                return (review::result_from_returns(&after), d, true);
            }
            let d = judge.distances(&after);
            (race_wins(&d, after.to_move()), d[mover], false)
        };
        let mut best: Option<(Move, Vec<f64>, RaceDistance, bool)> = None;
        let mut played_v = None;
        for &m in &candidates {
            let (w, d, over) = value(self, m);
            if m == played {
                played_v = Some((w.clone(), d, over));
            }
            let better = match &best {
                None => true,
                Some((_, bw, bd, _)) => {
                    w[mover] > bw[mover] + 1e-12
                        || ((w[mover] - bw[mover]).abs() <= 1e-12
                            && (d.moves, !d.exact) < (bd.moves, !bd.exact))
                }
            };
            if better {
                best = Some((m, w, d, over));
            }
        }
        let (best_m, best_w, best_d, best_over) =
            best.ok_or_else(|| CcJudgeError::NoMove(pos.to_text()))?;
        let (played_w, played_d, played_over) =
            played_v.ok_or_else(|| CcJudgeError::NoMove(pos.to_text()))?;
        let (best_m, best_w, best_d) = if played_w[mover] >= best_w[mover] - 1e-12 {
            (played, played_w.clone(), played_d)
        } else {
            (best_m, best_w, best_d)
        };
        Ok(DecisionVerdict {
            best: best_m,
            line: vec![best_m],
            before: best_w.clone(),
            after_played: played_w,
            after_best: best_w,
            unit_before: Some(f64::from(best_d.moves)),
            unit_after_played: Some(f64::from(played_d.moves)),
            unit_after_best: Some(f64::from(best_d.moves)),
            exact: best_over && played_over,
            only_move: false,
            unknown: false,
        })
    }
}

impl Judge<Position> for CcJudge {
    type Error = CcJudgeError;

    fn unit(&self) -> &'static str {
        if self.players > 2 {
            "moves"
        } else {
            "holes"
        }
    }

    fn decision(
        &mut self,
        pos: &Position,
        played: Move,
    ) -> Result<DecisionVerdict<Move>, CcJudgeError> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        self.players = pos.num_players();
        if pos.num_players() == 2 {
            self.two_player(pos, played, &moves)
        } else {
            self.race_decision(pos, played, &moves)
        }
    }
}

/// One ply of the race report: the mover's race distance before and after its move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RacePly {
    /// 0-based ply.
    pub ply: usize,
    /// The player who moved.
    pub mover: usize,
    /// The move, in the crate's notation.
    pub played: String,
    /// The mover's race distance before the move.
    pub before: RaceDistance,
    /// The mover's race distance after it.
    pub after: RaceDistance,
    /// `after.moves - before.moves` (a good racing move is -1).
    pub change: i64,
    /// Proven: the move made the mover's own race longer (the distance before is exact and the
    /// bound after is larger).
    pub lengthened: bool,
    /// Every player's race distance after the move.
    pub all_after: Vec<RaceDistance>,
}

/// Every player's race distance over a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RaceReport {
    /// How the distances were computed (exact within a budget, else a proven bound).
    pub method: String,
    /// Every player's race distance at the start.
    pub start: Vec<RaceDistance>,
    /// Every ply.
    pub plies: Vec<RacePly>,
}

/// The review of a Chinese checkers game: core's review and the race report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CcReview {
    /// Core's review (values, classes, accuracy).
    #[serde(flatten)]
    pub review: Review,
    /// Every player's race distance before and after each move.
    pub race: RaceReport,
}

/// Every player's race distance before and after each move of the game from `start`.
pub fn race_report(
    start: &Position,
    moves: &[Move],
    solver: &mut RaceSolver,
) -> Result<RaceReport, ReviewError<CcJudgeError>> {
    let n = start.num_players();
    let mut pos = start.clone();
    let first: Vec<RaceDistance> = (0..n).map(|p| solver.distance(&pos, p)).collect();
    let mut now = first.clone();
    let mut plies = Vec::with_capacity(moves.len());
    let mut legal = Vec::new();
    for (ply, &mv) in moves.iter().enumerate() {
        if pos.is_over() {
            return Err(ReviewError::AfterEnd { ply });
        }
        pos.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(ReviewError::Illegal {
                ply,
                text: pos.move_to_text(mv),
            });
        }
        let mover = pos.to_move();
        let played = pos.move_to_text(mv);
        pos.make(mv);
        let before = now[mover];
        let after = solver.distance(&pos, mover);
        now[mover] = after;
        plies.push(RacePly {
            ply,
            mover,
            played,
            before,
            after,
            change: i64::from(after.moves) - i64::from(before.moves),
            lengthened: before.exact && after.moves > before.moves,
            all_after: now.clone(),
        });
    }
    Ok(RaceReport {
        method: solver.describe(),
        start: first,
        plies,
    })
}

/// Reviews the game from `start` through `moves` with a fresh judge of `options`: core's review
/// and the race report; `progress` sees `(plies done, plies)`.
pub fn review_game(
    start: &Position,
    moves: &[Move],
    options: &JudgeOptions,
    mut progress: impl FnMut(usize, usize),
) -> Result<CcReview, ReviewError<CcJudgeError>> {
    let mut judge = CcJudge::new(options.clone())
        .map_err(|source| ReviewError::Judge { ply: 0, source })?
        .for_players(start.num_players());
    let review = review::review(
        "chinese-checkers",
        &options.describe(start.num_players()),
        start,
        moves,
        &mut judge,
        |p, m| p.move_to_text(m),
        &mut progress,
    )?;
    let race = race_report(start, moves, &mut judge.race)?;
    Ok(CcReview { review, race })
}

/// A Chinese checkers game to review, read by [`read_record`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReviewRecord {
    /// The start position.
    pub start: Position,
    /// The moves, each legal in turn.
    pub moves: Vec<Move>,
}

/// Why a record could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// Not a JSON record of this game, or a bad start or rules.
    #[error(transparent)]
    Json(#[from] qiyi_core::json_record::RecordError),
    /// A move does not read or is illegal.
    #[error("move {ply} ({text}): {reason}")]
    Move {
        /// 1-based move number.
        ply: usize,
        /// The move's text.
        text: String,
        /// Why.
        reason: crate::Error,
    },
    /// A move comes after the end of the game.
    #[error("move {ply} ({text}): the game was already over")]
    AfterEnd {
        /// 1-based move number.
        ply: usize,
        /// The move's text.
        text: String,
    },
}

/// Reads a game to review: the JSON record the server exports (`qiyi games export`:
/// `{"game": "chinese-checkers", "rules": {"players": N, "anti_spoil": bool}, "position": text or
/// null, "moves": [{"text": ..}, ..]}`), a JSON object of your own with the same fields (moves as
/// texts or objects), or a bare JSON list of move texts (two players, default rules).
pub fn read_record(text: &str) -> Result<ReviewRecord, RecordError> {
    use qiyi_core::json_record::{self, RecordError as E};
    let v = json_record::parse(text)?;
    let record = json_record::read(&v, &["chinese-checkers", "chinese_checkers"])?;
    let start = match record.str("position") {
        Some(p) => {
            Position::from_text(p).map_err(|e| E::Bad(format!("bad position {p:?}: {e}")))?
        }
        None => {
            let rules = record.get("rules");
            let players = match rules.and_then(|r| r.get("players")) {
                None | Some(serde_json::Value::Null) => 2,
                Some(x) => x
                    .as_u64()
                    .ok_or_else(|| E::Bad("rules.players is not a number".into()))?
                    as usize,
            };
            let mut options = Options::players(players).map_err(|e| E::Bad(e.to_string()))?;
            match rules.and_then(|r| r.get("anti_spoil")) {
                None | Some(serde_json::Value::Null) => {}
                Some(x) => {
                    options.anti_spoil = x
                        .as_bool()
                        .ok_or_else(|| E::Bad("rules.anti_spoil is not true or false".into()))?
                }
            }
            Position::start(options).map_err(|e| E::Bad(e.to_string()))?
        }
    };
    let mut pos = start.clone();
    let mut moves = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        let t = json_record::move_entry(i, m)?.text;
        if pos.is_over() {
            return Err(RecordError::AfterEnd {
                ply: i + 1,
                text: t.to_string(),
            });
        }
        let mv = pos.parse_move(t).map_err(|reason| RecordError::Move {
            ply: i + 1,
            text: t.to_string(),
            reason,
        })?;
        moves.push(mv);
        pos.make(mv);
    }
    Ok(ReviewRecord { start, moves })
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::Rng;
    use std::collections::HashSet;

    /// The exact race distance by breadth-first search over the pieces alone (the oracle).
    fn bfs_distance(start: u128, goal: u128, max: u32) -> Option<u32> {
        let mut seen = HashSet::new();
        seen.insert(start);
        let mut layer = vec![start];
        for d in 0..=max {
            if layer.iter().any(|&s| s & !goal == 0) {
                return Some(d);
            }
            let mut next = Vec::new();
            for &s in &layer {
                for from in Bits(s) {
                    for to in Bits(movegen::targets(s, from)) {
                        let c = s ^ bit(from) ^ bit(to);
                        if seen.insert(c) {
                            next.push(c);
                        }
                    }
                }
            }
            layer = next;
        }
        None
    }

    /// The goal with a few random moves of the pieces alone played out of it.
    fn near_goal(rng: &mut Rng, walk: usize) -> u128 {
        let mut s = geometry().points[3];
        for _ in 0..walk {
            let mut options = Vec::new();
            for from in Bits(s) {
                for to in Bits(movegen::targets(s, from)) {
                    options.push(s ^ bit(from) ^ bit(to));
                }
            }
            s = options[rng.below(options.len())];
        }
        s
    }

    #[test]
    fn race_distance_agrees_with_breadth_first_search_near_the_goal() {
        let goal = geometry().points[3];
        let mut rng = Rng::new(7);
        let mut solver = RaceSolver::new(DEFAULT_RACE_NODES);
        let mut nonzero = 0;
        for i in 0..40 {
            let s = near_goal(&mut rng, 1 + i % 3);
            let want = bfs_distance(s, goal, 3).expect("at most 3 moves from the goal");
            let got = solver.distance_of(s, goal, false);
            assert!(got.exact, "{got} for a state {want} moves from home");
            assert_eq!(got.moves, want, "state {s:#x}");
            nonzero += usize::from(want > 0);
        }
        assert!(nonzero > 20);
    }

    #[test]
    fn the_start_bound_is_the_solitaire_bound_for_every_seat() {
        // Every seat's start is the puzzle's start turned: the row bound there is 19 (the
        // solitaire module's figure), and a small budget cannot prove the 27 moves.
        for players in [2, 3, 4, 6] {
            let pos = Position::start(Options::players(players).expect("players")).expect("start");
            let mut solver = RaceSolver::new(2_000);
            for p in 0..players {
                assert_eq!(
                    RaceSolver::lower_bound(&pos, p),
                    19,
                    "{players} players, {p}"
                );
                let d = solver.distance(&pos, p);
                assert!(!d.exact && (19..=27).contains(&d.moves), "{d}");
            }
        }
    }

    #[test]
    fn a_bound_never_exceeds_the_exact_distance() {
        let goal = geometry().points[3];
        let mut rng = Rng::new(11);
        for i in 0..30 {
            let s = near_goal(&mut rng, 2 + i % 4);
            let exact = RaceSolver::new(u64::MAX / 2).distance_of(s, goal, false);
            assert!(exact.exact);
            let cheap = RaceSolver::new(3).distance_of(s, goal, false);
            assert!(cheap.moves <= exact.moves, "{cheap} vs {exact}");
            assert!(RaceSolver::bound(s, goal) <= exact.moves);
        }
    }

    fn random_game(players: usize, plies: usize, seed: u64) -> (Position, Vec<Move>) {
        let start = Position::start(Options::players(players).expect("players")).expect("start");
        let mut rng = Rng::new(seed);
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut buf = Vec::new();
        for _ in 0..plies {
            if pos.is_over() {
                break;
            }
            pos.legal_moves(&mut buf);
            // Mostly forward moves, so the game goes somewhere.
            let fwd: Vec<Move> = buf
                .iter()
                .copied()
                .filter(|&m| crate::eval::gain(&pos, m) > 0)
                .collect();
            let m = if !fwd.is_empty() && rng.below(4) > 0 {
                fwd[rng.below(fwd.len())]
            } else {
                buf[rng.below(buf.len())]
            };
            moves.push(m);
            pos.make(m);
        }
        (start, moves)
    }

    #[test]
    fn the_two_player_judge_agrees_with_plain_minimax() {
        let (start, moves) = random_game(2, 30, 3);
        let mut pos = start.clone();
        let options = JudgeOptions {
            limits: SearchLimits::depth(2),
            ..JudgeOptions::default()
        };
        let mut judge = CcJudge::new(options).expect("judge");
        for (i, &m) in moves.iter().enumerate() {
            if i % 5 == 0 {
                let plain = qiyi_core::search::minimax(&pos, &DistanceEval, 2);
                let v = judge.decision(&pos, m).expect("judge");
                let mover = pos.to_move();
                // The value before is the best move's: the plain search's root score, unless
                // the deeper look at the move played found it better.
                let want = logistic(f64::from(plain.score), WIN_SLOPE);
                if v.best != m || (v.before[mover] - want).abs() < 1e-9 {
                    assert!((v.before[mover] - want).abs() < 1e-9, "ply {i}: {v:?}");
                    assert_eq!(v.unit_before, Some(f64::from(plain.score) / 10.0));
                } else {
                    assert!(v.before[mover] > want);
                }
                assert!(v.after_played[mover] <= v.after_best[mover] + 1e-12);
            }
            pos.make(m);
        }
    }

    #[test]
    fn reviews_of_every_player_count_are_consistent() {
        for (players, plies) in [(2, 16), (3, 18), (6, 24)] {
            let (start, moves) = random_game(players, plies, 5);
            let options = JudgeOptions {
                limits: SearchLimits::depth(2),
                race_nodes: 2_000,
                ..JudgeOptions::default()
            };
            let r = review_game(&start, &moves, &options, |_, _| {}).expect("review");
            assert_eq!(r.review.plies.len(), moves.len());
            assert_eq!(r.race.plies.len(), moves.len());
            assert_eq!(r.review.players, players);
            for (p, q) in r.review.plies.iter().zip(&r.race.plies) {
                assert_eq!(p.played, q.played);
                assert!(p.loss >= 0.0 && p.class.is_some());
                assert_eq!(
                    q.change,
                    i64::from(q.after.moves) - i64::from(q.before.moves)
                );
                // One move shortens a race by one move at most: exact before, proven bound after.
                if q.before.exact {
                    assert!(q.after.moves + 1 >= q.before.moves, "{q:?}");
                }
                assert_eq!(
                    q.lengthened,
                    q.before.exact && q.after.moves > q.before.moves
                );
                if players > 2 {
                    // The race model's unit is the mover's race distance after the move.
                    assert_eq!(p.after_played.unit, Some(f64::from(q.after.moves)));
                }
            }
            for s in &r.review.summary {
                assert!(s.identity_error.abs() < 1e-9, "{s:?}");
            }
            let json = serde_json::to_string(&r).expect("json");
            let back: Review = serde_json::from_str(&json).expect("a Review reads the JSON");
            assert_eq!(back.plies.len(), r.review.plies.len());
            for (a, b) in back.plies.iter().zip(&r.review.plies) {
                assert_eq!((a.class, &a.played, &a.best), (b.class, &b.played, &b.best));
            }
        }
    }

    #[test]
    fn a_move_out_of_the_goal_is_flagged_as_lengthening_the_race() {
        // Player 1 (top start, bottom goal... seen from its own frame) is home but one piece;
        // stepping a home piece out lengthens its race by a proven move.
        let goal = geometry().points[3];
        let mut solver = RaceSolver::new(DEFAULT_RACE_NODES);
        let home = solver.distance_of(goal, goal, false);
        assert_eq!(
            home,
            RaceDistance {
                moves: 0,
                exact: true
            }
        );
        let mut rng = Rng::new(1);
        let out = near_goal(&mut rng, 1);
        let d = solver.distance_of(out, goal, false);
        assert_eq!(
            d,
            RaceDistance {
                moves: 1,
                exact: true
            }
        );
    }

    #[test]
    fn bad_records_and_limits_are_errors() {
        for (text, want) in [
            ("not json", "not JSON"),
            (r#"{"game": "checkers", "moves": []}"#, "checkers"),
            (
                r#"{"game": "chinese-checkers", "moves": ["z9-a1"]}"#,
                "move 1",
            ),
            (
                r#"{"game": "chinese-checkers", "moves": ["n1-n2"]}"#,
                "move 1",
            ),
            (r#"{"rules": {"players": 5}, "moves": []}"#, "5 players"),
            (r#"{"rules": {"players": "two"}, "moves": []}"#, "players"),
            (r#"{"position": "2 10 s", "moves": []}"#, "bad position"),
            (r#"{"moves": 3}"#, "moves"),
        ] {
            let e = read_record(text).expect_err(text).to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
        let ok = read_record(r#"{"game": "chinese-checkers", "rules": {"players": 3}, "moves": [{"text": "n1-m5"}]}"#)
            .expect("reads");
        assert_eq!(ok.start.num_players(), 3);
        assert_eq!(ok.moves.len(), 1);
        assert!(read_record(r#"["n1-m5", "d1-e5"]"#).is_ok());
        for d in [0, MAX_REVIEW_DEPTH + 1, 10_000] {
            assert!(check_limits(&SearchLimits::depth(d)).is_err());
        }
        assert!(check_limits(&SearchLimits::default()).is_err());
        assert!(check_limits(&SearchLimits::depth(DEFAULT_DEPTH)).is_ok());
    }

    #[test]
    #[ignore = "a calibration run, not a check: prints the fitted slope"]
    fn fit_win_slope() {
        // Seeded self-play of the review's engine at its default depth from openings of 6
        // random plies; every position's score (side to move's view) with the game's result.
        use qiyi_core::calibration::{calibration, fit_logistic, markdown};
        let games = 40;
        let mut samples = Vec::new();
        let mut searcher = Searcher::new(DistanceEval, alpha_beta_options());
        for g in 0..games {
            let (mut pos, opening) = random_game(2, 6, 1000 + g);
            for m in opening {
                pos.make(m);
            }
            let mut scored = Vec::new();
            while !pos.is_over() {
                let r = searcher.search(&pos, &SearchLimits::depth(DEFAULT_DEPTH), |_| {});
                let Some(m) = r.best_move else { break };
                if !qiyi_core::eval::is_mate_score(r.score) {
                    scored.push((pos.to_move(), f64::from(r.score)));
                }
                pos.make(m);
            }
            let result = review::result_from_returns(&pos);
            for (p, s) in scored {
                samples.push((s, result[p]));
            }
        }
        let k = fit_logistic(&samples).expect("a slope");
        let pairs: Vec<(f64, f64)> = samples.iter().map(|&(s, y)| (logistic(s, k), y)).collect();
        println!("{} positions of {games} games: slope {k:.5}", samples.len());
        println!("{}", markdown(&calibration(&pairs, 10)));
    }
}
