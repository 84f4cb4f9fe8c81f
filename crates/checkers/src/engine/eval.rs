//! The static evaluation: material, back-rank guard, centre and edge control, tempo, mobility,
//! runaway men, trapped kings and the exchange balance, all from precomputed bitboard masks.
//!
//! Scores are in hundredths of a man from the side to move's view. [`Weights`] holds every
//! coefficient so the self-play tuner ([`super::tune`]) can change them; [`MaterialEval`] is the
//! article's material-only evaluation used by `--level seed`.

use super::egdb::{Egdb, Wld};
use crate::board::{step, Bitboard, Board, Color, Dir};
use crate::movegen::Move;
use crate::rules::Checkers;
use qiyi_core::eval::{Evaluator, Score};
use qiyi_core::Game;
use std::sync::Arc;

/// The four central squares 14, 15, 18, 19.
const CENTRE: Bitboard = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
/// The ring around the centre: 10, 11, 22, 23.
const NEAR_CENTRE: Bitboard = (1 << 9) | (1 << 10) | (1 << 21) | (1 << 22);
/// The side squares: 4, 5, 12, 13, 20, 21, 28, 29.
const EDGE: Bitboard = 0x1818_1818;
/// Black's back row (1-4) and White's (29-32).
const BACK_ROW: [Bitboard; 2] = [0x0000_000F, 0xF000_0000];
/// The "bridge" guard squares: 1 and 3 for Black, 30 and 32 for White.
const BRIDGE: [Bitboard; 2] = [(1 << 0) | (1 << 2), (1 << 29) | (1 << 31)];
/// A score that means "won by the endgame database", before adding the evaluation.
pub const DB_WIN: Score = 20_000;

const fn cone_table() -> [[Bitboard; 32]; 2] {
    let mut t = [[0; 32]; 2];
    let mut sq = 0;
    while sq < 32 {
        let mut c = 0;
        while c < 2 {
            let (a, b) = if c == 0 {
                (Dir::DownLeft, Dir::DownRight)
            } else {
                (Dir::UpLeft, Dir::UpRight)
            };
            let mut set: Bitboard = 1 << sq;
            let mut acc = 0;
            let mut i = 0;
            while i < 8 {
                set = step(set, a) | step(set, b);
                acc |= set;
                i += 1;
            }
            t[c][sq] = acc;
            c += 1;
        }
        sq += 1;
    }
    t
}

/// `CONE[colour][sq]`: every square a man of `colour` on `sq` could still reach going forward.
const CONE: [[Bitboard; 32]; 2] = cone_table();

/// The evaluation coefficients (hundredths of a man).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// A man.
    pub man: i32,
    /// A king.
    pub king: i32,
    /// Each man still on its own back row while the opponent has men.
    pub back_rank: i32,
    /// Extra for each of the two bridge squares held (1 and 3 / 30 and 32).
    pub bridge: i32,
    /// Each piece on the four central squares.
    pub centre: i32,
    /// Each piece on the ring around the centre.
    pub near_centre: i32,
    /// Each king on a side square (usually negative).
    pub edge_king: i32,
    /// Each row a man has advanced.
    pub tempo: i32,
    /// Each simple move available.
    pub mobility: i32,
    /// A man with no enemy piece left in front of it.
    pub runaway: i32,
    /// Taken off `runaway` for each row the runaway man still has to go.
    pub runaway_row: i32,
    /// Each king with no empty neighbouring square (usually negative).
    pub trapped_king: i32,
    /// Bonus per 100 material ahead per piece traded off (trade down when ahead).
    pub exchange: i32,
    /// Half-width of the deterministic per-position noise (levels for people; 0 for full strength).
    pub noise: i32,
    /// Varies the noise between games.
    pub noise_seed: u64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights::TUNED
    }
}

impl Weights {
    /// The hand-set starting point of the tuner.
    pub const HAND: Weights = Weights {
        man: 100,
        king: 140,
        back_rank: 6,
        bridge: 6,
        centre: 6,
        near_centre: 3,
        edge_king: -8,
        tempo: 1,
        mobility: 2,
        runaway: 40,
        runaway_row: 4,
        trapped_king: -20,
        exchange: 4,
        noise: 0,
        noise_seed: 0,
    };

    /// The weights in use. A tuner run (`qiyi tune checkers --iterations 150 --depth 4 --seed 1`:
    /// 300 self-play games) gave [`Weights::SPSA_D4`]; against these it scored 59.8% ± 6.3% in 200
    /// games at depth 6 but 50.5% ± 5.6% at depth 8, so it is kept as data, not adopted.
    pub const TUNED: Weights = Weights::HAND;

