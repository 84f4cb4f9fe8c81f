//! The checkers puzzle miner and prover ("shots"), for core's [`qiyi_core::puzzles`] model.
//!
//! **The puzzle**: a position where the side to move wins material by force within `N` of its
//! moves (`N` = 1..=[`MAX_N`]), or reaches an endgame-database win. Captures are compulsory in
//! checkers, so a shot is typically a quiet move or a sacrifice that forces the opponent's
//! capture and lets the player take back more (two for one, three for one). The player is asked
//! for every one of their moves (`asked` = 0, 2, 4, ...); the replies between them are the
//! defender's best defences.
//!
//! **The value** of a line is exact and small: [`ShotSearch`] searches every legal move of both
//! sides for `2N - 1` plies, then goes on through every forced capture (a quiescence over
//! captures only, exact since captures are compulsory) until the side to move has none. A leaf is
//! worth its piece count (a man and a king both count one piece: "two for one" is about pieces),
//! from the player's side; a side that cannot move has lost ([`WIN`]); with an endgame database,
//! every position with at most its pieces is worth its exact result instead (win [`WIN`], draw 0,
//! loss `-WIN`). The search is a plain alpha-beta (exact for minimax) with a node budget and no
//! table. Within nine plies of a position whose record is cleared, neither threefold repetition
//! nor the 40-move rule can occur, so the search ignores them.
//!
//! **A puzzle is kept** only when
//! - the position has at least two legal moves, and the value at depth `N` beats the position's
//!   own value (its forced captures played out, [`ShotSearch::quiescence`]) by at least one piece,
//!   or is a database win (so a recapture that only completes an exchange is no puzzle);
//! - `N` is the fewest moves that achieve this, and the value holds one move deeper too (the
//!   defender cannot win it back with a quiet move right after);
//! - at each of the player's steps, the solution's move is the only legal move that keeps the
//!   value: every alternative is proven worse within the same horizon (two capture paths that
//!   leave the same position count as one move);
//! - each recorded reply is a best defence (the value does not move) that holds out longest
//!   when one can (the player does not reach the value a move sooner after it); when several
//!   are, the first after which every later step is unique is recorded; the player's moves are
//!   proven against every reply by the minimax itself.
//!
//! **Themes**: `shot` (the player gives pieces in the line and takes more), `T-for-G` (takes `T`
//! for `G` given: `2-for-1`, `3-for-1`, ...), `win-material` or `win-in-database`, `breakthrough`
//! (a man of the player is crowned in the line), `quiet-move` (the first move is not a capture),
//! `sacrifice` (the first reply captures), `multi-jump` (a move of the player takes two or more),
//! and the phase: `opening` (more than 20 pieces), `middlegame`, `endgame` (at most 10).
//!
//! **The difficulty rule**: rating = 900 + 250 × (N − 1) + 10 × (legal moves − 6) + 150 for a
//! quiet first move + 100 for a sacrifice + 50 × (pieces taken − 1), clamped to 600..=2600.
//!
//! ```
//! use qiyi_checkers::puzzles::{prove, Verdict};
//! use qiyi_checkers::Checkers;
//!
//! // White gives a man on 18 and takes two back: 22-18, 15x22 (forced), 25x18x9.
//! let pos = Checkers::from_fen("W:W22,23,25,29:B3,14,15").unwrap();
//! match prove(pos.board(), 3, None, 1_000_000) {
//!     Verdict::Unique(s) => {
//!         let line: Vec<String> = s.line.iter().map(qiyi_checkers::notation::move_to_pdn).collect();
//!         assert_eq!(line, ["22-18", "15x22", "25x18x9"]);
//!     }
//!     other => panic!("{other:?}"),
//! }
//! ```

/// The shipped puzzle set (`puzzles/checkers.jsonl` at this crate's root), proven by
/// `qiyi puzzles check`: what the server, the Python package and the tests embed.
pub const SHIPPED: &str = include_str!("../puzzles/checkers.jsonl");

use crate::board::{Board, Color};
use crate::engine::{Egdb, Engine, Wld};
use crate::movegen::Move;
use crate::notation::{self, move_to_pdn, NotationError};
use crate::Checkers;
use qiyi_core::learn::selfplay::{play_game_keeping, SelfPlayConfig};
use qiyi_core::puzzles::{Proof, PuzzleRecord, Rating, Source};
use qiyi_core::search::SearchLimits;
use std::fmt;

/// The game name in puzzle files.
pub const GAME: &str = "checkers";

/// The longest shot the miner and the prover handle, in the player's moves.
pub const MAX_N: u32 = 4;

/// The value of a won position (a side that cannot move, or a database win).
pub const WIN: i32 = 1000;

/// The most self-play plies of a mined game.
pub const MAX_PLIES: usize = 300;

/// A search ran out of its node budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// The exact shot search: full width to a fixed depth, then every forced capture; piece counts
/// or database results at the leaves; a node budget.
#[derive(Debug)]
pub struct ShotSearch<'a> {
    egdb: Option<&'a Egdb>,
    db_pieces: usize,
    /// Whether a database result was used.
    pub db_used: bool,
    /// Positions visited so far.
    pub nodes: u64,
    /// The most nodes allowed.
    pub budget: u64,
}

fn pieces_of(b: &Board) -> usize {
    b.occupied().count_ones() as usize
}

impl<'a> ShotSearch<'a> {
    /// A search allowed `budget` nodes; with `egdb`, positions with at most `db_pieces` pieces
    /// (capped by the database's own) are worth their exact result.
    pub fn new(egdb: Option<&'a Egdb>, db_pieces: usize, budget: u64) -> Self {
        let db_pieces = egdb.map_or(0, |d| d.max_pieces().min(db_pieces));
        ShotSearch {
            egdb: if db_pieces > 0 { egdb } else { None },
            db_pieces,
            db_used: false,
            nodes: 0,
            budget,
        }
    }

