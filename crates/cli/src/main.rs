//! `qiyi`: play, solve and analyse Xiangqi, English checkers, Chinese checkers, peg solitaire and
//! aeroplane chess from one command.
//!
//! Conventions every subcommand follows: `--seed` makes randomness reproducible (and is printed
//! with results), `--threads` sets the worker count, `--json` prints machine-readable output on
//! stdout (the last line is one JSON object), progress bars go to stderr, and bad input ends with a
//! one-line error and exit code 2.

mod aeroplane;
mod bench;
mod calibrate;
mod checkers;
mod checkers_engine;
mod checkers_learn;
mod chinese_checkers;
mod common;
mod docs;
mod lab;
mod learn;
mod nets;
mod peg_solitaire;
mod play;
mod puzzles;
mod review;
mod review_aeroplane;
mod review_checkers;
mod review_chinese_checkers;
mod review_peg;
mod review_shared;
mod review_xiangqi;
mod serve;
mod xiangqi;
mod xiangqi_engine;
mod xiangqi_learn;

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
    /// List or export the games `qiyi serve` stored (`qiyi games list|export --db PATH`).
    Games(serve::GamesArgs),
    /// Count the leaves of the move tree to a depth (move-generator check).
    Perft(PerftArgs),
    /// Analyse a position with the engine: each depth's score, nodes and PV, then the best move.
    Analyze(AnalyzeArgs),
    /// Review a finished game: each move's value, the better move, classes, accuracy per player.
    Review(review::ReviewArgs),
    /// Play a match between two engines and report W/D/L, score and Elo.
    Match(MatchArgs),
    /// Endgame databases.
    Egdb(EgdbArgs),
    /// Speak the Hub protocol (Scan/pydraughts) on stdin/stdout as an English checkers engine.
    Hub(checkers_engine::HubArgs),
    /// Build an opening book.
    Book(BookArgs),
    /// Tune evaluation weights by self-play.
    Tune(TuneArgs),
    /// Self-play games written as labelled positions for training an evaluation.
    Selfplay(SelfplayArgs),
    /// Search a self-play run's positions again, deeper (those with a range of piece counts),
    /// into a new run the trainer reads in place of the old.
    Relabel(RelabelArgs),
    /// Train a network evaluation from self-play positions.
    Train(TrainArgs),
    /// Net files: combine single-stage nets into a set by piece count, or describe a file.
    Nets(nets::NetsArgs),
    /// Fit the slope that turns search scores into win chances on self-play shards, with its
    /// calibration table on held-out games.
    Calibrate(calibrate::CalibrateArgs),
    /// Speak UCI (Pikafish style) on stdin/stdout as a Xiangqi engine.
    Uci(xiangqi_engine::ProtocolArgs),
    /// Speak UCCI (ElephantEye style) on stdin/stdout as a Xiangqi engine.
    Ucci(xiangqi_engine::ProtocolArgs),
    /// Exact odds tables (Markov chains): squares per turn, turns to finish, hit chances.
    Odds(OddsArgs),
    /// Play many games between player types, seats rotating; win rates with 95% intervals.
    Tournament(TournamentArgs),
    /// Measure simulation speed and decision times.
    Bench(BenchArgs),
    /// Solve a puzzle exactly (peg solitaire: solve, count, fewest moves, classify).
    Solve(SolveArgs),
    /// Mine puzzles (each proven before it is kept) and check a puzzle file (`mine`, `check`).
    Puzzles(puzzles::PuzzlesArgs),
    /// Play any game in the terminal against the AI, hot-seat, or watch AI against AI.
    Play(play::PlayArgs),
    /// Compare the search algorithms side by side on fixed positions: tables and SVG charts.
    Lab(lab::LabArgs),
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell.
    ///
    /// For example `qiyi completions bash > ~/.local/share/bash-completion/completions/qiyi`.
    Completions(docs::CompletionsArgs),
    /// Print the man page (roff).
    ///
    /// For example `qiyi man > qiyi.1 && man ./qiyi.1`.
    Man,
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
    /// Chinese checkers alone: the fewest moves to cross the star with 1, 3, 6 or 10 pieces.
    ChineseCheckers(chinese_checkers::SolveArgs),
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
    /// Chinese checkers, 2-6 players.
    ChineseCheckers(chinese_checkers::TournamentArgs),
}

