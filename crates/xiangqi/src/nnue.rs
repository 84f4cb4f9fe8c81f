//! The learned evaluation inside the search: one pair of first-layer accumulators per ply of the
//! current line, updated lazily from the two or three inputs each move changes.
//!
//! Making a move only records its input changes ([`XiangqiFeatures::delta`]: a handful of table
//! look-ups); the accumulators of a ply are computed when that ply is first evaluated, from the
//! nearest ancestor whose accumulators are known, one copy-make per ply in between
//! ([`QuantNet::update_into`]: AVX2 where the processor has it). Moves that are pruned before
//! their node evaluates (futility after the move is made, cut-offs from the table) therefore
//! cost no row of W1. Taking a move back costs nothing: the parent's entry is still there.
//!
//! This module also holds what a net is over: its inputs ([`XiangqiFeatures`], documented in
//! [`crate::learn`]), the net file's game and layout names, reading a net ([`load`]), the net
//! that ships embedded ([`embedded`]) and the `--eval` choice ([`EvalChoice`]); [`crate::learn`]
//! (self-play, the record encoding) re-exports them.

use crate::board::{Color, PieceKind, Square};
use crate::position::{Move, Position};
use qiyi_core::eval::Score;
use qiyi_core::learn::features::{Active, Delta, FeatureSet};
use qiyi_core::learn::{LearnError, QuantNet};
use std::path::Path;
use std::sync::Arc;

/// The tag of Xiangqi shards (and the game a Xiangqi net file names).
pub const TAG: &str = "xiangqi";

/// The input layout a Xiangqi net file names: [`XiangqiFeatures`].
pub const LAYOUT: &str = "xiangqi-1260";

/// Reads a Xiangqi net from the bytes of a net file: a net named for another game or input
/// layout (a checkers net) is refused, saying what it is.
pub fn net_from_bytes(bytes: &[u8]) -> Result<QuantNet, LearnError> {
    let net = QuantNet::from_bytes(bytes)?;
    net.check_for(TAG, LAYOUT, XiangqiFeatures::INPUTS)?;
    Ok(net)
}

/// Reads the Xiangqi net file at `path` ([`net_from_bytes`]; errors name the file).
pub fn load(path: &Path) -> Result<Arc<QuantNet>, LearnError> {
    let bytes = std::fs::read(path).map_err(|e| LearnError::io(path, e))?;
    net_from_bytes(&bytes)
        .map(Arc::new)
        .map_err(|e| e.in_file(path))
}

/// The Xiangqi net that ships with qiyi, embedded in the binary (`--eval net`); how it was made
/// and how it measured: `nets/README.md` beside it.
pub const EMBEDDED: &[u8] = include_bytes!("nets/xiangqi.qnet");

/// The embedded net, read once.
pub fn embedded() -> Arc<QuantNet> {
    static NET: std::sync::OnceLock<Arc<QuantNet>> = std::sync::OnceLock::new();
    NET.get_or_init(|| {
        // The embedded bytes are checked by a test, so this cannot fail in a release.
        Arc::new(net_from_bytes(EMBEDDED).expect("the embedded Xiangqi net is valid"))
    })
    .clone()
}

/// The net the front ends search with unless told otherwise: [`EvalChoice::default`]'s.
pub fn default_net() -> Option<Arc<QuantNet>> {
    EvalChoice::default().net()
}

/// Which evaluation the Xiangqi engine searches with.
///
/// The default is the embedded net ([`EvalChoice::Net`]): what `qiyi uci`, `ucci`, `analyze`,
/// `review`, `match`, `serve`, the static site and Python play unless told otherwise (it beat
/// NewGG at 300 ms where the hand evaluation only drew level; `docs/strength.md`). A bare
/// [`crate::engine::EngineConfig::default`] still searches with the hand evaluation; give it
/// [`default_net`] to play as the front ends do.
#[derive(Clone, Debug, Default)]
pub enum EvalChoice {
    /// The hand-written, tuned evaluation ([`crate::eval`]).
    Hand,
    /// The embedded network ([`embedded`]): the default.
    #[default]
    Net,
    /// A network read from a file ([`load`]).
    NetFile(Arc<QuantNet>),
}

impl EvalChoice {
    /// Reads `hand`, `net` (the embedded network) or the path of a Xiangqi net file.
    pub fn parse(text: &str) -> Result<EvalChoice, LearnError> {
        match text.trim() {
            "hand" => Ok(EvalChoice::Hand),
            "net" => Ok(EvalChoice::Net),
            "" => Err(LearnError::Config(
                "give `hand`, `net` or the path of a Xiangqi net file".into(),
            )),
            path => Ok(EvalChoice::NetFile(load(Path::new(path))?)),
        }
    }

    /// A short name for results: `hand`, `net` or `net-file`.
    pub fn name(&self) -> &'static str {
        match self {
            EvalChoice::Hand => "hand",
            EvalChoice::Net => "net",
            EvalChoice::NetFile(_) => "net-file",
        }
    }

    /// The network to search with (`None`: the hand evaluation).
    pub fn net(&self) -> Option<Arc<QuantNet>> {
        match self {
            EvalChoice::Hand => None,
            EvalChoice::Net => Some(embedded()),
            EvalChoice::NetFile(n) => Some(n.clone()),
        }
    }
}

