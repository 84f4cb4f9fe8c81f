//! The Xiangqi puzzle miner and prover (杀法, mate in N), for core's [`qiyi_core::puzzles`] model.
//! The second kind, one move that wins material or a decisive advantage by a clear margin (an
//! engine verdict), is [`material`], with its own themes and difficulty rule; the miner mines
//! either or both ([`Kind`]) and [`check_puzzle`] proves each by its proof's kind.
//!
//! **The puzzle**: a position where the side to move forces a win in exactly `N` of its moves
//! (`N` = 1..=[`MAX_N`]): checkmate, or stalemate, which the rules of this crate also count as a
//! loss for the side that cannot move. The player is asked for every one of their moves
//! (`asked` = 0, 2, 4, ...); the replies between them are the defender's longest defences.
//!
//! **The proof** is an exact mate search ([`MateSearch`]), written for puzzles and apart from the
//! engine: every legal move of the attacker (not only checks) and every legal reply of the
//! defender, to the fixed depth, with a table of proven and refuted (position, moves left) pairs.
//! A puzzle is kept only when
//! - the side to move wins in `N` against every defence and in no fewer (so `N` is exact);
//! - at each of the player's steps, with `k` moves left, the solution's move is the only legal
//!   move that wins in `k` or fewer: each alternative is proven not to;
//! - each recorded reply is a longest defence (after it the win still takes `k - 1` moves), and
//!   the first move wins against *every* reply, not only the recorded one;
//! - no position repeats along the line (repetitions bring the perpetual-check and chase rules
//!   in; such lines are dropped), and no capture leaves the board without attackers (a draw).
//!
//! The search knows the rules' endings that can occur within a few moves of a position whose
//! record is cleared (the puzzle's FEN starts a new record): no legal move loses, no attacker left
//! on the board draws. Repetition cannot make a forced win shorter, and the line is checked for it.
//!
//! **The miner** plays seeded self-play games with the engine (core's
//! [`qiyi_core::learn::selfplay::play_game_keeping`], the same games as `qiyi selfplay xiangqi`
//! with the same options: the shipped openings, random plies, then the engine at a fixed depth),
//! keeps the positions whose search score announces a win in at most [`MAX_N`] moves, and proves
//! each of them as above. The engine only proposes; the mate search decides.
//!
//! **Themes**: `mate-in-N`; the piece that delivers the last move (`chariot`, `horse`, `cannon`,
//! `pawn`, `advisor`, `elephant`, `general`); `stalemate` (困毙) when the last move leaves the
//! defender without a move but not in check; `quiet-move` when the first move neither checks nor
//! captures; `sacrifice` when the recorded reply captures more than the first move took;
//! `only-move` when the first position has a single legal move.
//!
//! **The difficulty rule**: rating = 900 + 300 × (N − 1) + 10 × (legal moves − 20) + 200 when
//! the first move is quiet + 100 for a sacrifice, clamped to 600..=2800.
//!
//! ```
//! use qiyi_xiangqi::puzzles::{prove, Verdict};
//! use qiyi_xiangqi::Position;
//!
//! // Red chariot a1 to a9 mates: d8 is covered by the chariot on h8, e9 faces Red's general
//! // (a1-d1 is blocked by the advisor on d7; Black's soldier on i3 can still move).
//! let pos = Position::from_fen("3k5/7R1/3a5/9/9/9/8p/9/R8/4K4 w").unwrap();
//! match prove(&pos, 3, 1_000_000) {
//!     Verdict::Unique(s) => assert_eq!((s.n, s.line[0].to_string()), (1, "a1a9".to_string())),
//!     other => panic!("{other:?}"),
//! }
//! ```

/// The shipped puzzle set (`puzzles/xiangqi.jsonl` at this crate's root), proven by
/// `qiyi puzzles check`: what the server, the Python package and the tests embed.
pub const SHIPPED: &str = include_str!("../puzzles/xiangqi.jsonl");

pub mod material;

use crate::board::{Color, PieceKind};
use crate::engine::{Engine, EngineConfig, Level, PIECE_VALUES};
use crate::position::{Move, Position};
use qiyi_core::eval::{Score, MATE};
use qiyi_core::game::{Game, Turn};
use qiyi_core::learn::selfplay::{play_game_keeping, SelfPlayConfig};
use qiyi_core::puzzles::{Proof, PuzzleRecord, Rating, Source};
use qiyi_core::search::SearchLimits;
use std::collections::HashMap;

/// The game name in puzzle files.
pub const GAME: &str = "xiangqi";

/// The longest mate the miner and the prover handle, in the attacker's moves.
pub const MAX_N: u32 = 5;

/// A mate search ran out of its node budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutOfBudget;

/// An exact, fixed-depth mate search: every legal move of both sides, a table of proven and
/// refuted (position, moves left) pairs, a node budget.
#[derive(Debug)]
pub struct MateSearch {
    /// Per position (Zobrist key): the fewest moves a win is proven in (0: none proven), and the
    /// most moves a win is proven impossible in.
    table: HashMap<u64, (u8, u8)>,
    /// Positions visited (moves made) so far.
    pub nodes: u64,
    /// The most nodes allowed.
    pub budget: u64,
}

impl MateSearch {
    /// A search allowed `budget` nodes (moves made).
    pub fn new(budget: u64) -> Self {
        MateSearch {
            table: HashMap::new(),
            nodes: 0,
            budget,
        }
    }

    fn tick(&mut self) -> Result<(), OutOfBudget> {
        self.nodes += 1;
        if self.nodes > self.budget {
            Err(OutOfBudget)
        } else {
            Ok(())
        }
    }

