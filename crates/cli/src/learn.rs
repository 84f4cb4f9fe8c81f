//! The game-neutral half of `qiyi selfplay` and `qiyi train`: shard lists, the `--data` folder
//! rules (globs, another game's or another run's shards refused, a folder or shard counted twice
//! refused) and the training loop (core's trainer, resumable checkpoints, a held-out loss per
//! epoch, the quantised net written with its game and input layout). `checkers_learn` and
//! `xiangqi_learn` add only what is theirs: the self-play options, the game's inputs, and
//! checkers' endgame-database labels.

use crate::common::{print_json, progress, Global};
use anyhow::{bail, Context};
use clap::Args;
use qiyi_core::learn::features::FeatureSet;
use qiyi_core::learn::record::Encode;
use qiyi_core::learn::selfplay::SelfPlay;
use qiyi_core::learn::train::{self, entropy, fit_scale, Sample, TrainConfig, Trainer};
use qiyi_core::learn::{Arch, Dataset, NetId, QuantNet, Stage};
use qiyi_core::Game;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Reads a shard list (`3`, `0-9`, `0-4,7,10-12`) of a run of `in_run` shards: every index must
/// be in the run; repeats are dropped, the order kept.
pub fn parse_shards(text: &str, in_run: usize) -> anyhow::Result<Vec<usize>> {
    let mut out: Vec<usize> = Vec::new();
    for part in text.split(',').map(str::trim) {
        let number = |t: &str| {
            t.trim().parse::<usize>().map_err(|_| {
                anyhow::anyhow!("--shards: '{t}' is not a shard number (give e.g. 0-9,12)")
            })
        };
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(part)?;
                (n, n)
            }
        };
        if a > b {
            bail!("--shards: the range {part} runs backwards");
        }
        if b >= in_run {
            bail!(
                "--shards: shard {b} is past the run's {in_run} shards (0-{})",
                in_run.saturating_sub(1)
            );
        }
        for s in a..=b {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    Ok(out)
}

/// Options of `qiyi train GAME` that every game shares.
#[derive(Args, Debug)]
pub struct TrainOptions {
    /// Folders of self-play shards (from `qiyi selfplay GAME` or `qiyi.cluster.selfplay`):
    /// any number, e.g. one per worker (`--data w1 w2` or `--data w1 --data w2`); a `*` or `?`
    /// in the last part of a path matches folders (`--data 'runs/worker-*'`). Every folder must
    /// hold the game's shards of the same run (its `run.txt`) unless `--mix-runs` is given.
    #[arg(long = "data", required = true, num_args = 1..)]
    pub data: Vec<PathBuf>,
    /// Train on the shards of several self-play runs at once (folders whose `run.txt` differ).
    #[arg(long)]
    pub mix_runs: bool,
    /// The quantised network to write (the engine reads it with `--eval PATH`).
    #[arg(long)]
    pub out: PathBuf,
    /// Checkpoint file: saved after every epoch, resumed from if it exists.
    #[arg(long)]
    pub checkpoint: Option<PathBuf>,
    /// Passes over the data.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub epochs: u32,
    /// Hidden units per perspective (a multiple of 16).
    #[arg(long, default_value_t = 128)]
    pub hidden: usize,
    /// Units of the second layer.
    #[arg(long, default_value_t = 32)]
    pub l2: usize,
    /// Weight of the search score in the target; the rest is the game result.
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// Adam's step size.
    #[arg(long, default_value_t = 2e-3)]
    pub lr: f32,
    /// Step-size factor per epoch.
    #[arg(long, default_value_t = 0.8)]
    pub lr_decay: f32,
    /// Positions per step.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub batch: u64,
    /// Score units per logit unit (`auto`: fitted to the results).
    #[arg(long, default_value = "auto")]
    pub scale: String,
    /// Fraction of the positions held out (the last games).
    #[arg(long, default_value_t = 0.05)]
    pub holdout: f32,
    /// Train on every training position and on its mirror image too (games whose rules are
    /// the same in a mirror: Xiangqi, left and right swapped); the held-out positions are not
    /// mirrored.
    #[arg(long)]
    pub mirror: bool,
    /// Train only on positions with MIN to MAX pieces on the board (men and kings of both
    /// sides, inclusive; e.g. `1-8`): one stage's net of a set (`qiyi nets combine`).
    #[arg(long, value_name = "MIN-MAX")]
    pub stage: Option<String>,
}

