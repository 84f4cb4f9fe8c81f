//! The core vocabulary for Xiangqi: [`Game`], [`Notation`] and [`NullMove`] for [`Position`].
//!
//! `legal_moves` is empty exactly when the game is over, which includes the rule endings of
//! [`crate::rules`] (repetition verdicts, the 60-move rule, no attackers left).

use crate::board::Color;
use crate::error::XiangqiError;
use crate::position::{Move, Position, Undo};
use qiyi_core::game::{Game, Notation, NullMove, Turn};

impl Game for Position {
    type Move = Move;
    type Undo = Undo;

    fn num_players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.outcome().is_some() {
            Turn::Over
        } else {
            Turn::Player(self.side.index())
        }
    }

    fn to_move(&self) -> usize {
        self.side.index()
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        let list = self.legal_move_list();
        if list.is_empty() || self.rule_ending().is_some() {
            return;
        }
        moves.extend_from_slice(list.as_slice());
    }

    #[inline]
    fn make(&mut self, mv: Move) -> Undo {
        Position::make(self, mv)
    }

    #[inline]
    fn unmake(&mut self, mv: Move, undo: Undo) {
        Position::unmake(self, mv, undo)
    }

    fn returns(&self, player: usize) -> f64 {
        match self.outcome() {
            Some(o) => match o.winner {
                Some(w) if w.index() == player => 1.0,
                Some(_) => -1.0,
                None => 0.0,
            },
            None => 0.0,
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }
}

impl Position {
    /// A rule ending other than "no legal move": move limit, repetition, no attackers.
    pub fn rule_ending(&self) -> Option<crate::rules::Outcome> {
        use crate::rules::{EndReason, Outcome, MOVE_LIMIT_PLIES};
        if self.halfmove >= MOVE_LIMIT_PLIES {
            return Some(Outcome {
                winner: None,
                reason: EndReason::MoveLimit,
            });
        }
        if let Some(o) = self.repetition_outcome() {
            return Some(o);
        }
        if !self.any_attacker() {
            return Some(Outcome {
                winner: None,
                reason: EndReason::NoAttackers,
            });
        }
        None
    }

    /// The same board and side to move with the game record forgotten (repetition history and
    /// the 60-move clock): what to search when a GUI plays on past one of
    /// [`Self::rule_ending`]'s verdicts, since the GUI's rules own the game.
    pub fn played_on(&self) -> Position {
        let mut pos = self.clone();
        pos.history.clear();
        pos.halfmove = 0;
        pos
    }

    /// The player index (0 Red, 1 Black) of a colour.
    pub fn player_of(color: Color) -> usize {
        color.index()
    }
}

impl Notation for Position {
    type Error = XiangqiError;

    fn move_to_text(&self, mv: Move) -> String {
        mv.to_string()
    }

    fn parse_move(&self, text: &str) -> Result<Move, XiangqiError> {
        self.parse_move_text(text)
    }

    fn to_text(&self) -> String {
        self.to_fen()
    }

    fn from_text(text: &str) -> Result<Self, XiangqiError> {
        Position::from_fen(text)
    }
}

impl NullMove for Position {
    fn make_null(&mut self) -> Undo {
        Position::make_null(self)
    }

    fn unmake_null(&mut self, undo: Undo) {
        Position::unmake_null(self, undo)
    }
}

/// Every position of `games` seeded random games (each under `max_plies` plies, fewer when it
/// ends), with the game record cleared: positions of every phase for tests and benchmarks.
pub fn random_game_positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = qiyi_core::rng::Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut pos = Position::start();
        for _ in 0..rng.below(max_plies) {
            pos.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            pos.make(moves[rng.below(moves.len())]);
            pos.clear_history();
            out.push(pos.clone());
        }
    }
    out
}
