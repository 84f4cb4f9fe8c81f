//! PDN game files: tag pairs, move text with move numbers, comments and a result.
//!
//! Reading keeps the tags, the main line (every move checked for legality), the comments (with the
//! number of moves played before each) and the result. Variations in parentheses, NAGs (`$1`),
//! move-strength marks (`!`, `?`) and `%`/`;` line comments are skipped. A `[FEN "..."]` tag sets
//! the start position. Several games in one file are read one after another.

use crate::board::{Board, Color};
use crate::movegen::Move;
use crate::notation::{self, NotationError};

/// The result of a game as written in PDN.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Black (the first player) won: `1-0` (also read: `2-0`).
    BlackWins,
    /// White won: `0-1` (also read: `0-2`).
    WhiteWins,
    /// A draw: `1/2-1/2` (also read: `1-1`).
    Draw,
    /// Unknown or unfinished: `*`.
    Unknown,
}

impl GameResult {
    /// The PDN token for English checkers.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::BlackWins => "1-0",
            GameResult::WhiteWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }

    fn parse(token: &str) -> Option<GameResult> {
        Some(match token {
            "1-0" | "2-0" => GameResult::BlackWins,
            "0-1" | "0-2" => GameResult::WhiteWins,
            "1/2-1/2" | "1-1" | "½-½" => GameResult::Draw,
            "*" => GameResult::Unknown,
            _ => return None,
        })
    }
}

/// One game of a PDN file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order (`Event`, `Black`, `White`, `FEN`, ...).
    pub tags: Vec<(String, String)>,
    /// The start position (from the `FEN` tag, else the standard start).
    pub start: Board,
    /// The main line.
    pub moves: Vec<Move>,
    /// Comments, each with the number of moves played before it.
    pub comments: Vec<(usize, String)>,
    /// The result token.
    pub result: GameResult,
}

impl PdnGame {
    /// A game from `start` with no moves, tags or comments.
    pub fn new(start: Board) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            comments: Vec::new(),
            result: GameResult::Unknown,
        }
    }

    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The position after every move of the main line.
    pub fn final_board(&self) -> Board {
        self.moves.iter().fold(self.start, |b, &m| b.play(m))
    }

    /// Writes the game as PDN (tags, a blank line, move text wrapped at 80 columns, result).
    pub fn to_pdn(&self) -> String {
        let mut out = String::new();
        let mut has_fen = false;
        for (k, v) in &self.tags {
            has_fen |= k == "FEN";
            out.push_str(&format!(
                "[{} \"{}\"]\n",
                k,
                qiyi_core::record::escape_tag(v)
            ));
        }
        if !has_fen && self.start != Board::start() {
            out.push_str(&format!(
                "[FEN \"{}\"]\n",
                notation::board_to_fen(&self.start)
            ));
        }
        if !self.tags.is_empty() || !has_fen && self.start != Board::start() {
            out.push('\n');
        }
        let mut tokens: Vec<String> = Vec::new();
        let mut board = self.start;
        let mut ci = 0;
        let push_comments = |tokens: &mut Vec<String>, ci: &mut usize, at: usize| {
            while *ci < self.comments.len() && self.comments[*ci].0 <= at {
                tokens.push(format!("{{{}}}", self.comments[*ci].1.replace('}', ")")));
                *ci += 1;
            }
        };
        push_comments(&mut tokens, &mut ci, 0);
        let mut number = 1;
        for (i, mv) in self.moves.iter().enumerate() {
            let black = board.side_to_move() == Color::Black;
            if black {
                tokens.push(format!("{number}."));
            } else if i == 0 {
                tokens.push(format!("{number}..."));
            }
            tokens.push(notation::move_to_pdn(mv));
            if !black {
                number += 1;
            }
            board = board.play(*mv);
            push_comments(&mut tokens, &mut ci, i + 1);
        }
        push_comments(&mut tokens, &mut ci, usize::MAX);
        tokens.push(self.result.as_str().to_string());
        out.push_str(&qiyi_core::record::wrap_movetext(&tokens));
        out
    }
}

/// Reads every game of a PDN file.
pub fn read_pdn(text: &str) -> Result<Vec<PdnGame>, NotationError> {
    let mut reader = Reader {
        chars: text.chars().collect(),
        pos: 0,
        line: 1,
    };
    let mut games = Vec::new();
    while let Some(g) = reader.game()? {
        games.push(g);
    }
    Ok(games)
}

/// Reads a PDN file that holds exactly one game (or just move text).
pub fn read_pdn_game(text: &str) -> Result<PdnGame, NotationError> {
    let mut games = read_pdn(text)?;
    match games.len() {
        1 => Ok(games.remove(0)),
        0 => Err(NotationError::Empty),
        n => Err(NotationError::Pdn {
            line: 1,
            message: format!("expected one game, found {n}"),
        }),
    }
}

struct Reader {
    chars: Vec<char>,
    pos: usize,
    line: usize,
}

