//! The one-player crossing puzzle: the fewest moves to bring `N` pieces (1, 3, 6 or 10, the top
//! point filled from its tip) into the same triangle at the bottom point, one player moving alone.
//!
//! # How optimality is proved
//!
//! **Lower bound.** An exact pattern database of a relaxation: forget which hole of a row a piece
//! stands on and keep only the multiset of rows. In that abstraction a piece steps one row up or
//! down, or hops two rows over *any* other piece in the row between (chains allowed), and a row
//! never holds more pieces than it has holes. Every real move projects to one abstract move (or to
//! none, when it stays in its row), so the abstract distance, computed exactly by a backward
//! breadth-first search over all row multisets, never overestimates. It subsumes the classical
//! "the leading piece advances at most one row per move" argument.
//!
//! **Search.** [`Solitaire::solve`] first finds a short solution with a beam search (an upper
//! bound `U`), then refutes every shorter length with one-pass meet-in-the-middle searches
//! ([`Solitaire::refute_up_to`], module `meet`): for a budget `B`, forward layers of states at
//! exact distance `g` from the start, keeping only states with `g + bound <= B`, meet the
//! reflections of themselves (moves are reversible and the top-bottom reflection swaps start and
//! goal, so the backward search is the forward one reflected). After layer `i` every length up
//! to `2i` is settled, so one pass settles every length up to `B` while holding only three
//! layers, stored as sorted 8-byte ranks. With the beam's `U` known, a single pass at budget
//! `U - 1` settles every shorter length (passes at lower budgets would repeat part of its work);
//! without one, budgets rise from the start bound. States are stored in canonical form under
//! the left-right mirror, which fixes start and goal. [`Solitaire::solve_bidirectional`] is the earlier
//! iterative solver (hash-set layers, one budget at a time); it reaches the same layers and is
//! kept as a cross-check and for `qiyi bench`.
//!
//! **Reach.** 1, 3 and 6 pieces are proved optimal in seconds. For 10 pieces the beam finds 27
//! moves (Levenspiel's length, proved optimal by G. I. Bell in 2009) and the row bound is 19 at
//! the start. The single budget-26 pass refutes every shorter crossing, so 27 is proved optimal
//! here too: 586 M states expanded, at most 634 M held (6.5 GB resident; the largest layer,
//! distance 12, has 234 M states), 2,215 s of user CPU on two threads (about 67 minutes of wall
//! time on a machine at load 7; the budget-25 pass alone took about 11 minutes of CPU).

mod meet;
pub use meet::{MeetLimits, MeetOutcome, MeetProgress, MeetStats, Ranker};

use crate::board::{bit, flip, geometry, mirror, Bits, Cell, CELLS, ROWS};
use crate::movegen::{hop_targets_within, ALL};
use crate::notation::{cell_name, draw};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A fast hasher for bitboard keys (the keys are not chosen by an adversary).
#[derive(Default, Clone, Copy)]
pub struct BitboardHasher(u64);

impl Hasher for BitboardHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ b as u64).wrapping_mul(0x517C_C1B7_2722_0A95);
        }
    }
    #[inline]
    fn write_u128(&mut self, v: u128) {
        let x = (v as u64) ^ ((v >> 64) as u64).rotate_left(29);
        let x = (x ^ (x >> 32)).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        self.0 = x ^ (x >> 29);
    }
}

/// A hash map keyed by bitboards.
pub type StateMap<V> = HashMap<u128, V, BuildHasherDefault<BitboardHasher>>;
/// A hash set of bitboards.
pub type StateSet = std::collections::HashSet<u128, BuildHasherDefault<BitboardHasher>>;
use qiyi_core::platform::Instant;
use std::time::Duration;

/// Which holes the pieces may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Board {
    /// The whole 121-hole star.
    Star,
    /// The 81 holes of the two-player board (the central hexagon and the top and bottom points),
    /// as in Levenspiel's and Bell's 27-move problem.
    Diamond,
}

impl Board {
    /// The holes of this board.
    pub fn mask(self) -> u128 {
        match self {
            Board::Star => ALL,
            Board::Diamond => {
                let g = geometry();
                let sides = g.points[1] | g.points[2] | g.points[4] | g.points[5];
                ALL & !sides
            }
        }
    }
}

