//! Evaluation speed on one thread: the fast and the feature-by-feature score of the same
//! positions (from seeded random games), for instruction counts under callgrind:
//! `cargo run -p qiyi-xiangqi --release --example eval_speed -- [rounds] [fast|plain]`.

use qiyi_xiangqi::eval::Evaluation;
use qiyi_xiangqi::game::random_game_positions;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize = args.get(1).and_then(|d| d.parse().ok()).unwrap_or(20);
    let plain = args.get(2).is_some_and(|m| m == "plain");
    let positions = random_game_positions(3, 100, 120);
    let e = Evaluation::default();
    let t = Instant::now();
    let mut sum = 0i64;
    for _ in 0..rounds {
        for pos in &positions {
            sum += i64::from(if plain {
                e.red_score_by_features(pos)
            } else {
                e.red_score(pos)
            });
        }
    }
    let n = rounds * positions.len();
    let s = t.elapsed().as_secs_f64();
    println!(
        "{} evaluations ({} positions x {rounds}) in {s:.3} s = {:.0} ns each; checksum {sum}",
        n,
        positions.len(),
        s * 1e9 / n as f64
    );
}
