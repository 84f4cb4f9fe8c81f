//! Which judge reviews which game, and the review ready to run ([`prepare`]): shared by the
//! server's background reviews (`crate::review`, with the server feature) and the static site's
//! Web Worker (`crates/wasm`, without it). Adding a game's judge is one arm of [`prepare`].

use crate::error::ApiError;
use qiyi_core::review::{ChanceVerdict, DecisionVerdict, Judge, Review};
use qiyi_core::{Game, Notation};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A review ready to run: it takes a progress callback `(plies done, plies)`.
pub type ReviewTask =
    Box<dyn FnOnce(&mut dyn FnMut(usize, usize)) -> Result<Review, String> + Send>;

/// The games the server reviews (the others answer "not reviewed yet").
pub const REVIEWED: &[&str] = &[
    "xiangqi",
    "checkers",
    "peg-solitaire",
    "aeroplane",
    "chinese-checkers",
];

fn bad_record(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(format!(
        "the stored record does not read back for review: {e}"
    ))
}

fn no_depth(game: &str, depth: Option<u32>) -> Result<(), ApiError> {
    match depth {
        Some(_) => Err(ApiError::BadRequest(format!(
            "depth does not apply to {game}: its judge searches nothing"
        ))),
        None => Ok(()),
    }
}

/// The MiB a review of `game` allocates at most while it runs (its judge's table and working
/// set), to reserve in the memory budget before it starts; measured by `examples/memory.rs`.
pub fn review_mib(game: &str) -> usize {
    match game {
        // The judges' engines hold their table, plus their memo of judged positions.
        "xiangqi" | "checkers" => judge_table_mib(game) + 8,
        "chinese-checkers" => 16 + crate::analysis::CC_RACE_MIB,
        "peg-solitaire" => crate::analysis::peg_judge_mib(),
        _ => 4,
    }
}

/// The MiB of the Xiangqi or checkers review judge's table: the crates' default (64) capped
/// like an analysis table, at an eighth of the memory budget.
pub fn judge_table_mib(game: &str) -> usize {
    let want = match game {
        "checkers" => qiyi_checkers::engine::player::TT_MIB,
        _ => qiyi_xiangqi::review::TT_MIB,
    };
    crate::memory::budget().table_mib(want)
}

