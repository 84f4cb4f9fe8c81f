//! Writes the aeroplane tables as the static site ships them (see `qiyi_wasm::pack`):
//! `cargo run -p qiyi-wasm --example pack_tables -- OUT` (the site build gzips OUT).

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(out) = std::env::args().nth(1) else {
        eprintln!("usage: pack_tables OUT");
        return ExitCode::from(2);
    };
    let Some(t) = qiyi_aeroplane::tables::bytes() else {
        eprintln!("pack_tables: error: this build has no aeroplane tables");
        return ExitCode::from(1);
    };
    let packed = qiyi_wasm::pack::pack(&[t.race, t.finish_hazard, t.finish_random_hazard]);
    if let Err(e) = std::fs::write(&out, &packed) {
        eprintln!("pack_tables: error: cannot write {out}: {e}");
        return ExitCode::from(1);
    }
    println!("{out}: {} bytes", packed.len());
    ExitCode::SUCCESS
}
