//! Property tests: the board parser, hole names and move parser never panic, and pictures of
//! valid boards round-trip.

use proptest::prelude::*;
use qiyi_core::Notation;
use qiyi_peg_solitaire::{Board, PegPosition};
use std::sync::Arc;

proptest! {
    #[test]
    fn any_text_parses_or_errors(text in "\\PC{0,200}") {
        let _ = Board::from_picture(&text);
        let _ = Board::named(&text);
    }

    #[test]
    fn pictures_of_peg_characters_round_trip(rows in prop::collection::vec("[o. ]{0,12}", 1..12)) {
        let text = rows.join("\n");
        if let Ok(board) = Board::from_picture(&text) {
            let start = board.picture_start();
            let again = Board::from_picture(&board.picture(start)).expect("own picture reads back");
            prop_assert_eq!(&again, &board);
            prop_assert_eq!(again.picture_start(), start);
            // Every jump keeps every class invariant; every symmetry maps jumps to jumps.
            for j in board.jumps() {
                for &m in board.class_masks() {
                    prop_assert_eq!((j.mask() & m).count_ones() % 2, 0);
                }
                for perm in board.symmetries() {
                    let img = board.apply(perm, j.mask());
                    prop_assert!(board.jumps().iter().any(|k| k.mask() == img));
                }
            }
            for h in 0..board.len() {
                prop_assert_eq!(board.hole(board.hole_name(h)).ok(), Some(h));
            }
        }
    }

    #[test]
    fn hole_and_move_text_never_panics(text in "\\PC{0,20}") {
        let pos = PegPosition::start(Arc::new(Board::named("english").unwrap()));
        let _ = pos.board().hole(&text);
        let _ = pos.parse_move(&text);
        let _ = PegPosition::from_text(&text);
    }
}
