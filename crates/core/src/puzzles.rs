//! Puzzles for players: the one model every game's miner fills, and its JSON Lines file.
//!
//! Not to be confused with [`crate::puzzle`], which holds the generic single-agent *solvers*
//! (BFS, A*, IDA*, ...) over core's [`crate::game::Puzzle`] trait. This module is the *content*
//! shown to a player: a position, the move to find and the proof that it is the right one.
//!
//! A [`PuzzleRecord`] is written once here; each game crate supplies the miner that finds
//! positions and the prover that proves them (peg solitaire: `qiyi_peg_solitaire::puzzles`).
//!
//! # The file format
//!
//! One file per game, [JSON Lines](https://jsonlines.org): one puzzle per line, UTF-8, each line
//! one JSON object; blank lines are skipped. A line looks like this (wrapped here):
//!
//! ```text
//! {"id":"peg-english-7-0-12","game":"peg-solitaire","variant":"english",
//!  "position":"  ooo\n  o.o\n...","goal":"one peg in d4","side":"player",
//!  "solution":["d6-d4","b5-d5",...],"asked":[0],"themes":["only-move","pegs-12"],
//!  "rating":{"rating":1540.0,"deviation":350.0,"volatility":0.06},
//!  "source":{"kind":"self_play","seed":7,"game":0,"ply":19},
//!  "proof":{"kind":"exact","by":"solver","detail":"..."}}
//! ```
//!
//! - `id`: unique within the file; `game`: the game's name (`peg-solitaire`, `xiangqi`, ...);
//!   `variant`: the board or rule variant when the game has several (peg: the board name, whose
//!   own problem defines the finish), else absent.
//! - `position`: the game's own text notation for a position (peg: the board picture, `o` peg,
//!   `.` hole; Xiangqi: FEN; checkers: FEN).
//! - `goal`: what the player must achieve, in words, when the game has no winner to say it.
//! - `side`: the side to find the move, in the game's own words (`red`, `black`, `player`, ...).
//! - `solution`: the whole line, the player's moves and the forced replies, as the game's move
//!   texts; `asked`: the indices in `solution` of the moves the player is asked to find, each
//!   proven unique (the other moves are played for the player or shown).
//! - `themes`: free strings (`only-move`, `mate-in-2`, ...).
//! - `rating`: Glicko-2 rating, deviation and volatility. A new puzzle starts at the miner's
//!   estimate of its rating, deviation [`Rating::START_DEVIATION`] (350: nothing observed yet)
//!   and volatility [`Rating::START_VOLATILITY`] (0.06), the usual Glicko-2 start values.
//! - `source`: where it came from, see [`Source`]; `proof`: why the answer is right, see [`Proof`].
//!
//! [`read_puzzles`] never panics, whatever the bytes: each failure is a [`PuzzleFileError`]
//! naming the line.
//!
//! ```
//! use qiyi_core::puzzles::{read_puzzles, write_puzzles, Proof, PuzzleRecord, Rating, Source};
//!
//! let p = PuzzleRecord {
//!     id: "t-1".into(),
//!     game: "toy".into(),
//!     variant: None,
//!     position: "x".into(),
//!     goal: None,
//!     side: "player".into(),
//!     solution: vec!["a".into()],
//!     asked: vec![0],
//!     themes: vec![],
//!     rating: Rating::estimate(1500.0),
//!     source: Source::Enumeration { by: "test".into(), index: 0 },
//!     proof: Proof::Exact { by: "solver".into(), detail: "all moves searched".into() },
//! };
//! let mut out = Vec::new();
//! write_puzzles(&mut out, std::slice::from_ref(&p)).unwrap();
//! let back = read_puzzles(&out[..]).unwrap();
//! assert_eq!(back, vec![p]);
//! ```

use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

/// The longest line [`read_puzzles`] accepts, in bytes.
pub const MAX_LINE: usize = 1 << 20;

