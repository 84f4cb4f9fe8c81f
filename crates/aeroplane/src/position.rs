//! The game state, its Zobrist key and the rules of a turn (A6-A12).
//!
//! A turn is a sequence of chance nodes (rolls) and decisions: at a chance node the player to move
//! rolls ([`AeroMove::Roll`]); if some plane can move, the player then chooses one
//! ([`AeroMove::Plane`]); with no legal move the roll is spent at once (A7). A 6 gives another
//! roll (A8). Planes that stand at the same progress are interchangeable, so only the
//! lowest-numbered of them is offered as a move.

use crate::board::{
    flat_steps, steps, zero_bytes32, Step, CENTRE, FLIGHT_CROSSES, FLIGHT_ROWS, HANGAR, HIT_ROWS,
    OCC_SLOTS, PLANES, PLANE_STATES, RING, SAME_SQUARE, SEAT, SELECT, SLOT_OF, SPREAD,
};
use crate::error::AeroError;
use crate::rules::{Ending, Rules, ThreeSixes};
use qiyi_core::rng::zobrist_keys;
use qiyi_core::{Game, Rng, Turn};

/// A move: a die outcome at a chance node, or the plane the player moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AeroMove {
    /// The die shows this face (1..=6).
    Roll(u8),
    /// Move plane `i` (0..4) of the player to move by the current roll.
    Plane(u8),
}

/// What one call of [`Aero::play`] did (for statistics).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// Enemy planes sent back to their hangars (A9, A10).
    pub captured: u8,
    /// Own planes sent back by the three-sixes rule (A8).
    pub sent_back: u8,
    /// The move started a new turn (of the same or the next player).
    pub new_turn: bool,
}

/// Up to four plane choices, without allocation.
#[derive(Clone, Copy, Debug, Default)]
pub struct Choices {
    planes: [u8; PLANES],
    len: u8,
}

impl Choices {
    /// The planes that may move (distinct progress values, lowest index of each).
    #[inline]
    pub fn as_slice(&self) -> &[u8] {
        &self.planes[..self.len as usize]
    }
    /// Number of choices.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }
    /// True when no plane can move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Whether a plane at `d` can move: on the board, or in the hangar on a take-off roll (A6, A11).
#[inline(always)]
fn movable(d: u8, takeoff: bool) -> bool {
    (d < CENTRE) | ((d == HANGAR) & takeoff)
}

/// The high bit of every byte of a row.
const HIGH_BITS: u32 = 0x8080_8080;
const CENTRES: u32 = u32::from_le_bytes([CENTRE; 4]);
const HANGARS: u32 = u32::from_le_bytes([HANGAR; 4]);

/// The high bit of each byte of `row` (four planes) that can move: on the board (below
/// [`CENTRE`]), or in the hangar when `takeoff` is [`HIGH_BITS`] (a take-off roll) rather than 0.
/// [`movable`] for four planes at once, without a branch.
#[inline(always)]
fn movable_bytes(row: u32, takeoff: u32) -> u32 {
    // (d | 0x80) - 0x38 keeps its high bit exactly when d >= CENTRE (no borrow crosses bytes).
    let off_board = (row | HIGH_BITS).wrapping_sub(0x3838_3838) & HIGH_BITS;
    (HIGH_BITS ^ off_board) | (zero_bytes32(row ^ HANGARS) & takeoff)
}

/// The 4-bit mask of the planes offered as moves: those of `movable` (high bits, see
/// [`movable_bytes`]) whose progress no lower-numbered plane of `row` shares.
#[inline(always)]
fn distinct_mask(row: u32, movable: u32) -> usize {
    // Byte i equal to byte i-1, i-2 or i-3 (the shifted-in zero bytes are masked off).
    let same = (zero_bytes32(row ^ (row << 8)) & 0x8080_8000)
        | (zero_bytes32(row ^ (row << 16)) & 0x8080_0000)
        | (zero_bytes32(row ^ (row << 24)) & 0x8000_0000);
    // Gather the high bits 7, 15, 23, 31 into bits 21..=24 (the partial products never overlap).
    let bits = (movable & !same) >> 7;
    ((bits.wrapping_mul(0x0020_4081) >> 21) & 15) as usize
}

/// Uniform draws from a small range, several per 64-bit random word: each draw multiplies the
/// word by the range and takes the high part (a digit of the word in a mixed radix), so at most
/// 12 draws of ranges up to 6 use one word and their joint bias is below `6^12 / 2^64 < 2e-10`.
#[derive(Default)]
struct Digits {
    bits: u64,
    left: u32,
}

impl Digits {
    #[inline(always)]
    fn below(&mut self, rng: &mut Rng, n: u64) -> u64 {
        if self.left == 0 {
            self.bits = rng.next_u64();
            self.left = 12;
        }
        self.left -= 1;
        let t = self.bits as u128 * n as u128;
        self.bits = t as u64;
        (t >> 64) as u64
    }
}

/// Zobrist keys: planes (player, plane, state), side to move, pending roll, sixes, moved mask,
/// places, game over.
const KEYS: [u64; 1024] = zobrist_keys(0xAE50_F1A7);
const K_PLANE: usize = 0; // 4 * 4 * 58 = 928
const K_MOVE: usize = 928; // 4
const K_ROLL: usize = 932; // 7
const K_SIXES: usize = 939; // 16
const K_MOVED: usize = 955; // 4
const K_PLACE: usize = 959; // 4 players * 5 places = 20
const K_OVER: usize = 979;

#[inline]
fn plane_key(player: usize, plane: usize, state: u8) -> u64 {
    KEYS[K_PLANE + (player * PLANES + plane) * PLANE_STATES + state as usize]
}

/// An aeroplane-chess position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aero {
    rules: Rules,
    players: u8,
    /// Progress of every plane, by player index (not seat); [`HANGAR`] for the hangar.
    planes: [[u8; PLANES]; 4],
    to_move: u8,
    /// 0 at a chance node; otherwise the roll the player must play.
    roll: u8,
    /// Consecutive sixes rolled in this turn (including a pending roll of 6), saturating.
    sixes: u8,
    /// Planes moved by a 6 in this turn (bit per plane).
    six_moved: u8,
    /// Finishing place of each player (0 while playing).
    places: [u8; 4],
    over: bool,
    hash: u64,
}

