//! `qiyi lab GAME`: the algorithms side by side on fixed positions, measured, with charts.
//!
//! Each game runs every algorithm it can use, from the tutorial's version to the full engine, on
//! the same position set (shipped under `src/lab/data/`, or `--positions FILE`), and prints
//! Markdown tables (nodes, time, depth, best move, value; states visited for the solvers; win
//! rates with 95% intervals for the tournaments). `--json` prints the same report as one JSON
//! object, `--plot DIR` writes SVG charts. Every random choice derives from `--seed`.

mod aero;
mod chinese;
mod peg;
mod plot;
mod report;
mod twoplayer;

use crate::common::{print_json, Global};
use anyhow::Context;
use clap::{Args, ValueEnum};
use report::LabReport;
use std::path::PathBuf;

/// The games the lab knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum LabGame {
    /// Xiangqi: minimax and every alpha-beta enhancement to a fixed depth.
    Xiangqi,
    /// English checkers: minimax and every alpha-beta enhancement to a fixed depth.
    Checkers,
    /// Chinese checkers: greedy, 2-ply minimax, paranoid, best-reply search, MCTS (tournaments).
    ChineseCheckers,
    /// Peg solitaire: plain DFS, + visited set, + symmetry, + classes and dead-state table.
    PegSolitaire,
    /// Aeroplane chess: greedy, flat Monte Carlo, expectimax, MCTS against a fixed field.
    Aeroplane,
}

impl LabGame {
    /// The name used on the command line and in file names.
    pub fn name(self) -> &'static str {
        match self {
            LabGame::Xiangqi => "xiangqi",
            LabGame::Checkers => "checkers",
            LabGame::ChineseCheckers => "chinese-checkers",
            LabGame::PegSolitaire => "peg-solitaire",
            LabGame::Aeroplane => "aeroplane",
        }
    }
}

/// Arguments of `qiyi lab`.
#[derive(Args, Debug, Clone)]
pub struct LabArgs {
    /// The game whose algorithms are compared.
    #[arg(value_enum)]
    pub game: LabGame,
    /// Position set, one per line (`name<TAB>position`; `#` starts a comment). Default: the
    /// shipped set of the game.
    #[arg(long)]
    pub positions: Option<PathBuf>,
    /// Search depth in plies (Xiangqi, checkers; default 4 and 7) or search depth of the
    /// tree players (Chinese checkers, aeroplane).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=12))]
    pub depth: Option<u32>,
    /// Games per tournament (Chinese checkers, aeroplane).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: Option<u64>,
    /// Peg solitaire: positions a variant may visit before it gives up (default 10,000,000).
    /// Chinese checkers: tree-search nodes per decision (default 4,000; MCTS gets 1 playout per
    /// 20 nodes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: Option<u64>,
    /// Write SVG charts into this directory (created if missing).
    #[arg(long)]
    pub plot: Option<PathBuf>,
    /// Also write the report as JSON into this file (what the web Lab page shows).
    #[arg(long)]
    pub save_json: Option<PathBuf>,
}

/// Runs `qiyi lab`.
pub fn lab(g: &Global, args: LabArgs) -> anyhow::Result<()> {
    let custom = match &args.positions {
        Some(path) => Some(
            std::fs::read_to_string(path)
                .with_context(|| format!("cannot read positions file {}", path.display()))?,
        ),
        None => None,
    };
    let report = run(g, &args, custom.as_deref())?;
    if let Some(dir) = &args.plot {
        let files = plot::write_all(&report, dir)?;
        for f in &files {
            eprintln!("lab: wrote {}", f.display());
        }
    }
    if let Some(path) = &args.save_json {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if g.json {
        print_json(&report)
    } else {
        print!("{}", report.markdown());
        Ok(())
    }
}

/// Runs the lab of `args.game` and returns its report (`positions`: a position file's text).
pub fn run(g: &Global, args: &LabArgs, positions: Option<&str>) -> anyhow::Result<LabReport> {
    let mut report = match args.game {
        LabGame::Xiangqi => twoplayer::xiangqi(g, args, positions)?,
        LabGame::Checkers => twoplayer::checkers(g, args, positions)?,
        LabGame::ChineseCheckers => chinese::run(g, args, positions)?,
        LabGame::PegSolitaire => peg::run(g, args, positions)?,
        LabGame::Aeroplane => aero::run(g, args, positions)?,
    };
    report.command = command_line(g, args);
    Ok(report)
}

/// The command that reproduces a run (as the docs print it).
fn command_line(g: &Global, args: &LabArgs) -> String {
    let mut s = format!("qiyi lab {} --seed {}", args.game.name(), g.seed);
    if let Some(t) = g.threads {
        s += &format!(" --threads {t}");
    }
    if let Some(p) = &args.positions {
        s += &format!(" --positions {}", p.display());
    }
    if let Some(d) = args.depth {
        s += &format!(" --depth {d}");
    }
    if let Some(n) = args.games {
        s += &format!(" --games {n}");
    }
    if let Some(b) = args.budget {
        s += &format!(" --budget {b}");
    }
    s
}

/// Splits a position file into `(name, text)` pairs: one position per line, the name and the
/// position separated by a tab (or, without a tab, the whole line is the position and the name
/// is its line number); blank lines and `#` comments are skipped.
pub fn parse_position_lines(text: &str) -> Vec<(String, String)> {
    text.lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                return None;
            }
            Some(match line.split_once('\t') {
                Some((name, pos)) => (name.trim().to_string(), pos.trim().to_string()),
                None => (format!("line{}", i + 1), line.to_string()),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn position_lines_skip_comments_and_name_untitled_lines() {
        let got = parse_position_lines("# c\n\nstart\tB:W21:B1\nW:W5:B9\n");
        assert_eq!(
            got,
            vec![
                ("start".to_string(), "B:W21:B1".to_string()),
                ("line4".to_string(), "W:W5:B9".to_string())
            ]
        );
    }
}
