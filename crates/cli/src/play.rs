//! `qiyi play GAME`: every game in the terminal, over the web crate's [`GameSession`]s.
//!
//! Seats are humans (moves typed on stdin) or AIs; the board is drawn with Unicode and colour on a
//! terminal and in plain ASCII otherwise (or with `--ascii`). Commands: a move, `help`, `moves`,
//! `undo`, `hint`, `flip`, `save FILE`, `load FILE`, `solve` (peg solitaire), `quit`.

mod aero;
mod draw;

use crate::common::Global;
use anyhow::{anyhow, bail, Context, Result};
use qiyi_web::engine::level_time;
use qiyi_web::session::{AiAnswer, AiRequest, GameSession, MoveOption, Progress, Snapshot};
use serde_json::{json, Value};
use std::io::{BufRead, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// The games `qiyi play` knows.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayGame {
    /// Xiangqi (Chinese chess).
    Xiangqi,
    /// English checkers.
    Checkers,
    /// Chinese checkers (2, 3, 4 or 6 players: `--rules players=3`).
    ChineseCheckers,
    /// Peg solitaire (`--rules board=french,start=c4`).
    #[value(alias = "peg")]
    PegSolitaire,
    /// Aeroplane chess (`--rules players=4,set=standard`).
    Aeroplane,
}

impl PlayGame {
    fn name(self) -> &'static str {
        match self {
            PlayGame::Xiangqi => "xiangqi",
            PlayGame::Checkers => "checkers",
            PlayGame::ChineseCheckers => "chinese-checkers",
            PlayGame::PegSolitaire => "peg-solitaire",
            PlayGame::Aeroplane => "aeroplane",
        }
    }

    fn from_name(name: &str) -> Option<PlayGame> {
        [
            PlayGame::Xiangqi,
            PlayGame::Checkers,
            PlayGame::ChineseCheckers,
            PlayGame::PegSolitaire,
            PlayGame::Aeroplane,
        ]
        .into_iter()
        .find(|g| g.name() == name)
    }
}

/// Arguments of `qiyi play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// The game.
    #[arg(value_enum)]
    game: PlayGame,
    /// Who sits in each seat, in turn order: `human`, `ai` (at --level), `ai:N` (level N) or
    /// `seed` (the article's simple player). Default: you in the first seat and the AI in every
    /// other one (`human` for a puzzle, `human,ai,ai,ai` for four-player aeroplane chess).
    #[arg(long)]
    seats: Option<String>,
    /// AI level 1 (weakest) ..= 10 for `ai` seats and hints.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u8).range(1..=10))]
    level: u8,
    /// Rule options as `key=value,...` (chinese-checkers: players, anti_spoil; peg-solitaire:
    /// board, start; aeroplane: players, set, takeoff, three-sixes, end).
    #[arg(long)]
    rules: Option<String>,
    /// Start from this position (the game's text notation, as `save` writes it).
    #[arg(long)]
    fen: Option<String>,
    /// Plain ASCII without colour even on a terminal.
    #[arg(long)]
    ascii: bool,
    /// Cap on each AI move's thinking time in milliseconds (default: the level's time).
    #[arg(long)]
    ai_ms: Option<u64>,
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SeatKind {
    Human,
    Ai(u8),
    Seed,
}

fn parse_seats(text: &str, level: u8) -> Result<Vec<SeatKind>> {
    text.split(',')
        .map(|s| {
            let s = s.trim().to_ascii_lowercase();
            match s.as_str() {
                "human" | "h" => Ok(SeatKind::Human),
                "ai" => Ok(SeatKind::Ai(level)),
                "seed" => Ok(SeatKind::Seed),
                _ => {
                    let l = s
                        .strip_prefix("ai:")
                        .and_then(|l| l.parse::<u8>().ok())
                        .filter(|l| (1..=10).contains(l))
                        .ok_or_else(|| {
                            anyhow!("bad seat {s:?}: use human, ai, ai:N (N in 1..=10) or seed")
                        })?;
                    Ok(SeatKind::Ai(l))
                }
            }
        })
        .collect()
}

/// The seats when `--seats` is not given: one human, then the AI (at `level`) in every other
/// seat, so every game and player count starts without options.
fn default_seats(players: usize, level: u8) -> Vec<SeatKind> {
    std::iter::once(SeatKind::Human)
        .chain(std::iter::repeat(SeatKind::Ai(level)).take(players.saturating_sub(1)))
        .collect()
}

