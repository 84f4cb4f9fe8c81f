//! Xiangqi records (`review::read_record`: XQ PGN with ICCS, WXF or Chinese moves, and JSON
//! records): every move of a record that reads is legal in turn; the record written back as PGN
//! (tags, `FEN`, ICCS moves, result) and as a JSON record (Chinese move text) reads to the same
//! tags, start, moves and result; every move's Chinese text reads back to it.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_core::record::escape_tag;
use qiyi_xiangqi::review::{parse_chinese, read_record, ReviewRecord};
use qiyi_xiangqi::Position;

fn is_fen(k: &str) -> bool {
    k.eq_ignore_ascii_case("FEN")
}

fn same(a: &ReviewRecord, b: &ReviewRecord, written: &str) {
    assert_eq!(a.start.to_fen(), b.start.to_fen(), "start of {written}");
    assert_eq!(a.moves, b.moves, "moves of {written}");
    assert_eq!(a.result, b.result, "result of {written}");
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(r) = read_record(text) else {
        return;
    };
    // Every move is legal in turn, and its Chinese text reads back to it.
    let mut pos: Position = r.start.clone();
    let mut chinese = Vec::with_capacity(r.moves.len());
    for &mv in &r.moves {
        let legal = pos.legal_move_list();
        assert!(legal.as_slice().contains(&mv), "record move {mv} not legal");
        let zh = pos.move_to_chinese(mv);
        assert_eq!(parse_chinese(&pos, &zh).ok(), Some(mv), "Chinese {zh}");
        chinese.push(zh);
        pos.make(mv);
    }
    // Back to PGN.
    let mut pgn = String::new();
    for (k, v) in r.tags.iter().filter(|(k, _)| !is_fen(k)) {
        pgn.push_str(&format!("[{k} \"{}\"]\n", escape_tag(v)));
    }
    pgn.push_str(&format!("[FEN \"{}\"]\n\n", r.start.to_fen()));
    for (i, mv) in r.moves.iter().enumerate() {
        if i % 2 == 0 {
            pgn.push_str(&format!("{}. ", i / 2 + 1));
        }
        pgn.push_str(&format!("{mv} "));
    }
    pgn.push_str(&r.result);
    pgn.push('\n');
    let back =
        read_record(&pgn).unwrap_or_else(|e| panic!("written PGN does not read: {e}\n{pgn}"));
    same(&r, &back, &pgn);
    let tags = |x: &ReviewRecord| -> Vec<(String, String)> {
        x.tags.iter().filter(|(k, _)| !is_fen(k)).cloned().collect()
    };
    assert_eq!(tags(&r), tags(&back), "tags of {pgn}");
    // Back to a JSON record with Chinese moves.
    let json = serde_json::json!({
        "game": "xiangqi",
        "position": r.start.to_fen(),
        "moves": chinese,
        "result": r.result,
    })
    .to_string();
    let back =
        read_record(&json).unwrap_or_else(|e| panic!("written JSON does not read: {e}\n{json}"));
    same(&r, &back, &json);
});
