//! The self-play driver: games from varied openings, each position labelled with the search score
//! and the game's result, written as sharded, resumable [`record`](super::record) files on every
//! thread.
//!
//! Game `i` is played from opening `i mod openings`, then `r` uniformly random plies with
//! `r` drawn from `0..=random_plies`, all from [`Rng::derive`]`(seed, i)`, and then by the searcher
//! until the game ends or `max_plies` is reached (a draw). Shard `s` holds games
//! `s * games_per_shard ..`, so the data depend on the seed alone, not on the thread count, and a
//! rerun skips the shards that are already complete.

use super::record::{Dataset, Encode, ShardWriter};
use super::LearnError;
use crate::eval::Score;
use crate::game::{Game, Turn};
use crate::rng::Rng;
use crate::search::SearchLimits;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// A game that self-play can record.
pub trait SelfPlay: Game + Encode {
    /// The tag written in shard headers (`checkers`).
    const TAG: &'static str;
    /// Whether the position is a fit training target: quiet (no capture pending) and ongoing.
    fn is_quiet(&self) -> bool;
}

/// How much to play and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfPlayConfig {
    /// Games in all.
    pub games: usize,
    /// Games per shard file.
    pub games_per_shard: usize,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads (one game per thread at a time).
    pub threads: usize,
    /// Random plies after the opening: uniformly `0..=random_plies`.
    pub random_plies: u32,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            games: 1000,
            games_per_shard: 100,
            seed: 1,
            threads: 1,
            random_plies: 4,
            max_plies: 300,
        }
    }
}

impl SelfPlayConfig {
    /// Number of shards the run writes.
    pub fn shards(&self) -> usize {
        self.games.div_ceil(self.games_per_shard.max(1))
    }

    /// The file of shard `s` in `dir`.
    pub fn shard_path(dir: &Path, s: usize) -> PathBuf {
        dir.join(format!("shard-{s:05}.bin"))
    }
}

/// What a game's self-play run plays, as `qiyi selfplay GAME` (and `qiyi.cluster.selfplay`)
/// take it: everything that changes the positions it writes. One type for every game; the game
/// supplies its openings, its ply limit and its engine ([`play_run`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SelfplayOptions {
    /// Games in all.
    pub games: usize,
    /// Games per shard file.
    pub games_per_shard: usize,
    /// The run's seed.
    pub seed: u64,
    /// Search depth per move (used when `nodes` is 0).
    pub depth: u32,
    /// Node budget per move (0: the depth).
    pub nodes: u64,
    /// Random plies after the opening: uniformly `0..=random_plies`.
    pub random_plies: u32,
    /// The evaluation the games are searched with: `hand`, `net` (the game's embedded network)
    /// or a net file's path, as the game reads it.
    pub eval: String,
}

impl SelfplayOptions {
    /// The driver's configuration on `threads` threads, games cut (drawn) at `max_plies`.
    pub fn config(&self, threads: usize, max_plies: usize) -> SelfPlayConfig {
        SelfPlayConfig {
            games: self.games,
            games_per_shard: self.games_per_shard,
            seed: self.seed,
            threads,
            random_plies: self.random_plies,
            max_plies,
        }
    }

    /// Shards the run writes.
    pub fn shards(&self) -> usize {
        self.games.div_ceil(self.games_per_shard.max(1))
    }

    /// The search limits of every move: the node budget when one is given, else the depth.
    pub fn limits(&self) -> SearchLimits {
        if self.nodes > 0 {
            SearchLimits::nodes(self.nodes)
        } else {
            SearchLimits::depth(self.depth)
        }
    }

    /// Refuses a run that would play nothing or search nothing.
    pub fn check(&self) -> Result<(), LearnError> {
        if self.games == 0 || self.games_per_shard == 0 {
            return Err(LearnError::Config(
                "games and games per shard must be at least 1".into(),
            ));
        }
        if self.nodes == 0 && self.depth == 0 {
            return Err(LearnError::Config(
                "give a depth or a node budget of at least 1".into(),
            ));
        }
        Ok(())
    }

    /// The run's manifest ([`MANIFEST`], written to the shard directory; another run's is
    /// refused): the game, every option, the evaluation named `eval_label` and the ply limit.
    pub fn manifest(&self, game: &str, eval_label: &str, max_plies: usize) -> String {
        format!(
            "qiyi selfplay {game}: games {} games_per_shard {} seed {} depth {} nodes {} random_plies {} eval {eval_label} max_plies {max_plies}\n",
            self.games, self.games_per_shard, self.seed, self.depth, self.nodes, self.random_plies
        )
    }
}