impl Aero {
    /// The start position for `players` (2, 3 or 4) under `rules`: every plane in its hangar,
    /// red to roll.
    pub fn new(rules: Rules, players: usize) -> Result<Aero, AeroError> {
        if !(2..=4).contains(&players) {
            return Err(AeroError::BadPlayerCount(players));
        }
        Ok(Aero::raw(rules, players))
    }

    /// A one-player board holding a single plane at `progress` (the others already finished):
    /// the "lone plane" of the probability model, played by the real rules.
    pub fn lone_plane(rules: Rules, progress: u8) -> Aero {
        let mut pos = Aero::raw(rules, 1);
        pos.planes[0] = [progress.min(HANGAR), CENTRE, CENTRE, CENTRE];
        pos.hash = pos.hash_from_scratch() ^ pos.turn_key();
        pos
    }

    /// One player alone with four planes in the hangar: the race against the dice with no
    /// opponents (for race statistics and the solo value table).
    pub fn solo(rules: Rules) -> Aero {
        Aero::raw(rules, 1)
    }

    /// One player alone with its four planes at `planes` (progress values or [`HANGAR`]), at the
    /// start of its turn. Values above [`HANGAR`] are read as the hangar; a launch-pad plane under
    /// rules without a pad is read as ring step 1.
    pub fn solo_at(rules: Rules, planes: [u8; PLANES]) -> Aero {
        let mut pos = Aero::raw(rules, 1);
        for (slot, &d) in pos.planes[0].iter_mut().zip(planes.iter()) {
            *slot = if d > HANGAR {
                HANGAR
            } else if d == 0 && !rules.launch_pad() {
                1
            } else {
                d
            };
        }
        pos.hash = pos.hash_from_scratch() ^ pos.turn_key();
        pos
    }

    /// Player `p`'s planes alone (a solo position) in the same state of the turn: pending roll,
    /// sixes and the planes they moved.
    pub(crate) fn solo_view(&self, p: usize) -> Aero {
        let mut pos = Aero::raw(self.rules, 1);
        pos.planes[0] = self.planes[p & 3];
        if !self.over {
            pos.roll = self.roll;
            pos.sixes = self.sixes;
            pos.six_moved = self.six_moved;
        }
        pos.hash = pos.hash_from_scratch() ^ pos.turn_key();
        pos
    }

    /// A two-player position at the start of red's (player 0's) turn with these planes (rows 2
    /// and 3 ignored); a player with every plane in the centre has won and the game is over.
    /// Progress values above [`HANGAR`] are read as the hangar.
    pub(crate) fn two_player_turn_start(rules: Rules, planes: [[u8; PLANES]; 4]) -> Aero {
        let mut pos = Aero::raw(rules, 2);
        for (mine, given) in pos.planes.iter_mut().zip(&planes).take(2) {
            *mine = given.map(|d| d.min(HANGAR));
        }
        for p in 0..2 {
            if pos.planes[p].iter().all(|&d| d == CENTRE) && !pos.over {
                pos.places[p] = 1;
                pos.places[1 - p] = 2;
                pos.over = true;
            }
        }
        pos.hash = pos.hash_from_scratch() ^ pos.turn_key();
        pos
    }

