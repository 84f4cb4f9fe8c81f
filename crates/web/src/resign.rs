//! Resigning from a game of more than two players (aeroplane chess, Chinese checkers with 3-6
//! seats): the seat drops out and the others play on.
//!
//! A resigned seat is out: it can no longer win, and in the final ranking it is below every seat
//! that did not resign. Its pieces stay on the board (the rules have no way to lift them), and
//! when its turn comes the server plays for it at once, choosing the least it can: a pass where
//! the rules allow one, else the first legal move in the rules' order (what Board Game Arena's
//! "zombie" turns do). Those moves are stored like any other, so replaying the record reproduces
//! them. When only one seat that has not resigned is left, the game ends and that seat wins; when
//! every human seat has resigned, the game ends too (nobody is left to play for: the AI seats
//! still in share the result, with return 0).
//!
//! Two-player games keep the usual resignation (the other side wins at once, see `crate::api`).

use crate::db::Resignation;
use crate::error::ApiError;
use crate::session::{GameResult, HistoryEntry, Seat};
use crate::store::GameEntry;

/// The most turns the server plays in a row for resigned seats after one change (a guard: the
/// rules end every game long before).
const MAX_RESIGNED_TURNS: usize = 100_000;

/// The move text of a pass in the games that have one.
const PASS: &str = "pass";

/// True when seat `p` has resigned.
pub fn has_resigned(resigned: &[Resignation], p: usize) -> bool {
    resigned.iter().any(|r| r.player == p)
}

/// The seats of a game of `players` seats that have not resigned.
pub fn active(players: usize, resigned: &[Resignation]) -> Vec<usize> {
    (0..players)
        .filter(|&p| !has_resigned(resigned, p))
        .collect()
}

/// Seat `p` of `entry` (a game of more than two players) resigns: it drops out, the server
/// plays its turns from now on, and the game ends when one seat is left or no human seat is.
/// 409 when the seat has already resigned. The caller commits.
pub fn resign_seat(entry: &mut GameEntry, p: usize) -> Result<(), ApiError> {
    let names = entry.session.snapshot().player_names;
    let name = |q: usize| {
        names
            .get(q)
            .cloned()
            .unwrap_or_else(|| format!("player {}", q + 1))
    };
    if has_resigned(&entry.resigned, p) {
        return Err(ApiError::Conflict(format!(
            "{} has already resigned",
            name(p)
        )));
    }
    entry.resigned.push(Resignation {
        player: p,
        ply: entry.session.ply(),
    });
    entry.draw_offer = None;
    let left = active(entry.seats.len(), &entry.resigned);
    let humans_left = left
        .iter()
        .any(|&q| entry.seats.get(q) == Some(&Seat::Human));
    if left.len() > 1 && humans_left {
        return play_resigned_turns(entry);
    }
    let out: Vec<String> = entry.resigned.iter().map(|r| name(r.player)).collect();
    let winner = (left.len() == 1).then(|| left[0]);
    let returns = (0..entry.seats.len())
        .map(|q| match winner {
            Some(w) if w == q => 1.0,
            _ if has_resigned(&entry.resigned, q) => -1.0,
            _ => 0.0,
        })
        .collect();
    let reason = match winner {
        Some(w) => format!(
            "{} resigned: {} is the last player left",
            out.join(", "),
            name(w)
        ),
        None => format!("{} resigned: no human player is left", out.join(", ")),
    };
    entry.ended = Some(GameResult {
        returns,
        winner,
        reason,
    });
    Ok(())
}

/// Plays the turns of resigned seats while one of them is to move (a pass where legal, else
/// the first legal move). Called after every change of a game with resignations.
pub fn play_resigned_turns(entry: &mut GameEntry) -> Result<(), ApiError> {
    if entry.resigned.is_empty() {
        return Ok(());
    }
    for _ in 0..MAX_RESIGNED_TURNS {
        let Some(p) = entry.to_move() else {
            return Ok(());
        };
        if !has_resigned(&entry.resigned, p) {
            return Ok(());
        }
        let legal = entry.session.legal_texts();
        let mv = legal
            .iter()
            .find(|m| m.as_str() == PASS)
            .or_else(|| legal.first())
            .ok_or_else(|| {
                ApiError::Internal(format!("resigned seat {p} is to move with no legal move"))
            })?
            .clone();
        entry.session.play(&mv)?;
    }
    Ok(())
}