    /// The output of the tuner run described at [`Weights::TUNED`].
    pub const SPSA_D4: Weights = Weights {
        man: 100,
        king: 127,
        back_rank: 12,
        bridge: 22,
        centre: 7,
        near_centre: 8,
        edge_king: 10,
        tempo: -11,
        mobility: 3,
        runaway: 59,
        runaway_row: 6,
        trapped_king: -37,
        exchange: 7,
        noise: 0,
        noise_seed: 0,
    };

    /// The tunable coefficients as a vector (everything but the noise), in field order.
    pub fn to_vec(&self) -> Vec<i32> {
        vec![
            self.man,
            self.king,
            self.back_rank,
            self.bridge,
            self.centre,
            self.near_centre,
            self.edge_king,
            self.tempo,
            self.mobility,
            self.runaway,
            self.runaway_row,
            self.trapped_king,
            self.exchange,
        ]
    }

    /// The inverse of [`Weights::to_vec`] (missing entries keep their value in `self`).
    pub fn with_vec(&self, v: &[i32]) -> Weights {
        let mut w = *self;
        let fields: [&mut i32; 13] = [
            &mut w.man,
            &mut w.king,
            &mut w.back_rank,
            &mut w.bridge,
            &mut w.centre,
            &mut w.near_centre,
            &mut w.edge_king,
            &mut w.tempo,
            &mut w.mobility,
            &mut w.runaway,
            &mut w.runaway_row,
            &mut w.trapped_king,
            &mut w.exchange,
        ];
        for (f, &x) in fields.into_iter().zip(v) {
            *f = x;
        }
        w
    }

    /// Names of the entries of [`Weights::to_vec`].
    pub const NAMES: [&'static str; 13] = [
        "man",
        "king",
        "back_rank",
        "bridge",
        "centre",
        "near_centre",
        "edge_king",
        "tempo",
        "mobility",
        "runaway",
        "runaway_row",
        "trapped_king",
        "exchange",
    ];
}

/// Material of one side with these weights.
#[inline]
fn material(w: &Weights, b: &Board, c: Color) -> i32 {
    w.man * b.men(c).count_ones() as i32 + w.king * (b.pieces(c) & b.kings()).count_ones() as i32
}

/// Simple-move destinations of `c`'s pieces (counted with multiplicity per direction).
#[inline]
fn mobility(b: &Board, c: Color) -> i32 {
    let empty = b.empty();
    let own = b.pieces(c);
    let kings = own & b.kings();
    let [f0, f1] = c.forward();
    let [b0, b1] = c.opponent().forward();
    ((step(own, f0) & empty).count_ones()
        + (step(own, f1) & empty).count_ones()
        + (step(kings, b0) & empty).count_ones()
        + (step(kings, b1) & empty).count_ones()) as i32
}

/// Positional terms of one side (material excluded).
#[inline]
fn positional(w: &Weights, b: &Board, c: Color) -> i32 {
    let us = c.index();
    let own = b.pieces(c);
    let men = b.men(c);
    let kings = own & b.kings();
    let opp = b.pieces(c.opponent());
    let opp_men = b.men(c.opponent());
    let mut s = 0;
    if opp_men != 0 {
        s += w.back_rank * (men & BACK_ROW[us]).count_ones() as i32;
        s += w.bridge * (men & BRIDGE[us]).count_ones() as i32;
    }
    s += w.centre * (own & CENTRE).count_ones() as i32;
    s += w.near_centre * (own & NEAR_CENTRE).count_ones() as i32;
    s += w.edge_king * (kings & EDGE).count_ones() as i32;
    s += w.mobility * mobility(b, c);
    // Tempo and runaways, man by man.
    let mut set = men;
    let mut tempo = 0;
    while set != 0 {
        let sq = set.trailing_zeros() as usize;
        set &= set - 1;
        let row = (sq / 4) as i32;
        let advanced = if c == Color::Black { row } else { 7 - row };
        tempo += advanced;
        if CONE[us][sq] & opp == 0 {
            s += w.runaway - w.runaway_row * (7 - advanced);
        }
    }
    s += w.tempo * tempo;
    // Trapped kings: no empty neighbour.
    let empty = b.empty();
    let mut set = kings;
    while set != 0 {
        let bit = set & set.wrapping_neg();
        set &= set - 1;
        let free = (step(bit, Dir::DownLeft)
            | step(bit, Dir::DownRight)
            | step(bit, Dir::UpLeft)
            | step(bit, Dir::UpRight))
            & empty;
        if free == 0 {
            s += w.trapped_king;
        }
    }
    s
}

/// The full evaluation of `b` from Black's view.
pub fn evaluate_black(w: &Weights, b: &Board) -> i32 {
    let mb = material(w, b, Color::Black);
    let mw = material(w, b, Color::White);
    let pieces = b.occupied().count_ones() as i32;
    let mut s = mb - mw + positional(w, b, Color::Black) - positional(w, b, Color::White);
    // Exchange balance: the side ahead likes trades.
    s += (mb - mw) * w.exchange * (24 - pieces) / 100;
    s
}

