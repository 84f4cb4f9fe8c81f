//! Matches between engines over the three-move ballots, colours swapped, with adjudication by
//! the rules and the endgame database, and the Elo estimate with its 95% error bar.
//!
//! Engines are named by a spec:
//! - `qiyi` / `qiyi:level=N` / `qiyi:seed` / `qiyi:seed:DEPTH`: an engine in this process, with
//!   options after further colons: `eval=hand|net|PATH` chooses the evaluation (e.g.
//!   `qiyi:level=10:eval=hand`, `qiyi:eval=/tmp/new.qnet`), the search's switches
//!   ([`SearchConfig::apply`]: `nolmr`, `noprune`, `nocapext`, `nothreat`, `nosingle`, `noiid`,
//!   `nocm`, `noasp`, `margin=N`, `vred=N`, `lmrdiv=N`, `hash=MIB`) measure its ideas one by
//!   one, and `search=core` plays with core's generic searcher, the engine before the checkers
//!   search (`search=core:lmr` with core's late-move reductions);
//! - `hub:COMMAND`: a program speaking the Hub protocol (pydraughts' English conventions, see
//!   [`super::hub`]);
//! - `cep:COMMAND`: a program speaking SimonMaracine/checkers-engine's protocol (`INIT`,
//!   `NEWGAME fen moves`, `GO maxtime S` answered by `BESTMOVE move`);
//! - a bare `COMMAND`: the protocol is detected (a program that greets with `READY` speaks the
//!   checkers-engine protocol, otherwise Hub is tried).

