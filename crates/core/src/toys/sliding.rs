//! Sliding-tile puzzles (the 8-puzzle and its relatives up to 16 cells), the test bed of the
//! single-agent solvers in [`crate::puzzle`].
//!
//! Tiles are numbered `1..cells`, 0 is the blank; the goal has the tiles in reading order with the
//! blank last (`1 2 3 / 4 5 6 / 7 8 0`). A move slides the blank up, down, left or right. The
//! heuristic is the Manhattan distance (admissible and consistent); square boards have a symmetry
//! (reflection in the main diagonal with tiles relabelled), used by [`Puzzle::canonical`]. Moves are
//! reversible, so the predecessors of a state are its successors.
//!
//! Text: rows separated by `/`, tiles by spaces or commas (`8 6 7/2 5 4/3 0 1`); a square board may
//! leave out the slashes, and a 3x3 board may be nine digits (`867254301`).

use crate::game::Puzzle;

/// The most cells a board may have (a state packs 4 bits per cell into a `u64`).
pub const MAX_CELLS: usize = 16;

/// A direction the blank moves in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Slide {
    /// The blank moves up (the tile above it moves down).
    Up,
    /// The blank moves down.
    Down,
    /// The blank moves left.
    Left,
    /// The blank moves right.
    Right,
}

impl Slide {
    /// The move that undoes this one.
    pub fn inverse(self) -> Slide {
        match self {
            Slide::Up => Slide::Down,
            Slide::Down => Slide::Up,
            Slide::Left => Slide::Right,
            Slide::Right => Slide::Left,
        }
    }

    /// One letter: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Slide::Up => 'U',
            Slide::Down => 'D',
            Slide::Left => 'L',
            Slide::Right => 'R',
        }
    }
}

/// A board state: tile numbers packed 4 bits per cell (cell 0 in the low bits) and the blank cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tiles {
    /// The packed tiles.
    pub cells: u64,
    /// The cell of the blank.
    pub blank: u8,
}

impl Tiles {
    /// The tile on `cell` (0 for the blank).
    #[inline]
    pub fn get(&self, cell: usize) -> u8 {
        ((self.cells >> (4 * cell)) & 0xF) as u8
    }

    #[inline]
    fn with_blank_moved(&self, to: usize) -> Tiles {
        let tile = (self.cells >> (4 * to)) & 0xF;
        let cells = (self.cells & !(0xF << (4 * to))) | (tile << (4 * self.blank as usize));
        Tiles {
            cells,
            blank: to as u8,
        }
    }
}

/// Why a board could not be built or read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SlidingError {
    /// The board size is not supported.
    #[error("a board is 2x2 to 16 cells, got {width}x{height}")]
    BadSize {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// The tiles are not a permutation of `0..cells`.
    #[error("the tiles must be 0..{cells} once each, got {tiles:?}")]
    NotAPermutation {
        /// Number of cells.
        cells: usize,
        /// What was given.
        tiles: Vec<u8>,
    },
    /// The text could not be read.
    #[error("cannot read a board from {0:?}")]
    BadText(String),
    /// The rows have different lengths.
    #[error("rows have different lengths in {0:?}")]
    RaggedRows(String),
}

/// A sliding-tile puzzle instance: the board size, the start and precomputed tables.
#[derive(Clone, Debug)]
pub struct SlidingPuzzle {
    width: usize,
    height: usize,
    start: Tiles,
    goal: Tiles,
    /// `manhattan[tile * 16 + cell]`: distance of `tile` on `cell` from its goal cell.
    manhattan: [u8; MAX_CELLS * MAX_CELLS],
    /// Tile relabelling for the diagonal reflection (square boards).
    relabel: [u8; MAX_CELLS],
}

