//! The peg-solitaire puzzle miner and prover, for core's [`qiyi_core::puzzles`] model.
//!
//! **The puzzle**: a position on a built-in board from which exactly one legal jump still
//! leads to a finish (one peg left, where the board's own problem wants it: the centre on the
//! English board). The player is asked for that jump; the solution line after it is shown.
//!
//! **The miner** walks random solutions: from the board's start, seeded by
//! `Rng::derive(seed, walk)`, it proves every legal jump solvable or not with the exact
//! depth-first solver ([`crate::solver::dfs`], one dead-position memo per walk), records the
//! position when exactly one jump keeps the finish (a *candidate* is a position on the walk with
//! at least two legal jumps and at least `min_pegs` pegs; it *passes* when exactly one of them
//! still finishes and every other one is proven unsolvable), and then plays a random jump among
//! those that keep the finish. Positions equal under the symmetries that fix the finish are kept
//! once. Walks run one after the other with one solver, whose dead-position memo carries over
//! (a dead position stays dead), so later walks are mostly lookups; the solver's first solution
//! does not depend on the memo (it tries jumps in board order and the memo only skips dead
//! positions), so the result depends on the options only.
//!
//! **The difficulty rule**: rating = 1000 + 50 × (pegs − 4) + 25 × (legal jumps − 2), clamped to
//! 600..=2600, with the Glicko-2 start deviation 350 and volatility 0.06. More pegs mean a longer
//! line to see; more legal jumps mean more tempting wrong ones.
//!
//! **Themes**: `only-move`; the phase by pegs left (`endgame` ≤ 8, `middlegame` ≤ 20, else
//! `opening`); `multi-jump` when the same peg jumps again right after the answer.
//!
//! **The prover** ([`check_puzzle`]) re-reads the puzzle from its text, replays the solution to a
//! finish and proves again, with a fresh solver, that the first move is the only one that still
//! finishes.
//!
//! ```
//! use qiyi_peg_solitaire::puzzles::{check_puzzle, mine, MineOptions};
//!
//! let opts = MineOptions { count: 2, ..MineOptions::new("english", 7) };
//! let (puzzles, stats) = mine(&opts, |_| {}).unwrap();
//! assert_eq!(puzzles.len(), 2);
//! assert!(stats.passed >= 2 && stats.candidates >= stats.passed);
//! for p in &puzzles {
//!     check_puzzle(p, 50_000_000).unwrap();
//! }
//! ```

/// The shipped puzzle set (`puzzles/peg-solitaire.jsonl` at this crate's root), proven by
/// `qiyi puzzles check`: what the server, the Python package and the tests embed.
pub const SHIPPED: &str = include_str!("../puzzles/peg-solitaire.jsonl");

use crate::board::Board;
use crate::error::PegError;
use crate::position::PegPosition;
use crate::problem::{jump_text, Finish, Problem};
use crate::solver::dfs::{Dfs, DfsOutcome};
use crate::solver::tables::Tables;
use qiyi_core::puzzles::{Proof, PuzzleRecord, Rating, Source};
use qiyi_core::{Game, Notation, Rng};
use std::collections::HashSet;
use std::sync::Arc;

/// The game name in puzzle files.
pub const GAME: &str = "peg-solitaire";

/// What to mine.
#[derive(Clone, Debug)]
pub struct MineOptions {
    /// A built-in board name (`english`, `french`, `triangle`, ...).
    pub board: String,
    /// The run's seed.
    pub seed: u64,
    /// How many puzzles to keep.
    pub count: usize,
    /// Fewest pegs a puzzle position may have (fewer make trivial puzzles).
    pub min_pegs: u32,
    /// Positions the solver may expand per walk before the walk gives up (the memo of earlier
    /// walks counts for nothing here, so the budget is what one walk adds).
    pub budget: u64,
    /// Walks to try at most before returning what was found.
    pub max_walks: u64,
}

impl MineOptions {
    /// Defaults: 100 puzzles, at least 6 pegs, 50 million positions per walk, at most
    /// 100 walks per puzzle asked.
    pub fn new(board: &str, seed: u64) -> Self {
        MineOptions {
            board: board.to_string(),
            seed,
            count: 100,
            min_pegs: 6,
            budget: 50_000_000,
            max_walks: 0,
        }
    }
}

