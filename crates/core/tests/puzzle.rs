//! Single-agent solvers on the 8-puzzle: every optimal solver agrees with the others and with the
//! published facts (the two hardest 8-puzzle positions need 31 moves; 9!/2 = 181440 states are
//! reachable from any position), and the symmetry memo saves work in DFS.

use qiyi_core::game::Puzzle;
use qiyi_core::puzzle::{
    astar, bfs, bfs_by_class, bfs_layers, bidirectional_bfs, dfs, ida_star, replay, DfsOptions,
    Outcome, PuzzleLimits,
};
use qiyi_core::rng::Rng;
use qiyi_core::toys::sliding::{SlidingPuzzle, Tiles};

fn goal_puzzle() -> SlidingPuzzle {
    SlidingPuzzle::parse("1 2 3/4 5 6/7 8 0").unwrap()
}

/// A solvable start reached by a seeded random walk from the goal.
fn scrambled(seed: u64, steps: usize) -> SlidingPuzzle {
    let p = goal_puzzle();
    let mut rng = Rng::new(seed);
    let mut state: Tiles = p.goal();
    let mut next = Vec::new();
    for _ in 0..steps {
        p.successors(&state, &mut next);
        state = next[rng.below(next.len())].1;
    }
    p.with_start(state)
}

fn assert_solves(p: &SlidingPuzzle, moves: &[qiyi_core::toys::sliding::Slide]) {
    let end = replay(p, moves).expect("solution uses unavailable moves");
    assert!(p.is_goal(&end), "solution does not reach the goal");
}

#[test]
fn the_hardest_positions_need_31_moves() {
    let none = PuzzleLimits::default();
    for text in ["8 6 7/2 5 4/3 0 1", "6 4 7/8 5 0/3 2 1"] {
        let p = SlidingPuzzle::parse(text).unwrap();
        let results = [
            ("bfs", bfs(&p, &none)),
            ("bidirectional", bidirectional_bfs(&p, &none)),
            ("a*", astar(&p, &none)),
            ("ida*", ida_star(&p, &none)),
        ];
        for (name, r) in &results {
            let moves = r
                .solution()
                .unwrap_or_else(|| panic!("{name} found nothing on {text}"));
            assert_eq!(moves.len(), 31, "{name} on {text}");
            assert_solves(&p, moves);
        }
        // The informed and bidirectional searches look at far fewer states than plain BFS.
        let plain = results[0].1.stats.expanded;
        for (name, r) in &results[1..] {
            assert!(
                r.stats.expanded < plain,
                "{name} expanded {} >= bfs {plain}",
                r.stats.expanded
            );
        }
    }
}

#[test]
fn optimal_solvers_agree_on_random_instances() {
    let none = PuzzleLimits::default();
    for seed in 0..24 {
        let p = scrambled(seed, 10 + 3 * seed as usize);
        let lengths: Vec<usize> = [
            bfs(&p, &none),
            bidirectional_bfs(&p, &none),
            astar(&p, &none),
            ida_star(&p, &none),
        ]
        .iter()
        .map(|r| {
            let moves = r.solution().expect("a scrambled puzzle is solvable");
            assert_solves(&p, moves);
            moves.len()
        })
        .collect();
        assert!(
            lengths.iter().all(|&l| l == lengths[0]),
            "seed {seed}: {lengths:?}"
        );
        assert!(lengths[0] as u32 >= p.heuristic(&p.start()));
    }
}

#[test]
fn half_the_permutations_are_reachable() {
    let p = SlidingPuzzle::parse("1 2 3/4 5 6/8 7 0").unwrap();
    assert!(!p.is_solvable());
    let r = bfs(&p, &PuzzleLimits::default());
    assert_eq!(r.outcome, Outcome::Unsolvable);
    assert_eq!(r.stats.stored, 181_440);
    assert_eq!(r.stats.expanded, 181_440);
    let b = bidirectional_bfs(&p, &PuzzleLimits::default());
    assert_eq!(b.outcome, Outcome::Unsolvable);
    let a = astar(&p, &PuzzleLimits::default());
    assert_eq!(a.outcome, Outcome::Unsolvable);
    assert_eq!(a.stats.stored, 181_440);
}

#[test]
fn limits_stop_the_search() {
    let p = SlidingPuzzle::parse("8 6 7/2 5 4/3 0 1").unwrap();
    let limits = PuzzleLimits::expanded(100);
    for r in [
        bfs(&p, &limits),
        bidirectional_bfs(&p, &limits),
        astar(&p, &limits),
        ida_star(&p, &limits),
        dfs(
            &p,
            &DfsOptions {
                max_depth: 31,
                ..Default::default()
            },
            &limits,
        ),
    ] {
        assert_eq!(r.outcome, Outcome::LimitReached);
        assert!(r.stats.expanded <= 100);
    }
}

