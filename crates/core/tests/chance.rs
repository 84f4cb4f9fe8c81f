//! Searches over chance and random playouts: expectimax and Star1 on Pig against recursions
//! written here from the rules and against the optimal Pig policy by value iteration (whose
//! first-player win rate, 53.06% to 100 points, is published by Neller & Presser 2004); flat Monte
//! Carlo is identical on 1 and 2 threads; MCTS finds the winning moves of Nim and the race.

use qiyi_core::eval::{MultiEvaluator, RandomPolicy};
use qiyi_core::game::{Game, Turn};
use qiyi_core::rng::Rng;
use qiyi_core::search::expectimax::{expectimax, expectimax_limited, expectiminimax, star1};
use qiyi_core::search::mcts::{
    mcts, mcts_with_cutoff, mcts_with_prior, ChanceMode, MctsOptions, NoPrior, Prior,
};
use qiyi_core::search::montecarlo::{flat_monte_carlo, FlatOptions};
use qiyi_core::search::SearchLimits;
use qiyi_core::toys::nim::Nim;
use qiyi_core::toys::pig::{Pig, PigEval, PigMove};
use qiyi_core::toys::race::{Race, RaceEval, RaceMove};
use std::sync::Arc;

/// A Pig position as plain numbers: (target, scores, turn total, player, rolling).
#[derive(Clone, Copy, Debug)]
struct P {
    target: u8,
    s: [u8; 2],
    k: u8,
    me: usize,
    rolling: bool,
}

impl P {
    fn of(pig: &Pig) -> P {
        P {
            target: pig.target(),
            s: pig.scores(),
            k: pig.turn_total(),
            me: pig.to_move(),
            rolling: pig.rolling(),
        }
    }

    fn pig(&self) -> Pig {
        Pig::from_parts(self.target, self.s, self.k, self.me as u8, self.rolling).unwrap()
    }

    fn over(&self) -> Option<usize> {
        (0..2).find(|&p| self.s[p] >= self.target)
    }

    /// The children by the rules: (probability or 1, child).
    fn children(&self) -> Vec<(f64, P)> {
        let mut out = Vec::new();
        if self.rolling {
            for face in 1..=6u8 {
                let mut c = P {
                    rolling: false,
                    ..*self
                };
                if face == 1 {
                    c.k = 0;
                    c.me ^= 1;
                } else if self.s[self.me] + self.k + face >= self.target {
                    c.s[self.me] += self.k + face;
                    c.k = 0;
                    c.me ^= 1;
                } else {
                    c.k += face;
                }
                out.push((1.0 / 6.0, c));
            }
        } else {
            out.push((
                1.0,
                P {
                    rolling: true,
                    ..*self
                },
            ));
            if self.k > 0 {
                let mut c = *self;
                c.s[self.me] += self.k;
                c.k = 0;
                c.me ^= 1;
                out.push((1.0, c));
            }
        }
        out
    }

    /// Depth-limited expectimax value for player 0 with the PigEval heuristic at the leaves.
    fn value0(&self, depth: u32) -> f64 {
        if let Some(w) = self.over() {
            return if w == 0 { 1.0 } else { -1.0 };
        }
        if depth == 0 {
            let mut out = [0.0; 2];
            MultiEvaluator::evaluate(&PigEval, &self.pig(), &mut out);
            return out[0];
        }
        let kids = self.children();
        if self.rolling {
            kids.iter().map(|&(p, c)| p * c.value0(depth - 1)).sum()
        } else {
            let sign = if self.me == 0 { 1.0 } else { -1.0 };
            kids.iter()
                .map(|&(_, c)| c.value0(depth - 1))
                .max_by(|a, b| (sign * a).total_cmp(&(sign * b)))
                .unwrap()
        }
    }
}

fn random_pigs(target: u8, count: usize, seed: u64) -> Vec<Pig> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let s0 = rng.below(target as usize) as u8;
        let s1 = rng.below(target as usize) as u8;
        let me = rng.below(2) as u8;
        let room = target - [s0, s1][me as usize];
        let k = rng.below(room.min(25) as usize) as u8;
        let rolling = rng.below(3) == 0;
        if let Ok(p) = Pig::from_parts(target, [s0, s1], k, me, rolling) {
            out.push(p);
        }
    }
    out
}

