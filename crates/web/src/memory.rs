//! The server's memory budget (`qiyi serve --memory MiB`): every large allocation — an engine's
//! transposition table, a solver's or a review judge's working set — draws a [`Reservation`] of
//! its size from one [`MemoryBudget`] before it is built and gives it back when it is dropped.
//! Work whose reservation does not fit waits (reviews, in their queue) or is refused with `503`
//! and `Retry-After` ([`crate::ApiError::NoMemory`]); the process never grows past the budget by
//! building tables.
//!
//! The budget is process-wide ([`set_budget`], once, before the first request), like the
//! engines it sizes: the engine pools are process-wide too. Unset (the browser build, `qiyi
//! play`, most tests) it is unlimited.

use crate::error::ApiError;
use std::sync::{Arc, Mutex, OnceLock};

/// The default budget of `qiyi serve`, in MiB: fits a 512 MiB machine with room for the
/// operating system.
pub const DEFAULT_MIB: usize = 384;

/// The smallest budget `qiyi serve` accepts, in MiB: the process itself (code, SQLite's cache,
/// the games held in memory, the aeroplane tables) takes about 30 MiB, and below this no engine
/// table would fit beside it.
pub const MIN_MIB: usize = 64;

/// The largest budget accepted, in MiB (1 TiB: anything larger is a typo).
pub const MAX_MIB: usize = 1 << 20;

/// What the process needs besides the tables the budget hands out (code, the runtime, SQLite's
/// page cache, the games in memory, the aeroplane tables), in MiB; measured, see docs/server.md.
pub const BASELINE_MIB: usize = 32;

/// A budget given on the command line that is not a sensible number of MiB.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// Below [`MIN_MIB`] or above [`MAX_MIB`].
    #[error(
        "--memory {0} MiB is out of range: give {MIN_MIB} to {MAX_MIB} MiB (default {DEFAULT_MIB})"
    )]
    OutOfRange(usize),
}

/// Checks a budget given in MiB (`qiyi serve --memory`).
pub fn check_mib(mib: usize) -> Result<usize, BudgetError> {
    if (MIN_MIB..=MAX_MIB).contains(&mib) {
        Ok(mib)
    } else {
        Err(BudgetError::OutOfRange(mib))
    }
}

/// A number of MiB that may be lent out, and how many are lent now.
#[derive(Debug)]
pub struct MemoryBudget {
    total_mib: usize,
    used_mib: Mutex<usize>,
}

impl MemoryBudget {
    /// A budget lending at most `total_mib` MiB at once.
    pub fn new(total_mib: usize) -> Arc<MemoryBudget> {
        Arc::new(MemoryBudget {
            total_mib,
            used_mib: Mutex::new(0),
        })
    }

    /// The MiB this budget lends at most.
    pub fn total_mib(&self) -> usize {
        self.total_mib
    }

