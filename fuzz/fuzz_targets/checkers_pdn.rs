//! Checkers PDN: a game that reads writes back as PDN that reads to the same start and moves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_checkers::pdn::{read_pdn, read_pdn_game};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(games) = read_pdn(text) else {
        return;
    };
    for g in games {
        let written = g.to_pdn();
        let back = read_pdn_game(&written).expect("written PDN reads");
        assert_eq!(back.start, g.start, "{written}");
        assert_eq!(back.moves, g.moves, "{written}");
        let _ = g.final_board();
    }
});
