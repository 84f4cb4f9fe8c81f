//! The game database: every game's record in SQLite (WAL mode), so games outlive the server.
//!
//! The record is the truth: a game's rules, start position, seed, seats, the hashes of its seat
//! tokens, every move and die roll in order, and how it ended when it ended by resignation,
//! agreement or the clock. The in-memory game is rebuilt from it by replaying the moves
//! ([`crate::store::Store::get`]). Every write is one transaction, committed before the API answers.
//!
//! The schema is versioned with SQLite's `user_version`; [`MIGRATIONS`] brings an older file up to
//! date when it is opened.

use qiyi_core::puzzles::Rating;
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use thiserror::Error;

/// Errors of the database.
#[derive(Debug, Error)]
pub enum DbError {
    /// SQLite refused an operation.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The file was written by a newer qiyi.
    #[error("the database has schema version {0}, newer than this qiyi knows ({1}); upgrade qiyi")]
    TooNew(i64, i64),
    /// The file's schema version is negative: no qiyi wrote it (a damaged header).
    #[error("the database has schema version {0}, which no qiyi writes: the file is damaged or not qiyi's")]
    BadVersion(i64),
    /// A stored value does not read back (hand-edited or corrupt file).
    #[error("corrupt record of game {0}: {1}")]
    Corrupt(String, String),
}

/// The schema, one step per version: `MIGRATIONS[i]` takes version `i` to `i + 1`.
///
/// Version 1 held games, tokens and moves; version 2 added the clock settings, the end of a game
/// decided outside the rules (resignation, agreement, flag), and the time each move took; version 3
/// the seats that resigned from a game of more than two players (the game goes on without them);
/// version 4 the game reviews (the review JSON of one record, by its SHA-256); version 5 the
/// throw-away mark of the analysis board's scratch games (kept out of the archive, expiring);
/// version 6 the puzzle ratings (Glicko-2) of players and puzzles, and every attempt.
pub const MIGRATIONS: &[&str] = &[
    // 1: games, seat tokens (SHA-256 hashes), moves.
    "CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        rules TEXT NOT NULL,
        position TEXT,
        seed INTEGER NOT NULL,
        seats TEXT NOT NULL,
        hotseat INTEGER NOT NULL,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        status TEXT NOT NULL
    );
    CREATE TABLE tokens (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        hash BLOB NOT NULL,
        seat INTEGER
    );
    CREATE INDEX tokens_game ON tokens(game_id);
    CREATE TABLE moves (
        game_id TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        player INTEGER,
        text TEXT NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID;
    CREATE INDEX games_updated ON games(updated);",
    // 2: clocks, decided ends, move times.
    "ALTER TABLE games ADD COLUMN clock TEXT;
    ALTER TABLE games ADD COLUMN ended TEXT;
    ALTER TABLE moves ADD COLUMN ms INTEGER;",
    // 3: resignations in games of more than two players.
    "ALTER TABLE games ADD COLUMN resigned TEXT;",
    // 4: game reviews, one per game, of the record with this SHA-256.
    "CREATE TABLE reviews (
        game_id TEXT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        record_hash BLOB NOT NULL,
        judge TEXT NOT NULL,
        review TEXT NOT NULL,
        created INTEGER NOT NULL
    );",
    // 5: scratch games (the analysis board's tried moves): not listed, deleted when stale.
    "ALTER TABLE games ADD COLUMN scratch INTEGER NOT NULL DEFAULT 0;",
    // 6: puzzle ratings of players (by the browser's player id) and of puzzles, per game, and
    // the attempts (so a player is not offered a puzzle again).
    "CREATE TABLE puzzle_players (
        player TEXT NOT NULL,
        game TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        attempts INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        PRIMARY KEY (player, game)
    ) WITHOUT ROWID;
    CREATE TABLE puzzle_ratings (
        game TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        attempts INTEGER NOT NULL,
        PRIMARY KEY (game, puzzle)
    ) WITHOUT ROWID;
    CREATE TABLE puzzle_attempts (
        player TEXT NOT NULL,
        game TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        solved INTEGER NOT NULL,
        hinted INTEGER NOT NULL,
        at INTEGER NOT NULL
    );
    CREATE INDEX puzzle_attempts_player ON puzzle_attempts(player, game);",
];

