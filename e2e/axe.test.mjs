// Accessibility test of the server's page with axe-core (issue 47, item 4), in Debian's Chromium
// driven by playwright-core: every page (home, the five game pages, the archive, the lab and a
// finished game's review view) in an en-US and a zh-CN locale, each in the light and the dark
// colour scheme (`prefers-color-scheme`), must have no serious or critical violation. The counts
// per page, language and scheme are printed (and written as JSON to $AXE_JSON when set).
//
//   QIYI_BIN=target/release/qiyi node e2e/axe.test.mjs
import { chromium } from "playwright-core";
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import { chromePath, launchArgs, requireBinary, startServer } from "./server.mjs";

const require = createRequire(import.meta.url);
const axePath = require.resolve("axe-core/axe.min.js");
requireBinary();

const GAMES = ["xiangqi", "checkers", "chinese-checkers", "peg-solitaire", "aeroplane"];

let failed = 0;
function record(name, ok, detail) {
  if (!ok) failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
}

async function api(url, method, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = "Bearer " + token;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

async function ready(page, path) {
  await page.waitForFunction(() => typeof I18n !== "undefined" && !document.documentElement.classList.contains("i18n-pending"), null, { timeout: 20000 });
  if (path.startsWith("play/")) await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && document.getElementById("board-svg"), null, { timeout: 30000, polling: 100 });
  if (path === "") await page.waitForSelector("#games .game-card");
  if (path === "lab") await page.waitForSelector("#lab section h2");
  if (path === "games") await page.waitForFunction(() => !/Loading|加载/.test(document.getElementById("rows").innerText));
  if (path.includes("?id=")) await page.waitForSelector("#review .rv-graph", { timeout: 30000 });
  await page.waitForTimeout(300);
}

const { child, url } = await startServer();
const base = url.replace(/\/$/, "");
console.log("server at " + base);
let browser;
const table = [];
try {
  // A finished checkers game (both seats human, 8 plies through the API, then resigned) with a
  // stored review at depth 4: its page shows the review view.
  const created = await api(base + "/api/games", "POST", { game: "checkers", hotseat: true, seats: [{ kind: "human" }, { kind: "human" }] });
  let st = created.state;
  for (let i = 0; i < 8; i++) st = await api(`${base}/api/games/${created.id}/moves`, "POST", { move: st.legal[0].text }, created.hotseat_token);
  await api(`${base}/api/games/${created.id}/resign`, "POST", {}, created.hotseat_token);
  await api(`${base}/api/games/${created.id}/review`, "POST", { depth: 4 });
  for (let i = 0; i < 600; i++) {
    const r = await api(`${base}/api/games/${created.id}/review`, "GET");
    if (r.status !== "queued" && r.status !== "running") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const PAGES = ["", ...GAMES.map((g) => "play/" + g), "games", "lab", `play/checkers?id=${created.id}`];

  browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
  for (const colorScheme of ["light", "dark"]) {
    for (const locale of ["en-US", "zh-CN"]) {
      const ctx = await browser.newContext({ locale, colorScheme, viewport: { width: 1100, height: 900 } });
      const page = await ctx.newPage();
      for (const path of PAGES) {
        await page.goto(base + "/" + path, { waitUntil: "load" });
        await ready(page, path);
        await page.addScriptTag({ path: axePath });
        const res = await page.evaluate(async () => {
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
        });
        const bad = res.filter((v) => v.impact === "serious" || v.impact === "critical");
        const name = path.includes("?id=") ? "review" : "/" + path;
        const count = (imp) => res.filter((v) => v.impact === imp).reduce((s, v) => s + v.nodes, 0);
        table.push({ page: name, locale, colorScheme, critical: count("critical"), serious: count("serious"), moderate: count("moderate"), minor: count("minor"), rules: res.map((v) => `${v.id}(${v.impact},${v.nodes})`) });
        record(`${colorScheme} ${locale} ${name}: no serious or critical violation`, bad.length === 0,
          res.length ? res.map((v) => `${v.id} [${v.impact}] ×${v.nodes} ${v.targets.join(" | ")}`).join("; ") : "");
      }
      await ctx.close();
    }
  }
} finally {
  if (browser) await browser.close();
  child.kill();
}
if (process.env.AXE_JSON) writeFileSync(process.env.AXE_JSON, JSON.stringify(table, null, 1));
console.log(`\n${table.length} page views checked, ${failed} with serious or critical violations`);
process.exit(failed ? 1 : 0);