/// Errors of the solver's inputs.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SolveError {
    /// A piece count other than 1, 3, 6 or 10.
    #[error("{0} pieces: the point triangle filled from its tip holds 1, 3, 6 or 10")]
    BadPieces(usize),
}

/// One move of a solution: the piece on `from` goes to `to` along `path`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionMove {
    /// Start hole.
    pub from: Cell,
    /// End hole.
    pub to: Cell,
    /// Every hole the piece passes through, both ends included.
    pub path: Vec<Cell>,
}

impl SolutionMove {
    /// The move in the crate's notation (`from-to` for a step, `a:b:c` for a chain).
    pub fn text(&self) -> String {
        let names: Vec<String> = self.path.iter().map(|&c| cell_name(c)).collect();
        let dist = geometry().dist[self.from as usize][self.to as usize];
        names.join(if self.path.len() == 2 && dist == 1 {
            "-"
        } else {
            ":"
        })
    }
}

/// What the search did.
#[derive(Clone, Debug, Default)]
pub struct SolveStats {
    /// States expanded by the forward search.
    pub nodes: u64,
    /// The bound of each completed IDA* iteration.
    pub iterations: Vec<u32>,
    /// The lower bound at the start.
    pub start_bound: u32,
    /// States in the backward perimeter.
    pub perimeter: usize,
    /// Wall time.
    pub time: Duration,
    /// The most states held at once by a refutation pass.
    pub peak_states: usize,
    /// The layer sizes of the last refutation pass (states at each distance from the start).
    pub layers: Vec<usize>,
}

/// Limits of the bidirectional solver (it gives up, reporting what it proved, when one is hit).
#[derive(Clone, Debug)]
pub struct SolveLimits {
    /// Largest budget (solution length) to try.
    pub max_budget: Option<u32>,
    /// Most states held in the layers of one budget (memory: about 40 bytes each).
    pub max_states: usize,
    /// Wall-clock deadline.
    pub deadline: Option<Instant>,
}

impl Default for SolveLimits {
    fn default() -> Self {
        SolveLimits {
            max_budget: None,
            max_states: 60_000_000,
            deadline: None,
        }
    }
}

/// What the solver proved when it gave up.
#[derive(Clone, Debug)]
pub struct Unsolved {
    /// Every solution has at least this many moves (all shorter budgets were refuted).
    pub proven_lower_bound: u32,
    /// States expanded.
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Which limit stopped the search.
    pub reason: String,
}

/// A proven-optimal solution.
#[derive(Clone, Debug)]
pub struct Solution {
    /// The moves, in order.
    pub moves: Vec<SolutionMove>,
    /// The states before the first move and after each move.
    pub states: Vec<u128>,
    /// Search counts.
    pub stats: SolveStats,
}

/// The result of [`Solitaire::solve`]: a verified solution and what is proved about it.
#[derive(Clone, Debug)]
pub struct Answer {
    /// The shortest solution found (replayed by [`Solitaire::verify`]).
    pub solution: Solution,
    /// Whether every shorter budget was refuted, so the solution is optimal.
    pub optimal: bool,
    /// Every solution has at least this many moves (equal to the solution's length when
    /// `optimal`).
    pub proven_lower_bound: u32,
    /// Which limit stopped the refutation, when it was stopped.
    pub gave_up: Option<String>,
}

/// The pattern database of the row relaxation (see the module documentation).
pub struct RowBound {
    pieces: usize,
    cap: [u8; ROWS],
    binom: Vec<Vec<u64>>,
    dist: Vec<u8>,
}

