//! Options and helpers shared by every subcommand.

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

/// Options every subcommand accepts.
#[derive(Args, Debug, Clone)]
pub struct Global {
    /// Seed for every random choice; printed with results so runs can be repeated.
    #[arg(long, global = true, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, global = true, value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Machine-readable output: the last line of stdout is one JSON object.
    #[arg(long, global = true)]
    pub json: bool,
}

impl Global {
    /// The number of worker threads to use.
    pub fn threads(&self) -> usize {
        self.threads.map(usize::from).unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
    }
}

/// Prints `value` as one line of JSON on stdout.
pub fn print_json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    println!("{}", serde_json::to_string(value)?);
    Ok(())
}

/// A progress bar on stderr for `len` steps (hidden when stderr is not a terminal).
pub fn progress(len: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed_precise} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    bar.set_message(what.to_string());
    bar
}

/// The limits of an `analyze` command: exactly one of `--movetime MS` and `--depth N`.
pub fn analyze_limits(
    movetime: Option<u64>,
    depth: Option<u32>,
) -> anyhow::Result<qiyi_core::search::SearchLimits> {
    use qiyi_core::search::SearchLimits;
    match (movetime, depth) {
        (Some(ms), None) => Ok(SearchLimits::move_time(std::time::Duration::from_millis(
            ms.max(1),
        ))),
        (None, Some(d)) => Ok(SearchLimits::depth(d)),
        (None, None) => anyhow::bail!("give --movetime MS or --depth N"),
        (Some(_), Some(_)) => anyhow::bail!("give either --movetime or --depth, not both"),
    }
}

/// One line of `analyze` progress: a completed depth with its principal variation.
pub fn print_depth<M>(info: &qiyi_core::search::SearchInfo<M>, pv: &[String]) {
    println!(
        "depth {:>2}  score {:>6}  nodes {:>10}  nps {:>9}  time {:>6} ms  pv {}",
        info.depth,
        info.score,
        info.stats.nodes,
        info.stats.nps(),
        info.stats.time.as_millis(),
        pv.join(" ")
    );
}

/// What `analyze` reports at the end (the `--json` object).
#[derive(Serialize)]
pub struct AnalyzeReport {
    /// Best move in the game's notation (`None` when the game is over).
    pub bestmove: Option<String>,
    /// Score from the side to move's view.
    pub score: i32,
    /// Last completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds spent.
    pub ms: u128,
    /// Principal variation in the game's notation.
    pub pv: Vec<String>,
    /// The position analysed.
    pub fen: String,
    /// The level used.
    pub level: String,
    /// With `--multipv N`: the top root moves at the last completed depth, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lines: Option<Vec<LineReport>>,
}

/// One line of a multi-PV report.
#[derive(Serialize)]
pub struct LineReport {
    /// The root move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Score from the side to move's view.
    pub score: i32,
    /// Whether the line's own search scored higher and `score` was capped at the line above's.
    pub capped: bool,
    /// The line in the game's notation.
    pub pv: Vec<String>,
}

/// Runs `--multipv` and writes its report: each depth's lines (unless `json`), and the report
/// of the last completed depth. `notation` writes a line in the game's notation.
pub fn multipv_report<M>(
    json: bool,
    run: impl FnOnce(
        &mut dyn FnMut(&qiyi_core::search::multipv::MultiPvInfo<M>),
    ) -> Option<qiyi_core::search::multipv::MultiPvInfo<M>>,
    notation: impl Fn(&[M]) -> Vec<String>,
    fen: String,
    level: String,
) -> anyhow::Result<()> {
    let mut on_depth = |info: &qiyi_core::search::multipv::MultiPvInfo<M>| {
        if !json {
            for (i, l) in info.lines.iter().enumerate() {
                println!(
                    "depth {:>2}  multipv {}  score {:>6}{}  nodes {:>10}  time {:>6} ms  pv {}",
                    info.depth,
                    i + 1,
                    l.score,
                    if l.capped { "+" } else { " " },
                    info.stats.nodes,
                    info.stats.time.as_millis(),
                    notation(&l.pv).join(" ")
                );
            }
        }
    };
    let result = run(&mut on_depth);
    let report = match result {
        None => AnalyzeReport {
            bestmove: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            nps: 0,
            ms: 0,
            pv: Vec::new(),
            fen,
            level,
            lines: Some(Vec::new()),
        },
        Some(info) => {
            let lines: Vec<LineReport> = info
                .lines
                .iter()
                .map(|l| {
                    let pv = notation(&l.pv);
                    LineReport {
                        mv: pv.first().cloned().unwrap_or_default(),
                        score: l.score,
                        capped: l.capped,
                        pv,
                    }
                })
                .collect();
            AnalyzeReport {
                bestmove: lines.first().map(|l| l.mv.clone()),
                score: lines.first().map_or(0, |l| l.score),
                depth: info.depth,
                seldepth: info.stats.seldepth,
                nodes: info.stats.nodes,
                nps: info.stats.nps(),
                ms: info.stats.time.as_millis(),
                pv: lines.first().map(|l| l.pv.clone()).unwrap_or_default(),
                fen,
                level,
                lines: Some(lines),
            }
        }
    };
    if !json {
        if let Some(lines) = &report.lines {
            for (i, l) in lines.iter().enumerate() {
                println!("line {}: {} (score {})", i + 1, l.mv, l.score);
            }
        }
    }
    report.print(json)
}