    /// The largest piece count the database answers for (0: none).
    pub fn db_pieces(&self) -> usize {
        self.db_pieces
    }

    fn tick(&mut self) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.budget {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    /// The database's value of `b` for the side to move, when it covers `b`.
    fn probe(&mut self, b: &Board) -> Option<i32> {
        let db = self.egdb?;
        if pieces_of(b) > self.db_pieces {
            return None;
        }
        let v = db.probe(b)?;
        self.db_used = true;
        Some(match v {
            Wld::Win => WIN,
            Wld::Loss => -WIN,
            Wld::Draw => 0,
        })
    }

    /// The piece balance of `b` for the side to move.
    pub fn material(b: &Board) -> i32 {
        let us = b.side_to_move();
        b.pieces(us).count_ones() as i32 - b.pieces(us.opponent()).count_ones() as i32
    }

    /// The value of `b` for the side to move with its forced captures played out (no quiet
    /// move): the position's own value, which a puzzle must beat.
    pub fn quiescence(&mut self, b: &Board) -> Result<i32, OutOfBudget> {
        self.value(b, 0, -WIN - 1, WIN + 1)
    }

    /// The exact value of `b` for the side to move, `plies` full-width plies deep then every
    /// forced capture, within the window (`alpha`, `beta`) (fail-soft alpha-beta).
    pub fn value(
        &mut self,
        b: &Board,
        plies: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, OutOfBudget> {
        self.tick()?;
        if let Some(v) = self.probe(b) {
            return Ok(v);
        }
        let mut moves = Vec::new();
        b.generate(&mut moves);
        if moves.is_empty() {
            return Ok(-WIN);
        }
        if plies == 0 && !moves[0].is_capture() {
            return Ok(Self::material(b));
        }
        let mut best = -WIN - 1;
        for mv in moves {
            let v = -self.value(&b.play(mv), plies.saturating_sub(1), -beta, -alpha)?;
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        Ok(best)
    }

    /// Whether a solution line ends at `b` with `rem` full-width plies left: the side to move
    /// cannot move, the database answers for `b`, or the horizon is passed and no capture is
    /// forced.
    pub fn line_ends(&mut self, b: &Board, rem: u32) -> bool {
        self.probe(b).is_some() || !b.has_moves() || (rem == 0 && !b.has_capture())
    }

    /// The exact value for the side to move of playing `mv` in `b`, `plies` plies in all.
    pub fn value_after(&mut self, b: &Board, mv: Move, plies: u32) -> Result<i32, OutOfBudget> {
        Ok(-self.value(&b.play(mv), plies.saturating_sub(1), -WIN - 1, WIN + 1)?)
    }

    /// Whether playing `mv` reaches at least `target` for the side to move within `plies`.
    pub fn reaches(
        &mut self,
        b: &Board,
        mv: Move,
        plies: u32,
        target: i32,
    ) -> Result<bool, OutOfBudget> {
        let v = -self.value(&b.play(mv), plies.saturating_sub(1), -target, -target + 1)?;
        Ok(v >= target)
    }

    /// The moves that reach at least `target` within `plies`, one per resulting position (two
    /// capture paths that leave the same position are one move; the first is kept).
    pub fn winners(
        &mut self,
        b: &Board,
        plies: u32,
        target: i32,
    ) -> Result<Vec<Move>, OutOfBudget> {
        let mut moves = Vec::new();
        b.generate(&mut moves);
        let mut out: Vec<Move> = Vec::new();
        let mut seen: Vec<Board> = Vec::new();
        for mv in moves {
            let after = b.play(mv);
            if seen.contains(&after) {
                continue;
            }
            if self.reaches(b, mv, plies, target)? {
                seen.push(after);
                out.push(mv);
            }
        }
        Ok(out)
    }
}

/// A proven shot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Moves of the player in the line.
    pub n: u32,
    /// The line: the player's moves and the recorded best defences, `2n - 1` moves and then
    /// the forced captures that follow, until the side to move has none (or the game ends, or
    /// the database answers).
    pub line: Vec<Move>,
    /// The value reached, for the player ([`WIN`]: a database win).
    pub value: i32,
    /// The position's own value (its forced captures played out).
    pub base: i32,
    /// Legal moves in the puzzle's position.
    pub legal: usize,
    /// The database's piece count when a database result was used in the proof, else 0.
    pub db_pieces: usize,
    /// Nodes the proof took.
    pub nodes: u64,
}

/// The verdict of [`prove`] on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A shot in `n`, unique at every step asked.
    Unique(Solved),
    /// A gain in `n`, but with several moves achieving it at step `step` (0 = the first move).
    NotUnique {
        /// The player's moves.
        n: u32,
        /// The player's step (0, 1, ...) with several moves that keep the gain.
        step: u32,
        /// Those moves.
        moves: Vec<Move>,
    },
    /// The gain found at `n` is lost one move deeper.
    Unstable,
    /// Fewer than two legal moves.
    Forced,
    /// No gain within the moves allowed.
    NoGain,
    /// The node budget ran out before the proof was complete.
    Undecided,
}

/// A line, or the step with several winning moves and those moves.
type LineOrSeveral = Result<Vec<Move>, (u32, Vec<Move>)>;

/// Builds the line from `b` (the player to move when `player`), `rem` full-width plies left,
/// keeping the value `target`; past the horizon it goes on through the forced captures until the
/// side to move has none. `Ok(Err(step, moves))` when a step of the player has several moves
/// keeping the value on every choice of best defence.
fn build_line(
    s: &mut ShotSearch,
    b: &Board,
    rem: u32,
    target: i32,
    player: bool,
    step: u32,
) -> Result<LineOrSeveral, OutOfBudget> {
    if s.line_ends(b, rem) {
        return Ok(Ok(Vec::new()));
    }
    let mut moves = Vec::new();
    b.generate(&mut moves);
    if player {
        let winners = s.winners(b, rem, target)?;
        if winners.len() != 1 {
            return Ok(Err((step, winners)));
        }
        let mv = winners[0];
        return Ok(build_line(
            s,
            &b.play(mv),
            rem.saturating_sub(1),
            target,
            false,
            step + 1,
        )?
        .map(|rest| {
            let mut line = vec![mv];
            line.extend(rest);
            line
        }));
    }
    let mut first_failure = None;
    for r in best_defences(s, b, rem, target)? {
        let next = b.play(r);
        match build_line(s, &next, rem.saturating_sub(1), target, true, step)? {
            Ok(rest) => {
                let mut line = vec![r];
                line.extend(rest);
                return Ok(Ok(line));
            }
            Err(e) => {
                first_failure.get_or_insert(e);
            }
        }
    }
    // No best defence: cannot happen when the value is exact; reported as not unique.
    Ok(Err(first_failure.unwrap_or((step, Vec::new()))))
}

/// Whether the reply leading to `next` (`rem` full-width plies left before it) holds out
/// longest: the player does not reach `target` a move sooner after it.
fn holds_longest(
    s: &mut ShotSearch,
    next: &Board,
    rem: u32,
    target: i32,
) -> Result<bool, OutOfBudget> {
    let after = rem.saturating_sub(1);
    if after < 2 {
        return Ok(true);
    }
    Ok(s.value(next, after - 2, target - 1, target)? < target)
}

/// The defender's best defences in `b` (`rem` full-width plies left), one per resulting
/// position, in move order: the replies after which the player reaches `target` and no more,
/// and among them, when some hold out longest (the player does not reach it a move sooner), only
/// those.
fn best_defences(
    s: &mut ShotSearch,
    b: &Board,
    rem: u32,
    target: i32,
) -> Result<Vec<Move>, OutOfBudget> {
    let mut moves = Vec::new();
    b.generate(&mut moves);
    let mut seen: Vec<Board> = Vec::new();
    let mut best = Vec::new();
    let mut longest = Vec::new();
    for r in moves {
        let next = b.play(r);
        if seen.contains(&next) {
            continue;
        }
        seen.push(next);
        let v = s.value(&next, rem.saturating_sub(1), target - 1, target + 1)?;
        if v != target {
            continue;
        }
        best.push(r);
        if holds_longest(s, &next, rem, target)? {
            longest.push(r);
        }
    }
    Ok(if longest.is_empty() { best } else { longest })
}

/// Proves a position: the fewest player moves (at most `max_n`) to a gain of at least a piece
/// over its own value (or a database win), uniqueness at every step, stability one move deeper;
/// with `egdb` where it reaches; at most `budget` nodes.
pub fn prove(b: &Board, max_n: u32, egdb: Option<&Egdb>, budget: u64) -> Verdict {
    let pieces = egdb.map_or(0, |d| d.max_pieces());
    let mut s = ShotSearch::new(egdb, pieces, budget);
    match prove_with(&mut s, b, max_n) {
        Ok(v) => v,
        Err(OutOfBudget) => Verdict::Undecided,
    }
}

/// The value a line of `n` player moves must reach from a position worth `base`: a database win,
/// or at least a piece more.
fn gained(value: i32, base: i32) -> bool {
    (value == WIN && base < WIN) || (value < WIN && value > base && value > -WIN)
}

fn prove_with(s: &mut ShotSearch, b: &Board, max_n: u32) -> Result<Verdict, OutOfBudget> {
    let mut moves = Vec::new();
    b.generate(&mut moves);
    if moves.len() < 2 {
        return Ok(Verdict::Forced);
    }
    let base = s.quiescence(b)?;
    let max_n = max_n.clamp(1, MAX_N);
    for n in 1..=max_n {
        let plies = 2 * n - 1;
        let value = s.value(b, plies, -WIN - 1, WIN + 1)?;
        if !gained(value, base) {
            continue;
        }
        let deeper = s.value(b, plies + 2, -WIN - 1, WIN + 1)?;
        if deeper < value {
            return Ok(Verdict::Unstable);
        }
        return Ok(match build_line(s, b, plies, value, true, 0)? {
            Err((step, moves)) => Verdict::NotUnique { n, step, moves },
            Ok(line) => Verdict::Unique(Solved {
                n,
                line,
                value,
                base,
                legal: moves.len(),
                db_pieces: if s.db_used { s.db_pieces() } else { 0 },
                nodes: s.nodes,
            }),
        });
    }
    Ok(Verdict::NoGain)
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The goal text of a shot: `win N piece(s) in K move(s)`, or `win in K move(s)` for a won
/// game or a database win.
pub fn goal_text(value: i32, base: i32, n: u32) -> String {
    let moves = if n == 1 { "move" } else { "moves" };
    if value == WIN {
        format!("win in {n} {moves}")
    } else {
        let g = value - base;
        let pieces = if g == 1 { "piece" } else { "pieces" };
        format!("win {g} {pieces} in {n} {moves}")
    }
}

/// The themes and the rating estimate of a proven shot (see the module docs).
pub fn themes_and_rating(b: &Board, solved: &Solved) -> (Vec<String>, f64) {
    let me = b.side_to_move();
    let mut themes = Vec::new();
    let (mut taken, mut given) = (0u32, 0u32);
    let mut crowned = false;
    let mut multi = false;
    let mut sacrifice = false;
    let mut p = *b;
    for (i, &mv) in solved.line.iter().enumerate() {
        let caps = mv.num_captured();
        if p.side_to_move() == me {
            taken += caps;
            multi |= caps >= 2;
            let from_bit = 1u32 << (mv.from() - 1);
            if p.kings() & from_bit == 0 && (1u32 << (mv.to() - 1)) & me.crown_row() != 0 {
                crowned = true;
            }
        } else {
            given += caps;
            if i == 1 && caps > 0 {
                sacrifice = true;
            }
        }
        p.make(mv);
    }
    if given > 0 && taken > given {
        themes.push("shot".to_string());
        themes.push(format!("{taken}-for-{given}"));
    }
    themes.push(
        if solved.value < WIN {
            "win-material"
        } else if p.has_moves() {
            "win-in-database"
        } else {
            "win-the-game"
        }
        .to_string(),
    );
    if crowned {
        themes.push("breakthrough".to_string());
    }
    let quiet = !solved.line[0].is_capture();
    if quiet {
        themes.push("quiet-move".to_string());
    }
    if sacrifice {
        themes.push("sacrifice".to_string());
    }
    if multi {
        themes.push("multi-jump".to_string());
    }
    let pieces = pieces_of(b);
    themes.push(
        match pieces {
            0..=10 => "endgame",
            11..=20 => "middlegame",
            _ => "opening",
        }
        .to_string(),
    );
    let r = 900.0
        + 250.0 * (solved.n as f64 - 1.0)
        + 10.0 * (solved.legal as f64 - 6.0)
        + if quiet { 150.0 } else { 0.0 }
        + if sacrifice { 100.0 } else { 0.0 }
        + 50.0 * (taken.max(1) as f64 - 1.0);
    (themes, r.clamp(600.0, 2600.0))
}

/// The prefix of a database proof's detail, followed by the database's piece count.
const DB_PREFIX: &str = "endgame database up to ";

/// The puzzle record of a proven position (`source` says where it came from).
pub fn record(id: String, b: &Board, solved: &Solved, source: Source) -> PuzzleRecord {
    let (themes, rating) = themes_and_rating(b, solved);
    let n = solved.n;
    let plies = 2 * n - 1;
    let what = if solved.value == WIN {
        "reaches a database win".to_string()
    } else {
        format!(
            "wins {} piece(s) over the position's own value",
            solved.value - solved.base
        )
    };
    let search = format!(
        "exact search over every legal move of both sides for {plies} {} then every forced capture: {} {what} against every defence, in no fewer moves and still one move deeper; each of the other {} legal moves is proven to reach less; at each later step the solution's move is the only one that keeps the gain, and each reply is a best defence",
        if plies == 1 { "ply" } else { "plies" },
        move_to_pdn(&solved.line[0]),
        solved.legal - 1
    );
    let proof = if solved.db_pieces > 0 {
        Proof::Exact {
            by: "database".to_string(),
            detail: format!("{DB_PREFIX}{} pieces; {search}", solved.db_pieces),
        }
    } else {
        Proof::Exact {
            by: "search".to_string(),
            detail: search,
        }
    };
    PuzzleRecord {
        id,
        game: GAME.to_string(),
        variant: None,
        position: notation::board_to_fen(b),
        goal: Some(goal_text(solved.value, solved.base, n)),
        side: side_name(b.side_to_move()).to_string(),
        solution: solved.line.iter().map(move_to_pdn).collect(),
        asked: (0..solved.line.len()).step_by(2).collect(),
        themes,
        rating: Rating::estimate(rating),
        source,
        proof,
    }
}

/// What to mine from self-play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MineOptions {
    /// The run's seed (game `i` uses `Rng::derive(seed, i)`).
    pub seed: u64,
    /// The engine's fixed depth per move.
    pub depth: u32,
    /// Random plies after the ballot: uniformly `0..=random_plies`.
    pub random_plies: u32,
    /// The longest shot kept, in the player's moves (at most [`MAX_N`]).
    pub max_n: u32,
    /// Search nodes per position before it is given up.
    pub budget: u64,
    /// The endgame database's piece count used (0: none).
    pub db_pieces: usize,
}

impl MineOptions {
    /// Defaults: depth 6, up to 4 random plies, shots in up to 3 moves, 5 million nodes a
    /// position, no database.
    pub fn new(seed: u64) -> Self {
        MineOptions {
            seed,
            depth: 6,
            random_plies: 4,
            max_n: 3,
            budget: 5_000_000,
            db_pieces: 0,
        }
    }

