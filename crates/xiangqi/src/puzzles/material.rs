//! Xiangqi "win material" and "decisive advantage" puzzles: an engine verdict with a margin.
//!
//! **The puzzle**: a position where one move wins material and every other move is clearly
//! worse. The player is asked for that one move (`asked` = `[0]`); the solution also carries the
//! engine's line after it (at most [`LINE_PLIES`] plies), which shows the gain.
//!
//! **The proof** ([`analyse`], [`judge`]) is the engine at full strength and a fixed depth
//! ([`DEFAULT_DEPTH`] when mined with the defaults), single-threaded, with a fresh
//! [`HASH_MIB`]-MiB table, searching the position with its record cleared twice per depth
//! (the engine's two-line multi-PV search): once over every legal move, once over every legal
//! move but the best. So the second score bounds every other move, and `qiyi puzzles check`
//! replays both searches and gets the same numbers. A position is kept only when
//! - the best move beats every other by at least [`MIN_MARGIN_CP`] centipawns;
//! - neither score is a mate or a repetition-rule score (mates are the mate puzzles);
//! - the side to move is not already far ahead: its material before the move is at most
//!   [`MAX_AHEAD_CP`] ahead;
//! - the best move leaves it clearly ahead: a score of at least [`MIN_SCORE_CP`];
//! - the gain is material: playing the engine's whole line leaves the side to move at least
//!   [`MIN_GAIN_CP`] more material than before.
//!
//! The miner adds one selection rule the check cannot see (the puzzle's FEN has no record): a
//! best move that recaptures on the square of the opponent's last move is dropped as trivial.
//!
//! **Themes**: `decisive` when the best score is at least [`DECISIVE_CP`], `material` otherwise;
//! the piece that moves (`chariot`, `horse`, `cannon`, `pawn`, `advisor`, `elephant`,
//! `general`); `capture` when the move takes a piece, `check` when it checks, `quiet-move` when
//! it does neither; `sacrifice` when the engine's reply takes more than the move took.
//!
//! **The difficulty rule**: rating = 1000 + 10 × (legal moves − 20) + 250 when the move is quiet
//! + 150 for a sacrifice + 100 when it is decisive, clamped to 600..=2800.

use super::{kind_name, side_name, CheckError, GAME};
use crate::engine::{material, Engine, EngineConfig, Level, PIECE_VALUES, RULE_WIN};
use crate::position::{Move, Position};
use qiyi_core::eval::Score;
use qiyi_core::puzzles::{Proof, PuzzleRecord, Rating, Source};
use qiyi_core::search::SearchLimits;

/// The smallest margin of the best move over the second-best, in centipawns: more than two
/// pawns, half a horse or cannon, so that the evaluation's positional terms cannot make it.
pub const MIN_MARGIN_CP: Score = 250;
/// The most material the side to move may be ahead before the move.
pub const MAX_AHEAD_CP: Score = 150;
/// The least score the best move must reach.
pub const MIN_SCORE_CP: Score = 200;
/// The least material the engine's line must win.
pub const MIN_GAIN_CP: Score = 100;
/// A best score from which the puzzle is `decisive` rather than `material`.
pub const DECISIVE_CP: Score = 700;
/// Plies of the engine's line kept in the solution (the move and what follows).
pub const LINE_PLIES: usize = 3;
/// The table of the proving engine, in MiB (a fresh one per search).
pub const HASH_MIB: usize = 16;
/// The proof depth the miner uses unless told otherwise, in plies.
pub const DEFAULT_DEPTH: u32 = 10;
/// The deepest proof `check` replays (a bound on hostile files).
pub const MAX_DEPTH: u32 = 14;

/// The two-line search of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The depth searched, in plies.
    pub depth: u32,
    /// The best move.
    pub best: Move,
    /// Its score, from the side to move's view.
    pub score: Score,
    /// The best of the other moves.
    pub second: Move,
    /// Its score.
    pub second_score: Score,
    /// The engine's line after the best move, starting with it.
    pub pv: Vec<Move>,
    /// Legal moves in the position.
    pub legal: usize,
    /// The side to move's material balance before the move.
    pub before: Score,
    /// The material the side to move gains along the whole line.
    pub gain: Score,
}

