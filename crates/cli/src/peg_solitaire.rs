//! `qiyi solve peg-solitaire`: solve, count, fewest moves, classify and count solutions.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Context};
use qiyi_peg_solitaire::board::Jump;
use qiyi_peg_solitaire::problem::{group_moves, jump_text, move_text, replay};
use qiyi_peg_solitaire::{classify, load_board, with_threads, Board, Finish, Problem};
use serde_json::json;
use std::time::Instant;

/// Options of `qiyi solve peg-solitaire`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Board: english, french, wiegleb, diamond, triangle (15 holes), triangle:N (side 4-8), or
    /// a file with a picture (`o` peg, `.` hole, space no hole).
    #[arg(long, default_value = "english")]
    pub board: String,
    /// The empty hole at the start (default: the board's own start, the centre).
    #[arg(long)]
    pub start: Option<String>,
    /// Where the last peg must stand: a hole or `any` (default: the start hole when possible).
    #[arg(long)]
    pub finish: Option<String>,
    /// Count the positions reachable from the start (per number of pegs).
    #[arg(long)]
    pub count: bool,
    /// The fewest moves (a chain of jumps by one peg is one move), with the proof.
    #[arg(long)]
    pub min_moves: bool,
    /// For every single-vacancy start: can one peg remain, and where.
    #[arg(long)]
    pub classify: bool,
    /// The number of jump sequences from the start that end with one peg at the finish.
    #[arg(long)]
    pub count_solutions: bool,
    /// Positions a depth-first search may expand before giving up (solve and classify).
    #[arg(long, default_value_t = 100_000_000)]
    pub budget: u64,
    /// Print the moves only, without board pictures.
    #[arg(long)]
    pub no_pictures: bool,
}

fn names(board: &Board, set: u128) -> Vec<String> {
    (0..board.len())
        .filter(|&h| set >> h & 1 == 1)
        .map(|h| board.hole_name(h).to_string())
        .collect()
}

fn finish_text(board: &Board, f: Finish) -> String {
    match f {
        Finish::Hole(h) => board.hole_name(h).to_string(),
        Finish::Any => "any".to_string(),
    }
}

/// Runs `qiyi solve peg-solitaire`.
pub fn solve(g: &Global, a: SolveArgs) -> anyhow::Result<()> {
    let modes = [a.count, a.min_moves, a.classify, a.count_solutions]
        .iter()
        .filter(|&&m| m)
        .count();
    if modes > 1 {
        bail!("choose one of --count, --min-moves, --classify, --count-solutions");
    }
    let board = load_board(&a.board).with_context(|| format!("board `{}`", a.board))?;
    let threads = g.threads();
    if a.classify {
        return with_threads(threads, || run_classify(g, &board, a.budget));
    }
    let problem = Problem::new(board, a.start.as_deref(), a.finish.as_deref())?;
    let b = problem.board.clone();
    if !g.json {
        println!(
            "board {} ({} holes, {} jumps, {} symmetries, {} position classes)",
            b.name(),
            b.len(),
            b.jumps().len(),
            b.symmetries().len(),
            1u64 << b.class_masks().len()
        );
        println!(
            "start: {} empty; finish: {}",
            names(&b, b.full() & !problem.start).join(" "),
            finish_text(&b, problem.finish)
        );
        print!("{}", b.picture_spaced(problem.start));
    }
    with_threads(threads, || {
        if a.count {
            run_count(g, &problem)
        } else if a.min_moves {
            run_min_moves(g, &problem, !a.no_pictures)
        } else if a.count_solutions {
            run_count_solutions(g, &problem)
        } else {
            run_solve(g, &problem, a.budget, !a.no_pictures)
        }
    })
}

fn bar_callback(bar: &indicatif::ProgressBar) -> impl FnMut(&str, usize, usize, usize) + '_ {
    move |stage, step, steps, size| {
        bar.set_length(steps as u64);
        bar.set_position(step as u64);
        bar.set_message(format!("{stage}: {size} positions"));
    }
}

fn print_moves(b: &Board, start: u128, moves: &[Vec<Jump>], pictures: bool) {
    let mut s = start;
    for (i, m) in moves.iter().enumerate() {
        s = replay(b, s, m).unwrap_or(s);
        println!("{:>3}. {}", i + 1, move_text(b, m));
        if pictures {
            print!("{}", b.picture_spaced(s));
        }
    }
}

