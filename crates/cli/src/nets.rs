//! `qiyi nets`: net files. `combine` assembles single-stage nets (from `qiyi train GAME --stage
//! MIN-MAX`) into one set file whose nets the engine picks by the number of pieces on the board;
//! `info` says what a net or set file holds.

use crate::common::{print_json, Global};
use anyhow::{bail, Context};
use clap::{Args, Subcommand};
use qiyi_core::learn::{NetSet, QuantNet, Stage};
use serde::Serialize;
use std::path::PathBuf;

/// Arguments of `qiyi nets`.
#[derive(Args, Debug)]
pub struct NetsArgs {
    #[command(subcommand)]
    action: NetsAction,
}

/// What `qiyi nets` does.
#[derive(Subcommand, Debug)]
enum NetsAction {
    /// Assemble single nets into a set by stage (piece counts, men and kings of both sides):
    /// `qiyi nets combine --stage 1-8=end.qnet --stage 9-24=mid.qnet --out set.qnet`.
    Combine(CombineArgs),
    /// Say what a net file holds: its game, input layout, shape and, for a set, each stage.
    Info(InfoArgs),
}

/// Arguments of `qiyi nets combine`.
#[derive(Args, Debug)]
pub struct CombineArgs {
    /// A stage and its net: `MIN-MAX=PATH` (inclusive piece counts). Give one per stage; the
    /// stages must cover every count the game has (checkers: 1-24) without gap or overlap.
    #[arg(long = "stage", value_name = "MIN-MAX=NET", required = true, num_args = 1..)]
    stages: Vec<String>,
    /// The set file to write.
    #[arg(long)]
    out: PathBuf,
}

/// Arguments of `qiyi nets info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The net or set file.
    file: PathBuf,
}

/// Runs `qiyi nets`.
pub fn nets(g: &Global, args: NetsArgs) -> anyhow::Result<()> {
    match args.action {
        NetsAction::Combine(a) => combine(g, a),
        NetsAction::Info(a) => info(g, a),
    }
}

/// One stage of a set, as reports show it.
#[derive(Serialize)]
struct StageReport {
    stage: String,
    shape: [usize; 3],
    scale: i32,
}

#[derive(Serialize)]
struct SetReport {
    file: String,
    bytes: usize,
    game: String,
    layout: String,
    stages: Vec<StageReport>,
}

fn report(file: &std::path::Path, set: &NetSet, bytes: usize) -> SetReport {
    SetReport {
        file: file.display().to_string(),
        bytes,
        game: set.id().game.clone(),
        layout: set.id().layout.clone(),
        stages: set
            .stages()
            .iter()
            .zip(set.nets())
            .map(|(s, n)| StageReport {
                stage: s.to_string(),
                shape: [n.arch.inputs, n.arch.hidden, n.arch.l2],
                scale: n.scale,
            })
            .collect(),
    }
}

fn print_report(g: &Global, r: &SetReport, verb: &str) -> anyhow::Result<()> {
    if g.json {
        return print_json(r);
    }
    println!(
        "{verb} {} ({} bytes): {} net{} of {} (input layout {})",
        r.file,
        r.bytes,
        r.stages.len(),
        if r.stages.len() == 1 { "" } else { "s" },
        if r.game.is_empty() {
            "no named game (written before net files named their game)"
        } else {
            &r.game
        },
        if r.layout.is_empty() { "-" } else { &r.layout }
    );
    for s in &r.stages {
        // A single net serves every piece count (`Stage::ALL`).
        let stage = if s.stage == Stage::ALL.to_string() {
            "all"
        } else {
            &s.stage
        };
        println!(
            "  pieces {stage:>7}: {}-{}-{}, scale {}",
            s.shape[0], s.shape[1], s.shape[2], s.scale
        );
    }
    Ok(())
}

