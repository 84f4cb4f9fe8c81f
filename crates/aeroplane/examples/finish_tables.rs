//! Solves the shipped finish-time tables of the standard rules (mean and standard deviation of
//! the turns a lone player needs, under a hazard: after each of its turns, every ring square
//! holding its planes is hit with a fixed chance) and writes them to DIR:
//! - `finish-hazard.u16`: the race table's policy improved by ROUNDS - 1 steps of policy iteration
//!   against hazard HAZ, evaluated under it;
//! - `finish-random-hazard.u16`: random play under hazard RHAZ.
//!
//! `cargo run --release -p qiyi-aeroplane --example finish_tables -- [DIR [HAZ RHAZ ROUNDS]]`
//! (defaults: `crates/aeroplane/data`, `finish::SHIPPED_HAZARD`, `finish::SHIPPED_RANDOM_HAZARD`,
//! `finish::SHIPPED_ROUNDS`; sweeps and tolerance `finish::SHIPPED_SWEEPS`,
//! `finish::SHIPPED_TOLERANCE`; ~6 min CPU and 3 GB). With the defaults it writes the shipped files
//! byte for byte (their checksums are `finish::FINISH_HAZARD_CHECKSUM` and
//! `finish::FINISH_RANDOM_HAZARD_CHECKSUM`, printed at the end).
use qiyi_aeroplane::finish::{
    checksum, solve_random_hazard, solve_standard_hazard, SHIPPED_HAZARD, SHIPPED_RANDOM_HAZARD,
    SHIPPED_ROUNDS, SHIPPED_SWEEPS, SHIPPED_TOLERANCE,
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
    let rounds = arg(4, SHIPPED_ROUNDS as f64) as usize;
    let (sweeps, tolerance) = (SHIPPED_SWEEPS, SHIPPED_TOLERANCE);
    let t = std::time::Instant::now();
    let h = [57u8; 4];
    let rnd = solve_random_hazard(rhaz, sweeps, tolerance);
    println!(
        "random, hazard {rhaz}: from the hangar {:.4} (sd {:.4})",
        rnd.mean(h),
        rnd.sd(h)
    );
    let path = format!("{dir}/finish-random-hazard.u16");
    let bytes = rnd.to_bytes();
    std::fs::write(&path, &bytes).expect("write the table");
    println!("wrote {path} (checksum {:#018x})", checksum(&bytes));
    let opt = solve_standard_hazard(haz, rounds, sweeps, tolerance, &mut |r, t| {
        println!(
            "round {r}: hazard {haz}, from the hangar {:.4} (sd {:.4})",
            t.mean(h),
            t.sd(h)
        );
    })
    .expect("the standard race table ships");
    let path = format!("{dir}/finish-hazard.u16");
    let bytes = opt.to_bytes();
    std::fs::write(&path, &bytes).expect("write the table");
    println!(
        "wrote {path} (checksum {:#018x}, {:.1} s)",
        checksum(&bytes),
        t.elapsed().as_secs_f64()
    );
}
