//! The `.qnet` network reader (`QuantNet::from_bytes`), fed any bytes both as they come and with
//! their checksum made right (so the fuzzer gets past it): a net that reads writes back to the
//! same bytes (a QIYINET1 net: the same body under a QIYINET2 header); the accumulator evaluates
//! to the same score by the SIMD and the portable path. The net-set reader (`NetSet::from_bytes`,
//! `QIYISET1`) gets the same bytes, and the bytes under a set header with a right checksum: a
//! set that reads writes back the same bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_core::learn::{NetSet, QuantNet};

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn check_set(bytes: &[u8]) {
    let Ok(set) = NetSet::from_bytes(bytes) else {
        return;
    };
    if bytes.starts_with(&qiyi_core::learn::netset::SET_MAGIC) {
        assert_eq!(
            set.to_bytes(),
            bytes,
            "a set that reads writes back the same bytes"
        );
    }
    assert!(!set.is_empty());
    for pieces in [0, 1, 12, 24, 255, usize::MAX] {
        let _ = set.net_for(pieces);
    }
}

fn check(bytes: &[u8]) {
    check_set(bytes);
    let Ok(net) = QuantNet::from_bytes(bytes) else {
        return;
    };
    let written = net.to_bytes();
    if bytes.starts_with(b"QIYINET1") {
        // The old format (no names) is read and written as QIYINET2 with empty names: the same
        // body after the header, and what is written reads back and writes the same bytes.
        let names = 8 + 2 * qiyi_core::learn::quant::NAME_BYTES;
        assert_eq!(
            written.get(names..written.len() - 8),
            bytes.get(8..bytes.len() - 8),
            "a QIYINET1 net writes back the same body under a QIYINET2 header"
        );
        let again = QuantNet::from_bytes(&written).expect("a written net reads back");
        assert_eq!(
            again.to_bytes(),
            written,
            "a written net writes back the same bytes"
        );
    } else {
        assert_eq!(
            written, bytes,
            "a net that reads writes back to the same bytes"
        );
    }
    let h = net.arch.hidden;
    let inputs = net.arch.inputs;
    // A few active inputs picked from the bytes.
    let active: Vec<u16> = bytes
        .iter()
        .step_by(7)
        .take(8)
        .map(|&b| (b as usize % inputs) as u16)
        .collect();
    let mut stm = vec![0i16; h];
    let mut other = vec![0i16; h];
    net.refresh(&mut stm, &active);
    net.refresh(&mut other, &active[active.len() / 2..]);
    let mut scalar = net.clone();
    scalar.set_simd(false);
    assert_eq!(
        net.evaluate(&stm, &other),
        scalar.evaluate(&stm, &other),
        "SIMD and portable evaluation differ"
    );
}

fuzz_target!(|data: &[u8]| {
    check(data);
    // The same bytes with a right checksum, and a QIYINET1 header when missing.
    let mut body = Vec::with_capacity(data.len() + 16);
    if !data.starts_with(b"QIYINET1") {
        body.extend_from_slice(b"QIYINET1");
    }
    body.extend_from_slice(data);
    let sum = fnv1a(&body);
    body.extend_from_slice(&sum.to_le_bytes());
    check(&body);
    // Under a set header (measure `pieces`) with a right checksum.
    let mut set = b"QIYISET1pieces\0\0\0\0\0\0\0\0\0\0".to_vec();
    set.extend_from_slice(data);
    let sum = fnv1a(&set);
    set.extend_from_slice(&sum.to_le_bytes());
    check_set(&set);
});
