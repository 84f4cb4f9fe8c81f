//! The object-safe view of one game in progress that the API works on ([`GameSession`]), and the
//! plain data it answers with (state, moves, AI answers).

use crate::error::ApiError;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Who sits in a seat: a person at the page or an AI.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum Seat {
    /// A person plays this seat by clicking.
    Human,
    /// The game's strongest AI at `level` (1 = weakest, 10 = strongest).
    Ai {
        /// Strength from 1 to 10 (time and depth grow with it).
        #[cfg_attr(feature = "server", schema(minimum = 1, maximum = 10))]
        #[serde(deserialize_with = "crate::whole::exact")]
        level: u8,
    },
    /// The player described by the game's source article (a greedy or simple player).
    Seed,
}

/// A legal move as the page needs it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct MoveOption {
    /// The move in the game's notation; `POST /moves` takes exactly this text.
    pub text: String,
    /// Cells the player clicks, in order (ids of the board view): `[to]` for a placement,
    /// `[from, to]` for a step, `[from, landing, landing, ...]` for a multi-jump.
    pub path: Vec<String>,
    /// Another rendering of the move when the game has one (Chinese notation for Xiangqi).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// One move of the game record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct HistoryEntry {
    /// Ply number from 1.
    pub ply: usize,
    /// Who chose the move (`None` for a chance outcome such as a die roll).
    pub player: Option<usize>,
    /// The move in the game's notation.
    pub text: String,
    /// Cells of the move (for the last-move highlight).
    pub path: Vec<String>,
    /// Another rendering (Chinese notation for Xiangqi).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct GameResult {
    /// Return of every player, in `[-1, 1]`.
    pub returns: Vec<f64>,
    /// The winner when there is exactly one player with the best return (and it is a win).
    pub winner: Option<usize>,
    /// Why the game ended, in words ("checkmate", "no moves left", "all planes home").
    pub reason: String,
}

/// Whose turn it is, as JSON: `{"kind":"player","player":0}`, `{"kind":"chance"}`, `{"kind":"over"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "server", schema(as = Turn))]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum TurnView {
    /// Player `player` chooses.
    Player {
        /// 0-based player number.
        player: usize,
    },
    /// A chance event (a die) is next.
    Chance,
    /// The game has ended.
    Over,
}

/// Everything the page shows about a game, produced by [`GameSession::snapshot`].
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct Snapshot {
    /// Game name (`"xiangqi"`, `"tictactoe"` ...).
    #[cfg_attr(feature = "server", schema(value_type = String))]
    pub game: &'static str,
    /// The rule set in use, in words.
    pub rules: String,
    /// Number of players.
    pub players: usize,
    /// Names of the players/sides ("Red", "Black").
    pub player_names: Vec<String>,
    /// Whose turn it is.
    pub turn: TurnView,
    /// The position in the game's text notation (FEN and friends).
    pub position: String,
    /// Legal moves (empty when the game is over).
    pub legal: Vec<MoveOption>,
    /// The moves played so far.
    pub history: Vec<HistoryEntry>,
    /// The result once the game is over.
    pub result: Option<GameResult>,
    /// The board as the page draws it (game specific JSON).
    pub view: serde_json::Value,
    /// The AI players this game offers, in words (for the page to say which AI it is).
    pub engines: Vec<String>,
}

/// The body of `POST /api/games/{id}/ai` (every field optional; see `API.md`).
#[derive(Clone, Debug, Default, Deserialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct AiBody {
    /// Strength 1-10 (default: the seat's).
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[cfg_attr(feature = "server", schema(minimum = 1, maximum = 10))]
    pub level: Option<u8>,
    /// Time budget in milliseconds (default: the level's; more than the server's longest search
    /// counts as the longest).
    #[serde(default, deserialize_with = "crate::whole::option")]
    #[cfg_attr(
        feature = "server",
        schema(format = "uint64", maximum = 18446744073709551615_u64)
    )]
    pub time_ms: Option<u64>,
    /// Play the move (default) or only suggest it (a hint).
    #[serde(default)]
    pub play: Option<bool>,
    /// The article's player instead of the strongest (default: the seat's).
    #[serde(default)]
    pub seed_player: Option<bool>,
}

