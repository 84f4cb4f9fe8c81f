//! Hub sessions (English checkers) as byte streams, in process, at level 1: whatever came
//! before, a final `ping` is answered `pong`. Lines naming threads or quit are dropped.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_checkers::engine::hub::run;
use qiyi_checkers::engine::{EvalChoice, Level};
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
    let mut script = b"level depth=2\n".to_vec();
    for line in data.split(|&b| b == b'\n').take(64) {
        let lower = line.to_ascii_lowercase();
        let named = |w: &[u8]| lower.windows(w.len()).any(|x| x == w);
        // `level` lines could ask for long searches: only depth-bounded ones are kept.
        if named(b"threads") || named(b"quit") || named(b"level") || named(b"infinite") {
            continue;
        }
        script.extend_from_slice(line);
        script.push(b'\n');
    }
    script.extend_from_slice(b"stop\nping\n");
    let out = Buf::default();
    run(
        &script[..],
        out.clone(),
        Level::Level(1),
        1,
        None,
        EvalChoice::default(),
    )
    .expect("in-memory io");
    let text = String::from_utf8(out.0.lock().expect("lock").clone()).expect("utf-8 output");
    assert!(text.lines().any(|l| l == "pong"), "no pong:\n{text}");
});
