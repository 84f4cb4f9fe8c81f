//! The checkers search ([`qiyi_checkers::engine::search`]) against core's plain minimax, and its
//! selective ideas each checked to play legal, consistent lines and to do what they say.

use qiyi_checkers::engine::eval::{CheckersEval, Weights};
use qiyi_checkers::engine::nn::{self, NetEval, NetPosition};
use qiyi_checkers::engine::search::{Search, SearchConfig};
use qiyi_checkers::engine::{Egdb, Engine, EvalChoice, Level, SearchChoice, Wld};
use qiyi_checkers::{Board, Checkers};
use qiyi_core::search::{minimax_with, MinimaxOptions, SearchLimits};
use qiyi_core::{Game, Rng};
use std::sync::Arc;

/// Positions from seeded random playouts that are not over.
fn random_positions(n: usize, seed: u64) -> Vec<Checkers> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let plies = 4 + rng.below(40);
        let b = Board::start().random_walk(plies, &mut rng);
        let pos = Checkers::from_board(b);
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

fn quiescence() -> MinimaxOptions {
    MinimaxOptions {
        quiescence: true,
        ..Default::default()
    }
}

/// Every selective idea off and no cut-offs on stored bounds: the value at a fixed depth is
/// minimax's with capture resolution, whatever the ordering, aspiration and IID do.
fn exact() -> SearchConfig {
    SearchConfig {
        tt_cutoffs: false,
        tt_mib: 1,
        ..SearchConfig::plain()
    }
}

#[test]
fn the_plain_search_returns_the_minimax_value_with_the_hand_evaluation() {
    let eval = CheckersEval::new(Weights::default());
    for (i, pos) in random_positions(40, 21).into_iter().enumerate() {
        let depth = 2 + (i % 4) as u32;
        let mm = minimax_with(&pos, &eval, depth, quiescence());
        for config in [
            exact(),
            SearchConfig {
                aspiration: false,
                ..exact()
            },
            SearchConfig {
                iid: true,
                countermoves: true,
                ..exact()
            },
        ] {
            let mut s = Search::new(eval.clone(), config);
            let r = s.search(&pos, &SearchLimits::depth(depth), |_| {});
            assert_eq!(r.score, mm.score, "{} at depth {depth}", pos.fen());
        }
    }
}

#[test]
fn the_plain_search_returns_the_minimax_value_with_the_network() {
    let eval = NetEval::default();
    for (i, pos) in random_positions(16, 22).into_iter().enumerate() {
        let depth = 2 + (i % 3) as u32;
        let root = NetPosition::with_set(pos.clone(), nn::embedded());
        let mm = minimax_with(&root, &eval, depth, quiescence());
        let mut s = Search::new(eval.clone(), exact());
        let r = s.search(&root, &SearchLimits::depth(depth), |_| {});
        assert_eq!(r.score, mm.score, "{} at depth {depth}", pos.fen());
    }
}