/// Counts from a mining run.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct MineStats {
    /// Walks run.
    pub walks: u64,
    /// Positions on the walks with at least two legal jumps and enough pegs.
    pub candidates: u64,
    /// Candidates from which exactly one jump still finishes (proven).
    pub passed: u64,
    /// Passed positions dropped as images of one already kept.
    pub duplicates: u64,
    /// Walks cut short because the solver's budget ran out.
    pub undecided: u64,
    /// Positions the solver expanded.
    pub nodes: u64,
}

/// The verdict on a position: which legal jumps still finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exactly one jump finishes (every other is proven not to): the jump and a solution after it.
    Only {
        /// The jump (index into the board's jumps).
        jump: u16,
        /// A solution after it (jump indices).
        line: Vec<u16>,
        /// Legal jumps in the position.
        legal: usize,
    },
    /// Several jumps finish.
    Several(Vec<u16>),
    /// No jump finishes.
    None,
    /// The solver's budget ran out before every jump was decided.
    Undecided,
}

/// Why a puzzle failed its check.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The puzzle is for another game.
    #[error("not a peg-solitaire puzzle (game `{0}`)")]
    WrongGame(String),
    /// The board, position or a move cannot be read.
    #[error("{0}")]
    Peg(#[from] PegError),
    /// The puzzle has no board name.
    #[error("no variant: the board name is needed")]
    NoVariant,
    /// The position's picture is not the named board.
    #[error("the position is not a picture of the `{0}` board")]
    NotThatBoard(String),
    /// The goal text is not the board's own finish.
    #[error("goal `{found}` is not the board's finish `{want}`")]
    WrongGoal {
        /// The goal in the puzzle.
        found: String,
        /// The board's finish.
        want: String,
    },
    /// Peg puzzles ask for the first move only.
    #[error("peg puzzles ask for the first move only (asked {0:?})")]
    Asked(Vec<usize>),
    /// A move of the solution cannot be played.
    #[error("solution move {index} `{text}`: {source}")]
    Move {
        /// Its index in the solution.
        index: usize,
        /// The text.
        text: String,
        /// Why not.
        #[source]
        source: PegError,
    },
    /// The solution does not end with one peg at the finish.
    #[error("the solution ends with {pegs} pegs, not one peg at the finish")]
    NoFinish {
        /// Pegs left.
        pegs: u32,
    },
    /// Another first move also finishes.
    #[error("not unique: {0} also finishes")]
    NotUnique(String),
    /// The first move does not finish after all (another one does).
    #[error("the first move {found} is not the move that finishes ({want})")]
    WrongMove {
        /// The puzzle's first move.
        found: String,
        /// The move the solver proves.
        want: String,
    },
    /// The solver could not decide within its budget.
    #[error("the solver's budget ran out before every move was decided")]
    Undecided,
    /// No first move finishes.
    #[error("no first move finishes")]
    Unsolvable,
}

/// The board's finish (from its own problem: the start hole when the position class allows).
pub fn board_finish(board: &Board) -> Result<Finish, PegError> {
    Ok(Problem::new(board.clone(), None, None)?.finish)
}

/// The goal in words: `one peg in d4` or `one peg anywhere`.
pub fn goal_text(board: &Board, finish: Finish) -> String {
    match finish {
        Finish::Hole(h) => format!("one peg in {}", board.hole_name(h)),
        Finish::Any => "one peg anywhere".to_string(),
    }
}

fn finish_mask(board: &Board, finish: Finish) -> u128 {
    match finish {
        Finish::Hole(h) => 1u128 << h,
        Finish::Any => board.full(),
    }
}

fn legal(board: &Board, s: u128, out: &mut Vec<u16>) {
    out.clear();
    for (i, j) in board.jumps().iter().enumerate() {
        if s & j.mask() == j.need() {
            out.push(i as u16);
        }
    }
}

/// Decides every legal jump of `pegs` with `dfs` (whose memo may be shared between calls).
pub fn verdict(board: &Board, t: &Tables<u64>, dfs: &mut Dfs<'_, u64>, pegs: u128) -> Verdict {
    let mut moves = Vec::new();
    legal(board, pegs, &mut moves);
    let mut keepers: Vec<(u16, Vec<u16>)> = Vec::new();
    for &m in &moves {
        let after = pegs ^ board.jumps()[m as usize].mask();
        match dfs.solve(t.to_internal(after)) {
            DfsOutcome::Found(line) => keepers.push((m, line)),
            DfsOutcome::Impossible => {}
            DfsOutcome::GaveUp => return Verdict::Undecided,
        }
    }
    match keepers.len() {
        0 => Verdict::None,
        1 => {
            let (jump, line) = keepers.remove(0);
            Verdict::Only {
                jump,
                line,
                legal: moves.len(),
            }
        }
        _ => Verdict::Several(keepers.into_iter().map(|k| k.0).collect()),
    }
}

