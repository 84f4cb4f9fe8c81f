//! One object-safe view of every game ([`DynState`]) over a small per-game definition
//! ([`GameDef`]): integer action ids, observations, text, search.

use crate::batch::{Batch, Games};
use crate::error::{QiyiError, Result};
use crate::search::{Algorithm, EngineSpec, SearchOut, SearchRequest};
use qiyi_core::search::SearchLimits;
use qiyi_core::{Game, Notation, Rng, Turn};
use std::any::Any;
use std::sync::Mutex;

/// pyspiel's player id of a chance node.
pub const CHANCE: i64 = -1;
/// pyspiel's player id of a finished game.
pub const TERMINAL: i64 = -4;

/// What a game adds to its rules for the Python API.
pub trait GameDef: Clone + Send + Sync + 'static {
    /// The rules.
    type G: Notation;
    /// Whether the game has chance nodes. Without them the turn follows from the legal moves
    /// (none exactly when the game is over: the [`Game`] contract), which saves the rules a
    /// second look for the end of the game after every move.
    const HAS_CHANCE: bool = false;
    /// The game's name in `load_game`.
    fn name(&self) -> &'static str;
    /// The rule options in force, as `(key, value)` text.
    fn params(&self) -> Vec<(String, String)>;
    /// The first position.
    fn initial(&self) -> Self::G;
    /// The definition that goes with a position read from text (a peg board carries its shape).
    fn adopt(&self, _pos: &Self::G) -> Self {
        self.clone()
    }
    /// Distinct action ids (ids lie in `0..num_actions`).
    fn num_actions(&self) -> usize;
    /// The id of `legal[k]` (`legal`: the legal moves of `pos`; some ids depend on the others).
    fn id(&self, pos: &Self::G, legal: &[<Self::G as Game>::Move], k: usize) -> u32;
    /// Writes the id of every move of `legal` (the legal moves of `pos`) into `out`.
    fn ids(&self, pos: &Self::G, legal: &[<Self::G as Game>::Move], out: &mut Vec<u32>) {
        out.clear();
        out.extend((0..legal.len()).map(|k| self.id(pos, legal, k)));
    }
    /// The shape of the observation tensor.
    fn observation_shape(&self) -> Vec<usize>;
    /// Writes the observation (of the shape above) into `out`.
    fn observe(&self, pos: &Self::G, out: &mut [f32]) -> bool;
    /// Runs a search from `pos` (not over, not a chance node).
    fn search(
        &self,
        pos: &Self::G,
        req: &SearchRequest,
    ) -> Result<SearchOut<<Self::G as Game>::Move>>;
    /// The game's engine or player, kept between searches (its tables, its loaded evaluation
    /// and endgame database).
    type Engine: Send + 'static;
    /// Builds the engine `spec` describes (the slow part: tables, networks, databases).
    fn new_engine(&self, spec: &EngineSpec) -> Result<Self::Engine>;
    /// Searches `pos` (not over, not a chance node) with `engine` within `limits`.
    fn engine_search(
        &self,
        engine: &mut Self::Engine,
        pos: &Self::G,
        limits: &SearchLimits,
    ) -> Result<SearchOut<<Self::G as Game>::Move>>;
    /// Forgets what `engine` learnt in earlier searches (a new game): it then searches exactly
    /// as a new engine of the same description would. `State.search` calls it before every
    /// search, so it should be cheap (core's table clears in O(1)).
    fn clear_engine(&self, engine: &mut Self::Engine);
}

/// An engine of some game, built by [`DynState::new_engine`].
pub type AnyEngine = Box<dyn Any + Send>;

/// Engines behind `State.search(algorithm="engine")`, by game, rules and [`EngineSpec`]: built
/// once, cleared before each search (so a search's result does not depend on earlier calls).
static ENGINE_CACHE: Mutex<Vec<(String, AnyEngine)>> = Mutex::new(Vec::new());

/// How many engines [`ENGINE_CACHE`] keeps (a checkers engine holds a 64 MiB table).
const ENGINE_CACHE_SIZE: usize = 4;