#[test]
fn expectimax_matches_a_recursion_over_the_rules() {
    for pig in random_pigs(20, 40, 1) {
        for depth in [0, 1, 2, 3, 5, 7] {
            let r = expectimax(&pig, &PigEval, depth);
            let expected = P::of(&pig).value0(depth);
            assert!(
                (r.values[0] - expected).abs() < 1e-12,
                "{pig:?} depth {depth}"
            );
            assert!(
                (r.values[1] + expected).abs() < 1e-12,
                "{pig:?} depth {depth}"
            );
        }
    }
}

#[test]
fn star1_returns_the_expectiminimax_value_with_fewer_nodes() {
    let (mut plain_nodes, mut star_nodes) = (0, 0);
    for target in [20u8, 60] {
        for pig in random_pigs(target, 30, target as u64) {
            for depth in 1..=8 {
                let plain = expectiminimax(&pig, &PigEval, depth);
                let star = star1(&pig, &PigEval, depth, PigEval::BOUND as f64);
                assert!(
                    (plain.value - star.value).abs() < 1e-7,
                    "{pig:?} depth {depth}: {} vs {}",
                    plain.value,
                    star.value
                );
                assert!(star.stats.nodes <= plain.stats.nodes);
                plain_nodes += plain.stats.nodes;
                star_nodes += star.stats.nodes;
                // The two-player value is the multi-player one, on a 1000x scale (up to rounding
                // of the evaluator to whole centi-units).
                let multi = expectimax(&pig, &PigEval, depth);
                assert!((plain.value / 1000.0 - multi.value).abs() < 1e-3);
            }
        }
    }
    assert!(
        star_nodes < plain_nodes,
        "star1 {star_nodes} vs plain {plain_nodes}"
    );
}

/// Optimal win probabilities of Pig to `goal`, by value iteration to convergence (Neller &
/// Presser's formulation, holding only after a roll), indexed by (own score, other score, turn
/// total) of the player about to decide.
struct Solved {
    goal: usize,
    p: Vec<f64>,
}

impl Solved {
    fn new(goal: usize) -> Self {
        let mut s = Solved {
            goal,
            p: vec![0.5; goal * goal * goal],
        };
        for _sweep in 0..10_000 {
            let mut delta = 0.0f64;
            for i in (0..goal).rev() {
                for j in (0..goal).rev() {
                    for k in (0..goal - i).rev() {
                        let roll = s.roll(i, j, k);
                        let v = if k > 0 {
                            roll.max(1.0 - s.at(j, i + k, 0))
                        } else {
                            roll
                        };
                        let slot = s.idx(i, j, k);
                        delta = delta.max((v - s.p[slot]).abs());
                        s.p[slot] = v;
                    }
                }
            }
            if delta < 1e-13 {
                return s;
            }
        }
        panic!("value iteration did not converge");
    }

    fn idx(&self, i: usize, j: usize, k: usize) -> usize {
        (i * self.goal + j) * self.goal + k
    }

    fn at(&self, i: usize, j: usize, k: usize) -> f64 {
        self.p[self.idx(i, j, k)]
    }

    /// Win probability of rolling (the value of the chance node).
    fn roll(&self, i: usize, j: usize, k: usize) -> f64 {
        let mut v = (1.0 - self.at(j, i, 0)) / 6.0;
        for face in 2..=6 {
            v += if i + k + face >= self.goal {
                1.0
            } else {
                self.at(i, j, k + face)
            } / 6.0;
        }
        v
    }

    /// Win probability of the player to move in `pos` (decision or chance node).
    fn win(&self, pos: &Pig) -> f64 {
        if pos.is_over() {
            return if pos.returns(pos.to_move()) > 0.0 {
                1.0
            } else {
                0.0
            };
        }
        let me = pos.to_move();
        let s = pos.scores();
        let (i, j, k) = (
            s[me] as usize,
            s[me ^ 1] as usize,
            pos.turn_total() as usize,
        );
        if pos.rolling() {
            self.roll(i, j, k)
        } else {
            self.at(i, j, k)
        }
    }
}

/// The optimal values as a leaf evaluator: 2P - 1 for the player to move.
#[derive(Clone)]
struct Optimal(Arc<Solved>);

