//! Engine matches: two players (our engine at any level, or any external UCI/UCCI program) play
//! each opening twice with colours swapped; games are adjudicated by the rules of this crate
//! (mate, stalemate, perpetual check/chase, 60-move rule, no attackers) and a ply cap.
//!
//! The time each player actually spends per move is measured and reported: ElephantEye's UCCI has
//! no `movetime`, and `go time T` makes it spend a fraction of `T`, so an external UCCI engine is
//! given the `T` that makes it spend about the requested time (see [`UCCI_TIME_FACTOR`]).

use crate::engine::{Engine, EngineConfig, Level};
use crate::error::XiangqiError;
use crate::position::{Move, Position, START_FEN};
use crate::protocol::Dialect;
use crate::rules::{EndReason, Outcome};
use qiyi_core::platform::Instant;
use qiyi_core::search::SearchLimits;
use qiyi_core::stats::Wdl;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;
use thiserror::Error;

/// `go time T` (no increment: one move to go) for a UCCI engine is first sent as the wanted move
/// time times this factor (ElephantEye spends roughly 60% of `T` that way on an idle machine, up
/// to 95% on a loaded one; with `increment 0` it spent only about 30%); after each move the match
/// runner corrects `T` by the share the engine actually spent, so its measured time per move
/// follows the requested one.
pub const UCCI_TIME_FACTOR: f64 = 1.0 / 0.6;

/// Errors of a match.
#[derive(Debug, Error)]
pub enum MatchError {
    /// An engine spec that cannot be understood.
    #[error("bad engine '{0}': {1}")]
    BadEngine(String, String),
    /// An external engine could not be started or stopped talking.
    #[error("engine '{0}': {1}")]
    Engine(String, String),
    /// A bad opening line.
    #[error("opening line {0}: {1}")]
    Opening(usize, XiangqiError),
    /// A bad time control.
    #[error("bad time control '{0}': write BASE+INC in seconds, e.g. 10+0.1")]
    TimeControl(String),
    /// A bad fixed budget.
    #[error("bad fixed budget: {0}")]
    Budget(String),
}

/// How a player is asked to move.
#[derive(Clone, Debug, PartialEq)]
pub enum TimeControl {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A clock: base time plus an increment per move.
    Clock {
        /// Starting time.
        base: Duration,
        /// Added after each move.
        increment: Duration,
    },
    /// No clock: every move searched to a fixed depth and/or within a node budget. With one
    /// thread a game depends on nothing else, so a match split into ranges of games
    /// ([`play_match_range`]) played on any machine gives the games of the whole match. For
    /// external engines it is `go depth D` / `go nodes N` (UCCI takes one of the two); their
    /// games are as reproducible as the engine (one thread, no clock-dependent choices).
    Fixed {
        /// Search depth in plies.
        depth: Option<u32>,
        /// Node budget.
        nodes: Option<u64>,
    },
}

impl TimeControl {
    /// Parses `10+0.1` (seconds).
    pub fn parse_clock(text: &str) -> Result<TimeControl, MatchError> {
        let bad = || MatchError::TimeControl(text.to_string());
        let (base, inc) = text.split_once('+').ok_or_else(bad)?;
        let secs = |s: &str| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite() && *v >= 0.0 && *v < 1e6)
                .map(Duration::from_secs_f64)
        };
        let base = secs(base).filter(|d| !d.is_zero()).ok_or_else(bad)?;
        let increment = secs(inc).ok_or_else(bad)?;
        Ok(TimeControl::Clock { base, increment })
    }
}

/// Who plays: our engine or an external program.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// This crate's engine.
    Internal {
        /// Strength.
        level: Level,
        /// Table size in MiB.
        hash_mib: usize,
        /// Play with the hand-set evaluation weights instead of the tuned ones (`eval=untuned`).
        hand_weights: bool,
        /// Search with this net (its name, `net` or the path of `eval=PATH`, and the net;
        /// the shipped net unless `eval=hand` or `eval=untuned`); `None`: the hand evaluation.
        net: Option<(String, std::sync::Arc<qiyi_core::learn::QuantNet>)>,
    },
    /// An external program and the protocol it speaks.
    External {
        /// Shell command that starts it.
        command: String,
        /// UCI or UCCI.
        dialect: Dialect,
    },
}

