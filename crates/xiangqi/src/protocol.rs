//! The engine protocols Xiangqi GUIs speak, over any `BufRead`/`Write` pair: UCI as Pikafish
//! speaks it (squares `a0`-`i9`, `position startpos|fen ... moves ...`, `info ... pv`,
//! `bestmove`) and UCCI as ElephantEye speaks it (`ucci`, `go time T increment I`, `nobestmove`,
//! `bye`). The binary wires stdin/stdout to [`run`]; tests drive it with strings.
//!
//! Searches run on their own thread so `stop`, `ponderhit` and `isready` are answered while the
//! engine thinks. Unknown or malformed lines get `info string error: ...` and the engine keeps
//! running; an illegal move in `position` leaves the position unchanged and says so.

use crate::engine::{Clock, Engine, EngineConfig, Level};
use crate::position::{Move, Position, START_FEN};
use qiyi_core::eval::{Score, MATE, MATE_BOUND};
use qiyi_core::lines::{self, Line};
use qiyi_core::platform::Instant;
use qiyi_core::search::{SearchInfo, SearchLimits};
use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Which protocol to speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI (Pikafish / Fairy-Stockfish style).
    Uci,
    /// UCCI (ElephantEye style).
    Ucci,
}

type Out = Arc<Mutex<dyn Write + Send>>;

/// The deepest `go depth` obeyed (the search's own ply limit is 128).
const MAX_GO_DEPTH: u64 = 120;
/// The most nodes `go nodes` obeys (about an hour of search on one core).
const MAX_GO_NODES: u64 = 10_000_000_000;
/// The longest time (ms) a `go` time field is read as: one day.
const MAX_GO_MS: u64 = 86_400_000;
/// The Hash range (MiB) and the Threads range a session takes.
const HASH_RANGE: (usize, usize) = (1, 4096);
const THREADS_RANGE: (usize, usize) = (1, 64);

/// `value` clamped into `range`, with the note to send when it had to be.
fn clamp_option(name: &str, value: usize, range: (usize, usize)) -> (usize, Option<String>) {
    let v = value.clamp(range.0, range.1);
    let note = (v != value).then(|| format!("info string {name} {value} clamped to {v}"));
    (v, note)
}

