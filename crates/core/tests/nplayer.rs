//! N-player search on the Race toy: max-n, paranoid and best-reply search match brute-force
//! recursions written here from the rules alone (no pruning, no shared code), and with two players
//! all three agree with the theory of the subtraction game.

use qiyi_core::eval::MultiEvaluator;
use qiyi_core::game::Game;
use qiyi_core::search::nplayer::{
    best_reply, best_reply_limited, max_n, max_n_limited, paranoid, paranoid_limited,
};
use qiyi_core::search::SearchLimits;
use qiyi_core::toys::race::{Race, RaceEval, RaceMove};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The rules, restated: (players, target, max_step).
#[derive(Clone, Copy)]
struct Rules {
    n: u8,
    target: u16,
    step: u8,
}

impl Rules {
    /// Returns when `winner` has just reached the target.
    fn returns(&self, winner: u8) -> Vec<f64> {
        (0..self.n)
            .map(|p| {
                if p == winner {
                    1.0
                } else if self.n > 2 && p == (winner + 1) % self.n {
                    0.0
                } else {
                    -1.0
                }
            })
            .collect()
    }

    fn leaf(&self, counter: u16, to_move: u8) -> Vec<f64> {
        let pos = Race::with_counter(self.n, self.target as u8, self.step, counter as u8, to_move)
            .unwrap();
        let mut out = vec![0.0; self.n as usize];
        RaceEval.evaluate(&pos, &mut out);
        out
    }

    /// Max-n by brute force: (values, first best step).
    fn maxn(&self, counter: u16, p: u8, depth: u32) -> (Vec<f64>, u8) {
        if depth == 0 {
            return (self.leaf(counter, p), 0);
        }
        let mut best: Option<(Vec<f64>, u8)> = None;
        for s in 1..=self.step {
            let v = if counter + s as u16 >= self.target {
                self.returns(p)
            } else {
                self.maxn(counter + s as u16, (p + 1) % self.n, depth - 1).0
            };
            let better = match &best {
                None => true,
                Some((b, _)) => v[p as usize] > b[p as usize],
            };
            if better {
                best = Some((v, s));
            }
        }
        best.unwrap()
    }

    /// Paranoid minimax for `root` by brute force.
    fn paranoid(&self, counter: u16, p: u8, root: u8, depth: u32) -> (f64, u8) {
        if depth == 0 {
            return (self.leaf(counter, p)[root as usize], 0);
        }
        let mut best: Option<(f64, u8)> = None;
        for s in 1..=self.step {
            let v = if counter + s as u16 >= self.target {
                self.returns(p)[root as usize]
            } else {
                self.paranoid(counter + s as u16, (p + 1) % self.n, root, depth - 1)
                    .0
            };
            let better = match best {
                None => true,
                Some((b, _)) if p == root => v > b,
                Some((b, _)) => v < b,
            };
            if better {
                best = Some((v, s));
            }
        }
        best.unwrap()
    }

    /// Best-reply search for `root` by brute force, from its definition: at the opponents' turn
    /// every opponent (until the root's turn comes round) may make the one move, all others pass.
    fn brs(&self, counter: u16, p: u8, root: u8, depth: u32) -> f64 {
        if depth == 0 {
            return self.leaf(counter, p)[root as usize];
        }
        let child = |mover: u8, s: u8| {
            if counter + s as u16 >= self.target {
                self.returns(mover)[root as usize]
            } else {
                let next = if mover == root {
                    (root + 1) % self.n
                } else {
                    root
                };
                self.brs(counter + s as u16, next, root, depth - 1)
            }
        };
        if p == root {
            (1..=self.step)
                .map(|s| child(p, s))
                .fold(f64::NEG_INFINITY, f64::max)
        } else {
            let mut best = f64::INFINITY;
            let mut q = p;
            while q != root {
                for s in 1..=self.step {
                    best = best.min(child(q, s));
                }
                q = (q + 1) % self.n;
            }
            best
        }
    }
}

const CASES: [(u8, u8, u8); 5] = [(3, 10, 3), (3, 13, 2), (4, 11, 3), (3, 9, 4), (5, 12, 2)];

fn positions() -> impl Iterator<Item = (Rules, Race)> {
    CASES.into_iter().flat_map(|(n, target, step)| {
        (0..target.min(6)).flat_map(move |c| {
            (0..n).map(move |p| {
                (
                    Rules {
                        n,
                        target: target as u16,
                        step,
                    },
                    Race::with_counter(n, target, step, c, p).unwrap(),
                )
            })
        })
    })
}

#[test]
fn max_n_matches_brute_force() {
    for (rules, pos) in positions() {
        for depth in [1, 2, 3, 5, 40] {
            let (values, step) = rules.maxn(pos.counter(), pos.to_move() as u8, depth);
            let r = max_n(&pos, &RaceEval, depth);
            assert_eq!(r.values, values, "{pos:?} depth {depth}");
            assert_eq!(r.best_move, Some(RaceMove(step)), "{pos:?} depth {depth}");
            assert_eq!(r.value, values[pos.to_move()]);
        }
        // Searched to the end, the principal variation is a game with the announced outcome.
        let r = max_n(&pos, &RaceEval, 40);
        let mut end = pos.clone();
        for &mv in &r.pv {
            end.make(mv);
        }
        assert!(
            end.is_over(),
            "{pos:?}: pv {:?} does not finish the race",
            r.pv
        );
        let returns: Vec<f64> = (0..pos.num_players()).map(|p| end.returns(p)).collect();
        assert_eq!(returns, r.values);
    }
}

