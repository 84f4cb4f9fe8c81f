//! The engine: evaluation symmetry, alpha-beta with the engine's evaluator against core's plain
//! minimax, database play in won endings, levels, and a short match between internal engines.

use qiyi_checkers::engine::egdb::flip;
use qiyi_checkers::engine::eval::{evaluate_board, CheckersEval, Weights};
use qiyi_checkers::engine::matches::{
    player_from_spec, run_match, run_match_range, GameRecord, InternalPlayer, MatchError,
    MatchPlayer,
};
use qiyi_checkers::engine::{Egdb, Engine, Level, Wld};
use qiyi_checkers::notation::board_from_fen;
use qiyi_checkers::{Board, Checkers};
use qiyi_core::search::{
    minimax, minimax_with, MinimaxOptions, SearchLimits, SearchOptions, Searcher,
};
use qiyi_core::{Game, Rng};
use std::sync::Arc;
use std::time::Duration;

/// Positions from seeded random playouts.
fn random_positions(n: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < n {
        let mut b = Board::start();
        let plies = 4 + rng.below(40);
        for _ in 0..plies {
            b.generate(&mut moves);
            if moves.is_empty() {
                break;
            }
            b = b.play(moves[rng.below(moves.len())]);
        }
        out.push(b);
    }
    out
}

#[test]
fn evaluation_is_colour_symmetric() {
    let w = Weights::default();
    for b in random_positions(300, 7) {
        let f = flip(&b);
        let f = Board::new(
            f.pieces(qiyi_checkers::Color::Black),
            f.pieces(qiyi_checkers::Color::White),
            f.kings(),
            f.side_to_move(),
        )
        .expect("a flipped position is legal");
        assert_eq!(evaluate_board(&w, &b), evaluate_board(&w, &f));
    }
}

#[test]
fn exact_alpha_beta_matches_minimax_with_the_engine_evaluation() {
    let eval = CheckersEval::new(Weights::default());
    for (i, b) in random_positions(12, 11).into_iter().enumerate() {
        let pos = Checkers::from_board(b);
        if pos.is_over() {
            continue;
        }
        let depth = 3 + (i % 2) as u32;
        let mm = minimax(&pos, &eval, depth);
        let mut s = Searcher::new(eval.clone(), SearchOptions::exact());
        let ab = s.search(&pos, &SearchLimits::depth(depth), |_| {});
        assert_eq!(ab.score, mm.score, "{}", pos.fen());
    }
}

#[test]
fn capture_resolution_matches_minimax_with_quiescence() {
    let eval = CheckersEval::new(Weights::default());
    let opts = SearchOptions {
        quiescence: true,
        move_ordering: true,
        killers: true,
        history: true,
        pvs: true,
        ..SearchOptions::none()
    };
    for b in random_positions(12, 5) {
        let pos = Checkers::from_board(b);
        if pos.is_over() {
            continue;
        }
        let mm = minimax_with(
            &pos,
            &eval,
            3,
            MinimaxOptions {
                quiescence: true,
                ..Default::default()
            },
        );
        let mut s = Searcher::new(eval.clone(), opts.clone());
        let ab = s.search(&pos, &SearchLimits::depth(3), |_| {});
        assert_eq!(ab.score, mm.score, "{}", pos.fen());
    }
}

