//! Solves the solo-race table of the standard rules and writes `data/race-standard.u16`.
//!
//! `cargo run --release -p qiyi-aeroplane --example race_table -- [SWEEPS] [OUT] [TOLERANCE]`
use qiyi_aeroplane::race::{rank, RaceTable};
use qiyi_aeroplane::Rules;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let sweeps: usize = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(30);
    let out = a
        .get(2)
        .cloned()
        .unwrap_or_else(|| "crates/aeroplane/data/race-standard.u16".to_string());
    let t = std::time::Instant::now();
    let tolerance: f64 = a.get(3).and_then(|s| s.parse().ok()).unwrap_or(1e-6);
    let table = RaceTable::solve(Rules::STANDARD, sweeps, tolerance, &mut |s, d, table| {
        eprintln!(
            "sweep {s}: largest change {d:.3e}, from the hangar {:.4} ({:.0} s)",
            table.value([57; 4]),
            t.elapsed().as_secs_f64()
        );
        let _ = std::fs::write(format!("{out}.sweep"), table.to_bytes());
    });
    let max = table.values().iter().cloned().fold(0.0f32, f32::max);
    assert!(max < 65.0, "largest value {max} does not fit the u16 scale");
    let h = 57u8;
    println!(
        "from the hangar: {:.4} turns; largest value {max:.4}",
        table.value([h, h, h, h])
    );
    println!("rank check {}", rank([h, h, h, h]));
    std::fs::write(&out, table.to_bytes()).expect("write the table");
    println!("wrote {out}");
}