#[derive(Serialize)]
struct EpochReport {
    epoch: u32,
    train_loss: f64,
    holdout_loss: f64,
    seconds: f64,
}

/// What one `--data` folder gave the training set.
#[derive(Serialize, Debug, PartialEq)]
pub struct Source {
    /// The folder.
    pub dir: String,
    /// Shards read from it.
    pub shards: usize,
    /// Positions in them.
    pub positions: usize,
    /// Games played to make them.
    pub games: u64,
    /// The run they belong to (the folder's `run.txt`, trimmed), if it has one.
    pub run: Option<String>,
}

#[derive(Serialize)]
struct TrainReport {
    out: String,
    game: &'static str,
    layout: &'static str,
    sources: Vec<Source>,
    positions: usize,
    holdout_positions: usize,
    games: u64,
    arch: [usize; 3],
    scale: f32,
    lambda: f32,
    mirrored: bool,
    stage: Option<String>,
    holdout_entropy: f64,
    epochs: Vec<EpochReport>,
    seed: u64,
    threads: usize,
    seconds: f64,
}

/// The game a network is trained for: its shards' tag and record size come from `G`, its
/// inputs from `F`; `layout` names the inputs in the net file.
pub struct NetGame {
    /// The game's name in commands and messages (`checkers`, `xiangqi`).
    pub name: &'static str,
    /// The input layout written into the net file (`checkers-128`, `xiangqi-1260`).
    pub layout: &'static str,
    /// The input a position's mirror image has for each input (`None`: the game's rules are
    /// not the same in a mirror, and `--mirror` is refused).
    pub mirror: Option<fn(u16) -> u16>,
}

