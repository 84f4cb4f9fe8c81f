//! The aeroplane tables as the static site ships them: one file holding the three shipped
//! tables, each as the differences of successive `u16` values split into a low-byte and a
//! high-byte plane. Neighbouring multiset ranks have close values, so the planes gzip to 2.2 MB
//! where the plain tables gzip to 3.9 MB. The site serves the file gzipped and the browser
//! inflates it (`DecompressionStream`) before [`unpack`] restores the tables.

use thiserror::Error;

/// The first bytes of a packed file.
pub const MAGIC: &[u8; 4] = b"QAT1";

/// A packed file that cannot be read.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum PackError {
    /// Not a packed table file, or cut short.
    #[error("the aeroplane table file is damaged or cut short ({0})")]
    Damaged(&'static str),
}

/// Packs `tables` (each little-endian `u16`, of even length).
pub fn pack(tables: &[&[u8]]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.push(tables.len() as u8);
    for t in tables {
        let n = t.len() / 2;
        out.extend_from_slice(&(n as u32).to_le_bytes());
        let mut prev = 0u16;
        let mut hi = Vec::with_capacity(n);
        for c in t.chunks_exact(2) {
            let v = u16::from_le_bytes([c[0], c[1]]);
            let d = v.wrapping_sub(prev).to_le_bytes();
            prev = v;
            out.push(d[0]);
            hi.push(d[1]);
        }
        out.extend_from_slice(&hi);
    }
    out
}

/// The tables of a packed file, in the order they were packed.
pub fn unpack(bytes: &[u8]) -> Result<Vec<Vec<u8>>, PackError> {
    let rest = bytes
        .strip_prefix(MAGIC.as_slice())
        .ok_or(PackError::Damaged("no header"))?;
    let (&count, mut rest) = rest.split_first().ok_or(PackError::Damaged("no count"))?;
    let mut tables = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let (len, tail) = rest
            .split_first_chunk::<4>()
            .ok_or(PackError::Damaged("no length"))?;
        let n = u32::from_le_bytes(*len) as usize;
        if tail.len() < 2 * n {
            return Err(PackError::Damaged("a table is cut short"));
        }
        let (lo, hi) = tail[..2 * n].split_at(n);
        let mut table = Vec::with_capacity(2 * n);
        let mut prev = 0u16;
        for (&l, &h) in lo.iter().zip(hi) {
            prev = prev.wrapping_add(u16::from_le_bytes([l, h]));
            table.extend_from_slice(&prev.to_le_bytes());
        }
        tables.push(table);
        rest = &tail[2 * n..];
    }
    if !rest.is_empty() {
        return Err(PackError::Damaged("bytes after the last table"));
    }
    Ok(tables)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn the_shipped_tables_come_back_byte_for_byte() {
        let t = qiyi_aeroplane::tables::bytes().expect("tests build with the tables embedded");
        let packed = pack(&[t.race, t.finish_hazard, t.finish_random_hazard]);
        let back = unpack(&packed).unwrap();
        assert_eq!(back, vec![t.race, t.finish_hazard, t.finish_random_hazard]);
    }

    proptest! {
        #[test]
        fn unpack_inverts_pack(tables in proptest::collection::vec(
            proptest::collection::vec(any::<u16>(), 0..50), 0..4)) {
            let bytes: Vec<Vec<u8>> = tables
                .iter()
                .map(|t| t.iter().flat_map(|v| v.to_le_bytes()).collect())
                .collect();
            let refs: Vec<&[u8]> = bytes.iter().map(|b| b.as_slice()).collect();
            prop_assert_eq!(unpack(&pack(&refs)).unwrap(), bytes);
        }

        #[test]
        fn unpack_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = unpack(&bytes);
            let mut framed = MAGIC.to_vec();
            framed.extend_from_slice(&bytes);
            let _ = unpack(&framed);
        }
    }
}
