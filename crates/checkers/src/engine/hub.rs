//! The Hub protocol (Scan's engine protocol) for English checkers, as pydraughts' `HubEngine`
//! speaks it, over any `BufRead`/`Write` pair.
//!
//! Conventions of pydraughts for the `english` variant, which this module follows:
//! - a Hub position is the side letter then 32 characters `w b W B e`, written for the board
//!   turned half a turn with the colours swapped: character `i` (1-based) describes PDN square
//!   `33 - i`, `w`/`W` there are Black's men/kings, `b`/`B` White's, and the side letter `W` means
//!   Black (PDN's first mover) is to move;
//! - moves use PDN square numbers: `11-15` for a step, `from x to x captured x captured...` for a
//!   capture (the captured squares in increasing order).
//!
//! Commands handled: `hub`, `set-param`, `init`, `ping`, `new-game`, `pos`, `level`
//! (`move-time`, `depth`, `nodes`, `time`/`inc`, `infinite`), `go think|analyze`, `stop`, `quit`.

use super::player::{Engine, Level};
use crate::board::{Bitboard, Board, Color};
use crate::movegen::Move;
use crate::notation::{self, NotationError};
use crate::rules::Checkers;
use qiyi_core::search::SearchLimits;
use qiyi_core::Game;
use std::io::{BufRead, Write};
use std::time::Duration;

/// What is wrong with a Hub position or move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HubError {
    /// A position string is not a side letter and 32 squares.
    #[error("Hub position {0:?} is not W or B followed by 32 of w b W B e")]
    BadPosition(String),
    /// The pieces do not make a legal position.
    #[error("Hub position: {0}")]
    Board(#[from] crate::board::BoardError),
    /// A move is not legal in the position.
    #[error("Hub move {0:?} is not legal here")]
    BadMove(String),
}

/// Reads a pydraughts English Hub position.
pub fn board_from_hub(text: &str) -> Result<Board, HubError> {
    let t = text.trim();
    let bad = || HubError::BadPosition(t.to_string());
    let mut chars = t.chars();
    let side = match chars.next() {
        Some('W') | Some('w') => Color::Black,
        Some('B') | Some('b') => Color::White,
        _ => return Err(bad()),
    };
    let squares: Vec<char> = chars.collect();
    if squares.len() != 32 {
        return Err(bad());
    }
    let (mut black, mut white, mut kings): (Bitboard, Bitboard, Bitboard) = (0, 0, 0);
    for (i, c) in squares.iter().enumerate() {
        // Character i (0-based) is PDN square 32 - i, i.e. bit 31 - i.
        let bit = 1u32 << (31 - i);
        match c {
            'w' => black |= bit,
            'W' => {
                black |= bit;
                kings |= bit
            }
            'b' => white |= bit,
            'B' => {
                white |= bit;
                kings |= bit
            }
            'e' | '.' => {}
            _ => return Err(bad()),
        }
    }
    Ok(Board::new(black, white, kings, side)?)
}

/// Writes a board as a pydraughts English Hub position.
pub fn board_to_hub(b: &Board) -> String {
    let mut s = String::with_capacity(33);
    s.push(if b.side_to_move() == Color::Black {
        'W'
    } else {
        'B'
    });
    for i in 0..32 {
        let sq = 32 - i as u8;
        s.push(match b.piece_at(sq) {
            Some((Color::Black, false)) => 'w',
            Some((Color::Black, true)) => 'W',
            Some((Color::White, false)) => 'b',
            Some((Color::White, true)) => 'B',
            None => 'e',
        });
    }
    s
}

/// Writes a move in Hub notation (`11-15`, `from x to x captured...`).
pub fn move_to_hub(mv: &Move) -> String {
    if !mv.is_capture() {
        return format!("{}-{}", mv.from(), mv.to());
    }
    let mut s = format!("{}x{}", mv.from(), mv.to());
    let mut cap = mv.captured();
    while cap != 0 {
        let sq = cap.trailing_zeros() + 1;
        cap &= cap - 1;
        s.push_str(&format!("x{sq}"));
    }
    s
}

