//! The review record readers of checkers, peg solitaire and aeroplane chess: never a panic, and
//! what a checkers record gives replays from its start.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(r) = qiyi_checkers::review::read_record(text) {
        let mut board = r.start;
        for mv in &r.moves {
            let mut legal = Vec::new();
            board.generate(&mut legal);
            assert!(legal.contains(mv), "record move not legal");
            board = board.play(*mv);
        }
    }
    let _ = qiyi_peg_solitaire::review::read_record(text);
    let _ = qiyi_aeroplane::review::read_record(text);
});
