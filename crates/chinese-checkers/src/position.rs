//! The position: who stands where, whose turn it is, and the core [`Game`] implementation.

use crate::board::{bit, camp, geometry, opposite, Bits, Cell, CELLS};
use crate::movegen;
use crate::rules::{ranks, seats, Options, Status};
use qiyi_core::rng::zobrist_keys;
use qiyi_core::{Game, Turn};

/// Zobrist keys: 6 players x 121 holes, then 6 side-to-move keys.
const KEYS: [u64; 6 * CELLS + 6] = zobrist_keys(0xC41E_5EC4_EC4E_2500);

#[inline(always)]
fn piece_key(player: usize, cell: Cell) -> u64 {
    KEYS[player * CELLS + cell as usize]
}

#[inline(always)]
fn side_key(player: usize) -> u64 {
    KEYS[6 * CELLS + player]
}

/// A move: the piece on `from` goes to `to` (by a step or a hop chain; see
/// [`Position::path`]). [`Move::PASS`] is played only by a player who has no other move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// The hole the piece leaves.
    pub from: Cell,
    /// The hole it ends on.
    pub to: Cell,
}

impl Move {
    /// The pass, legal only when a player has no other move.
    pub const PASS: Move = Move {
        from: u8::MAX,
        to: u8::MAX,
    };

    /// True for [`Move::PASS`].
    pub fn is_pass(self) -> bool {
        self == Move::PASS
    }
}

/// A Chinese-checkers position on the 121-hole star.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub(crate) opts: Options,
    /// Owner of each hole: 0 empty, `p + 1` for player `p`.
    pub(crate) owner: [u8; CELLS],
    pub(crate) pieces: [u128; 6],
    pub(crate) occ: u128,
    pub(crate) goals: [u128; 6],
    pub(crate) tips: [u8; 6],
    pub(crate) to_move: u8,
    pub(crate) ply: u32,
    pub(crate) status: Status,
    pub(crate) hash: u64,
}

impl Default for Position {
    fn default() -> Self {
        Position::start(Options::default()).expect("the default options are valid")
    }
}

impl Position {
    /// The start position of a game with these options.
    pub fn start(opts: Options) -> Result<Self, crate::error::Error> {
        opts.validate()?;
        let mut pos = Position::empty(opts);
        for (p, &point) in seats(opts.players).iter().enumerate() {
            for c in Bits(camp(point, opts.pieces)) {
                pos.put(p, c);
            }
        }
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }

    /// An empty board with these (already validated) options, player 0 to move.
    pub(crate) fn empty(opts: Options) -> Self {
        let g = geometry();
        let mut goals = [0u128; 6];
        let mut tips = [0u8; 6];
        for (p, &point) in seats(opts.players).iter().enumerate() {
            goals[p] = camp(opposite(point), opts.pieces);
            tips[p] = g.tips[opposite(point)];
        }
        Position {
            opts,
            owner: [0; CELLS],
            pieces: [0; 6],
            occ: 0,
            goals,
            tips,
            to_move: 0,
            ply: 0,
            status: Status::Ongoing,
            hash: 0,
        }
    }

    pub(crate) fn put(&mut self, player: usize, cell: Cell) {
        self.owner[cell as usize] = player as u8 + 1;
        self.pieces[player] |= bit(cell);
        self.occ |= bit(cell);
    }

    /// The options of the game.
    pub fn options(&self) -> &Options {
        &self.opts
    }

    /// The player on `cell`, if any.
    pub fn owner(&self, cell: Cell) -> Option<usize> {
        match self.owner.get(cell as usize) {
            Some(&o) if o > 0 => Some(o as usize - 1),
            _ => None,
        }
    }

    /// The holes of `player`'s pieces (bitboard, bit `i` = hole `i`).
    pub fn pieces(&self, player: usize) -> u128 {
        self.pieces[player]
    }

    /// Every occupied hole (bitboard).
    pub fn occupied(&self) -> u128 {
        self.occ
    }

    /// The goal holes of `player` (bitboard).
    pub fn goal(&self, player: usize) -> u128 {
        self.goals[player]
    }

    /// The hole at the far end of `player`'s goal.
    pub fn goal_tip(&self, player: usize) -> Cell {
        self.tips[player]
    }

    /// The start point (0-5, see [`crate::board`]) of `player`.
    pub fn seat(&self, player: usize) -> usize {
        seats(self.opts.players)[player]
    }

    /// Plies played so far.
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Whether the game goes on, was won, or was stopped by the cap.
    pub fn status(&self) -> Status {
        self.status
    }

    /// The winner, if the game was won.
    pub fn winner(&self) -> Option<usize> {
        match self.status {
            Status::Won(p) => Some(p as usize),
            _ => None,
        }
    }

    /// The distance `player`'s pieces still have to go: the sum of their distances to the goal
    /// tip, minus that sum for a filled goal (0 exactly when the pieces fill the goal's nearest
    /// holes).
    pub fn remaining(&self, player: usize) -> u32 {
        let g = geometry();
        let tip = self.tips[player] as usize;
        let mut sum = 0u32;
        let mut n = 0usize;
        for c in Bits(self.pieces[player]) {
            sum += g.dist[tip][c as usize] as u32;
            n += 1;
        }
        sum.saturating_sub(MIN_SUM[n.min(MIN_SUM.len() - 1)])
    }

