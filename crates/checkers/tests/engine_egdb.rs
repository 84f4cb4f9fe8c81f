//! The endgame database against an independent exhaustive solver: every position with up to 3
//! pieces (4 with `cargo test -p qiyi-checkers --test engine_egdb -- --ignored`) is put in an
//! explicit game graph, solved by counting retrograde analysis from the terminal positions
//! (a different algorithm from the database's index-based fixpoint passes), and compared with
//! the database's answer.

use qiyi_checkers::board::Board;
use qiyi_checkers::engine::{Egdb, Wld};
use qiyi_checkers::{Color, Move};
use std::collections::{HashMap, VecDeque};

/// Every legal position with 1..=n pieces, each side at least one, either side to move.
fn all_positions(n: usize) -> Vec<Board> {
    enumerate(2, n, true)
}

/// Positions with `lo..=hi` pieces; `both` asks for both colours and both sides to move,
/// otherwise any colours with Black to move (the way published counts are given).
fn enumerate(lo: usize, hi: usize, both: bool) -> Vec<Board> {
    let mut out = Vec::new();
    let mut squares = Vec::new();
    fn rec(start: u8, left: usize, squares: &mut Vec<u8>, out: &mut Vec<Vec<u8>>) {
        if left == 0 {
            out.push(squares.clone());
            return;
        }
        for s in start..32 {
            squares.push(s);
            rec(s + 1, left - 1, squares, out);
            squares.pop();
        }
    }
    for k in lo..=hi {
        let mut sets = Vec::new();
        rec(0, k, &mut squares, &mut sets);
        for set in sets {
            for kinds in 0..(1u32 << (2 * k)) {
                let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
                for (i, &s) in set.iter().enumerate() {
                    let kind = (kinds >> (2 * i)) & 3;
                    let bit = 1u32 << s;
                    if kind & 1 == 0 {
                        black |= bit
                    } else {
                        white |= bit
                    }
                    if kind & 2 != 0 {
                        kings |= bit
                    }
                }
                if both && (black == 0 || white == 0) {
                    continue;
                }
                let sides: &[Color] = if both {
                    &[Color::Black, Color::White]
                } else {
                    &[Color::Black]
                };
                for &side in sides {
                    if let Ok(b) = Board::new(black, white, kings, side) {
                        out.push(b);
                    }
                }
            }
        }
    }
    out
}

/// Solves the explicit graph: value of each position for its side to move.
fn solve(positions: &[Board]) -> Vec<Wld> {
    let index: HashMap<Board, u32> = positions
        .iter()
        .enumerate()
        .map(|(i, b)| (*b, i as u32))
        .collect();
    let n = positions.len();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut remaining = vec![0u32; n];
    let mut value: Vec<Option<Wld>> = vec![None; n];
    let mut queue = VecDeque::new();
    let mut moves: Vec<Move> = Vec::new();
    for (i, b) in positions.iter().enumerate() {
        b.generate(&mut moves);
        if moves.is_empty() {
            value[i] = Some(Wld::Loss);
            queue.push_back(i as u32);
            continue;
        }
        for &m in &moves {
            let c = b.play(m);
            if c.pieces(c.side_to_move()) == 0 {
                // The opponent has nothing left: this move wins.
                if value[i].is_none() {
                    value[i] = Some(Wld::Win);
                    queue.push_back(i as u32);
                }
                continue;
            }
            let j = index[&c];
            preds[j as usize].push(i as u32);
            remaining[i] += 1;
        }
    }
    while let Some(v) = queue.pop_front() {
        let val = value[v as usize];
        for &p in &preds[v as usize] {
            let p = p as usize;
            if value[p].is_some() {
                continue;
            }
            match val {
                Some(Wld::Loss) => {
                    value[p] = Some(Wld::Win);
                    queue.push_back(p as u32);
                }
                Some(Wld::Win) => {
                    remaining[p] -= 1;
                    if remaining[p] == 0 {
                        value[p] = Some(Wld::Loss);
                        queue.push_back(p as u32);
                    }
                }
                _ => {}
            }
        }
    }
    value.into_iter().map(|v| v.unwrap_or(Wld::Draw)).collect()
}

fn check(pieces: usize) {
    let positions = all_positions(pieces);
    let truth = solve(&positions);
    let db = Egdb::build_in_memory(pieces).expect("tables build");
    let mut counts = [0usize; 3];
    for (b, t) in positions.iter().zip(&truth) {
        let got = db.probe(b);
        assert_eq!(
            got,
            Some(*t),
            "{}",
            qiyi_checkers::notation::board_to_fen(b)
        );
        counts[match t {
            Wld::Win => 0,
            Wld::Loss => 1,
            Wld::Draw => 2,
        }] += 1;
    }
    // Both kinds of decided position and draws occur, so the comparison is not vacuous.
    assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
    eprintln!(
        "{pieces} pieces: {} positions, W/L/D {counts:?}",
        positions.len()
    );
}

#[test]
fn three_piece_database_matches_exhaustive_solver() {
    // The enumeration against the published counts of positions with 1, 2 and 3 pieces
    // (Schaeffer et al., "Solving checkers": 120; 6,972; 261,224).
    assert_eq!(enumerate(1, 1, false).len(), 120);
    assert_eq!(enumerate(2, 2, false).len(), 6972);
    assert_eq!(enumerate(3, 3, false).len(), 261_224);
    check(3);
}

#[test]
#[ignore = "about a minute: cargo test -p qiyi-checkers --test engine_egdb -- --ignored"]
fn four_piece_database_matches_exhaustive_solver() {
    check(4);
}

#[test]
fn files_round_trip_and_resume() {
    let dir = std::env::temp_dir().join(format!("qiyi-egdb-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut built = 0;
    let a = Egdb::build(3, Some(&dir), |p| built += usize::from(p.passes > 0)).expect("build");
    assert!(built > 0);
    // A second build finds every table on disk and solves nothing.
    let mut rebuilt = 0;
    let b = Egdb::build(3, Some(&dir), |p| rebuilt += usize::from(p.passes > 0)).expect("resume");
    assert_eq!(rebuilt, 0);
    assert_eq!(Egdb::complete_pieces(&dir), 3);
    let c = Egdb::load(&dir, 3).expect("load");
    for pos in all_positions(3).iter().step_by(97) {
        assert_eq!(a.probe(pos), b.probe(pos));
        assert_eq!(a.probe(pos), c.probe(pos));
    }
    let _ = std::fs::remove_dir_all(&dir);
}
