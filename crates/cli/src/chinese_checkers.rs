//! `qiyi solve chinese-checkers` and `qiyi tournament chinese-checkers`.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Result};
use qiyi_chinese_checkers::engine::PlayerKind;
use qiyi_chinese_checkers::solitaire::{Board, Solitaire, SolveLimits};
use qiyi_chinese_checkers::tournament::{run, TournamentConfig};
use qiyi_chinese_checkers::Options;
use serde_json::json;
use std::time::{Duration, Instant};

/// Arguments of `qiyi solve chinese-checkers`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Pieces: the top point filled from its tip with 1, 3, 6 or 10 pieces.
    #[arg(long, default_value_t = 6)]
    pieces: usize,
    /// Board: star (all 121 holes) or diamond (the 81-hole two-player board).
    #[arg(long, default_value = "star")]
    board: String,
    /// Give up (reporting the proven lower bound) after this many seconds.
    #[arg(long, default_value_t = 7200)]
    time_limit: u64,
    /// Give up when a refutation pass holds more than this many million states (8 bytes each,
    /// plus merge buffers). The 10-piece proof (one budget-26 pass) peaks at 634 M states and
    /// 6.5 GB resident; lower this on a machine with less memory.
    #[arg(long, default_value_t = 800)]
    max_million_states: usize,
    /// Refute lengths only up to this many moves (each budget costs several times the one
    /// before; for 10 pieces up to 25 takes about 11 minutes of CPU on one thread, up to 26,
    /// the whole proof, about 37 minutes).
    #[arg(long)]
    max_budget: Option<u32>,
    /// States kept per layer by the beam search that finds the first (upper-bound) solution.
    #[arg(long, default_value_t = 2000)]
    beam_width: usize,
}

/// Solves the crossing puzzle: prints the shortest solution found with pictures, and whether it
/// is proven optimal (every shorter budget refuted) or only the lower bound proved in the limits.
pub fn solve(g: &Global, a: SolveArgs) -> Result<()> {
    let board = match a.board.to_ascii_lowercase().as_str() {
        "star" => Board::Star,
        "diamond" => Board::Diamond,
        other => bail!("unknown board `{other}`: use star or diamond"),
    };
    let t0 = Instant::now();
    let puzzle = Solitaire::new(a.pieces, board)?;
    let limits = SolveLimits {
        max_budget: a.max_budget,
        max_states: a.max_million_states.saturating_mul(1_000_000),
        deadline: Some(t0 + Duration::from_secs(a.time_limit)),
    };
    let bar = progress(0, "beam search for a short solution");
    let result = puzzle.solve(&limits, a.beam_width, |p| {
        bar.set_length(p.of as u64);
        bar.set_position(p.expanded as u64);
        bar.set_message(format!(
            "refuting <= {} moves: layer {} of {}, {:.1} M states held",
            p.budget,
            p.depth,
            p.budget.div_ceil(2),
            p.held as f64 / 1e6
        ));
    });
    bar.finish_and_clear();
    let answer = match result {
        Ok(answer) => answer,
        Err(u) => {
            if g.json {
                print_json(&json!({
                    "game": "chinese-checkers",
                    "pieces": a.pieces,
                    "board": a.board,
                    "min_moves": null,
                    "solution": null,
                    "proven_lower_bound": u.proven_lower_bound,
                    "gave_up": u.reason,
                    "seconds": u.time.as_secs_f64(),
                }))?;
                return Ok(());
            }
            bail!(
                "gave up ({}) after {:.1} s: every solution has at least {} moves (proven)",
                u.reason,
                u.time.as_secs_f64(),
                u.proven_lower_bound
            );
        }
    };
    let sol = &answer.solution;
    if !puzzle.verify(&sol.states) {
        bail!("internal error: the solution found does not replay");
    }
    let texts: Vec<String> = sol.moves.iter().map(|m| m.text()).collect();
    let refuted: Vec<u32> = (sol.stats.start_bound..answer.proven_lower_bound).collect();
    if !g.json {
        if answer.optimal {
            println!(
                "{} pieces on the {} board: {} moves (optimal)",
                a.pieces,
                a.board,
                texts.len()
            );
        } else {
            println!(
                "{} pieces on the {} board: a {}-move solution; optimality NOT proven: every solution has at least {} moves",
                a.pieces,
                a.board,
                texts.len(),
                answer.proven_lower_bound
            );
        }
        println!("{}", puzzle.picture(sol.states[0]));
        for (i, (m, s)) in sol.moves.iter().zip(sol.states.iter().skip(1)).enumerate() {
            println!("{:>2}. {}", i + 1, m.text());
            println!("{}", puzzle.picture(*s));
        }
        println!(
            "layers of the last refutation pass (states by distance from the start): {:?}",
            sol.stats.layers
        );
        match &answer.gave_up {
            None => println!(
                "proof: start bound {}; every length up to {} refuted by meet-in-the-middle passes for budgets {:?}; {} states expanded, at most {} held, in {:.2} s",
                sol.stats.start_bound,
                answer.proven_lower_bound.saturating_sub(1),
                sol.stats.iterations,
                sol.stats.nodes,
                sol.stats.peak_states,
                t0.elapsed().as_secs_f64()
            ),
            Some(reason) => println!(
                "partial proof: start bound {}; every length up to {} refuted, then gave up ({reason}); {} states expanded, at most {} held, in {:.2} s",
                sol.stats.start_bound,
                answer.proven_lower_bound.saturating_sub(1),
                sol.stats.nodes,
                sol.stats.peak_states,
                t0.elapsed().as_secs_f64()
            ),
        }
    }
    if g.json {
        print_json(&json!({
            "game": "chinese-checkers",
            "pieces": a.pieces,
            "board": a.board,
            "min_moves": answer.optimal.then_some(texts.len()),
            "optimal": answer.optimal,
            "best_moves": texts.len(),
            "proven_lower_bound": answer.proven_lower_bound,
            "solution": texts,
            "start_bound": sol.stats.start_bound,
            "refuted": refuted,
            "gave_up": answer.gave_up,
            "nodes": sol.stats.nodes,
            "peak_states": sol.stats.peak_states,
            "last_pass_layers": sol.stats.layers,
            "seconds": t0.elapsed().as_secs_f64(),
        }))?;
    }
    Ok(())
}

