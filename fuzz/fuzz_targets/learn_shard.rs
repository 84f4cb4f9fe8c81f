//! The `QIYIPOS1` shard reader (`learn::record::Dataset`), fed a file of any bytes: a shard that
//! reads has a whole number of records, each record's fields are the file's bytes, and a
//! checkers or Xiangqi position that decodes encodes back to bytes that decode to the same
//! position.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_core::learn::record::{Encode, HEADER_LEN};
use qiyi_core::learn::Dataset;
use std::path::PathBuf;
use std::sync::OnceLock;

fn path() -> &'static PathBuf {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("qiyi-fuzz-shard-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir.join("shard.bin")
    })
}

fn round_trip<P: Encode>(bytes: &[u8], eq: impl Fn(&P, &P) -> bool) {
    if bytes.len() != P::BYTES {
        return;
    }
    if let Some(p) = P::decode(bytes) {
        let mut out = vec![0u8; P::BYTES];
        p.encode(&mut out);
        let q = P::decode(&out).expect("an encoded position decodes");
        assert!(eq(&p, &q), "decode(encode(decode(b))) differs");
    }
}

fuzz_target!(|data: &[u8]| {
    let p = path();
    std::fs::write(p, data).expect("write the shard");
    let header = Dataset::header(p);
    let mut ds = Dataset::default();
    let added = ds.add_shard(p);
    assert_eq!(header.is_ok(), added.is_ok(), "header and add_shard agree");
    let Ok(header) = header else {
        return;
    };
    assert_eq!(ds.tag, header.tag);
    assert_eq!(ds.position_bytes, header.position_bytes);
    let n = ds.len();
    assert_eq!(
        HEADER_LEN + n * ds.record_len(),
        data.len(),
        "whole records"
    );
    for i in 0..n {
        let r = ds.get(i);
        let at = HEADER_LEN + i * ds.record_len();
        let pb = ds.position_bytes;
        assert_eq!(r.position, &data[at..at + pb]);
        assert_eq!(
            r.score,
            i16::from_le_bytes([data[at + pb], data[at + pb + 1]])
        );
        assert_eq!(r.result, data[at + pb + 2] as i8);
        assert_eq!(r.ply, data[at + pb + 3]);
        match ds.tag.as_str() {
            "checkers" => round_trip::<qiyi_checkers::Checkers>(r.position, |a, b| {
                format!("{a:?}") == format!("{b:?}")
            }),
            "xiangqi" => {
                round_trip::<qiyi_xiangqi::Position>(r.position, |a, b| a.to_fen() == b.to_fen())
            }
            _ => {}
        }
    }
});