use super::egdb::{Egdb, Wld};
use super::hub::{board_to_hub, move_from_hub, move_to_hub};
use super::player::{Engine, EvalChoice, Level, LevelError, SearchChoice};
use super::search::SearchConfig;
use crate::ballot::{tournament_ballots, Ballot};
use crate::board::{Board, Color};
use crate::movegen::Move;
use crate::notation::{self, board_to_fen};
use crate::rules::{Checkers, Outcome};
use qiyi_core::search::SearchLimits;
pub use qiyi_core::stats::Wdl;
use qiyi_core::{Game, Rng};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Why a match could not go on.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The engine spec names no engine.
    #[error("bad engine {spec:?}: {reason}")]
    BadSpec {
        /// The spec.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// An internal level is wrong.
    #[error(transparent)]
    Level(#[from] LevelError),
    /// The engine program could not be started or talked to.
    #[error("engine {name}: {source}")]
    Io {
        /// The engine.
        name: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The engine stopped answering or closed its output.
    #[error("engine {name}: {what}")]
    Protocol {
        /// The engine.
        name: String,
        /// What happened.
        what: String,
    },
}

/// A player in a match.
pub trait MatchPlayer {
    /// Its name in results.
    fn name(&self) -> String;
    /// Prepares for a new game.
    fn new_game(&mut self) -> Result<(), MatchError>;
    /// Chooses a move in `game`, which started at `start` and has since seen `moves`.
    /// An `Err` or an illegal move loses the game.
    fn choose(
        &mut self,
        start: &Board,
        moves: &[Move],
        game: &Checkers,
        movetime: Duration,
    ) -> Result<String, MatchError>;
    /// Turns the player's opening book off (or on), where it has one it can be told about:
    /// matches that measure the search from the ballot on play without books. The default
    /// does nothing.
    fn set_book(&mut self, _on: bool) -> Result<(), MatchError> {
        Ok(())
    }
    /// Plays every move within `limits` (a fixed depth or node budget) instead of the match's
    /// move time, so that a game depends on its ballot and the budgets only (for an external
    /// program: as far as the program itself is deterministic). The default refuses.
    fn set_limits(&mut self, _limits: SearchLimits) -> Result<(), MatchError> {
        Err(MatchError::BadSpec {
            spec: self.name(),
            reason: "a fixed depth or node budget is for qiyi's own engines".into(),
        })
    }
    /// Tells the player how many games of the match it has already played, as if it had:
    /// a match played from its game `n` on (one pair of a match split into tasks) then plays
    /// the games the whole match would (the low levels vary their noise by game). The default
    /// does nothing.
    fn set_games_played(&mut self, _n: u64) {}
}

/// An engine of this crate.
pub struct InternalPlayer {
    engine: Engine,
    name: String,
    games: u64,
    /// A fixed budget replacing the match's move time ([`MatchPlayer::set_limits`]).
    limits: Option<SearchLimits>,
}

impl InternalPlayer {
    /// A player at `level` with `threads` threads and an optional database.
    pub fn new(level: Level, threads: usize, egdb: Option<Arc<Egdb>>) -> InternalPlayer {
        Self::with_eval(level, threads, egdb, &EvalChoice::default())
    }

    /// The same with the evaluation `eval`.
    pub fn with_eval(
        level: Level,
        threads: usize,
        egdb: Option<Arc<Egdb>>,
        eval: &EvalChoice,
    ) -> InternalPlayer {
        Self::with_search(level, threads, egdb, eval, &SearchChoice::default())
    }

    /// The same with the search `search`.
    pub fn with_search(
        level: Level,
        threads: usize,
        egdb: Option<Arc<Egdb>>,
        eval: &EvalChoice,
        search: &SearchChoice,
    ) -> InternalPlayer {
        let w = super::eval::Weights::default();
        let engine = Engine::with_search(level, threads, w, egdb, eval, search);
        let name = match level {
            Level::Seed { .. } => format!("qiyi:{}", level.name()),
            _ => {
                let mut n = format!("qiyi:{}:eval={}", level.name(), eval.name());
                let s = search.name();
                if s != "default" {
                    n.push(':');
                    n.push_str(&s);
                }
                n
            }
        };
        InternalPlayer {
            engine,
            name,
            games: 0,
            limits: None,
        }
    }
}

impl MatchPlayer for InternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn set_book(&mut self, on: bool) -> Result<(), MatchError> {
        self.engine.set_book(on);
        Ok(())
    }

    fn set_limits(&mut self, limits: SearchLimits) -> Result<(), MatchError> {
        self.limits = Some(limits);
        Ok(())
    }

    fn set_games_played(&mut self, n: u64) {
        self.games = n;
    }

    fn new_game(&mut self) -> Result<(), MatchError> {
        self.engine.new_game();
        self.games += 1;
        self.engine.set_noise_seed(self.games);
        Ok(())
    }

    fn choose(
        &mut self,
        _start: &Board,
        _moves: &[Move],
        game: &Checkers,
        movetime: Duration,
    ) -> Result<String, MatchError> {
        let limits = self
            .limits
            .clone()
            .unwrap_or_else(|| SearchLimits::move_time(movetime));
        let r = self.engine.think(game, &limits, |_| {});
        r.best_move
            .map(|m| notation::move_to_pdn(&m))
            .ok_or_else(|| MatchError::Protocol {
                name: self.name.clone(),
                what: "no move in a position with legal moves".into(),
            })
    }
}

/// Which protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Scan's Hub protocol with pydraughts' English conventions.
    Hub,
    /// SimonMaracine/checkers-engine's text protocol.
    Cep,
}

/// An engine program driven over its standard input and output.
pub struct ExternalPlayer {
    name: String,
    protocol: Protocol,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// checkers-engine protocol: the start and moves the program's own board has seen, so later
    /// moves are sent with `MOVE` (a `NEWGAME` would clear its transposition table every move).
    known: Option<(Board, Vec<Move>)>,
    /// A fixed depth or node budget replacing the match's move time
    /// ([`MatchPlayer::set_limits`]): Hub `level depth=D nodes=N`, checkers-engine
    /// `GO maxdepth D`.
    limits: Option<SearchLimits>,
}

/// How long an external program searching to a fixed budget may take over one move before it
/// loses the game: far more than a sensible budget needs, so the machine's load never cuts a
/// budget short, while a program that hangs still ends its game.
const FIXED_BUDGET_WAIT: Duration = Duration::from_secs(600);