impl RowBound {
    /// Builds the database for `pieces` pieces on `board`, with `goal` rows as the target.
    pub fn new(pieces: usize, board: u128, goal: u128) -> Self {
        let g = geometry();
        let mut cap = [0u8; ROWS];
        for c in Bits(board) {
            cap[g.row[c as usize] as usize] += 1;
        }
        let n = ROWS + pieces;
        let mut binom = vec![vec![0u64; pieces + 2]; n + 1];
        for i in 0..=n {
            binom[i][0] = 1;
            if i > 0 {
                for k in 1..=pieces + 1 {
                    binom[i][k] = binom[i - 1][k - 1] + binom[i - 1][k];
                }
            }
        }
        let size = binom[ROWS - 1 + pieces][pieces] as usize;
        let mut rb = RowBound {
            pieces,
            cap,
            binom,
            dist: Vec::new(),
        };
        // Backward BFS from the goal's row multiset (moves are reversible), one frontier list
        // per depth, each frontier expanded in parallel.
        use rayon::prelude::*;
        let mut dist = vec![u8::MAX; size];
        let goal_rows = rb.rows_of(goal);
        let root = rb.rank(&goal_rows);
        dist[root] = 0;
        let mut frontier = vec![root as u32];
        let mut depth = 0u8;
        while !frontier.is_empty() {
            let found: Vec<Vec<u32>> = frontier
                .par_chunks(2048)
                .map(|chunk| {
                    let mut out = Vec::new();
                    let mut rows = vec![0u8; pieces];
                    for &r in chunk {
                        rb.unrank(r as usize, &mut rows);
                        let mut counts = [0u8; ROWS];
                        for &x in &rows {
                            counts[x as usize] += 1;
                        }
                        rb.for_each_neighbour(&counts, |c| {
                            let k = rb.rank_counts(c);
                            if dist[k] == u8::MAX {
                                out.push(k as u32);
                            }
                        });
                    }
                    out
                })
                .collect();
            depth += 1;
            let mut next = Vec::new();
            for k in found.into_iter().flatten() {
                if dist[k as usize] == u8::MAX {
                    dist[k as usize] = depth;
                    next.push(k);
                }
            }
            frontier = next;
        }
        rb.dist = dist;
        rb
    }

    fn rows_of(&self, state: u128) -> Vec<u8> {
        let g = geometry();
        let mut rows: Vec<u8> = Bits(state).map(|c| g.row[c as usize]).collect();
        rows.sort_unstable();
        rows
    }

    fn rank(&self, sorted_rows: &[u8]) -> usize {
        let mut r = 0u64;
        for (i, &x) in sorted_rows.iter().enumerate() {
            r += self.binom[x as usize + i][i + 1];
        }
        r as usize
    }

    fn rank_counts(&self, counts: &[u8; ROWS]) -> usize {
        let mut r = 0u64;
        let mut i = 0usize;
        for (x, &c) in counts.iter().enumerate() {
            for _ in 0..c {
                r += self.binom[x + i][i + 1];
                i += 1;
            }
        }
        r as usize
    }

    fn unrank(&self, mut rank: usize, out: &mut [u8]) {
        // Combinatorial number system: the largest c_k with C(c_k, k) <= rank, from k = n down.
        for i in (0..self.pieces).rev() {
            let k = i + 1;
            let mut c = k - 1;
            while self.binom[c + 1][k] as usize <= rank {
                c += 1;
            }
            rank -= self.binom[c][k] as usize;
            out[i] = (c - i) as u8;
        }
    }

    /// Calls `f` with the row counts after every abstract move from `counts`.
    fn for_each_neighbour(&self, counts: &[u8; ROWS], mut f: impl FnMut(&[u8; ROWS])) {
        for r in 0..ROWS {
            if counts[r] == 0 {
                continue;
            }
            let mut c = *counts;
            c[r] -= 1;
            // Reachable rows: steps, and hop chains over occupied rows (same parity).
            let mut reach = [false; ROWS];
            if r > 0 {
                reach[r - 1] = true;
            }
            if r + 1 < ROWS {
                reach[r + 1] = true;
            }
            let mut hop = [false; ROWS];
            hop[r] = true;
            let mut x = r;
            while x + 2 < ROWS && c[x + 1] > 0 {
                x += 2;
                hop[x] = true;
            }
            let mut x = r;
            while x >= 2 && c[x - 1] > 0 {
                x -= 2;
                hop[x] = true;
            }
            hop[r] = false;
            for t in 0..ROWS {
                if (reach[t] || hop[t]) && c[t] < self.cap[t] {
                    c[t] += 1;
                    f(&c);
                    c[t] -= 1;
                }
            }
        }
    }