    /// Whether the side to move wins within `n` of its moves against every defence.
    pub fn wins_within(&mut self, pos: &mut Position, n: u32) -> Result<bool, OutOfBudget> {
        if n == 0 {
            return Ok(false);
        }
        let key = pos.zobrist();
        if let Some(&(won, lost)) = self.table.get(&key) {
            if won != 0 && u32::from(won) <= n {
                return Ok(true);
            }
            if u32::from(lost) >= n {
                return Ok(false);
            }
        }
        let list = pos.legal_move_list();
        let mut win = false;
        for &mv in list.as_slice() {
            if self.wins_after(pos, mv, n)? {
                win = true;
                break;
            }
        }
        let e = self.table.entry(key).or_insert((0, 0));
        if win {
            if e.0 == 0 || u32::from(e.0) > n {
                e.0 = n as u8;
            }
        } else {
            e.1 = e.1.max(n as u8);
        }
        Ok(win)
    }

    /// Whether the side to move wins within `n` of its moves when it plays `mv` (which must be
    /// legal), against every reply.
    pub fn wins_after(
        &mut self,
        pos: &mut Position,
        mv: Move,
        n: u32,
    ) -> Result<bool, OutOfBudget> {
        if n == 0 {
            return Ok(false);
        }
        self.tick()?;
        let undo = pos.make(mv);
        let r = self.defended(pos, n);
        pos.unmake(mv, undo);
        r
    }

    /// After the attacker's move, with `n` attacker moves counted including it: does every
    /// defence lose within `n - 1` more?
    fn defended(&mut self, pos: &mut Position, n: u32) -> Result<bool, OutOfBudget> {
        if n == 1 {
            // Checkmate and stalemate both lose for the side that cannot move.
            return Ok(!pos.has_legal_move());
        }
        let replies = pos.legal_move_list();
        if replies.is_empty() {
            return Ok(true);
        }
        if !pos.any_attacker() {
            return Ok(false);
        }
        for &r in replies.as_slice() {
            self.tick()?;
            let undo = pos.make(r);
            // Taken back before `?`: a search out of budget leaves the position as it found it.
            let lost = if pos.any_attacker() {
                self.wins_within(pos, n - 1)
            } else {
                Ok(false)
            };
            pos.unmake(r, undo);
            if !lost? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// The fewest moves (1..=`max_n`) the side to move wins in, or `None`.
    pub fn distance(&mut self, pos: &mut Position, max_n: u32) -> Result<Option<u32>, OutOfBudget> {
        for n in 1..=max_n {
            if self.wins_within(pos, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// The legal moves that win within `n` moves.
    pub fn winning_moves(&mut self, pos: &mut Position, n: u32) -> Result<Vec<Move>, OutOfBudget> {
        let list = pos.legal_move_list();
        let mut out = Vec::new();
        for &mv in list.as_slice() {
            if self.wins_after(pos, mv, n)? {
                out.push(mv);
            }
        }
        Ok(out)
    }
}

/// A proven puzzle: the position's exact distance and the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// Moves of the side to move until the win.
    pub n: u32,
    /// The line: the player's moves and the recorded (longest) defences, `2n - 1` moves.
    pub line: Vec<Move>,
    /// Legal moves in the puzzle's position.
    pub legal: usize,
    /// Nodes the proof took.
    pub nodes: u64,
}

/// The verdict of [`prove`] on a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A win in `n`, unique at every step asked, with a line free of repetitions.
    Unique(Solved),
    /// A win in `n`, but with several winning moves at step `step` (0 = the first move).
    NotUnique {
        /// The distance.
        n: u32,
        /// The player's step (0, 1, ...) with several winning moves.
        step: u32,
        /// The winning moves there.
        moves: Vec<Move>,
    },
    /// A position repeats along the line.
    Repeats,
    /// No win within the moves allowed.
    NoWin,
    /// The node budget ran out before the proof was complete.
    Undecided,
}

fn longest_defences(
    s: &mut MateSearch,
    pos: &mut Position,
    k: u32,
) -> Result<Vec<Move>, OutOfBudget> {
    // After the player's move, `k` player moves remained including it: every reply loses
    // within `k - 1`; the longest ones take exactly `k - 1`.
    let replies = pos.legal_move_list();
    let mut out = Vec::new();
    for &r in replies.as_slice() {
        let undo = pos.make(r);
        let faster = s.wins_within(pos, k - 2);
        pos.unmake(r, undo);
        if !faster? {
            out.push(r);
        }
    }
    Ok(out)
}

/// A line, or the step with several winning moves and those moves.
type LineOrSeveral = Result<Vec<Move>, (u32, Vec<Move>)>;

/// Builds the line from `pos` with `k` moves to win: `Ok(Err(step, moves))` when a step has
/// several winning moves on every choice of longest defence.
fn build_line(
    s: &mut MateSearch,
    pos: &mut Position,
    k: u32,
    step: u32,
) -> Result<LineOrSeveral, OutOfBudget> {
    let winners = s.winning_moves(pos, k)?;
    if winners.len() != 1 {
        return Ok(Err((step, winners)));
    }
    let mv = winners[0];
    if k == 1 {
        return Ok(Ok(vec![mv]));
    }
    let undo = pos.make(mv);
    let defences = longest_defences(s, pos, k);
    let defences = match defences {
        Ok(d) => d,
        Err(e) => {
            pos.unmake(mv, undo);
            return Err(e);
        }
    };
    let mut first_failure = None;
    let mut found = None;
    for &r in &defences {
        let u2 = pos.make(r);
        let rest = build_line(s, pos, k - 1, step + 1);
        pos.unmake(r, u2);
        let rest = match rest {
            Ok(rest) => rest,
            Err(e) => {
                pos.unmake(mv, undo);
                return Err(e);
            }
        };
        match rest {
            Ok(rest) => {
                let mut line = vec![mv, r];
                line.extend(rest);
                found = Some(line);
                break;
            }
            Err(e) => {
                first_failure.get_or_insert(e);
            }
        }
    }
    pos.unmake(mv, undo);
    Ok(match (found, first_failure) {
        (Some(line), _) => Ok(line),
        (None, Some(e)) => Err(e),
        // No longest defence: cannot happen when `k` is exact; reported as not unique.
        (None, None) => Err((step, vec![mv])),
    })
}

/// Whether a position repeats along `line` played from `pos`, or a capture leaves no attacker.
fn line_is_clean(pos: &Position, line: &[Move]) -> bool {
    let mut p = pos.clone();
    for &mv in line {
        if !p.is_legal(mv) {
            return false;
        }
        p.make(mv);
        if p.repetitions() > 0 {
            return false;
        }
        if p.has_legal_move() && !p.any_attacker() {
            return false;
        }
    }
    true
}

/// Proves a position (its game record is ignored): the exact distance to a win within `max_n`
/// moves, uniqueness at every step, a clean line; at most `budget` nodes.
pub fn prove(pos: &Position, max_n: u32, budget: u64) -> Verdict {
    let mut s = MateSearch::new(budget);
    match prove_with(&mut s, pos, max_n) {
        Ok(v) => v,
        Err(OutOfBudget) => Verdict::Undecided,
    }
}

fn prove_with(s: &mut MateSearch, pos: &Position, max_n: u32) -> Result<Verdict, OutOfBudget> {
    let mut p = pos.played_on();
    let Some(n) = s.distance(&mut p, max_n.min(MAX_N))? else {
        return Ok(Verdict::NoWin);
    };
    let legal = p.legal_move_list().len();
    match build_line(s, &mut p, n, 0)? {
        Err((step, moves)) => Ok(Verdict::NotUnique { n, step, moves }),
        Ok(line) => {
            if !line_is_clean(&p, &line) {
                return Ok(Verdict::Repeats);
            }
            Ok(Verdict::Unique(Solved {
                n,
                line,
                legal,
                nodes: s.nodes,
            }))
        }
    }
}

fn kind_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "general",
        PieceKind::Advisor => "advisor",
        PieceKind::Elephant => "elephant",
        PieceKind::Horse => "horse",
        PieceKind::Rook => "chariot",
        PieceKind::Cannon => "cannon",
        PieceKind::Pawn => "pawn",
    }
}

/// The themes and the rating estimate of a proven puzzle (see the module docs).
pub fn themes_and_rating(pos: &Position, solved: &Solved) -> (Vec<String>, f64) {
    let mut themes = vec![format!("mate-in-{}", solved.n)];
    let mut p = pos.played_on();
    let first = solved.line[0];
    let took = p
        .piece_at(first.to())
        .map_or(0, |(k, _)| PIECE_VALUES[k as usize]);
    let mut quiet = false;
    let mut sacrifice = false;
    for (i, &mv) in solved.line.iter().enumerate() {
        let mover = p.piece_at(mv.from()).map(|(k, _)| k);
        let captured = p.piece_at(mv.to()).map(|(k, _)| k);
        if i == 1 {
            let lost = captured.map_or(0, |k| PIECE_VALUES[k as usize]);
            sacrifice = lost > took;
        }
        p.make(mv);
        if i == 0 {
            quiet = captured.is_none() && !p.in_check();
        }
        if i + 1 == solved.line.len() {
            if let Some(k) = mover {
                themes.push(kind_name(k).to_string());
            }
            if !p.in_check() {
                themes.push("stalemate".to_string());
            }
        }
    }
    if quiet {
        themes.push("quiet-move".to_string());
    }
    if sacrifice {
        themes.push("sacrifice".to_string());
    }
    if solved.legal == 1 {
        themes.push("only-move".to_string());
    }
    let r = 900.0
        + 300.0 * (solved.n as f64 - 1.0)
        + 10.0 * (solved.legal as f64 - 20.0)
        + if quiet { 200.0 } else { 0.0 }
        + if sacrifice { 100.0 } else { 0.0 };
    (themes, r.clamp(600.0, 2800.0))
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::Red => "red",
        Color::Black => "black",
    }
}