/// `key=value,...` into a JSON object (numbers and booleans typed).
fn parse_rules(text: Option<&str>) -> Result<Value> {
    let mut map = serde_json::Map::new();
    for part in text
        .unwrap_or("")
        .split(',')
        .filter(|p| !p.trim().is_empty())
    {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| anyhow!("bad rule option {part:?}: use key=value"))?;
        let v = v.trim();
        let value = if let Ok(n) = v.parse::<u64>() {
            Value::from(n)
        } else if let Ok(b) = v.parse::<bool>() {
            Value::from(b)
        } else {
            Value::from(v)
        };
        map.insert(k.trim().replace('-', "_"), value);
    }
    Ok(Value::Object(map))
}

/// Starts a session of `game` with `rules`, from `position` when given.
fn create(
    game: PlayGame,
    rules: &Value,
    position: Option<&str>,
    seed: u64,
) -> Result<Box<dyn GameSession>> {
    if game == PlayGame::Aeroplane {
        return aero::create(rules, position, seed);
    }
    qiyi_web::games::create(game.name(), rules, position, seed).map_err(|e| anyhow!("{e}"))
}

/// Finds the legal move the player meant: its notation, its other label, or `from-to` along its
/// click path (case-insensitive).
fn find_move<'a>(legal: &'a [MoveOption], input: &str) -> Option<&'a MoveOption> {
    let t = input.trim().to_ascii_lowercase();
    if let Some(m) = legal.iter().find(|m| m.text.to_ascii_lowercase() == t) {
        return Some(m);
    }
    if let Some(m) = legal
        .iter()
        .find(|m| m.label.as_deref() == Some(input.trim()))
    {
        return Some(m);
    }
    let parts: Vec<&str> = t.split(['-', 'x', ' ']).filter(|p| !p.is_empty()).collect();
    if parts.len() < 2 {
        return None;
    }
    let lower = |p: &MoveOption| {
        p.path
            .iter()
            .map(|c| c.to_ascii_lowercase())
            .collect::<Vec<_>>()
    };
    // The whole path, or just its ends when that is unambiguous.
    if let Some(m) = legal.iter().find(|m| lower(m) == parts) {
        return Some(m);
    }
    let ends: Vec<&MoveOption> = legal
        .iter()
        .filter(|m| {
            let p = lower(m);
            p.len() >= 2
                && p.first().map(String::as_str) == parts.first().copied()
                && p.last().map(String::as_str) == parts.last().copied()
        })
        .collect();
    (ends.len() == 1).then(|| ends[0])
}

const HELP: &str = "commands: a move in the game's notation (see `moves`; from-to also works for \
Chinese checkers and peg solitaire), help, moves, undo, hint, flip, save FILE, load FILE, \
solve (peg solitaire: solve from here and play it out), quit";

struct Play {
    game: PlayGame,
    rules: Value,
    seed: u64,
    session: Box<dyn GameSession>,
    seats: Vec<SeatKind>,
    level: u8,
    ai_ms: Option<u64>,
    style: draw::Style,
    interactive: bool,
}

impl Play {
    fn seat(&self, player: usize) -> SeatKind {
        self.seats[player % self.seats.len()]
    }

    fn show(&self, snap: &Snapshot) {
        println!("{}", draw::board(self.game, snap, &self.style));
        if let Some(last) = snap.history.last() {
            let label = last
                .label
                .as_deref()
                .map(|l| format!(" ({l})"))
                .unwrap_or_default();
            println!("last move: {}{}", last.text, label);
        }
    }

