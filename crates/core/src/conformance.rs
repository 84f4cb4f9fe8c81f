//! The generic conformance suite every game calls from a few lines of its own tests.
//!
//! ```ignore
//! #[test]
//! fn conformance() {
//!     qiyi_core::conformance::check_game(&[MyGame::start()], &Config::default());
//! }
//! ```
//!
//! From each start position it plays seeded random games and, at every position on the way, checks:
//! every legal move round-trips through the move notation; the position round-trips through the
//! position notation; `make` then `unmake` restores the position and its hash; the incremental hash
//! equals the hash from scratch; `legal_moves` is empty exactly when the game is over; chance
//! outcomes are the legal moves and their probabilities sum to 1; and every playout ends within the
//! configured number of plies. Failures panic with the position and the move that broke the rule.

use crate::game::{Notation, Turn};
use crate::rng::Rng;
use std::fmt::Debug;

/// How much of the game the suite explores.
#[derive(Clone, Debug)]
pub struct Config {
    /// Random games played from each start position.
    pub playouts: usize,
    /// A playout longer than this fails the "games end" check.
    pub max_plies: usize,
    /// Seed of the random playouts.
    pub seed: u64,
    /// Check the position notation round trip (off for games whose text drops history).
    pub position_round_trip: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            playouts: 50,
            max_plies: 2_000,
            seed: 0x5EED,
            position_round_trip: true,
        }
    }
}

/// Runs every check on random games from each of `starts`. Panics on the first failure.
pub fn check_game<G>(starts: &[G], config: &Config)
where
    G: Notation + PartialEq + Debug,
{
    let mut rng = Rng::new(config.seed);
    let mut moves = Vec::new();
    let mut outcomes = Vec::new();
    for start in starts {
        for game in 0..config.playouts {
            let mut pos = start.clone();
            let mut plies = 0;
            loop {
                check_position(&pos, &mut moves, &mut outcomes, config);
                if pos.turn() == Turn::Over {
                    break;
                }
                assert!(
                    plies < config.max_plies,
                    "playout {game} from {} did not end within {} plies",
                    start.to_text(),
                    config.max_plies
                );
                let mv = if pos.turn() == Turn::Chance {
                    let i = rng.weighted(outcomes.iter().map(|&(_, p)| p));
                    outcomes[i].0
                } else {
                    moves[rng.below(moves.len())]
                };
                pos.make(mv);
                plies += 1;
            }
        }
    }
}

fn check_position<G>(
    pos: &G,
    moves: &mut Vec<G::Move>,
    outcomes: &mut Vec<(G::Move, f64)>,
    config: &Config,
) where
    G: Notation + PartialEq + Debug,
{
    let text = pos.to_text();
    assert_eq!(
        pos.hash(),
        pos.hash_from_scratch(),
        "incremental hash differs from the hash from scratch in {text}"
    );
    if config.position_round_trip {
        let parsed = G::from_text(&text).unwrap_or_else(|e| panic!("cannot re-read {text}: {e}"));
        assert_eq!(parsed.to_text(), text, "position text does not round-trip");
        assert_eq!(
            parsed.hash_from_scratch(),
            pos.hash_from_scratch(),
            "re-read position {text} hashes differently"
        );
    }
    pos.legal_moves(moves);
    let turn = pos.turn();
    assert_eq!(
        moves.is_empty(),
        turn == Turn::Over,
        "{text}: turn is {turn:?} but there are {} legal moves",
        moves.len()
    );
    if let Turn::Player(p) = turn {
        assert_eq!(p, pos.to_move(), "{text}: turn() and to_move() disagree");
        assert!(p < pos.num_players(), "{text}: player {p} out of range");
    }
    if turn == Turn::Over {
        for p in 0..pos.num_players() {
            let r = pos.returns(p);
            assert!(
                (-1.0..=1.0).contains(&r),
                "{text}: return {r} of player {p} out of [-1, 1]"
            );
        }
    }
    pos.chance_outcomes(outcomes);
    if turn == Turn::Chance {
        let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
        assert!(
            (total - 1.0).abs() < 1e-9,
            "{text}: chance probabilities sum to {total}"
        );
        let listed: Vec<G::Move> = outcomes.iter().map(|&(m, _)| m).collect();
        assert_eq!(
            &listed, moves,
            "{text}: chance outcomes differ from legal moves"
        );
    } else {
        assert!(
            outcomes.is_empty(),
            "{text}: chance outcomes at a non-chance node"
        );
    }
    let mut seen = std::collections::HashSet::new();
    for &mv in moves.iter() {
        assert!(seen.insert(mv), "{text}: move {mv:?} listed twice");
        if turn != Turn::Chance {
            let written = pos.move_to_text(mv);
            let parsed = pos
                .parse_move(&written)
                .unwrap_or_else(|e| panic!("{text}: cannot re-read move {written}: {e}"));
            assert_eq!(
                parsed, mv,
                "{text}: move {written} reads back as {parsed:?}"
            );
        }
        let mut child = pos.clone();
        let undo = child.make(mv);
        assert_eq!(
            child.hash(),
            child.hash_from_scratch(),
            "{text}: after {mv:?} the incremental hash is wrong"
        );
        child.unmake(mv, undo);
        assert_eq!(
            &child, pos,
            "{text}: make/unmake of {mv:?} does not restore the position"
        );
        assert_eq!(
            child.hash(),
            pos.hash(),
            "{text}: make/unmake of {mv:?} changes the hash"
        );
    }
}