/// One puzzle: a position, the move(s) to find, and the proof (see the module docs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRecord {
    /// Unique within its file.
    pub id: String,
    /// The game (`peg-solitaire`, `xiangqi`, `checkers`, `chinese-checkers`, `aeroplane`).
    pub game: String,
    /// The board or rule variant, when the game has several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The position in the game's own text notation.
    pub position: String,
    /// What the player must achieve, in words (when the game has no winner to say it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// The side to find the move, in the game's own words.
    pub side: String,
    /// The solution line: the player's moves and the forced replies, as move texts.
    pub solution: Vec<String>,
    /// Indices into `solution` of the moves the player must find (each proven unique).
    pub asked: Vec<usize>,
    /// Themes (`only-move`, `mate-in-2`, ...).
    #[serde(default)]
    pub themes: Vec<String>,
    /// The difficulty, as a Glicko-2 rating.
    pub rating: Rating,
    /// Where the puzzle came from.
    pub source: Source,
    /// Why the solution is right.
    pub proof: Proof,
}

/// A Glicko-2 rating (rating scale, as lichess shows it).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (1500 = the Glicko-2 start).
    pub rating: f64,
    /// The rating deviation (350 = nothing observed yet).
    pub deviation: f64,
    /// The volatility (0.06 at the start).
    pub volatility: f64,
}

impl Rating {
    /// The Glicko-2 start rating.
    pub const START: f64 = 1500.0;
    /// The Glicko-2 start deviation: nothing observed yet.
    pub const START_DEVIATION: f64 = 350.0;
    /// The Glicko-2 start volatility.
    pub const START_VOLATILITY: f64 = 0.06;

    /// A new puzzle's rating: the miner's estimate, with the start deviation and volatility.
    pub fn estimate(rating: f64) -> Rating {
        Rating {
            rating,
            deviation: Self::START_DEVIATION,
            volatility: Self::START_VOLATILITY,
        }
    }
}

impl Default for Rating {
    fn default() -> Self {
        Rating::estimate(Rating::START)
    }
}

/// Where a puzzle came from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Source {
    /// A seeded self-play game (or random playout): replaying game `game` of seed `seed` reaches
    /// the position after `ply` moves.
    SelfPlay {
        /// The run's seed.
        seed: u64,
        /// The game's index in the run (its random stream is `Rng::derive(seed, game)`).
        game: u64,
        /// Moves played before the puzzle's position.
        ply: u32,
    },
    /// A reviewed game: the player's mistake at `ply` of the game `game` (a record id or file).
    Review {
        /// The game record.
        game: String,
        /// The ply of the mistake.
        ply: u32,
    },
    /// A game of a record file (`qiyi puzzles mine GAME --from FILE`): the position after `ply`
    /// moves of the `game`-th game (1-based) of `file`.
    Record {
        /// The record file, as named on the command line.
        file: String,
        /// The game's number in the file (1 = the first).
        game: u64,
        /// Moves played before the puzzle's position.
        ply: u32,
    },
    /// A solver's enumeration of positions.
    Enumeration {
        /// What enumerated them.
        by: String,
        /// The position's index in the enumeration.
        index: u64,
    },
}

/// Why a puzzle's solution is right.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Proof {
    /// Proven exactly: every alternative was searched to the end or looked up.
    Exact {
        /// What proved it: `database`, `solver`, `mate search`.
        by: String,
        /// What was proven, in words.
        detail: String,
    },
    /// An engine verdict: the best move beats every other by `margin_cp` at `depth`.
    Engine {
        /// The search depth, in plies.
        depth: u32,
        /// The margin over the second-best move, in centipawns.
        margin_cp: i32,
        /// The second-best move, as a move text.
        second_best: String,
    },
    /// A review judge's estimate that is neither exact nor a search at a depth (a win-chance
    /// model, a race model): the answer keeps `margin` more win chance (0-1) than `worse`.
    Estimate {
        /// What judged it (the review's judge, in words).
        by: String,
        /// The win chance the answer keeps over `worse`.
        margin: f64,
        /// The worse move (the one played), as a move text.
        worse: String,
    },
}