impl MultiEvaluator<Pig> for Optimal {
    fn evaluate(&self, pos: &Pig, out: &mut [f64]) {
        let me = pos.to_move();
        let w = self.0.win(pos);
        out[me] = 2.0 * w - 1.0;
        out[me ^ 1] = 1.0 - 2.0 * w;
    }
}

#[test]
fn pig_rules_agree_with_the_published_optimal_win_rate() {
    let table = Arc::new(Solved::new(100));
    let first = table.at(0, 0, 0);
    assert!(
        (first - 0.5306).abs() < 5e-5,
        "P(first player wins) = {first}"
    );
    // The optimal values are a fixed point of expectimax over the Pig rules: searching any depth
    // with them at the leaves gives them back, so the rules match the recursion's.
    let eval = Optimal(table);
    for pig in random_pigs(100, 60, 9) {
        let mut leaf = [0.0; 2];
        eval.evaluate(&pig, &mut leaf);
        for depth in [1, 2, 4, 6] {
            let r = expectimax(&pig, &eval, depth);
            assert!(
                (r.values[0] - leaf[0]).abs() < 1e-9,
                "{pig:?} depth {depth}"
            );
        }
    }
}

#[test]
fn flat_monte_carlo_is_the_same_on_one_and_two_threads() {
    let pools: Vec<rayon::ThreadPool> = [1, 2]
        .iter()
        .map(|&n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .unwrap()
        })
        .collect();
    let pig = Pig::from_parts(30, [12, 20], 6, 0, false).unwrap();
    let race = Race::with_counter(3, 20, 3, 4, 1).unwrap();
    let opts = FlatOptions {
        playouts: 500,
        seed: 42,
        ..Default::default()
    };
    let a = pools[0].install(|| flat_monte_carlo(&pig, &RandomPolicy, &opts));
    let b = pools[1].install(|| flat_monte_carlo(&pig, &RandomPolicy, &opts));
    assert_eq!(a.moves, b.moves);
    assert_eq!(a.best_move, b.best_move);
    assert_eq!(a.playouts, 1000);
    let c = pools[0].install(|| flat_monte_carlo(&race, &RandomPolicy, &opts));
    let d = pools[1].install(|| flat_monte_carlo(&race, &RandomPolicy, &opts));
    assert_eq!(c.moves, d.moves);
    assert_eq!(c.plies, d.plies);
    // Another seed gives other estimates.
    let e = flat_monte_carlo(
        &pig,
        &RandomPolicy,
        &FlatOptions {
            seed: 43,
            ..opts.clone()
        },
    );
    assert_ne!(a.moves, e.moves);
}

#[test]
fn flat_monte_carlo_takes_an_immediate_win() {
    let race = Race::with_counter(3, 20, 3, 18, 2).unwrap();
    let r = flat_monte_carlo(&race, &RandomPolicy, &FlatOptions::default());
    assert_eq!(r.best_move, Some(RaceMove(2)));
    assert_eq!(r.moves[1].mean, 1.0);
}

#[test]
fn mcts_finds_the_winning_nim_moves() {
    // Bigger heaps ([1, 2, 4, 7, 3]) defeat UCT with random playouts at this budget: Nim is a
    // known hard case (one winning move among many, losing lines that look good at random).
    for heaps in [[3u8, 4, 5].as_slice(), &[1, 2, 4], &[2, 3, 6]] {
        let pos = Nim::new(heaps);
        assert_ne!(pos.nim_sum(), 0);
        for threads in [1, 2] {
            let opts = MctsOptions {
                threads,
                seed: 7,
                ..Default::default()
            };
            let r = mcts(&pos, &RandomPolicy, &opts, &SearchLimits::nodes(40_000));
            let mv = r.best_move.expect("a move");
            let after = pos.after(mv);
            assert_eq!(
                after.nim_sum(),
                0,
                "{heaps:?} ({threads} threads): {mv:?} does not win"
            );
            assert_eq!(r.playouts, 40_000);
            assert_eq!(r.visits.iter().map(|v| v.visits).sum::<u64>(), 40_000);
            assert!((-1.0..=1.0).contains(&r.value));
        }
    }
}

