//! Puzzles for players (docs/puzzles.md): "you rolled R: which plane?", the best plane's exact
//! win chance ahead of every other by a margin that matters; the miner and the prover.
//!
//! **The puzzle** is a decision of a two-player game under the standard rules (a roll pending,
//! at least two distinct planes that can move) inside an exact [`Endgame`] table's class (one
//! player with at most `a` planes out, the other at most `b`). Every choice is valued by the
//! table: the turn's remaining rolls and choices are expanded through the rules engine down to
//! the table's turn-start values, so the win chances are exact (to the table's residual, below
//! 1e-12), not a model's. A puzzle is kept when the best choice's win chance beats the
//! second-best by at least [`MARGIN`] (five percentage points: a choice that loses one game in
//! twenty; smaller gaps are too close to the noise a player sees in a few games to teach
//! anything). The proof records every choice's win chance.
//!
//! **The miner** plays seeded two-player games with the crate's players (the tuned heuristic by
//! default) after 0..=R random plies, and tries every decision that falls inside the class.
//!
//! **Themes** describe the best move and what it turned down: `capture` (it sends an enemy plane
//! home), `decline-capture` (another choice captured and is worse), `takeoff`, `flight` (the
//! 18 -> 30 flight), `home-column` (it enters the home column), `finish` (a plane reaches the
//! centre), `after-six` (a decision after a 6, where a third six sends the planes moved by sixes
//! back), `race` (none of those), and `heuristic-misses` when the crate's tuned heuristic player
//! picks another plane. The rating estimate grows as the margin shrinks and when the heuristic
//! misses.
//!
//! Positions are the crate's notation ([`crate::notation`]); the move is the plane's letter.

/// The shipped puzzle set (`puzzles/aeroplane.jsonl` at this crate's root), proven by
/// `qiyi puzzles check`: what the server, the Python package and the tests embed.
pub const SHIPPED: &str = include_str!("../puzzles/aeroplane.jsonl");

use crate::board::{CENTRE, HANGAR, RING_LAST};
use crate::endgame::{Endgame, EndgameClass, EndgameError};
use crate::eval::Weights;
use crate::kind::PlayerKind;
use crate::oneply::HeuristicPlayer;
use crate::player::Player;
use crate::players::make_player;
use crate::position::{Aero, AeroMove};
use crate::rules::Rules;
use qiyi_core::puzzles::{Proof, PuzzleRecord, Rating, Source};
use qiyi_core::{Game, Notation, Rng, Turn};

/// The game name in puzzle files.
pub const GAME: &str = "aeroplane";

/// The least lead of the best choice over the second-best, in win chance (5 points).
pub const MARGIN: f64 = 0.05;

/// How far a recorded win chance may be from the one proven again.
const TOLERANCE: f64 = 1e-9;

/// The options of a mining run (everything that changes the puzzles).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MineOptions {
    /// The run's seed (game `i` uses `Rng::derive(seed, i)`).
    pub seed: u64,
    /// The player in both seats.
    pub player: PlayerKind,
    /// Random plies at the start of each game: uniformly 0..=R.
    pub random_plies: u32,
}

impl MineOptions {
    /// The run's manifest line for `class`.
    pub fn manifest(&self, class: EndgameClass) -> String {
        format!(
            "qiyi puzzles mine aeroplane: seed {} player {} random_plies {} class {} margin {} rules {}",
            self.seed,
            self.player,
            self.random_plies,
            class,
            MARGIN,
            Rules::STANDARD
        )
    }
}

/// Counts from mining games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MineStats {
    /// Games played.
    pub games: u64,
    /// Decisions inside the class with at least two choices: the candidates.
    pub candidates: u64,
    /// Candidates kept.
    pub passed: u64,
    /// Candidates whose best choice leads by less than [`MARGIN`].
    pub too_close: u64,
}