fn tables(board: &Board, finish: Finish) -> Result<Tables<u64>, PegError> {
    if board.len() > 64 {
        return Err(PegError::BadRequest(format!(
            "puzzles need a board of at most 64 holes ({} has {})",
            board.name(),
            board.len()
        )));
    }
    Ok(Tables::<u64>::new(
        board,
        &board.stabilizer(finish_mask(board, finish)),
    ))
}

/// The rating estimate of a puzzle (see the module docs).
pub fn rating_estimate(pegs: u32, legal: usize) -> f64 {
    let r = 1000.0 + 50.0 * (pegs as f64 - 4.0) + 25.0 * (legal as f64 - 2.0);
    r.clamp(600.0, 2600.0)
}

struct Found {
    ply: u32,
    pegs: u128,
    jump: u16,
    line: Vec<u16>,
    legal: usize,
}

#[derive(Default)]
struct WalkResult {
    found: Vec<Found>,
    candidates: u64,
    undecided: bool,
    nodes: u64,
}

fn walk(
    board: &Board,
    dfs: &mut Dfs<'_, u64>,
    t: &Tables<u64>,
    opts: &MineOptions,
    index: u64,
) -> WalkResult {
    let mut rng = Rng::derive(opts.seed, index);
    dfs.nodes = 0;
    let mut out = WalkResult::default();
    let mut s = board.picture_start();
    let mut moves = Vec::new();
    let mut ply = 0u32;
    loop {
        legal(board, s, &mut moves);
        if moves.is_empty() {
            break;
        }
        let mut keepers = Vec::new();
        for &m in &moves {
            let after = s ^ board.jumps()[m as usize].mask();
            match dfs.solve(t.to_internal(after)) {
                DfsOutcome::Found(line) => keepers.push((m, line)),
                DfsOutcome::Impossible => {}
                DfsOutcome::GaveUp => {
                    out.undecided = true;
                    break;
                }
            }
        }
        if out.undecided || keepers.is_empty() {
            break;
        }
        if moves.len() >= 2 && s.count_ones() >= opts.min_pegs {
            out.candidates += 1;
            if keepers.len() == 1 {
                let (jump, line) = keepers[0].clone();
                out.found.push(Found {
                    ply,
                    pegs: s,
                    jump,
                    line,
                    legal: moves.len(),
                });
            }
        }
        let (m, _) = &keepers[rng.below(keepers.len())];
        s ^= board.jumps()[*m as usize].mask();
        ply += 1;
    }
    out.nodes = dfs.nodes;
    out
}

fn record(board: &Board, finish: Finish, opts: &MineOptions, walk: u64, f: &Found) -> PuzzleRecord {
    let jumps = board.jumps();
    let mut solution = vec![jump_text(board, &jumps[f.jump as usize])];
    solution.extend(f.line.iter().map(|&i| jump_text(board, &jumps[i as usize])));
    let pegs = f.pegs.count_ones();
    let mut themes = vec!["only-move".to_string()];
    themes.push(
        match pegs {
            0..=8 => "endgame",
            9..=20 => "middlegame",
            _ => "opening",
        }
        .to_string(),
    );
    if let Some(&next) = f.line.first() {
        if jumps[next as usize].from == jumps[f.jump as usize].to {
            themes.push("multi-jump".to_string());
        }
    }
    PuzzleRecord {
        id: format!("peg-{}-{}-{}-{}", board.name(), opts.seed, walk, f.ply),
        game: GAME.to_string(),
        variant: Some(board.name().to_string()),
        position: board.picture(f.pegs),
        goal: Some(goal_text(board, finish)),
        side: "player".to_string(),
        solution,
        asked: vec![0],
        themes,
        rating: Rating::estimate(rating_estimate(pegs, f.legal)),
        source: Source::SelfPlay {
            seed: opts.seed,
            game: walk,
            ply: f.ply,
        },
        proof: Proof::Exact {
            by: "solver".to_string(),
            detail: format!(
                "exact depth-first search: {} finishes with {}; each of the other {} legal jumps is proven unsolvable",
                jump_text(board, &jumps[f.jump as usize]),
                goal_text(board, finish),
                f.legal - 1
            ),
        },
    }
}