/// The schema version this code writes.
pub fn schema_version() -> i64 {
    MIGRATIONS.len() as i64
}

/// The ratings of one puzzle attempt, before and after it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatedAttempt {
    /// Whether the ratings moved (only the first attempt of a player at a puzzle counts).
    pub rated: bool,
    /// The player's rating before the attempt.
    pub player_before: Rating,
    /// The player's rating after it.
    pub player_after: Rating,
    /// The puzzle's rating before the attempt.
    pub puzzle_before: Rating,
    /// The puzzle's rating after it.
    pub puzzle_after: Rating,
}

/// One stored move or chance outcome.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoredMove {
    /// Ply from 1.
    pub ply: usize,
    /// The player who chose it (`None`: a die roll or other chance outcome).
    pub player: Option<usize>,
    /// The move in the game's notation.
    pub text: String,
    /// Milliseconds on the mover's clock when it was played (clocked games).
    pub ms: Option<u64>,
}

/// A seat that resigned from a game of more than two players, and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Resignation {
    /// The seat (0-based player number).
    pub player: usize,
    /// The game's ply when it resigned (moves after it are the server's for that seat).
    pub ply: usize,
}

/// A seat token as stored: its SHA-256 hash and the seat it holds (`None`: every seat, hot-seat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredToken {
    /// SHA-256 of the token.
    pub hash: [u8; 32],
    /// The seat, or `None` for a hot-seat token that acts for every seat.
    pub seat: Option<usize>,
}

/// Everything stored about one game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Game id.
    pub id: String,
    /// Game name (`"xiangqi"`).
    pub game: String,
    /// Rule options as given at creation (JSON object).
    pub rules: serde_json::Value,
    /// Start position in the game's notation (`None`: the usual start).
    pub position: Option<String>,
    /// Seed of the dice and the AI.
    pub seed: u64,
    /// Seats as JSON (`[{"kind":"human"},...]`).
    pub seats: serde_json::Value,
    /// One token acts for every seat (one browser plays all humans).
    pub hotseat: bool,
    /// A throw-away game (the analysis board's): not in the archive, deleted when stale.
    pub scratch: bool,
    /// Seconds since the epoch at creation.
    pub created: i64,
    /// Seconds since the epoch at the last change.
    pub updated: i64,
    /// `"playing"` or `"over"`.
    pub status: String,
    /// Clock settings as JSON, when the game is clocked.
    pub clock: Option<serde_json::Value>,
    /// The end decided outside the rules (resignation, agreement, flag) as JSON.
    pub ended: Option<serde_json::Value>,
    /// Seats that resigned from a game of more than two players, in order.
    pub resigned: Vec<Resignation>,
    /// Seat tokens.
    pub tokens: Vec<StoredToken>,
    /// Moves and die rolls in order.
    pub moves: Vec<StoredMove>,
}

/// One line of the archive list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// Game name.
    pub game: String,
    /// Seconds since the epoch at creation.
    pub created: i64,
    /// Seconds since the epoch at the last change.
    pub updated: i64,
    /// `"playing"` or `"over"`.
    pub status: String,
    /// Moves and die rolls stored.
    pub plies: usize,
}

/// The database: one SQLite connection behind a mutex (writes are short; SQLite serialises them
/// anyway).
pub struct Db {
    conn: Mutex<Connection>,
    path: String,
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

fn json_text(v: &serde_json::Value) -> String {
    v.to_string()
}

/// The resignations as stored: `NULL` when there are none, else a JSON array.
fn resigned_text(resigned: &[Resignation]) -> Option<String> {
    if resigned.is_empty() {
        None
    } else {
        serde_json::to_string(resigned).ok()
    }
}

impl Db {
    /// Opens (creating if needed) the database at `path`, or a private in-memory one for
    /// `":memory:"`, and brings its schema up to date.
    pub fn open(path: &str) -> Result<Db, DbError> {
        let conn = if path == ":memory:" {
            Connection::open_in_memory()?
        } else {
            if let Some(dir) = Path::new(path).parent() {
                if !dir.as_os_str().is_empty() {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        DbError::Sqlite(rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
                    })?;
                }
            }
            Connection::open(path)?
        };
        // WAL: readers never wait for the writer; NORMAL sync survives a killed process (only a
        // power cut can lose the last commits).
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        migrate(&conn)?;
        Ok(Db {
            conn: Mutex::new(conn),
            path: path.to_string(),
        })
    }