/// The piece counts a game's set must cover, and whether its engine runs sets at all.
/// Unnamed nets (`QIYINET1`, such as the shipped checkers net) are taken for checkers nets when
/// they have its 128 inputs, as the checkers engine's loader takes them.
fn pieces_of(game: &str, inputs: usize) -> anyhow::Result<std::ops::RangeInclusive<u32>> {
    use qiyi_core::learn::FeatureSet;
    match game {
        "checkers" => Ok(qiyi_checkers::engine::nn::PIECES),
        "" if inputs == qiyi_checkers::engine::nn::CheckersFeatures::INPUTS => {
            Ok(qiyi_checkers::engine::nn::PIECES)
        }
        "" => bail!(
            "the nets are unnamed (QIYINET1 files) with {inputs} inputs: no engine runs them \
             as a set"
        ),
        other => bail!("{other} nets cannot be combined: only the checkers engine runs net sets"),
    }
}

/// Reads `MIN-MAX=PATH`.
fn parse_stage(text: &str) -> anyhow::Result<(Stage, PathBuf)> {
    let Some((stage, path)) = text.split_once('=') else {
        bail!("--stage '{text}': give MIN-MAX=NET, e.g. --stage 1-8=end.qnet");
    };
    let stage = Stage::parse(stage).with_context(|| format!("--stage '{text}'"))?;
    if path.is_empty() {
        bail!("--stage '{text}': no net file after '='");
    }
    Ok((stage, PathBuf::from(path)))
}

fn combine(g: &Global, args: CombineArgs) -> anyhow::Result<()> {
    let mut entries = Vec::new();
    for text in &args.stages {
        let (stage, path) = parse_stage(text)?;
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        if bytes.starts_with(&qiyi_core::learn::netset::SET_MAGIC) {
            bail!(
                "{} is already a set: combine single nets (from `qiyi train GAME --stage`)",
                path.display()
            );
        }
        let net = QuantNet::from_bytes(&bytes).with_context(|| format!("{}", path.display()))?;
        entries.push((stage, net, path));
    }
    entries.sort_by_key(|(s, _, _)| (s.min, s.max));
    let first = &entries[0];
    for (stage, net, path) in &entries[1..] {
        if net.id != first.1.id || net.arch.inputs != first.1.arch.inputs {
            bail!(
                "{} (stage {stage}) is {} with {} inputs, but {} (stage {}) is {} with {}: \
                 every net of a set must be of one game and input layout",
                path.display(),
                net.id.describe(),
                net.arch.inputs,
                first.2.display(),
                first.0,
                first.1.id.describe(),
                first.1.arch.inputs
            );
        }
    }
    let pieces = pieces_of(&first.1.id.game, first.1.arch.inputs)?;
    let set =
        NetSet::new(entries.into_iter().map(|(s, n, _)| (s, n)).collect()).context("--stage")?;
    let (lo, hi) = (set.stages()[0].min, set.stages()[set.len() - 1].max);
    if lo > *pieces.start() || hi < *pieces.end() {
        bail!(
            "the stages cover {lo}-{hi} pieces; a checkers set must cover {}-{}",
            pieces.start(),
            pieces.end()
        );
    }
    if set.len() == 1 {
        bail!("one net for every stage is not a set: use the net file itself");
    }
    let bytes = set.to_bytes();
    // What is written must read back as what was built (and pass the game's own checks).
    if qiyi_checkers::engine::nn::from_bytes(&bytes)? != set {
        bail!("internal error: the set does not read back");
    }
    // Written beside the set and renamed over it, so a set being written is never read half
    // done; `OUT.tmp`, not `with_extension`, so no other file of the same stem is overwritten.
    let mut tmp = args.out.clone().into_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, &bytes).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &args.out).with_context(|| format!("writing {}", args.out.display()))?;
    print_report(g, &report(&args.out, &set, bytes.len()), "wrote")
}

fn info(g: &Global, args: InfoArgs) -> anyhow::Result<()> {
    let bytes =
        std::fs::read(&args.file).with_context(|| format!("reading {}", args.file.display()))?;
    let set = NetSet::from_bytes(&bytes).with_context(|| format!("{}", args.file.display()))?;
    print_report(g, &report(&args.file, &set, bytes.len()), "net file")
}