impl Reader {
    fn err(&self, message: impl Into<String>) -> NotationError {
        NotationError::Pdn {
            line: self.line,
            message: message.into(),
        }
    }

    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || self.chars.get(self.pos - 1) == Some(&'\n')
    }

    /// Skips whitespace and `%`/`;` line comments.
    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c.is_whitespace() {
                self.bump();
            } else if c == ';' || (c == '%' && self.at_line_start()) {
                while let Some(c) = self.bump() {
                    if c == '\n' {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    fn tag(&mut self) -> Result<(String, String), NotationError> {
        self.bump(); // '['
        self.skip_space();
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_alphanumeric() || c == '_' {
                name.push(c);
                self.bump();
            } else {
                break;
            }
        }
        if name.is_empty() {
            return Err(self.err("tag without a name"));
        }
        self.skip_space();
        if self.bump() != Some('"') {
            return Err(self.err(format!("tag {name} has no quoted value")));
        }
        let mut value = String::new();
        loop {
            match self.bump() {
                None => return Err(self.err(format!("tag {name}: unterminated value"))),
                Some('\\') => match self.bump() {
                    Some(c) => value.push(c),
                    None => return Err(self.err(format!("tag {name}: unterminated value"))),
                },
                Some('"') => break,
                Some(c) => value.push(c),
            }
        }
        self.skip_space();
        if self.bump() != Some(']') {
            return Err(self.err(format!("tag {name} is not closed with ]")));
        }
        Ok((name, value))
    }

    fn comment(&mut self) -> Result<String, NotationError> {
        self.bump(); // '{'
        let mut s = String::new();
        loop {
            match self.bump() {
                None => return Err(self.err("unterminated comment")),
                Some('}') => return Ok(s.trim().to_string()),
                Some(c) => s.push(c),
            }
        }
    }

    fn skip_variation(&mut self) -> Result<(), NotationError> {
        let mut depth = 0usize;
        loop {
            match self.bump() {
                None => return Err(self.err("unterminated variation")),
                Some('(') => depth += 1,
                Some(')') => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some('{') => {
                    self.pos -= 1;
                    self.comment()?;
                }
                Some(_) => {}
            }
        }
    }

    fn token(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "[]{}();".contains(c) {
                break;
            }
            s.push(c);
            self.bump();
        }
        s
    }

    /// Reads the next game; `None` at the end of the text.
    fn game(&mut self) -> Result<Option<PdnGame>, NotationError> {
        self.skip_space();
        if self.peek().is_none() {
            return Ok(None);
        }
        let mut game = PdnGame::new(Board::start());
        let mut board = game.start;
        let mut in_moves = false;
        loop {
            self.skip_space();
            let Some(c) = self.peek() else {
                if !in_moves && game.tags.is_empty() {
                    return Ok(None);
                }
                return Ok(Some(game));
            };
            match c {
                '[' => {
                    if in_moves {
                        // A new game starts without a result token.
                        return Ok(Some(game));
                    }
                    let (k, v) = self.tag()?;
                    if k == "FEN" {
                        game.start = notation::board_from_fen(&v)
                            .map_err(|e| self.err(format!("FEN tag: {e}")))?;
                        board = game.start;
                    }
                    game.tags.push((k, v));
                }
                '{' => {
                    in_moves = true;
                    let text = self.comment()?;
                    game.comments.push((game.moves.len(), text));
                }
                '(' => {
                    in_moves = true;
                    self.skip_variation()?;
                }
                ')' => return Err(self.err("unmatched )")),
                ']' => return Err(self.err("unmatched ]")),
                _ => {
                    in_moves = true;
                    let tok = self.token();
                    if tok.is_empty() {
                        // A stray delimiter such as '}'.
                        self.bump();
                        return Err(self.err(format!("unexpected {c:?}")));
                    }
                    if let Some(r) = GameResult::parse(&tok) {
                        game.result = r;
                        return Ok(Some(game));
                    }
                    if tok.starts_with('$') {
                        continue;
                    }
                    // Strip a move number ("12." or "12...") that may be glued to the move.
                    let mut t = tok.as_str();
                    let digits = t.bytes().take_while(|b| b.is_ascii_digit()).count();
                    if digits > 0 && t[digits..].starts_with('.') {
                        t = t[digits..].trim_start_matches('.');
                    }
                    let t = t.trim_end_matches(['!', '?']);
                    if t.is_empty() {
                        continue;
                    }
                    let mv = notation::parse_move(&board, t)
                        .map_err(|e| self.err(format!("move {}: {e}", game.moves.len() + 1)))?;
                    board.make(mv);
                    game.moves.push(mv);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_round_trips() {
        let text = "[Event \"Test \\\"quoted\\\"\"]\n[Black \"A\"]\n\n1. 11-15 {a comment} 23-19 2. 8-11 (2. 9-14 22-17) 22-17 $1 3. 9-13! 17-14 4. 10x17 21x14 1/2-1/2\n";
        let g = read_pdn_game(text).unwrap();
        assert_eq!(g.tag("Event"), Some("Test \"quoted\""));
        assert_eq!(g.moves.len(), 8);
        assert_eq!(g.result, GameResult::Draw);
        assert_eq!(g.comments, vec![(1, "a comment".to_string())]);
        let again = read_pdn_game(&g.to_pdn()).unwrap();
        assert_eq!(again, g);
    }

    #[test]
    fn several_games_and_a_fen_tag() {
        let text = "[FEN \"W:W18:B14\"]\n1... 18x9 0-1\n\n[Event \"b\"]\n1. 9-14 *";
        let games = read_pdn(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 1);
        assert_eq!(games[0].result, GameResult::WhiteWins);
        assert_eq!(notation::board_to_fen(&games[0].final_board()), "B:W9:B");
        assert_eq!(games[1].result, GameResult::Unknown);
        let written = games[0].to_pdn();
        assert!(written.contains("1... 18x9 0-1"), "{written}");
    }

    #[test]
    fn bad_files_name_the_problem() {
        let e = read_pdn("1. 11-15 22-18 2. 15x24").unwrap_err();
        assert!(matches!(e, NotationError::Pdn { line: 1, .. }), "{e}");
        assert!(read_pdn("[Event \"x").is_err());
        assert!(read_pdn("{ open").is_err());
        assert!(read_pdn("1. 11-15 (22-18").is_err());
        assert!(read_pdn("[FEN \"Q\"]").is_err());
    }
}
