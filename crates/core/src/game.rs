//! The game vocabulary: one small set of traits that every qiyi game implements.
//!
//! The shape follows OpenSpiel's State API: a position knows whose turn it is (a player, chance, or
//! nobody because the game is over), writes its legal moves into a caller-owned buffer, applies a
//! move with [`Game::make`] and takes it back with [`Game::unmake`], and reports a return for each
//! player at the end. Chance is modelled as a node whose "moves" are the outcomes (the faces of a
//! die), each with a probability given by [`Game::chance_outcomes`].
//!
//! Evaluation and move ordering live outside the rules (see [`crate::eval`]), so one game can have
//! several players over the same rules.

use std::fmt::Debug;
use std::hash::Hash;

/// Who acts next in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// Player `i` (0-based) chooses a move.
    Player(usize),
    /// Nature chooses an outcome (a die roll); see [`Game::chance_outcomes`].
    Chance,
    /// The game has ended; see [`Game::returns`].
    Over,
}

/// A game position: the rules of one game.
///
/// Contract (checked for every game by [`crate::conformance`]):
/// - `legal_moves` writes nothing exactly when `turn()` is [`Turn::Over`];
/// - at a chance node `legal_moves` writes the outcomes, the same ones `chance_outcomes` lists;
/// - `unmake(mv, make(mv))` restores the position and its hash exactly;
/// - `hash()` (kept incrementally) equals `hash_from_scratch()`.
pub trait Game: Clone + Send + Sync + 'static {
    /// A move (or a chance outcome). Small and `Copy`.
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;
    /// What [`Game::unmake`] needs to take a move back (`Self` for copy-make games).
    type Undo: Send;

    /// Number of players (1 for puzzles).
    fn num_players(&self) -> usize;

    /// Who acts next.
    fn turn(&self) -> Turn;

    /// The player who moves next, or who would move next if the game has ended.
    ///
    /// At a chance node this is the player the chance event belongs to (the one about to roll).
    fn to_move(&self) -> usize;

    /// Replaces the contents of `moves` with the legal moves (the outcomes at a chance node).
    fn legal_moves(&self, moves: &mut Vec<Self::Move>);

    /// Applies `mv`, which must be legal, and returns what is needed to take it back.
    fn make(&mut self, mv: Self::Move) -> Self::Undo;

    /// Takes back `mv`, the last move made, given what `make` returned.
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo);

    /// The return of `player` once the game is over: in `[-1, 1]`, +1 a win, -1 a loss, 0 a draw
    /// for two-player games. Unspecified before the end.
    fn returns(&self, player: usize) -> f64;

    /// The 64-bit Zobrist key, kept incrementally.
    fn hash(&self) -> u64;

    /// The Zobrist key computed from the position alone (for tests of the incremental key).
    fn hash_from_scratch(&self) -> u64;

    /// The outcomes of a chance node with their probabilities (summing to 1), replacing `out`.
    ///
    /// Games without chance keep the default, which writes nothing.
    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        out.clear();
    }

    /// Applies `mv` to a copy (copy-make convenience).
    fn after(&self, mv: Self::Move) -> Self {
        let mut next = self.clone();
        next.make(mv);
        next
    }

    /// True when the game has ended.
    fn is_over(&self) -> bool {
        self.turn() == Turn::Over
    }
}

/// Text in the game's standard notation: positions (FEN, PDN, pictures) and moves.
pub trait Notation: Game {
    /// The typed error of the game's parsers.
    type Error: std::error::Error + Send + Sync + 'static;

    /// Writes `mv` (legal in `self`) in the game's standard move notation.
    fn move_to_text(&self, mv: Self::Move) -> String;

    /// Parses a move in the game's notation; it must be legal in `self`.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::Error>;

    /// Writes the position (FEN or the game's equivalent).
    fn to_text(&self) -> String;

    /// Parses a position written by [`Notation::to_text`] (and the usual variants of the notation).
    fn from_text(text: &str) -> Result<Self, Self::Error>;
}

/// A two-player game that can pass (for null-move pruning).
pub trait NullMove: Game {
    /// Passes the turn; returns what [`NullMove::unmake_null`] needs.
    fn make_null(&mut self) -> Self::Undo;
    /// Takes a pass back.
    fn unmake_null(&mut self, undo: Self::Undo);
}

/// A single-agent search problem over small `Copy` states (peg solitaire, Chinese-checkers
/// solitaire, sliding tiles): the view the solvers in [`crate::puzzle`] work on.
pub trait Puzzle {
    /// A state: small, `Copy`, hashable (usually a bitboard).
    type State: Copy + Eq + Hash + Debug + Send + Sync;
    /// A move, kept to print solutions.
    type Move: Copy + Eq + Debug + Send + Sync;

    /// The start state.
    fn start(&self) -> Self::State;
    /// Whether `state` is a goal.
    fn is_goal(&self, state: &Self::State) -> bool;
    /// Replaces `out` with every move from `state` and the state it leads to (each of cost 1).
    fn successors(&self, state: &Self::State, out: &mut Vec<(Self::Move, Self::State)>);
    /// A lower bound on the moves still needed (0 when unknown). Must be admissible for A*/IDA*.
    fn heuristic(&self, _state: &Self::State) -> u32 {
        0
    }
    /// The representative of the state's symmetry class (the state itself when there is no symmetry).
    fn canonical(&self, state: &Self::State) -> Self::State {
        *state
    }
    /// Every state that reaches `state` in one move (for bidirectional search), replacing `out`.
    ///
    /// The default writes nothing: such puzzles cannot be searched backwards.
    fn predecessors(&self, _state: &Self::State, _out: &mut Vec<(Self::Move, Self::State)>) {}
    /// The goal states, for bidirectional search (empty when they cannot be listed).
    fn goals(&self) -> Vec<Self::State> {
        Vec::new()
    }
}