/// Plays the shards `shards` of a run (all of them when `None`) into `dir` on `threads` threads,
/// skipping complete ones: checks the options, claims `dir` for the run named by `manifest`
/// ([`claim`]) before anything is played, then runs [`run_shards`] with games cut at
/// `max_plies`. The game-specific part is `openings` and `make_search` (one searcher per shard).
#[allow(clippy::too_many_arguments)]
pub fn play_run<G, F, S>(
    dir: &Path,
    options: &SelfplayOptions,
    manifest: &str,
    max_plies: usize,
    openings: &[G],
    shards: Option<&[usize]>,
    threads: usize,
    make_search: F,
    on_shard: impl Fn(ShardDone) + Sync,
) -> Result<SelfPlaySummary, LearnError>
where
    G: SelfPlay,
    F: Fn() -> S + Sync,
    S: FnMut(&G) -> Option<(G::Move, Score)>,
{
    options.check()?;
    let config = options.config(threads, max_plies);
    let shards = shard_selection(shards, config.shards(), "the run's")?;
    claim(dir, manifest)?;
    run_shards(dir, openings, &config, &shards, make_search, on_shard)
}

/// The shards a run (or a part of it) works on: `shards`, each checked to be below `count`, or
/// all `count` of them when `None`. `whose` names the count in the error ("the run's").
pub(crate) fn shard_selection(
    shards: Option<&[usize]>,
    count: usize,
    whose: &str,
) -> Result<Vec<usize>, LearnError> {
    let Some(shards) = shards else {
        return Ok((0..count).collect());
    };
    if let Some(&s) = shards.iter().find(|&&s| s >= count) {
        return Err(LearnError::Config(format!(
            "shard {s} is past {whose} {count} shards"
        )));
    }
    Ok(shards.to_vec())
}

/// A pool of `threads` worker threads (at least one) for a run's shards.
pub(crate) fn shard_pool(threads: usize) -> Result<rayon::ThreadPool, LearnError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .map_err(|e| LearnError::Config(format!("thread pool: {e}")))
}

/// What a finished (or skipped) shard holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardDone {
    /// Shard index.
    pub shard: usize,
    /// Games in it.
    pub games: u64,
    /// Positions written.
    pub positions: u64,
    /// True when it was complete already and skipped.
    pub skipped: bool,
}

/// Totals of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SelfPlaySummary {
    /// Shards written now.
    pub written: usize,
    /// Shards found complete and skipped.
    pub skipped: usize,
    /// Games played now.
    pub games: u64,
    /// Positions written now.
    pub positions: u64,
    /// Of the games played now: first player's wins, draws, second player's wins.
    pub results: [u64; 3],
}

/// Plays game `index` of a run and returns its recorded positions (position, score, ply) and the
/// first player's return (1, 0 or -1): the quiet ones ([`SelfPlay::is_quiet`]).
pub fn play_game<G, S>(
    openings: &[G],
    index: u64,
    config: &SelfPlayConfig,
    search: &mut S,
) -> (Vec<(G, Score, usize)>, i8)
where
    G: SelfPlay,
    S: FnMut(&G) -> Option<(G::Move, Score)>,
{
    play_game_keeping(openings, index, config, search, |p: &G, _| p.is_quiet())
}

/// [`play_game`] recording the searched positions `keep` accepts (it sees the position and the
/// search's score) instead of the quiet ones: the same game, move for move. Puzzle miners keep
/// the positions the search scores as a forced win.
pub fn play_game_keeping<G, S, K>(
    openings: &[G],
    index: u64,
    config: &SelfPlayConfig,
    search: &mut S,
    mut keep: K,
) -> (Vec<(G, Score, usize)>, i8)
where
    G: Game,
    S: FnMut(&G) -> Option<(G::Move, Score)>,
    K: FnMut(&G, Score) -> bool,
{
    let mut rng = Rng::derive(config.seed, index);
    let mut pos = openings[(index % openings.len() as u64) as usize].clone();
    let mut moves = Vec::new();
    let mut ply = 0usize;
    let random = rng.below(config.random_plies as usize + 1);
    for _ in 0..random {
        if pos.turn() == Turn::Over {
            break;
        }
        pos.legal_moves(&mut moves);
        let mv = moves[rng.below(moves.len())];
        pos.make(mv);
        ply += 1;
    }
    let mut seen = Vec::new();
    while pos.turn() != Turn::Over && ply < config.max_plies {
        let Some((mv, score)) = search(&pos) else {
            break;
        };
        if keep(&pos, score) {
            seen.push((pos.clone(), score, ply));
        }
        pos.make(mv);
        ply += 1;
    }
    // Not `f64::signum`: it is 1 for a return of +0.0, which would record every draw as a win
    // for the first player.
    let result = match pos.returns(0) {
        r if pos.turn() == Turn::Over && r > 0.0 => 1,
        r if pos.turn() == Turn::Over && r < 0.0 => -1,
        _ => 0,
    };
    (seen, result)
}

/// The file in a self-play directory naming the run its shards belong to.
pub const MANIFEST: &str = "run.txt";

