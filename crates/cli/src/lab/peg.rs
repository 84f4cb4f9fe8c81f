//! Peg solitaire: the depth-first solver built up one idea at a time, on the crate's public
//! board types (holes as bits of a `u128`, the jump list, the symmetry group, position classes).
//!
//! | variant | what it adds |
//! |---|---|
//! | plain DFS | try every jump, backtrack; no memory |
//! | + visited set | a position already explored (and failed) is not explored again |
//! | + symmetry | the visited set holds one representative per symmetry class |
//! | + classes + dead-state table | the position-class invariant rules impossible finishes out at once; a backward table of the positions with few pegs that can still finish prunes every other one |
//!
//! Each variant is asked two things: the first solution, and the full count of solutions
//! (distinct jump sequences), each within a budget of visited positions.

use super::report::{ms, thousands, Chart, LabReport, Table};
use super::{parse_position_lines, LabArgs};
use crate::common::{progress, Global};
use anyhow::Context;
use qiyi_peg_solitaire::{Board, Problem};
use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// A multiply-xorshift hasher for bitboard keys (the std SipHash costs more than the search).
#[derive(Default)]
struct BitHasher(u64);

impl Hasher for BitHasher {
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 31;
        x = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u128(&mut self, i: u128) {
        let x = (i as u64) ^ ((i >> 64) as u64).rotate_left(29);
        self.0 = (self.0 ^ x).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    }
}

type Build = BuildHasherDefault<BitHasher>;
type Set = HashSet<u128, Build>;
type Map = HashMap<u128, u128, Build>;

/// Default problem set.
const PEG_PROBLEMS: &str = include_str!("data/peg-solitaire.txt");

/// Default budget of visited positions per variant and question.
pub const DEFAULT_BUDGET: u64 = 5_000_000;

/// Positions (at most) in the backward dead-state table.
const TABLE_CAP: usize = 300_000;

/// The solver variants, in order.
pub const VARIANTS: [&str; 4] = [
    "plain DFS",
    "+ visited set",
    "+ symmetry",
    "+ classes + dead-state table",
];

/// A peg-solitaire problem as the lab searches it.
pub struct LabProblem {
    /// Name in the tables.
    pub name: String,
    /// The problem (board, start, finish).
    pub problem: Problem,
    /// Jumps as (need, mask, to) bitboards.
    jumps: Vec<(u128, u128, u128)>,
    /// Symmetries that fix the finish holes, as byte-wise lookup tables: the image of byte `k`
    /// of a position with value `b` is `group[g][k][b]`.
    group: Vec<Vec<[u128; 256]>>,
    /// What to ask: the first solution only, or also the full count.
    pub full_count: bool,
}

impl LabProblem {
    /// Reads `board start finish [first|count]` (hole names; finish may be `any`; `first` asks
    /// for the first solution only, `count` (the default) also for the full count).
    pub fn parse(name: &str, spec: &str) -> anyhow::Result<LabProblem> {
        let parts: Vec<&str> = spec.split_whitespace().collect();
        let (board, start, finish, full_count) = match parts[..] {
            [b, s, f] => (b, s, f, true),
            [b, s, f, "count"] => (b, s, f, true),
            [b, s, f, "first"] => (b, s, f, false),
            _ => anyhow::bail!(
                "problem {name}: expected `board start finish [first|count]`, got `{spec}`"
            ),
        };
        let board = Board::named(board).with_context(|| format!("problem {name}"))?;
        let problem = Problem::new(board, Some(start), Some(finish))
            .with_context(|| format!("problem {name}"))?;
        let b = &problem.board;
        let jumps = b
            .jumps()
            .iter()
            .map(|j| (j.need(), j.mask(), 1u128 << j.to))
            .collect();
        let chunks = b.len().div_ceil(8);
        let group = problem
            .goal_group()
            .iter()
            .map(|&g| {
                let perm = &b.symmetries()[g];
                (0..chunks)
                    .map(|k| {
                        let mut t = [0u128; 256];
                        for (v, slot) in t.iter_mut().enumerate() {
                            *slot = b.apply(perm, ((v as u128) << (8 * k)) & b.full());
                        }
                        t
                    })
                    .collect()
            })
            .collect();
        Ok(LabProblem {
            name: name.to_string(),
            problem,
            jumps,
            group,
            full_count,
        })
    }

    fn canonical(&self, pegs: u128) -> u128 {
        let mut best = pegs;
        for tables in &self.group {
            let mut image = 0u128;
            for (k, t) in tables.iter().enumerate() {
                image |= t[((pegs >> (8 * k)) & 0xFF) as usize];
            }
            best = best.min(image);
        }
        best
    }