/// Reads a Hub move legal in `b` (captures are matched by start, end and captured squares).
pub fn move_from_hub(b: &Board, text: &str) -> Result<Move, HubError> {
    let t = text.trim();
    let bad = || HubError::BadMove(t.to_string());
    let mut legal = Vec::new();
    b.generate(&mut legal);
    if t.contains('-') {
        return legal
            .into_iter()
            .find(|m| !m.is_capture() && move_to_hub(m) == t)
            .ok_or_else(bad);
    }
    let parts: Result<Vec<u8>, _> = t.split('x').map(|p| p.parse::<u8>()).collect();
    let parts = parts.map_err(|_| bad())?;
    if parts.len() < 2 {
        return Err(bad());
    }
    let mut captured: Bitboard = 0;
    for &sq in &parts[2..] {
        if !(1..=32).contains(&sq) {
            return Err(bad());
        }
        captured |= 1 << (sq - 1);
    }
    let found: Vec<Move> = legal
        .into_iter()
        .filter(|m| {
            m.is_capture()
                && m.from() == parts[0]
                && m.to() == parts[1]
                && (parts.len() == 2 || m.captured() == captured)
        })
        .collect();
    // Two paths that take the same pieces between the same squares play the same move.
    found.first().copied().ok_or_else(bad)
}

/// Splits `key=value key="quoted value"` arguments.
fn args(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (key, after) = match rest.find('=') {
            Some(i) => (&rest[..i], &rest[i + 1..]),
            None => {
                out.push((
                    rest.split_whitespace().next().unwrap_or("").to_string(),
                    String::new(),
                ));
                let skip = rest.find(char::is_whitespace).unwrap_or(rest.len());
                rest = rest[skip..].trim_start();
                continue;
            }
        };
        let key = key.trim().to_string();
        let (value, next) = if let Some(q) = after.strip_prefix('"') {
            match q.find('"') {
                Some(j) => (&q[..j], &q[j + 1..]),
                None => (q, ""),
            }
        } else {
            let j = after.find(char::is_whitespace).unwrap_or(after.len());
            (&after[..j], &after[j..])
        };
        out.push((key, value.to_string()));
        rest = next.trim_start();
    }
    out
}

/// The engine's side of a Hub session.
pub struct HubSession {
    engine: Engine,
    level: Level,
    threads: usize,
    game: Checkers,
    limits: SearchLimits,
}

impl HubSession {
    /// A session playing at `level` with `threads` search threads.
    pub fn new(level: Level, threads: usize) -> HubSession {
        HubSession {
            engine: Engine::new(level, threads),
            level,
            threads,
            game: Checkers::start(),
            limits: SearchLimits::move_time(Duration::from_secs(1)),
        }
    }

