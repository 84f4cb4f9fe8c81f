//! Perft speed on one thread, bulk counting and full make/unmake:
//! `cargo run -p qiyi-xiangqi --release --example perft_speed -- [depth] [fen]`.

use qiyi_xiangqi::{perft, Position, START_FEN};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let depth: u32 = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(5);
    let fen = args.get(2).map(String::as_str).unwrap_or(START_FEN);
    let pos = match Position::from_fen(fen) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            std::process::exit(2);
        }
    };
    for (name, f) in [
        ("bulk", perft::perft as fn(&mut Position, u32) -> u64),
        ("make-unmake", perft::perft_full),
    ] {
        let mut p = pos.clone();
        let t = Instant::now();
        let n = f(&mut p, depth);
        let s = t.elapsed().as_secs_f64();
        println!(
            "{name:12} depth {depth}: {n} leaves in {s:.3} s = {:.1} M leaves/s",
            n as f64 / s / 1e6
        );
    }
}
