//! A peg-solitaire problem (board, start, finish) and everything that can be asked about it:
//! one solution, the reachable positions, the fewest moves, the number of solutions, and the
//! classification of every single-vacancy start.

use crate::bits::Bits;
use crate::board::{Board, Jump};
use crate::error::PegError;
use crate::pagoda::{find_pagoda, Pagoda};
use crate::solver::beam::{beam_search, BeamScore};
use crate::solver::dfs::{endgame_table, Dfs, DfsOutcome};
use crate::solver::layers::{count_paths, explore, good_layers, Layer, LayerCount};
use crate::solver::minmoves::min_moves;
use crate::solver::tables::Tables;
use std::sync::Arc;

/// Where the last peg must end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finish {
    /// In this hole.
    Hole(usize),
    /// Anywhere.
    Any,
}

/// A board, a start position and where the last peg must be.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The board.
    pub board: Arc<Board>,
    /// The starting pegs.
    pub start: u128,
    /// Where one peg must remain.
    pub finish: Finish,
}

/// A progress report from a long computation: a stage name, the step reached, the number of steps
/// expected and the size of the current step (positions in the layer or frontier).
pub type Progress<'a> = &'a mut dyn FnMut(&str, usize, usize, usize);

/// The result of [`Problem::solve`].
#[derive(Clone, Debug)]
pub struct Solve {
    /// The solution's jumps, or `None`.
    pub jumps: Option<Vec<Jump>>,
    /// True when the search proved there is no solution (class argument or exhaustive search).
    pub proved_impossible: bool,
    /// Why it is impossible, when the position class or a pagoda function says so (without
    /// either, `proved_impossible` means the exhaustive search found no finish).
    pub class_reason: Option<String>,
    /// Positions the depth-first search expanded.
    pub nodes: u64,
}

/// The result of [`Problem::count`].
#[derive(Clone, Debug, serde::Serialize)]
pub struct Count {
    /// Distinct reachable positions, symmetric images counted once.
    pub positions: u64,
    /// Distinct reachable positions, every image counted.
    pub positions_full: u64,
    /// The same counts per number of pegs (from the start down).
    pub layers: Vec<LayerCount>,
}

/// The result of [`Problem::min_moves`].
#[derive(Clone, Debug)]
pub struct MinMovesResult {
    /// The fewest moves, `None` when no finish exists.
    pub moves: Option<usize>,
    /// A shortest solution, one chain of jumps per move.
    pub solution: Vec<Vec<Jump>>,
    /// Positions that are reachable and can still finish (the search space of the proof).
    pub good_positions: u64,
    /// Positions settled at each move count.
    pub frontier_sizes: Vec<usize>,
}

/// The classification of one single-vacancy start.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StartClass {
    /// The empty hole at the start.
    pub start: String,
    /// The position class of the start (bit `k` = parity on invariant `k`).
    pub class: u32,
    /// Holes where one last peg has been reached (a solution was found).
    pub finishes: Vec<String>,
    /// Holes of the right class where the search gave up (undecided).
    pub undecided: Vec<String>,
    /// Holes of the right class proven impossible by exhaustive search.
    pub impossible_by_search: Vec<String>,
    /// Holes of the right class proven impossible by a pagoda function.
    pub impossible_by_pagoda: Vec<String>,
    /// Number of holes ruled out by the position class alone.
    pub ruled_out_by_class: usize,
    /// Why no peg can remain alone, when that is proven (`None` when solvable or undecided).
    pub reason: Option<String>,
}

impl StartClass {
    /// True when the start's fate is known: solvable, or proven impossible.
    pub fn decided(&self) -> bool {
        self.solvable() || self.reason.is_some()
    }
}

impl StartClass {
    /// True when one peg can remain.
    pub fn solvable(&self) -> bool {
        !self.finishes.is_empty()
    }
}

fn single(mask: u128) -> Option<usize> {
    (mask.count_ones() == 1).then(|| mask.trailing_zeros() as usize)
}

