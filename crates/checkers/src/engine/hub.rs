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
//! Commands handled: `hub`, `set-param` (`level`, `threads`, `hash` in MiB), `init`, `ping`, `new-game`, `pos`, `level`
//! (`move-time`, `depth`, `nodes`, `time`/`inc`, `infinite`), `go think|analyze`, `stop`, `quit`.
//! The search runs on its own thread: `stop` interrupts it (the answer is `done` with the best
//! move found so far), `ping` is answered while it thinks.

use super::egdb::Egdb;
use super::eval::Weights;
use super::player::{Engine, EvalChoice, Level, SearchChoice};
use crate::board::{Bitboard, Board, Color};
use crate::movegen::Move;
use crate::notation::{self, NotationError};
use crate::rules::Checkers;
use qiyi_core::lines;
use qiyi_core::search::SearchLimits;
use qiyi_core::Game;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The `hash` parameter's range in MiB.
pub const HASH_RANGE: (usize, usize) = (1, 4096);

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

/// The deepest `level depth` obeyed.
const MAX_LEVEL_DEPTH: f64 = 120.0;
/// The most nodes `level nodes` obeys.
const MAX_LEVEL_NODES: f64 = 1e10;
/// The longest time (seconds) a `level` time field is read as: one day.
const MAX_LEVEL_SECONDS: f64 = 86_400.0;

/// Where the session writes: shared between the protocol thread and the search thread.
type Out = Arc<Mutex<dyn Write + Send>>;

/// Writes one line; a closed pipe means the GUI has gone, so the error is dropped.
fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// A search running on its own thread.
struct Running {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// True when the search has no bound of its own (`level infinite`): only `stop` ends it.
    unbounded: bool,
}

/// The engine's side of a Hub session. Searches run on their own thread, so `stop` (and `ping`)
/// are answered while the engine thinks; `stop` ends the search at once and it answers `done`
/// with the best move so far.
pub struct HubSession {
    out: Out,
    /// `None` until the first `go` (and again after a parameter changes): see `pending`.
    engine: Arc<Mutex<Option<Engine>>>,
    level: Level,
    threads: usize,
    egdb: Option<Arc<Egdb>>,
    eval: EvalChoice,
    search: SearchChoice,
    book: bool,
    game: Checkers,
    limits: SearchLimits,
    running: Option<Running>,
    /// `engine` is `None`: the engine of the current parameters is built at the next `go`, so parameters sent one by one (level, threads, hash) never build and
    /// drop a default-sized table each.
    pending: bool,
}

/// How a Hub session's engine is built (what `qiyi hub` takes on its command line).
#[derive(Clone, Debug)]
pub struct HubOptions {
    /// Strength.
    pub level: Level,
    /// Search threads.
    pub threads: usize,
    /// The endgame database probed in the search.
    pub egdb: Option<Arc<Egdb>>,
    /// The evaluation.
    pub eval: EvalChoice,
    /// The search and its options.
    pub search: SearchChoice,
    /// Whether the opening book is used (levels 6-10 have one).
    pub book: bool,
}

