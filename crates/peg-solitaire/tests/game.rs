//! Core's conformance suite, the Puzzle view, and exhaustive cross-checks of the fast solvers
//! against plain recursion on small boards.

use qiyi_core::conformance::{check_game, Config};
use qiyi_core::{Game, Notation, Puzzle};
use qiyi_peg_solitaire::problem::replay;
use qiyi_peg_solitaire::{Board, Finish, PegError, PegPosition, PegPuzzle, Problem};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

fn start(name: &str) -> PegPosition {
    PegPosition::start(Arc::new(Board::named(name).unwrap()))
}

#[test]
fn conformance_on_every_board() {
    let starts: Vec<PegPosition> = [
        "english",
        "french",
        "wiegleb",
        "diamond",
        "triangle",
        "triangle:8",
    ]
    .iter()
    .map(|n| start(n))
    .collect();
    check_game(
        &starts,
        &Config {
            playouts: 10,
            ..Config::default()
        },
    );
}

#[test]
fn moves_parse_and_bad_moves_get_errors() {
    let pos = start("english");
    let mv = pos.parse_move("f4-d4").unwrap();
    assert_eq!(pos.move_to_text(mv), "f4-d4");
    assert!(matches!(pos.parse_move("f4"), Err(PegError::BadMove(_))));
    assert!(matches!(
        pos.parse_move("f4-d4-b4"),
        Err(PegError::BadMove(_))
    ));
    assert!(matches!(
        pos.parse_move("e4-d4"),
        Err(PegError::IllegalMove(_))
    ));
    assert!(matches!(
        pos.parse_move("a1-c1"),
        Err(PegError::UnknownHole(_))
    ));
    let after = pos.after(mv);
    assert_eq!(after.peg_count(), 31);
    assert!(after.parse_move("f4-d4").is_err());
}

#[test]
fn returns_reward_one_peg() {
    let b = Arc::new(Board::named("triangle").unwrap());
    let one = PegPosition::new(b.clone(), 1);
    assert!(one.is_over());
    assert_eq!(one.returns(0), 1.0);
    let two = PegPosition::new(b, 1 | 1 << 14);
    assert!(two.is_over());
    assert!(two.returns(0) < 0.0);
}

/// Reachable positions by plain recursion over full (unreduced) states.
fn reachable(b: &Board, s: u128, seen: &mut HashSet<u128>) {
    if !seen.insert(s) {
        return;
    }
    for j in b.jumps() {
        if s & j.mask() == j.need() {
            reachable(b, s ^ j.mask(), seen);
        }
    }
}

#[test]
fn count_matches_plain_enumeration_on_small_boards() {
    for (name, hole) in [
        ("triangle", "a1"),
        ("triangle", "b3"),
        ("triangle:6", "c5"),
        ("triangle:4", "a2"),
    ] {
        let b = Board::named(name).unwrap();
        let p = Problem::new(b.clone(), Some(hole), Some("any")).unwrap();
        let c = p.count(&mut |_, _, _, _| {});
        let mut seen = HashSet::new();
        reachable(&b, p.start, &mut seen);
        assert_eq!(c.positions_full, seen.len() as u64, "{name} {hole}");
        let all: Vec<usize> = (0..b.symmetries().len()).collect();
        let orbits: HashSet<u128> = seen.iter().map(|&s| b.canonical_in(&all, s)).collect();
        assert_eq!(c.positions, orbits.len() as u64, "{name} {hole}");
    }
}

/// The same on small square boards, which use the 8x8 grid layout, shift move generation and
/// the xor canonical forms (the triangles above use the general path).
#[test]
fn count_and_solutions_match_plain_search_on_small_square_boards() {
    for picture in [
        "oooo\noooo\no.oo\noooo\n",
        "ooooo\noo.oo\nooooo\nooooo\n",
        " ooo\nooooo\noo.oo\nooooo\n ooo\n",
    ] {
        let b = Board::from_picture(picture).unwrap();
        let p = Problem::new(b.clone(), None, Some("any")).unwrap();
        let c = p.count(&mut |_, _, _, _| {});
        let mut seen = HashSet::new();
        reachable(&b, p.start, &mut seen);
        assert_eq!(c.positions_full, seen.len() as u64, "{picture}");
        let all: Vec<usize> = (0..b.symmetries().len()).collect();
        let orbits: HashSet<u128> = seen.iter().map(|&s| b.canonical_in(&all, s)).collect();
        assert_eq!(c.positions, orbits.len() as u64, "{picture}");
        for f in 0..b.len() {
            let p = Problem {
                finish: Finish::Hole(f),
                ..p.clone()
            };
            let slow = paths(&b, p.start, 1u128 << f, &mut HashMap::new());
            assert_eq!(
                p.count_solutions(&mut |_, _, _, _| {}),
                slow,
                "{picture} {f}"
            );
            assert_eq!(
                p.min_moves(&mut |_, _, _, _| {}).moves,
                min_moves_plain(&b, p.start, 1u128 << f),
                "{picture} {f}"
            );
        }
    }
}