    fn ai(&self, level: u8, seed_player: bool) -> Result<AiAnswer> {
        let time = match self.ai_ms {
            Some(ms) => Duration::from_millis(ms).min(level_time(level)),
            None => level_time(level),
        };
        let request = AiRequest {
            level,
            seed_player,
            time,
            stop: Arc::new(AtomicBool::new(false)),
            seed: self.seed ^ (self.session.ply() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        };
        let task = self.session.ai_task(request).map_err(|e| anyhow!("{e}"))?;
        let tty = std::io::stderr().is_terminal();
        let report = |p: Progress| {
            if tty {
                eprint!(
                    "\rthinking... depth {} score {} nodes {}   ",
                    p.depth, p.score, p.nodes
                );
            }
        };
        if tty {
            eprint!("thinking...");
        }
        let answer = task(&report).map_err(|e| anyhow!("{e}"));
        if tty {
            eprintln!();
        }
        answer
    }

    fn save(&self, file: &str) -> Result<()> {
        let snap = self.session.snapshot();
        let record = json!({
            "game": self.game.name(),
            "rules": self.rules,
            "position": snap.position,
            "moves": snap.history.iter().map(|h| h.text.clone()).collect::<Vec<_>>(),
        });
        std::fs::write(file, serde_json::to_string_pretty(&record)? + "\n")
            .with_context(|| format!("cannot write {file}"))
    }

    fn load(&mut self, file: &str) -> Result<()> {
        let text = std::fs::read_to_string(file).with_context(|| format!("cannot read {file}"))?;
        let record: Value =
            serde_json::from_str(&text).with_context(|| format!("{file} is not a saved game"))?;
        let game = record["game"]
            .as_str()
            .and_then(PlayGame::from_name)
            .ok_or_else(|| anyhow!("{file} has no known game"))?;
        if game != self.game {
            bail!(
                "{file} is a {} game, this is {}",
                game.name(),
                self.game.name()
            );
        }
        let position = record["position"]
            .as_str()
            .ok_or_else(|| anyhow!("{file} has no position"))?;
        let rules = record.get("rules").cloned().unwrap_or(Value::Null);
        self.session = create(game, &rules, Some(position), self.seed)?;
        self.rules = rules;
        Ok(())
    }

    /// Solves from here and plays the solution out (peg solitaire).
    fn solve(&mut self) -> Result<()> {
        let task = self
            .session
            .solve_task(Duration::from_secs(30))
            .map_err(|e| anyhow!("{e}"))?;
        let answer = task().map_err(|e| anyhow!("{e}"))?;
        println!(
            "solver: {} ({} nodes, {} ms)",
            answer.note, answer.nodes, answer.time_ms
        );
        if answer.solved {
            println!("solution: {}", answer.moves.join(" "));
            for mv in &answer.moves {
                self.session.play(mv).map_err(|e| anyhow!("{e}"))?;
            }
        }
        Ok(())
    }

    /// One human command; `Ok(false)` ends the game.
    fn command(&mut self, line: &str, snap: &Snapshot) -> Result<bool> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        match word.to_ascii_lowercase().as_str() {
            "quit" | "exit" | "q" => return Ok(false),
            "help" | "?" => println!("{HELP}"),
            "moves" => {
                let list: Vec<String> = snap
                    .legal
                    .iter()
                    .map(|m| match &m.label {
                        Some(l) => format!("{} ({l})", m.text),
                        None => m.text.clone(),
                    })
                    .collect();
                println!("{} legal moves: {}", list.len(), list.join(" "));
            }
            "undo" => {
                // Take back to the last human decision (the AI replies go with it).
                let before = self.session.ply();
                loop {
                    match self.session.undo() {
                        Ok(()) => {}
                        Err(e) => {
                            if self.session.ply() == before {
                                println!("cannot undo: {e}");
                            }
                            break;
                        }
                    }
                    match self.session.player_to_move() {
                        Some(p) if self.seat(p) == SeatKind::Human => break,
                        _ => {}
                    }
                }
                if self.session.ply() != before {
                    println!("undone: back to ply {}", self.session.ply());
                    self.show(&self.session.snapshot());
                }
            }
            "hint" => {
                let a = self.ai(self.level, false)?;
                println!(
                    "hint: {} (depth {}, score {}, nodes {}, {})",
                    a.mv, a.depth, a.score, a.nodes, a.engine
                );
            }
            "flip" => {
                self.style.flipped = !self.style.flipped;
                self.show(snap);
            }
            "save" if !rest.is_empty() => match self.save(rest) {
                Ok(()) => println!("saved to {rest}"),
                Err(e) => println!("cannot save: {e:#}"),
            },
            "load" if !rest.is_empty() => match self.load(rest) {
                Ok(()) => {
                    println!("loaded {rest}");
                    self.show(&self.session.snapshot());
                }
                Err(e) => println!("cannot load: {e:#}"),
            },
            "save" | "load" => println!("{word} needs a file name: {word} FILE"),
            "solve" => {
                if let Err(e) = self.solve() {
                    println!("cannot solve: {e:#}");
                }
            }
            _ => match find_move(&snap.legal, line) {
                Some(m) => {
                    let text = m.text.clone();
                    if let Err(e) = self.session.play(&text) {
                        println!("illegal move {line:?}: {e}");
                    }
                }
                None => {
                    println!(
                        "not a legal move or command: {line:?} ({} legal moves; type `moves` to list them, `help` for commands)",
                        snap.legal.len()
                    );
                }
            },
        }
        Ok(true)
    }

