//! Move generation on hand-made positions, and the rules.

use qiyi_chinese_checkers::board::{bit, Cell};
use qiyi_chinese_checkers::movegen::{hop_targets, path, step_targets, targets};
use qiyi_chinese_checkers::notation::{cell_name, parse_cell};
use qiyi_chinese_checkers::{Move, Options, Position, Status};
use qiyi_core::{Game, Notation};

fn c(name: &str) -> Cell {
    parse_cell(name).expect("hole name")
}

fn set(names: &[&str]) -> u128 {
    names.iter().fold(0, |acc, n| acc | bit(c(n)))
}

fn names(bits: u128) -> Vec<String> {
    let mut v: Vec<String> = qiyi_chinese_checkers::board::Bits(bits)
        .map(cell_name)
        .collect();
    v.sort();
    v
}

#[test]
fn a_lone_piece_steps_to_its_six_neighbours() {
    let occ = set(&["i5"]);
    assert_eq!(
        names(step_targets(occ, c("i5"))),
        ["h5", "h6", "i4", "i6", "j5", "j6"]
    );
    assert_eq!(hop_targets(occ, c("i5")), 0);
    // The top tip has two neighbours.
    assert_eq!(names(targets(set(&["a1"]), c("a1"))), ["b1", "b2"]);
}

#[test]
fn single_hops_need_an_occupied_hole_and_an_empty_one_beyond() {
    // i5 with a piece east (i6): hop lands on i7. A piece at i7 too blocks it.
    let occ = set(&["i5", "i6"]);
    assert_eq!(names(hop_targets(occ, c("i5"))), ["i7"]);
    let occ = set(&["i5", "i6", "i7"]);
    assert_eq!(hop_targets(occ, c("i5")), 0);
    // Hopping off the board is impossible: e1 is the left end of row e.
    let occ = set(&["e2", "e1"]);
    assert_eq!(hop_targets(occ, c("e2")), 0);
}

#[test]
fn chains_continue_in_any_direction_and_never_revisit() {
    // i5 -> i7 over i6, then i7 -> i9 over i8: a straight chain of two hops.
    let occ = set(&["i5", "i6", "i8"]);
    assert_eq!(names(hop_targets(occ, c("i5"))), ["i7", "i9"]);
    assert_eq!(
        path(occ, c("i5"), c("i9"))
            .expect("reachable")
            .iter()
            .map(|&x| cell_name(x))
            .collect::<Vec<_>>(),
        ["i5", "i7", "i9"]
    );
    // A turning chain: from i5 over i6 to i7, then over h7 (north-west of i7? no: the NW
    // neighbour of i7 is h6) ... use the neighbour tables directly for an L-shaped chain.
    let g = qiyi_chinese_checkers::board::geometry();
    let start = c("i5");
    let e = g.neighbours[start as usize][0];
    let land1 = g.jumps[start as usize][0];
    let ne = g.neighbours[land1 as usize][5];
    let land2 = g.jumps[land1 as usize][5];
    let occ = bit(start) | bit(e) | bit(ne);
    assert_eq!(hop_targets(occ, start), bit(land1) | bit(land2));
    assert_eq!(path(occ, start, land2), Some(vec![start, land1, land2]));
}

#[test]
fn a_chain_cannot_hop_over_its_own_starting_hole() {
    // The piece on i5 hops to i7 over i6; from i7 it cannot hop back west over i6 to i5 (visited)
    // and cannot use its own start hole as a hurdle.
    let occ = set(&["i5", "i6"]);
    let t = hop_targets(occ, c("i5"));
    assert_eq!(t & bit(c("i5")), 0);
    // A ring of six pieces around i5's neighbour: moving i4 around i5 should never land on i4.
    let occ = set(&["i4", "i5", "h5", "j6"]);
    let t = hop_targets(occ, c("i4"));
    assert_eq!(t & bit(c("i4")), 0);
    assert!(t & bit(c("i6")) != 0, "i4 hops over i5 to i6");
}

#[test]
fn moves_are_deduplicated_by_destination() {
    // Pieces around so that a hole is reachable by a step and by a chain; only one move to it.
    let mut pos = Position::from_text(
        "2 10 s 200 1 0 ./../.../..../............./............/.........../........../........./........../.........../............/............./..../.../../1",
    );
    assert!(pos.is_err(), "a player without pieces is rejected");
    pos = Position::from_text(
        "2 10 s 200 1 0 2/../.../..../............./............/.........../........../....11.../...1....../.........../............/............./..../.../../.",
    );
    let pos = pos.expect("valid position");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut dests: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
    let before = dests.len();
    dests.sort();
    dests.dedup();
    assert_eq!(before, dests.len());
    for &m in &moves {
        let text = pos.move_to_text(m);
        assert_eq!(pos.parse_move(&text), Ok(m), "{text}");
        let p = pos.path(m);
        assert_eq!(p.first(), Some(&m.from));
        assert_eq!(p.last(), Some(&m.to));
    }
}

