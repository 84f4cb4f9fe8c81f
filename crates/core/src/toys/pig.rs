//! Pig: the two-player dice game, the test bed of expectimax and chance-node search.
//!
//! On your turn you roll a die as often as you like. A 1 ends the turn and loses the turn total;
//! any other face adds to the turn total. Holding banks the turn total and passes the turn (you
//! may only hold after at least one roll, so every turn makes progress or passes). The first
//! player whose banked score plus turn total reaches the target wins at once. The target is
//! configurable (1-100), so small games can be solved exactly; with target 100 optimal play wins
//! 53.06% of games for the first player (Neller & Presser, *Optimal Play of the Dice Game Pig*,
//! 2004).
//!
//! Chance: choosing [`PigMove::Roll`] leads to a chance node whose outcomes are
//! [`PigMove::Face`]`(1..=6)`, each with probability 1/6, taken by the same player.
//!
//! Text: a position is `target score0 score1 turn_total player phase` with phase `decide` or
//! `roll` (e.g. `20 0 0 0 0 decide`); moves are `roll`, `hold` and the faces `1`..`6`.

use crate::eval::{Evaluator, MultiEvaluator, Score};
use crate::game::{Game, Notation, Turn};
use crate::rng::zobrist_keys;

/// The largest target.
pub const MAX_TARGET: u8 = 100;

const SCORE_KEYS: [u64; 256] = zobrist_keys(0x9160_0001);
const TOTAL_KEYS: [u64; 128] = zobrist_keys(0x9160_0002);
const SIDE_KEY: u64 = zobrist_keys::<1>(0x9160_0003)[0];
const ROLL_KEY: u64 = zobrist_keys::<1>(0x9160_0004)[0];

/// A Pig move or chance outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PigMove {
    /// Roll the die (leads to a chance node).
    Roll,
    /// Bank the turn total and pass the turn.
    Hold,
    /// The die shows this face (1-6): the outcome of a chance node.
    Face(u8),
}

/// Why a Pig position or move could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PigError {
    /// The position text has the wrong shape.
    #[error("a Pig position is `target score0 score1 turn_total player decide|roll`, got {0:?}")]
    BadPosition(String),
    /// The numbers do not describe a reachable position.
    #[error("inconsistent Pig position: {0}")]
    Inconsistent(&'static str),
    /// The move text is not `roll`, `hold` or a face 1-6.
    #[error("a Pig move is `roll`, `hold` or a face 1-6, got {0:?}")]
    BadMove(String),
    /// The move is not legal here.
    #[error("{0:?} is not legal here")]
    IllegalMove(PigMove),
}

/// A Pig position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pig {
    target: u8,
    scores: [u8; 2],
    turn_total: u8,
    player: u8,
    rolling: bool,
    hash: u64,
}

impl Pig {
    /// A new game to `target` (1-100); player 0 starts.
    pub fn new(target: u8) -> Result<Self, PigError> {
        Self::from_parts(target, [0, 0], 0, 0, false)
    }

    /// A position from its parts, checked for consistency.
    pub fn from_parts(
        target: u8,
        scores: [u8; 2],
        turn_total: u8,
        player: u8,
        rolling: bool,
    ) -> Result<Self, PigError> {
        if !(1..=MAX_TARGET).contains(&target) {
            return Err(PigError::Inconsistent("target must be 1..=100"));
        }
        if player > 1 {
            return Err(PigError::Inconsistent("player must be 0 or 1"));
        }
        let over = scores.iter().filter(|&&s| s >= target).count();
        if over > 1 {
            return Err(PigError::Inconsistent("both players past the target"));
        }
        if scores.iter().any(|&s| s as u16 >= target as u16 + 6) {
            return Err(PigError::Inconsistent("score too far past the target"));
        }
        if over == 1 {
            if turn_total != 0 || rolling {
                return Err(PigError::Inconsistent(
                    "a finished game has no turn in progress",
                ));
            }
        } else if scores[player as usize] as u16 + turn_total as u16 >= target as u16 {
            return Err(PigError::Inconsistent(
                "score plus turn total reaches the target",
            ));
        }
        let mut pig = Pig {
            target,
            scores,
            turn_total,
            player,
            rolling,
            hash: 0,
        };
        pig.hash = pig.hash_from_scratch();
        Ok(pig)
    }

