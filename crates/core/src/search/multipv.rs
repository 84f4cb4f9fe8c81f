//! Multi-PV by exclusion: at each depth the root is searched once for the best move, then again
//! without the moves already found, until `lines` moves are reported. Each game's searcher only
//! has to leave given root moves out; this loop is shared by every game.

use super::{SearchLimits, SearchResult, SearchStats};
use crate::eval::Score;
use crate::platform::Instant;
use std::sync::atomic::Ordering;

/// The most lines a multi-PV search reports.
pub const MAX_LINES: usize = 10;

/// One line of a multi-PV report: a root move's score and its principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine<M> {
    /// Score from the side to move's view.
    pub score: Score,
    /// Principal variation, starting with the root move.
    pub pv: Vec<M>,
    /// The search of this line found a higher score than the line above it (the search is
    /// selective, so a root searched without the better moves can see further): `score` is
    /// then capped at the line above's, keeping the engine's choice first and the list sorted.
    pub capped: bool,
}

/// A completed depth of a multi-PV search.
#[derive(Clone, Debug, PartialEq)]
pub struct MultiPvInfo<M> {
    /// The depth every line was searched to.
    pub depth: u32,
    /// The lines, best first (scores never increase down the list).
    pub lines: Vec<PvLine<M>>,
    /// Counts over the whole multi-PV search so far (`depth` is the last completed one).
    pub stats: SearchStats,
}

/// Runs a multi-PV search.
///
/// The first line of each depth is the unrestricted search's; the others follow best first.
/// A later line whose search scored above the line before it is capped there (see
/// [`PvLine::capped`]).
///
/// `fresh` forgets what earlier searches learnt (so the first line of each depth is exactly the
/// single-PV search to that depth); `search(excluded, limits)` searches the root without the
/// root moves in `excluded` and must stop at `limits.depth`. `legal` is the number of legal root
/// moves. `limits.depth` is the deepest depth (default [`SearchLimits::MAX_DEPTH`]);
/// `move_time`/`deadline` and `stop` end the whole search, the last completed depth standing;
/// `nodes` is a budget per single search. `on_depth` sees every completed depth. Returns the
/// last completed depth (or, when none completed, the lines found at the first depth), `None`
/// when the root has no legal move.
pub fn multipv<M: Copy + PartialEq>(
    limits: &SearchLimits,
    lines: usize,
    legal: usize,
    mut fresh: impl FnMut(),
    mut search: impl FnMut(&[M], &SearchLimits) -> SearchResult<M>,
    mut on_depth: impl FnMut(&MultiPvInfo<M>),
) -> Option<MultiPvInfo<M>> {
    let want = lines.clamp(1, MAX_LINES).min(legal);
    if want == 0 {
        return None;
    }
    let start = Instant::now();
    let deadline = match (limits.deadline, limits.move_time) {
        (Some(d), Some(t)) => Some(d.min(start + t)),
        (Some(d), None) => Some(d),
        (None, Some(t)) => Some(start + t),
        (None, None) => None,
    };
    let max_depth = limits
        .depth
        .unwrap_or(SearchLimits::MAX_DEPTH)
        .clamp(1, SearchLimits::MAX_DEPTH);
    let mut stats = SearchStats::default();
    let mut last: Option<MultiPvInfo<M>> = None;
    'depths: for depth in 1..=max_depth {
        fresh();
        let one = SearchLimits {
            depth: Some(depth),
            nodes: limits.nodes,
            move_time: None,
            deadline,
            stop: limits.stop.clone(),
        };
        let mut found: Vec<PvLine<M>> = Vec::with_capacity(want);
        let mut excluded: Vec<M> = Vec::with_capacity(want);
        let mut complete = true;
        while found.len() < want {
            let r = search(&excluded, &one);
            stats.merge(&r.stats);
            stats.seldepth = stats.seldepth.max(r.stats.seldepth);
            let Some(mv) = r.best_move else { break };
            if r.stats.depth < depth {
                complete = false;
                if last.is_none() {
                    found.push(PvLine {
                        score: r.score,
                        pv: r.pv,
                        capped: false,
                    });
                }
                break;
            }
            excluded.push(mv);
            found.push(PvLine {
                score: r.score,
                pv: r.pv,
                capped: false,
            });
        }
        cap_and_sort(&mut found);
        stats.time = start.elapsed();
        if !complete {
            if last.is_none() && !found.is_empty() {
                stats.depth = depth.saturating_sub(1);
                last = Some(MultiPvInfo {
                    depth: stats.depth,
                    lines: found,
                    stats: stats.clone(),
                });
            }
            break 'depths;
        }
        stats.depth = depth;
        let info = MultiPvInfo {
            depth,
            lines: found,
            stats: stats.clone(),
        };
        on_depth(&info);
        last = Some(info);
        let stopped = limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped || deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    last
}

/// Keeps the first line (the engine's choice) first, sorts the others best first, and caps any
/// score above the line before it (marking it `capped`).
fn cap_and_sort<M>(lines: &mut [PvLine<M>]) {
    if lines.len() < 2 {
        return;
    }
    lines[1..].sort_by_key(|l| std::cmp::Reverse(l.score));
    for i in 1..lines.len() {
        let above = lines[i - 1].score;
        if lines[i].score > above {
            lines[i].score = above;
            lines[i].capped = true;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fake root of four moves with fixed scores: each search returns the best not excluded.
    #[test]
    fn lines_come_best_first_and_stop_at_the_legal_count() {
        let scores = [(1u8, 5), (2, 40), (3, -7), (4, 12)];
        let mut calls = 0;
        let r = multipv(
            &SearchLimits::depth(3),
            10,
            scores.len(),
            || {},
            |ex: &[u8], l: &SearchLimits| {
                calls += 1;
                let best = scores
                    .iter()
                    .filter(|(m, _)| !ex.contains(m))
                    .max_by_key(|(_, s)| *s)
                    .copied();
                SearchResult {
                    best_move: best.map(|b| b.0),
                    score: best.map_or(0, |b| b.1),
                    pv: best.map(|b| vec![b.0]).unwrap_or_default(),
                    stats: SearchStats {
                        depth: l.depth.unwrap_or(0),
                        ..Default::default()
                    },
                }
            },
            |_| {},
        );
        let r = r.expect("lines");
        assert_eq!(r.depth, 3);
        let moves: Vec<u8> = r.lines.iter().map(|l| l.pv[0]).collect();
        assert_eq!(moves, vec![2, 4, 1, 3]);
        assert_eq!(calls, 12);
    }

    #[test]
    fn a_later_line_above_the_first_is_capped() {
        let mut lines = vec![
            PvLine {
                score: 27,
                pv: vec![1],
                capped: false,
            },
            PvLine {
                score: 20,
                pv: vec![2],
                capped: false,
            },
            PvLine {
                score: 46,
                pv: vec![3],
                capped: false,
            },
        ];
        cap_and_sort(&mut lines);
        let got: Vec<(i32, u8, bool)> =
            lines.iter().map(|l| (l.score, l.pv[0], l.capped)).collect();
        assert_eq!(got, vec![(27, 1, false), (27, 3, true), (20, 2, false)]);
    }
}
