//! The exact two-player endgame table: the win chance of the player to move in every position
//! where each player has at most a few planes still out (not in the centre).
//!
//! **The class.** Two players (seats red and blue, opposite), first-wins ending, any rules whose
//! three-sixes option ends a turn (`lose-turn` or `send-back`: a turn then has at most three
//! rolls). An [`EndgameClass`] `(a, b)` holds the positions where one player has at most `a`
//! planes out and the other at most `b` (a plane in the hangar counts as out). The class is
//! closed under play: captures and the three-sixes send-back return planes to a hangar, but no
//! player ever has more planes out at the start of a turn than at the start of its previous one
//! (a plane sent back by the third six was out when the turn began).
//!
//! **What is stored.** Only turn starts: the win chance of the player about to roll, from its own
//! side (the board is the same for both players after turning it half a round, so a position
//! and the one with the players swapped are one entry). The inside of a turn (the rolls after a
//! 6, the planes moved by sixes, the third six) is a tree of at most three rolls, expanded
//! through the real rules engine ([`Aero::play`]) whenever a value is asked for: the value of a
//! turn start is the expectation over the rolls, the maximum over the mover's choices, of the
//! values where the turn ends (a win, or one minus the opponent's turn-start value).
//!
//! **How it is solved.** The game has cycles (captures and the send-back return planes to the
//! hangar), so the values are the fixed point of that Bellman equation, found by Gauss-Seidel
//! sweeps in place (positions nearest the end first) until a sweep changes no value by more than
//! the tolerance; [`Endgame::residual`] then measures the largest Bellman residual over every
//! entry. The fixed point is unique: every policy pair ends the game with probability one.
//!
//! ```
//! use qiyi_aeroplane::endgame::{Endgame, EndgameClass};
//! use qiyi_aeroplane::Rules;
//! let table = Endgame::build(Rules::STANDARD, EndgameClass::new(1, 1).unwrap(), 1e-13).unwrap();
//! assert!(table.stats().residual < 1e-12);
//! ```

use crate::board::{CENTRE, HANGAR, PLANES, PLANE_STATES};
use crate::position::{Aero, AeroMove};
use crate::rules::{Rules, ThreeSixes};
use qiyi_core::{Game, Turn};
use std::time::Instant;
use thiserror::Error;

/// Why a table cannot be built or asked.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum EndgameError {
    /// The rules are outside the solved family.
    #[error("no endgame table for these rules: {0}")]
    Unsupported(String),
    /// The class has too many positions for memory.
    #[error("endgame class {a} vs {b} has {states} positions, more than the {limit} allowed")]
    TooLarge {
        /// Planes out of one player.
        a: usize,
        /// Planes out of the other.
        b: usize,
        /// Its positions.
        states: usize,
        /// The limit.
        limit: usize,
    },
    /// The planes-out counts are not 1..=3.
    #[error("an endgame class needs 1..=3 planes out per player, not {0} and {1}")]
    BadClass(usize, usize),
    /// The position is not in the table's class (or not a two-player game of its rules).
    #[error("position outside the endgame table: {0}")]
    NotInClass(String),
    /// The position is not a decision (no roll pending, or the game is over).
    #[error("not a decision: {0}")]
    NotADecision(String),
}

/// The most positions a table may hold (8 bytes each).
pub const MAX_STATES: usize = 64_000_000;

/// The plane states a slot can hold: progress 0..=56 and the hangar.
const N: usize = PLANE_STATES;

/// A class of endgames: one player has at most `a` planes out, the other at most `b`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EndgameClass {
    a: u8,
    b: u8,
}

impl EndgameClass {
    /// The class `a` vs `b` (each 1..=3); `(a, b)` and `(b, a)` are the same class.
    pub fn new(a: usize, b: usize) -> Result<EndgameClass, EndgameError> {
        if !(1..=3).contains(&a) || !(1..=3).contains(&b) {
            return Err(EndgameError::BadClass(a, b));
        }
        Ok(EndgameClass {
            a: a.max(b) as u8,
            b: a.min(b) as u8,
        })
    }

    /// The larger count.
    pub fn a(&self) -> usize {
        self.a as usize
    }

