//! Chinese checkers on the 121-hole star: holes named `a1`..`q1` (row letter, place in the row);
//! a move is clicked as the piece then its destination, and the hop chain is drawn as a path.
//! AI: the crate's players (the strongest for the number of players, or the article's greedy).

use crate::error::ApiError;
use crate::generic::{Adapter, AiChoice};
use crate::session::{AiRequest, Progress};
use qiyi_chinese_checkers::board::{geometry, ROW_LEN};
use qiyi_chinese_checkers::engine::{Player, PlayerKind};
use qiyi_chinese_checkers::notation::cell_name;
use qiyi_chinese_checkers::{Move, Options, Position, Status};
use qiyi_core::Game;
use serde_json::{json, Value};

/// The colour names of the six points of the star, from the bottom clockwise.
pub const POINT_NAMES: [&str; 6] = ["red", "orange", "yellow", "green", "blue", "purple"];

/// The click id of the pass (only legal when a player has no other move).
pub const PASS: &str = "pass";

/// The Chinese checkers adapter.
#[derive(Clone, Copy, Debug)]
pub struct ChineseCheckersAdapter {
    /// The options in force.
    pub options: Options,
}

impl Adapter for ChineseCheckersAdapter {
    type G = Position;

    fn game(&self) -> &'static str {
        "chinese-checkers"
    }

    fn rules(&self) -> String {
        let o = &self.options;
        format!(
            "Chinese checkers, {} players, {} pieces each: step to a neighbouring hole or hop over \
             pieces in a chain; first to fill the opposite point wins{}{}; stopped after {} moves \
             each and ranked by distance left",
            o.players,
            o.pieces,
            if o.anti_spoil {
                " (anti-spoiling: a goal filled with others' pieces counts when one of yours is in it)"
            } else {
                ""
            },
            if o.goal_lock {
                "; pieces in their goal stay there"
            } else {
                ""
            },
            o.max_moves
        )
    }

    fn player_names(&self, pos: &Position) -> Vec<String> {
        (0..pos.num_players())
            .map(|p| POINT_NAMES[pos.seat(p) % 6].to_string())
            .collect()
    }

    fn view(&self, pos: &Position) -> Value {
        let g = geometry();
        let holes: Vec<Value> = (0..qiyi_chinese_checkers::board::CELLS)
            .map(|c| {
                let r = usize::from(g.row[c]);
                let x = f64::from(g.col[c]) - (f64::from(ROW_LEN[r]) - 1.0) / 2.0;
                json!({
                    "id": cell_name(c as u8),
                    "x": x,
                    "y": r as f64 * 0.866,
                    "owner": pos.owner(c as u8),
                })
            })
            .collect();
        let seats: Vec<usize> = (0..pos.num_players()).map(|p| pos.seat(p)).collect();
        let remaining: Vec<u32> = (0..pos.num_players()).map(|p| pos.remaining(p)).collect();
        json!({ "holes": holes, "seats": seats, "remaining": remaining, "colors": POINT_NAMES })
    }

    fn path(&self, _pos: &Position, mv: Move) -> Vec<String> {
        if mv.is_pass() {
            vec![PASS.into()]
        } else {
            vec![cell_name(mv.from), cell_name(mv.to)]
        }
    }

    fn trail(&self, pos: &Position, mv: Move) -> Vec<String> {
        if mv.is_pass() {
            return vec![PASS.into()];
        }
        pos.path(mv).into_iter().map(cell_name).collect()
    }

    fn reason(&self, pos: &Position) -> String {
        match pos.status() {
            Status::Won(p) => format!(
                "{} filled the opposite point",
                POINT_NAMES[pos.seat(usize::from(p)) % 6]
            ),
            Status::Capped => "the move cap was reached: ranked by distance left".into(),
            Status::Ongoing => "the game ended".into(),
        }
    }

    fn engines(&self) -> Vec<String> {
        vec![
            format!(
                "AI: qiyi-chinese-checkers' strongest player for {} players ({:?}), search budget \
                 doubling with each level",
                self.options.players,
                PlayerKind::best(self.options.players)
            ),
            "seed: the article's greedy player (largest gain toward the goal)".into(),
        ]
    }

    fn choose(
        &self,
        pos: &Position,
        request: &AiRequest,
        _progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<Move>, ApiError> {
        let kind = if request.seed_player {
            PlayerKind::Seed
        } else {
            PlayerKind::best(pos.num_players())
        };
        // The alpha-beta player builds a 16 MiB table; the others' working sets are small.
        let mib = if kind == PlayerKind::AlphaBeta { 16 } else { 2 };
        let _lease = crate::memory::reserve(mib, "a Chinese checkers AI move")?;
        let mut player = Player::new(kind, u32::from(request.level), request.seed);
        let mv = player.choose(pos);
        let engine = if request.seed_player {
            "seed player (greedy)".to_string()
        } else {
            format!(
                "{kind:?}, level {} (budget {} nodes / {} playouts)",
                request.level,
                player.node_budget(),
                player.playout_budget()
            )
        };
        let before = pos.remaining(pos.to_move()) as i64;
        let after = pos.after(mv).remaining(pos.to_move()) as i64;
        Ok(AiChoice {
            mv,
            engine,
            depth: 0,
            score: before - after,
            nodes: 0,
            pv: vec![mv],
        })
    }
}