/// Arguments of `qiyi bench`: the game and its own options.
#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// Without a game: the fixed whole-house suite (nodes signature and speed per game).
    #[command(subcommand)]
    game: Option<BenchGame>,
    #[command(flatten)]
    suite: bench::SuiteArgs,
}

/// The games `qiyi bench` knows.
#[derive(Subcommand, Debug)]
enum BenchGame {
    /// Aeroplane chess.
    Aeroplane(aeroplane::BenchArgs),
}

/// Arguments of `qiyi analyze`: the game and its own options.
#[derive(clap::Args, Debug)]
struct AnalyzeArgs {
    #[command(subcommand)]
    game: AnalyzeGame,
}

/// The games `qiyi analyze` knows.
#[derive(Subcommand, Debug)]
enum AnalyzeGame {
    /// Xiangqi (Chinese chess).
    Xiangqi(xiangqi_engine::AnalyzeArgs),
    /// English checkers.
    Checkers(checkers_engine::AnalyzeArgs),
    /// Peg solitaire: solvable or not, the best move, each move's verdict (exact).
    #[command(name = "peg-solitaire", alias = "peg")]
    PegSolitaire(peg_solitaire::AnalyzeArgs),
    /// Aeroplane chess: every choice's win chance for one roll.
    Aeroplane(aeroplane::AnalyzeArgs),
    /// Chinese checkers: every player's race distance and the engine's move.
    #[command(name = "chinese-checkers")]
    ChineseCheckers(review_chinese_checkers::AnalyzeArgs),
}

/// Arguments of `qiyi match`: the game and its own options.
#[derive(clap::Args, Debug)]
struct MatchArgs {
    #[command(subcommand)]
    game: MatchGame,
}

/// The games `qiyi match` knows.
#[derive(Subcommand, Debug)]
enum MatchGame {
    /// English checkers, over the three-move ballots.
    Checkers(checkers_engine::MatchArgs),
    /// Xiangqi (Chinese chess): our engine or UCI/UCCI programs, over the shipped openings.
    Xiangqi(xiangqi_engine::MatchArgs),
}

/// Arguments of `qiyi egdb`.
#[derive(clap::Args, Debug)]
struct EgdbArgs {
    #[command(subcommand)]
    action: EgdbAction,
}

/// What `qiyi egdb` does.
#[derive(Subcommand, Debug)]
enum EgdbAction {
    /// Build (or resume building) a database.
    Build(EgdbBuildArgs),
}

/// Arguments of `qiyi egdb build`: the game and its own options.
#[derive(clap::Args, Debug)]
struct EgdbBuildArgs {
    #[command(subcommand)]
    game: EgdbBuildGame,
}

/// The games `qiyi egdb build` knows.
#[derive(Subcommand, Debug)]
enum EgdbBuildGame {
    /// English checkers: win/loss/draw by retrograde analysis.
    Checkers(checkers_engine::EgdbBuildArgs),
}

/// Arguments of `qiyi book`: the game and its own options.
#[derive(clap::Args, Debug)]
struct BookArgs {
    #[command(subcommand)]
    game: BookGame,
}

/// The games `qiyi book` knows.
#[derive(Subcommand, Debug)]
enum BookGame {
    /// English checkers.
    Checkers(checkers_engine::BookArgs),
}

/// Arguments of `qiyi tune`: the game and its own options.
#[derive(clap::Args, Debug)]
struct TuneArgs {
    #[command(subcommand)]
    game: TuneGame,
}

/// The games `qiyi tune` knows.
#[derive(Subcommand, Debug)]
enum TuneGame {
    /// English checkers (SPSA over self-play games).
    Checkers(checkers_engine::TuneArgs),
    /// Xiangqi (Texel's method: self-play samples, then a logistic fit).
    Xiangqi(xiangqi_engine::TuneArgs),
}

/// Arguments of `qiyi selfplay`: the game and its own options.
#[derive(clap::Args, Debug)]
struct SelfplayArgs {
    #[command(subcommand)]
    game: SelfplayGame,
}

/// The games `qiyi selfplay` knows.
#[derive(Subcommand, Debug)]
enum SelfplayGame {
    /// English checkers.
    Checkers(checkers_learn::SelfplayArgs),
    /// Xiangqi (the engine at full strength from the shipped openings).
    Xiangqi(xiangqi_learn::SelfplayArgs),
}

/// Arguments of `qiyi relabel`: the game and its own options.
#[derive(clap::Args, Debug)]
struct RelabelArgs {
    #[command(subcommand)]
    game: RelabelGame,
}