fn run_solve(g: &Global, p: &Problem, budget: u64, pictures: bool) -> anyhow::Result<()> {
    let b = &p.board;
    let t0 = Instant::now();
    let r = p.solve(budget);
    let secs = t0.elapsed().as_secs_f64();
    let jumps: Vec<String> = r.jumps.iter().flatten().map(|j| jump_text(b, j)).collect();
    let grouped = r.jumps.as_deref().map(group_moves).unwrap_or_default();
    let moves: Vec<String> = grouped.iter().map(|m| move_text(b, m)).collect();
    if !g.json {
        match &r.jumps {
            Some(js) => {
                println!(
                    "solved: {} jumps, {} moves ({} positions searched, {:.2} ms)",
                    js.len(),
                    grouped.len(),
                    r.nodes,
                    secs * 1e3
                );
                print_moves(b, p.start, &grouped, pictures);
                println!("jumps: {}", jumps.join(" "));
                println!("moves: {}", moves.join(" "));
            }
            None if r.proved_impossible => {
                println!(
                    "impossible: {}",
                    r.class_reason
                        .as_deref()
                        .unwrap_or("the exhaustive search found no finish")
                )
            }
            None => println!("no solution found within {budget} positions (undecided)"),
        }
    }
    print_or_nothing(
        g,
        json!({
            "board": b.name(),
            "start": names(b, b.full() & !p.start),
            "finish": finish_text(b, p.finish),
            "solved": r.jumps.is_some(),
            "impossible": r.proved_impossible,
            "reason": r.class_reason,
            "jumps": jumps,
            "moves": moves,
            "nodes": r.nodes,
            "seconds": secs,
        }),
    )
}

fn print_or_nothing(g: &Global, v: serde_json::Value) -> anyhow::Result<()> {
    if g.json {
        print_json(&v)?;
    }
    Ok(())
}

fn run_count(g: &Global, p: &Problem) -> anyhow::Result<()> {
    let bar = progress(p.start.count_ones() as u64, "count");
    let t0 = Instant::now();
    let c = p.count(&mut bar_callback(&bar));
    bar.finish_and_clear();
    let secs = t0.elapsed().as_secs_f64();
    if !g.json {
        println!("{:>5} {:>14} {:>16}", "pegs", "positions", "positions_full");
        for l in &c.layers {
            println!("{:>5} {:>14} {:>16}", l.pegs, l.positions, l.positions_full);
        }
        println!(
            "positions: {} (symmetric images once), positions_full: {} ({:.2} s)",
            c.positions, c.positions_full, secs
        );
    }
    print_or_nothing(
        g,
        json!({
            "board": p.board.name(),
            "positions": c.positions,
            "positions_full": c.positions_full,
            "layers": c.layers,
            "seconds": secs,
        }),
    )
}

fn run_min_moves(g: &Global, p: &Problem, pictures: bool) -> anyhow::Result<()> {
    let b = &p.board;
    if let Some(reason) = p.class_obstruction() {
        bail!("no finish exists: {reason}");
    }
    let bar = progress(p.start.count_ones() as u64, "min-moves");
    let t0 = Instant::now();
    let r = p.min_moves(&mut bar_callback(&bar));
    bar.finish_and_clear();
    let secs = t0.elapsed().as_secs_f64();
    let moves: Vec<String> = r.solution.iter().map(|m| move_text(b, m)).collect();
    if !g.json {
        match r.moves {
            Some(n) => {
                println!(
                    "fewest moves: {n}; proof: breadth-first search by moves over all {} positions that are reachable and can still finish; positions first reached at each move count: {:?} ({:.2} s)",
                    r.good_positions, r.frontier_sizes, secs
                );
                print_moves(b, p.start, &r.solution, pictures);
                println!("moves: {}", moves.join(" "));
            }
            None => println!("no finish exists (exhaustive search, {:.2} s)", secs),
        }
    }
    print_or_nothing(
        g,
        json!({
            "board": b.name(),
            "finish": finish_text(b, p.finish),
            "solved": r.moves.is_some(),
            "min_moves": r.moves,
            "moves": moves,
            "good_positions": r.good_positions,
            "frontier_sizes": r.frontier_sizes,
            "seconds": secs,
        }),
    )
}

