//! Solves the crossing puzzle: `cargo run --release -p qiyi-chinese-checkers --example solve -- 6 star`.
use qiyi_chinese_checkers::solitaire::{Board, Solitaire};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(3);
    let board = if args.get(2).map(|s| s.as_str()) == Some("diamond") {
        Board::Diamond
    } else {
        Board::Star
    };
    let t = std::time::Instant::now();
    let p = match Solitaire::new(n, board) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            return;
        }
    };
    eprintln!(
        "bound table {:?}, start bound {}",
        t.elapsed(),
        p.lower_bound(p.start)
    );
    let limits = qiyi_chinese_checkers::solitaire::SolveLimits::default();
    let sol = match p.solve_bidirectional(&limits, |b, g, size| {
        eprintln!("budget {b} depth {g} layer {size} t {:?}", t.elapsed())
    }) {
        Ok(s) => s,
        Err(u) => {
            println!("unsolved: {u:?}");
            return;
        }
    };
    println!(
        "{} moves, nodes {}, verified {}, time {:?}",
        sol.moves.len(),
        sol.stats.nodes,
        p.verify(&sol.states),
        sol.stats.time
    );
    for m in &sol.moves {
        print!("{} ", m.text());
    }
    println!();
}
