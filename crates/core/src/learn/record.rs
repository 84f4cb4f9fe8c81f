//! The position-record format: what self-play writes and the trainer reads.
//!
//! A shard is one file: a 32-byte header, then fixed-size records back to back.
//!
//! | bytes | header field |
//! |---|---|
//! | 0-7 | magic `QIYIPOS1` |
//! | 8-23 | game tag, ASCII, zero-padded (`checkers`) |
//! | 24-25 | position bytes `P` per record (u16, little-endian) |
//! | 26-27 | reserved (0) |
//! | 28-31 | games played to make the shard (u32, little-endian) |
//!
//! | bytes | record field |
//! |---|---|
//! | 0..P | the position, as the game's [`Encode`] writes it |
//! | P, P+1 | search score from the side to move's view, centi-units (i16, little-endian, clamped) |
//! | P+2 | game result from the side to move's view: 1 win, 0 draw, -1 loss (i8) |
//! | P+3 | ply of the game at this position (u8, saturating at 255) |
//!
//! The record count is `(file length - 32) / (P + 4)`; a file whose length does not fit is
//! refused, so a shard cut short by a crash is never read as data (writers write `NAME.tmp` and
//! rename it when complete).

use super::LearnError;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The first eight bytes of every shard.
pub const MAGIC: [u8; 8] = *b"QIYIPOS1";
/// Header length in bytes.
pub const HEADER_LEN: usize = 32;
/// Bytes after the position in each record (score, result, ply).
pub const TRAILER_LEN: usize = 4;

/// A position that can be written to and read from a fixed number of bytes.
pub trait Encode: Sized {
    /// Bytes per position.
    const BYTES: usize;
    /// Writes the position into `out` (`out.len() == BYTES`).
    fn encode(&self, out: &mut [u8]);
    /// Reads a position written by [`Encode::encode`]; `None` if the bytes are not a position.
    fn decode(bytes: &[u8]) -> Option<Self>;
}

/// One labelled position, borrowed from a shard or a dataset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record<'a> {
    /// The encoded position.
    pub position: &'a [u8],
    /// Search score, side to move's view, centi-units.
    pub score: i16,
    /// Game result, side to move's view: 1, 0 or -1.
    pub result: i8,
    /// Ply of the game.
    pub ply: u8,
}

/// The header of a shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShardHeader {
    /// The game the positions belong to.
    pub tag: String,
    /// Bytes per position.
    pub position_bytes: usize,
    /// Games played to make the shard.
    pub games: u32,
}

impl ShardHeader {
    /// Bytes per record.
    pub fn record_len(&self) -> usize {
        self.position_bytes + TRAILER_LEN
    }

    fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(&MAGIC);
        let tag = self.tag.as_bytes();
        let n = tag.len().min(16);
        h[8..8 + n].copy_from_slice(&tag[..n]);
        h[24..26].copy_from_slice(&(self.position_bytes as u16).to_le_bytes());
        h[28..32].copy_from_slice(&self.games.to_le_bytes());
        h
    }

    fn parse(path: &Path, h: &[u8]) -> Result<ShardHeader, LearnError> {
        let bad = |why: &str| LearnError::BadShard {
            path: path.to_path_buf(),
            why: why.to_string(),
        };
        if h.len() < HEADER_LEN || h[..8] != MAGIC {
            return Err(bad("not a qiyi position shard (no QIYIPOS1 header)"));
        }
        let tag_bytes = &h[8..24];
        let end = tag_bytes.iter().position(|&b| b == 0).unwrap_or(16);
        let tag = std::str::from_utf8(&tag_bytes[..end])
            .map_err(|_| bad("the game tag is not ASCII"))?
            .to_string();
        let position_bytes = u16::from_le_bytes([h[24], h[25]]) as usize;
        if position_bytes == 0 {
            return Err(bad("records of zero position bytes"));
        }
        let games = u32::from_le_bytes([h[28], h[29], h[30], h[31]]);
        Ok(ShardHeader {
            tag,
            position_bytes,
            games,
        })
    }
}

/// Writes one shard: records go to `PATH.tmp`, which [`ShardWriter::finish`] renames to `PATH`.
pub struct ShardWriter {
    out: BufWriter<fs::File>,
    tmp: PathBuf,
    path: PathBuf,
    header: ShardHeader,
    records: u64,
    buf: Vec<u8>,
}

impl ShardWriter {
    /// Starts a shard for `tag` positions of `position_bytes` bytes at `path`.
    pub fn create(
        path: &Path,
        tag: &str,
        position_bytes: usize,
    ) -> Result<ShardWriter, LearnError> {
        if tag.len() > 16 || !tag.is_ascii() {
            return Err(LearnError::BadTag(tag.to_string()));
        }
        let tmp = path.with_extension("tmp");
        let file = fs::File::create(&tmp).map_err(|e| LearnError::io(&tmp, e))?;
        let header = ShardHeader {
            tag: tag.to_string(),
            position_bytes,
            games: 0,
        };
        let mut out = BufWriter::new(file);
        out.write_all(&header.to_bytes())
            .map_err(|e| LearnError::io(&tmp, e))?;
        Ok(ShardWriter {
            out,
            tmp,
            path: path.to_path_buf(),
            buf: vec![0; header.record_len()],
            header,
            records: 0,
        })
    }

