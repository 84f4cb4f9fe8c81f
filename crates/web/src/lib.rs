//! qiyi-web: `qiyi serve`, the axum server that lets people play every qiyi game in the browser.
//!
//! The page (plain HTML/CSS/JS in `assets/`, embedded with rust-embed) talks to a JSON API
//! (documented in `API.md`) over games stored in SQLite ([`db`]) and cached in memory
//! ([`store`]); pages follow a game live ([`live`]) and act for a seat with its token
//! ([`tokens`]). Every game is one
//! [`session::GameSession`], built by [`generic::Session`] from the game's rules and a small
//! [`generic::Adapter`]; AI searches run on blocking threads so they never stall other requests.
//!
//! The feature `server` (on by default) is the server: without it the crate is only its game
//! layer ([`games`], [`generic`], [`session`], [`engine`], [`clock`], [`error`]), which builds
//! for the browser (`crates/wasm`) and which `qiyi play` uses too.
//!
//! ```no_run
//! // Serve on 127.0.0.1:8080 and print the address (what `qiyi serve` does).
//! qiyi_web::serve_blocking(&qiyi_web::ServeConfig::default(), |url| println!("{url}")).unwrap();
//! ```
//!
//! ```
//! // Or build the router and drive it in-process (the integration tests do this).
//! let app = qiyi_web::router(qiyi_web::api::AppState::new(
//!     qiyi_web::store::Store::new(Default::default()), 2));
//! # let _ = app;
//! ```

#![warn(missing_docs)]

pub mod analysis;
#[cfg(feature = "server")]
pub mod analysis_http;
#[cfg(feature = "server")]
pub mod api;
#[cfg(feature = "server")]
pub mod assets;
#[cfg(feature = "server")]
pub mod background;
pub mod clock;
#[cfg(feature = "server")]
pub mod db;
pub mod engine;
pub mod engine_pool;
pub mod error;
pub mod games;
pub mod generic;
#[cfg(feature = "server")]
pub mod host;
pub mod judges;
#[cfg(feature = "server")]
pub mod live;
pub mod memory;
pub mod mistakes;
#[cfg(feature = "server")]
pub mod openapi;
pub mod puzzles;
#[cfg(feature = "server")]
pub mod record;
#[cfg(feature = "server")]
pub mod resign;
#[cfg(feature = "server")]
pub mod review;
pub mod session;
#[cfg(feature = "server")]
pub mod store;
#[cfg(feature = "server")]
pub mod tokens;
pub mod whole;

#[cfg(feature = "server")]
use axum::routing::get;
#[cfg(feature = "server")]
use axum::Router;
#[cfg(feature = "server")]
use std::net::SocketAddr;
#[cfg(feature = "server")]
use std::time::Duration;

pub use error::ApiError;

#[cfg(feature = "server")]
/// Where and how to serve.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Address to bind (default loopback).
    pub host: String,
    /// Port (0 picks a free one).
    pub port: u16,
    /// Limits of the game store.
    pub store: store::StoreConfig,
    /// Searches run at once (default: the number of cores).
    pub parallel_searches: usize,
    /// The SQLite file of the games (`:memory:` keeps them in memory only).
    pub db: String,
    /// Host limits (body size, live connections, games per address per minute).
    pub limits: api::Limits,
    /// The learned evaluation of the Xiangqi AI, analysis and review (`None`: the hand
    /// evaluation); the default is the shipped net.
    pub xiangqi_net: Option<std::sync::Arc<qiyi_core::learn::QuantNet>>,
    /// The evaluation of the checkers AI, analysis and review (a net, a set of nets by stage,
    /// or the hand evaluation); the default is the shipped net.
    pub checkers_eval: qiyi_checkers::engine::EvalChoice,
    /// The memory budget in MiB that engine tables, solvers, analyses and reviews draw from
    /// (default [`memory::DEFAULT_MIB`]; see [`memory`]).
    pub memory_mib: usize,
}

#[cfg(feature = "server")]
/// Where games are stored by default: `$XDG_DATA_HOME/qiyi/games.sqlite` on Linux (the user's
/// data directory elsewhere), or `./qiyi-games.sqlite` when there is none.
pub fn default_db_path() -> String {
    match dirs::data_dir() {
        Some(dir) => dir.join("qiyi").join("games.sqlite").display().to_string(),
        None => "qiyi-games.sqlite".into(),
    }
}