impl Analysis {
    /// The best move's margin over every other.
    pub fn margin(&self) -> Score {
        self.score - self.second_score
    }
}

/// Why a position is not a material puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    /// Fewer than two legal moves.
    #[error("fewer than two legal moves")]
    FewMoves,
    /// A score is a mate or a repetition-rule win.
    #[error("a score is a mate or a rule win")]
    Mate,
    /// The side to move is already ahead in material.
    #[error("the side to move is already {0} cp ahead in material")]
    Ahead(Score),
    /// The best move does not leave the side to move clearly ahead.
    #[error("the best score {0} is below {MIN_SCORE_CP}")]
    NotWinning(Score),
    /// The best move's margin is too small.
    #[error("the margin {0} is below {MIN_MARGIN_CP}")]
    SmallMargin(Score),
    /// The line does not win material.
    #[error("the line wins {0} cp of material, below {MIN_GAIN_CP}")]
    NoGain(Score),
}

/// The proving engine: full strength (no noise), one thread, a fresh table.
fn engine() -> Engine {
    Engine::new(EngineConfig {
        hash_mib: HASH_MIB,
        threads: 1,
        level: Level::Strength(10),
        seed: 1,
        net: None,
    })
}

/// `pos` as its puzzle's FEN reads back: the record cleared and the board's internal lists in
/// the order a FEN builds them, so that a position reached in a game and the same position read
/// from its puzzle search alike (move order, hence the search, depends on those lists).
fn normalized(pos: &Position) -> Position {
    let p = pos.played_on();
    Position::from_fen(&p.to_fen()).map_or(p, |q| q.played_on())
}

/// Searches `pos` (its record cleared) to `depth` for the best move and the best of the others.
/// `None` when it has fewer than two legal moves. Deterministic.
pub fn analyse(pos: &Position, depth: u32) -> Option<Analysis> {
    let p = normalized(pos);
    let legal = p.legal_move_list().len();
    if legal < 2 {
        return None;
    }
    let mut e = engine();
    let info = e.multipv(&p, &SearchLimits::depth(depth.max(1)), 2, |_| {})?;
    let [first, second] = info.lines.get(..2)? else {
        return None;
    };
    let best = *first.pv.first()?;
    let other = *second.pv.first()?;
    let mover = p.side_to_move();
    let before = material(&p, mover);
    let mut q = p.clone();
    for &mv in &first.pv {
        if !q.is_legal(mv) {
            break;
        }
        q.make(mv);
    }
    Some(Analysis {
        depth: depth.max(1),
        best,
        score: first.score,
        second: other,
        second_score: second.score,
        pv: first.pv.clone(),
        legal,
        before,
        gain: material(&q, mover) - before,
    })
}

/// Whether an analysis makes a material puzzle (see the module docs).
pub fn judge(a: &Analysis) -> Result<(), Rejection> {
    if a.score.abs() >= RULE_WIN - 1_000 || a.second_score.abs() >= RULE_WIN - 1_000 {
        return Err(Rejection::Mate);
    }
    if a.before > MAX_AHEAD_CP {
        return Err(Rejection::Ahead(a.before));
    }
    if a.score < MIN_SCORE_CP {
        return Err(Rejection::NotWinning(a.score));
    }
    if a.margin() < MIN_MARGIN_CP {
        return Err(Rejection::SmallMargin(a.margin()));
    }
    if a.gain < MIN_GAIN_CP {
        return Err(Rejection::NoGain(a.gain));
    }
    Ok(())
}

/// Analyses and judges `pos` at `depth`: the analysis of a puzzle, or why not.
pub fn prove(pos: &Position, depth: u32) -> Result<Analysis, Rejection> {
    let a = analyse(pos, depth).ok_or(Rejection::FewMoves)?;
    judge(&a)?;
    Ok(a)
}

/// The goal text of an analysis.
fn goal(a: &Analysis) -> &'static str {
    if a.score >= DECISIVE_CP {
        "decisive advantage"
    } else {
        "win material"
    }
}