/// Trains a network for `G` with inputs `F` from `args` and writes it quantised, named for
/// `game`. `relabel` may change the targets (checkers: exact endgame-database labels) and
/// returns a line that says what it did, printed before training.
pub fn train<G, F>(
    g: &Global,
    args: &TrainOptions,
    game: &NetGame,
    relabel: impl FnOnce(&Dataset, &mut [Sample]) -> anyhow::Result<Option<String>>,
) -> anyhow::Result<()>
where
    G: Game + Encode + SelfPlay,
    F: FeatureSet<G>,
{
    if !(0.0..=1.0).contains(&args.lambda) {
        bail!("--lambda must be in [0, 1], not {}", args.lambda);
    }
    if !(0.0..0.5).contains(&args.holdout) {
        bail!("--holdout must be in [0, 0.5), not {}", args.holdout);
    }
    let lr_ok = args.lr > 0.0 && args.lr < 1.0;
    let decay_ok = args.lr_decay > 0.0 && args.lr_decay <= 1.0;
    if !(lr_ok && decay_ok) {
        bail!("--lr must be in (0, 1) and --lr-decay in (0, 1]");
    }
    let arch = Arch {
        inputs: F::INPUTS,
        hidden: args.hidden,
        l2: args.l2,
    };
    arch.validate()?;
    let stage = match &args.stage {
        Some(text) => Some(Stage::parse(text).context("--stage")?),
        None => None,
    };
    let started = Instant::now();
    let dirs = expand_data(&args.data)?;
    let (ds, sources) = read_sources::<G>(&dirs, args.mix_runs, game.name)?;
    if !g.json {
        for s in &sources {
            println!(
                "data {}: {} shards, {} positions from {} games{}",
                s.dir,
                s.shards,
                s.positions,
                s.games,
                s.run
                    .as_deref()
                    .map_or(String::from(" (no run.txt)"), |r| format!(" ({r})"))
            );
        }
    }
    let scale = match args.scale.as_str() {
        "auto" => fit_scale(&ds),
        s => s
            .parse::<f32>()
            .ok()
            .filter(|x| *x > 0.0 && x.is_finite())
            .with_context(|| format!("--scale must be 'auto' or a positive number, not '{s}'"))?,
    };
    let mut samples = train::samples::<G, F>(&ds, args.lambda, scale)?;
    if let Some(line) = relabel(&ds, &mut samples)? {
        if !g.json {
            println!("{line}");
        }
    }
    if let Some(stage) = stage {
        let all = samples.len();
        samples = keep_stage::<G, F>(&ds, samples, stage)?;
        if samples.is_empty() {
            bail!("--stage {stage}: none of the {all} positions has {stage} pieces on the board");
        }
        if !g.json {
            println!(
                "stage {stage}: {} of {all} positions have {stage} pieces",
                samples.len()
            );
        }
    }
    let held = ((samples.len() as f64) * f64::from(args.holdout)).round() as usize;
    let (train_set, holdout) = samples.split_at(samples.len() - held);
    let mirrored: Vec<Sample>;
    let train_set = match (args.mirror, game.mirror) {
        (false, _) => train_set,
        (true, None) => bail!(
            "--mirror: {} has no mirror symmetry (its rules differ in a mirror)",
            game.name
        ),
        (true, Some(flip)) => {
            let mut all = Vec::with_capacity(2 * train_set.len());
            all.extend_from_slice(train_set);
            all.extend(train_set.iter().map(|s| mirror_sample(s, flip)));
            mirrored = all;
            &mirrored
        }
    };
    let config = TrainConfig {
        epochs: args.epochs,
        batch: args.batch as usize,
        lr: args.lr,
        lr_decay: args.lr_decay,
        lambda: args.lambda,
        scale,
        holdout: args.holdout,
        seed: g.seed,
    };
    let mut trainer = match &args.checkpoint {
        Some(p) if p.exists() => {
            let t = Trainer::load(p)?;
            if t.net.arch != arch {
                bail!(
                    "checkpoint {} is a {}-{}-{} network, not {}-{}-{}",
                    p.display(),
                    t.net.arch.inputs,
                    t.net.arch.hidden,
                    t.net.arch.l2,
                    arch.inputs,
                    arch.hidden,
                    arch.l2
                );
            }
            t
        }
        _ => Trainer::new(arch, g.seed)?,
    };
    let threads = g.threads();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting the worker threads")?;
    let floor = entropy(holdout);
    if !g.json {
        println!(
            "train {}: {} positions from {} games ({} held out), {}-{}-{} network, \
             scale {scale:.1}, lambda {}, seed {}, {threads} threads; held-out target entropy {floor:.5}",
            game.name,
            train_set.len(),
            ds.games,
            holdout.len(),
            arch.inputs,
            arch.hidden,
            arch.l2,
            args.lambda,
            g.seed
        );
        if trainer.epoch > 0 {
            println!("resumed from the checkpoint after epoch {}", trainer.epoch);
        }
    }
    let mut epochs = Vec::new();
    while trainer.epoch < config.epochs {
        let t0 = Instant::now();
        let bar = progress(1000, &format!("epoch {}", trainer.epoch + 1));
        let train_loss = pool.install(|| {
            trainer.epoch(train_set, &config, |f| {
                bar.set_position((f * 1000.0) as u64)
            })
        });
        bar.finish_and_clear();
        let holdout_loss = pool.install(|| trainer.loss(holdout));
        let e = EpochReport {
            epoch: trainer.epoch,
            train_loss,
            holdout_loss,
            seconds: t0.elapsed().as_secs_f64(),
        };
        if !g.json {
            println!(
                "epoch {:>3}: train loss {:.5}, held-out loss {:.5} ({:+.5} over the entropy), {:.1} s",
                e.epoch,
                e.train_loss,
                e.holdout_loss,
                e.holdout_loss - floor,
                e.seconds
            );
        }
        epochs.push(e);
        if let Some(p) = &args.checkpoint {
            trainer.save(p)?;
        }
    }
    let q = QuantNet::from_network(&trainer.net, scale.round() as i32)
        .with_id(NetId::new(game.name, game.layout)?);
    let tmp = args.out.with_extension("tmp");
    std::fs::write(&tmp, q.to_bytes()).with_context(|| format!("writing {}", tmp.display()))?;
    std::fs::rename(&tmp, &args.out).with_context(|| format!("writing {}", args.out.display()))?;
    let report = TrainReport {
        out: args.out.display().to_string(),
        game: game.name,
        layout: game.layout,
        sources,
        positions: train_set.len(),
        holdout_positions: holdout.len(),
        games: ds.games,
        arch: [arch.inputs, arch.hidden, arch.l2],
        scale,
        lambda: args.lambda,
        mirrored: args.mirror,
        stage: stage.map(|s| s.to_string()),
        holdout_entropy: floor,
        epochs,
        seed: g.seed,
        threads,
        seconds: started.elapsed().as_secs_f64(),
    };
    if g.json {
        return print_json(&report);
    }
    println!(
        "wrote {} ({} bytes) in {:.1} s",
        report.out,
        q.to_bytes().len(),
        report.seconds
    );
    Ok(())
}