impl MineStats {
    /// Adds another game's counts.
    pub fn add(&mut self, o: &MineStats) {
        self.games += o.games;
        self.candidates += o.candidates;
        self.passed += o.passed;
        self.too_close += o.too_close;
    }
}

/// Why a puzzle does not prove.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    /// Not an aeroplane puzzle.
    #[error("not an aeroplane puzzle (game {0:?})")]
    NotAeroplane(String),
    /// The position does not read.
    #[error("position: {0}")]
    Position(#[from] crate::AeroError),
    /// The table cannot value it.
    #[error("{0}")]
    Table(#[from] EndgameError),
    /// The solution is not one asked move.
    #[error("the solution must be one asked move")]
    Shape,
    /// The solution is not the best choice, or not by the margin.
    #[error("{0}")]
    Wrong(String),
}

/// The seat name of player `p` in a two-player game.
fn side(p: usize) -> &'static str {
    if p == 0 {
        "red"
    } else {
        "blue"
    }
}

/// Planes out of player `p` (a plane moved by a 6 this turn counts even in the centre).
fn out(pos: &Aero, p: usize) -> usize {
    (0..4)
        .filter(|&i| {
            pos.planes(p)[i] != CENTRE || (p == pos.to_move() && pos.six_moved() & (1 << i) != 0)
        })
        .count()
}

/// The smallest class holding `pos` (a two-player position).
pub fn class_of(pos: &Aero) -> Result<EndgameClass, EndgameError> {
    EndgameClass::of_counts(out(pos, 0), out(pos, 1))
}

/// What a move did, for the themes.
fn move_facts(pos: &Aero, mv: AeroMove) -> (bool, bool, bool, bool, bool) {
    let AeroMove::Plane(i) = mv else {
        return (false, false, false, false, false);
    };
    let p = pos.to_move();
    let from = pos.planes(p)[i as usize];
    let step = pos.step_of(i as usize);
    let mut next = *pos;
    let effect = next.play(mv);
    let takeoff = from == HANGAR;
    let home = from != HANGAR && from <= RING_LAST && step.to > RING_LAST;
    (
        effect.captured > 0,
        takeoff,
        step.flew,
        home,
        step.to == CENTRE,
    )
}

/// The themes of a decision whose best move is `best` among `values`.
fn themes(pos: &Aero, best: AeroMove, values: &[(AeroMove, f64)], misses: bool) -> Vec<String> {
    let mut out = Vec::new();
    let (capture, takeoff, flew, home, finish) = move_facts(pos, best);
    let others_capture = values
        .iter()
        .filter(|(m, _)| *m != best)
        .any(|&(m, _)| move_facts(pos, m).0);
    for (on, name) in [
        (capture, "capture"),
        (!capture && others_capture, "decline-capture"),
        (takeoff, "takeoff"),
        (flew, "flight"),
        (home, "home-column"),
        (finish, "finish"),
    ] {
        if on {
            out.push(name.to_string());
        }
    }
    if out.is_empty() {
        out.push("race".to_string());
    }
    if pos.after_six() {
        out.push("after-six".to_string());
    }
    if misses {
        out.push("heuristic-misses".to_string());
    }
    out
}

/// The rating estimate: 1500 at a 10-point lead, 100 more for every point less (down to the
/// 5-point margin), 100 less per point more (floor 800); 250 more when the tuned heuristic picks
/// another plane.
pub fn rating_estimate(margin: f64, heuristic_misses: bool) -> f64 {
    let points = margin * 100.0;
    let base = (1500.0 + (10.0 - points) * 100.0).clamp(800.0, 2000.0);
    base + if heuristic_misses { 250.0 } else { 0.0 }
}

/// The proof text: every choice's win chance, best first.
fn detail(pos: &Aero, values: &[(AeroMove, f64)], class: EndgameClass) -> String {
    let list: Vec<String> = values
        .iter()
        .map(|&(m, v)| format!("{}={v:.12}", pos.move_to_text(m)))
        .collect();
    format!(
        "exact win chances of the player to move after each choice (endgame table {class}): {}; lead {:.2} points",
        list.join(" "),
        100.0 * (values[0].1 - values[1].1)
    )
}