    /// A two-player turn start with the players' planes swapped and the same player (by
    /// index) to roll: the position seen from the other side of the board.
    pub(crate) fn swapped(&self) -> Aero {
        let mut planes = self.planes;
        planes.swap(0, 1);
        let mut pos = Aero::two_player_turn_start(self.rules, planes);
        if !pos.over {
            pos.to_move = self.to_move;
            pos.hash = pos.hash_from_scratch() ^ pos.turn_key();
        }
        pos
    }

    fn raw(rules: Rules, players: usize) -> Aero {
        let mut pos = Aero {
            rules,
            players: players as u8,
            planes: [[HANGAR; PLANES]; 4],
            to_move: 0,
            roll: 0,
            sixes: 0,
            six_moved: 0,
            places: [0; 4],
            over: false,
            hash: 0,
        };
        pos.hash = pos.hash_from_scratch() ^ pos.turn_key();
        pos
    }

    /// Builds a position from its parts (used by the notation); checks every value.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn from_parts(
        rules: Rules,
        players: usize,
        planes: [[u8; PLANES]; 4],
        to_move: usize,
        roll: u8,
        sixes: u8,
        six_moved: u8,
        places: [u8; 4],
    ) -> Result<Aero, AeroError> {
        let bad = |m: &str| Err(AeroError::BadPosition(m.to_string()));
        if !(2..=4).contains(&players) {
            return Err(AeroError::BadPlayerCount(players));
        }
        if to_move >= players {
            return bad("player to move out of range");
        }
        if roll > 6 {
            return bad("roll out of range");
        }
        if six_moved >= 16 || sixes > 15 {
            return bad("sixes or moved mask out of range");
        }
        for (p, row) in planes.iter().enumerate() {
            for &d in row {
                if d > HANGAR || (p >= players && d != HANGAR) {
                    return bad("plane progress out of range");
                }
                if d == 0 && !rules.launch_pad() {
                    return bad("no launch pad under the seed rules");
                }
            }
        }
        let mut pos = Aero {
            rules,
            players: players as u8,
            planes,
            to_move: to_move as u8,
            roll,
            sixes,
            six_moved,
            places,
            over: false,
            hash: 0,
        };
        let finished = (0..players)
            .filter(|&p| pos.planes[p].iter().all(|&d| d == CENTRE))
            .count();
        for (p, &place) in places.iter().enumerate().take(players) {
            let done = pos.planes[p].iter().all(|&d| d == CENTRE);
            let place = place as usize;
            if place > players || (done && place == 0) || (!done && place != 0 && place != players)
            {
                return bad("places do not match the planes");
            }
        }
        pos.over = match rules.ending {
            Ending::FirstWins => finished >= 1,
            Ending::PlayOn => finished + 1 >= players,
        };
        if pos.over {
            if roll != 0 {
                return bad("a roll is pending in a finished game");
            }
        } else if places[to_move] != 0 {
            return bad("the player to move has finished");
        }
        if roll != 0 && pos.choices().is_empty() {
            return bad("a roll is pending but no plane can move");
        }
        pos.hash = pos.hash_from_scratch() ^ pos.turn_key();
        Ok(pos)
    }

    /// The same planes at the start of player `q`'s turn (`None` when the game is over or `q` has
    /// finished).
    pub fn at_turn_start(&self, q: usize) -> Option<Aero> {
        if self.over || q >= self.players as usize || self.places[q] != 0 {
            return None;
        }
        let mut pos = *self;
        pos.to_move = q as u8;
        pos.roll = 0;
        pos.sixes = 0;
        pos.six_moved = 0;
        pos.hash = pos.hash_from_scratch() ^ pos.turn_key();
        Some(pos)
    }

    /// The rules in force.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Number of players (2-4).
    pub fn players(&self) -> usize {
        self.players as usize
    }

    /// The seat (0 red, 1 yellow, 2 blue, 3 green) of player `p`.
    #[inline]
    pub fn seat(&self, p: usize) -> u8 {
        SEAT[(self.players as usize).min(4)][p & 3]
    }

    /// True when the player to move can play `roll` with some plane (A7): any plane on the board
    /// can always move, a hangar plane only on a take-off roll.
    #[inline]
    fn can_move(&self, roll: u8) -> bool {
        // Four bytes at once, no branch (the outcome depends on the die): on a take-off roll
        // any plane not finished can move; otherwise one with progress below the centre.
        let row = u32::from_le_bytes(self.planes[self.to_move as usize & 3]);
        let all_finished = row == u32::from_le_bytes([CENTRE; 4]);
        // High bit of each byte set when that byte is >= CENTRE (bytes are <= HANGAR < 128).
        let at_least_centre = (row | 0x8080_8080).wrapping_sub(0x3838_3838) & 0x8080_8080;
        let some_below_centre = at_least_centre != 0x8080_8080;
        if self.rules.can_take_off(roll) {
            !all_finished
        } else {
            some_below_centre
        }
    }

    /// Progress of the four planes of player `p` ([`HANGAR`] = in the hangar).
    pub fn planes(&self, p: usize) -> [u8; PLANES] {
        self.planes[p]
    }

    /// The roll waiting to be played (0 at a chance node).
    pub fn pending_roll(&self) -> u8 {
        self.roll
    }

    /// Consecutive sixes rolled in this turn so far (including a pending 6).
    pub fn sixes(&self) -> u8 {
        self.sixes
    }

    /// Bit mask of the planes moved by a 6 in this turn.
    pub fn six_moved(&self) -> u8 {
        self.six_moved
    }

    /// True once a 6 has been rolled in the current turn (the player rolls again); false at the
    /// start of a turn, before its first roll.
    pub fn after_six(&self) -> bool {
        self.sixes != 0 || self.six_moved != 0
    }

    /// Finishing place of every player (1 = winner, 0 = still playing).
    pub fn places(&self) -> [u8; 4] {
        self.places
    }

    /// The winner, once somebody has all four planes in the centre.
    pub fn winner(&self) -> Option<usize> {
        (0..self.players as usize).find(|&p| self.places[p] == 1)
    }

    /// The planes of the player to move that the pending roll can move (one per progress value).
    #[inline]
    pub fn choices(&self) -> Choices {
        let mut out = Choices::default();
        if self.roll == 0 || self.over {
            return out;
        }
        // Any plane on the board can move (A11 bounces instead of overshooting); a hangar plane
        // only on a take-off roll (A6). Equal progress values are one move.
        let takeoff = self.rules.can_take_off(self.roll);
        let row = self.planes[self.to_move as usize];
        // Branch-free (the outcome depends on the die): always write, advance when kept.
        let [a, b, c, d] = row;
        let keep = [
            movable(a, takeoff),
            movable(b, takeoff) & (b != a),
            movable(c, takeoff) & (c != a) & (c != b),
            movable(d, takeoff) & (d != a) & (d != b) & (d != c),
        ];
        for (i, &k) in keep.iter().enumerate() {
            out.planes[out.len as usize & 3] = i as u8;
            out.len += k as u8;
        }
        out
    }

    /// Where plane `i` of the player to move would go with the pending roll.
    #[inline]
    pub fn step_of(&self, plane: usize) -> Step {
        steps(self.rules.set)[self.planes[self.to_move as usize][plane] as usize]
            [self.roll as usize]
    }

    #[inline(always)]
    fn set_plane<const HASH: bool>(&mut self, p: usize, i: usize, d: u8) {
        if HASH {
            self.hash ^= plane_key(p, i, self.planes[p][i]) ^ plane_key(p, i, d);
        }
        self.planes[p][i] = d;
    }

    #[inline]
    fn set_roll(&mut self, roll: u8) {
        self.roll = roll;
    }

    #[inline]
    fn set_sixes(&mut self, sixes: u8) {
        self.sixes = sixes;
    }

    #[inline]
    fn set_moved(&mut self, mask: u8) {
        self.six_moved = mask;
    }

    #[inline]
    fn set_to_move(&mut self, p: u8) {
        self.to_move = p;
    }

    /// The keys of the turn state (side to move, pending roll, sixes, moved mask), combined when
    /// the hash is read: cheaper than updating them on every roll.
    #[inline]
    fn turn_key(&self) -> u64 {
        let mut h = KEYS[K_MOVE + self.to_move as usize]
            ^ KEYS[K_ROLL + self.roll as usize]
            ^ KEYS[K_SIXES + self.sixes as usize];
        for b in 0..PLANES {
            if self.six_moved & (1 << b) != 0 {
                h ^= KEYS[K_MOVED + b];
            }
        }
        h
    }

    /// Ends the turn: the next player who has not finished rolls.
    #[inline]
    fn next_turn(&mut self) {
        self.set_roll(0);
        self.set_sixes(0);
        self.set_moved(0);
        let n = self.players;
        let mut p = self.to_move;
        for _ in 0..n {
            // (no `%`: a division per turn is measurable in simulations)
            p = if p + 1 >= n { 0 } else { p + 1 };
            if self.places[p as usize & 3] == 0 {
                break;
            }
        }
        self.set_to_move(p);
    }

    /// Applies `mv` (legal here) and reports what it did.
    #[inline]
    pub fn play(&mut self, mv: AeroMove) -> Effect {
        self.play_with::<true>(mv)
    }

    /// [`Aero::play`]; with `HASH = false` the Zobrist key is not kept up to date (the fast
    /// random games recompute it once at the end).
    #[inline(always)]
    fn play_with<const HASH: bool>(&mut self, mv: AeroMove) -> Effect {
        let mut effect = Effect::default();
        match mv {
            AeroMove::Roll(face) => {
                debug_assert!(self.roll == 0 && !self.over && (1..=6).contains(&face));
                // Branch-free count (a branch on the die is mispredicted one time in six).
                let six = face == 6;
                let sixes = (self.sixes + six as u8).min(15);
                if six & (sixes >= 3) & (self.rules.three_sixes != ThreeSixes::None) {
                    // A8: the third six ends the turn; with send-back the planes moved by the two
                    // earlier sixes go home.
                    if self.rules.three_sixes == ThreeSixes::SendBack {
                        let p = self.to_move as usize;
                        for i in 0..PLANES {
                            if self.six_moved & (1 << i) != 0 && self.planes[p][i] != HANGAR {
                                self.set_plane::<HASH>(p, i, HANGAR);
                                effect.sent_back += 1;
                            }
                        }
                    }
                    self.next_turn();
                    effect.new_turn = true;
                    return effect;
                }
                self.set_sixes(sixes);
                self.set_roll(face);
                if !self.can_move(face) {
                    // A7: no legal move, the roll is spent; A8: a 6 still rolls again.
                    self.set_roll(0);
                    if face != 6 {
                        self.next_turn();
                        effect.new_turn = true;
                    }
                }
            }
            AeroMove::Plane(i) => {
                let i = i as usize;
                let p = self.to_move as usize;
                let roll = self.roll;
                let step = self.step_of(i);
                debug_assert!(step.legal);
                self.set_plane::<HASH>(p, i, step.to);
                // Off the ring, SAME_SQUARE is NOWHERE for everybody: no branch needed.
                effect.captured += self.capture_at::<HASH>(p, step.to);
                if step.flew {
                    effect.captured += self.flight_crossing::<HASH>(p);
                }
                let track = (roll == 6) & (self.rules.three_sixes == ThreeSixes::SendBack);
                self.set_moved(self.six_moved | ((track as u8) << i));
                self.set_roll(0);
                if step.to == CENTRE && self.planes[p].iter().all(|&d| d == CENTRE) {
                    self.finish(p);
                    effect.new_turn = !self.over;
                    if !self.over {
                        self.next_turn();
                    }
                } else if roll != 6 {
                    self.next_turn();
                    effect.new_turn = true;
                }
            }
        }
        effect
    }

    /// A9: every enemy plane on the ring square of player `p`'s progress `d` goes home.
    #[inline(always)]
    fn capture_at<const HASH: bool>(&mut self, p: usize, d: u8) -> u8 {
        let n = self.players as usize;
        let same = &SAME_SQUARE[n.min(4)][p & 3];
        // Any byte of a row equal to that player's `e`? (exact zero-byte test on row ^ e..e;
        // NOWHERE matches nothing, and rows of absent players are all HANGAR, so all four rows
        // are tested without a branch, and one branch decides whether anything is hit)
        let mut hit = 0u32;
        for (row, by_progress) in self.planes.iter().zip(same.iter()) {
            let e = by_progress[d as usize & 63];
            let x = u32::from_le_bytes(*row) ^ (e as u32 * 0x0101_0101);
            hit |= x.wrapping_sub(0x0101_0101) & !x & 0x8080_8080;
        }
        if hit == 0 {
            return 0;
        }
        let mut captured = 0;
        for q in 0..n {
            let e = same[q & 3][d as usize & 63];
            for i in 0..PLANES {
                if self.planes[q][i] == e {
                    self.set_plane::<HASH>(q, i, HANGAR);
                    captured += 1;
                }
            }
        }
        captured
    }

    /// A10: a flight sends home the opposite player's planes at its progress 53.
    #[inline]
    fn flight_crossing<const HASH: bool>(&mut self, p: usize) -> u8 {
        let opposite = (self.seat(p) + 2) % 4;
        let mut captured = 0;
        if let Some(q) = (0..self.players as usize).find(|&q| self.seat(q) == opposite) {
            for i in 0..PLANES {
                if self.planes[q][i] == FLIGHT_CROSSES {
                    self.set_plane::<HASH>(q, i, HANGAR);
                    captured += 1;
                }
            }
        }
        captured
    }

    fn finish(&mut self, p: usize) {
        let done = self.places.iter().filter(|&&x| x != 0).count() as u8;
        self.set_place(p, done + 1);
        let over = match self.rules.ending {
            Ending::FirstWins => true,
            Ending::PlayOn => done + 2 >= self.players,
        };
        if over {
            if self.rules.ending == Ending::PlayOn {
                // The last player left takes the last place.
                for q in 0..self.players as usize {
                    if self.places[q] == 0 {
                        self.set_place(q, self.players);
                    }
                }
            }
            self.set_roll(0);
            self.set_sixes(0);
            self.set_moved(0);
            self.over = true;
            self.hash ^= KEYS[K_OVER];
        }
    }

    fn set_place(&mut self, p: usize, place: u8) {
        self.hash ^= KEYS[K_PLACE + p * 5 + self.places[p] as usize]
            ^ KEYS[K_PLACE + p * 5 + place as usize];
        self.places[p] = place;
    }

    /// Plays on to the end with uniformly random choices among the distinct moves, dice and
    /// choices both drawn from `rng`; returns (enemy planes captured, turns begun). The fast path
    /// of simulations: no Zobrist updates on the way (the key is recomputed at the end), several
    /// draws from each 64-bit random word, and under first-wins endings a board of four `u32`
    /// rows (see [`Aero::play_out_random_first_wins`]).
    pub(crate) fn play_out_random(&mut self, rng: &mut Rng) -> (u32, u32) {
        if self.rules.ending == Ending::FirstWins {
            self.play_out_random_first_wins(rng)
        } else {
            self.play_out_random_generic(rng)
        }
    }

    /// [`Aero::play_out_random`] move by move through [`Aero::play_with`] (any ending).
    pub(crate) fn play_out_random_generic(&mut self, rng: &mut Rng) -> (u32, u32) {
        let mut digits = Digits::default();
        let mut captures = 0u32;
        let mut turns = 0u32;
        while !self.over {
            let e = if self.roll == 0 {
                let f = digits.below(rng, 6) as u8 + 1;
                self.play_with::<false>(AeroMove::Roll(f))
            } else {
                let c = self.choices();
                let k = digits.below(rng, c.len() as u64) as usize;
                self.play_with::<false>(AeroMove::Plane(c.planes[k & 3]))
            };
            captures += e.captured as u32;
            turns += e.new_turn as u32;
        }
        self.hash = self.hash_from_scratch() ^ self.turn_key();
        (captures, turns)
    }

    /// [`Aero::play_out_random`] for first-wins games, with the same random draws as
    /// [`Aero::play_out_random_generic`] and so the same games. The board is one `u32` row per
    /// player, always written and read whole: a move rewrites its row, and the landing and the
    /// flight's crossing are tested against every row with precomputed patterns ([`HIT_ROWS`],
    /// [`FLIGHT_ROWS`]) and an exact zero-byte test, which also sends the hit planes home, without
    /// a branch. (Byte stores followed by wider loads of the same bytes, as in [`Aero::play`],
    /// stall on store-to-load forwarding.)
    fn play_out_random_first_wins(&mut self, rng: &mut Rng) -> (u32, u32) {
        if self.over {
            return (0, 0);
        }
        let mut digits = Digits::default();
        let n = self.players as usize;
        let rules = self.rules;
        let table = flat_steps(rules.set);
        let capped = rules.three_sixes != ThreeSixes::None;
        let send_back = rules.three_sixes == ThreeSixes::SendBack;
        let hits = &HIT_ROWS[n.min(4)];
        let flights = &FLIGHT_ROWS[n.min(4)];
        // One u32 per player, written and read whole (same-size stores and loads forward).
        let mut rows = self.planes.map(u32::from_le_bytes);
        // Plane counts per occupancy slot (ring square, or a player's own off-ring slot), one
        // byte per player: a landing meets an enemy exactly when another byte is non-zero.
        let slots = &SLOT_OF[n.min(4)];
        let mut occ = [0u32; OCC_SLOTS];
        for q in 0..n.min(4) {
            for &d in &self.planes[q] {
                occ[slots[q][d as usize & 63] as usize & 63] += 1 << (8 * q);
            }
        }
        let mut p = self.to_move as usize & 3;
        let mut roll = self.roll;
        let mut sixes = self.sixes;
        let mut moved = self.six_moved;
        let mut captures = 0u32;
        let mut turns = 0u32;
        // The next player, by table (n is 2..=4).
        let after: [usize; 4] = std::array::from_fn(|p| if p + 1 >= n { 0 } else { p + 1 });
        let next = |p: usize| after[p & 3] & 3;
        // The high bit of every byte for a take-off roll, by roll.
        let takeoff: [u32; 8] =
            std::array::from_fn(|f| (rules.can_take_off(f as u8) as u32) * HIGH_BITS);
        loop {
            if roll == 0 {
                let f = digits.below(rng, 6) as u8 + 1;
                let six = f == 6;
                sixes = (sixes + six as u8).min(15);
                if six & (sixes >= 3) & capped {
                    // A8: the third six ends the turn; with send-back the planes it moved go home.
                    if send_back {
                        let bytes = SPREAD[moved as usize & 15];
                        let unit = 1u32 << (8 * p);
                        for i in 0..PLANES {
                            if moved & (1 << i) != 0 {
                                let d = (rows[p] >> (8 * i)) as u8;
                                occ[slots[p][d as usize & 63] as usize & 63] -= unit;
                                occ[RING as usize + p] += unit;
                            }
                        }
                        rows[p] = (rows[p] & !bytes) | (HANGARS & bytes);
                    }
                    p = next(p);
                    sixes = 0;
                    moved = 0;
                    turns += 1;
                    continue;
                }
                let can_move = movable_bytes(rows[p], takeoff[f as usize]) != 0;
                if !can_move {
                    // A7: the roll is spent; A8: a 6 still rolls again.
                    if !six {
                        p = next(p);
                        sixes = 0;
                        moved = 0;
                        turns += 1;
                    }
                    continue;
                }
                roll = f;
            }
            // The decision: a uniform choice among the distinct movable planes.
            let row = rows[p];
            let mask = distinct_mask(row, movable_bytes(row, takeoff[roll as usize & 7]));
            let k = digits.below(rng, mask.count_ones() as u64) as usize;
            let i = SELECT[mask][k & 3] as usize;
            let from = (row >> (8 * i)) as u8;
            let step = table[((from as usize & 63) << 3) | (roll as usize & 7)];
            rows[p] = (row & !(0xff << (8 * i))) | ((step.to as u32) << (8 * i));
            // The occupancy board follows the move; an enemy count where the plane comes to rest
            // (rare) sends those planes home (A9).
            let unit = 1u32 << (8 * p);
            let mine = 0xffu32 << (8 * p);
            occ[slots[p][from as usize & 63] as usize & 63] -= unit;
            let s = slots[p][step.to as usize & 63] as usize & 63;
            let others = occ[s] & !mine;
            occ[s] += unit;
            if others != 0 {
                let landing = &hits[p][step.to as usize & 63];
                for q in 0..4 {
                    let x = rows[q];
                    let hit = zero_bytes32(x ^ landing[q]);
                    let count = hit.count_ones();
                    captures += count;
                    occ[RING as usize + q] += count << (8 * q);
                    let bytes = (hit >> 7) * 0xff;
                    rows[q] = (x & !bytes) | (HANGARS & bytes);
                }
                occ[s] &= mine;
            }
            if step.flew {
                // A10: the flight crosses the opposite player's home column at 53.
                let crossing = &flights[p][1];
                for q in 0..4 {
                    let x = rows[q];
                    let hit = zero_bytes32(x ^ crossing[q]);
                    captures += hit.count_ones();
                    let bytes = (hit >> 7) * 0xff;
                    rows[q] = (x & !bytes) | (HANGARS & bytes);
                }
            }
            let was_six = roll == 6;
            roll = 0;
            if rows[p] == CENTRES {
                break;
            }
            if !was_six {
                p = next(p);
                sixes = 0;
                moved = 0;
                turns += 1;
            } else {
                moved |= (send_back as u8) << i;
            }
        }
        self.planes = rows.map(u32::to_le_bytes);
        self.to_move = p as u8;
        self.roll = 0;
        self.sixes = 0;
        self.six_moved = 0;
        self.places[p] = 1;
        self.over = true;
        self.hash = self.hash_from_scratch() ^ self.turn_key();
        (captures, turns)
    }

    /// Total progress of player `p` (a hangar plane counts -1, a finished one 56).
    pub fn total_progress(&self, p: usize) -> i32 {
        self.planes[p]
            .iter()
            .map(|&d| if d == HANGAR { -1 } else { d as i32 })
            .sum()
    }
}

