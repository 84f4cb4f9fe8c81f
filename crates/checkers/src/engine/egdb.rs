//! Endgame database: win/loss/draw for every position with few pieces, built by retrograde
//! fixpoint iteration and probed by the search.
//!
//! Positions are stored with Black to move only: a White-to-move position is the board turned
//! half a turn (square `i` becomes `33 - i`) with the colours swapped. One table per material
//! signature (Black men, Black kings, White men, White kings), indexed by combinatorial ranks:
//! Black men over squares 1-28, White men over 5-32 (pairs that overlap are unused slots), then
//! Black kings over the squares left, then White kings over the squares left. Two bits a position.
//!
//! Building: materials are solved in order of (pieces, men); a material and its colour-swapped
//! twin are solved together because they are each other's successors. Every pass looks at the
//! unknown positions: a position with a successor lost for the opponent is won; one whose
//! successors are all won for the opponent (or that has no move) is lost. When a pass changes
//! nothing, the unknown positions are draws (the game's repetition and 40-move rules are not part
//! of the game-theoretic value). Each finished material is written to its own file (`b2k0w1k1.wld`
//! for 2 Black men, no Black king, 1 White man, 1 White king) through a temporary name, so an
//! interrupted build resumes at the first missing file.

use crate::board::{Board, Color, Dir, NEIGHBOUR, NO_SQUARE};
use crate::movegen::Move;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
#[cfg(test)]
use std::sync::atomic::AtomicUsize;
use std::sync::atomic::{AtomicU8, Ordering};

/// The most pieces a database can cover.
pub const MAX_PIECES: usize = 8;

/// Win, loss or draw, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Wld {
    /// The side to move wins with best play.
    Win,
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
}

impl Wld {
    fn from_bits(v: u8) -> Wld {
        match v & 3 {
            WIN => Wld::Win,
            LOSS => Wld::Loss,
            _ => Wld::Draw,
        }
    }
}

const UNKNOWN: u8 = 0;
const WIN: u8 = 1;
const LOSS: u8 = 2;
const UNUSED: u8 = 3;

/// Errors of building or loading a database.
#[derive(Debug, thiserror::Error)]
pub enum EgdbError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A file has the wrong size for its material.
    #[error("{path}: expected {expected} bytes, found {found}")]
    BadSize {
        /// The file.
        path: PathBuf,
        /// The size the material needs.
        expected: u64,
        /// The size on disk.
        found: u64,
    },
    /// More pieces than this database supports.
    #[error("at most {MAX_PIECES} pieces are supported, {0} asked")]
    TooManyPieces(usize),
}

/// Pieces of each kind: Black men, Black kings, White men, White kings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Black men.
    pub bm: u8,
    /// Black kings.
    pub bk: u8,
    /// White men.
    pub wm: u8,
    /// White kings.
    pub wk: u8,
}

impl Material {
    /// The material of a board.
    pub fn of(b: &Board) -> Material {
        let k = b.kings();
        Material {
            bm: b.men(Color::Black).count_ones() as u8,
            bk: (b.pieces(Color::Black) & k).count_ones() as u8,
            wm: b.men(Color::White).count_ones() as u8,
            wk: (b.pieces(Color::White) & k).count_ones() as u8,
        }
    }

    /// All pieces.
    pub fn total(&self) -> usize {
        (self.bm + self.bk + self.wm + self.wk) as usize
    }

    /// The colour-swapped material.
    pub fn swapped(&self) -> Material {
        Material {
            bm: self.wm,
            bk: self.wk,
            wm: self.bm,
            wk: self.bk,
        }
    }

    /// Number of index slots of the table.
    pub fn size(&self) -> u64 {
        let (bm, bk, wm, wk) = (
            self.bm as usize,
            self.bk as usize,
            self.wm as usize,
            self.wk as usize,
        );
        let n1 = 32 - bm - wm;
        BINOM[28][bm] * BINOM[28][wm] * BINOM[n1][bk] * BINOM[n1 - bk][wk]
    }

    /// The file name of the table.
    pub fn file_name(&self) -> String {
        format!("b{}k{}w{}k{}.wld", self.bm, self.bk, self.wm, self.wk)
    }

    fn slot(&self) -> usize {
        let n = MAX_PIECES + 1;
        ((self.bm as usize * n + self.bk as usize) * n + self.wm as usize) * n + self.wk as usize
    }

    /// Every material with both sides present and at most `pieces` pieces, in build order.
    pub fn all_up_to(pieces: usize) -> Vec<Material> {
        let mut v = Vec::new();
        let p = pieces.min(MAX_PIECES) as u8;
        for bm in 0..=p {
            for bk in 0..=p - bm {
                for wm in 0..=p - bm - bk {
                    for wk in 0..=p - bm - bk - wm {
                        if bm + bk > 0 && wm + wk > 0 && bm + bk <= 12 && wm + wk <= 12 {
                            v.push(Material { bm, bk, wm, wk });
                        }
                    }
                }
            }
        }
        v.sort_by_key(|m| (m.total(), m.bm + m.wm, *m));
        v
    }
}

const fn binom_table() -> [[u64; 33]; 33] {
    let mut t = [[0u64; 33]; 33];
    let mut n = 0;
    while n < 33 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
}

