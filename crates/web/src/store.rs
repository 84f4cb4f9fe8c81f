//! The games: a cache in memory over the database ([`crate::db`]), with a cap on how many are held
//! and an expiry for idle ones.
//!
//! The database holds every game's record; memory holds the games being played. A game not in
//! memory is rebuilt by replaying its record ([`Store::get`]); a game dropped from memory (idle,
//! or the server restarted) is still in the database. One `std::sync::Mutex` guards the map and
//! one guards each game; both are held only for the moment it takes to read or change a game,
//! never across a search (searches run on a copy).

use crate::clock::{Clock, ClockSetting};
use crate::db::{Db, DbError, GameRecord, Resignation, StoredMove, StoredToken};
use crate::error::ApiError;
use crate::games;
use crate::session::{GameResult, GameSession, Progress, Seat};
use crate::tokens;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long a scratch game (the analysis board's throw-away game) is kept after its last change:
/// the page deletes it when the view closes, this is for the pages that never could.
pub const SCRATCH_EXPIRY: Duration = Duration::from_secs(24 * 3600);

/// Limits of the store.
#[derive(Clone, Debug)]
pub struct StoreConfig {
    /// Most games held in memory at once; past it the least recently used game nobody watches
    /// leaves memory (never the database), and 503 answers only when every game is in use.
    pub capacity: usize,
    /// A game untouched this long is dropped from memory (it stays in the database).
    pub idle_expiry: Duration,
}

impl Default for StoreConfig {
    fn default() -> Self {
        StoreConfig {
            capacity: 1000,
            idle_expiry: Duration::from_secs(6 * 3600),
        }
    }
}

/// A game and what the server keeps beside it.
pub struct GameEntry {
    /// Game id.
    pub id: String,
    /// The game.
    pub session: Box<dyn GameSession>,
    /// Who sits in each seat.
    pub seats: Vec<Seat>,
    /// Seed of every random choice in this game.
    pub seed: u64,
    /// Rule options as given at creation.
    pub rules: serde_json::Value,
    /// Start position as given at creation or pasted (`None`: the usual start).
    pub position: Option<String>,
    /// One token plays every seat (one browser, as before links); the page drives the AI seats.
    pub hotseat: bool,
    /// Seat tokens (hashed).
    pub tokens: Vec<StoredToken>,
    /// The end decided outside the rules: resignation, agreement or the clock.
    pub ended: Option<GameResult>,
    /// Seats that resigned from a game of more than two players, in order ([`crate::resign`]).
    pub resigned: Vec<Resignation>,
    /// The player who offers a draw, until the next move.
    pub draw_offer: Option<usize>,
    /// Seconds since the epoch at creation.
    pub created: i64,
    /// Last request that touched the game.
    pub last_used: Instant,
    /// The running search, if any (its progress is shown by `GET`).
    pub thinking: Option<Thinking>,
    /// Bumped on every change; live pages wait on it.
    pub changes: Arc<tokio::sync::watch::Sender<u64>>,
    /// Set when the game is deleted (live pages close).
    pub deleted: bool,
    /// The clock of a clocked two-player game.
    pub clock: Option<Clock>,
    /// The state as JSON for live pages, with the version it was made at (made once per change,
    /// shared by every watcher).
    pub state_cache: Option<(u64, Arc<str>)>,
}

impl GameEntry {
    /// The player to choose now (`None` when the game is over, by its rules or otherwise).
    pub fn to_move(&self) -> Option<usize> {
        if self.ended.is_some() {
            None
        } else {
            self.session.player_to_move()
        }
    }

    /// Tells live pages the game changed.
    pub fn notify(&self) {
        self.changes.send_modify(|v| *v = v.wrapping_add(1));
    }

    /// The result, whether by the rules (with resigned seats ranked last) or decided outside
    /// them.
    pub fn result(&self) -> Option<GameResult> {
        self.ended.clone().or_else(|| {
            self.session
                .snapshot()
                .result
                .map(|r| crate::resign::rank_resigned(r, &self.resigned))
        })
    }

    /// `"over"` or `"playing"`, as stored.
    pub fn status(&self) -> &'static str {
        if self.ended.is_some() || self.session.player_to_move().is_none() {
            "over"
        } else {
            "playing"
        }
    }

    /// Whether the server moves the AI seats by itself (games played by links); in hot-seat
    /// games the page asks for AI moves, as it always did.
    pub fn server_drives_ai(&self) -> bool {
        !self.hotseat
    }
}