/// Mines `opts.count` puzzles (fewer if `max_walks` runs out); `progress` gets the number kept
/// so far. One thread; the result depends on the options only.
pub fn mine(
    opts: &MineOptions,
    progress: impl Fn(usize) + Sync,
) -> Result<(Vec<PuzzleRecord>, MineStats), PegError> {
    let board = Board::named(&opts.board)?;
    let finish = board_finish(&board)?;
    let t = tables(&board, finish)?;
    let fin = t.to_internal(finish_mask(&board, finish));
    let group = board.stabilizer(finish_mask(&board, finish));
    let max_walks = if opts.max_walks == 0 {
        (opts.count as u64).saturating_mul(100).max(100)
    } else {
        opts.max_walks
    };
    // One solver for the whole run: its dead-position memo carries from walk to walk (a dead
    // position is dead for every walk), so later walks are mostly lookups.
    let mut dfs = Dfs::new(&t, fin, opts.budget);
    let mut stats = MineStats::default();
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut index = 0u64;
    while out.len() < opts.count && index < max_walks {
        let r = walk(&board, &mut dfs, &t, opts, index);
        stats.walks += 1;
        stats.candidates += r.candidates;
        stats.nodes += r.nodes;
        stats.undecided += r.undecided as u64;
        for f in &r.found {
            stats.passed += 1;
            if !seen.insert(board.canonical_in(&group, f.pegs)) {
                stats.duplicates += 1;
                continue;
            }
            if out.len() < opts.count {
                out.push(record(&board, finish, opts, index, f));
            }
        }
        progress(out.len());
        index += 1;
    }
    Ok((out, stats))
}

