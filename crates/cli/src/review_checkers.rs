//! `qiyi review checkers`: the engine and the endgame database judge every ply.

use anyhow::bail;

use crate::common::Global;
use crate::review::ReviewArgs;

/// Reviews the checkers record `text` and prints the review.
pub fn run(_g: &Global, _args: &ReviewArgs, _text: &str) -> anyhow::Result<()> {
    bail!("reviewing checkers is not built yet (built: peg-solitaire)")
}
