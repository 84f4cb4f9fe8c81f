//! One [`GameSession`] for every game: [`Session`] over any [`Notation`] game plus a small
//! per-game [`Adapter`] (board view, click paths, result reason, AI players).

use crate::error::ApiError;
use crate::session::{
    AiAnswer, AiRequest, AiTask, GameResult, GameSession, HistoryEntry, MoveOption, Progress,
    Snapshot, SolveAnswer, SolveTask, TurnView,
};
use qiyi_core::platform::Instant;
use qiyi_core::{Game, Notation, Rng, Turn};
use std::time::Duration;

/// The most chance outcomes resolved in a row after one move (a guard against endless chains).
const MAX_CHANCE_CHAIN: usize = 10_000;

/// What an AI player chose, with what the search reported.
#[derive(Clone, Debug)]
pub struct AiChoice<M> {
    /// The move to play.
    pub mv: M,
    /// Which player chose it, in words.
    pub engine: String,
    /// Depth reached (or iterations for sampling players).
    pub depth: u32,
    /// Score from the mover's view.
    pub score: i64,
    /// Nodes (or playouts).
    pub nodes: u64,
    /// Principal variation, starting with `mv`.
    pub pv: Vec<M>,
}

/// What a game adds to its rules so the page can show and play it.
///
/// `Clone` because a copy goes with every AI search to its blocking thread.
pub trait Adapter: Clone + Send + Sync + 'static {
    /// The rules.
    type G: Notation;
    /// The game's API name.
    fn game(&self) -> &'static str;
    /// The rule set in use, in words.
    fn rules(&self) -> String;
    /// Names of the players ("Red", "Black").
    fn player_names(&self, pos: &Self::G) -> Vec<String>;
    /// The board as JSON for the page.
    fn view(&self, pos: &Self::G) -> serde_json::Value;
    /// The cells a player clicks for `mv` (see [`MoveOption::path`]).
    fn path(&self, pos: &Self::G, mv: <Self::G as Game>::Move) -> Vec<String>;
    /// The cells the move passes through, for the record and the last-move highlight (a hop
    /// chain); by default the click path.
    fn trail(&self, pos: &Self::G, mv: <Self::G as Game>::Move) -> Vec<String> {
        self.path(pos, mv)
    }
    /// Another rendering of `mv` (Chinese notation for Xiangqi).
    fn label(&self, _pos: &Self::G, _mv: <Self::G as Game>::Move) -> Option<String> {
        None
    }
    /// Why the (finished) game ended, in words.
    fn reason(&self, pos: &Self::G) -> String;
    /// The AI players on offer, in words.
    fn engines(&self) -> Vec<String>;
    /// Chooses a move for the side to move (which has at least one legal move).
    fn choose(
        &self,
        pos: &Self::G,
        request: &AiRequest,
        progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<<Self::G as Game>::Move>, ApiError>;
    /// Solves the position (puzzles); `None` when the game has no solver.
    fn solve(&self, _pos: &Self::G, _budget: Duration) -> Option<Result<SolveAnswer, ApiError>> {
        None
    }
    /// Whether the game has a solver (so the API can refuse `solve` early).
    fn has_solver(&self) -> bool {
        false
    }
}

/// A game in progress: the adapter, the position and the record (positions before each move).
#[derive(Clone)]
pub struct Session<A: Adapter> {
    adapter: A,
    pos: A::G,
    stack: Vec<(A::G, HistoryEntry)>,
    seed: u64,
}

/// Writes `pv` (legal from `pos`) in the game's notation.
pub fn pv_text<G: Notation>(pos: &G, pv: &[G::Move]) -> Vec<String> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(pv.len());
    let mut legal = Vec::new();
    for &mv in pv {
        p.legal_moves(&mut legal);
        if !legal.contains(&mv) {
            break;
        }
        out.push(p.move_to_text(mv));
        p.make(mv);
    }
    out
}

impl<A: Adapter> Session<A> {
    /// A session starting from `pos`; chance nodes are resolved with `seed`.
    pub fn new(adapter: A, pos: A::G, seed: u64) -> Self {
        let mut s = Session {
            adapter,
            pos,
            stack: Vec::new(),
            seed,
        };
        s.resolve_chance();
        s
    }

    /// The current position.
    pub fn position(&self) -> &A::G {
        &self.pos
    }

    fn push(&mut self, mv: <A::G as Game>::Move, player: Option<usize>) {
        let entry = HistoryEntry {
            ply: self.stack.len() + 1,
            player,
            text: self.pos.move_to_text(mv),
            path: self.adapter.trail(&self.pos, mv),
            label: self.adapter.label(&self.pos, mv),
        };
        let before = self.pos.clone();
        self.pos.make(mv);
        self.stack.push((before, entry));
    }

    fn resolve_chance(&mut self) {
        let mut outcomes = Vec::new();
        for _ in 0..MAX_CHANCE_CHAIN {
            if self.pos.turn() != Turn::Chance {
                return;
            }
            self.pos.chance_outcomes(&mut outcomes);
            if outcomes.is_empty() {
                return;
            }
            let mut rng = Rng::derive(self.seed, self.stack.len() as u64);
            let k = rng.weighted(outcomes.iter().map(|o| o.1).collect::<Vec<_>>());
            let mv = outcomes[k.min(outcomes.len() - 1)].0;
            self.push(mv, None);
        }
    }

    fn legal(&self) -> Vec<<A::G as Game>::Move> {
        let mut moves = Vec::new();
        if matches!(self.pos.turn(), Turn::Player(_)) {
            self.pos.legal_moves(&mut moves);
        }
        moves
    }

