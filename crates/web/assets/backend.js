// The page's one door to the games. Every page (home, play, archive) asks a back end for what it
// shows and never speaks HTTP itself, so the same page runs against either implementation:
//
//   Backend.server()  the JSON API of `qiyi serve` (crates/web/API.md): games stored on the server,
//                     played by links, watched live;
//   LocalBackend      the in-browser engine of the static site (crates/wasm/site/local.js:
//                     the rules on the page, the AI in a Web Worker), loaded before this file
//                     only in the static build.
//
// The interface (every method returns a Promise unless marked; errors reject with an Error whose
// message is meant for people):
//
//   backend.kind                     "server" (or "local"), sync
//   backend.features                 what this back end offers, sync: { links, archive, live,
//                                    export, clocks, seatResign, analysis, review } (booleans)
//   backend.site                     addresses of the pages, sync: play(game, { id, seat }),
//                                    puzzles(game), game() (the game of this play or puzzle
//                                    page), home, lab
//   backend.catalog()                { games: [{ game, title, about, options, solver, listed }] }
//   backend.create(body)             body as POST /api/games; answers { id, state, hotseat_token,
//                                    seat_tokens, links }
//   backend.archive(page)            { games, page, per_page, total } (features.archive)
//   backend.importRecord(text)       a PGN/PDN/JSON record as a new hot-seat game (as create)
//   backend.game(id, token)          a handle on one game, sync; token: the seat token or null
//   backend.analyse(options, onLine) the analysis board's engine on a position given as text, a
//                                    Task (as game.analyse below; features.analysis)
//   backend.puzzles(game, path, body) the puzzle API of crates/web/API.md under
//                                    /api/puzzles/{game}: path "" (the set), "/next?theme=&after=",
//                                    "/daily", "/{id}", and with a body (POST) "/{id}/attempt";
//                                    the same JSON on both back ends (the static site's judges
//                                    with the server's code in WebAssembly, the rating kept in
//                                    localStorage)
//   backend.checkMistake(game, body) an answer to a personal puzzle ("your mistakes"), judged by
//                                    the review's judge: POST /api/mistakes/{game}/check's JSON
//                                    (in the static site, in the review worker)
//
// A game handle (`token` is sent with every request that acts for a seat):
//
//   game.state(ply)                  STATE now, or as it stood after `ply` plies (replay)
//   game.move(text, ply)             STATE; `ply`: the ply the move was chosen at (stale: refused)
//   game.ai(options, onProgress)     a Task ({ level, time_ms, play, seed_player }); resolves
//                                    { ai, played, state }; onProgress({ depth, score, nodes, pv })
//   game.solve(options, onProgress)  a Task ({ time_ms }); resolves { solve, state }
//   game.undo(plies) / game.position(text) / game.resign(body) / game.draw(body)     STATE
//   game.follow(after, handlers)     live updates after ply `after`, sync; handlers { open, error,
//                                    state(STATE), thinking(progress|null), gone }; answers
//                                    { close() }
//   game.exportHref()                sync: an address that downloads the record (PGN/PDN/JSON)
//
// A Task is a running search: `task.done` is the Promise of its answer and `task.stop()` ends it
// early (a stopped task rejects with an Error named "AbortError"). The server's searches stop at
// their own time limit: stopping there stops waiting for the answer.
//
// Analysis and review (issue 48):
//   game.analyse(options, onLine)    a Task that streams the engine's lines for a position to
//                                    onLine until stop(); options { game, position (text),
//                                    multipv, roll, max_depth }; the lines are those of
//                                    GET /api/analyse (kind "search" | "choices" | "pegs" |
//                                    "race"); resolves { reason, lines } when the engine ends
//   game.remove()                    forgets the game (the analysis board's throw-away games)
//   game.review(options, onProgress) a Task: onProgress({ status, done, total }) while it runs;
//                                    resolves core's Review JSON (per ply: mover, move, best move
//                                    and line, values before/after, class; per player: accuracy,
//                                    luck, skill); the server's is built (review.js shows it)
//   game.reviewState()               the stored review or the running one's state
//   game.cancelReview()              cancels the running review
//   game.mistakes(side)              the finished review's mistakes and blunders of player `side`
//                                    as personal puzzles ({ game, side, side_name, puzzles }), as
//                                    POST /api/games/{id}/review/puzzles answers them
//   (both back ends: the server's in the background; the static site's in a Web Worker, kept in
//   localStorage with the game)
// Both take the position from the game handle; a back end without them leaves them undefined.
"use strict";