fn say(out: &Out, line: &str) {
    if let Ok(mut w) = out.lock() {
        // A closed pipe means the GUI has gone; nothing useful can be done with the error.
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

struct Running {
    handle: JoinHandle<()>,
    stop: Arc<AtomicBool>,
    /// True while `bestmove` must be held back (pondering or `go infinite`).
    hold: Arc<AtomicBool>,
    /// Time to think once a ponder search becomes real (`ponderhit`).
    ponder_time: Option<Duration>,
    generation: u64,
}

/// The protocol state machine: current position, engine and the running search.
pub struct Session {
    dialect: Dialect,
    out: Out,
    position: Position,
    engine: Arc<Mutex<Engine>>,
    config: EngineConfig,
    /// The engine was built with a 1 MiB table and not yet with `config`: built at the first
    /// `go` unless a `setoption` builds it first, so the default table is never allocated only
    /// to be replaced by the GUI's Hash.
    pending: bool,
    running: Option<Running>,
    generation: Arc<AtomicU64>,
}

/// Runs the protocol until `quit` or the end of `input`.
pub fn run<R: BufRead, W: Write + Send + 'static>(
    dialect: Dialect,
    input: R,
    output: W,
    config: EngineConfig,
) -> io::Result<()> {
    let mut input = input;
    let mut session = Session::new(dialect, output, config);
    while let Some(line) = lines::read_line(&mut input, lines::MAX_LINE)? {
        if !session.handle_line(&line) {
            return Ok(());
        }
    }
    session.finish();
    Ok(())
}

impl Session {
    /// A session writing to `output`.
    pub fn new<W: Write + Send + 'static>(
        dialect: Dialect,
        output: W,
        config: EngineConfig,
    ) -> Self {
        let out: Out = Arc::new(Mutex::new(output));
        Session {
            dialect,
            out,
            position: Position::start(),
            engine: Arc::new(Mutex::new(Engine::new(EngineConfig {
                hash_mib: 1,
                ..config.clone()
            }))),
            config,
            pending: true,
            running: None,
            generation: Arc::new(AtomicU64::new(0)),
        }
    }

    fn error(&self, msg: &str) {
        say(&self.out, &format!("info string error: {msg}"));
    }

    /// Handles one line read as bytes ([`lines::read_line`]): a line too long or with a NUL
    /// byte is answered with `info string error: ...` and otherwise ignored; returns false on
    /// `quit`.
    pub fn handle_line(&mut self, line: &Line) -> bool {
        match line.refusal() {
            Some(why) => {
                self.error(&why);
                true
            }
            None => self.handle(&line.text),
        }
    }

    /// Handles one line; returns false on `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = tokens.split_first() else {
            return true;
        };
        match cmd {
            "uci" | "ucci" => self.hello(cmd),
            "isready" => say(&self.out, "readyok"),
            "ucinewgame" => {
                self.stop_search();
                if let Ok(mut e) = self.engine.lock() {
                    e.new_game();
                }
            }
            "setoption" => self.set_option(args),
            "position" => self.set_position(args),
            "go" => self.go(args),
            "stop" => self.stop_search(),
            "ponderhit" => self.ponderhit(),
            "d" | "display" => say(
                &self.out,
                &format!("info string fen {}", self.position.to_fen()),
            ),
            "banmoves" | "probe" => self.error(&format!("'{cmd}' is not supported")),
            "quit" => {
                self.stop_search();
                if self.dialect == Dialect::Ucci {
                    say(&self.out, "bye");
                }
                return false;
            }
            other => self.error(&format!("unknown command '{other}'")),
        }
        true
    }

    /// At the end of input: lets a bounded search finish, stops an unbounded one.
    pub fn finish(&mut self) {
        if let Some(r) = &self.running {
            if r.hold.load(Ordering::Relaxed) {
                r.stop.store(true, Ordering::Relaxed);
                r.hold.store(false, Ordering::Relaxed);
            }
        }
        if let Some(r) = self.running.take() {
            let _ = r.handle.join();
        }
    }

    fn hello(&mut self, cmd: &str) {
        say(
            &self.out,
            &format!("id name qiyi {}", env!("CARGO_PKG_VERSION")),
        );
        say(&self.out, "id author the qiyi developers");
        say(
            &self.out,
            "option name Hash type spin default 64 min 1 max 4096",
        );
        say(
            &self.out,
            "option name Threads type spin default 1 min 1 max 64",
        );
        say(
            &self.out,
            "option name Level type combo default 10 var seed var 1 var 2 var 3 var 4 var 5 var 6 var 7 var 8 var 9 var 10",
        );
        say(
            &self.out,
            "option name Seed type spin default 1 min 0 max 2147483647",
        );
        // The evaluation the engine was started with: `hand`, `net` (the shipped net) or
        // `net-file` (a file given on the command line).
        let eval = match &self.config.net {
            None => "hand",
            Some(n) if Arc::ptr_eq(n, &crate::nnue::embedded()) => "net",
            Some(_) => "net-file",
        };
        say(
            &self.out,
            &format!("option name EvalFile type string default {eval}"),
        );
        if cmd == "ucci" {
            self.dialect = Dialect::Ucci;
            say(&self.out, "ucciok");
        } else {
            self.dialect = Dialect::Uci;
            say(&self.out, "uciok");
        }
    }

    fn set_option(&mut self, args: &[&str]) {
        // UCI: setoption name <id> [value <x>]; UCCI: setoption <id> <x>.
        let (name, value) = match args.iter().position(|&t| t == "value") {
            Some(i) if args.first() == Some(&"name") => {
                (args[1..i].join(" "), args[i + 1..].join(" "))
            }
            None if args.first() == Some(&"name") => (args[1..].join(" "), String::new()),
            _ => match args.split_first() {
                Some((n, rest)) => (n.to_string(), rest.join(" ")),
                None => return self.error("setoption needs a name"),
            },
        };
        let mut config = self.config.clone();
        match name.to_ascii_lowercase().as_str() {
            "hash" | "threads" => {
                let hash = name.eq_ignore_ascii_case("hash");
                let (label, range) = if hash {
                    ("Hash", HASH_RANGE)
                } else {
                    ("Threads", THREADS_RANGE)
                };
                // Digits too many for a number still mean "huge": clamped like any other.
                let parsed = match value.parse::<usize>() {
                    Ok(v) => Some(v),
                    Err(_) if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                        Some(usize::MAX)
                    }
                    Err(_) => None,
                };
                let Some(v) = parsed else {
                    return self.error(&format!(
                        "{label} must be {}-{}, not '{value}'",
                        range.0, range.1
                    ));
                };
                let (v, note) = clamp_option(label, v, range);
                if let Some(note) = note {
                    say(&self.out, &note);
                }
                if hash {
                    config.hash_mib = v;
                } else {
                    config.threads = v;
                }
            }
            "level" => match Level::parse(&value) {
                Some(l) => config.level = l,
                None => return self.error(&format!("Level must be seed or 1-10, not '{value}'")),
            },
            "seed" => match value.parse::<u64>() {
                Ok(v) => config.seed = v,
                Err(_) => return self.error(&format!("Seed must be a number, not '{value}'")),
            },
            "evalfile" => match crate::nnue::EvalChoice::parse(&value) {
                Ok(choice) => {
                    let note = match choice.net() {
                        Some(n) => format!(
                            "info string EvalFile {value}: a {}-{}-{} Xiangqi net",
                            n.arch.inputs, n.arch.hidden, n.arch.l2
                        ),
                        None => "info string EvalFile hand: the hand-written evaluation".into(),
                    };
                    say(&self.out, &note);
                    config.net = choice.net();
                }
                Err(e) => return self.error(&format!("EvalFile: {e}; evaluation unchanged")),
            },
            "ponder" | "usemillisec" | "newgame" | "uci_chess960" => return,
            _ => return self.error(&format!("unknown option '{name}'")),
        }
        self.stop_search();
        self.config = config.clone();
        if let Ok(mut e) = self.engine.lock() {
            e.configure(config);
            self.pending = false;
        }
    }

    fn set_position(&mut self, args: &[&str]) {
        let moves_at = args.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&args[..i], &args[i + 1..]),
            None => (args, &[][..]),
        };
        let fen = match setup.split_first() {
            Some((&"startpos", [])) => START_FEN.to_string(),
            Some((&"fen", rest)) if !rest.is_empty() => rest.join(" "),
            _ => return self.error("position needs 'startpos' or 'fen <FEN>'; position unchanged"),
        };
        let mut pos = match Position::from_fen(&fen) {
            Ok(p) => p,
            Err(e) => return self.error(&format!("{e}; position unchanged")),
        };
        for text in moves {
            match pos.parse_move_text(text) {
                Ok(mv) => {
                    pos.make(mv);
                }
                Err(e) => {
                    return self.error(&format!("move {text}: {e}; position unchanged"));
                }
            }
        }
        self.stop_search();
        self.position = pos;
    }

    fn go(&mut self, args: &[&str]) {
        self.stop_search();
        let mut limits = SearchLimits::default();
        let mut clock = Clock::default();
        let mut ponder = false;
        let mut infinite = false;
        let red = self.position.side_to_move() == crate::board::Color::Red;
        let mut i = 0;
        // A number too long for u64 is still a number: huge, and clamped below.
        let number = |i: usize| {
            args.get(i + 1).and_then(|v| match v.parse::<u64>() {
                Ok(n) => Some(n),
                Err(_) if v.bytes().all(|b| b.is_ascii_digit()) => Some(u64::MAX),
                Err(_) => None,
            })
        };
        while i < args.len() {
            let key = args[i];
            let needs_value = !matches!(key, "ponder" | "infinite" | "draw");
            let value = if needs_value {
                match number(i) {
                    Some(v) => Some(v),
                    None => {
                        return self.error(&format!("go: '{key}' needs a number; not searching"));
                    }
                }
            } else {
                None
            };
            let raw = value.unwrap_or(0);
            // Absurd values are clamped (and said so), never obeyed: no overflow, no endless wait.
            let (lo, hi) = match key {
                "depth" => (1, MAX_GO_DEPTH),
                "nodes" => (1, MAX_GO_NODES),
                "movestogo" => (0, 1000),
                _ => (0, MAX_GO_MS),
            };
            let v = raw.clamp(lo, hi);
            if v != raw && needs_value {
                say(
                    &self.out,
                    &format!("info string go: {key} {raw} clamped to {v}"),
                );
            }
            match key {
                "ponder" => ponder = true,
                "infinite" => infinite = true,
                "draw" => {}
                "depth" => limits.depth = Some(v as u32),
                "nodes" => limits.nodes = Some(v),
                "movetime" => limits.move_time = Some(Duration::from_millis(v.max(1))),
                "wtime" if red => clock.time_left = Some(v),
                "btime" if !red => clock.time_left = Some(v),
                "winc" if red => clock.increment = v,
                "binc" if !red => clock.increment = v,
                "wtime" | "btime" | "winc" | "binc" | "opptime" | "oppinc" | "mate" => {}
                "time" => clock.time_left = Some(v),
                "increment" | "inc" => clock.increment = v,
                "movestogo" => clock.moves_to_go = v as u32,
                other => {
                    return self.error(&format!("go: unknown parameter '{other}'; not searching"))
                }
            }
            i += if needs_value { 2 } else { 1 };
        }
        let start = Instant::now();
        let clock_limits = clock.limits(start);
        let mut ponder_time = None;
        if ponder {
            // Think without a limit until ponderhit, then for the clock's target time.
            ponder_time = clock_limits.move_time.or(limits.move_time);
            limits.move_time = None;
        } else if limits.move_time.is_none() && clock.time_left.is_some() {
            limits.move_time = clock_limits.move_time;
            limits.deadline = clock_limits.deadline;
        } else if let Some(t) = limits.move_time {
            // A fixed time per move is spent in full: the soft limit is set beyond it.
            limits.deadline = Some(start + t);
            limits.move_time = Some(t * 2);
        }
        let stop = Arc::new(AtomicBool::new(false));
        limits.stop = Some(stop.clone());
        let hold = Arc::new(AtomicBool::new(ponder || infinite));
        let generation = self.generation.fetch_add(1, Ordering::Relaxed) + 1;
        // The GUI owns the rules of the game: when ours say it is over (repetition verdict,
        // 60-move rule, no attackers) but a legal move exists, say so and search on.
        let pos = match self.position.rule_ending() {
            Some(end) if self.position.has_legal_move() => {
                say(
                    &self.out,
                    &format!(
                        "info string qiyi's rules end the game here ({:?}, {}); searching on",
                        end.reason,
                        match end.winner {
                            Some(c) => format!("{c:?} wins"),
                            None => "draw".to_string(),
                        }
                    ),
                );
                self.position.played_on()
            }
            _ => self.position.clone(),
        };
        if self.pending {
            if let Ok(mut e) = self.engine.lock() {
                e.configure(self.config.clone());
                self.pending = false;
            }
        }
        let handle = {
            let out = self.out.clone();
            let engine = self.engine.clone();
            let hold = hold.clone();
            let stop = stop.clone();
            let dialect = self.dialect;
            std::thread::spawn(move || {
                search_and_report(dialect, &out, &engine, &pos, &limits, start, &hold, &stop)
            })
        };
        self.running = Some(Running {
            handle,
            stop,
            hold,
            ponder_time,
            generation,
        });
    }

    fn ponderhit(&mut self) {
        let Some(r) = &mut self.running else {
            return self.error("ponderhit without a ponder search");
        };
        r.hold.store(false, Ordering::Relaxed);
        if let Some(t) = r.ponder_time.take() {
            let stop = r.stop.clone();
            let gen = self.generation.clone();
            let mine = r.generation;
            std::thread::spawn(move || {
                std::thread::sleep(t);
                if gen.load(Ordering::Relaxed) == mine {
                    stop.store(true, Ordering::Relaxed);
                }
            });
        } else {
            r.stop.store(true, Ordering::Relaxed);
        }
    }

    fn stop_search(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop.store(true, Ordering::Relaxed);
            r.hold.store(false, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }
}

