//! A small driver for profiling the solvers without building the whole CLI:
//! `cargo run --release -p qiyi-peg-solitaire --example peg -- count english`
//! (verbs: solve, count, min-moves, count-solutions, classify; then board, start, finish).

use qiyi_peg_solitaire::{classify, Board, Problem};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verb = args.first().map(String::as_str).unwrap_or("count");
    if verb == "pagoda" {
        pagoda(&args);
        return;
    }
    if verb == "beam" {
        beam(&args);
        return;
    }
    if verb == "stats" {
        successor_stats();
        return;
    }
    let board = args.get(1).map(String::as_str).unwrap_or("english");
    let start = args.get(2).map(String::as_str);
    let finish = args.get(3).map(String::as_str);
    let b = match Board::named(board) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let t0 = Instant::now();
    let mut progress = |stage: &str, k: usize, _: usize, n: usize| {
        eprintln!("{:8.2}s {stage} {k}: {n}", t0.elapsed().as_secs_f64())
    };
    if verb == "classify" {
        let budget: u64 = std::env::var("BUDGET")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(100_000_000);
        for r in classify(&b, budget, |_, _| {}) {
            println!("{r:?}");
        }
        println!("{:.2} s", t0.elapsed().as_secs_f64());
        return;
    }
    let p = match Problem::new(b, start, finish) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    match verb {
        "solve" => {
            let r = p.solve(u64::MAX);
            println!(
                "solved {} impossible {} nodes {}",
                r.jumps.is_some(),
                r.proved_impossible,
                r.nodes
            );
        }
        "count" => {
            let c = p.count(&mut progress);
            println!("positions {} full {}", c.positions, c.positions_full);
        }
        "min-moves" => {
            let r = p.min_moves(&mut progress);
            println!("min moves {:?} good {}", r.moves, r.good_positions);
        }
        "count-solutions" => println!("solutions {}", p.count_solutions(&mut progress)),
        _ => eprintln!("unknown verb {verb}"),
    }
    println!("{:.2} s", t0.elapsed().as_secs_f64());
}

#[allow(dead_code)]
fn successor_stats() {
    use qiyi_peg_solitaire::solver::layers::{next_layer, Layer};
    use qiyi_peg_solitaire::solver::tables::Tables;
    let b = Board::named("english").unwrap();
    let all: Vec<usize> = (0..8).collect();
    let t = Tables::<u64>::new(&b, &all);
    let mut l = Layer::from_vec(vec![t.canonical(t.to_internal(b.picture_start()))]);
    let mut total = 0u64;
    while !l.is_empty() {
        let mut n = 0u64;
        for &s in l.states() {
            t.for_each_jump(s, |_, _| n += 1);
        }
        eprintln!("{} states, {} successors", l.len(), n);
        total += n;
        l = next_layer(&t, &l);
    }
    eprintln!("total successors {total}");
}

fn beam(args: &[String]) {
    use qiyi_peg_solitaire::solver::beam::beam_search;
    use qiyi_peg_solitaire::solver::dfs::endgame_table;
    use qiyi_peg_solitaire::solver::tables::Tables;
    let b = Board::named(&args[1]).unwrap();
    let width: usize = args[2].parse().unwrap();
    let table_max: usize = args[3].parse().unwrap();
    let p = Problem::new(b, None, None).unwrap();
    let t = Tables::<u64>::new(&p.board, &p.goal_group());
    let finish = t.to_internal(p.finish_mask());
    let t0 = Instant::now();
    let eg = endgame_table(&t, finish, table_max, 40);
    eprintln!(
        "table: {} pegs, {} positions, {:.2}s",
        eg.0,
        eg.1.len(),
        t0.elapsed().as_secs_f64()
    );
    let r = beam_search(&t, t.to_internal(p.start), finish, width, &eg, |k, n| {
        if k % 8 == 0 {
            eprintln!("  layer {k}: {n}")
        }
    });
    println!(
        "found {} in {:.2}s",
        r.is_some(),
        t0.elapsed().as_secs_f64()
    );
}

#[allow(dead_code)]
fn pagoda(args: &[String]) {
    let b = Board::named(&args[1]).unwrap();
    let (s, f) = (b.hole(&args[2]).unwrap(), b.hole(&args[3]).unwrap());
    let t0 = Instant::now();
    let p = qiyi_peg_solitaire::pagoda::find_pagoda(&b, b.full() & !(1u128 << s), 1u128 << f);
    match p {
        Some(p) => println!("{}", p.explain(&b)),
        None => println!("no pagoda"),
    }
    println!("{:.3} s", t0.elapsed().as_secs_f64());
}
