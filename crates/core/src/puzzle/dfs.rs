//! Depth-first search with a canonical-form (symmetry) memo that doubles as a dead-state table.

use super::hash::FxHashMap;
use super::{Budget, Outcome, PuzzleLimits, PuzzleResult, PuzzleStats};
use crate::game::Puzzle;

/// Options of [`dfs`].
#[derive(Clone, Debug)]
pub struct DfsOptions {
    /// Longest solution looked for. Puzzles with cycles need a finite bound; puzzles whose every
    /// move makes progress (peg solitaire) can use `u32::MAX`.
    pub max_depth: u32,
    /// Keep a dead-state table: every state (class) proven unable to reach a goal within the moves
    /// left is stored with that number, and met again with no more moves left it is cut at once.
    pub memo: bool,
    /// Key the table by [`Puzzle::canonical`], so a state's symmetric images share one entry.
    /// Sound when the goal set is closed under the symmetry.
    pub symmetry: bool,
    /// Cut states whose [`Puzzle::heuristic`] exceeds the moves left.
    pub use_heuristic: bool,
}

impl Default for DfsOptions {
    fn default() -> Self {
        DfsOptions {
            max_depth: u32::MAX,
            memo: true,
            symmetry: true,
            use_heuristic: false,
        }
    }
}

/// Depth-first search for any solution of at most `options.max_depth` moves (not necessarily a
/// shortest one): successors are tried in the order the puzzle lists them. `Unsolvable` means no
/// solution within the bound.
pub fn dfs<P: Puzzle>(
    puzzle: &P,
    options: &DfsOptions,
    limits: &PuzzleLimits,
) -> PuzzleResult<P::Move> {
    let mut search = Dfs {
        puzzle,
        options,
        budget: Budget::new(limits),
        stats: PuzzleStats::default(),
        dead: FxHashMap::default(),
        path: Vec::new(),
        buffers: Vec::new(),
    };
    let start = puzzle.start();
    let outcome = match search.visit(start, options.max_depth, 0) {
        Some(true) => Outcome::Solved(search.path.clone()),
        Some(false) => Outcome::Unsolvable,
        None => Outcome::LimitReached,
    };
    search.stats.stored = search.dead.len() as u64;
    search.stats.time = search.budget.start.elapsed();
    PuzzleResult {
        outcome,
        stats: search.stats,
    }
}

struct Dfs<'a, P: Puzzle> {
    puzzle: &'a P,
    options: &'a DfsOptions,
    budget: Budget<'a>,
    stats: PuzzleStats,
    /// Dead-state table: state (class) -> most moves left with which it failed.
    dead: FxHashMap<P::State, u32>,
    path: Vec<P::Move>,
    buffers: Vec<Vec<(P::Move, P::State)>>,
}

impl<P: Puzzle> Dfs<'_, P> {
    /// `Some(true)` found (the path holds it), `Some(false)` proven dead with `left` moves,
    /// `None` stopped by a limit.
    fn visit(&mut self, state: P::State, left: u32, depth: usize) -> Option<bool> {
        if self.puzzle.is_goal(&state) {
            return Some(true);
        }
        if left == 0 {
            return Some(false);
        }
        if self.options.use_heuristic && self.puzzle.heuristic(&state) > left {
            self.stats.pruned += 1;
            return Some(false);
        }
        let key = if self.options.symmetry {
            self.puzzle.canonical(&state)
        } else {
            state
        };
        if self.options.memo && self.dead.get(&key).is_some_and(|&l| l >= left) {
            self.stats.pruned += 1;
            return Some(false);
        }
        if self.budget.exhausted(self.stats.expanded) {
            return None;
        }
        self.stats.expanded += 1;
        if self.buffers.len() <= depth {
            self.buffers.push(Vec::new());
        }
        let mut next = std::mem::take(&mut self.buffers[depth]);
        self.puzzle.successors(&state, &mut next);
        let mut result = Some(false);
        for &(mv, child) in &next {
            self.stats.generated += 1;
            self.path.push(mv);
            match self.visit(child, left - 1, depth + 1) {
                Some(false) => {
                    self.path.pop();
                }
                other => {
                    result = other;
                    break;
                }
            }
        }
        self.buffers[depth] = next;
        if result == Some(false) && self.options.memo {
            let entry = self.dead.entry(key).or_insert(0);
            *entry = (*entry).max(left);
        }
        result
    }
}