/// `BINOM[n][k]` = n choose k.
const BINOM: [[u64; 33]; 33] = binom_table();

/// Colex rank of a set of bit positions.
#[inline]
fn rank(mut set: u32) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        let p = set.trailing_zeros() as usize;
        set &= set - 1;
        r += BINOM[p][i];
        i += 1;
    }
    r
}

/// The set of `k` positions with colex rank `r`.
#[inline]
fn unrank(r: u64, k: usize) -> u32 {
    if k <= UNRANK_MAX_K {
        let t = unrank_tables();
        if let Some(&set) = t[k].get(r as usize) {
            return set;
        }
    }
    unrank_slow(r, k)
}

/// Sets of up to this many positions are unranked by table.
const UNRANK_MAX_K: usize = 5;

/// `UNRANK[k][r]`: the `k`-set of squares with colex rank `r` (colex ranks do not depend on the
/// number of squares, so one table per `k` serves every dimension).
fn unrank_tables() -> &'static [Vec<u32>; UNRANK_MAX_K + 1] {
    static TABLES: std::sync::OnceLock<[Vec<u32>; UNRANK_MAX_K + 1]> = std::sync::OnceLock::new();
    TABLES.get_or_init(|| {
        std::array::from_fn(|k| {
            (0..BINOM[32][k])
                .map(|r| unrank_slow(r, k))
                .collect::<Vec<u32>>()
        })
    })
}

fn unrank_slow(mut r: u64, k: usize) -> u32 {
    let mut set = 0u32;
    let mut p = 32usize;
    for i in (1..=k).rev() {
        p -= 1;
        while BINOM[p][i] > r {
            p -= 1;
        }
        r -= BINOM[p][i];
        set |= 1 << p;
    }
    set
}

/// Removes the squares of `occ` from `set` (each remaining square moves down past them): a
/// parallel bit extract over the free squares (BMI2 `pext` when the processor has it).
#[inline]
fn compress(set: u32, occ: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor supports BMI2 (checked just above).
        return unsafe { bmi2::pext(set, !occ) };
    }
    compress_portable(set, occ)
}

/// [`compress`] without BMI2 (also the reference its `pext` path is tested against).
#[inline]
fn compress_portable(set: u32, occ: u32) -> u32 {
    let mut out = 0;
    let mut s = set;
    while s != 0 {
        let p = s.trailing_zeros();
        s &= s - 1;
        let below = (occ & ((1u32 << p) - 1)).count_ones();
        out |= 1 << (p - below);
    }
    out
}

/// Places the bits of `sub` onto the free squares (`!occ`) in order (`pdep`).
#[inline]
fn deposit(sub: u32, occ: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("bmi2") {
        // SAFETY: the processor supports BMI2 (checked just above).
        return unsafe { bmi2::pdep(sub, !occ) };
    }
    deposit_portable(sub, occ)
}

/// [`deposit`] without BMI2 (also the reference its `pdep` path is tested against). Bits of
/// `sub` beyond the number of free squares are dropped, as `pdep` drops them (the loop once ran
/// past the last free square: an overflow panic in debug builds, a wrong board in release).
#[inline]
fn deposit_portable(sub: u32, occ: u32) -> u32 {
    let mut out = 0;
    let mut free = !occ;
    let mut s = sub;
    let mut i = 0;
    while s != 0 && free != 0 {
        let lowest = free & free.wrapping_neg();
        if s & (1 << i) != 0 {
            out |= lowest;
            s &= !(1 << i);
        }
        free &= free - 1;
        i += 1;
    }
    out
}

#[cfg(target_arch = "x86_64")]
mod bmi2 {
    /// `_pext_u32`.
    ///
    /// # Safety
    /// The processor must support BMI2 (`is_x86_feature_detected!("bmi2")`).
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn pext(a: u32, mask: u32) -> u32 {
        std::arch::x86_64::_pext_u32(a, mask)
    }

    /// `_pdep_u32`.
    ///
    /// # Safety
    /// The processor must support BMI2 (`is_x86_feature_detected!("bmi2")`).
    #[target_feature(enable = "bmi2")]
    pub(super) unsafe fn pdep(a: u32, mask: u32) -> u32 {
        std::arch::x86_64::_pdep_u32(a, mask)
    }
}

