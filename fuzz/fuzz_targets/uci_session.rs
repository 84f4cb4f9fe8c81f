//! UCI/UCCI sessions as byte streams, in process, at level 1 (depth cap 2): whatever came
//! before, a final `isready` is answered `readyok`. Lines naming Hash or Threads are dropped
//! (a 4 GiB table or 64 threads per input would only slow the fuzzer; their clamping has unit
//! tests).
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_xiangqi::engine::{EngineConfig, Level};
use qiyi_xiangqi::protocol::{run, Dialect};
use std::io::Write;
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);
impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let dialect = if first & 1 == 0 {
        Dialect::Uci
    } else {
        Dialect::Ucci
    };
    let mut script = Vec::new();
    for line in rest.split(|&b| b == b'\n').take(64) {
        let lower = line.to_ascii_lowercase();
        let named = |w: &[u8]| lower.windows(w.len()).any(|x| x == w);
        // `EvalFile` would make the target read files of the fuzzing machine.
        if named(b"hash")
            || named(b"threads")
            || named(b"evalfile")
            || named(b"quit")
            || named(b"ponder")
        {
            continue;
        }
        script.extend_from_slice(line);
        script.push(b'\n');
    }
    script.extend_from_slice(b"stop\nisready\n");
    let out = Buf::default();
    let config = EngineConfig {
        hash_mib: 1,
        threads: 1,
        level: Level::Strength(1),
        seed: 1,
        net: None,
    };
    run(dialect, &script[..], out.clone(), config).expect("in-memory io");
    let text = String::from_utf8(out.0.lock().expect("lock").clone()).expect("utf-8 output");
    assert!(text.lines().any(|l| l == "readyok"), "no readyok:\n{text}");
});