/// The themes and the rating estimate of a proven material puzzle (see the module docs).
pub fn themes_and_rating(pos: &Position, a: &Analysis) -> (Vec<String>, f64) {
    let decisive = a.score >= DECISIVE_CP;
    let mut themes = vec![if decisive { "decisive" } else { "material" }.to_string()];
    let mut p = pos.played_on();
    let value = |p: &Position, mv: Move| {
        p.piece_at(mv.to())
            .map_or(0, |(k, _)| PIECE_VALUES[k as usize])
    };
    let took = value(&p, a.best);
    if let Some((k, _)) = p.piece_at(a.best.from()) {
        themes.push(kind_name(k).to_string());
    }
    p.make(a.best);
    let check = p.in_check();
    if took > 0 {
        themes.push("capture".to_string());
    }
    if check {
        themes.push("check".to_string());
    }
    let quiet = took == 0 && !check;
    if quiet {
        themes.push("quiet-move".to_string());
    }
    let sacrifice =
        a.pv.get(1)
            .is_some_and(|&r| p.is_legal(r) && value(&p, r) > took);
    if sacrifice {
        themes.push("sacrifice".to_string());
    }
    let r = 1000.0
        + 10.0 * (a.legal as f64 - 20.0)
        + if quiet { 250.0 } else { 0.0 }
        + if sacrifice { 150.0 } else { 0.0 }
        + if decisive { 100.0 } else { 0.0 };
    (themes, r.clamp(600.0, 2800.0))
}

/// The solution of an analysis: the best move and the engine's line after it, at most
/// [`LINE_PLIES`] plies, stopping before a position that repeats or ends the game.
fn line(pos: &Position, a: &Analysis) -> Vec<Move> {
    let mut p = pos.played_on();
    let mut out = Vec::new();
    for &mv in a.pv.iter().take(LINE_PLIES) {
        if !p.is_legal(mv) {
            break;
        }
        p.make(mv);
        out.push(mv);
        if p.repetitions() > 0 || !p.has_legal_move() {
            break;
        }
    }
    out
}

/// The puzzle record of a proven position (`source` says where it came from).
pub fn record(id: String, pos: &Position, a: &Analysis, source: Source) -> PuzzleRecord {
    let p = pos.played_on();
    let (themes, rating) = themes_and_rating(&p, a);
    PuzzleRecord {
        id,
        game: GAME.to_string(),
        variant: None,
        position: p.to_fen(),
        goal: Some(goal(a).to_string()),
        side: side_name(p.side_to_move()).to_string(),
        solution: line(&p, a).iter().map(|m| m.to_string()).collect(),
        asked: vec![0],
        themes,
        rating: Rating::estimate(rating),
        source,
        proof: Proof::Engine {
            depth: a.depth,
            margin_cp: a.margin(),
            second_best: a.second.to_string(),
        },
    }
}

