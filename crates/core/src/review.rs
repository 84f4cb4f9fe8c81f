//! Post-game review, written once for every game: what each ply did to each player's chances.
//!
//! A game supplies a [`Judge`]: for a decision it names the best move and values the position
//! before, after the move played and after the best move; for a chance node (a die roll) it values
//! the position after the face that came up and the average over all faces. [`review`] walks a
//! record, asks the judge about every ply and builds a [`Review`]: per ply a [`PlyReview`] (the
//! values as win chances from the mover's view and in the game's own unit, a [`Class`], the luck of
//! a roll), per player a [`PlayerReview`] (accuracy, counts per class, skill and luck).
//!
//! Win chances are in `[0, 1]`. For two-player games a draw counts one half. Every ply also keeps
//! each player's win chance before and after it ([`PlyReview::wins_before`],
//! [`PlyReview::wins_after`]), from which the skill/luck split is computed:
//!
//! - `skill` of a player: the sum over its own decisions of its win chance after the move minus
//!   before (zero or less when the judge's value before is that of its best move);
//! - `luck`: the sum over its own rolls of its win chance after the roll minus the average over
//!   the faces (the judge's value before the roll);
//! - `others`: what other players' plies (their decisions and rolls) did to its win chance;
//! - `drift`: how far the judge's value of a position differs between the ply that reached it
//!   and the ply that starts from it, plus the step from the last value to the result. It is zero
//!   for an exact judge; for a model it measures the model's own consistency.
//!
//! By construction `result - prior = skill + luck + others + drift` for every player
//! ([`PlayerReview::identity_error`] is that difference, computed independently, and should be
//! rounding). For two players `others` is the opponent's `-(skill + luck)`, so the identity reads
//! `result - prior = (luck - luck') + (skill - skill') + drift`.
//!
//! Classes follow lichess's thresholds on the loss of win chance (`after_best - after_played`,
//! mover's view): below [`GOOD`] a move is good, from [`INACCURACY`] an inaccuracy, from
//! [`MISTAKE`] a mistake, from [`BLUNDER`] a blunder (lichess's 0.1 / 0.2 / 0.3 on its -1..1 scale
//! are 0.05 / 0.10 / 0.15 here). A move equal to the best (or losing less than [`BEST_EPS`]) is
//! best. With exact values, a move that turns a won position into a draw or a loss is a blunder
//! and flagged `missed_win`, whatever the numbers.
//!
//! Accuracy follows lichess (lichess.org/page/accuracy): a move's accuracy is
//! `103.1668 * exp(-0.04354 * d) - 3.1669` clamped to `[0, 100]`, `d` the loss of win chance in
//! percent; a player's accuracy is the mean of the volatility-weighted mean and the harmonic mean
//! of its moves' accuracies. Forced moves (one legal move) are left out: they are no decision.
//!
//! ```
//! use qiyi_core::review::{move_accuracy, win_chance_from_cp};
//! assert!((win_chance_from_cp(0.0) - 0.5).abs() < 1e-12);
//! assert!(move_accuracy(0.0) > 99.9);
//! assert!(move_accuracy(50.0) < 15.0);
//! ```

use serde::{Deserialize, Serialize};

use crate::game::{Game, Turn};

/// A loss of win chance below this is a best move.
pub const BEST_EPS: f64 = 1e-9;
/// A loss below this (and not best) is good.
pub const GOOD: f64 = 0.05;
/// A loss from [`GOOD`] up to this is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// A loss from this up to [`BLUNDER`] is a mistake.
pub const MISTAKE: f64 = 0.10;
/// A loss from this on is a blunder.
pub const BLUNDER: f64 = 0.15;

/// The version of the JSON shape of [`Review`]; bumped whenever a field changes meaning.
pub const REVIEW_FORMAT: u32 = 1;

/// How good a decision was; ordered from best to blunder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The best move (or as good).
    Best,
    /// Lost less than [`GOOD`].
    Good,
    /// Lost from [`INACCURACY`] to [`MISTAKE`] (PGN NAG `?!`).
    Inaccuracy,
    /// Lost from [`MISTAKE`] to [`BLUNDER`] (NAG `?`).
    Mistake,
    /// Lost [`BLUNDER`] or more, or threw away an exact win (NAG `??`).
    Blunder,
}

impl Class {
    /// Every class, best first.
    pub const ALL: [Class; 5] = [
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class of a move that lost `loss` of win chance (mover's view).
    pub fn from_loss(loss: f64) -> Class {
        if loss < BEST_EPS {
            Class::Best
        } else if loss < GOOD {
            Class::Good
        } else if loss < MISTAKE {
            Class::Inaccuracy
        } else if loss < BLUNDER {
            Class::Mistake
        } else {
            Class::Blunder
        }
    }

    /// The PGN/PDN annotation symbol (`?!`, `?`, `??`), empty for best and good.
    pub fn symbol(self) -> &'static str {
        match self {
            Class::Best | Class::Good => "",
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
        }
    }

    /// The lower-case name (as in the JSON).
    pub fn name(self) -> &'static str {
        match self {
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A win chance from lichess's centipawn logistic, `1 / (1 + exp(-0.00368208 * cp))`.
pub fn win_chance_from_cp(cp: f64) -> f64 {
    logistic(cp, 0.003_682_08)
}

/// `1 / (1 + exp(-k * score))`: a score turned into a win chance by a fitted slope `k`.
pub fn logistic(score: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-k * score).exp())
}

/// Lichess's move accuracy for a loss of `loss_percent` win chance (0-100), clamped to 0-100.
pub fn move_accuracy(loss_percent: f64) -> f64 {
    let d = loss_percent.max(0.0);
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * d).exp() - 3.166_924_740_191_411)
        .clamp(0.0, 100.0)
}

