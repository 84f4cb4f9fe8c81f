//! The engine's evaluation: material, piece-square tables for every piece, mobility of chariots,
//! horses and cannons, general safety (advisors and elephants left against the attackers the
//! opponent still has) and soldier advancement, tapered between middlegame and endgame by the
//! attacking material left on the board. Weights are in centipawns in [`Weights`], so a tuner can
//! change them without touching the code.

use crate::board::{Color, Square, BLACK_BIT, CELL_KIND, EMPTY, K_ADVISOR, K_CANNON, K_ELEPHANT};
use crate::board::{K_HORSE, K_KING, K_PAWN, K_ROOK, RED_BIT, SLOT_START};
use crate::position::Position;
use qiyi_core::eval::Score;

/// Every weight of the evaluation, middlegame and endgame.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Material by kind (king, advisor, elephant, horse, chariot, cannon, soldier): middlegame.
    pub material_mg: [Score; 7],
    /// Material by kind: endgame.
    pub material_eg: [Score; 7],
    /// Mobility per reachable point for horse, chariot, cannon (middlegame, endgame).
    pub mobility: [(Score, Score); 3],
    /// Penalty per missing advisor / elephant, scaled by the opponent's attackers.
    pub missing_guard: Score,
    /// Soldier bonus for crossing the river, and per rank advanced beyond it.
    pub soldier_crossed: (Score, Score),
    /// Soldier bonus per rank beyond the river (endgame).
    pub soldier_advance: Score,
    /// Bonus for a cannon on the central file (middlegame).
    pub central_cannon: Score,
    /// Penalty for a general off its home point, per step.
    pub general_off_home: Score,
    /// Bonus for a chariot on a file with no own soldier.
    pub open_file_chariot: Score,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            material_mg: [0, 120, 120, 390, 900, 440, 30],
            material_eg: [0, 140, 140, 450, 950, 400, 50],
            mobility: [(6, 8), (4, 5), (2, 2)],
            missing_guard: 12,
            soldier_crossed: (40, 60),
            soldier_advance: 12,
            central_cannon: 25,
            general_off_home: 12,
            open_file_chariot: 15,
        }
    }
}

/// Game phase: 0 (bare endgame) to [`MAX_PHASE`] (all attackers on the board).
pub const MAX_PHASE: i32 = 2 * (2 * 4 + 2 * 2 + 2 * 2);

fn phase_weight(kind: u8) -> i32 {
    match kind {
        K_ROOK => 4,
        K_HORSE | K_CANNON => 2,
        _ => 0,
    }
}

fn kind_of_slot(slot: u8) -> u8 {
    let mut k = 0;
    while k < 7 && slot >= SLOT_START[k + 1] {
        k += 1;
    }
    k as u8
}

/// Centralisation bonus by file (0..9): 0 on the edge, 4 in the centre.
fn centrality(file: u8) -> Score {
    4 - (i32::from(file) - 4).abs()
}

/// The evaluator of the full-strength engine.
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    /// The weights in use.
    pub weights: Weights,
}

struct Side {
    mg: Score,
    eg: Score,
    attackers: i32,
    guards: i32,
}

