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
    /// Address to bind; keep the loopback default unless you mean to expose the server.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: String,
    /// Most games kept in memory at once.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    pub max_games: u32,
    /// Minutes after which an untouched game is dropped.
    #[arg(long, default_value_t = 360, value_parser = clap::value_parser!(u64).range(1..=10_080))]
    pub expiry_minutes: u64,
}

/// Runs the server until Ctrl-C, printing its URL first (as JSON with `--json`).
pub fn serve(g: &Global, args: ServeArgs) -> anyhow::Result<()> {
    let config = qiyi_web::ServeConfig {
        host: args.host.clone(),
        port: args.port,
        store: qiyi_web::store::StoreConfig {
            capacity: args.max_games as usize,
            idle_expiry: std::time::Duration::from_secs(args.expiry_minutes * 60),
        },
        parallel_searches: g.threads(),
    };
    let json = g.json;
    qiyi_web::serve_blocking(&config, |url| {
        if json {
            let _ = print_json(&serde_json::json!({ "url": url }));
        } else {
            println!("qiyi serve: open {url} (Ctrl-C stops)");
        }
    })
    .with_context(|| format!("serving on {}:{}", args.host, args.port))
}
