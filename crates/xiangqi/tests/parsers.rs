//! Property tests: the parsers never panic, whatever the input, and what they accept round-trips.

use proptest::prelude::*;
use qiyi_xiangqi::Position;

const FEN_ALPHABET: &str = "rnbakcpRNBAKCPeEhH0123456789/ wb-x";

fn fen_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(0..FEN_ALPHABET.len(), 0..90).prop_map(|idx| {
        idx.into_iter()
            .map(|i| FEN_ALPHABET.as_bytes()[i] as char)
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn from_fen_never_panics_on_any_string(s in ".*") {
        let _ = Position::from_fen(&s);
    }

    #[test]
    fn from_fen_never_panics_on_fen_like_text(s in fen_like()) {
        if let Ok(p) = Position::from_fen(&s) {
            let again = Position::from_fen(&p.to_fen()).unwrap();
            prop_assert_eq!(again.to_fen(), p.to_fen());
        }
    }

    #[test]
    fn mutated_start_fen_is_accepted_or_rejected_cleanly(pos in 0usize..70, c in proptest::char::any()) {
        let mut fen: Vec<char> = qiyi_xiangqi::START_FEN.chars().collect();
        let i = pos % fen.len();
        fen[i] = c;
        let s: String = fen.into_iter().collect();
        if let Ok(p) = Position::from_fen(&s) {
            prop_assert!(Position::from_fen(&p.to_fen()).is_ok());
        }
    }

    #[test]
    fn move_parsers_never_panic(s in ".{0,12}") {
        let p = Position::start();
        let _ = p.parse_move_text(&s);
        let _ = p.parse_wxf(&s);
        let _ = Position::parse_iccs(&s);
    }

    #[test]
    fn move_parsers_never_panic_on_move_like_text(s in "[a-iA-I0-9KAEHRCPBN+=.-]{0,6}") {
        let p = Position::start();
        if let Ok(mv) = p.parse_move_text(&s) {
            prop_assert!(p.is_legal(mv));
        }
    }
}

/// Found by the `xiangqi_fen` fuzzer (fuzz/artifacts crash-7dec1c97): a FEN at the largest
/// counter the reader takes, played on one move, wrote a counter the reader refused.
#[test]
fn fuzz_regression_counters_past_the_limit_still_write_a_readable_fen() {
    let pos = qiyi_xiangqi::Position::from_fen("3k5/R8/9/9/9/9/9/9/9/1R2K4 w 01000000")
        .expect("counter 1,000,000 reads");
    for &mv in pos.legal_move_list().as_slice() {
        let mut next = pos.clone();
        next.make(mv);
        let fen = next.to_fen();
        assert!(
            qiyi_xiangqi::Position::from_fen(&fen).is_ok(),
            "after {mv}: {fen}"
        );
    }
}
