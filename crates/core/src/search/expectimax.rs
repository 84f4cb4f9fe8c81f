//! Search over chance nodes (dice): n-player expectimax, and for two-player zero-sum games plain
//! expectiminimax and *-minimax (Star1).
//!
//! - [`expectimax`]: max-n at player nodes, the probability-weighted mean at chance nodes, a
//!   [`MultiEvaluator`] at the leaves; depth-limited (depth counts every move, chance outcomes
//!   included).
//! - [`expectiminimax`]: the two-player, zero-sum form over an [`Evaluator`], without pruning; the
//!   oracle for Star1.
//! - [`star1`]: Ballard's *-minimax (Star1, as described by Hauk, Buro & Schaeffer, *Rediscovering
//!   \*-Minimax Search*, 2004): alpha-beta at player nodes, and at chance nodes windows derived from
//!   the known bounds `[-bound, bound]` on every score, so a chance node is cut once the outcomes
//!   seen so far decide it. Returns exactly the expectiminimax value.
//!
//! Two-player values are from the view of the player to move (at a chance node, the player the
//! roll belongs to). Children whose mover differs from the parent's are negated, so games where a
//! player moves several times in a row (Pig, aeroplane chess after a six) need nothing special.
//!
//! ```
//! use qiyi_core::search::expectimax::{expectiminimax, star1};
//! use qiyi_core::toys::pig::{Pig, PigEval};
//!
//! let pig = Pig::new(20).unwrap();
//! let plain = expectiminimax(&pig, &PigEval, 5);
//! let star = star1(&pig, &PigEval, 5, PigEval::BOUND as f64);
//! assert!((plain.value - star.value).abs() < 1e-9);
//! assert!(star.stats.nodes <= plain.stats.nodes);
//! ```

use super::nplayer::{deepen, max_n_node, NPlayerResult, Scratch};
use super::{SearchLimits, SearchStats};
use crate::eval::{Evaluator, MultiEvaluator};
use crate::game::{Game, Turn};
use crate::platform::Instant;

/// N-player expectimax to `depth` plies.
pub fn expectimax<G: Game, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
) -> NPlayerResult<G::Move> {
    let start = Instant::now();
    let mut s = Scratch::new(pos.num_players());
    let mut root = pos.clone();
    max_n_node(&mut root, eval, depth, 0, &mut s);
    let values = s.slot(0).to_vec();
    let pv = std::mem::take(&mut s.pv[0]);
    s.stats.depth = depth;
    s.stats.time = start.elapsed();
    NPlayerResult {
        best_move: match pos.turn() {
            Turn::Player(_) => pv.first().copied(),
            _ => None,
        },
        value: values.get(pos.to_move()).copied().unwrap_or(0.0),
        values,
        pv,
        stats: s.stats,
    }
}

/// [`expectimax`] with iterative deepening under `limits` (depth, nodes, time, stop flag): the
/// last completed depth's result; it stops early once a search is exact.
pub fn expectimax_limited<G: Game, E: MultiEvaluator<G>>(
    pos: &G,
    eval: &E,
    limits: &SearchLimits,
) -> NPlayerResult<G::Move> {
    let me = pos.to_move();
    deepen(pos, limits, |root, depth, s| {
        max_n_node(root, eval, depth, 0, s);
        let values = s.slot(0).to_vec();
        (values.get(me).copied().unwrap_or(0.0), values)
    })
}

/// The result of a two-player search over chance nodes.
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceResult<M> {
    /// The move to play (`None` at a chance node or when the game is over).
    pub best_move: Option<M>,
    /// The expected score from the view of the player to move (the evaluator's scale).
    pub value: f64,
    /// The principal variation, up to the first chance node.
    pub pv: Vec<M>,
    /// Counts.
    pub stats: SearchStats,
}

/// Plain expectiminimax to `depth` plies: no pruning.
pub fn expectiminimax<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
) -> ChanceResult<G::Move> {
    run(pos, eval, depth, None)
}

/// Star1 *-minimax to `depth` plies. Every score `eval` can give (terminal scores included) must
/// lie in `[-bound, bound]`; the result is then the expectiminimax value.
pub fn star1<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    bound: f64,
) -> ChanceResult<G::Move> {
    run(pos, eval, depth, Some(bound.abs()))
}

