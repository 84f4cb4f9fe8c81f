//! The searches' node counts at a fixed depth from seeded positions, pinned: a change to the move
//! generator that changed the moves or their order would change them. The counts were measured
//! with the breadth-first generator this crate had before its tables (commit e921cb2).

use qiyi_chinese_checkers::engine::alpha_beta_options;
use qiyi_chinese_checkers::eval::{DistanceEval, MultiDistanceEval};
use qiyi_chinese_checkers::{Options, Position};
use qiyi_core::search::nplayer::paranoid_limited;
use qiyi_core::search::{SearchLimits, Searcher};
use qiyi_core::{Game, Rng};

/// The position after `plies` seeded random moves from the start of a `players`-player game.
fn random_position(players: usize, plies: usize, seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    let mut pos = Position::start(Options::players(players).expect("valid")).expect("valid");
    let mut moves = Vec::new();
    for _ in 0..plies {
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        pos.make(moves[rng.below(moves.len())]);
    }
    pos
}

#[test]
fn alpha_beta_node_counts_at_depth_5_are_unchanged() {
    // The options of the alpha-beta player, searched to a fixed depth.
    let options = alpha_beta_options();
    let mut nodes = Vec::new();
    for (plies, seed) in [(0, 1), (30, 2), (80, 3)] {
        let pos = random_position(2, plies, seed);
        let mut searcher = Searcher::new(DistanceEval, options.clone());
        let r = searcher.search(&pos, &SearchLimits::depth(5), |_| {});
        nodes.push(r.stats.nodes);
    }
    assert_eq!(nodes, [2193, 10278, 18379]);
}

#[test]
fn paranoid_node_counts_at_depth_3_are_unchanged() {
    let mut nodes = Vec::new();
    for (players, plies, seed) in [(3, 30, 4), (6, 60, 5)] {
        let pos = random_position(players, plies, seed);
        let r = paranoid_limited(
            &pos,
            &MultiDistanceEval { others: 2.0 },
            &SearchLimits::depth(3),
        );
        nodes.push(r.stats.nodes);
    }
    assert_eq!(nodes, [29010, 8406]);
}