    /// Appends a record for `pos`.
    pub fn push<P: Encode>(
        &mut self,
        pos: &P,
        score: i32,
        result: i8,
        ply: usize,
    ) -> Result<(), LearnError> {
        let n = self.header.position_bytes;
        if P::BYTES != n {
            return Err(LearnError::BadTag(format!(
                "{}: {} position bytes, the shard holds {n}",
                self.header.tag,
                P::BYTES
            )));
        }
        pos.encode(&mut self.buf[..n]);
        let s = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        self.buf[n..n + 2].copy_from_slice(&s.to_le_bytes());
        self.buf[n + 2] = result.clamp(-1, 1) as u8;
        self.buf[n + 3] = ply.min(255) as u8;
        self.out
            .write_all(&self.buf)
            .map_err(|e| LearnError::io(&self.tmp, e))?;
        self.records += 1;
        Ok(())
    }

    /// Records written so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Writes the game count into the header, flushes and renames the file into place.
    pub fn finish(mut self, games: u32) -> Result<PathBuf, LearnError> {
        use std::io::{Seek, SeekFrom};
        self.header.games = games;
        self.out.flush().map_err(|e| LearnError::io(&self.tmp, e))?;
        let mut file = self
            .out
            .into_inner()
            .map_err(|e| LearnError::io(&self.tmp, e.into_error()))?;
        file.seek(SeekFrom::Start(0))
            .and_then(|_| file.write_all(&self.header.to_bytes()))
            .and_then(|_| file.sync_all())
            .map_err(|e| LearnError::io(&self.tmp, e))?;
        fs::rename(&self.tmp, &self.path).map_err(|e| LearnError::io(&self.path, e))?;
        Ok(self.path)
    }
}

/// The records of one or more shards of the same game, in memory.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// The game tag.
    pub tag: String,
    /// Bytes per position.
    pub position_bytes: usize,
    /// Games played to make the records.
    pub games: u64,
    data: Vec<u8>,
}

impl Dataset {
    /// Reads the header of the shard at `path` (and checks that its length fits its records).
    pub fn header(path: &Path) -> Result<ShardHeader, LearnError> {
        use std::io::Read;
        let mut f = fs::File::open(path).map_err(|e| LearnError::io(path, e))?;
        let len = f.metadata().map_err(|e| LearnError::io(path, e))?.len() as usize;
        let mut h = [0u8; HEADER_LEN];
        f.read_exact(&mut h).map_err(|_| LearnError::BadShard {
            path: path.to_path_buf(),
            why: "shorter than its header".into(),
        })?;
        let header = ShardHeader::parse(path, &h)?;
        if (len - HEADER_LEN) % header.record_len() != 0 {
            return Err(LearnError::BadShard {
                path: path.to_path_buf(),
                why: format!(
                    "{} bytes of records is not a whole number of {}-byte records",
                    len - HEADER_LEN,
                    header.record_len()
                ),
            });
        }
        Ok(header)
    }

    /// Adds the records of the shard at `path` (same game and record size as those already read).
    pub fn add_shard(&mut self, path: &Path) -> Result<(), LearnError> {
        let header = Self::header(path)?;
        let bytes = fs::read(path).map_err(|e| LearnError::io(path, e))?;
        if self.data.is_empty() && self.tag.is_empty() {
            self.tag = header.tag.clone();
            self.position_bytes = header.position_bytes;
        } else if header.tag != self.tag || header.position_bytes != self.position_bytes {
            return Err(LearnError::BadShard {
                path: path.to_path_buf(),
                why: format!(
                    "holds {} positions of {} bytes, the others {} of {}",
                    header.tag, header.position_bytes, self.tag, self.position_bytes
                ),
            });
        }
        self.games += u64::from(header.games);
        self.data.extend_from_slice(&bytes[HEADER_LEN..]);
        Ok(())
    }

    /// Reads every `*.bin` shard of `dir`, in name order.
    pub fn read_dir(dir: &Path) -> Result<Dataset, LearnError> {
        let mut ds = Dataset::default();
        for path in shard_paths(dir)? {
            ds.add_shard(&path)?;
        }
        if ds.is_empty() {
            return Err(LearnError::NoData(dir.to_path_buf()));
        }
        Ok(ds)
    }

    /// Bytes per record.
    pub fn record_len(&self) -> usize {
        self.position_bytes + TRAILER_LEN
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        if self.position_bytes == 0 {
            0
        } else {
            self.data.len() / self.record_len()
        }
    }

    /// True when there are no records.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Record `i`.
    pub fn get(&self, i: usize) -> Record<'_> {
        let n = self.position_bytes;
        let r = &self.data[i * self.record_len()..(i + 1) * self.record_len()];
        Record {
            position: &r[..n],
            score: i16::from_le_bytes([r[n], r[n + 1]]),
            result: r[n + 2] as i8,
            ply: r[n + 3],
        }
    }
}

/// The complete shards (`*.bin`) of `dir` in name order (`.tmp` files of unfinished shards are
/// left out).
pub fn shard_paths(dir: &Path) -> Result<Vec<PathBuf>, LearnError> {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| LearnError::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "bin"))
        .collect();
    paths.sort();
    Ok(paths)
}
