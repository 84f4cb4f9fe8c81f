//! `qiyi odds aeroplane`, `qiyi tournament aeroplane`, `qiyi bench aeroplane`.

use crate::common::{print_json, progress, Global};
use anyhow::Result;
use qiyi_aeroplane::odds::{hit_table, squares_per_turn, LoneOdds};
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::record::random_game;
use qiyi_aeroplane::tournament::{parse_seats, run_with_threads, TournamentSpec};
use qiyi_aeroplane::{Aero, AeroMove, Rules, ThreeSixes};
use qiyi_core::{Game, Rng, Turn};
use serde_json::json;
use std::time::Instant;

/// The rule options every aeroplane command takes.
#[derive(clap::Args, Debug, Clone)]
pub struct RuleArgs {
    /// Rule set: standard | seed.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Take-off rolls: 6 | 5-6 | even (default: the rule set's).
    #[arg(long)]
    takeoff: Option<String>,
    /// Three sixes: none | lose-turn | send-back (default: the rule set's).
    #[arg(long = "three-sixes")]
    three_sixes: Option<String>,
    /// End of the game: first-wins | play-on (default first-wins).
    #[arg(long = "end")]
    end: Option<String>,
}

impl RuleArgs {
    fn rules(&self) -> Result<Rules> {
        let mut r = Rules::from_options(
            &self.rules,
            self.takeoff.as_deref(),
            self.three_sixes.as_deref(),
        )?;
        if let Some(e) = &self.end {
            r.ending = e.parse()?;
        }
        Ok(r)
    }
}

/// Arguments of `qiyi odds aeroplane`.
#[derive(clap::Args, Debug)]
pub struct OddsArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Progress of the red plane in the hit-chance table (1-50).
    #[arg(long, default_value_t = 11, value_parser = clap::value_parser!(u8).range(1..=50))]
    target: u8,
}

/// Prints the exact odds tables.
pub fn odds(g: &Global, a: OddsArgs) -> Result<()> {
    let rules = a.rules.rules()?;
    let odds = LoneOdds::new(&rules);
    let spt = squares_per_turn(rules.three_sixes);
    let hits = hit_table(&rules, a.target, 18);
    if !g.json {
        println!("rules: {rules}");
        println!(
            "squares per turn (the die alone): {spt:.4}   [no cap {:.4}, lose-turn {:.4}, send-back {:.4}]",
            squares_per_turn(ThreeSixes::None),
            squares_per_turn(ThreeSixes::LoseTurn),
            squares_per_turn(ThreeSixes::SendBack)
        );
        println!(
            "lone plane: take-off in {:.4} turns; hangar to centre {:.4} turns (median {}, 90% by {}, 99% by {})",
            odds.turns_to_take_off,
            odds.turns_from_hangar,
            odds.quantile(0.5),
            odds.quantile(0.9),
            odds.quantile(0.99)
        );
        println!("expected turns to finish, by progress (0 = launch pad):");
        for row in odds.turns_to_finish.chunks(8).enumerate() {
            let cells: Vec<String> = row
                .1
                .iter()
                .enumerate()
                .map(|(i, v)| format!("{:>2}:{:>6.3}", row.0 * 8 + i, v))
                .collect();
            println!("  {}", cells.join("  "));
        }
        println!("turns from hangar to centre: probability (cumulative)");
        let mut acc = 0.0;
        for (t, p) in odds.turn_distribution.iter().enumerate().skip(1) {
            acc += p;
            if *p > 0.0 {
                println!("  {t:>3}: {p:.6} ({acc:.6})");
            }
            if acc > 0.999 {
                break;
            }
        }
        println!(
            "chance a red plane at {} is hit before red's next turn, one blue plane k squares behind (2 players):",
            a.target
        );
        for h in &hits {
            println!(
                "  k={:>2} (blue at {:>2}): {:.6}",
                h.distance, h.enemy_progress, h.hit
            );
        }
    }
    if !g.json {
        return Ok(());
    }
    print_json(&json!({
        "rules": rules.to_string(),
        "squares_per_turn": spt,
        "squares_per_turn_by_option": {
            "none": squares_per_turn(ThreeSixes::None),
            "lose-turn": squares_per_turn(ThreeSixes::LoseTurn),
            "send-back": squares_per_turn(ThreeSixes::SendBack),
        },
        "turns_to_take_off": odds.turns_to_take_off,
        "turns_from_hangar": odds.turns_from_hangar,
        "turns_to_finish": odds.turns_to_finish,
        "turn_distribution": odds.turn_distribution,
        "hit_target": a.target,
        "hit_table": hits,
    }))
}