/// Paths to one peg at `finish` by plain memoised recursion.
fn paths(b: &Board, s: u128, finish: u128, memo: &mut HashMap<u128, u128>) -> u128 {
    if s.count_ones() == 1 {
        return (s == finish) as u128;
    }
    if let Some(&n) = memo.get(&s) {
        return n;
    }
    let mut n = 0;
    for j in b.jumps() {
        if s & j.mask() == j.need() {
            n += paths(b, s ^ j.mask(), finish, memo);
        }
    }
    memo.insert(s, n);
    n
}

#[test]
fn solution_counts_match_plain_recursion() {
    for (name, st, fin) in [
        ("triangle", "a1", "a1"),
        ("triangle", "c3", "c3"),
        ("triangle:6", "a1", "a1"),
        ("triangle", "a3", "c5"),
    ] {
        let b = Board::named(name).unwrap();
        let p = Problem::new(b.clone(), Some(st), Some(fin)).unwrap();
        let fast = p.count_solutions(&mut |_, _, _, _| {});
        let slow = paths(
            &b,
            p.start,
            1u128 << b.hole(fin).unwrap(),
            &mut HashMap::new(),
        );
        assert_eq!(fast, slow, "{name} {st}->{fin}");
        // Solve agrees with the count about existence.
        assert_eq!(
            p.solve(u64::MAX).jumps.is_some(),
            slow > 0,
            "{name} {st}->{fin}"
        );
    }
}

/// Fewest moves by plain breadth-first search over full states (moves = chains by one peg).
fn min_moves_plain(b: &Board, start: u128, finish: u128) -> Option<usize> {
    fn chains(b: &Board, s: u128, hole: u8, out: &mut Vec<u128>) {
        for j in b.jumps() {
            if j.from == hole && s & j.mask() == j.need() {
                let n = s ^ j.mask();
                out.push(n);
                chains(b, n, j.to, out);
            }
        }
    }
    let mut seen = HashSet::from([start]);
    let mut frontier = vec![start];
    for d in 0.. {
        if frontier.contains(&finish) {
            return Some(d);
        }
        if frontier.is_empty() {
            return None;
        }
        let mut next = Vec::new();
        for &s in &frontier {
            let mut out = Vec::new();
            for h in 0..b.len() as u8 {
                if s >> h & 1 == 1 {
                    chains(b, s, h, &mut out);
                }
            }
            for n in out {
                if seen.insert(n) {
                    next.push(n);
                }
            }
        }
        frontier = next;
    }
    None
}

#[test]
fn min_moves_match_plain_search() {
    for (name, st, fin) in [
        ("triangle", "a1", "a1"),
        ("triangle", "c3", "c3"),
        ("triangle:6", "a1", "a1"),
        ("triangle", "a3", "c5"),
    ] {
        let b = Board::named(name).unwrap();
        let p = Problem::new(b.clone(), Some(st), Some(fin)).unwrap();
        let fast = p.min_moves(&mut |_, _, _, _| {});
        let slow = min_moves_plain(&b, p.start, 1u128 << b.hole(fin).unwrap());
        assert_eq!(fast.moves, slow, "{name} {st}->{fin}");
        if let Some(n) = fast.moves {
            assert_eq!(fast.solution.len(), n);
            let jumps: Vec<_> = fast.solution.iter().flatten().copied().collect();
            assert_eq!(
                replay(&b, p.start, &jumps).unwrap(),
                1u128 << b.hole(fin).unwrap()
            );
        }
    }
}

#[test]
fn puzzle_view_is_consistent() {
    let b = Arc::new(Board::named("english").unwrap());
    let pz = PegPuzzle::new(b.clone(), b.picture_start(), 1u128 << b.hole("d4").unwrap());
    let s = pz.start();
    let mut succ = Vec::new();
    pz.successors(&s, &mut succ);
    assert_eq!(succ.len(), 4);
    // The four first jumps are symmetric images: one canonical form.
    let canon: HashSet<u128> = succ.iter().map(|(_, n)| pz.canonical(n)).collect();
    assert_eq!(canon.len(), 1);
    let mut pred = Vec::new();
    for (_, n) in &succ {
        pz.predecessors(n, &mut pred);
        assert!(pred.iter().any(|&(_, p)| p == s));
    }
    assert_eq!(pz.heuristic(&s), 31);
    assert_eq!(pz.goals(), vec![1u128 << 16]);
    assert!(pz.is_goal(&(1u128 << 16)));
}

#[test]
fn default_finish_is_the_start_hole_when_the_class_allows() {
    let english = Problem::new(Board::named("english").unwrap(), None, None).unwrap();
    assert_eq!(
        english.finish,
        Finish::Hole(english.board.hole("d4").unwrap())
    );
    // French centre: no single peg has the start's class, so the default is "any" (and the
    // class argument then proves it impossible).
    let french = Problem::new(Board::named("french").unwrap(), None, None).unwrap();
    assert_eq!(french.finish, Finish::Any);
    assert!(french.class_obstruction().is_some());
    let any = Problem::new(Board::named("english").unwrap(), Some("c1"), Some("ANY")).unwrap();
    assert_eq!(any.finish, Finish::Any);
    assert!(Problem::new(Board::named("english").unwrap(), Some("c1"), Some("h9")).is_err());
}
