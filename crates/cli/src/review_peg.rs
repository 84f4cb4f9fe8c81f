//! `qiyi review peg-solitaire`: the exact judge of [`qiyi_peg_solitaire::review`] on the JSON
//! record `qiyi games export` writes, or on a bare JSON list of move texts.

use crate::common::{progress, Global};
use crate::review_shared::print_review;

/// Reviews the peg-solitaire record `text` and prints the review; `nodes` bounds the positions
/// the judge expands for each move (`None`: exact, however long it takes).
pub fn run(g: &Global, text: &str, nodes: Option<u64>) -> anyhow::Result<()> {
    use qiyi_core::Notation;
    use qiyi_peg_solitaire::review::PegJudge;
    let (start, moves) = qiyi_peg_solitaire::review::read_record(text)?;
    let bar = progress(moves.len() as u64, "review");
    let mut judge = PegJudge::new();
    let name = match nodes {
        Some(n) => {
            judge = judge.with_node_budget(n);
            format!("exact (fewest pegs reachable; unknown past {n} positions a move)")
        }
        None => "exact (fewest pegs reachable)".to_string(),
    };
    let review = qiyi_core::review::review(
        "peg-solitaire",
        &name,
        &start,
        &moves,
        &mut judge,
        |p, m| p.move_to_text(m),
        |done, _| bar.set_position(done as u64),
    )?;
    bar.finish_and_clear();
    eprintln!(
        "judge memory: memo peak {:.1} MiB ({} positions expanded)",
        judge.memo_peak_bytes() as f64 / (1024.0 * 1024.0),
        judge.nodes
    );
    print_review(g, &review, 0)?;
    if g.json {
        return Ok(());
    }
    let unknown = review.plies.iter().filter(|p| p.unknown).count();
    if let Some(i) = qiyi_peg_solitaire::review::first_lost(&review) {
        let p = &review.plies[i];
        println!(
            "the solution was lost at move {} ({}); {} keeps it",
            i + 1,
            p.played,
            p.best.as_deref().unwrap_or("?")
        );
    } else if unknown > 0 {
        println!(
            "{unknown} move(s) not decided within {} positions: whether the solution was lost \
             is unknown (raise --nodes)",
            nodes.unwrap_or(0)
        );
    } else if review.plies.first().is_some_and(|p| p.before.win >= 1.0) {
        println!("the solution was never lost");
    } else {
        println!("the start had no solution to lose");
    }
    Ok(())
}
