// The same seeded game gives the same AI moves in WebAssembly (the static site, in Chromium) as
// natively (`qiyi serve`, the same game layer built for the machine): for each game, every seat
// an AI at a level whose search is bounded by depth or node budget (not by the clock), the same
// seed, and the record after a fixed number of AI moves is compared ply by ply (die rolls too).
//
//   QIYI_BIN=target/release/qiyi QIYI_SITE=target/site node e2e/wasm-same-moves.test.mjs
import { chromium } from "playwright-core";
import { join } from "node:path";
import { chromePath, launchArgs, recorder, requireBinary, startServer } from "./server.mjs";
import { requireSite, serveStatic } from "./static-server.mjs";

const site = requireSite();
requireBinary();

// Levels bounded by depth (Xiangqi 4: depth 5; checkers 4: depth 4) or by budgets (the others);
// time_ms far above what they need, so the clock never decides.
const CASES = [
  { game: "xiangqi", level: 4, plies: 10, seed: 11 },
  { game: "checkers", level: 4, plies: 12, seed: 12 },
  { game: "chinese-checkers", level: 3, plies: 10, seed: 13 },
  { game: "peg-solitaire", level: 3, plies: 6, seed: 14 },
  { game: "aeroplane", level: 5, plies: 12, seed: 15, rules: { players: 2 } },
];
const TIME_MS = 30000;

const { results, record } = recorder();

function body(c, players) {
  return { game: c.game, seed: c.seed, rules: c.rules || {}, hotseat: true, seats: Array.from({ length: players }, () => ({ kind: "ai", level: c.level })) };
}

async function post(url, data, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = "Bearer " + token;
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(data) });
  const out = await res.json();
  if (!res.ok) throw new Error(out.error);
  return out;
}

const players = { xiangqi: 2, checkers: 2, "chinese-checkers": 2, "peg-solitaire": 1, aeroplane: 2 };
const { child, url } = await startServer();
const stat = await serveStatic(site);
const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
try {
  const page = await browser.newPage();
  await page.goto(stat.url, { waitUntil: "load" });
  await page.waitForFunction(() => typeof backend !== "undefined" && backend.kind === "local");
  for (const c of CASES) {
    try {
      // Natively.
      const g = await post(url + "api/games", body(c, players[c.game]));
      let state = g.state;
      for (let i = 0; i < c.plies && state.turn.kind === "player"; i++) {
        state = (await post(`${url}api/games/${g.id}/ai`, { time_ms: TIME_MS }, g.hotseat_token)).state;
      }
      const native = state.history.map((h) => h.text);
      // In WebAssembly, through the page's own back end.
      const wasm = await page.evaluate(async ([b, plies, time]) => {
        const g = await backend.create(b);
        const game = backend.game(g.id, g.hotseat_token);
        let state = g.state;
        for (let i = 0; i < plies && state.turn.kind === "player"; i++) state = (await game.ai({ time_ms: time }).done).state;
        return state.history.map((h) => h.text);
      }, [body(c, players[c.game]), c.plies, TIME_MS]);
      const first = native.findIndex((m, i) => m !== wasm[i]);
      const same = native.length === wasm.length && first === -1;
      record(`${c.game} (level ${c.level}, seed ${c.seed})`, same && native.length > 0,
        same ? `${native.length} plies identical: ${native.slice(0, 6).join(" ")} …` : `differ at ply ${first + 1}: native ${native.slice(first, first + 3)} / wasm ${wasm.slice(first, first + 3)}`);
    } catch (e) {
      record(c.game, false, e.message);
    }
  }
  // The network's WebAssembly SIMD kernel against a scalar sum, in the browser (5,000 seeded
  // vectors of 0-70 elements with extreme values): no Rust test runner reaches it natively.
  try {
    const differ = await page.evaluate(() => wasm_bindgen.dot_self_test(7, 5000));
    record("wasm SIMD dot == scalar sum (5,000 vectors)", differ === 0, `${differ} differ`);
  } catch (e) {
    record("wasm SIMD dot", false, e.message);
  }
} finally {
  await browser.close();
  await stat.close();
  child.kill("SIGTERM");
}
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
