//! Chinese checkers, peg solitaire and aeroplane chess position and move text (the first byte
//! picks the game, the rest is the position): a position that reads writes back and reads to
//! the same text and hash; every legal move (and every roll of a chance turn) writes as text
//! that reads back to it, and replays to a position whose text reads; perft(1) equals the
//! legal move count.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_core::Notation;

fn check<G: Notation>(text: &str)
where
    G::Move: PartialEq + std::fmt::Debug,
{
    let Ok(pos) = G::from_text(text) else {
        return;
    };
    let written = pos.to_text();
    let again = G::from_text(&written)
        .unwrap_or_else(|_| panic!("written position does not read: {written}"));
    assert_eq!(again.to_text(), written, "position round-trip");
    assert_eq!(
        again.hash(),
        pos.hash(),
        "hash after round-trip of {written}"
    );
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "hash of {written}");
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut outcomes = Vec::new();
    pos.chance_outcomes(&mut outcomes);
    moves.extend(outcomes.iter().map(|(m, _)| *m));
    let mut leaves = 0usize;
    for &mv in &moves {
        let t = pos.move_to_text(mv);
        let back = pos
            .parse_move(&t)
            .unwrap_or_else(|_| panic!("move text {t} does not read in {written}"));
        assert_eq!(back, mv, "move {t} in {written}");
        let mut next = pos.clone();
        let undo = next.make(mv);
        let after = next.to_text();
        assert!(G::from_text(&after).is_ok(), "after {t}: {after}");
        assert_eq!(
            next.hash(),
            next.hash_from_scratch(),
            "hash after {t}: {after}"
        );
        next.unmake(mv, undo);
        assert_eq!(next.to_text(), written, "unmake {t}");
        leaves += 1;
    }
    assert_eq!(leaves, moves.len(), "perft(1)");
}

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    match which % 3 {
        0 => check::<qiyi_chinese_checkers::Position>(text),
        1 => check::<qiyi_peg_solitaire::PegPosition>(text),
        _ => check::<qiyi_aeroplane::Aero>(text),
    }
});