    /// The smaller count.
    pub fn b(&self) -> usize {
        self.b as usize
    }

    /// The smallest class holding a position whose players have `m` and `o` planes out.
    pub fn of_counts(m: usize, o: usize) -> Result<EndgameClass, EndgameError> {
        EndgameClass::new(m.max(1), o.max(1))
    }

    /// Positions stored: turn starts, from the mover's side.
    pub fn states(&self) -> usize {
        let (a, b) = (self.a as usize, self.b as usize);
        let one = multisets(a) * multisets(b);
        if a == b {
            one
        } else {
            2 * one
        }
    }
}

impl std::fmt::Display for EndgameClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}v{}", self.a, self.b)
    }
}

/// `n choose k` for the small numbers of the ranking.
const fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    let mut r = 1usize;
    let mut i = 0;
    while i < k {
        r = r * (n - i) / (i + 1);
        i += 1;
    }
    r
}

/// Multisets of `k` plane states.
fn multisets(k: usize) -> usize {
    choose(N + k - 1, k)
}

/// The rank of a sorted multiset of plane states among [`multisets`]`(k)` (combinatorial number
/// system on `s_i + i`).
fn rank(sorted: &[u8]) -> usize {
    sorted
        .iter()
        .enumerate()
        .map(|(i, &s)| choose(s as usize + i, i + 1))
        .sum()
}

/// The sorted multiset of rank `r` (the inverse of [`rank`]), into `out`.
fn unrank(mut r: usize, out: &mut [u8]) {
    for i in (0..out.len()).rev() {
        // The largest c with choose(c, i + 1) <= r.
        let mut c = i;
        while choose(c + 1, i + 1) <= r {
            c += 1;
        }
        r -= choose(c, i + 1);
        out[i] = (c - i) as u8;
    }
}

/// A player's planes as `k` slots: the planes out, sorted, padded with [`CENTRE`]; `None` when
/// more than `k` are out.
fn slots(row: [u8; PLANES], k: usize) -> Option<([u8; 3], usize)> {
    let mut s = [CENTRE; 3];
    let mut n = 0;
    for &d in &row {
        if d != CENTRE {
            if n >= k {
                return None;
            }
            s[n] = d;
            n += 1;
        }
    }
    s[..k].sort_unstable();
    Some((s, n))
}

/// Planes out (not in the centre).
fn out_count(row: [u8; PLANES]) -> usize {
    row.iter().filter(|&&d| d != CENTRE).count()
}

/// Figures of a build.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BuildStats {
    /// Positions stored.
    pub states: usize,
    /// Bytes of the values.
    pub bytes: usize,
    /// Gauss-Seidel sweeps.
    pub sweeps: usize,
    /// The largest change of the last sweep.
    pub last_change: f64,
    /// The largest Bellman residual over every entry after the build.
    pub residual: f64,
    /// Seconds to build (sweeps and the residual pass).
    pub seconds: f64,
}

/// The solved table of one [`EndgameClass`] under one set of rules (see the module docs).
#[derive(Clone, Debug)]
pub struct Endgame {
    rules: Rules,
    class: EndgameClass,
    /// `values[0]`: mover has at most `a` out, opponent at most `b`; `values[1]`: the reverse
    /// (empty when `a == b`). Index: `rank(mover) * multisets(other) + rank(other)`.
    values: [Vec<f64>; 2],
    stats: BuildStats,
}

impl Endgame {
    /// Checks that `rules` are in the solved family.
    pub fn supported(rules: Rules) -> Result<(), EndgameError> {
        if rules.three_sixes == ThreeSixes::None {
            return Err(EndgameError::Unsupported(
                "three-sixes=none lets a turn go on without end".into(),
            ));
        }
        // Two players: both endings stop at the first player home.
        Ok(())
    }

    /// Solves the class exactly: Gauss-Seidel sweeps until no value moves by more than
    /// `tolerance` (at most 10 000 sweeps), then one residual pass.
    pub fn build(
        rules: Rules,
        class: EndgameClass,
        tolerance: f64,
    ) -> Result<Endgame, EndgameError> {
        Endgame::build_with(rules, class, tolerance, |_, _| {})
    }

