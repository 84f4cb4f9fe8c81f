//! Game records in the PGN family (PGN for Xiangqi, PDN for checkers): the text rules they
//! share, a tag value's escapes and move text wrapped at 80 columns.

/// The widest line of move text.
pub const LINE_WIDTH: usize = 80;

/// A tag value escaped for `[Key "value"]`: backslashes and double quotes get a backslash.
pub fn escape_tag(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Move text tokens (move numbers, moves, comments, the result) joined by single spaces into
/// lines of at most [`LINE_WIDTH`] columns (a longer token stands on a line of its own), each
/// line ending with a newline.
pub fn wrap_movetext<T: AsRef<str>>(tokens: &[T]) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for t in tokens {
        let t = t.as_ref();
        if !line.is_empty() && line.len() + 1 + t.len() > LINE_WIDTH {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(t);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tag_values_escape_backslashes_and_quotes() {
        assert_eq!(escape_tag(r#"a "b" \c"#), r#"a \"b\" \\c"#);
        assert_eq!(escape_tag("plain"), "plain");
    }

    #[test]
    fn move_text_lines_stay_within_80_columns_and_keep_every_token() {
        let tokens: Vec<String> = (1..=60).map(|i| format!("{i}. 11-15")).collect();
        let text = wrap_movetext(&tokens);
        assert!(text.ends_with('\n'));
        assert!(text.lines().count() > 1);
        for line in text.lines() {
            assert!(line.len() <= LINE_WIDTH, "{line:?}");
        }
        let lines: Vec<&str> = text.lines().collect();
        for w in lines.windows(2) {
            let next = w[1].split(' ').next().unwrap_or("");
            assert!(w[0].len() + 1 + next.len() > LINE_WIDTH);
        }
        let back: Vec<&str> = text.split_whitespace().collect();
        let want: Vec<&str> = tokens.iter().flat_map(|t| t.split(' ')).collect();
        assert_eq!(back, want);
    }

    #[test]
    fn a_token_wider_than_a_line_stands_alone() {
        let long = "x".repeat(100);
        let text = wrap_movetext(&["1.", long.as_str(), "*"]);
        assert_eq!(text, format!("1.\n{long}\n*\n"));
    }

    #[test]
    fn no_tokens_is_one_empty_line() {
        assert_eq!(wrap_movetext::<&str>(&[]), "\n");
    }
}