    /// A private in-memory database.
    pub fn memory() -> Result<Db, DbError> {
        Db::open(":memory:")
    }

    /// The path it was opened with.
    pub fn path(&self) -> &str {
        &self.path
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        crate::store::lock(&self.conn)
    }

    /// Stores a new game with its tokens and first moves (die rolls before the first choice).
    pub fn insert_game(&self, record: &GameRecord) -> Result<(), DbError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "INSERT INTO games (id, game, rules, position, seed, seats, hotseat, created, updated,
                status, clock, ended, resigned, scratch)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8, ?9, ?10, ?11, ?12, ?13)",
            params![
                record.id,
                record.game,
                json_text(&record.rules),
                record.position,
                record.seed as i64,
                json_text(&record.seats),
                record.hotseat,
                record.created,
                record.status,
                record.clock.as_ref().map(json_text),
                record.ended.as_ref().map(json_text),
                resigned_text(&record.resigned),
                record.scratch,
            ],
        )?;
        for t in &record.tokens {
            tx.execute(
                "INSERT INTO tokens (game_id, hash, seat) VALUES (?1, ?2, ?3)",
                params![record.id, &t.hash[..], t.seat.map(|s| s as i64)],
            )?;
        }
        insert_moves(&tx, &record.id, &record.moves)?;
        tx.commit()?;
        Ok(())
    }

    /// Replaces the moves from ply `keep + 1` on by `moves` (which continue from `keep`), and
    /// sets the status, decided end and resignations, in one transaction.
    pub fn write_moves(
        &self,
        id: &str,
        keep: usize,
        moves: &[StoredMove],
        status: &str,
        ended: Option<&serde_json::Value>,
        resigned: &[Resignation],
    ) -> Result<(), DbError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply > ?2",
            params![id, keep as i64],
        )?;
        insert_moves(&tx, id, moves)?;
        let changed = tx.execute(
            "UPDATE games SET updated = ?2, status = ?3, ended = ?4, resigned = ?5 WHERE id = ?1",
            params![
                id,
                now(),
                status,
                ended.map(json_text),
                resigned_text(resigned)
            ],
        )?;
        if changed == 0 {
            return Err(DbError::Corrupt(id.into(), "the game is not stored".into()));
        }
        tx.commit()?;
        Ok(())
    }

    /// Sets a new start position (position paste): the moves are cleared.
    pub fn set_position(
        &self,
        id: &str,
        position: &str,
        moves: &[StoredMove],
    ) -> Result<(), DbError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute("DELETE FROM moves WHERE game_id = ?1", params![id])?;
        tx.execute(
            "UPDATE games SET position = ?2, updated = ?3, status = 'playing', ended = NULL,
                resigned = NULL WHERE id = ?1",
            params![id, position, now()],
        )?;
        insert_moves(&tx, id, moves)?;
        tx.commit()?;
        Ok(())
    }

    /// Deletes a game; true when it existed.
    pub fn delete(&self, id: &str) -> Result<bool, DbError> {
        let conn = self.conn();
        Ok(conn.execute("DELETE FROM games WHERE id = ?1", params![id])? > 0)
    }

    /// True when a game with this id is stored.
    pub fn exists(&self, id: &str) -> Result<bool, DbError> {
        let conn = self.conn();
        Ok(conn
            .query_row("SELECT 1 FROM games WHERE id = ?1", params![id], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// The stored record of a game, or `None`.
    pub fn load(&self, id: &str) -> Result<Option<GameRecord>, DbError> {
        let conn = self.conn();
        let row = conn
            .query_row(
                "SELECT id, game, rules, position, seed, seats, hotseat, created, updated, status,
                    clock, ended, resigned, scratch FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        r.get::<_, Option<String>>(3)?,
                        r.get::<_, i64>(4)?,
                        r.get::<_, String>(5)?,
                        r.get::<_, bool>(6)?,
                        r.get::<_, i64>(7)?,
                        r.get::<_, i64>(8)?,
                        r.get::<_, String>(9)?,
                        r.get::<_, Option<String>>(10)?,
                        r.get::<_, Option<String>>(11)?,
                        r.get::<_, Option<String>>(12)?,
                        r.get::<_, bool>(13)?,
                    ))
                },
            )
            .optional()?;
        let Some((
            id,
            game,
            rules,
            position,
            seed,
            seats,
            hotseat,
            created,
            updated,
            status,
            clock,
            ended,
            resigned,
            scratch,
        )) = row
        else {
            return Ok(None);
        };
        let parse = |what: &str, text: &str| {
            serde_json::from_str::<serde_json::Value>(text)
                .map_err(|e| DbError::Corrupt(id.clone(), format!("{what}: {e}")))
        };
        let rules = parse("rules", &rules)?;
        let seats = parse("seats", &seats)?;
        let clock = clock.map(|c| parse("clock", &c)).transpose()?;
        let ended = ended.map(|c| parse("ended", &c)).transpose()?;
        let resigned: Vec<Resignation> = match resigned {
            Some(text) => serde_json::from_str(&text)
                .map_err(|e| DbError::Corrupt(id.clone(), format!("resigned: {e}")))?,
            None => Vec::new(),
        };
        let mut tokens = Vec::new();
        let mut stmt = conn.prepare("SELECT hash, seat FROM tokens WHERE game_id = ?1")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok((r.get::<_, Vec<u8>>(0)?, r.get::<_, Option<i64>>(1)?))
        })?;
        for row in rows {
            let (hash, seat) = row?;
            let hash: [u8; 32] = hash
                .try_into()
                .map_err(|_| DbError::Corrupt(id.clone(), "a token hash is not 32 bytes".into()))?;
            tokens.push(StoredToken {
                hash,
                seat: seat.map(|s| s as usize),
            });
        }
        let mut moves = Vec::new();
        let mut stmt = conn
            .prepare("SELECT ply, player, text, ms FROM moves WHERE game_id = ?1 ORDER BY ply")?;
        let rows = stmt.query_map(params![id], |r| {
            Ok(StoredMove {
                ply: r.get::<_, i64>(0)? as usize,
                player: r.get::<_, Option<i64>>(1)?.map(|p| p as usize),
                text: r.get(2)?,
                ms: r.get::<_, Option<i64>>(3)?.map(|m| m as u64),
            })
        })?;
        for row in rows {
            moves.push(row?);
        }
        Ok(Some(GameRecord {
            id,
            game,
            rules,
            position,
            seed: seed as u64,
            seats,
            hotseat,
            scratch,
            created,
            updated,
            status,
            clock,
            ended,
            resigned,
            tokens,
            moves,
        }))
    }

    /// One page of the archive, newest change first (`page` from 1), and the number of games;
    /// scratch games are not in it.
    pub fn list(&self, page: usize, per_page: usize) -> Result<(Vec<GameSummary>, usize), DbError> {
        let conn = self.conn();
        let total: i64 =
            conn.query_row("SELECT COUNT(*) FROM games WHERE scratch = 0", [], |r| {
                r.get(0)
            })?;
        let offset = page.saturating_sub(1).saturating_mul(per_page);
        let mut stmt = conn.prepare(
            "SELECT g.id, g.game, g.created, g.updated, g.status,
                (SELECT COUNT(*) FROM moves m WHERE m.game_id = g.id)
             FROM games g WHERE g.scratch = 0 ORDER BY g.updated DESC, g.created DESC, g.id LIMIT ?1 OFFSET ?2",
        )?;
        let rows = stmt.query_map(params![per_page as i64, offset as i64], |r| {
            Ok(GameSummary {
                id: r.get(0)?,
                game: r.get(1)?,
                created: r.get(2)?,
                updated: r.get(3)?,
                status: r.get(4)?,
                plies: r.get::<_, i64>(5)? as usize,
            })
        })?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?);
        }
        Ok((out, total as usize))
    }

    /// Ids of the scratch games last changed before `before` (seconds since the epoch).
    pub fn stale_scratch(&self, before: i64) -> Result<Vec<String>, DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT id FROM games WHERE scratch = 1 AND updated < ?1")?;
        let rows = stmt.query_map(params![before], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?);
        }
        Ok(out)
    }

    /// Ids of the games still being played (the server resumes their AI seats at start).
    pub fn playing(&self) -> Result<Vec<String>, DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare("SELECT id FROM games WHERE status = 'playing'")?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let mut out = Vec::new();
        for row in rows {
            out.push(row?);
        }
        Ok(out)
    }

    /// The stored review (JSON text) of game `id`, when it is of the record with SHA-256 `hash`.
    pub fn review(&self, id: &str, hash: &[u8; 32]) -> Result<Option<String>, DbError> {
        let conn = self.conn();
        Ok(conn
            .query_row(
                "SELECT review FROM reviews WHERE game_id = ?1 AND record_hash = ?2",
                params![id, &hash[..]],
                |r| r.get::<_, String>(0),
            )
            .optional()?)
    }

    /// Stores the review (JSON text) of game `id`'s record with SHA-256 `hash`, replacing an
    /// older one.
    pub fn store_review(
        &self,
        id: &str,
        hash: &[u8; 32],
        judge: &str,
        review: &str,
    ) -> Result<(), DbError> {
        let conn = self.conn();
        conn.execute(
            "INSERT OR REPLACE INTO reviews (game_id, record_hash, judge, review, created)
                VALUES (?1, ?2, ?3, ?4, ?5)",
            params![id, &hash[..], judge, review, now()],
        )?;
        Ok(())
    }

    /// The puzzle rating of `player` at `game`, if the player has attempted one.
    pub fn puzzle_player(&self, player: &str, game: &str) -> Result<Option<Rating>, DbError> {
        let conn = self.conn();
        let found = conn
            .query_row(
                "SELECT rating, deviation, volatility FROM puzzle_players
                    WHERE player = ?1 AND game = ?2",
                params![player, game],
                |r| {
                    Ok(Rating {
                        rating: r.get(0)?,
                        deviation: r.get(1)?,
                        volatility: r.get(2)?,
                    })
                },
            )
            .optional()?;
        Ok(found)
    }

    /// The ratings of the puzzles of `game` that have been attempted (the others keep the
    /// rating of their file), by puzzle id.
    pub fn puzzle_ratings(&self, game: &str) -> Result<HashMap<String, Rating>, DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT puzzle, rating, deviation, volatility FROM puzzle_ratings WHERE game = ?1",
        )?;
        let rows = stmt.query_map(params![game], |r| {
            Ok((
                r.get::<_, String>(0)?,
                Rating {
                    rating: r.get(1)?,
                    deviation: r.get(2)?,
                    volatility: r.get(3)?,
                },
            ))
        })?;
        let mut out = HashMap::new();
        for row in rows {
            let (id, rating) = row?;
            out.insert(id, rating);
        }
        Ok(out)
    }

    /// The puzzles of `game` that `player` has attempted.
    pub fn puzzles_attempted(&self, player: &str, game: &str) -> Result<HashSet<String>, DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT DISTINCT puzzle FROM puzzle_attempts WHERE player = ?1 AND game = ?2",
        )?;
        let rows = stmt.query_map(params![player, game], |r| r.get::<_, String>(0))?;
        let mut out = HashSet::new();
        for row in rows {
            out.insert(row?);
        }
        Ok(out)
    }

    /// Records an attempt of `player` at puzzle `puzzle` of `game` in one transaction: reads both
    /// ratings (the player's `start_player` and the puzzle's `start_puzzle` when none is stored
    /// yet), lets `rate` compute the new ones from them unless the player has attempted this
    /// puzzle before, stores both and the attempt. Answers the ratings before and after.
    #[allow(clippy::too_many_arguments)]
    pub fn record_puzzle_attempt<E>(
        &self,
        player: &str,
        game: &str,
        puzzle: &str,
        attempt: (bool, bool),
        start_player: Rating,
        start_puzzle: Rating,
        rate: impl FnOnce(Rating, Rating) -> Result<(Rating, Rating), E>,
    ) -> Result<Result<RatedAttempt, E>, DbError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let read = |sql: &str, a: &str, b: &str| {
            tx.query_row(sql, params![a, b], |r| {
                Ok(Rating {
                    rating: r.get(0)?,
                    deviation: r.get(1)?,
                    volatility: r.get(2)?,
                })
            })
            .optional()
        };
        let player_before = read(
            "SELECT rating, deviation, volatility FROM puzzle_players WHERE player = ?1 AND game = ?2",
            player,
            game,
        )?
        .unwrap_or(start_player);
        let puzzle_before = read(
            "SELECT rating, deviation, volatility FROM puzzle_ratings WHERE game = ?1 AND puzzle = ?2",
            game,
            puzzle,
        )?
        .unwrap_or(start_puzzle);
        // Only a player's first attempt at a puzzle moves the ratings (trying again knows the
        // answer); later ones are recorded all the same.
        let seen = tx
            .query_row(
                "SELECT 1 FROM puzzle_attempts WHERE player = ?1 AND game = ?2 AND puzzle = ?3",
                params![player, game, puzzle],
                |_| Ok(()),
            )
            .optional()?
            .is_some();
        let (player_after, puzzle_after) = if seen {
            (player_before, puzzle_before)
        } else {
            match rate(player_before, puzzle_before) {
                Ok(r) => r,
                Err(e) => return Ok(Err(e)),
            }
        };
        let at = now();
        tx.execute(
            "INSERT INTO puzzle_players (player, game, rating, deviation, volatility, attempts, updated)
                VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6)
                ON CONFLICT (player, game) DO UPDATE SET rating = ?3, deviation = ?4,
                    volatility = ?5, attempts = attempts + 1, updated = ?6",
            params![
                player,
                game,
                player_after.rating,
                player_after.deviation,
                player_after.volatility,
                at
            ],
        )?;
        tx.execute(
            "INSERT INTO puzzle_ratings (game, puzzle, rating, deviation, volatility, attempts)
                VALUES (?1, ?2, ?3, ?4, ?5, 1)
                ON CONFLICT (game, puzzle) DO UPDATE SET rating = ?3, deviation = ?4,
                    volatility = ?5, attempts = attempts + 1",
            params![
                game,
                puzzle,
                puzzle_after.rating,
                puzzle_after.deviation,
                puzzle_after.volatility
            ],
        )?;
        tx.execute(
            "INSERT INTO puzzle_attempts (player, game, puzzle, solved, hinted, at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![player, game, puzzle, attempt.0, attempt.1, at],
        )?;
        tx.commit()?;
        Ok(Ok(RatedAttempt {
            rated: !seen,
            player_before,
            player_after,
            puzzle_before,
            puzzle_after,
        }))
    }

    /// Makes sure every committed write is in the main file (checkpoint at shutdown).
    pub fn checkpoint(&self) -> Result<(), DbError> {
        let conn = self.conn();
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        Ok(())
    }
}

