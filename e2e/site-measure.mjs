// The static site's measures for docs/performance.md (not a test: it prints figures).
//
// 1. Engine speed in the browser: qiyi-wasm's bench measures (crates/wasm/src/bench.rs) run in
//    Chromium on the page's thread, --repeat times each; natively the same measures are
//    `cargo run --release -p qiyi-wasm --example bench -- --repeat N`.
// 2. A phone: a fresh 360x740 touch context, CPU throttled 4x (DevTools), empty cache; opens
//    Xiangqi, plays a move as soon as the board is there and waits for the AI's answer. Prints
//    the time to a playable board, to the AI's move, and what was downloaded (bytes of each
//    file fetched, and gzipped as a compressing host sends them).
//
//   QIYI_SITE=target/site node e2e/site-measure.mjs [--repeat 3] [--game xiangqi]
import { chromium } from "playwright-core";
import { readFileSync, readdirSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromePath, launchArgs } from "./server.mjs";
import { serveStatic } from "./static-server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const site = process.env.QIYI_SITE || join(root, "target/site");
const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const repeat = Number(arg("--repeat", "3"));
const phoneGame = arg("--game", "xiangqi");
if (!(repeat >= 1)) { console.error("site-measure: error: --repeat needs a number >= 1"); process.exit(2); }

// CPU time (user + system, ms) of Chromium: the browser process and all its children (the
// renderer runs the wasm), from /proc (Linux). Unlike wall time it compares on a loaded machine.
function chromiumCpuMs(rootPid) {
  const stats = new Map();
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const f = readFileSync(`/proc/${d}/stat`, "utf8").split(") ")[1].split(" ");
      stats.set(Number(d), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
    } catch (e) { /* gone */ }
  }
  const tree = new Set([rootPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, s] of stats) if (!tree.has(pid) && tree.has(s.ppid)) { tree.add(pid); grew = true; }
  }
  let ticks = 0;
  for (const pid of tree) ticks += stats.has(pid) ? stats.get(pid).ticks : 0;
  return ticks * 10;
}

const server = await serveStatic(site);
const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
try {
  // 1. Engine speed.
  const page = await browser.newPage();
  await page.goto(server.url, { waitUntil: "load" });
  await page.evaluate(async () => {
    await LocalBackend.ready;
    const bytes = new Uint8Array(await (await fetch("data/aeroplane-tables.bin.gz")).arrayBuffer());
    const raw = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer();
    wasm_bindgen.install_tables(new Uint8Array(raw));
  });
  for (const name of ["xiangqi", "checkers", "peg-solitaire", "aeroplane"]) {
    for (let i = 0; i < repeat; i++) {
      const cpu0 = chromiumCpuMs(browser.process().pid);
      const m = JSON.parse(await page.evaluate((n) => wasm_bindgen.bench_js(n), name));
      const cpu = chromiumCpuMs(browser.process().pid) - cpu0;
      console.log(JSON.stringify({ browser: true, ...m, cpu_ms: cpu, nps: Math.round(m.nodes / (m.ms / 1000)) }));
    }
  }
  await page.close();

  // 2. A phone with a 4x slower CPU, first visit.
  for (let i = 0; i < repeat; i++) {
    const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    const p = await ctx.newPage();
    const cdp = await ctx.newCDPSession(p);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
    const from = server.hits.length;
    const cpu0 = chromiumCpuMs(browser.process().pid);
    const t0 = Date.now();
    await p.goto(server.url + "play.html?game=" + phoneGame);
    await p.waitForFunction(() => typeof ui !== "undefined" && ui.state && !ui.busy && document.getElementById("board-svg"), null, { timeout: 120000, polling: 20 });
    const ready = Date.now() - t0;
    await p.evaluate(() => { const m = ui.state.legal[0]; play(m.text); });
    await p.waitForFunction(() => ui.state.history.filter((h) => h.player !== null).length >= 2 && !ui.busy, null, { timeout: 120000, polling: 20 });
    const aiMove = Date.now() - t0;
    const cpu = chromiumCpuMs(browser.process().pid) - cpu0;
    const info = await p.evaluate(() => document.getElementById("info").textContent.split("\n")[0]);
    const files = [...new Set(server.hits.slice(from))].filter((f) => !f.endsWith("/") || true);
    let raw = 0, gz = 0;
    for (const f of files) {
      try {
        const body = readFileSync(join(site, f.endsWith("/") ? f + "index.html" : f));
        raw += body.length;
        gz += f.endsWith(".gz") || f.endsWith(".woff2") || f.endsWith(".png") ? body.length : gzipSync(body, { level: 9 }).length;
      } catch (e) { /* a 404 (none expected) */ }
    }
    console.log(JSON.stringify({ phone: "360x740, CPU 4x slower, first visit", game: phoneGame, board_ready_ms: ready, first_ai_move_ms: aiMove, chromium_cpu_ms: cpu, load: readFileSync("/proc/loadavg", "utf8").split(" ")[0], ai: info, files: files.length, bytes: raw, gzip_bytes: gz }));
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.close();
}
