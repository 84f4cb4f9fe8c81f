//! The server's peg solitaire analysis (`GET /api/analyse?game=peg-solitaire`) at the default
//! memory budget answers within its budget: on a position whose proof takes millions of
//! positions it ends within its node budget ([`qiyi_web::analysis::PEG_REVIEW_NODES`] a
//! jump), says `unknown` (`solvable: null`, `exact: false`) rather than going on, and its heap
//! never passes what the analysis reserved ([`qiyi_web::analysis::peg_judge_mib`]). Its own test binary: a
//! counting global allocator measures the heap, and the budget is the process's.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use qiyi_web::api::AppState;
use qiyi_web::store::{Store, StoreConfig};
use serde_json::Value;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use tower::ServiceExt;

/// The system allocator, counting the bytes live and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let live = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

// SAFETY: every call is forwarded unchanged to the system allocator; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            grew(new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

const MIB: usize = 1024 * 1024;

/// `position` percent-encoded into the analysis URL of peg solitaire.
fn url(position: &str) -> String {
    let mut q = String::new();
    for b in position.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            q.push(b as char);
        } else {
            q.push_str(&format!("%{b:02X}"));
        }
    }
    format!("/api/analyse?game=peg-solitaire&position={q}")
}

/// The `data:` of every event of a finished stream, with the event's name.
fn events(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut name = String::from("message");
        let mut data = String::new();
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event:") {
                name = n.trim().to_string();
            } else if let Some(d) = line.strip_prefix("data:") {
                data.push_str(d.trim_start());
            }
        }
        if !data.is_empty() {
            let v = serde_json::from_str(&data).unwrap_or_else(|e| panic!("{data}: {e}"));
            out.push((name, v));
        }
    }
    out
}

#[tokio::test]
async fn the_servers_peg_analysis_answers_within_its_budget_at_the_default_memory() {
    assert!(qiyi_web::memory::set_budget(qiyi_web::memory::DEFAULT_MIB));
    let lent = qiyi_web::analysis::peg_judge_mib();
    assert_eq!(
        lent, 32,
        "an eighth of the default budget's lent part, a power of two"
    );
    let state = AppState::new(Store::new(StoreConfig::default()), 2);
    let app = qiyi_web::router(state);
    // The English board full but for the centre and a hole diagonal to it: unsolvable by
    // Conway's rule of three (its pegs' counts on the three diagonal classes match no single
    // peg's), and not proven so within 8,000,000 positions (`qiyi analyze peg --nodes
    // 8000000`), so the default budget cannot decide it. Unbounded, the judge's memo on
    // such positions grew past 8 GiB; with the memo bounded but no node budget the analysis ran
    // until the page closed it.
    let lost = "  ooo  /  ooo  /oo.oooo/ooo.ooo/ooooooo/  ooo  /  ooo  ";
    let req = Request::builder()
        .uri(url(lost))
        .body(Body::empty())
        .expect("request");
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let t0 = std::time::Instant::now();
    // A clone: the router holds the shutdown signal, whose drop would end the stream at once.
    let resp = app.clone().oneshot(req).await.expect("response");
    assert_eq!(resp.status(), StatusCode::OK);
    let bytes = resp.into_body().collect().await.expect("body").to_bytes();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    let seconds = t0.elapsed().as_secs_f64();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let ev = events(&text);
    assert_eq!(ev.len(), 2, "{text:?}");
    let (name, line) = &ev[0];
    assert_eq!(name, "line");
    assert_eq!(line["kind"], "pegs");
    assert_eq!(ev[1].0, "done");
    assert_eq!(ev[1].1["reason"], "depth", "{text}");
    let nodes = line["nodes"].as_u64().expect("nodes");
    let jumps = line["moves"].as_array().expect("moves").len() as u64;
    eprintln!(
        "peg analysis: {nodes} positions, exact {}, heap peak {:.1} MiB of {lent} lent, {seconds:.1} s",
        line["exact"],
        peak as f64 / MIB as f64
    );
    // Each jump stopped at its node budget (plus the one step that finds it spent) ...
    assert!(
        nodes <= (qiyi_web::analysis::PEG_REVIEW_NODES + 1) * jumps,
        "{nodes} positions"
    );
    // ... and said so: not proven, so neither solvable nor not.
    assert_eq!(line["exact"], false, "{line}");
    assert!(line["solvable"].is_null(), "{line}");
    assert!(
        line["fewest_pegs"].as_u64().is_some_and(|p| p > 1),
        "{line}"
    );
    // The heap it took stayed within what it reserved from the budget.
    assert!(
        peak <= lent * MIB,
        "heap peak {:.1} MiB past the {lent} MiB lent",
        peak as f64 / MIB as f64
    );
}
