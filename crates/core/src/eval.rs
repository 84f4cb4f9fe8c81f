//! Evaluation and move-ordering hooks, kept apart from the rules.
//!
//! A search in [`crate::search`] takes a [`Game`] for the rules and an [`Evaluator`] for everything
//! that is a matter of judgement: the static score, which moves are "noisy" (searched in
//! quiescence), a static ordering score (MVV-LVA), checks (for extensions and to disable null move)
//! and rule-based scores inside the search (repetition). One game can have several evaluators.

use crate::game::Game;

/// A score in centi-units from the side to move's point of view.
pub type Score = i32;

/// The score of a win in zero plies; a win in `n` plies scores `MATE - n`.
pub const MATE: Score = 30_000;
/// Scores at or beyond this magnitude are mate scores.
pub const MATE_BOUND: Score = MATE - 1_000;
/// Larger than any score: the initial alpha-beta window is `(-INFINITY, INFINITY)`.
pub const INFINITY: Score = 32_000;

/// True when `score` announces a forced win or loss.
pub fn is_mate_score(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// Static evaluation and ordering hooks for two-player zero-sum search.
///
/// Only [`Evaluator::evaluate`] is required; every other hook has a neutral default, so the
/// article's "material only" player is a one-method implementation.
pub trait Evaluator<G: Game>: Clone + Send + Sync {
    /// Static score of `pos` from the side to move's view (ongoing positions only).
    fn evaluate(&self, pos: &G) -> Score;

    /// Score of a position where the game is over, from the side to move's view, `ply` plies from
    /// the root. The default turns [`Game::returns`] into a mate-distance score (win = `MATE - ply`).
    fn terminal_score(&self, pos: &G, ply: usize) -> Score {
        let r = pos.returns(pos.to_move());
        if r > 0.0 {
            MATE - ply as Score
        } else if r < 0.0 {
            -MATE + ply as Score
        } else {
            0
        }
    }

    /// A score that ends the search at this node without it being over by the rules: repetition of
    /// a position on the search path, a database hit. `None` (the default) searches on.
    fn rule_score(&self, _pos: &G, _ply: usize) -> Option<Score> {
        None
    }

    /// Static ordering score of a move (MVV-LVA, promotions): higher is searched first.
    fn move_order(&self, _pos: &G, _mv: G::Move) -> i32 {
        0
    }

    /// Whether the move is noisy (a capture): noisy moves are searched in quiescence and are not
    /// reduced or used as killers.
    fn is_noisy(&self, _pos: &G, _mv: G::Move) -> bool {
        false
    }

    /// Whether the side to move is in check (extends the search, forbids null move).
    fn in_check(&self, _pos: &G) -> bool {
        false
    }

    /// Whether a null move is sound here (no zugzwang danger). Default: never.
    fn null_move_ok(&self, _pos: &G) -> bool {
        false
    }
}

/// Evaluation for n-player search: one score per player, each from that player's view.
pub trait MultiEvaluator<G: Game>: Clone + Send + Sync {
    /// Writes a heuristic value for every player of an ongoing position into `out`
    /// (`out.len() == pos.num_players()`), on the same scale as [`Game::returns`] scaled by
    /// [`MultiEvaluator::scale`].
    fn evaluate(&self, pos: &G, out: &mut [f64]);

    /// What a win is worth on the scale of `evaluate`; terminal returns are multiplied by it.
    fn scale(&self) -> f64 {
        1.0
    }
}

/// A policy for playouts (MCTS, flat Monte Carlo): picks a move among the legal ones.
pub trait Policy<G: Game>: Clone + Send + Sync {
    /// Picks one of `moves` (non-empty) in `pos`.
    fn choose(&self, pos: &G, moves: &[G::Move], rng: &mut crate::rng::Rng) -> G::Move;
}

/// The uniform random playout policy.
#[derive(Clone, Copy, Debug, Default)]
pub struct RandomPolicy;

impl<G: Game> Policy<G> for RandomPolicy {
    fn choose(&self, _pos: &G, moves: &[G::Move], rng: &mut crate::rng::Rng) -> G::Move {
        moves[rng.below(moves.len())]
    }
}