impl HubSession {
    /// A session playing at `level` with `threads` search threads, writing to `output`.
    pub fn new<W: Write + Send + 'static>(level: Level, threads: usize, output: W) -> HubSession {
        Self::with_egdb(level, threads, None, output)
    }

    /// A session whose engine probes the endgame database `egdb`.
    pub fn with_egdb<W: Write + Send + 'static>(
        level: Level,
        threads: usize,
        egdb: Option<Arc<Egdb>>,
        output: W,
    ) -> HubSession {
        Self::with_eval(level, threads, egdb, EvalChoice::default(), output)
    }

    /// A session with the evaluation `eval`.
    pub fn with_eval<W: Write + Send + 'static>(
        level: Level,
        threads: usize,
        egdb: Option<Arc<Egdb>>,
        eval: EvalChoice,
        output: W,
    ) -> HubSession {
        Self::with_options(
            HubOptions {
                level,
                threads,
                egdb,
                eval,
                search: SearchChoice::default(),
                book: true,
            },
            output,
        )
    }

    /// A session with every option of [`HubOptions`].
    pub fn with_options<W: Write + Send + 'static>(o: HubOptions, output: W) -> HubSession {
        HubSession {
            out: Arc::new(Mutex::new(output)),
            engine: Arc::new(Mutex::new(None)),
            pending: true,
            level: o.level,
            threads: o.threads,
            egdb: o.egdb,
            eval: o.eval,
            search: o.search,
            book: o.book,
            game: Checkers::start(),
            limits: SearchLimits::move_time(Duration::from_secs(1)),
            running: None,
        }
    }

    fn engine(o: &HubOptions) -> Engine {
        let mut e = Engine::with_search(
            o.level,
            o.threads,
            Weights::default(),
            o.egdb.clone(),
            &o.eval,
            &o.search,
        );
        e.set_book(o.book);
        e
    }

    /// Drops the engine (and its table) now; the engine of the current parameters is built at
    /// the next `go`.
    fn replace_engine(&mut self) {
        self.engine = Arc::new(Mutex::new(None));
        self.pending = true;
    }

    fn build_engine(&mut self) {
        let e = Self::engine(&HubOptions {
            level: self.level,
            threads: self.threads,
            egdb: self.egdb.clone(),
            eval: self.eval.clone(),
            search: self.search.clone(),
            book: self.book,
        });
        self.engine = Arc::new(Mutex::new(Some(e)));
        self.pending = false;
    }

    /// The transposition table's size in MiB (the selective search's `hash`; core's searcher
    /// keeps [`super::player::TT_MIB`]).
    pub fn hash_mib(&self) -> usize {
        match &self.search {
            SearchChoice::Selective(c) => c.tt_mib,
            SearchChoice::Core { .. } => super::player::TT_MIB,
        }
    }

    /// `set-param name=hash value=MiB`: the old table is freed and the next `go` builds one of
    /// that size (clamped to [`HASH_RANGE`]).
    fn set_hash(&mut self, v: &str) {
        let parsed = match v.parse::<usize>() {
            Ok(t) => Some(t),
            Err(_) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => Some(usize::MAX),
            Err(_) => None,
        };
        let Some(t) = parsed else {
            return say(
                &self.out,
                &format!("error hash must be {}-{} MiB", HASH_RANGE.0, HASH_RANGE.1),
            );
        };
        let c = t.clamp(HASH_RANGE.0, HASH_RANGE.1);
        if c != t {
            say(
                &self.out,
                &format!("info message=\"hash {t} clamped to {c}\""),
            );
        }
        match &mut self.search {
            SearchChoice::Selective(config) => {
                config.tt_mib = c;
                self.replace_engine();
            }
            SearchChoice::Core { .. } => say(
                &self.out,
                "info message=\"hash is fixed for --search core\"",
            ),
        }
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|r| !r.handle.is_finished())
    }

    /// Handles one command; returns `false` on `quit`. Anything but `ping` and `stop` first
    /// ends a running search (its `done` line comes first).
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, rest) = match line.split_once(char::is_whitespace) {
            Some((c, r)) => (c, r),
            None => (line, ""),
        };
        if !matches!(cmd, "" | "ping" | "ponder-hit") {
            self.stop_search();
        }
        match cmd {
            "" | "stop" | "ponder-hit" => {}
            "hub" => {
                let lines = [
                    format!(
                        "id name=qiyi version={} author=\"qiyi authors\"",
                        env!("CARGO_PKG_VERSION")
                    ),
                    "param name=variant value=english type=enum values=\"english\"".to_string(),
                    format!(
                        "param name=level value={} type=int min=1 max=10",
                        self.level_number()
                    ),
                    format!(
                        "param name=threads value={} type=int min=1 max=64",
                        self.threads
                    ),
                    format!(
                        "param name=hash value={} type=int min={} max={}",
                        self.hash_mib(),
                        HASH_RANGE.0,
                        HASH_RANGE.1
                    ),
                    "wait".to_string(),
                ];
                for l in lines {
                    say(&self.out, &l);
                }
            }
            "set-param" => {
                let a = args(rest);
                let get = |k: &str| a.iter().find(|(key, _)| key == k).map(|(_, v)| v.clone());
                match (get("name").as_deref(), get("value")) {
                    (Some("level"), Some(v)) => match Level::parse(&v) {
                        Ok(l) => {
                            self.level = l;
                            self.replace_engine();
                        }
                        Err(e) => say(&self.out, &format!("error {e}")),
                    },
                    (Some("threads"), Some(v)) => {
                        // Too many digits for a number still means "huge": clamped.
                        let t = match v.parse::<usize>() {
                            Ok(t) => Some(t),
                            Err(_) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                                Some(usize::MAX)
                            }
                            Err(_) => None,
                        };
                        match t {
                            Some(t) => {
                                let c = t.clamp(1, 64);
                                if c != t {
                                    say(
                                        &self.out,
                                        &format!("info message=\"threads {t} clamped to {c}\""),
                                    );
                                }
                                self.threads = c;
                                self.replace_engine();
                            }
                            None => say(&self.out, "error threads must be 1-64"),
                        }
                    }
                    (Some("hash"), Some(v)) => self.set_hash(&v),
                    (Some("variant"), Some(v)) if v != "english" => {
                        say(&self.out, "error only the english variant is supported")
                    }
                    _ => {}
                }
            }
            "init" => say(&self.out, "ready"),
            "ping" => say(&self.out, "pong"),
            "new-game" => {
                if let Ok(mut e) = self.engine.lock() {
                    if let Some(e) = e.as_mut() {
                        e.new_game();
                    }
                }
                self.game = Checkers::start();
            }
            "pos" => {
                if let Err(e) = self.set_position(rest) {
                    say(&self.out, &format!("error {e}"));
                }
            }
            "level" => self.set_level(rest),
            "go" => self.go(rest.trim() == "analyze"),
            "quit" => return false,
            other => say(&self.out, &format!("error unknown command {other}")),
        }
        true
    }

    /// Raises the stop flag of a running search and waits for its `done` line.
    pub fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }

    /// At the end of input: lets a bounded search finish, stops an unbounded one.
    pub fn finish(&mut self) {
        if let Some(r) = self.running.take() {
            if r.unbounded {
                r.stop.store(true, Ordering::Relaxed);
            }
            let _ = r.handle.join();
        }
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
            // Absurd values are clamped (and said so), never obeyed: no overflow, no endless wait.
            let (hi, name) = match k.as_str() {
                "depth" => (MAX_LEVEL_DEPTH, "depth"),
                "nodes" => (MAX_LEVEL_NODES, "nodes"),
                "moves" => (1000.0, "moves"),
                _ => (MAX_LEVEL_SECONDS, k.as_str()),
            };
            let num = num.map(|x| {
                if x > hi {
                    say(
                        &self.out,
                        &format!("info message=\"{name} {x} clamped to {hi}\""),
                    );
                    hi
                } else {
                    x
                }
            });
            match (k.as_str(), num) {
                ("move-time", Some(x)) => limits.move_time = Some(Duration::from_secs_f64(x)),
                ("depth", Some(x)) => limits.depth = Some((x as u32).max(1)),
                ("nodes", Some(x)) => limits.nodes = Some((x as u64).max(1)),
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

    /// Starts a search on its own thread; it writes `info` lines as depths complete and `done`
    /// at the end (or at `stop`).
    fn go(&mut self, analyze: bool) {
        if self.game.is_over() {
            say(&self.out, "error the game is over");
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut limits = self.limits.clone();
        limits.stop = Some(stop.clone());
        let unbounded =
            limits.depth.is_none() && limits.nodes.is_none() && limits.move_time.is_none();
        if self.pending {
            self.build_engine();
        }
        let game = self.game.clone();
        let out = self.out.clone();
        let engine = self.engine.clone();
        let handle = std::thread::spawn(move || {
            let Ok(mut guard) = engine.lock() else {
                say(&out, "error the engine failed in an earlier search");
                return;
            };
            let Some(engine) = guard.as_mut() else {
                say(&out, "error no engine was built");
                return;
            };
            let on_info = |i: &qiyi_core::search::SearchInfo<Move>| {
                let pv: Vec<String> = i.pv.iter().map(move_to_hub).collect();
                say(
                    &out,
                    &format!(
                        "info depth={} score={:.2} nodes={} time={:.3} nps={} pv=\"{}\"",
                        i.depth,
                        f64::from(i.score) / 100.0,
                        i.stats.nodes,
                        i.stats.time.as_secs_f64(),
                        i.stats.nps(),
                        pv.join(" ")
                    ),
                );
            };
            let r = if analyze {
                engine.analyse(&game, &limits, on_info)
            } else {
                engine.think(&game, &limits, on_info)
            };
            // A search stopped before its first iteration has no move yet: any legal move
            // answers (the game is not over, so there is one).
            let best = r.best_move.or_else(|| game.moves().first().copied());
            match best {
                Some(mv) => {
                    let ponder =
                        r.pv.get(1)
                            .filter(|_| r.best_move.is_some())
                            .map(|p| format!(" ponder={}", move_to_hub(p)))
                            .unwrap_or_default();
                    say(&out, &format!("done move={}{}", move_to_hub(&mv), ponder))
                }
                None => say(&out, "error no legal move"),
            }
        });
        self.running = Some(Running {
            handle,
            stop,
            unbounded,
        });
    }
}

/// Runs a Hub session with the evaluation `eval` until `quit` or the end of the input (a bounded
/// search still running then is finished, an unbounded one stopped).
pub fn run<R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    level: Level,
    threads: usize,
    egdb: Option<Arc<Egdb>>,
    eval: EvalChoice,
) -> std::io::Result<()> {
    let options = HubOptions {
        level,
        threads,
        egdb,
        eval,
        search: SearchChoice::default(),
        book: true,
    };
    run_with_options(input, output, options)
}

/// [`run`] with every option of [`HubOptions`].
pub fn run_with_options<R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    options: HubOptions,
) -> std::io::Result<()> {
    let mut input = input;
    let mut session = HubSession::with_options(options, output);
    // Bytes, not UTF-8: a line that is not UTF-8 is decoded lossily and answered like any
    // unknown command; a line too long or holding NUL is refused with an `error` line.
    while let Some(line) = lines::read_line(&mut input, lines::MAX_LINE)? {
        if let Some(why) = line.refusal() {
            say(&session.out, &format!("error {why}"));
            continue;
        }
        if !session.handle(&line.text) {
            return Ok(());
        }
    }
    session.finish();
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