    /// The target.
    pub fn target(&self) -> u8 {
        self.target
    }

    /// The banked scores.
    pub fn scores(&self) -> [u8; 2] {
        self.scores
    }

    /// The turn total of the player to move.
    pub fn turn_total(&self) -> u8 {
        self.turn_total
    }

    /// True at the chance node after [`PigMove::Roll`].
    pub fn rolling(&self) -> bool {
        self.rolling
    }

    fn winner(&self) -> Option<usize> {
        self.scores.iter().position(|&s| s >= self.target)
    }

    fn pass_turn(&mut self) {
        self.turn_total = 0;
        self.player ^= 1;
    }
}

impl Game for Pig {
    type Move = PigMove;
    type Undo = Pig;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.winner().is_some() {
            Turn::Over
        } else if self.rolling {
            Turn::Chance
        } else {
            Turn::Player(self.player as usize)
        }
    }

    fn to_move(&self) -> usize {
        self.player as usize
    }

    fn legal_moves(&self, moves: &mut Vec<PigMove>) {
        moves.clear();
        match self.turn() {
            Turn::Over => {}
            Turn::Chance => moves.extend((1..=6).map(PigMove::Face)),
            Turn::Player(_) => {
                moves.push(PigMove::Roll);
                if self.turn_total > 0 {
                    moves.push(PigMove::Hold);
                }
            }
        }
    }

    fn make(&mut self, mv: PigMove) -> Pig {
        let undo = *self;
        let p = self.player as usize;
        match mv {
            PigMove::Roll => self.rolling = true,
            PigMove::Hold => {
                self.scores[p] += self.turn_total;
                self.pass_turn();
            }
            PigMove::Face(1) => {
                self.rolling = false;
                self.pass_turn();
            }
            PigMove::Face(face) => {
                self.rolling = false;
                self.turn_total += face;
                if self.scores[p] + self.turn_total >= self.target {
                    self.scores[p] += self.turn_total;
                    self.pass_turn();
                }
            }
        }
        self.hash = self.hash_from_scratch();
        undo
    }

    fn unmake(&mut self, _mv: PigMove, undo: Pig) {
        *self = undo;
    }

    fn returns(&self, player: usize) -> f64 {
        match self.winner() {
            Some(w) if w == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = SCORE_KEYS[self.scores[0] as usize]
            ^ SCORE_KEYS[128 + self.scores[1] as usize]
            ^ TOTAL_KEYS[self.turn_total as usize];
        if self.player == 1 {
            h ^= SIDE_KEY;
        }
        if self.rolling {
            h ^= ROLL_KEY;
        }
        h
    }

    fn chance_outcomes(&self, out: &mut Vec<(PigMove, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend((1..=6).map(|f| (PigMove::Face(f), 1.0 / 6.0)));
        }
    }
}

impl Notation for Pig {
    type Error = PigError;