impl Problem {
    /// The problem on `board` starting from `start` (a hole name: every hole full but that one;
    /// default: the board's picture, i.e. the centre empty for built-in boards) and finishing in
    /// `finish` (a hole name or `any`; default: the start hole when the position class allows it,
    /// otherwise anywhere).
    pub fn new(
        board: Board,
        start: Option<&str>,
        finish: Option<&str>,
    ) -> Result<Problem, PegError> {
        let board = Arc::new(board);
        let start = match start {
            Some(h) => board.full() & !(1u128 << board.hole(h)?),
            None => board.picture_start(),
        };
        if start == 0 {
            return Err(PegError::BadRequest(
                "the start position has no pegs".into(),
            ));
        }
        let finish = match finish.map(|f| f.trim().to_ascii_lowercase()) {
            Some(f) if f == "any" => Finish::Any,
            Some(f) => Finish::Hole(board.hole(&f)?),
            None => match single(board.full() & !start) {
                Some(h) if board.class_of(start) == board.class_of(1u128 << h) => Finish::Hole(h),
                _ => Finish::Any,
            },
        };
        Ok(Problem {
            board,
            start,
            finish,
        })
    }

    /// The holes where the last peg may stand.
    pub fn finish_mask(&self) -> u128 {
        match self.finish {
            Finish::Hole(h) => 1u128 << h,
            Finish::Any => self.board.full(),
        }
    }

    /// `None` when the position class allows a finish; otherwise the explanation.
    pub fn class_obstruction(&self) -> Option<String> {
        let b = &self.board;
        let c = b.class_of(self.start);
        let mut ok = Vec::new();
        let mut m = self.finish_mask();
        while m != 0 {
            let h = m.trailing_zeros() as usize;
            m &= m - 1;
            if b.class_of(1u128 << h) == c {
                ok.push(h);
            }
        }
        if !ok.is_empty() {
            return None;
        }
        let wanted = match self.finish {
            Finish::Hole(h) => format!(
                "one peg in {} has class {:0w$b}",
                b.hole_name(h),
                b.class_of(1u128 << h),
                w = b.class_masks().len()
            ),
            Finish::Any => "no single peg anywhere on the board has that class".to_string(),
        };
        Some(format!(
            "the start has position class {:0w$b} (parities of the pegs on the {} rule-of-three invariants), jumps never change it, and {wanted}",
            c,
            b.class_masks().len(),
            w = b.class_masks().len()
        ))
    }

    /// Symmetries that fix the allowed finish holes (the dead-position memo may merge their images).
    pub fn goal_group(&self) -> Vec<usize> {
        self.board.stabilizer(self.finish_mask())
    }

    /// Symmetries that fix both the start and the finish holes.
    pub fn path_group(&self) -> Vec<usize> {
        let s = self.board.stabilizer(self.start);
        self.goal_group()
            .into_iter()
            .filter(|g| s.contains(g))
            .collect()
    }

    /// Finds one solution by depth-first search (at most `budget` positions expanded).
    pub fn solve(&self, budget: u64) -> Solve {
        if let Some(reason) = self.class_obstruction() {
            return Solve {
                jumps: None,
                proved_impossible: true,
                class_reason: Some(reason),
                nodes: 0,
            };
        }
        let (outcome, nodes, pagoda) = if self.board.len() <= 64 {
            self.dfs::<u64>(budget)
        } else {
            self.dfs::<u128>(budget)
        };
        let jumps = self.board.jumps();
        if let Some(p) = pagoda {
            return Solve {
                jumps: None,
                proved_impossible: true,
                class_reason: Some(p.explain(&self.board)),
                nodes,
            };
        }
        match outcome {
            DfsOutcome::Found(p) => Solve {
                jumps: Some(p.iter().map(|&i| jumps[i as usize]).collect()),
                proved_impossible: false,
                class_reason: None,
                nodes,
            },
            DfsOutcome::Impossible => Solve {
                jumps: None,
                proved_impossible: true,
                class_reason: None,
                nodes,
            },
            DfsOutcome::GaveUp => Solve {
                jumps: None,
                proved_impossible: false,
                class_reason: None,
                nodes,
            },
        }
    }

