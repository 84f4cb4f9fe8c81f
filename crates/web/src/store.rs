//! The games in memory: a map from id to game with a cap on how many and an expiry for idle ones.
//!
//! One `std::sync::Mutex` guards the map and one guards each game; both are held only for the
//! moment it takes to read or change a game, never across a search (searches run on a copy).

use crate::error::ApiError;
use crate::session::{GameSession, Progress, Seat};
use qiyi_core::Rng;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Limits of the store.
#[derive(Clone, Debug)]
pub struct StoreConfig {
    /// Most games held at once; creating one more answers 503.
    pub capacity: usize,
    /// A game untouched this long is dropped.
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
    /// The game.
    pub session: Box<dyn GameSession>,
    /// Who sits in each seat.
    pub seats: Vec<Seat>,
    /// Seed of every random choice in this game.
    pub seed: u64,
    /// Last request that touched the game.
    pub last_used: Instant,
    /// The running search, if any (its progress is shown by `GET`).
    pub thinking: Option<Thinking>,
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

/// The games in memory.
pub struct Store {
    config: StoreConfig,
    games: Mutex<HashMap<String, Handle>>,
    counter: AtomicU64,
    salt: u64,
}

impl Store {
    /// An empty store.
    pub fn new(config: StoreConfig) -> Self {
        let salt = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x51_7A_11);
        Store {
            config,
            games: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(0),
            salt,
        }
    }

    /// The limits in force.
    pub fn config(&self) -> &StoreConfig {
        &self.config
    }

    /// Number of games held.
    pub fn len(&self) -> usize {
        lock(&self.games).len()
    }

    /// True when no game is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn new_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut rng = Rng::derive(self.salt, n);
        format!("{:016x}", rng.next_u64())
    }

    /// Drops games idle longer than the expiry (stopping their searches); returns how many.
    pub fn purge_expired(&self) -> usize {
        let now = Instant::now();
        let mut games = lock(&self.games);
        let before = games.len();
        games.retain(|_, h| {
            let e = lock(h);
            let keep = now.duration_since(e.last_used) < self.config.idle_expiry;
            if !keep {
                if let Some(t) = &e.thinking {
                    t.stop.store(true, Ordering::Relaxed);
                }
            }
            keep
        });
        before - games.len()
    }

    /// Adds a game and returns its id (503 error when the store is full after purging).
    pub fn insert(&self, entry: GameEntry) -> Result<String, ApiError> {
        self.purge_expired();
        let mut games = lock(&self.games);
        if games.len() >= self.config.capacity {
            return Err(ApiError::TooManyGames(self.config.capacity));
        }
        let mut id = self.new_id();
        while games.contains_key(&id) {
            id = self.new_id();
        }
        games.insert(id.clone(), Arc::new(Mutex::new(entry)));
        Ok(id)
    }

    /// The game with this id (and marks it used), or 404.
    pub fn get(&self, id: &str) -> Result<Handle, ApiError> {
        let handle = lock(&self.games)
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::NotFound(id.to_string()))?;
        let expired = {
            let mut e = lock(&handle);
            let expired = e.last_used.elapsed() >= self.config.idle_expiry;
            e.last_used = Instant::now();
            expired
        };
        if expired {
            self.remove(id);
            return Err(ApiError::NotFound(id.to_string()));
        }
        Ok(handle)
    }

    /// Removes a game, stopping its search; true when it existed.
    pub fn remove(&self, id: &str) -> bool {
        let removed = lock(&self.games).remove(id);
        if let Some(h) = &removed {
            if let Some(t) = &lock(h).thinking {
                t.stop.store(true, Ordering::Relaxed);
            }
        }
        removed.is_some()
    }
}