    /// The line that names a run (a resumed run must have the same one).
    pub fn manifest(&self) -> String {
        format!(
            "qiyi puzzles mine checkers: seed {} depth {} random_plies {} max_n {} budget {} egdb {} max_plies {MAX_PLIES}",
            self.seed, self.depth, self.random_plies, self.max_n, self.budget, self.db_pieces
        )
    }
}

/// Counts from mining games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MineStats {
    /// Games played.
    pub games: u64,
    /// Positions searched (at least two legal moves).
    pub positions: u64,
    /// Positions with a gain within the horizon (the candidates).
    pub candidates: u64,
    /// Candidates proven unique.
    pub passed: u64,
    /// Candidates with several moves keeping the gain at some step.
    pub not_unique: u64,
    /// Candidates whose gain is lost one move deeper.
    pub unstable: u64,
    /// Positions given up at the node budget.
    pub undecided: u64,
    /// Search nodes.
    pub nodes: u64,
}

impl MineStats {
    /// Adds another run's counts.
    pub fn add(&mut self, o: &MineStats) {
        self.games += o.games;
        self.positions += o.positions;
        self.candidates += o.candidates;
        self.passed += o.passed;
        self.not_unique += o.not_unique;
        self.unstable += o.unstable;
        self.undecided += o.undecided;
        self.nodes += o.nodes;
    }
}

