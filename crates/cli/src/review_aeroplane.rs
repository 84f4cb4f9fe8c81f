//! `qiyi review aeroplane`: the win-chance model's review (skill per decision, luck per roll).

use anyhow::bail;

use crate::common::Global;
use crate::review::ReviewArgs;

/// Reviews the aeroplane record `text` and prints the review.
pub fn run(_g: &Global, _args: &ReviewArgs, _text: &str) -> anyhow::Result<()> {
    bail!("reviewing aeroplane is not built yet (built: peg-solitaire)")
}
