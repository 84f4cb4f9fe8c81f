//! Where `qiyi serve`'s memory goes: runs each large piece of server work once, in-process, under
//! a counting allocator, and prints the heap it peaked at and the heap it kept afterwards (held
//! by the engine pools, say), in MiB. The table in docs/server.md comes from this:
//!
//! ```text
//! CARGO_TARGET_DIR=/work/target-house nice -n 19 cargo run --release -p qiyi-web --example memory
//! ```

use qiyi_web::analysis::{analyse, AnalysisOptions};
use qiyi_web::session::AiRequest;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The system allocator, counting the bytes live and the most live since the last reset.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded unchanged to the system allocator.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
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
            let live = LIVE.fetch_add(new_size, Ordering::Relaxed) + new_size;
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// Runs `work`, printing the heap it peaked at above the start and what it left allocated.
fn measure(name: &str, work: impl FnOnce()) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    work();
    let peak = PEAK.load(Ordering::Relaxed).saturating_sub(before);
    let kept = LIVE.load(Ordering::Relaxed) as isize - before as isize;
    println!(
        "| {name} | {:.1} | {:.1} |",
        mib(peak),
        kept as f64 / (1024.0 * 1024.0)
    );
}

fn request(level: u8, ms: u64) -> AiRequest {
    AiRequest {
        level,
        seed_player: false,
        time: Duration::from_millis(ms),
        stop: Arc::new(AtomicBool::new(false)),
        seed: 1,
    }
}

fn ai_move(game: &str, rules: serde_json::Value, level: u8, ms: u64) {
    let session = qiyi_web::games::create(game, &rules, None, 7).expect("a new game");
    let task = session.ai_task(request(level, ms)).expect("an AI task");
    let _ = task(&|_| {});
}

fn analysis(game: &str, position: &str, options: AnalysisOptions) {
    let cancel = Arc::new(AtomicBool::new(false));
    let _ = analyse(game, position, &options, cancel, &mut |_| {});
}

/// `plies` seeded random legal moves from `start`.
fn random_moves<G: qiyi_core::Game>(start: &G, plies: usize, seed: u64) -> Vec<G::Move> {
    let mut rng = qiyi_core::Rng::new(seed);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    for _ in 0..plies {
        if pos.is_over() {
            break;
        }
        pos.legal_moves(&mut legal);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        moves.push(m);
        pos = pos.after(m);
    }
    moves
}