    fn dfs<B: Bits>(&self, budget: u64) -> (DfsOutcome, u64, Option<Pagoda>) {
        let t = Tables::<B>::new(&self.board, &self.goal_group());
        let finish = t.to_internal(self.finish_mask());
        let start = t.to_internal(self.start);
        // 1. A quick plain search (enough for the English board and most small problems).
        let quick = budget.min(200_000);
        let mut dfs = Dfs::new(&t, finish, quick);
        let out = dfs.solve(start);
        if out != DfsOutcome::GaveUp || quick == budget {
            return (out, dfs.nodes, None);
        }
        let mut spent = dfs.nodes;
        // An endgame table of up to ~200k positions (never past half the pegs).
        let endgame = endgame_table(&t, finish, 200_000, self.start.count_ones() / 2);
        // 2. Beam searches of growing width, each charged width x pegs positions of the budget:
        // not exhaustive, but they find hard solutions quickly (French c1 -> e1 at width 160k).
        let pegs = self.start.count_ones() as u64;
        for width in [10_000usize, 40_000, 160_000] {
            let cost = width as u64 * pegs;
            if spent + cost > budget {
                break;
            }
            if let Some(js) = beam_search(&t, start, finish, width, &endgame, |_, _| {}) {
                return (DfsOutcome::Found(js), spent + cost, None);
            }
            spent += cost;
        }
        if spent >= budget {
            return (DfsOutcome::GaveUp, spent, None);
        }
        // 3. A pagoda function, when one separates the start from a single-hole finish, proves
        // impossibility without searching.
        if let Finish::Hole(h) = self.finish {
            if let Some(p) = find_pagoda(&self.board, self.start, 1u128 << h) {
                return (DfsOutcome::Impossible, spent, Some(p));
            }
        }
        // 4. The exhaustive search with the endgame table, trying first the jumps that remove
        // the peg farthest from the finish (clearing the outskirts early: on Wiegleb's board
        // this finds the centre game in ~40M positions instead of ~150M in board order).
        let score = BeamScore::new(&t, finish);
        let mut order: Vec<u16> = (0..t.jumps.len() as u16).collect();
        order.sort_by_key(|&i| {
            let j = &t.jumps[i as usize];
            let over = (j.need ^ B::bit(j.from as usize)).lowest() as usize;
            std::cmp::Reverse(score.weight(over))
        });
        let (k, table) = endgame;
        let mut dfs = Dfs::new(&t, finish, budget - spent)
            .with_endgame(k, table)
            .with_order(order);
        let out = dfs.solve(start);
        (out, spent + dfs.nodes, None)
    }

    /// Counts every position reachable from the start, per number of pegs.
    ///
    /// `positions` counts positions equal under the board's symmetry group once; `positions_full`
    /// counts every position. When the start is not symmetric under the whole group, a second
    /// exploration under the start's own symmetries gives the full count.
    pub fn count(&self, progress: Progress) -> Count {
        if self.board.len() <= 64 {
            self.count_in::<u64>(progress)
        } else {
            self.count_in::<u128>(progress)
        }
    }

    fn count_in<B: Bits>(&self, progress: Progress) -> Count {
        let all: Vec<usize> = (0..self.board.symmetries().len()).collect();
        let own = self.board.stabilizer(self.start);
        let steps = self.start.count_ones() as usize;
        let t = Tables::<B>::new(&self.board, &all);
        let start = t.to_internal(self.start);
        let (mut layers, _) = explore(&t, start, false, |k, l| {
            progress("count", k, steps, l.len())
        });
        if own.len() != all.len() {
            let t2 = Tables::<B>::new(&self.board, &own);
            let (full, _) = explore(&t2, t2.to_internal(self.start), false, |k, l| {
                progress("count (full)", k, steps, l.len())
            });
            for (a, b) in layers.iter_mut().zip(full) {
                a.positions_full = b.positions_full;
            }
        }
        Count {
            positions: layers.iter().map(|l| l.positions).sum(),
            positions_full: layers.iter().map(|l| l.positions_full).sum(),
            layers,
        }
    }

