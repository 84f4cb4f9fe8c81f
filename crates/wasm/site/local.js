// The in-browser back end of the static site: the second implementation of the page's interface
// (crates/web/assets/backend.js describes it). The rules run here, on the page, in qiyi-wasm's
// `Games` (the server's own game layer compiled to WebAssembly, answering the same JSON); AI
// moves, hints and the solver run in a Web Worker (engine-worker.js) so the page never blocks;
// game reviews run in a second worker of the same script and are kept beside their game;
// analyses (the analysis board) in a third, through `LocalBackend.analyse`. The puzzle page's
// API is qiyi-wasm's `PuzzleBook` over the game's puzzle file (data/puzzles/GAME.jsonl.gz,
// fetched when that game's puzzle page opens), the player's rating and attempts kept in
// localStorage.
// A search stops at its time limit; stop() ends the worker at once and starts a fresh one (it
// keeps no state: every job carries its game's record). Games are kept in localStorage, so a
// reload, or a visit without network, picks them up again.
"use strict";

const LocalBackend = (() => {
  const STORE = "qiyi-local-game-";
  let games = null;     // wasm_bindgen.Games, once loaded
  let module = null;    // the compiled WebAssembly.Module, shared with the worker

  function fail(what, e) {
    return new Error(`${what}: ${e && e.message ? e.message : e}. Reload the page; if this stays, clear this site's data in the browser settings (a damaged download or an old cached copy).`);
  }

  const ready = (async () => {
    if (typeof WebAssembly !== "object" || typeof WebAssembly.instantiate !== "function") {
      throw new Error("this browser cannot run WebAssembly, which the games need on this page: use a current browser, or play on a qiyi server (qiyi serve)");
    }
    // The engine is built with WebAssembly SIMD (a function returning i8x16.popcnt(splat 0)).
    const simd = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
    if (!WebAssembly.validate(simd)) {
      throw new Error("this browser's WebAssembly has no SIMD, which the game engine uses: update the browser (Chrome 91, Firefox 89, Safari 16.4 or later), or play on a qiyi server (qiyi serve)");
    }
    if (typeof wasm_bindgen !== "function") throw fail("the game engine's script did not load", "pkg/qiyi_wasm.js missing");
    const url = new URL("pkg/qiyi_wasm_bg.wasm", document.baseURI);
    try {
      const res = await fetch(url);
      if (!res.ok) throw new Error("HTTP " + res.status);
      module = await WebAssembly.compile(await res.arrayBuffer());
      await wasm_bindgen({ module_or_path: module });
      games = new wasm_bindgen.Games();
    } catch (e) {
      throw fail("the game engine could not be loaded", e);
    }
  })();
  ready.catch(() => {}); // every call reports it

  // ---- the engine worker ----------------------------------------------------------------------
  // Two workers of the same script: `engine` for AI moves, hints and the solver; `reviewer` for
  // game reviews, so ending a review (cancel) never ends a search and a review never waits
  // behind one.
  const workers = () => {
    let worker = null;
    let next = 1;
    const pending = new Map(); // job id -> { resolve, reject, onProgress }

    function start() {
      worker = new Worker(new URL("engine-worker.js", document.baseURI));
      worker.onmessage = (ev) => {
        const m = ev.data;
        const p = pending.get(m.id);
        if (!p) return;
        if (m.type === "progress") { if (p.onProgress) p.onProgress(m.progress); return; }
        pending.delete(m.id);
        if (m.type === "done") p.resolve(m.answer); else p.reject(new Error(m.message));
      };
      worker.onerror = (ev) => {
        ev.preventDefault();
        for (const p of pending.values()) p.reject(fail("the engine stopped", ev.message || "worker error"));
        pending.clear();
        worker = null;
      };
      worker.postMessage({ type: "init", module });
    }

    function stopper(id, Backend) {
      return () => {
        const p = pending.get(id);
        if (!p) return;
        pending.delete(id);
        // The worker cannot hear a message while it works: end it, and every job it held.
        worker.terminate();
        worker = null;
        p.reject(Backend.aborted());
        for (const q of pending.values()) q.reject(Backend.aborted());
        pending.clear();
      };
    }

    function post(message, onProgress, Backend) {
      if (!worker) start();
      const id = next++;
      const done = new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject, onProgress });
        worker.postMessage(Object.assign({ id }, message));
      });
      return { done, stop: stopper(id, Backend) };
    }

    return {
      /** A search job (JSON text) for `game`. */
      run: (job, game, onProgress, Backend) => post({ type: "job", job, game }, onProgress, Backend),
      /** A game review of `record` (JSON text): onProgress({ status, done, total }) per ply. */
      review: (record, game, depth, onProgress, Backend) => post({ type: "review", record, game, depth }, onProgress, Backend),
      /** An answer to a personal puzzle: POST /api/mistakes/{game}/check's body (an object). */
      check: (game, body, Backend) => post({ type: "check", game, body: JSON.stringify(body) }, null, Backend),
      /** An analysis of `position` (text) of `game`: onLine(line) for every line. */
      analyse: (game, position, options, onLine, Backend) => post({ type: "analyse", game, position, options }, onLine, Backend),
    };
  };
  const engine = workers();
  const reviewer = workers();
  const analyser = workers();

  /**
   * The analysis board in the browser: analyses `position` (the game's position text, as the
   * position editor and `GET /api/analyse` take it) of `game` in the analysis worker, with the
   * server's engine code. `options`: `{ multipv, roll, max_depth, time_ms }`, each optional (as
   * the endpoint's query; default time 30 s). `onLine(line)` gets every line, the same objects the
   * server sends as `line` events (`{ kind: "search" | "race" | "pegs" | "choices", ... }`).
   * Answers a Task (`Backend.Task`): `done` resolves `{ reason: "depth" | "limit" }` (the server's
   * `done` event) or rejects with the server's message for a bad request; `stop()` ends the
   * worker at once and `done` rejects with `Backend.aborted()` (the server's `stopped`).
   * `B`: the page's Backend (backend.js; default the global one).
   */
  function analyse(game, position, options, onLine, B = typeof Backend !== "undefined" ? Backend : null) {
    const Backend = B;
    let inner = null;
    let stopped = false;
    const done = (async () => {
      await ready;
      if (stopped) throw Backend.aborted();
      inner = analyser.analyse(game, position, JSON.stringify(options || {}), onLine, Backend);
      return JSON.parse(await inner.done);
    })();
    return new Backend.Task(done, () => { stopped = true; if (inner) inner.stop(); });
  }

  // Reviews are kept beside their game, with the record they judged: computed once, until the
  // game changes.
  const REVIEWS = "qiyi-local-review-";
  const running = new Map(); // game id -> { task, status }

  function storedReview(id) {
    try {
      const kept = JSON.parse(localStorage.getItem(REVIEWS + id) || "null");
      if (kept && kept.record === games.record(id)) return kept.review;
    } catch (e) { /* no storage, or damaged: reviewed again */ }
    return null;
  }

  function save(id) {
    try { localStorage.setItem(STORE + id, games.record(id)); } catch (e) { /* private mode or full: the game still plays */ }
  }

  /** The page's analysis call ({ game, position, multipv, roll, max_depth }) on local.js's
   *  analyse, which takes the game and the position apart from the engine's options. */
  function analyseHere(options, onLine, Backend) {
    const o = options || {};
    const engineOptions = {};
    for (const k of ["multipv", "roll", "max_depth", "time_ms"]) if (o[k] !== undefined && o[k] !== null) engineOptions[k] = o[k];
    return LocalBackend.analyse(o.game, o.position, engineOptions, onLine, Backend);
  }

  // ---- puzzles --------------------------------------------------------------------------------
  const PUZZLES = "qiyi-local-puzzles-";
  const books = new Map(); // game -> Promise of its wasm_bindgen.PuzzleBook

  function book(game) {
    if (!books.has(game)) {
      const loading = (async () => {
        await ready;
        let text;
        try {
          const res = await fetch(new URL(`data/puzzles/${encodeURIComponent(game)}.jsonl.gz`, document.baseURI));
          if (res.status === 404) throw Object.assign(new Error(`no puzzles of ${game}`), { code: "unknown_game" });
          if (!res.ok) throw new Error("HTTP " + res.status);
          let bytes = new Uint8Array(await res.arrayBuffer());
          // A host may already have inflated it (Content-Encoding): gzip data starts with 1f 8b.
          if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
            const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
            bytes = new Uint8Array(await new Response(stream).arrayBuffer());
          }
          text = new TextDecoder().decode(bytes);
        } catch (e) {
          if (e.code) throw e;
          throw fail(`the ${game} puzzles could not be loaded`, e);
        }
        return new wasm_bindgen.PuzzleBook(game, text);
      })();
      loading.catch(() => books.delete(game)); // tried again at the next call
      books.set(game, loading);
    }
    return books.get(game);
  }

  function progress(game) {
    try { return localStorage.getItem(PUZZLES + game) || ""; } catch (e) { return ""; }
  }

  /** The puzzle API of `game` (backend.puzzles): path "", "/next?...", "/daily", "/{id}", and
   *  with a body "/{id}/attempt" and "/{id}/refute", answered by the puzzle book with the server's JSON. */
  async function puzzles(game, path, body) {
    const b = await book(game);
    const kept = progress(game);
    const [route, query] = path.split("?");
    const parts = route.split("/").filter(Boolean).map(decodeURIComponent);
    const q = new URLSearchParams(query || "");
    const day = Math.floor(Date.now() / 86400000);
    if (body !== undefined) {
      if (parts.length === 2 && parts[1] === "refute") return JSON.parse(b.refute(parts[0], JSON.stringify(body)));
      if (parts.length !== 2 || parts[1] !== "attempt") throw new Error("no such puzzle request: POST " + path);
      const out = JSON.parse(b.attempt(kept, parts[0], JSON.stringify(body)));
      try { localStorage.setItem(PUZZLES + game, JSON.stringify(out.progress)); } catch (e) { /* private mode or full: rated, not kept */ }
      return out.answer;
    }
    if (!parts.length) return JSON.parse(b.summary(kept, day));
    if (parts.length === 1 && parts[0] === "next") return JSON.parse(b.next(kept, q.get("theme") || "", q.get("after") || "", Math.random()));
    if (parts.length === 1 && parts[0] === "daily") return JSON.parse(b.daily(kept, day));
    if (parts.length === 1) return JSON.parse(b.get(kept, parts[0]));
    throw new Error("no such puzzle request: GET " + path);
  }

  function create(Backend) {
    async function held(id) {
      await ready;
      if (games.has(id)) return;
      let record = null;
      try { record = localStorage.getItem(STORE + id); } catch (e) { /* no storage */ }
      if (!record) throw Object.assign(new Error(`no game ${id} on this device: games played on this page are kept in this browser only`), { code: "no_local_game", params: { id } });
      try { games.restore(record); } catch (e) { throw new Error(`the stored game ${id} cannot be read (${e.message}); start a new game`); }
    }

    function game(id, token) {
      const call = async (f) => { await held(id); const out = JSON.parse(f()); save(id); return out; };
      const search = (jobOf, options, onProgress) => {
        let inner = null;
        let stopped = false;
        const done = (async () => {
          await held(id);
          const job = jobOf(JSON.stringify(options || {}));
          if (stopped) throw Backend.aborted();
          inner = engine.run(job, JSON.parse(job).game, onProgress, Backend);
          const answer = await inner.done;
          const out = JSON.parse(games.finish(id, job, answer));
          save(id);
          return out;
        })();
        return new Backend.Task(done, () => { stopped = true; if (inner) inner.stop(); });
      };
      return {
        id,
        token,
        state: (ply) => call(() => games.state(id, ply === undefined || ply === null ? -1 : ply)),
        move: (text, ply) => call(() => games.play(id, text, ply === undefined || ply === null ? -1 : ply)),
        ai: (options, onProgress) => search((o) => games.ai_job(id, o), options, onProgress),
        solve: (options, onProgress) => search((o) => games.solve_job(id, o), options, onProgress),
        undo: (plies) => call(() => games.undo(id, plies)),
        position: (text) => call(() => games.position(id, text)),
        resign: (body) => call(() => games.resign(id, JSON.stringify(body || {}))),
        draw: (body) => call(() => games.draw(id, JSON.stringify(body || {}))),
        // The game review, in the review worker (features.review); kept with the game.
        review(options, onProgress) {
          let inner = null;
          let stopped = false;
          const done = (async () => {
            await held(id);
            const kept = storedReview(id);
            if (kept) return kept;
            const on = running.get(id);
            if (on) return on.task.done.then((text) => JSON.parse(text));
            const record = games.record(id);
            const game = JSON.parse(record).game;
            if (stopped) throw Backend.aborted();
            const depth = options && Number.isInteger(options.depth) ? options.depth : -1;
            const entry = { status: { status: "running", done: 0, total: 0 } };
            inner = reviewer.review(record, game, depth, (p) => { entry.status = p; if (onProgress) onProgress(p); }, Backend);
            entry.task = inner;
            running.set(id, entry);
            try {
              const review = JSON.parse(await inner.done);
              try { localStorage.setItem(REVIEWS + id, JSON.stringify({ record, review })); } catch (e) { /* full: shown, not kept */ }
              return review;
            } finally {
              if (running.get(id) === entry) running.delete(id);
            }
          })();
          return new Backend.Task(done, () => { stopped = true; if (inner) inner.stop(); });
        },
        async reviewState() {
          await held(id);
          const kept = storedReview(id);
          if (kept) return { status: "done", review: kept };
          const on = running.get(id);
          return on ? on.status : { status: "none" };
        },
        // Your mistakes as puzzles, from the kept review (the same Rust as the server's route).
        async mistakes(side) {
          await held(id);
          const kept = storedReview(id);
          if (!kept) throw Object.assign(new Error("no finished review of this game as it stands: review it first"), { code: "conflict" });
          return call(() => wasm_bindgen.mistake_puzzles(games.record(id), JSON.stringify(kept), side));
        },
        async cancelReview() {
          const on = running.get(id);
          if (!on) throw new Error("no review of this game is running");
          running.delete(id);
          on.task.stop();
          return { status: "cancelled" };
        },
        // The analysis board's engine: local.js's analyse (the Web Worker), same lines as the
        // server's GET /api/analyse.
        analyse: (options, onLine) => analyseHere(options, onLine, Backend),
        // Forgets a throw-away game (the analysis board's): no longer kept in this browser.
        remove: async () => { try { localStorage.removeItem(STORE + id); } catch (e) { /* no storage */ } return { deleted: id }; },
        // One page plays every seat: nothing to follow.
        follow: () => ({ close() {} }),
        exportHref: () => "#",
      };
    }

    const page = (name, params) => {
      const q = Object.entries(params || {}).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
      return name + (q ? "?" + q : "");
    };

    return {
      kind: "local",
      features: { links: false, archive: false, live: false, export: false, clocks: false, seatResign: false, analysis: typeof LocalBackend.analyse === "function", review: true },
      site: {
        play: (g, params) => page("play.html", Object.assign({ game: g }, params || {})),
        puzzles: (g) => page("puzzles.html", { game: g }),
        game: () => new URLSearchParams(location.search).get("game") || "",
        home: "./",
        lab: "lab.html",
      },
      async catalog() { await ready; return JSON.parse(wasm_bindgen.catalog()); },
      async create(body) {
        await ready;
        const out = JSON.parse(games.create(JSON.stringify(body), Date.now()));
        save(out.id);
        return out;
      },
      archive: async () => { throw Object.assign(new Error("the archive of games needs a server (qiyi serve)"), { code: "needs_server" }); },
      importRecord: async () => { throw Object.assign(new Error("importing records needs a server (qiyi serve)"), { code: "needs_server" }); },
      analyse: (options, onLine) => analyseHere(options, onLine, Backend),
      puzzles,
      // An answer to a personal puzzle, judged in the review worker (its searches never hold up
      // the page).
      async checkMistake(g, body) { await ready; return JSON.parse(await reviewer.check(g, body, Backend).done); },
      game,
    };
  }

  return { create, ready, analyse };
})();