impl Evaluation {
    /// Score of `pos` from Red's view (positive = good for Red).
    pub fn red_score(&self, pos: &Position) -> Score {
        let w = &self.weights;
        let mut sides = [
            Side {
                mg: 0,
                eg: 0,
                attackers: 0,
                guards: 0,
            },
            Side {
                mg: 0,
                eg: 0,
                attackers: 0,
                guards: 0,
            },
        ];
        let mut phase = 0;
        let mut own_soldier_files = [[false; 9]; 2];
        for (i, &sq) in pos.squares.iter().enumerate() {
            if sq == 0 {
                continue;
            }
            let side = i / 16;
            let kind = kind_of_slot((i % 16) as u8);
            if kind == K_PAWN {
                own_soldier_files[side][Square::from_mailbox(sq).file() as usize] = true;
            }
        }
        for (i, &sq) in pos.squares.iter().enumerate() {
            if sq == 0 {
                continue;
            }
            let side = i / 16;
            let kind = kind_of_slot((i % 16) as u8);
            let point = Square::from_mailbox(sq);
            let file = point.file();
            // Ranks counted from the piece owner's side: 0 = own back rank, 9 = the far edge.
            let rank = if side == 0 {
                point.rank()
            } else {
                9 - point.rank()
            };
            let s = &mut sides[side];
            s.mg += w.material_mg[kind as usize];
            s.eg += w.material_eg[kind as usize];
            phase += phase_weight(kind);
            match kind {
                K_PAWN if rank >= 5 => {
                    let beyond = Score::from(rank - 5);
                    let near_palace = (3..=5).contains(&file) && (6..=8).contains(&rank);
                    s.mg += w.soldier_crossed.0 + 6 * beyond.min(3) + 10 * Score::from(near_palace);
                    s.eg += w.soldier_crossed.1 + w.soldier_advance * beyond.min(3);
                    if rank == 9 {
                        // A soldier on the last rank can only move sideways.
                        s.mg -= 20;
                        s.eg -= 30;
                    }
                }
                K_HORSE => {
                    s.attackers += 1;
                    let centre = centrality(file) * 4 + 4 * Score::from(rank.min(7));
                    s.mg += centre - if rank == 0 { 15 } else { 0 };
                    s.eg += centre / 2;
                    let m = horse_mobility(pos, sq);
                    s.mg += w.mobility[0].0 * m;
                    s.eg += w.mobility[0].1 * m;
                }
                K_ROOK => {
                    s.attackers += 2;
                    let m = slide_mobility(pos, sq);
                    s.mg += w.mobility[1].0 * m;
                    s.eg += w.mobility[1].1 * m;
                    if !own_soldier_files[side][file as usize] {
                        s.mg += w.open_file_chariot;
                    }
                }
                K_CANNON => {
                    s.attackers += 1;
                    let m = slide_mobility(pos, sq);
                    s.mg += w.mobility[2].0 * m;
                    s.eg += w.mobility[2].1 * m;
                    if file == 4 {
                        s.mg += w.central_cannon;
                    }
                }
                K_ADVISOR | K_ELEPHANT => s.guards += 1,
                K_KING => {
                    let off = Score::from(rank) + (i32::from(file) - 4).abs();
                    s.mg -= w.general_off_home * off;
                }
                _ => {}
            }
        }
        // General safety: each missing guard costs more the more attackers the opponent has.
        for side in 0..2 {
            let missing = 4 - sides[side].guards;
            let threat = sides[1 - side].attackers;
            sides[side].mg -= w.missing_guard * missing * threat / 2;
        }
        let phase = phase.min(MAX_PHASE);
        let mg = sides[0].mg - sides[1].mg;
        let eg = sides[0].eg - sides[1].eg;
        (mg * phase + eg * (MAX_PHASE - phase)) / MAX_PHASE
    }

    /// Score from the side to move's view.
    pub fn score(&self, pos: &Position) -> Score {
        let s = self.red_score(pos);
        if pos.side_to_move() == Color::Red {
            s
        } else {
            -s
        }
    }
}

const ORTHO: [i16; 4] = [1, -1, 16, -16];
const HORSE_JUMPS: [(i16, i16); 8] = [
    (33, 16),
    (31, 16),
    (-33, -16),
    (-31, -16),
    (18, 1),
    (-14, 1),
    (14, -1),
    (-18, -1),
];

fn cell(pos: &Position, sq: i16) -> u8 {
    pos.board[(sq as usize) & 255]
}

/// Empty points a chariot or cannon on `sq` can slide to.
fn slide_mobility(pos: &Position, sq: u8) -> Score {
    let mut n = 0;
    for d in ORTHO {
        let mut t = i16::from(sq) + d;
        while cell(pos, t) == EMPTY {
            n += 1;
            t += d;
        }
    }
    n
}

/// Points a horse on `sq` can jump to (leg free, target empty or enemy).
fn horse_mobility(pos: &Position, sq: u8) -> Score {
    let me = pos.board[sq as usize] & (RED_BIT | BLACK_BIT);
    let mut n = 0;
    for (jump, leg) in HORSE_JUMPS {
        let s = i16::from(sq);
        if cell(pos, s + leg) != EMPTY {
            continue;
        }
        let t = cell(pos, s + jump);
        if t == EMPTY || (CELL_KIND[t as usize] != 7 && t & me == 0) {
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_balanced() {
        let e = Evaluation::default();
        assert_eq!(e.red_score(&Position::start()), 0);
    }

    #[test]
    fn mirrored_positions_score_opposite() {
        let e = Evaluation::default();
        let red = Position::from_fen("4k4/9/9/9/9/2P6/9/9/4A4/3AK1R2 w - - 0 1").expect("fen");
        let black = Position::from_fen("3ak1r2/4a4/9/9/2p6/9/9/9/9/4K4 b - - 0 1").expect("fen");
        assert_eq!(e.red_score(&red), -e.red_score(&black));
        assert_eq!(e.score(&red), e.score(&black));
    }

    #[test]
    fn material_and_activity_count() {
        let e = Evaluation::default();
        let up_a_chariot = Position::from_fen(
            "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        )
        .expect("fen");
        assert!(e.score(&up_a_chariot) > 700);
        // A soldier across the river is worth more than one at home.
        let home = Position::from_fen("4k4/9/9/9/9/9/4P4/9/9/4K4 w - - 0 1").expect("fen");
        let crossed = Position::from_fen("4k4/9/9/4P4/9/9/9/9/9/4K4 w - - 0 1").expect("fen");
        assert!(e.score(&crossed) > e.score(&home));
    }
}
