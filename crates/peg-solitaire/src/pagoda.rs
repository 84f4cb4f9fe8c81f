//! Pagoda functions: resource counts that no jump can increase, found by linear programming.
//!
//! A pagoda function gives every hole a value `p(h)` such that for every jump from `a` over `b`
//! into `c`, `p(a) + p(b) >= p(c)`. A jump replaces pegs at `a` and `b` by one at `c`, so the
//! total value of the pegs, `p(S)`, never grows. Hence if `p(start) < p(finish)` the finish
//! cannot be reached from the start, whatever the moves: a certificate of impossibility that
//! needs no search. (The position classes of [`crate::classes`] are the GF(2) invariants; pagoda
//! functions are the inequalities.)
//!
//! [`find_pagoda`] looks for such a function for a given start and finish by solving the linear
//! program "minimise `p(start) - p(finish)` subject to the jump inequalities and
//! `-1 <= p(h) <= 1`" with a small dense simplex method (Bland's rule once it stalls, so it
//! terminates). A
//! negative optimum is a certificate; it is then scaled to small integers and checked exactly, so
//! a returned pagoda never depends on floating-point luck.

use crate::board::{Board, Jump};

/// An integer pagoda function with the start and finish values it separates.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Pagoda {
    /// The value of each hole.
    pub values: Vec<i64>,
    /// The total value of the start's pegs.
    pub start_value: i64,
    /// The total value of the finish's pegs (larger than `start_value`).
    pub finish_value: i64,
}

impl Pagoda {
    /// True when every jump of `jumps` keeps the inequality `p(from) + p(over) >= p(to)`.
    pub fn is_pagoda(values: &[i64], jumps: &[Jump]) -> bool {
        jumps
            .iter()
            .all(|j| values[j.from as usize] + values[j.over as usize] >= values[j.to as usize])
    }

    /// The total value of the pegs of `set`.
    pub fn value(values: &[i64], set: u128) -> i64 {
        (0..values.len())
            .filter(|&h| set >> h & 1 == 1)
            .map(|h| values[h])
            .sum()
    }

