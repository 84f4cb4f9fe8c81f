//! Text: FEN positions in and out, ICCS moves (`h2e2`) in and out, WXF moves (`C2=5`) in and out,
//! Chinese moves (`炮二平五`) out.
//!
//! FEN: `w`, `r` (either case) are Red, `b` Black; the `- -` placeholders and the two counters may
//! be missing. The board is validated: ten ranks of nine points, known letters, one general per
//! side inside its palace, advisors, elephants and soldiers only on points they can reach, no more
//! pieces of a kind than the set has, and the side not to move not in check. Every problem is a
//! [`XiangqiError`] naming it.
//!
//! WXF: piece letter (`K A E H R C P`; `B` and `N` are read as `E` and `H`), the file counted from
//! the mover's right (or `+`/`-` for the front/rear of two like pieces on one file; for three or
//! more soldiers on a file the foremost is `+`, the rearmost `-` and the others keep the file
//! digit), the direction (`+` forward, `-` backward, `=` or `.` sideways) and the destination file
//! (sideways moves and advisors, elephants, horses) or the number of points moved.

use crate::board::*;
use crate::error::XiangqiError;
use crate::position::{Move, Position};

const CN_NUM: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const FW_NUM: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// The largest halfmove clock or move number a FEN may give (and the most [`Position::to_fen`]
/// writes).
const MAX_FEN_COUNTER: u32 = 1_000_000;

