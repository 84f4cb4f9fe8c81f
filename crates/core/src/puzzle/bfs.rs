//! Breadth-first search and bidirectional breadth-first search.

use super::hash::{FxBuildHasher, FxHashMap};
use super::{Budget, Outcome, PuzzleLimits, PuzzleResult, PuzzleStats};
use crate::game::Puzzle;
use std::collections::HashSet;
use std::hash::BuildHasher;

/// One visited state: the state, the index of the state it was reached from and the move between.
struct Entry<S, M> {
    state: S,
    parent: u32,
    mv: Option<M>,
    depth: u32,
}

const ROOT: u32 = u32::MAX;

/// Follows parent links from `idx` back to the root; returns the moves in root-to-`idx` order.
fn path_to<S, M: Copy>(arena: &[Entry<S, M>], mut idx: u32) -> Vec<M> {
    let mut moves = Vec::new();
    while idx != ROOT {
        let e = &arena[idx as usize];
        if let Some(mv) = e.mv {
            moves.push(mv);
        }
        idx = e.parent;
    }
    moves.reverse();
    moves
}

/// Breadth-first search: a shortest solution, or proof that none exists (when the reachable
/// space is finite and fits the limits).
pub fn bfs<P: Puzzle>(puzzle: &P, limits: &PuzzleLimits) -> PuzzleResult<P::Move> {
    bfs_keyed::<P, FxBuildHasher>(puzzle, limits, |s| *s)
}

/// [`bfs`] with the visited set keyed by [`Puzzle::canonical`]: a state is skipped when a
/// symmetric image of it was reached before, at most as deep. Still a shortest solution when the
/// goal set is closed under the symmetry, with up to one state per symmetry class stored.
pub fn bfs_by_class<P: Puzzle>(puzzle: &P, limits: &PuzzleLimits) -> PuzzleResult<P::Move> {
    bfs_keyed::<P, FxBuildHasher>(puzzle, limits, |s| puzzle.canonical(s))
}

/// [`bfs`] with the visited set hashed by `H` (to measure hashers against each other).
pub fn bfs_with_hasher<P: Puzzle, H: BuildHasher + Default>(
    puzzle: &P,
    limits: &PuzzleLimits,
) -> PuzzleResult<P::Move> {
    bfs_keyed::<P, H>(puzzle, limits, |s| *s)
}

fn bfs_keyed<P: Puzzle, H: BuildHasher + Default>(
    puzzle: &P,
    limits: &PuzzleLimits,
    key: impl Fn(&P::State) -> P::State,
) -> PuzzleResult<P::Move> {
    let mut budget = Budget::new(limits);
    let mut stats = PuzzleStats::default();
    let start = puzzle.start();
    let finish = |outcome, mut stats: PuzzleStats, budget: &Budget| {
        stats.time = budget.start.elapsed();
        PuzzleResult { outcome, stats }
    };
    if puzzle.is_goal(&start) {
        return finish(Outcome::Solved(Vec::new()), stats, &budget);
    }
    // The arena is also the queue: entries are appended in breadth-first order.
    let mut arena = vec![Entry {
        state: start,
        parent: ROOT,
        mv: None,
        depth: 0,
    }];
    let mut seen: HashSet<P::State, H> = HashSet::with_hasher(H::default());
    seen.insert(key(&start));
    let mut next = Vec::new();
    let mut head = 0usize;
    while head < arena.len() {
        if budget.exhausted(stats.expanded) {
            stats.stored = seen.len() as u64;
            return finish(Outcome::LimitReached, stats, &budget);
        }
        let state = arena[head].state;
        let depth = arena[head].depth;
        stats.expanded += 1;
        puzzle.successors(&state, &mut next);
        for &(mv, child) in &next {
            stats.generated += 1;
            if !seen.insert(key(&child)) {
                stats.pruned += 1;
                continue;
            }
            arena.push(Entry {
                state: child,
                parent: head as u32,
                mv: Some(mv),
                depth: depth + 1,
            });
            if puzzle.is_goal(&child) {
                stats.stored = seen.len() as u64;
                let path = path_to(&arena, (arena.len() - 1) as u32);
                return finish(Outcome::Solved(path), stats, &budget);
            }
        }
        head += 1;
    }
    stats.stored = seen.len() as u64;
    finish(Outcome::Unsolvable, stats, &budget)
}

/// One direction of a bidirectional search.
struct Side<S, M> {
    arena: Vec<Entry<S, M>>,
    index: FxHashMap<S, u32>,
    /// The current frontier: `arena[layer_start..]`.
    layer_start: usize,
}

impl<S: Copy + Eq + std::hash::Hash, M: Copy> Side<S, M> {
    fn new(roots: &[S]) -> Self {
        let mut side = Side {
            arena: Vec::new(),
            index: FxHashMap::default(),
            layer_start: 0,
        };
        for &s in roots {
            if side.index.insert(s, side.arena.len() as u32).is_none() {
                side.arena.push(Entry {
                    state: s,
                    parent: ROOT,
                    mv: None,
                    depth: 0,
                });
            }
        }
        side
    }

    fn frontier(&self) -> usize {
        self.arena.len() - self.layer_start
    }
}