/// Why a puzzle file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleFileError {
    /// Reading or writing failed.
    #[error("line {line}: {source}")]
    Io {
        /// The line (1-based).
        line: usize,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// A line is longer than [`MAX_LINE`].
    #[error("line {line}: longer than {MAX_LINE} bytes")]
    TooLong {
        /// The line (1-based).
        line: usize,
    },
    /// A line is not valid UTF-8.
    #[error("line {line}: not UTF-8")]
    NotUtf8 {
        /// The line (1-based).
        line: usize,
    },
    /// A line is not a puzzle in JSON.
    #[error("line {line}: not a puzzle: {source}")]
    Json {
        /// The line (1-based).
        line: usize,
        /// The JSON error.
        #[source]
        source: serde_json::Error,
    },
    /// A line is a puzzle, but an inconsistent one.
    #[error("line {line}: {reason}")]
    Invalid {
        /// The line (1-based).
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

impl PuzzleRecord {
    /// Checks what the type cannot say: non-empty fields, `asked` inside the solution, a finite
    /// rating with a positive deviation.
    pub fn validate(&self) -> Result<(), String> {
        if self.id.trim().is_empty() {
            return Err("empty id".into());
        }
        if self.game.trim().is_empty() {
            return Err("empty game".into());
        }
        if self.position.trim().is_empty() {
            return Err("empty position".into());
        }
        if self.solution.is_empty() {
            return Err("empty solution".into());
        }
        if self.asked.is_empty() {
            return Err("no move asked".into());
        }
        if let Some(&i) = self.asked.iter().find(|&&i| i >= self.solution.len()) {
            return Err(format!(
                "asked move {i} is past the solution's {} moves",
                self.solution.len()
            ));
        }
        if self.asked.windows(2).any(|w| w[0] >= w[1]) {
            return Err("asked indices must increase".into());
        }
        let r = &self.rating;
        if !(r.rating.is_finite() && r.deviation.is_finite() && r.volatility.is_finite())
            || r.deviation <= 0.0
            || r.volatility <= 0.0
        {
            return Err("rating, deviation and volatility must be finite, deviation and volatility positive".into());
        }
        Ok(())
    }
}

/// Reads one puzzle per line, with the 1-based line number of each; blank lines are skipped.
/// Stops at the first bad line.
pub fn read_puzzles_numbered<R: BufRead>(
    mut input: R,
) -> Result<Vec<(usize, PuzzleRecord)>, PuzzleFileError> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    let mut line = 0usize;
    loop {
        line += 1;
        buf.clear();
        let n = input
            .by_ref()
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|source| PuzzleFileError::Io { line, source })?;
        if n == 0 {
            return Ok(out);
        }
        if buf.last() == Some(&b'\n') {
            buf.pop();
        } else if buf.len() > MAX_LINE {
            return Err(PuzzleFileError::TooLong { line });
        }
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        let text = std::str::from_utf8(&buf).map_err(|_| PuzzleFileError::NotUtf8 { line })?;
        if text.trim().is_empty() {
            continue;
        }
        let p: PuzzleRecord =
            serde_json::from_str(text).map_err(|source| PuzzleFileError::Json { line, source })?;
        p.validate()
            .map_err(|reason| PuzzleFileError::Invalid { line, reason })?;
        out.push((line, p));
    }
}

/// Reads one puzzle per line (blank lines skipped); see [`read_puzzles_numbered`].
pub fn read_puzzles<R: BufRead>(input: R) -> Result<Vec<PuzzleRecord>, PuzzleFileError> {
    Ok(read_puzzles_numbered(input)?
        .into_iter()
        .map(|(_, p)| p)
        .collect())
}

/// Writes one puzzle per line (each validated first).
pub fn write_puzzles<W: Write>(
    mut out: W,
    puzzles: &[PuzzleRecord],
) -> Result<(), PuzzleFileError> {
    for (i, p) in puzzles.iter().enumerate() {
        let line = i + 1;
        p.validate()
            .map_err(|reason| PuzzleFileError::Invalid { line, reason })?;
        let text =
            serde_json::to_string(p).map_err(|source| PuzzleFileError::Json { line, source })?;
        writeln!(out, "{text}").map_err(|source| PuzzleFileError::Io { line, source })?;
    }
    out.flush().map_err(|source| PuzzleFileError::Io {
        line: puzzles.len(),
        source,
    })
}

