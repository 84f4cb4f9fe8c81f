//! `qiyi review aeroplane`: the win-chance judge of [`qiyi_aeroplane::review`] on the JSON
//! record `qiyi games export` writes (every move and die roll as texts: `r1`..`r6`, `a`..`d`),
//! on the crate's own game record ([`qiyi_aeroplane::record::GameRecord`]: rules, players, seed,
//! rolls, choices), or on a bare JSON list of move texts (four players, standard rules).

use crate::common::{peak_rss_note, progress, Global};
use crate::review_shared::print_review;

/// Reviews the aeroplane record `text` and prints the review.
pub fn run(g: &Global, text: &str) -> anyhow::Result<()> {
    let (start, moves) = qiyi_aeroplane::review::read_record(text)?;
    let bar = progress(moves.len() as u64, "review");
    let review = qiyi_aeroplane::review::review_game(&start, &moves, |done, _| {
        bar.set_position(done as u64)
    })?;
    bar.finish_and_clear();
    eprintln!(
        "judge memory: the win-chance model's tables (built once){}",
        peak_rss_note()
    );
    print_review(g, &review, 1)
}
