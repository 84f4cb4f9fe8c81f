import { chromium } from "playwright-core";
import { chromePath, launchArgs } from "./server.mjs";
import { serveStatic } from "./static-server.mjs";
const s = await serveStatic(process.argv[2]);
const b = await chromium.launch({ executablePath: chromePath, args: launchArgs });
const p = await b.newPage(); await p.goto(s.url);
await p.evaluate(async () => { await LocalBackend.ready; });
const cdp = await p.context().newCDPSession(p);
await cdp.send("Profiler.enable"); await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
await cdp.send("Profiler.start");
await p.evaluate(() => wasm_bindgen.bench_js("checkers"));
const { profile } = await cdp.send("Profiler.stop");
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const counts = new Map(); for (const sid of profile.samples) counts.set(sid, (counts.get(sid) || 0) + 1);
for (const [id, c] of counts) { const n = byId.get(id); const k = n.callFrame.functionName || n.callFrame.url; self.set(k, (self.get(k) || 0) + c); }
const tot = profile.samples.length;
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, c]) => `${(100 * c / tot).toFixed(1)}% ${k}`).join("\n"));
await b.close(); await s.close();