fn run<G: Game, E: Evaluator<G>>(
    pos: &G,
    eval: &E,
    depth: u32,
    bound: Option<f64>,
) -> ChanceResult<G::Move> {
    let start = Instant::now();
    let mut search = Star {
        eval,
        bound,
        s: Scratch::new(pos.num_players()),
    };
    let mut root = pos.clone();
    let value = search.node(&mut root, depth, 0, f64::NEG_INFINITY, f64::INFINITY);
    let mut s = search.s;
    let pv = std::mem::take(&mut s.pv[0]);
    s.stats.depth = depth;
    s.stats.time = start.elapsed();
    ChanceResult {
        best_move: match pos.turn() {
            Turn::Player(_) => pv.first().copied(),
            _ => None,
        },
        value,
        pv,
        stats: s.stats,
    }
}

struct Star<'a, G: Game, E> {
    eval: &'a E,
    /// `Some(b)`: Star1 with scores in `[-b, b]`; `None`: plain expectiminimax.
    bound: Option<f64>,
    s: Scratch<G>,
}

impl<G: Game, E: Evaluator<G>> Star<'_, G, E> {
    /// The value of `child` (just made from a node where `me` moves) in `me`'s view, searched with
    /// the window `(alpha, beta)` given in `me`'s view.
    #[inline]
    fn child(&mut self, child: &mut G, me: usize, depth: u32, ply: usize, a: f64, b: f64) -> f64 {
        if child.to_move() == me {
            self.node(child, depth, ply, a, b)
        } else {
            -self.node(child, depth, ply, -b, -a)
        }
    }

    fn node(&mut self, pos: &mut G, depth: u32, ply: usize, mut alpha: f64, beta: f64) -> f64 {
        self.s.enter(ply);
        if pos.is_over() {
            return self.eval.terminal_score(pos, ply) as f64;
        }
        if ply > 0 {
            if let Some(score) = self.eval.rule_score(pos, ply) {
                return score as f64;
            }
        }
        if depth == 0 {
            return self.eval.evaluate(pos) as f64;
        }
        let me = pos.to_move();
        if pos.turn() == Turn::Chance {
            return self.chance(pos, me, depth, ply, alpha, beta);
        }
        let pruning = self.bound.is_some();
        let mut moves = std::mem::take(&mut self.s.moves[ply]);
        pos.legal_moves(&mut moves);
        let mut best = f64::NEG_INFINITY;
        for &mv in &moves {
            let undo = pos.make(mv);
            let (a, b) = if pruning {
                (alpha, beta)
            } else {
                (f64::NEG_INFINITY, f64::INFINITY)
            };
            let v = self.child(pos, me, depth - 1, ply + 1, a, b);
            pos.unmake(mv, undo);
            if self.s.aborted {
                break;
            }
            if v > best {
                best = v;
                self.s.set_pv(ply, mv);
            }
            if pruning {
                alpha = alpha.max(best);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.s.moves[ply] = moves;
        best
    }

    fn chance(
        &mut self,
        pos: &mut G,
        me: usize,
        depth: u32,
        ply: usize,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        let mut outcomes = std::mem::take(&mut self.s.outcomes[ply]);
        pos.chance_outcomes(&mut outcomes);
        let mut sum = 0.0;
        let mut left = 1.0f64;
        let mut result = None;
        for &(mv, p) in &outcomes {
            if p <= 0.0 {
                continue;
            }
            left = (left - p).max(0.0);
            let undo = pos.make(mv);
            let v = match self.bound {
                None => self.child(
                    pos,
                    me,
                    depth - 1,
                    ply + 1,
                    f64::NEG_INFINITY,
                    f64::INFINITY,
                ),
                Some(bound) => {
                    // The child must beat `lo` for this node to beat alpha, and reaching `hi`
                    // makes this node reach beta, whatever the other outcomes give.
                    let lo = (alpha - sum - bound * left) / p;
                    let hi = (beta - sum + bound * left) / p;
                    let v = self.child(pos, me, depth - 1, ply + 1, lo.max(-bound), hi.min(bound));
                    if v <= lo {
                        result = Some(sum + p * v + bound * left);
                    } else if v >= hi {
                        result = Some(sum + p * v - bound * left);
                    }
                    v
                }
            };
            pos.unmake(mv, undo);
            if result.is_some() || self.s.aborted {
                break;
            }
            sum += p * v;
        }
        self.s.outcomes[ply] = outcomes;
        result.unwrap_or(sum)
    }
}