impl PlayerSpec {
    /// Parses `qiyi`, `qiyi:level=5`, `qiyi:seed`, `uci:CMD` or `ucci:CMD` (a bare command is UCI).
    pub fn parse(text: &str) -> Result<PlayerSpec, MatchError> {
        let bad = |why: &str| MatchError::BadEngine(text.to_string(), why.to_string());
        let t = text.trim();
        if t.is_empty() {
            return Err(bad("empty"));
        }
        if t == "qiyi" || t.starts_with("qiyi:") {
            let mut level = Level::Strength(10);
            let mut hash_mib = 64;
            let mut hand_weights = false;
            // The front ends' default: the shipped net (`eval=hand` for the hand evaluation).
            let mut net = crate::nnue::default_net().map(|n| ("net".to_string(), n));
            for opt in t
                .trim_start_matches("qiyi")
                .trim_start_matches(':')
                .split(',')
            {
                let opt = opt.trim();
                if opt.is_empty() {
                    continue;
                }
                if opt == "seed" {
                    level = Level::Seed;
                } else if opt == "eval=untuned" {
                    hand_weights = true;
                    net = None;
                } else if opt == "eval=hand" {
                    net = None;
                } else if let Some(path) = opt.strip_prefix("eval=") {
                    let choice = crate::nnue::EvalChoice::parse(path)
                        .map_err(|e| bad(&format!("eval: {e}")))?;
                    net = choice.net().map(|n| (path.to_string(), n));
                } else if let Some(v) = opt.strip_prefix("level=") {
                    level = Level::parse(v).ok_or_else(|| bad("level is seed or 1-10"))?;
                } else if let Some(v) = opt.strip_prefix("hash=") {
                    hash_mib = v
                        .parse()
                        .ok()
                        .filter(|h| (1..=4096).contains(h))
                        .ok_or_else(|| bad("hash is 1-4096 MiB"))?;
                } else {
                    return Err(bad(
                        "options are seed, level=N, hash=MIB, eval=hand|untuned|NETFILE",
                    ));
                }
            }
            return Ok(PlayerSpec::Internal {
                level,
                hash_mib,
                hand_weights,
                net,
            });
        }
        if let Some(cmd) = t.strip_prefix("ucci:") {
            return Ok(PlayerSpec::External {
                command: cmd.to_string(),
                dialect: Dialect::Ucci,
            });
        }
        let cmd = t.strip_prefix("uci:").unwrap_or(t);
        Ok(PlayerSpec::External {
            command: cmd.to_string(),
            dialect: Dialect::Uci,
        })
    }

    /// A short display name.
    pub fn name(&self) -> String {
        match self {
            PlayerSpec::Internal {
                level,
                hand_weights,
                net,
                ..
            } => match (level, net) {
                // The seed level plays the tutorial's material count, whatever the evaluation.
                (Level::Seed, _) => "qiyi:seed".to_string(),
                (_, Some((path, _))) => format!("qiyi:{level},eval={path}"),
                (_, None) if *hand_weights => format!("qiyi:{level},eval=untuned"),
                (_, None) => format!("qiyi:{level},eval=hand"),
            },
            PlayerSpec::External { command, dialect } => format!(
                "{}:{command}",
                if *dialect == Dialect::Ucci {
                    "ucci"
                } else {
                    "uci"
                }
            ),
        }
    }
}

/// The clock state passed to a player for one move.
#[derive(Clone, Copy, Debug)]
struct MoveRequest {
    /// Fixed time for this move (move-time matches).
    move_time: Option<Duration>,
    /// A fixed depth and node budget instead of a time ([`TimeControl::Fixed`]).
    fixed: Option<(Option<u32>, Option<u64>)>,
    /// Time left for red and black, and the increment (clock matches).
    clocks: Option<(Duration, Duration, Duration)>,
    red_to_move: bool,
}

/// Most moves a UCCI engine is sent after its FEN. ElephantEye answers `nobestmove` (it
/// declares a draw) once a game has gone 100 plies without a capture, earlier than the
/// 60-move rule (120 plies) the match adjudicates by; so a UCCI engine gets the FEN of the
/// position at most this many plies back and the moves since (enough history for the
/// engine to see repetitions).
const UCCI_MOVE_WINDOW: usize = 60;

