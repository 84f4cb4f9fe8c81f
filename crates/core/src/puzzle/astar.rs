//! A* and IDA*, guided by [`Puzzle::heuristic`].

use super::hash::FxBuildHasher;
use super::{Budget, Outcome, PuzzleLimits, PuzzleResult, PuzzleStats};
use crate::game::Puzzle;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::hash::BuildHasher;

/// A* search. With an admissible heuristic the solution is a shortest one (states are reopened
/// when a shorter path to them turns up, so consistency is not required). Among equal `f = g + h`
/// the deepest state is expanded first.
pub fn astar<P: Puzzle>(puzzle: &P, limits: &PuzzleLimits) -> PuzzleResult<P::Move> {
    astar_with_hasher::<P, FxBuildHasher>(puzzle, limits)
}

/// [`astar`] with the closed set hashed by `H` (to measure hashers against each other).
pub fn astar_with_hasher<P: Puzzle, H: BuildHasher + Default>(
    puzzle: &P,
    limits: &PuzzleLimits,
) -> PuzzleResult<P::Move> {
    struct Node<S, M> {
        state: S,
        parent: u32,
        mv: Option<M>,
        g: u32,
    }
    let mut budget = Budget::new(limits);
    let mut stats = PuzzleStats::default();
    let start = puzzle.start();
    let mut arena = vec![Node {
        state: start,
        parent: u32::MAX,
        mv: None,
        g: 0,
    }];
    // Best known g of each state.
    let mut best_g: HashMap<P::State, u32, H> = HashMap::with_hasher(H::default());
    best_g.insert(start, 0);
    // (f, g, arena index): max-heap on (-f, g).
    let mut open = BinaryHeap::new();
    open.push((Reverse(puzzle.heuristic(&start)), 0u32, 0u32));
    let mut next = Vec::new();
    let outcome = loop {
        let Some((_, g, idx)) = open.pop() else {
            break Outcome::Unsolvable;
        };
        let state = arena[idx as usize].state;
        if best_g.get(&state).is_some_and(|&b| b < g) {
            stats.pruned += 1; // a stale entry: a shorter path was found since
            continue;
        }
        if puzzle.is_goal(&state) {
            let mut moves = Vec::new();
            let mut i = idx;
            while i != u32::MAX {
                let n = &arena[i as usize];
                moves.extend(n.mv);
                i = n.parent;
            }
            moves.reverse();
            break Outcome::Solved(moves);
        }
        if budget.exhausted(stats.expanded) {
            break Outcome::LimitReached;
        }
        stats.expanded += 1;
        puzzle.successors(&state, &mut next);
        for &(mv, child) in &next {
            stats.generated += 1;
            let cg = g + 1;
            match best_g.get_mut(&child) {
                Some(b) if *b <= cg => {
                    stats.pruned += 1;
                    continue;
                }
                Some(b) => *b = cg,
                None => {
                    best_g.insert(child, cg);
                }
            }
            let child_idx = arena.len() as u32;
            arena.push(Node {
                state: child,
                parent: idx,
                mv: Some(mv),
                g: cg,
            });
            open.push((Reverse(cg + puzzle.heuristic(&child)), cg, child_idx));
        }
    };
    debug_assert!(arena.iter().all(|n| n.g < u32::MAX));
    stats.stored = best_g.len() as u64;
    stats.time = budget.start.elapsed();
    PuzzleResult { outcome, stats }
}

/// Iterative-deepening A*: depth-first searches bounded by `f = g + h`, the bound raised to the
/// smallest `f` that exceeded it, until a goal is found. Memory is the path only. The move back to
/// the previous state is skipped. With an admissible heuristic the solution is a shortest one.
pub fn ida_star<P: Puzzle>(puzzle: &P, limits: &PuzzleLimits) -> PuzzleResult<P::Move> {
    let mut search = Ida {
        puzzle,
        budget: Budget::new(limits),
        stats: PuzzleStats::default(),
        path: Vec::new(),
        states: Vec::new(),
        buffers: Vec::new(),
    };
    let start = puzzle.start();
    let mut bound = puzzle.heuristic(&start);
    let outcome = loop {
        search.stats.iterations += 1;
        search.path.clear();
        search.states.clear();
        search.states.push(start);
        match search.dfs(0, bound) {
            Step::Found => break Outcome::Solved(search.path.clone()),
            Step::Stopped => break Outcome::LimitReached,
            Step::Exceeded(u32::MAX) => break Outcome::Unsolvable,
            Step::Exceeded(next) => bound = next,
        }
    };
    search.stats.time = search.budget.start.elapsed();
    PuzzleResult {
        outcome,
        stats: search.stats,
    }
}

enum Step {
    Found,
    Stopped,
    /// Not found; the smallest f above the bound (`u32::MAX` when nothing was cut).
    Exceeded(u32),
}

struct Ida<'a, P: Puzzle> {
    puzzle: &'a P,
    budget: Budget<'a>,
    stats: PuzzleStats,
    path: Vec<P::Move>,
    /// States on the path, the start first.
    states: Vec<P::State>,
    /// One successor buffer per depth, reused across iterations.
    buffers: Vec<Vec<(P::Move, P::State)>>,
}

impl<P: Puzzle> Ida<'_, P> {
    fn dfs(&mut self, g: u32, bound: u32) -> Step {
        let state = self.states[self.states.len() - 1];
        let f = g + self.puzzle.heuristic(&state);
        if f > bound {
            return Step::Exceeded(f);
        }
        if self.puzzle.is_goal(&state) {
            return Step::Found;
        }
        if self.budget.exhausted(self.stats.expanded) {
            return Step::Stopped;
        }
        self.stats.expanded += 1;
        let depth = g as usize;
        if self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut next = std::mem::take(&mut self.buffers[depth]);
        self.puzzle.successors(&state, &mut next);
        let previous = (self.states.len() >= 2).then(|| self.states[self.states.len() - 2]);
        let mut min = u32::MAX;
        let mut result = None;
        for &(mv, child) in &next {
            self.stats.generated += 1;
            if previous == Some(child) {
                self.stats.pruned += 1;
                continue;
            }
            self.path.push(mv);
            self.states.push(child);
            match self.dfs(g + 1, bound) {
                Step::Exceeded(t) => min = min.min(t),
                found_or_stopped => {
                    result = Some(found_or_stopped);
                    break;
                }
            }
            self.path.pop();
            self.states.pop();
        }
        self.buffers[depth] = next;
        result.unwrap_or(Step::Exceeded(min))
    }
}