/// Arguments of `qiyi tournament aeroplane`.
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Players per game (2, 3 or 4).
    #[arg(long, default_value_t = 4)]
    players: usize,
    /// Player type of each seat, comma-separated (random, seed-greedy, seed-mc, heuristic,
    /// race, win, win-rollout, expectimax, mcts, best, level-1..level-10); seats rotate every game.
    #[arg(long)]
    seats: String,
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
}

/// Plays a tournament on every core.
pub fn tournament(g: &Global, a: TournamentArgs) -> Result<()> {
    let rules = a.rules.rules()?;
    let seats = parse_seats(&a.seats, a.players)?;
    let spec = TournamentSpec {
        rules,
        seats,
        games: a.games,
        seed: g.seed,
    };
    let bar = progress(a.games, "games");
    let start = Instant::now();
    let result = run_with_threads(&spec, g.threads(), &|| bar.inc(1))?;
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    if !g.json {
        println!(
            "rules: {}   players: {}   seed: {}",
            result.rules, result.players, result.seed
        );
        println!("seats (rotating): {}", result.seats.join(", "));
        println!(
            "{} games in {secs:.1} s on {} threads; mean length {:.1} turns; {:.2} captures per game",
            result.games,
            g.threads(),
            result.mean_turns,
            result.captures_per_game
        );
        println!(
            "player          seats  win rate  95% interval      fair share  ms/decision (max)"
        );
        for (name, t) in &result.by_type {
            println!(
                "{name:<15} {:>5}  {:>7.1}%  [{:>5.1}%, {:>5.1}%]  {:>9.1}%  {:>8.3} ({:.1})",
                t.seats,
                100.0 * t.win_rate,
                100.0 * t.interval[0],
                100.0 * t.interval[1],
                100.0 * t.fair_share,
                t.decision_ms_mean,
                t.decision_ms_max
            );
        }
    }
    if g.json {
        print_json(&result)?;
    }
    Ok(())
}

/// Arguments of `qiyi bench aeroplane`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Players per game.
    #[arg(long, default_value_t = 4)]
    players: usize,
    /// Random games to simulate (one thread).
    #[arg(long, default_value_t = 200_000)]
    games: u64,
    /// Decisions of the `best` player to time.
    #[arg(long, default_value_t = 2_000)]
    decisions: u64,
}

/// CPU time of the calling thread in seconds (Linux: `/proc/thread-self/schedstat`, whose first
/// field is nanoseconds on the CPU), so the speed can be read on a shared machine.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns as f64 * 1e-9)
}

