//! Seeded random playout steps (`qiyi_xiangqi::playout`), for profilers and instruction
//! counts: `cargo run -p qiyi-xiangqi --release --example playout_steps -- [steps] [seed]`.
//! Under `valgrind --tool=callgrind`, instructions per step = total / steps (minus the start-up
//! of a run with 0 steps).

use qiyi_xiangqi::playout::RandomPlayout;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize, default: u64| -> u64 {
        match args.get(i).map(|a| a.parse()) {
            None => default,
            Some(Ok(v)) => v,
            Some(Err(e)) => {
                eprintln!("argument {i} ({}): {e}", args[i]);
                std::process::exit(2);
            }
        }
    };
    let (steps, seed) = (arg(1, 100_000), arg(2, 1));
    let mut playout = RandomPlayout::new(seed);
    let t = Instant::now();
    let s = playout.run(steps);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "seed {seed}, full rules: {} moves, {} games ended, fingerprint {:#x}, {:.3} us/step",
        s.moves,
        s.finished,
        playout.fingerprint(),
        secs * 1e6 / steps.max(1) as f64
    );
}