    fn move_to_text(&self, mv: PigMove) -> String {
        match mv {
            PigMove::Roll => "roll".into(),
            PigMove::Hold => "hold".into(),
            PigMove::Face(f) => f.to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<PigMove, PigError> {
        let mv = match text.trim().to_ascii_lowercase().as_str() {
            "roll" | "r" => PigMove::Roll,
            "hold" | "h" => PigMove::Hold,
            t => match t.parse::<u8>() {
                Ok(f @ 1..=6) => PigMove::Face(f),
                _ => return Err(PigError::BadMove(text.to_string())),
            },
        };
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if legal.contains(&mv) {
            Ok(mv)
        } else {
            Err(PigError::IllegalMove(mv))
        }
    }

    fn to_text(&self) -> String {
        format!(
            "{} {} {} {} {} {}",
            self.target,
            self.scores[0],
            self.scores[1],
            self.turn_total,
            self.player,
            if self.rolling { "roll" } else { "decide" }
        )
    }

    fn from_text(text: &str) -> Result<Self, PigError> {
        let bad = || PigError::BadPosition(text.to_string());
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 6 {
            return Err(bad());
        }
        let mut v = [0u8; 5];
        for (slot, field) in v.iter_mut().zip(&fields) {
            *slot = field.parse().map_err(|_| bad())?;
        }
        let rolling = match fields[5] {
            "roll" => true,
            "decide" => false,
            _ => return Err(bad()),
        };
        Pig::from_parts(v[0], [v[1], v[2]], v[3], v[4], rolling)
    }
}

/// A simple Pig evaluator: the lead (banked score plus the mover's turn total) over the target.
///
/// As a [`MultiEvaluator`] it gives each player its lead in `[-1, 1]`; as an [`Evaluator`] it
/// gives `1000 * lead` for the side to move, with terminal scores of exactly ±1000, so its scores
/// lie in `[-1000, 1000]` (the bounds *-minimax needs).
#[derive(Clone, Copy, Debug, Default)]
pub struct PigEval;

impl PigEval {
    /// The bound on [`Evaluator`] scores of this evaluator.
    pub const BOUND: Score = 1000;

    fn lead(pos: &Pig, player: usize) -> f64 {
        let mut own = pos.scores[player] as f64;
        let mut other = pos.scores[player ^ 1] as f64;
        if pos.player as usize == player {
            own += pos.turn_total as f64;
        } else {
            other += pos.turn_total as f64;
        }
        ((own - other) / pos.target as f64).clamp(-1.0, 1.0)
    }
}

impl MultiEvaluator<Pig> for PigEval {
    fn evaluate(&self, pos: &Pig, out: &mut [f64]) {
        for (p, slot) in out.iter_mut().enumerate() {
            *slot = Self::lead(pos, p);
        }
    }
}

impl Evaluator<Pig> for PigEval {
    fn evaluate(&self, pos: &Pig) -> Score {
        (Self::lead(pos, pos.to_move()) * Self::BOUND as f64).round() as Score
    }

    fn terminal_score(&self, pos: &Pig, _ply: usize) -> Score {
        (pos.returns(pos.to_move()) * Self::BOUND as f64) as Score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::{check_game, Config};

    #[test]
    fn conformance() {
        let starts = [
            Pig::new(20).unwrap(),
            Pig::new(100).unwrap(),
            Pig::from_text("10 8 9 0 1 decide").unwrap(),
        ];
        check_game(&starts, &Config::default());
    }

    #[test]
    fn a_six_can_win() {
        let mut pig = Pig::from_text("20 15 3 0 0 roll").unwrap();
        pig.make(PigMove::Face(6));
        assert_eq!(pig.turn(), Turn::Over);
        assert_eq!(pig.returns(0), 1.0);
        assert_eq!(pig.returns(1), -1.0);
    }

    #[test]
    fn bad_text_is_an_error() {
        assert!(Pig::from_text("20 0 0 0 0").is_err());
        assert!(Pig::from_text("20 19 0 3 0 decide").is_err());
        assert!(Pig::from_text("0 0 0 0 0 decide").is_err());
        assert!(Pig::from_text("20 20 21 0 0 decide").is_err());
        let pig = Pig::new(20).unwrap();
        assert!(pig.parse_move("hold").is_err()); // nothing to bank yet
        assert!(pig.parse_move("3").is_err()); // not a chance node
        assert_eq!(pig.parse_move("roll").unwrap(), PigMove::Roll);
    }

    proptest::proptest! {
        #[test]
        fn parsers_never_panic(s in "\\PC{0,40}", nums in proptest::collection::vec(0u16..300, 6)) {
            let _ = Pig::from_text(&s);
            let _ = Pig::new(20).unwrap().parse_move(&s);
            let text = format!("{} {} {} {} {} decide", nums[0], nums[1], nums[2], nums[3], nums[4] % 3);
            if let Ok(p) = Pig::from_text(&text) {
                let mut moves = Vec::new();
                p.legal_moves(&mut moves);
            }
        }
    }
}