    /// The MiB lent now.
    pub fn used_mib(&self) -> usize {
        *self.used_mib.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lends `mib` MiB if they fit beside what is lent, else `None`.
    pub fn try_reserve(self: &Arc<Self>, mib: usize) -> Option<Reservation> {
        let mut used = self.used_mib.lock().unwrap_or_else(|e| e.into_inner());
        let after = used.checked_add(mib)?;
        if after > self.total_mib {
            return None;
        }
        *used = after;
        Some(Reservation {
            budget: self.clone(),
            mib,
        })
    }

    /// The size in MiB of a table that would like `want` MiB: at most an eighth of the budget
    /// (so several searches and reviews fit at once), a power of two, at least 1.
    pub fn table_mib(&self, want: usize) -> usize {
        let cap = (self.total_mib / 8).max(1);
        let mib = want.min(cap).max(1);
        // Round down to a power of two: the tables use power-of-two sizes anyway.
        1 << (usize::BITS - 1 - mib.leading_zeros())
    }
}

/// MiB lent by a [`MemoryBudget`], given back when this is dropped.
#[derive(Debug)]
pub struct Reservation {
    budget: Arc<MemoryBudget>,
    mib: usize,
}

impl Reservation {
    /// The MiB this reservation holds.
    pub fn mib(&self) -> usize {
        self.mib
    }
}

impl Drop for Reservation {
    fn drop(&mut self) {
        let mut used = self
            .budget
            .used_mib
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        *used = used.saturating_sub(self.mib);
    }
}

static BUDGET: OnceLock<Arc<MemoryBudget>> = OnceLock::new();

/// Sets the process's budget to `total_mib` MiB for the whole process: [`BASELINE_MIB`] of it is
/// kept for what the process needs anyway, the rest is lent to large allocations (once, before
/// the first request: a second call is refused and returns `false`).
pub fn set_budget(total_mib: usize) -> bool {
    BUDGET
        .set(MemoryBudget::new(total_mib.saturating_sub(BASELINE_MIB)))
        .is_ok()
}

/// The process's budget (unlimited when none was set).
pub fn budget() -> Arc<MemoryBudget> {
    BUDGET
        .get_or_init(|| MemoryBudget::new(usize::MAX / 2))
        .clone()
}

/// Draws `mib` MiB for `what` from the process's budget; when they do not fit, first drops the
/// engines the pools keep idle and tries again, then refuses with
/// [`ApiError::NoMemory`] (`503` and `Retry-After`).
pub fn reserve(mib: usize, what: &str) -> Result<Reservation, ApiError> {
    let budget = budget();
    if let Some(r) = budget.try_reserve(mib) {
        return Ok(r);
    }
    evict_idle();
    budget.try_reserve(mib).ok_or_else(|| {
        ApiError::NoMemory(format!(
            "{what} needs {mib} MiB and the server's memory budget ({} MiB, {} in use) has no \
             room for it now; try again in a moment",
            budget.total_mib(),
            budget.used_mib()
        ))
    })
}

/// Drops every engine the pools keep idle, giving their memory back to the budget.
pub fn evict_idle() {
    crate::games::xiangqi::evict_idle();
    crate::games::checkers::evict_idle();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reservations_add_up_to_the_budget_and_are_given_back_on_drop() {
        let b = MemoryBudget::new(100);
        let a = b.try_reserve(60).expect("60 of 100 fit");
        assert_eq!(b.used_mib(), 60);
        assert!(b.try_reserve(41).is_none(), "60 + 41 is past 100");
        let c = b.try_reserve(40).expect("60 + 40 fit exactly");
        assert_eq!(b.used_mib(), 100);
        assert!(b.try_reserve(1).is_none());
        drop(a);
        assert_eq!(b.used_mib(), 40);
        let d = b.try_reserve(60).expect("room again after a drop");
        assert_eq!(d.mib(), 60);
        drop(c);
        drop(d);
        assert_eq!(b.used_mib(), 0);
        assert!(b.try_reserve(usize::MAX).is_none(), "no overflow");
        assert_eq!(b.used_mib(), 0);
    }

    #[test]
    fn tables_are_powers_of_two_within_an_eighth_of_the_budget() {
        let b = MemoryBudget::new(384);
        assert_eq!(b.table_mib(64), 32);
        assert_eq!(b.table_mib(16), 16);
        assert_eq!(b.table_mib(12), 8);
        assert_eq!(b.table_mib(0), 1);
        let small = MemoryBudget::new(64);
        assert_eq!(small.table_mib(64), 8);
        let big = MemoryBudget::new(4096);
        assert_eq!(big.table_mib(64), 64);
    }

    #[test]
    fn absurd_budgets_are_refused_with_the_range() {
        assert_eq!(check_mib(384), Ok(384));
        assert_eq!(check_mib(MIN_MIB), Ok(MIN_MIB));
        assert!(check_mib(0).is_err());
        assert!(check_mib(MIN_MIB - 1).is_err());
        let e = check_mib(MAX_MIB + 1).expect_err("too large");
        assert!(e.to_string().contains("64 to"), "{e}");
    }
}
