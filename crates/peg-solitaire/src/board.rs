//! Board shapes: the holes, their names, the jumps between them and the symmetry group.
//!
//! A board is a set of holes on a lattice. Square boards (English, French, Wiegleb, diamond) use
//! the square lattice with jumps along rows and columns; triangular boards use the triangular
//! lattice with jumps along its three directions. Both are read from a text picture (`o` a peg,
//! `.` an empty hole, space no hole): a picture whose holes all alternate with spaces on a
//! staggered grid (like the triangle below) is read on the triangular lattice.
//!
//! ```text
//!   ooo            .
//!   ooo           o o
//! ooooooo        o o o
//! ooo.ooo       o o o o
//! ooooooo      o o o o o
//!   ooo
//!   ooo
//! ```
//!
//! Holes are numbered in reading order (bit `i` of a bitboard is hole `i`) and named letter + row:
//! on square boards the letter is the column from the left and the row counts from the top (the
//! English centre is `d4`); on triangular boards the row counts from the top and the letter is the
//! place in the row (the apex of a triangle is `a1`).
//!
//! The symmetry group is computed from the shape: every rotation and reflection of the lattice
//! (8 for the square lattice, 12 for the triangular one) that maps the set of holes onto itself,
//! after a translation.

use crate::error::PegError;
pub use crate::jump::Jump;
use std::collections::HashMap;
use std::fmt;

/// The lattice a board lives on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lattice {
    /// Square lattice, jumps along rows and columns.
    Square,
    /// Triangular lattice, jumps along its three directions.
    Triangular,
}

/// A board shape with its derived tables.
#[derive(Clone)]
pub struct Board {
    name: String,
    lattice: Lattice,
    /// Lattice coordinates: (x, y) on the square lattice, axial (q, r) on the triangular one.
    coords: Vec<(i32, i32)>,
    /// Picture position (column, line) of each hole.
    pic: Vec<(usize, usize)>,
    names: Vec<String>,
    by_name: HashMap<String, usize>,
    jumps: Vec<Jump>,
    /// Symmetries as permutations of holes (`perm[i]` = image of hole `i`); identity first.
    symmetries: Vec<Vec<u8>>,
    /// Bitmasks of the position-class invariants (see [`Board::class_of`]).
    class_masks: Vec<u128>,
    /// The pegs of the picture the board was read from (its default start).
    default_start: u128,
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.lattice == other.lattice && self.coords == other.coords
    }
}
impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({}, {:?}, {} holes, {} jumps, {} symmetries)",
            self.name,
            self.lattice,
            self.coords.len(),
            self.jumps.len(),
            self.symmetries.len()
        )
    }
}

/// Names accepted by [`Board::named`], with a one-line description.
pub const BOARD_NAMES: &[(&str, &str)] = &[
    ("english", "English 33-hole cross (centre d4)"),
    ("french", "French / European 37-hole board (centre d4)"),
    ("wiegleb", "Wiegleb 45-hole cross on a 9x9 grid (centre e5)"),
    ("diamond", "41-hole diamond (centre e5)"),
    (
        "triangle",
        "15-hole triangle, side 5 (apex a1); triangle:N for sides 4 to 8",
    ),
];

