//! `qiyi completions SHELL` and `qiyi man`: shell completions and the man page, generated from
//! the same clap definitions that parse the command line, so they never drift from it.

use clap::CommandFactory;
use std::io::{ErrorKind, Write};

/// Arguments of `qiyi completions`.
#[derive(clap::Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Prints the completion script of `Cli` for a shell on stdout.
pub fn completions<Cli: CommandFactory>(args: &CompletionsArgs) -> anyhow::Result<()> {
    let mut cmd = Cli::command();
    let name = cmd.get_name().to_string();
    let mut text = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, name, &mut text);
    print(&text)
}

/// Prints the man page of `Cli` (roff, section 1) on stdout.
pub fn man<Cli: CommandFactory>() -> anyhow::Result<()> {
    let mut text = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut text)?;
    print(&text)
}

/// Writes `text` to stdout; a reader that stops early (`| head`) is not an error.
fn print(text: &[u8]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text).and_then(|()| out.flush()) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}