/// The self-play openings: the 156 tournament ballots, played out.
pub fn openings() -> Result<Vec<Checkers>, NotationError> {
    crate::engine::selfplay::openings()
}

/// Plays game `index` of the seeded run and returns its proven puzzles (ids `ck-SEED-GAME-PLY`,
/// in ply order) and the counts. Depends on the options, the database and `index` only.
pub fn mine_game(
    opts: &MineOptions,
    openings: &[Checkers],
    egdb: Option<&Egdb>,
    index: u64,
) -> (Vec<PuzzleRecord>, MineStats) {
    let config = SelfPlayConfig {
        games: 1,
        games_per_shard: 1,
        seed: opts.seed,
        threads: 1,
        random_plies: opts.random_plies,
        max_plies: MAX_PLIES,
    };
    let mut engine = Engine::new(crate::engine::Level::MAX, 1);
    let limits = SearchLimits::depth(opts.depth.max(1));
    let mut search = |pos: &Checkers| {
        let r = engine.analyse(pos, &limits, |_| {});
        r.best_move.map(|m| (m, r.score))
    };
    let (kept, _) = play_game_keeping(openings, index, &config, &mut search, |pos, _| {
        pos.board().count_moves() >= 2
    });
    let kept = kept
        .into_iter()
        .map(|(pos, _, ply)| (*pos.board(), ply))
        .collect();
    let seed = opts.seed;
    prove_kept(opts, egdb, kept, |ply| {
        (
            format!("ck-{seed}-{index}-{ply}"),
            Source::SelfPlay {
                seed,
                game: index,
                ply: ply as u32,
            },
        )
    })
}