impl EngineSpec {
    /// The engine a [`SearchRequest`] asks for (the defaults of `State.search`).
    pub fn of(req: &SearchRequest) -> EngineSpec {
        EngineSpec {
            player: req.player.clone(),
            level: req.level,
            evaluation: None,
            hash_mib: None,
            endgame: None,
            book: true,
            seed: req.seed,
        }
    }
}

/// A state of any game, as the Python classes see it.
pub trait DynState: Send + Sync {
    /// The game's name.
    fn name(&self) -> &'static str;
    /// The rule options in force.
    fn params(&self) -> Vec<(String, String)>;
    /// Players (1 for peg solitaire).
    fn num_players(&self) -> usize;
    /// Distinct action ids.
    fn num_actions(&self) -> usize;
    /// pyspiel's current player: a player, [`CHANCE`] or [`TERMINAL`].
    fn current_player(&self) -> i64;
    /// The legal action ids (chance outcomes at a chance node), in generation order.
    fn legal_ids(&mut self) -> &[u32];
    /// Applies the action `id`.
    fn apply_id(&mut self, id: u32) -> Result<()>;
    /// Chance outcomes with their probabilities (empty off chance nodes).
    fn chance(&self) -> Vec<(u32, f64)>;
    /// Resolves chance nodes by sampling with `rng` (at most `limit` outcomes).
    fn resolve_chance(&mut self, rng: &mut Rng, limit: usize) -> usize;
    /// Plays one uniformly random legal action (a chance node samples its outcomes).
    fn random_step(&mut self, rng: &mut Rng) -> bool;
    /// Every player's return (zeros before the end).
    fn returns(&self) -> Vec<f64>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// `n` copies stepped together, game `i` with the generator `Rng::derive(seed, i)`.
    fn batch(&self, n: usize, seed: u64) -> Box<dyn Batch>;
    /// The action `id` in the game's notation.
    fn id_to_text(&mut self, id: u32) -> Result<String>;
    /// The action written `text` in the game's notation.
    fn text_to_id(&mut self, text: &str) -> Result<u32>;
    /// The position in the game's notation.
    fn to_text(&self) -> String;
    /// Replaces the position by one read from `text`.
    fn set_text(&mut self, text: &str) -> Result<()>;
    /// Back to the first position.
    fn reset(&mut self);
    /// The observation shape.
    fn observation_shape(&self) -> Vec<usize>;
    /// Writes the observation.
    fn observe(&self, out: &mut [f32]) -> bool;
    /// Action ids played since the first position (chance outcomes included).
    fn history(&self) -> &[u32];
    /// Runs a search.
    fn search(&self, req: &SearchRequest) -> Result<SearchOut<u32>>;
    /// Builds this game's engine (see [`GameDef::new_engine`]).
    fn new_engine(&self, spec: &EngineSpec) -> Result<AnyEngine>;
    /// Searches with `engine`, which must be one of this game's (from [`DynState::new_engine`]).
    fn search_engine(
        &self,
        engine: &mut AnyEngine,
        limits: &SearchLimits,
    ) -> Result<SearchOut<u32>>;
    /// Clears `engine`, one of this game's engines.
    fn clear_engine(&self, engine: &mut AnyEngine) -> Result<()>;
    /// A readable picture of the position.
    fn describe(&self) -> String;
}

/// [`DynState`] for one game: the position and its legal moves, computed once per position, and
/// their ids, computed once per position when asked for (a random playout needs only the id of
/// the move it plays).
#[derive(Clone)]
pub struct State<D: GameDef> {
    def: D,
    pos: D::G,
    moves: Vec<<D::G as Game>::Move>,
    ids: Vec<u32>,
    /// `moves` are those of `pos`.
    fresh: bool,
    /// `ids` are those of `moves`.
    ids_fresh: bool,
    /// `pos.turn()`, kept after every change (some games find the end by generating moves).
    turn: Turn,
    /// Scratch space for chance outcomes.
    outcomes: Vec<(<D::G as Game>::Move, f64)>,
    history: Vec<u32>,
}

impl<D: GameDef> State<D> {
    /// The first position of `def`.
    pub fn new(def: D) -> Self {
        let pos = def.initial();
        Self::at(def, pos)
    }