#[test]
fn paranoid_matches_brute_force_and_prunes() {
    let mut pruned_somewhere = false;
    for (rules, pos) in positions() {
        let root = pos.to_move() as u8;
        for depth in [1, 2, 4, 40] {
            let (value, step) = rules.paranoid(pos.counter(), root, root, depth);
            let r = paranoid(&pos, &RaceEval, depth);
            assert_eq!(r.value, value, "{pos:?} depth {depth}");
            assert_eq!(r.best_move, Some(RaceMove(step)), "{pos:?} depth {depth}");
            let m = max_n(&pos, &RaceEval, depth);
            assert!(r.stats.nodes <= m.stats.nodes);
            pruned_somewhere |= r.stats.nodes < m.stats.nodes;
            // The coalition can only do worse for the root player than selfish opponents.
            assert!(r.value <= m.value, "{pos:?} depth {depth}");
        }
    }
    assert!(pruned_somewhere, "alpha-beta never cut anything");
}

#[test]
fn best_reply_matches_brute_force() {
    for (rules, pos) in positions() {
        let root = pos.to_move() as u8;
        for depth in [1, 2, 3, 4, 6, 40] {
            let value = rules.brs(pos.counter(), root, root, depth);
            let r = best_reply(&pos, &RaceEval, depth);
            assert_eq!(r.value, value, "{pos:?} depth {depth}");
            assert!(r.best_move.is_some());
        }
    }
}

#[test]
fn best_reply_takes_an_immediate_win() {
    let pos = Race::with_counter(4, 20, 3, 17, 2).unwrap();
    let r = best_reply(&pos, &RaceEval, 3);
    assert_eq!(r.best_move, Some(RaceMove(3)));
    assert_eq!(r.value, 1.0);
}

#[test]
fn with_two_players_all_agree_with_the_theory() {
    for target in [7u8, 10, 15, 21] {
        for step in [2u8, 3, 4] {
            for counter in 0..target {
                let pos = Race::with_counter(2, target, step, counter, counter % 2).unwrap();
                let left = target - counter;
                let winning = left % (step + 1) != 0;
                let expected = if winning { 1.0 } else { -1.0 };
                let depth = target as u32;
                let results = [
                    max_n(&pos, &RaceEval, depth),
                    paranoid(&pos, &RaceEval, depth),
                    best_reply(&pos, &RaceEval, depth),
                ];
                for r in &results {
                    assert_eq!(r.value, expected, "{pos:?}");
                    if winning {
                        let good = left % (step + 1);
                        assert_eq!(r.best_move, Some(RaceMove(good)), "{pos:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn iterative_deepening_gives_the_fixed_depth_results() {
    let pos = Race::with_counter(3, 30, 3, 2, 1).unwrap();
    for depth in [1, 3, 6] {
        let limits = SearchLimits::depth(depth);
        let a = max_n_limited(&pos, &RaceEval, &limits);
        let b = max_n(&pos, &RaceEval, depth);
        assert_eq!(
            (a.values, a.best_move, a.stats.depth),
            (b.values, b.best_move, depth)
        );
        let a = paranoid_limited(&pos, &RaceEval, &limits);
        let b = paranoid(&pos, &RaceEval, depth);
        assert_eq!((a.value, a.best_move), (b.value, b.best_move));
        let a = best_reply_limited(&pos, &RaceEval, &limits);
        let b = best_reply(&pos, &RaceEval, depth);
        assert_eq!((a.value, a.best_move), (b.value, b.best_move));
    }
}

#[test]
fn iterative_deepening_stops_when_the_search_is_exact() {
    let pos = Race::with_counter(3, 12, 3, 0, 0).unwrap();
    let r = max_n_limited(&pos, &RaceEval, &SearchLimits::default());
    assert!(r.stats.depth <= 12, "searched to depth {}", r.stats.depth);
    let exact = max_n(&pos, &RaceEval, 40);
    assert_eq!(r.values, exact.values);
    assert_eq!(r.best_move, exact.best_move);
}

#[test]
fn node_limits_and_the_stop_flag_are_obeyed() {
    let pos = Race::with_counter(4, 60, 4, 0, 0).unwrap();
    let r = max_n_limited(&pos, &RaceEval, &SearchLimits::nodes(2_000));
    assert!(r.stats.depth >= 1);
    assert!(r.stats.nodes <= 2_000 + 1, "{} nodes", r.stats.nodes);
    // The result is that of the last completed depth.
    let fixed = max_n(&pos, &RaceEval, r.stats.depth);
    assert_eq!(r.values, fixed.values);
    // A stop flag raised before the search: depth 1 is still searched, so there is a move.
    let limits = SearchLimits {
        stop: Some(Arc::new(AtomicBool::new(true))),
        nodes: Some(0),
        ..Default::default()
    };
    let r = paranoid_limited(&pos, &RaceEval, &limits);
    assert_eq!(r.stats.depth, 1);
    assert!(r.best_move.is_some());
}