impl Position {
    /// Parses a FEN (see the module docs for the accepted variants and the checks made).
    pub fn from_fen(text: &str) -> Result<Position, XiangqiError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(XiangqiError::EmptyFen)?;
        let ranks: Vec<&str> = board.split('/').collect();
        if ranks.len() != 10 {
            return Err(XiangqiError::RankCount(ranks.len()));
        }
        let mut placed: Vec<(PieceKind, Color, Square)> = Vec::with_capacity(32);
        for (row, text) in ranks.iter().enumerate() {
            let rank = 9 - row as u8;
            let mut file: usize = 0;
            for ch in text.chars() {
                if let Some(d) = ch.to_digit(10).filter(|d| (1..=9).contains(d)) {
                    file += d as usize;
                } else {
                    let (kind, color) =
                        PieceKind::from_fen_char(ch).ok_or(XiangqiError::UnknownPiece(ch))?;
                    if let Some(sq) = Square::new(file as u8, rank).filter(|_| file < 9) {
                        placed.push((kind, color, sq));
                    }
                    file += 1;
                }
                if file > 9 {
                    break;
                }
            }
            if file != 9 {
                let len = text
                    .chars()
                    .map(|c| c.to_digit(10).map(|d| d as usize).unwrap_or(1))
                    .sum();
                return Err(XiangqiError::RankLength { rank: row + 1, len });
            }
        }
        // Counts.
        for color in [Color::Red, Color::Black] {
            for kind in PieceKind::ALL {
                let count = placed
                    .iter()
                    .filter(|&&(k, c, _)| k == kind && c == color)
                    .count();
                if kind == PieceKind::King {
                    if count == 0 {
                        return Err(XiangqiError::MissingGeneral(color));
                    }
                    if count > 1 {
                        return Err(XiangqiError::TwoGenerals(color));
                    }
                } else if count > kind.set_count() {
                    return Err(XiangqiError::TooManyPieces {
                        color,
                        kind,
                        count,
                        max: kind.set_count(),
                    });
                }
            }
        }
        // Points each piece can stand on.
        for &(kind, color, square) in &placed {
            let m = square.to_mailbox() as usize;
            let ci = color.index();
            // Ranks seen from the piece's own side.
            let own_rank = match color {
                Color::Red => square.rank(),
                Color::Black => 9 - square.rank(),
            };
            let f = square.file();
            let ok = match kind {
                PieceKind::King => {
                    if !IN_PALACE[ci][m] {
                        return Err(XiangqiError::GeneralOutsidePalace { color, square });
                    }
                    true
                }
                PieceKind::Advisor => {
                    IN_PALACE[ci][m] && ((f == 4 && own_rank == 1) || (f != 4 && own_rank != 1))
                }
                PieceKind::Elephant => {
                    matches!((f, own_rank), (2 | 6, 0 | 4) | (0 | 4 | 8, 2))
                }
                PieceKind::Pawn => own_rank >= 5 || (own_rank >= 3 && f % 2 == 0),
                _ => true,
            };
            if !ok {
                return Err(XiangqiError::UnreachablePoint {
                    color,
                    kind,
                    square,
                });
            }
        }
        let mut pos = Position::empty();
        for &(kind, color, sq) in &placed {
            // Counts were checked above, so a slot is always free.
            if !pos.put(kind, color, sq) {
                return Err(XiangqiError::TooManyPieces {
                    color,
                    kind,
                    count: kind.set_count() + 1,
                    max: kind.set_count(),
                });
            }
        }
        pos.side = match fields.next() {
            None => return Err(XiangqiError::MissingSide),
            Some("w" | "W" | "r" | "R") => Color::Red,
            Some("b" | "B") => Color::Black,
            Some(other) => return Err(XiangqiError::BadSide(other.chars().take(20).collect())),
        };
        let mut numbers = Vec::new();
        for field in fields {
            if field == "-" {
                continue;
            }
            let n: u32 = field
                .parse()
                .map_err(|_| XiangqiError::BadCounter(field.chars().take(20).collect()))?;
            if numbers.len() == 2 || n > MAX_FEN_COUNTER {
                return Err(XiangqiError::BadCounter(field.chars().take(20).collect()));
            }
            numbers.push(n);
        }
        pos.halfmove = numbers.first().copied().unwrap_or(0);
        pos.fullmove = numbers.get(1).copied().unwrap_or(1).max(1);
        pos.hash = pos.compute_hash();
        let other = pos.side.opposite();
        if pos.is_in_check(other) {
            return Err(XiangqiError::OpponentInCheck(other));
        }
        Ok(pos)
    }

    /// Writes the position as FEN (`w`/`b`, `- -`, halfmove clock, move number).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(80);
        for rank in (0..10u8).rev() {
            let mut empty = 0;
            for file in 0..9u8 {
                let c = self.board[mb(file, rank) as usize];
                if c == EMPTY {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push((b'0' + empty) as char);
                    empty = 0;
                }
                let color = if c & RED_BIT != 0 {
                    Color::Red
                } else {
                    Color::Black
                };
                s.push(kind_from_code(CELL_KIND[c as usize]).fen_char(color));
            }
            if empty > 0 {
                s.push((b'0' + empty) as char);
            }
            if rank > 0 {
                s.push('/');
            }
        }
        let side = match self.side {
            Color::Red => 'w',
            Color::Black => 'b',
        };
        // Counters are written no larger than the reader takes, so every written FEN reads back
        // (a game read at counter 1,000,000 and played on; found by the `xiangqi_fen` fuzzer).
        s.push_str(&format!(
            " {side} - - {} {}",
            self.halfmove.min(MAX_FEN_COUNTER),
            self.fullmove.min(MAX_FEN_COUNTER)
        ));
        s
    }

    /// Parses an ICCS move (`h2e2`, `H2-E2`) without checking legality.
    pub fn parse_iccs(text: &str) -> Result<Move, XiangqiError> {
        let bad = || XiangqiError::BadMoveText(text.chars().take(20).collect());
        let t: Vec<char> = text
            .trim()
            .chars()
            .filter(|&c| c != '-')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if t.len() != 4 {
            return Err(bad());
        }
        let sq = |f: char, r: char| -> Option<Square> {
            if !('a'..='i').contains(&f) || !r.is_ascii_digit() {
                return None;
            }
            Square::new(f as u8 - b'a', r as u8 - b'0')
        };
        let from = sq(t[0], t[1]).ok_or_else(bad)?;
        let to = sq(t[2], t[3]).ok_or_else(bad)?;
        Ok(Move::new(from, to))
    }

    /// Parses a legal move in ICCS (`h2e2`) or WXF (`C2=5`) notation.
    pub fn parse_move_text(&self, text: &str) -> Result<Move, XiangqiError> {
        let clipped: String = text.chars().take(20).collect();
        let mv = match Position::parse_iccs(text) {
            Ok(mv) => mv,
            Err(_) => return self.parse_wxf(text),
        };
        if self.is_legal(mv) {
            Ok(mv)
        } else {
            Err(XiangqiError::IllegalMove(clipped))
        }
    }

    /// The mover's file number (1..9 from the mover's right).
    fn file_number(color: Color, file: u8) -> u8 {
        match color {
            Color::Red => 9 - file,
            Color::Black => file + 1,
        }
    }

    /// For `mv`'s piece: (number of like pieces on its file, its index counted from the front).
    fn tandem(&self, mv: Move) -> (usize, usize) {
        let from = mv.from;
        let code = self.board[from as usize];
        let kind = CELL_KIND[code as usize];
        let us = code & (RED_BIT | BLACK_BIT);
        let file = mb_file(from);
        let red = us == RED_BIT;
        let mut ranks: Vec<u8> = (0..10u8)
            .filter(|&r| {
                let c = self.board[mb(file, r) as usize];
                c & us != 0 && CELL_KIND[c as usize] == kind
            })
            .collect();
        // Front first: higher ranks are in front for Red, lower ranks for Black.
        if red {
            ranks.reverse();
        }
        let idx = ranks.iter().position(|&r| r == mb_rank(from)).unwrap_or(0);
        (ranks.len(), idx)
    }

    /// True when `mv` moves a pawn and two or more files each hold two or more of the mover's
    /// pawns. Called for a piece in tandem on its file: then the official notation names the
    /// file in place of the piece (WXF `7-.6`, Chinese `后七平六`).
    fn pawn_in_two_tandem_files(&self, mv: Move) -> bool {
        let code = self.board[mv.from as usize];
        if CELL_KIND[code as usize] != K_PAWN {
            return false;
        }
        let us = code & (RED_BIT | BLACK_BIT);
        let tandem_files = (0..9u8)
            .filter(|&file| {
                (0..10u8)
                    .filter(|&r| {
                        let c = self.board[mb(file, r) as usize];
                        c & us != 0 && CELL_KIND[c as usize] == K_PAWN
                    })
                    .count()
                    >= 2
            })
            .count();
        tandem_files >= 2
    }

    /// Writes a legal move in WXF notation (`C2=5`, `R+=4`, `H8+7`).
    pub fn move_to_wxf(&self, mv: Move) -> String {
        self.wxf_with(mv, true)
    }

    fn wxf_with(&self, mv: Move, tandem_signs: bool) -> String {
        let code = self.board[mv.from as usize];
        if code == EMPTY || code == OFF {
            return mv.to_string();
        }
        let color = if code & RED_BIT != 0 {
            Color::Red
        } else {
            Color::Black
        };
        let kind = kind_from_code(CELL_KIND[code as usize]);
        let (from, to) = (mv.from(), mv.to());
        let mut s = String::with_capacity(4);
        let digit = (b'0' + Self::file_number(color, from.file())) as char;
        let diagonal = matches!(
            kind,
            PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse
        );
        let (n, idx) = self.tandem(mv);
        if !tandem_signs || n < 2 || matches!(kind, PieceKind::Advisor | PieceKind::Elephant) {
            s.push(kind.wxf_char());
            s.push(digit);
        } else if self.pawn_in_two_tandem_files(mv) {
            // WXF's tandem pawns in two files: the file replaces the piece letter (`3+.4`,
            // `33.4`, `3-.4`).
            s.push(digit);
            s.push(match idx {
                0 => '+',
                i if i == n - 1 => '-',
                _ => digit,
            });
        } else {
            // One file: front `+`, rear `-`, a middle pawn by its file; of four or five pawns
            // the foremost and rearmost are `++` and `--`, the next ones `P+` and `P-`.
            let (first, second) = match (n, idx) {
                (4 | 5, 0) => ('+', '+'),
                (4 | 5, i) if i == n - 1 => ('-', '-'),
                (4 | 5, 1) => (kind.wxf_char(), '+'),
                (4 | 5, i) if i == n - 2 => (kind.wxf_char(), '-'),
                (_, 0) => (kind.wxf_char(), '+'),
                (_, i) if i == n - 1 => (kind.wxf_char(), '-'),
                _ => (kind.wxf_char(), digit),
            };
            s.push(first);
            s.push(second);
        }
        let forward = match color {
            Color::Red => to.rank() > from.rank(),
            Color::Black => to.rank() < from.rank(),
        };
        if from.rank() == to.rank() {
            s.push('=');
            s.push((b'0' + Self::file_number(color, to.file())) as char);
        } else {
            s.push(if forward { '+' } else { '-' });
            if diagonal {
                s.push((b'0' + Self::file_number(color, to.file())) as char);
            } else {
                s.push((b'0' + from.rank().abs_diff(to.rank())) as char);
            }
        }
        s
    }

    /// Parses a legal move in WXF notation (`.` and `=` both mean sideways; `B`/`N` read as
    /// `E`/`H`; a file digit is accepted in place of `+`/`-` when it names one piece).
    pub fn parse_wxf(&self, text: &str) -> Result<Move, XiangqiError> {
        let clipped: String = text.chars().take(20).collect();
        let norm: String = text
            .trim()
            .chars()
            .map(|c| match c.to_ascii_uppercase() {
                '.' => '=',
                'B' => 'E',
                'N' => 'H',
                c => c,
            })
            .collect();
        let chars: Vec<char> = norm.chars().collect();
        if chars.len() != 4
            || !(("KAEHRCP+-".contains(chars[0])) || ('1'..='9').contains(&chars[0]))
            || !(chars[1].is_ascii_digit() || chars[1] == '+' || chars[1] == '-')
            || !"+-=".contains(chars[2])
            || !('1'..='9').contains(&chars[3])
        {
            return Err(XiangqiError::BadMoveText(clipped));
        }
        let list = self.legal_move_list();
        let exact: Vec<Move> = list
            .as_slice()
            .iter()
            .copied()
            .filter(|&m| self.wxf_with(m, true) == norm)
            .collect();
        let found = if exact.is_empty() {
            list.as_slice()
                .iter()
                .copied()
                .filter(|&m| self.wxf_with(m, false) == norm)
                .collect()
        } else {
            exact
        };
        match found.len() {
            0 => Err(XiangqiError::IllegalMove(clipped)),
            1 => Ok(found[0]),
            _ => Err(XiangqiError::AmbiguousMove(clipped)),
        }
    }

    /// Writes a legal move in Chinese notation (`炮二平五`, `马８进７`, `前车进一`).
    pub fn move_to_chinese(&self, mv: Move) -> String {
        let code = self.board[mv.from as usize];
        if code == EMPTY || code == OFF {
            return mv.to_string();
        }
        let color = if code & RED_BIT != 0 {
            Color::Red
        } else {
            Color::Black
        };
        let nums = match color {
            Color::Red => CN_NUM,
            Color::Black => FW_NUM,
        };
        let num = |n: u8| nums[(n as usize).clamp(1, 9) - 1];
        let kind = kind_from_code(CELL_KIND[code as usize]);
        let (from, to) = (mv.from(), mv.to());
        let mut s = String::new();
        let (n, idx) = self.tandem(mv);
        if n < 2 || matches!(kind, PieceKind::Advisor | PieceKind::Elephant) {
            s.push(kind.chinese_char(color));
            s.push(num(Self::file_number(color, from.file())));
        } else if self.pawn_in_two_tandem_files(mv) {
            // Tandem pawns in two files: 前/中/后 and the file, the piece left out (`后七平六`).
            s.push(match idx {
                0 => '前',
                i if i == n - 1 => '后',
                _ => '中',
            });
            s.push(num(Self::file_number(color, from.file())));
        } else {
            let prefix = if idx == 0 {
                '前'
            } else if idx == n - 1 {
                '后'
            } else if n == 3 {
                '中'
            } else {
                CN_NUM[idx]
            };
            s.push(prefix);
            s.push(kind.chinese_char(color));
        }
        let forward = match color {
            Color::Red => to.rank() > from.rank(),
            Color::Black => to.rank() < from.rank(),
        };
        if from.rank() == to.rank() {
            s.push('平');
            s.push(num(Self::file_number(color, to.file())));
        } else {
            s.push(if forward { '进' } else { '退' });
            if matches!(
                kind,
                PieceKind::Advisor | PieceKind::Elephant | PieceKind::Horse
            ) {
                s.push(num(Self::file_number(color, to.file())));
            } else {
                s.push(num(from.rank().abs_diff(to.rank())));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::START_FEN;

    fn mv(pos: &Position, s: &str) -> Move {
        pos.parse_move_text(s).unwrap()
    }

    #[test]
    fn start_fen_round_trips() {
        let p = Position::from_fen(START_FEN).unwrap();
        assert_eq!(p.to_fen(), START_FEN);
        let short =
            Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r")
                .unwrap();
        assert_eq!(short.to_fen(), START_FEN);
    }

    #[test]
    fn wxf_and_chinese_of_opening_moves() {
        let p = Position::start();
        let m = mv(&p, "h2e2");
        assert_eq!(p.move_to_wxf(m), "C2=5");
        assert_eq!(p.move_to_chinese(m), "炮二平五");
        assert_eq!(p.parse_wxf("C2=5").unwrap(), m);
        assert_eq!(p.parse_wxf("c2.5").unwrap(), m);
        let h = mv(&p, "b0c2");
        assert_eq!(p.move_to_wxf(h), "H8+7");
        assert_eq!(p.move_to_chinese(h), "马八进七");
        let r = mv(&p, "a0a1");
        assert_eq!(p.move_to_wxf(r), "R9+1");
        let mut q = p.clone();
        q.make(m);
        let bh = mv(&q, "h9g7");
        assert_eq!(q.move_to_wxf(bh), "H8+7");
        assert_eq!(q.move_to_chinese(bh), "马８进７");
        let be = mv(&q, "c9e7");
        assert_eq!(q.move_to_wxf(be), "E3+5");
    }

    #[test]
    fn wxf_tandem_pieces() {
        // Two red chariots on file e (Red's file 5).
        let p = Position::from_fen("5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1").unwrap();
        let front = Move::new(Square::new(4, 4).unwrap(), Square::new(4, 8).unwrap());
        assert_eq!(p.move_to_wxf(front), "R++4");
        assert_eq!(p.move_to_chinese(front), "前车进四");
        let rear = Move::new(Square::new(4, 2).unwrap(), Square::new(0, 2).unwrap());
        assert_eq!(p.move_to_wxf(rear), "R-=9");
        assert_eq!(p.parse_wxf("R-=9").unwrap(), rear);
        assert_eq!(p.parse_wxf("R++4").unwrap(), front);
    }

    #[test]
    fn bad_fens_name_the_problem() {
        use XiangqiError::*;
        let cases: &[(&str, XiangqiError)] = &[
            ("", EmptyFen),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/RNBAKABNR w",
                RankCount(9),
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
                RankLength { rank: 10, len: 8 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNRR w",
                RankLength { rank: 10, len: 10 },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w",
                UnknownPiece('X'),
            ),
            (
                "rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                MissingGeneral(Color::Black),
            ),
            (
                "rnbakabnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                TwoGenerals(Color::Black),
            ),
            (
                "rnba1abnr/9/1c5c1/p1p1p1p1p/4k4/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
                GeneralOutsidePalace {
                    color: Color::Black,
                    square: Square::new(4, 5).unwrap(),
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4C4/RNBAKABNR w",
                TooManyPieces {
                    color: Color::Red,
                    kind: PieceKind::Cannon,
                    count: 3,
                    max: 2,
                },
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x",
                BadSide("x".into()),
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
                MissingSide,
            ),
            (
                "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1",
                BadCounter("x".into()),
            ),
            // Kings face each other on an open file: the side not to move is in check.
            (
                "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
                OpponentInCheck(Color::Black),
            ),
            (
                "3k5/9/9/9/9/9/9/9/3A5/4K4 w - - 0 1",
                UnreachablePoint {
                    color: Color::Red,
                    kind: PieceKind::Advisor,
                    square: Square::new(3, 1).unwrap(),
                },
            ),
        ];
        for (fen, want) in cases {
            assert_eq!(Position::from_fen(fen).unwrap_err(), *want, "{fen}");
        }
    }

    #[test]
    fn iccs_parses_both_forms() {
        let p = Position::start();
        assert_eq!(Position::parse_iccs("H2-E2").unwrap(), mv(&p, "h2e2"));
        assert!(Position::parse_iccs("j2e2").is_err());
        assert!(matches!(
            p.parse_move_text("e0e2"),
            Err(XiangqiError::IllegalMove(_))
        ));
        assert!(matches!(
            p.parse_move_text("zz"),
            Err(XiangqiError::BadMoveText(_))
        ));
    }
}
