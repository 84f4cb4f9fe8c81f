//! The blunder set (tests/data/xiangqi-ee-blunders.txt, made by scripts/xiangqi/blunder_set.py
//! from qiyi's lost games against ElephantEye, with ElephantEye as the judge) is well formed:
//! every position parses, the played and the judge's moves are legal and differ, and the judge
//! scores its move at least 150 better. `xq_dev blunders` searches it at a fixed node count.

use qiyi_xiangqi::Position;

const SET: &str = include_str!("data/xiangqi-ee-blunders.txt");

#[test]
fn every_blunder_position_is_legal_and_well_formed() {
    let mut n = 0;
    for line in SET.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split(';').collect();
        assert_eq!(f.len(), 6, "{line}");
        let pos = Position::from_fen(f[0]).unwrap_or_else(|e| panic!("{line}: {e}"));
        let played = pos
            .parse_move_text(f[1])
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let judge = pos
            .parse_move_text(f[2])
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_ne!(played, judge, "{line}");
        let best: i32 = f[3].parse().expect("judge score");
        let worse: i32 = f[4].parse().expect("played score");
        assert!(best - worse >= 150, "{line}");
        n += 1;
    }
    assert!(n >= 50, "only {n} positions");
}
