//! A small driver for profiling the solvers without building the whole CLI:
//! `cargo run --release -p qiyi-peg-solitaire --example peg -- count english`
//! (verbs: solve, count, min-moves, count-solutions, classify; then board, start, finish).

use qiyi_peg_solitaire::{classify, Board, Problem};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let verb = args.first().map(String::as_str).unwrap_or("count");
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
        for r in classify(&b, 100_000_000, |_, _| {}) {
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