impl ExternalPlayer {
    /// Starts `command` (split on spaces) speaking `protocol` (`None`: detect).
    pub fn start(command: &str, protocol: Option<Protocol>) -> Result<ExternalPlayer, MatchError> {
        let parts: Vec<&str> = command.split_whitespace().collect();
        let Some((&prog, rest)) = parts.split_first() else {
            return Err(MatchError::BadSpec {
                spec: command.into(),
                reason: "empty command".into(),
            });
        };
        let name = std::path::Path::new(prog)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| prog.to_string());
        let io = |source| MatchError::Io {
            name: name.clone(),
            source,
        };
        let mut child = Command::new(prog)
            .args(rest)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(io)?;
        let stdin = child
            .stdin
            .take()
            .ok_or_else(|| io(std::io::Error::other("no stdin")))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| io(std::io::Error::other("no stdout")))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        let mut p = ExternalPlayer {
            name,
            protocol: protocol.unwrap_or(Protocol::Hub),
            child,
            stdin,
            lines: rx,
            known: None,
            limits: None,
        };
        let greeting = match protocol {
            Some(Protocol::Hub) => None,
            _ => p
                .recv(Duration::from_millis(if protocol.is_some() {
                    10_000
                } else {
                    1_500
                }))
                .ok(),
        };
        if protocol.is_none() {
            p.protocol = if greeting.as_deref().map(str::trim) == Some("READY") {
                Protocol::Cep
            } else {
                Protocol::Hub
            };
        }
        match p.protocol {
            Protocol::Cep => {
                p.send("INIT")?;
                p.send("GETNAME")?;
                if let Ok(l) = p.recv_until(|l| l.starts_with("NAME"), Duration::from_secs(10)) {
                    if let Some(n) = l.split_whitespace().nth(1) {
                        p.name = n.to_string();
                    }
                }
            }
            Protocol::Hub => {
                p.send("hub")?;
                loop {
                    let l = p.recv(Duration::from_secs(10))?;
                    if l.trim() == "wait" {
                        break;
                    }
                    if let Some(rest) = l.strip_prefix("id ") {
                        for part in rest.split_whitespace() {
                            if let Some(n) = part.strip_prefix("name=") {
                                p.name = n.trim_matches('"').to_string();
                            }
                        }
                    }
                }
                p.send("set-param name=variant value=english")?;
                p.send("init")?;
                p.recv_until(|l| l.trim() == "ready", Duration::from_secs(30))?;
            }
        }
        Ok(p)
    }

    fn send(&mut self, line: &str) -> Result<(), MatchError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|source| MatchError::Io {
                name: self.name.clone(),
                source,
            })
    }

    fn recv(&mut self, timeout: Duration) -> Result<String, MatchError> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(MatchError::Protocol {
                name: self.name.clone(),
                what: format!("no answer within {timeout:?}"),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(MatchError::Protocol {
                name: self.name.clone(),
                what: "closed its output".into(),
            }),
        }
    }

    fn recv_until(
        &mut self,
        done: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, MatchError> {
        let deadline = std::time::Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let l = self.recv(left.max(Duration::from_millis(1)))?;
            if done(&l) {
                return Ok(l);
            }
        }
    }

    /// The protocol in use.
    pub fn protocol(&self) -> Protocol {
        self.protocol
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        let quit = match self.protocol {
            Protocol::Hub => "quit",
            Protocol::Cep => "QUIT",
        };
        let _ = writeln!(self.stdin, "{quit}");
        let _ = self.stdin.flush();
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(25));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl MatchPlayer for ExternalPlayer {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// checkers-engine protocol programs (GuiNN's driver among them) take
    /// `SETPARAMETER use_book false`; Hub has no standard book switch, so it is left alone.
    fn set_book(&mut self, on: bool) -> Result<(), MatchError> {
        match self.protocol {
            Protocol::Cep => self.send(&format!("SETPARAMETER use_book {on}")),
            Protocol::Hub => Ok(()),
        }
    }

    /// Hub takes `level depth=D nodes=N`; the checkers-engine protocol has `GO maxdepth D`
    /// and no node budget, so a node budget is refused for it.
    fn set_limits(&mut self, limits: SearchLimits) -> Result<(), MatchError> {
        if limits.depth.is_none() && limits.nodes.is_none() {
            return Err(MatchError::BadSpec {
                spec: self.name(),
                reason: "give a depth or a node budget".into(),
            });
        }
        if self.protocol == Protocol::Cep && limits.nodes.is_some() {
            return Err(MatchError::BadSpec {
                spec: self.name(),
                reason: "the checkers-engine protocol has no node budget (`GO maxdepth D` \
                         only): give a depth"
                    .into(),
            });
        }
        self.limits = Some(limits);
        Ok(())
    }

    fn new_game(&mut self) -> Result<(), MatchError> {
        match self.protocol {
            Protocol::Hub => self.send("new-game"),
            Protocol::Cep => {
                self.known = None;
                Ok(())
            }
        }
    }

    fn choose(
        &mut self,
        start: &Board,
        moves: &[Move],
        game: &Checkers,
        movetime: Duration,
    ) -> Result<String, MatchError> {
        let grace = match self.limits {
            Some(_) => FIXED_BUDGET_WAIT,
            None => movetime * 3 + Duration::from_secs(5),
        };
        match self.protocol {
            Protocol::Hub => {
                let mut b = *start;
                let mut texts = Vec::new();
                for &m in moves {
                    texts.push(move_to_hub(&m));
                    b.make(m);
                }
                let pos = if texts.is_empty() {
                    format!("pos pos={}", board_to_hub(start))
                } else {
                    format!(
                        "pos pos={} moves=\"{}\"",
                        board_to_hub(start),
                        texts.join(" ")
                    )
                };
                self.send(&pos)?;
                let level = match &self.limits {
                    Some(l) => {
                        let mut level = "level".to_string();
                        if let Some(d) = l.depth {
                            level.push_str(&format!(" depth={d}"));
                        }
                        if let Some(n) = l.nodes {
                            level.push_str(&format!(" nodes={n}"));
                        }
                        level
                    }
                    None => format!("level move-time={:.3}", movetime.as_secs_f64()),
                };
                self.send(&level)?;
                self.send("go think")?;
                let l =
                    self.recv_until(|l| l.starts_with("done") || l.starts_with("error"), grace)?;
                let mv = l
                    .split_whitespace()
                    .find_map(|p| p.strip_prefix("move="))
                    .ok_or_else(|| MatchError::Protocol {
                        name: self.name.clone(),
                        what: l.clone(),
                    })?;
                let m = move_from_hub(game.board(), mv).map_err(|e| MatchError::Protocol {
                    name: self.name.clone(),
                    what: e.to_string(),
                })?;
                Ok(notation::move_to_pdn(&m))
            }
            Protocol::Cep => {
                let in_sync = match &self.known {
                    Some((b, seen)) => {
                        b == start && seen.len() <= moves.len() && moves[..seen.len()] == seen[..]
                    }
                    None => false,
                };
                if in_sync {
                    let from = self.known.as_ref().map_or(0, |(_, seen)| seen.len());
                    for m in &moves[from..] {
                        self.send(&format!("MOVE {}", notation::move_to_pdn(m)))?;
                    }
                } else {
                    let mut line = format!("NEWGAME {}", board_to_fen(start));
                    for m in moves {
                        line.push(' ');
                        line.push_str(&notation::move_to_pdn(m));
                    }
                    self.send(&line)?;
                }
                // The program plays its answer on its own board.
                let go = match self.limits.as_ref().and_then(|l| l.depth) {
                    Some(d) => format!("GO maxdepth {d}"),
                    None => format!("GO maxtime {:.3}", movetime.as_secs_f64()),
                };
                self.send(&go)?;
                let l = self.recv_until(|l| l.starts_with("BESTMOVE"), grace)?;
                let text = l.split_whitespace().nth(1).unwrap_or("none").to_string();
                let mut seen = moves.to_vec();
                match game.parse(&text) {
                    Ok(m) => {
                        seen.push(m);
                        self.known = Some((*start, seen));
                    }
                    Err(_) => self.known = None,
                }
                Ok(text)
            }
        }
    }
}