/// The puzzle record of a proven position (`source` says where it came from).
pub fn record(id: String, pos: &Position, solved: &Solved, source: Source) -> PuzzleRecord {
    let p = pos.played_on();
    let (themes, rating) = themes_and_rating(&p, solved);
    let n = solved.n;
    PuzzleRecord {
        id,
        game: GAME.to_string(),
        variant: None,
        position: p.to_fen(),
        goal: Some(format!("mate in {n}")),
        side: side_name(p.side_to_move()).to_string(),
        solution: solved.line.iter().map(|m| m.to_string()).collect(),
        asked: (0..solved.line.len()).step_by(2).collect(),
        themes,
        rating: Rating::estimate(rating),
        source,
        proof: Proof::Exact {
            by: "mate search".to_string(),
            detail: format!(
                "exact mate search over every legal move of both sides to {} plies: {} wins in {n} against every defence and in no fewer; each of the other {} legal moves is proven not to win in {n}; at each later step the solution's move is the only one that wins in time, and each reply is a longest defence",
                2 * n - 1,
                solved.line[0],
                solved.legal - 1
            ),
        },
    }
}

/// What to mine from self-play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MineOptions {
    /// The run's seed (game `i` uses `Rng::derive(seed, i)`).
    pub seed: u64,
    /// The engine's fixed depth per move.
    pub depth: u32,
    /// Random plies after the opening: uniformly `0..=random_plies`.
    pub random_plies: u32,
    /// The longest mate kept, in the player's moves (at most [`MAX_N`]).
    pub max_n: u32,
    /// Mate-search nodes per candidate position before it is given up.
    pub budget: u64,
    /// Which puzzles to mine.
    pub kind: Kind,
    /// The material puzzles' proof depth ([`material::analyse`]), in plies.
    pub proof_depth: u32,
}

