//! The browser-against-native measures, natively: `cargo run --release -p qiyi-wasm --example
//! bench [NAME...] [--repeat N]` prints one JSON line per run (`e2e/site-measure.mjs` runs the
//! same measures in the browser).

use std::process::ExitCode;

/// This process's CPU time (user + system) in milliseconds, from `/proc/self/stat` (Linux);
/// `None` elsewhere. It compares across a loaded machine where wall time does not.
fn cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0) // USER_HZ is 100 on Linux
}

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
            let cpu = cpu_ms();
            let Some(m) = qiyi_wasm::bench::run(name) else {
                eprintln!(
                    "bench: error: no measure {name} (one of {})",
                    qiyi_wasm::bench::NAMES.join(", ")
                );
                return ExitCode::from(2);
            };
            println!(
                "{}",
                serde_json::json!({"name": m.name, "what": m.what, "nodes": m.nodes, "ms": m.ms,
                    "cpu_ms": cpu.zip(cpu_ms()).map(|(a, b)| b - a), "nps": m.nps()})
            );
        }
    }
    ExitCode::SUCCESS
}