/// Why a resumable mining run could not be opened or written.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The run log names another run.
    #[error("{path} belongs to another run ({found}); this one is: {want}")]
    OtherRun {
        /// The run log.
        path: PathBuf,
        /// Its first line.
        found: String,
        /// This run's manifest.
        want: String,
    },
    /// A puzzle file with puzzles and no run log: not a run that can be resumed.
    #[error("{out} exists without {log}: not a run this command can resume")]
    NoLog {
        /// The puzzle file.
        out: PathBuf,
        /// The run log expected beside it.
        log: PathBuf,
    },
    /// A line of the run log is not a game index.
    #[error("{path}: `{line}` is not a game index")]
    BadLog {
        /// The run log.
        path: PathBuf,
        /// The line.
        line: String,
    },
    /// The puzzle file cannot be read or written.
    #[error("{path}: {source}")]
    Puzzles {
        /// The puzzle file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: PuzzleFileError,
    },
}

/// A resumable mining run over the seeded games of a miner: the puzzle file, and beside it
/// `FILE.games`, whose first line is the run's manifest (every option that changes the puzzles)
/// and whose other lines are the indices of the games mined, each written after its puzzles.
/// Opening the same run again skips those games; another run's options on the same file are
/// refused. A game cut short before its index is written is mined again, and its puzzles already
/// in the file are skipped by id. Positions already kept (by a key the miner chooses, such as the
/// board and the side to move) are kept once.
#[derive(Debug)]
pub struct MiningRun {
    out_path: PathBuf,
    log_path: PathBuf,
    out: std::fs::File,
    log: std::fs::File,
    done: HashSet<u64>,
    ids: HashSet<String>,
    keys: HashSet<String>,
    key: fn(&PuzzleRecord) -> String,
    /// Puzzles in the file before this run was opened.
    pub kept_before: usize,
}

/// The run log beside a puzzle file: `FILE.games`.
pub fn run_log_path(out: &Path) -> PathBuf {
    let mut p = out.as_os_str().to_owned();
    p.push(".games");
    PathBuf::from(p)
}