/// Builds a player from a spec (see the module notes).
pub fn player_from_spec(
    spec: &str,
    threads: usize,
    egdb: Option<Arc<Egdb>>,
) -> Result<Box<dyn MatchPlayer>, MatchError> {
    let s = spec.trim();
    if s == "qiyi" || s.starts_with("qiyi:") {
        let bad = |reason: String| MatchError::BadSpec {
            spec: s.to_string(),
            reason,
        };
        let mut level = Level::MAX;
        let mut eval = EvalChoice::default();
        let mut config = SearchConfig::default();
        let mut core = false;
        let tokens: Vec<&str> = s.split(':').skip(1).collect();
        let mut i = 0;
        while i < tokens.len() {
            let t = tokens[i];
            match t {
                "seed" => match tokens.get(i + 1).filter(|d| d.parse::<u32>().is_ok()) {
                    Some(d) => {
                        level = Level::parse(&format!("seed:{d}"))?;
                        i += 1;
                    }
                    None => level = Level::parse("seed")?,
                },
                "search=core" => core = true,
                "search=selective" => core = false,
                _ => {
                    if let Some(e) = t.strip_prefix("eval=") {
                        eval = EvalChoice::parse(e).map_err(|e| bad(e.to_string()))?;
                    } else if !config.apply(t).map_err(|e| bad(e.to_string()))? {
                        level = Level::parse(t.strip_prefix("level=").unwrap_or(t))?;
                    }
                }
            }
            i += 1;
        }
        let search = if core {
            // Core's searcher knows one of the switches: its own late-move reductions.
            SearchChoice::Core {
                lmr: tokens.contains(&"lmr"),
            }
        } else {
            SearchChoice::Selective(config)
        };
        let p = InternalPlayer::with_search(level, threads, egdb, &eval, &search);
        return Ok(Box::new(p));
    }
    if let Some(cmd) = s.strip_prefix("hub:") {
        return Ok(Box::new(ExternalPlayer::start(cmd, Some(Protocol::Hub))?));
    }
    if let Some(cmd) = s.strip_prefix("cep:") {
        return Ok(Box::new(ExternalPlayer::start(cmd, Some(Protocol::Cep))?));
    }
    Ok(Box::new(ExternalPlayer::start(s, None)?))
}