#[test]
fn with_the_database_won_endings_stay_won() {
    let db = Arc::new(Egdb::build_in_memory(3).expect("tables"));
    let mut engine = Engine::with_parts(Level::MAX, 1, Weights::default(), Some(db.clone()));
    let mut rng = Rng::new(3);
    let mut checked = 0;
    let mut tries = 0;
    while checked < 40 && tries < 100_000 {
        tries += 1;
        let sq = |r: &mut Rng| 1u32 << r.below(32);
        let (a, b, c) = (sq(&mut rng), sq(&mut rng), sq(&mut rng));
        if a & b != 0 || a & c != 0 || b & c != 0 {
            continue;
        }
        let Ok(board) = Board::new(a | b, c, a | c, qiyi_checkers::Color::Black) else {
            continue;
        };
        if db.probe(&board) != Some(Wld::Win) {
            continue;
        }
        let pos = Checkers::from_board(board);
        let r = engine.think(&pos, &SearchLimits::depth(6), |_| {});
        let next = pos.after(r.best_move.expect("a move"));
        let child = *next.board();
        let kept = child.pieces(child.side_to_move()) == 0 || db.probe(&child) == Some(Wld::Loss);
        assert!(kept, "{} -> {}", pos.fen(), next.fen());
        checked += 1;
    }
    assert_eq!(checked, 40);
}

#[test]
fn levels_parse_and_play() {
    assert_eq!(
        Level::parse("seed").ok(),
        Some(Level::Seed {
            depth: Level::SEED_DEPTH
        })
    );
    assert_eq!(Level::parse("seed:4").ok(), Some(Level::Seed { depth: 4 }));
    assert_eq!(Level::parse("7").ok(), Some(Level::Level(7)));
    assert!(
        Level::parse("11").is_err() && Level::parse("0").is_err() && Level::parse("x").is_err()
    );
    let pos = Checkers::start();
    for l in ["seed", "1", "4", "8"] {
        let mut e = Engine::new(Level::parse(l).expect("level"), 1);
        let r = e.think(
            &pos,
            &SearchLimits::move_time(Duration::from_millis(50)),
            |_| {},
        );
        let mv = r.best_move.expect("a move");
        assert!(pos.moves().contains(&mv));
    }
}

#[test]
fn a_short_match_completes_with_consistent_counts() {
    let mut a = InternalPlayer::new(Level::Level(6), 1, None);
    let mut b = InternalPlayer::new(Level::Seed { depth: 4 }, 1, None);
    let mut seen = 0;
    let s = run_match(
        &mut a,
        &mut b,
        4,
        Duration::from_millis(20),
        1,
        None,
        |_, _| seen += 1,
    )
    .expect("match");
    assert_eq!(seen, 4);
    assert_eq!(s.games(), 4);
    let (elo, (lo, hi)) = (s.elo(), s.elo_interval());
    assert!(lo <= elo && elo <= hi);
}

/// A match at fixed depth split into pairs played by fresh players (as Ray tasks do) gives the
/// games of the whole match, move for move, at a noisy low level as well as at full strength.
#[test]
fn a_fixed_depth_match_played_pair_by_pair_equals_the_whole_match() {
    let specs = ["qiyi:level=3", "qiyi:seed:3"];
    let play = |range: std::ops::Range<usize>| -> Vec<(u16, bool, String, Vec<String>)> {
        let mut a = player_from_spec(specs[0], 1, None).expect("a");
        let mut b = player_from_spec(specs[1], 1, None).expect("b");
        a.set_limits(SearchLimits::depth(3)).expect("budget");
        b.set_limits(SearchLimits::depth(3)).expect("budget");
        let mut games = Vec::new();
        run_match_range(
            a.as_mut(),
            b.as_mut(),
            6,
            range,
            Duration::from_millis(1),
            7,
            None,
            |r: &GameRecord, _| {
                games.push((
                    r.ballot,
                    r.a_black,
                    format!("{:?}", r.score),
                    r.moves.clone(),
                ));
                true
            },
        )
        .expect("match");
        games
    };
    let whole = play(0..6);
    assert_eq!(whole.len(), 6);
    let pairs: Vec<_> = [4..6, 0..2, 2..4].into_iter().flat_map(play).collect();
    let mut in_order = pairs[2..].to_vec();
    in_order.extend_from_slice(&pairs[..2]);
    assert_eq!(in_order, whole);
    // Colours swap within a pair, on the same ballot.
    assert_eq!(whole[0].0, whole[1].0);
    assert!(whole[0].1 && !whole[1].1);
}