/// The full evaluation of `b` from the side to move's view, with the configured noise.
pub fn evaluate_board(w: &Weights, b: &Board) -> i32 {
    let s = evaluate_black(w, b);
    let s = if b.side_to_move() == Color::Black {
        s
    } else {
        -s
    };
    s + noise(w, b)
}

/// The deterministic per-position noise of the low levels: in `-w.noise..=w.noise`, 0 when
/// `w.noise` is 0.
#[inline]
pub fn noise(w: &Weights, b: &Board) -> i32 {
    if w.noise > 0 {
        let h = (b.hash() ^ w.noise_seed).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let span = 2 * w.noise as u64 + 1;
        ((h >> 32) % span) as i32 - w.noise
    } else {
        0
    }
}

/// Ordering score of a move: captures by how much they take, then promotions.
#[inline]
pub fn order_move(b: &Board, mv: Move) -> i32 {
    let mut s = 0;
    if mv.is_capture() {
        s +=
            1000 * mv.num_captured() as i32 + 300 * (mv.captured() & b.kings()).count_ones() as i32;
    }
    let from = 1u32 << (mv.from() - 1);
    let to = 1u32 << (mv.to() - 1);
    if b.kings() & from == 0 && to & b.side_to_move().crown_row() != 0 {
        s += 500;
    }
    s
}

/// The engine's evaluator: [`Weights`], capture resolution, repetition and database probes.
#[derive(Clone, Debug, Default)]
pub struct CheckersEval {
    /// The coefficients.
    pub weights: Weights,
    /// The endgame database probed at every node with few enough pieces.
    pub egdb: Option<Arc<Egdb>>,
}

impl CheckersEval {
    /// An evaluator with these weights and no database.
    pub fn new(weights: Weights) -> Self {
        CheckersEval {
            weights,
            egdb: None,
        }
    }

    /// The same evaluator probing `egdb`.
    pub fn with_egdb(mut self, egdb: Option<Arc<Egdb>>) -> Self {
        self.egdb = egdb;
        self
    }
}

impl Evaluator<Checkers> for CheckersEval {
    fn evaluate(&self, pos: &Checkers) -> Score {
        evaluate_board(&self.weights, pos.board())
    }

    fn rule_score(&self, pos: &Checkers, ply: usize) -> Option<Score> {
        // A repetition on the way here: the side that repeats can claim nothing better than a draw.
        if pos.quiet_plies() >= 4 && pos.repetitions() >= 2 {
            return Some(0);
        }
        let db = self.egdb.as_ref()?;
        let b = pos.board();
        match db.probe(b)? {
            Wld::Draw => Some(0),
            // Won positions keep the evaluation so the winner makes progress (trades, crowns).
            Wld::Win => {
                Some(DB_WIN - ply as Score + evaluate_board(&self.weights, b).clamp(-5000, 5000))
            }
            Wld::Loss => {
                Some(-DB_WIN + ply as Score + evaluate_board(&self.weights, b).clamp(-5000, 5000))
            }
        }
    }

    fn move_order(&self, pos: &Checkers, mv: Move) -> i32 {
        order_move(pos.board(), mv)
    }

    fn is_noisy(&self, _pos: &Checkers, mv: Move) -> bool {
        mv.is_capture()
    }

    /// A pending capture is treated like check: captures are forced, so quiescence may not stand
    /// pat and must play them out (capture resolution at the horizon).
    fn in_check(&self, pos: &Checkers) -> bool {
        pos.board().has_capture()
    }

    fn null_move_ok(&self, _pos: &Checkers) -> bool {
        false
    }
}

/// The article's evaluation: material only (a man 100, a king 150), from the side to move's view.
#[derive(Clone, Copy, Debug, Default)]
pub struct MaterialEval;

impl Evaluator<Checkers> for MaterialEval {
    fn evaluate(&self, pos: &Checkers) -> Score {
        let b = pos.board();
        let m = |c: Color| {
            100 * b.men(c).count_ones() as i32 + 150 * (b.pieces(c) & b.kings()).count_ones() as i32
        };
        let s = m(Color::Black) - m(Color::White);
        if pos.to_move() == 0 {
            s
        } else {
            -s
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_is_balanced() {
        let b = Board::start();
        assert_eq!(evaluate_black(&Weights::default(), &b), 0);
    }

    #[test]
    fn cones_point_forward() {
        // A Black man on 1 can reach every row below it; a White man on 1 reaches nothing.
        assert_eq!(CONE[0][0] & 0xF, 0);
        assert!(CONE[0][0] & (1 << 31) != 0 || CONE[0][0] & (1 << 28) != 0);
        assert_eq!(CONE[1][0], 0);
        assert_eq!(CONE[0][31], 0);
    }
}