/// The `position` command for a game that began at `start` and has played `moves`: the FEN of
/// the position at most `window` plies back, then the moves since.
fn position_command(start: &Position, moves: &[Move], window: usize) -> String {
    let cut = moves.len().saturating_sub(window);
    let mut base = start.clone();
    for &m in &moves[..cut] {
        base.make(m);
    }
    let rest = &moves[cut..];
    let mut command = format!("position fen {}", base.to_fen());
    if !rest.is_empty() {
        command.push_str(" moves");
        for m in rest {
            command.push(' ');
            command.push_str(&m.to_string());
        }
    }
    command
}

enum Player {
    Internal(Box<Engine>),
    External(External),
}

struct External {
    name: String,
    dialect: Dialect,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Measured share of `go time T` a UCCI engine spends (starts at `1 / UCCI_TIME_FACTOR`,
    /// then follows the measurements, so its real time per move tracks the requested one
    /// whatever the machine's load).
    ucci_share: f64,
}

impl External {
    fn start(command: &str, dialect: Dialect) -> Result<External, MatchError> {
        let err = |e: String| MatchError::Engine(command.to_string(), e);
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| err(format!("cannot start: {e}")))?;
        let stdin = child.stdin.take().ok_or_else(|| err("no stdin".into()))?;
        let stdout = child.stdout.take().ok_or_else(|| err("no stdout".into()))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = External {
            name: command.to_string(),
            dialect,
            child,
            stdin,
            lines: rx,
            ucci_share: 1.0 / UCCI_TIME_FACTOR,
        };
        let (hello, ok) = match dialect {
            Dialect::Uci => ("uci", "uciok"),
            Dialect::Ucci => ("ucci", "ucciok"),
        };
        e.send(hello)?;
        e.wait_for(|l| l == ok, Duration::from_secs(10))?;
        e.send("isready")?;
        e.wait_for(|l| l == "readyok", Duration::from_secs(10))?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), MatchError> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| MatchError::Engine(self.name.clone(), format!("write failed: {e}")))
    }

    fn wait_for(
        &mut self,
        pred: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, MatchError> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if pred(line.trim()) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(MatchError::Engine(self.name.clone(), "timed out".into()))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(MatchError::Engine(self.name.clone(), "exited".into()))
                }
            }
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Player {
    fn new(spec: &PlayerSpec, seed: u64) -> Result<Player, MatchError> {
        Ok(match spec {
            PlayerSpec::Internal {
                level,
                hash_mib,
                hand_weights,
                net,
            } => {
                let mut engine = Engine::new(EngineConfig {
                    hash_mib: *hash_mib,
                    threads: 1,
                    level: *level,
                    seed,
                    net: net.as_ref().map(|(_, n)| n.clone()),
                });
                if *hand_weights {
                    engine.set_weights(crate::eval::Weights::hand());
                }
                Player::Internal(Box::new(engine))
            }
            PlayerSpec::External { command, dialect } => {
                Player::External(External::start(command, *dialect)?)
            }
        })
    }

    fn new_game(&mut self) -> Result<(), MatchError> {
        match self {
            Player::Internal(e) => {
                e.new_game();
                Ok(())
            }
            Player::External(x) => {
                if x.dialect == Dialect::Uci {
                    x.send("ucinewgame")?;
                }
                x.send("isready")?;
                x.wait_for(|l| l == "readyok", Duration::from_secs(10))
                    .map(|_| ())
            }
        }
    }

    /// Asks for a move; `None` when the player returns no (legal) move in time.
    fn choose(
        &mut self,
        start: &Position,
        moves: &[Move],
        pos: &Position,
        req: MoveRequest,
    ) -> Result<Option<Move>, MatchError> {
        match self {
            Player::Internal(engine) => {
                let limits = match (req.fixed, req.move_time, req.clocks) {
                    (Some((depth, nodes)), _, _) => SearchLimits {
                        depth,
                        nodes,
                        ..Default::default()
                    },
                    (None, Some(t), _) => SearchLimits {
                        move_time: Some(t * 2),
                        deadline: Some(Instant::now() + t),
                        ..Default::default()
                    },
                    (None, None, Some((red, black, inc))) => {
                        let left = if req.red_to_move { red } else { black };
                        crate::engine::Clock {
                            time_left: Some(left.as_millis() as u64),
                            increment: inc.as_millis() as u64,
                            moves_to_go: 0,
                        }
                        .limits(Instant::now())
                    }
                    (None, None, None) => SearchLimits::depth(4),
                };
                Ok(engine.think(pos, &limits, |_| {}).best_move)
            }
            Player::External(x) => {
                let window = match x.dialect {
                    Dialect::Uci => moves.len(),
                    Dialect::Ucci => UCCI_MOVE_WINDOW,
                };
                x.send(&position_command(start, moves, window))?;
                let (go, budget) = match (req.fixed, req.move_time, req.clocks, x.dialect) {
                    // A fixed budget: the engine takes as long as it needs (a generous wait).
                    (Some((depth, nodes)), _, _, _) => {
                        let mut go = "go".to_string();
                        if let Some(d) = depth {
                            go.push_str(&format!(" depth {d}"));
                        }
                        if let Some(n) = nodes {
                            go.push_str(&format!(" nodes {n}"));
                        }
                        (go, FIXED_BUDGET_WAIT)
                    }
                    (None, Some(t), _, Dialect::Uci) => {
                        (format!("go movetime {}", t.as_millis()), t)
                    }
                    (None, Some(t), _, Dialect::Ucci) => (
                        format!(
                            "go time {}",
                            (t.as_millis() as f64 / x.ucci_share).round() as u64
                        ),
                        t,
                    ),
                    (None, None, Some((red, black, inc)), Dialect::Uci) => (
                        format!(
                            "go wtime {} btime {} winc {} binc {}",
                            red.as_millis(),
                            black.as_millis(),
                            inc.as_millis(),
                            inc.as_millis()
                        ),
                        if req.red_to_move { red } else { black },
                    ),
                    (None, None, Some((red, black, inc)), Dialect::Ucci) => {
                        let left = if req.red_to_move { red } else { black };
                        (
                            format!("go time {} increment {}", left.as_millis(), inc.as_millis()),
                            left,
                        )
                    }
                    (None, None, None, _) => ("go depth 4".to_string(), Duration::from_secs(60)),
                };
                x.send(&go)?;
                let asked = Instant::now();
                let line = match x.wait_for(
                    |l| l.starts_with("bestmove") || l == "nobestmove",
                    budget * 3 + Duration::from_secs(2),
                ) {
                    Ok(l) => l,
                    Err(MatchError::Engine(_, why)) if why == "timed out" => {
                        let _ = x.send("stop");
                        return Ok(None);
                    }
                    Err(e) => return Err(e),
                };
                if let (Some(t), Dialect::Ucci) = (req.move_time, x.dialect) {
                    let sent = t.as_secs_f64() / x.ucci_share;
                    let share = asked.elapsed().as_secs_f64() / sent.max(1e-3);
                    x.ucci_share = (0.8 * x.ucci_share + 0.2 * share).clamp(0.2, 1.0);
                }
                let text = line.split_whitespace().nth(1).unwrap_or("");
                Ok(pos.parse_move_text(text).ok())
            }
        }
    }
}