    fn good<B: Bits>(&self, t: &Tables<B>, progress: Progress) -> Vec<Layer<B>> {
        let steps = self.start.count_ones() as usize;
        let (_, layers) = explore(t, t.to_internal(self.start), true, |k, l| {
            progress("explore", k, steps, l.len())
        });
        let finish = t.to_internal(self.finish_mask());
        good_layers(t, &layers, move |s| s & finish != B::ZERO)
    }

    /// The fewest moves (a chain of jumps by one peg is one move), a shortest solution and the
    /// exhaustive search that proves nothing shorter exists.
    pub fn min_moves(&self, progress: Progress) -> MinMovesResult {
        if self.board.len() <= 64 {
            self.min_moves_in::<u64>(progress)
        } else {
            self.min_moves_in::<u128>(progress)
        }
    }

    fn min_moves_in<B: Bits>(&self, progress: Progress) -> MinMovesResult {
        let t = Tables::<B>::new(&self.board, &self.path_group());
        let good = self.good(&t, &mut *progress);
        let good_positions = good.iter().map(|l| l.len() as u64).sum();
        let steps = self.start.count_ones() as usize;
        let r = min_moves(&t, t.to_internal(self.start), &good, |d, n| {
            progress("moves", d, steps, n)
        });
        let jumps = self.board.jumps();
        MinMovesResult {
            moves: r.moves,
            solution: r
                .solution
                .iter()
                .map(|m| m.iter().map(|&i| jumps[i as usize]).collect())
                .collect(),
            good_positions,
            frontier_sizes: r.frontier_sizes,
        }
    }

    /// The number of distinct jump sequences from the start to a one-peg finish.
    pub fn count_solutions(&self, progress: Progress) -> u128 {
        if self.board.len() <= 64 {
            self.count_solutions_in::<u64>(progress)
        } else {
            self.count_solutions_in::<u128>(progress)
        }
    }

    fn count_solutions_in<B: Bits>(&self, progress: Progress) -> u128 {
        let t = Tables::<B>::new(&self.board, &self.path_group());
        let good = self.good(&t, progress);
        count_paths(&t, &good)
    }
}

/// For every single-vacancy start: the holes where one last peg can remain.
///
/// Finishes whose position class differs from the start's are ruled out at once; the others are
/// solved with [`Problem::solve`] (depth-first and beam searches, then a pagoda-function
/// certificate, then the exhaustive search) with at most `budget` positions each. Symmetric images of a (start,
/// finish) pair and the time-reversed pair (start and finish swapped) are searched once.
pub fn classify(
    board: &Board,
    budget: u64,
    mut progress: impl FnMut(usize, usize),
) -> Vec<StartClass> {
    let board = Arc::new(board.clone());
    let n = board.len();
    let syms = board.symmetries();
    // outcome[h][f]: 0 not yet searched, 1 found, 2 impossible by search, 3 ruled out by class,
    // 4 undecided (budget exhausted), 5 impossible by a pagoda function.
    let mut outcome: Vec<Vec<u8>> = vec![vec![0; n]; n];
    // Records a result with its images: under every symmetry, and reversed in time (a solution
    // from "all but h" to "only f", played backwards on the complements, goes from "all but f"
    // to "only h").
    let record = |outcome: &mut Vec<Vec<u8>>, h: usize, f: usize, code: u8| {
        for perm in syms {
            let (h2, f2) = (perm[h] as usize, perm[f] as usize);
            outcome[h2][f2] = code;
            outcome[f2][h2] = code;
        }
    };
    for h in 0..n {
        progress(h, n);
        let start = board.full() & !(1u128 << h);
        let class = board.class_of(start);
        for (f, o) in outcome[h].iter_mut().enumerate() {
            if board.class_of(1u128 << f) != class {
                *o = 3;
            }
        }
        if (0..n).all(|f| outcome[h][f] != 0) {
            continue;
        }
        // First any finish: one search often settles one hole at once.
        let any = Problem {
            board: board.clone(),
            start,
            finish: Finish::Any,
        };
        if let Some(js) = any.solve(budget).jumps {
            if let Ok(end) = replay(&board, start, &js) {
                record(&mut outcome, h, end.trailing_zeros() as usize, 1);
            }
        }
        for f in 0..n {
            if outcome[h][f] != 0 {
                continue;
            }
            let p = Problem {
                board: board.clone(),
                start,
                finish: Finish::Hole(f),
            };
            let r = p.solve(budget);
            let code = if r.jumps.is_some() {
                1
            } else if r.proved_impossible && r.class_reason.is_some() {
                5
            } else if r.proved_impossible {
                2
            } else {
                4
            };
            record(&mut outcome, h, f, code);
        }
    }
    (0..n)
        .map(|h| {
            let names = |code: &[u8]| -> Vec<String> {
                (0..n)
                    .filter(|&f| code.contains(&outcome[h][f]))
                    .map(|f| board.hole_name(f).to_string())
                    .collect()
            };
            let class = board.class_of(board.full() & !(1u128 << h));
            let finishes = names(&[1]);
            let undecided = names(&[0, 4]);
            let ruled_out_by_class = (0..n).filter(|&f| outcome[h][f] == 3).count();
            let reason = if !finishes.is_empty() || !undecided.is_empty() {
                None
            } else if ruled_out_by_class == n {
                Some(format!(
                    "position class {class:0w$b} (parities of the pegs on the {w} rule-of-three invariants) is the class of no single peg, and jumps never change it",
                    w = board.class_masks().len()
                ))
            } else {
                Some(
                    "every finish of the right position class is proven impossible (exhaustive search or pagoda function)"
                        .to_string(),
                )
            };
            StartClass {
                start: board.hole_name(h).to_string(),
                class,
                finishes,
                undecided,
                impossible_by_search: names(&[2]),
                impossible_by_pagoda: names(&[5]),
                ruled_out_by_class,
                reason,
            }
        })
        .collect()
}