    /// Handles one command, writing the replies; returns `false` on `quit` (or end of input).
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> std::io::Result<bool> {
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r),
            None => (line, ""),
        };
        match cmd {
            "" => {}
            "hub" => {
                writeln!(
                    out,
                    "id name=qiyi version={} author=\"qiyi authors\"",
                    env!("CARGO_PKG_VERSION")
                )?;
                writeln!(
                    out,
                    "param name=variant value=english type=enum values=\"english\""
                )?;
                writeln!(
                    out,
                    "param name=level value={} type=int min=1 max=10",
                    self.level_number()
                )?;
                writeln!(
                    out,
                    "param name=threads value={} type=int min=1 max=64",
                    self.threads
                )?;
                writeln!(out, "wait")?;
            }
            "set-param" => {
                let a = args(rest);
                let get = |k: &str| a.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
                match (get("name").as_deref(), get("value")) {
                    (Some("level"), Some(v)) => match Level::parse(&v) {
                        Ok(l) => {
                            self.level = l;
                            self.engine = Engine::new(l, self.threads);
                        }
                        Err(e) => writeln!(out, "error {e}")?,
                    },
                    (Some("threads"), Some(v)) => match v.parse::<usize>() {
                        Ok(t) if (1..=64).contains(&t) => {
                            self.threads = t;
                            self.engine = Engine::new(self.level, t);
                        }
                        _ => writeln!(out, "error threads must be 1-64")?,
                    },
                    (Some("variant"), Some(v)) if v != "english" => {
                        writeln!(out, "error only the english variant is supported")?
                    }
                    _ => {}
                }
            }
            "init" => writeln!(out, "ready")?,
            "ping" => writeln!(out, "pong")?,
            "new-game" => {
                self.engine.new_game();
                self.game = Checkers::start();
            }
            "pos" => {
                if let Err(e) = self.set_position(rest) {
                    writeln!(out, "error {e}")?;
                }
            }
            "level" => self.set_level(rest),
            "go" => self.go(rest.trim() == "analyze", out)?,
            "stop" | "ponder-hit" => {}
            "quit" => return Ok(false),
            other => writeln!(out, "error unknown command {other}")?,
        }
        out.flush()?;
        Ok(true)
    }

    fn level_number(&self) -> u8 {
        match self.level {
            Level::Level(n) => n,
            Level::Seed { .. } => 1,
        }
    }

    fn set_position(&mut self, rest: &str) -> Result<(), HubError> {
        let a = args(rest);
        let mut board = Board::start();
        for (k, v) in &a {
            if k == "pos" {
                board = board_from_hub(v)?;
            }
        }
        let mut game = Checkers::from_board(board);
        for (k, v) in &a {
            if k == "moves" {
                for m in v.split_whitespace() {
                    let mv = move_from_hub(game.board(), m)?;
                    game.make(mv);
                }
            }
        }
        self.game = game;
        Ok(())
    }

    fn set_level(&mut self, rest: &str) {
        let a = args(rest);
        let mut limits = SearchLimits::default();
        let mut time = None;
        let mut inc = 0.0;
        let mut moves_left = 30.0;
        for (k, v) in &a {
            let num = v.parse::<f64>().ok().filter(|x| x.is_finite() && *x >= 0.0);
            match (k.as_str(), num) {
                ("move-time", Some(x)) => limits.move_time = Some(Duration::from_secs_f64(x)),
                ("depth", Some(x)) => limits.depth = Some((x as u32).max(1)),
                ("nodes", Some(x)) => limits.nodes = Some(x as u64),
                ("time", Some(x)) => time = Some(x),
                ("inc", Some(x)) => inc = x,
                ("moves", Some(x)) if x >= 1.0 => moves_left = x,
                _ => {}
            }
        }
        if let Some(t) = time {
            limits.move_time = Some(Duration::from_secs_f64(
                (t / moves_left + inc * 0.8).max(0.01),
            ));
        }
        self.limits = limits;
    }

    fn go(&mut self, analyze: bool, out: &mut impl Write) -> std::io::Result<()> {
        if self.game.is_over() {
            writeln!(out, "error the game is over")?;
            return Ok(());
        }
        let mut infos = Vec::new();
        let limits = self.limits.clone();
        let game = self.game.clone();
        let on_info = |i: &qiyi_core::search::SearchInfo<Move>| {
            let mut p = game.clone();
            let mut pv = Vec::new();
            for &m in &i.pv {
                pv.push(move_to_hub(&m));
                p.make(m);
            }
            infos.push(format!(
                "info depth={} score={:.2} nodes={} time={:.3} nps={} pv=\"{}\"",
                i.depth,
                f64::from(i.score) / 100.0,
                i.stats.nodes,
                i.stats.time.as_secs_f64(),
                i.stats.nps(),
                pv.join(" ")
            ));
        };
        let r = if analyze {
            self.engine.analyse(&self.game, &limits, on_info)
        } else {
            self.engine.think(&self.game, &limits, on_info)
        };
        for line in infos {
            writeln!(out, "{line}")?;
        }
        match r.best_move {
            Some(mv) => {
                let ponder =
                    r.pv.get(1)
                        .map(|p| format!(" ponder={}", move_to_hub(p)))
                        .unwrap_or_default();
                writeln!(out, "done move={}{}", move_to_hub(&mv), ponder)?
            }
            None => writeln!(out, "error no legal move")?,
        }
        Ok(())
    }
}

/// Runs a Hub session until `quit` or the end of the input.
pub fn run(
    input: impl BufRead,
    out: &mut impl Write,
    level: Level,
    threads: usize,
) -> std::io::Result<()> {
    let mut session = HubSession::new(level, threads);
    for line in input.lines() {
        if !session.handle(&line?, out)? {
            break;
        }
    }
    Ok(())
}

/// The PDN form of a Hub move in a position (for logs).
pub fn hub_to_pdn(b: &Board, text: &str) -> Result<String, HubError> {
    Ok(notation::move_to_pdn(&move_from_hub(b, text)?))
}

impl From<NotationError> for HubError {
    fn from(e: NotationError) -> Self {
        HubError::BadMove(e.to_string())
    }
}