    /// Prefix sums over the sorted rows of `counts` that give the rank after any one piece
    /// changes row in constant time ([`RowDelta::rank_after`]).
    #[inline]
    fn delta(&self, counts: &[u8; ROWS]) -> RowDelta {
        let mut d = RowDelta {
            first: [0; ROWS + 1],
            s0: [0; 11],
            s_minus: [0; 11],
            s_plus: [0; 11],
            n: self.pieces,
        };
        let mut j = 0usize;
        for (x, &c) in counts.iter().enumerate() {
            d.first[x] = j as u8;
            for _ in 0..c {
                let b = &self.binom;
                d.s0[j + 1] = d.s0[j] + b[x + j][j + 1];
                d.s_minus[j + 1] = d.s_minus[j] + if j >= 1 { b[x + j - 1][j] } else { 0 };
                d.s_plus[j + 1] = d.s_plus[j] + b[x + j + 1][j + 2];
                j += 1;
            }
        }
        d.first[ROWS] = j as u8;
        d
    }

    /// The lower bound for a state (a bitboard of the pieces).
    #[inline]
    pub fn bound(&self, state: u128) -> u32 {
        let g = geometry();
        let mut counts = [0u8; ROWS];
        for c in Bits(state) {
            counts[g.row[c as usize] as usize] += 1;
        }
        let d = self.dist[self.rank_counts(&counts)];
        if d == u8::MAX {
            u32::MAX / 4
        } else {
            d as u32
        }
    }
}

/// Prefix sums of the rank terms of one row multiset (see [`RowBound`]): for the sorted rows
/// `x_j`, `s0[k]` sums `C(x_j + j, j + 1)` over `j < k`, and `s_minus` / `s_plus` the same terms
/// with each element moved one place down / up, as happens to the elements between the old and
/// the new row of a piece that moves.
struct RowDelta {
    first: [u8; ROWS + 1],
    s0: [u64; 11],
    s_minus: [u64; 11],
    s_plus: [u64; 11],
    n: usize,
}

impl RowDelta {
    /// The rank (in [`RowBound`]'s numbering) after one piece moves from row `a` to row `b`
    /// (`a` must hold a piece).
    #[inline]
    fn rank_after(&self, binom: &[Vec<u64>], a: usize, b: usize) -> usize {
        let total = self.s0[self.n];
        let r = if a < b {
            // Remove the last piece of row a (index p); the pieces up to row b move down one
            // place; b goes in at index q - 1.
            let p = self.first[a + 1] as usize - 1;
            let q = self.first[b + 1] as usize;
            self.s0[p]
                + (self.s_minus[q] - self.s_minus[p + 1])
                + binom[b + q - 1][q]
                + (total - self.s0[q])
        } else {
            // Remove the first piece of row a (index p); b goes in at index q, the pieces from
            // q to p - 1 move up one place.
            let p = self.first[a] as usize;
            let q = self.first[b + 1] as usize;
            self.s0[q]
                + binom[b + q][q + 1]
                + (self.s_plus[p] - self.s_plus[q])
                + (total - self.s0[p + 1])
        };
        r as usize
    }
}

/// The puzzle: start, goal, board and the bound.
pub struct Solitaire {
    /// Number of pieces.
    pub pieces: usize,
    /// The holes in play.
    pub board: u128,
    /// The start state (top triangle filled from the tip).
    pub start: u128,
    /// The goal state (the same triangle at the bottom point).
    pub goal: u128,
    bound: RowBound,
    mirror_table: [u8; CELLS],
    row_masks: [u128; ROWS],
}

/// The top triangle of `n` holes filled from the tip (`n` = 1, 3, 6 or 10).
pub fn tip_triangle(n: usize) -> Result<u128, SolveError> {
    let rows = match n {
        1 => 1,
        3 => 2,
        6 => 3,
        10 => 4,
        _ => return Err(SolveError::BadPieces(n)),
    };
    let g = geometry();
    Ok((0..CELLS as u8)
        .filter(|&c| (g.row[c as usize] as usize) < rows)
        .fold(0, |acc, c| acc | bit(c)))
}

/// Maps a state through a hole permutation.
fn permute(state: u128, table: &[u8; CELLS]) -> u128 {
    Bits(state).fold(0, |acc, c| acc | bit(table[c as usize]))
}

impl Solitaire {
    /// The puzzle for `pieces` pieces on `board`.
    pub fn new(pieces: usize, board: Board) -> Result<Self, SolveError> {
        let start = tip_triangle(pieces)?;
        let mut flip_table = [0u8; CELLS];
        let mut mirror_table = [0u8; CELLS];
        for c in 0..CELLS as u8 {
            flip_table[c as usize] = flip(c);
            mirror_table[c as usize] = mirror(c);
        }
        let goal = permute(start, &flip_table);
        let board = board.mask();
        let mut row_masks = [0u128; ROWS];
        for c in Bits(board) {
            row_masks[geometry().row[c as usize] as usize] |= bit(c);
        }
        Ok(Solitaire {
            pieces,
            board,
            start,
            goal,
            bound: RowBound::new(pieces, board, goal),
            mirror_table,
            row_masks,
        })
    }

