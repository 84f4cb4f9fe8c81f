//! Texel tuning of the Xiangqi evaluation (see `qiyi_xiangqi::tune`):
//! `xq_tune selfplay GAMES NODES SEED OUT.txt` plays self-play games and appends `FEN;result`
//! lines; `xq_tune fit EPOCHS OUT.rs DATA.txt...` fits the weights (starting from the hand-set
//! ones) and writes them as Rust (`crates/xiangqi/src/eval_weights.rs`);
//! `xq_tune hand OUT.rs` writes the hand-set weights.

use qiyi_xiangqi::eval::Weights;
use qiyi_xiangqi::tune::{self, FitConfig, SelfPlayConfig};
use std::io::Write;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("selfplay") => {
            let config = SelfPlayConfig {
                games: args[2].parse().expect("games"),
                nodes: args[3].parse().expect("nodes"),
                random_plies: 4,
                seed: args[4].parse().expect("seed"),
                max_plies: 300,
            };
            let out = &args[5];
            let mut file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(out)
                .expect("open output");
            // Play in chunks so partial data lands on disk.
            let chunk = 10;
            let mut done = 0;
            while done < config.games {
                let c = SelfPlayConfig {
                    games: chunk.min(config.games - done),
                    seed: config.seed.wrapping_mul(1_000_003).wrapping_add(done as u64),
                    ..config.clone()
                };
                let samples = tune::selfplay(&c, |g, r| eprintln!("game {} result {r}", done + g + 1));
                for s in samples {
                    writeln!(file, "{};{}", s.fen, s.result).expect("write");
                }
                done += c.games;
            }
        }
        Some("fit") => {
            let epochs: usize = args[2].parse().expect("epochs");
            let out = &args[3];
            let mut samples = Vec::new();
            for path in &args[4..] {
                let text = std::fs::read_to_string(path).expect("read data");
                samples.extend(tune::parse_samples(&text));
            }
            let config = FitConfig {
                epochs,
                ..FitConfig::default()
            };
            let r = tune::fit(&samples, &Weights::hand(), &config, |e, err| {
                eprintln!("epoch {e}: error {err:.6}")
            });
            println!(
                "samples {} K {:.2} error before {:.6} after {:.6}",
                r.samples, r.k, r.error_before, r.error_after
            );
            let note = format!(
                "{} positions, K {:.2}, {} epochs, error {:.6} -> {:.6}",
                r.samples, r.k, epochs, r.error_before, r.error_after
            );
            std::fs::write(out, tune::weights_to_rust(&r.weights, &note)).expect("write");
        }
        Some("hand") => {
            std::fs::write(&args[2], tune::weights_to_rust(&Weights::hand(), "hand-set start"))
                .expect("write");
        }
        _ => eprintln!("usage: xq_tune selfplay GAMES NODES SEED OUT | fit EPOCHS OUT.rs DATA... | hand OUT.rs"),
    }
}