/// A player's game accuracy as lichess computes it: the mean of the volatility-weighted mean and
/// the harmonic mean of the move accuracies.
///
/// `series` is the player's win chance (0-1) before its first move and after every ply of the
/// game; `moves` are `(index into series of the position after the move, accuracy)`. Each move is
/// weighted by the standard deviation (in percent, clamped to 0.5-12) of the window of
/// `clamp(len / 10, 2, 8)` win chances ending at it. `None` when there are no moves.
pub fn game_accuracy(series: &[f64], moves: &[(usize, f64)]) -> Option<f64> {
    if moves.is_empty() || series.is_empty() {
        return None;
    }
    let window = (series.len() / 10).clamp(2, 8);
    let weight_at = |end: usize| -> f64 {
        let end = end.min(series.len() - 1) + 1;
        let start = end.saturating_sub(window);
        let w = &series[start..end];
        let n = w.len() as f64;
        let mean = w.iter().sum::<f64>() / n;
        let var = w.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n;
        (var.sqrt() * 100.0).clamp(0.5, 12.0)
    };
    let (mut num, mut den, mut inv) = (0.0, 0.0, 0.0);
    for &(at, acc) in moves {
        let w = weight_at(at);
        num += acc * w;
        den += w;
        inv += 1.0 / acc.max(1.0);
    }
    let weighted = num / den;
    let harmonic = moves.len() as f64 / inv;
    Some((weighted + harmonic) / 2.0)
}

/// The judge's word on one decision.
#[derive(Clone, Debug, PartialEq)]
pub struct DecisionVerdict<M> {
    /// The best move.
    pub best: M,
    /// The best line, starting with `best` (may be just `[best]`).
    pub line: Vec<M>,
    /// Every player's win chance before the move (normally that of the best move).
    pub before: Vec<f64>,
    /// Every player's win chance after the move played.
    pub after_played: Vec<f64>,
    /// Every player's win chance after the best move.
    pub after_best: Vec<f64>,
    /// The same three values in the game's unit, mover's view (`None` where the judge has none).
    pub unit_before: Option<f64>,
    /// After the move played, in the game's unit.
    pub unit_after_played: Option<f64>,
    /// After the best move, in the game's unit.
    pub unit_after_best: Option<f64>,
    /// True when the values are exact (a solver or a database), not estimates.
    pub exact: bool,
    /// True when exactly one move keeps the best value (judges set it only when they know).
    pub only_move: bool,
    /// True when the judge could not decide within its budget (a node or work limit): the values
    /// are then bounds, not a verdict, and the review classes nothing at this ply.
    pub unknown: bool,
}

/// A two-player judge's value of a position from one player's view: a win chance, the value in
/// the game's unit where it has one, and whether it is exact.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoverValue {
    /// The win chance (a draw counts 1/2).
    pub win: f64,
    /// The value in the game's unit.
    pub unit: Option<f64>,
    /// True when the value is exact (a mate, a rule ending, a database), not an estimate.
    pub exact: bool,
}

/// Both players' win chances when `mover` has `w` (two players, the rest is the opponent's).
pub fn two_player_wins(mover: usize, w: f64) -> Vec<f64> {
    let mut v = vec![1.0 - w; 2];
    v[mover] = w;
    v
}

impl<M> DecisionVerdict<M> {
    /// The verdict of a two-player engine judge: `best` (with its `line`) is worth `best_val` and
    /// the move played `played_val` to `mover`; the position before is worth the best move.
    pub fn two_player(
        mover: usize,
        best: M,
        line: Vec<M>,
        best_val: MoverValue,
        played_val: MoverValue,
    ) -> Self {
        DecisionVerdict {
            best,
            line,
            before: two_player_wins(mover, best_val.win),
            after_played: two_player_wins(mover, played_val.win),
            after_best: two_player_wins(mover, best_val.win),
            unit_before: best_val.unit,
            unit_after_played: played_val.unit,
            unit_after_best: best_val.unit,
            exact: best_val.exact && played_val.exact,
            only_move: false,
            unknown: false,
        }
    }
}

/// The judge's word on one chance node.
#[derive(Clone, Debug, PartialEq)]
pub struct ChanceVerdict {
    /// Every player's win chance before the roll: the average over the faces.
    pub before: Vec<f64>,
    /// Every player's win chance after the face that came up.
    pub after: Vec<f64>,
    /// Before the roll in the game's unit, the roller's view.
    pub unit_before: Option<f64>,
    /// After the roll in the game's unit, the roller's view.
    pub unit_after: Option<f64>,
}

/// What a game supplies to be reviewed: values for decisions and chance nodes.
pub trait Judge<G: Game> {
    /// Why judging failed.
    type Error: std::error::Error + Send + Sync + 'static;

    /// The game's own unit of value (`"cp"`, `"pegs"`, `"moves"`, `"wdl"`, `"win"`).
    fn unit(&self) -> &'static str;

    /// Judges the decision of the player to move in `pos`, who played `played` (legal).
    fn decision(
        &mut self,
        pos: &G,
        played: G::Move,
    ) -> Result<DecisionVerdict<G::Move>, Self::Error>;

