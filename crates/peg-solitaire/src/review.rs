//! The exact judge of a peg-solitaire game, for core's [`qiyi_core::review`].
//!
//! After every move the judge knows the fewest pegs still reachable (found by a depth-first
//! search with a memo of every position seen, stopping as soon as one peg is reached: one peg is
//! the fewest there can be, so the value is exact). The game's unit is that count, `"pegs"`; the
//! win chance is `1 / fewest pegs` (1 exactly when the position is still solvable, one half
//! when two pegs is the best left, ...). So the move that lost the solution is the first
//! `missed_win` blunder, and the review's best move at that ply is a move that kept it.
//!
//! ```
//! use qiyi_peg_solitaire::review::{first_lost, review_game};
//! use qiyi_peg_solitaire::{Board, PegPosition};
//! use qiyi_core::Game;
//! use std::sync::Arc;
//!
//! let start = PegPosition::start(Arc::new(Board::named("triangle").unwrap()));
//! let mut moves = Vec::new();
//! start.legal_moves(&mut moves);
//! let review = review_game(&start, &moves[..1], |_, _| {}).unwrap();
//! assert_eq!(review.plies.len(), 1);
//! assert!(first_lost(&review).is_none() || review.plies[0].missed_win);
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use qiyi_core::review::{self, ChanceVerdict, DecisionVerdict, Judge, Review, ReviewError};
use qiyi_core::{Game, Notation};

use crate::position::PegPosition;

/// The exact judge: fewest pegs reachable, memoised per position.
#[derive(Default)]
pub struct PegJudge {
    memo: HashMap<u128, u32>,
    /// Positions the search expanded.
    pub nodes: u64,
    /// The most positions the memo holds (`None`: no limit); past it the memo is emptied.
    memo_limit: Option<usize>,
    /// Raised to end the search early (its answers are then meaningless and not memoised).
    stop: Option<Arc<AtomicBool>>,
    /// The stop was seen: every search from now on returns at once.
    halted: bool,
}

/// Bytes one memo entry takes, about (a `u128` key, a `u32` value and the hash map's overhead):
/// for turning a memory budget into [`PegJudge::with_memo_limit`]'s entries.
pub const MEMO_ENTRY_BYTES: usize = 48;

/// Why judging failed (it cannot: the search is exhaustive; the type keeps core's signature).
#[derive(Debug, thiserror::Error)]
#[error("peg judge: {0}")]
pub struct PegJudgeError(String);

impl PegJudge {
    /// A judge with an empty memo.
    pub fn new() -> Self {
        Self::default()
    }

    /// A judge whose memo holds at most `entries` positions: past it the memo is emptied and
    /// filled again (the answers stay exact; only time is spent again). Without a limit one
    /// judgement from a position that cannot be solved on the English board expands millions of
    /// positions and the memo grows past gigabytes.
    pub fn with_memo_limit(entries: usize) -> Self {
        PegJudge {
            memo_limit: Some(entries.max(1)),
            ..Self::default()
        }
    }

    /// Makes the search end early when `stop` is raised (checked every 4,096 positions); the
    /// answers of a stopped search are meaningless, and the caller throws them away.
    pub fn set_stop(&mut self, stop: Arc<AtomicBool>) {
        self.stop = Some(stop);
    }

    fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// The fewest pegs reachable from `pos` (1 = solvable).
    pub fn fewest_pegs(&mut self, pos: &PegPosition) -> u32 {
        let mut buffers = Vec::new();
        self.fewest(pos.clone(), 0, &mut buffers)
    }

    fn fewest(&mut self, mut pos: PegPosition, depth: usize, buffers: &mut Vec<Vec<u16>>) -> u32 {
        let pegs = pos.pegs();
        if let Some(&v) = self.memo.get(&pegs) {
            return v;
        }
        self.nodes += 1;
        if self.halted || (self.nodes % 4096 == 0 && self.stopped()) {
            self.halted = true;
            return pos.peg_count();
        }
        if buffers.len() <= depth {
            buffers.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut buffers[depth]);
        pos.legal_moves(&mut moves);
        let mut best = pos.peg_count();
        for &m in &moves {
            pos.make(m);
            let v = self.fewest(pos.clone(), depth + 1, buffers);
            pos.unmake(m, ());
            best = best.min(v);
            if best <= 1 || self.halted {
                break;
            }
        }
        buffers[depth] = moves;
        if self.halted {
            return best;
        }
        if self
            .memo_limit
            .is_some_and(|limit| self.memo.len() >= limit)
        {
            self.memo.clear();
        }
        self.memo.insert(pegs, best);
        best
    }

    fn win(pegs: u32) -> f64 {
        if pegs == 0 {
            0.0
        } else {
            1.0 / pegs as f64
        }
    }
}

impl Judge<PegPosition> for PegJudge {
    type Error = PegJudgeError;

