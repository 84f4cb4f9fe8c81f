//! `qiyi serve`: play every game in the browser (the server lives in qiyi-web).

use crate::common::{print_json, Global};
use anyhow::Context;
use clap::Args;

/// Arguments of `qiyi serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to bind; keep the loopback default unless you mean to expose the server
    /// (`--host 0.0.0.0` lets phones and computers on your network join by link).
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// SQLite file of the games (default: `$XDG_DATA_HOME/qiyi/games.sqlite`); `:memory:` keeps
    /// them only until the server stops.
    #[arg(long)]
    pub db: Option<String>,
    /// Largest request body in KiB (larger bodies are refused with 413).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65_536))]
    pub max_body_kb: u32,
    /// Most live connections (pages following a game) open at once.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_live: u32,
    /// Games one client address may create per minute (0: no limit).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    pub games_per_minute: u32,
    /// Most games kept in memory at once.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_games: u32,
    /// Minutes after which an untouched game is dropped.
    #[arg(long, default_value_t = 360, value_parser = clap::value_parser!(u64).range(1..=10_080))]
    pub expiry_minutes: u64,
    /// Game reviews run at once (each takes one core while it runs).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub review_slots: u32,
    /// Game reviews that may wait for a slot; past slots + queue a review is refused (503).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(0..=1000))]
    pub review_queue: u32,
    /// The Xiangqi AI, analysis and review search with `net` (the shipped net), `hand` (the
    /// hand-written evaluation) or the net file at this path (from `qiyi train xiangqi`).
    #[arg(long, default_value = "net")]
    pub xiangqi_eval: String,
    /// The checkers AI, analysis and review search with `net` (the shipped net), `hand` (the
    /// hand-written evaluation) or the net file at this path (a single net from `qiyi train
    /// checkers` or a set by stage from `qiyi nets combine`).
    #[arg(long, default_value = "net")]
    pub checkers_eval: String,
    /// Memory budget in MiB: engine tables, solvers, analyses and reviews draw from it; work that
    /// does not fit waits (reviews) or is refused with 503 and Retry-After. The default fits a
    /// 512 MiB machine.
    #[arg(long, default_value_t = qiyi_web::memory::DEFAULT_MIB)]
    pub memory: usize,
}

/// Runs the server until Ctrl-C, printing its URL first (as JSON with `--json`).
pub fn serve(g: &Global, args: ServeArgs) -> anyhow::Result<()> {
    let memory_mib = qiyi_web::memory::check_mib(args.memory)?;
    let config = qiyi_web::ServeConfig {
        host: args.host.clone(),
        port: args.port,
        store: qiyi_web::store::StoreConfig {
            capacity: args.max_games as usize,
            idle_expiry: std::time::Duration::from_secs(args.expiry_minutes * 60),
        },
        parallel_searches: g.threads(),
        db: args.db.clone().unwrap_or_else(qiyi_web::default_db_path),
        limits: qiyi_web::api::Limits {
            max_body: args.max_body_kb as usize * 1024,
            max_live: args.max_live as usize,
            games_per_minute: (args.games_per_minute > 0).then_some(args.games_per_minute),
            reviews: qiyi_web::review::ReviewLimits {
                running: args.review_slots as usize,
                queued: args.review_queue as usize,
            },
        },
        xiangqi_net: crate::xiangqi_engine::eval_net(&args.xiangqi_eval)
            .context("--xiangqi-eval")?,
        checkers_eval: qiyi_checkers::engine::EvalChoice::parse(&args.checkers_eval)
            .context("--checkers-eval")?,
        memory_mib,
    };
    let json = g.json;
    let db = config.db.clone();
    qiyi_web::serve_blocking(&config, |url| {
        if json {
            let _ =
                print_json(&serde_json::json!({ "url": url, "db": db, "memory_mib": memory_mib }));
        } else {
            println!("qiyi serve: open {url} (Ctrl-C stops); games stored in {db}");
            println!(
                "memory budget: {memory_mib} MiB (engine tables, solvers, analyses and reviews \
                 draw from it; --memory changes it)"
            );
        }
    })
    .with_context(|| format!("serving on {}:{}", args.host, args.port))
}

/// Arguments of `qiyi games`.
#[derive(Args, Debug)]
pub struct GamesArgs {
    #[command(subcommand)]
    pub action: GamesAction,
}

/// What `qiyi games` does.
#[derive(clap::Subcommand, Debug)]
pub enum GamesAction {
    /// List the stored games, newest first.
    List(GamesListArgs),
    /// Print a stored game's record (PGN for Xiangqi, PDN for checkers, JSON for the others).
    Export(GamesExportArgs),
}

/// Arguments of `qiyi games list`.
#[derive(Args, Debug)]
pub struct GamesListArgs {
    /// SQLite file of the games (default: the one `qiyi serve` uses).
    #[arg(long)]
    pub db: Option<String>,
    /// Page (20 games a page).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub page: u32,
}

/// Arguments of `qiyi games export`.
#[derive(Args, Debug)]
pub struct GamesExportArgs {
    /// The game's id (from `qiyi games list`).
    pub id: String,
    /// SQLite file of the games (default: the one `qiyi serve` uses).
    #[arg(long)]
    pub db: Option<String>,
    /// Xiangqi move notation in the PGN.
    #[arg(long, value_parser = ["iccs", "wxf"], default_value = "iccs")]
    pub moves: String,
}

/// Opens the games database at `path` (default: the one `qiyi serve` uses); it must exist.
pub(crate) fn open_db(path: Option<&str>) -> anyhow::Result<qiyi_web::db::Db> {
    let path = path
        .map(str::to_string)
        .unwrap_or_else(qiyi_web::default_db_path);
    if path != ":memory:" && !std::path::Path::new(&path).exists() {
        anyhow::bail!("no game database at {path} (start `qiyi serve --db {path}` first)");
    }
    qiyi_web::db::Db::open(&path).with_context(|| format!("opening {path}"))
}

/// `qiyi games list|export`.
pub fn games(g: &Global, args: GamesArgs) -> anyhow::Result<()> {
    match args.action {
        GamesAction::List(a) => {
            let db = open_db(a.db.as_deref())?;
            let (list, total) = db.list(a.page as usize, qiyi_web::api::PAGE_SIZE)?;
            if g.json {
                print_json(&serde_json::json!({ "games": list, "page": a.page, "total": total }))?;
            } else {
                println!("{total} game(s) in {}; page {}", db.path(), a.page);
                for s in list {
                    println!(
                        "{}  {:<17} {:<8} {:>5} plies  updated {}",
                        s.id,
                        s.game,
                        s.status,
                        s.plies,
                        qiyi_web::record::pgn_date(s.updated)
                    );
                }
            }
            Ok(())
        }
        GamesAction::Export(a) => {
            let db = open_db(a.db.as_deref())?;
            let record = db
                .load(&a.id)?
                .with_context(|| format!("no game {} in {}", a.id, db.path()))?;
            let entry = qiyi_web::store::rebuild(&record)?;
            let exported = qiyi_web::record::export(&entry, Some(&a.moves))?;
            print!("{}", exported.text);
            Ok(())
        }
    }
}