/// A proven decision: the best choice, and every choice with its exact win chance, best first.
pub type Proven = (AeroMove, Vec<(AeroMove, f64)>);

/// The puzzle at decision `pos` if its best choice leads by [`MARGIN`]: `Ok(None)` when it does
/// not, an error when the table cannot value it.
pub fn prove(table: &Endgame, pos: &Aero) -> Result<Option<Proven>, EndgameError> {
    let values = table.choice_values(pos)?;
    if values.len() < 2 || values[0].1 - values[1].1 < MARGIN {
        return Ok(None);
    }
    Ok(Some((values[0].0, values)))
}

/// Whether the tuned heuristic player would pick another plane than `best`.
fn heuristic_misses(pos: &Aero, best: AeroMove) -> bool {
    let mut h = HeuristicPlayer::new(Weights::TUNED, Rng::new(0), 0.0);
    h.choose(pos) != best
}

/// The puzzle record of a proven decision.
fn record(
    table: &Endgame,
    pos: &Aero,
    best: AeroMove,
    values: &[(AeroMove, f64)],
    source: Source,
    id: String,
) -> PuzzleRecord {
    let misses = heuristic_misses(pos, best);
    PuzzleRecord {
        id,
        game: GAME.to_string(),
        variant: None,
        position: pos.to_text(),
        goal: Some(format!(
            "you rolled {}: move the plane that wins most often",
            pos.pending_roll()
        )),
        side: side(pos.to_move()).to_string(),
        solution: vec![pos.move_to_text(best)],
        asked: vec![0],
        themes: themes(pos, best, values, misses),
        rating: Rating::estimate(rating_estimate(values[0].1 - values[1].1, misses)),
        source,
        proof: Proof::Exact {
            by: "endgame table".to_string(),
            detail: detail(pos, values, table.class()),
        },
    }
}

/// Mines game `index` of a run with `table`: every decision inside its class is proven.
pub fn mine_game(
    table: &Endgame,
    opts: &MineOptions,
    index: u64,
) -> (Vec<PuzzleRecord>, MineStats) {
    let mut stats = MineStats {
        games: 1,
        ..Default::default()
    };
    let mut found = Vec::new();
    let Ok(mut pos) = Aero::new(Rules::STANDARD, 2) else {
        return (found, stats);
    };
    let mut rng = Rng::derive(opts.seed, index);
    let random = rng.below(opts.random_plies as usize + 1) as u32;
    let mut players = [
        make_player(opts.player, rng.next_u64()),
        make_player(opts.player, rng.next_u64()),
    ];
    let mut ply = 0u32;
    while ply < 5000 {
        let mv = match pos.turn() {
            Turn::Over => break,
            Turn::Chance => AeroMove::Roll(rng.below(6) as u8 + 1),
            Turn::Player(p) => {
                let choices = pos.choices();
                if choices.len() >= 2
                    && class_of(&pos)
                        .is_ok_and(|c| c.a() <= table.class().a() && c.b() <= table.class().b())
                {
                    stats.candidates += 1;
                    match prove(table, &pos) {
                        Ok(Some((best, values))) => {
                            stats.passed += 1;
                            found.push(record(
                                table,
                                &pos,
                                best,
                                &values,
                                Source::SelfPlay {
                                    seed: opts.seed,
                                    game: index,
                                    ply,
                                },
                                format!("aero-{}-{index}-{ply}", opts.seed),
                            ));
                        }
                        Ok(None) => stats.too_close += 1,
                        Err(_) => {}
                    }
                }
                if ply < random {
                    AeroMove::Plane(choices.as_slice()[rng.below(choices.len())])
                } else {
                    players[p & 1].choose(&pos)
                }
            }
        };
        pos.play(mv);
        ply += 1;
    }
    (found, stats)
}

