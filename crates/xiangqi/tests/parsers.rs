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

/// Every legal move of `fen` writes WXF and Chinese text that reads back to that move alone.
fn every_move_round_trips_in_wxf_and_chinese(fen: &str) -> Vec<String> {
    let pos = Position::from_fen(fen).unwrap();
    let mut texts = Vec::new();
    for &mv in pos.legal_move_list().as_slice() {
        let wxf = pos.move_to_wxf(mv);
        assert_eq!(
            pos.parse_wxf(&wxf).ok(),
            Some(mv),
            "{fen}: WXF {wxf} of {mv}"
        );
        let chinese = pos.move_to_chinese(mv);
        assert_eq!(
            qiyi_xiangqi::review::parse_chinese(&pos, &chinese).ok(),
            Some(mv),
            "{fen}: {chinese} of {mv}"
        );
        texts.push(wxf);
        texts.push(chinese);
    }
    texts
}

/// Found by the `xiangqi_fen` fuzzer in CI (crash-35f8e0ef): Black has two pawns on each of two
/// files, so `P-+1` named both rear pawns. WXF's rule for tandem pawns in two files puts the file
/// in place of the piece letter (`9-+1`), Chinese writes `后９进１`.
#[test]
fn fuzz_regression_tandem_pawns_in_two_files_are_named_by_file() {
    let fen = "r1bakabr1/9/1cn14c/11p111pnp/9/9/P1P1P1P1p/21N1C2C/9/RNBAKAp1R b - - 3 2";
    let texts = every_move_round_trips_in_wxf_and_chinese(fen);
    // The rear pawn of Black's file 9 (i6) and of file 7 (g6) each step forward.
    for t in ["9-+1", "7-+1", "后９进１", "后７进１", "9++1", "前９进１"] {
        assert!(texts.iter().any(|x| x == t), "{t} missing from {texts:?}");
    }
    assert!(!texts.iter().any(|x| x == "P-+1"));
}

/// WXF's four and five pawns in a file: `++`, `P+`, (`P9`), `P-`, `--`; Chinese 前, 二, 三, 四, 后.
#[test]
fn four_and_five_pawns_in_one_file_each_have_a_name() {
    let five = "P3k4/P8/P8/P8/P8/9/9/9/9/3K5 w - - 0 1";
    let texts = every_move_round_trips_in_wxf_and_chinese(five);
    for t in [
        "++=8",
        "P+=8",
        "P9=8",
        "P-=8",
        "--=8",
        "前兵平八",
        "二兵平八",
        "三兵平八",
        "四兵平八",
        "后兵平八",
    ] {
        assert!(texts.iter().any(|x| x == t), "{t} missing from {texts:?}");
    }
    let four = "P3k4/P8/P8/P8/9/9/9/9/9/3K5 w - - 0 1";
    let texts = every_move_round_trips_in_wxf_and_chinese(four);
    for t in ["++=8", "P+=8", "P-=8", "--=8"] {
        assert!(texts.iter().any(|x| x == t), "{t} missing from {texts:?}");
    }
    // Three in one file and two in another: the file leads (`9+=8`, `99=8`, `9-=8`).
    let three_two = "4k4/P8/P8/P1P6/2P6/9/9/9/9/3K5 w - - 0 1";
    let texts = every_move_round_trips_in_wxf_and_chinese(three_two);
    for t in [
        "9++1",
        "9+=8",
        "99=8",
        "9-=8",
        "7+=6",
        "7-=6",
        "7-=8",
        "中九平八",
        "后七平六",
    ] {
        assert!(texts.iter().any(|x| x == t), "{t} missing from {texts:?}");
    }
}

/// Found by the `xiangqi_pgn` fuzzer (seventh session, crash-a5f2bf5e): a tag named `"moves` was
/// read, and written back as `["moves "c\""]`, a line that reads as a JSON record. A tag name is
/// a PGN symbol now; anything else is a clear error.
#[test]
fn fuzz_regression_a_tag_name_with_a_quote_is_refused() {
    let crash = "%G< \"Cs\n[\"moves \"c\"\"]\n[\"v\" \"\0\"]\n";
    let err = qiyi_xiangqi::review::read_record(crash).expect_err("a quote in a tag name");
    assert!(err.to_string().contains("bad tag name"), "{err}");
    // Tag names of letters (any script), digits and _+#=:- still read.
    let ok = "[Event \"x\"]\n[Red_Team-2 \"y\"]\n[赛事 \"z\"]\n\n1. h2e2 h9g7 *\n";
    let r = qiyi_xiangqi::review::read_record(ok).expect("symbol tag names");
    let names: Vec<&str> = r.tags.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(names, ["Event", "Red_Team-2", "赛事"]);
}
