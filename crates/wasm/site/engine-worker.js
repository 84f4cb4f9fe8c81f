// The engine worker of the static site: runs one search job at a time (an AI move, a hint, the
// peg solver; or, in a second worker, a game review; or, in a third, an analysis) in qiyi-wasm and posts its progress and answer back to local.js. It keeps no
// state, so the page may end it at any moment to stop a search.
"use strict";
importScripts("pkg/qiyi_wasm.js");

let ready = null;

// The aeroplane tables (2 MB packed and gzipped) are fetched the first time an aeroplane job
// comes, not on every visit.
async function loadTables() {
  const res = await fetch("data/aeroplane-tables.bin.gz");
  if (!res.ok) throw new Error("the aeroplane tables could not be fetched (HTTP " + res.status + "); they are needed once, with a network");
  let bytes = new Uint8Array(await res.arrayBuffer());
  // A host may already have inflated it (Content-Encoding): gzip data starts with 1f 8b.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  }
  wasm_bindgen.install_tables(bytes);
}

onmessage = async (ev) => {
  const m = ev.data;
  if (m.type === "init") {
    ready = wasm_bindgen({ module_or_path: m.module });
    return;
  }
  if (m.type === "review") {
    // The game review (local.js runs it in a worker of its own and ends that worker to cancel):
    // progress after every ply.
    try {
      await ready;
      if (wasm_bindgen.needs_tables(m.game)) await loadTables();
      const review = wasm_bindgen.review_game(m.record, m.depth, (done, total) => {
        postMessage({ type: "progress", id: m.id, progress: { status: "running", done, total } });
        return false;
      });
      postMessage({ type: "done", id: m.id, answer: review });
    } catch (e) {
      postMessage({ type: "error", id: m.id, message: String(e && e.message ? e.message : e) });
    }
    return;
  }
  if (m.type === "check") {
    // An answer to a personal puzzle ("your mistakes"), judged by the review's judge.
    try {
      await ready;
      if (wasm_bindgen.needs_tables(m.game)) await loadTables();
      postMessage({ type: "done", id: m.id, answer: wasm_bindgen.check_mistake(m.game, m.body) });
    } catch (e) {
      postMessage({ type: "error", id: m.id, message: String(e && e.message ? e.message : e) });
    }
    return;
  }
  if (m.type === "analyse") {
    // The analysis board (local.js runs it in a worker of its own and ends that worker to stop
    // it): every line, the same JSON as the server's `line` events, as it comes.
    try {
      await ready;
      if (wasm_bindgen.needs_tables(m.game)) await loadTables();
      const done = wasm_bindgen.analyse(m.game, m.position, m.options, (line) => {
        postMessage({ type: "progress", id: m.id, progress: JSON.parse(line) });
      });
      postMessage({ type: "done", id: m.id, answer: done });
    } catch (e) {
      postMessage({ type: "error", id: m.id, message: String(e && e.message ? e.message : e) });
    }
    return;
  }
  if (m.type !== "job") return;
  try {
    await ready;
    if (wasm_bindgen.needs_tables(m.game)) await loadTables();
    const answer = wasm_bindgen.run_job(m.job, (p) => postMessage({ type: "progress", id: m.id, progress: JSON.parse(p) }));
    postMessage({ type: "done", id: m.id, answer });
  } catch (e) {
    postMessage({ type: "error", id: m.id, message: String(e && e.message ? e.message : e) });
  }
};