/// Replays a puzzle from its text and proves again, with a fresh solver of at most `budget`
/// positions, that its first move is the only one that still finishes.
pub fn check_puzzle(p: &PuzzleRecord, budget: u64) -> Result<(), CheckError> {
    if p.game != GAME {
        return Err(CheckError::WrongGame(p.game.clone()));
    }
    let name = p.variant.as_deref().ok_or(CheckError::NoVariant)?;
    let board = Arc::new(Board::named(name)?);
    let pic = Board::from_picture(&p.position)?;
    if pic != *board {
        return Err(CheckError::NotThatBoard(board.name().to_string()));
    }
    let pegs = pic.picture_start();
    let finish = board_finish(&board)?;
    let want = goal_text(&board, finish);
    if p.goal.as_deref() != Some(want.as_str()) {
        return Err(CheckError::WrongGoal {
            found: p.goal.clone().unwrap_or_default(),
            want,
        });
    }
    if p.asked != [0] {
        return Err(CheckError::Asked(p.asked.clone()));
    }
    let mut pos = PegPosition::new(board.clone(), pegs);
    let mut first = None;
    for (index, text) in p.solution.iter().enumerate() {
        let m = pos.parse_move(text).map_err(|source| CheckError::Move {
            index,
            text: text.clone(),
            source,
        })?;
        first.get_or_insert(m);
        pos.make(m);
    }
    let left = pos.pegs();
    if left.count_ones() != 1 || left & finish_mask(&board, finish) == 0 {
        return Err(CheckError::NoFinish {
            pegs: left.count_ones(),
        });
    }
    let t = tables(&board, finish)?;
    let mut dfs = Dfs::new(&t, t.to_internal(finish_mask(&board, finish)), budget);
    let text = |m: u16| jump_text(&board, &board.jumps()[m as usize]);
    match verdict(&board, &t, &mut dfs, pegs) {
        Verdict::Only { jump, .. } if Some(jump) == first => Ok(()),
        Verdict::Only { jump, .. } => Err(CheckError::WrongMove {
            found: p.solution[0].clone(),
            want: text(jump),
        }),
        Verdict::Several(ms) => Err(CheckError::NotUnique(
            ms.into_iter()
                .filter(|&m| Some(m) != first)
                .map(text)
                .collect::<Vec<_>>()
                .join(", "),
        )),
        Verdict::None => Err(CheckError::Unsolvable),
        Verdict::Undecided => Err(CheckError::Undecided),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// A plain depth-first search written here, apart from the solver: can `s` end with one peg
    /// in `fin`? (memo of every position seen, no symmetry).
    fn finishes(board: &Board, s: u128, fin: u128, memo: &mut HashMap<u128, bool>) -> bool {
        if s.count_ones() == 1 {
            return s & fin != 0;
        }
        if let Some(&v) = memo.get(&s) {
            return v;
        }
        let mut v = false;
        for j in board.jumps() {
            let (from, over, to) = (1u128 << j.from, 1u128 << j.over, 1u128 << j.to);
            if s & from != 0
                && s & over != 0
                && s & to == 0
                && finishes(board, s ^ from ^ over ^ to, fin, memo)
            {
                v = true;
                break;
            }
        }
        memo.insert(s, v);
        v
    }

    #[test]
    fn mined_puzzles_are_unique_by_an_independent_search() {
        let opts = MineOptions {
            count: 8,
            min_pegs: 5,
            ..MineOptions::new("english", 3)
        };
        let (puzzles, stats) = mine(&opts, |_| {}).unwrap();
        assert_eq!(puzzles.len(), 8, "{stats:?}");
        assert!(stats.candidates >= stats.passed && stats.passed >= 8);
        let board = Board::named("english").unwrap();
        let d4 = 1u128 << board.hole("d4").unwrap();
        let mut memo = HashMap::new();
        for p in &puzzles {
            let pegs = Board::from_picture(&p.position).unwrap().picture_start();
            assert!(pegs.count_ones() >= 5);
            let pos = PegPosition::new(Arc::new(board.clone()), pegs);
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            assert!(moves.len() >= 2, "{}", p.id);
            let keepers: Vec<String> = moves
                .iter()
                .filter(|&&m| finishes(&board, pos.after(m).pegs(), d4, &mut memo))
                .map(|&m| pos.move_to_text(m))
                .collect();
            assert_eq!(keepers, vec![p.solution[0].clone()], "{}", p.id);
            assert_eq!(p.solution.len() as u32, pegs.count_ones() - 1);
            assert_eq!(p.goal.as_deref(), Some("one peg in d4"));
            check_puzzle(p, 50_000_000).unwrap();
        }
    }

    #[test]
    fn mining_is_deterministic_and_the_thread_count_does_not_matter() {
        let opts = MineOptions {
            count: 4,
            ..MineOptions::new("english", 11)
        };
        let one = crate::with_threads(1, || mine(&opts, |_| {}).unwrap().0);
        let two = crate::with_threads(2, || mine(&opts, |_| {}).unwrap().0);
        assert_eq!(one, two);
        let other = mine(&MineOptions { seed: 12, ..opts }, |_| {}).unwrap().0;
        assert_ne!(one, other);
    }

    #[test]
    fn a_tampered_puzzle_fails_its_check() {
        let opts = MineOptions {
            count: 1,
            ..MineOptions::new("english", 5)
        };
        let p = mine(&opts, |_| {}).unwrap().0.remove(0);
        check_puzzle(&p, 50_000_000).unwrap();
        // Another legal first move: replaying fails or the proof names the real answer.
        let board = Arc::new(Board::named("english").unwrap());
        let pos = PegPosition::new(
            board,
            Board::from_picture(&p.position).unwrap().picture_start(),
        );
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let other = moves
            .iter()
            .map(|&m| pos.move_to_text(m))
            .find(|t| *t != p.solution[0])
            .unwrap();
        let mut bad = p.clone();
        bad.solution[0] = other;
        assert!(check_puzzle(&bad, 50_000_000).is_err());
        let mut bad = p.clone();
        bad.solution.pop();
        assert!(matches!(
            check_puzzle(&bad, 50_000_000),
            Err(CheckError::NoFinish { .. })
        ));
        let mut bad = p.clone();
        bad.game = "xiangqi".into();
        assert!(matches!(
            check_puzzle(&bad, 50_000_000),
            Err(CheckError::WrongGame(_))
        ));
        let mut bad = p.clone();
        bad.position = "o.o\n".into();
        assert!(matches!(
            check_puzzle(&bad, 50_000_000),
            Err(CheckError::NotThatBoard(_))
        ));
        let mut bad = p;
        bad.position = "x".into();
        assert!(check_puzzle(&bad, 50_000_000).is_err());
    }

    /// The shipped set (`crates/peg-solitaire/puzzles/peg-solitaire.jsonl`): every id distinct,
    /// a sample proven again by the prover.
    #[test]
    fn the_shipped_set_is_proven_on_a_sample() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/peg-solitaire.jsonl");
        let file = std::fs::File::open(path).expect("the shipped puzzle file");
        let puzzles = qiyi_core::puzzles::read_puzzles(std::io::BufReader::new(file))
            .expect("the shipped puzzles read");
        assert!(puzzles.len() >= 200, "{} puzzles", puzzles.len());
        let mut ids = std::collections::HashSet::new();
        for p in &puzzles {
            assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
            assert_eq!(p.game, GAME);
        }
        let step = (puzzles.len() / 40).max(1);
        for p in puzzles.iter().step_by(step) {
            check_puzzle(p, 50_000_000).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        }
    }
}
