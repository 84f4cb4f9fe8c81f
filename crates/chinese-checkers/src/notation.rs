//! Text: hole names, moves, the position line and the board picture.
//!
//! - A hole is a row letter `a`-`q` and its number in the row from the left (see
//!   [`crate::board`]): `a1` is the top tip, `i5` the centre.
//! - A step is written `from-to` (`m4-l4`); a hop chain lists every landing hole joined by `:`
//!   (`m4:k4:i5`). [`Notation::parse_move`] also accepts `from-to` for a chain (the move to that
//!   hole) and any valid chain to a legal destination; `pass` is the pass.
//! - A position is one line of seven fields: players, pieces per player, flags (`s` anti-spoiling,
//!   `l` goal lock, `-` neither), move cap per player, the player to move (1-based), plies played,
//!   and the 17 rows top to bottom joined by `/`, with `.` for an empty hole and `1`-`6` for a
//!   player's piece. The default start is
//!   `2 10 s 200 1 0 2/22/222/2222/............./..../1111/111/11/1` (middle rows shortened here).

use crate::board::{bit, geometry, Cell, CELLS, ROWS, ROW_LEN};
pub use crate::error::Error;
use crate::movegen;
use crate::position::{Move, Position};
use crate::rules::Options;
use qiyi_core::{Game, Notation};

/// The name of a hole (`a1` ... `q1`).
pub fn cell_name(cell: Cell) -> String {
    let g = geometry();
    let r = g.row[cell as usize];
    format!("{}{}", (b'a' + r) as char, g.col[cell as usize] + 1)
}

/// Reads a hole name (case-insensitive).
pub fn parse_cell(text: &str) -> Result<Cell, Error> {
    let bad = || Error::BadCell(text.to_string());
    let t = text.trim();
    let mut chars = t.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_lowercase();
    if !letter.is_ascii_lowercase() || letter > 'q' {
        return Err(bad());
    }
    let row = (letter as u8 - b'a') as usize;
    let num: usize = chars.as_str().parse().map_err(|_| bad())?;
    if num == 0 || num > ROW_LEN[row] as usize {
        return Err(bad());
    }
    Ok(geometry().row_start[row] + (num - 1) as u8)
}

impl Notation for Position {
    type Error = Error;

    fn move_to_text(&self, mv: Move) -> String {
        if mv.is_pass() {
            return "pass".into();
        }
        let path = self.path(mv);
        let names: Vec<String> = path.iter().map(|&c| cell_name(c)).collect();
        let is_step = path.len() == 2 && movegen::step_targets(self.occ, mv.from) & bit(mv.to) != 0;
        names.join(if is_step { "-" } else { ":" })
    }

    fn parse_move(&self, text: &str) -> Result<Move, Error> {
        let t = text.trim();
        let mut legal = Vec::new();
        self.legal_moves(&mut legal);
        if t.eq_ignore_ascii_case("pass") {
            return if legal.contains(&Move::PASS) {
                Ok(Move::PASS)
            } else {
                Err(Error::IllegalMove(t.into()))
            };
        }
        let parts: Vec<&str> = t.split(['-', ':']).collect();
        if parts.len() < 2 || parts.len() > CELLS {
            return Err(Error::BadMove(t.into()));
        }
        let cells = parts
            .iter()
            .map(|p| parse_cell(p))
            .collect::<Result<Vec<Cell>, Error>>()?;
        let mv = Move {
            from: cells[0],
            to: cells[cells.len() - 1],
        };
        if !legal.contains(&mv) {
            return Err(Error::IllegalMove(t.into()));
        }
        if t.contains(':') {
            // A written chain must be a real chain of hops that never revisits a hole.
            let occ = self.occ & !bit(mv.from);
            let mut seen = 0u128;
            for w in cells.windows(2) {
                if seen & bit(w[0]) != 0 || !movegen::is_hop(occ, w[0], w[1]) {
                    return Err(Error::IllegalMove(t.into()));
                }
                seen |= bit(w[0]);
            }
            if seen & bit(mv.to) != 0 {
                return Err(Error::IllegalMove(t.into()));
            }
        } else if cells.len() != 2 {
            return Err(Error::BadMove(t.into()));
        }
        Ok(mv)
    }