/// Claims `dir` (created if missing) for the run `manifest` describes (its game, seed and every
/// option that changes the positions): a directory already claimed by the same run is fine (a
/// resumed run, or another worker of it); one claimed by another run, or holding shards with
/// no manifest, is refused, so no run ever mixes its shards with another's.
pub fn claim(dir: &Path, manifest: &str) -> Result<(), LearnError> {
    std::fs::create_dir_all(dir).map_err(|e| LearnError::io(dir, e))?;
    let path = dir.join(MANIFEST);
    match std::fs::read_to_string(&path) {
        Ok(theirs) if theirs == manifest => Ok(()),
        Ok(theirs) => Err(LearnError::Config(format!(
            "{} holds the shards of another run ({}); this run is ({}): use another directory",
            dir.display(),
            theirs.trim(),
            manifest.trim()
        ))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let has_shards = std::fs::read_dir(dir)
                .map_err(|e| LearnError::io(dir, e))?
                .flatten()
                .any(|f| f.path().extension().is_some_and(|x| x == "bin"));
            if has_shards {
                return Err(LearnError::Config(format!(
                    "{} holds shards without a {MANIFEST} (from another run or an older qiyi): use another directory",
                    dir.display()
                )));
            }
            // Workers claiming at once write the same text; the rename keeps the file whole.
            let tmp = dir.join(format!("{MANIFEST}.{}.tmp", std::process::id()));
            std::fs::write(&tmp, manifest).map_err(|e| LearnError::io(&tmp, e))?;
            std::fs::rename(&tmp, &path).map_err(|e| LearnError::io(&path, e))
        }
        Err(e) => Err(LearnError::io(&path, e)),
    }
}

/// Runs self-play into `dir` (created if missing): every shard not yet complete is played and
/// written; `on_shard` sees each shard as it finishes or is skipped. `make_search` builds one
/// searcher per shard: it returns the move to play and its score from the side to move's view.
pub fn run<G, F, S>(
    dir: &Path,
    openings: &[G],
    config: &SelfPlayConfig,
    make_search: F,
    on_shard: impl Fn(ShardDone) + Sync,
) -> Result<SelfPlaySummary, LearnError>
where
    G: SelfPlay,
    F: Fn() -> S + Sync,
    S: FnMut(&G) -> Option<(G::Move, Score)>,
{
    let all: Vec<usize> = (0..config.shards()).collect();
    run_shards(dir, openings, config, &all, make_search, on_shard)
}

/// [`run`] for the shards `shards` of the run only (each below [`SelfPlayConfig::shards`]):
/// a worker of a distributed run plays its share; a shard's bytes depend only on the seed, the
/// options and its index, so any split of the shards between workers writes the same files.
pub fn run_shards<G, F, S>(
    dir: &Path,
    openings: &[G],
    config: &SelfPlayConfig,
    shards: &[usize],
    make_search: F,
    on_shard: impl Fn(ShardDone) + Sync,
) -> Result<SelfPlaySummary, LearnError>
where
    G: SelfPlay,
    F: Fn() -> S + Sync,
    S: FnMut(&G) -> Option<(G::Move, Score)>,
{
    shard_selection(Some(shards), config.shards(), "the run's")?;
    if openings.is_empty() {
        return Err(LearnError::Config(
            "self-play needs at least one opening".into(),
        ));
    }
    if config.games == 0 || config.games_per_shard == 0 {
        return Err(LearnError::Config(
            "games and games per shard must be at least 1".into(),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| LearnError::io(dir, e))?;
    let pool = shard_pool(config.threads)?;
    let written = AtomicU64::new(0);
    let skipped = AtomicU64::new(0);
    let games_now = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let results: [AtomicU64; 3] = Default::default();
    pool.install(|| {
        shards.par_iter().try_for_each(|&s| {
            let path = SelfPlayConfig::shard_path(dir, s);
            if let Ok(h) = Dataset::header(&path) {
                if h.tag == G::TAG && h.position_bytes == G::BYTES {
                    let n = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                    let records =
                        n.saturating_sub(super::record::HEADER_LEN as u64) / h.record_len() as u64;
                    skipped.fetch_add(1, Ordering::Relaxed);
                    on_shard(ShardDone {
                        shard: s,
                        games: u64::from(h.games),
                        positions: records,
                        skipped: true,
                    });
                    return Ok(());
                }
            }
            let first = s * config.games_per_shard;
            let last = (first + config.games_per_shard).min(config.games);
            let mut search = make_search();
            let mut writer = ShardWriter::create(&path, G::TAG, G::BYTES)?;
            for g in first..last {
                let (seen, result) = play_game(openings, g as u64, config, &mut search);
                results[(1 - result) as usize].fetch_add(1, Ordering::Relaxed);
                for (p, score, ply) in &seen {
                    let r = if p.to_move() == 0 { result } else { -result };
                    writer.push(p, *score, r, *ply)?;
                }
            }
            let n = writer.records();
            writer.finish((last - first) as u32)?;
            written.fetch_add(1, Ordering::Relaxed);
            games_now.fetch_add((last - first) as u64, Ordering::Relaxed);
            positions.fetch_add(n, Ordering::Relaxed);
            on_shard(ShardDone {
                shard: s,
                games: (last - first) as u64,
                positions: n,
                skipped: false,
            });
            Ok::<(), LearnError>(())
        })
    })?;
    Ok(SelfPlaySummary {
        written: written.into_inner() as usize,
        skipped: skipped.into_inner() as usize,
        games: games_now.into_inner(),
        positions: positions.into_inner(),
        results: results.map(|a| a.into_inner()),
    })
}