/// A search in progress on a game.
#[derive(Clone)]
pub struct Thinking {
    /// Progress reported so far.
    pub progress: Arc<Mutex<Progress>>,
    /// Raised to stop the search.
    pub stop: Arc<AtomicBool>,
    /// The game's ply when the search started (the answer is dropped if the game moved on).
    pub ply: usize,
}

/// A shared handle on one game.
pub type Handle = Arc<Mutex<GameEntry>>;

/// Locks a mutex, recovering the data if a thread panicked while holding it.
pub fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> Self {
        ApiError::Internal(e.to_string())
    }
}

/// The games: memory over the database.
pub struct Store {
    config: StoreConfig,
    games: Mutex<HashMap<String, Handle>>,
    db: Arc<Db>,
}

/// What a new game is made of (the API fills it from the request).
pub struct NewGame {
    /// The game, at its start.
    pub session: Box<dyn GameSession>,
    /// Seats.
    pub seats: Vec<Seat>,
    /// Seed.
    pub seed: u64,
    /// Rule options.
    pub rules: serde_json::Value,
    /// Start position, when given.
    pub position: Option<String>,
    /// One token for every seat.
    pub hotseat: bool,
    /// A throw-away game (the analysis board's tried moves): stored, but not in the archive, and
    /// deleted once untouched for [`SCRATCH_EXPIRY`].
    pub scratch: bool,
    /// The time control of a clocked two-player game.
    pub clock: Option<ClockSetting>,
}

/// A game just stored, with its tokens in the clear (they are given out once, here).
pub struct Created {
    /// Game id.
    pub id: String,
    /// The game.
    pub handle: Handle,
    /// One entry per seat: the token of a human seat, `None` for an AI seat.
    pub seat_tokens: Vec<Option<String>>,
    /// The hot-seat token (every seat, AI seats included), in hot-seat games.
    pub hotseat_token: Option<String>,
}

/// The moves after ply `from`, as stored; a clocked game's moves carry the mover's time left.
fn stored_moves(session: &dyn GameSession, from: usize, clock: Option<&Clock>) -> Vec<StoredMove> {
    session
        .history_from(from)
        .into_iter()
        .map(|h| StoredMove {
            ply: h.ply,
            player: h.player,
            ms: clock.and_then(|c| h.player.and_then(|p| c.remaining.get(p).copied())),
            text: h.text,
        })
        .collect()
}

fn result_json(r: &GameResult) -> serde_json::Value {
    serde_json::json!({ "returns": r.returns, "winner": r.winner, "reason": r.reason })
}

fn result_from_json(v: &serde_json::Value) -> Option<GameResult> {
    Some(GameResult {
        returns: v
            .get("returns")?
            .as_array()?
            .iter()
            .map(|x| x.as_f64())
            .collect::<Option<Vec<f64>>>()?,
        winner: v.get("winner").and_then(|w| w.as_u64()).map(|w| w as usize),
        reason: v.get("reason")?.as_str()?.to_string(),
    })
}

/// The change counter of a game loaded now: it starts at the time in microseconds, so versions
/// keep growing across restarts (a page never mistakes a newer state for an older one).
fn new_changes() -> Arc<tokio::sync::watch::Sender<u64>> {
    let micros = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_micros() as u64)
        .unwrap_or(0);
    Arc::new(tokio::sync::watch::channel(micros).0)
}