    /// Judges the chance node `pos`, where `outcome` came up. Games without chance never see it;
    /// the default reports no change.
    fn chance(&mut self, pos: &G, outcome: G::Move) -> Result<ChanceVerdict, Self::Error> {
        let _ = outcome;
        let n = pos.num_players();
        let even = vec![1.0 / n as f64; n];
        Ok(ChanceVerdict {
            before: even.clone(),
            after: even,
            unit_before: None,
            unit_after: None,
        })
    }

    /// Every player's win chance at the end of a finished game. The default maps returns: for
    /// two players `(r + 1) / 2`; otherwise the players with the highest return share 1.
    fn result(&self, pos: &G) -> Vec<f64> {
        result_from_returns(pos)
    }
}

/// Every player's win chance at the end of a finished game, from [`Game::returns`]: for two
/// players `(r + 1) / 2` (a draw one half); otherwise the players with the highest return share 1.
pub fn result_from_returns<G: Game>(pos: &G) -> Vec<f64> {
    let n = pos.num_players();
    let r: Vec<f64> = (0..n).map(|p| pos.returns(p)).collect();
    if n == 2 {
        return r
            .iter()
            .map(|x| ((x + 1.0) / 2.0).clamp(0.0, 1.0))
            .collect();
    }
    let best = r.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let winners = r.iter().filter(|&&x| x == best).count() as f64;
    r.iter()
        .map(|&x| if x == best { 1.0 / winners } else { 0.0 })
        .collect()
}

/// A value from the mover's view: a win chance and the game's own unit.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Value {
    /// Win chance 0-1 (a draw counts one half).
    pub win: f64,
    /// The value in the game's unit ([`Review::unit`]), when the judge has one.
    pub unit: Option<f64>,
}

/// What kind of ply this was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlyKind {
    /// A player chose a move.
    Decision,
    /// A die was rolled.
    Chance,
}

/// One ply of the review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlyReview {
    /// 0-based ply number in the record.
    pub ply: usize,
    /// The player who moved (or rolled).
    pub mover: usize,
    /// Decision or chance.
    pub kind: PlyKind,
    /// The move played (or the face rolled), in the game's notation.
    pub played: String,
    /// The best move (decisions only).
    pub best: Option<String>,
    /// The best line from here, starting with the best move (decisions only).
    pub line: Vec<String>,
    /// The value before the ply (mover's view).
    pub before: Value,
    /// The value after the move played (mover's view).
    pub after_played: Value,
    /// The value after the best move (mover's view; for a roll, the same as `before`).
    pub after_best: Value,
    /// Win chance lost by the move played, `after_best.win - after_played.win` (0 for rolls).
    pub loss: f64,
    /// The class (decisions only).
    pub class: Option<Class>,
    /// The move's accuracy, 0-100 (decisions with a choice only).
    pub accuracy: Option<f64>,
    /// The move played was the only one that kept the best value (a find, not a forced move).
    pub only_move: bool,
    /// An exact win was thrown away.
    pub missed_win: bool,
    /// The values are exact.
    pub exact: bool,
    /// Only one legal move (left out of accuracy and counts).
    pub forced: bool,
    /// For a roll: the roller's win chance after it minus the average over the faces.
    pub luck: Option<f64>,
    /// Every player's win chance before the ply.
    pub wins_before: Vec<f64>,
    /// Every player's win chance after the ply.
    pub wins_after: Vec<f64>,
    /// The judge could not decide this ply within its budget: no unit values, loss, accuracy or
    /// class (a forced move stays `best`), the win chances are only bounds (left out of the
    /// JSON when false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub unknown: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// One player's summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerReview {
    /// The player (0-based).
    pub player: usize,
    /// Game accuracy (lichess), 0-100; `None` without unforced moves.
    pub accuracy: Option<f64>,
    /// Unforced decisions.
    pub moves: usize,
    /// Decisions per class: best, good, inaccuracy, mistake, blunder.
    pub counts: [usize; 5],
    /// Missed exact wins.
    pub missed_wins: usize,
    /// Decisions the judge could not decide within its budget (not in `moves`, `counts` or the
    /// accuracy; left out of the JSON when 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unknown: usize,
    /// Mean win-chance loss per unforced decision.
    pub mean_loss: f64,
    /// Win chance before the first ply.
    pub prior: f64,
    /// Win chance at the end: the result when the game finished, else the last value.
    pub result: f64,
    /// True when `result` is the game's actual result.
    pub finished: bool,
    /// Sum over own decisions of the change in own win chance (skill; zero or less).
    pub skill: f64,
    /// Sum over own rolls of the change in own win chance (luck).
    pub luck: f64,
    /// What other players' plies did to this player's win chance.
    pub others: f64,
    /// The judge's inconsistency between consecutive plies and the final step (0 when exact).
    pub drift: f64,
    /// `(result - prior) - (skill + luck + others + drift)`: rounding when the review is sound.
    pub identity_error: f64,
}

/// A whole game's review: the JSON the CLI, the server and Python share.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// [`REVIEW_FORMAT`].
    pub format: u32,
    /// The game's name (e.g. `"xiangqi"`).
    pub game: String,
    /// The unit of [`Value::unit`].
    pub unit: String,
    /// What judged the game (e.g. `"engine depth 6"`, `"exact solver"`).
    pub judge: String,
    /// Number of players.
    pub players: usize,
    /// Every ply.
    pub plies: Vec<PlyReview>,
    /// Every player's summary.
    pub summary: Vec<PlayerReview>,
}

