//! Xiangqi: squares in ICCS (`a0`..`i9`, Red at the bottom), moves in ICCS with the Chinese
//! notation as label, the game's own engine (alpha-beta over core's `Searcher`).

use crate::engine;
use crate::engine_pool::EnginePool;
use crate::error::ApiError;
use crate::generic::{Adapter, AiChoice};
use crate::memory::{self, Reservation};
use crate::session::{AiRequest, Progress};
use qiyi_xiangqi::engine::{Engine, EngineConfig, Level};
use qiyi_xiangqi::{Color, EndReason, Move, PieceKind, Position, Square};
use serde_json::{json, Value};

/// Xiangqi engines kept loaded between AI requests, by level, each with the reservation of its
/// table in the memory budget.
static ENGINES: EnginePool<Level, (Engine, Reservation)> = EnginePool::new(4);

/// Drops the idle engines (their tables go back to the memory budget).
pub fn evict_idle() {
    ENGINES.clear();
}

/// The table of a Xiangqi AI player of `level`, in MiB, before the budget's cap: the short
/// searches of the low levels fill a small one (a 0.2 s search stores about 100,000 positions,
/// under 2 MiB).
pub fn ai_table_mib(level: Level) -> usize {
    match level {
        Level::Seed => 1,
        Level::Strength(l) if l <= 3 => 2,
        Level::Strength(l) if l <= 6 => 8,
        Level::Strength(_) => 16,
    }
}

/// The evaluation the server's Xiangqi AI, analysis and review search with (`qiyi serve
/// --xiangqi-eval`; `None` inside: the hand evaluation); unset: the shipped net, which is also
/// what the static site plays.
static NET: std::sync::OnceLock<Option<std::sync::Arc<qiyi_core::learn::QuantNet>>> =
    std::sync::OnceLock::new();

/// Makes the server's Xiangqi engines search with `net` (`None`: the hand evaluation), once,
/// before the first request: a second call is refused and returns `false`.
pub fn set_net(net: Option<std::sync::Arc<qiyi_core::learn::QuantNet>>) -> bool {
    NET.set(net).is_ok()
}

/// The net the server's Xiangqi engines search with (`None`: the hand evaluation); the shipped
/// net unless [`set_net`] chose otherwise.
pub fn net() -> Option<std::sync::Arc<qiyi_core::learn::QuantNet>> {
    match NET.get() {
        Some(chosen) => chosen.clone(),
        None => qiyi_xiangqi::nnue::default_net(),
    }
}

/// The Xiangqi adapter.
#[derive(Clone, Copy, Debug, Default)]
pub struct XiangqiAdapter;

fn reason_text(r: EndReason) -> &'static str {
    match r {
        EndReason::Checkmate => "checkmate (将死)",
        EndReason::Stalemate => "no legal move (困毙): the side to move loses",
        EndReason::PerpetualCheck => "perpetual check (长将) loses",
        EndReason::PerpetualChase => "perpetual chase (长捉) loses",
        EndReason::Repetition => "repetition: draw",
        EndReason::MoveLimit => "60 moves each without a capture: draw",
        EndReason::NoAttackers => "neither side can attack: draw",
    }
}

/// The traditional glyph of a piece: 帥仕相傌俥炮兵 for Red, 將士象馬車砲卒 for Black.
pub fn glyph(kind: PieceKind, color: Color) -> &'static str {
    const RED: [&str; 7] = ["帥", "仕", "相", "傌", "俥", "炮", "兵"];
    const BLACK: [&str; 7] = ["將", "士", "象", "馬", "車", "砲", "卒"];
    let i = kind as usize;
    match color {
        Color::Red => RED[i],
        Color::Black => BLACK[i],
    }
}

impl Adapter for XiangqiAdapter {
    type G = Position;

    fn game(&self) -> &'static str {
        "xiangqi"
    }

    fn rules(&self) -> String {
        "Xiangqi (Asian rules as implemented by qiyi-xiangqi): flying general, stalemate loses, \
         perpetual check and chase lose, other repetitions and 60 moves without capture draw"
            .into()
    }

    fn player_names(&self, _pos: &Position) -> Vec<String> {
        vec!["Red 红".into(), "Black 黑".into()]
    }

    fn view(&self, pos: &Position) -> Value {
        let mut pieces = Vec::new();
        for i in 0..90u8 {
            let Some(sq) = Square::from_index(i) else {
                continue;
            };
            if let Some((kind, color)) = pos.piece_at(sq) {
                pieces.push(json!({
                    "sq": sq.to_string(),
                    "red": color == Color::Red,
                    "glyph": glyph(kind, color),
                }));
            }
        }
        let check = pos
            .in_check()
            .then(|| pos.king_square(pos.side_to_move()).to_string());
        json!({ "pieces": pieces, "check": check })
    }

    fn path(&self, _pos: &Position, mv: Move) -> Vec<String> {
        vec![mv.from().to_string(), mv.to().to_string()]
    }

    fn label(&self, pos: &Position, mv: Move) -> Option<String> {
        Some(pos.move_to_chinese(mv))
    }

    fn reason(&self, pos: &Position) -> String {
        pos.outcome()
            .map(|o| reason_text(o.reason).to_string())
            .unwrap_or_else(|| "the game ended".into())
    }

    fn engines(&self) -> Vec<String> {
        vec![
            "AI: qiyi-xiangqi engine (alpha-beta over core's Searcher, full evaluation; lower \
             levels are shallower and noisier)"
                .into(),
            "seed: the tutorial's player (depth-4 plain alpha-beta, material only)".into(),
        ]
    }

    fn choose(
        &self,
        pos: &Position,
        request: &AiRequest,
        progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<Move>, ApiError> {
        let level = if request.seed_player {
            Level::Seed
        } else {
            Level::Strength(request.level.clamp(1, 10))
        };
        let (mut engine, lease) = match ENGINES.take_idle(&level) {
            Some(pooled) => pooled,
            None => {
                let mib = memory::budget().table_mib(ai_table_mib(level));
                let lease = memory::reserve(mib, "a Xiangqi AI move")?;
                let engine = Engine::new(EngineConfig {
                    hash_mib: mib,
                    threads: 1,
                    level,
                    seed: request.seed,
                    net: net(),
                });
                (engine, lease)
            }
        };
        // An empty table and this request's seed: the search is a new engine's.
        engine.new_game();
        engine.set_seed(request.seed);
        let name = match level {
            Level::Seed => "seed player (depth-4 alpha-beta, material)".to_string(),
            Level::Strength(l) => format!("qiyi-xiangqi engine, level {l}"),
        };
        let choice = engine::think(pos, request, progress, &name, |limits, on_info| {
            engine.think(pos, limits, on_info)
        });
        ENGINES.give_back(level, (engine, lease));
        choice.ok_or_else(|| ApiError::Conflict("no legal move".into()))
    }
}
