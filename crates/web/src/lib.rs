//! qiyi-web: `qiyi serve`, the axum server that lets people play every qiyi game in the browser.
//!
//! The page (plain HTML/CSS/JS in `assets/`, embedded with rust-embed) talks to a JSON API
//! (documented in `API.md`) over games kept in memory ([`store`]). Every game is one
//! [`session::GameSession`], built by [`generic::Session`] from the game's rules and a small
//! [`generic::Adapter`]; AI searches run on blocking threads so they never stall other requests.
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

pub mod api;
pub mod assets;
pub mod engine;
pub mod error;
pub mod games;
pub mod generic;
pub mod session;
pub mod store;

use axum::routing::get;
use axum::Router;
use std::net::SocketAddr;
use std::time::Duration;

pub use error::ApiError;

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
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            host: "127.0.0.1".into(),
            port: 8080,
            store: store::StoreConfig::default(),
            parallel_searches: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(2),
        }
    }
}

/// Errors of starting the server.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The address does not parse or cannot be bound.
    #[error("cannot listen on {0}: {1}")]
    Bind(String, std::io::Error),
    /// The async runtime could not start, or serving failed.
    #[error("server error: {0}")]
    Io(#[from] std::io::Error),
}

/// The whole application: the page, its assets and the API under `/api`.
pub fn router(state: api::AppState) -> Router {
    Router::new()
        .route("/", get(assets::index))
        .route("/play/{game}", get(assets::play))
        .route("/lab", get(assets::lab))
        .route("/assets/{*path}", get(assets::asset))
        .route(
            "/favicon.ico",
            get(|| async { assets::file("favicon.svg") }),
        )
        .nest("/api", api::routes())
        .with_state(state)
}

/// Binds, calls `on_ready` with the page's URL, and serves until Ctrl-C.
pub async fn serve(config: &ServeConfig, on_ready: impl FnOnce(&str)) -> Result<(), ServeError> {
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
    on_ready(&format!("http://{host}:{}/", local.port()));
    let state = api::AppState::new(
        store::Store::new(config.store.clone()),
        config.parallel_searches,
    );
    let purge_store = state.store.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            purge_store.purge_expired();
        }
    });
    axum::serve(listener, router(state))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}

/// [`serve`] on a fresh multi-threaded runtime (for callers without one, like the CLI).
pub fn serve_blocking(config: &ServeConfig, on_ready: impl FnOnce(&str)) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(serve(config, on_ready))
}