/// Each selective idea alone, and all of them: the best move is legal, the principal variation
/// is a legal line starting with it, and the node counts are what the idea claims to change.
#[test]
fn every_selective_idea_plays_legal_lines() {
    let eval = CheckersEval::new(Weights::default());
    let base = SearchConfig {
        tt_mib: 4,
        ..SearchConfig::plain()
    };
    let configs = [
        (
            "lmr",
            SearchConfig {
                lmr: true,
                ..base.clone()
            },
        ),
        (
            "prune",
            SearchConfig {
                prune: true,
                ..base.clone()
            },
        ),
        (
            "razor",
            SearchConfig {
                razor: true,
                ..base.clone()
            },
        ),
        (
            "capext",
            SearchConfig {
                capture_extension: true,
                ..base.clone()
            },
        ),
        (
            "threat",
            SearchConfig {
                threat_extension: true,
                ..base.clone()
            },
        ),
        (
            "single",
            SearchConfig {
                single_reply_extension: true,
                ..base.clone()
            },
        ),
        (
            "iid",
            SearchConfig {
                iid: true,
                ..base.clone()
            },
        ),
        (
            "default",
            SearchConfig {
                tt_mib: 4,
                ..SearchConfig::default()
            },
        ),
    ];
    let positions = random_positions(12, 23);
    for (name, config) in configs {
        let mut used = false;
        for pos in &positions {
            let mut s = Search::new(eval.clone(), config.clone());
            let r = s.search(pos, &SearchLimits::depth(7), |_| {});
            let best = r.best_move.expect("a move");
            assert!(pos.moves().contains(&best), "{name}: {}", pos.fen());
            assert_eq!(r.pv.first(), Some(&best), "{name}");
            let mut line = pos.clone();
            for &m in &r.pv {
                assert!(
                    line.moves().contains(&m),
                    "{name}: PV not legal from {}",
                    pos.fen()
                );
                line.make(m);
            }
            let st = s.selective_stats();
            used |= match name {
                "lmr" => st.reductions > 0,
                "prune" | "razor" => st.prune_tries > 0,
                "capext" => st.capture_extensions > 0,
                "threat" => st.threat_extensions > 0,
                "single" => st.single_extensions > 0,
                _ => true,
            };
            if name != "default" && !matches!(name, "iid") {
                // Only the idea switched on leaves a trace.
                let others = [
                    (name != "lmr", st.reductions),
                    (name != "prune" && name != "razor", st.prune_tries),
                    (name != "capext", st.capture_extensions),
                    (name != "threat", st.threat_extensions),
                    (name != "single", st.single_extensions),
                ];
                for (off, count) in others {
                    assert!(!off || count == 0, "{name}: {st:?}");
                }
            }
        }
        assert!(used, "{name} never acted on 12 positions at depth 7");
    }
}

/// The threat extension sees one ply further where the opponent threatens a capture at the
/// horizon: on random positions where a depth-1 search with it chooses another move than
/// without it, a deeper minimax judges its choices better on the whole.
#[test]
fn the_threat_extension_sees_one_ply_further_at_the_horizon() {
    let eval = CheckersEval::new(Weights::default());
    let (mut differed, mut plain_total, mut threat_total) = (0, 0i64, 0i64);
    for pos in random_positions(200, 24) {
        let mut plain = Search::new(eval.clone(), exact());
        let mut threat = Search::new(
            eval.clone(),
            SearchConfig {
                threat_extension: true,
                ..exact()
            },
        );
        let a = plain.search(&pos, &SearchLimits::depth(1), |_| {});
        let b = threat.search(&pos, &SearchLimits::depth(1), |_| {});
        if a.best_move == b.best_move {
            continue;
        }
        differed += 1;
        let judge = |mv| {
            let after = pos.after(mv);
            -i64::from(minimax_with(&after, &eval, 3, quiescence()).score)
        };
        plain_total += judge(a.best_move.expect("move"));
        threat_total += judge(b.best_move.expect("move"));
    }
    assert!(
        differed > 5,
        "the extension changed only {differed} choices of 200"
    );
    assert!(
        threat_total > plain_total,
        "judged at depth 4: with the extension {threat_total}, without {plain_total} ({differed} positions)"
    );
}