/// The next set with the same number of bits in increasing order (Gosper's hack).
#[inline]
fn next_combination(x: u64) -> u64 {
    if x == 0 {
        return u64::MAX;
    }
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

/// The board turned half a turn with colours swapped (and the side to move passed over).
#[inline]
pub fn flip(b: &Board) -> Board {
    Board {
        pieces: [b.pieces[1].reverse_bits(), b.pieces[0].reverse_bits()],
        kings: b.kings.reverse_bits(),
        side: b.side.opponent(),
        hash: 0,
    }
}

/// The index of a Black-to-move board in the table of its material.
#[inline]
pub fn index(b: &Board, m: &Material) -> u64 {
    let bmen = b.men(Color::Black);
    let wmen = b.men(Color::White);
    let men = bmen | wmen;
    let bk = b.pieces(Color::Black) & b.kings();
    let wk = b.pieces(Color::White) & b.kings();
    let n1 = 32 - (m.bm + m.wm) as usize;
    let n2 = n1 - m.bk as usize;
    let r_bm = rank(bmen);
    let r_wm = rank(wmen >> 4);
    let r_bk = rank(compress(bk, men));
    let r_wk = rank(compress(wk, men | bk));
    ((r_bm * BINOM[28][m.wm as usize] + r_wm) * BINOM[n1][m.bk as usize] + r_bk)
        * BINOM[n2][m.wk as usize]
        + r_wk
}

/// Walks the slots of a material in index order, giving each slot's board (or `None` when the
/// men overlap).
struct Odometer {
    m: Material,
    sub: [u64; 4],
    limit: [u64; 4],
}

impl Odometer {
    fn at(m: Material, idx: u64) -> Odometer {
        let n1 = 32 - (m.bm + m.wm) as usize;
        let n2 = n1 - m.bk as usize;
        let dims = [
            (28usize, m.bm as usize),
            (28, m.wm as usize),
            (n1, m.bk as usize),
            (n2, m.wk as usize),
        ];
        let mut r = idx;
        let mut sub = [0u64; 4];
        for d in (0..4).rev() {
            let (n, k) = dims[d];
            let size = BINOM[n][k];
            sub[d] = unrank(r % size, k) as u64;
            r /= size;
        }
        let limit = dims.map(|(n, _)| 1u64 << n);
        Odometer { m, sub, limit }
    }

    fn board(&self) -> Option<Board> {
        let bmen = self.sub[0] as u32;
        let wmen = (self.sub[1] as u32) << 4;
        if bmen & wmen != 0 {
            return None;
        }
        let men = bmen | wmen;
        let bk = deposit(self.sub[2] as u32, men);
        let wk = deposit(self.sub[3] as u32, men | bk);
        let _ = self.m;
        Some(Board {
            pieces: [bmen | bk, wmen | wk],
            kings: bk | wk,
            side: Color::Black,
            hash: 0,
        })
    }

    fn advance(&mut self) {
        for d in (0..4).rev() {
            let k = self.sub[d].count_ones();
            let next = if k == 0 {
                u64::MAX
            } else {
                next_combination(self.sub[d])
            };
            if next < self.limit[d] {
                self.sub[d] = next;
                return;
            }
            self.sub[d] = if k == 0 { 0 } else { (1u64 << k) - 1 };
        }
    }
}

/// A finished table: two bits a slot.
#[derive(Clone, Debug)]
struct Table {
    bits: Vec<u8>,
}

impl Table {
    #[inline]
    fn get(&self, i: u64) -> u8 {
        (self.bits[(i >> 2) as usize] >> ((i & 3) * 2)) & 3
    }

    fn pack(values: &[AtomicU8]) -> Table {
        let mut bits = vec![0u8; values.len().div_ceil(4)];
        for (i, v) in values.iter().enumerate() {
            let x = match v.load(Ordering::Relaxed) {
                WIN => WIN,
                LOSS => LOSS,
                _ => 0,
            };
            bits[i >> 2] |= x << ((i & 3) * 2);
        }
        Table { bits }
    }
}

/// A set of WLD tables, loaded in memory.
#[derive(Clone, Debug, Default)]
pub struct Egdb {
    tables: Vec<Option<Table>>,
    max_pieces: usize,
}

/// What the builder reports as it goes.
#[derive(Clone, Debug)]
pub struct BuildProgress {
    /// The material just finished (or loaded from disk).
    pub material: Material,
    /// Its number of slots.
    pub slots: u64,
    /// Passes it took (0 when loaded from disk).
    pub passes: u32,
    /// Wins, losses and draws among its positions, Black to move (zeros when loaded).
    pub counts: [u64; 3],
    /// Materials done so far and in all.
    pub done: usize,
    /// Materials in all.
    pub total: usize,
}

impl Egdb {
    /// An empty database (probes return `None`).
    pub fn empty() -> Egdb {
        Egdb {
            tables: vec![None; (MAX_PIECES + 1).pow(4)],
            max_pieces: 0,
        }
    }

    /// The largest piece count fully covered.
    pub fn max_pieces(&self) -> usize {
        self.max_pieces
    }

    /// Total bytes of the tables.
    pub fn bytes(&self) -> usize {
        self.tables.iter().flatten().map(|t| t.bits.len()).sum()
    }

    /// The value of a position (either side to move) with at most [`Egdb::max_pieces`] pieces.
    #[inline]
    pub fn probe(&self, b: &Board) -> Option<Wld> {
        let n = b.occupied().count_ones() as usize;
        if n > self.max_pieces || b.pieces(Color::Black) == 0 || b.pieces(Color::White) == 0 {
            return None;
        }
        let f;
        let b = if b.side_to_move() == Color::White {
            f = flip(b);
            &f
        } else {
            b
        };
        let m = Material::of(b);
        let t = self.tables.get(m.slot())?.as_ref()?;
        Some(Wld::from_bits(t.get(index(b, &m))))
    }

    /// Builds (in memory, no files) every table with at most `pieces` pieces.
    pub fn build_in_memory(pieces: usize) -> Result<Egdb, EgdbError> {
        Self::build(pieces, None, |_| {})
    }

    /// [`Egdb::build`] on a pool of `threads` worker threads (0: rayon's default).
    pub fn build_with_threads(
        pieces: usize,
        dir: Option<&Path>,
        threads: usize,
        progress: impl FnMut(&BuildProgress) + Send,
    ) -> Result<Egdb, EgdbError> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| EgdbError::Io {
                path: PathBuf::from("<thread pool>"),
                source: std::io::Error::other(e),
            })?;
        pool.install(|| Self::build(pieces, dir, progress))
    }

    /// Loads every table with at most `pieces` pieces from `dir`, building and writing the
    /// missing ones (resumable); `progress` is called after each material.
    pub fn build(
        pieces: usize,
        dir: Option<&Path>,
        progress: impl FnMut(&BuildProgress),
    ) -> Result<Egdb, EgdbError> {
        Self::build_by(pieces, dir, progress, solve_group)
    }

    fn build_by(
        pieces: usize,
        dir: Option<&Path>,
        mut progress: impl FnMut(&BuildProgress),
        solver: Solver,
    ) -> Result<Egdb, EgdbError> {
        if pieces > MAX_PIECES {
            return Err(EgdbError::TooManyPieces(pieces));
        }
        if let Some(d) = dir {
            std::fs::create_dir_all(d).map_err(|e| io(d, e))?;
        }
        let mut db = Egdb::empty();
        let all = Material::all_up_to(pieces);
        let total = all.len();
        let mut done = 0;
        let mut i = 0;
        while i < all.len() {
            let m = all[i];
            let twin = m.swapped();
            if db.tables[m.slot()].is_some() {
                i += 1;
                continue;
            }
            let group: Vec<Material> = if twin == m { vec![m] } else { vec![m, twin] };
            // Resume: load what is on disk.
            let mut loaded = true;
            if let Some(d) = dir {
                for g in &group {
                    match load_table(d, g)? {
                        Some(t) => db.tables[g.slot()] = Some(t),
                        None => loaded = false,
                    }
                }
            } else {
                loaded = false;
            }
            if loaded {
                for g in &group {
                    done += 1;
                    progress(&BuildProgress {
                        material: *g,
                        slots: g.size(),
                        passes: 0,
                        counts: [0; 3],
                        done,
                        total,
                    });
                }
                i += 1;
                continue;
            }
            let (tables, passes) = solver(&db, &group);
            for (g, values) in group.iter().zip(tables) {
                let mut counts = [0u64; 3];
                for v in values.iter() {
                    match v.load(Ordering::Relaxed) {
                        WIN => counts[0] += 1,
                        LOSS => counts[1] += 1,
                        UNKNOWN => counts[2] += 1,
                        _ => {}
                    }
                }
                // Unused slots (overlapping men) are packed as draws; they are never probed.
                let t = Table::pack(&values);
                if let Some(d) = dir {
                    save_table(d, g, &t)?;
                }
                db.tables[g.slot()] = Some(t);
                done += 1;
                progress(&BuildProgress {
                    material: *g,
                    slots: g.size(),
                    passes,
                    counts,
                    done,
                    total,
                });
            }
            i += 1;
        }
        db.max_pieces = pieces;
        Ok(db)
    }

    /// Loads the tables with at most `pieces` pieces from `dir` (all must be there).
    pub fn load(dir: &Path, pieces: usize) -> Result<Egdb, EgdbError> {
        if pieces > MAX_PIECES {
            return Err(EgdbError::TooManyPieces(pieces));
        }
        let mut db = Egdb::empty();
        for m in Material::all_up_to(pieces) {
            match load_table(dir, &m)? {
                Some(t) => db.tables[m.slot()] = Some(t),
                None => {
                    let path = dir.join(m.file_name());
                    return Err(io(
                        &path,
                        std::io::Error::from(std::io::ErrorKind::NotFound),
                    ));
                }
            }
        }
        db.max_pieces = pieces;
        Ok(db)
    }

    /// The largest `n` such that every table with at most `n` pieces is in `dir` (0 if none).
    pub fn complete_pieces(dir: &Path) -> usize {
        let mut n = 0;
        for p in 2..=MAX_PIECES {
            if Material::all_up_to(p)
                .iter()
                .all(|m| dir.join(m.file_name()).is_file())
            {
                n = p;
            } else {
                break;
            }
        }
        n
    }
}

