//! Builds an exact endgame table and prints its figures:
//! `cargo run --release -p qiyi-aeroplane --example endgame -- A B` (planes out per player).

use qiyi_aeroplane::endgame::{Endgame, EndgameClass};
use qiyi_aeroplane::Rules;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let (a, b) = (
        args.first().copied().unwrap_or(1),
        args.get(1).copied().unwrap_or(1),
    );
    let class = match EndgameClass::new(a, b) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let table = Endgame::build_with(Rules::STANDARD, class, 1e-13, |s, c| {
        eprintln!("sweep {s}: largest change {c:.3e}");
    });
    match table {
        Ok(t) => {
            let s = t.stats();
            println!(
                "class {class}: {} positions, {:.1} MB, {} sweeps, last change {:.2e}, residual {:.2e}, {:.1} s",
                s.states,
                s.bytes as f64 / 1e6,
                s.sweeps,
                s.last_change,
                s.residual,
                s.seconds
            );
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}