/// The games `qiyi relabel` knows.
#[derive(Subcommand, Debug)]
enum RelabelGame {
    /// English checkers.
    Checkers(checkers_learn::RelabelArgs),
}

/// Arguments of `qiyi train`: the game and its own options.
#[derive(clap::Args, Debug)]
struct TrainArgs {
    #[command(subcommand)]
    game: TrainGame,
}

/// The games `qiyi train` knows.
#[derive(Subcommand, Debug)]
enum TrainGame {
    /// English checkers (128 piece-square inputs per side, NNUE-style).
    Checkers(checkers_learn::TrainArgs),
    /// Xiangqi: a 1260-input network from `qiyi selfplay xiangqi` shards.
    Xiangqi(xiangqi_learn::TrainArgs),
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
        Command::Games(a) => serve::games(g, a),
        Command::Perft(args) => match args.game {
            PerftGame::Checkers(a) => checkers::perft(g, a),
            PerftGame::Xiangqi(a) => xiangqi::perft(g, a),
        },
        Command::Analyze(args) => match args.game {
            AnalyzeGame::Xiangqi(a) => xiangqi_engine::analyze(g, a),
            AnalyzeGame::Checkers(a) => checkers_engine::analyze(g, a),
            AnalyzeGame::PegSolitaire(a) => peg_solitaire::analyze(g, a),
            AnalyzeGame::Aeroplane(a) => aeroplane::analyze(g, a),
            AnalyzeGame::ChineseCheckers(a) => review_chinese_checkers::analyze(g, a),
        },
        Command::Review(a) => review::review(g, a),
        Command::Calibrate(a) => calibrate::calibrate(g, a),
        Command::Match(args) => match args.game {
            MatchGame::Checkers(a) => checkers_engine::play_match(g, a),
            MatchGame::Xiangqi(a) => xiangqi_engine::play_match(g, a),
        },
        Command::Egdb(args) => match args.action {
            EgdbAction::Build(b) => match b.game {
                EgdbBuildGame::Checkers(a) => checkers_engine::egdb_build(g, a),
            },
        },
        Command::Hub(a) => checkers_engine::hub(g, a),
        Command::Book(args) => match args.game {
            BookGame::Checkers(a) => checkers_engine::book(g, a),
        },
        Command::Tune(args) => match args.game {
            TuneGame::Checkers(a) => checkers_engine::tune(g, a),
            TuneGame::Xiangqi(a) => xiangqi_engine::tune(g, a),
        },
        Command::Selfplay(args) => match args.game {
            SelfplayGame::Checkers(a) => checkers_learn::selfplay(g, a),
            SelfplayGame::Xiangqi(a) => xiangqi_learn::selfplay(g, a),
        },
        Command::Relabel(args) => match args.game {
            RelabelGame::Checkers(a) => checkers_learn::relabel(g, a),
        },
        Command::Train(args) => match args.game {
            TrainGame::Checkers(a) => checkers_learn::train(g, a),
            TrainGame::Xiangqi(a) => xiangqi_learn::train(g, a),
        },
        Command::Nets(a) => nets::nets(g, a),
        Command::Uci(a) => xiangqi_engine::protocol(g, a, qiyi_xiangqi::protocol::Dialect::Uci),
        Command::Ucci(a) => xiangqi_engine::protocol(g, a, qiyi_xiangqi::protocol::Dialect::Ucci),
        Command::Odds(args) => match args.game {
            OddsGame::Aeroplane(a) => aeroplane::odds(g, a),
        },
        Command::Tournament(args) => match args.game {
            TournamentGame::Aeroplane(a) => aeroplane::tournament(g, a),
            TournamentGame::ChineseCheckers(a) => chinese_checkers::tournament(g, a),
        },
        Command::Bench(args) => match args.game {
            Some(BenchGame::Aeroplane(a)) => aeroplane::bench(g, a),
            None => bench::run(g, &args.suite),
        },
        Command::Play(a) => play::play(g, a),
        Command::Lab(a) => lab::lab(g, a),
        Command::Completions(a) => docs::completions::<Cli>(&a),
        Command::Man => docs::man::<Cli>(),
        Command::Puzzles(a) => puzzles::puzzles(g, a),
        Command::Solve(args) => match args.game {
            SolveGame::PegSolitaire(a) => peg_solitaire::solve(g, a),
            SolveGame::ChineseCheckers(a) => chinese_checkers::solve(g, a),
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