fn io(path: &Path, source: std::io::Error) -> EgdbError {
    EgdbError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn load_table(dir: &Path, m: &Material) -> Result<Option<Table>, EgdbError> {
    let path = dir.join(m.file_name());
    if !path.is_file() {
        return Ok(None);
    }
    let bits = std::fs::read(&path).map_err(|e| io(&path, e))?;
    let expected = m.size().div_ceil(4);
    if bits.len() as u64 != expected {
        return Err(EgdbError::BadSize {
            path,
            expected,
            found: bits.len() as u64,
        });
    }
    Ok(Some(Table { bits }))
}

fn save_table(dir: &Path, m: &Material, t: &Table) -> Result<(), EgdbError> {
    let path = dir.join(m.file_name());
    let tmp = dir.join(format!("{}.tmp", m.file_name()));
    std::fs::write(&tmp, &t.bits).map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| io(&path, e))?;
    Ok(())
}

/// A group solver: the raw values of each table of the group and the number of passes.
type Solver = fn(&Egdb, &[Material]) -> (Vec<Vec<AtomicU8>>, u32);

/// Slots handled per parallel work item.
const CHUNK: u64 = 1 << 14;

/// Frontier entries handled per parallel work item.
const FRONTIER_CHUNK: usize = 1 << 12;