/// Which puzzles a miner keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Kind {
    /// Mates in N, proven by the mate search.
    #[default]
    Mate,
    /// Material and decisive-advantage puzzles, an engine verdict with a margin
    /// ([`material`]).
    Material,
    /// Both.
    All,
}

impl Kind {
    /// The kind's name on the command line and in a run's manifest.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Mate => "mate",
            Kind::Material => "material",
            Kind::All => "all",
        }
    }

    fn mates(self) -> bool {
        matches!(self, Kind::Mate | Kind::All)
    }

    fn material(self) -> bool {
        matches!(self, Kind::Material | Kind::All)
    }
}

impl MineOptions {
    /// Defaults: depth 5, up to 4 random plies, mates in up to 3, 20 million nodes a candidate,
    /// mates only (material puzzles proven at depth [`material::DEFAULT_DEPTH`] when asked for).
    pub fn new(seed: u64) -> Self {
        MineOptions {
            seed,
            depth: 5,
            random_plies: 4,
            max_n: 3,
            budget: 20_000_000,
            kind: Kind::Mate,
            proof_depth: material::DEFAULT_DEPTH,
        }
    }

    /// The line that names a run (a resumed run must have the same one). A mate run's line is
    /// the one it had before material puzzles existed, so their run logs still resume.
    pub fn manifest(&self) -> String {
        format!(
            "qiyi puzzles mine xiangqi: seed {} depth {} random_plies {} max_n {} budget {} max_plies {}{}",
            self.seed,
            self.depth,
            self.random_plies,
            self.max_n,
            self.budget,
            crate::learn::MAX_PLIES,
            self.kind_manifest()
        )
    }

    /// What a run of another kind than mates adds to its manifest.
    pub fn kind_manifest(&self) -> String {
        match self.kind {
            Kind::Mate => String::new(),
            k => format!(
                " kind {} proof_depth {} margin {}",
                k.name(),
                self.proof_depth,
                material::MIN_MARGIN_CP
            ),
        }
    }
}

/// Counts from mining games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MineStats {
    /// Games played.
    pub games: u64,
    /// Positions the engine scored as a win in at most `max_n` moves.
    pub candidates: u64,
    /// Candidates proven unique (kept unless duplicates).
    pub passed: u64,
    /// Candidates with several winning moves at some step.
    pub not_unique: u64,
    /// Candidates the mate search found no win in for (the engine's score was a horizon effect).
    pub no_win: u64,
    /// Candidates whose line repeats a position.
    pub repeats: u64,
    /// Candidates given up at the node budget.
    pub undecided: u64,
    /// Mate-search nodes.
    pub nodes: u64,
    /// Material candidates: positions the self-play search scored at least
    /// [`material::MIN_SCORE_CP`] (not a mate) with the mover at most
    /// [`material::MAX_AHEAD_CP`] ahead in material.
    pub material_candidates: u64,
    /// Material candidates kept.
    pub material_passed: u64,
    /// Material candidates whose best move's margin was too small.
    pub small_margin: u64,
    /// Material candidates rejected for another reason of [`material::judge`].
    pub material_rejected: u64,
    /// Material candidates whose best move recaptures on the last move's square.
    pub recaptures: u64,
}

impl MineStats {
    /// Adds another run's counts.
    pub fn add(&mut self, o: &MineStats) {
        self.games += o.games;
        self.candidates += o.candidates;
        self.passed += o.passed;
        self.not_unique += o.not_unique;
        self.no_win += o.no_win;
        self.repeats += o.repeats;
        self.undecided += o.undecided;
        self.nodes += o.nodes;
        self.material_candidates += o.material_candidates;
        self.material_passed += o.material_passed;
        self.small_margin += o.small_margin;
        self.material_rejected += o.material_rejected;
        self.recaptures += o.recaptures;
    }
}

/// Plays game `index` of the seeded run and returns its proven puzzles (ids
/// `xq-SEED-GAME-PLY` for mates, `xqm-SEED-GAME-PLY` for material puzzles, in ply order) and
/// the counts. Depends on the options and `index` only.
pub fn mine_game(
    opts: &MineOptions,
    openings: &[Position],
    index: u64,
) -> (Vec<PuzzleRecord>, MineStats) {
    let config = SelfPlayConfig {
        games: 1,
        games_per_shard: 1,
        seed: opts.seed,
        threads: 1,
        random_plies: opts.random_plies,
        max_plies: crate::learn::MAX_PLIES,
    };
    let mut engine = miner_engine(opts);
    let limits = SearchLimits::depth(opts.depth.max(1));
    let mut search = |pos: &Position| {
        let r = engine.think(pos, &limits, |_| {});
        r.best_move.map(|m| (m, r.score))
    };
    let (kept, _) = play_game_keeping(openings, index, &config, &mut search, |pos, score| {
        candidate(opts, pos, score).is_some()
    });
    let kept = kept
        .into_iter()
        .filter_map(|(pos, score, ply)| candidate(opts, &pos, score).map(|c| (pos, ply, c)))
        .collect();
    let seed = opts.seed;
    prove_kept(opts, kept, |ply, c| {
        let prefix = match c {
            Candidate::Mate => "xq",
            Candidate::Material => "xqm",
        };
        (
            format!("{prefix}-{seed}-{index}-{ply}"),
            Source::SelfPlay {
                seed,
                game: index,
                ply: ply as u32,
            },
        )
    })
}

/// What a candidate position is proposed as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Candidate {
    /// A mate in at most `max_n` (the engine's score announces it).
    Mate,
    /// A material puzzle (the engine's score is clearly ahead, not a mate, with level material).
    Material,
}

