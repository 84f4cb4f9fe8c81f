//! Where the bytes of the shipped tables come from (`data/race-standard.u16`,
//! `data/finish-hazard.u16`, `data/finish-random-hazard.u16`, 5 MB together).
//!
//! With the feature `embedded-tables` (on by default) they are compiled into the binary, as
//! always. Without it the crate carries none, and a program that loads them itself hands them
//! over once with [`install`]: the browser build fetches them only when aeroplane chess is
//! played, so the other games' first visit does not download them. Until then (or if they are
//! never installed) [`crate::race::race_table`] and [`crate::finish::finish_tables`] answer
//! `None`, as for rules without tables, and [`available`] says so.
//!
//! The checksums that pin the shipped files live here too, so [`install`] checks what it is
//! handed without reaching up into [`crate::finish`] (which reads the tables from here).

use crate::error::AeroError;
use std::sync::OnceLock;

/// [`checksum`] of the shipped `data/race-standard.u16`.
pub const RACE_STANDARD_CHECKSUM: u64 = 0xf59e_7e5c_98ca_1d34;

/// FNV-1a (64-bit) checksum of a table file (to pin the shipped bytes in a test).
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// [`checksum`] of the shipped `data/finish-hazard.u16`: written by
/// `cargo run --release -p qiyi-aeroplane --example finish_tables` with its defaults
/// ([`crate::finish::SHIPPED_HAZARD`], [`crate::finish::SHIPPED_ROUNDS`],
/// [`crate::finish::SHIPPED_SWEEPS`], [`crate::finish::SHIPPED_TOLERANCE`], from
/// `data/race-standard.u16`). `tests/finish.rs` checks the file against it, and an ignored test
/// regenerates the table with these parameters and compares the bytes.
pub const FINISH_HAZARD_CHECKSUM: u64 = 0xde97_025b_759e_09d2;

/// [`checksum`] of the shipped `data/finish-random-hazard.u16` (same generator, random play
/// under [`crate::finish::SHIPPED_RANDOM_HAZARD`]).
pub const FINISH_RANDOM_HAZARD_CHECKSUM: u64 = 0xde79_a580_c282_6d53;

/// The three shipped tables, as stored (little-endian `u16`).
#[derive(Clone, Copy, Debug)]
pub struct TableBytes {
    /// `data/race-standard.u16`.
    pub race: &'static [u8],
    /// `data/finish-hazard.u16`.
    pub finish_hazard: &'static [u8],
    /// `data/finish-random-hazard.u16`.
    pub finish_random_hazard: &'static [u8],
}

#[cfg(feature = "embedded-tables")]
pub(crate) const EMBEDDED: TableBytes = TableBytes {
    race: include_bytes!("../data/race-standard.u16"),
    finish_hazard: include_bytes!("../data/finish-hazard.u16"),
    finish_random_hazard: include_bytes!("../data/finish-random-hazard.u16"),
};

static INSTALLED: OnceLock<TableBytes> = OnceLock::new();

/// The tables' bytes: the embedded ones, else those [`install`]ed, else `None`.
pub fn bytes() -> Option<TableBytes> {
    #[cfg(feature = "embedded-tables")]
    {
        Some(EMBEDDED)
    }
    #[cfg(not(feature = "embedded-tables"))]
    {
        INSTALLED.get().copied()
    }
}

/// Whether the tables are there (embedded or installed).
pub fn available() -> bool {
    bytes().is_some()
}

/// Hands over the three tables (a build without `embedded-tables`). Each is checked against
/// the checksum of the shipped file, so a truncated download or a corrupt cache is refused with
/// [`AeroError::BadTable`] naming the file. Installing again, or into a build that embeds them,
/// changes nothing.
pub fn install(race: Vec<u8>, hazard: Vec<u8>, random: Vec<u8>) -> Result<(), AeroError> {
    for (name, bytes, want) in [
        ("race-standard.u16", &race, RACE_STANDARD_CHECKSUM),
        ("finish-hazard.u16", &hazard, FINISH_HAZARD_CHECKSUM),
        (
            "finish-random-hazard.u16",
            &random,
            FINISH_RANDOM_HAZARD_CHECKSUM,
        ),
    ] {
        if checksum(bytes) != want {
            return Err(AeroError::BadTable(format!(
                "{name}: {} bytes whose checksum is not the shipped file's",
                bytes.len()
            )));
        }
    }
    if available() {
        return Ok(());
    }
    let leak = |v: Vec<u8>| -> &'static [u8] { Vec::leak(v) };
    let _ = INSTALLED.set(TableBytes {
        race: leak(race),
        finish_hazard: leak(hazard),
        finish_random_hazard: leak(random),
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(feature = "embedded-tables")]
    #[test]
    fn embedded_tables_are_the_shipped_files() {
        let t = bytes().expect("embedded");
        assert_eq!(checksum(t.race), RACE_STANDARD_CHECKSUM);
        assert_eq!(checksum(t.finish_hazard), FINISH_HAZARD_CHECKSUM);
        assert_eq!(
            checksum(t.finish_random_hazard),
            FINISH_RANDOM_HAZARD_CHECKSUM
        );
        // Installing the same bytes into a build that embeds them is accepted and changes nothing.
        install(
            t.race.to_vec(),
            t.finish_hazard.to_vec(),
            t.finish_random_hazard.to_vec(),
        )
        .unwrap();
    }

    #[test]
    fn a_corrupt_table_is_refused_by_name() {
        let err = install(vec![0; 10], vec![], vec![]).unwrap_err();
        assert!(err.to_string().contains("race-standard.u16"), "{err}");
    }
}