impl AnalyzeReport {
    /// The report of `result`, with moves already written in the game's notation.
    pub fn new<M>(
        result: &qiyi_core::search::SearchResult<M>,
        bestmove: Option<String>,
        pv: Vec<String>,
        fen: String,
        level: String,
    ) -> Self {
        AnalyzeReport {
            bestmove,
            score: result.score,
            depth: result.stats.depth,
            seldepth: result.stats.seldepth,
            nodes: result.stats.nodes,
            nps: result.stats.nps(),
            ms: result.stats.time.as_millis(),
            pv,
            fen,
            level,
            lines: None,
        }
    }

    /// Prints the report: one JSON line with `--json`, else the best move in words.
    pub fn print(&self, json: bool) -> anyhow::Result<()> {
        if json {
            return print_json(self);
        }
        match &self.bestmove {
            Some(m) => println!("bestmove {m} (score {}, depth {})", self.score, self.depth),
            None => println!("no legal move: the game is over"),
        }
        Ok(())
    }
}

/// The leaf count below one root move (`perft --divide`).
#[derive(Serialize)]
pub struct DivideRow {
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub mv: String,
    /// Leaves below it.
    pub nodes: u64,
}

/// What `perft` reports for any game (the `--json` object), printed the same way for all.
#[derive(Serialize)]
pub struct PerftReport {
    /// The game's name (`xiangqi`, `checkers`).
    pub game: &'static str,
    /// The position counted from.
    pub fen: String,
    /// Plies.
    pub depth: u32,
    /// Leaves (1 at depth 0).
    pub nodes: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
    /// Leaves per wall-clock second.
    pub nodes_per_second: f64,
    /// Worker threads.
    pub threads: usize,
    /// How the last ply was counted, where a game offers a choice (`bulk`, `make-unmake`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counting: Option<&'static str>,
    /// The leaves below each root move, with `--divide`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub divide: Option<Vec<DivideRow>>,
}

impl PerftReport {
    /// The report of a perft to `depth` whose root moves (in notation) had `parts` leaves each.
    pub fn new(
        game: &'static str,
        fen: String,
        depth: u32,
        parts: Vec<(String, u64)>,
        seconds: f64,
        threads: usize,
        divide: bool,
    ) -> Self {
        let nodes = if depth == 0 {
            1
        } else {
            parts.iter().map(|&(_, n)| n).sum()
        };
        PerftReport {
            game,
            fen,
            depth,
            nodes,
            seconds,
            nodes_per_second: if seconds > 0.0 {
                nodes as f64 / seconds
            } else {
                0.0
            },
            threads,
            counting: None,
            divide: divide.then(|| {
                parts
                    .into_iter()
                    .map(|(mv, nodes)| DivideRow { mv, nodes })
                    .collect()
            }),
        }
    }

    /// Prints the report: one JSON line with `--json`, else the divide rows and a summary.
    pub fn print(&self, json: bool) -> anyhow::Result<()> {
        if json {
            return print_json(self);
        }
        if let Some(rows) = &self.divide {
            for row in rows {
                println!("{}: {}", row.mv, row.nodes);
            }
            println!();
        }
        println!("fen      {}", self.fen);
        println!("depth    {}", self.depth);
        println!("nodes    {}", self.nodes);
        println!(
            "time     {:.3} s ({:.1} M nodes/s, {} thread{}{})",
            self.seconds,
            self.nodes_per_second / 1e6,
            self.threads,
            if self.threads == 1 { "" } else { "s" },
            self.counting
                .map(|c| format!(", {c} counting"))
                .unwrap_or_default()
        );
        Ok(())
    }
}

/// The process's peak resident set so far, in MiB (`VmHWM` of `/proc/self/status`), for the
/// `memory:` lines the analyses and reviews print on stderr; `None` where the system does not
/// tell (not Linux).
pub fn peak_rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

/// `; peak RSS N MiB` (from [`peak_rss_mib`]), or nothing where the system does not tell.
pub fn peak_rss_note() -> String {
    peak_rss_mib().map_or_else(String::new, |m| format!("; peak RSS {m:.1} MiB"))
}