/// Whether the engine's `score` of `pos` (side to move's view) makes it a candidate of the
/// options' kind, and of which.
fn candidate(opts: &MineOptions, pos: &Position, score: Score) -> Option<Candidate> {
    if opts.kind.mates() && announces_mate(opts, score) {
        return Some(Candidate::Mate);
    }
    if opts.kind.material()
        && score.abs() < crate::engine::RULE_WIN - 1_000
        && score >= material::MIN_SCORE_CP
        && crate::engine::material(pos, pos.side_to_move()) <= material::MAX_AHEAD_CP
    {
        return Some(Candidate::Material);
    }
    None
}

/// Walks a recorded game (`moves` played from `start`) the way [`mine_game`] walks a self-play
/// one: the engine at the options' depth searches every position of the game (the last one
/// too, unless the game is over there), the positions whose score announces a win in at most
/// `max_n` moves are the mate candidates (and, for material puzzles, those clearly ahead with
/// level material the material candidates), and each is proven as in [`mine_game`]. `label`
/// gives the id and the source of the puzzle of a kind found after `ply` moves. Depends on its
/// arguments only.
pub fn mine_record(
    opts: &MineOptions,
    start: &Position,
    moves: &[Move],
    label: impl Fn(usize, Candidate) -> (String, Source),
) -> (Vec<PuzzleRecord>, MineStats) {
    let mut engine = miner_engine(opts);
    let limits = SearchLimits::depth(opts.depth.max(1));
    let mut pos = start.clone();
    let mut kept = Vec::new();
    for ply in 0..=moves.len() {
        if pos.turn() == Turn::Over {
            break;
        }
        let r = engine.think(&pos, &limits, |_| {});
        if r.best_move.is_some() {
            if let Some(c) = candidate(opts, &pos, r.score) {
                kept.push((pos.clone(), ply, c));
            }
        }
        if let Some(&mv) = moves.get(ply) {
            pos.make(mv);
        }
    }
    prove_kept(opts, kept, label)
}

/// The engine the miners search with (the self-play engine's settings).
fn miner_engine(opts: &MineOptions) -> Engine {
    Engine::new(EngineConfig {
        hash_mib: crate::learn::HASH_MIB,
        threads: 1,
        level: Level::Strength(10),
        seed: opts.seed,
        net: None,
    })
}

/// Whether the engine's `score` announces a win in at most `max_n` moves (a candidate).
fn announces_mate(opts: &MineOptions, score: Score) -> bool {
    let max_n = opts.max_n.clamp(1, MAX_N);
    score >= MATE - (2 * max_n - 1) as Score
}

/// Proves the candidate positions `kept` (each with its ply and kind), keeping the puzzles under
/// the id and source `label` gives their ply and kind; one game's puzzles and counts.
fn prove_kept(
    opts: &MineOptions,
    kept: Vec<(Position, usize, Candidate)>,
    label: impl Fn(usize, Candidate) -> (String, Source),
) -> (Vec<PuzzleRecord>, MineStats) {
    let max_n = opts.max_n.clamp(1, MAX_N);
    let mut stats = MineStats {
        games: 1,
        ..Default::default()
    };
    let mut out = Vec::new();
    for (pos, ply, c) in kept {
        if c == Candidate::Material {
            stats.material_candidates += 1;
            match material::prove(&pos, opts.proof_depth) {
                Ok(a) => {
                    // A recapture on the opponent's last square is too easy to ask.
                    if pos
                        .moves_played()
                        .last()
                        .is_some_and(|m| m.to() == a.best.to())
                    {
                        stats.recaptures += 1;
                        continue;
                    }
                    stats.material_passed += 1;
                    let (id, source) = label(ply, c);
                    out.push(material::record(id, &pos, &a, source));
                }
                Err(material::Rejection::SmallMargin(_)) => stats.small_margin += 1,
                Err(_) => stats.material_rejected += 1,
            }
            continue;
        }
        stats.candidates += 1;
        let mut s = MateSearch::new(opts.budget);
        let v = prove_with(&mut s, &pos, max_n).unwrap_or(Verdict::Undecided);
        stats.nodes += s.nodes;
        match v {
            Verdict::Unique(solved) => {
                stats.passed += 1;
                let (id, source) = label(ply, c);
                out.push(record(id, &pos, &solved, source));
            }
            Verdict::NotUnique { .. } => stats.not_unique += 1,
            Verdict::NoWin => stats.no_win += 1,
            Verdict::Repeats => stats.repeats += 1,
            Verdict::Undecided => stats.undecided += 1,
        }
    }
    (out, stats)
}