/// Why a review could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReviewError<E: std::error::Error + 'static> {
    /// A move of the record is not legal in its position.
    #[error("ply {ply} ({text}): not a legal move here")]
    Illegal {
        /// 0-based ply.
        ply: usize,
        /// The move as the game prints it.
        text: String,
    },
    /// The record goes on after the game ended.
    #[error("ply {ply}: the game was already over")]
    AfterEnd {
        /// 0-based ply.
        ply: usize,
    },
    /// The judge failed.
    #[error("judging ply {ply}: {source}")]
    Judge {
        /// 0-based ply.
        ply: usize,
        /// The judge's error.
        #[source]
        source: E,
    },
    /// The judge returned values for the wrong number of players.
    #[error("ply {ply}: the judge gave {got} win chances for {want} players")]
    Shape {
        /// 0-based ply.
        ply: usize,
        /// Values given.
        got: usize,
        /// Players.
        want: usize,
    },
}

/// Reviews the game that starts at `start` and plays `moves` (decisions and chance outcomes in
/// order), asking `judge` about every ply. `text` prints a move in its position; `progress` is
/// called with `(plies done, plies)` after every ply.
pub fn review<G, J>(
    game: &str,
    judge_name: &str,
    start: &G,
    moves: &[G::Move],
    judge: &mut J,
    text: impl Fn(&G, G::Move) -> String,
    mut progress: impl FnMut(usize, usize),
) -> Result<Review, ReviewError<J::Error>>
where
    G: Game,
    J: Judge<G>,
{
    let n = start.num_players();
    let mut pos = start.clone();
    let mut legal = Vec::new();
    let mut plies = Vec::with_capacity(moves.len());
    for (ply, &mv) in moves.iter().enumerate() {
        let turn = pos.turn();
        if turn == Turn::Over {
            return Err(ReviewError::AfterEnd { ply });
        }
        pos.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            return Err(ReviewError::Illegal {
                ply,
                text: format!("{mv:?}"),
            });
        }
        let mover = pos.to_move();
        let played = text(&pos, mv);
        let check = |v: &Vec<f64>| -> Result<(), ReviewError<J::Error>> {
            if v.len() == n {
                Ok(())
            } else {
                Err(ReviewError::Shape {
                    ply,
                    got: v.len(),
                    want: n,
                })
            }
        };
        let entry = match turn {
            Turn::Chance => {
                let v = judge
                    .chance(&pos, mv)
                    .map_err(|source| ReviewError::Judge { ply, source })?;
                check(&v.before)?;
                check(&v.after)?;
                let before = Value {
                    win: v.before[mover],
                    unit: v.unit_before,
                };
                let after = Value {
                    win: v.after[mover],
                    unit: v.unit_after,
                };
                PlyReview {
                    ply,
                    mover,
                    kind: PlyKind::Chance,
                    played,
                    best: None,
                    line: Vec::new(),
                    before,
                    after_played: after,
                    after_best: before,
                    loss: 0.0,
                    class: None,
                    accuracy: None,
                    only_move: false,
                    missed_win: false,
                    exact: false,
                    forced: legal.len() == 1,
                    luck: Some(after.win - before.win),
                    wins_before: v.before,
                    wins_after: v.after,
                    unknown: false,
                }
            }
            _ => {
                let v = judge
                    .decision(&pos, mv)
                    .map_err(|source| ReviewError::Judge { ply, source })?;
                check(&v.before)?;
                check(&v.after_played)?;
                check(&v.after_best)?;
                let forced = legal.len() == 1;
                let unknown = v.unknown;
                let after_played = v.after_played[mover];
                let after_best = v.after_best[mover];
                let loss = if mv == v.best || unknown {
                    0.0
                } else {
                    (after_best - after_played).max(0.0)
                };
                let missed_win =
                    v.exact && !unknown && after_best >= 1.0 - 1e-9 && after_played < 1.0 - 1e-9;
                let class = if missed_win {
                    Class::Blunder
                } else {
                    Class::from_loss(loss)
                };
                let best_text = text(&pos, v.best);
                let mut line = Vec::with_capacity(v.line.len());
                let mut walk = pos.clone();
                let mut buf = Vec::new();
                for &m in &v.line {
                    walk.legal_moves(&mut buf);
                    if walk.is_over() || !buf.contains(&m) {
                        break;
                    }
                    line.push(text(&walk, m));
                    walk.make(m);
                }
                PlyReview {
                    ply,
                    mover,
                    kind: PlyKind::Decision,
                    played,
                    best: Some(best_text),
                    line,
                    before: Value {
                        win: v.before[mover],
                        unit: v.unit_before,
                    },
                    after_played: Value {
                        win: after_played,
                        unit: v.unit_after_played,
                    },
                    after_best: Value {
                        win: after_best,
                        unit: v.unit_after_best,
                    },
                    loss,
                    class: if forced {
                        Some(Class::Best)
                    } else if unknown {
                        None
                    } else {
                        Some(class)
                    },
                    accuracy: (!forced && !unknown).then(|| move_accuracy(loss * 100.0)),
                    only_move: v.only_move && !forced && !unknown && loss < BEST_EPS,
                    missed_win: missed_win && !forced,
                    exact: v.exact && !unknown,
                    forced,
                    luck: None,
                    wins_before: v.before,
                    wins_after: v.after_played,
                    unknown,
                }
            }
        };
        plies.push(entry);
        pos.make(mv);
        progress(ply + 1, moves.len());
    }
    let finished = pos.is_over();
    let result = if finished {
        let r = judge.result(&pos);
        if r.len() != n {
            return Err(ReviewError::Shape {
                ply: moves.len(),
                got: r.len(),
                want: n,
            });
        }
        Some(r)
    } else {
        None
    };
    let summary = (0..n)
        .map(|p| summarize(p, &plies, result.as_deref(), start))
        .collect();
    Ok(Review {
        format: REVIEW_FORMAT,
        game: game.to_string(),
        unit: judge.unit().to_string(),
        judge: judge_name.to_string(),
        players: n,
        plies,
        summary,
    })
}

