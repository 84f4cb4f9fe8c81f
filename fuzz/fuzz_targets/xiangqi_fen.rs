//! Xiangqi FEN: what parses writes back and parses to the same FEN; every legal move replays
//! (its ICCS and WXF text parse back to it); perft(1) equals the legal move count.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_xiangqi::perft::perft;
use qiyi_xiangqi::Position;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(pos) = Position::from_fen(text) else {
        return;
    };
    let fen = pos.to_fen();
    let again = Position::from_fen(&fen).expect("a written FEN parses");
    assert_eq!(again.to_fen(), fen, "FEN round-trip");
    let legal = pos.legal_move_list();
    let legal = legal.as_slice();
    assert_eq!(perft(&mut pos.clone(), 1), legal.len() as u64, "perft(1)");
    for &mv in legal {
        assert_eq!(
            pos.parse_move_text(&mv.to_string()).ok(),
            Some(mv),
            "ICCS {mv}"
        );
        let wxf = pos.move_to_wxf(mv);
        assert_eq!(pos.parse_wxf(&wxf).ok(), Some(mv), "WXF {wxf}");
        let mut next = pos.clone();
        next.make(mv);
        let fen = next.to_fen();
        assert!(Position::from_fen(&fen).is_ok(), "after {mv}: {fen}");
    }
});