    fn to_text(&self) -> String {
        let o = &self.opts;
        let mut flags = String::new();
        if o.anti_spoil {
            flags.push('s');
        }
        if o.goal_lock {
            flags.push('l');
        }
        if flags.is_empty() {
            flags.push('-');
        }
        let g = geometry();
        let mut rows = Vec::with_capacity(ROWS);
        for (r, &len) in ROW_LEN.iter().enumerate() {
            let start = g.row_start[r] as usize;
            let row: String = (start..start + len as usize)
                .map(|c| match self.owner[c] {
                    0 => '.',
                    p => (b'0' + p) as char,
                })
                .collect();
            rows.push(row);
        }
        format!(
            "{} {} {} {} {} {} {}",
            o.players,
            o.pieces,
            flags,
            o.max_moves,
            self.to_move + 1,
            self.ply,
            rows.join("/")
        )
    }

    fn from_text(text: &str) -> Result<Self, Error> {
        let bad = |m: &str| Error::BadPosition(m.to_string());
        let fields: Vec<&str> = text.split_whitespace().collect();
        if fields.len() != 7 {
            return Err(bad(
                "expected 7 fields: players pieces flags cap to-move ply rows",
            ));
        }
        let num = |s: &str, what: &str| -> Result<u32, Error> {
            s.parse::<u32>()
                .map_err(|_| Error::BadPosition(format!("{what} `{s}` is not a number")))
        };
        let players = num(fields[0], "players")? as usize;
        let pieces = num(fields[1], "pieces")? as usize;
        let flags = fields[2];
        if !flags.chars().all(|c| matches!(c, 's' | 'l' | '-')) {
            return Err(bad("flags are `s` (anti-spoiling), `l` (goal lock) or `-`"));
        }
        let opts = Options {
            players,
            pieces,
            anti_spoil: flags.contains('s'),
            goal_lock: flags.contains('l'),
            max_moves: num(fields[3], "move cap")?,
        };
        opts.validate()?;
        let to_move = num(fields[4], "player to move")? as usize;
        if to_move == 0 || to_move > players {
            return Err(bad("the player to move is 1..players"));
        }
        let ply = num(fields[5], "ply")?;
        let rows: Vec<&str> = fields[6].split('/').collect();
        if rows.len() != ROWS {
            return Err(bad("the board has 17 rows joined by `/`"));
        }
        let mut pos = Position::empty(opts);
        let g = geometry();
        let mut counts = [0usize; 6];
        for (r, row) in rows.iter().enumerate() {
            if row.chars().count() != ROW_LEN[r] as usize {
                return Err(Error::BadPosition(format!(
                    "row {} has {} holes, not {}",
                    (b'a' + r as u8) as char,
                    ROW_LEN[r],
                    row.chars().count()
                )));
            }
            for (i, ch) in row.chars().enumerate() {
                let cell = g.row_start[r] + i as u8;
                match ch {
                    '.' => {}
                    '1'..='6' => {
                        let p = ch as usize - '1' as usize;
                        if p >= players {
                            return Err(Error::BadPosition(format!(
                                "piece of player {} in a {players}-player game",
                                p + 1
                            )));
                        }
                        counts[p] += 1;
                        pos.put(p, cell);
                    }
                    _ => return Err(Error::BadPosition(format!("unknown hole mark `{ch}`"))),
                }
            }
        }
        if let Some(p) = (0..players).find(|&p| counts[p] == 0 || counts[p] > pieces) {
            return Err(Error::BadPosition(format!(
                "player {} has {} pieces (1 to {pieces} allowed)",
                p + 1,
                counts[p]
            )));
        }
        pos.to_move = (to_move - 1) as u8;
        pos.ply = ply;
        pos.hash = pos.hash_from_scratch();
        pos.status = pos.compute_status((to_move - 1 + players - 1) % players);
        Ok(pos)
    }
}

/// Draws a board as text: one line per row, holes two columns apart so the star's shape shows,
/// with `marks(cell)` giving each hole's character and the row letter at the left.
pub fn draw(marks: impl Fn(Cell) -> char) -> String {
    let g = geometry();
    let mut out = String::new();
    for (r, &len) in ROW_LEN.iter().enumerate() {
        let start = g.row_start[r] as usize;
        let mut line = [' '; 25];
        for c in start..start + len as usize {
            let (x, y, _) = g.coords[c];
            line[(x - y + 12) as usize] = marks(c as Cell);
        }
        let text: String = line.iter().collect();
        out.push((b'a' + r as u8) as char);
        out.push_str("  ");
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}

impl std::fmt::Display for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let pic = draw(|c| match self.owner[c as usize] {
            0 => '.',
            p => (b'0' + p) as char,
        });
        write!(f, "{pic}")
    }
}
