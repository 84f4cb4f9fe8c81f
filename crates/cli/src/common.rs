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
