//! The checkers review judge: exact where the endgame database covers the position (checked
//! against the database's own value of the position before the move, which the judge never
//! reads, on 1,200 random positions), the engine elsewhere (a move an independent deeper search
//! shows dropping material is classed a mistake or worse), and the annotated PDN read back.

use qiyi_checkers::engine::{Egdb, Engine, Level, Wld};
use qiyi_checkers::pdn::read_pdn_game;
use qiyi_checkers::review::{annotated_pdn, review_game, CheckersJudge, JudgeOptions, WIN_SLOPE};
use qiyi_checkers::{Board, Checkers, Color};
use qiyi_core::review::{self, Class};
use qiyi_core::search::SearchLimits;
use qiyi_core::{Game, Notation, Rng};
use std::sync::Arc;

const GAME: &str = include_str!("data/review-game.pdn");

fn win(w: Wld) -> f64 {
    match w {
        Wld::Win => 1.0,
        Wld::Draw => 0.5,
        Wld::Loss => 0.0,
    }
}

/// A random legal position with 2-4 pieces (each side at least one) that is not over.
fn random_position(rng: &mut Rng) -> Option<Checkers> {
    let n = 2 + rng.below(3);
    let (mut black, mut white, mut kings) = (0u32, 0u32, 0u32);
    for i in 0..n {
        let sq = loop {
            let s = rng.below(32);
            if (black | white) & (1 << s) == 0 {
                break s;
            }
        };
        let bit = 1u32 << sq;
        let is_black = match i {
            0 => true,
            1 => false,
            _ => rng.below(2) == 0,
        };
        if is_black {
            black |= bit
        } else {
            white |= bit
        }
        if rng.below(2) == 0 {
            kings |= bit
        }
    }
    let side = if rng.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    };
    let board = Board::new(black, white, kings, side).ok()?;
    let pos = Checkers::from_board(board);
    (!pos.is_over()).then_some(pos)
}

#[test]
fn database_decided_classes_agree_with_the_database_on_1200_positions() {
    let db = Arc::new(Egdb::build_in_memory(4).expect("tables"));
    let options = JudgeOptions {
        limits: SearchLimits::depth(4),
        egdb: Some(db.clone()),
        ..JudgeOptions::default()
    };
    let mut judge = CheckersJudge::new(options).expect("a judge");
    let mut rng = Rng::new(20261203);
    let mut counts = [0usize; 5];
    let (mut checked, mut missed, mut only) = (0, 0, 0);
    while checked < 1200 {
        let Some(pos) = random_position(&mut rng) else {
            continue;
        };
        let moves = pos.moves();
        let mv = moves[rng.below(moves.len())];
        let r = review::review(
            "checkers",
            "test",
            &pos,
            &[mv],
            &mut judge,
            |p, m| p.move_to_text(m),
            |_, _| {},
        )
        .expect("review");
        let p = &r.plies[0];
        let fen = pos.fen();
        let before = win(db.probe(pos.board()).expect("covered"));
        let child = pos.after(mv);
        let after = if child.is_over() {
            review::result_from_returns(&child)[pos.to_move()]
        } else {
            1.0 - win(db.probe(child.board()).expect("covered"))
        };
        assert!(p.exact, "{fen}");
        assert_eq!(p.before.win, before, "{fen}: the value before");
        assert_eq!(p.after_played.win, after, "{fen} {}: after", p.played);
        let forced = moves.len() == 1;
        let threw_win = before == 1.0 && after < 1.0;
        let want = if forced {
            Class::Best
        } else if threw_win {
            Class::Blunder
        } else {
            Class::from_loss(before - after)
        };
        assert_eq!(p.class, Some(want), "{fen} {}", p.played);
        assert_eq!(p.missed_win, threw_win && !forced, "{fen} {}", p.played);
        // The better move keeps the database's value.
        let best = pos
            .parse(p.best.as_deref().expect("a best move"))
            .expect("the best move is legal");
        let best_child = pos.after(best);
        let kept = if best_child.is_over() {
            review::result_from_returns(&best_child)[pos.to_move()]
        } else {
            1.0 - win(db.probe(best_child.board()).expect("covered"))
        };
        assert_eq!(kept, before, "{fen}: best {} keeps the value", p.played);
        counts[want as usize] += 1;
        missed += usize::from(p.missed_win);
        only += usize::from(p.only_move);
        checked += 1;
    }
    // The sample holds every kind of verdict the database can give.
    eprintln!("classes {counts:?}, missed wins {missed}, only moves {only}");
    assert!(counts[Class::Best as usize] > 300, "{counts:?}");
    assert!(counts[Class::Blunder as usize] > 40, "{counts:?}");
    assert!(missed > 20 && only > 20, "missed {missed} only {only}");
}

