//! Hub sessions (English checkers) as byte streams, in process, at level 1 with a 1 MiB table
//! (the default 64 MiB one, zeroed for each input and each `new-game`, held the target to a few
//! inputs a second): whatever came before, a final `ping` is answered `pong`. Lines naming
//! threads or quit are dropped.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_checkers::engine::hub::{run_with_options, HubOptions};
use qiyi_checkers::engine::{EvalChoice, Level, SearchChoice, SearchConfig};
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
    let options = HubOptions {
        level: Level::Level(1),
        threads: 1,
        egdb: None,
        eval: EvalChoice::default(),
        search: SearchChoice::Selective(SearchConfig {
            tt_mib: 1,
            ..SearchConfig::default()
        }),
        book: true,
    };
    run_with_options(&script[..], out.clone(), options).expect("in-memory io");
    let text = String::from_utf8(out.0.lock().expect("lock").clone()).expect("utf-8 output");
    assert!(text.lines().any(|l| l == "pong"), "no pong:\n{text}");
});
