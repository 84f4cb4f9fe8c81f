//! Background work that must not slow the players down: a thread of its own at the lowest CPU
//! priority the operating system gives without privileges (nice 19 on Linux), so that game
//! reviews running on every core still leave the request handlers, the live channel and the AI's
//! moves the CPU they need. Measured with `scripts/server/load_bench.py --reviews 4`
//! (docs/server.md).

use tokio::sync::oneshot;

/// The nice value of a background thread (19 is the lowest priority on Linux).
const BACKGROUND_NICE: i32 = 19;

/// Runs `work` on a new thread named `name` at background priority; the receiver answers its
/// result, or an error when the thread could not be started or `work` panicked.
pub fn spawn<T, F>(name: &str, work: F) -> oneshot::Receiver<Result<T, String>>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (tx, rx) = oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            lower_priority();
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
                .map_err(|_| "the background job panicked".to_string());
            // The receiver may be gone (the server shutting down): nothing to tell then.
            let _ = tx.send(result);
        });
    if let Err(e) = spawned {
        let (tx, rx) = oneshot::channel();
        let _ = tx.send(Err(format!("no thread for the background job: {e}")));
        return rx;
    }
    rx
}

/// Lowers the calling thread's CPU priority (Linux: the nice value is per thread). A failure
/// leaves the thread at normal priority, which is only slower for the players, never wrong.
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: `gettid` and `setpriority` take plain integers, touch no memory of ours, and
    // `setpriority(PRIO_PROCESS, tid, n)` changes only this thread's nice value.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, BACKGROUND_NICE);
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {
    let _ = BACKGROUND_NICE;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn answers_the_result_and_a_panic_as_an_error() {
        assert_eq!(spawn("t", || 6 * 7).await.ok(), Some(Ok(42)));
        let panicked = spawn("t", || -> u32 { panic!("boom") }).await;
        assert_eq!(
            panicked.ok(),
            Some(Err("the background job panicked".to_string()))
        );
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_thread_runs_at_background_priority() {
        // SAFETY: as in `lower_priority`; getpriority only reads this thread's nice value.
        let nice = spawn("t", || unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::getpriority(libc::PRIO_PROCESS, tid)
        })
        .await;
        assert_eq!(nice.ok(), Some(Ok(BACKGROUND_NICE)));
    }
}
