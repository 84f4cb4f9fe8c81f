//! The 121-hole star: cells, coordinates, neighbour and hop tables, the six point triangles.
//!
//! # Coordinates
//!
//! Every hole has cube coordinates `(x, y, z)` with `x + y + z = 0`. The star is the union of two
//! triangles of side 13: `x, y, z <= 4` (point up) and `x, y, z >= -4` (point down); their
//! intersection is the central hexagon of 61 holes, and each of the six points holds 10 holes.
//! Rows are horizontal: `z` runs from -8 (the top tip) to 8 (the bottom tip), and within a row `x`
//! grows to the right.
//!
//! Holes are **named** by row letter and position in the row, as drawn on the page: rows `a` (top,
//! 1 hole) to `q` (bottom, 1 hole) have 1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1
//! holes, numbered from 1 at the left. So `a1` is the top tip, `i5` the centre, `q1` the bottom tip,
//! `e1` and `e13` the left and right ends of the fifth row. The index of a hole ([`Cell`]) is its
//! position in reading order (row by row, left to right): 0 = `a1`, 60 = `i5`, 120 = `q1`.
//!
//! # Points
//!
//! The points are numbered clockwise from the top: 0 top (`z <= -5`), 1 upper right (`x >= 5`),
//! 2 lower right (`y <= -5`), 3 bottom (`z >= 5`), 4 lower left (`x <= -5`), 5 upper left
//! (`y >= 5`). Point `k` faces point `(k + 3) % 6`.

/// Number of holes on the board.
pub const CELLS: usize = 121;
/// Number of rows.
pub const ROWS: usize = 17;
/// Holes per row, top to bottom.
pub const ROW_LEN: [u8; ROWS] = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
/// Marker for "no hole" in the neighbour tables.
pub const NONE: u8 = u8::MAX;

/// A hole, by its index in reading order (0..121).
pub type Cell = u8;

/// The six directions as cube-coordinate steps, clockwise from "east":
/// 0 E, 1 SE, 2 SW, 3 W, 4 NW, 5 NE. Direction `d` is opposite `(d + 3) % 6`.
pub const DIRS: [(i8, i8, i8); 6] = [
    (1, -1, 0),
    (0, -1, 1),
    (-1, 0, 1),
    (-1, 1, 0),
    (0, 1, -1),
    (1, 0, -1),
];

/// The precomputed board tables (built at compile time).
pub struct Geometry {
    /// Cube coordinates of each hole.
    pub coords: [(i8, i8, i8); CELLS],
    /// Row (0..17) of each hole.
    pub row: [u8; CELLS],
    /// Position in its row (0-based) of each hole.
    pub col: [u8; CELLS],
    /// Index of the first hole of each row.
    pub row_start: [u8; ROWS],
    /// Neighbour of each hole in each direction ([`NONE`] off the board).
    pub neighbours: [[u8; 6]; CELLS],
    /// The hole two steps away in each direction (the landing hole of a hop), or [`NONE`].
    pub jumps: [[u8; 6]; CELLS],
    /// The 10 holes of each point (bitboards).
    pub points: [u128; 6],
    /// The 15-hole triangles (the point and the next row of 5 toward the centre).
    pub points15: [u128; 6],
    /// The tip hole of each point.
    pub tips: [u8; 6],
    /// Hex distance between every pair of holes.
    pub dist: [[u8; CELLS]; CELLS],
}

const fn in_star(x: i8, y: i8, z: i8) -> bool {
    if x + y + z != 0 {
        return false;
    }
    (x <= 4 && y <= 4 && z <= 4) || (x >= -4 && y >= -4 && z >= -4)
}

const fn abs(v: i8) -> i8 {
    if v < 0 {
        -v
    } else {
        v
    }
}

/// The axis (0 = x, 1 = y, 2 = z) and sign that define point `k`.
pub const POINT_AXIS: [(usize, i8); 6] = [(2, -1), (0, 1), (1, -1), (2, 1), (0, -1), (1, 1)];