fn main() {
    println!("| work (one request) | peak heap MiB | kept after MiB |");
    println!("|---|---|---|");
    for level in [1u8, 5, 10] {
        measure(&format!("xiangqi AI move, level {level}, 100 ms"), || {
            ai_move("xiangqi", serde_json::json!({}), level, 100)
        });
    }
    for level in [1u8, 5, 10] {
        measure(&format!("checkers AI move, level {level}, 100 ms"), || {
            ai_move("checkers", serde_json::json!({}), level, 100)
        });
    }
    measure("Chinese checkers AI move, 2 players, level 2", || {
        ai_move(
            "chinese-checkers",
            serde_json::json!({"players": 2}),
            2,
            100,
        )
    });
    measure("Chinese checkers AI move, 6 players, level 2", || {
        ai_move(
            "chinese-checkers",
            serde_json::json!({"players": 6}),
            2,
            100,
        )
    });
    measure("aeroplane AI move, level 2", || {
        ai_move("aeroplane", serde_json::json!({}), 2, 100)
    });
    measure("peg solitaire AI move (English), 100 ms", || {
        ai_move("peg-solitaire", serde_json::json!({}), 2, 100)
    });
    measure("peg solitaire solve (English), 200 ms", || {
        let session = qiyi_web::games::create("peg-solitaire", &serde_json::json!({}), None, 7)
            .expect("game");
        let task = session
            .solve_task(Duration::from_millis(200))
            .expect("a solve task");
        let _ = task();
    });
    measure("peg solitaire solve (Wiegleb), 2 s", || {
        let session = qiyi_web::games::create(
            "peg-solitaire",
            &serde_json::json!({"board": "wiegleb"}),
            None,
            7,
        )
        .expect("game");
        let task = session
            .solve_task(Duration::from_millis(2000))
            .expect("a solve task");
        let _ = task();
    });
    let short = |depth| AnalysisOptions {
        max_depth: Some(depth),
        time_ms: Some(500),
        ..AnalysisOptions::default()
    };
    measure("xiangqi analysis (default hash), 0.5 s", || {
        analysis(
            "xiangqi",
            &qiyi_xiangqi::Position::start().to_fen(),
            short(30),
        )
    });
    measure("checkers analysis, 0.5 s", || {
        use qiyi_core::Notation;
        analysis(
            "checkers",
            &qiyi_checkers::Checkers::start().to_text(),
            short(40),
        )
    });
    measure("Chinese checkers analysis, 2 players, 0.5 s", || {
        use qiyi_core::Notation;
        let pos = qiyi_chinese_checkers::Position::start(
            qiyi_chinese_checkers::Options::players(2).expect("options"),
        )
        .expect("start");
        analysis("chinese-checkers", &pos.to_text(), short(20))
    });
    measure("xiangqi review judge (built once per review)", || {
        let judge = qiyi_xiangqi::review::XiangqiJudge::new(Default::default());
        drop(judge);
    });
    measure("checkers review judge (built once per review)", || {
        let judge = qiyi_checkers::review::CheckersJudge::new(Default::default());
        drop(judge);
    });
    measure(
        "Chinese checkers review judge (built once per review)",
        || {
            let judge = qiyi_chinese_checkers::review::CcJudge::new(Default::default());
            drop(judge);
        },
    );
    measure("aeroplane review judge (built once per review)", || {
        let judge = qiyi_aeroplane::review::AeroJudge::new(&qiyi_aeroplane::Rules::default());
        drop(judge);
    });
    // A peg solitaire review of a game that can no longer be solved: its exact judge's memo once
    // grew past 8 GiB in one review of 8 random English jumps (seed 3); bounded
    // (`qiyi_web::analysis::peg_judge`) it stayed at about 120 MiB of RSS but ran for minutes.
    // With the server's node budget per move it ends, its undecided moves marked unknown.
    measure(
        "peg solitaire review, 8 random English jumps (seed 3), the server's judge",
        || {
            let board = qiyi_peg_solitaire::Board::named("english").expect("built-in board");
            let start = qiyi_peg_solitaire::PegPosition::start(Arc::new(board));
            let moves = random_moves(&start, 8, 3);
            let mut judge = qiyi_web::analysis::peg_judge()
                .with_node_budget(qiyi_web::analysis::PEG_REVIEW_NODES);
            let t0 = std::time::Instant::now();
            let r = qiyi_core::review::review(
                "peg-solitaire",
                "exact",
                &start,
                &moves,
                &mut judge,
                qiyi_core::Notation::move_to_text,
                |_, _| {},
            )
            .expect("review");
            eprintln!(
                "  peg review: {} of {} plies unknown, {} positions, memo peak {:.1} MiB, {:.1} s",
                r.plies.iter().filter(|p| p.unknown).count(),
                r.plies.len(),
                judge.nodes,
                judge.memo_peak_bytes() as f64 / (1024.0 * 1024.0),
                t0.elapsed().as_secs_f64()
            );
        },
    );
    measure("xiangqi review, 20 random plies, depth 4", || {
        let start = qiyi_xiangqi::Position::start();
        let moves = random_moves(&start, 20, 3);
        let options = qiyi_xiangqi::review::JudgeOptions {
            limits: qiyi_core::search::SearchLimits::depth(4),
            ..Default::default()
        };
        let _ = qiyi_xiangqi::review::review_game(&start, &moves, &options, |_, _| {});
    });
    measure("checkers review, 20 random plies, depth 6", || {
        let start = qiyi_checkers::Checkers::start();
        let moves = random_moves(&start, 20, 3);
        let options = qiyi_checkers::review::JudgeOptions {
            limits: qiyi_core::search::SearchLimits::depth(6),
            ..Default::default()
        };
        let _ = qiyi_checkers::review::review_game(&start, &moves, &options, |_, _| {});
    });
    for (game, mib) in [("xiangqi", 8), ("checkers", 8)] {
        measure(
            &format!("{game} review judge, {mib} MiB table (`--memory 128`)"),
            || {
                if game == "xiangqi" {
                    let options = qiyi_xiangqi::review::JudgeOptions {
                        tt_mib: mib,
                        ..Default::default()
                    };
                    drop(qiyi_xiangqi::review::XiangqiJudge::new(options));
                } else {
                    let options = qiyi_checkers::review::JudgeOptions {
                        tt_mib: mib,
                        ..Default::default()
                    };
                    drop(qiyi_checkers::review::CheckersJudge::new(options));
                }
            },
        );
    }
    println!();
    println!(
        "held by the process after all of the above: {:.1} MiB",
        mib(LIVE.load(Ordering::Relaxed))
    );
}