    /// `def` at `pos`.
    pub fn at(def: D, pos: D::G) -> Self {
        let mut s = State {
            def,
            pos,
            moves: Vec::new(),
            ids: Vec::new(),
            fresh: false,
            ids_fresh: false,
            turn: Turn::Over,
            outcomes: Vec::new(),
            history: Vec::new(),
        };
        s.settle();
        s
    }

    /// Finds whose turn it is after a change of position. A game without chance generates its
    /// legal moves now (the next step needs them anyway) and reads the turn from them; one with
    /// chance asks the rules.
    fn settle(&mut self) {
        if D::HAS_CHANCE {
            self.fresh = false;
            self.turn = self.pos.turn();
            return;
        }
        self.pos.legal_moves(&mut self.moves);
        self.fresh = true;
        self.ids_fresh = false;
        self.turn = if self.moves.is_empty() {
            Turn::Over
        } else {
            Turn::Player(self.pos.to_move())
        };
        debug_assert_eq!(self.turn, self.pos.turn());
    }

    fn refresh(&mut self) {
        if !self.fresh {
            self.pos.legal_moves(&mut self.moves);
            self.fresh = true;
            self.ids_fresh = false;
        }
    }

    fn refresh_ids(&mut self) {
        self.refresh();
        if !self.ids_fresh {
            self.def.ids(&self.pos, &self.moves, &mut self.ids);
            self.ids_fresh = true;
        }
    }

    /// The id of the `k`-th legal move (the moves are fresh).
    fn id_at(&self, k: usize) -> u32 {
        if self.ids_fresh {
            self.ids[k]
        } else {
            self.def.id(&self.pos, &self.moves, k)
        }
    }

    /// A uniformly random legal id drawn with `rng` (one draw), or `None` without legal moves.
    pub(crate) fn sample_id(&mut self, rng: &mut Rng) -> Option<u32> {
        self.refresh();
        if self.moves.is_empty() {
            return None;
        }
        Some(self.id_at(rng.below(self.moves.len())))
    }

    /// Plays the `k`-th legal move (as [`DynState::legal_ids`] orders them; they are fresh).
    pub(crate) fn play(&mut self, k: usize) {
        let mv = self.moves[k];
        let id = self.id_at(k);
        self.history.push(id);
        self.pos.make(mv);
        self.settle();
    }

    /// The index of the first legal move with id `id`, or `None` (also once the game is over).
    pub(crate) fn find(&mut self, id: u32) -> Option<usize> {
        if self.turn == Turn::Over {
            return None;
        }
        self.refresh();
        if self.ids_fresh {
            return self.ids.iter().position(|&i| i == id);
        }
        // The ids one by one, up to the first match: a move list is rarely asked for twice.
        (0..self.moves.len()).find(|&k| self.def.id(&self.pos, &self.moves, k) == id)
    }

    /// Writes every player's return into `out` (zeros before the end).
    pub(crate) fn write_returns(&self, out: &mut [f32]) {
        let over = self.turn == Turn::Over;
        for (p, r) in out.iter_mut().enumerate() {
            *r = if over {
                self.pos.returns(p) as f32
            } else {
                0.0
            };
        }
    }

    fn index_of(&mut self, id: u32) -> Result<usize> {
        if self.turn == Turn::Over {
            return Err(QiyiError::GameOver(format!(
                "the {} game is over: no action can be applied",
                self.def.name()
            )));
        }
        self.refresh_ids();
        self.ids.iter().position(|&i| i == id).ok_or_else(|| {
            QiyiError::Illegal(format!(
                "action {id} is not legal here (legal: {:?})",
                &self.ids[..self.ids.len().min(40)]
            ))
        })
    }
}

impl<D: GameDef> State<D> {
    /// An error unless a player is to move.
    fn searchable(&self) -> Result<()> {
        match self.turn {
            Turn::Over => Err(QiyiError::GameOver(format!(
                "the {} game is over: there is nothing to search",
                self.def.name()
            ))),
            Turn::Chance => Err(QiyiError::Search(
                "a chance node: apply a chance outcome before searching".into(),
            )),
            Turn::Player(_) => Ok(()),
        }
    }