    /// The holes a move passes through (both ends included): the step or the shortest hop chain.
    pub fn path(&self, mv: Move) -> Vec<Cell> {
        if mv.is_pass() {
            return Vec::new();
        }
        movegen::path(self.occ, mv.from, mv.to).unwrap_or_else(|| vec![mv.from, mv.to])
    }

    /// Whether `player` has won in this position (used after every move).
    fn has_won(&self, player: usize) -> bool {
        let goal = self.goals[player];
        if self.opts.anti_spoil {
            self.occ & goal == goal && self.pieces[player] & goal != 0
        } else {
            self.pieces[player] & goal == goal
        }
    }

    /// The status implied by the board, `mover` having just moved.
    pub(crate) fn compute_status(&self, mover: usize) -> Status {
        let n = self.opts.players;
        for i in 0..n {
            let p = (mover + i) % n;
            if self.has_won(p) {
                return Status::Won(p as u8);
            }
        }
        if self.ply >= self.opts.cap_plies() {
            return Status::Capped;
        }
        Status::Ongoing
    }

    /// Writes the moves of `player` (ignoring whose turn it is) into `out`, without a pass.
    pub fn moves_of(&self, player: usize, out: &mut Vec<Move>) {
        out.clear();
        let goal = self.goals[player];
        let lock = self.opts.goal_lock;
        for from in Bits(self.pieces[player]) {
            let mut dests = movegen::targets(self.occ, from);
            if lock && goal & bit(from) != 0 {
                dests &= goal;
            }
            for to in Bits(dests) {
                out.push(Move { from, to });
            }
        }
    }

    /// The rank-based return of every player (see [`Game::returns`]).
    fn all_returns(&self) -> Vec<f64> {
        let n = self.opts.players;
        let remaining: Vec<u32> = (0..n).map(|p| self.remaining(p)).collect();
        let r = ranks(&remaining, self.winner());
        r.iter()
            .map(|&k| 1.0 - 2.0 * k / (n as f64 - 1.0))
            .collect()
    }

    /// The player's rank-based result in `[-1, 1]`: the winner (or best-ranked player) gets 1, the
    /// last gets -1, and players in between are spaced evenly; ties share the average.
    pub fn result(&self, player: usize) -> f64 {
        self.all_returns()[player]
    }
}

/// Least possible sum of distances to a goal tip for `k` pieces (holes sorted by distance:
/// one at 0, two at 1, three at 2, four at 3, five at 4).
const MIN_SUM: [u32; 16] = [0, 0, 1, 2, 4, 6, 8, 11, 14, 17, 20, 24, 28, 32, 36, 40];

impl Game for Position {
    type Move = Move;
    type Undo = Status;

    fn num_players(&self) -> usize {
        self.opts.players
    }

    fn turn(&self) -> Turn {
        match self.status {
            Status::Ongoing => Turn::Player(self.to_move as usize),
            _ => Turn::Over,
        }
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn legal_moves(&self, moves: &mut Vec<Move>) {
        moves.clear();
        if self.status != Status::Ongoing {
            return;
        }
        self.moves_of(self.to_move as usize, moves);
        if moves.is_empty() {
            moves.push(Move::PASS);
        }
    }

    fn make(&mut self, mv: Move) -> Status {
        let undo = self.status;
        let p = self.to_move as usize;
        if !mv.is_pass() {
            let (f, t) = (mv.from, mv.to);
            self.owner[f as usize] = 0;
            self.owner[t as usize] = p as u8 + 1;
            let m = bit(f) | bit(t);
            self.pieces[p] ^= m;
            self.occ ^= m;
            self.hash ^= piece_key(p, f) ^ piece_key(p, t);
        }
        let next = (p + 1) % self.opts.players;
        self.hash ^= side_key(p) ^ side_key(next);
        self.to_move = next as u8;
        self.ply += 1;
        self.status = self.compute_status(p);
        undo
    }

    fn unmake(&mut self, mv: Move, undo: Status) {
        let n = self.opts.players;
        let next = self.to_move as usize;
        let p = (next + n - 1) % n;
        if !mv.is_pass() {
            let (f, t) = (mv.from, mv.to);
            self.owner[t as usize] = 0;
            self.owner[f as usize] = p as u8 + 1;
            let m = bit(f) | bit(t);
            self.pieces[p] ^= m;
            self.occ ^= m;
            self.hash ^= piece_key(p, f) ^ piece_key(p, t);
        }
        self.hash ^= side_key(p) ^ side_key(next);
        self.to_move = p as u8;
        self.ply -= 1;
        self.status = undo;
    }

    fn returns(&self, player: usize) -> f64 {
        self.result(player)
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = side_key(self.to_move as usize);
        for p in 0..self.opts.players {
            for c in Bits(self.pieces[p]) {
                h ^= piece_key(p, c);
            }
        }
        h
    }
}