/// A key equal for equal positions (the position text).
pub fn position_key(p: &PuzzleRecord) -> String {
    p.position.clone()
}

/// The recorded win chances of a proof (`letter=value` pairs).
fn recorded(detail: &str) -> Vec<(String, f64)> {
    detail
        .split_whitespace()
        .filter_map(|w| {
            let (k, v) = w.trim_end_matches(';').split_once('=')?;
            Some((k.to_string(), v.parse().ok()?))
        })
        .collect()
}

/// The endgame class a puzzle needs.
pub fn puzzle_class(p: &PuzzleRecord) -> Result<EndgameClass, CheckError> {
    let pos = Aero::from_text(&p.position)?;
    Ok(class_of(&pos)?)
}

/// Proves a puzzle again with `table` (whose class must hold it): the asked plane is the best
/// choice, ahead of every other by [`MARGIN`], and every recorded win chance is the one the
/// table gives (within 1e-9).
pub fn check_puzzle(p: &PuzzleRecord, table: &Endgame) -> Result<(), CheckError> {
    if p.game != GAME {
        return Err(CheckError::NotAeroplane(p.game.clone()));
    }
    if p.solution.len() != 1 || p.asked != [0] {
        return Err(CheckError::Shape);
    }
    let pos = Aero::from_text(&p.position)?;
    if side(pos.to_move()) != p.side {
        return Err(CheckError::Wrong(format!(
            "side {:?} is not the player to move",
            p.side
        )));
    }
    let mv = pos.parse_move(&p.solution[0])?;
    let values = table.choice_values(&pos)?;
    if values.len() < 2 {
        return Err(CheckError::Wrong("fewer than two choices".into()));
    }
    let mine = values.iter().find(|(m, _)| *m == mv).map(|x| x.1);
    let Some(mine) = mine else {
        return Err(CheckError::Wrong("the solution is not a choice".into()));
    };
    let other = values
        .iter()
        .filter(|(m, _)| *m != mv)
        .map(|x| x.1)
        .fold(f64::NEG_INFINITY, f64::max);
    if mine - other < MARGIN {
        return Err(CheckError::Wrong(format!(
            "{} wins {mine:.6}, another choice {other:.6}: lead below {:.0} points",
            p.solution[0],
            MARGIN * 100.0
        )));
    }
    if let Proof::Exact { detail, .. } = &p.proof {
        let rec = recorded(detail);
        for &(m, v) in &values {
            let text = pos.move_to_text(m);
            match rec.iter().find(|(k, _)| *k == text) {
                Some((_, r)) if (r - v).abs() <= TOLERANCE => {}
                Some((_, r)) => {
                    return Err(CheckError::Wrong(format!(
                        "{text}: recorded {r:.12}, proven {v:.12}"
                    )))
                }
                None => return Err(CheckError::Wrong(format!("{text}: no recorded value"))),
            }
        }
    } else {
        return Err(CheckError::Wrong("the proof is not exact".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endgame::tests::two_one;

    fn opts() -> MineOptions {
        MineOptions {
            seed: 3,
            player: PlayerKind::Heuristic,
            random_plies: 20,
        }
    }

    /// Mined puzzles prove again, and mining is deterministic.
    #[test]
    fn mined_puzzles_prove_and_mining_is_deterministic() {
        let t = two_one();
        let mut all = Vec::new();
        let mut stats = MineStats::default();
        for i in 0..30 {
            let (ps, st) = mine_game(t, &opts(), i);
            stats.add(&st);
            all.extend(ps);
        }
        assert!(stats.candidates > 0 && !all.is_empty(), "{stats:?}");
        assert_eq!(stats.passed as usize, all.len());
        for p in &all {
            check_puzzle(p, t).unwrap_or_else(|e| panic!("{}: {e}", p.id));
            assert!(!p.themes.is_empty());
        }
        let (again, _) = mine_game(t, &opts(), 0);
        let first: Vec<_> = all
            .iter()
            .filter(|p| matches!(p.source, Source::SelfPlay { game: 0, .. }))
            .cloned()
            .collect();
        assert_eq!(again, first);
    }

    /// Another plane, a changed win chance, another side or a position outside the class fail.
    #[test]
    fn a_tampered_puzzle_fails_its_check() {
        let t = two_one();
        let p = (0..40)
            .flat_map(|i| mine_game(t, &opts(), i).0)
            .next()
            .expect("a puzzle in 40 games");
        check_puzzle(&p, t).unwrap();
        let pos = Aero::from_text(&p.position).unwrap();
        let best = pos.parse_move(&p.solution[0]).unwrap();
        let other = t
            .choice_values(&pos)
            .unwrap()
            .into_iter()
            .find(|(m, _)| *m != best)
            .unwrap()
            .0;
        // Each tampering fails for its own reason, not merely somewhere.
        let wrong = |bad: &PuzzleRecord, why: &str| match check_puzzle(bad, t) {
            Err(CheckError::Wrong(m)) => assert!(m.contains(why), "{m}"),
            other => panic!("expected `{why}`, got {other:?}"),
        };
        let mut bad = p.clone();
        bad.solution = vec![pos.move_to_text(other)];
        wrong(&bad, "lead below");
        let mut bad = p.clone();
        bad.side = if p.side == "red" { "blue" } else { "red" }.into();
        wrong(&bad, "not the player to move");
        let mut bad = p.clone();
        if let Proof::Exact { detail, .. } = &mut bad.proof {
            *detail = detail.replacen("=0.", "=0.9", 1);
        }
        wrong(&bad, "recorded");
        let mut bad = p.clone();
        bad.solution = vec!["a".into(), "b".into()];
        assert!(matches!(check_puzzle(&bad, t), Err(CheckError::Shape)));
        // Red to move with all four planes out (4 vs 0 is outside 2v1); every plane can move 3.
        let mut bad = p.clone();
        bad.position =
            "standard players=2 move=0 roll=3 sixes=0 moved=0 places=0,0 planes=1,2,3,4/H,H,H,H"
                .into();
        bad.side = "red".into();
        bad.solution = vec!["a".into()];
        assert!(
            matches!(
                check_puzzle(&bad, t),
                Err(CheckError::Table(EndgameError::NotInClass(_)))
            ),
            "{:?}",
            check_puzzle(&bad, t)
        );
        let mut bad = p.clone();
        bad.position = "x".into();
        assert!(matches!(
            check_puzzle(&bad, t),
            Err(CheckError::Position(_))
        ));
        let mut bad = p;
        bad.game = "checkers".into();
        assert!(matches!(
            check_puzzle(&bad, t),
            Err(CheckError::NotAeroplane(_))
        ));
    }

    /// The shipped set (`crates/aeroplane/puzzles/aeroplane.jsonl`): every id distinct, a sample
    /// proven again with the 2-vs-1 table.
    #[test]
    fn the_shipped_set_is_proven_on_a_sample() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles/aeroplane.jsonl");
        let file = std::fs::File::open(path).expect("the shipped puzzle file");
        let puzzles = qiyi_core::puzzles::read_puzzles(std::io::BufReader::new(file))
            .expect("the shipped puzzles read");
        assert!(puzzles.len() >= 200, "{} puzzles", puzzles.len());
        let mut ids = std::collections::HashSet::new();
        for p in &puzzles {
            assert!(ids.insert(p.id.clone()), "duplicate id {}", p.id);
            assert_eq!(p.game, GAME);
        }
        let t = two_one();
        let step = (puzzles.len() / 40).max(1);
        for p in puzzles.iter().step_by(step) {
            check_puzzle(p, t).unwrap_or_else(|e| panic!("{}: {e}", p.id));
        }
    }
}