/// Measures random games per second on one thread and the `best` player's decision time.
pub fn bench(g: &Global, a: BenchArgs) -> Result<()> {
    let rules = a.rules.rules()?;
    let start_pos = Aero::new(rules, a.players)?;
    let mut rng = Rng::new(g.seed);
    let bar = progress(a.games, "random games");
    let t = Instant::now();
    let cpu_start = thread_cpu_seconds();
    let mut turns = 0u64;
    for i in 0..a.games {
        turns += random_game(&start_pos, &mut rng).turns as u64;
        if i % 1024 == 0 {
            bar.set_position(i);
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let cpu = cpu_start.and_then(|s| Some(thread_cpu_seconds()? - s));
    bar.finish_and_clear();
    let games_per_s = a.games as f64 / secs;
    let games_per_cpu_s = cpu.map(|c| a.games as f64 / c.max(1e-9));
    // Decisions of `best` in positions from random games.
    let mut player = make_player(PlayerKind::Best, g.seed);
    let mut pos = start_pos;
    let mut decisions = 0u64;
    let mut spent = 0.0f64;
    let mut worst = 0.0f64;
    while decisions < a.decisions {
        match pos.turn() {
            Turn::Over => pos = start_pos,
            Turn::Chance => {
                pos.play(AeroMove::Roll(rng.below(6) as u8 + 1));
            }
            Turn::Player(_) => {
                let t = Instant::now();
                let mv = player.choose(&pos);
                let s = t.elapsed().as_secs_f64();
                spent += s;
                worst = worst.max(s);
                decisions += 1;
                pos.play(mv);
            }
        }
    }
    let ms_mean = 1e3 * spent / decisions.max(1) as f64;
    if !g.json {
        println!("rules: {rules}   players: {}   seed: {}", a.players, g.seed);
        println!(
            "random games: {} in {secs:.2} s = {games_per_s:.0} games/s on one thread ({:.1} turns per game)",
            a.games,
            turns as f64 / a.games as f64
        );
        if let (Some(c), Some(r)) = (cpu, games_per_cpu_s) {
            println!("           CPU time of the thread {c:.2} s = {r:.0} games per CPU-second");
        }
        println!(
            "best ({}) decisions: {decisions}, mean {ms_mean:.3} ms, max {:.3} ms",
            PlayerKind::BEST,
            1e3 * worst
        );
    }
    if !g.json {
        return Ok(());
    }
    print_json(&json!({
        "rules": rules.to_string(),
        "players": a.players,
        "seed": g.seed,
        "games": a.games,
        "games_per_second": games_per_s,
        "cpu_seconds": cpu,
        "games_per_cpu_second": games_per_cpu_s,
        "turns_per_game": turns as f64 / a.games as f64,
        "best": PlayerKind::BEST.to_string(),
        "best_decision_ms_mean": ms_mean,
        "best_decision_ms_max": 1e3 * worst,
    }))
}

/// Options of `qiyi analyze aeroplane`.
#[derive(clap::Args, Debug)]
pub struct AnalyzeArgs {
    /// The position (the record's position text, e.g. as `qiyi` writes it), a roll to come.
    #[arg(long)]
    pub position: String,
    /// The face rolled (1-6).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=6))]
    pub roll: u8,
}

/// One choice for the roll.
#[derive(serde::Serialize)]
struct ChoiceReport {
    /// The plane moved (`a`-`d`).
    plane: String,
    /// The mover's win chance after it.
    win: f64,
    /// Every player's win chance after it.
    wins: Vec<f64>,
    /// The mover's expected turns to finish after it.
    turns: f64,
}

/// What `qiyi analyze aeroplane` reports.
#[derive(serde::Serialize)]
struct AeroAnalyzeReport {
    game: &'static str,
    position: String,
    roll: u8,
    /// The player to move.
    player: usize,
    /// The best choice (`None` when the roll leaves no choice to make).
    bestmove: Option<String>,
    choices: Vec<ChoiceReport>,
    /// The chances come from the review's model (the `best` player's), not an exact solve.
    exact: bool,
    judge: &'static str,
}

/// Runs `qiyi analyze aeroplane`: every choice's win chance for one roll.
pub fn analyze(g: &Global, a: AnalyzeArgs) -> anyhow::Result<()> {
    use qiyi_aeroplane::review::AeroJudge;
    use qiyi_aeroplane::{Aero, AeroMove};
    use qiyi_core::{Game, Notation, Turn};
    let pos = Aero::from_text(&a.position).map_err(|e| anyhow::anyhow!("bad --position: {e}"))?;
    if pos.turn() != Turn::Chance {
        anyhow::bail!(
            "bad --position: a roll must be next (this position waits for a choice or is over)"
        );
    }
    let mut faces = Vec::new();
    pos.chance_outcomes(&mut faces);
    let roll = AeroMove::Roll(a.roll);
    if !faces.iter().any(|&(m, _)| m == roll) {
        anyhow::bail!("the roll {} cannot happen here", a.roll);
    }
    let player = pos.to_move();
    let mut after = pos;
    after.play(roll);
    let mut judge = AeroJudge::new(&pos.rules()).map_err(|e| anyhow::anyhow!("{e}"))?;
    let (choices, best) = if matches!(after.turn(), Turn::Player(_)) {
        let (list, best) = judge
            .choice_values(&after)
            .map_err(|e| anyhow::anyhow!("{e}"))?;
        let choices: Vec<ChoiceReport> = list
            .into_iter()
            .map(|(c, w, t)| ChoiceReport {
                plane: after.move_to_text(AeroMove::Plane(c)),
                win: w.get(player).copied().unwrap_or(0.0),
                wins: w,
                turns: t,
            })
            .collect();
        let best = choices.get(best).map(|c| c.plane.clone());
        (choices, best)
    } else {
        (Vec::new(), None)
    };
    eprintln!(
        "memory: the win-chance model's tables (built once){}",
        crate::common::peak_rss_note()
    );
    let report = AeroAnalyzeReport {
        game: "aeroplane",
        position: pos.to_text(),
        roll: a.roll,
        player,
        bestmove: best,
        choices,
        exact: false,
        judge: "the review's win-chance model (the `best` player's, strength 1)",
    };
    if g.json {
        return print_json(&report);
    }
    println!("player {} rolls {}", report.player, report.roll);
    if report.choices.is_empty() {
        println!("no choice to make with this roll");
    }
    for c in &report.choices {
        println!(
            "  plane {}  win {:5.1}%  turns {:.2}",
            c.plane,
            100.0 * c.win,
            c.turns
        );
    }
    if let Some(b) = &report.bestmove {
        println!("bestmove {b}");
    }
    Ok(())
}