impl Game for Aero {
    type Move = AeroMove;
    type Undo = Aero;

    fn num_players(&self) -> usize {
        self.players as usize
    }

    #[inline]
    fn turn(&self) -> Turn {
        if self.over {
            Turn::Over
        } else if self.roll == 0 {
            Turn::Chance
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn to_move(&self) -> usize {
        self.to_move as usize
    }

    fn legal_moves(&self, moves: &mut Vec<AeroMove>) {
        moves.clear();
        if self.over {
            return;
        }
        if self.roll == 0 {
            moves.extend((1..=6).map(AeroMove::Roll));
        } else {
            moves.extend(
                self.choices()
                    .as_slice()
                    .iter()
                    .map(|&i| AeroMove::Plane(i)),
            );
        }
    }

    #[inline]
    fn make(&mut self, mv: AeroMove) -> Aero {
        let undo = *self;
        self.play(mv);
        undo
    }

    #[inline]
    fn unmake(&mut self, _mv: AeroMove, undo: Aero) {
        *self = undo;
    }

    /// First-wins games: +1 for the winner, `-1/(n-1)` for the others (zero-sum). Play-on games:
    /// by place, `1 - 2(k-1)/(n-1)` for place `k` (+1 first, -1 last, zero-sum).
    fn returns(&self, player: usize) -> f64 {
        let n = self.players as f64;
        if n < 2.0 {
            return if self.places[player] == 1 { 1.0 } else { 0.0 };
        }
        match self.rules.ending {
            Ending::FirstWins => {
                if self.places[player] == 1 {
                    1.0
                } else if self.over {
                    -1.0 / (n - 1.0)
                } else {
                    0.0
                }
            }
            Ending::PlayOn => {
                let k = self.places[player] as f64;
                if k == 0.0 {
                    0.0
                } else {
                    1.0 - 2.0 * (k - 1.0) / (n - 1.0)
                }
            }
        }
    }

    fn hash(&self) -> u64 {
        self.hash ^ self.turn_key()
    }

    fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for p in 0..4 {
            for i in 0..PLANES {
                h ^= plane_key(p, i, self.planes[p][i]);
            }
            h ^= KEYS[K_PLACE + p * 5 + self.places[p] as usize];
        }
        h ^= self.turn_key();
        if self.over {
            h ^= KEYS[K_OVER];
        }
        h
    }

    fn chance_outcomes(&self, out: &mut Vec<(AeroMove, f64)>) {
        out.clear();
        if !self.over && self.roll == 0 {
            out.extend((1..=6).map(|f| (AeroMove::Roll(f), 1.0 / 6.0)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{RuleSet, Takeoff};

    /// The branch-free masks of the fast loop are the plane-by-plane rule for every row of four
    /// plane states (58^4 rows, with and without a take-off roll).
    #[test]
    fn row_masks_are_the_plane_by_plane_choices() {
        let states = PLANE_STATES as u8;
        for a in 0..states {
            for b in 0..states {
                for c in 0..states {
                    for d in 0..states {
                        let row = u32::from_le_bytes([a, b, c, d]);
                        for takeoff in [false, true] {
                            let expect = movable(a, takeoff) as usize
                                | ((movable(b, takeoff) & (b != a)) as usize) << 1
                                | ((movable(c, takeoff) & (c != a) & (c != b)) as usize) << 2
                                | ((movable(d, takeoff) & (d != a) & (d != b) & (d != c)) as usize)
                                    << 3;
                            let bytes = movable_bytes(row, takeoff as u32 * HIGH_BITS);
                            assert_eq!(distinct_mask(row, bytes), expect, "{a} {b} {c} {d}");
                            let any = [a, b, c, d].iter().any(|&x| movable(x, takeoff));
                            assert_eq!(bytes != 0, any, "{a} {b} {c} {d}");
                        }
                    }
                }
            }
        }
    }

    /// The row-board random games are the move-by-move ones: same final positions (planes,
    /// places, hash), captures and turns, from the start and from positions inside a turn.
    #[test]
    fn fast_random_games_are_the_generic_ones() {
        let mut configs = Vec::new();
        for set in [RuleSet::Standard, RuleSet::Seed] {
            for takeoff in [Takeoff::Six, Takeoff::FiveSix, Takeoff::Even] {
                for three_sixes in [ThreeSixes::None, ThreeSixes::LoseTurn, ThreeSixes::SendBack] {
                    configs.push(Rules {
                        set,
                        takeoff,
                        three_sixes,
                        ending: Ending::FirstWins,
                    });
                }
            }
        }
        let mut walk = Rng::new(4);
        for (c, rules) in configs.iter().enumerate() {
            for players in 2..=4 {
                for g in 0..150u64 {
                    let mut start = Aero::new(*rules, players).unwrap();
                    // Some games start in the middle of a turn.
                    for _ in 0..walk.below(40) {
                        match start.turn() {
                            Turn::Over => break,
                            Turn::Chance => {
                                start.play(AeroMove::Roll(walk.below(6) as u8 + 1));
                            }
                            Turn::Player(_) => {
                                let ch = start.choices();
                                start.play(AeroMove::Plane(ch.as_slice()[walk.below(ch.len())]));
                            }
                        }
                    }
                    let seed = (c * 1000 + players * 200) as u64 + g;
                    let mut fast = start;
                    let mut slow = start;
                    let a = fast.play_out_random_first_wins(&mut Rng::new(seed));
                    let b = slow.play_out_random_generic(&mut Rng::new(seed));
                    assert_eq!(a, b, "{rules} {players} players, game {g}");
                    assert_eq!(fast, slow, "{rules} {players} players, game {g}");
                    assert_eq!(fast.hash(), fast.hash_from_scratch());
                }
            }
        }
    }
}