/// A player that is not ours (here a stub standing for a protocol engine) cannot be given a
/// fixed budget: the match says so instead of playing on time.
#[test]
fn only_our_engines_take_a_fixed_budget() {
    struct Other;
    impl MatchPlayer for Other {
        fn name(&self) -> String {
            "other".into()
        }
        fn new_game(&mut self) -> Result<(), MatchError> {
            Ok(())
        }
        fn choose(
            &mut self,
            _: &Board,
            _: &[qiyi_checkers::Move],
            _: &Checkers,
            _: Duration,
        ) -> Result<String, MatchError> {
            Err(MatchError::Protocol {
                name: "other".into(),
                what: "stub".into(),
            })
        }
    }
    let e = Other.set_limits(SearchLimits::depth(2)).unwrap_err();
    assert!(e.to_string().contains("qiyi's own engines"), "{e}");
    assert!(player_from_spec("qiyi:level=99", 1, None).is_err());
}

#[test]
fn fen_of_a_won_ending_is_probed_for_either_side() {
    let db = Egdb::build_in_memory(3).expect("tables");
    // Two kings against one: a win for the side with two, whoever moves.
    let b = board_from_fen("B:WK32:BK1,K5").expect("FEN");
    assert_eq!(db.probe(&b), Some(Wld::Win));
    let w = board_from_fen("W:WK32:BK1,K5").expect("FEN");
    assert_eq!(db.probe(&w), Some(Wld::Loss));
}

#[test]
fn the_embedded_book_covers_the_openings_with_legal_moves() {
    use qiyi_checkers::engine::book::{book_positions, Book};
    let book = Book::embedded();
    // Lines that do not parse or hold an illegal move are dropped, so this counts valid entries.
    assert_eq!(book.len(), book_positions().len());
    let start = Checkers::start();
    let mv = book.lookup(&start).expect("the start is in the book");
    assert!(start.moves().contains(&mv));
    for ballot in qiyi_checkers::ballot::all_ballots() {
        let (b, _) = ballot.play().expect("ballot");
        assert!(
            book.lookup(&Checkers::from_board(b)).is_some(),
            "ballot {}",
            ballot.number
        );
    }
}

#[test]
fn a_book_built_in_parts_or_resumed_equals_one_run() {
    use qiyi_checkers::engine::book::{
        book_header, book_header_budget, book_positions, build_lines, positions_in, BookBudget,
    };
    use std::collections::HashSet;
    let budget = BookBudget::Depth(7);
    let positions: Vec<_> = book_positions().into_iter().take(8).collect();
    let run = |subset: &[_], done: &HashSet<_>| {
        let mut lines = Vec::new();
        build_lines(
            subset,
            done,
            &budget,
            1,
            |l| {
                lines.push(l.to_string());
                Ok(())
            },
            |_, _| {},
        )
        .expect("no I/O");
        lines
    };
    let whole = run(&positions, &HashSet::new());
    assert_eq!(whole.len(), positions.len());
    // Two machines' shares (every other position), in any order, give the same lines.
    let even: Vec<_> = positions.iter().step_by(2).copied().collect();
    let odd: Vec<_> = positions.iter().skip(1).step_by(2).copied().collect();
    let mut parts = run(&odd, &HashSet::new());
    parts.extend(run(&even, &HashSet::new()));
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    assert_eq!(sorted(parts), sorted(whole.clone()));
    // Interrupted after three positions and resumed: the file ends as one run's.
    let mut text = book_header(&budget);
    for l in &whole[..3] {
        text.push_str(l);
    }
    let done = positions_in(&text);
    assert_eq!(done.len(), 3);
    for l in run(&positions, &done) {
        text.push_str(&l);
    }
    assert_eq!(text, book_header(&budget) + &whole.concat());
    assert_eq!(book_header_budget(&text).as_deref(), Some("--depth 7"));
    assert_eq!(
        book_header_budget("# FEN\tmove\tscore\tdepth (qiyi book checkers)\n"),
        None
    );
}