fn summarize<G: Game>(
    p: usize,
    plies: &[PlyReview],
    result: Option<&[f64]>,
    start: &G,
) -> PlayerReview {
    let n = start.num_players();
    let prior = plies
        .first()
        .map(|x| x.wins_before[p])
        .unwrap_or(1.0 / n as f64);
    let last = plies.last().map(|x| x.wins_after[p]).unwrap_or(prior);
    let end = result.map(|r| r[p]).unwrap_or(last);
    let (mut skill, mut luck, mut others, mut drift) = (0.0, 0.0, 0.0, 0.0);
    let mut counts = [0usize; 5];
    let mut missed_wins = 0;
    let mut unknown = 0;
    let mut moves = 0;
    let mut loss_sum = 0.0;
    let mut series = Vec::with_capacity(plies.len() + 1);
    series.push(prior);
    let mut accs = Vec::new();
    for (i, x) in plies.iter().enumerate() {
        if i > 0 {
            drift += x.wins_before[p] - plies[i - 1].wins_after[p];
        }
        let d = x.wins_after[p] - x.wins_before[p];
        match (x.kind, x.mover == p) {
            (PlyKind::Decision, true) => skill += d,
            (PlyKind::Chance, true) => luck += d,
            _ => others += d,
        }
        series.push(x.wins_after[p]);
        if x.kind == PlyKind::Decision && x.mover == p && x.unknown && !x.forced {
            unknown += 1;
        } else if x.kind == PlyKind::Decision && x.mover == p && !x.forced {
            moves += 1;
            loss_sum += x.loss;
            if let Some(c) = x.class {
                counts[c.index()] += 1;
            }
            if x.missed_win {
                missed_wins += 1;
            }
            if let Some(a) = x.accuracy {
                accs.push((series.len() - 1, a));
            }
        }
    }
    drift += end - last;
    PlayerReview {
        player: p,
        accuracy: game_accuracy(&series, &accs),
        moves,
        counts,
        missed_wins,
        unknown,
        mean_loss: if moves > 0 {
            loss_sum / moves as f64
        } else {
            0.0
        },
        prior,
        result: end,
        finished: result.is_some(),
        skill,
        luck,
        others,
        drift,
        identity_error: (end - prior) - (skill + luck + others + drift),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toys::tictactoe::TicTacToe;
    use crate::Notation;
    use std::collections::HashMap;

    /// An exact judge for small games by exhaustive expectimax over returns (the test oracle).
    struct Exact<G: Game> {
        memo: HashMap<u64, Vec<f64>>,
        _g: std::marker::PhantomData<G>,
    }

    impl<G: Game> Exact<G> {
        fn new() -> Self {
            Exact {
                memo: HashMap::new(),
                _g: std::marker::PhantomData,
            }
        }
        fn value(&mut self, pos: &G) -> Vec<f64> {
            if pos.is_over() {
                return result_from_returns(pos);
            }
            if let Some(v) = self.memo.get(&pos.hash()) {
                return v.clone();
            }
            let v = match pos.turn() {
                Turn::Chance => {
                    let mut outs = Vec::new();
                    pos.chance_outcomes(&mut outs);
                    let mut acc = vec![0.0; pos.num_players()];
                    for (m, pr) in outs {
                        let c = self.value(&pos.after(m));
                        for (a, x) in acc.iter_mut().zip(c) {
                            *a += pr * x;
                        }
                    }
                    acc
                }
                _ => {
                    let me = pos.to_move();
                    let mut moves = Vec::new();
                    pos.legal_moves(&mut moves);
                    let mut best: Option<Vec<f64>> = None;
                    for m in moves {
                        let c = self.value(&pos.after(m));
                        if best.as_ref().is_none_or(|b| c[me] > b[me]) {
                            best = Some(c);
                        }
                    }
                    best.unwrap_or_default()
                }
            };
            self.memo.insert(pos.hash(), v.clone());
            v
        }
    }

    impl<G: Game> Judge<G> for Exact<G> {
        type Error = std::convert::Infallible;
        fn unit(&self) -> &'static str {
            "win"
        }
        fn decision(
            &mut self,
            pos: &G,
            played: G::Move,
        ) -> Result<DecisionVerdict<G::Move>, Self::Error> {
            let me = pos.to_move();
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            let vals: Vec<(G::Move, Vec<f64>)> = moves
                .iter()
                .map(|&m| (m, self.value(&pos.after(m))))
                .collect();
            let (best, bv) = vals
                .iter()
                .cloned()
                .fold(None::<(G::Move, Vec<f64>)>, |acc, (m, v)| match acc {
                    Some((bm, b)) if b[me] >= v[me] => Some((bm, b)),
                    _ => Some((m, v)),
                })
                .expect("a decision has moves");
            let keep = vals.iter().filter(|(_, v)| v[me] >= bv[me] - 1e-12).count();
            let pv = vals
                .iter()
                .find(|(m, _)| *m == played)
                .map(|(_, v)| v.clone())
                .expect("played is legal");
            Ok(DecisionVerdict {
                best,
                line: vec![best],
                before: self.value(pos),
                unit_before: Some(bv[me]),
                unit_after_played: Some(pv[me]),
                unit_after_best: Some(bv[me]),
                after_played: pv,
                after_best: bv,
                exact: true,
                only_move: keep == 1 && vals.len() > 1,
                unknown: false,
            })
        }
        fn chance(&mut self, pos: &G, outcome: G::Move) -> Result<ChanceVerdict, Self::Error> {
            let before = self.value(pos);
            let after = self.value(&pos.after(outcome));
            Ok(ChanceVerdict {
                unit_before: Some(before[pos.to_move()]),
                unit_after: Some(after[pos.to_move()]),
                before,
                after,
            })
        }
    }

    /// A tiny acyclic dice race: each of two players has a counter; a turn is a roll of a
    /// three-sided die (1, 2, 3), then a choice: advance by the face, or by 2 and push the
    /// opponent back by 1 (only when the opponent is ahead of 0). The first to reach `target`
    /// wins. Acyclic because every turn raises the sum of the counters.
    #[derive(Clone, Debug, PartialEq, Eq, Hash)]
    struct Dice {
        at: [u8; 2],
        side: usize,
        face: Option<u8>,
        target: u8,
    }

    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    enum DiceMove {
        Face(u8),
        Run,
        Push,
    }

    impl Game for Dice {
        type Move = DiceMove;
        type Undo = Dice;
        fn num_players(&self) -> usize {
            2
        }
        fn turn(&self) -> Turn {
            if self.at.iter().any(|&a| a >= self.target) {
                Turn::Over
            } else if self.face.is_none() {
                Turn::Chance
            } else {
                Turn::Player(self.side)
            }
        }
        fn to_move(&self) -> usize {
            self.side
        }
        fn legal_moves(&self, moves: &mut Vec<DiceMove>) {
            moves.clear();
            match self.turn() {
                Turn::Over => {}
                Turn::Chance => moves.extend((1..=3).map(DiceMove::Face)),
                Turn::Player(_) => {
                    moves.push(DiceMove::Run);
                    if self.at[1 - self.side] > 0 {
                        moves.push(DiceMove::Push);
                    }
                }
            }
        }
        fn make(&mut self, mv: DiceMove) -> Dice {
            let old = self.clone();
            match mv {
                DiceMove::Face(f) => self.face = Some(f),
                DiceMove::Run => {
                    self.at[self.side] += self.face.unwrap_or(1);
                    self.face = None;
                    self.side = 1 - self.side;
                }
                DiceMove::Push => {
                    self.at[self.side] += 2;
                    let o = 1 - self.side;
                    self.at[o] = self.at[o].saturating_sub(1);
                    self.face = None;
                    self.side = 1 - self.side;
                }
            }
            old
        }
        fn unmake(&mut self, _mv: DiceMove, undo: Dice) {
            *self = undo;
        }
        fn returns(&self, player: usize) -> f64 {
            if self.at[player] >= self.target {
                1.0
            } else {
                -1.0
            }
        }
        fn hash(&self) -> u64 {
            self.hash_from_scratch()
        }
        fn hash_from_scratch(&self) -> u64 {
            (self.at[0] as u64)
                | (self.at[1] as u64) << 8
                | (self.side as u64) << 16
                | (self.face.unwrap_or(0) as u64) << 20
        }
        fn chance_outcomes(&self, out: &mut Vec<(DiceMove, f64)>) {
            out.clear();
            if self.turn() == Turn::Chance {
                out.extend((1..=3).map(|f| (DiceMove::Face(f), 1.0 / 3.0)));
            }
        }
    }

    fn ttt_moves(texts: &[&str]) -> (TicTacToe, Vec<<TicTacToe as Game>::Move>) {
        let start = TicTacToe::default();
        let mut pos = start;
        let mut out = Vec::new();
        for t in texts {
            let m = pos.parse_move(t).expect("test move parses");
            out.push(m);
            pos.make(m);
        }
        (start, out)
    }

    fn ttt_review(texts: &[&str]) -> Review {
        let (start, moves) = ttt_moves(texts);
        review(
            "tictactoe",
            "exact",
            &start,
            &moves,
            &mut Exact::new(),
            |p, m| p.move_to_text(m),
            |_, _| {},
        )
        .expect("review")
    }

    #[test]
    fn a_perfect_tictactoe_draw_is_all_best_with_full_accuracy() {
        let mut exact = Exact::<TicTacToe>::new();
        // Play the exact best move at every ply.
        let mut pos = TicTacToe::default();
        let mut moves = Vec::new();
        while !pos.is_over() {
            let best = exact
                .decision(&pos, {
                    let mut l = Vec::new();
                    pos.legal_moves(&mut l);
                    l[0]
                })
                .expect("judge")
                .best;
            moves.push(best);
            pos.make(best);
        }
        let r = review(
            "tictactoe",
            "exact",
            &TicTacToe::default(),
            &moves,
            &mut exact,
            |p, m| p.move_to_text(m),
            |_, _| {},
        )
        .expect("review");
        assert_eq!(r.plies.len(), 9);
        for p in &r.plies {
            assert_eq!(p.class, Some(Class::Best), "{p:?}");
            assert!((p.after_played.win - 0.5).abs() < 1e-12);
        }
        for s in &r.summary {
            assert!(s.accuracy.is_some_and(|a| a > 99.0), "{s:?}");
            assert!((s.result - 0.5).abs() < 1e-12 && (s.prior - 0.5).abs() < 1e-12);
            assert!(s.drift.abs() < 1e-12 && s.identity_error.abs() < 1e-12);
        }
    }

    #[test]
    fn a_move_that_throws_away_a_win_is_a_missed_win_blunder() {
        // X: centre, O: edge (loses), X: corner wins by force; X then plays elsewhere.
        let texts = ["b2", "a2", "a1", "c3", "c1"];
        let r = ttt_review(&texts);
        // O's edge reply to the centre loses: a blunder (0.5 -> 0), not a missed win.
        assert_eq!(r.plies[1].class, Some(Class::Blunder));
        assert!(!r.plies[1].missed_win);
        assert!((r.plies[1].loss - 0.5).abs() < 1e-12);
        // X's a1 keeps the forced win: best.
        assert_eq!(r.plies[2].class, Some(Class::Best));
        assert!((r.plies[2].after_played.win - 1.0).abs() < 1e-12);
        // O's c3 blocks; O is lost whatever it plays, so every move is as good: best, and no
        // "only move" (every move keeps the same value).
        assert_eq!(r.plies[3].class, Some(Class::Best));
        assert!(!r.plies[3].only_move);
        // X's c1: does it keep the win? The judge knows; check consistency with it.
        let p4 = &r.plies[4];
        if p4.after_best.win > 0.999 && p4.after_played.win < 0.999 {
            assert!(p4.missed_win && p4.class == Some(Class::Blunder));
        }
        let o = &r.summary[1];
        assert_eq!(o.counts[Class::Blunder as usize], 1);
        assert!(o
            .accuracy
            .is_some_and(|a| a < r.summary[0].accuracy.unwrap_or(0.0)));
    }

    #[test]
    fn x_throwing_away_a_forced_win_is_flagged() {
        // After b2 a2, X wins with a1 (threat pair); a3? Find a move that keeps only a draw.
        let mut exact = Exact::<TicTacToe>::new();
        let (start, moves) = ttt_moves(&["b2", "a2"]);
        let mut pos = start;
        for &m in &moves {
            pos.make(m);
        }
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let drawing = legal
            .iter()
            .copied()
            .find(|&m| exact.value(&pos.after(m))[0] < 0.99)
            .expect("some X move only draws");
        let mut all = moves.clone();
        all.push(drawing);
        let r = review(
            "tictactoe",
            "exact",
            &start,
            &all,
            &mut exact,
            |p, m| p.move_to_text(m),
            |_, _| {},
        )
        .expect("review");
        let p = &r.plies[2];
        assert!(p.missed_win, "{p:?}");
        assert_eq!(p.class, Some(Class::Blunder));
        assert_eq!(Class::Blunder.symbol(), "??");
    }

    #[test]
    fn only_move_is_flagged_exactly_where_one_move_keeps_the_value() {
        // Search two-ply openings for a position where exactly one reply keeps the value.
        let mut exact = Exact::<TicTacToe>::new();
        let start = TicTacToe::default();
        let mut l1 = Vec::new();
        start.legal_moves(&mut l1);
        let mut found = 0;
        for &a in &l1 {
            let p1 = start.after(a);
            let mut l2 = Vec::new();
            p1.legal_moves(&mut l2);
            for &b in &l2 {
                let p2 = p1.after(b);
                let me = p2.to_move();
                let mut l3 = Vec::new();
                p2.legal_moves(&mut l3);
                let vals: Vec<f64> = l3.iter().map(|&m| exact.value(&p2.after(m))[me]).collect();
                let best = vals.iter().cloned().fold(f64::MIN, f64::max);
                let keepers: Vec<usize> = (0..vals.len())
                    .filter(|&i| vals[i] >= best - 1e-12)
                    .collect();
                for (i, &m) in l3.iter().enumerate() {
                    let r = review(
                        "tictactoe",
                        "exact",
                        &start,
                        &[a, b, m],
                        &mut exact,
                        |p, m| p.move_to_text(m),
                        |_, _| {},
                    )
                    .expect("review");
                    let p = &r.plies[2];
                    let want_only = keepers.len() == 1 && keepers[0] == i;
                    assert_eq!(p.only_move, want_only, "{p:?}");
                    found += usize::from(want_only);
                    assert_eq!(p.class == Some(Class::Best), vals[i] >= best - 1e-12);
                }
            }
        }
        assert!(found > 0, "tic-tac-toe has only moves at ply 3");
    }

    #[test]
    fn illegal_moves_and_moves_after_the_end_are_errors_not_panics() {
        let (start, mut moves) = ttt_moves(&["b2", "a2"]);
        moves.push(moves[0]); // b2 again: occupied
        let e = review(
            "tictactoe",
            "exact",
            &start,
            &moves,
            &mut Exact::new(),
            |p, m| p.move_to_text(m),
            |_, _| {},
        )
        .expect_err("illegal");
        assert!(matches!(e, ReviewError::Illegal { ply: 2, .. }), "{e}");
    }

    fn random_dice_game(seed: u64, target: u8) -> (Dice, Vec<DiceMove>) {
        let mut rng = crate::rng::Rng::new(seed);
        let start = Dice {
            at: [0, 0],
            side: 0,
            face: None,
            target,
        };
        let mut pos = start.clone();
        let mut moves = Vec::new();
        let mut buf = Vec::new();
        while !pos.is_over() {
            pos.legal_moves(&mut buf);
            let m = buf[rng.below(buf.len())];
            moves.push(m);
            pos.make(m);
        }
        (start, moves)
    }

    #[test]
    fn luck_plus_skill_explains_every_dice_game_exactly() {
        let mut judge = Exact::<Dice>::new();
        let mut some_luck = false;
        let mut some_skill = false;
        for seed in 0..200 {
            let (start, moves) = random_dice_game(seed, 9);
            let r = review(
                "dice",
                "exact",
                &start,
                &moves,
                &mut judge,
                |_, m| format!("{m:?}"),
                |_, _| {},
            )
            .expect("review");
            for s in &r.summary {
                assert!(s.finished);
                // An exact judge has no drift, so the result is luck and skill alone.
                assert!(s.drift.abs() < 1e-9, "seed {seed}: {s:?}");
                assert!(s.identity_error.abs() < 1e-9, "seed {seed}: {s:?}");
                assert!(s.skill <= 1e-12, "skill is never a gain: {s:?}");
                some_luck |= s.luck.abs() > 1e-6;
                some_skill |= s.skill < -1e-6;
            }
            let (a, b) = (&r.summary[0], &r.summary[1]);
            // Two players: what one gains the other loses.
            assert!((a.others + b.skill + b.luck).abs() < 1e-9);
            let lhs = a.result - a.prior;
            let rhs = (a.luck - b.luck) + (a.skill - b.skill);
            assert!((lhs - rhs).abs() < 1e-9, "seed {seed}: {lhs} vs {rhs}");
            // Each roll's luck is the face's value minus the average of the faces.
            for p in r.plies.iter().filter(|p| p.kind == PlyKind::Chance) {
                let l = p.luck.unwrap_or(f64::NAN);
                assert!((l - (p.after_played.win - p.before.win)).abs() < 1e-12);
            }
        }
        assert!(
            some_luck && some_skill,
            "random play shows both luck and skill"
        );
    }

    #[test]
    fn a_judge_that_disagrees_with_itself_shows_drift_not_a_broken_identity() {
        // Scale every value a little: the judge is inconsistent, the identity still closes.
        struct Noisy(Exact<Dice>, u32);
        impl Judge<Dice> for Noisy {
            type Error = std::convert::Infallible;
            fn unit(&self) -> &'static str {
                "win"
            }
            fn decision(
                &mut self,
                pos: &Dice,
                played: DiceMove,
            ) -> Result<DecisionVerdict<DiceMove>, Self::Error> {
                self.1 += 1;
                let mut v = self.0.decision(pos, played)?;
                let f = if self.1 % 2 == 0 { 0.9 } else { 1.0 };
                v.before.iter_mut().for_each(|x| *x *= f);
                Ok(v)
            }
            fn chance(&mut self, pos: &Dice, o: DiceMove) -> Result<ChanceVerdict, Self::Error> {
                self.0.chance(pos, o)
            }
        }
        let mut judge = Noisy(Exact::new(), 0);
        let mut drifted = false;
        for seed in 0..50 {
            let (start, moves) = random_dice_game(seed, 9);
            let r = review(
                "dice",
                "noisy",
                &start,
                &moves,
                &mut judge,
                |_, m| format!("{m:?}"),
                |_, _| {},
            )
            .expect("review");
            for s in &r.summary {
                assert!(s.identity_error.abs() < 1e-9);
                drifted |= s.drift.abs() > 1e-3;
            }
        }
        assert!(drifted);
    }

    #[test]
    fn the_review_round_trips_through_json_with_stable_names() {
        let r = ttt_review(&["b2", "a2", "a1"]);
        let text = serde_json::to_string(&r).expect("serialize");
        for key in [
            "\"format\":1",
            "\"plies\"",
            "\"summary\"",
            "\"class\":\"blunder\"",
            "\"kind\":\"decision\"",
            "\"after_best\"",
            "\"wins_before\"",
            "\"identity_error\"",
        ] {
            assert!(text.contains(key), "{key} missing in {text}");
        }
        let back: Review = serde_json::from_str(&text).expect("deserialize");
        assert_eq!(back, r);
    }

    #[test]
    fn classes_and_accuracy_follow_the_thresholds() {
        assert_eq!(Class::from_loss(0.0), Class::Best);
        assert_eq!(Class::from_loss(0.01), Class::Good);
        assert_eq!(Class::from_loss(0.05), Class::Inaccuracy);
        assert_eq!(Class::from_loss(0.12), Class::Mistake);
        assert_eq!(Class::from_loss(0.15), Class::Blunder);
        assert!((move_accuracy(0.0) - 100.0).abs() < 1e-3);
        assert!(move_accuracy(100.0) == 0.0);
        let a = move_accuracy(10.0);
        assert!(a > 60.0 && a < 64.0, "{a}");
        // lichess: 0 cp is 50%, +100 cp about 59%.
        assert!((win_chance_from_cp(100.0) - 0.591).abs() < 0.002);
        // Game accuracy: all perfect moves give ~100, one zero drags the harmonic mean down.
        let series = vec![0.5; 11];
        let perfect: Vec<(usize, f64)> = (1..=10).map(|i| (i, 100.0)).collect();
        assert!(game_accuracy(&series, &perfect).is_some_and(|a| (a - 100.0).abs() < 1e-9));
        let mut one_bad = perfect.clone();
        one_bad[3].1 = 0.0;
        let g = game_accuracy(&series, &one_bad).unwrap_or(100.0);
        assert!(g < 80.0, "{g}");
        assert_eq!(game_accuracy(&series, &[]), None);
    }
}