/// The network's inputs for Xiangqi (see the module documentation).
#[derive(Clone, Copy, Debug, Default)]
pub struct XiangqiFeatures;

/// Input index of a `color` piece of `kind` on `sq`, seen by `perspective` (0 Red, 1 Black).
#[inline]
pub fn input(perspective: usize, color: Color, kind: PieceKind, sq: Square) -> u16 {
    let own = color.index() == perspective;
    let k = kind as usize + if own { 0 } else { 7 };
    let rank = if perspective == 0 {
        sq.rank()
    } else {
        9 - sq.rank()
    };
    (k * 90 + rank as usize * 9 + sq.file() as usize) as u16
}

/// The input of the same piece in the position's mirror image (files a-i read i-a): Xiangqi's
/// rules are the same in a mirror, so `qiyi train xiangqi --mirror` trains on both.
#[inline]
pub fn mirror_input(input: u16) -> u16 {
    let (k, p) = (input / 90, input % 90);
    k * 90 + (p / 9) * 9 + (8 - p % 9)
}

impl FeatureSet<Position> for XiangqiFeatures {
    const INPUTS: usize = 14 * 90;

    fn active(pos: &Position, perspective: usize, out: &mut Active) {
        out.clear();
        for i in 0..90u8 {
            let Some(sq) = Square::from_index(i) else {
                continue;
            };
            if let Some((kind, color)) = pos.piece_at(sq) {
                out.push(input(perspective, color, kind, sq));
            }
        }
    }

    fn delta(pos: &Position, mv: Move, out: &mut Delta) {
        out.clear();
        let both = |color, kind, sq| [input(0, color, kind, sq), input(1, color, kind, sq)];
        if let Some((kind, color)) = pos.piece_at(mv.from()) {
            out.push(both(color, kind, mv.from()), false);
            out.push(both(color, kind, mv.to()), true);
        }
        if let Some((kind, color)) = pos.piece_at(mv.to()) {
            out.push(both(color, kind, mv.to()), false);
        }
    }
}

/// The largest score the network may give: far from any mate or rule win.
pub const NET_SCORE_LIMIT: Score = 15_000;

/// Per-ply accumulators of one search thread.
pub struct NetStack {
    net: Arc<QuantNet>,
    hidden: usize,
    /// Entry `ply` holds `2 * hidden` values: perspective 0 (Red), then 1 (Black).
    acc: Vec<i16>,
    /// The input changes of the move that led to each ply (entry 0 unused).
    deltas: Vec<Delta>,
    /// Whether entry `ply`'s accumulators are computed for the current line.
    fresh: Vec<bool>,
}

impl NetStack {
    /// Accumulators for lines of up to `plies` plies.
    pub fn new(net: Arc<QuantNet>, plies: usize) -> NetStack {
        let hidden = net.arch.hidden;
        NetStack {
            net,
            hidden,
            acc: vec![0; (plies + 1) * 2 * hidden],
            deltas: vec![Delta::default(); plies + 1],
            fresh: vec![false; plies + 1],
        }
    }

    /// Computes the root's accumulators from scratch (ply 0).
    pub fn reset(&mut self, root: &Position) {
        let mut active = Active::default();
        let h = self.hidden;
        for p in 0..2 {
            XiangqiFeatures::active(root, p, &mut active);
            self.net
                .refresh(&mut self.acc[p * h..(p + 1) * h], active.as_slice());
        }
        self.fresh.fill(false);
        self.fresh[0] = true;
    }

    /// Records `mv`, about to be made in `pos` at `ply`, as the way to ply `ply + 1`.
    #[inline]
    pub fn on_make(&mut self, pos: &Position, mv: Move, ply: usize) {
        if ply + 1 < self.fresh.len() {
            XiangqiFeatures::delta(pos, mv, &mut self.deltas[ply + 1]);
            self.fresh[ply + 1] = false;
        }
    }

    /// Records a null move at `ply`: ply `ply + 1` has the same pieces.
    #[inline]
    pub fn on_null(&mut self, ply: usize) {
        if ply + 1 < self.fresh.len() {
            self.deltas[ply + 1].clear();
            self.fresh[ply + 1] = false;
        }
    }

    /// The network's score of `pos`, the position at `ply` of the current line, from the side to
    /// move's view, within [`NET_SCORE_LIMIT`].
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> Score {
        if ply >= self.fresh.len() {
            return 0;
        }
        if !self.fresh[ply] {
            let mut from = ply;
            while !self.fresh[from] {
                from -= 1;
            }
            let h2 = 2 * self.hidden;
            for p in from + 1..=ply {
                let (parent, child) = self.acc[(p - 1) * h2..(p + 1) * h2].split_at_mut(h2);
                let (s0, s1) = parent.split_at(self.hidden);
                let (d0, d1) = child.split_at_mut(self.hidden);
                self.net.update_into([s0, s1], [d0, d1], &self.deltas[p]);
                self.fresh[p] = true;
            }
        }
        let h = self.hidden;
        let at = ply * 2 * h;
        let stm = pos.side_to_move().index();
        let (red, black) = self.acc[at..at + 2 * h].split_at(h);
        let (us, them) = if stm == 0 { (red, black) } else { (black, red) };
        self.net
            .evaluate(us, them)
            .clamp(-NET_SCORE_LIMIT, NET_SCORE_LIMIT)
    }
}