    /// The lower bound on the moves from `state` to the goal.
    pub fn lower_bound(&self, state: u128) -> u32 {
        self.bound.bound(state)
    }

    /// The state's representative under the left-right mirror.
    #[inline]
    pub fn canonical(&self, state: u128) -> u128 {
        state.min(permute(state, &self.mirror_table))
    }

    /// Every move from `state` and the state it leads to.
    pub fn successors(&self, state: u128, out: &mut Vec<(Cell, Cell, u128)>) {
        out.clear();
        let g = geometry();
        for from in Bits(state) {
            let mut dests = hop_targets_within(state, from, self.board);
            for &n in &g.neighbours[from as usize] {
                if n != crate::board::NONE && (state | !self.board) & bit(n) == 0 {
                    dests |= bit(n);
                }
            }
            for to in Bits(dests) {
                out.push((from, to, state ^ bit(from) ^ bit(to)));
            }
        }
    }

    /// Solves the puzzle: a beam search of `beam_width` states per layer finds a short solution
    /// (an upper bound `U`), then one meet-in-the-middle pass ([`Solitaire::refute_up_to`]) at
    /// budget `U - 1` refutes every shorter length (or finds the shortest solution, which is then
    /// rebuilt); without a beam solution, passes run at rising budgets from the start bound. `progress` is
    /// called while each layer is built. When the limits stop a pass, the answer keeps the beam's
    /// solution with `optimal == false` and the lower bound proven so far.
    pub fn solve(
        &self,
        limits: &SolveLimits,
        beam_width: usize,
        mut progress: impl FnMut(MeetProgress),
    ) -> Result<Answer, Unsolved> {
        let t0 = Instant::now();
        let lb = self.lower_bound(self.start);
        let loose = lb + 12;
        let beam = self
            .beam_search(loose, beam_width.max(1))
            .filter(|states| self.verify(states));
        let upper = beam.as_ref().map(|s| s.len() as u32 - 1);
        let mut max_b = upper.map_or(lb + 40, |u| u.saturating_sub(1));
        if let Some(m) = limits.max_budget {
            max_b = max_b.min(m);
        }
        let meet_limits = MeetLimits {
            max_held: limits.max_states,
            deadline: limits.deadline,
        };
        // Every length below the start bound is refuted by the bound itself.
        let mut refuted = lb.saturating_sub(1);
        let mut stats = SolveStats {
            start_bound: lb,
            ..Default::default()
        };
        let mut found = None;
        let mut gave_up = None;
        // With a known solution of `U` moves, one pass at budget `U - 1` settles every shorter
        // length at once (it finds the shortest solution if there is one); passes at lower
        // budgets would only repeat part of its work. Without one, budgets rise from the bound.
        let mut budget = if upper.is_some() { max_b.max(lb) } else { lb };
        while budget <= max_b {
            let (outcome, st, _) = self.refute_up_to(budget, &meet_limits, false, &mut progress);
            stats.nodes += st.expanded;
            stats.peak_states = stats.peak_states.max(st.peak_held);
            stats.iterations.push(budget);
            stats.layers = st.layers;
            match outcome {
                MeetOutcome::Refuted => {
                    refuted = budget;
                    budget += 1;
                }
                MeetOutcome::Found { moves } => {
                    found = Some(moves);
                    break;
                }
                MeetOutcome::Stopped {
                    refuted_up_to,
                    reason,
                } => {
                    refuted = refuted.max(refuted_up_to);
                    gave_up = Some(reason);
                    break;
                }
            }
        }
        if let Some(moves) = found {
            // Rebuild the path from the layers of a pass with that exact budget.
            let (_, st, layers) = self.refute_up_to(moves, &meet_limits, true, &mut progress);
            stats.nodes += st.expanded;
            if let Some(states) = self.rebuild(moves, &layers) {
                stats.time = t0.elapsed();
                return Ok(Answer {
                    solution: self.solution_from(states, stats),
                    optimal: true,
                    proven_lower_bound: moves,
                    gave_up: None,
                });
            }
            refuted = moves - 1;
            gave_up = Some("a limit stopped the rebuilding of the solution".to_string());
        }
        stats.time = t0.elapsed();
        if gave_up.is_none() && budget > max_b {
            gave_up = Some(format!("budget {budget} is over the limit"));
        }
        match (beam, upper) {
            (Some(states), Some(len)) => {
                let optimal = refuted + 1 >= len;
                Ok(Answer {
                    solution: self.solution_from(states, stats),
                    optimal,
                    proven_lower_bound: (refuted + 1).min(len),
                    gave_up: if optimal { None } else { gave_up },
                })
            }
            _ => Err(Unsolved {
                proven_lower_bound: refuted + 1,
                nodes: stats.nodes,
                time: t0.elapsed(),
                reason: gave_up.unwrap_or_else(|| format!("no solution within {max_b} moves")),
            }),
        }
    }