/// How long an external engine searching to a fixed depth or node budget may take over one move
/// before it loses the game on time: far more than any sensible budget needs, so a budget is
/// never cut short by the machine's load, while an engine that hangs still ends its game.
const FIXED_BUDGET_WAIT: Duration = Duration::from_secs(200);

/// How one game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By the rules.
    Rules(Outcome),
    /// The ply cap was reached (a draw).
    PlyCap,
    /// A player returned no legal move or ran out of time (it loses).
    Forfeit {
        /// True when red forfeited.
        red: bool,
        /// Why.
        why: String,
    },
}

impl GameEnd {
    /// Whether a player lost by failing (no legal move returned, out of time, engine error)
    /// rather than by the rules.
    pub fn is_failure(&self) -> bool {
        matches!(self, GameEnd::Forfeit { .. })
    }
}

/// The `position` command that replays a game from `opening` (a FEN) through `moves` (ICCS):
/// paste it into `qiyi uci` (or any UCI/UCCI engine) to reach the position where a player failed.
pub fn replay_command(opening: &str, moves: &[String]) -> String {
    let mut command = format!("position fen {opening}");
    if !moves.is_empty() {
        command.push_str(" moves ");
        command.push_str(&moves.join(" "));
    }
    command
}

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Index of the opening.
    pub opening: usize,
    /// True when player A had red.
    pub a_is_red: bool,
    /// The moves in ICCS.
    pub moves: Vec<String>,
    /// How it ended.
    pub end: GameEnd,
    /// Result from player A's view: 1, 0.5 or 0.
    pub a_score: f64,
}