#[test]
fn dfs_finds_solutions_within_its_bound_and_symmetry_saves_work() {
    let none = PuzzleLimits::default();
    let mut with_sym_total = 0;
    let mut without_sym_total = 0;
    for seed in 100..106 {
        let p = scrambled(seed, 40);
        let optimal = astar(&p, &none).length().unwrap() as u32;
        let sym = DfsOptions {
            max_depth: optimal,
            ..Default::default()
        };
        let plain_memo = DfsOptions {
            symmetry: false,
            ..sym.clone()
        };
        let a = dfs(&p, &sym, &none);
        let b = dfs(&p, &plain_memo, &none);
        for r in [&a, &b] {
            let moves = r
                .solution()
                .expect("a solution exists at the optimal depth");
            assert_eq!(moves.len() as u32, optimal);
            assert_solves(&p, moves);
        }
        // One move short of the optimum there is nothing to find.
        if optimal > 0 {
            let short = DfsOptions {
                max_depth: optimal - 1,
                ..sym.clone()
            };
            assert_eq!(dfs(&p, &short, &none).outcome, Outcome::Unsolvable);
        }
        with_sym_total += a.stats.expanded;
        without_sym_total += b.stats.expanded;
    }
    assert!(
        with_sym_total < without_sym_total,
        "symmetry memo expanded {with_sym_total}, plain memo {without_sym_total}"
    );
}

#[test]
fn the_dead_state_table_prunes() {
    let p = scrambled(7, 30);
    let none = PuzzleLimits::default();
    let optimal = astar(&p, &none).length().unwrap() as u32;
    let base = DfsOptions {
        max_depth: optimal + 2,
        symmetry: false,
        ..Default::default()
    };
    let no_memo = DfsOptions {
        memo: false,
        ..base.clone()
    };
    let with = dfs(&p, &base, &none);
    let without = dfs(&p, &no_memo, &none);
    assert!(with.solution().is_some() && without.solution().is_some());
    assert!(with.stats.pruned > 0);
    assert!(with.stats.expanded < without.stats.expanded);
}

/// A 4x4 instance in Korf's convention (blank first in the goal) turned into ours (blank last):
/// turning the board half a turn and relabelling tile `t` as `16 - t` maps his goal onto ours and
/// keeps every distance.
fn from_korf(tiles: [u8; 16]) -> SlidingPuzzle {
    let mut ours = [0u8; 16];
    for (cell, &t) in tiles.iter().enumerate() {
        ours[15 - cell] = if t == 0 { 0 } else { 16 - t };
    }
    SlidingPuzzle::new(4, 4, &ours).unwrap()
}

#[test]
fn fifteen_puzzle_solvers_agree() {
    let none = PuzzleLimits::default();
    let goal = SlidingPuzzle::parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 15 0").unwrap();
    assert!(goal.is_goal(&goal.start()));
    let korf_goal = from_korf([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    assert!(korf_goal.is_goal(&korf_goal.start()));
    let mut rng = Rng::new(15);
    let mut next = Vec::new();
    for _ in 0..6 {
        let mut state = goal.goal();
        for _ in 0..40 {
            goal.successors(&state, &mut next);
            state = next[rng.below(next.len())].1;
        }
        let p = goal.with_start(state);
        assert!(p.is_solvable());
        let i = ida_star(&p, &none);
        let a = astar(&p, &none);
        let b = bidirectional_bfs(&p, &none);
        assert_eq!(i.length(), a.length());
        assert_eq!(i.length(), b.length());
        assert_solves(&p, i.solution().unwrap());
    }
}

/// Korf's first random 15-puzzle instance (Korf 1985, table of 100 instances): 57 moves.
/// Slow (hundreds of millions of IDA* nodes): `cargo test -p qiyi-core --test puzzle -- --ignored`.
#[test]
#[ignore]
fn korf_instance_one_needs_57_moves() {
    let p = from_korf([14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3]);
    let r = ida_star(&p, &PuzzleLimits::default());
    eprintln!("{:?}", r.stats);
    assert_eq!(r.length(), Some(57));
    assert_solves(&p, r.solution().unwrap());
}

#[test]
fn the_eight_puzzle_distance_table() {
    // Published (Reinefeld 1993): 181440 states reachable from the goal, the farthest 31 moves
    // away, and exactly two of them: the two positions of `the_hardest_positions_need_31_moves`.
    let layers = bfs_layers(&goal_puzzle(), &PuzzleLimits::default());
    assert!(layers.complete);
    assert_eq!(layers.counts.iter().sum::<u64>(), 181_440);
    assert_eq!(layers.counts.len(), 32);
    // OEIS A089473: the number of 8-puzzle positions at each distance from the goal.
    let published: [u64; 32] = [
        1, 2, 4, 8, 16, 20, 39, 62, 116, 152, 286, 396, 748, 1024, 1893, 2512, 4485, 5638, 9529,
        10878, 16993, 17110, 23952, 20224, 24047, 15578, 14560, 6274, 3910, 760, 221, 2,
    ];
    assert_eq!(layers.counts, published);
    assert_eq!(layers.counts[31], 2);
    let p = goal_puzzle();
    let mut farthest: Vec<String> = layers.farthest.iter().map(|s| p.state_to_text(s)).collect();
    farthest.sort();
    assert_eq!(farthest, ["6 4 7/8 5 0/3 2 1", "8 6 7/2 5 4/3 0 1"]);
}

#[test]
fn bfs_by_symmetry_class_stays_optimal_and_stores_less() {
    let none = PuzzleLimits::default();
    let (mut plain_stored, mut class_stored) = (0, 0);
    for seed in 200..210 {
        let p = scrambled(seed, 60);
        let plain = bfs(&p, &none);
        let class = bfs_by_class(&p, &none);
        assert_eq!(plain.length(), class.length(), "seed {seed}");
        assert_solves(&p, class.solution().unwrap());
        plain_stored += plain.stats.stored;
        class_stored += class.stats.stored;
    }
    assert!(
        class_stored < plain_stored,
        "{class_stored} vs {plain_stored}"
    );
}