#[test]
fn mcts_is_deterministic_for_a_seed_and_thread_count() {
    let pos = Race::with_counter(3, 30, 4, 3, 0).unwrap();
    for threads in [1, 2, 3] {
        let opts = MctsOptions {
            threads,
            seed: 99,
            ..Default::default()
        };
        let a = mcts(&pos, &RandomPolicy, &opts, &SearchLimits::nodes(5_000));
        let b = mcts(&pos, &RandomPolicy, &opts, &SearchLimits::nodes(5_000));
        assert_eq!(a.visits, b.visits);
        assert_eq!(a.nodes, b.nodes);
        assert_eq!(a.playouts, 5_000);
    }
}

#[test]
fn mcts_wins_the_two_player_race() {
    for (target, step, counter) in [(9u8, 3u8, 0u8), (13, 3, 0), (12, 2, 1)] {
        let pos = Race::with_counter(2, target, step, counter, 0).unwrap();
        let left = target - counter;
        let good = left % (step + 1);
        assert_ne!(good, 0);
        let r = mcts(
            &pos,
            &RandomPolicy,
            &MctsOptions::default(),
            &SearchLimits::nodes(30_000),
        );
        assert_eq!(
            r.best_move,
            Some(RaceMove(good)),
            "target {target} step {step} from {counter}"
        );
    }
}

/// A prior that likes the move the two-player theory recommends.
struct TheoryPrior;

impl Prior<Race> for TheoryPrior {
    fn priors(&self, pos: &Race, moves: &[RaceMove], out: &mut Vec<f64>) {
        out.clear();
        let left = pos.target() as u16 - pos.counter();
        let good = (left % (pos.max_step() as u16 + 1)) as u8;
        out.extend(moves.iter().map(|m| if m.0 == good { 4.0 } else { 1.0 }));
    }
}

#[test]
fn puct_with_a_good_prior_wins_with_a_small_budget() {
    // Plain UCT with random playouts needs ~200 000 playouts here (measured: it still picks a
    // losing move at 20 000); the prior makes 20 000 enough.
    let pos = Race::with_counter(2, 21, 3, 0, 0).unwrap();
    let opts = MctsOptions::default();
    let limits = SearchLimits::nodes(20_000);
    let plain = mcts(&pos, &RandomPolicy, &opts, &limits);
    let guided = mcts_with_prior(&pos, &RandomPolicy, &TheoryPrior, &opts, &limits);
    assert_eq!(guided.best_move, Some(RaceMove(1))); // 21 % 4 = 1
    let share = |r: &qiyi_core::search::mcts::MctsResult<RaceMove>| {
        r.visits[0].visits as f64 / r.playouts as f64
    };
    assert!(share(&guided) > share(&plain));
}

#[test]
fn mcts_rolls_through_chance_nodes() {
    // 10 + 9 = 19 of 20 against an opponent on 19: rolling wins 5 times in 6; holding hands the
    // opponent the same chance.
    let pig = Pig::from_parts(20, [10, 19], 9, 0, false).unwrap();
    let r = mcts(
        &pig,
        &RandomPolicy,
        &MctsOptions::default(),
        &SearchLimits::nodes(20_000),
    );
    assert_eq!(r.best_move, Some(PigMove::Roll));
    let roll = &r.visits[0];
    assert!(roll.mean > 0.6, "mean of rolling {}", roll.mean);
    // At the chance node itself there is no move to choose, only outcomes to sample.
    let rolling = pig.after(PigMove::Roll);
    assert_eq!(rolling.turn(), Turn::Chance);
    let r = mcts(
        &rolling,
        &RandomPolicy,
        &MctsOptions::default(),
        &SearchLimits::nodes(6_000),
    );
    assert_eq!(r.best_move, None);
    assert_eq!(r.visits.len(), 6);
    for v in &r.visits {
        assert!(
            (700..1300).contains(&v.visits),
            "outcome {:?} visited {}",
            v.mv,
            v.visits
        );
    }
}

#[test]
fn a_finished_game_has_no_move() {
    let over = Race::with_counter(2, 5, 3, 4, 0)
        .unwrap()
        .after(RaceMove(1));
    assert!(over.is_over());
    let r = mcts(
        &over,
        &RandomPolicy,
        &MctsOptions::default(),
        &SearchLimits::nodes(100),
    );
    assert_eq!(r.best_move, None);
    assert_eq!(r.playouts, 0);
    let f = flat_monte_carlo(&over, &RandomPolicy, &FlatOptions::default());
    assert_eq!(f.best_move, None);
}

