//! Beam search for short crossings: `cargo run --release -p qiyi-chinese-checkers --example beam -- 10 star 27 20000`.
use qiyi_chinese_checkers::solitaire::{Board, Solitaire};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(10);
    let board = if args.get(2).map(|s| s.as_str()) == Some("diamond") {
        Board::Diamond
    } else {
        Board::Star
    };
    let budget: u32 = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(27);
    let width: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(20000);
    let t = std::time::Instant::now();
    let Ok(p) = Solitaire::new(n, board) else {
        return;
    };
    eprintln!(
        "table {:?}, start bound {}",
        t.elapsed(),
        p.lower_bound(p.start)
    );
    match p.beam_search(budget, width) {
        Some(states) => println!(
            "found {} moves, verified {}, {:?}",
            states.len() - 1,
            p.verify(&states),
            t.elapsed()
        ),
        None => println!("none within {budget}, {:?}", t.elapsed()),
    }
}
