//! Property tests: the parsers never panic, and what is written reads back.

use proptest::prelude::*;
use qiyi_checkers::notation::{board_from_fen, board_to_fen, move_to_pdn, parse_move};
use qiyi_checkers::pdn::read_pdn;
use qiyi_checkers::{Board, Color};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn fen_parser_never_panics(s in "\\PC{0,60}") {
        let _ = board_from_fen(&s);
    }

    #[test]
    fn fen_parser_survives_fen_like_noise(s in "[BWKbwk0-9:,\\-. ]{0,40}") {
        if let Ok(b) = board_from_fen(&s) {
            prop_assert_eq!(board_from_fen(&board_to_fen(&b)).unwrap(), b);
        }
    }

    #[test]
    fn move_parser_never_panics(s in "[0-9xX:\\- ]{0,20}") {
        let _ = parse_move(&Board::start(), &s);
    }

    #[test]
    fn pdn_reader_never_panics(s in "[\\[\\]{}()\"0-9a-zA-Z.x\\-*/ \\n;%$!?]{0,120}") {
        let _ = read_pdn(&s);
    }

    #[test]
    fn pdn_reader_never_panics_on_any_text(s in "\\PC{0,120}") {
        let _ = read_pdn(&s);
    }

    #[test]
    fn random_positions_round_trip(black in any::<u32>(), white in any::<u32>(), kings in any::<u32>(), side in any::<bool>()) {
        let white = white & !black;
        let side = if side { Color::White } else { Color::Black };
        if let Ok(b) = Board::new(black, white, kings & (black | white), side) {
            let fen = board_to_fen(&b);
            prop_assert_eq!(board_from_fen(&fen).unwrap(), b);
            let mut moves = Vec::new();
            b.generate(&mut moves);
            for m in moves {
                prop_assert_eq!(parse_move(&b, &move_to_pdn(&m)).unwrap(), m);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random legal games (with comments) written as PDN read back identically.
    #[test]
    fn random_games_round_trip_through_pdn(seed in any::<u64>(), plies in 0usize..120) {
        use qiyi_checkers::pdn::{read_pdn_game, GameResult, PdnGame};
        let mut rng = qiyi_core::Rng::new(seed);
        let mut game = PdnGame::new(Board::start());
        game.tags.push(("Event".into(), format!("seed {seed}")));
        let mut board = game.start;
        let mut moves = Vec::new();
        for i in 0..plies {
            board.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            board.make(mv);
            game.moves.push(mv);
            if i % 17 == 3 {
                game.comments.push((game.moves.len(), format!("after {}", move_to_pdn(&mv))));
            }
        }
        game.result = GameResult::Draw;
        let text = game.to_pdn();
        let back = read_pdn_game(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(back, game);
    }
}