/// Walks a recorded game (`moves` played from `start`) the way [`mine_game`] walks a self-play
/// one: every position of the game with at least two legal moves (the last one too) is searched
/// for a shot by the same prover. `label` gives the id and the source of the puzzle found after
/// `ply` moves. Depends on its arguments and the database only.
pub fn mine_record(
    opts: &MineOptions,
    start: &Board,
    moves: &[Move],
    egdb: Option<&Egdb>,
    label: impl Fn(usize) -> (String, Source),
) -> (Vec<PuzzleRecord>, MineStats) {
    let mut board = *start;
    let mut kept = Vec::new();
    for ply in 0..=moves.len() {
        if board.count_moves() >= 2 {
            kept.push((board, ply));
        }
        match moves.get(ply) {
            Some(&mv) => board = board.play(mv),
            None => break,
        }
    }
    prove_kept(opts, egdb, kept, label)
}

/// Searches the positions `kept` (each with its ply) for shots, keeping the unique ones under
/// the id and source `label` gives their ply; one game's puzzles and counts.
fn prove_kept(
    opts: &MineOptions,
    egdb: Option<&Egdb>,
    kept: Vec<(Board, usize)>,
    label: impl Fn(usize) -> (String, Source),
) -> (Vec<PuzzleRecord>, MineStats) {
    let mut stats = MineStats {
        games: 1,
        ..Default::default()
    };
    let mut out = Vec::new();
    for (board, ply) in kept {
        stats.positions += 1;
        let mut s = ShotSearch::new(egdb, opts.db_pieces, opts.budget);
        let v = prove_with(&mut s, &board, opts.max_n).unwrap_or(Verdict::Undecided);
        stats.nodes += s.nodes;
        if matches!(
            v,
            Verdict::Unique(_) | Verdict::NotUnique { .. } | Verdict::Unstable
        ) {
            stats.candidates += 1;
        }
        match v {
            Verdict::Unique(solved) => {
                stats.passed += 1;
                let (id, source) = label(ply);
                out.push(record(id, &board, &solved, source));
            }
            Verdict::NotUnique { .. } => stats.not_unique += 1,
            Verdict::Unstable => stats.unstable += 1,
            Verdict::Undecided => stats.undecided += 1,
            Verdict::Forced | Verdict::NoGain => {}
        }
    }
    (out, stats)
}

/// Why a checkers puzzle failed its check.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The puzzle is for another game.
    #[error("not a checkers puzzle (game `{0}`)")]
    WrongGame(String),
    /// The position is not a FEN.
    #[error("position: {0}")]
    Fen(NotationError),
    /// The side named is not the side to move.
    #[error("side `{found}` is not the side to move ({want})")]
    WrongSide {
        /// The side in the puzzle.
        found: String,
        /// The side to move.
        want: String,
    },
    /// The solution is empty or longer than the prover's horizon and a capture tail.
    #[error("a solution of {0} moves is not a shot in 1..={MAX_N} moves")]
    Length(usize),
    /// The asked moves are not the player's moves 0, 2, 4, ...
    #[error("asked {0:?}: every move of the player is asked (0, 2, 4, ...)")]
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
        source: NotationError,
    },
    /// The proof needs a database that was not given, or a smaller one.
    #[error("the proof needs the endgame database up to {need} pieces (have {have})")]
    NeedsDatabase {
        /// Pieces the proof used.
        need: usize,
        /// Pieces available.
        have: usize,
    },
    /// The proof's description is not one this prover wrote.
    #[error("unknown proof: {0}")]
    Proof(String),
    /// Fewer than two legal moves.
    #[error("the position has a single legal move")]
    Forced,
    /// The position gains nothing a shot must, or loses it one move deeper.
    #[error("no shot: {0}")]
    NoGain(String),
    /// The line stops too soon or goes on too long.
    #[error("{0}")]
    LineEnd(String),
    /// The goal text does not match the proven gain.
    #[error("goal `{found}` is not `{want}`")]
    WrongGoal {
        /// The goal in the puzzle.
        found: String,
        /// The goal the proof gives.
        want: String,
    },
    /// A step has other moves keeping the gain, or the solution's move does not keep it.
    #[error(
        "step {step}: the moves keeping the gain are [{winners}], the solution plays {played}"
    )]
    NotUnique {
        /// The player's step (0, 1, ...).
        step: usize,
        /// The moves keeping the gain there.
        winners: String,
        /// The solution's move.
        played: String,
    },
    /// A recorded reply is not a best defence, or gives up sooner than another.
    #[error("reply {index} `{text}` is not a best defence that holds out longest")]
    NotBestDefence {
        /// Its index in the solution.
        index: usize,
        /// The text.
        text: String,
    },
    /// The search ran out of its budget.
    #[error("the search's budget ran out")]
    Undecided,
}

struct Moves<'a>(&'a [Move]);

impl fmt::Display for Moves<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t: Vec<String> = self.0.iter().map(move_to_pdn).collect();
        f.write_str(&t.join(", "))
    }
}

/// The longest solution line accepted: the horizon and a capture tail.
const MAX_LINE: usize = (2 * MAX_N - 1) as usize + 24;