/// What an AI search is asked to do.
#[derive(Clone, Debug)]
pub struct AiRequest {
    /// Strength 1-10.
    pub level: u8,
    /// Play the article's (seed) player instead of the strongest one.
    pub seed_player: bool,
    /// Wall-time budget.
    pub time: Duration,
    /// Raised to stop the search early (game deleted, server shutting down).
    pub stop: Arc<AtomicBool>,
    /// Seed for every random choice of the search.
    pub seed: u64,
}

/// Progress of a running search (shown as the "thinking" indicator).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct Progress {
    /// Depth completed (or playouts/iterations for sampling players).
    pub depth: u32,
    /// Score from the mover's view, in the engine's units.
    pub score: i64,
    /// Nodes (or playouts) so far.
    pub nodes: u64,
    /// Principal variation in the game's notation.
    pub pv: Vec<String>,
}

/// The answer of an AI search.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct AiAnswer {
    /// The chosen move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Which player decided ("alpha-beta (core Searcher), depth-limited", "greedy (article)").
    pub engine: String,
    /// Depth reached.
    pub depth: u32,
    /// Score from the mover's view.
    pub score: i64,
    /// Nodes (or playouts) searched.
    pub nodes: u64,
    /// Principal variation in the game's notation.
    pub pv: Vec<String>,
    /// Milliseconds spent.
    pub time_ms: u64,
}

/// A search prepared from a game, owning everything it needs so it can run on a blocking thread
/// while the game itself stays available to other requests. The callback reports progress.
pub type AiTask = Box<dyn FnOnce(&dyn Fn(Progress)) -> Result<AiAnswer, ApiError> + Send>;

/// The answer of a puzzle solver (peg solitaire).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "server", derive(utoipa::ToSchema))]
pub struct SolveAnswer {
    /// Whether a solution was found (false: proved unsolvable or the budget ran out; see `note`).
    pub solved: bool,
    /// The moves of the solution from the current position, in the game's notation.
    pub moves: Vec<String>,
    /// Cells of each move (to animate it).
    pub paths: Vec<Vec<String>>,
    /// Positions (nodes) examined.
    pub nodes: u64,
    /// What the solver proved or could not decide, in words.
    pub note: String,
    /// Milliseconds spent.
    pub time_ms: u64,
}

/// A solver run prepared from a game (runs on a blocking thread).
pub type SolveTask = Box<dyn FnOnce() -> Result<SolveAnswer, ApiError> + Send>;

/// One game in progress, whatever the game: what the API needs and nothing more.
///
/// Object safe, so the server keeps `Box<dyn GameSession>` and adds a game by adding an adapter.
pub trait GameSession: Send {
    /// The game's name as in the API (`"xiangqi"`).
    fn game(&self) -> &'static str;
    /// State, legal moves, history, result and board view.
    fn snapshot(&self) -> Snapshot;
    /// The number of moves played (chance outcomes included); changes with every move and undo.
    fn ply(&self) -> usize;
    /// The record from ply `from + 1` on (moves and chance outcomes), cheaper than a snapshot.
    fn history_from(&self, from: usize) -> Vec<HistoryEntry>;
    /// Plays `text` (the game's notation, as listed in [`Snapshot::legal`]).
    fn play(&mut self, text: &str) -> Result<(), ApiError>;
    /// Takes back the last move a player chose (with the chance outcomes that followed it).
    fn undo(&mut self) -> Result<(), ApiError>;
    /// The legal moves of the player to move in the game's notation, in the rules' order
    /// (cheaper than a snapshot; empty when no player chooses).
    fn legal_texts(&self) -> Vec<String>;
    /// The player to move, `None` when the game is over (chance is resolved automatically).
    fn player_to_move(&self) -> Option<usize>;
    /// Replaces the position by one given in the game's text notation (FEN paste); clears history.
    fn set_position(&mut self, text: &str) -> Result<(), ApiError>;
    /// Prepares an AI search from the current position.
    fn ai_task(&self, request: AiRequest) -> Result<AiTask, ApiError>;
    /// Prepares a solver run from the current position (puzzles only).
    fn solve_task(&self, _budget: Duration) -> Result<SolveTask, ApiError> {
        Err(ApiError::NotSupported(format!(
            "{} has no solver; solve is for peg solitaire",
            self.game()
        )))
    }
}