/// Bidirectional breadth-first search: layers grow alternately from the start (with
/// [`Puzzle::successors`]) and from the goals (with [`Puzzle::predecessors`] and
/// [`Puzzle::goals`]), always on the side with the smaller frontier, until they meet. Returns a
/// shortest solution. Puzzles that cannot list their goals are searched with plain [`bfs`].
pub fn bidirectional_bfs<P: Puzzle>(puzzle: &P, limits: &PuzzleLimits) -> PuzzleResult<P::Move> {
    let goals = puzzle.goals();
    if goals.is_empty() {
        return bfs(puzzle, limits);
    }
    let mut budget = Budget::new(limits);
    let mut stats = PuzzleStats::default();
    let start = puzzle.start();
    let finish = |outcome, mut stats: PuzzleStats, budget: &Budget| {
        stats.time = budget.start.elapsed();
        PuzzleResult { outcome, stats }
    };
    if puzzle.is_goal(&start) {
        return finish(Outcome::Solved(Vec::new()), stats, &budget);
    }
    let mut fwd: Side<P::State, P::Move> = Side::new(&[start]);
    let mut bwd: Side<P::State, P::Move> = Side::new(&goals);
    let mut next = Vec::new();
    loop {
        if fwd.frontier() == 0 || bwd.frontier() == 0 {
            stats.stored = (fwd.arena.len() + bwd.arena.len()) as u64;
            return finish(Outcome::Unsolvable, stats, &budget);
        }
        stats.iterations += 1;
        let forward = fwd.frontier() <= bwd.frontier();
        let (this, other) = if forward {
            (&mut fwd, &bwd)
        } else {
            (&mut bwd, &fwd)
        };
        let layer_end = this.arena.len();
        // Best meeting in this layer: (total length, index here, index on the other side).
        let mut best: Option<(u32, u32, u32)> = None;
        for i in this.layer_start..layer_end {
            if budget.exhausted(stats.expanded) {
                stats.stored = (this.arena.len() + other.arena.len()) as u64;
                return finish(Outcome::LimitReached, stats, &budget);
            }
            let state = this.arena[i].state;
            let depth = this.arena[i].depth;
            stats.expanded += 1;
            if forward {
                puzzle.successors(&state, &mut next);
            } else {
                puzzle.predecessors(&state, &mut next);
            }
            for &(mv, s) in &next {
                stats.generated += 1;
                if this.index.contains_key(&s) {
                    stats.pruned += 1;
                    continue;
                }
                let idx = this.arena.len() as u32;
                this.index.insert(s, idx);
                this.arena.push(Entry {
                    state: s,
                    parent: i as u32,
                    mv: Some(mv),
                    depth: depth + 1,
                });
                if let Some(&j) = other.index.get(&s) {
                    let total = depth + 1 + other.arena[j as usize].depth;
                    match best {
                        Some((b, _, _)) if b <= total => {}
                        _ => best = Some((total, idx, j)),
                    }
                }
            }
        }
        this.layer_start = layer_end;
        if let Some((_, here, there)) = best {
            let (fi, bi) = if forward {
                (here, there)
            } else {
                (there, here)
            };
            let mut moves = path_to(&fwd.arena, fi);
            // Backward entries point towards a goal; their moves lead from them to their parent.
            let mut idx = bi;
            while idx != ROOT {
                let e = &bwd.arena[idx as usize];
                if let Some(mv) = e.mv {
                    moves.push(mv);
                }
                idx = e.parent;
            }
            stats.stored = (fwd.arena.len() + bwd.arena.len()) as u64;
            return finish(Outcome::Solved(moves), stats, &budget);
        }
    }
}

/// The breadth-first layers of a puzzle's state space: how many states lie at each distance from
/// the start, and the states of the farthest layer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers<S> {
    /// `counts[d]`: states at distance exactly `d` from the start.
    pub counts: Vec<u64>,
    /// The states of the last layer (the farthest from the start).
    pub farthest: Vec<S>,
    /// False when a limit stopped the search before the space was exhausted.
    pub complete: bool,
    /// Counts (`iterations` is the number of layers).
    pub stats: PuzzleStats,
}

/// Explores the whole state space reachable from the start, layer by layer (goals are not
/// special). Useful to check a puzzle against published distance tables.
pub fn bfs_layers<P: Puzzle>(puzzle: &P, limits: &PuzzleLimits) -> Layers<P::State> {
    let mut budget = Budget::new(limits);
    let mut stats = PuzzleStats::default();
    let start = puzzle.start();
    let mut seen: HashSet<P::State, FxBuildHasher> = HashSet::default();
    seen.insert(start);
    let mut layer = vec![start];
    let mut counts = vec![1u64];
    let mut next_layer = Vec::new();
    let mut next = Vec::new();
    let mut complete = true;
    'search: loop {
        next_layer.clear();
        for state in &layer {
            if budget.exhausted(stats.expanded) {
                complete = false;
                break 'search;
            }
            stats.expanded += 1;
            puzzle.successors(state, &mut next);
            for &(_, child) in &next {
                stats.generated += 1;
                if seen.insert(child) {
                    next_layer.push(child);
                } else {
                    stats.pruned += 1;
                }
            }
        }
        if next_layer.is_empty() {
            break;
        }
        counts.push(next_layer.len() as u64);
        std::mem::swap(&mut layer, &mut next_layer);
    }
    stats.iterations = counts.len() as u32;
    stats.stored = seen.len() as u64;
    stats.time = budget.start.elapsed();
    Layers {
        counts,
        farthest: layer,
        complete,
        stats,
    }
}