    /// [`Endgame::build`], reporting `(sweep, largest change)` after every sweep.
    pub fn build_with(
        rules: Rules,
        class: EndgameClass,
        tolerance: f64,
        mut progress: impl FnMut(usize, f64),
    ) -> Result<Endgame, EndgameError> {
        Endgame::supported(rules)?;
        let states = class.states();
        if states > MAX_STATES {
            return Err(EndgameError::TooLarge {
                a: class.a(),
                b: class.b(),
                states,
                limit: MAX_STATES,
            });
        }
        let started = Instant::now();
        let (a, b) = (class.a(), class.b());
        let subs = if a == b { 1 } else { 2 };
        let mut table = Endgame {
            rules,
            class,
            values: [
                vec![0.5; multisets(a) * multisets(b)],
                if subs == 2 {
                    vec![0.5; multisets(a) * multisets(b)]
                } else {
                    Vec::new()
                },
            ],
            stats: BuildStats::default(),
        };
        // The live entries (both players with a plane out), nearest the end first.
        let mut order: Vec<(i32, u8, u32)> = Vec::new();
        for sub in 0..subs {
            let (km, ko) = if sub == 0 { (a, b) } else { (b, a) };
            let no = multisets(ko);
            for i in 0..table.values[sub].len() {
                let (m, o) = (unrank_row(i / no, km), unrank_row(i % no, ko));
                if out_count(m) == 0 || out_count(o) == 0 {
                    table.values[sub][i] = 0.0;
                    continue;
                }
                let score = |r: [u8; PLANES]| -> i32 {
                    r.iter()
                        .map(|&d| if d == HANGAR { -6 } else { d as i32 })
                        .sum()
                };
                order.push((-(score(m) + score(o)), sub as u8, i as u32));
            }
        }
        order.sort_unstable();
        // Each entry is solved together with its swap (the same planes, the other player to
        // roll): a turn that changes nothing (no plane can move, or a bounce back to the same
        // square) leads from one to the other, a two-cycle that plain sweeps converge on slowly.
        let mut pairs: Vec<(u8, u32, u8, u32)> = Vec::with_capacity(order.len() / 2 + 1);
        for &(_, sub, i) in &order {
            let pos = table.position(sub as usize, i as usize);
            let Some((s2, j)) = table.entry(&pos.swapped()) else {
                continue;
            };
            if (s2 as u8, j as u32) >= (sub, i) {
                pairs.push((sub, i, s2 as u8, j as u32));
            }
        }
        drop(order);
        let mut sweeps = 0;
        let mut change = f64::INFINITY;
        while change > tolerance && sweeps < 10_000 {
            change = 0.0;
            for &(sub, i, s2, j) in &pairs {
                let (sub, i, s2, j) = (sub as usize, i as usize, s2 as usize, j as usize);
                let pos = table.position(sub, i);
                let x = table.values[s2][j];
                if (sub, i) == (s2, j) {
                    let (c, k) = table.form(&pos, Some((s2, j)), x);
                    let v = c / (1.0 - k);
                    change = change.max((v - table.values[sub][i]).abs());
                    table.values[sub][i] = v;
                    continue;
                }
                let y = table.values[sub][i];
                let (c, k) = table.form(&pos, Some((s2, j)), x);
                let (c2, k2) = table.form(&pos.swapped(), Some((sub, i)), y);
                let v = (c + k * c2) / (1.0 - k * k2);
                let w = c2 + k2 * v;
                change = change.max((v - y).abs()).max((w - x).abs());
                table.values[sub][i] = v;
                table.values[s2][j] = w;
            }
            sweeps += 1;
            progress(sweeps, change);
        }
        let order: Vec<(usize, usize)> = pairs
            .iter()
            .flat_map(|&(a, i, b, j)| [(a as usize, i as usize), (b as usize, j as usize)])
            .collect();
        let mut residual: f64 = 0.0;
        for &(sub, i) in &order {
            let pos = table.position(sub, i);
            residual = residual.max((table.turn_value(&pos) - table.values[sub][i]).abs());
        }
        table.stats = BuildStats {
            states,
            bytes: states * std::mem::size_of::<f64>(),
            sweeps,
            last_change: change,
            residual,
            seconds: started.elapsed().as_secs_f64(),
        };
        Ok(table)
    }