const Backend = (() => {
  /** A running search: `done` (Promise of the answer) and `stop()`. */
  class Task {
    constructor(done, stop) {
      this.done = done;
      this.stop = stop;
    }
  }

  function aborted() {
    const e = new Error("stopped");
    e.name = "AbortError";
    return e;
  }

  /** The JSON API of `qiyi serve` at `base` (default: the page's own origin). */
  function server(base = "") {
    async function call(method, path, body, token, signal) {
      const raw = typeof body === "string";
      const headers = body === undefined || raw ? {} : { "content-type": "application/json" };
      if (token && method !== "GET") headers.authorization = "Bearer " + token;
      const init = { method, headers, signal };
      if (body !== undefined) init.body = raw ? body : JSON.stringify(body);
      const res = await fetch(base + path, init);
      let data;
      try { data = await res.json(); } catch (e) { data = { error: "bad answer from the server (" + res.status + ")" }; }
      if (!res.ok) {
        // The page translates an error by its code when it carries one (I18n.error), else shows it.
        const err = new Error(data.error || "HTTP " + res.status);
        if (data.code) err.code = data.code;
        throw err;
      }
      return data;
    }

    // A POST whose answer takes a search: polls the game's progress while it waits.
    function search(id, path, body, token, onProgress) {
      const abort = new AbortController();
      const poll = onProgress ? setInterval(async () => {
        try {
          const st = await call("GET", `/api/games/${id}`);
          if (st.thinking && !abort.signal.aborted) onProgress(st.thinking);
        } catch (e) { /* the final answer reports errors */ }
      }, 300) : null;
      const done = call("POST", path, body, token, abort.signal)
        .catch((e) => { throw abort.signal.aborted ? aborted() : e; })
        .finally(() => { if (poll) clearInterval(poll); });
      return new Task(done, () => abort.abort());
    }

    // The analysis stream of GET /api/analyse, read with fetch rather than EventSource so that an
    // answer refused before streaming (400, 503 "busy") shows its JSON message; closing the
    // connection (stop) ends the search on the server.
    function analyse(options, onLine) {
      const o = options || {};
      const q = new URLSearchParams({ game: o.game, position: o.position });
      for (const k of ["multipv", "roll", "max_depth"]) if (o[k] !== undefined && o[k] !== null) q.set(k, String(o[k]));
      const abort = new AbortController();
      const done = (async () => {
        const res = await fetch(`${base}/api/analyse?${q}`, { signal: abort.signal, headers: { accept: "text/event-stream" } });
        if (!res.ok || !res.body) {
          let data;
          try { data = await res.json(); } catch (e) { data = { error: "bad answer from the server (" + res.status + ")" }; }
          throw Object.assign(new Error(data.error || "HTTP " + res.status), data.code ? { code: data.code } : {});
        }
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        const lines = [];
        let buf = "";
        for (;;) {
          const { value, done: end } = await reader.read();
          if (end) throw new Error("the analysis stream ended early");
          buf += value.replace(/\r\n?/g, "\n");
          let cut;
          while ((cut = buf.indexOf("\n\n")) >= 0) {
            const block = buf.slice(0, cut);
            buf = buf.slice(cut + 2);
            let name = "message";
            const data = [];
            for (const l of block.split("\n")) {
              if (l.startsWith("event:")) name = l.slice(6).trim();
              else if (l.startsWith("data:")) data.push(l.slice(5).replace(/^ /, ""));
            }
            if (!data.length) continue;
            const msg = JSON.parse(data.join("\n"));
            if (name === "line") { lines.push(msg); if (onLine) onLine(msg); }
            else if (name === "done") { abort.abort(); return { reason: msg.reason, lines }; }
            else if (name === "error") { abort.abort(); throw Object.assign(new Error(msg.error || "analysis failed"), msg.code ? { code: msg.code } : {}); }
          }
        }
      })().catch((e) => { throw e.name === "AbortError" ? aborted() : e; });
      return new Task(done, () => abort.abort());
    }

    function game(id, token) {
      const at = `/api/games/${id}`;
      const post = (path, body) => call("POST", at + path, body, token);
      return {
        id,
        token,
        state: (ply) => call("GET", ply === undefined || ply === null ? at : `${at}?ply=${ply}`),
        move: (text, ply) => post("/moves", ply === undefined ? { move: text } : { move: text, ply }),
        ai: (options, onProgress) => search(id, at + "/ai", options || {}, token, onProgress),
        solve: (options, onProgress) => search(id, at + "/solve", options || {}, token, onProgress),
        undo: (plies) => post("/undo", { plies }),
        position: (text) => post("/position", { position: text }),
        resign: (body) => post("/resign", body || {}),
        draw: (body) => post("/draw", body || {}),
        follow(after, handlers) {
          if (typeof EventSource === "undefined") return { close() {} };
          const es = new EventSource(`${at}/events?after=${after}`);
          const on = (name, parse) => es.addEventListener(name, (ev) => {
            if (handlers[name]) handlers[name](parse ? JSON.parse(ev.data) : undefined);
          });
          on("open"); on("error"); on("state", true); on("thinking", true); on("gone"); on("review", true);
          return { close: () => es.close() };
        },
        exportHref: () => `${at}/export`,
        // The game review (review.js): POST starts it (or joins the one running, or answers the
        // stored one), GET polls it; stop() cancels it.
        review(options, onProgress) {
          let stopped = false;
          const done = (async () => {
            let st = await call("POST", at + "/review", options || {});
            while (st.status === "queued" || st.status === "running") {
              if (onProgress) onProgress(st);
              await new Promise((r) => setTimeout(r, 400));
              if (stopped) throw aborted();
              st = await call("GET", at + "/review");
            }
            if (st.status === "done") return st.review;
            if (st.status === "cancelled") throw aborted();
            throw new Error(st.error || "the review ended: " + st.status);
          })();
          return new Task(done, () => { stopped = true; call("DELETE", at + "/review").catch(() => {}); });
        },
        analyse,
        remove: () => call("DELETE", at, undefined, token),
        reviewState: () => call("GET", at + "/review"),
        cancelReview: () => call("DELETE", at + "/review"),
        // Your mistakes as puzzles: the stored review's mistakes and blunders of player `side`.
        mistakes: (side) => call("POST", at + "/review/puzzles", { side }),
      };
    }

    return {
      kind: "server",
      features: { links: true, archive: true, live: true, export: true, clocks: true, seatResign: true, analysis: true, review: true },
      site: {
        play(game, params) {
          const q = params ? Object.entries(params).filter(([, v]) => v !== null && v !== undefined).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&") : "";
          return `/play/${encodeURIComponent(game)}` + (q ? "?" + q : "");
        },
        puzzles: (game) => `/puzzles/${encodeURIComponent(game)}`,
        game: () => decodeURIComponent(location.pathname.split("/").filter(Boolean)[1] || ""),
        home: "/",
        lab: "/lab",
      },
      catalog: () => call("GET", "/api/games"),
      create: (body) => call("POST", "/api/games", body),
      archive: (page) => call("GET", `/api/games?page=${page}`),
      importRecord: (text) => call("POST", "/api/games/import", text),
      puzzles: (game, path, body) => call(body === undefined ? "GET" : "POST", `/api/puzzles/${encodeURIComponent(game)}${path}`, body),
      checkMistake: (game, body) => call("POST", `/api/mistakes/${encodeURIComponent(game)}/check`, body),
      analyse,
      game,
    };
  }

  return { Task, aborted, server };
})();

/** The back end every page of this site uses: the in-browser engine in the static build (its
 *  local.js comes first), else the server that served the page. */
const backend = typeof LocalBackend !== "undefined" ? LocalBackend.create(Backend) : Backend.server();