    fn run(&mut self, input: &mut dyn BufRead) -> Result<()> {
        let mut shown = usize::MAX;
        loop {
            let snap = self.session.snapshot();
            let ply = self.session.ply();
            if shown != ply {
                self.show(&snap);
                shown = ply;
            }
            if let Some(result) = &snap.result {
                let who = match result.winner {
                    Some(w) => format!(
                        "{} wins",
                        snap.player_names
                            .get(w)
                            .cloned()
                            .unwrap_or(format!("player {w}"))
                    ),
                    None if snap.players == 1 => {
                        if result.returns.first().copied().unwrap_or(0.0) > 0.0 {
                            "solved".to_string()
                        } else {
                            "not solved".to_string()
                        }
                    }
                    None => "no single winner".to_string(),
                };
                println!("game over: {who} ({}) after {ply} plies", result.reason);
                return Ok(());
            }
            let Some(player) = self.session.player_to_move() else {
                bail!("no player to move but no result either");
            };
            let name = snap
                .player_names
                .get(player)
                .cloned()
                .unwrap_or(format!("player {player}"));
            match self.seat(player) {
                seat @ (SeatKind::Ai(_) | SeatKind::Seed) => {
                    let (level, seed_player) = match seat {
                        SeatKind::Ai(l) => (l, false),
                        _ => (self.level, true),
                    };
                    let a = self.ai(level, seed_player)?;
                    println!(
                        "{name} (AI) plays {} (depth {}, score {}, nodes {}, {} ms, {})",
                        a.mv, a.depth, a.score, a.nodes, a.time_ms, a.engine
                    );
                    self.session
                        .play(&a.mv)
                        .map_err(|e| anyhow!("the AI's move {} was refused: {e}", a.mv))?;
                }
                SeatKind::Human => {
                    if self.game == PlayGame::Aeroplane {
                        println!("{}", aero::roll_line(&snap.position));
                    }
                    print!("{name} to move> ");
                    std::io::stdout().flush()?;
                    // Bytes, not UTF-8: a line that is not UTF-8 is decoded lossily (and then
                    // refused as a move or command like any other text), never an exit.
                    let Some(line) =
                        qiyi_core::lines::read_line(input, qiyi_core::lines::MAX_LINE)?
                    else {
                        println!();
                        println!("end of input: game left unfinished");
                        return Ok(());
                    };
                    if let Some(why) = line.refusal() {
                        println!("{why}");
                        continue;
                    }
                    let text = line.text.trim().to_string();
                    if !self.interactive {
                        // Echo piped input so a transcript reads like a session.
                        println!("{text}");
                    }
                    if text.is_empty() {
                        continue;
                    }
                    if !self.command(&text, &snap)? {
                        println!("quit");
                        return Ok(());
                    }
                }
            }
        }
    }
}

/// Runs `qiyi play`.
pub fn play(g: &Global, a: PlayArgs) -> Result<()> {
    let rules = parse_rules(a.rules.as_deref())?;
    let session = create(a.game, &rules, a.fen.as_deref(), g.seed)?;
    let players = session.snapshot().players;
    let seats = match a.seats.as_deref() {
        Some(text) => parse_seats(text, a.level)?,
        None => default_seats(players, a.level),
    };
    if seats.is_empty() {
        bail!("no seats");
    }
    if seats.len() != 1 && seats.len() != players {
        bail!(
            "{} seats given for {players} players (give one per player, or one for all)",
            seats.len()
        );
    }
    let fancy = !a.ascii && std::io::stdout().is_terminal();
    let mut play = Play {
        game: a.game,
        rules,
        seed: g.seed,
        session,
        seats,
        level: a.level,
        ai_ms: a.ai_ms,
        style: draw::Style {
            unicode: fancy,
            colour: fancy,
            flipped: false,
        },
        interactive: std::io::stdin().is_terminal(),
    };
    println!(
        "qiyi play {} (seed {}); type `help` for commands",
        a.game.name(),
        g.seed
    );
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    play.run(&mut input)
}