/// How a game ended, from the first listed player's (A's) view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// A won.
    WinA,
    /// Drawn.
    Draw,
    /// B won.
    WinB,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The ballot number.
    pub ballot: u16,
    /// Whether player A had Black.
    pub a_black: bool,
    /// The result for A.
    pub score: GameScore,
    /// Why the game ended.
    pub reason: String,
    /// The moves after the ballot, in PDN.
    pub moves: Vec<String>,
}

/// The longest game before it is adjudicated a draw (plies after the ballot).
pub const MAX_PLIES: usize = 400;

/// Plays one game from a ballot; `players[0]` has Black.
pub fn play_game(
    players: [&mut dyn MatchPlayer; 2],
    ballot: &Ballot,
    movetime: Duration,
    egdb: Option<&Egdb>,
) -> Result<(Option<Color>, String, Vec<String>), MatchError> {
    let (start, _) = ballot.play().map_err(|e| MatchError::BadSpec {
        spec: format!("ballot {}", ballot.number),
        reason: e.to_string(),
    })?;
    let [black, white] = players;
    black.new_game()?;
    white.new_game()?;
    let mut game = Checkers::from_board(start);
    let mut moves: Vec<Move> = Vec::new();
    let mut texts = Vec::new();
    loop {
        if let Some(outcome) = game.outcome() {
            return Ok(match outcome {
                Outcome::Win(c) => (Some(c), format!("{:?} has no move", c.opponent()), texts),
                Outcome::DrawByRepetition => (None, "threefold repetition".into(), texts),
                Outcome::DrawByFortyMoves => (None, "40-move rule".into(), texts),
            });
        }
        if let Some(db) = egdb {
            if let Some(v) = db.probe(game.board()) {
                let side = game.board().side_to_move();
                let n = db.max_pieces();
                return Ok(match v {
                    Wld::Win => (Some(side), format!("{n}-piece database: win"), texts),
                    Wld::Loss => (
                        Some(side.opponent()),
                        format!("{n}-piece database: win"),
                        texts,
                    ),
                    Wld::Draw => (None, format!("{n}-piece database: draw"), texts),
                });
            }
        }
        if moves.len() >= MAX_PLIES {
            return Ok((None, format!("{MAX_PLIES} plies"), texts));
        }
        let side = game.board().side_to_move();
        let player: &mut dyn MatchPlayer = if side == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let text = match player.choose(&start, &moves, &game, movetime) {
            Ok(t) => t,
            Err(e) => {
                return Ok((
                    Some(side.opponent()),
                    format!("{side:?} engine failed: {e}"),
                    texts,
                ))
            }
        };
        let mv = match game.parse(&text) {
            Ok(m) => m,
            Err(_) => {
                return Ok((
                    Some(side.opponent()),
                    format!("{side:?} played illegal {text}"),
                    texts,
                ))
            }
        };
        texts.push(notation::move_to_pdn(&mv));
        moves.push(mv);
        game.make(mv);
    }
}

