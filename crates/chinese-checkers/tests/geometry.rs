//! The board: 121 holes, neighbour counts, point triangles, names and symmetry.

use qiyi_chinese_checkers::board::{self, bit, geometry, Bits, CELLS, NONE};
use qiyi_chinese_checkers::notation::{cell_name, parse_cell};

#[test]
fn the_star_has_121_holes_in_rows_of_the_right_length() {
    let g = geometry();
    assert_eq!(CELLS, 121);
    let total: usize = board::ROW_LEN.iter().map(|&l| l as usize).sum();
    assert_eq!(total, 121);
    for c in 0..CELLS {
        let (x, y, z) = g.coords[c];
        assert_eq!(x + y + z, 0);
    }
    let mut coords: Vec<_> = g.coords.to_vec();
    coords.sort();
    coords.dedup();
    assert_eq!(coords.len(), 121, "coordinates are distinct");
}

#[test]
fn neighbour_counts_match_the_star() {
    let g = geometry();
    let mut histogram = [0usize; 7];
    for c in 0..CELLS {
        let n = g.neighbours[c].iter().filter(|&&n| n != NONE).count();
        histogram[n] += 1;
    }
    // By hand: 6 tips with 2 neighbours; in each point the 2 holes of its second row and the 2
    // ends of its third and fourth rows have 4; the 6 corners of the central hexagon have 5
    // (they touch two points); every other hole has 6.
    assert_eq!(histogram, [0, 0, 6, 0, 36, 6, 73]);
    // Edges: the hexagon (3 directions x (61 - 9 lines) = 156), each point (18 inside, 8 to the
    // hexagon).
    let edges: usize = (0..7).map(|k| k * histogram[k]).sum::<usize>() / 2;
    assert_eq!(edges, 156 + 6 * (18 + 8));
}

#[test]
fn neighbours_are_symmetric_and_jumps_are_two_steps() {
    let g = geometry();
    for c in 0..CELLS {
        for d in 0..6 {
            let n = g.neighbours[c][d];
            if n != NONE {
                assert_eq!(g.neighbours[n as usize][(d + 3) % 6] as usize, c);
                assert_eq!(g.dist[c][n as usize], 1);
                let j = g.jumps[c][d];
                let beyond = g.neighbours[n as usize][d];
                assert_eq!(j, beyond);
            } else {
                assert_eq!(g.jumps[c][d], NONE);
            }
        }
    }
}

#[test]
fn six_points_of_ten_and_a_hexagon_of_sixty_one() {
    let g = geometry();
    let mut union = 0u128;
    for k in 0..6 {
        assert_eq!(g.points[k].count_ones(), 10);
        assert_eq!(g.points15[k].count_ones(), 15);
        assert_eq!(g.points15[k] & g.points[k], g.points[k]);
        assert_eq!(union & g.points[k], 0, "points do not overlap");
        union |= g.points[k];
        // The point is a triangle: rows of 1, 2, 3, 4 holes away from the tip.
        let tip = g.tips[k] as usize;
        let mut by_dist = [0; 5];
        for c in Bits(g.points15[k]) {
            by_dist[g.dist[tip][c as usize] as usize] += 1;
        }
        assert_eq!(by_dist, [1, 2, 3, 4, 5]);
        // The opposite point mirrors it through the centre.
        let opp = board::opposite(k);
        for c in Bits(g.points[k]) {
            let (x, y, z) = g.coords[c as usize];
            let image = (0..CELLS)
                .find(|&i| g.coords[i] == (-x, -y, -z))
                .expect("in star");
            assert!(g.points[opp] & bit(image as u8) != 0);
        }
    }
    let hexagon = (0..CELLS).filter(|&c| union & bit(c as u8) == 0).count();
    assert_eq!(hexagon, 61);
    // Each point's tip has two neighbours.
    for k in 0..6 {
        let tip = g.tips[k] as usize;
        assert_eq!(g.neighbours[tip].iter().filter(|&&n| n != NONE).count(), 2);
    }
}

#[test]
fn names_follow_the_rows() {
    assert_eq!(cell_name(0), "a1");
    assert_eq!(cell_name(60), "i5");
    assert_eq!(cell_name(120), "q1");
    assert_eq!(parse_cell("e13"), Ok(geometry().row_start[4] + 12));
    let g = geometry();
    assert_eq!(g.coords[60], (0, 0, 0), "i5 is the centre");
    assert_eq!(g.coords[0], (4, 4, -8), "a1 is the top tip");
    for c in 0..CELLS as u8 {
        assert_eq!(parse_cell(&cell_name(c)), Ok(c));
    }
    assert!(parse_cell("a2").is_err());
    assert!(parse_cell("r1").is_err());
    assert!(parse_cell("i0").is_err());
    assert!(parse_cell("").is_err());
    assert!(parse_cell("é1").is_err());
}

#[test]
fn mirror_and_flip_are_board_symmetries() {
    let g = geometry();
    for c in 0..CELLS as u8 {
        let m = board::mirror(c);
        let f = board::flip(c);
        assert_eq!(board::mirror(m), c);
        assert_eq!(board::flip(f), c);
        let (x, y, z) = g.coords[c as usize];
        assert_eq!(g.coords[m as usize], (y, x, z));
        assert_eq!(g.coords[f as usize], (-y, -x, -z));
    }
}
