//! Every alpha-beta option is checked against plain minimax (the pattern of minimax-rs
//! `tests/strategies.rs`): on random positions at a fixed depth, each combination of options must
//! return exactly the minimax value. The value-changing options (quiescence, check extension) are
//! checked against `minimax_with`, the unpruned search that applies them the same way.
//!
//! The random game is a tree: every position is reached by one path only, so a transposition
//! table cannot return a value searched to another depth, and "the same value" is exact.

use qiyi_core::eval::{Evaluator, Score, MATE_BOUND};
use qiyi_core::game::{Game, Turn};
use qiyi_core::rng::splitmix64;
use qiyi_core::search::{
    minimax, minimax_with, MinimaxOptions, SearchLimits, SearchOptions, Searcher,
};
use qiyi_core::toys::nim::{Nim, NimEval};
use qiyi_core::toys::tictactoe::{TicTacToe, TicTacToeEval};

/// A random game tree: branching 1-6, games of up to 12 plies, some early ends, leaf values,
/// "noisy" moves and "checks" all derived from the path hash.
#[derive(Clone, Debug, PartialEq, Eq)]
struct RandomTree {
    hash: u64,
    ply: u32,
    len: u32,
}

impl RandomTree {
    fn new(seed: u64) -> Self {
        RandomTree {
            hash: splitmix64(seed).1,
            ply: 0,
            len: 12,
        }
    }
    fn bits(&self, salt: u64) -> u64 {
        splitmix64(self.hash ^ salt).1
    }
}

impl Game for RandomTree {
    type Move = u8;
    type Undo = u64;

    fn num_players(&self) -> usize {
        2
    }
    fn turn(&self) -> Turn {
        if self.ply >= self.len || (self.ply > 0 && self.bits(1) % 13 == 0) {
            Turn::Over
        } else {
            Turn::Player(self.to_move())
        }
    }
    fn to_move(&self) -> usize {
        (self.ply % 2) as usize
    }
    fn legal_moves(&self, moves: &mut Vec<u8>) {
        moves.clear();
        if self.turn() == Turn::Over {
            return;
        }
        let n = 1 + (self.bits(2) % 6) as u8;
        moves.extend(0..n);
    }
    fn make(&mut self, mv: u8) -> u64 {
        let old = self.hash;
        self.hash = splitmix64(self.hash.wrapping_add(u64::from(mv) + 1)).1;
        self.ply += 1;
        old
    }
    fn unmake(&mut self, _mv: u8, undo: u64) {
        self.hash = undo;
        self.ply -= 1;
    }
    fn returns(&self, player: usize) -> f64 {
        let r = match self.bits(3) % 3 {
            0 => 0.0,
            1 => 1.0,
            _ => -1.0,
        };
        if player == self.to_move() {
            r
        } else {
            -r
        }
    }
    fn hash(&self) -> u64 {
        self.hash
    }
    fn hash_from_scratch(&self) -> u64 {
        self.hash
    }
}

#[derive(Clone, Copy)]
struct TreeEval;

impl Evaluator<RandomTree> for TreeEval {
    fn evaluate(&self, pos: &RandomTree) -> Score {
        (pos.bits(4) % 201) as Score - 100
    }
    fn move_order(&self, pos: &RandomTree, mv: u8) -> i32 {
        (pos.bits(5 + u64::from(mv)) % 50) as i32
    }
    fn is_noisy(&self, pos: &RandomTree, mv: u8) -> bool {
        pos.bits(100 + u64::from(mv)) % 3 == 0
    }
    fn in_check(&self, pos: &RandomTree) -> bool {
        pos.bits(6) % 7 == 0
    }
}

/// The options that must not change the value, as bit flags.
const EXACT_FLAGS: usize = 7;

fn options_from_bits(bits: usize) -> SearchOptions {
    SearchOptions {
        move_ordering: bits & 1 != 0,
        killers: bits & 2 != 0,
        history: bits & 4 != 0,
        tt: bits & 8 != 0,
        iterative_deepening: bits & 16 != 0,
        pvs: bits & 32 != 0,
        aspiration: bits & 64 != 0 && bits & 16 != 0,
        tt_mib: 1,
        ..SearchOptions::none()
    }
}