    fn unit(&self) -> &'static str {
        "pegs"
    }

    fn decision(
        &mut self,
        pos: &PegPosition,
        played: u16,
    ) -> Result<DecisionVerdict<u16>, PegJudgeError> {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let mut vals = Vec::with_capacity(moves.len());
        for &m in &moves {
            vals.push((m, self.fewest_pegs(&pos.after(m))));
        }
        let (best, best_pegs) = vals
            .iter()
            .copied()
            .min_by_key(|&(_, p)| p)
            .ok_or_else(|| PegJudgeError("no legal move to judge".into()))?;
        let played_pegs = vals
            .iter()
            .find(|(m, _)| *m == played)
            .map(|&(_, p)| p)
            .ok_or_else(|| PegJudgeError("the move played is not legal".into()))?;
        // The line: keep taking a move that keeps the fewest pegs.
        let mut line = vec![best];
        let mut walk = pos.after(best);
        let mut buf = Vec::new();
        while !walk.is_over() {
            walk.legal_moves(&mut buf);
            let target = self.fewest_pegs(&walk);
            let next = buf
                .iter()
                .copied()
                .find(|&m| self.fewest_pegs(&walk.after(m)) == target);
            match next {
                Some(m) => {
                    line.push(m);
                    walk.make(m);
                }
                None => break,
            }
        }
        let keepers = vals.iter().filter(|&&(_, p)| p == best_pegs).count();
        let w = |p: u32| vec![Self::win(p)];
        Ok(DecisionVerdict {
            best,
            line,
            before: w(best_pegs),
            after_played: w(played_pegs),
            after_best: w(best_pegs),
            unit_before: Some(best_pegs as f64),
            unit_after_played: Some(played_pegs as f64),
            unit_after_best: Some(best_pegs as f64),
            exact: true,
            only_move: keepers == 1 && vals.len() > 1,
        })
    }

    fn chance(&mut self, _pos: &PegPosition, _o: u16) -> Result<ChanceVerdict, PegJudgeError> {
        Err(PegJudgeError("peg solitaire has no chance".into()))
    }

    fn result(&self, pos: &PegPosition) -> Vec<f64> {
        vec![Self::win(pos.peg_count())]
    }
}