    /// `engine` as this game's engine, or an error naming the mismatch.
    fn own_engine<'a>(&self, engine: &'a mut AnyEngine) -> Result<&'a mut D::Engine> {
        engine.downcast_mut::<D::Engine>().ok_or_else(|| {
            QiyiError::Search(format!(
                "this engine was made for another game; it cannot search a {} state",
                self.def.name()
            ))
        })
    }

    /// A search's moves as ids and notation, replaying the principal variation while it
    /// stays legal.
    fn to_ids(&self, out: SearchOut<<D::G as Game>::Move>) -> Result<SearchOut<u32>> {
        let mut pos = self.pos.clone();
        let mut legal = Vec::new();
        let mut ids = Vec::new();
        let mut pv = Vec::new();
        let mut pv_text = Vec::new();
        for &mv in &out.pv {
            pos.legal_moves(&mut legal);
            let Some(k) = legal.iter().position(|&m| m == mv) else {
                break;
            };
            self.def.ids(&pos, &legal, &mut ids);
            pv.push(ids[k]);
            pv_text.push(pos.move_to_text(mv));
            pos.make(mv);
        }
        let best = match out.best {
            Some(mv) => {
                let mut legal = Vec::new();
                self.pos.legal_moves(&mut legal);
                let k = legal.iter().position(|&m| m == mv).ok_or_else(|| {
                    QiyiError::Search(format!("{} chose an illegal move", out.algorithm))
                })?;
                self.def.ids(&self.pos, &legal, &mut ids);
                Some((ids[k], self.pos.move_to_text(mv)))
            }
            None => None,
        };
        Ok(SearchOut {
            best: best.as_ref().map(|b| b.0),
            best_text: best.map(|b| b.1),
            score: out.score,
            pv,
            pv_text,
            nodes: out.nodes,
            depth: out.depth,
            seconds: out.seconds,
            algorithm: out.algorithm,
            exact: out.exact,
        })
    }
}