    /// The backward table: every position of at most `k` pegs (as canonical keys) from which
    /// the finish can be reached, with `k` as large as fits [`TABLE_CAP`] and at most half the
    /// start's pegs.
    fn dead_state_table(&self) -> (u32, Set) {
        let finish = self.problem.finish_mask();
        let mut layer = Set::default();
        let mut f = finish;
        while f != 0 {
            let h = f.trailing_zeros();
            f &= f - 1;
            layer.insert(self.canonical(1u128 << h));
        }
        let mut all = layer.clone();
        let mut k = 1;
        let max_k = self.problem.start.count_ones() / 2;
        let full = self.problem.board.full();
        while k < max_k {
            let mut next = Set::default();
            for &s in &layer {
                for &(need, mask, to) in &self.jumps {
                    // Backwards: the peg stands in `to`, `from` and `over` are empty holes.
                    if s & to != 0 && s & need == 0 && need & !full == 0 {
                        next.insert(self.canonical(s ^ mask));
                    }
                }
            }
            if all.len() + next.len() > TABLE_CAP || next.is_empty() {
                break;
            }
            all.extend(next.iter().copied());
            layer = next;
            k += 1;
        }
        (k, all)
    }
}

/// The answer of one variant to one question.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Solution found (`Some(true)`), proved impossible (`Some(false)`), gave up (`None`).
    pub solved: Option<bool>,
    /// Jumps in the first solution.
    pub length: Option<usize>,
    /// Number of solutions (full count).
    pub count: Option<u128>,
    /// Positions visited (calls of the search).
    pub nodes: u64,
    /// Positions stored in the visited set / memo (plus the dead-state table).
    pub stored: u64,
    /// Wall seconds (the table build included).
    pub secs: f64,
}

struct Dfs<'a> {
    p: &'a LabProblem,
    finish: u128,
    memo: bool,
    sym: bool,
    table: Option<(u32, &'a Set)>,
    seen: Set,
    counts: Map,
    nodes: u64,
    budget: u64,
    gave_up: bool,
    path: Vec<u128>,
}

impl<'a> Dfs<'a> {
    fn new(p: &'a LabProblem, variant: usize, table: Option<(u32, &'a Set)>, budget: u64) -> Self {
        Dfs {
            p,
            finish: p.problem.finish_mask(),
            memo: variant >= 1,
            sym: variant >= 2,
            table: if variant >= 3 { table } else { None },
            seen: Set::default(),
            counts: Map::default(),
            nodes: 0,
            budget,
            gave_up: false,
            path: Vec::new(),
        }
    }

    fn key(&self, pegs: u128) -> u128 {
        if self.sym {
            self.p.canonical(pegs)
        } else {
            pegs
        }
    }

    /// True when the table says `pegs` cannot finish.
    fn dead(&self, pegs: u128, n: u32) -> bool {
        match self.table {
            Some((k, good)) if n <= k => !good.contains(&self.p.canonical(pegs)),
            _ => false,
        }
    }

    fn solve(&mut self, pegs: u128) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.gave_up = true;
            return false;
        }
        let n = pegs.count_ones();
        if n == 1 {
            return pegs & self.finish != 0;
        }
        if self.dead(pegs, n) {
            return false;
        }
        let key = self.key(pegs);
        if self.memo && self.seen.contains(&key) {
            return false;
        }
        for &(need, mask, to) in &self.p.jumps {
            if pegs & need == need && pegs & to == 0 {
                self.path.push(mask);
                if self.solve(pegs ^ mask) {
                    return true;
                }
                self.path.pop();
                if self.gave_up {
                    return false;
                }
            }
        }
        if self.memo {
            self.seen.insert(key);
        }
        false
    }

    fn count(&mut self, pegs: u128) -> u128 {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.gave_up = true;
            return 0;
        }
        let n = pegs.count_ones();
        if n == 1 {
            return u128::from(pegs & self.finish != 0);
        }
        if self.dead(pegs, n) {
            return 0;
        }
        let key = self.key(pegs);
        if self.memo {
            if let Some(&c) = self.counts.get(&key) {
                return c;
            }
        }
        let mut total = 0u128;
        for &(need, mask, to) in &self.p.jumps {
            if pegs & need == need && pegs & to == 0 {
                total = total.saturating_add(self.count(pegs ^ mask));
                if self.gave_up {
                    return 0;
                }
            }
        }
        if self.memo {
            self.counts.insert(key, total);
        }
        total
    }
}