// The retrograde solver's slot states: below `R_WIN`, an unknown position's count of successors
// not yet known to be won for the opponent (plus one when a successor is a known draw, so it
// never reaches zero).
const R_WIN: u8 = 0x80;
const R_LOSS: u8 = 0x81;
const R_UNUSED: u8 = 0x82;

/// The tables of a group being solved, and what they depend on.
struct Group<'a> {
    db: &'a Egdb,
    materials: &'a [Material],
    values: Vec<Vec<AtomicU8>>,
    /// Whether the hot loops run their POPCNT/BMI2 builds (only ever true when [`native`]
    /// detects both; false in a test to compare the two builds).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    native: bool,
}

impl Group<'_> {
    /// Which table of the group holds Black-to-move positions of `m`.
    #[inline]
    fn table_of(&self, m: &Material) -> usize {
        if self.materials[0] == *m {
            0
        } else {
            1
        }
    }

    /// The value (from the mover's view, `WIN`/`LOSS`/draw as 3) of a finished table's position,
    /// for `child` with White to move and a material outside the group.
    #[inline]
    fn outside(&self, child: &Board) -> u8 {
        if child.pieces(Color::White) == 0 {
            return LOSS;
        }
        let f = flip(child);
        let m = Material::of(&f);
        match self.db.tables[m.slot()].as_ref() {
            Some(t) => match t.get(index(&f, &m)) {
                0 => 3,
                x => x,
            },
            // Cannot happen when materials are solved in order; treated as a draw.
            None => 3,
        }
    }

    /// First pass: every position's successors outside the group are looked up and its moves
    /// inside the group counted; returns the positions already decided.
    fn init(&self, t: usize) -> Vec<u32> {
        let size = self.materials[t].size();
        let lists: Vec<Vec<u32>> = (0..size.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                let (start, end) = (c * CHUNK, (c * CHUNK + CHUNK).min(size));
                #[cfg(target_arch = "x86_64")]
                if self.native {
                    // SAFETY: `self.native` is only true when the processor has POPCNT and
                    // BMI2 (checked by `native` in `solve_group_with`).
                    return unsafe { self.init_chunk_native(t, start, end) };
                }
                self.init_chunk(t, start, end)
            })
            .collect();
        lists.concat()
    }

    /// [`Group::init_chunk`] compiled for processors with POPCNT and BMI2.
    ///
    /// # Safety
    /// The processor must support POPCNT and BMI2 (checked by `native`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi2")]
    unsafe fn init_chunk_native(&self, t: usize, start: u64, end: u64) -> Vec<u32> {
        self.init_chunk(t, start, end)
    }

    #[inline(always)]
    fn init_chunk(&self, t: usize, start: u64, end: u64) -> Vec<u32> {
        let m = self.materials[t];
        let vals = &self.values[t];
        let mut odo = Odometer::at(m, start);
        let mut moves: Vec<Move> = Vec::with_capacity(32);
        let mut decided = Vec::new();
        for i in start..end {
            let v = match odo.board() {
                None => R_UNUSED,
                Some(b) => {
                    b.generate(&mut moves);
                    let kings = b.kings();
                    let mut inside = 0u8;
                    let mut draw = 0u8;
                    let mut won = false;
                    for &mv in &moves {
                        let promotes = kings & (1 << (mv.from() - 1)) == 0
                            && (1u32 << (mv.to() - 1)) & Color::Black.crown_row() != 0;
                        if !mv.is_capture() && !promotes {
                            inside += 1;
                            continue;
                        }
                        match self.outside(&b.play(mv)) {
                            LOSS => {
                                won = true;
                                break;
                            }
                            WIN => {}
                            _ => draw = 1,
                        }
                    }
                    if won {
                        R_WIN
                    } else if inside + draw == 0 {
                        R_LOSS
                    } else {
                        inside + draw
                    }
                }
            };
            if v == R_WIN || v == R_LOSS {
                decided.push(i as u32);
            }
            vals[i as usize].store(v, Ordering::Relaxed);
            odo.advance();
        }
        decided
    }

    /// Takes the decided positions `frontier` of table `t` back one move: their predecessors
    /// (in the twin table) are won, or one step nearer to lost. Returns the predecessors decided
    /// now, per table.
    fn retreat(&self, t: usize, frontier: &[u32]) -> [Vec<u32>; 2] {
        let pt = self.table_of(&self.materials[t].swapped());
        let lists: Vec<Vec<u32>> = frontier
            .par_chunks(FRONTIER_CHUNK)
            .map(|chunk| {
                #[cfg(target_arch = "x86_64")]
                if self.native {
                    // SAFETY: `self.native` is only true when the processor has POPCNT and
                    // BMI2 (checked by `native` in `solve_group_with`).
                    return unsafe { self.retreat_chunk_native(t, pt, chunk) };
                }
                self.retreat_chunk(t, pt, chunk)
            })
            .collect();
        let mut out = [Vec::new(), Vec::new()];
        out[pt] = lists.concat();
        out
    }

    /// [`Group::retreat_chunk`] compiled for processors with POPCNT and BMI2.
    ///
    /// # Safety
    /// The processor must support POPCNT and BMI2 (checked by `native`).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi2")]
    unsafe fn retreat_chunk_native(&self, t: usize, pt: usize, chunk: &[u32]) -> Vec<u32> {
        self.retreat_chunk(t, pt, chunk)
    }

    #[inline(always)]
    fn retreat_chunk(&self, t: usize, pt: usize, chunk: &[u32]) -> Vec<u32> {
        let m = self.materials[t];
        let twin = m.swapped();
        let pvals = &self.values[pt];
        let mut decided = Vec::new();
        for &i in chunk {
            let Some(b) = Odometer::at(m, u64::from(i)).board() else {
                continue;
            };
            let lost = self.values[t][i as usize].load(Ordering::Relaxed) == R_LOSS;
            unmoves(&b, |q| {
                // `q` has White to move; its table stores it flipped.
                let fq = flip(&q);
                if fq.has_capture() {
                    return; // the quiet move was not legal there
                }
                let qi = index(&fq, &twin);
                let slot = &pvals[qi as usize];
                let mut cur = slot.load(Ordering::Relaxed);
                loop {
                    if cur >= R_WIN {
                        return;
                    }
                    let next = if lost {
                        R_WIN
                    } else if cur == 1 {
                        R_LOSS
                    } else {
                        cur - 1
                    };
                    match slot.compare_exchange_weak(
                        cur,
                        next,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    ) {
                        Ok(_) => {
                            if next >= R_WIN {
                                decided.push(qi as u32);
                            }
                            return;
                        }
                        Err(now) => cur = now,
                    }
                }
            });
        }
        decided
    }
}

