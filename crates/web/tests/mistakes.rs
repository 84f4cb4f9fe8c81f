//! Your mistakes as puzzles: a reviewed game's blunder becomes a puzzle whose answer is the
//! review's best move, the blunder is refused by the review's own judge, and bad input is a
//! clear error.

use qiyi_core::review::{Class, Review};
use qiyi_web::error::ApiError;
use qiyi_web::mistakes::{check, puzzles, record_json, CheckBody, Played};
use serde_json::Value;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Checkers, Black (player 0) to move third plays 14-17 and gives a man away (at depth 4 the
/// review's best is 11-15).
fn blunder_game() -> (Played, Review) {
    let played = Played {
        game: "checkers".into(),
        rules: Value::Null,
        position: None,
        seed: 1,
        moves: ["10-14", "24-20", "14-17", "22x13"]
            .map(String::from)
            .to_vec(),
    };
    let text = record_json(&played).expect("the record");
    let task = qiyi_web::judges::prepare("checkers", &text, Some(4), no_cancel()).expect("judge");
    let review = task(&mut |_, _| {}).expect("the review");
    (played, review)
}

fn no_cancel() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[test]
fn a_blunder_becomes_a_puzzle_whose_answer_is_the_best_move() {
    let (played, review) = blunder_game();
    let r = &review.plies[2];
    assert_eq!(r.played, "14-17");
    // A man given away for nothing: a blunder or, by the slope fitted to the shipped net's
    // self-play (where a man up is often drawn), a mistake; both become puzzles.
    assert!(
        matches!(r.class, Some(Class::Mistake | Class::Blunder)),
        "{r:?}"
    );
    let best = r.best.clone().expect("a best move");

    let set = puzzles(&played, &review, 0, "g1").expect("puzzles");
    assert_eq!(set.puzzles.len(), 1, "one mistake of Black");
    let p = &set.puzzles[0];
    assert_eq!(p.puzzle.solution, vec![best.clone()]);
    assert_eq!(p.puzzle.asked, vec![0]);
    assert_eq!(p.puzzle.goal.as_deref(), Some("find the better move"));
    assert_eq!(p.puzzle.source["kind"], "review");
    assert_eq!(p.puzzle.source["game"], "g1");
    assert_eq!(p.puzzle.source["ply"], 2);
    assert_eq!(p.puzzle.proof["kind"], "engine");
    assert_eq!(p.puzzle.proof["depth"], 4);
    assert_eq!(p.puzzle.proof["second_best"], "14-17");
    assert_eq!(p.mistake.played, "14-17");
    assert_eq!(Some(p.mistake.class.as_str()), r.class.map(|c| c.name()));
    assert_eq!(p.mistake.depth, Some(4));
    // The board before the blunder, Black to move, and after the best move.
    assert_eq!(p.puzzle.steps.len(), 2);
    assert!(p.puzzle.steps[0].legal.iter().any(|m| m.text == "14-17"));
    let after = &p.puzzle.steps[1].history;
    assert_eq!(after.last().map(|h| h.text.as_str()), Some(best.as_str()));
    // White's moves are not Black's mistakes; White made none the review calls one here.
    let white = puzzles(&played, &review, 1, "g1").expect("white's puzzles");
    assert!(white
        .puzzles
        .iter()
        .all(|q| review.plies[q.mistake.ply].mover == 1));

    let body = |answer: &str, played: Option<&str>| CheckBody {
        position: p.puzzle.position.clone(),
        answer: answer.into(),
        best: best.clone(),
        played: played.map(String::from),
        depth: p.mistake.depth,
    };
    let right = check("checkers", &body(&best, Some("14-17")), no_cancel()).expect("checked");
    assert!(right.right && !right.judged);
    // The blunder, given to the judge (not short-cut as the move played): refused.
    let wrong = check("checkers", &body("14-17", None), no_cancel()).expect("checked");
    assert!(wrong.judged);
    assert!(!wrong.right, "{wrong:?}");
    assert!(
        matches!(wrong.class.as_deref(), Some("mistake" | "blunder")),
        "{wrong:?}"
    );
    let wrong = check("checkers", &body("14-17", Some("14-17")), no_cancel()).expect("checked");
    assert!(!wrong.right && !wrong.judged);
    // Every other move is judged and right exactly when the judge calls it best or good.
    for m in &p.puzzle.steps[0].legal {
        if m.text == best || m.text == "14-17" {
            continue;
        }
        let v = check("checkers", &body(&m.text, Some("14-17")), no_cancel()).expect("checked");
        assert!(v.judged);
        assert_eq!(
            v.right,
            matches!(v.class.as_deref(), Some("best" | "good")),
            "{} {v:?}",
            m.text
        );
    }
}

#[test]
fn bad_input_is_a_clear_error() {
    let (played, review) = blunder_game();
    let bad = |r: Result<_, ApiError>| match r {
        Err(ApiError::BadRequest(_) | ApiError::IllegalMove(..) | ApiError::UnknownGame(..)) => {}
        Err(e) => panic!("not a 400: {e}"),
        Ok(_) => panic!("accepted"),
    };
    bad(puzzles(&played, &review, 2, "g").map(|_| ()));
    let mut other = played.clone();
    other.moves[2] = "11-15".into();
    bad(puzzles(&other, &review, 0, "g").map(|_| ()));
    let mut xq = played.clone();
    xq.game = "xiangqi".into();
    bad(puzzles(&xq, &review, 0, "g").map(|_| ()));

    let set = puzzles(&played, &review, 0, "g").expect("puzzles");
    let p = &set.puzzles[0];
    let body = |position: &str, answer: &str, depth: Option<u32>| CheckBody {
        position: position.into(),
        answer: answer.into(),
        best: p.mistake.best.clone(),
        played: None,
        depth,
    };
    bad(check(
        "checkers",
        &body("not a position", "14-17", Some(4)),
        no_cancel(),
    )
    .map(|_| ()));
    bad(check(
        "checkers",
        &body(&p.puzzle.position, "1-2", Some(4)),
        no_cancel(),
    )
    .map(|_| ()));
    bad(check(
        "checkers",
        &body(&p.puzzle.position, "14-17", Some(99)),
        no_cancel(),
    )
    .map(|_| ()));
    bad(check("nim", &body(&p.puzzle.position, "14-17", None), no_cancel()).map(|_| ()));
    let long = "x".repeat(5000);
    bad(check("checkers", &body(&long, "14-17", Some(4)), no_cancel()).map(|_| ()));
}

/// A game of `game` from `position` (or the start) played by a fixed pseudo-random choice.
fn random_game(game: &str, rules: Value, position: Option<String>, plies: usize) -> Played {
    let mut s = qiyi_web::games::create(game, &rules, position.as_deref(), 7).expect("game");
    let mut moves = Vec::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..plies {
        let legal = s.legal_texts();
        if legal.is_empty() {
            break;
        }
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mv = legal[((x >> 33) as usize) % legal.len()].clone();
        s.play(&mv).expect("legal");
        moves.push(mv);
    }
    Played {
        game: game.into(),
        rules,
        position,
        seed: 7,
        moves,
    }
}

/// Every reviewed game: random play makes mistakes; each becomes a puzzle whose position has the
/// move played and the best move, the best move is right and the move played (given to the
/// judge) wrong.
#[test]
fn every_reviewed_game_makes_puzzles_of_its_mistakes() {
    // Peg solitaire from a middle position, where its exact judge is quick.
    let mut peg = qiyi_web::games::create("peg-solitaire", &Value::Null, None, 1).expect("peg");
    for _ in 0..14 {
        let first = peg.legal_texts()[0].clone();
        peg.play(&first).expect("legal");
    }
    let peg_mid = peg.snapshot().position;
    let cases = [
        ("xiangqi", Value::Null, None, 12, Some(2)),
        ("checkers", Value::Null, None, 30, Some(3)),
        ("chinese-checkers", Value::Null, None, 12, Some(1)),
        (
            "aeroplane",
            serde_json::json!({"players": 2}),
            None,
            400,
            None,
        ),
        ("peg-solitaire", Value::Null, Some(peg_mid), 10, None),
    ];
    for (game, rules, position, plies, depth) in cases {
        let played = random_game(game, rules, position, plies);
        let text = record_json(&played).expect("record");
        let task = qiyi_web::judges::prepare(game, &text, depth, no_cancel()).expect("judge");
        let review = task(&mut |_, _| {}).expect("review");
        let mut made = 0;
        for side in 0..review.players {
            let set = puzzles(&played, &review, side, "t").expect("puzzles");
            for p in &set.puzzles {
                made += 1;
                let m = &p.mistake;
                assert_eq!(review.plies[m.ply].mover, side, "{game}");
                let legal: Vec<&str> = p.puzzle.steps[0]
                    .legal
                    .iter()
                    .map(|l| l.text.as_str())
                    .collect();
                assert!(legal.contains(&m.best.as_str()), "{game}: {legal:?} {m:?}");
                assert!(
                    legal.contains(&m.played.as_str()),
                    "{game}: {legal:?} {m:?}"
                );
                assert_eq!(p.puzzle.solution, vec![m.best.clone()]);
                let body = |answer: &str| CheckBody {
                    position: p.puzzle.position.clone(),
                    answer: answer.into(),
                    best: m.best.clone(),
                    played: None,
                    depth,
                };
                assert!(
                    check(game, &body(&m.best), no_cancel())
                        .expect("best")
                        .right
                );
                if m.played != m.best {
                    let v = check(game, &body(&m.played), no_cancel()).expect("played");
                    assert!(v.judged, "{game}");
                    // Judged afresh, the move played may come out a little differently, but never
                    // as good when the review called it a blunder by a wide margin.
                    if m.loss >= 0.3 {
                        assert!(!v.right, "{game}: {m:?} {v:?}");
                    }
                }
            }
        }
        let counts: Vec<_> = review.summary.iter().map(|s| s.counts).collect();
        assert!(
            made > 0,
            "{game}: random play made no mistake the review saw ({} moves, {} plies, counts {counts:?})",
            played.moves.len(),
            review.plies.len()
        );
    }
}