    /// The function as a board picture (values in place of holes) and the inequality it proves.
    pub fn explain(&self, board: &Board) -> String {
        let mut rows: std::collections::BTreeMap<i32, Vec<(i32, i64)>> = Default::default();
        for (h, &(x, y)) in board.coords().iter().enumerate() {
            rows.entry(y).or_default().push((x, self.values[h]));
        }
        let minx = board.coords().iter().map(|c| c.0).min().unwrap_or(0);
        let mut out = String::new();
        for cells in rows.values() {
            let mut line = String::new();
            let mut x = minx;
            for &(cx, v) in cells {
                while x < cx {
                    line.push_str("    ");
                    x += 1;
                }
                line.push_str(&format!("{v:>4}"));
                x += 1;
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push_str(&format!(
            "pagoda function: for every jump p(from) + p(over) >= p(to), so the pegs' total never grows; the start totals {} < {} for the finish",
            self.start_value, self.finish_value
        ));
        out
    }
}

/// A pagoda function with `p(start) < p(finish)` for `board`, if the linear program finds one.
pub fn find_pagoda(board: &Board, start: u128, finish: u128) -> Option<Pagoda> {
    let n = board.len();
    let jumps = board.jumps();
    // Variables u_h, v_h >= 0 (p = u - v), at most 1 each. Rows (all "<=", right side >= 0, so
    // the origin is feasible): -p(a) - p(b) + p(c) <= 0 per jump, u_h <= 1, v_h <= 1.
    let vars = 2 * n;
    let mut rows: Vec<(Vec<f64>, f64)> = Vec::with_capacity(jumps.len() + vars);
    for j in jumps {
        let mut r = vec![0.0; vars];
        for (h, s) in [(j.from, -1.0), (j.over, -1.0), (j.to, 1.0)] {
            r[h as usize] += s;
            r[n + h as usize] -= s;
        }
        rows.push((r, 0.0));
    }
    for k in 0..vars {
        let mut r = vec![0.0; vars];
        r[k] = 1.0;
        rows.push((r, 1.0));
    }
    let mut cost = vec![0.0; vars];
    for h in 0..n {
        let c = (start >> h & 1) as f64 - (finish >> h & 1) as f64;
        cost[h] = c;
        cost[n + h] = -c;
    }
    let x = simplex_min(&rows, &cost)?;
    let p: Vec<f64> = (0..n).map(|h| x[h] - x[n + h]).collect();
    let objective: f64 = (0..n).map(|h| cost[h] * p[h]).sum();
    if objective > -1e-7 {
        return None;
    }
    // Scale to integers and check exactly.
    for d in 1..=720i64 {
        let values: Vec<i64> = p.iter().map(|&v| (v * d as f64).round() as i64).collect();
        let (s, f) = (
            Pagoda::value(&values, start),
            Pagoda::value(&values, finish),
        );
        if s < f && Pagoda::is_pagoda(&values, jumps) {
            return Some(Pagoda {
                values,
                start_value: s,
                finish_value: f,
            });
        }
    }
    None
}

/// Minimises `cost . x` subject to `row . x <= rhs` (every `rhs >= 0`) and `x >= 0`, by the
/// simplex method on a dense tableau (Dantzig's rule, then Bland's against cycling). `None` if unbounded or too many pivots.
fn simplex_min(rows: &[(Vec<f64>, f64)], cost: &[f64]) -> Option<Vec<f64>> {
    const EPS: f64 = 1e-9;
    let m = rows.len();
    let nv = cost.len();
    let width = nv + m + 1;
    // Tableau rows: [structural | slacks | rhs]; the objective row holds reduced costs.
    let mut t: Vec<Vec<f64>> = rows
        .iter()
        .enumerate()
        .map(|(i, (r, b))| {
            let mut row = vec![0.0; width];
            row[..nv].copy_from_slice(r);
            row[nv + i] = 1.0;
            row[width - 1] = *b;
            row
        })
        .collect();
    let mut obj = vec![0.0; width];
    obj[..nv].copy_from_slice(cost);
    let mut basis: Vec<usize> = (nv..nv + m).collect();
    // Dantzig's rule (most negative reduced cost) while the objective improves; after a run of
    // degenerate pivots, Bland's rule for good (it cannot cycle).
    let mut bland = false;
    let mut stalled = 0;
    for _ in 0..100_000 {
        let entering = if bland {
            (0..nv + m).find(|&c| obj[c] < -EPS)
        } else {
            (0..nv + m)
                .filter(|&c| obj[c] < -EPS)
                .min_by(|&a, &b| obj[a].total_cmp(&obj[b]))
        };
        let Some(e) = entering else {
            let mut x = vec![0.0; nv];
            for (i, &b) in basis.iter().enumerate() {
                if b < nv {
                    x[b] = t[i][width - 1];
                }
            }
            return Some(x);
        };
        // Leaving row: minimum ratio, ties to the lowest basis index (Bland).
        let mut leave: Option<(usize, f64)> = None;
        for i in 0..m {
            if t[i][e] > EPS {
                let ratio = t[i][width - 1] / t[i][e];
                match leave {
                    Some((l, r)) if ratio > r + EPS || (ratio > r - EPS && basis[i] > basis[l]) => {
                    }
                    _ => leave = Some((i, ratio)),
                }
            }
        }
        let (l, ratio) = leave?;
        if ratio < EPS {
            stalled += 1;
            if stalled > 50 {
                bland = true;
            }
        } else {
            stalled = 0;
        }
        let pivot = t[l][e];
        for v in t[l].iter_mut() {
            *v /= pivot;
        }
        let prow = t[l].clone();
        for (i, row) in t.iter_mut().enumerate() {
            if i != l && row[e].abs() > EPS {
                let f = row[e];
                for (a, b) in row.iter_mut().zip(&prow) {
                    *a -= f * b;
                }
            }
        }
        let f = obj[e];
        for (a, b) in obj.iter_mut().zip(&prow) {
            *a -= f * b;
        }
        basis[l] = e;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_returned_pagoda_is_checked_exactly() {
        let b = Board::named("french").unwrap();
        let full = b.full();
        let h = |n: &str| b.hole(n).unwrap();
        let p = find_pagoda(&b, full & !(1 << h("c1")), 1 << h("e1"));
        if let Some(p) = p {
            assert!(Pagoda::is_pagoda(&p.values, b.jumps()));
            assert!(p.start_value < p.finish_value);
        }
        // A solvable problem never gets a certificate.
        let e = Board::named("english").unwrap();
        let d4 = e.hole("d4").unwrap();
        assert!(find_pagoda(&e, e.full() & !(1 << d4), 1 << d4).is_none());
    }
}