#[cfg(feature = "server")]
impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            host: "127.0.0.1".into(),
            port: 8080,
            store: store::StoreConfig::default(),
            parallel_searches: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
            db: default_db_path(),
            limits: api::Limits {
                games_per_minute: Some(30),
                ..api::Limits::default()
            },
            xiangqi_net: qiyi_xiangqi::nnue::default_net(),
            checkers_eval: qiyi_checkers::engine::EvalChoice::default(),
            memory_mib: memory::DEFAULT_MIB,
        }
    }
}

#[cfg(feature = "server")]
/// Errors of starting the server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address does not parse or cannot be bound.
    #[error("cannot listen on {0}: {1}")]
    Bind(String, std::io::Error),
    /// The database cannot be opened.
    #[error("cannot open the game database: {0}")]
    Db(#[from] db::DbError),
    /// The async runtime could not start, or serving failed.
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
}

#[cfg(feature = "server")]
/// The whole application: the page, its assets and the API under `/api`, with the host layers.
pub fn router(state: api::AppState) -> Router {
    let app = Router::new()
        .route("/", get(assets::index))
        .route("/play/{game}", get(assets::play))
        .route("/games", get(assets::archive))
        .route("/puzzles/{game}", get(assets::puzzles))
        .route("/lab", get(assets::lab))
        .route("/assets/{*path}", get(assets::asset))
        .route(
            "/favicon.ico",
            get(|| async { assets::file("favicon.svg") }),
        )
        .nest("/api", api::routes(&state))
        .with_state(state.clone());
    host::layers(app, &state)
}

#[cfg(feature = "server")]
/// Waits for Ctrl-C or (on Unix) SIGTERM.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}

#[cfg(feature = "server")]
/// Opens the database, binds, calls `on_ready` with the page's URL, and serves until Ctrl-C or
/// SIGTERM; then ends live streams and searches, lets running requests finish (every write is
/// committed before its answer) and checkpoints the database.
pub async fn serve(config: &ServeConfig, on_ready: impl FnOnce(&str)) -> Result<(), ServeError> {
    // Once per process, like the budget: a second server in the same process (tests) keeps the
    // first choice.
    games::xiangqi::set_net(config.xiangqi_net.clone());
    games::checkers::set_eval(config.checkers_eval.clone());
    // Once per process: a second server in the same process (tests) keeps the first budget.
    memory::set_budget(config.memory_mib);
    return_large_blocks_to_the_system();
    let db = db::Db::open(&config.db)?;
    let addr = format!("{}:{}", config.host, config.port);
    let listener = tokio::net::TcpListener::bind(&addr)
        .await
        .map_err(|e| ServeError::Bind(addr.clone(), e))?;
    let local: SocketAddr = listener.local_addr()?;
    let host = if local.is_ipv6() {
        format!("[{}]", local.ip())
    } else {
        local.ip().to_string()
    };
    let state = api::AppState::with_limits(
        store::Store::with_db(config.store.clone(), db),
        config.parallel_searches,
        config.limits.clone(),
    );
    on_ready(&format!("http://{host}:{}/", local.port()));
    // AI seats whose turn it was when the server stopped play on.
    let _ = state.resume_ai_seats();
    let purge_store = state.store.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            purge_store.purge_expired();
            // A database error here is retried at the next tick; the games stay until then.
            let _ = purge_store.purge_scratch();
        }
    });
    let stopping = state.clone();
    axum::serve(
        listener,
        router(state.clone()).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move {
        stop_signal().await;
        stopping.begin_shutdown();
    })
    .await?;
    state.store.db().checkpoint()?;
    Ok(())
}

#[cfg(feature = "server")]
/// Makes glibc's malloc serve every block of 1 MiB or more (engine tables, solver sets) from
/// its own mapping, given back to the system when it is freed. By default glibc raises that
/// threshold to the size of the last such block freed (up to 32 MiB), after which 16 MiB tables
/// come from the heap arenas, whose freed space stays resident: the soak saw the RSS swing
/// between 550 MiB and 1.2 GiB with a few such tables alive. Also caps the arenas at two per
/// core (the default is eight), which holds less free space per thread.
fn return_large_blocks_to_the_system() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let arenas = i32::try_from(cores * 2).unwrap_or(i32::MAX);
        // SAFETY: mallopt only sets malloc's tunables; it is safe to call at any time.
        unsafe {
            libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
            libc::mallopt(libc::M_ARENA_MAX, arenas);
        }
    }
}

#[cfg(feature = "server")]
/// [`serve`] on a fresh multi-threaded runtime (for callers without one, like the CLI).
pub fn serve_blocking(config: &ServeConfig, on_ready: impl FnOnce(&str)) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(config, on_ready))
}
