//! The checkers opening book reader (`Book::parse`, what `qiyi book checkers` and the engine
//! read) on any text: every line whose FEN and move read is in the book, and the book answers a
//! lookup of each position it holds with a legal move of that position; the book written back
//! in the book's own line format (`FEN<TAB>move<TAB>score<TAB>depth`, as `book_line` writes it)
//! reads to the same positions and moves; `positions_in` agrees; a header names its budget back.
#![no_main]
use libfuzzer_sys::fuzz_target;
use qiyi_checkers::engine::book::{
    book_header, book_header_budget, positions_in, Book, BookBudget,
};
use qiyi_checkers::notation::{board_from_fen, board_to_fen, move_to_pdn, parse_move};
use qiyi_checkers::{Board, Checkers};
use std::collections::HashSet;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    if data.len() > 16384 {
        return;
    }
    let text = String::from_utf8_lossy(data);
    let book = Book::parse(&text);
    // The positions whose lines read, by the same rules, found independently of the reader.
    let mut boards: Vec<Board> = Vec::new();
    let mut seen = HashSet::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let mut f = line.split('\t');
        let (Some(fen), Some(mv)) = (f.next(), f.next()) else {
            continue;
        };
        if let Ok(b) = board_from_fen(fen) {
            if parse_move(&b, mv).is_ok() && seen.insert(b) {
                boards.push(b);
            }
        }
    }
    assert_eq!(
        book.len(),
        boards.len(),
        "every line that reads is in the book"
    );
    assert_eq!(book.is_empty(), boards.is_empty());
    assert_eq!(
        positions_in(&text),
        seen,
        "positions_in agrees with the book"
    );

    let mut written = String::from("# FEN\tmove\tscore\tdepth (qiyi book checkers)\n");
    let mut answers = Vec::new();
    for b in &boards {
        let pos = Checkers::from_board(*b);
        let mv = book
            .lookup(&pos)
            .unwrap_or_else(|| panic!("the book answers for {}", board_to_fen(b)));
        assert!(
            pos.moves().contains(&mv),
            "the book move {} of {} is legal",
            move_to_pdn(&mv),
            board_to_fen(b)
        );
        written.push_str(&format!(
            "{}\t{}\t0\t1\n",
            board_to_fen(b),
            move_to_pdn(&mv)
        ));
        answers.push(mv);
    }
    let again = Book::parse(&written);
    assert_eq!(
        again.len(),
        book.len(),
        "the written book reads back whole:\n{written}"
    );
    for (b, mv) in boards.iter().zip(&answers) {
        assert_eq!(
            again.lookup(&Checkers::from_board(*b)).as_ref(),
            Some(mv),
            "the written book answers {} the same",
            board_to_fen(b)
        );
    }
    // A header names its budget back (the budget taken from the input's first bytes).
    let n = data
        .iter()
        .take(8)
        .fold(0u64, |a, &b| a << 8 | u64::from(b));
    for budget in [
        BookBudget::Depth(n as u32),
        BookBudget::Nodes(n),
        BookBudget::MoveTime(Duration::from_millis(n)),
    ] {
        assert_eq!(
            book_header_budget(&book_header(&budget)),
            Some(budget.option()),
            "the header of {budget:?}"
        );
    }
    // Whatever the first line is, reading its budget never panics.
    let _ = book_header_budget(&text);
});