fn square_picture(size: i32, keep: impl Fn(i32, i32) -> bool) -> String {
    let c = size / 2;
    let mut out = String::new();
    for y in 0..size {
        let line: String = (0..size)
            .map(|x| {
                if !keep(x, y) {
                    ' '
                } else if x == c && y == c {
                    '.'
                } else {
                    'o'
                }
            })
            .collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

fn triangle_picture(side: usize) -> String {
    let mut out = String::new();
    for r in 0..side {
        out.push_str(&" ".repeat(side - 1 - r));
        let row: Vec<&str> = (0..=r)
            .map(|i| if r == 0 && i == 0 { "." } else { "o" })
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

impl Board {
    /// A built-in board by name: `english` (alias `33`), `french` (`european`, `37`), `wiegleb`
    /// (`45`), `diamond` (`41`), `triangle` (the 15-hole triangle) or `triangle:N` (side 4-8).
    ///
    /// Built-in boards start full except the centre (the apex for triangles).
    pub fn named(name: &str) -> Result<Board, PegError> {
        let lower = name.trim().to_ascii_lowercase();
        let (canonical, picture) = match lower.as_str() {
            "english" | "33" | "british" => (
                "english".to_string(),
                square_picture(7, |x, y| (x - 3).abs() <= 1 || (y - 3).abs() <= 1),
            ),
            "french" | "european" | "37" => (
                "french".to_string(),
                square_picture(7, |x, y| (x - 3).abs() + (y - 3).abs() <= 4),
            ),
            "wiegleb" | "45" => (
                "wiegleb".to_string(),
                square_picture(9, |x, y| (x - 4).abs() <= 1 || (y - 4).abs() <= 1),
            ),
            "diamond" | "41" => (
                "diamond".to_string(),
                square_picture(9, |x, y| (x - 4).abs() + (y - 4).abs() <= 4),
            ),
            "triangle" | "15" => ("triangle:5".to_string(), triangle_picture(5)),
            other => match other.strip_prefix("triangle:") {
                Some(side) => {
                    let n: usize = side
                        .trim()
                        .parse()
                        .map_err(|_| PegError::TriangleSide(side.to_string()))?;
                    if !(4..=8).contains(&n) {
                        return Err(PegError::TriangleSide(side.to_string()));
                    }
                    (format!("triangle:{n}"), triangle_picture(n))
                }
                None => return Err(PegError::UnknownBoard(name.to_string())),
            },
        };
        let mut board = Board::from_picture(&picture)?;
        board.name = canonical;
        Ok(board)
    }

    /// Reads a board (and its pegs, available as [`Board::picture_start`]) from a text picture.
    ///
    /// Lines starting with `#` are comments; blank lines before and after the picture are ignored.
    pub fn from_picture(text: &str) -> Result<Board, PegError> {
        let mut cells: Vec<(usize, usize, bool)> = Vec::new();
        let lines: Vec<&str> = text.lines().collect();
        let mut y = 0usize;
        let mut started = false;
        let mut pending_blank = 0usize;
        for (li, raw) in lines.iter().enumerate() {
            let line = raw.trim_end_matches(['\r', ' ']);
            if line.starts_with('#') {
                continue;
            }
            if line.is_empty() {
                if started {
                    pending_blank += 1;
                }
                continue;
            }
            if started {
                y += 1 + pending_blank;
            }
            pending_blank = 0;
            started = true;
            for (x, ch) in line.chars().enumerate() {
                match ch {
                    'o' | 'O' => cells.push((x, y, true)),
                    '.' => cells.push((x, y, false)),
                    ' ' => {}
                    _ => {
                        return Err(PegError::BadChar {
                            line: li + 1,
                            column: x + 1,
                            ch,
                        })
                    }
                }
            }
        }
        if cells.is_empty() {
            return Err(PegError::EmptyBoard);
        }
        if cells.len() > 128 {
            return Err(PegError::TooManyHoles(cells.len()));
        }
        let minx = cells.iter().map(|c| c.0).min().unwrap_or(0);
        for c in &mut cells {
            c.0 -= minx;
        }
        let width = cells.iter().map(|c| c.0).max().unwrap_or(0) + 1;
        let height = cells.iter().map(|c| c.1).max().unwrap_or(0) + 1;
        let parity = (cells[0].0 + cells[0].1) % 2;
        let occupied: std::collections::HashSet<(usize, usize)> =
            cells.iter().map(|c| (c.0, c.1)).collect();
        let triangular = cells.len() >= 2
            && cells.iter().all(|c| (c.0 + c.1) % 2 == parity)
            && !cells.iter().any(|c| occupied.contains(&(c.0 + 1, c.1)));
        let lattice = if triangular {
            Lattice::Triangular
        } else {
            Lattice::Square
        };
        if height > 99 || (!triangular && width > 26) {
            return Err(PegError::TooLarge { width, height });
        }
        let mut coords = Vec::with_capacity(cells.len());
        let mut names = Vec::with_capacity(cells.len());
        let mut pic = Vec::with_capacity(cells.len());
        let mut start = 0u128;
        for (i, &(x, y, peg)) in cells.iter().enumerate() {
            if peg {
                start |= 1u128 << i;
            }
            pic.push((x, y));
            if triangular {
                let xi = x as i32 - parity as i32;
                let q = (xi - y as i32).div_euclid(2);
                coords.push((q, y as i32));
                let row_min = cells
                    .iter()
                    .filter(|c| c.1 == y)
                    .map(|c| c.0)
                    .min()
                    .unwrap_or(x);
                let place = (x - row_min) / 2;
                if place >= 26 {
                    return Err(PegError::TooLarge {
                        width: place + 1,
                        height,
                    });
                }
                names.push(format!("{}{}", (b'a' + place as u8) as char, y + 1));
            } else {
                coords.push((x as i32, y as i32));
                names.push(format!("{}{}", (b'a' + x as u8) as char, y + 1));
            }
        }
        let by_name = names
            .iter()
            .enumerate()
            .map(|(i, n)| (n.clone(), i))
            .collect();
        let mut board = Board {
            name: "custom".to_string(),
            lattice,
            coords,
            pic,
            names,
            by_name,
            jumps: Vec::new(),
            symmetries: Vec::new(),
            class_masks: Vec::new(),
            default_start: start,
        };
        board.jumps = board.compute_jumps();
        board.symmetries = board.compute_symmetries();
        board.class_masks = crate::classes::invariant_masks(board.len(), &board.jumps);
        Ok(board)
    }

    /// The board's name (`english`, `triangle:5`, ... or `custom`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The lattice of the board.
    pub fn lattice(&self) -> Lattice {
        self.lattice
    }

    /// Number of holes.
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    /// Always false: a board has at least one hole.
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The set of all holes.
    pub fn full(&self) -> u128 {
        if self.len() == 128 {
            u128::MAX
        } else {
            (1u128 << self.len()) - 1
        }
    }

    /// The pegs of the picture the board was read from (full except the centre for built-ins).
    pub fn picture_start(&self) -> u128 {
        self.default_start
    }

    /// The name of hole `i` (`d4`).
    pub fn hole_name(&self, i: usize) -> &str {
        &self.names[i]
    }

    /// The hole called `name` (case-insensitive).
    pub fn hole(&self, name: &str) -> Result<usize, PegError> {
        self.by_name
            .get(&name.trim().to_ascii_lowercase())
            .copied()
            .ok_or_else(|| PegError::UnknownHole(name.to_string()))
    }

    /// The centre hole: the hole fixed by every symmetry, if there is exactly one.
    pub fn centre(&self) -> Option<usize> {
        let fixed: Vec<usize> = (0..self.len())
            .filter(|&i| self.symmetries.iter().all(|p| p[i] as usize == i))
            .collect();
        (fixed.len() == 1).then(|| fixed[0])
    }

    /// Lattice coordinates of each hole: (column, row) on square boards, axial (q, r) on
    /// triangular ones; the top-left hole of a square board's bounding box is (0, 0).
    pub fn coords(&self) -> &[(i32, i32)] {
        &self.coords
    }

    /// Every jump of the board (both directions of every line of three holes).
    pub fn jumps(&self) -> &[Jump] {
        &self.jumps
    }

    /// The symmetries as permutations of holes (identity first).
    pub fn symmetries(&self) -> &[Vec<u8>] {
        &self.symmetries
    }

    /// Applies symmetry `perm` to a set of holes.
    pub fn apply(&self, perm: &[u8], set: u128) -> u128 {
        let mut out = 0u128;
        let mut s = set;
        while s != 0 {
            let i = s.trailing_zeros() as usize;
            s &= s - 1;
            out |= 1u128 << perm[i];
        }
        out
    }

    /// The smallest image of `set` under the symmetries listed in `group` (indices into
    /// [`Board::symmetries`]).
    pub fn canonical_in(&self, group: &[usize], set: u128) -> u128 {
        group
            .iter()
            .map(|&g| self.apply(&self.symmetries[g], set))
            .min()
            .unwrap_or(set)
    }

    /// Indices of the symmetries that map `set` onto itself.
    pub fn stabilizer(&self, set: u128) -> Vec<usize> {
        (0..self.symmetries.len())
            .filter(|&g| self.apply(&self.symmetries[g], set) == set)
            .collect()
    }

    /// The masks of the position-class invariants (see [`crate::classes`]).
    pub fn class_masks(&self) -> &[u128] {
        &self.class_masks
    }

    /// The position class of a set of pegs: bit `k` is the parity of the pegs on class mask `k`.
    /// Jumps never change it.
    pub fn class_of(&self, set: u128) -> u32 {
        self.class_masks
            .iter()
            .enumerate()
            .map(|(k, &m)| ((set & m).count_ones() & 1) << k)
            .fold(0, |a, b| a | b)
    }

    /// The picture of a position: `o` peg, `.` empty hole, space no hole (compact, one line per
    /// row, read back by [`Board::from_picture`]).
    pub fn picture(&self, pegs: u128) -> String {
        self.render(pegs, false)
    }

    /// The picture with a space between columns on square boards (easier to read; not meant to
    /// be read back).
    pub fn picture_spaced(&self, pegs: u128) -> String {
        self.render(pegs, self.lattice == Lattice::Square)
    }

    fn render(&self, pegs: u128, spaced: bool) -> String {
        let width = self.pic.iter().map(|p| p.0).max().unwrap_or(0) + 1;
        let height = self.pic.iter().map(|p| p.1).max().unwrap_or(0) + 1;
        let mut grid = vec![vec![' '; width]; height];
        for (i, &(x, y)) in self.pic.iter().enumerate() {
            grid[y][x] = if pegs >> i & 1 == 1 { 'o' } else { '.' };
        }
        let mut out = String::new();
        for row in grid {
            let line: String = if spaced {
                let cells: Vec<String> = row.iter().map(|c| c.to_string()).collect();
                cells.join(" ")
            } else {
                row.into_iter().collect()
            };
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    fn index_of(&self) -> HashMap<(i32, i32), usize> {
        self.coords
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i))
            .collect()
    }

    fn directions(&self) -> &'static [(i32, i32)] {
        match self.lattice {
            Lattice::Square => &[(1, 0), (-1, 0), (0, 1), (0, -1)],
            Lattice::Triangular => &[(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)],
        }
    }

    fn compute_jumps(&self) -> Vec<Jump> {
        let index = self.index_of();
        let mut jumps = Vec::new();
        for (a, &(x, y)) in self.coords.iter().enumerate() {
            for &(dx, dy) in self.directions() {
                let b = index.get(&(x + dx, y + dy));
                let c = index.get(&(x + 2 * dx, y + 2 * dy));
                if let (Some(&b), Some(&c)) = (b, c) {
                    jumps.push(Jump {
                        from: a as u8,
                        over: b as u8,
                        to: c as u8,
                    });
                }
            }
        }
        jumps
    }

    fn compute_symmetries(&self) -> Vec<Vec<u8>> {
        type Map = fn((i32, i32)) -> (i32, i32);
        let square: [Map; 8] = [
            |(x, y)| (x, y),
            |(x, y)| (-y, x),
            |(x, y)| (-x, -y),
            |(x, y)| (y, -x),
            |(x, y)| (-x, y),
            |(x, y)| (x, -y),
            |(x, y)| (y, x),
            |(x, y)| (-y, -x),
        ];
        // Axial (q, r) with s = -q - r: the 12 maps permute (q, r, s), optionally negated.
        let triangular: [Map; 12] = [
            |(q, r)| (q, r),
            |(q, r)| (r, -q - r),
            |(q, r)| (-q - r, q),
            |(q, r)| (r, q),
            |(q, r)| (q, -q - r),
            |(q, r)| (-q - r, r),
            |(q, r)| (-q, -r),
            |(q, r)| (-r, q + r),
            |(q, r)| (q + r, -q),
            |(q, r)| (-r, -q),
            |(q, r)| (-q, q + r),
            |(q, r)| (q + r, -r),
        ];
        let maps: &[Map] = match self.lattice {
            Lattice::Square => &square,
            Lattice::Triangular => &triangular,
        };
        let index = self.index_of();
        let key = |c: &(i32, i32)| (c.1, c.0);
        let origin = self
            .coords
            .iter()
            .min_by_key(|c| key(c))
            .copied()
            .unwrap_or((0, 0));
        let mut out: Vec<Vec<u8>> = Vec::new();
        for map in maps {
            let images: Vec<(i32, i32)> = self.coords.iter().map(|&c| map(c)).collect();
            let low = images
                .iter()
                .min_by_key(|c| key(c))
                .copied()
                .unwrap_or((0, 0));
            let (dx, dy) = (origin.0 - low.0, origin.1 - low.1);
            let perm: Option<Vec<u8>> = images
                .iter()
                .map(|&(x, y)| index.get(&(x + dx, y + dy)).map(|&i| i as u8))
                .collect();
            if let Some(perm) = perm {
                if !out.contains(&perm) {
                    out.push(perm);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    // The class masks come from `crate::classes::invariant_masks`; these check them on real
    // boards, so they live with the board (classes.rs stays below board.rs).
    use super::Board;

    #[test]
    fn every_jump_keeps_every_invariant() {
        for name in [
            "english",
            "french",
            "wiegleb",
            "diamond",
            "triangle:5",
            "triangle:8",
        ] {
            let b = Board::named(name).unwrap();
            assert!(!b.class_masks().is_empty(), "{name} has no invariant");
            for j in b.jumps() {
                for &m in b.class_masks() {
                    assert_eq!((j.mask() & m).count_ones() % 2, 0, "{name}");
                }
            }
        }
    }

    #[test]
    fn english_board_has_sixteen_classes() {
        let b = Board::named("english").unwrap();
        assert_eq!(b.class_masks().len(), 4);
    }
}