    /// Finds a proven-optimal solution by bidirectional breadth-first search with bound pruning.
    ///
    /// For budgets `B = lower bound, lower bound + 1, ...` it builds the layers `F_g` of states
    /// at exact distance `g` from the start, keeping only states with `g + bound <= B` (every
    /// state of every solution of `B` moves or fewer survives this pruning), up to depth
    /// `ceil(B / 2)`. Moves are reversible and the top-bottom reflection swaps start and goal, so
    /// the reflection of `F_b` is the set of states `b` moves from the goal: a solution of exactly
    /// `B` moves exists if and only if some state of `F_floor(B/2)` has its reflection in
    /// `F_ceil(B/2)`. Budgets are tried in increasing order, so the first meeting is optimal.
    /// `progress(budget, depth, layer size)` is called after each layer.
    pub fn solve_bidirectional(
        &self,
        limits: &SolveLimits,
        mut progress: impl FnMut(u32, u32, usize),
    ) -> Result<Solution, Unsolved> {
        let t0 = Instant::now();
        let mut stats = SolveStats {
            start_bound: self.lower_bound(self.start),
            ..Default::default()
        };
        let mut budget = stats.start_bound;
        loop {
            let give_up = |stats: &SolveStats, reason: String| Unsolved {
                proven_lower_bound: budget,
                nodes: stats.nodes,
                time: t0.elapsed(),
                reason,
            };
            if limits.max_budget.is_some_and(|m| budget > m) {
                return Err(give_up(
                    &stats,
                    format!("budget {budget} is over the limit"),
                ));
            }
            let Some((layers, nodes)) = self.layers(budget, limits, &mut progress) else {
                return Err(give_up(
                    &stats,
                    format!("a layer of the budget-{budget} search outgrew the limits"),
                ));
            };
            stats.nodes += nodes;
            stats.iterations.push(budget);
            let a = (budget / 2) as usize;
            let b = budget as usize - a;
            let meet = layers[a]
                .iter()
                .copied()
                .find(|&s| layers[b].contains(&self.canonical(self.flip_state(s))));
            if let Some(mid) = meet {
                // start -> mid from the forward layers; mid -> goal by reflecting a path from the
                // start to the reflection of mid.
                let mut first = self.walk_back(mid, a, &layers);
                first.reverse();
                let second = self.walk_back(self.flip_state(mid), b, &layers);
                let mut states = first;
                states.extend(second.iter().skip(1).map(|&t| self.flip_state(t)));
                // The walk ends on a mirror image of the goal when mid was not canonical-aligned;
                // mirror the second half if needed so the sequence is connected and ends on goal.
                let states = self.fix_orientation(states);
                stats.time = t0.elapsed();
                return Ok(self.solution_from(states, stats));
            }
            budget += 1;
        }
    }

