//! Boards as terminal text: Unicode and ANSI colour on a terminal, plain ASCII otherwise, with
//! coordinates on the edges.

use super::PlayGame;
use qiyi_aeroplane::Aero;
use qiyi_core::{Game, Notation};
use qiyi_web::session::Snapshot;
use serde_json::Value;
use std::collections::BTreeMap;

/// How to draw.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    /// Unicode pieces (else ASCII letters).
    pub unicode: bool,
    /// ANSI colours.
    pub colour: bool,
    /// Seen from the other side (two-player boards).
    pub flipped: bool,
}

const RED: &str = "\x1b[1;31m";
const BLUE: &str = "\x1b[1;34m";
const RESET: &str = "\x1b[0m";
const PLAYER_COLOURS: [&str; 6] = [
    "\x1b[1;31m",
    "\x1b[1;34m",
    "\x1b[1;32m",
    "\x1b[1;33m",
    "\x1b[1;35m",
    "\x1b[1;36m",
];

fn paint(s: &str, colour: &str, style: &Style) -> String {
    if style.colour {
        format!("{colour}{s}{RESET}")
    } else {
        s.to_string()
    }
}

/// The board of `snap`, with a line saying whose turn it is.
pub fn board(game: PlayGame, snap: &Snapshot, style: &Style) -> String {
    let body = match game {
        PlayGame::Xiangqi => xiangqi(&snap.position, style),
        PlayGame::Checkers => checkers(&snap.position, style),
        PlayGame::ChineseCheckers => chinese_checkers(&snap.position, style),
        PlayGame::PegSolitaire => peg(&snap.view, style),
        PlayGame::Aeroplane => aeroplane(&snap.position, &snap.player_names, style),
    };
    body.unwrap_or_else(|| format!("position: {}\n", snap.position))
}

fn xiangqi(text: &str, style: &Style) -> Option<String> {
    use qiyi_xiangqi::{Color, Position, Square};
    let pos = Position::from_text(text).ok()?;
    let files: Vec<u8> = if style.flipped {
        (0..9).rev().collect()
    } else {
        (0..9).collect()
    };
    let ranks: Vec<u8> = if style.flipped {
        (0..10).collect()
    } else {
        (0..10).rev().collect()
    };
    let letters: String = files
        .iter()
        .map(|&f| format!(" {}", (b'a' + f) as char))
        .collect::<String>();
    let header = if style.unicode {
        files
            .iter()
            .map(|&f| format!("{} ", (b'a' + f) as char))
            .collect::<String>()
    } else {
        letters.clone()
    };
    let mut out = format!("   {}\n", header.trim_end());
    for &r in &ranks {
        let mut line = format!("{r:>2} ");
        for &f in &files {
            let sq = Square::new(f, r)?;
            let cell = match pos.piece_at(sq) {
                Some((kind, colour)) if style.unicode => {
                    let g = qiyi_web::games::xiangqi::glyph(kind, colour);
                    let c = if colour == Color::Red { RED } else { BLUE };
                    paint(g, c, style)
                }
                Some((kind, colour)) => {
                    let c = kind_letter(kind);
                    let c = if colour == Color::Red {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    };
                    format!(" {c}")
                }
                None if style.unicode => "·".to_string() + " ",
                None => " .".to_string(),
            };
            line.push_str(&cell);
        }
        out.push_str(line.trim_end());
        out.push('\n');
        if (r == 5 && !style.flipped) || (r == 4 && style.flipped) {
            out.push_str("   ~~~~~~~~~~~~~~~~~~ river\n");
        }
    }
    out.push_str(&format!("   {}\n", header.trim_end()));
    out.push_str("(Red: capitals / red, Black: lower case / blue)\n");
    Some(out)
}

fn kind_letter(kind: qiyi_xiangqi::PieceKind) -> char {
    // FEN letters in PieceKind order: king, advisor, elephant, horse, chariot, cannon, pawn.
    const L: [char; 7] = ['k', 'a', 'b', 'n', 'r', 'c', 'p'];
    L[kind as usize]
}

