//! qiyi-wasm: every qiyi game in the browser. The static site's in-browser back end
//! (`crates/wasm/site/local.js`, the second implementation of the page's interface in
//! `crates/web/assets/backend.js`) calls this crate twice over:
//!
//! - on the page's thread, [`Games`]: the rules of the games being played (create, state,
//!   moves, undo, paste, replay, resign, draw), answering the same JSON as the server's API
//!   (`crates/web/API.md`) because it is built from the same game layer (`qiyi-web` without its
//!   server);
//! - in a Web Worker, [`run_job`]: an AI move, a hint or the peg solver for a [`job::SearchJob`]
//!   that [`Games`] wrote, so the page never blocks. A search has its time limit; to stop one
//!   earlier the page ends the worker and starts another (the worker keeps no state).
//!
//! - in a second Web Worker, [`review_game`]: the game review (the server's judges over the
//!   page's record, [`review`]), its progress posted per ply; the page ends that worker to cancel.
//!
//! - in a third Web Worker, [`analyse`]: the analysis board's engine, the server's own
//!   ([`qiyi_web::analysis`], what `GET /api/analyse` streams), each line posted as it comes; the
//!   page ends that worker to stop it.
//!
//! - on the puzzle page's thread, [`PuzzleBook`]: the server's puzzle API over one game's puzzle
//!   file ([`puzzles`]), the player's rating kept by the page in `localStorage`.
//!
//! Build: `scripts/site/build.sh OUT` (cargo for `wasm32-unknown-unknown`, then
//! `wasm-bindgen --target no-modules`).

#![warn(missing_docs)]

pub mod bench;
pub mod job;
pub mod local;
pub mod pack;
pub mod puzzles;
pub mod review;

use qiyi_web::error::ApiError;
use wasm_bindgen::prelude::*;

fn js_error(e: ApiError) -> JsError {
    JsError::new(&e.to_string())
}

fn json(v: &serde_json::Value) -> String {
    v.to_string()
}

/// Installs a panic hook that writes Rust panics to the console with their message (instead of
/// "unreachable executed").
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

/// The catalog of `GET /api/games`, as JSON.
#[wasm_bindgen]
pub fn catalog() -> String {
    serde_json::json!({ "games": qiyi_web::games::catalog() }).to_string()
}

/// This crate's version (the page shows it and the service worker names its cache by it).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The games of one page (see [`local::LocalGames`]); every method answers JSON text or throws
/// an `Error` whose message is for people.
#[wasm_bindgen]
#[derive(Default)]
pub struct Games(local::LocalGames);

#[wasm_bindgen]
impl Games {
    /// No games yet.
    #[wasm_bindgen(constructor)]
    pub fn new() -> Games {
        Games::default()
    }

    /// `POST /api/games`; `stamp` (the time) keeps ids unique across visits.
    pub fn create(&mut self, body: &str, stamp: f64) -> Result<String, JsError> {
        self.0
            .create(body, stamp as u64)
            .map(|v| json(&v))
            .map_err(js_error)
    }

    /// A stored game back from its record; answers its id.
    pub fn restore(&mut self, record: &str) -> Result<String, JsError> {
        self.0.restore(record).map_err(js_error)
    }

    /// The record of a game, to store.
    pub fn record(&self, id: &str) -> Result<String, JsError> {
        self.0.record(id).map(|v| json(&v)).map_err(js_error)
    }

    /// Whether the game is held here.
    pub fn has(&self, id: &str) -> bool {
        self.0.has(id)
    }

    /// STATE now (`ply` < 0) or after `ply` plies.
    pub fn state(&self, id: &str, ply: i32) -> Result<String, JsError> {
        let ply = usize::try_from(ply).ok();
        self.0.state(id, ply).map(|v| json(&v)).map_err(js_error)
    }

    /// Plays `mv`; `ply` < 0: whatever the game's ply.
    pub fn play(&mut self, id: &str, mv: &str, ply: i32) -> Result<String, JsError> {
        let ply = usize::try_from(ply).ok();
        self.0.play(id, mv, ply).map(|v| json(&v)).map_err(js_error)
    }

    /// Takes back `plies` chosen moves.
    pub fn undo(&mut self, id: &str, plies: u32) -> Result<String, JsError> {
        self.0
            .undo(id, plies as usize)
            .map(|v| json(&v))
            .map_err(js_error)
    }