/// Rebuilds a game from its stored record by replaying every move from the start; the die rolls
/// the replay draws must be the stored ones (they come from the game's seed).
pub fn rebuild(record: &GameRecord) -> Result<GameEntry, ApiError> {
    let corrupt =
        |why: String| ApiError::Internal(format!("game {} does not replay: {why}", record.id));
    let mut session = games::create(
        &record.game,
        &record.rules,
        record.position.as_deref(),
        record.seed,
    )
    .map_err(|e| corrupt(e.to_string()))?;
    for m in &record.moves {
        if m.player.is_some() && session.ply() + 1 == m.ply {
            session
                .play(&m.text)
                .map_err(|e| corrupt(format!("ply {}: {e}", m.ply)))?;
        }
    }
    let replayed = session.history_from(0);
    if replayed.len() != record.moves.len()
        || replayed
            .iter()
            .zip(&record.moves)
            .any(|(h, m)| h.text != m.text || h.player != m.player || h.ply != m.ply)
    {
        return Err(corrupt(format!(
            "the replay gives {} plies, the record holds {}",
            replayed.len(),
            record.moves.len()
        )));
    }
    let seats: Vec<Seat> =
        serde_json::from_value(record.seats.clone()).map_err(|e| corrupt(format!("seats: {e}")))?;
    let clock = match &record.clock {
        Some(v) => {
            let setting: ClockSetting =
                serde_json::from_value(v.clone()).map_err(|e| corrupt(format!("clock: {e}")))?;
            let mut clock = Clock::new(setting, seats.len());
            for m in &record.moves {
                if let (Some(p), Some(ms)) = (m.player, m.ms) {
                    if let Some(r) = clock.remaining.get_mut(p) {
                        *r = ms;
                    }
                    // The clock runs again from the restart: downtime is nobody's time.
                    clock.since = Some(Instant::now());
                }
            }
            Some(clock)
        }
        None => None,
    };
    if let Some(r) = record.resigned.iter().find(|r| r.player >= seats.len()) {
        return Err(corrupt(format!(
            "seat {} resigned but the game has {} seats",
            r.player,
            seats.len()
        )));
    }
    let ended = match &record.ended {
        Some(v) => Some(result_from_json(v).ok_or_else(|| corrupt("bad result".into()))?),
        None => None,
    };
    Ok(GameEntry {
        id: record.id.clone(),
        session,
        seats,
        seed: record.seed,
        rules: record.rules.clone(),
        position: record.position.clone(),
        hotseat: record.hotseat,
        tokens: record.tokens.clone(),
        ended,
        resigned: record.resigned.clone(),
        draw_offer: None,
        created: record.created,
        last_used: Instant::now(),
        thinking: None,
        changes: new_changes(),
        deleted: false,
        clock,
        state_cache: None,
    })
}

impl Store {
    /// An empty store over a private in-memory database.
    ///
    /// # Panics
    /// If SQLite cannot open an in-memory database (out of memory).
    pub fn new(config: StoreConfig) -> Self {
        let db = Db::memory().expect("an in-memory SQLite database opens");
        Store::with_db(config, db)
    }

    /// A store over `db` (games already in it are loaded when first asked for).
    pub fn with_db(config: StoreConfig, db: Db) -> Self {
        Store {
            config,
            games: Mutex::new(HashMap::new()),
            db: Arc::new(db),
        }
    }

    /// The database.
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The limits in force.
    pub fn config(&self) -> &StoreConfig {
        &self.config
    }