const fn build() -> Geometry {
    let mut g = Geometry {
        coords: [(0, 0, 0); CELLS],
        row: [0; CELLS],
        col: [0; CELLS],
        row_start: [0; ROWS],
        neighbours: [[NONE; 6]; CELLS],
        jumps: [[NONE; 6]; CELLS],
        points: [0; 6],
        points15: [0; 6],
        tips: [0; 6],
        dist: [[0; CELLS]; CELLS],
    };
    let mut min_x = [0i8; ROWS];
    let mut i = 0usize;
    let mut z = -8i8;
    while z <= 8 {
        let r = (z + 8) as usize;
        g.row_start[r] = i as u8;
        let mut c = 0u8;
        let mut first = true;
        let mut x = -8i8;
        while x <= 8 {
            let y = -x - z;
            if in_star(x, y, z) {
                if first {
                    min_x[r] = x;
                    first = false;
                }
                g.coords[i] = (x, y, z);
                g.row[i] = r as u8;
                g.col[i] = c;
                c += 1;
                i += 1;
            }
            x += 1;
        }
        z += 1;
    }
    // Neighbours and jumps by searching coordinates (compile time, so speed does not matter).
    let mut a = 0;
    while a < CELLS {
        let (x, y, z) = g.coords[a];
        let mut d = 0;
        while d < 6 {
            let (dx, dy, dz) = DIRS[d];
            g.neighbours[a][d] = find(&g.row_start, &min_x, x + dx, y + dy, z + dz);
            g.jumps[a][d] = find(&g.row_start, &min_x, x + 2 * dx, y + 2 * dy, z + 2 * dz);
            d += 1;
        }
        let mut b = 0;
        while b < CELLS {
            let (u, v, w) = g.coords[b];
            let dx = abs(x - u);
            let dy = abs(y - v);
            let dz = abs(z - w);
            let m = if dx > dy { dx } else { dy };
            let m = if m > dz { m } else { dz };
            g.dist[a][b] = m as u8;
            b += 1;
        }
        let c = [x, y, z];
        let mut k = 0;
        while k < 6 {
            let (axis, sign) = POINT_AXIS[k];
            let v = sign * c[axis];
            if v >= 5 {
                g.points[k] |= 1u128 << a;
            }
            if v == 8 {
                g.tips[k] = a as u8;
            }
            if v >= 4 {
                let mut ok = true;
                let mut o = 0;
                while o < 3 {
                    if o != axis && sign * c[o] < -4 {
                        ok = false;
                    }
                    o += 1;
                }
                if ok {
                    g.points15[k] |= 1u128 << a;
                }
            }
            k += 1;
        }
        a += 1;
    }
    g
}

const fn find(row_start: &[u8; ROWS], min_x: &[i8; ROWS], x: i8, y: i8, z: i8) -> u8 {
    if z < -8 || z > 8 || !in_star(x, y, z) {
        return NONE;
    }
    let r = (z + 8) as usize;
    row_start[r] + (x - min_x[r]) as u8
}

/// The board tables as a constant, for other tables built at compile time.
pub(crate) const GEOM: Geometry = build();

/// The board tables, computed at compile time.
pub static GEOMETRY: Geometry = GEOM;

/// The board tables.
#[inline(always)]
pub fn geometry() -> &'static Geometry {
    &GEOMETRY
}

/// The point opposite point `k`.
#[inline]
pub const fn opposite(k: usize) -> usize {
    (k + 3) % 6
}

/// The single-bit mask of `cell`.
#[inline(always)]
pub const fn bit(cell: Cell) -> u128 {
    1u128 << cell
}

/// Iterates over the set bits of a bitboard as cells.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u128);

impl Iterator for Bits {
    type Item = Cell;
    #[inline(always)]
    fn next(&mut self) -> Option<Cell> {
        if self.0 == 0 {
            None
        } else {
            let c = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(c)
        }
    }
}

/// The holes that make up one player's camp: the 10-hole point or the 15-hole triangle.
pub fn camp(point: usize, pieces: usize) -> u128 {
    if pieces == 15 {
        GEOMETRY.points15[point]
    } else {
        GEOMETRY.points[point]
    }
}

/// The left-right mirror image of a hole (the reflection in the vertical axis, `x <-> y`).
pub fn mirror(cell: Cell) -> Cell {
    let g = geometry();
    let r = g.row[cell as usize] as usize;
    let len = ROW_LEN[r];
    g.row_start[r] + (len - 1 - g.col[cell as usize])
}

/// The top-bottom mirror image of a hole (the reflection in the horizontal axis).
pub fn flip(cell: Cell) -> Cell {
    let g = geometry();
    let r = g.row[cell as usize] as usize;
    let r2 = ROWS - 1 - r;
    g.row_start[r2] + g.col[cell as usize]
}
