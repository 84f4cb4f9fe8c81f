//! `qiyi review peg-solitaire`: the exact judge of [`qiyi_peg_solitaire::review`] on the JSON
//! record `qiyi games export` writes, or on a bare JSON list of move texts.

use crate::common::{progress, Global};
use crate::review_shared::print_review;

/// The peg judge the command line uses: its memo bounded to `memo_mib` (default
/// [`DEFAULT_MEMO_MIB`](qiyi_peg_solitaire::review::DEFAULT_MEMO_MIB)) and each decision to
/// `nodes` positions (default
/// [`DEFAULT_NODE_BUDGET`](qiyi_peg_solitaire::review::DEFAULT_NODE_BUDGET); 0: no limit).
/// Returns the judge and its node budget (`None`: no limit).
pub fn cli_judge(
    nodes: Option<u64>,
    memo_mib: Option<u64>,
) -> (qiyi_peg_solitaire::review::PegJudge, Option<u64>) {
    use qiyi_peg_solitaire::review::{PegJudge, DEFAULT_MEMO_MIB, DEFAULT_NODE_BUDGET};
    let mib = memo_mib.map_or(DEFAULT_MEMO_MIB, |m| {
        usize::try_from(m).unwrap_or(usize::MAX)
    });
    let judge = PegJudge::with_memo_mib(mib);
    match nodes.unwrap_or(DEFAULT_NODE_BUDGET) {
        0 => (judge, None),
        n => (judge.with_node_budget(n), Some(n)),
    }
}

/// Prints the peg judge's memory on stderr: its memo's bound and peak, and the positions it
/// expanded.
pub fn print_judge_memory(judge: &qiyi_peg_solitaire::review::PegJudge, memo_mib: Option<u64>) {
    eprintln!(
        "judge memory: memo peak {:.1} MiB of at most {} (--hash) ({} positions expanded{})",
        judge.memo_peak_bytes() as f64 / (1024.0 * 1024.0),
        memo_mib.unwrap_or(qiyi_peg_solitaire::review::DEFAULT_MEMO_MIB as u64),
        judge.nodes,
        match judge.node_budget() {
            Some(n) => format!(", at most {n} a decision (--nodes)"),
            None => ", no limit (--nodes 0)".to_string(),
        }
    );
}

/// Reviews the peg-solitaire record `text` and prints the review; `nodes` bounds the positions
/// the judge expands for each move (default 1,000,000; `Some(0)`: exact, however long it
/// takes), `memo_mib` its memo (default 64 MiB).
pub fn run(
    g: &Global,
    text: &str,
    nodes: Option<u64>,
    memo_mib: Option<u64>,
) -> anyhow::Result<()> {
    use qiyi_core::Notation;
    let (start, moves) = qiyi_peg_solitaire::review::read_record(text)?;
    let bar = progress(moves.len() as u64, "review");
    let (mut judge, budget) = cli_judge(nodes, memo_mib);
    let name = match budget {
        Some(n) => format!("exact (fewest pegs reachable; unknown past {n} positions a move)"),
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
    print_judge_memory(&judge, memo_mib);
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
             is unknown (raise --nodes, or --nodes 0 for no limit)",
            budget.unwrap_or(0)
        );
    } else if review.plies.first().is_some_and(|p| p.before.win >= 1.0) {
        println!("the solution was never lost");
    } else {
        println!("the start had no solution to lose");
    }
    Ok(())
}