/// Whether the processor has POPCNT and BMI2 (the solver's hot loops are compiled for them).
#[cfg(target_arch = "x86_64")]
#[inline]
fn native() -> bool {
    std::arch::is_x86_feature_detected!("popcnt") && std::arch::is_x86_feature_detected!("bmi2")
}

/// Calls `f` with every position (White to move) from which a quiet, non-crowning White move
/// leads to `b` (Black to move): a White man steps back towards 32, a White king one square any
/// way. Whether that move was legal (no capture available) is for the caller to check.
#[inline]
fn unmoves(b: &Board, mut f: impl FnMut(Board)) {
    let occ = b.occupied();
    let white = b.pieces(Color::White);
    let mut set = white;
    while set != 0 {
        let sq = set.trailing_zeros() as usize;
        set &= set - 1;
        let bit = 1u32 << sq;
        let king = b.kings() & bit != 0;
        let dirs: &[Dir] = if king {
            &Dir::ALL
        } else {
            &[Dir::DownLeft, Dir::DownRight]
        };
        for &d in dirs {
            let n = NEIGHBOUR[d as usize][sq];
            if n == NO_SQUARE || occ & (1 << n) != 0 {
                continue;
            }
            let nb = 1u32 << n;
            f(Board {
                pieces: [b.pieces(Color::Black), (white & !bit) | nb],
                kings: if king {
                    (b.kings() & !bit) | nb
                } else {
                    b.kings()
                },
                side: Color::White,
                hash: 0,
            });
        }
    }
}

/// Solves a material (and its twin) given every table it depends on, by retrograde analysis:
/// one pass of move generation counts each position's moves inside the group and looks up the
/// others; then the decided positions are taken back move by move (un-move generation) until
/// nothing changes. Returns the values (`WIN`/`LOSS`/`UNKNOWN` = draw/`UNUSED`) and the number
/// of retrograde iterations.
fn solve_group(db: &Egdb, group: &[Material]) -> (Vec<Vec<AtomicU8>>, u32) {
    solve_group_with(db, group, true)
}

/// [`solve_group`] on the portable build of the hot loops (the reference the POPCNT/BMI2 build
/// is tested against).
#[cfg(test)]
fn solve_group_portable(db: &Egdb, group: &[Material]) -> (Vec<Vec<AtomicU8>>, u32) {
    solve_group_with(db, group, false)
}

/// [`solve_group`] with the hot loops' POPCNT/BMI2 build (`fast`, used only where [`native`]
/// says the processor has both) or the portable one.
fn solve_group_with(db: &Egdb, group: &[Material], fast: bool) -> (Vec<Vec<AtomicU8>>, u32) {
    #[cfg(target_arch = "x86_64")]
    let fast = fast && native();
    #[cfg(not(target_arch = "x86_64"))]
    let fast = {
        let _ = fast;
        false
    };
    let g = Group {
        db,
        materials: group,
        native: fast,
        values: group
            .iter()
            .map(|m| (0..m.size()).map(|_| AtomicU8::new(0)).collect())
            .collect(),
    };
    let mut frontier: Vec<Vec<u32>> = (0..group.len()).map(|t| g.init(t)).collect();
    let mut passes = 1;
    while frontier.iter().any(|f| !f.is_empty()) {
        passes += 1;
        let mut next: Vec<Vec<u32>> = vec![Vec::new(); group.len()];
        for (t, f) in frontier.iter().enumerate() {
            let [a, b] = g.retreat(t, f);
            next[0].extend(a);
            if group.len() > 1 {
                next[1].extend(b);
            } else {
                next[0].extend(b);
            }
        }
        frontier = next;
    }
    for vals in &g.values {
        vals.par_iter().for_each(|v| {
            let x = match v.load(Ordering::Relaxed) {
                R_WIN => WIN,
                R_LOSS => LOSS,
                R_UNUSED => UNUSED,
                _ => UNKNOWN,
            };
            v.store(x, Ordering::Relaxed);
        });
    }
    (g.values, passes)
}

