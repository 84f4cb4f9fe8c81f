//! The browser-against-native measures, natively: `cargo run --release -p qiyi-wasm --example
//! bench [NAME...] [--repeat N]` prints one JSON line per run (`e2e/site-measure.mjs` runs the
//! same measures in the browser).

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut names = Vec::new();
    let mut repeat = 1;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--repeat" {
            match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => repeat = n,
                None => {
                    eprintln!("bench: error: --repeat needs a number");
                    return ExitCode::from(2);
                }
            }
        } else {
            names.push(a);
        }
    }
    if names.is_empty() {
        names = qiyi_wasm::bench::NAMES
            .iter()
            .map(|s| s.to_string())
            .collect();
    }
    for name in &names {
        for _ in 0..repeat {
            let Some(m) = qiyi_wasm::bench::run(name) else {
                eprintln!(
                    "bench: error: no measure {name} (one of {})",
                    qiyi_wasm::bench::NAMES.join(", ")
                );
                return ExitCode::from(2);
            };
            println!(
                "{}",
                serde_json::json!({"name": m.name, "what": m.what, "nodes": m.nodes, "ms": m.ms, "nps": m.nps()})
            );
        }
    }
    ExitCode::SUCCESS
}