#[test]
fn every_exact_option_combination_returns_the_minimax_value() {
    let mut checked = 0;
    for seed in 0..100u64 {
        let pos = RandomTree::new(seed);
        let depth = 3 + (seed % 3) as u32;
        let oracle = minimax(&pos, &TreeEval, depth);
        for bits in 0..(1 << EXACT_FLAGS) {
            let opts = options_from_bits(bits);
            let mut s = Searcher::new(TreeEval, opts.clone());
            let r = s.search(&pos, &SearchLimits::depth(depth), |_| {});
            assert_eq!(
                r.score, oracle.score,
                "seed {seed} depth {depth}: {opts:?} gives {} but minimax {}",
                r.score, oracle.score
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 100 * 128);
}

#[test]
fn quiescence_and_check_extension_match_the_unpruned_search_with_them() {
    for seed in 0..100u64 {
        let pos = RandomTree::new(1000 + seed);
        let depth = 2 + (seed % 3) as u32;
        for (q, ext) in [(true, false), (false, true), (true, true)] {
            let oracle = minimax_with(
                &pos,
                &TreeEval,
                depth,
                MinimaxOptions {
                    quiescence: q,
                    check_extension: ext,
                },
            );
            // A spread of the exact options on top (every 9th combination keeps the run short).
            for bits in (0..(1 << EXACT_FLAGS)).step_by(9) {
                let opts = SearchOptions {
                    quiescence: q,
                    check_extension: ext,
                    ..options_from_bits(bits)
                };
                let mut s = Searcher::new(TreeEval, opts.clone());
                let r = s.search(&pos, &SearchLimits::depth(depth), |_| {});
                assert_eq!(
                    r.score, oracle.score,
                    "seed {seed} depth {depth}: {opts:?} gives {} but minimax_with {}",
                    r.score, oracle.score
                );
            }
        }
    }
}

#[test]
fn the_principal_variation_leads_to_the_reported_score() {
    for seed in 0..50u64 {
        let pos = RandomTree::new(5000 + seed);
        let mut s = Searcher::new(TreeEval, SearchOptions::exact());
        let r = s.search(&pos, &SearchLimits::depth(4), |_| {});
        let mut p = pos.clone();
        let mut moves = Vec::new();
        for &mv in &r.pv {
            p.legal_moves(&mut moves);
            assert!(moves.contains(&mv), "seed {seed}: PV move {mv} is illegal");
            p.make(mv);
        }
        assert_eq!(r.best_move, r.pv.first().copied());
    }
}

#[test]
fn tictactoe_is_a_draw_and_alpha_beta_visits_far_fewer_nodes() {
    let pos = TicTacToe::default();
    let plain = minimax(&pos, &TicTacToeEval, 9);
    assert_eq!(plain.score, 0);
    // The full game tree of tic-tac-toe has 549,946 nodes (root included).
    assert_eq!(plain.stats.nodes, 549_946);
    let mut ab = Searcher::new(TicTacToeEval, SearchOptions::none());
    let r = ab.search(&pos, &SearchLimits::depth(9), |_| {});
    assert_eq!(r.score, 0);
    assert!(
        r.stats.nodes * 10 < plain.stats.nodes,
        "{} nodes",
        r.stats.nodes
    );
    let mut full = Searcher::new(TicTacToeEval, SearchOptions::exact());
    let r2 = full.search(&pos, &SearchLimits::depth(9), |_| {});
    assert_eq!(r2.score, 0);
    assert!(
        r2.stats.nodes < r.stats.nodes,
        "{} vs {}",
        r2.stats.nodes,
        r.stats.nodes
    );
}

#[test]
fn selective_options_still_solve_tictactoe() {
    // LMR and quiescence change depth-limited values by design; searched to the end of the game
    // they must still see every forced result.
    let mut positions = vec![TicTacToe::default()];
    let mut moves = Vec::new();
    for k in 0..40u64 {
        let mut p = TicTacToe::default();
        let mut s = k;
        for _ in 0..(k % 5) {
            p.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let (next, r) = splitmix64(s);
            s = next;
            p.make(moves[(r % moves.len() as u64) as usize]);
        }
        positions.push(p);
    }
    for p in positions {
        if p.is_over() {
            continue;
        }
        let exact = minimax(&p, &TicTacToeEval, 9).score;
        let mut s = Searcher::new(TicTacToeEval, SearchOptions::all());
        let r = s.search(&p, &SearchLimits::depth(9), |_| {});
        assert_eq!(r.score, exact, "position {p:?}");
    }
}

#[test]
fn nim_values_follow_the_nim_sum_rule() {
    let mut s = Searcher::new(NimEval, SearchOptions::exact());
    for a in 0..=3u8 {
        for b in 0..=4u8 {
            for c in 0..=5u8 {
                let pos = Nim::new(&[a, b, c]);
                if pos.is_over() {
                    continue;
                }
                let total = u32::from(a) + u32::from(b) + u32::from(c);
                let r = s.search(&pos, &SearchLimits::depth(total), |_| {});
                let wins = r.score >= MATE_BOUND;
                assert_eq!(
                    wins,
                    pos.nim_sum() != 0,
                    "heaps {a} {b} {c}: score {}",
                    r.score
                );
                if wins {
                    let mv = r.best_move.expect("a move");
                    assert_eq!(pos.after(mv).nim_sum(), 0, "heaps {a} {b} {c}: {mv:?}");
                }
            }
        }
    }
}

#[test]
fn transposition_table_saves_nodes_on_a_game_with_transpositions() {
    let pos = Nim::new(&[3, 4, 5]);
    let run = |tt| {
        let opts = SearchOptions {
            tt,
            ..SearchOptions::exact()
        };
        let mut s = Searcher::new(NimEval, opts);
        s.search(&pos, &SearchLimits::depth(12), |_| {})
    };
    let with = run(true);
    let without = run(false);
    assert_eq!(with.score >= MATE_BOUND, without.score >= MATE_BOUND);
    assert!(with.stats.tt_hits > 0);
    assert!(with.stats.nodes < without.stats.nodes);
}

#[test]
fn limits_stop_the_search_and_still_give_a_move() {
    let pos = Nim::new(&[7, 9, 11, 13]);
    let mut s = Searcher::new(NimEval, SearchOptions::exact());
    let r = s.search(&pos, &SearchLimits::nodes(5_000), |_| {});
    assert!(r.best_move.is_some());
    assert!(r.stats.nodes < 50_000, "{} nodes", r.stats.nodes);

    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let limits = SearchLimits {
        stop: Some(stop),
        ..Default::default()
    };
    let r = s.search(&pos, &limits, |_| {});
    assert!(r.best_move.is_some());
}

#[test]
fn iterative_deepening_reports_every_depth() {
    let pos = TicTacToe::default();
    let mut s = Searcher::new(TicTacToeEval, SearchOptions::all());
    let mut depths = Vec::new();
    let r = s.search(&pos, &SearchLimits::depth(6), |info| {
        assert!(!info.pv.is_empty());
        depths.push(info.depth);
    });
    assert_eq!(depths, vec![1, 2, 3, 4, 5, 6]);
    assert_eq!(r.stats.depth, 6);
}

#[test]
fn lazy_smp_agrees_with_one_thread() {
    let pos = TicTacToe::default();
    let one = Searcher::new(TicTacToeEval, SearchOptions::exact()).search(
        &pos,
        &SearchLimits::depth(9),
        |_| {},
    );
    let opts = SearchOptions {
        threads: 2,
        ..SearchOptions::exact()
    };
    let two = Searcher::new(TicTacToeEval, opts).search(&pos, &SearchLimits::depth(9), |_| {});
    assert_eq!(one.score, two.score);
    assert!(two.best_move.is_some());
}
