//! Xiangqi move text (ICCS, WXF; Chinese written) from the start position and a middle-game one: a text
//! that parses is a legal move, and that move's own ICCS and WXF text parse back to it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_xiangqi::Position;

const FENS: [&str; 2] = [
    qiyi_xiangqi::START_FEN,
    "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R b - - 3 2",
];

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for fen in FENS {
        let pos = Position::from_fen(fen).expect("fixed FEN");
        let legal = pos.legal_move_list();
        for words in [text, text.split_whitespace().next().unwrap_or("")] {
            if let Ok(mv) = pos.parse_move_text(words) {
                assert!(
                    legal.as_slice().contains(&mv),
                    "{words:?} -> {mv} not legal"
                );
                assert_eq!(pos.parse_move_text(&mv.to_string()).ok(), Some(mv));
                let wxf = pos.move_to_wxf(mv);
                assert_eq!(pos.parse_wxf(&wxf).ok(), Some(mv), "WXF {wxf}");
                // The crate writes Chinese notation but reads only ICCS and WXF (the
                // Chinese reader is the web crate's record importer).
                let chinese = pos.move_to_chinese(mv);
                assert!((4..=5).contains(&chinese.chars().count()), "{chinese}");
            }
        }
    }
});