fn checkers(text: &str, style: &Style) -> Option<String> {
    use qiyi_checkers::board::Color;
    let pos = qiyi_checkers::Checkers::from_text(text).ok()?;
    let b = pos.board();
    let rows: Vec<u8> = if style.flipped {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let cols: Vec<u8> = if style.flipped {
        (0..8).rev().collect()
    } else {
        (0..8).collect()
    };
    let mut out = String::new();
    for &row in &rows {
        let mut line = String::new();
        for &col in &cols {
            if (row + col) % 2 == 0 {
                line.push_str("   ");
                continue;
            }
            let sq = row * 4 + col / 2 + 1;
            let cell = match b.piece_at(sq) {
                Some((c, king)) => {
                    let (s, colour) = match (c, king, style.unicode) {
                        (Color::Black, false, true) => ("●", RED),
                        (Color::Black, true, true) => ("♛", RED),
                        (Color::White, false, true) => ("○", BLUE),
                        (Color::White, true, true) => ("♕", BLUE),
                        (Color::Black, false, false) => ("b", RED),
                        (Color::Black, true, false) => ("B", RED),
                        (Color::White, false, false) => ("w", BLUE),
                        (Color::White, true, false) => ("W", BLUE),
                    };
                    format!(" {} ", paint(s, colour, style))
                }
                None => format!("{sq:>3}"),
            };
            line.push_str(&cell);
        }
        let lo = row * 4 + 1;
        out.push_str(&format!("{:>5} |{}|\n", format!("{lo}-{}", lo + 3), line));
    }
    out.push_str(
        "(empty dark squares show their number; Black b/B moves first, capitals are kings)\n",
    );
    Some(out)
}

fn chinese_checkers(text: &str, style: &Style) -> Option<String> {
    let pos = qiyi_chinese_checkers::position::Position::from_text(text).ok()?;
    let pic = pos.to_string();
    let mut out = String::new();
    for line in pic.lines() {
        let mut chars = line.chars();
        let row = chars.next().unwrap_or(' ');
        out.push(row);
        for c in chars {
            match c.to_digit(10) {
                Some(d) if d >= 1 && style.unicode => {
                    let colour = PLAYER_COLOURS[(d as usize - 1) % PLAYER_COLOURS.len()];
                    out.push_str(&paint("●", colour, style));
                }
                _ if c == '.' && style.unicode => out.push('·'),
                _ => out.push(c),
            }
        }
        out.push('\n');
    }
    out.push_str(
        "(rows a-q from the top; a hole is its row letter and its place in the row from the left, \
         e.g. e5; pieces show their player's number)\n",
    );
    Some(out)
}

fn peg(view: &Value, style: &Style) -> Option<String> {
    let holes = view.get("holes")?.as_array()?;
    // Grid positions: x doubled so triangular boards (half steps) fit.
    let mut cells: BTreeMap<(i64, i64), (String, bool)> = BTreeMap::new();
    for h in holes {
        let x = (h.get("x")?.as_f64()? * 2.0).round() as i64;
        let y = (h.get("y")?.as_f64()? / 0.866 * 1.0).round() as i64;
        let y = if view.get("board")?.as_str()? == "triangle" {
            y
        } else {
            h.get("y")?.as_f64()?.round() as i64
        };
        let id = h.get("id")?.as_str()?.to_string();
        cells.insert((y, x), (id, h.get("peg")?.as_bool()?));
    }
    let min_x = cells.keys().map(|k| k.1).min()?;
    let max_x = cells.keys().map(|k| k.1).max()?;
    let min_y = cells.keys().map(|k| k.0).min()?;
    let max_y = cells.keys().map(|k| k.0).max()?;
    // Column letters and row numbers from the hole names (letters then digits), when they agree.
    let split = |id: &str| {
        let at = id.find(|c: char| c.is_ascii_digit()).unwrap_or(id.len());
        (id[..at].to_string(), id[at..].to_string())
    };
    let mut col_names: BTreeMap<i64, String> = BTreeMap::new();
    let mut row_names: BTreeMap<i64, String> = BTreeMap::new();
    for (&(y, x), (id, _)) in &cells {
        let (c, r) = split(id);
        col_names.entry(x).or_insert(c);
        row_names.entry(y).or_insert(r);
    }
    let header: String = (min_x..=max_x)
        .map(|x| match col_names.get(&x) {
            Some(c) if x % 2 == 0 || view["board"] == "triangle" => c.chars().next().unwrap_or(' '),
            _ => ' ',
        })
        .collect();
    let show_header = view["board"] != "triangle";
    let mut out = String::new();
    if show_header {
        out.push_str(&format!("    {}\n", header.trim_end()));
    }
    for y in min_y..=max_y {
        let mut line = String::new();
        for x in min_x..=max_x {
            match cells.get(&(y, x)) {
                Some((_, true)) if style.unicode => line.push_str(&paint("●", RED, style)),
                Some((_, false)) if style.unicode => line.push('○'),
                Some((_, true)) => line.push('o'),
                Some((_, false)) => line.push('.'),
                None => line.push(' '),
            }
        }
        let label = row_names.get(&y).cloned().unwrap_or_default();
        out.push_str(&format!("{label:>3} {}\n", line.trim_end()));
    }
    if show_header {
        out.push_str(&format!("    {}\n", header.trim_end()));
    }
    out.push_str(&format!(
        "pegs: {}  goal: {}  (o peg, . hole)\n",
        view.get("pegs").cloned().unwrap_or(Value::Null),
        view.get("goal")
            .and_then(Value::as_str)
            .unwrap_or("one peg")
    ));
    Some(out)
}

/// The planes of every player (progress along the player's own route; 56 is home), drawn from
/// the position text so it works whichever adapter made the session.
fn aeroplane(position: &str, names: &[String], style: &Style) -> Option<String> {
    let pos = Aero::from_text(position).ok()?;
    let mut out = String::from(
        "        a       b       c       d      (plane: steps flown from the launch pad, 56 = home)\n",
    );
    let to_move = pos.to_move();
    for p in 0..pos.players() {
        let name = names.get(p).cloned().unwrap_or(format!("player {p}"));
        let cells: String = pos
            .planes(p)
            .iter()
            .map(|&d| format!("{:<8}", super::aero::progress_text(d)))
            .collect();
        let marker = match (p == to_move, style.unicode) {
            (true, true) => "▶",
            (true, false) => ">",
            _ => " ",
        };
        out.push_str(&format!("{marker}{name:<7}{}\n", cells.trim_end()));
    }
    Some(out)
}