    /// The rules solved.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The class solved.
    pub fn class(&self) -> EndgameClass {
        self.class
    }

    /// Figures of the build.
    pub fn stats(&self) -> BuildStats {
        self.stats
    }

    /// The turn-start position of entry `i` of sub-table `sub`: red (player 0) to roll.
    fn position(&self, sub: usize, i: usize) -> Aero {
        let (a, b) = (self.class.a(), self.class.b());
        let (km, ko) = if sub == 0 { (a, b) } else { (b, a) };
        let no = multisets(ko);
        let mut planes = [[HANGAR; PLANES]; 4];
        planes[0] = unrank_row(i / no, km);
        planes[1] = unrank_row(i % no, ko);
        Aero::two_player_turn_start(self.rules, planes)
    }

    /// The entry of a turn start (`pos.to_move()` about to roll), as (sub-table, index).
    fn entry(&self, pos: &Aero) -> Option<(usize, usize)> {
        let q = pos.to_move();
        let (m, o) = (pos.planes(q), pos.planes(1 - q));
        let (a, b) = (self.class.a(), self.class.b());
        for (sub, (km, ko)) in
            [(a, b), (b, a)]
                .into_iter()
                .enumerate()
                .take(if a == b { 1 } else { 2 })
        {
            if let (Some((sm, _)), Some((so, _))) = (slots(m, km), slots(o, ko)) {
                return Some((sub, rank(&sm[..km]) * multisets(ko) + rank(&so[..ko])));
            }
        }
        None
    }

    /// Checks that `pos` is a two-player game of the table's rules inside its class.
    fn check(&self, pos: &Aero) -> Result<(), EndgameError> {
        if pos.players() != 2 || pos.rules() != self.rules {
            return Err(EndgameError::NotInClass(format!(
                "the table is for two players under {}",
                self.rules
            )));
        }
        let (m, o) = (out_count(pos.planes(0)), out_count(pos.planes(1)));
        let (a, b) = (self.class.a(), self.class.b());
        // Planes moved by a 6 this turn may still go back to the hangar: count them as out.
        let extra = (0..PLANES)
            .filter(|&i| pos.six_moved() & (1 << i) != 0 && pos.planes(pos.to_move())[i] == CENTRE)
            .count();
        let (m, o) = if pos.to_move() == 0 {
            (m + extra, o)
        } else {
            (m, o + extra)
        };
        if (m <= a && o <= b) || (m <= b && o <= a) {
            Ok(())
        } else {
            Err(EndgameError::NotInClass(format!(
                "{m} and {o} planes out, the table is {}",
                self.class
            )))
        }
    }

    /// The stored value of a turn start (the mover's win chance).
    fn lookup(&self, pos: &Aero) -> f64 {
        match self.entry(pos) {
            Some((sub, i)) => self.values[sub][i],
            // Unreachable from a position of the class (the class is closed under play).
            None => f64::NAN,
        }
    }

    /// The mover's win chance at a chance node of its turn: the mean over the six rolls.
    fn turn_value(&self, pos: &Aero) -> f64 {
        let p = pos.to_move();
        let mut sum = 0.0;
        for f in 1..=6 {
            let mut next = *pos;
            next.play(AeroMove::Roll(f));
            sum += self.after(&next, p);
        }
        sum / 6.0
    }

    /// The mover's win chance at a chance node of its turn as `c + k x`, where `x` is the
    /// stored value of the entry `target` (a leaf reaching it contributes through `k`, the others
    /// through `c`); the mover's choices are the best ones with `target` worth `x`.
    fn form(&self, pos: &Aero, target: Option<(usize, usize)>, x: f64) -> (f64, f64) {
        let p = pos.to_move();
        let (mut c, mut k) = (0.0, 0.0);
        for f in 1..=6 {
            let mut next = *pos;
            next.play(AeroMove::Roll(f));
            let (c1, k1) = self.form_after(&next, p, target, x);
            c += c1;
            k += k1;
        }
        (c / 6.0, k / 6.0)
    }

