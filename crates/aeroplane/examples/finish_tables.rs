//! Solves the shipped finish-time tables of the standard rules (mean and standard deviation of
//! the turns a lone player needs, under a hazard: after each of its turns, every ring square
//! holding its planes is hit with a fixed chance) and writes them to DIR:
//! - `finish-hazard.u16`: the race table's policy improved by ROUNDS - 1 steps of policy iteration
//!   against hazard HAZ, evaluated under it;
//! - `finish-random-hazard.u16`: random play under hazard RHAZ.
//!
//! `cargo run --release -p qiyi-aeroplane --example finish_tables -- [DIR [HAZ RHAZ ROUNDS]]`
//! (defaults: `crates/aeroplane/data`, `finish::SHIPPED_HAZARD`, `finish::SHIPPED_RANDOM_HAZARD`,
//! 3 rounds; ~5 min CPU and 3 GB).
use qiyi_aeroplane::finish::{
    solve_random_hazard, solve_standard_hazard, SHIPPED_HAZARD, SHIPPED_RANDOM_HAZARD,
};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let dir = a
        .get(1)
        .cloned()
        .unwrap_or_else(|| "crates/aeroplane/data".to_string());
    let arg = |i: usize, default: f64| a.get(i).map_or(default, |s| s.parse().expect("number"));
    let haz = arg(2, SHIPPED_HAZARD);
    let rhaz = arg(3, SHIPPED_RANDOM_HAZARD);
    let rounds = arg(4, 3.0) as usize;
    let (sweeps, tolerance) = (3000, 1e-9);
    let t = std::time::Instant::now();
    let h = [57u8; 4];
    let rnd = solve_random_hazard(rhaz, sweeps, tolerance);
    println!(
        "random, hazard {rhaz}: from the hangar {:.4} (sd {:.4})",
        rnd.mean(h),
        rnd.sd(h)
    );
    let path = format!("{dir}/finish-random-hazard.u16");
    std::fs::write(&path, rnd.to_bytes()).expect("write the table");
    let opt = solve_standard_hazard(haz, rounds, sweeps, tolerance, &mut |r, t| {
        println!(
            "round {r}: hazard {haz}, from the hangar {:.4} (sd {:.4})",
            t.mean(h),
            t.sd(h)
        );
    })
    .expect("the standard race table ships");
    let path = format!("{dir}/finish-hazard.u16");
    std::fs::write(&path, opt.to_bytes()).expect("write the table");
    println!("wrote {path} ({:.1} s)", t.elapsed().as_secs_f64());
}