impl SlidingPuzzle {
    /// A puzzle of `width` x `height` starting from `tiles` (row by row, 0 the blank).
    pub fn new(width: usize, height: usize, tiles: &[u8]) -> Result<Self, SlidingError> {
        let cells = width * height;
        if width < 2 || height < 2 || cells > MAX_CELLS {
            return Err(SlidingError::BadSize { width, height });
        }
        let mut seen = [false; MAX_CELLS];
        let ok = tiles.len() == cells
            && tiles
                .iter()
                .all(|&t| (t as usize) < cells && !std::mem::replace(&mut seen[t as usize], true));
        if !ok {
            return Err(SlidingError::NotAPermutation {
                cells,
                tiles: tiles.to_vec(),
            });
        }
        let pack = |tiles: &[u8]| {
            let mut packed = 0u64;
            let mut blank = 0;
            for (cell, &t) in tiles.iter().enumerate() {
                packed |= (t as u64) << (4 * cell);
                if t == 0 {
                    blank = cell as u8;
                }
            }
            Tiles {
                cells: packed,
                blank,
            }
        };
        let goal_tiles: Vec<u8> = (1..cells as u8).chain([0]).collect();
        let mut manhattan = [0u8; MAX_CELLS * MAX_CELLS];
        for tile in 1..cells {
            let home = tile - 1;
            for cell in 0..cells {
                let d =
                    (home / width).abs_diff(cell / width) + (home % width).abs_diff(cell % width);
                manhattan[tile * MAX_CELLS + cell] = d as u8;
            }
        }
        let mut relabel = [0u8; MAX_CELLS];
        if width == height {
            for (tile, slot) in relabel.iter_mut().enumerate().take(cells).skip(1) {
                let home = tile - 1;
                let mirrored = (home % width) * width + home / width;
                *slot = goal_tiles[mirrored];
            }
        }
        Ok(SlidingPuzzle {
            width,
            height,
            start: pack(tiles),
            goal: pack(&goal_tiles),
            manhattan,
            relabel,
        })
    }

    /// The 3x3 puzzle (8-puzzle) from nine tiles.
    pub fn eight(tiles: [u8; 9]) -> Result<Self, SlidingError> {
        Self::new(3, 3, &tiles)
    }

    /// Reads a board (see the module documentation for the format).
    pub fn parse(text: &str) -> Result<Self, SlidingError> {
        let trimmed = text.trim();
        if trimmed.len() == 9 && trimmed.bytes().all(|b| b.is_ascii_digit()) {
            let tiles: Vec<u8> = trimmed.bytes().map(|b| b - b'0').collect();
            return Self::new(3, 3, &tiles);
        }
        let bad = || SlidingError::BadText(text.to_string());
        let mut rows: Vec<Vec<u8>> = Vec::new();
        for row in trimmed.split(['/', '\n']) {
            let tiles = row
                .split([' ', ',', '\t', '\r'])
                .filter(|t| !t.is_empty())
                .map(|t| t.parse::<u8>().map_err(|_| bad()))
                .collect::<Result<Vec<u8>, _>>()?;
            if !tiles.is_empty() {
                rows.push(tiles);
            }
        }
        let (width, height, tiles) = match rows.len() {
            0 => return Err(bad()),
            1 => {
                let n = rows[0].len();
                let side = (1..=4).find(|s| s * s == n).ok_or_else(bad)?;
                (side, side, rows.swap_remove(0))
            }
            h => {
                let w = rows[0].len();
                if rows.iter().any(|r| r.len() != w) {
                    return Err(SlidingError::RaggedRows(text.to_string()));
                }
                (w, h, rows.concat())
            }
        };
        Self::new(width, height, &tiles)
    }

