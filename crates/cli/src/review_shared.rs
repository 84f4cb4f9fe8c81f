//! What `qiyi review`'s dispatcher ([`crate::review`]) and each game's review file share: the
//! command's arguments and the printer of a finished review (a table with per-player summaries,
//! or JSON). It names neither the dispatcher nor the games, so they all stand on it.

use clap::Args;
use qiyi_core::review::{Class, Review};
use std::path::PathBuf;

use crate::common::{print_json, Global};

/// Arguments of `qiyi review`.
#[derive(Args, Debug)]
pub struct ReviewArgs {
    /// The game: peg-solitaire (alias peg), checkers, xiangqi, aeroplane or chinese-checkers.
    pub game: String,
    /// The record: what `qiyi games export` writes (PGN for Xiangqi, PDN for checkers, the JSON
    /// record for peg solitaire), or a PGN/PDN file or JSON record of your own (`-` for stdin).
    #[arg(required_unless_present = "id", conflicts_with = "id")]
    pub file: Option<PathBuf>,
    /// Review the stored game with this id (from `qiyi games list`) instead of a file.
    #[arg(long)]
    pub id: Option<String>,
    /// SQLite file of the games, with `--id` (default: the one `qiyi serve` uses).
    #[arg(long, requires = "id")]
    pub db: Option<String>,
    /// Engine games: search every position to this depth (checkers: default 16, at most 40;
    /// xiangqi: default 12, at most 30; two-player chinese-checkers: default 4, at most 12).
    #[arg(long, conflicts_with = "movetime")]
    pub depth: Option<u32>,
    /// Engine games: search every position for this many milliseconds instead of a depth
    /// (the review then depends on the machine's speed).
    #[arg(long)]
    pub movetime: Option<u64>,
    /// Checkers and xiangqi: write the game annotated as PDN / PGN to this file (evaluations,
    /// marks `?!` `?` `??` (NAGs in PGN), the better line as a variation).
    #[arg(long)]
    pub annotate: Option<PathBuf>,
    /// Checkers: an endgame database directory (from `qiyi egdb build checkers`; default
    /// $QIYI_CHECKERS_EGDB) for exact values where it covers the position.
    #[arg(long)]
    pub egdb: Option<PathBuf>,
    /// Peg solitaire: judge each move within this many positions (default 1,000,000, the
    /// server's; 0: no limit, every verdict exact however long it takes); a move not decided
    /// within them is shown as unknown, never as solvable or lost.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Xiangqi: judge with `net` (the shipped net, the default), `hand` (the hand-written
    /// evaluation) or the net file at this path (from `qiyi train xiangqi`).
    #[arg(long)]
    pub eval: Option<String>,
    /// Checkers and xiangqi: the judge's transposition table in MiB (1-4096; default 64); peg
    /// solitaire: the most its judge's memo of solved positions takes (default 64; past it the
    /// memo is emptied and refilled). The review prints what it uses on stderr.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=4096))]
    pub hash: Option<u64>,
}

/// Prints the review as JSON (`--json`) or as a table with per-player summaries; `digits` is how
/// many decimals the game's unit is printed with.
pub fn print_review(g: &Global, review: &Review, digits: usize) -> anyhow::Result<()> {
    if g.json {
        return print_json(review);
    }
    print_table(review, digits);
    Ok(())
}

fn print_table(review: &Review, digits: usize) {
    let chance = review.plies.iter().any(|p| p.luck.is_some());
    println!(
        "{:>4}  {:>6}  {:<12} {:<12} {:>8} {:>8} {:>6}  class",
        "ply", "player", "played", "best", review.unit, "best", "win%"
    );
    for p in &review.plies {
        let unit = |u: Option<f64>| u.map(|x| format!("{x:.digits$}")).unwrap_or_default();
        let class = p.class.map(Class::name).unwrap_or("");
        let mut flags = String::new();
        if let Some(l) = p.luck {
            flags.push_str(&format!("roll, luck {:+.1}%", 100.0 * l));
        }
        if p.missed_win {
            flags.push_str(" (missed win)");
        }
        if p.only_move {
            flags.push_str(" (only move)");
        }
        if p.forced {
            flags.push_str(" (forced)");
        }
        if p.exact && p.luck.is_none() {
            flags.push_str(" [exact]");
        }
        if p.unknown {
            flags.push_str(" unknown (not decided within the judge's budget)");
        }
        // An undecided ply's win chance is only a bound: shown as `?`.
        let win = if p.unknown {
            "?".to_string()
        } else {
            format!("{:.1}", 100.0 * p.after_played.win)
        };
        println!(
            "{:>4}  {:>6}  {:<12} {:<12} {:>8} {:>8} {:>6}  {}{}{}",
            p.ply + 1,
            p.mover + 1,
            p.played,
            p.best.as_deref().unwrap_or(""),
            unit(p.after_played.unit),
            unit(p.after_best.unit),
            win,
            class,
            p.class.map(Class::symbol).unwrap_or(""),
            flags
        );
    }
    for s in &review.summary {
        print!(
            "player {}: accuracy {}  moves {}  best {} good {} inaccuracy {} mistake {} blunder {}",
            s.player + 1,
            s.accuracy
                .map(|a| format!("{a:.1}"))
                .unwrap_or_else(|| "-".into()),
            s.moves,
            s.counts[0],
            s.counts[1],
            s.counts[2],
            s.counts[3],
            s.counts[4]
        );
        if s.missed_wins > 0 {
            print!("  missed wins {}", s.missed_wins);
        }
        if s.unknown > 0 {
            print!("  unknown {}", s.unknown);
        }
        if chance {
            print!(
                "  result {:.2} = prior {:.2} + skill {:+.3} + luck {:+.3} + others {:+.3} + drift {:+.3}",
                s.result, s.prior, s.skill, s.luck, s.others, s.drift
            );
        }
        println!();
    }
}
