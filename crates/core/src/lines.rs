//! Reading protocol lines from strangers: bytes, not UTF-8 text.
//!
//! A GUI may send any byte: a Chinese Xiangqi GUI that speaks GBK sends a path or option value
//! that is not UTF-8, a broken pipe may send NUL bytes or one endless line. [`read_line`] reads one
//! line as bytes (up to `\n`), keeps at most a fixed number of bytes of it (the rest is read and
//! dropped, so memory stays bounded), and decodes it lossily: bytes that are not UTF-8 become
//! U+FFFD. The protocol loops then answer what they cannot use as an unknown command and go on.
//!
//! ```
//! use qiyi_core::lines::{read_line, MAX_LINE};
//! let mut input: &[u8] = b"isready\n\xc6\xe5\xd2\xd5\r\nquit";
//! let a = read_line(&mut input, MAX_LINE).unwrap().unwrap();
//! assert_eq!(a.text, "isready");
//! let b = read_line(&mut input, MAX_LINE).unwrap().unwrap();
//! assert!(b.invalid_utf8 && b.text.contains('\u{fffd}'));
//! let c = read_line(&mut input, MAX_LINE).unwrap().unwrap();
//! assert_eq!(c.text, "quit");
//! assert!(read_line(&mut input, MAX_LINE).unwrap().is_none());
//! ```

use std::io::{self, BufRead};

/// The longest line kept (64 KiB): a UCI `position ... moves` line of a 1,000-ply game is
/// about 5 KB. Longer lines are cut here (and flagged) rather than held in memory whole.
pub const MAX_LINE: usize = 64 * 1024;

/// One line read by [`read_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line without its `\n` or `\r\n`, decoded lossily (invalid bytes become U+FFFD).
    pub text: String,
    /// Whether the line held bytes that are not UTF-8.
    pub invalid_utf8: bool,
    /// Whether the line was longer than the limit (only its first bytes are in `text`).
    pub truncated: bool,
    /// Whether the line held a NUL byte (removed from `text`).
    pub had_nul: bool,
}

impl Line {
    /// Why the line cannot be used as it stands, if it cannot: too long, or with bytes no
    /// protocol command contains (NUL). Invalid UTF-8 alone is not a reason: the command words
    /// are ASCII and still read.
    pub fn refusal(&self) -> Option<String> {
        if self.truncated {
            Some(format!("line longer than {MAX_LINE} bytes ignored"))
        } else if self.had_nul {
            Some("line with a NUL byte ignored".to_string())
        } else {
            None
        }
    }
}

/// Reads one line of at most `max` kept bytes; `None` at the end of input. Never fails on the
/// bytes themselves, only on the reader's own errors.
pub fn read_line<R: BufRead + ?Sized>(input: &mut R, max: usize) -> io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    let mut truncated = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if !any {
                return Ok(None);
            }
            break;
        }
        any = true;
        let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = max.saturating_sub(bytes.len());
        if chunk.len() > room {
            truncated = true;
        }
        bytes.extend_from_slice(&chunk[..chunk.len().min(room)]);
        input.consume(used);
        if done {
            break;
        }
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    let had_nul = bytes.contains(&0);
    bytes.retain(|&b| b != 0);
    let (text, invalid_utf8) = match String::from_utf8(bytes) {
        Ok(s) => (s, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    };
    Ok(Some(Line {
        text,
        invalid_utf8,
        truncated,
        had_nul,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(mut input: &[u8], max: usize) -> Vec<Line> {
        let mut out = Vec::new();
        while let Some(l) = read_line(&mut input, max).expect("slices do not fail") {
            out.push(l);
        }
        out
    }

    #[test]
    fn long_lines_are_cut_and_the_next_line_still_read() {
        let mut input = vec![b'a'; 1 << 20];
        input.extend_from_slice(b"\nisready\n");
        let lines = all(&input, MAX_LINE);
        assert_eq!(lines.len(), 2);
        assert!(lines[0].truncated && lines[0].text.len() == MAX_LINE);
        assert!(lines[0].refusal().is_some());
        assert_eq!(lines[1].text, "isready");
        assert!(lines[1].refusal().is_none());
    }

    #[test]
    fn nul_and_invalid_bytes_are_flagged() {
        let lines = all(b"is\0ready\r\n\xff\xfe go\n\n", 16);
        assert_eq!(lines.len(), 3);
        assert!(lines[0].had_nul && lines[0].text == "isready");
        assert!(lines[1].invalid_utf8 && lines[1].text.ends_with(" go"));
        assert_eq!(lines[2].text, "");
    }
}