impl MiningRun {
    /// Opens (or starts) the run `manifest` writing to `out`; `key` names a position, so that
    /// equal positions are kept once.
    pub fn open(
        out: &Path,
        manifest: &str,
        key: fn(&PuzzleRecord) -> String,
    ) -> Result<MiningRun, RunError> {
        let log_path = run_log_path(out);
        let io_err = |path: &Path| {
            let path = path.to_path_buf();
            move |source| RunError::Io { path, source }
        };
        let mut done = HashSet::new();
        let mut keys = HashSet::new();
        let mut ids = HashSet::new();
        let mut kept_before = 0;
        if log_path.exists() {
            let text = std::fs::read_to_string(&log_path).map_err(io_err(&log_path))?;
            let mut lines = text.lines();
            let head = lines.next().unwrap_or("");
            if head != manifest {
                return Err(RunError::OtherRun {
                    path: log_path,
                    found: head.to_string(),
                    want: manifest.to_string(),
                });
            }
            for l in lines.filter(|l| !l.trim().is_empty()) {
                let i = l.trim().parse::<u64>().map_err(|_| RunError::BadLog {
                    path: log_path.clone(),
                    line: l.to_string(),
                })?;
                done.insert(i);
            }
        } else if out.exists() && std::fs::metadata(out).map_err(io_err(out))?.len() > 0 {
            return Err(RunError::NoLog {
                out: out.to_path_buf(),
                log: log_path,
            });
        }
        if out.exists() {
            let file = std::fs::File::open(out).map_err(io_err(out))?;
            for p in read_puzzles(io::BufReader::new(file)).map_err(|source| RunError::Puzzles {
                path: out.to_path_buf(),
                source,
            })? {
                keys.insert(key(&p));
                ids.insert(p.id);
                kept_before += 1;
            }
        }
        let mut log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log_path)
            .map_err(io_err(&log_path))?;
        if done.is_empty()
            && std::fs::metadata(&log_path)
                .map_err(io_err(&log_path))?
                .len()
                == 0
        {
            writeln!(log, "{manifest}").map_err(io_err(&log_path))?;
        }
        let out_file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(out)
            .map_err(io_err(out))?;
        Ok(MiningRun {
            out_path: out.to_path_buf(),
            log_path,
            out: out_file,
            log,
            done,
            ids,
            keys,
            key,
            kept_before,
        })
    }

    /// The games of `0..games` not mined yet, in order.
    pub fn todo(&self, games: u64) -> Vec<u64> {
        (0..games).filter(|i| !self.done.contains(i)).collect()
    }

    /// Appends the puzzles of the games `games` (in game order) that are new by id and by
    /// position, then records the games as mined; returns the puzzles written and the number of
    /// duplicates skipped.
    pub fn commit(
        &mut self,
        games: &[u64],
        puzzles: Vec<PuzzleRecord>,
    ) -> Result<(Vec<PuzzleRecord>, u64), RunError> {
        let mut new = Vec::new();
        let mut duplicates = 0;
        for p in puzzles {
            if self.ids.contains(&p.id) || !self.keys.insert((self.key)(&p)) {
                duplicates += 1;
                continue;
            }
            self.ids.insert(p.id.clone());
            new.push(p);
        }
        write_puzzles(&mut self.out, &new).map_err(|source| RunError::Puzzles {
            path: self.out_path.clone(),
            source,
        })?;
        let log_err = |source| RunError::Io {
            path: self.log_path.clone(),
            source,
        };
        let mut text = String::new();
        for i in games {
            text.push_str(&format!("{i}\n"));
            self.done.insert(*i);
        }
        self.log.write_all(text.as_bytes()).map_err(log_err)?;
        self.log.flush().map_err(|source| RunError::Io {
            path: self.log_path.clone(),
            source,
        })?;
        Ok((new, duplicates))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_review_puzzle_with_an_estimate_proof_round_trips() {
        let mut p = sample(3);
        p.source = Source::Review {
            game: "g".into(),
            ply: 7,
        };
        p.proof = Proof::Estimate {
            by: "win-chance model".into(),
            margin: 0.25,
            worse: "b".into(),
        };
        let mut out = Vec::new();
        write_puzzles(&mut out, std::slice::from_ref(&p)).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(
            text.contains(
                r#""proof":{"kind":"estimate","by":"win-chance model","margin":0.25,"worse":"b"}"#
            ),
            "{text}"
        );
        assert!(
            text.contains(r#""source":{"kind":"review","game":"g","ply":7}"#),
            "{text}"
        );
        assert_eq!(read_puzzles(&out[..]).unwrap(), vec![p]);
    }

    fn sample(i: u64) -> PuzzleRecord {
        PuzzleRecord {
            id: format!("p-{i}"),
            game: "peg-solitaire".into(),
            variant: Some("english".into()),
            position: "  ooo\n  o.o\n".into(),
            goal: Some("one peg in d4".into()),
            side: "player".into(),
            solution: vec!["d6-d4".into(), "b5-d5".into()],
            asked: vec![0],
            themes: vec!["only-move".into()],
            rating: Rating::estimate(1234.5),
            source: match i % 4 {
                0 => Source::SelfPlay {
                    seed: 7,
                    game: i,
                    ply: 3,
                },
                1 => Source::Review {
                    game: "g.json".into(),
                    ply: 12,
                },
                2 => Source::Record {
                    file: "games.pgn".into(),
                    game: 2,
                    ply: 31,
                },
                _ => Source::Enumeration {
                    by: "solver".into(),
                    index: i,
                },
            },
            proof: if i % 2 == 0 {
                Proof::Exact {
                    by: "solver".into(),
                    detail: "d".into(),
                }
            } else {
                Proof::Engine {
                    depth: 12,
                    margin_cp: 250,
                    second_best: "h2e2".into(),
                }
            },
        }
    }

    #[test]
    fn round_trip_every_source_and_proof() {
        let ps: Vec<_> = (0..6).map(sample).collect();
        let mut out = Vec::new();
        write_puzzles(&mut out, &ps).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert_eq!(text.lines().count(), 6);
        assert!(text.contains(r#""kind":"self_play""#), "{text}");
        assert!(text.contains(r#""kind":"engine""#), "{text}");
        assert_eq!(read_puzzles(&out[..]).unwrap(), ps);
        // Blank lines and CRLF are accepted; line numbers count them.
        let crlf = format!("\r\n{}", text.replace('\n', "\r\n"));
        let numbered = read_puzzles_numbered(crlf.as_bytes()).unwrap();
        assert_eq!(numbered.len(), 6);
        assert_eq!(numbered[0].0, 2);
        assert_eq!(numbered[5].1, ps[5]);
    }

    #[test]
    fn hostile_lines_are_errors_naming_the_line() {
        let good = serde_json::to_string(&sample(0)).unwrap();
        let cases: Vec<(Vec<u8>, usize, &str)> = vec![
            (
                format!("{good}\nnot json\n").into_bytes(),
                2,
                "not a puzzle",
            ),
            (format!("{good}\n{{}}\n").into_bytes(), 2, "not a puzzle"),
            (b"[1,2,3]\n".to_vec(), 1, "not a puzzle"),
            (vec![0xff, 0xfe, b'\n'], 1, "not UTF-8"),
            (
                good.replace(r#""asked":[0]"#, r#""asked":[9]"#)
                    .into_bytes(),
                1,
                "past the solution",
            ),
            (
                good.replace(r#""solution":["d6-d4","b5-d5"]"#, r#""solution":[]"#)
                    .into_bytes(),
                1,
                "empty solution",
            ),
            (
                good.replace(r#""deviation":350.0"#, r#""deviation":-1.0"#)
                    .into_bytes(),
                1,
                "deviation",
            ),
            (
                good.replace(r#""kind":"self_play""#, r#""kind":"dream""#)
                    .into_bytes(),
                1,
                "not a puzzle",
            ),
            (
                format!("{good}\n\n{}", "x".repeat(MAX_LINE + 5)).into_bytes(),
                3,
                "longer than",
            ),
        ];
        for (bytes, line, want) in cases {
            let err = read_puzzles(&bytes[..]).unwrap_err();
            let msg = err.to_string();
            assert!(msg.starts_with(&format!("line {line}: ")), "{msg}");
            assert!(msg.contains(want), "{want}: {msg}");
        }
    }

    #[test]
    fn writing_an_invalid_puzzle_is_refused() {
        let mut p = sample(0);
        p.asked.clear();
        let err = write_puzzles(Vec::new(), &[sample(1), p]).unwrap_err();
        assert_eq!(err.to_string(), "line 2: no move asked");
    }

    #[test]
    fn a_mining_run_resumes_and_refuses_another() {
        let dir = std::env::temp_dir().join(format!("qiyi-core-run-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("p.jsonl");
        let key = |p: &PuzzleRecord| p.position.clone();
        let mut run = MiningRun::open(&out, "run A", key).unwrap();
        assert_eq!(run.todo(3), vec![0, 1, 2]);
        let (new, dups) = run
            .commit(&[0, 1], vec![sample(0), sample(1), sample(0)])
            .unwrap();
        assert_eq!((new.len(), dups), (1, 2), "same position kept once");
        drop(run);
        let mut run = MiningRun::open(&out, "run A", key).unwrap();
        assert_eq!(run.kept_before, 1);
        assert_eq!(run.todo(3), vec![2]);
        let (new, _) = run.commit(&[2], vec![]).unwrap();
        assert!(new.is_empty());
        let err = MiningRun::open(&out, "run B", key).unwrap_err();
        assert!(err.to_string().contains("another run"), "{err}");
        std::fs::remove_file(run_log_path(&out)).unwrap();
        let err = MiningRun::open(&out, "run A", key).unwrap_err();
        assert!(err.to_string().contains("exists without"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    proptest! {
        #[test]
        fn any_bytes_read_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
            let _ = read_puzzles(&bytes[..]);
        }

        #[test]
        fn mutated_lines_read_without_panic(cut in 0usize..600, byte in any::<u8>()) {
            let mut bytes = serde_json::to_string(&sample(cut as u64)).unwrap().into_bytes();
            let i = cut % bytes.len();
            bytes[i] = byte;
            if let Ok(ps) = read_puzzles(&bytes[..]) {
                for p in ps {
                    prop_assert!(p.validate().is_ok());
                }
            }
        }
    }
}