/// Why a Xiangqi puzzle failed its check.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// The puzzle is for another game.
    #[error("not a xiangqi puzzle (game `{0}`)")]
    WrongGame(String),
    /// The position is not a FEN.
    #[error("position: {0}")]
    Fen(crate::error::XiangqiError),
    /// The side named is not the side to move.
    #[error("side `{found}` is not the side to move ({want})")]
    WrongSide {
        /// The side in the puzzle.
        found: String,
        /// The side to move.
        want: String,
    },
    /// The solution's length is not `2N - 1` for an `N` the prover handles.
    #[error("a solution of {0} moves is not a mate in 1..={MAX_N}")]
    Length(usize),
    /// The asked moves are not the player's moves 0, 2, 4, ...
    #[error("asked {0:?}: every move of the player is asked (0, 2, 4, ...)")]
    Asked(Vec<usize>),
    /// The goal text is not `mate in N`.
    #[error("goal `{found}` is not `{want}`")]
    WrongGoal {
        /// The goal in the puzzle.
        found: String,
        /// The goal the solution's length says.
        want: String,
    },
    /// A move of the solution cannot be played.
    #[error("solution move {index} `{text}`: {source}")]
    Move {
        /// Its index in the solution.
        index: usize,
        /// The text.
        text: String,
        /// Why not.
        #[source]
        source: crate::error::XiangqiError,
    },
    /// The line repeats a position or leaves no attacker.
    #[error("the line repeats a position or leaves no attacker on the board")]
    NotClean,
    /// The line does not end with the defender unable to move.
    #[error("the defender can still move after the solution")]
    NoMate,
    /// The win is faster than the solution says.
    #[error("the side to move wins in fewer than {0} moves")]
    Faster(u32),
    /// A step has other winning moves, or the solution's move does not win in time.
    #[error("step {step}: the winning moves are [{winners}], the solution plays {played}")]
    NotUnique {
        /// The player's step (0, 1, ...).
        step: usize,
        /// The moves that win in time there.
        winners: String,
        /// The solution's move.
        played: String,
    },
    /// A recorded reply is not a longest defence.
    #[error("reply {index} `{text}` is not a longest defence")]
    ShortDefence {
        /// Its index in the solution.
        index: usize,
        /// The text.
        text: String,
    },
    /// The mate search ran out of its budget.
    #[error("the mate search's budget ran out")]
    Undecided,
    /// A material puzzle's proof depth is outside 1..=[`material::MAX_DEPTH`].
    #[error("proof depth {0} is outside 1..={max}", max = material::MAX_DEPTH)]
    Depth(u32),
    /// A material puzzle's first move is not the engine's best.
    #[error("the solution plays {found}, the engine's best move is {want}")]
    BestMove {
        /// The solution's first move.
        found: String,
        /// The engine's best move.
        want: String,
    },
    /// A material puzzle's position is no longer a puzzle by the engine's verdict.
    #[error("not a material puzzle: {0}")]
    Rejected(material::Rejection),
    /// A recorded field of a material puzzle differs from the replayed search's.
    #[error("{field}: recorded `{found}`, the search gives `{want}`")]
    Recorded {
        /// The field.
        field: &'static str,
        /// What the puzzle records.
        found: String,
        /// What the search gives.
        want: String,
    },
}

/// The puzzle's position with its record cleared, after checking the game and the side.
fn start_of(p: &PuzzleRecord) -> Result<Position, CheckError> {
    if p.game != GAME {
        return Err(CheckError::WrongGame(p.game.clone()));
    }
    let start = Position::from_fen(&p.position)
        .map_err(CheckError::Fen)?
        .played_on();
    let want = side_name(start.side_to_move());
    if p.side != want {
        return Err(CheckError::WrongSide {
            found: p.side.clone(),
            want: want.to_string(),
        });
    }
    Ok(start)
}

/// The moves of `solution` played from `start`, and the position they reach; the first move
/// that is not legal text is the error.
fn replay(start: &Position, solution: &[String]) -> Result<(Vec<Move>, Position), CheckError> {
    let mut line = Vec::with_capacity(solution.len());
    let mut pos = start.clone();
    for (index, text) in solution.iter().enumerate() {
        let mv = pos
            .parse_move_text(text)
            .map_err(|source| CheckError::Move {
                index,
                text: text.clone(),
                source,
            })?;
        pos.make(mv);
        line.push(mv);
    }
    Ok((line, pos))
}

/// Replays a puzzle from its text and proves it again. A material puzzle (an engine verdict,
/// [`Proof::Engine`]) is replayed by [`material::check_puzzle`] (`budget` does not apply); a
/// mate puzzle is proven with a fresh mate search of at most `budget` nodes: the exact distance, uniqueness at every asked step, longest defences, a line
/// without repetition ending with the defender unable to move.
pub fn check_puzzle(p: &PuzzleRecord, budget: u64) -> Result<(), CheckError> {
    if matches!(p.proof, Proof::Engine { .. }) {
        return material::check_puzzle(p);
    }
    let start = start_of(p)?;
    let len = p.solution.len();
    if len % 2 == 0 || len > (2 * MAX_N - 1) as usize {
        return Err(CheckError::Length(len));
    }
    let n = len.div_ceil(2) as u32;
    let asked: Vec<usize> = (0..len).step_by(2).collect();
    if p.asked != asked {
        return Err(CheckError::Asked(p.asked.clone()));
    }
    let goal = format!("mate in {n}");
    if p.goal.as_deref() != Some(goal.as_str()) {
        return Err(CheckError::WrongGoal {
            found: p.goal.clone().unwrap_or_default(),
            want: goal,
        });
    }
    let (line, pos) = replay(&start, &p.solution)?;
    if pos.has_legal_move() {
        return Err(CheckError::NoMate);
    }
    if !line_is_clean(&start, &line) {
        return Err(CheckError::NotClean);
    }
    let mut s = MateSearch::new(budget);
    let r = (|| -> Result<Result<(), CheckError>, OutOfBudget> {
        let mut pos = start.clone();
        if s.wins_within(&mut pos, n - 1)? {
            return Ok(Err(CheckError::Faster(n)));
        }
        for (i, &mv) in line.iter().enumerate() {
            let k = n - (i / 2) as u32;
            if i % 2 == 0 {
                let winners = s.winning_moves(&mut pos, k)?;
                if winners != [mv] {
                    return Ok(Err(CheckError::NotUnique {
                        step: i / 2,
                        winners: winners
                            .iter()
                            .map(|m| m.to_string())
                            .collect::<Vec<_>>()
                            .join(", "),
                        played: mv.to_string(),
                    }));
                }
            } else {
                // The reply after the player's move with `k` moves left: the win must still take
                // `k - 1` more (a longest defence). Every other reply is covered by
                // `winning_moves` above, which proved the player's move against all of them.
                let mut after = pos.clone();
                after.make(mv);
                if s.wins_within(&mut after, k - 2)? {
                    return Ok(Err(CheckError::ShortDefence {
                        index: i,
                        text: p.solution[i].clone(),
                    }));
                }
            }
            pos.make(mv);
        }
        Ok(Ok(()))
    })();
    match r {
        Ok(r) => r,
        Err(OutOfBudget) => Err(CheckError::Undecided),
    }
}