/// Match settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games to play (rounded up to a whole number of colour-swapped pairs).
    pub games: usize,
    /// Time per move or clock.
    pub time: TimeControl,
    /// Start positions (FEN); each is played twice, colours swapped.
    pub openings: Vec<String>,
    /// A game reaching this many plies is a draw.
    pub max_plies: usize,
    /// Seed for the engines' level noise.
    pub seed: u64,
}

/// The outcome of a match, from player A's view.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Wins, draws, losses of player A.
    pub wdl: Wdl,
    /// Every game.
    pub games: Vec<GameRecord>,
    /// Mean milliseconds per move actually spent by A and by B.
    pub ms_per_move: (f64, f64),
}

/// Reads an opening file: one FEN per line, or `startpos moves ...` / `FEN moves ...`; `#`
/// comments and blank lines are skipped. Every line must be a legal position.
pub fn parse_openings(text: &str) -> Result<Vec<String>, MatchError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (setup, moves) = match line.split_once(" moves ") {
            Some((s, m)) => (s.trim(), m.split_whitespace().collect::<Vec<_>>()),
            None => (line, Vec::new()),
        };
        let fen = if setup == "startpos" {
            START_FEN
        } else {
            setup
        };
        let mut pos = Position::from_fen(fen).map_err(|e| MatchError::Opening(i + 1, e))?;
        for m in moves {
            let mv = pos
                .parse_move_text(m)
                .map_err(|e| MatchError::Opening(i + 1, e))?;
            pos.make(mv);
        }
        out.push(pos.to_fen());
    }
    Ok(out)
}

/// The opening set shipped with the crate (balanced positions after 2-6 plies).
pub const OPENINGS: &str = include_str!("../data/openings.txt");

/// Plays a match between `a` and `b`; `on_game` is called after every game.
pub fn play_match(
    a: &PlayerSpec,
    b: &PlayerSpec,
    config: &MatchConfig,
    on_game: impl FnMut(&GameRecord),
) -> Result<MatchReport, MatchError> {
    play_match_range(a, b, config, 0..config.games.div_ceil(2) * 2, on_game)
}

/// The games a match of `games` games plays: `games` rounded up to colour-swapped pairs.
pub fn match_games(games: usize) -> usize {
    games.div_ceil(2) * 2
}

/// Plays only the games `range` of the match `config` describes (game `g` opens with opening
/// `g / 2`, A red when `g` is even), each exactly as the whole match plays it: the engines'
/// noise depends on the seed and the position only, and every game starts with cleared tables.
/// With [`TimeControl::Fixed`] a match split into ranges played anywhere therefore gives the
/// whole match's games; `range` is clipped to [`match_games`]`(config.games)`. A fixed budget
/// for an external engine is an error (it plays on time).
pub fn play_match_range(
    a: &PlayerSpec,
    b: &PlayerSpec,
    config: &MatchConfig,
    range: std::ops::Range<usize>,
    mut on_game: impl FnMut(&GameRecord),
) -> Result<MatchReport, MatchError> {
    if let TimeControl::Fixed { depth, nodes } = config.time {
        if depth.is_none() && nodes.is_none() {
            return Err(MatchError::Budget(
                "give a depth or a node budget".to_string(),
            ));
        }
        if depth == Some(0) || nodes == Some(0) {
            return Err(MatchError::Budget(
                "the depth and the node budget must be at least 1".to_string(),
            ));
        }
        for spec in [a, b] {
            if let PlayerSpec::External {
                dialect: Dialect::Ucci,
                ..
            } = spec
            {
                if depth.is_some() && nodes.is_some() {
                    return Err(MatchError::BadEngine(
                        spec.name(),
                        "UCCI's `go` takes one budget: give a depth or a node budget, not both"
                            .to_string(),
                    ));
                }
            }
        }
    }
    let mut pa = Player::new(a, config.seed)?;
    let mut pb = Player::new(b, config.seed ^ 0x9E37)?;
    let mut report = MatchReport::default();
    let openings: Vec<String> = if config.openings.is_empty() {
        vec![START_FEN.to_string()]
    } else {
        config.openings.clone()
    };
    let mut spent = [(Duration::ZERO, 0u32), (Duration::ZERO, 0u32)];
    let total = match_games(config.games);
    for g in range.start.min(total)..range.end.min(total) {
        let opening = (g / 2) % openings.len();
        let a_is_red = g % 2 == 0;
        pa.new_game()?;
        pb.new_game()?;
        let record = play_game(
            &mut pa,
            &mut pb,
            a_is_red,
            opening,
            &openings[opening],
            config,
            &mut spent,
        )?;
        match record.a_score {
            s if s > 0.75 => report.wdl.wins += 1,
            s if s < 0.25 => report.wdl.losses += 1,
            _ => report.wdl.draws += 1,
        }
        on_game(&record);
        report.games.push(record);
    }
    let mean = |(d, n): (Duration, u32)| {
        if n == 0 {
            0.0
        } else {
            d.as_secs_f64() * 1000.0 / f64::from(n)
        }
    };
    report.ms_per_move = (mean(spent[0]), mean(spent[1]));
    Ok(report)
}