/// Reads `record` (the game's export) with `game`'s record reader and prepares its judge:
/// Xiangqi at `depth` (default [`qiyi_xiangqi::review::DEFAULT_DEPTH`], 1 to
/// [`qiyi_xiangqi::review::MAX_REVIEW_DEPTH`]) and checkers at `depth` (default
/// [`qiyi_checkers::review::DEFAULT_DEPTH`], 1 to [`qiyi_checkers::review::MAX_REVIEW_DEPTH`]),
/// their searches stopping when `cancel` is raised; peg solitaire's exact solver and aeroplane's
/// win-chance model (no depth); Chinese checkers with two players at `depth` (default
/// [`qiyi_chinese_checkers::review::DEFAULT_DEPTH`], 1 to
/// [`qiyi_chinese_checkers::review::MAX_REVIEW_DEPTH`]), with more players by the race model (no
/// depth).
pub fn prepare(
    game: &str,
    record: &str,
    depth: Option<u32>,
    cancel: Arc<AtomicBool>,
) -> Result<ReviewTask, ApiError> {
    match game {
        "checkers" => {
            use qiyi_checkers::review::{
                check_limits, read_record, review_game, JudgeOptions, DEFAULT_DEPTH,
            };
            let mut limits = qiyi_core::search::SearchLimits::depth(depth.unwrap_or(DEFAULT_DEPTH));
            check_limits(&limits).map_err(|e| ApiError::BadRequest(e.to_string()))?;
            limits.stop = Some(cancel);
            let r = read_record(record).map_err(bad_record)?;
            let options = JudgeOptions {
                limits,
                tt_mib: judge_table_mib(game),
                eval: crate::games::checkers::eval(),
                ..JudgeOptions::default()
            };
            let start = qiyi_checkers::Checkers::from_board(r.start);
            Ok(Box::new(move |p| {
                review_game(&start, &r.moves, &options, p).map_err(|e| e.to_string())
            }))
        }
        "xiangqi" => {
            use qiyi_xiangqi::review::{
                check_limits, read_record, review_game, JudgeOptions, DEFAULT_DEPTH,
            };
            let mut limits = qiyi_core::search::SearchLimits::depth(depth.unwrap_or(DEFAULT_DEPTH));
            check_limits(&limits).map_err(|e| ApiError::BadRequest(e.to_string()))?;
            limits.stop = Some(cancel);
            let r = read_record(record).map_err(bad_record)?;
            let options = JudgeOptions {
                limits,
                net: crate::games::xiangqi::net(),
                tt_mib: judge_table_mib(game),
                ..JudgeOptions::default()
            };
            Ok(Box::new(move |p| {
                review_game(&r.start, &r.moves, &options, p).map_err(|e| e.to_string())
            }))
        }
        "chinese-checkers" => {
            use qiyi_chinese_checkers::review::{
                check_limits, read_record, CcJudge, JudgeOptions, DEFAULT_DEPTH,
            };
            let r = read_record(record).map_err(bad_record)?;
            let players = r.start.num_players();
            if players > 2 {
                no_depth(game, depth)?;
            }
            let mut limits = qiyi_core::search::SearchLimits::depth(depth.unwrap_or(DEFAULT_DEPTH));
            check_limits(&limits).map_err(|e| ApiError::BadRequest(e.to_string()))?;
            limits.stop = Some(cancel.clone());
            let options = JudgeOptions {
                limits,
                ..JudgeOptions::default()
            };
            let describe = options.describe(players);
            // Built when the review runs, not when it is asked for: its table (16 MiB) is then
            // drawn from the memory budget, and a request answered from the stored review or
            // refused by the queue builds nothing.
            Ok(Box::new(move |p| {
                let inner = CcJudge::new(options)
                    .map_err(|e| e.to_string())?
                    .for_players(players);
                let mut judge = Cancellable { inner, cancel };
                qiyi_core::review::review(
                    "chinese-checkers",
                    &describe,
                    &r.start,
                    &r.moves,
                    &mut judge,
                    |pos, m| pos.move_to_text(m),
                    p,
                )
                .map_err(|e| e.to_string())
            }))
        }
        // The crates' own `review_game` with the judge wrapped so that a cancel ends the review
        // at the next ply (these judges search nothing a stop flag could end).
        "peg-solitaire" => {
            no_depth(game, depth)?;
            let (start, moves) =
                qiyi_peg_solitaire::review::read_record(record).map_err(bad_record)?;
            Ok(Box::new(move |p| {
                let mut inner = crate::analysis::peg_judge()
                    .with_node_budget(crate::analysis::PEG_REVIEW_NODES);
                inner.set_stop(cancel.clone());
                let mut judge = Cancellable { inner, cancel };
                qiyi_core::review::review(
                    "peg-solitaire",
                    &format!(
                        "exact (fewest pegs reachable; unknown past {} positions a move)",
                        crate::analysis::PEG_REVIEW_NODES
                    ),
                    &start,
                    &moves,
                    &mut judge,
                    |pos, m| pos.move_to_text(m),
                    p,
                )
                .map_err(|e| e.to_string())
            }))
        }
        "aeroplane" => {
            no_depth(game, depth)?;
            let (start, moves) = qiyi_aeroplane::review::read_record(record).map_err(bad_record)?;
            let inner = qiyi_aeroplane::review::AeroJudge::new(&start.rules())
                .map_err(|e| ApiError::Internal(format!("the aeroplane judge: {e}")))?;
            Ok(Box::new(move |p| {
                let mut judge = Cancellable { inner, cancel };
                qiyi_core::review::review(
                    "aeroplane",
                    "win-chance model of the best player",
                    &start,
                    &moves,
                    &mut judge,
                    |pos, m| pos.move_to_text(m),
                    p,
                )
                .map_err(|e| e.to_string())
            }))
        }
        other => Err(ApiError::NotSupported(format!(
            "reviewing {other} is not built yet (reviewed: {})",
            REVIEWED.join(", ")
        ))),
    }
}

/// A judge that ends the review at the next ply once `cancel` is raised.
struct Cancellable<J> {
    inner: J,
    cancel: Arc<AtomicBool>,
}

/// The wrapped judge's error, or the cancel.
#[derive(Debug, thiserror::Error)]
enum Stopped<E: std::error::Error + 'static> {
    #[error("the review was cancelled")]
    Cancelled,
    #[error(transparent)]
    Judge(E),
}

impl<J> Cancellable<J> {
    fn check<E: std::error::Error + 'static>(&self) -> Result<(), Stopped<E>> {
        if self.cancel.load(Ordering::Relaxed) {
            Err(Stopped::Cancelled)
        } else {
            Ok(())
        }
    }
}

impl<G: Game, J: Judge<G>> Judge<G> for Cancellable<J> {
    type Error = Stopped<J::Error>;

    fn unit(&self) -> &'static str {
        self.inner.unit()
    }

    fn decision(
        &mut self,
        pos: &G,
        played: G::Move,
    ) -> Result<DecisionVerdict<G::Move>, Self::Error> {
        self.check()?;
        self.inner.decision(pos, played).map_err(Stopped::Judge)
    }

    fn chance(&mut self, pos: &G, outcome: G::Move) -> Result<ChanceVerdict, Self::Error> {
        self.check()?;
        self.inner.chance(pos, outcome).map_err(Stopped::Judge)
    }

    fn result(&self, pos: &G) -> Vec<f64> {
        self.inner.result(pos)
    }
}
