//! JSON records of Chinese checkers, peg solitaire and aeroplane chess (`review::read_record`,
//! the first byte picks the game): a record that reads replays (every move legal in turn) and,
//! written back as a JSON record (`position` text and move texts), reads to the same start and
//! moves.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_core::Notation;

/// Replays `moves` from `start` (each must be legal, or a roll of a chance turn), writes the
/// record back and returns it.
fn replay_and_write<G: Notation>(game: &str, start: &G, moves: &[G::Move]) -> String
where
    G::Move: PartialEq + std::fmt::Debug,
{
    let mut pos = start.clone();
    let mut texts = Vec::with_capacity(moves.len());
    for &mv in moves {
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let mut outcomes = Vec::new();
        pos.chance_outcomes(&mut outcomes);
        legal.extend(outcomes.iter().map(|(m, _)| *m));
        assert!(
            legal.contains(&mv),
            "record move {mv:?} not legal in {}",
            pos.to_text()
        );
        texts.push(pos.move_to_text(mv));
        pos.make(mv);
    }
    serde_json::json!({"game": game, "position": start.to_text(), "moves": texts}).to_string()
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match which % 3 {
        0 => {
            use qiyi_chinese_checkers::review::read_record;
            let Ok(r) = read_record(text) else { return };
            let json = replay_and_write("chinese-checkers", &r.start, &r.moves);
            let back = read_record(&json)
                .unwrap_or_else(|e| panic!("written record does not read: {e}\n{json}"));
            assert_eq!(back.start.to_text(), r.start.to_text(), "{json}");
            assert_eq!(back.moves, r.moves, "{json}");
        }
        1 => {
            use qiyi_peg_solitaire::review::read_record;
            let Ok((start, moves)) = read_record(text) else {
                return;
            };
            let json = replay_and_write("peg-solitaire", &start, &moves);
            let (s, m) = read_record(&json)
                .unwrap_or_else(|e| panic!("written record does not read: {e}\n{json}"));
            assert_eq!(s.to_text(), start.to_text(), "{json}");
            assert_eq!(m, moves, "{json}");
        }
        _ => {
            use qiyi_aeroplane::review::read_record;
            let Ok((start, moves)) = read_record(text) else {
                return;
            };
            let json = replay_and_write("aeroplane", &start, &moves);
            let (s, m) = read_record(&json)
                .unwrap_or_else(|e| panic!("written record does not read: {e}\n{json}"));
            assert_eq!(s.to_text(), start.to_text(), "{json}");
            assert_eq!(m, moves, "{json}");
        }
    }
});