    /// Restarts the game from a pasted position.
    pub fn position(&mut self, id: &str, text: &str) -> Result<String, JsError> {
        self.0
            .position(id, text)
            .map(|v| json(&v))
            .map_err(js_error)
    }

    /// `POST /resign` with its body.
    pub fn resign(&mut self, id: &str, body: &str) -> Result<String, JsError> {
        self.0.resign(id, body).map(|v| json(&v)).map_err(js_error)
    }

    /// `POST /draw` with its body.
    pub fn draw(&mut self, id: &str, body: &str) -> Result<String, JsError> {
        self.0.draw(id, body).map(|v| json(&v)).map_err(js_error)
    }

    /// The job for the engine worker that `POST /ai` with `body` asks for.
    pub fn ai_job(&self, id: &str, body: &str) -> Result<String, JsError> {
        let job = self.0.ai_job(id, body).map_err(js_error)?;
        serde_json::to_string(&job).map_err(|e| JsError::new(&e.to_string()))
    }

    /// The job for the engine worker that `POST /solve` with `body` asks for.
    pub fn solve_job(&self, id: &str, body: &str) -> Result<String, JsError> {
        let job = self.0.solve_job(id, body).map_err(js_error)?;
        serde_json::to_string(&job).map_err(|e| JsError::new(&e.to_string()))
    }

    /// Takes the worker's `answer` to `job`: `{ai, played, state}` or `{solve, state}`.
    pub fn finish(&mut self, id: &str, job: &str, answer: &str) -> Result<String, JsError> {
        let job: job::SearchJob =
            serde_json::from_str(job).map_err(|e| JsError::new(&format!("bad job: {e}")))?;
        self.0
            .finish(id, &job, answer)
            .map(|v| json(&v))
            .map_err(js_error)
    }
}

/// One game's puzzles on the static site's puzzle page (see [`puzzles::Book`]): every method
/// answers the JSON of the server's `/api/puzzles/{game}/...` or throws an `Error` whose message
/// is for people (the server's). `progress` is the player's [`puzzles::Progress`] as the page
/// keeps it (JSON text; empty: a first visit); `day` is days since 1970-01-01 (UTC).
#[wasm_bindgen]
pub struct PuzzleBook(puzzles::Book);

#[wasm_bindgen]
impl PuzzleBook {
    /// Parses `text`, the puzzle file of `game` (`crates/*/puzzles/*.jsonl`).
    #[wasm_bindgen(constructor)]
    pub fn new(game: &str, text: &str) -> Result<PuzzleBook, JsError> {
        puzzles::Book::new(game, text)
            .map(PuzzleBook)
            .map_err(js_error)
    }

    /// `GET /api/puzzles/{game}`.
    pub fn summary(&self, progress: &str, day: f64) -> Result<String, JsError> {
        let p = puzzles::Progress::read(progress);
        self.0
            .summary(&p, day as u64)
            .map(|v| json(&v))
            .map_err(js_error)
    }

    /// `GET /api/puzzles/{game}/next?theme=&after=` (empty: none); `random` in `[0, 1)` picks
    /// among the puzzles nearest the player's rating.
    pub fn next(
        &self,
        progress: &str,
        theme: &str,
        after: &str,
        random: f64,
    ) -> Result<String, JsError> {
        let p = puzzles::Progress::read(progress);
        let some = |s: &str| Some(s.to_string()).filter(|s| !s.is_empty());
        let (theme, after) = (some(theme), some(after));
        self.0
            .next(&p, theme.as_deref(), after.as_deref(), random)
            .map(|v| json(&v))
            .map_err(js_error)
    }

    /// `GET /api/puzzles/{game}/daily` on `day`.
    pub fn daily(&self, progress: &str, day: f64) -> Result<String, JsError> {
        let p = puzzles::Progress::read(progress);
        self.0
            .daily(&p, day as u64)
            .map(|v| json(&v))
            .map_err(js_error)
    }

    /// `GET /api/puzzles/{game}/{id}`.
    pub fn get(&self, progress: &str, id: &str) -> Result<String, JsError> {
        let p = puzzles::Progress::read(progress);
        self.0.get(&p, id).map(|v| json(&v)).map_err(js_error)
    }