/// Replays a material puzzle (its proof an engine verdict): the same two-line search at the
/// recorded depth must find the solution's first move best, the recorded second-best move and
/// margin, a puzzle by [`judge`], and the recorded line, goal and themes.
pub fn check_puzzle(p: &PuzzleRecord) -> Result<(), CheckError> {
    let Proof::Engine {
        depth,
        margin_cp,
        second_best,
    } = &p.proof
    else {
        return Err(CheckError::Recorded {
            field: "proof",
            found: "not an engine verdict".into(),
            want: "engine".into(),
        });
    };
    let start = super::start_of(p)?;
    if !(1..=MAX_DEPTH).contains(depth) {
        return Err(CheckError::Depth(*depth));
    }
    if p.asked != [0] {
        return Err(CheckError::Asked(p.asked.clone()));
    }
    if p.solution.is_empty() || p.solution.len() > LINE_PLIES {
        return Err(CheckError::Length(p.solution.len()));
    }
    super::replay(&start, &p.solution)?;
    let a = analyse(&start, *depth).ok_or(CheckError::Rejected(Rejection::FewMoves))?;
    let best = a.best.to_string();
    if best != p.solution[0] {
        return Err(CheckError::BestMove {
            found: p.solution[0].clone(),
            want: best,
        });
    }
    judge(&a).map_err(CheckError::Rejected)?;
    let expect = record(p.id.clone(), &start, &a, p.source.clone());
    let fields: [(&'static str, String, String); 5] = [
        ("margin_cp", margin_cp.to_string(), a.margin().to_string()),
        ("second_best", second_best.clone(), a.second.to_string()),
        ("solution", p.solution.join(" "), expect.solution.join(" ")),
        (
            "goal",
            p.goal.clone().unwrap_or_default(),
            expect.goal.unwrap_or_default(),
        ),
        ("themes", p.themes.join(" "), expect.themes.join(" ")),
    ];
    for (field, found, want) in fields {
        if found != want {
            return Err(CheckError::Recorded { field, found, want });
        }
    }
    Ok(())
}

/// The engine's best reply in `pos` at `depth` (what a wrong move allows), or `None` when the
/// side to move has no legal move.
pub fn best_reply(pos: &Position, depth: u32) -> Option<(Move, Score)> {
    let p = normalized(pos);
    let mut e = engine();
    let r = e.think(&p, &SearchLimits::depth(depth.clamp(1, MAX_DEPTH)), |_| {});
    r.best_move.map(|m| (m, r.score))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Red's horse h6-g8 checks the general on e9 and forks the chariot on i7, which is lost
    /// once the general steps aside; material is level before (chariot and horse against
    /// chariot and cannon).
    pub(crate) const FORK: &str = "4k2c1/9/8r/7N1/9/9/9/9/9/1R1K5 w";

    #[test]
    fn a_known_material_puzzle_is_proven_and_checked() {
        let pos = Position::from_fen(FORK).unwrap();
        let a = prove(&pos, 6).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(a.best.to_string(), "h6g8", "{a:?}");
        assert!(a.margin() >= MIN_MARGIN_CP, "{a:?}");
        assert!(a.gain >= 1_000, "{a:?}");
        let p = record("t-m".into(), &pos, &a, super::super::tests_source());
        assert_eq!(p.asked, vec![0]);
        super::super::check_puzzle(&p, 1_000).unwrap();
        // Deterministic: the same search twice.
        assert_eq!(analyse(&pos, 6), analyse(&pos, 6));
    }

    #[test]
    fn two_equal_winning_moves_are_rejected() {
        // Red's chariot on a0 can take either Black cannon (a5 or c0): each wins the same.
        let pos = Position::from_fen("4k4/9/9/9/c8/9/9/9/9/R1cK5 w").unwrap();
        let a = analyse(&pos, 6).unwrap();
        assert!(a.score >= MIN_SCORE_CP, "{a:?}");
        assert!(matches!(judge(&a), Err(Rejection::SmallMargin(_))), "{a:?}");
    }

    #[test]
    fn a_tampered_material_puzzle_fails_its_check() {
        let pos = Position::from_fen(FORK).unwrap();
        let a = prove(&pos, 6).unwrap();
        let p = record("t-m".into(), &pos, &a, super::super::tests_source());
        let other = pos
            .legal_move_list()
            .as_slice()
            .iter()
            .map(|m| m.to_string())
            .find(|t| *t != p.solution[0])
            .unwrap();
        let mut bad = p.clone();
        bad.solution = vec![other];
        assert!(matches!(
            super::super::check_puzzle(&bad, 1_000),
            Err(CheckError::BestMove { .. })
        ));
        let mut bad = p.clone();
        if let Proof::Engine { margin_cp, .. } = &mut bad.proof {
            *margin_cp += 1;
        }
        assert!(matches!(
            super::super::check_puzzle(&bad, 1_000),
            Err(CheckError::Recorded {
                field: "margin_cp",
                ..
            })
        ));
        let mut bad = p.clone();
        bad.proof = Proof::Engine {
            depth: 99,
            margin_cp: 300,
            second_best: "a0a1".into(),
        };
        assert!(matches!(
            super::super::check_puzzle(&bad, 1_000),
            Err(CheckError::Depth(99))
        ));
        let mut bad = p;
        bad.asked = vec![0, 2];
        assert!(super::super::check_puzzle(&bad, 1_000).is_err());
    }

    #[test]
    fn a_position_already_far_ahead_is_rejected() {
        // Red is already 300 up (two chariots against two cannons, advisors and elephants) and
        // takes a cannon: "any move wins" is not asked.
        let pos = Position::from_fen("2bakab2/9/9/9/c8/9/9/9/9/R1cK4R w").unwrap();
        let r = prove(&pos, 6);
        assert!(matches!(r, Err(Rejection::Ahead(300))), "{r:?}");
    }
}