    /// [`Endgame::after`] as a linear form in the value of `target` (see [`Endgame::form`]).
    fn form_after(
        &self,
        pos: &Aero,
        p: usize,
        target: Option<(usize, usize)>,
        x: f64,
    ) -> (f64, f64) {
        match pos.turn() {
            Turn::Over => ((pos.winner() == Some(p)) as u8 as f64, 0.0),
            _ if pos.to_move() != p => match self.entry(pos) {
                Some(e) if Some(e) == target => (1.0, -1.0),
                Some((sub, i)) => (1.0 - self.values[sub][i], 0.0),
                None => (f64::NAN, 0.0),
            },
            Turn::Chance => self.form(pos, target, x),
            Turn::Player(_) => {
                let mut best = (f64::NEG_INFINITY, 0.0);
                let mut best_value = f64::NEG_INFINITY;
                for &i in pos.choices().as_slice() {
                    let mut next = *pos;
                    next.play(AeroMove::Plane(i));
                    let (c, k) = self.form_after(&next, p, target, x);
                    let v = c + k * x;
                    if v > best_value {
                        best_value = v;
                        best = (c, k);
                    }
                }
                best
            }
        }
    }

    /// Player `p`'s win chance at `pos`, a node of `p`'s turn or the first node after it.
    fn after(&self, pos: &Aero, p: usize) -> f64 {
        match pos.turn() {
            Turn::Over => (pos.winner() == Some(p)) as u8 as f64,
            _ if pos.to_move() != p => 1.0 - self.lookup(pos),
            Turn::Chance => self.turn_value(pos),
            Turn::Player(_) => pos
                .choices()
                .as_slice()
                .iter()
                .map(|&i| {
                    let mut next = *pos;
                    next.play(AeroMove::Plane(i));
                    self.after(&next, p)
                })
                .fold(0.0, f64::max),
        }
    }

    /// The win chance of `player` at any position of the class (a turn start, a chance node
    /// after a 6, a decision, or a finished game).
    pub fn win_chance(&self, pos: &Aero, player: usize) -> Result<f64, EndgameError> {
        if player >= 2 {
            return Err(EndgameError::NotInClass(format!("no player {player}")));
        }
        self.check(pos)?;
        if pos.turn() == Turn::Over {
            return Ok((pos.winner() == Some(player)) as u8 as f64);
        }
        let v = self.after_any(pos);
        Ok(if pos.to_move() == player { v } else { 1.0 - v })
    }

    /// The mover's win chance at `pos` (any node).
    fn after_any(&self, pos: &Aero) -> f64 {
        let p = pos.to_move();
        match pos.turn() {
            Turn::Over => (pos.winner() == Some(p)) as u8 as f64,
            Turn::Chance => self.turn_value(pos),
            Turn::Player(_) => self.after(pos, p),
        }
    }

    /// At a decision, every choice with the mover's exact win chance after it, best first
    /// (ties keep the engine's order).
    pub fn choice_values(&self, pos: &Aero) -> Result<Vec<(AeroMove, f64)>, EndgameError> {
        self.check(pos)?;
        let Turn::Player(p) = pos.turn() else {
            return Err(EndgameError::NotADecision(
                "no roll is waiting to be played".into(),
            ));
        };
        let mut out: Vec<(AeroMove, f64)> = pos
            .choices()
            .as_slice()
            .iter()
            .map(|&i| {
                let mut next = *pos;
                next.play(AeroMove::Plane(i));
                (AeroMove::Plane(i), self.after(&next, p))
            })
            .collect();
        out.sort_by(|x, y| y.1.total_cmp(&x.1));
        Ok(out)
    }

    /// The table's choice at a decision (the first best choice).
    pub fn best_choice(&self, pos: &Aero) -> Result<AeroMove, EndgameError> {
        self.choice_values(pos)?
            .first()
            .map(|c| c.0)
            .ok_or_else(|| EndgameError::NotADecision("no plane can move".into()))
    }

    /// The largest Bellman residual over a sample of entries (every `step`-th).
    pub fn residual(&self, step: usize) -> f64 {
        let mut worst: f64 = 0.0;
        for sub in 0..2 {
            for i in (0..self.values[sub].len()).step_by(step.max(1)) {
                let pos = self.position(sub, i);
                // Finished games, and the copies in the second sub-table of positions the first
                // one holds (never read), have no equation.
                if pos.turn() != Turn::Chance || self.entry(&pos) != Some((sub, i)) {
                    continue;
                }
                worst = worst.max((self.turn_value(&pos) - self.values[sub][i]).abs());
            }
        }
        worst
    }
}