    /// `POST /api/puzzles/{game}/{id}/attempt` with `body` (JSON text): answers
    /// `{"answer": <the server's answer>, "progress": <the progress to keep>}`.
    pub fn attempt(&self, progress: &str, id: &str, body: &str) -> Result<String, JsError> {
        let p = puzzles::Progress::read(progress);
        let (answer, after) = self.0.attempt(&p, id, body).map_err(js_error)?;
        Ok(serde_json::json!({ "answer": answer, "progress": after }).to_string())
    }

    /// `POST /api/puzzles/{game}/{id}/refute` with `body` (JSON text `{"step", "move"}`): what
    /// a wrong move allows, as the server answers it (the puzzle's own judge, in this thread).
    pub fn refute(&self, id: &str, body: &str) -> Result<String, JsError> {
        self.0.refute(id, body).map(|v| json(&v)).map_err(js_error)
    }
}

/// In the worker: runs a job, calling `progress` with each report (`{depth, score, nodes, pv}`
/// as JSON text); answers the engine's or the solver's answer as JSON.
#[wasm_bindgen]
pub fn run_job(job: &str, progress: &js_sys::Function) -> Result<String, JsError> {
    let job: job::SearchJob =
        serde_json::from_str(job).map_err(|e| JsError::new(&format!("bad job: {e}")))?;
    let report = |p: qiyi_web::session::Progress| {
        if let Ok(text) = serde_json::to_string(&p) {
            let _ = progress.call1(&JsValue::NULL, &JsValue::from_str(&text));
        }
    };
    job.run(&report).map_err(js_error)
}

/// In the review worker: reviews the game of `record` (the page's stored record, JSON) with the
/// server's judge for its game; `depth` < 0: the browser's default
/// ([`review::BROWSER_XIANGQI_DEPTH`], [`review::BROWSER_CHECKERS_DEPTH`]; none for peg solitaire
/// and aeroplane). `progress(done, total)`
/// is called after each ply; a truthy answer stops the review before the next ply. Answers the
/// Review JSON (as `GET /api/games/{id}/review` puts under `review`).
#[wasm_bindgen]
pub fn review_game(
    record: &str,
    depth: i32,
    progress: &js_sys::Function,
) -> Result<String, JsError> {
    let depth = u32::try_from(depth).ok();
    let mut report = |done: usize, total: usize| {
        progress
            .call2(
                &JsValue::NULL,
                &JsValue::from_f64(done as f64),
                &JsValue::from_f64(total as f64),
            )
            .map(|v| v.is_truthy())
            .unwrap_or(false)
    };
    review::review_record(record, depth, &mut report).map_err(js_error)
}

/// The personal puzzles of player `side` from a finished review (issue 58, "your mistakes as
/// puzzles"): `record` is the page's stored record of the game (JSON), `review` its Review JSON.
/// Answers what `POST /api/games/{id}/review/puzzles` answers (the same
/// [`qiyi_web::mistakes::puzzles`]); a review not of this game, or a side not one of its
/// players, is an error.
#[wasm_bindgen]
pub fn mistake_puzzles(record: &str, review: &str, side: u32) -> Result<String, JsError> {
    review::mistake_puzzles(record, review, side as usize).map_err(js_error)
}

/// In the review worker: judges an answer to a personal puzzle of `game` with the review's
/// judge; `body` is `POST /api/mistakes/{game}/check`'s JSON, and so is the answer.
#[wasm_bindgen]
pub fn check_mistake(game: &str, body: &str) -> Result<String, JsError> {
    review::check_mistake(game, body).map_err(js_error)
}

/// The analysis board's time cap in the browser when the page sets none (the server's is 30 s).
pub const BROWSER_ANALYSIS_MS: u64 = 30_000;

/// The analysis engine's transposition table in the browser, in MiB (the server's is 64).
pub const BROWSER_ANALYSIS_HASH_MIB: usize = 16;

/// In the analysis worker: analyses `position` of `game` (its position text) with the server's
/// code ([`qiyi_web::analysis`]); `options` is JSON (`{"multipv", "roll", "max_depth",
/// "time_ms"}`, each optional; default time [`BROWSER_ANALYSIS_MS`]). `on_line(line)` gets each
/// line as JSON text, the same objects `GET /api/analyse` sends as `line` events. Answers the
/// `done` event's data (`{"reason": "depth" | "limit"}`); the page stops an analysis by ending
/// the worker. A bad request is an error with the server's message.
#[wasm_bindgen]
pub fn analyse(
    game: &str,
    position: &str,
    options: &str,
    on_line: &js_sys::Function,
) -> Result<String, JsError> {
    analyse_json(game, position, options, &mut |line| {
        let _ = on_line.call1(&JsValue::NULL, &JsValue::from_str(&line));
    })
    .map_err(js_error)
}