fn run_count_solutions(g: &Global, p: &Problem) -> anyhow::Result<()> {
    let b = &p.board;
    let n = if p.class_obstruction().is_some() {
        0
    } else {
        let bar = progress(p.start.count_ones() as u64, "count-solutions");
        let n = p.count_solutions(&mut bar_callback(&bar));
        bar.finish_and_clear();
        n
    };
    if !g.json {
        println!(
            "jump sequences from the start to one peg at {}: {n}",
            finish_text(b, p.finish)
        );
    }
    print_or_nothing(
        g,
        json!({
            "board": b.name(),
            "finish": finish_text(b, p.finish),
            "solutions": n.to_string(),
        }),
    )
}

fn run_classify(g: &Global, b: &Board, budget: u64) -> anyhow::Result<()> {
    let bar = progress(b.len() as u64, "classify");
    let t0 = Instant::now();
    let rows = classify(b, budget, |i, n| {
        bar.set_length(n as u64);
        bar.set_position(i as u64);
    });
    bar.finish_and_clear();
    let secs = t0.elapsed().as_secs_f64();
    let solvable: Vec<&str> = rows
        .iter()
        .filter(|r| r.solvable())
        .map(|r| r.start.as_str())
        .collect();
    if !g.json {
        println!(
            "board {} ({} holes, {} position classes)",
            b.name(),
            b.len(),
            1u64 << b.class_masks().len()
        );
        for r in &rows {
            let verdict = if r.solvable() {
                format!("one peg can remain at {}", r.finishes.join(" "))
            } else if let Some(reason) = &r.reason {
                format!("impossible: {reason}")
            } else {
                "undecided".to_string()
            };
            let mut extra = String::new();
            if !r.undecided.is_empty() {
                extra += &format!("; undecided: {}", r.undecided.join(" "));
            }
            if !r.impossible_by_search.is_empty() {
                extra += &format!(
                    "; impossible by exhaustive search: {}",
                    r.impossible_by_search.join(" ")
                );
            }
            if !r.impossible_by_pagoda.is_empty() {
                extra += &format!(
                    "; impossible by a pagoda function: {}",
                    r.impossible_by_pagoda.join(" ")
                );
            }
            println!("{:>4}: {verdict}{extra}", r.start);
        }
        println!(
            "{} of {} starts can end with one peg, {} decided ({:.2} s)",
            solvable.len(),
            rows.len(),
            rows.iter().filter(|r| r.decided()).count(),
            secs
        );
    }
    print_or_nothing(
        g,
        json!({
            "board": b.name(),
            "solvable_starts": solvable,
            "undecided_starts": rows.iter().filter(|r| !r.decided()).map(|r| r.start.as_str()).collect::<Vec<_>>(),
            "starts": rows,
            "seconds": secs,
        }),
    )
}

/// Options of `qiyi analyze peg-solitaire`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The position as a board picture (`o` peg, `.` hole, space no hole; rows separated by
    /// newlines or `/`), or a file holding one. Default: the start of `--board`.
    #[arg(long)]
    pub position: Option<String>,
    /// Board when no `--position` is given: english, french, wiegleb, diamond, triangle,
    /// triangle:N.
    #[arg(long, default_value = "english")]
    pub board: String,
    /// The most positions the judge expands for each jump (default 1,000,000, as the server's;
    /// 0: no limit, exact however long it takes). A verdict not reached within them is
    /// reported as unknown, never as solvable or not.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The most MiB the judge's memo of solved positions takes (1-4096, default 64; past it
    /// the memo is emptied and refilled: slower, never wrong).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: Option<u64>,
}

/// One legal move and what is left after it.
#[derive(serde::Serialize)]
struct PegMoveReport {
    #[serde(rename = "move")]
    mv: String,
    /// The fewest pegs reachable after the move (exact, or found before the node budget ran
    /// out: then an upper bound, see `exact`).
    fewest_pegs: u32,
    /// Whether one peg can still remain after it (`null` when unknown: not decided within the
    /// node budget).
    solvable: Option<bool>,
    /// Whether `fewest_pegs` is proven.
    exact: bool,
}

