// Where the browser build spends its time: runs one of qiyi-wasm's bench measures
// (crates/wasm/src/bench.rs) in Chromium under the DevTools sampling profiler and prints the
// functions by self time (the wasm keeps its function names). How the checkers network's
// kernel was found to be 87% of a search (docs/performance.md).
//
//   node e2e/site-profile.mjs target/site [checkers]
import { chromium } from "playwright-core";
import { chromePath, launchArgs } from "./server.mjs";
import { serveStatic } from "./static-server.mjs";
if (!process.argv[2]) { console.error("usage: node e2e/site-profile.mjs SITE [MEASURE]"); process.exit(2); }
const s = await serveStatic(process.argv[2]);
const b = await chromium.launch({ executablePath: chromePath, args: launchArgs });
const p = await b.newPage(); await p.goto(s.url);
await p.evaluate(async () => { await LocalBackend.ready; });
const cdp = await p.context().newCDPSession(p);
await cdp.send("Profiler.enable"); await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
await cdp.send("Profiler.start");
await p.evaluate((n) => wasm_bindgen.bench_js(n), process.argv[3] || "checkers");
const { profile } = await cdp.send("Profiler.stop");
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const counts = new Map(); for (const sid of profile.samples) counts.set(sid, (counts.get(sid) || 0) + 1);
for (const [id, c] of counts) { const n = byId.get(id); const k = n.callFrame.functionName || n.callFrame.url; self.set(k, (self.get(k) || 0) + c); }
const tot = profile.samples.length;
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, c]) => `${(100 * c / tot).toFixed(1)}% ${k}`).join("\n"));
await b.close(); await s.close();
