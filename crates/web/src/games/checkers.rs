//! English checkers: squares 1-32 (PDN), moves in PDN (`11-15`, `15x24x31`); a multi-jump is
//! entered by clicking every landing square. AI: the game's own engine over core's `Searcher`.

use crate::engine;
use crate::engine_pool::EnginePool;
use crate::error::ApiError;
use crate::generic::{Adapter, AiChoice};
use crate::memory::{self, Reservation};
use crate::session::{AiRequest, Progress};
use qiyi_checkers::engine::eval::Weights;
use qiyi_checkers::engine::player::{Engine, EvalChoice, Level, SearchChoice};
use qiyi_checkers::engine::search::SearchConfig;
use qiyi_checkers::{Checkers, Color, Move, Outcome};
use serde_json::{json, Value};

/// Checkers engines kept loaded between AI requests (a new one zeroes its table): as many as
/// searches usually run at once, plus a few levels; each with the reservation of its table in
/// the memory budget.
static ENGINES: EnginePool<Level, (Engine, Reservation)> = EnginePool::new(4);

/// Drops the idle engines (their tables go back to the memory budget).
pub fn evict_idle() {
    ENGINES.clear();
}

/// The table of a checkers AI player of `level`, in MiB, before the budget's cap (the engine's
/// own default is 64 MiB, sized for long analyses; a 0.2 s search fills under 2 MiB).
pub fn ai_table_mib(level: Level) -> usize {
    match level {
        Level::Seed { .. } => 1,
        Level::Level(l) if l <= 3 => 2,
        Level::Level(l) if l <= 6 => 8,
        Level::Level(l) if l <= 8 => 16,
        Level::Level(_) => 32,
    }
}

/// The evaluation the server's checkers AI, analysis and review search with (`qiyi serve
/// --checkers-eval`: `net`, `hand` or a net or net-set file); unset: the shipped net.
static EVAL: std::sync::OnceLock<EvalChoice> = std::sync::OnceLock::new();

/// Makes the server's checkers engines search with `eval`, once, before the first request: a
/// second call is refused and returns `false`.
pub fn set_eval(eval: EvalChoice) -> bool {
    EVAL.set(eval).is_ok()
}

/// The evaluation the server's checkers engines search with: the shipped net unless
/// [`set_eval`] chose otherwise.
pub fn eval() -> EvalChoice {
    EVAL.get().cloned().unwrap_or_default()
}

/// A checkers engine of `level` whose table takes `mib` MiB.
pub fn engine_with_table(level: Level, mib: usize) -> Engine {
    let config = SearchConfig {
        tt_mib: mib,
        ..SearchConfig::default()
    };
    Engine::with_search(
        level,
        1,
        Weights::default(),
        None,
        &eval(),
        &SearchChoice::Selective(config),
    )
}

/// The checkers adapter.
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckersAdapter;

impl Adapter for CheckersAdapter {
    type G = Checkers;

    fn game(&self) -> &'static str {
        "checkers"
    }

    fn rules(&self) -> String {
        "English checkers (WCDF): captures compulsory (any capture may be chosen), men move and \
         capture forward, kings both ways, no legal move loses; threefold repetition and 40 \
         moves each without a capture or man move draw"
            .into()
    }

    fn player_names(&self, _pos: &Checkers) -> Vec<String> {
        vec!["Black".into(), "White".into()]
    }

    fn view(&self, pos: &Checkers) -> Value {
        let b = pos.board();
        let pieces: Vec<Value> = (1..=32u8)
            .filter_map(|sq| {
                b.piece_at(sq).map(|(color, king)| {
                    json!({ "sq": sq, "black": color == Color::Black, "king": king })
                })
            })
            .collect();
        json!({ "pieces": pieces })
    }

    fn path(&self, _pos: &Checkers, mv: Move) -> Vec<String> {
        mv.squares().iter().map(|s| s.to_string()).collect()
    }

    fn reason(&self, pos: &Checkers) -> String {
        match pos.outcome() {
            Some(Outcome::Win(_)) => "the side to move has no legal move".into(),
            Some(Outcome::DrawByRepetition) => "threefold repetition: draw".into(),
            Some(Outcome::DrawByFortyMoves) => "40 moves each without progress: draw".into(),
            None => "the game ended".into(),
        }
    }

    fn engines(&self) -> Vec<String> {
        vec![
            "AI: qiyi-checkers engine (alpha-beta over core's Searcher, opening book from level 6)"
                .into(),
            "seed: the article's player (plain alpha-beta, material only)".into(),
        ]
    }

    fn choose(
        &self,
        pos: &Checkers,
        request: &AiRequest,
        progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<Move>, ApiError> {
        let level = if request.seed_player {
            Level::Seed {
                depth: Level::SEED_DEPTH,
            }
        } else {
            Level::Level(request.level.clamp(1, 10))
        };
        let (mut engine, lease) = match ENGINES.take_idle(&level) {
            Some(pooled) => pooled,
            None => {
                let mib = memory::budget().table_mib(ai_table_mib(level));
                let lease = memory::reserve(mib, "a checkers AI move")?;
                (engine_with_table(level, mib), lease)
            }
        };
        // A new game empties the tables (in O(1)): the search is a fresh engine's.
        engine.new_game();
        engine.set_noise_seed(request.seed);
        let name = format!("qiyi-checkers engine, {}", level.name());
        let choice = engine::think(pos, request, progress, &name, |limits, on_info| {
            engine.think(pos, limits, on_info)
        });
        ENGINES.give_back(level, (engine, lease));
        choice.ok_or_else(|| ApiError::Conflict("no legal move".into()))
    }
}
