//! The learned evaluation: the network's inputs for checkers, the record encoding and quiet test
//! self-play needs, the evaluator that runs the network inside the search, and the shipped net.
//!
//! Inputs (per perspective, 128): four piece kinds — own man, own king, opponent's man,
//! opponent's king — on 32 squares, each perspective seeing the board from its own side (White's
//! view turns the board half a turn: square `s` is read as `33 - s`), so one set of weights
//! serves both sides. A move turns off its piece on the start square, turns on the piece (crowned
//! or not) on the landing square, and turns off every captured piece: two to fourteen rows of the
//! first layer per move instead of up to 24 per evaluation.
//!
//! The shipped net (`nets/checkers.qnet`, embedded in the binary) and how it was made are
//! described in `nets/README.md` beside it. A net file may also hold a set of nets, one per stage
//! of the game (a range of piece counts: [`qiyi_core::learn::netset`]); [`NetPosition`] then
//! runs the net of the current piece count ([`CheckersFeatures`]' `pieces`).

use super::eval::{order_move, CheckersEval};
use crate::board::{Board, Color};
use crate::movegen::Move;
use crate::rules::Checkers;
use qiyi_core::eval::{Evaluator, Score};
use qiyi_core::learn::features::{Active, Delta, FeatureSet};
use qiyi_core::learn::record::Encode;
use qiyi_core::learn::selfplay::SelfPlay;
use qiyi_core::learn::{Accumulated, LearnError, NetSet};
use std::sync::{Arc, OnceLock};

/// The network's inputs for checkers (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct CheckersFeatures;

/// A checkers position carrying the network's accumulators: what the search runs on.
pub type NetPosition = Accumulated<Checkers, CheckersFeatures>;

/// Input index of a piece of `color` (a king or not) on 0-based square `sq`, seen by
/// `perspective` (0 Black, 1 White).
#[inline]
pub fn input(perspective: usize, color: usize, king: bool, sq: u32) -> u16 {
    let own = color == perspective;
    let kind = if own { 0 } else { 2 } + u32::from(king);
    let sq = if perspective == 0 { sq } else { 31 - sq };
    (kind * 32 + sq) as u16
}

impl FeatureSet<Checkers> for CheckersFeatures {
    const INPUTS: usize = 128;

    fn active(pos: &Checkers, perspective: usize, out: &mut Active) {
        out.clear();
        let b = pos.board();
        for color in [Color::Black, Color::White] {
            let mut set = b.pieces(color);
            while set != 0 {
                let sq = set.trailing_zeros();
                set &= set - 1;
                let king = b.kings() & (1 << sq) != 0;
                out.push(input(perspective, color.index(), king, sq));
            }
        }
    }

    fn delta(pos: &Checkers, mv: Move, out: &mut Delta) {
        out.clear();
        let b = pos.board();
        let us = b.side_to_move();
        let from = u32::from(mv.from() - 1);
        let to = u32::from(mv.to() - 1);
        let was_king = b.kings() & (1 << from) != 0;
        let king = was_king || us.crown_row() & (1 << to) != 0;
        let both = |color: usize, king: bool, sq: u32| {
            [input(0, color, king, sq), input(1, color, king, sq)]
        };
        out.push(both(us.index(), was_king, from), false);
        out.push(both(us.index(), king, to), true);
        let them = us.opponent().index();
        let mut caught = mv.captured();
        while caught != 0 {
            let sq = caught.trailing_zeros();
            caught &= caught - 1;
            out.push(both(them, b.kings() & (1 << sq) != 0, sq), false);
        }
    }

    #[inline]
    fn pieces(pos: &Checkers) -> usize {
        let b = pos.board();
        (b.pieces(Color::Black) | b.pieces(Color::White)).count_ones() as usize
    }
}

impl Encode for Checkers {
    const BYTES: usize = 13;

    fn encode(&self, out: &mut [u8]) {
        let b = self.board();
        out[0..4].copy_from_slice(&b.pieces(Color::Black).to_le_bytes());
        out[4..8].copy_from_slice(&b.pieces(Color::White).to_le_bytes());
        out[8..12].copy_from_slice(&b.kings().to_le_bytes());
        out[12] = b.side_to_move().index() as u8;
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != Self::BYTES {
            return None;
        }
        let word =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        let side = match bytes[12] {
            0 => Color::Black,
            1 => Color::White,
            _ => return None,
        };
        Board::new(word(0), word(4), word(8), side)
            .ok()
            .map(Checkers::from_board)
    }
}

impl SelfPlay for Checkers {
    const TAG: &'static str = "checkers";

    fn is_quiet(&self) -> bool {
        !self.board().has_capture()
    }
}

/// The input layout a checkers net file names ([`CheckersFeatures`]); the shipped net predates
/// named files (`QIYINET1`) and is checked by its input count.
pub const LAYOUT: &str = "checkers-128";

/// The piece counts (men and kings of both sides) a checkers net set's stages must cover.
pub const PIECES: std::ops::RangeInclusive<u32> = 1..=24;

/// The net that ships with qiyi, embedded in the binary.
pub const EMBEDDED: &[u8] = include_bytes!("nets/checkers.qnet");

/// The embedded net (a set of one net for every stage), read once.
pub fn embedded() -> Arc<NetSet> {
    static NET: OnceLock<Arc<NetSet>> = OnceLock::new();
    NET.get_or_init(|| {
        // The embedded bytes are checked by a test, so this cannot fail in a release.
        Arc::new(NetSet::from_bytes(EMBEDDED).expect("the embedded checkers net is valid"))
    })
    .clone()
}

/// Reads a checkers net from `bytes`: a single net (128 inputs) or a set of nets by stage whose
/// stages cover 1 to 24 pieces ([`PIECES`]).
pub fn from_bytes(bytes: &[u8]) -> Result<NetSet, LearnError> {
    let set = NetSet::from_bytes(bytes)?;
    set.check_for("checkers", LAYOUT, CheckersFeatures::INPUTS, PIECES)?;
    Ok(set)
}

/// Reads a net file for checkers: a single net (128 inputs) or a set of nets by stage
/// ([`from_bytes`]).
pub fn load(path: &std::path::Path) -> Result<Arc<NetSet>, LearnError> {
    let bytes = std::fs::read(path).map_err(|e| LearnError::io(path, e))?;
    let set = from_bytes(&bytes).map_err(|e| e.in_file(path))?;
    Ok(Arc::new(set))
}

/// The engine's evaluator over the network: the net's score, with the hand evaluator's rules
/// (repetition, database probes), move ordering and capture handling.
#[derive(Clone, Debug, Default)]
pub struct NetEval {
    /// Rules, database, ordering and the noise of the low levels.
    pub hand: CheckersEval,
}

impl Evaluator<NetPosition> for NetEval {
    #[inline]
    fn evaluate(&self, pos: &NetPosition) -> Score {
        let s = pos.evaluate();
        s + super::eval::noise(&self.hand.weights, pos.inner().board())
    }

    fn rule_score(&self, pos: &NetPosition, ply: usize) -> Option<Score> {
        self.hand.rule_score(pos.inner(), ply)
    }

    #[inline]
    fn move_order(&self, pos: &NetPosition, mv: Move) -> i32 {
        order_move(pos.inner().board(), mv)
    }

    #[inline]
    fn is_noisy(&self, _pos: &NetPosition, mv: Move) -> bool {
        mv.is_capture()
    }

    #[inline]
    fn in_check(&self, pos: &NetPosition) -> bool {
        pos.inner().board().has_capture()
    }

    fn null_move_ok(&self, _pos: &NetPosition) -> bool {
        false
    }
}