fn play_game(
    pa: &mut Player,
    pb: &mut Player,
    a_is_red: bool,
    opening: usize,
    fen: &str,
    config: &MatchConfig,
    spent: &mut [(Duration, u32); 2],
) -> Result<GameRecord, MatchError> {
    let mut pos = Position::from_fen(fen).map_err(|e| MatchError::Opening(opening + 1, e))?;
    pos.clear_history();
    let start = pos.clone();
    let mut moves: Vec<Move> = Vec::new();
    let (mut red_left, mut black_left, inc) = match config.time {
        TimeControl::Clock { base, increment } => (base, base, increment),
        TimeControl::MoveTime(_) | TimeControl::Fixed { .. } => {
            (Duration::ZERO, Duration::ZERO, Duration::ZERO)
        }
    };
    let end = loop {
        if let Some(outcome) = pos.outcome() {
            break GameEnd::Rules(outcome);
        }
        if moves.len() >= config.max_plies {
            break GameEnd::PlyCap;
        }
        let red = pos.side_to_move() == crate::board::Color::Red;
        let a_moves = red == a_is_red;
        let req = MoveRequest {
            move_time: match config.time {
                TimeControl::MoveTime(t) => Some(t),
                TimeControl::Clock { .. } | TimeControl::Fixed { .. } => None,
            },
            fixed: match config.time {
                TimeControl::Fixed { depth, nodes } => Some((depth, nodes)),
                TimeControl::MoveTime(_) | TimeControl::Clock { .. } => None,
            },
            clocks: match config.time {
                TimeControl::Clock { .. } => Some((red_left, black_left, inc)),
                TimeControl::MoveTime(_) | TimeControl::Fixed { .. } => None,
            },
            red_to_move: red,
        };
        let player = if a_moves { &mut *pa } else { &mut *pb };
        let started = Instant::now();
        // An engine that fails mid-game (exits, stops answering) loses the game, which is
        // recorded with its moves like any other so it can be replayed.
        let choice = match player.choose(&start, &moves, &pos, req) {
            Ok(choice) => choice,
            Err(e) => {
                break GameEnd::Forfeit {
                    red,
                    why: format!("failed: {e}"),
                }
            }
        };
        let used = started.elapsed();
        let slot = &mut spent[usize::from(!a_moves)];
        slot.0 += used;
        slot.1 += 1;
        if let TimeControl::Clock { .. } = config.time {
            let left = if red { &mut red_left } else { &mut black_left };
            if used > *left {
                break GameEnd::Forfeit {
                    red,
                    why: "lost on time".into(),
                };
            }
            *left = *left - used + inc;
        }
        let Some(mv) = choice.filter(|&m| pos.is_legal(m)) else {
            break GameEnd::Forfeit {
                red,
                why: "no legal move returned".into(),
            };
        };
        pos.make(mv);
        moves.push(mv);
    };
    let red_score = match &end {
        GameEnd::Rules(o) => match o.winner {
            Some(crate::board::Color::Red) => 1.0,
            Some(crate::board::Color::Black) => 0.0,
            None => 0.5,
        },
        GameEnd::PlyCap => 0.5,
        GameEnd::Forfeit { red, .. } => {
            if *red {
                0.0
            } else {
                1.0
            }
        }
    };
    Ok(GameRecord {
        opening,
        a_is_red,
        moves: moves.iter().map(|m| m.to_string()).collect(),
        a_score: if a_is_red { red_score } else { 1.0 - red_score },
        end,
    })
}

