//! Relabelling: the positions of a self-play run searched again, deeper, with the game results
//! kept. Self-play labels every position with the score of the search that played it, which
//! has to be cheap because it runs at every move of every game; relabelling spends a larger
//! depth or node budget on the positions that matter (a range of piece counts, say) so that
//! their labels say more than the engine already knows.
//!
//! The source run's shards are read in name order; shard `NAME.bin` of the source becomes
//! `NAME.bin` of the output with every record in the same order, the positions `select` accepts
//! carrying the new score and the others their old one (result and ply are kept). Each selected
//! position is searched from a fresh table, so a shard's bytes depend only on the source shard
//! and the options: any split of the shards between threads, processes or sessions writes the
//! same files, and a rerun skips the complete ones.

use super::record::{shard_paths, Dataset, Encode, ShardWriter};
use super::selfplay::{claim, shard_pool, shard_selection};
use super::LearnError;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What a finished (or skipped) output shard holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RelabelDone {
    /// Index of the shard in the source run's name order.
    pub shard: usize,
    /// Records in it.
    pub positions: u64,
    /// Of those, the ones searched again (0 for a skipped shard: not counted again).
    pub relabelled: u64,
    /// True when it was complete already and skipped.
    pub skipped: bool,
}

/// Totals of a relabelling run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RelabelSummary {
    /// Shards written now.
    pub written: usize,
    /// Shards found complete and skipped.
    pub skipped: usize,
    /// Records written now.
    pub positions: u64,
    /// Records searched again now.
    pub relabelled: u64,
    /// Of the searched records, how many changed their score.
    pub changed: u64,
    /// Sum of `|new - old|` over the searched records, centi-units.
    pub abs_change: u64,
}

/// The source run's shard files, checked to hold `tag` positions of `G`.
pub fn source_shards<G: Encode>(src: &Path, tag: &str) -> Result<Vec<PathBuf>, LearnError> {
    let paths = shard_paths(src)?;
    if paths.is_empty() {
        return Err(LearnError::NoData(src.to_path_buf()));
    }
    for path in &paths {
        let h = Dataset::header(path)?;
        if h.tag != tag || h.position_bytes != G::BYTES {
            return Err(LearnError::BadShard {
                path: path.clone(),
                why: format!(
                    "holds {} positions of {} bytes, not {tag} of {}",
                    h.tag,
                    h.position_bytes,
                    G::BYTES
                ),
            });
        }
    }
    Ok(paths)
}

/// Relabels the `tag` shards `shards` (indices into the source's shard files in name order; all of
/// them when `None`) of the run in `src` into `out` on `threads` threads: claims `out` for the
/// run `manifest` names ([`claim`]), skips output shards already complete, and writes each
/// other one whole. `select` says which positions to search again; `make_search` builds one
/// searcher per shard, which must search each position from a fresh table and return its score
/// from the side to move's view (`None` keeps the old label). `on_shard` sees each shard as it
/// finishes or is skipped.
#[allow(clippy::too_many_arguments)]
pub fn relabel_run<G, Sel, F, S>(
    tag: &str,
    src: &Path,
    out: &Path,
    manifest: &str,
    shards: Option<&[usize]>,
    threads: usize,
    select: Sel,
    make_search: F,
    on_shard: impl Fn(RelabelDone) + Sync,
) -> Result<RelabelSummary, LearnError>
where
    G: Encode,
    Sel: Fn(&G) -> bool + Sync,
    F: Fn() -> S + Sync,
    S: FnMut(&G) -> Option<i32>,
{
    let paths = source_shards::<G>(src, tag)?;
    if src.canonicalize().ok() == out.canonicalize().ok() && out.exists() {
        return Err(LearnError::Config(format!(
            "{}: the output must be another directory than the source",
            out.display()
        )));
    }
    let shards = shard_selection(shards, paths.len(), "the source's")?;
    claim(out, manifest)?;
    let pool = shard_pool(threads)?;
    let written = AtomicU64::new(0);
    let skipped = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let relabelled = AtomicU64::new(0);
    let changed = AtomicU64::new(0);
    let abs_change = AtomicU64::new(0);
    pool.install(|| {
        shards.par_iter().try_for_each(|&s| {
            let source = &paths[s];
            let name = source.file_name().ok_or_else(|| LearnError::BadShard {
                path: source.clone(),
                why: "no file name".into(),
            })?;
            let target = out.join(name);
            let mut ds = Dataset::default();
            ds.add_shard(source)?;
            if let Ok(h) = Dataset::header(&target) {
                let n = std::fs::metadata(&target).map(|m| m.len()).unwrap_or(0);
                let records =
                    n.saturating_sub(super::record::HEADER_LEN as u64) / h.record_len() as u64;
                if h.tag == tag && h.position_bytes == G::BYTES && records == ds.len() as u64 {
                    skipped.fetch_add(1, Ordering::Relaxed);
                    on_shard(RelabelDone {
                        shard: s,
                        positions: records,
                        relabelled: 0,
                        skipped: true,
                    });
                    return Ok(());
                }
            }
            let mut search = make_search();
            let mut writer = ShardWriter::create(&target, tag, G::BYTES)?;
            let mut searched = 0u64;
            for i in 0..ds.len() {
                let r = ds.get(i);
                let pos = G::decode(r.position).ok_or_else(|| LearnError::BadShard {
                    path: source.clone(),
                    why: format!("record {i} does not decode to a {tag} position"),
                })?;
                let mut score = i32::from(r.score);
                if select(&pos) {
                    if let Some(new) = search(&pos) {
                        let new = new.clamp(i16::MIN as i32, i16::MAX as i32);
                        searched += 1;
                        if new != score {
                            changed.fetch_add(1, Ordering::Relaxed);
                            abs_change.fetch_add(new.abs_diff(score) as u64, Ordering::Relaxed);
                        }
                        score = new;
                    }
                }
                writer.push(&pos, score, r.result, usize::from(r.ply))?;
            }
            let n = writer.records();
            writer.finish(u32::try_from(ds.games).unwrap_or(u32::MAX))?;
            written.fetch_add(1, Ordering::Relaxed);
            positions.fetch_add(n, Ordering::Relaxed);
            relabelled.fetch_add(searched, Ordering::Relaxed);
            on_shard(RelabelDone {
                shard: s,
                positions: n,
                relabelled: searched,
                skipped: false,
            });
            Ok::<(), LearnError>(())
        })
    })?;
    Ok(RelabelSummary {
        written: written.into_inner() as usize,
        skipped: skipped.into_inner() as usize,
        positions: positions.into_inner(),
        relabelled: relabelled.into_inner(),
        changed: changed.into_inner(),
        abs_change: abs_change.into_inner(),
    })
}