/// The samples (`samples[i]` is record `i` of `ds`) whose position has a piece count in `stage`.
fn keep_stage<G, F>(ds: &Dataset, samples: Vec<Sample>, stage: Stage) -> anyhow::Result<Vec<Sample>>
where
    G: Game + Encode,
    F: FeatureSet<G>,
{
    let mut kept = Vec::new();
    for (i, sample) in samples.into_iter().enumerate() {
        let pos = G::decode(ds.get(i).position)
            .with_context(|| format!("record {i} does not decode to a position"))?;
        if stage.contains(F::pieces(&pos) as u32) {
            kept.push(sample);
        }
    }
    Ok(kept)
}

/// `sample` with every input replaced by its mirror image's (`flip`).
fn mirror_sample(sample: &Sample, flip: fn(u16) -> u16) -> Sample {
    let mut out = *sample;
    for (side, from) in out.inputs.iter_mut().zip(&sample.inputs) {
        side.clear();
        for &i in from.as_slice() {
            side.push(flip(i));
        }
    }
    out
}

/// True when `pattern` (with `*` for any run of characters and `?` for one) matches `name`.
fn wildcard(pattern: &[char], name: &[char]) -> bool {
    match (pattern.first(), name.first()) {
        (None, None) => true,
        (Some('*'), _) => {
            wildcard(&pattern[1..], name) || (!name.is_empty() && wildcard(pattern, &name[1..]))
        }
        (Some('?'), Some(_)) => wildcard(&pattern[1..], &name[1..]),
        (Some(p), Some(n)) if p == n => wildcard(&pattern[1..], &name[1..]),
        _ => false,
    }
}

/// The folders `--data` names: each path as given, or, when its last part holds `*` or `?` and
/// no such path exists, the folders beside it whose names match (in name order). A pattern that
/// matches no folder is an error.
pub fn expand_data(data: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    for path in data {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let is_pattern = name.as_deref().is_some_and(|n| n.contains(['*', '?']));
        if !is_pattern || path.exists() {
            dirs.push(path.clone());
            continue;
        }
        let pattern: Vec<char> = name.unwrap_or_default().chars().collect();
        let parent = path.parent().unwrap_or(std::path::Path::new(""));
        let listed = if parent.as_os_str().is_empty() {
            std::path::Path::new(".")
        } else {
            parent
        };
        if parent.to_string_lossy().contains(['*', '?']) {
            bail!(
                "--data {}: only the last part of a path may hold * or ?",
                path.display()
            );
        }
        let entries = std::fs::read_dir(listed)
            .with_context(|| format!("--data {}: reading {}", path.display(), listed.display()))?;
        let mut found: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .filter(|e| {
                let n: Vec<char> = e.file_name().to_string_lossy().chars().collect();
                wildcard(&pattern, &n)
            })
            .map(|e| parent.join(e.file_name()))
            .collect();
        if found.is_empty() {
            bail!("--data {}: no folder matches", path.display());
        }
        found.sort();
        dirs.append(&mut found);
    }
    Ok(dirs)
}