    fn result(&self) -> Option<GameResult> {
        if self.pos.turn() != Turn::Over {
            return None;
        }
        let n = self.pos.num_players();
        let returns: Vec<f64> = (0..n).map(|p| self.pos.returns(p)).collect();
        let best = returns.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
        let leaders: Vec<usize> = (0..n).filter(|&p| returns[p] == best).collect();
        let winner = (leaders.len() == 1 && best > 0.0).then(|| leaders[0]);
        Some(GameResult {
            returns,
            winner,
            reason: self.adapter.reason(&self.pos),
        })
    }
}

impl<A: Adapter> GameSession for Session<A> {
    fn game(&self) -> &'static str {
        self.adapter.game()
    }

    fn snapshot(&self) -> Snapshot {
        let turn = match self.pos.turn() {
            Turn::Player(p) => TurnView::Player { player: p },
            Turn::Chance => TurnView::Chance,
            Turn::Over => TurnView::Over,
        };
        let legal = self
            .legal()
            .into_iter()
            .map(|mv| MoveOption {
                text: self.pos.move_to_text(mv),
                path: self.adapter.path(&self.pos, mv),
                label: self.adapter.label(&self.pos, mv),
            })
            .collect();
        Snapshot {
            game: self.adapter.game(),
            rules: self.adapter.rules(),
            players: self.pos.num_players(),
            player_names: self.adapter.player_names(&self.pos),
            turn,
            position: self.pos.to_text(),
            legal,
            history: self.stack.iter().map(|(_, e)| e.clone()).collect(),
            result: self.result(),
            view: self.adapter.view(&self.pos),
            engines: self.adapter.engines(),
        }
    }

    fn ply(&self) -> usize {
        self.stack.len()
    }

    fn history_from(&self, from: usize) -> Vec<HistoryEntry> {
        self.stack
            .iter()
            .skip(from)
            .map(|(_, e)| e.clone())
            .collect()
    }

    fn play(&mut self, text: &str) -> Result<(), ApiError> {
        let player = match self.pos.turn() {
            Turn::Player(p) => p,
            Turn::Over => return Err(ApiError::Conflict("the game is over".into())),
            Turn::Chance => return Err(ApiError::Conflict("a chance event is pending".into())),
        };
        let mv = self
            .pos
            .parse_move(text)
            .map_err(|e| ApiError::IllegalMove(text.to_string(), e.to_string()))?;
        // Parsers promise legality; check anyway so a lenient parser cannot corrupt the game.
        if !self.legal().contains(&mv) {
            return Err(ApiError::IllegalMove(
                text.to_string(),
                "not a legal move in this position".into(),
            ));
        }
        self.push(mv, Some(player));
        self.resolve_chance();
        Ok(())
    }

    fn undo(&mut self) -> Result<(), ApiError> {
        // Drop trailing chance outcomes, then the player's move before them.
        let Some(last_choice) = self.stack.iter().rposition(|(_, e)| e.player.is_some()) else {
            return Err(ApiError::Conflict("there is no move to take back".into()));
        };
        self.pos = self.stack[last_choice].0.clone();
        self.stack.truncate(last_choice);
        Ok(())
    }

    fn legal_texts(&self) -> Vec<String> {
        self.legal()
            .into_iter()
            .map(|mv| self.pos.move_to_text(mv))
            .collect()
    }

    fn player_to_move(&self) -> Option<usize> {
        match self.pos.turn() {
            Turn::Player(p) => Some(p),
            _ => None,
        }
    }

    fn set_position(&mut self, text: &str) -> Result<(), ApiError> {
        let pos = A::G::from_text(text)
            .map_err(|e| ApiError::BadRequest(format!("bad position '{text}': {e}")))?;
        self.pos = pos;
        self.stack.clear();
        self.resolve_chance();
        Ok(())
    }

    fn ai_task(&self, request: AiRequest) -> Result<AiTask, ApiError> {
        if self.legal().is_empty() {
            return Err(ApiError::Conflict(
                "the game is over: there is no move to choose".into(),
            ));
        }
        let adapter = self.adapter.clone();
        let pos = self.pos.clone();
        Ok(Box::new(move |progress: &dyn Fn(Progress)| {
            let start = Instant::now();
            let choice = adapter.choose(&pos, &request, progress)?;
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            if !legal.contains(&choice.mv) {
                return Err(ApiError::Internal(format!(
                    "{} chose an illegal move",
                    choice.engine
                )));
            }
            let mut pv = pv_text(&pos, &choice.pv);
            if pv.is_empty() {
                pv.push(pos.move_to_text(choice.mv));
            }
            Ok(AiAnswer {
                mv: pos.move_to_text(choice.mv),
                engine: choice.engine,
                depth: choice.depth,
                score: choice.score,
                nodes: choice.nodes,
                pv,
                time_ms: start.elapsed().as_millis() as u64,
            })
        }))
    }

    fn solve_task(&self, budget: Duration) -> Result<SolveTask, ApiError> {
        if !self.adapter.has_solver() {
            return Err(ApiError::NotSupported(format!(
                "{} has no solver; solve is for peg solitaire",
                self.adapter.game()
            )));
        }
        let adapter = self.adapter.clone();
        let pos = self.pos.clone();
        Ok(Box::new(move || {
            adapter
                .solve(&pos, budget)
                .unwrap_or_else(|| Err(ApiError::NotSupported("this game has no solver".into())))
        }))
    }
}