#[test]
fn a_move_a_deeper_search_shows_dropping_material_is_a_mistake() {
    let game = read_pdn_game(GAME).expect("the fixture reads");
    let mut pos = Checkers::from_board(game.start);
    let mut checker = Engine::new(Level::MAX, 1);
    let mut found = 0;
    for &mv in game.moves.iter().take(40) {
        let moves = pos.moves();
        if moves.len() > 2 && !moves[0].is_capture() {
            // Every move's value by an independent depth-8 search of its child.
            let vals: Vec<(qiyi_checkers::Move, i32)> = moves
                .iter()
                .map(|&m| {
                    let r = checker.analyse(&pos.after(m), &SearchLimits::depth(8), |_| {});
                    (m, -r.score)
                })
                .collect();
            let best = vals.iter().map(|v| v.1).max().expect("moves");
            let &(worst, worst_score) = vals.iter().min_by_key(|v| v.1).expect("moves");
            // A drop worth well over the mistake threshold (0.10 of win chance) by the judge's
            // own slope: about 300 cp or more near equality.
            let loss = review::logistic(f64::from(best), WIN_SLOPE)
                - review::logistic(f64::from(worst_score), WIN_SLOPE);
            if loss >= 0.12 && best.abs() < 150 {
                let options = JudgeOptions {
                    limits: SearchLimits::depth(8),
                    ..JudgeOptions::default()
                };
                let r = review_game(&pos, &[worst], &options, |_, _| {}).expect("review");
                let p = &r.plies[0];
                assert!(
                    p.class >= Some(Class::Mistake),
                    "{}: {} drops {} cp ({loss:.3} of win chance) by depth 8 but is classed {:?}",
                    pos.fen(),
                    p.played,
                    best - worst_score,
                    p.class
                );
                found += 1;
            }
        }
        pos.make(mv);
    }
    assert!(found >= 3, "only {found} positions with a dropping move");
}

#[test]
fn a_whole_game_keeps_the_identity_and_the_annotated_pdn_reads_back() {
    let game = read_pdn_game(GAME).expect("the fixture reads");
    let start = Checkers::from_board(game.start);
    let options = JudgeOptions {
        limits: SearchLimits::depth(6),
        ..JudgeOptions::default()
    };
    let r = review_game(&start, &game.moves, &options, |_, _| {}).expect("review");
    assert_eq!(r.plies.len(), game.moves.len());
    for s in &r.summary {
        assert!(s.identity_error.abs() < 1e-9, "{s:?}");
        assert!(s.finished, "the fixture ends with White out of moves");
    }
    assert_eq!(r.summary[0].result, 1.0);
    for p in &r.plies {
        if p.kind == review::PlyKind::Decision {
            assert!(
                p.wins_after[p.mover] <= p.wins_before[p.mover] + 1e-12,
                "ply {}: a decision never gains win chance",
                p.ply
            );
            assert!(p.exact || p.after_played.unit.is_some(), "ply {}", p.ply);
        }
    }
    let text = annotated_pdn(&game.tags, &game.start, &game.moves, game.result, &r);
    let back = read_pdn_game(&text).expect("the annotated PDN reads");
    assert_eq!(back.moves, game.moves);
    assert_eq!(back.result, game.result);
    assert_eq!(back.tag("Black"), game.tag("Black"));
    assert!(back
        .tag("Annotator")
        .is_some_and(|a| a.starts_with("qiyi review")));
    let evals = text.matches("[%eval ").count() + text.matches("database: ").count();
    assert_eq!(evals, game.moves.len(), "one evaluation per move");
    let poor = r
        .plies
        .iter()
        .filter(|p| !p.forced && p.class.is_some_and(|c| !c.symbol().is_empty()))
        .count();
    let movetext = text
        .split("\n\n")
        .nth(1)
        .expect("tags, a blank line, move text");
    assert_eq!(
        movetext.matches('(').count(),
        poor,
        "a variation per poor move"
    );
}

#[test]
fn limits_a_review_cannot_use_are_refused() {
    let bad = |limits: SearchLimits| {
        let options = JudgeOptions {
            limits,
            ..JudgeOptions::default()
        };
        CheckersJudge::new(options).err().map(|e| e.to_string())
    };
    assert!(bad(SearchLimits::depth(10_000)).is_some_and(|e| e.contains("out of range")));
    assert!(bad(SearchLimits::depth(0)).is_some());
    assert!(bad(SearchLimits::default()).is_some_and(|e| e.contains("needs a depth")));
    assert!(bad(SearchLimits::depth(12)).is_none());
}

proptest::proptest! {
    /// Any text, JSON-looking or PDN-looking, is a record or a clear error, never a panic; what
    /// reads holds only legal moves.
    #[test]
    fn any_text_reads_or_fails_cleanly(
        text in "(\\{\"game\":\"checkers\",\"moves\":\\[(\"[0-9x-]{1,8}\",?){0,6}\\]\\})|([0-9. x-]{0,40})|(.{0,60})"
    ) {
        if let Ok(r) = qiyi_checkers::review::read_record(&text) {
            let mut pos = Checkers::from_board(r.start);
            for mv in r.moves {
                proptest::prop_assert!(pos.moves().contains(&mv));
                pos.make(mv);
            }
        }
    }
}