/// Reads the shards of `G` (`name` in messages) in every folder of `dirs` into one dataset, folder by folder in the
/// order given, and says what each gave. Refused, naming the folder or file: a path that is not
/// a folder, a folder named twice, a folder with no shards, a shard of another game or record
/// size, and (unless `mix_runs`) folders of different runs (their `run.txt` differ), as well as
/// one shard of a run found in two folders (it would count its positions twice).
pub fn read_sources<G: SelfPlay + Encode>(
    dirs: &[PathBuf],
    mix_runs: bool,
    name: &str,
) -> anyhow::Result<(Dataset, Vec<Source>)> {
    use qiyi_core::learn::record::shard_paths;
    use qiyi_core::learn::selfplay::MANIFEST;
    use std::collections::HashMap;
    let tag = G::TAG;
    let bytes = G::BYTES;
    let mut ds = Dataset::default();
    let mut sources = Vec::new();
    let mut seen_dirs: HashMap<PathBuf, PathBuf> = HashMap::new();
    let mut seen_shards: HashMap<(String, std::ffi::OsString), PathBuf> = HashMap::new();
    let mut first_run: Option<(PathBuf, Option<String>)> = None;
    for dir in dirs {
        if !dir.is_dir() {
            bail!("--data {}: not a folder", dir.display());
        }
        let real = dir
            .canonicalize()
            .with_context(|| format!("--data {}", dir.display()))?;
        if let Some(before) = seen_dirs.insert(real, dir.clone()) {
            bail!(
                "--data names the folder {} twice ({} and {}): its positions would count twice",
                dir.display(),
                before.display(),
                dir.display()
            );
        }
        let run = match std::fs::read_to_string(dir.join(MANIFEST)) {
            Ok(text) => Some(text.trim().to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => {
                return Err(e).with_context(|| format!("reading {}", dir.join(MANIFEST).display()))
            }
        };
        let paths = shard_paths(dir)?;
        if paths.is_empty() {
            bail!(
                "--data {}: no shards (*.bin) in it; give the folders `qiyi selfplay {name} --out` wrote",
                dir.display()
            );
        }
        for path in &paths {
            let h = Dataset::header(path)?;
            if h.tag != tag || h.position_bytes != bytes {
                bail!(
                    "{} holds {} positions of {} bytes, not {tag} positions of {bytes}: \
                     `qiyi train {name}` reads only {name} self-play shards",
                    path.display(),
                    h.tag,
                    h.position_bytes
                );
            }
        }
        match &first_run {
            None => first_run = Some((dir.clone(), run.clone())),
            Some((first, theirs)) if !mix_runs && *theirs != run => {
                let say = |r: &Option<String>| {
                    r.clone()
                        .unwrap_or_else(|| format!("no {MANIFEST}: an unknown run"))
                };
                bail!(
                    "{} holds the shards of another run ({}) than {} ({}): pass --mix-runs to \
                     train on several runs",
                    dir.display(),
                    say(&run),
                    first.display(),
                    say(theirs)
                );
            }
            Some(_) => {}
        }
        let (len0, games0) = (ds.len(), ds.games);
        for path in &paths {
            if let (Some(r), Some(name)) = (&run, path.file_name()) {
                if let Some(other) = seen_shards.insert((r.clone(), name.to_owned()), path.clone())
                {
                    bail!(
                        "{} and {} are the same shard of one run: its positions would count twice",
                        other.display(),
                        path.display()
                    );
                }
            }
            ds.add_shard(path)?;
        }
        sources.push(Source {
            dir: dir.display().to_string(),
            shards: paths.len(),
            positions: ds.len() - len0,
            games: ds.games - games0,
            run,
        });
    }
    if ds.is_empty() {
        bail!(
            "no positions in {}",
            dirs.iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    Ok((ds, sources))
}