/// The source of the tests' hand-made puzzles.
#[cfg(test)]
fn tests_source() -> Source {
    Source::Enumeration {
        by: "test".into(),
        index: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plain minimax written here, apart from [`MateSearch`]: does the side to move win within
    /// `n` moves (no table, no budget)?
    fn plain_wins(pos: &Position, n: u32) -> bool {
        if n == 0 {
            return false;
        }
        pos.legal_move_list()
            .as_slice()
            .iter()
            .any(|&mv| plain_wins_after(pos, mv, n))
    }

    fn plain_wins_after(pos: &Position, mv: Move, n: u32) -> bool {
        let mut p = pos.clone();
        p.make(mv);
        let replies = p.legal_move_list();
        if replies.is_empty() {
            return true;
        }
        if n == 1 || !p.any_attacker() {
            return false;
        }
        replies.as_slice().iter().all(|&r| {
            let mut q = p.clone();
            q.make(r);
            q.any_attacker() && plain_wins(&q, n - 1)
        })
    }

    fn plain_winners(pos: &Position, n: u32) -> Vec<String> {
        pos.legal_move_list()
            .as_slice()
            .iter()
            .filter(|&&mv| plain_wins_after(pos, mv, n))
            .map(|m| m.to_string())
            .collect()
    }

    const MATE_IN_1: &str = "3k5/7R1/3a5/9/9/9/8p/9/R8/4K4 w";
    const TWO_MATES: &str = "3k5/7R1/9/9/9/9/8p/9/R8/4K4 w";

    fn unique(fen: &str, max_n: u32) -> Solved {
        let pos = Position::from_fen(fen).unwrap();
        match prove(&pos, max_n, 50_000_000) {
            Verdict::Unique(s) => s,
            other => panic!("{fen}: {other:?}"),
        }
    }

    #[test]
    fn a_hand_made_mate_in_one_is_proven_and_checked() {
        let s = unique(MATE_IN_1, 3);
        assert_eq!(s.n, 1);
        assert_eq!(s.line.len(), 1);
        let pos = Position::from_fen(MATE_IN_1).unwrap();
        assert_eq!(plain_winners(&pos, 1), vec![s.line[0].to_string()]);
        let p = record("t-1".into(), &pos, &s, source());
        assert!(p.themes.contains(&"mate-in-1".to_string()));
        assert!(p.themes.contains(&"chariot".to_string()));
        check_puzzle(&p, 10_000_000).unwrap();
    }

    #[test]
    fn a_search_out_of_budget_leaves_the_position_unchanged() {
        let start = Position::from_fen(MATE_IN_2).unwrap().played_on();
        for budget in [1, 5, 50, 500, 1_500] {
            let mut s = MateSearch::new(budget);
            let mut pos = start.clone();
            let _ = s.wins_within(&mut pos, 3);
            assert_eq!(pos.to_fen(), start.to_fen());
            assert_eq!(pos.zobrist(), start.zobrist());
            assert_eq!(prove(&start, 3, budget), Verdict::Undecided, "{budget}");
        }
    }

    #[test]
    fn two_mating_moves_are_not_unique() {
        let pos = Position::from_fen(TWO_MATES).unwrap();
        let mut w = plain_winners(&pos, 1);
        w.sort();
        assert_eq!(w, vec!["a1a9".to_string(), "a1d1".to_string()]);
        match prove(&pos, 3, 10_000_000) {
            Verdict::NotUnique {
                n: 1,
                step: 0,
                moves,
            } => assert_eq!(moves.len(), 2),
            other => panic!("{other:?}"),
        }
    }

    fn source() -> Source {
        super::tests_source()
    }

    /// A mate in 2 met in game 2 of seed 1 (the chariot on d6 mates on d7 after b7-b8).
    const MATE_IN_2: &str = "2b2ab2/2Nk5/1C1a5/p2R4p/6p2/c1PC5/6P1P/9/4K4/2BA3N1 w";

    #[test]
    fn a_hand_made_mate_in_two_is_proven_against_an_independent_search() {
        let s = unique(MATE_IN_2, 3);
        assert_eq!(s.n, 2);
        assert_eq!(s.line.len(), 3);
        let pos = Position::from_fen(MATE_IN_2).unwrap();
        assert!(!plain_wins(&pos, 1));
        assert_eq!(plain_winners(&pos, 2), vec![s.line[0].to_string()]);
        let mut after = pos.clone();
        after.make(s.line[0]);
        after.make(s.line[1]);
        assert_eq!(plain_winners(&after, 1), vec![s.line[2].to_string()]);
        let p = record("t-2".into(), &pos, &s, source());
        assert_eq!(p.asked, vec![0, 2]);
        check_puzzle(&p, 10_000_000).unwrap();
    }

    #[test]
    fn a_tampered_puzzle_fails_its_check() {
        let pos = Position::from_fen(MATE_IN_2).unwrap();
        let s = unique(MATE_IN_2, 3);
        let p = record("t-2".into(), &pos, &s, source());
        check_puzzle(&p, 10_000_000).unwrap();
        // Another legal first move.
        let other = pos
            .legal_move_list()
            .as_slice()
            .iter()
            .map(|m| m.to_string())
            .find(|t| *t != p.solution[0])
            .unwrap();
        let mut bad = p.clone();
        bad.solution[0] = other;
        assert!(check_puzzle(&bad, 10_000_000).is_err());
        // The last move dropped: a mate in 1 that does not end the game, and the asked indices
        // no longer fit.
        let mut bad = p.clone();
        bad.solution.truncate(1);
        bad.asked = vec![0];
        bad.goal = Some("mate in 1".into());
        assert!(check_puzzle(&bad, 10_000_000).is_err());
        // An altered position: the Red cannon on b7 removed.
        let mut bad = p.clone();
        bad.position = bad.position.replacen("1C1a5", "3a5", 1);
        assert_ne!(bad.position, p.position);
        assert!(check_puzzle(&bad, 10_000_000).is_err());
        let mut bad = p.clone();
        bad.position = "not a fen".into();
        assert!(matches!(
            check_puzzle(&bad, 10_000_000),
            Err(CheckError::Fen(_))
        ));
        let mut bad = p.clone();
        bad.side = "black".into();
        assert!(matches!(
            check_puzzle(&bad, 10_000_000),
            Err(CheckError::WrongSide { .. })
        ));
        let mut bad = p.clone();
        bad.game = "checkers".into();
        assert!(matches!(
            check_puzzle(&bad, 10_000_000),
            Err(CheckError::WrongGame(_))
        ));
        let mut bad = p;
        bad.solution[1] = "zz".into();
        assert!(matches!(
            check_puzzle(&bad, 10_000_000),
            Err(CheckError::Move { index: 1, .. })
        ));
    }

    #[test]
    fn mined_games_give_proven_puzzles() {
        let openings = crate::learn::openings().unwrap();
        let opts = MineOptions {
            depth: 3,
            max_n: 2,
            ..MineOptions::new(1)
        };
        let mut all = Vec::new();
        let mut stats = MineStats::default();
        for g in 0..4 {
            let (ps, st) = mine_game(&opts, &openings, g);
            stats.add(&st);
            all.extend(ps);
        }
        assert_eq!(stats.games, 4);
        assert!(stats.candidates >= stats.passed);
        for p in &all {
            check_puzzle(p, 10_000_000).unwrap();
            let pos = Position::from_fen(&p.position).unwrap();
            let n = p.solution.len().div_ceil(2) as u32;
            assert_eq!(
                plain_winners(&pos, n),
                vec![p.solution[0].clone()],
                "{}",
                p.id
            );
        }
        // Deterministic: the same game gives the same puzzles.
        assert_eq!(
            mine_game(&opts, &openings, 0).0,
            mine_game(&opts, &openings, 0).0
        );
    }

    /// The shipped set (`crates/xiangqi/puzzles/xiangqi.jsonl`): a sample of it proven again,
    /// and every mate in 1 or 2 of the sample unique by the plain search written here; both
    /// kinds are there (1,038 mates, then 244 material puzzles).
    #[test]
    fn the_shipped_set_is_proven_on_a_sample() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/xiangqi.jsonl");
        let file = std::fs::File::open(path).expect("the shipped puzzle file");
        let puzzles = qiyi_core::puzzles::read_puzzles(std::io::BufReader::new(file)).unwrap();
        assert!(puzzles.len() >= 100, "{} puzzles", puzzles.len());
        let material = puzzles
            .iter()
            .filter(|p| matches!(p.proof, Proof::Engine { .. }))
            .count();
        assert!(material >= 200, "{material} material puzzles");
        let mut ids = std::collections::HashSet::new();
        for p in &puzzles {
            assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
            assert_eq!(p.game, GAME);
        }
        let step = (puzzles.len() / 40).max(1);
        for p in puzzles.iter().step_by(step) {
            check_puzzle(p, 50_000_000).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            let n = p.solution.len().div_ceil(2) as u32;
            if n <= 2 && matches!(p.proof, Proof::Exact { .. }) {
                let pos = Position::from_fen(&p.position).unwrap();
                assert_eq!(
                    plain_winners(&pos, n),
                    vec![p.solution[0].clone()],
                    "{}",
                    p.id
                );
            }
        }
    }

    /// The shipped set's run log still names the mate run its documented command starts, so that
    /// command resumes it (`--kind mate`, the default, adds nothing to the manifest).
    #[test]
    fn the_shipped_run_log_is_the_default_kinds_manifest() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/xiangqi.jsonl.games");
        let log = std::fs::read_to_string(path).expect("the shipped run log");
        let opts = MineOptions {
            depth: 6,
            max_n: 5,
            ..MineOptions::new(1)
        };
        assert_eq!(log.lines().next(), Some(opts.manifest().as_str()));
    }

    #[test]
    fn mined_games_give_checked_material_puzzles() {
        let openings = crate::learn::openings().unwrap();
        let opts = MineOptions {
            depth: 4,
            kind: Kind::Material,
            proof_depth: 6,
            ..MineOptions::new(1)
        };
        let mut all = Vec::new();
        let mut stats = MineStats::default();
        for g in 0..3 {
            let (ps, st) = mine_game(&opts, &openings, g);
            stats.add(&st);
            all.extend(ps);
        }
        assert_eq!(stats.candidates, 0);
        assert!(stats.material_candidates >= stats.material_passed);
        assert_eq!(stats.material_passed as usize, all.len());
        assert!(!all.is_empty(), "{stats:?}");
        for p in &all {
            assert!(p.id.starts_with("xqm-1-"), "{}", p.id);
            check_puzzle(p, 1).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]
        /// Checking never panics, whatever the position, the moves and the asked indices.
        #[test]
        fn checking_a_mangled_puzzle_never_panics(
            fen in "[rnbakcpRNBAKCP1-9/]{0,60}( [wb])?",
            moves in proptest::collection::vec("[a-j][0-9][a-j][0-9]|[A-Z][0-9][=+-][0-9]|.{0,6}", 0..10),
            cut in 0usize..100,
            asked in proptest::collection::vec(0usize..12, 0..6),
        ) {
            let pos = Position::from_fen(MATE_IN_2).unwrap();
            let s = unique(MATE_IN_2, 3);
            let mut p = record("t".into(), &pos, &s, source());
            p.position = fen.clone();
            let _ = check_puzzle(&p, 20_000);
            let mut q = record("t".into(), &pos, &s, source());
            q.solution = moves.clone();
            q.asked = asked.clone();
            let _ = check_puzzle(&q, 20_000);
            let mut r = record("t".into(), &pos, &s, source());
            r.position = r.position.chars().take(cut).collect();
            let _ = check_puzzle(&r, 20_000);
        }
    }
}