/// Score text: `cp N` or `mate N` (moves, negative when being mated) for UCI; UCCI takes the
/// plain number.
fn score_text(dialect: Dialect, score: Score) -> String {
    if dialect == Dialect::Ucci {
        return score.to_string();
    }
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

fn info_line(dialect: Dialect, info: &SearchInfo<Move>) -> String {
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    let ms = info.stats.time.as_millis();
    format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
        info.depth,
        info.stats.seldepth,
        score_text(dialect, info.score),
        info.stats.nodes,
        info.stats.nps(),
        ms,
        pv.join(" ")
    )
}

#[allow(clippy::too_many_arguments)]
fn search_and_report(
    dialect: Dialect,
    out: &Out,
    engine: &Mutex<Engine>,
    pos: &Position,
    limits: &SearchLimits,
    _start: Instant,
    hold: &AtomicBool,
    stop: &AtomicBool,
) {
    let result = match engine.lock() {
        Ok(mut e) => e.think(pos, limits, |info| say(out, &info_line(dialect, info))),
        Err(_) => return say(out, "info string error: engine unavailable"),
    };
    while hold.load(Ordering::Relaxed) && !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(2));
    }
    // Whatever the search returned, a legal move is answered whenever one exists.
    let legal = pos.legal_move_list();
    let legal = legal.as_slice();
    let best = result
        .best_move
        .filter(|mv| legal.contains(mv))
        .or_else(|| legal.first().copied());
    match best {
        Some(mv) => {
            let ponder = if result.best_move == Some(mv) {
                result.pv.get(1).map(|p| format!(" ponder {p}"))
            } else {
                None
            };
            say(out, &format!("bestmove {mv}{}", ponder.unwrap_or_default()));
        }
        None => say(
            out,
            if dialect == Dialect::Ucci {
                "nobestmove"
            } else {
                "bestmove (none)"
            },
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Default)]
    struct Buf(Arc<Mutex<Vec<u8>>>);
    impl Write for Buf {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0
                .lock()
                .map_err(|_| io::ErrorKind::Other)?
                .extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn talk(dialect: Dialect, script: &str) -> String {
        talk_bytes(dialect, script.as_bytes())
    }

    fn talk_bytes(dialect: Dialect, script: &[u8]) -> String {
        let buf = Buf::default();
        run(dialect, script, buf.clone(), EngineConfig::default()).expect("io");
        let bytes = buf.0.lock().expect("lock").clone();
        String::from_utf8(bytes).expect("utf8")
    }

    /// Each hostile line, then `isready`: the engine is still there and answers `readyok`.
    #[test]
    fn any_bytes_are_answered_and_the_engine_stays_ready() {
        let mut long = b"position startpos moves ".to_vec();
        long.extend(std::iter::repeat_n(b'h', 1 << 20));
        let hostile: Vec<Vec<u8>> = vec![
            // GBK: "setoption name 棋谱 value C:\象棋" as a Chinese GUI sends it.
            b"setoption name \xc6\xe5\xc6\xd7 value C:\\\xcf\xf3\xc6\xe5".to_vec(),
            b"\xff\xfe\xfd".to_vec(),
            b"isready\0".to_vec(),
            b"\0\0\0".to_vec(),
            long,
            // (Hash values past the maximum are in the test below: 4 GiB once is enough.)
            b"setoption name Hash value -1".to_vec(),
            b"setoption name Threads value 100000".to_vec(),
            b"go depth 99999999999999999999 movetime 1".to_vec(),
            b"go nodes 18446744073709551615 movetime 1".to_vec(),
            b"go wtime 18446744073709551615 winc 18446744073709551615 movestogo 4294967296"
                .to_vec(),
            b"go time 99999999999999999999 increment 99999999999999999999 depth 1".to_vec(),
            b"position fen \xe8\xbd\xa6 w".to_vec(),
            b"\r\r\r".to_vec(),
        ];
        for dialect in [Dialect::Uci, Dialect::Ucci] {
            for line in &hostile {
                let mut script = line.clone();
                script.extend_from_slice(b"\nstop\nisready\n");
                let out = talk_bytes(dialect, &script);
                assert!(
                    out.lines().any(|l| l == "readyok"),
                    "{:?}: {out}",
                    String::from_utf8_lossy(&line[..line.len().min(60)])
                );
            }
        }
    }

    #[test]
    fn absurd_values_are_clamped_and_said_so() {
        let out = talk(
            Dialect::Uci,
            "setoption name Hash value 999999999999999999999999999\nsetoption name Threads value 0\ngo depth 99999999999999999999 nodes 2000\nisready\n",
        );
        assert!(
            out.contains("info string Hash 18446744073709551615 clamped to 4096"),
            "{out}"
        );
        assert!(out.contains("info string Threads 0 clamped to 1"), "{out}");
        assert!(
            out.contains("info string go: depth 18446744073709551615 clamped to 120"),
            "{out}"
        );
        assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
        let out = talk_bytes(Dialect::Uci, b"\xc6\xe5\nisready\n");
        assert!(out.contains("info string error: unknown command"), "{out}");
        assert!(out.contains("readyok"), "{out}");
    }

    #[test]
    fn evalfile_default_is_the_evaluation_the_engine_started_with() {
        let buf = Buf::default();
        let config = EngineConfig {
            net: crate::nnue::default_net(),
            ..EngineConfig::default()
        };
        run(Dialect::Uci, &b"uci\n"[..], buf.clone(), config).expect("io");
        let out = String::from_utf8(buf.0.lock().expect("lock").clone()).expect("utf8");
        assert!(
            out.contains("option name EvalFile type string default net"),
            "{out}"
        );
    }

    #[test]
    fn evalfile_loads_the_net_or_says_why_not() {
        for dialect in [Dialect::Uci, Dialect::Ucci] {
            let (set, hello) = match dialect {
                Dialect::Uci => ("setoption name EvalFile value", "uci"),
                Dialect::Ucci => ("setoption EvalFile", "ucci"),
            };
            let out = talk(
                dialect,
                &format!(
                    "{hello}\n{set} /nonexistent/x.qnet\n{set} net\nposition startpos\ngo depth 3\n\
                     {set} hand\nisready\n"
                ),
            );
            assert!(
                out.contains("option name EvalFile type string default hand"),
                "{out}"
            );
            assert!(
                out.contains("EvalFile: ") && out.contains("/nonexistent/x.qnet"),
                "{out}"
            );
            assert!(
                out.contains("info string EvalFile net: a 1260-128-32 Xiangqi net"),
                "{out}"
            );
            assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
            assert!(out.contains("info string EvalFile hand"), "{out}");
            assert!(out.contains("readyok"), "{out}");
        }
    }

    #[test]
    fn uci_handshake_and_search() {
        let out = talk(
            Dialect::Uci,
            "uci\nisready\nposition startpos moves h2e2 h9g7\ngo depth 3\n",
        );
        assert!(out.contains("uciok"));
        assert!(out.contains("readyok"));
        assert!(out.contains("info depth 3"));
        assert!(out.lines().any(|l| l.starts_with("bestmove ")));
    }

    #[test]
    fn ucci_handshake_and_timed_search() {
        let out = talk(
            Dialect::Ucci,
            "ucci\nposition fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\ngo time 2000 increment 0\nquit\n",
        );
        assert!(out.contains("ucciok"));
        assert!(out.lines().any(|l| l.starts_with("bestmove ")));
        assert!(out.trim_end().ends_with("bye"));
    }

    #[test]
    fn bad_lines_are_reported_and_the_position_kept() {
        let out = talk(
            Dialect::Uci,
            "position startpos moves h2e2\nposition startpos moves h2e2 z9z9\nfoo\ngo depth x\nsetoption name Hash value -3\nd\n",
        );
        assert!(out.contains("info string error: move z9z9"));
        assert!(out.contains("unknown command 'foo'"));
        assert!(out.contains("go: 'depth' needs a number"));
        assert!(out.contains("Hash must be"));
        // The position after the failed command is still the one after h2e2.
        assert!(out.contains(
            "info string fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b"
        ));
    }

    #[test]
    fn stop_ends_an_infinite_search() {
        let out = talk(
            Dialect::Uci,
            "position startpos\ngo infinite\nisready\nstop\n",
        );
        assert!(out.contains("readyok"));
        assert!(out.lines().any(|l| l.starts_with("bestmove ")));
    }

    /// The `bestmove` of `out`, checked legal in `pos` (raw move generation, whatever our own
    /// rule endings say).
    fn legal_answer(out: &str, pos: &Position) -> Move {
        let line = out
            .lines()
            .find(|l| l.starts_with("bestmove") || *l == "nobestmove")
            .unwrap_or_else(|| panic!("no answer in {out}"));
        let text = line.split_whitespace().nth(1).unwrap_or("");
        let mv = pos
            .parse_move_text(text)
            .unwrap_or_else(|e| panic!("'{line}' is not legal: {e}\n{out}"));
        assert!(pos.legal_move_list().as_slice().contains(&mv));
        mv
    }

    #[test]
    fn past_our_own_rule_endings_a_legal_move_is_still_answered() {
        // 60-move rule (halfmove clock 130), third repetition, and no attackers left: our rules
        // end each game, the GUI plays on, so each dialect answers a legal move.
        let cases = [
            "position fen 3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 130 80".to_string(),
            format!(
                "position startpos moves {}",
                ["h2e2 h9g7 e2h2 g7h9"; 3].join(" ")
            ),
            "position fen 3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1".to_string(),
        ];
        for case in &cases {
            let mut session = Session::new(Dialect::Uci, io::sink(), EngineConfig::default());
            session.handle(case);
            let pos = session.position.clone();
            assert!(pos.rule_ending().is_some(), "{case}: not a rule ending");
            for dialect in [Dialect::Uci, Dialect::Ucci] {
                let out = talk(dialect, &format!("{case}\ngo movetime 50\n"));
                legal_answer(&out, &pos);
                assert!(
                    out.contains("info string qiyi's rules end the game"),
                    "{out}"
                );
            }
        }
    }

    #[test]
    fn no_legal_move_is_the_only_nobestmove() {
        // Red is mated: no legal move, so UCCI says nobestmove and UCI bestmove (none).
        let mate = "position fen 3k5/R8/9/9/9/9/9/9/9/1R2K4 w moves b0b9";
        let out = talk(Dialect::Ucci, &format!("{mate}\ngo depth 2\n"));
        assert!(out.lines().any(|l| l == "nobestmove"), "{out}");
        let out = talk(Dialect::Uci, &format!("{mate}\ngo depth 2\n"));
        assert!(out.lines().any(|l| l == "bestmove (none)"), "{out}");
    }

    #[test]
    fn mate_scores_are_reported_in_moves() {
        assert_eq!(score_text(Dialect::Uci, MATE - 1), "mate 1");
        assert_eq!(score_text(Dialect::Uci, MATE - 3), "mate 2");
        assert_eq!(score_text(Dialect::Uci, -(MATE - 2)), "mate -1");
        assert_eq!(score_text(Dialect::Uci, 35), "cp 35");
    }
}