/// The ballots a match of `games` games uses: tournament ballots in an order shuffled by
/// `seed`, each played twice (colours swapped).
pub fn match_ballots(games: usize, seed: u64) -> Vec<Ballot> {
    let mut all = tournament_ballots();
    let mut rng = Rng::new(seed);
    for i in (1..all.len()).rev() {
        let j = rng.below(i + 1);
        all.swap(i, j);
    }
    let pairs = games.div_ceil(2);
    (0..pairs).map(|i| all[i % all.len()].clone()).collect()
}

/// Plays `games` games between `a` and `b` over the ballots, colours swapped; `on_game` sees each
/// game and the running result. Returns A's wins, draws and losses.
pub fn run_match(
    a: &mut dyn MatchPlayer,
    b: &mut dyn MatchPlayer,
    games: usize,
    movetime: Duration,
    seed: u64,
    egdb: Option<&Egdb>,
    mut on_game: impl FnMut(&GameRecord, &Wdl),
) -> Result<Wdl, MatchError> {
    run_match_until(a, b, games, movetime, seed, egdb, |r, s| {
        on_game(r, s);
        true
    })
}

/// [`run_match`] that stops early when `on_game` returns false (a sequential test has
/// decided). Games `2k` and `2k + 1` play the same ballot with colours swapped.
pub fn run_match_until(
    a: &mut dyn MatchPlayer,
    b: &mut dyn MatchPlayer,
    games: usize,
    movetime: Duration,
    seed: u64,
    egdb: Option<&Egdb>,
    on_game: impl FnMut(&GameRecord, &Wdl) -> bool,
) -> Result<Wdl, MatchError> {
    run_match_range(a, b, games, 0..games, movetime, seed, egdb, on_game)
}

/// Plays only the games `range` of a match of `games` games: each game exactly as the whole
/// match would play it (the same ballot, colours and, through
/// [`MatchPlayer::set_games_played`], the same game number for each player), so with fixed
/// budgets ([`MatchPlayer::set_limits`]) a match split into ranges played anywhere gives the
/// games of the whole match. `range` is clipped to the match's games.
#[allow(clippy::too_many_arguments)]
pub fn run_match_range(
    a: &mut dyn MatchPlayer,
    b: &mut dyn MatchPlayer,
    games: usize,
    range: std::ops::Range<usize>,
    movetime: Duration,
    seed: u64,
    egdb: Option<&Egdb>,
    mut on_game: impl FnMut(&GameRecord, &Wdl) -> bool,
) -> Result<Wdl, MatchError> {
    let mut summary = Wdl::default();
    let ballots = match_ballots(games, seed);
    let range = range.start.min(games)..range.end.min(games);
    a.set_games_played(range.start as u64);
    b.set_games_played(range.start as u64);
    for g in range {
        let ballot = &ballots[g / 2];
        let a_black = g % 2 == 0;
        let (winner, reason, moves) = if a_black {
            play_game([&mut *a, &mut *b], ballot, movetime, egdb)?
        } else {
            play_game([&mut *b, &mut *a], ballot, movetime, egdb)?
        };
        let a_color = if a_black { Color::Black } else { Color::White };
        let score = match winner {
            None => GameScore::Draw,
            Some(c) if c == a_color => GameScore::WinA,
            Some(_) => GameScore::WinB,
        };
        match score {
            GameScore::WinA => summary.wins += 1,
            GameScore::Draw => summary.draws += 1,
            GameScore::WinB => summary.losses += 1,
        }
        let go_on = on_game(
            &GameRecord {
                ballot: ballot.number,
                a_black,
                score,
                reason,
                moves,
            },
            &summary,
        );
        if !go_on {
            break;
        }
    }
    Ok(summary)
}