/// How many chosen moves `undo` takes back for `plies` moves of seats that had not resigned
/// when they moved: each with the server's moves for resigned seats that followed it. `None`
/// when the record holds fewer such moves.
pub fn undo_count(
    history: &[HistoryEntry],
    resigned: &[Resignation],
    plies: usize,
) -> Option<usize> {
    let mut count = 0;
    let mut left = plies;
    for h in history.iter().rev() {
        if left == 0 {
            break;
        }
        let Some(q) = h.player else {
            continue;
        };
        count += 1;
        let by_server = resigned.iter().any(|r| r.player == q && r.ply < h.ply);
        if !by_server {
            left -= 1;
        }
    }
    (left == 0).then_some(count)
}

/// The rules' result of a game some seats resigned from: every resigned seat gets the lowest
/// return (-1), and the winner is the one best seat among those that did not resign (none when
/// a resigned seat's moves ended the game and the others tie).
pub fn rank_resigned(mut result: GameResult, resigned: &[Resignation]) -> GameResult {
    if resigned.is_empty() {
        return result;
    }
    for r in resigned {
        if let Some(x) = result.returns.get_mut(r.player) {
            *x = -1.0;
        }
    }
    let left = active(result.returns.len(), resigned);
    let best = left
        .iter()
        .map(|&p| result.returns[p])
        .fold(f64::NEG_INFINITY, f64::max);
    let leaders: Vec<usize> = left
        .into_iter()
        .filter(|&p| result.returns[p] == best)
        .collect();
    result.winner = (leaders.len() == 1 && best > 0.0).then(|| leaders[0]);
    result.reason = format!("{} (resigned seats rank last)", result.reason);
    result
}

/// The resignations made within the first `ply` plies (what a replay at that ply shows).
pub fn resigned_by(resigned: &[Resignation], ply: usize) -> Vec<usize> {
    resigned
        .iter()
        .filter(|r| r.ply <= ply)
        .map(|r| r.player)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resigned_seats_rank_last_and_cannot_win() {
        let rules = GameResult {
            returns: vec![1.0, -0.5, -0.5],
            winner: Some(0),
            reason: "Red brought all four planes home".into(),
        };
        let r = rank_resigned(rules.clone(), &[Resignation { player: 0, ply: 4 }]);
        assert_eq!(r.returns, vec![-1.0, -0.5, -0.5]);
        assert_eq!(r.winner, None, "a resigned seat's finish wins for nobody");
        let r = rank_resigned(rules.clone(), &[Resignation { player: 2, ply: 4 }]);
        assert_eq!(r.returns, vec![1.0, -0.5, -1.0]);
        assert_eq!(r.winner, Some(0));
        assert_eq!(rank_resigned(rules.clone(), &[]), rules);
    }

    #[test]
    fn replay_shows_resignations_from_their_ply() {
        let resigned = [
            Resignation { player: 1, ply: 3 },
            Resignation { player: 2, ply: 9 },
        ];
        assert!(resigned_by(&resigned, 2).is_empty());
        assert_eq!(resigned_by(&resigned, 3), vec![1]);
        assert_eq!(resigned_by(&resigned, 9), vec![1, 2]);
        assert_eq!(active(4, &resigned), vec![0, 3]);
    }

    fn entry(ply: usize, player: Option<usize>) -> HistoryEntry {
        HistoryEntry {
            ply,
            player,
            text: String::new(),
            path: Vec::new(),
            label: None,
        }
    }

    #[test]
    fn undo_takes_back_the_servers_moves_with_the_move_before_them() {
        // Seat 1 resigned at ply 2; plies 3 (roll), 4 (seat 1, by the server), 5 (seat 0).
        let history = [
            entry(1, Some(0)),
            entry(2, Some(2)),
            entry(3, None),
            entry(4, Some(1)),
            entry(5, Some(0)),
        ];
        let resigned = [Resignation { player: 1, ply: 2 }];
        assert_eq!(undo_count(&history, &resigned, 1), Some(1));
        assert_eq!(undo_count(&history, &resigned, 2), Some(3));
        assert_eq!(undo_count(&history, &resigned, 3), Some(4));
        assert_eq!(undo_count(&history, &resigned, 4), None);
        assert_eq!(undo_count(&history, &[], 4), Some(4));
    }
}