/// What `qiyi analyze peg-solitaire` reports.
#[derive(serde::Serialize)]
struct PegAnalyzeReport {
    game: &'static str,
    position: String,
    pegs: u32,
    /// Whether one peg can remain (an exhaustive search with a memo; `null` when unknown: not
    /// decided within the node budget).
    solvable: Option<bool>,
    /// The fewest pegs reachable from here (a bound when not `exact`).
    fewest_pegs: u32,
    /// Whether the verdict is proven: false when the node budget (`--nodes`) ran out first.
    exact: bool,
    /// The node budget (`null`: no limit).
    node_budget: Option<u64>,
    /// A move keeping the fewest pegs (`None` when no jump is left).
    bestmove: Option<String>,
    moves: Vec<PegMoveReport>,
    /// Positions the solver expanded.
    nodes: u64,
}

/// Reads `--position` (a picture, a file holding one, rows split by `/` allowed) or the start
/// of `--board`.
fn analyze_position(a: &AnalyzeArgs) -> anyhow::Result<qiyi_peg_solitaire::PegPosition> {
    use qiyi_core::Notation;
    use qiyi_peg_solitaire::PegPosition;
    match &a.position {
        None => {
            let board = Board::named(&a.board)
                .map_err(|e| anyhow::anyhow!("bad --board '{}': {e}", a.board))?;
            Ok(PegPosition::start(std::sync::Arc::new(board)))
        }
        Some(p) => {
            let path = std::path::Path::new(p);
            let text = if !p.contains(['/', '\n']) && path.is_file() {
                std::fs::read_to_string(path).with_context(|| format!("reading {p}"))?
            } else {
                p.replace('/', "\n")
            };
            PegPosition::from_text(&text).map_err(|e| anyhow::anyhow!("bad --position: {e}"))
        }
    }
}

/// Runs `qiyi analyze peg-solitaire`: solvable or not, the best move, and for every legal move
/// whether one peg can still remain after it (exact, from the review's exhaustive judge, within
/// `--nodes` positions; past them the verdict is unknown).
pub fn analyze(g: &Global, a: AnalyzeArgs) -> anyhow::Result<()> {
    use qiyi_core::Notation;
    use qiyi_peg_solitaire::review::Fewest;
    let pos = analyze_position(&a)?;
    let (mut judge, budget) = crate::review_peg::cli_judge(a.nodes, a.hash);
    let analysis = judge.analyse(&pos);
    let solvable = |f: Fewest| (f.exact || f.pegs <= 1).then_some(f.pegs == 1);
    let mut moves: Vec<PegMoveReport> = analysis
        .moves
        .iter()
        .map(|&(m, f)| PegMoveReport {
            mv: pos.move_to_text(m),
            fewest_pegs: f.pegs,
            solvable: solvable(f),
            exact: f.exact,
        })
        .collect();
    // The proven first (fewest pegs first), then the unknown.
    moves.sort_by_key(|m| (!m.exact, m.fewest_pegs));
    crate::review_peg::print_judge_memory(&judge, a.hash);
    let report = PegAnalyzeReport {
        game: "peg-solitaire",
        position: pos.to_text(),
        pegs: pos.peg_count(),
        solvable: solvable(analysis.fewest),
        fewest_pegs: analysis.fewest.pegs,
        exact: analysis.fewest.exact,
        node_budget: budget,
        bestmove: moves
            .iter()
            .filter(|m| m.fewest_pegs == analysis.fewest.pegs)
            .min_by_key(|m| !m.exact)
            .map(|m| m.mv.clone()),
        moves,
        nodes: judge.nodes,
    };
    if g.json {
        return print_json(&report);
    }
    println!("{}", report.position);
    let verdict = |s: Option<bool>| match s {
        Some(true) => "solvable",
        Some(false) => "not solvable",
        None => "unknown",
    };
    if report.exact {
        println!(
            "{} pegs; {} (fewest pegs reachable: {}, exact)",
            report.pegs,
            verdict(report.solvable),
            report.fewest_pegs
        );
    } else {
        println!(
            "{} pegs; {} (not decided within {} positions a jump: {} pegs is the fewest found, \
             one may still be reachable; raise --nodes, or --nodes 0 for no limit)",
            report.pegs,
            verdict(report.solvable),
            report.node_budget.unwrap_or(0),
            report.fewest_pegs
        );
    }
    for m in &report.moves {
        println!(
            "  {:<8} {:<13} fewest pegs {}{}",
            m.mv,
            verdict(m.solvable),
            if m.exact { "" } else { "at most " },
            m.fewest_pegs
        );
    }
    match &report.bestmove {
        Some(m) => println!("bestmove {m}"),
        None => println!("no jump left"),
    }
    Ok(())
}
