//! Engines kept loaded between AI requests: building one allocates and zeroes its transposition
//! table (64 MiB for checkers), which cost more than a short AI move under load and made the
//! server's memory swing by the table's size per request. A pool hands back an idle engine of
//! the asked kind (the caller starts a new game on it, which empties its table in O(1)) and
//! keeps at most a few idle ones. The adapters pool each engine with its
//! [`crate::memory::Reservation`], so an idle engine's table stays counted in the memory budget
//! until [`EnginePool::clear`] drops it.

use std::sync::Mutex;

/// Idle engines, each with the key it was built for (its level, ...).
#[derive(Debug)]
pub struct EnginePool<K, E> {
    idle: Mutex<Vec<(K, E)>>,
    cap: usize,
}

impl<K: PartialEq, E> EnginePool<K, E> {
    /// An empty pool keeping at most `cap` idle engines.
    pub const fn new(cap: usize) -> Self {
        EnginePool {
            idle: Mutex::new(Vec::new()),
            cap,
        }
    }

    /// An idle engine built for `key` (the most recently returned one), else `make()`.
    pub fn take(&self, key: &K, make: impl FnOnce() -> E) -> E {
        self.take_idle(key).unwrap_or_else(make)
    }

    /// An idle engine built for `key` (the most recently returned one), if there is one.
    pub fn take_idle(&self, key: &K) -> Option<E> {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        idle.iter()
            .rposition(|(k, _)| k == key)
            .map(|i| idle.remove(i).1)
    }

    /// Drops every idle engine (when the memory budget needs their tables back).
    pub fn clear(&self) {
        let dropped = std::mem::take(&mut *self.idle.lock().unwrap_or_else(|e| e.into_inner()));
        // Dropped outside the lock: freeing a large table takes a while.
        drop(dropped);
    }

    /// Returns `engine`, built for `key`, for later requests; the least recently returned idle
    /// engine is dropped when more than the pool's cap would be kept.
    pub fn give_back(&self, key: K, engine: E) {
        let dropped = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            idle.push((key, engine));
            (idle.len() > self.cap).then(|| idle.remove(0))
        };
        // Dropped outside the lock: freeing a large table takes a while.
        drop(dropped);
    }

    /// How many engines are idle.
    pub fn idle(&self) -> usize {
        self.idle.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_engine_of_the_asked_kind_is_reused_and_the_pool_stays_bounded() {
        let pool: EnginePool<u8, String> = EnginePool::new(2);
        let mut built = 0;
        let mut make = |k: u8| {
            built += 1;
            format!("engine {k} #{built}")
        };
        let a = pool.take(&1, || make(1));
        assert_eq!(a, "engine 1 #1");
        pool.give_back(1, a);
        assert_eq!(pool.idle(), 1);
        // The same kind comes back without a new build; another kind is built.
        assert_eq!(pool.take(&1, || make(1)), "engine 1 #1");
        assert_eq!(pool.idle(), 0);
        let b = pool.take(&2, || make(2));
        assert_eq!(b, "engine 2 #2");
        // Three returned, two kept: the least recently returned one is dropped.
        pool.give_back(2, b);
        pool.give_back(3, "engine 3".into());
        pool.give_back(4, "engine 4".into());
        assert_eq!(pool.idle(), 2);
        assert_eq!(pool.take(&2, || "new 2".into()), "new 2");
        assert_eq!(pool.take(&4, || "new 4".into()), "engine 4");
        // Two of a kind: the most recently returned one first.
        pool.give_back(5, "first".into());
        pool.give_back(5, "second".into());
        assert_eq!(pool.take(&5, || "new".into()), "second");
        // Cleared: nothing idle, every kind is built again.
        pool.clear();
        assert_eq!(pool.idle(), 0);
        assert_eq!(pool.take_idle(&5), None);
    }
}