#[test]
fn start_position_moves() {
    // Two players, 10 pieces: at the start only the front row (4 pieces on m1..m4... rows m-q
    // hold the bottom point) can step, and the pieces behind can hop over it.
    let pos = Position::default();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    // Counted by hand: the front row n1..n4 (row n is the 4-hole row) steps to 5 holes of row m
    // (8 steps: each of the 4 pieces has 2 empty holes ahead, 4 + 4 minus shared = 8 moves by
    // distinct (from, to)), and the second row hops over the front row into row l (6 hops).
    let steps = moves
        .iter()
        .filter(|m| pos.move_to_text(**m).contains('-'))
        .count();
    let hops = moves.len() - steps;
    assert_eq!(steps, 8);
    assert_eq!(hops, 6);
    assert_eq!(pos.to_move(), 0);
    assert!(pos.parse_move("n1-m5").is_ok());
    assert!(
        pos.parse_move("o1:m5").is_ok(),
        "o1 hops over n1... into row m"
    );
    assert!(pos.parse_move("q1-p1").is_err(), "p1 is occupied");
    assert!(pos.parse_move("n1-m1").is_err(), "m1 is not next to n1");
    assert!(pos.parse_move("nonsense").is_err());
}

#[test]
fn anti_spoiling_and_plain_wins() {
    // Player 1 (bottom, goal = top point) fills the top point except a1, where player 2 sits.
    let rows = |top: &str| {
        format!(
            "{top}/............./............/.........../........../........./........../.........../............/..2........../..../.../../.",
        )
    };
    let text = |flags: &str, top: &str| format!("2 10 {flags} 200 2 1 {}", rows(top));
    // Top point: a1 (1 hole), b (2), c (3), d (4).
    let full_mixed = "2/11/111/1111";
    let spoil = Position::from_text(&text("s", full_mixed)).expect("valid");
    assert_eq!(
        spoil.status(),
        Status::Won(0),
        "anti-spoiling: goal full, one of them ours"
    );
    let plain = Position::from_text(&text("-", full_mixed)).expect("valid");
    assert_eq!(plain.status(), Status::Ongoing);
    let all_ours = Position::from_text(&text("-", "1/11/111/1111")).expect("valid");
    assert_eq!(all_ours.status(), Status::Won(0));
    assert_eq!(all_ours.result(0), 1.0);
    assert_eq!(all_ours.result(1), -1.0);
    assert!(all_ours.is_over());
    let mut moves = Vec::new();
    all_ours.legal_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn goal_lock_keeps_pieces_in_the_goal() {
    let text = "2 10 l 200 1 0 ./../.../.1../............./............/.........../........../........./........../.........../............/............./..../.../../2";
    let pos = Position::from_text(text).expect("valid");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let goal = pos.goal(0);
    assert!(!moves.is_empty());
    for m in &moves {
        assert!(
            goal & bit(m.to) != 0,
            "{} leaves the goal",
            pos.move_to_text(*m)
        );
    }
    let free = Position::from_text(&text.replace(" l ", " - ")).expect("valid");
    free.legal_moves(&mut moves);
    assert!(moves.iter().any(|m| goal & bit(m.to) == 0));
}

#[test]
fn the_cap_ends_the_game_with_a_ranking() {
    let opts = Options {
        max_moves: 1,
        ..Options::players(3).expect("valid")
    };
    let mut pos = Position::start(opts).expect("valid");
    let mut moves = Vec::new();
    for _ in 0..3 {
        assert!(!pos.is_over());
        pos.legal_moves(&mut moves);
        pos.make(moves[0]);
    }
    assert_eq!(pos.status(), Status::Capped);
    let total: f64 = (0..3).map(|p| pos.result(p)).sum();
    assert!(total.abs() < 1e-9, "rank returns sum to zero");
}

#[test]
fn a_blocked_player_passes() {
    // Player 1 alone at the top tip, both neighbours taken by player 2 and the hops beyond blocked.
    let text = "2 10 - 200 1 0 1/22/2.2/..../............./............/.........../........../........./........../.........../............/............./..../.../../.";
    let pos = Position::from_text(text).expect("valid");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert_eq!(moves, vec![Move::PASS]);
    assert_eq!(pos.move_to_text(Move::PASS), "pass");
    let after = pos.after(Move::PASS);
    assert_eq!(after.to_move(), 1);
}