/// The earlier solver, kept as a cross-check: passes over every unknown position until nothing
/// changes.
#[cfg(test)]
fn solve_group_fixpoint(db: &Egdb, group: &[Material]) -> (Vec<Vec<AtomicU8>>, u32) {
    let values: Vec<Vec<AtomicU8>> = group
        .iter()
        .map(|m| (0..m.size()).map(|_| AtomicU8::new(UNKNOWN)).collect())
        .collect();
    let lookup = |child: &Board| -> u8 {
        // `child` has White to move; its value from White's view.
        if child.pieces(Color::White) == 0 {
            return LOSS;
        }
        let f = flip(child);
        let m = Material::of(&f);
        let i = index(&f, &m);
        for (g, v) in group.iter().zip(&values) {
            if *g == m {
                return v[i as usize].load(Ordering::Relaxed);
            }
        }
        match db.tables[m.slot()].as_ref() {
            Some(t) => match t.get(i) {
                0 => 3, // a draw: known, and not a win
                x => x,
            },
            None => UNKNOWN,
        }
    };
    let mut passes = 0;
    loop {
        passes += 1;
        let changed = AtomicUsize::new(0);
        for (m, vals) in group.iter().zip(&values) {
            let chunks = m.size().div_ceil(CHUNK);
            (0..chunks).into_par_iter().for_each(|c| {
                let start = c * CHUNK;
                let end = (start + CHUNK).min(m.size());
                let mut odo = Odometer::at(*m, start);
                let mut moves: Vec<Move> = Vec::with_capacity(32);
                let mut n = 0;
                for i in start..end {
                    let slot = &vals[i as usize];
                    let cur = slot.load(Ordering::Relaxed);
                    if cur == UNKNOWN {
                        match odo.board() {
                            None => slot.store(UNUSED, Ordering::Relaxed),
                            Some(b) => {
                                b.generate(&mut moves);
                                let mut all_won = true;
                                let mut won = false;
                                for &mv in &moves {
                                    match lookup(&b.play(mv)) {
                                        LOSS => {
                                            won = true;
                                            break;
                                        }
                                        WIN => {}
                                        _ => all_won = false,
                                    }
                                }
                                if won {
                                    slot.store(WIN, Ordering::Relaxed);
                                    n += 1;
                                } else if all_won {
                                    slot.store(LOSS, Ordering::Relaxed);
                                    n += 1;
                                }
                            }
                        }
                    }
                    odo.advance();
                }
                changed.fetch_add(n, Ordering::Relaxed);
            });
        }
        if changed.load(Ordering::Relaxed) == 0 {
            break;
        }
    }
    (values, passes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_round_trip() {
        for (k, &count) in BINOM[10].iter().enumerate().take(4) {
            for r in 0..count {
                let s = unrank(r, k);
                assert_eq!(rank(s), r);
                assert_eq!(s.count_ones() as usize, k);
            }
        }
    }

    #[test]
    fn compress_and_deposit_are_inverse() {
        let mut x = 0x9E37_79B9u32;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let occ = x & 0x5A5A_A5A5;
            let set = x.rotate_left(7) & !occ;
            let c = compress(set, occ);
            // The BMI2 path (where the processor has it) agrees with the portable one.
            assert_eq!(c, compress_portable(set, occ));
            assert_eq!(deposit(c, occ), deposit_portable(c, occ));
            assert_eq!(c.count_ones(), set.count_ones());
            assert_eq!(deposit(c, occ), set);
            assert_eq!(unrank(rank(set), set.count_ones() as usize), set);
            assert_eq!(unrank_slow(rank(set), set.count_ones() as usize), set);
        }
    }

    /// `pext`/`pdep` themselves (not through the dispatch) against the portable loops on any
    /// occupancy, the empty and full boards and the top square included: `deposit` of any
    /// pattern, more bits than free squares too; `compress` of any set of free squares (its
    /// callers' precondition: `set & occ == 0`).
    #[test]
    fn bmi2_pext_pdep_equal_portable_on_any_bits() {
        #[cfg(target_arch = "x86_64")]
        {
            if !std::arch::is_x86_feature_detected!("bmi2") {
                eprintln!("no BMI2 on this processor: only the portable path exists");
                return;
            }
            let cases = if cfg!(miri) { 300 } else { 200_000 };
            let mut rng = qiyi_core::rng::Rng::new(465);
            let edge = [
                0,
                u32::MAX,
                1,
                1 << 31,
                u32::MAX >> 1,
                u32::MAX << 1,
                0x5555_5555,
            ];
            for i in 0..cases {
                let mut any = || match rng.below(4) {
                    0 => edge[rng.below(edge.len())],
                    _ => rng.next_u64() as u32,
                };
                let (occ, x, sub) = (any(), any(), any());
                let set = x & !occ;
                // SAFETY: the processor supports BMI2 (checked above).
                let (c, d) = unsafe { (bmi2::pext(set, !occ), bmi2::pdep(sub, !occ)) };
                assert_eq!(
                    c,
                    compress_portable(set, occ),
                    "{i}: compress {set:#x} {occ:#x}"
                );
                assert_eq!(
                    d,
                    deposit_portable(sub, occ),
                    "{i}: deposit {sub:#x} {occ:#x}"
                );
                assert_eq!(deposit_portable(c, occ), set);
            }
        }
    }

    /// Regression: more bits to deposit than free squares (found by the test above).
    #[test]
    fn deposit_drops_bits_beyond_the_free_squares() {
        assert_eq!(deposit_portable(0b11, !1), 1);
        assert_eq!(deposit_portable(u32::MAX, u32::MAX), 0);
        assert_eq!(deposit_portable(u32::MAX, 0xFFFF_0000), 0xFFFF);
        assert_eq!(deposit_portable(1 << 31, 0), 1 << 31);
    }

    /// The solver's hot loops compiled for POPCNT and BMI2 give the same tables, bit for bit, as
    /// their portable build (both run here; the database of the native build is the one checked
    /// against an exhaustive solver in tests/engine_egdb.rs).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "over 8 minutes under Miri even for 2 pieces (docs/reliability.md, item 5)"
    )]
    fn native_and_portable_solver_builds_agree() {
        #[cfg(target_arch = "x86_64")]
        if !native() {
            eprintln!("no POPCNT+BMI2 on this processor: only the portable build runs");
            return;
        }
        let pieces = 3;
        let a = Egdb::build_by(pieces, None, |_| {}, solve_group).expect("native");
        let b = Egdb::build_by(pieces, None, |_| {}, solve_group_portable).expect("portable");
        let mut compared = 0;
        for m in Material::all_up_to(pieces) {
            let (ta, tb) = (&a.tables[m.slot()], &b.tables[m.slot()]);
            assert!(ta.is_some(), "{m:?}");
            assert_eq!(
                ta.as_ref().map(|t| &t.bits),
                tb.as_ref().map(|t| &t.bits),
                "{m:?}"
            );
            compared += 1;
        }
        assert!(compared >= 4, "{compared} tables");
    }

    #[test]
    fn odometer_walks_in_index_order() {
        let m = Material {
            bm: 1,
            bk: 1,
            wm: 1,
            wk: 1,
        };
        let mut odo = Odometer::at(m, 0);
        let mut seen = 0;
        for i in 0..m.size() {
            if let Some(b) = odo.board() {
                assert_eq!(index(&b, &m), i);
                seen += 1;
            }
            let fresh = Odometer::at(m, i);
            assert_eq!(fresh.sub, odo.sub);
            odo.advance();
        }
        assert!(seen > 0);
    }

    /// Every table up to `pieces`, bit for bit (the fixpoint solver is the one checked against
    /// the exhaustive game-graph solver in tests/engine_egdb.rs).
    fn solvers_agree(pieces: usize) {
        let a = Egdb::build_by(pieces, None, |_| {}, solve_group).expect("retrograde");
        let b = Egdb::build_by(pieces, None, |_| {}, solve_group_fixpoint).expect("fixpoint");
        let mut compared = 0;
        for m in Material::all_up_to(pieces) {
            let (ta, tb) = (&a.tables[m.slot()], &b.tables[m.slot()]);
            assert_eq!(
                ta.as_ref().map(|t| &t.bits),
                tb.as_ref().map(|t| &t.bits),
                "{m:?}"
            );
            compared += 1;
        }
        assert_eq!(compared, Material::all_up_to(pieces).len());
    }

    #[test]
    fn retrograde_solver_agrees_with_fixpoint_passes() {
        solvers_agree(3);
    }

    #[test]
    #[ignore = "about a minute: cargo test -p qiyi-checkers --lib -- --ignored solvers"]
    fn retrograde_solver_agrees_with_fixpoint_passes_4_pieces() {
        solvers_agree(4);
    }

    #[test]
    fn unmoves_undo_quiet_white_moves() {
        // Every quiet non-crowning White move from a few positions is found again as an un-move.
        for fen in [
            "W:WK10,K20,14:B5,K27",
            "W:W18,22,K3:BK9,13,K30",
            "W:WK1,K32,16:B12,K21",
        ] {
            let q = crate::Checkers::from_fen(fen)
                .expect("fen")
                .board()
                .to_owned();
            let mut moves = Vec::new();
            q.generate(&mut moves);
            for mv in moves {
                let crowning = q.kings() & (1 << (mv.from() - 1)) == 0 && mv.to() <= 4;
                if mv.is_capture() || crowning {
                    continue;
                }
                let p = q.play(mv);
                let mut found = false;
                unmoves(&p, |b| {
                    found |= b.pieces == q.pieces && b.kings == q.kings && b.side == q.side
                });
                assert!(found, "{fen} {mv:?}");
            }
        }
    }

    #[test]
    fn flip_is_an_involution() {
        let b = Board::start();
        let f = flip(&flip(&b));
        assert_eq!(f.pieces, b.pieces);
        assert_eq!(f.kings, b.kings);
        assert_eq!(f.side, b.side);
    }
}
