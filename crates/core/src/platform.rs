//! What differs between the native targets and the browser (`wasm32-unknown-unknown`), in one
//! place, so the searches are written once for both.
//!
//! - **The clock.** Search limits read [`Instant`]. On native targets it *is*
//!   `std::time::Instant` (re-exported by `web-time`, so native code and its speed are
//!   unchanged and either name may be used); in the browser `std::time::Instant::now()` panics,
//!   and `web-time` reads `performance.now()` instead (it works in a Web Worker too).
//! - **Threads.** The browser build has one thread: [`THREADS`] is false there and
//!   [`search_threads`] turns any requested count into 1, so Lazy SMP and the parallel tree
//!   searches run their single-thread path. Rayon needs nothing: its global pool falls back to
//!   the calling thread when threads cannot be spawned, and the solvers that build a pool of
//!   their own run on the calling thread when building it fails.
//! - **Files.** Endgame databases and networks are read with `std::fs`, which answers
//!   "unsupported" in the browser (an error, never a panic); the browser build ships what it needs
//!   embedded or passes bytes in.
//!
//! ```
//! use qiyi_core::platform::{search_threads, Instant};
//! let start = Instant::now();
//! assert!(search_threads(4) >= 1);
//! assert!(start.elapsed().as_secs() < 60);
//! ```

/// The clock of every search limit: `std::time::Instant` natively, `performance.now()` in the
/// browser.
pub use web_time::Instant;

/// Whether this target can run more than one thread (false in the browser build).
pub const THREADS: bool = !cfg!(all(target_arch = "wasm32", target_os = "unknown"));

/// The number of threads a search started with `requested` threads runs: `requested` (at least
/// 1) where threads exist, 1 in the browser.
#[inline]
pub fn search_threads(requested: usize) -> usize {
    if THREADS {
        requested.max(1)
    } else {
        1
    }
}