/// Runs `variant` (index into [`VARIANTS`]) on `p`: the first solution, or the full count.
pub fn run_variant(p: &LabProblem, variant: usize, full_count: bool, budget: u64) -> Outcome {
    let t = Instant::now();
    let start = p.problem.start;
    if variant >= 3 && p.problem.class_obstruction().is_some() {
        return Outcome {
            solved: Some(false),
            length: None,
            count: Some(0),
            nodes: 0,
            stored: 0,
            secs: t.elapsed().as_secs_f64(),
        };
    }
    let table = if variant >= 3 {
        Some(p.dead_state_table())
    } else {
        None
    };
    let table_ref = table.as_ref().map(|(k, s)| (*k, s));
    let table_len = table.as_ref().map_or(0, |(_, s)| s.len() as u64);
    let mut dfs = Dfs::new(p, variant, table_ref, budget);
    if full_count {
        let c = dfs.count(start);
        Outcome {
            solved: (!dfs.gave_up).then_some(c > 0),
            length: None,
            count: (!dfs.gave_up).then_some(c),
            nodes: dfs.nodes.min(budget),
            stored: dfs.counts.len() as u64 + table_len,
            secs: t.elapsed().as_secs_f64(),
        }
    } else {
        let found = dfs.solve(start);
        if found {
            // Check the path: every jump legal, one peg left in a finish hole.
            let mut pegs = start;
            for &m in &dfs.path {
                pegs ^= m;
            }
            debug_assert!(pegs.count_ones() == 1 && pegs & p.problem.finish_mask() != 0);
        }
        Outcome {
            solved: if found {
                Some(true)
            } else if dfs.gave_up {
                None
            } else {
                Some(false)
            },
            length: found.then_some(dfs.path.len()),
            count: None,
            nodes: dfs.nodes.min(budget),
            stored: dfs.seen.len() as u64 + table_len,
            secs: t.elapsed().as_secs_f64(),
        }
    }
}

/// Loads the problem list.
pub fn load(text: &str) -> anyhow::Result<Vec<LabProblem>> {
    let list = parse_position_lines(text);
    if list.is_empty() {
        anyhow::bail!("the peg-solitaire problem set is empty");
    }
    list.iter().map(|(n, s)| LabProblem::parse(n, s)).collect()
}

