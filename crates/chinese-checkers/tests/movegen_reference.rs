//! The table-driven move generator against the plain breadth-first one it replaced (kept here
//! as the reference), on many random boards and on positions from random games.

use proptest::prelude::*;
use qiyi_chinese_checkers::board::{bit, geometry, Bits, Cell, CELLS, NONE};
use qiyi_chinese_checkers::movegen::{self, ALL};
use qiyi_chinese_checkers::solitaire::Board;
use qiyi_chinese_checkers::{Move, Options, Position};
use qiyi_core::{Game, Rng};

/// The generator as it was before the tables: neighbour lookups and a breadth-first queue.
mod reference {
    use super::*;

    /// The empty holes next to `from`.
    pub fn step_targets(occ: u128, from: Cell) -> u128 {
        let g = geometry();
        let mut out = 0u128;
        for &n in &g.neighbours[from as usize] {
            if n != NONE && occ & bit(n) == 0 {
                out |= bit(n);
            }
        }
        out
    }

    /// Every hole a hop chain from `from` can end in, landing only on `allowed`.
    pub fn hop_targets_within(occ: u128, from: Cell, allowed: u128) -> u128 {
        let g = geometry();
        let occ = occ & !bit(from);
        let mut visited = bit(from);
        let mut queue = [0u8; CELLS];
        queue[0] = from;
        let (mut head, mut tail) = (0usize, 1usize);
        while head < tail {
            let c = queue[head] as usize;
            head += 1;
            for d in 0..6 {
                let land = g.jumps[c][d];
                if land == NONE {
                    continue;
                }
                let lb = bit(land);
                if occ & bit(g.neighbours[c][d]) != 0 && (occ | visited | !allowed) & lb == 0 {
                    visited |= lb;
                    queue[tail] = land;
                    tail += 1;
                }
            }
        }
        visited & !bit(from)
    }

    /// The moves of `player` in `pos`, in the order `Position::moves_of` promises: by starting
    /// hole, then by destination hole.
    pub fn moves_of(pos: &Position, player: usize) -> Vec<Move> {
        let occ = pos.occupied();
        let goal = pos.goal(player);
        let mut out = Vec::new();
        for from in Bits(pos.pieces(player)) {
            let mut dests = step_targets(occ, from) | hop_targets_within(occ, from, ALL);
            if pos.options().goal_lock && goal & bit(from) != 0 {
                dests &= goal;
            }
            out.extend(Bits(dests).map(|to| Move { from, to }));
        }
        out
    }
}

/// A board whose holes are each occupied with probability `density_percent`%, from `seed`.
fn random_occupancy(seed: u64, density_percent: usize) -> u128 {
    let mut rng = Rng::new(seed);
    (0..CELLS as u8)
        .filter(|_| rng.below(100) < density_percent)
        .fold(0, |acc, c| acc | bit(c))
}

/// Compares every generator entry point with the reference for every occupied hole of `occ`.
fn check_board(occ: u128, allowed: u128) -> Result<(), TestCaseError> {
    for from in Bits(occ) {
        let steps = reference::step_targets(occ, from);
        let hops = reference::hop_targets_within(occ, from, ALL);
        prop_assert_eq!(
            movegen::step_targets(occ, from),
            steps,
            "steps from {}",
            from
        );
        prop_assert_eq!(movegen::hop_targets(occ, from), hops, "hops from {}", from);
        prop_assert_eq!(
            movegen::targets(occ, from),
            steps | hops,
            "targets from {}",
            from
        );
        prop_assert_eq!(
            movegen::hop_targets_within(occ, from, allowed),
            reference::hop_targets_within(occ, from, allowed),
            "hops from {} within {:#x}",
            from,
            allowed
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// Random boards from nearly empty to nearly full, on the whole star, the 81-hole diamond
    /// and a random subset of holes.
    #[test]
    fn targets_match_the_reference_on_random_boards(
        seed in any::<u64>(),
        density in 1usize..95,
        allowed_seed in any::<u64>(),
    ) {
        let occ = random_occupancy(seed, density);
        check_board(occ, ALL)?;
        check_board(occ & Board::Diamond.mask(), Board::Diamond.mask())?;
        // A random board shape: the chains may land only on its holes.
        let allowed = random_occupancy(allowed_seed, 70);
        check_board(occ, allowed)?;
    }

}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Positions from random games of 2, 3, 4 and 6 players, with and without the goal lock
    /// (late positions, where pieces stand in their goals, are where the lock matters).
    #[test]
    fn moves_of_matches_the_reference_in_random_games(
        seed in any::<u64>(),
        players_index in 0usize..4,
        goal_lock in any::<bool>(),
        pieces15 in any::<bool>(),
        plies in 0usize..600,
    ) {
        let players = [2, 3, 4, 6][players_index];
        let opts = Options {
            goal_lock,
            pieces: if pieces15 && players == 2 { 15 } else { 10 },
            max_moves: 0,
            ..Options::players(players).expect("valid")
        };
        let mut pos = Position::start(opts).expect("valid");
        let mut rng = Rng::new(seed);
        let mut moves = Vec::new();
        for _ in 0..plies {
            if pos.is_over() {
                break;
            }
            for p in 0..players {
                pos.moves_of(p, &mut moves);
                prop_assert_eq!(&moves, &reference::moves_of(&pos, p));
            }
            pos.legal_moves(&mut moves);
            // Three moves in four gain the most distance toward the goal tip, so games reach
            // the goals where the lock applies; the others are uniformly random.
            let tip = pos.goal_tip(pos.to_move()) as usize;
            let gain = |m: &Move| {
                let d = &geometry().dist[tip];
                if m.is_pass() {
                    0
                } else {
                    d[m.from as usize] as i32 - d[m.to as usize] as i32
                }
            };
            let mv = match moves.iter().max_by_key(|m| gain(m)) {
                Some(&best) if rng.below(4) > 0 => best,
                _ => moves[rng.below(moves.len())],
            };
            pos.make(mv);
        }
    }
}