    /// A puzzle of the same size starting from `state`.
    pub fn with_start(&self, state: Tiles) -> Self {
        SlidingPuzzle {
            start: state,
            ..self.clone()
        }
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The goal state.
    pub fn goal(&self) -> Tiles {
        self.goal
    }

    /// Whether the goal can be reached from the start (the permutation-parity test).
    pub fn is_solvable(&self) -> bool {
        self.parity(&self.start) == self.parity(&self.goal)
    }

    /// Inversion parity of the tiles plus, for even widths, the blank's row.
    fn parity(&self, state: &Tiles) -> usize {
        let cells = self.width * self.height;
        let tiles: Vec<u8> = (0..cells)
            .map(|c| state.get(c))
            .filter(|&t| t != 0)
            .collect();
        let mut inversions = 0;
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                if tiles[i] > tiles[j] {
                    inversions += 1;
                }
            }
        }
        let row = if self.width % 2 == 0 {
            state.blank as usize / self.width
        } else {
            0
        };
        (inversions + row) % 2
    }

    /// Applies `mv` to `state`, or `None` when the blank would leave the board.
    #[inline]
    pub fn apply(&self, state: &Tiles, mv: Slide) -> Option<Tiles> {
        let b = state.blank as usize;
        let (w, h) = (self.width, self.height);
        let to = match mv {
            Slide::Up if b >= w => b - w,
            Slide::Down if b + w < w * h => b + w,
            Slide::Left if b % w > 0 => b - 1,
            Slide::Right if b % w + 1 < w => b + 1,
            _ => return None,
        };
        Some(state.with_blank_moved(to))
    }

    /// The board as text, rows separated by `/`.
    pub fn state_to_text(&self, state: &Tiles) -> String {
        (0..self.height)
            .map(|r| {
                (0..self.width)
                    .map(|c| state.get(r * self.width + c).to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("/")
    }

    fn transposed(&self, state: &Tiles) -> Tiles {
        let w = self.width;
        let mut cells = 0u64;
        for cell in 0..w * w {
            let mirrored = (cell % w) * w + cell / w;
            let tile = self.relabel[state.get(cell) as usize];
            cells |= (tile as u64) << (4 * mirrored);
        }
        let b = state.blank as usize;
        Tiles {
            cells,
            blank: ((b % w) * w + b / w) as u8,
        }
    }
}

const SLIDES: [Slide; 4] = [Slide::Up, Slide::Down, Slide::Left, Slide::Right];

impl Puzzle for SlidingPuzzle {
    type State = Tiles;
    type Move = Slide;

    fn start(&self) -> Tiles {
        self.start
    }

    fn is_goal(&self, state: &Tiles) -> bool {
        *state == self.goal
    }

    #[inline]
    fn successors(&self, state: &Tiles, out: &mut Vec<(Slide, Tiles)>) {
        out.clear();
        for mv in SLIDES {
            if let Some(next) = self.apply(state, mv) {
                out.push((mv, next));
            }
        }
    }

    #[inline]
    fn heuristic(&self, state: &Tiles) -> u32 {
        let mut sum = 0u32;
        let mut cells = state.cells;
        for cell in 0..self.width * self.height {
            let tile = (cells & 0xF) as usize;
            sum += self.manhattan[tile * MAX_CELLS + cell] as u32;
            cells >>= 4;
        }
        sum
    }

    fn canonical(&self, state: &Tiles) -> Tiles {
        if self.width == self.height {
            (*state).min(self.transposed(state))
        } else {
            *state
        }
    }

    fn predecessors(&self, state: &Tiles, out: &mut Vec<(Slide, Tiles)>) {
        out.clear();
        for mv in SLIDES {
            if let Some(prev) = self.apply(state, mv) {
                // From `prev`, the inverse slide leads back to `state`.
                out.push((mv.inverse(), prev));
            }
        }
    }

    fn goals(&self) -> Vec<Tiles> {
        vec![self.goal]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn goal_and_heuristic() {
        let p = SlidingPuzzle::parse("1 2 3/4 5 6/7 8 0").unwrap();
        assert!(p.is_goal(&p.start()));
        assert_eq!(p.heuristic(&p.start()), 0);
        let hard = SlidingPuzzle::parse("867254301").unwrap();
        assert!(hard.is_solvable());
        assert_eq!(hard.heuristic(&hard.start()), 21);
        assert_eq!(hard.state_to_text(&hard.start()), "8 6 7/2 5 4/3 0 1");
        let unsolvable = SlidingPuzzle::parse("1 2 3/4 5 6/8 7 0").unwrap();
        assert!(!unsolvable.is_solvable());
    }

    #[test]
    fn moves_and_symmetry() {
        let p = SlidingPuzzle::parse("1 2 3/4 5 6/7 8 0").unwrap();
        let mut out = Vec::new();
        p.successors(&p.start(), &mut out);
        assert_eq!(out.len(), 2);
        for &(mv, next) in &out {
            assert_eq!(p.apply(&next, mv.inverse()), Some(p.start()));
            // The goal is symmetric, and so is the distance to it.
            assert_eq!(p.canonical(&next), p.canonical(&p.transposed(&next)));
            assert_eq!(p.heuristic(&next), p.heuristic(&p.transposed(&next)));
        }
        assert_eq!(p.transposed(&p.goal()), p.goal());
        let mut preds = Vec::new();
        p.predecessors(&p.start(), &mut preds);
        for &(mv, prev) in &preds {
            assert_eq!(p.apply(&prev, mv), Some(p.start()));
        }
    }

    #[test]
    fn bad_boards_are_errors() {
        assert!(SlidingPuzzle::parse("1 2 3/4 5 6/7 8 8").is_err());
        assert!(SlidingPuzzle::parse("1 2 3/4 5/7 8 0").is_err());
        assert!(SlidingPuzzle::parse("").is_err());
        assert!(SlidingPuzzle::parse("1 2 x").is_err());
        assert!(SlidingPuzzle::new(5, 5, &[0; 25]).is_err());
        assert!(SlidingPuzzle::parse("0 1 2 3/4 5 6 7/8 9 10 11/12 13 14 15").is_ok());
    }

    proptest::proptest! {
        #[test]
        fn parse_never_panics(s in "\\PC{0,60}") {
            let _ = SlidingPuzzle::parse(&s);
        }

        #[test]
        fn parse_digits_never_panics(s in "[0-9 /,]{0,40}") {
            if let Ok(p) = SlidingPuzzle::parse(&s) {
                let _ = p.heuristic(&p.start());
                let _ = p.canonical(&p.start());
            }
        }
    }
}
