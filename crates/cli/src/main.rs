//! `qiyi`: play, solve and analyse Xiangqi, English checkers, Chinese checkers, peg solitaire and
//! aeroplane chess from one command.
//!
//! Conventions every subcommand follows: `--seed` makes randomness reproducible (and is printed
//! with results), `--threads` sets the worker count, `--json` prints machine-readable output on
//! stdout (the last line is one JSON object), progress bars go to stderr, and bad input ends with a
//! one-line error and exit code 2.

mod aeroplane;
mod checkers;
mod common;
mod xiangqi;
mod peg_solitaire;
mod serve;

use clap::{Parser, Subcommand};
use common::Global;
use std::process::ExitCode;

/// qiyi (棋艺): five classic games with complete rules, strong AIs and one search core.
#[derive(Parser, Debug)]
#[command(name = "qiyi", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(flatten)]
    global: Global,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Serve the page to play every game in the browser (prints the URL).
    Serve(serve::ServeArgs),
    /// Count the leaves of the move tree to a depth (move-generator check).
    Perft(PerftArgs),
    /// Solve a puzzle exactly (peg solitaire: solve, count, fewest moves, classify).
    Solve(SolveArgs),
    /// Exact odds tables (Markov chains): squares per turn, turns to finish, hit chances.
    Odds(OddsArgs),
    /// Play many games between player types, seats rotating; win rates with 95% intervals.
    Tournament(TournamentArgs),
    /// Measure simulation speed and decision times.
    Bench(BenchArgs),
}

/// Arguments of `qiyi odds`: the game and its own options.
#[derive(clap::Args, Debug)]
struct OddsArgs {
    #[command(subcommand)]
    game: OddsGame,
}

/// The games `qiyi odds` knows.
#[derive(Subcommand, Debug)]
enum OddsGame {
    /// Aeroplane chess.
    Aeroplane(aeroplane::OddsArgs),
}

/// Arguments of `qiyi tournament`: the game and its own options.
#[derive(clap::Args, Debug)]
struct TournamentArgs {
    #[command(subcommand)]
    game: TournamentGame,
}

/// The games `qiyi tournament` knows.
#[derive(Subcommand, Debug)]
enum TournamentGame {
    /// Aeroplane chess.
    Aeroplane(aeroplane::TournamentArgs),
}

/// Arguments of `qiyi bench`: the game and its own options.
#[derive(clap::Args, Debug)]
struct BenchArgs {
    #[command(subcommand)]
    game: BenchGame,
}

/// The games `qiyi bench` knows.
#[derive(Subcommand, Debug)]
enum BenchGame {
    /// Aeroplane chess.
    Aeroplane(aeroplane::BenchArgs),
}

/// Arguments of `qiyi solve`: the puzzle and its own options.
#[derive(clap::Args, Debug)]
struct SolveArgs {
    #[command(subcommand)]
    game: SolveGame,
}

/// The puzzles `qiyi solve` knows.
#[derive(Subcommand, Debug)]
enum SolveGame {
    /// Peg solitaire on every classic board.
    PegSolitaire(peg_solitaire::SolveArgs),
}

/// Arguments of `qiyi perft`: the game and its own options.
#[derive(clap::Args, Debug)]
struct PerftArgs {
    #[command(subcommand)]
    game: PerftGame,
}

/// The games `qiyi perft` knows.
#[derive(Subcommand, Debug)]
enum PerftGame {
    /// English checkers (WCDF rules).
    Checkers(checkers::PerftArgs),
    /// Xiangqi (Chinese chess).
    Xiangqi(xiangqi::PerftArgs),
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let g = &cli.global;
    match cli.command {
        Command::Serve(a) => serve::serve(g, a),
        Command::Perft(args) => match args.game {
            PerftGame::Checkers(a) => checkers::perft(g, a),
            PerftGame::Xiangqi(a) => xiangqi::perft(g, a),
        },
        Command::Solve(args) => match args.game {
            SolveGame::PegSolitaire(a) => peg_solitaire::solve(g, a),
        },
        Command::Odds(args) => match args.game {
            OddsGame::Aeroplane(a) => aeroplane::odds(g, a),
        },
        Command::Tournament(args) => match args.game {
            TournamentGame::Aeroplane(a) => aeroplane::tournament(g, a),
        },
        Command::Bench(args) => match args.game {
            BenchGame::Aeroplane(a) => aeroplane::bench(g, a),
        },
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            let chain: Vec<String> = err.chain().map(|e| e.to_string()).collect();
            eprintln!("qiyi: error: {}", chain.join(": "));
            ExitCode::from(2)
        }
    }
}