    /// Number of games held in memory.
    pub fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// True when no game is held in memory.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops from memory the games idle longer than the expiry that nobody watches (stopping
    /// their searches); returns how many. They stay in the database.
    pub fn purge_expired(&self) -> usize {
        let now = Instant::now();
        let mut games = lock(&self.games);
        let before = games.len();
        games.retain(|_, h| {
            let e = lock(h);
            let keep = now.duration_since(e.last_used) < self.config.idle_expiry
                || e.changes.receiver_count() > 0;
            if !keep {
                if let Some(t) = &e.thinking {
                    t.stop.store(true, Ordering::Relaxed);
                }
            }
            keep
        });
        before - games.len()
    }

    /// Makes room for one more game in memory: drops expired games, then the least recently
    /// used ones nobody watches or searches (they stay in the database); 503 when every game
    /// held is in use.
    fn make_room(&self) -> Result<(), ApiError> {
        self.purge_expired();
        let mut games = lock(&self.games);
        while games.len() >= self.config.capacity {
            let idle = games
                .iter()
                .filter_map(|(id, h)| {
                    let e = lock(h);
                    let free = e.thinking.is_none() && e.changes.receiver_count() == 0;
                    free.then(|| (e.last_used, id.clone()))
                })
                .min();
            match idle {
                Some((_, id)) => {
                    games.remove(&id);
                }
                None => return Err(ApiError::TooManyGames(self.config.capacity)),
            }
        }
        Ok(())
    }

    /// Stores a new game (with its first die rolls) and returns its id and tokens; 503 when
    /// memory is full of games in use.
    pub fn insert(&self, new: NewGame) -> Result<Created, ApiError> {
        self.make_room()?;
        let mut id = tokens::new_id();
        while lock(&self.games).contains_key(&id) || self.db.exists(&id)? {
            id = tokens::new_id();
        }
        let humans: Vec<usize> = (0..new.seats.len())
            .filter(|&p| new.seats[p] == Seat::Human)
            .collect();
        let mut seat_tokens = vec![None; new.seats.len()];
        let mut stored = Vec::new();
        let mut hotseat_token = None;
        if new.hotseat {
            let token = tokens::new_token();
            stored.push(StoredToken {
                hash: tokens::hash(&token),
                seat: None,
            });
            for &p in &humans {
                seat_tokens[p] = Some(token.clone());
            }
            hotseat_token = Some(token);
        } else {
            for &p in &humans {
                let token = tokens::new_token();
                stored.push(StoredToken {
                    hash: tokens::hash(&token),
                    seat: Some(p),
                });
                seat_tokens[p] = Some(token);
            }
        }
        let clock = new.clock.map(|c| Clock::new(c, new.seats.len()));
        let entry = GameEntry {
            id: id.clone(),
            clock,
            session: new.session,
            seats: new.seats,
            seed: new.seed,
            rules: new.rules,
            position: new.position,
            hotseat: new.hotseat,
            tokens: stored,
            ended: None,
            resigned: Vec::new(),
            draw_offer: None,
            created: crate::db::timestamp(),
            last_used: Instant::now(),
            thinking: None,
            changes: new_changes(),
            deleted: false,
            state_cache: None,
        };
        let record = GameRecord {
            id: id.clone(),
            game: entry.session.game().to_string(),
            rules: entry.rules.clone(),
            position: entry.position.clone(),
            seed: entry.seed,
            seats: serde_json::to_value(&entry.seats)
                .map_err(|e| ApiError::Internal(e.to_string()))?,
            hotseat: entry.hotseat,
            scratch: new.scratch,
            created: entry.created,
            updated: entry.created,
            status: entry.status().to_string(),
            clock: new
                .clock
                .map(|c| serde_json::to_value(c).map_err(|e| ApiError::Internal(e.to_string())))
                .transpose()?,
            ended: None,
            resigned: Vec::new(),
            tokens: entry.tokens.clone(),
            moves: stored_moves(entry.session.as_ref(), 0, None),
        };
        self.db.insert_game(&record)?;
        let handle = Arc::new(Mutex::new(entry));
        lock(&self.games).insert(id.clone(), handle.clone());
        Ok(Created {
            id,
            handle,
            seat_tokens,
            hotseat_token,
        })
    }