    /// Beam search for a short solution (an upper bound, not a proof): layers of states at
    /// depth `g` with `g + bound <= budget`, each cut to the `width` states with the smallest
    /// bound (ties: the fewest rows still to travel). Returns the states of a solution of at
    /// most `budget` moves, or `None` when the beam lost every way to the goal.
    pub fn beam_search(&self, budget: u32, width: usize) -> Option<Vec<u128>> {
        use rayon::prelude::*;
        let g = geometry();
        let goal_rows: u32 = Bits(self.goal).map(|c| g.row[c as usize] as u32).sum();
        let score = |t: u128| -> u64 {
            let rows: u32 = Bits(t).map(|c| g.row[c as usize] as u32).sum();
            ((self.lower_bound(t) as u64) << 32) | goal_rows.saturating_sub(rows) as u64
        };
        // Each layer: (state, index of its parent in the previous layer).
        let mut layers: Vec<Vec<(u128, u32)>> = vec![vec![(self.start, u32::MAX)]];
        let mut seen = StateSet::default();
        seen.insert(self.canonical(self.start));
        for depth in 1..=budget {
            let prev = layers.last()?;
            let left = budget - depth;
            let found: Vec<Vec<(u64, u128, u32)>> = prev
                .par_chunks(1024)
                .enumerate()
                .map(|(k, chunk)| {
                    let mut out = Vec::new();
                    let mut buf = Vec::new();
                    for (i, &(st, _)) in chunk.iter().enumerate() {
                        self.successors(st, &mut buf);
                        for &(_, _, t) in &buf {
                            let sc = score(t);
                            if (sc >> 32) as u32 <= left {
                                out.push((sc, t, (k * 1024 + i) as u32));
                            }
                        }
                    }
                    out
                })
                .collect();
            let mut next: Vec<(u64, u128, u32)> = Vec::new();
            for (sc, t, parent) in found.into_iter().flatten() {
                if t == self.goal {
                    let mut states = vec![t];
                    let mut idx = parent;
                    for layer in layers.iter().rev() {
                        let (st, up) = layer[idx as usize];
                        states.push(st);
                        idx = up;
                    }
                    states.reverse();
                    return Some(states);
                }
                if seen.insert(self.canonical(t)) {
                    next.push((sc, t, parent));
                }
            }
            if next.len() > width {
                next.select_nth_unstable_by_key(width, |e| e.0);
                next.truncate(width);
            }
            if next.is_empty() {
                return None;
            }
            layers.push(next.into_iter().map(|(_, t, p)| (t, p)).collect());
        }
        None
    }

    fn flip_state(&self, s: u128) -> u128 {
        Bits(s).fold(0, |acc, c| acc | bit(flip(c)))
    }

    /// Builds the pruned forward layers for `budget`; returns them and the states expanded.
    fn layers(
        &self,
        budget: u32,
        limits: &SolveLimits,
        progress: &mut impl FnMut(u32, u32, usize),
    ) -> Option<(Vec<StateSet>, u64)> {
        use rayon::prelude::*;
        let depth = budget.div_ceil(2);
        let mut layers: Vec<StateSet> = Vec::new();
        let mut first = StateSet::default();
        first.insert(self.canonical(self.start));
        layers.push(first);
        let mut nodes = 0u64;
        for g in 1..=depth {
            let prev = &layers[g as usize - 1];
            let prev2 = if g >= 2 {
                Some(&layers[g as usize - 2])
            } else {
                None
            };
            let frontier: Vec<u128> = prev.iter().copied().collect();
            nodes += frontier.len() as u64;
            let found: Vec<Vec<u128>> = frontier
                .par_chunks(4096)
                .map(|chunk| {
                    let mut out = Vec::new();
                    for &s in chunk {
                        self.expand(s, budget - g, |c| {
                            if !prev.contains(&c) && !prev2.is_some_and(|p| p.contains(&c)) {
                                out.push(c);
                            }
                        });
                    }
                    out
                })
                .collect();
            let mut next = StateSet::default();
            next.reserve(found.iter().map(|v| v.len()).sum::<usize>() / 2);
            for v in found {
                next.extend(v);
            }
            progress(budget, g, next.len());
            let total: usize = layers.iter().map(|l| l.len()).sum::<usize>() + next.len();
            if total > limits.max_states || limits.deadline.is_some_and(|d| Instant::now() > d) {
                return None;
            }
            layers.push(next);
        }
        Some((layers, nodes))
    }