/// The peg-solitaire lab.
pub fn run(g: &Global, args: &LabArgs, positions: Option<&str>) -> anyhow::Result<LabReport> {
    let problems = load(positions.unwrap_or(PEG_PROBLEMS))?;
    let budget = args.budget.unwrap_or(DEFAULT_BUDGET);
    let bar = progress(
        (problems.len() * VARIANTS.len() * 2) as u64,
        "lab peg solitaire",
    );
    let mut first = Vec::new();
    let mut counts: Vec<Vec<Option<Outcome>>> = Vec::new();
    for p in &problems {
        let mut f = Vec::new();
        let mut c = Vec::new();
        for v in 0..VARIANTS.len() {
            f.push(run_variant(p, v, false, budget));
            bar.inc(1);
            c.push(p.full_count.then(|| run_variant(p, v, true, budget)));
            bar.inc(1);
        }
        first.push(f);
        counts.push(c);
    }
    bar.finish_and_clear();

    let mut rep = LabReport::new("peg-solitaire", g.seed);
    rep.notes = vec![
        format!("Budget: {} positions visited per variant and question; past it the variant gives up (\"gave up\").", thousands(budget)),
        "Visited = calls of the search; stored = positions kept in the visited set or memo, plus the dead-state table.".into(),
        "Full count = the number of distinct jump sequences from the start to one peg in the finish hole (plain DFS enumerates them one by one; the memo variants add up counts per position).".into(),
        "The dead-state table holds, per symmetry class, every position with few pegs (up to half the start's, at most 300,000 positions) that can still reach the finish, built backwards from the finish.".into(),
    ];
    let mut t1 = Table::new(
        "First solution: positions visited and time",
        &[
            "problem",
            "variant",
            "result",
            "jumps",
            "visited",
            "stored",
            "time (ms)",
        ],
    );
    let mut t2 = Table::new(
        "Full count of solutions: positions visited and time",
        &[
            "problem",
            "variant",
            "solutions",
            "visited",
            "stored",
            "time (ms)",
        ],
    );
    let mut agree_all = true;
    for (i, p) in problems.iter().enumerate() {
        for (v, name) in VARIANTS.iter().enumerate() {
            let o = &first[i][v];
            t1.push(vec![
                p.name.clone(),
                name.to_string(),
                match o.solved {
                    Some(true) => "solved".into(),
                    Some(false) => "impossible".into(),
                    None => "gave up".into(),
                },
                o.length.map_or("-".into(), |l| l.to_string()),
                thousands(o.nodes),
                thousands(o.stored),
                ms(o.secs),
            ]);
            if let Some(o) = &counts[i][v] {
                t2.push(vec![
                    p.name.clone(),
                    name.to_string(),
                    o.count.map_or("gave up".into(), thousands_u128),
                    thousands(o.nodes),
                    thousands(o.stored),
                    ms(o.secs),
                ]);
            }
        }
        // The variants that finished must agree on existence and on the count.
        let exist: Vec<bool> = first[i]
            .iter()
            .chain(counts[i].iter().flatten())
            .filter_map(|o| o.solved)
            .collect();
        let totals: Vec<u128> = counts[i].iter().flatten().filter_map(|o| o.count).collect();
        agree_all &=
            exist.windows(2).all(|w| w[0] == w[1]) && totals.windows(2).all(|w| w[0] == w[1]);
    }
    rep.tables.push(t1);
    rep.tables.push(t2);
    rep.notes.push(format!(
        "Check: every variant that finished agrees on solvability and on the count: {}.",
        if agree_all { "✓" } else { "✗" }
    ));
    rep.all_agree = Some(agree_all);
    let groups: Vec<String> = problems.iter().map(|p| p.name.clone()).collect();
    let series = |data: &Vec<Vec<Outcome>>, f: &dyn Fn(&Outcome) -> Option<f64>| {
        VARIANTS
            .iter()
            .enumerate()
            .map(|(v, name)| {
                (
                    name.to_string(),
                    data.iter().map(|row| f(&row[v])).collect::<Vec<_>>(),
                )
            })
            .collect::<Vec<_>>()
    };
    rep.charts.push(Chart::Bars {
        file: "peg-solitaire-first-solution".into(),
        title:
            "peg solitaire: time to the first solution or the proof there is none (empty = gave up)"
                .into(),
        y_label: "time (ms, log scale)".into(),
        log_y: true,
        groups: groups.clone(),
        series: series(&first, &|o| o.solved.map(|_| (o.secs * 1e3).max(1e-3))),
    });
    let counted: Vec<Vec<Outcome>> = counts
        .iter()
        .filter(|row| row.iter().all(Option::is_some))
        .map(|row| row.iter().flatten().cloned().collect())
        .collect();
    let count_groups: Vec<String> = problems
        .iter()
        .filter(|p| p.full_count)
        .map(|p| p.name.clone())
        .collect();
    rep.charts.push(Chart::Bars {
        file: "peg-solitaire-full-count".into(),
        title: "peg solitaire: time to the full count of solutions (empty = gave up)".into(),
        y_label: "time (ms, log scale)".into(),
        log_y: true,
        groups: count_groups,
        series: series(&counted, &|o| o.count.map(|_| (o.secs * 1e3).max(1e-3))),
    });
    rep.charts.push(Chart::Bars {
        file: "peg-solitaire-visited".into(),
        title: "peg solitaire: positions visited to the first solution or proof (empty = gave up)"
            .into(),
        y_label: "positions visited (log scale)".into(),
        log_y: true,
        groups,
        series: series(&first, &|o| o.solved.map(|_| o.nodes.max(1) as f64)),
    });
    Ok(rep)
}

/// [`thousands`] for counts beyond `u64`.
fn thousands_u128(n: u128) -> String {
    match u64::try_from(n) {
        Ok(x) => thousands(x),
        Err(_) => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variants_agree_on_the_triangle() {
        let p = LabProblem::parse("t", "triangle a1 a1").unwrap();
        let counts: Vec<Option<u128>> = (0..4)
            .map(|v| run_variant(&p, v, true, u64::MAX).count)
            .collect();
        assert!(counts[0].is_some_and(|c| c > 0), "{counts:?}");
        assert!(counts.iter().all(|c| *c == counts[0]), "{counts:?}");
        for v in 0..4 {
            let o = run_variant(&p, v, false, u64::MAX);
            assert_eq!(o.solved, Some(true));
            assert_eq!(o.length, Some(13));
        }
    }

    #[test]
    fn bad_problem_lines_are_errors() {
        assert!(LabProblem::parse("x", "english d4").is_err());
        assert!(LabProblem::parse("x", "nowhere d4 d4").is_err());
        assert!(LabProblem::parse("x", "english z9 d4").is_err());
    }
}
