//! Parsers never panic, and what they print they read back.

use proptest::prelude::*;
use qiyi_chinese_checkers::notation::parse_cell;
use qiyi_chinese_checkers::Position;
use qiyi_core::Notation;

proptest! {
    #[test]
    fn position_parser_never_panics(s in "\\PC{0,200}") {
        let _ = Position::from_text(&s);
    }

    #[test]
    fn position_parser_survives_near_misses(
        players in 0u32..8, pieces in 8u32..16, flags in "[sl\\-x]{0,3}", turn in 0u32..8,
        rows in proptest::collection::vec("[.1-7]{0,14}", 0..19),
    ) {
        let text = format!("{players} {pieces} {flags} 200 {turn} 0 {}", rows.join("/"));
        if let Ok(pos) = Position::from_text(&text) {
            prop_assert_eq!(Position::from_text(&pos.to_text()).map(|p| p.to_text()), Ok(pos.to_text()));
        }
    }

    #[test]
    fn move_and_cell_parsers_never_panic(s in "\\PC{0,40}", t in "[a-r][0-9]{1,2}([:\\-][a-r][0-9]{1,2}){0,4}") {
        let pos = Position::default();
        let _ = pos.parse_move(&s);
        let _ = pos.parse_move(&t);
        let _ = parse_cell(&s);
    }
}