/// [`analyse`] without JavaScript: lines as JSON text to `on_line`, the `done` data answered.
pub fn analyse_json(
    game: &str,
    position: &str,
    options: &str,
    on_line: &mut dyn FnMut(String),
) -> Result<String, qiyi_web::ApiError> {
    use qiyi_web::analysis::{analyse, AnalysisOptions};
    let text = if options.trim().is_empty() {
        "{}"
    } else {
        options
    };
    let mut options: AnalysisOptions = serde_json::from_str(text)
        .map_err(|e| qiyi_web::ApiError::BadRequest(format!("bad analysis options: {e}")))?;
    options.time_ms.get_or_insert(BROWSER_ANALYSIS_MS);
    options.hash_mib.get_or_insert(BROWSER_ANALYSIS_HASH_MIB);
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reason = analyse(game, position, &options, cancel, &mut |line| {
        if let Ok(text) = serde_json::to_string(&line) {
            on_line(text);
        }
    })?;
    Ok(serde_json::json!({ "reason": reason }).to_string())
}

/// Whether a job for `game` needs data the worker has not loaded yet: the aeroplane tables
/// (fetched only when aeroplane chess is played).
#[wasm_bindgen]
pub fn needs_tables(game: &str) -> bool {
    game == "aeroplane" && !qiyi_aeroplane::tables::available()
}

/// Installs the aeroplane tables from the site's packed file (already inflated); a damaged file
/// throws, naming what is wrong.
#[wasm_bindgen]
pub fn install_tables(packed: &[u8]) -> Result<(), JsError> {
    let tables = pack::unpack(packed).map_err(|e| JsError::new(&e.to_string()))?;
    let [race, hazard, random]: [Vec<u8>; 3] = tables
        .try_into()
        .map_err(|_| JsError::new("the aeroplane table file holds the wrong number of tables"))?;
    qiyi_aeroplane::tables::install(race, hazard, random).map_err(|e| JsError::new(&e.to_string()))
}

/// Runs one of the [`mod@bench`] measures (`xiangqi`, `checkers`, `peg-solitaire`, `aeroplane`)
/// here, in the browser; answers `{name, what, nodes, ms}` as JSON.
#[wasm_bindgen]
pub fn bench_js(name: &str) -> Result<String, JsError> {
    let m = bench::run(name).ok_or_else(|| {
        JsError::new(&format!(
            "no measure {name} here (one of {}; aeroplane needs its tables installed)",
            bench::NAMES.join(", ")
        ))
    })?;
    serde_json::to_string(&m).map_err(|e| JsError::new(&e.to_string()))
}

/// Checks the network's WebAssembly SIMD kernel (`i32x4.dot_i16x8_s`, the evaluation's inner
/// product) against a scalar sum on `cases` seeded random vectors with extreme values, here in
/// the browser; answers how many differ (0 expected). Called by `e2e/wasm-same-moves.test.mjs`.
#[wasm_bindgen]
pub fn dot_self_test(seed: u32, cases: u32) -> u32 {
    qiyi_core::learn::quant::dot_self_test(u64::from(seed), cases as usize) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worker_analysis_streams_the_servers_lines() {
        let mut lines = Vec::new();
        let done = analyse_json(
            "checkers",
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            r#"{"multipv": 2, "max_depth": 3}"#,
            &mut |l| lines.push(l),
        )
        .unwrap();
        assert_eq!(done, r#"{"reason":"depth"}"#);
        assert_eq!(lines.len(), 6);
        let last: serde_json::Value = serde_json::from_str(&lines[5]).unwrap();
        assert_eq!(last["kind"], "search");
        assert_eq!(last["depth"], 3);
        assert_eq!(last["multipv"], 2);
        // Bad options and bad positions are the server's errors.
        assert!(matches!(
            analyse_json("checkers", "x", "{}", &mut |_| {}),
            Err(ApiError::BadRequest(_))
        ));
        assert!(matches!(
            analyse_json("xiangqi", "x", r#"{"depth": 3}"#, &mut |_| {}),
            Err(ApiError::BadRequest(_))
        ));
    }
}