#[test]
fn with_the_database_the_selective_search_keeps_won_endings_won() {
    let db = Arc::new(Egdb::build_in_memory(4).expect("tables"));
    let mut engine = Engine::with_search(
        Level::MAX,
        1,
        Weights::default(),
        Some(db.clone()),
        &EvalChoice::Net,
        &SearchChoice::default(),
    );
    let mut rng = Rng::new(31);
    let mut checked = 0;
    let mut tries = 0;
    while checked < 60 && tries < 200_000 {
        tries += 1;
        let sq = |r: &mut Rng| 1u32 << r.below(32);
        let (a, b, c, d) = (sq(&mut rng), sq(&mut rng), sq(&mut rng), sq(&mut rng));
        if (a | b | c | d).count_ones() != 4 {
            continue;
        }
        let kings = if rng.below(2) == 0 {
            a | c
        } else {
            a | b | c | d
        };
        let Ok(board) = Board::new(a | b, c | d, kings, qiyi_checkers::Color::Black) else {
            continue;
        };
        if db.probe(&board) != Some(Wld::Win) {
            continue;
        }
        let pos = Checkers::from_board(board);
        if pos.is_over() {
            continue;
        }
        engine.new_game();
        let r = engine.analyse(&pos, &SearchLimits::depth(8), |_| {});
        let next = pos.after(r.best_move.expect("a move"));
        let child = *next.board();
        let kept = next.is_over() || db.probe(&child) == Some(Wld::Loss);
        assert!(kept, "{} -> {}", pos.fen(), next.fen());
        checked += 1;
    }
    assert_eq!(checked, 60);
}

#[test]
fn search_switches_parse_from_specs_and_bad_ones_are_errors() {
    assert_eq!(
        SearchChoice::parse("core").ok(),
        Some(SearchChoice::Core { lmr: false })
    );
    let Ok(SearchChoice::Selective(c)) = SearchChoice::parse("nolmr:noprune,margin=12") else {
        panic!("switches parse");
    };
    assert!(!c.lmr && !c.prune && c.prune_margin == 12);
    assert!(SearchChoice::parse("nolmr:warp").is_err());
    assert!(SearchChoice::parse("margin=lots").is_err());
}

#[test]
fn lazy_smp_finds_a_legal_move_and_counts_every_thread() {
    let pos = random_positions(1, 25).remove(0);
    let mut s = Search::new(
        CheckersEval::new(Weights::default()),
        SearchConfig {
            threads: 2,
            ..SearchConfig::default()
        },
    );
    let r = s.search(&pos, &SearchLimits::depth(9), |_| {});
    assert!(pos.moves().contains(&r.best_move.expect("a move")));
    let mut one = Search::new(
        CheckersEval::new(Weights::default()),
        SearchConfig::default(),
    );
    let r1 = one.search(&pos, &SearchLimits::depth(9), |_| {});
    assert!(r.stats.nodes > r1.stats.nodes / 2);
}

#[test]
fn an_engine_reused_after_new_game_searches_as_a_fresh_one() {
    // The web keeps engines loaded between AI requests and starts a new game on them: what a
    // reused engine plays must be what a new one plays (the same move, score, depth and nodes).
    // Positions with a choice (a single legal move is played without a search).
    let positions: Vec<Checkers> = random_positions(12, 20)
        .into_iter()
        .filter(|p| {
            let mut moves = Vec::new();
            p.legal_moves(&mut moves);
            moves.len() >= 2
        })
        .take(4)
        .collect();
    assert_eq!(positions.len(), 4);
    let limits = SearchLimits::depth(7);
    let mut searched = 0;
    for level in [Level::Level(3), Level::Level(10)] {
        // Off the book: every position is searched.
        let mut reused = Engine::new(level, 1);
        reused.set_book(false);
        for (i, pos) in positions.iter().enumerate() {
            reused.new_game();
            reused.set_noise_seed(i as u64);
            let again = reused.think(pos, &limits, |_| {});
            let mut fresh = Engine::new(level, 1);
            fresh.set_book(false);
            fresh.set_noise_seed(i as u64);
            let first = fresh.think(pos, &limits, |_| {});
            assert_eq!(again.best_move, first.best_move, "{}", pos.fen());
            assert_eq!(again.score, first.score, "{}", pos.fen());
            assert_eq!(again.stats.depth, first.stats.depth, "{}", pos.fen());
            assert_eq!(again.stats.nodes, first.stats.nodes, "{}", pos.fen());
            assert!(first.stats.nodes > 0, "{}", pos.fen());
            searched += first.stats.nodes;
        }
    }
    assert!(searched > 10_000, "{searched} nodes in all");
}