/// Reviews the game from `start` through `moves` (jump indices) with a fresh [`PegJudge`].
pub fn review_game(
    start: &PegPosition,
    moves: &[u16],
    progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError<PegJudgeError>> {
    let mut judge = PegJudge::new();
    review::review(
        "peg-solitaire",
        "exact (fewest pegs reachable)",
        start,
        moves,
        &mut judge,
        |p, m| p.move_to_text(m),
        progress,
    )
}

pub use qiyi_core::json_record::RecordError;

/// Reads a peg-solitaire record: the JSON record `qiyi games export` writes (`game`,
/// `rules.board`, `rules.start`, `position`, `moves` as texts or `{text}` objects) or a bare JSON
/// list of move texts (on the English board). Returns the start and the moves, each legal in turn.
pub fn read_record(text: &str) -> Result<(PegPosition, Vec<u16>), RecordError> {
    use qiyi_core::json_record;
    use serde_json::Value;
    let bad = RecordError::Bad;
    let v = json_record::parse(text)?;
    let record = json_record::read(&v, &["peg-solitaire", "peg"])?;
    let rules = record.get("rules").unwrap_or(&Value::Null);
    let position = record.str("position");
    let start = match position {
        Some(p) => PegPosition::from_text(p).map_err(|e| bad(format!("bad position: {e}")))?,
        None => {
            let board = rules
                .get("board")
                .and_then(Value::as_str)
                .unwrap_or("english");
            let hole = rules
                .get("start")
                .and_then(Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty() && *s != "default");
            let b = crate::Board::named(board).map_err(|e| bad(format!("board {board:?}: {e}")))?;
            let problem =
                crate::Problem::new(b, hole, None).map_err(|e| bad(format!("start: {e}")))?;
            PegPosition::new(std::sync::Arc::clone(&problem.board), problem.start)
        }
    };
    let mut pos = start.clone();
    let mut out = Vec::with_capacity(record.moves.len());
    for (i, m) in record.moves.iter().enumerate() {
        let t = json_record::move_entry(i, m)?.text;
        let mv = pos
            .parse_move(t)
            .map_err(|e| bad(format!("move {} ({t}): {e}", i + 1)))?;
        out.push(mv);
        pos.make(mv);
    }
    Ok((start, out))
}

/// The ply of the first move that lost the solution (`None` when the game never had one to
/// lose, or kept it).
pub fn first_lost(review: &Review) -> Option<usize> {
    review.plies.iter().position(|p| p.missed_win)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Board;
    use qiyi_core::Rng;
    use std::sync::Arc;

    /// Plain brute force, no memo: can one peg still be reached?
    fn solvable(pos: &PegPosition) -> bool {
        if pos.peg_count() == 1 {
            return true;
        }
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        moves.iter().any(|&m| solvable(&pos.after(m)))
    }

    fn random_game(start: &PegPosition, seed: u64) -> Vec<u16> {
        let mut rng = Rng::new(seed);
        let mut pos = start.clone();
        let mut out = Vec::new();
        let mut buf = Vec::new();
        while !pos.is_over() {
            pos.legal_moves(&mut buf);
            let m = buf[rng.below(buf.len())];
            out.push(m);
            pos.make(m);
        }
        out
    }

    #[test]
    fn the_first_losing_move_of_100_random_games_matches_brute_force() {
        let board = Arc::new(Board::named("triangle").expect("built-in board"));
        let start = PegPosition::start(board);
        assert!(solvable(&start), "the triangle start is solvable");
        let mut lost_somewhere = 0;
        for seed in 0..100 {
            let moves = random_game(&start, seed);
            let r = review_game(&start, &moves, |_, _| {}).expect("review");
            // Brute force: the first move after which one peg can no longer be reached.
            let mut pos = start.clone();
            let mut want = None;
            for (i, &m) in moves.iter().enumerate() {
                pos.make(m);
                if !solvable(&pos) {
                    want = Some(i);
                    break;
                }
            }
            assert_eq!(first_lost(&r), want, "seed {seed}");
            if let Some(i) = want {
                lost_somewhere += 1;
                let p = &r.plies[i];
                assert_eq!(p.class, Some(qiyi_core::review::Class::Blunder));
                // The review's better move keeps the solution.
                let mut before = start.clone();
                for &m in &moves[..i] {
                    before.make(m);
                }
                let best = before
                    .parse_move(p.best.as_deref().expect("a best move"))
                    .expect("the best move reads back");
                assert!(solvable(&before.after(best)), "seed {seed}: best keeps it");
                assert_eq!(p.after_best.unit, Some(1.0));
                assert!(p.after_played.unit.is_some_and(|u| u >= 2.0));
            }
            // The fewest pegs after the last move is the pegs left.
            let s = &r.summary[0];
            assert!(
                s.identity_error.abs() < 1e-9 && s.drift.abs() < 1e-9,
                "{s:?}"
            );
        }
        assert!(
            lost_somewhere > 50,
            "random play loses the triangle most of the time"
        );
    }

    #[test]
    fn a_bounded_memo_gives_the_same_answers_and_stays_bounded() {
        let board = Arc::new(Board::named("triangle").expect("built-in board"));
        let start = PegPosition::start(board);
        for seed in 0..20 {
            let moves = random_game(&start, seed);
            let mut free = PegJudge::new();
            let mut bounded = PegJudge::with_memo_limit(16);
            let mut pos = start.clone();
            for &m in &moves {
                assert_eq!(
                    free.fewest_pegs(&pos),
                    bounded.fewest_pegs(&pos),
                    "seed {seed}"
                );
                assert!(bounded.memo.len() <= 16);
                pos.make(m);
            }
        }
    }

    #[test]
    fn a_raised_stop_ends_the_search_at_once() {
        let board = Arc::new(Board::named("english").expect("built-in board"));
        let start = PegPosition::start(board);
        let mut judge = PegJudge::new();
        judge.set_stop(Arc::new(AtomicBool::new(true)));
        judge.fewest_pegs(&start);
        assert!(judge.nodes <= 4096, "{} nodes", judge.nodes);
        assert!(judge.memo.len() < 4096);
    }

    #[test]
    fn a_solution_reviews_as_all_best() {
        let board = Arc::new(Board::named("triangle").expect("built-in board"));
        let start = PegPosition::start(board);
        let mut judge = PegJudge::new();
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut buf = Vec::new();
        while !pos.is_over() {
            pos.legal_moves(&mut buf);
            let m = buf
                .iter()
                .copied()
                .find(|&m| judge.fewest_pegs(&pos.after(m)) == 1)
                .expect("solvable positions have a keeping move");
            moves.push(m);
            pos.make(m);
        }
        assert_eq!(pos.peg_count(), 1);
        let r = review_game(&start, &moves, |_, _| {}).expect("review");
        assert!(first_lost(&r).is_none());
        assert!(r.plies.iter().all(|p| p.loss == 0.0 && !p.missed_win));
        assert_eq!(r.summary[0].result, 1.0);
    }

    proptest::proptest! {
        /// Any text is a record or a clear error, never a panic; what reads replays legally.
        #[test]
        fn any_text_reads_or_fails_cleanly(
            text in "(\\[(\"[a-g][1-7]-[a-g][1-7]\",?){0,4}\\])|(\\{\"game\":\"peg\",\"rules\":\\{\"board\":\"[a-z-]{0,9}\"\\},\"moves\":\\[\\]\\})|(.{0,40})"
        ) {
            if let Ok((start, moves)) = read_record(&text) {
                let mut pos = start;
                let mut legal = Vec::new();
                for m in moves {
                    pos.legal_moves(&mut legal);
                    proptest::prop_assert!(legal.contains(&m));
                    pos.make(m);
                }
            }
        }
    }
}