    /// Calls `f` with the canonical form of every successor of `s` whose bound is at most
    /// `left` (bounds and mirror images are updated incrementally; the bound depends only on the
    /// rows a move leaves and enters, so it is looked up once per pair of rows).
    #[inline]
    fn expand(&self, s: u128, left: u32, mut f: impl FnMut(u128)) {
        let g = geometry();
        let ms = permute(s, &self.mirror_table);
        let mut counts = [0u8; ROWS];
        for c in Bits(s) {
            counts[g.row[c as usize] as usize] += 1;
        }
        let delta = self.bound.delta(&counts);
        // ok[rf][rt]: whether a move from row rf to row rt keeps the bound within `left`
        // (0 unknown, 1 yes, 2 no), looked up the first time a destination needs it.
        let mut ok = [[0u8; ROWS]; ROWS];
        for from in Bits(s) {
            let rf = g.row[from as usize] as usize;
            let mut dests = hop_targets_within(s, from, self.board);
            for &n in &g.neighbours[from as usize] {
                if n != crate::board::NONE && (s | !self.board) & bit(n) == 0 {
                    dests |= bit(n);
                }
            }
            let mut keep = 0u128;
            let mut rest = dests;
            while rest != 0 {
                let rt = g.row[rest.trailing_zeros() as usize] as usize;
                let cells = self.row_masks[rt];
                rest &= !cells;
                if ok[rf][rt] == 0 {
                    let k = if rf == rt {
                        self.bound.rank_counts(&counts)
                    } else {
                        delta.rank_after(&self.bound.binom, rf, rt)
                    };
                    debug_assert_eq!(k, {
                        let mut c = counts;
                        c[rf] -= 1;
                        c[rt] += 1;
                        self.bound.rank_counts(&c)
                    });
                    let d = self.bound.dist[k] as u32;
                    ok[rf][rt] = if d <= left { 1 } else { 2 };
                }
                if ok[rf][rt] == 1 {
                    keep |= cells;
                }
            }
            let dests = dests & keep;
            let mf = bit(self.mirror_table[from as usize]);
            for to in Bits(dests) {
                let t = s ^ bit(from) ^ bit(to);
                let mt = ms ^ mf ^ bit(self.mirror_table[to as usize]);
                f(t.min(mt));
            }
        }
    }

    /// A path of actual states from `s` (at depth `d`) back to the start through the layers.
    fn walk_back(&self, s: u128, d: usize, layers: &[StateSet]) -> Vec<u128> {
        let mut out = vec![s];
        let mut cur = s;
        let mut buf = Vec::new();
        for g in (0..d).rev() {
            self.successors(cur, &mut buf);
            if let Some(&(_, _, t)) = buf
                .iter()
                .find(|&&(_, _, t)| layers[g].contains(&self.canonical(t)))
            {
                out.push(t);
                cur = t;
            }
        }
        out
    }

    /// Makes a start-to-goal sequence connected: halves that meet in mirror images are aligned.
    fn fix_orientation(&self, states: Vec<u128>) -> Vec<u128> {
        let mut out: Vec<u128> = Vec::with_capacity(states.len());
        for s in states {
            match out.last() {
                Some(&prev) if !self.adjacent(prev, s) => {
                    let m = permute(s, &self.mirror_table);
                    out.push(m);
                }
                _ => out.push(s),
            }
        }
        out
    }

    fn adjacent(&self, a: u128, b: u128) -> bool {
        let mut buf = Vec::new();
        self.successors(a, &mut buf);
        buf.iter().any(|&(_, _, t)| t == b)
    }

    fn solution_from(&self, states: Vec<u128>, stats: SolveStats) -> Solution {
        let moves = states
            .windows(2)
            .map(|w| {
                let from = Bits(w[0] & !w[1]).next().unwrap_or(0);
                let to = Bits(w[1] & !w[0]).next().unwrap_or(0);
                let path = crate::movegen::path(w[0], from, to).unwrap_or(vec![from, to]);
                SolutionMove { from, to, path }
            })
            .collect();
        Solution {
            moves,
            states,
            stats,
        }
    }

    /// Checks that `moves` is a legal sequence from the start that ends on the goal.
    pub fn verify(&self, states: &[u128]) -> bool {
        states.first() == Some(&self.start)
            && states.last() == Some(&self.goal)
            && states.windows(2).all(|w| self.adjacent(w[0], w[1]))
    }

    /// Draws a state: `o` for a piece, `.` for an empty hole in play, `+` for a goal hole.
    pub fn picture(&self, state: u128) -> String {
        draw(|c| {
            if state & bit(c) != 0 {
                'o'
            } else if self.goal & bit(c) != 0 {
                '+'
            } else if self.board & bit(c) != 0 {
                '.'
            } else {
                ' '
            }
        })
    }
}