/// A player's four planes from the rank of its `k` slots (the rest in the centre).
fn unrank_row(r: usize, k: usize) -> [u8; PLANES] {
    let mut s = [CENTRE; 3];
    unrank(r, &mut s[..k]);
    let mut row = [CENTRE; PLANES];
    row[..k].copy_from_slice(&s[..k]);
    row
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use qiyi_core::Rng;

    /// The 2-vs-1 table, built once for the tests of the crate.
    pub(crate) fn two_one() -> &'static Endgame {
        static T: std::sync::OnceLock<Endgame> = std::sync::OnceLock::new();
        T.get_or_init(|| {
            Endgame::build(Rules::STANDARD, EndgameClass::new(2, 1).unwrap(), 1e-13).unwrap()
        })
    }

    fn one_one() -> Endgame {
        Endgame::build(Rules::STANDARD, EndgameClass::new(1, 1).unwrap(), 1e-13).unwrap()
    }

    fn at(planes: [[u8; PLANES]; 2], to_move: usize) -> Aero {
        let mut rows = [[HANGAR; PLANES]; 4];
        rows[..2].copy_from_slice(&planes);
        let pos = Aero::two_player_turn_start(Rules::STANDARD, rows);
        if to_move == 0 {
            pos
        } else {
            pos.at_turn_start(to_move).unwrap()
        }
    }

    /// Every entry of the 1-vs-1 table and every 5th of the 2-vs-1 table meets its Bellman
    /// equation to 1e-12.
    #[test]
    fn the_bellman_residual_is_zero() {
        let t = one_one();
        assert!(t.stats().residual < 1e-12, "{:?}", t.stats());
        assert!(t.residual(1) < 1e-12);
        let t = two_one();
        assert!(t.stats().residual < 1e-12, "{:?}", t.stats());
        assert!(t.residual(5) < 1e-12);
    }

    /// A position and the same planes with the players swapped (the board turned half a round)
    /// have the same value for the player to move, and the two players' chances add up to 1.
    #[test]
    fn symmetric_positions_give_complementary_values() {
        let t = two_one();
        let mut rng = Rng::new(5);
        let c = CENTRE;
        for _ in 0..200 {
            let d = |rng: &mut Rng| {
                let x = rng.below(57) as u8;
                if x == 56 {
                    HANGAR
                } else {
                    x
                }
            };
            let two = [d(&mut rng), d(&mut rng), c, c];
            let one = [c, d(&mut rng), c, c];
            let p = at([two, one], 0);
            let q = at([one, two], 1);
            let v = t.win_chance(&p, 0).unwrap();
            assert!((0.0..=1.0).contains(&v));
            assert!((v - t.win_chance(&q, 1).unwrap()).abs() < 1e-12);
            assert!((v + t.win_chance(&p, 1).unwrap() - 1.0).abs() < 1e-12);
        }
        // Identical planes: the mover's chance is at least one half (it rolls first).
        let v = t
            .win_chance(&at([[30, c, c, c], [30, c, c, c]], 0), 0)
            .unwrap();
        assert!(v > 0.5, "{v}");
    }

    /// Plays `games` games with `play` (true: player 0 won) and asserts that player 0's share
    /// of wins is the table's value `v` within 4 standard errors.
    fn assert_wins_as_said(v: f64, games: u32, label: &str, mut play: impl FnMut() -> bool) {
        let wins = (0..games).filter(|_| play()).count();
        let share = wins as f64 / games as f64;
        let se = (v * (1.0 - v) / games as f64).sqrt();
        assert!(
            (share - v).abs() < 4.0 * se,
            "{label}: table {v}, games {share}"
        );
    }

    /// With one plane each there is no choice: the table's values are the win shares of random
    /// games played by the crate's fast simulation (an independent implementation of the rules,
    /// row boards and all), within 4 standard errors.
    #[test]
    fn one_plane_each_matches_simulated_games() {
        let t = one_one();
        let c = CENTRE;
        let games = 40_000;
        for (k, planes) in [
            [[HANGAR, c, c, c], [HANGAR, c, c, c]],
            [[10, c, c, c], [HANGAR, c, c, c]],
            [[HANGAR, c, c, c], [40, c, c, c]],
            [[3, c, c, c], [29, c, c, c]],
            [[54, c, c, c], [52, c, c, c]],
        ]
        .into_iter()
        .enumerate()
        {
            let pos = at(planes, 0);
            let v = t.win_chance(&pos, 0).unwrap();
            let mut rng = Rng::new(100 + k as u64);
            assert_wins_as_said(v, games, &format!("{planes:?}"), || {
                let mut g = pos;
                g.play_out_random(&mut rng);
                g.winner() == Some(0)
            });
        }
    }

    /// Games played by the 2-vs-1 table's policy on both sides through [`Aero::play`] win as
    /// often as the table says, within 4 standard errors.
    #[test]
    fn the_tables_policy_wins_as_often_as_it_says() {
        let t = two_one();
        let c = CENTRE;
        let games = 6_000;
        for (k, planes) in [
            [[HANGAR, HANGAR, c, c], [20, c, c, c]],
            [[5, 12, c, c], [HANGAR, c, c, c]],
            [[c, 30, c, 44], [35, c, c, c]],
        ]
        .into_iter()
        .enumerate()
        {
            for to_move in 0..2 {
                let pos = at(planes, to_move);
                let v = t.win_chance(&pos, 0).unwrap();
                let mut rng = Rng::new(200 + k as u64);
                assert_wins_as_said(v, games, &format!("{planes:?} {to_move}"), || {
                    let mut g = pos;
                    loop {
                        match g.turn() {
                            Turn::Over => break,
                            Turn::Chance => {
                                g.play(AeroMove::Roll(rng.below(6) as u8 + 1));
                            }
                            Turn::Player(_) => {
                                let m = t.best_choice(&g).unwrap();
                                g.play(m);
                            }
                        }
                    }
                    g.winner() == Some(0)
                });
            }
        }
    }

    /// The 1-vs-1 entries of the 2-vs-1 table are the 1-vs-1 table's.
    #[test]
    fn nested_classes_agree() {
        let small = one_one();
        let big = two_one();
        let c = CENTRE;
        for a in (0..58u8).step_by(3) {
            for b in (0..58u8).step_by(5) {
                if a == c || b == c {
                    continue;
                }
                let pos = at([[a, c, c, c], [b, c, c, c]], 0);
                let x = small.win_chance(&pos, 0).unwrap();
                let y = big.win_chance(&pos, 0).unwrap();
                assert!((x - y).abs() < 1e-11, "{a} {b}: {x} {y}");
            }
        }
    }

    /// Outside the class, other rules or player counts: errors, not panics.
    #[test]
    fn errors_not_panics() {
        let t = one_one();
        let c = CENTRE;
        assert!(t
            .win_chance(&at([[1, 2, c, c], [3, c, c, c]], 0), 0)
            .is_err());
        assert!(t
            .win_chance(&Aero::new(Rules::STANDARD, 3).unwrap(), 0)
            .is_err());
        assert!(t
            .choice_values(&at([[1, c, c, c], [3, c, c, c]], 0))
            .is_err());
        assert!(EndgameClass::new(0, 1).is_err());
        assert!(EndgameClass::new(4, 1).is_err());
        assert!(matches!(
            EndgameClass::new(3, 3).map(|c| Endgame::build(Rules::STANDARD, c, 1e-9)),
            Ok(Err(EndgameError::TooLarge { .. }))
        ));
        assert!(Endgame::build(Rules::SEED, EndgameClass::new(1, 1).unwrap(), 1e-9).is_err());
    }

    #[test]
    fn ranks_invert() {
        for k in 1..=3 {
            let mut s = [0u8; 3];
            for r in (0..multisets(k)).step_by(7) {
                unrank(r, &mut s[..k]);
                assert!(s[..k].windows(2).all(|w| w[0] <= w[1]));
                assert_eq!(rank(&s[..k]), r);
            }
        }
    }
}