    /// The game with this id (and marks it used), rebuilt from the database when it is not in
    /// memory; 404 when it is stored nowhere.
    pub fn get(&self, id: &str) -> Result<Handle, ApiError> {
        let cached = lock(&self.games).get(id).cloned();
        let handle = match cached {
            Some(h) => h,
            None => {
                if id.is_empty() || id.len() > 64 {
                    return Err(ApiError::NotFound(id.to_string()));
                }
                let record = self
                    .db
                    .load(id)?
                    .ok_or_else(|| ApiError::NotFound(id.to_string()))?;
                let entry = rebuild(&record)?;
                self.make_room()?;
                let mut games = lock(&self.games);
                games
                    .entry(id.to_string())
                    .or_insert_with(|| Arc::new(Mutex::new(entry)))
                    .clone()
            }
        };
        lock(&handle).last_used = Instant::now();
        Ok(handle)
    }

    /// Commits a change of `entry`: the moves after ply `keep` are replaced by the game's, with
    /// its status and decided end. On failure the game is dropped from memory so the next
    /// request rebuilds it from what the database holds, and the error is returned.
    pub fn commit(&self, entry: &mut GameEntry, keep: usize) -> Result<(), ApiError> {
        let moves = stored_moves(entry.session.as_ref(), keep, entry.clock.as_ref());
        let ended = entry.ended.as_ref().map(result_json);
        let result = self.db.write_moves(
            &entry.id,
            keep,
            &moves,
            entry.status(),
            ended.as_ref(),
            &entry.resigned,
        );
        self.after_write(entry, result)
    }

    /// Commits a pasted start position (the moves are cleared).
    pub fn commit_position(&self, entry: &mut GameEntry, position: &str) -> Result<(), ApiError> {
        let moves = stored_moves(entry.session.as_ref(), 0, None);
        let result = self.db.set_position(&entry.id, position, &moves);
        if result.is_ok() {
            entry.position = Some(position.to_string());
            entry.resigned.clear();
        }
        self.after_write(entry, result)
    }

    fn after_write(
        &self,
        entry: &mut GameEntry,
        result: Result<(), DbError>,
    ) -> Result<(), ApiError> {
        match result {
            Ok(()) => {
                entry.notify();
                Ok(())
            }
            Err(e) => {
                lock(&self.games).remove(&entry.id);
                entry.deleted = true;
                entry.notify();
                Err(ApiError::Internal(format!(
                    "the move could not be stored, nothing changed: {e}"
                )))
            }
        }
    }

    /// Removes a game from memory and the database, stopping its search; true when it existed.
    pub fn remove(&self, id: &str) -> Result<bool, ApiError> {
        let removed = lock(&self.games).remove(id);
        if let Some(h) = &removed {
            let mut e = lock(h);
            if let Some(t) = &e.thinking {
                t.stop.store(true, Ordering::Relaxed);
            }
            e.deleted = true;
            e.notify();
        }
        let stored = self.db.delete(id)?;
        Ok(removed.is_some() || stored)
    }

    /// Deletes (from memory and the database) the scratch games untouched for
    /// [`SCRATCH_EXPIRY`] that nobody watches; returns how many.
    pub fn purge_scratch(&self) -> Result<usize, ApiError> {
        let before = crate::db::timestamp() - SCRATCH_EXPIRY.as_secs() as i64;
        let mut removed = 0;
        for id in self.db.stale_scratch(before)? {
            let watched = lock(&self.games)
                .get(&id)
                .is_some_and(|h| lock(h).changes.receiver_count() > 0);
            if !watched && self.remove(&id)? {
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Stops every running search (shutdown).
    pub fn stop_all(&self) {
        for h in lock(&self.games).values() {
            if let Some(t) = &lock(h).thinking {
                t.stop.store(true, Ordering::Relaxed);
            }
        }
    }
}