/// Runs `f` on a pool of `threads` worker threads (the parallel solvers use rayon).
pub fn with_threads<R: Send>(threads: usize, f: impl FnOnce() -> R + Send) -> R {
    match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(f),
        Err(_) => f(),
    }
}

/// A built-in board by name, or else a board picture read from the file `name`.
pub fn load_board(name: &str) -> Result<Board, PegError> {
    match Board::named(name) {
        Ok(b) => Ok(b),
        Err(PegError::UnknownBoard(n)) => match std::fs::read_to_string(&n) {
            Ok(text) => Board::from_picture(&text),
            Err(_) => Err(PegError::UnknownBoard(n)),
        },
        Err(e) => Err(e),
    }
}

/// `f4-d4`: a jump in hole names.
pub fn jump_text(board: &Board, j: &Jump) -> String {
    format!(
        "{}-{}",
        board.hole_name(j.from as usize),
        board.hole_name(j.to as usize)
    )
}

/// Groups consecutive jumps by the same peg into moves.
pub fn group_moves(jumps: &[Jump]) -> Vec<Vec<Jump>> {
    let mut out: Vec<Vec<Jump>> = Vec::new();
    for j in jumps {
        match out.last_mut() {
            Some(m) if m.last().is_some_and(|l| l.to == j.from) => m.push(*j),
            _ => out.push(vec![*j]),
        }
    }
    out
}

/// `d2-d4-f4`: a move (a chain of jumps by one peg) in hole names.
pub fn move_text(board: &Board, chain: &[Jump]) -> String {
    let mut s = String::new();
    if let Some(first) = chain.first() {
        s.push_str(board.hole_name(first.from as usize));
    }
    for j in chain {
        s.push('-');
        s.push_str(board.hole_name(j.to as usize));
    }
    s
}

/// Applies `jumps` to `start`, checking each is legal; returns the final pegs.
pub fn replay(board: &Board, start: u128, jumps: &[Jump]) -> Result<u128, PegError> {
    let mut s = start;
    for j in jumps {
        if s & j.mask() != j.need() {
            return Err(PegError::IllegalMove(jump_text(board, j)));
        }
        s ^= j.mask();
    }
    Ok(s)
}