/// Arguments of `qiyi tournament chinese-checkers`.
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// Players per game: 2, 3, 4 or 6.
    #[arg(long, default_value_t = 2)]
    players: usize,
    /// Player types by seat, comma separated (best, random, seed, alphabeta, paranoid, brs,
    /// mcts, race); repeated in order when shorter than the number of players. Seats rotate each game.
    #[arg(long, default_value = "best,seed")]
    seats: String,
    /// Number of games.
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Level of every search player (1-10; the budget doubles per level).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=10))]
    level: u32,
    /// Pieces per player: 10, or 15 with two players.
    #[arg(long, default_value_t = 10)]
    pieces: usize,
    /// Turn the anti-spoiling rule off (then a goal must hold only your own pieces).
    #[arg(long)]
    no_anti_spoil: bool,
    /// Pieces in their goal may not leave it.
    #[arg(long)]
    goal_lock: bool,
    /// Moves per player before the game is stopped and ranked by distance (0: no cap).
    #[arg(long, default_value_t = 200)]
    max_moves: u32,
}

/// Plays a tournament and prints win rates with 95% intervals.
pub fn tournament(g: &Global, a: TournamentArgs) -> Result<()> {
    let options = Options {
        players: a.players,
        pieces: a.pieces,
        anti_spoil: !a.no_anti_spoil,
        goal_lock: a.goal_lock,
        max_moves: a.max_moves,
    };
    options.validate()?;
    let listed = a
        .seats
        .split(',')
        .map(|s| PlayerKind::parse(s, a.players))
        .collect::<Result<Vec<_>, _>>()?;
    if listed.is_empty() || listed.len() > a.players {
        bail!("--seats lists 1 to {} player types", a.players);
    }
    let seats: Vec<PlayerKind> = (0..a.players).map(|i| listed[i % listed.len()]).collect();
    let config = TournamentConfig {
        options,
        seats: seats.clone(),
        games: a.games,
        seed: g.seed,
        level: a.level,
        threads: g.threads(),
    };
    let bar = progress(a.games as u64, "games");
    let t0 = Instant::now();
    let result = run(&config, || bar.inc(1));
    bar.finish_and_clear();
    let names: Vec<String> = seats.iter().map(|k| k.to_string()).collect();
    if !g.json {
        println!(
            "{} games, {} players, seats {} (rotating), level {}, seed {}",
            result.games,
            a.players,
            names.join(","),
            a.level,
            g.seed
        );
        for (name, t) in &result.by_type {
            println!(
                "{name:>10}: won {:>6.1} = {:5.1}% (95% CI {:5.1}-{:5.1}%), fair share {:.1}%",
                t.wins,
                100.0 * t.win_rate,
                100.0 * t.interval.0,
                100.0 * t.interval.1,
                100.0 * t.fair_share
            );
        }
        println!(
            "mean game length {:.1} moves ({:.1} per player); {} stopped by the cap; {:.1} s",
            result.mean_plies,
            result.mean_plies / a.players as f64,
            result.capped,
            t0.elapsed().as_secs_f64()
        );
    } else {
        let win_rate: serde_json::Map<String, serde_json::Value> = result
            .by_type
            .iter()
            .map(|(k, t)| (k.clone(), json!(t.win_rate)))
            .collect();
        let interval: serde_json::Map<String, serde_json::Value> = result
            .by_type
            .iter()
            .map(|(k, t)| (k.clone(), json!([t.interval.0, t.interval.1])))
            .collect();
        let fair: serde_json::Map<String, serde_json::Value> = result
            .by_type
            .iter()
            .map(|(k, t)| (k.clone(), json!(t.fair_share)))
            .collect();
        print_json(&json!({
            "game": "chinese-checkers",
            "players": a.players,
            "seats": names,
            "games": result.games,
            "level": a.level,
            "seed": g.seed,
            "win_rate": win_rate,
            "interval95": interval,
            "fair_share": fair,
            "mean_moves": result.mean_plies,
            "capped": result.capped,
            "seconds": t0.elapsed().as_secs_f64(),
        }))?;
    }
    Ok(())
}