/// A short text for how a game ended.
pub fn describe_end(end: &GameEnd) -> String {
    match end {
        GameEnd::Rules(o) => {
            let who = match o.winner {
                Some(crate::board::Color::Red) => "red wins",
                Some(crate::board::Color::Black) => "black wins",
                None => "draw",
            };
            let why = match o.reason {
                EndReason::Checkmate => "checkmate",
                EndReason::Stalemate => "stalemate",
                EndReason::MoveLimit => "60-move rule",
                EndReason::NoAttackers => "no attackers",
                _ => "repetition rule",
            };
            format!("{who} ({why})")
        }
        GameEnd::PlyCap => "draw (ply cap)".into(),
        GameEnd::Forfeit { red, why } => format!(
            "{} wins ({} {why})",
            if *red { "black" } else { "red" },
            if *red { "red" } else { "black" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ucci_engines_get_a_window_of_recent_moves() {
        let start = Position::from_fen(START_FEN).expect("start position");
        // Horses out and back for 132 plies, with no capture.
        let cycle = ["h0g2", "h9g7", "g2h0", "g7h9"];
        let mut pos = start.clone();
        let mut moves = Vec::new();
        for i in 0..132 {
            let mv = pos.parse_move_text(cycle[i % 4]).expect("legal move");
            pos.make(mv);
            moves.push(mv);
        }
        let full = position_command(&start, &moves, moves.len());
        assert_eq!(full.split_whitespace().count(), 2 + 6 + 1 + 132);
        let windowed = position_command(&start, &moves, UCCI_MOVE_WINDOW);
        let (fen, list) = windowed
            .strip_prefix("position fen ")
            .and_then(|rest| rest.split_once(" moves "))
            .expect("fen and moves");
        let list: Vec<&str> = list.split(' ').collect();
        assert_eq!(list.len(), UCCI_MOVE_WINDOW);
        // Replaying the window from its FEN reaches the same position as the whole game.
        let mut replay = Position::from_fen(fen).expect("window fen");
        assert_eq!(fen.split(' ').nth(4), Some("72"), "{fen}");
        for text in list {
            let mv = replay.parse_move_text(text).expect("legal move");
            replay.make(mv);
        }
        assert_eq!(replay.hash, pos.hash);
        assert_eq!(replay.to_fen(), pos.to_fen());
        // A short game is sent whole.
        let short = position_command(&start, &moves[..3], UCCI_MOVE_WINDOW);
        assert_eq!(
            short,
            format!("position fen {} moves h0g2 h9g7 g2h0", start.to_fen())
        );
        assert_eq!(
            position_command(&start, &[], UCCI_MOVE_WINDOW),
            format!("position fen {}", start.to_fen())
        );
    }

    #[test]
    fn specs_parse() {
        assert_eq!(
            PlayerSpec::parse("qiyi:level=3,eval=hand").ok(),
            Some(PlayerSpec::Internal {
                level: Level::Strength(3),
                hash_mib: 64,
                hand_weights: false,
                net: None,
            })
        );
        // The default is the shipped net, named so in results.
        let default = PlayerSpec::parse("qiyi:level=3").expect("spec");
        assert!(
            matches!(&default, PlayerSpec::Internal { net: Some((name, _)), .. } if name == "net"),
            "{default:?}"
        );
        assert_eq!(default.name(), "qiyi:3,eval=net");
        assert_eq!(
            PlayerSpec::parse("qiyi:eval=hand").map(|p| p.name()).ok(),
            Some("qiyi:10,eval=hand".to_string())
        );
        assert_eq!(
            PlayerSpec::parse("qiyi:seed").map(|p| p.name()).ok(),
            Some("qiyi:seed".to_string())
        );
        assert!(matches!(
            PlayerSpec::parse("ucci:/opt/eleeye"),
            Ok(PlayerSpec::External {
                dialect: Dialect::Ucci,
                ..
            })
        ));
        assert!(PlayerSpec::parse("qiyi:level=12").is_err());
        assert!(PlayerSpec::parse("").is_err());
        assert!(TimeControl::parse_clock("10+0.1").is_ok());
        assert!(TimeControl::parse_clock("10").is_err());
        assert!(TimeControl::parse_clock("0+1").is_err());
    }

    #[test]
    fn shipped_openings_are_legal_and_distinct() {
        let list = parse_openings(OPENINGS).expect("openings parse");
        assert!(list.len() >= 50, "{} openings", list.len());
        let mut sorted = list.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), list.len());
    }

    #[test]
    fn bad_opening_lines_are_errors() {
        assert!(matches!(
            parse_openings("startpos moves h2e2 z0z1"),
            Err(MatchError::Opening(1, _))
        ));
    }

    #[test]
    fn a_short_internal_match_plays_to_the_end() {
        let a = PlayerSpec::parse("qiyi:level=2").expect("spec");
        let b = PlayerSpec::parse("qiyi:seed").expect("spec");
        let config = MatchConfig {
            games: 2,
            time: TimeControl::MoveTime(Duration::from_millis(5)),
            openings: parse_openings(OPENINGS).expect("openings")[..1].to_vec(),
            max_plies: 40,
            seed: 1,
        };
        let r = play_match(&a, &b, &config, |_| {}).expect("match");
        assert_eq!(r.wdl.games(), 2);
        assert!(r.games.iter().all(|g| g.moves.len() <= 40));
        assert!(r.games[0].a_is_red && !r.games[1].a_is_red);
    }

    #[test]
    fn ranges_of_a_fixed_budget_match_are_the_whole_match_s_games() {
        let a = PlayerSpec::parse("qiyi:level=3").expect("spec");
        let b = PlayerSpec::parse("qiyi:level=8").expect("spec");
        let config = MatchConfig {
            games: 5, // rounded up to 6: three pairs
            time: TimeControl::Fixed {
                depth: Some(2),
                nodes: None,
            },
            openings: parse_openings(OPENINGS).expect("openings")[..2].to_vec(),
            max_plies: 60,
            seed: 9,
        };
        let whole = play_match(&a, &b, &config, |_| {}).expect("match");
        assert_eq!(whole.games.len(), 6);
        assert_eq!(match_games(5), 6);
        // The third pair replays the first opening (two openings).
        assert_eq!(
            whole.games.iter().map(|g| g.opening).collect::<Vec<_>>(),
            [0, 0, 1, 1, 0, 0]
        );
        // The pairs played separately, last first, each by new players: the same games.
        let mut pieces = Vec::new();
        for start in [4, 2, 0] {
            let r = play_match_range(&a, &b, &config, start..start + 2, |_| {}).expect("range");
            assert_eq!(r.games.len(), 2);
            pieces.push((start, r.games));
        }
        pieces.sort_by_key(|(start, _)| *start);
        let joined: Vec<GameRecord> = pieces.into_iter().flat_map(|(_, g)| g).collect();
        assert_eq!(joined, whole.games);
        // A single game inside a pair, and a range past the end (clipped).
        let one = play_match_range(&a, &b, &config, 3..4, |_| {}).expect("range");
        assert_eq!(one.games, whole.games[3..4]);
        let past = play_match_range(&a, &b, &config, 5..9, |_| {}).expect("range");
        assert_eq!(past.games, whole.games[5..6]);
        // Different seeds give the weak level other noise: the games are not all alike.
        let other = MatchConfig {
            seed: 10,
            ..config.clone()
        };
        let again = play_match(&a, &b, &other, |_| {}).expect("match");
        assert_ne!(again.games, whole.games);
    }

    #[test]
    fn a_fixed_budget_is_checked_for_external_engines_and_refused_when_empty() {
        let ours = PlayerSpec::parse("qiyi").expect("spec");
        let theirs = PlayerSpec::parse("ucci:/nonexistent/eleeye").expect("spec");
        let mut config = MatchConfig {
            games: 2,
            time: TimeControl::Fixed {
                depth: Some(2),
                nodes: Some(1000),
            },
            openings: Vec::new(),
            max_plies: 20,
            seed: 1,
        };
        // UCCI's `go` takes one budget: both are refused before the engine is started.
        let err = play_match(&ours, &theirs, &config, |_| {}).expect_err("external");
        assert!(
            matches!(&err, MatchError::BadEngine(_, why) if why.contains("not both")),
            "{err}"
        );
        // One budget is taken: what fails now is starting the missing program.
        config.time = TimeControl::Fixed {
            depth: Some(2),
            nodes: None,
        };
        let err = play_match(&ours, &theirs, &config, |_| {}).expect_err("missing");
        assert!(!err.to_string().contains("not both"), "{err}");
        config.time = TimeControl::Fixed {
            depth: None,
            nodes: None,
        };
        assert!(matches!(
            play_match(&ours, &ours, &config, |_| {}),
            Err(MatchError::Budget(_))
        ));
        config.time = TimeControl::Fixed {
            depth: Some(0),
            nodes: None,
        };
        assert!(matches!(
            play_match(&ours, &ours, &config, |_| {}),
            Err(MatchError::Budget(_))
        ));
    }
}