/// Replays a puzzle from its text and proves it again with a fresh search of at most `budget`
/// nodes (with `egdb` when the proof used a database): the fewest moves `N` to the gain, the gain
/// still one move deeper, the goal, the line's end, uniqueness at every asked step, best
/// defences.
pub fn check_puzzle(p: &PuzzleRecord, egdb: Option<&Egdb>, budget: u64) -> Result<(), CheckError> {
    if p.game != GAME {
        return Err(CheckError::WrongGame(p.game.clone()));
    }
    let start = notation::board_from_fen(&p.position).map_err(CheckError::Fen)?;
    let want = side_name(start.side_to_move());
    if p.side != want {
        return Err(CheckError::WrongSide {
            found: p.side.clone(),
            want: want.to_string(),
        });
    }
    let len = p.solution.len();
    if len == 0 || len > MAX_LINE {
        return Err(CheckError::Length(len));
    }
    let asked: Vec<usize> = (0..len).step_by(2).collect();
    if p.asked != asked {
        return Err(CheckError::Asked(p.asked.clone()));
    }
    let need = match &p.proof {
        Proof::Exact { by, .. } if by == "search" => 0,
        Proof::Exact { by, detail } if by == "database" => detail
            .strip_prefix(DB_PREFIX)
            .and_then(|r| r.split_once(' '))
            .and_then(|(k, _)| k.parse::<usize>().ok())
            .filter(|&k| (2..=crate::engine::egdb::MAX_PIECES).contains(&k))
            .ok_or_else(|| CheckError::Proof(detail.chars().take(80).collect()))?,
        other => return Err(CheckError::Proof(format!("{other:?}"))),
    };
    let have = egdb.map_or(0, |d| d.max_pieces());
    if need > have {
        return Err(CheckError::NeedsDatabase { need, have });
    }
    let mut line = Vec::with_capacity(len);
    let mut b = start;
    for (index, text) in p.solution.iter().enumerate() {
        let mv = notation::parse_move(&b, text).map_err(|source| CheckError::Move {
            index,
            text: text.clone(),
            source,
        })?;
        b.make(mv);
        line.push(mv);
    }
    let mut s = ShotSearch::new(egdb, need, budget);
    let r = (|| -> Result<Result<(), CheckError>, OutOfBudget> {
        if start.count_moves() < 2 {
            return Ok(Err(CheckError::Forced));
        }
        let base = s.quiescence(&start)?;
        let mut found = None;
        for k in 1..=MAX_N {
            let v = s.value(&start, 2 * k - 1, -WIN - 1, WIN + 1)?;
            if gained(v, base) {
                found = Some((k, v));
                break;
            }
        }
        let Some((n, value)) = found else {
            return Ok(Err(CheckError::NoGain(format!(
                "no gain over the position's own value {base} within {MAX_N} moves"
            ))));
        };
        let plies = 2 * n - 1;
        if s.value(&start, plies + 2, -WIN - 1, WIN + 1)? < value {
            return Ok(Err(CheckError::NoGain(format!(
                "the gain in {n} is lost one move deeper"
            ))));
        }
        let goal = goal_text(value, base, n);
        if p.goal.as_deref() != Some(goal.as_str()) {
            return Ok(Err(CheckError::WrongGoal {
                found: p.goal.clone().unwrap_or_default(),
                want: goal,
            }));
        }
        let mut b = start;
        for (i, &mv) in line.iter().enumerate() {
            let rem = plies.saturating_sub(i as u32);
            if s.line_ends(&b, rem) {
                return Ok(Err(CheckError::LineEnd(format!(
                    "the line goes on past its end at move {i}"
                ))));
            }
            if i % 2 == 0 {
                let winners = s.winners(&b, rem, value)?;
                if winners.len() != 1 || b.play(winners[0]) != b.play(mv) {
                    return Ok(Err(CheckError::NotUnique {
                        step: i / 2,
                        winners: Moves(&winners).to_string(),
                        played: move_to_pdn(&mv),
                    }));
                }
            } else {
                // A best defence leaves the value unchanged (the player's previous move was
                // proven against every reply by the minimax above) and holds out longest when
                // a reply can.
                let next = b.play(mv);
                let defences = best_defences(&mut s, &b, rem, value)?;
                if !defences.iter().any(|&r| b.play(r) == next) {
                    return Ok(Err(CheckError::NotBestDefence {
                        index: i,
                        text: p.solution[i].clone(),
                    }));
                }
            }
            b.make(mv);
        }
        if !s.line_ends(&b, plies.saturating_sub(len as u32)) {
            return Ok(Err(CheckError::LineEnd(
                "the line stops before the horizon or with a capture still forced".into(),
            )));
        }
        Ok(Ok(()))
    })();
    match r {
        Ok(r) => r,
        Err(OutOfBudget) => Err(CheckError::Undecided),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain negamax written here, apart from [`ShotSearch`] (no alpha-beta, no budget, no
    /// database): `plies` full-width plies, then every forced capture, piece counts at the leaves.
    fn plain_value(b: &Board, plies: u32) -> i32 {
        let mut moves = Vec::new();
        b.generate(&mut moves);
        if moves.is_empty() {
            return -WIN;
        }
        if plies == 0 && !moves[0].is_capture() {
            let us = b.side_to_move();
            return b.pieces(us).count_ones() as i32 - b.pieces(us.opponent()).count_ones() as i32;
        }
        moves
            .iter()
            .map(|&mv| -plain_value(&b.play(mv), plies.saturating_sub(1)))
            .max()
            .unwrap_or(-WIN)
    }

    /// The first moves whose plain value at `plies` is at least `target`, one per position.
    fn plain_winners(b: &Board, plies: u32, target: i32) -> Vec<String> {
        let mut moves = Vec::new();
        b.generate(&mut moves);
        let mut seen = Vec::new();
        let mut out = Vec::new();
        for mv in moves {
            let after = b.play(mv);
            if !seen.contains(&after) && -plain_value(&after, plies - 1) >= target {
                seen.push(after);
                out.push(move_to_pdn(&mv));
            }
        }
        out
    }

    /// White gives one man on 18 and takes two: 22-18, 15x22 (forced), 25x18x9.
    const TWO_FOR_ONE: &str = "W:W22,23,25,29:B3,14,15";
    /// Met in game 5 of seed 1 (depth 6): 26-22 and 27-23 both win a piece in three moves.
    const TWO_WINNERS: &str = "W:WK9,26,27,30,31,32:B8,11,13,14,18,20";

    fn board(fen: &str) -> Board {
        notation::board_from_fen(fen).unwrap()
    }

    fn source() -> Source {
        Source::Enumeration {
            by: "test".into(),
            index: 0,
        }
    }

    fn unique(fen: &str) -> Solved {
        match prove(&board(fen), 3, None, 10_000_000) {
            Verdict::Unique(s) => s,
            other => panic!("{fen}: {other:?}"),
        }
    }

    #[test]
    fn a_hand_made_two_for_one_is_proven_and_checked() {
        let b = board(TWO_FOR_ONE);
        let s = unique(TWO_FOR_ONE);
        assert_eq!((s.n, s.value, s.base), (1, 2, 1));
        let p = record("t-1".into(), &b, &s, source());
        assert_eq!(p.solution, ["22-18", "15x22", "25x18x9"]);
        assert_eq!(p.asked, [0, 2]);
        assert_eq!(p.goal.as_deref(), Some("win 1 piece in 1 move"));
        assert_eq!(p.side, "white");
        for t in ["shot", "2-for-1", "quiet-move", "sacrifice", "multi-jump"] {
            assert!(p.themes.contains(&t.to_string()), "{t}: {:?}", p.themes);
        }
        check_puzzle(&p, None, 1_000_000).unwrap();
        // The plain negamax agrees: the value, and 22-18 the only move reaching it.
        assert_eq!(plain_value(&b, 0), 1);
        assert_eq!(plain_value(&b, 1), 2);
        assert_eq!(plain_winners(&b, 1, 2), ["22-18"]);
    }

    #[test]
    fn two_moves_winning_the_same_are_not_unique() {
        let b = board(TWO_WINNERS);
        match prove(&b, 3, None, 10_000_000) {
            Verdict::NotUnique { n, step: 0, moves } => {
                let mut texts: Vec<String> = moves.iter().map(move_to_pdn).collect();
                texts.sort();
                let mut plain = plain_winners(&b, 2 * n - 1, plain_value(&b, 2 * n - 1));
                plain.sort();
                assert_eq!(texts, plain);
                assert!(texts.len() >= 2, "{texts:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_search_out_of_budget_is_undecided() {
        for budget in [1, 5, 20] {
            assert_eq!(
                prove(&board(TWO_FOR_ONE), 3, None, budget),
                Verdict::Undecided
            );
        }
    }

    #[test]
    fn a_tampered_puzzle_fails_its_check() {
        let b = board(TWO_FOR_ONE);
        let p = record("t".into(), &b, &unique(TWO_FOR_ONE), source());
        check_puzzle(&p, None, 1_000_000).unwrap();
        let fails = |q: &PuzzleRecord| check_puzzle(q, None, 1_000_000).is_err();
        // Another first move.
        let mut bad = p.clone();
        bad.solution[0] = "23-19".into();
        assert!(fails(&bad));
        // The capture tail cut short: the double jump dropped.
        let mut bad = p.clone();
        bad.solution.truncate(2);
        bad.asked = vec![0];
        assert!(matches!(
            check_puzzle(&bad, None, 1_000_000),
            Err(CheckError::LineEnd(_))
        ));
        // A piece removed (no shot left), the wrong goal, the wrong side, another game.
        let mut bad = p.clone();
        bad.position = "W:W22,23,25,29:B3,15".into();
        assert!(fails(&bad));
        let mut bad = p.clone();
        bad.goal = Some("win 2 pieces in 1 move".into());
        assert!(matches!(
            check_puzzle(&bad, None, 1_000_000),
            Err(CheckError::WrongGoal { .. })
        ));
        let mut bad = p.clone();
        bad.side = "black".into();
        assert!(matches!(
            check_puzzle(&bad, None, 1_000_000),
            Err(CheckError::WrongSide { .. })
        ));
        let mut bad = p.clone();
        bad.game = "xiangqi".into();
        assert!(matches!(
            check_puzzle(&bad, None, 1_000_000),
            Err(CheckError::WrongGame(_))
        ));
        // An illegal reply, a broken FEN, a database proof without the database.
        let mut bad = p.clone();
        bad.solution[1] = "14-17".into();
        assert!(matches!(
            check_puzzle(&bad, None, 1_000_000),
            Err(CheckError::Move { index: 1, .. })
        ));
        let mut bad = p.clone();
        bad.position = "not a fen".into();
        assert!(matches!(
            check_puzzle(&bad, None, 1_000_000),
            Err(CheckError::Fen(_))
        ));
        let mut bad = p;
        bad.proof = Proof::Exact {
            by: "database".into(),
            detail: format!("{DB_PREFIX}4 pieces; ..."),
        };
        assert!(matches!(
            check_puzzle(&bad, None, 1_000_000),
            Err(CheckError::NeedsDatabase { need: 4, have: 0 })
        ));
    }

    #[test]
    fn the_database_proves_what_it_reaches() {
        let db = Egdb::build_in_memory(4).unwrap();
        // Two kings against one: the database says Black wins wherever it reaches.
        let b = board("B:WK13:BK10,K26");
        let mut s = ShotSearch::new(Some(&db), 4, 1_000_000);
        assert_eq!(s.quiescence(&b).unwrap(), WIN);
        assert!(s.db_used);
        // A 2-for-1 with the database: the same line (the tail stops when 4 pieces are left).
        let b = board(TWO_FOR_ONE);
        match prove(&b, 3, Some(&db), 10_000_000) {
            Verdict::Unique(s) => {
                let p = record("t".into(), &b, &s, source());
                check_puzzle(&p, Some(&db), 10_000_000).unwrap();
                if s.db_pieces > 0 {
                    assert!(check_puzzle(&p, None, 10_000_000).is_err());
                }
            }
            other => panic!("{other:?}"),
        }
    }

    /// Met in game 285 of seed 1: three kings against two, a database win in three moves. The
    /// reply 22-25 gives it up a move sooner (29x22 enters a won 4-piece ending at once); 22-26
    /// holds out longest and is the one recorded.
    #[test]
    fn a_reply_that_gives_up_sooner_is_not_the_defence() {
        let db = Egdb::build_in_memory(4).unwrap();
        let b = board("W:WK5,K10,K29:BK13,K22");
        let s = match prove(&b, 4, Some(&db), 10_000_000) {
            Verdict::Unique(s) => s,
            other => panic!("{other:?}"),
        };
        let p = record("t".into(), &b, &s, source());
        assert_eq!(p.goal.as_deref(), Some("win in 3 moves"));
        assert_eq!(p.solution.len(), 6, "{:?}", p.solution);
        assert_eq!(p.solution[..2], ["10-14", "22-26"]);
        check_puzzle(&p, Some(&db), 10_000_000).unwrap();
        let mut bad = p.clone();
        bad.solution = vec!["10-14".into(), "22-25".into(), "29x22".into()];
        bad.asked = vec![0, 2];
        assert!(matches!(
            check_puzzle(&bad, Some(&db), 10_000_000),
            Err(CheckError::NotBestDefence { index: 1, .. })
        ));
    }

    #[test]
    fn mined_games_give_proven_puzzles() {
        let openings = openings().unwrap();
        let opts = MineOptions {
            depth: 4,
            ..MineOptions::new(1)
        };
        let mut all = Vec::new();
        let mut stats = MineStats::default();
        for g in 0..3 {
            let (ps, st) = mine_game(&opts, &openings, None, g);
            stats.add(&st);
            all.extend(ps);
        }
        assert_eq!(stats.games, 3);
        assert!(stats.candidates >= stats.passed);
        assert!(!all.is_empty());
        for p in &all {
            check_puzzle(p, None, 10_000_000).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            plain_agrees(p);
        }
        assert_eq!(
            mine_game(&opts, &openings, None, 0).0,
            mine_game(&opts, &openings, None, 0).0
        );
    }

    /// A search-proven puzzle's first move is the only one reaching the value by the plain
    /// negamax (when its horizon is small enough for it).
    fn plain_agrees(p: &PuzzleRecord) {
        let b = board(&p.position);
        let base = plain_value(&b, 0);
        let Some((n, v)) = (1..=2).find_map(|n| {
            let v = plain_value(&b, 2 * n - 1);
            gained(v, base).then_some((n, v))
        }) else {
            return;
        };
        let mut first = plain_winners(&b, 2 * n - 1, v);
        assert_eq!(first.len(), 1, "{}: {first:?}", p.id);
        let mv = notation::parse_move(&b, &p.solution[0]).unwrap();
        assert_eq!(first.pop(), Some(move_to_pdn(&mv)), "{}", p.id);
    }

    /// The shipped set (`crates/checkers/puzzles/checkers.jsonl`): a sample proven again, and
    /// each shot in one or two moves of it unique by the plain negamax written here.
    #[test]
    fn the_shipped_set_is_proven_on_a_sample() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/checkers.jsonl");
        let file = std::fs::File::open(path).expect("the shipped puzzle file");
        let puzzles = qiyi_core::puzzles::read_puzzles(std::io::BufReader::new(file)).unwrap();
        assert!(puzzles.len() >= 100, "{} puzzles", puzzles.len());
        let mut ids = std::collections::HashSet::new();
        for p in &puzzles {
            assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
            assert_eq!(p.game, GAME);
        }
        // The set was mined with the 4-piece database, built here in memory.
        let db = Egdb::build_in_memory(4).unwrap();
        let step = (puzzles.len() / 40).max(1);
        for p in puzzles.iter().step_by(step) {
            check_puzzle(p, Some(&db), 50_000_000).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            if matches!(&p.proof, Proof::Exact { by, .. } if by == "search") {
                check_puzzle(p, None, 50_000_000).unwrap_or_else(|e| panic!("{}: {e}", p.id));
                plain_agrees(p);
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Checking never panics, whatever the position, the moves and the asked indices.
        #[test]
        fn checking_a_mangled_puzzle_never_panics(
            fen in "[BW]?:?[WB]?[K0-9,]{0,40}(:[WB][K0-9,]{0,40})?",
            moves in proptest::collection::vec("[0-9]{1,2}[-x][0-9]{1,2}([-x][0-9]{1,2})?|.{0,6}", 0..10),
            cut in 0usize..60,
            asked in proptest::collection::vec(0usize..12, 0..6),
            goal in ".{0,30}",
        ) {
            let b = board(TWO_FOR_ONE);
            let s = unique(TWO_FOR_ONE);
            let mut p = record("t".into(), &b, &s, source());
            p.position = fen.clone();
            let _ = check_puzzle(&p, None, 20_000);
            let mut q = record("t".into(), &b, &s, source());
            q.solution = moves.clone();
            q.asked = asked.clone();
            let _ = check_puzzle(&q, None, 20_000);
            let mut r = record("t".into(), &b, &s, source());
            r.position = r.position.chars().take(cut).collect();
            r.goal = Some(goal.clone());
            let _ = check_puzzle(&r, None, 20_000);
            let mut t = record("t".into(), &b, &s, source());
            t.proof = Proof::Exact { by: "database".into(), detail: goal.clone() };
            let _ = check_puzzle(&t, None, 20_000);
        }
    }
}
