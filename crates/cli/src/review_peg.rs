//! `qiyi review peg-solitaire`: the exact judge of [`qiyi_peg_solitaire::review`] on the JSON
//! record `qiyi games export` writes, or on a bare JSON list of move texts.

use crate::common::{progress, Global};
use crate::review_shared::print_review;

/// Reviews the peg-solitaire record `text` and prints the review.
pub fn run(g: &Global, text: &str) -> anyhow::Result<()> {
    let (start, moves) = qiyi_peg_solitaire::review::read_record(text)?;
    let bar = progress(moves.len() as u64, "review");
    let review = qiyi_peg_solitaire::review::review_game(&start, &moves, |done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    print_review(g, &review, 0)?;
    if g.json {
        return Ok(());
    }
    if let Some(i) = qiyi_peg_solitaire::review::first_lost(&review) {
        let p = &review.plies[i];
        println!(
            "the solution was lost at move {} ({}); {} keeps it",
            i + 1,
            p.played,
            p.best.as_deref().unwrap_or("?")
        );
    } else if review.plies.first().is_some_and(|p| p.before.win >= 1.0) {
        println!("the solution was never lost");
    } else {
        println!("the start had no solution to lose");
    }
    Ok(())
}