/// The current time in seconds since the epoch, as stored.
pub fn timestamp() -> i64 {
    now()
}

fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    moves: &[StoredMove],
) -> rusqlite::Result<()> {
    let mut stmt = tx.prepare_cached(
        "INSERT INTO moves (game_id, ply, player, text, ms) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for m in moves {
        stmt.execute(params![
            id,
            m.ply as i64,
            m.player.map(|p| p as i64),
            m.text,
            m.ms.map(|v| v as i64)
        ])?;
    }
    Ok(())
}

/// Brings the schema of `conn` to [`schema_version`], one migration per transaction.
pub fn migrate(conn: &Connection) -> Result<(), DbError> {
    migrate_to(conn, schema_version())
}

/// Brings the schema of `conn` to version `target` (tests use it to write an older file).
pub fn migrate_to(conn: &Connection, target: i64) -> Result<(), DbError> {
    let current: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if current > schema_version() {
        return Err(DbError::TooNew(current, schema_version()));
    }
    if current < 0 {
        return Err(DbError::BadVersion(current));
    }
    for v in current..target.min(schema_version()) {
        let sql = MIGRATIONS[v as usize];
        conn.execute_batch(&format!(
            "BEGIN; {sql}; PRAGMA user_version = {}; COMMIT;",
            v + 1
        ))?;
    }
    Ok(())
}