impl<D: GameDef> DynState for State<D> {
    fn name(&self) -> &'static str {
        self.def.name()
    }

    fn params(&self) -> Vec<(String, String)> {
        self.def.params()
    }

    fn num_players(&self) -> usize {
        self.pos.num_players()
    }

    fn num_actions(&self) -> usize {
        self.def.num_actions()
    }

    fn current_player(&self) -> i64 {
        match self.turn {
            Turn::Player(p) => p as i64,
            Turn::Chance => CHANCE,
            Turn::Over => TERMINAL,
        }
    }

    fn legal_ids(&mut self) -> &[u32] {
        self.refresh_ids();
        &self.ids
    }

    fn apply_id(&mut self, id: u32) -> Result<()> {
        let k = self.index_of(id)?;
        self.play(k);
        Ok(())
    }

    fn chance(&self) -> Vec<(u32, f64)> {
        if self.turn != Turn::Chance {
            return Vec::new();
        }
        let mut outcomes = Vec::new();
        self.pos.chance_outcomes(&mut outcomes);
        let moves: Vec<_> = outcomes.iter().map(|o| o.0).collect();
        let mut ids = Vec::new();
        self.def.ids(&self.pos, &moves, &mut ids);
        ids.into_iter().zip(outcomes.iter().map(|o| o.1)).collect()
    }

    fn resolve_chance(&mut self, rng: &mut Rng, limit: usize) -> usize {
        let mut done = 0;
        while done < limit && self.turn == Turn::Chance {
            self.pos.chance_outcomes(&mut self.outcomes);
            if self.outcomes.is_empty() {
                break;
            }
            let k = rng
                .weighted(self.outcomes.iter().map(|o| o.1))
                .min(self.outcomes.len() - 1);
            let mv = self.outcomes[k].0;
            self.refresh();
            match self.moves.iter().position(|&m| m == mv) {
                Some(i) => self.play(i),
                None => break,
            }
            done += 1;
        }
        done
    }

    fn random_step(&mut self, rng: &mut Rng) -> bool {
        match self.turn {
            Turn::Over => false,
            Turn::Chance => self.resolve_chance(rng, 1) == 1,
            Turn::Player(_) => {
                self.refresh();
                if self.moves.is_empty() {
                    return false;
                }
                let k = rng.below(self.moves.len());
                self.play(k);
                true
            }
        }
    }

    fn returns(&self) -> Vec<f64> {
        let n = self.pos.num_players();
        if self.turn == Turn::Over {
            (0..n).map(|p| self.pos.returns(p)).collect()
        } else {
            vec![0.0; n]
        }
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(self.clone())
    }

    fn batch(&self, n: usize, seed: u64) -> Box<dyn Batch> {
        Box::new(Games::new(self, n, seed))
    }

    fn id_to_text(&mut self, id: u32) -> Result<String> {
        let k = self.index_of(id)?;
        Ok(self.pos.move_to_text(self.moves[k]))
    }

    fn text_to_id(&mut self, text: &str) -> Result<u32> {
        if self.turn == Turn::Over {
            return Err(QiyiError::GameOver(format!(
                "the {} game is over: {text:?} names no legal action",
                self.def.name()
            )));
        }
        let mv = self
            .pos
            .parse_move(text)
            .map_err(|e| QiyiError::Illegal(format!("{text:?}: {e}")))?;
        self.refresh_ids();
        self.moves
            .iter()
            .position(|&m| m == mv)
            .map(|k| self.ids[k])
            .ok_or_else(|| QiyiError::Illegal(format!("{text:?} is not legal here")))
    }

    fn to_text(&self) -> String {
        self.pos.to_text()
    }

    fn set_text(&mut self, text: &str) -> Result<()> {
        let pos = <D::G as Notation>::from_text(text).map_err(|e| {
            QiyiError::Parse(format!("bad {} position {text:?}: {e}", self.def.name()))
        })?;
        self.def = self.def.adopt(&pos);
        self.pos = pos;
        self.history.clear();
        self.settle();
        Ok(())
    }

    fn reset(&mut self) {
        // In place: a game's buffers (its history) keep their allocation from game to game.
        self.pos.clone_from(&self.def.initial());
        self.history.clear();
        self.settle();
    }

    fn observation_shape(&self) -> Vec<usize> {
        self.def.observation_shape()
    }

    fn observe(&self, out: &mut [f32]) -> bool {
        self.def.observe(&self.pos, out)
    }

    fn history(&self) -> &[u32] {
        &self.history
    }

    fn search(&self, req: &SearchRequest) -> Result<SearchOut<u32>> {
        self.searchable()?;
        if req.algorithm != Algorithm::Engine {
            let out = self.def.search(&self.pos, req)?;
            return self.to_ids(out);
        }
        let spec = EngineSpec::of(req);
        let key = format!("{}|{:?}|{:?}", self.def.name(), self.def.params(), spec);
        let cached = {
            let mut cache = ENGINE_CACHE.lock().unwrap_or_else(|e| e.into_inner());
            cache
                .iter()
                .position(|(k, _)| *k == key)
                .map(|i| cache.swap_remove(i).1)
        };
        let mut engine = match cached {
            Some(e) => e,
            None => self.new_engine(&spec)?,
        };
        self.clear_engine(&mut engine)?;
        let out = self.search_engine(&mut engine, &req.limits);
        let mut cache = ENGINE_CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if cache.len() >= ENGINE_CACHE_SIZE {
            cache.remove(0);
        }
        cache.push((key, engine));
        out
    }

    fn new_engine(&self, spec: &EngineSpec) -> Result<AnyEngine> {
        Ok(Box::new(self.def.new_engine(spec)?))
    }

    fn search_engine(
        &self,
        engine: &mut AnyEngine,
        limits: &SearchLimits,
    ) -> Result<SearchOut<u32>> {
        self.searchable()?;
        let engine = self.own_engine(engine)?;
        let out = self.def.engine_search(engine, &self.pos, limits)?;
        self.to_ids(out)
    }

    fn clear_engine(&self, engine: &mut AnyEngine) -> Result<()> {
        let engine = self.own_engine(engine)?;
        self.def.clear_engine(engine);
        Ok(())
    }

    fn describe(&self) -> String {
        self.pos.to_text()
    }
}
