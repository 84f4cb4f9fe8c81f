//! Pagoda functions: certificates found by linear programming, checked exactly and against an
//! exhaustive plain search.

use qiyi_peg_solitaire::pagoda::{find_pagoda, Pagoda};
use qiyi_peg_solitaire::{Board, Finish, Problem};
use std::collections::HashSet;

/// Every position reachable from `s` by plain recursion.
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

/// Pegs on the English board's bottom arm (rows 5-7) cannot send a peg to the top arm (rows
/// 1-2): for the finishes whose position class matches, only a pagoda function says so.
#[test]
fn pagoda_proves_what_the_position_class_cannot() {
    let b = Board::named("english").unwrap();
    let start: u128 = (0..b.len())
        .filter(|&h| b.coords()[h].1 >= 4)
        .fold(0, |a, h| a | 1u128 << h);
    let mut seen = HashSet::new();
    reachable(&b, start, &mut seen);
    let mut proved = 0;
    for f in (0..b.len()).filter(|&h| b.coords()[h].1 <= 1) {
        if b.class_of(start) != b.class_of(1u128 << f) {
            continue;
        }
        // Really impossible: no reachable position is that single peg.
        assert!(!seen.contains(&(1u128 << f)));
        let p = find_pagoda(&b, start, 1u128 << f).expect("a pagoda certificate");
        assert!(Pagoda::is_pagoda(&p.values, b.jumps()));
        assert_eq!(p.start_value, Pagoda::value(&p.values, start));
        assert!(p.start_value < p.finish_value);
        // The solver agrees (this small problem is settled by its first exhaustive search).
        let problem = Problem {
            board: std::sync::Arc::new(b.clone()),
            start,
            finish: Finish::Hole(f),
        };
        let r = problem.solve(100_000_000);
        assert!(r.jumps.is_none() && r.proved_impossible);
        proved += 1;
    }
    assert!(proved > 0, "no class-compatible finish in the top arm");
}

/// The explanation shows the values and the inequality.
#[test]
fn pagoda_explanation_names_the_totals() {
    let b = Board::named("english").unwrap();
    let start: u128 = (0..b.len())
        .filter(|&h| b.coords()[h].1 >= 4)
        .fold(0, |a, h| a | 1u128 << h);
    let f = (0..b.len())
        .find(|&h| b.coords()[h].1 <= 1 && b.class_of(1u128 << h) == b.class_of(start))
        .unwrap();
    let p = find_pagoda(&b, start, 1u128 << f).unwrap();
    let text = p.explain(&b);
    assert_eq!(text.lines().count(), 8, "{text}");
    assert!(text.contains(&format!("{} < {}", p.start_value, p.finish_value)));
}

/// A solvable problem never gets a certificate (the LP optimum is not negative).
#[test]
fn solvable_problems_have_no_pagoda_certificate() {
    for (name, s, f) in [
        ("english", "d4", "d4"),
        ("triangle", "a1", "a1"),
        ("french", "c1", "e4"),
    ] {
        let b = Board::named(name).unwrap();
        let p = Problem::new(b.clone(), Some(s), Some(f)).unwrap();
        assert!(p.solve(100_000_000).jumps.is_some(), "{name}");
        assert!(
            find_pagoda(&b, p.start, p.finish_mask()).is_none(),
            "{name}"
        );
    }
}