#[test]
fn expectation_mode_tracks_the_probabilities_exactly() {
    let pig = Pig::from_parts(20, [10, 19], 9, 0, false).unwrap();
    let opts = MctsOptions {
        chance: ChanceMode::Expectation,
        ..Default::default()
    };
    let r = mcts(&pig, &RandomPolicy, &opts, &SearchLimits::nodes(20_000));
    assert_eq!(r.best_move, Some(PigMove::Roll));
    let rolling = pig.after(PigMove::Roll);
    let r = mcts(&rolling, &RandomPolicy, &opts, &SearchLimits::nodes(6_000));
    for v in &r.visits {
        assert_eq!(v.visits, 1_000, "outcome {:?}", v.mv);
    }
    // Faces 2-6 win at once for the roller (player 0); a 1 hands the turn to player 1.
    for v in &r.visits[1..] {
        assert_eq!(v.mean, 1.0, "outcome {:?}", v.mv);
    }
    assert!(r.visits[0].mean < 0.0);
}

#[test]
fn mcts_plays_pig_close_to_the_optimum() {
    // Every decision of a game to 20 along seeded random games: the move MCTS chooses (both chance
    // modes) loses little win probability against the optimal move, by value iteration.
    let solved = Solved::new(20);
    let mut rng = Rng::new(5);
    let mut worst = [0.0f64; 2];
    let mut decisions = 0;
    for _game in 0..4 {
        let mut pig = Pig::new(20).unwrap();
        let mut moves = Vec::new();
        while !pig.is_over() {
            pig.legal_moves(&mut moves);
            if pig.turn() != Turn::Chance && moves.len() == 2 {
                let value = |mv| {
                    let next = pig.after(mv);
                    if next.to_move() == pig.to_move() && !next.is_over() {
                        solved.win(&next)
                    } else {
                        1.0 - solved.win(&next)
                    }
                };
                let best = value(PigMove::Roll).max(value(PigMove::Hold));
                for (m, mode) in [ChanceMode::Sample, ChanceMode::Expectation]
                    .iter()
                    .enumerate()
                {
                    let opts = MctsOptions {
                        chance: *mode,
                        seed: decisions,
                        ..Default::default()
                    };
                    let r = mcts(&pig, &RandomPolicy, &opts, &SearchLimits::nodes(4_000));
                    worst[m] = worst[m].max(best - value(r.best_move.unwrap()));
                }
                decisions += 1;
            }
            let mv = moves[rng.below(moves.len())];
            pig.make(mv);
        }
    }
    assert!(decisions > 10);
    eprintln!(
        "worst loss over {decisions} decisions: sample {:.4}, expectation {:.4}",
        worst[0], worst[1]
    );
    for (m, loss) in worst.iter().enumerate() {
        assert!(
            *loss < 0.05,
            "mode {m}: worst loss of win probability {loss} over {decisions}"
        );
    }
}

#[test]
fn expectimax_deepens_within_a_time_budget() {
    let pig = Pig::from_parts(100, [40, 55], 12, 0, false).unwrap();
    let limits = SearchLimits::move_time(std::time::Duration::from_millis(100));
    let r = expectimax_limited(&pig, &PigEval, &limits);
    assert!(r.best_move.is_some());
    assert!(r.stats.depth >= 1);
    let fixed = expectimax(&pig, &PigEval, r.stats.depth);
    assert_eq!(r.values, fixed.values);
    assert_eq!(r.best_move, fixed.best_move);
}

#[test]
fn a_cutoff_evaluator_replaces_long_playouts() {
    // 59 to go with steps of 1-3: the winning move is 3 (59 % 4). Playouts cut at once: as draws
    // they carry no information; scored by the race heuristic they are enough.
    let pos = Race::with_counter(2, 60, 3, 1, 0).unwrap();
    let opts = MctsOptions {
        max_playout_plies: 0,
        ..Default::default()
    };
    let limits = SearchLimits::nodes(5_000);
    let r = mcts_with_cutoff(&pos, &RandomPolicy, &NoPrior, &RaceEval, &opts, &limits);
    assert_eq!(r.best_move, Some(RaceMove(3)));
    assert!(r.value > 0.0);
    let draws = mcts(&pos, &RandomPolicy, &opts, &limits);
    assert_eq!(draws.value, 0.0);
}
