// Browser test of the puzzle page on the static site (scripts/site/build.py OUT; issue 58): no
// qiyi process. The home page links to the puzzles; the Xiangqi and checkers puzzle pages are
// opened once online (the service worker keeps their puzzle sets), then the file server is
// stopped and the browser goes offline, and everything else happens with no network: a Xiangqi
// mate in 2 solved by clicks, the rating moving up and still there after a reload (localStorage),
// a wrong move marked, refuted in the browser and the position kept, the rating moving down, the puzzle of the day (the
// server's rule, computed here again from the puzzle file), a checkers puzzle loaded.
//
//   QIYI_SITE=target/site CHROMIUM=$(command -v chromium) node e2e/static-puzzles.test.mjs
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromePath, launchArgs, recorder } from "./server.mjs";
import { requireSite, serveStatic } from "./static-server.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const site = requireSite();
const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });

const { results, record } = recorder();

// The page has a puzzle on the board and waits for the player.
async function ready(page) {
  await page.waitForFunction(() => typeof Puz !== "undefined" && Puz.puzzle && ui.state && !ui.busy && document.getElementById("board-svg")
    && !document.documentElement.classList.contains("i18n-pending"), null, { timeout: 60000, polling: 100 });
}

// Clicks the cells of a legal move of the board's state.
async function clickMove(page, text) {
  const path = await page.evaluate((t) => ui.state.legal.find((m) => m.text === t).path, text);
  for (const c of path) await page.click(`#board-svg [data-cell="${c}"]`);
}

// The server's puzzle of the day (crates/web/src/puzzles.rs, daily_index): FNV-1a of the game's
// name, SplitMix64 of the day mixed with it, modulo the set's size; written again here so the
// test does not take the site's word for it.
function dailyIndex(game, day, len) {
  const M = (1n << 64n) - 1n;
  let h = 0xcbf29ce484222325n;
  for (const b of Buffer.from(game)) h = ((h ^ BigInt(b)) * 0x100000001b3n) & M;
  let z = (BigInt(day) + h + 0x9e3779b97f4a7c15n) & M;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & M;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & M;
  z ^= z >> 31n;
  return Number(z % BigInt(len));
}

const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
const server = await serveStatic(site);
console.log("static site at " + server.url + " from " + site);
const errors = [];
try {
  const ctx = await browser.newContext({ locale: "en-US", viewport: { width: 1100, height: 900 } });
  const watch = (page) => {
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  };

  // ---- online: the home page's link, the service worker, the two puzzle sets fetched once -------
  const home = await ctx.newPage();
  watch(home);
  await home.goto(server.url, { waitUntil: "load" });
  const link = await home.$eval("#link-puzzles", (a) => a.getAttribute("href")).catch(() => null);
  record("the site's home page links to the puzzles", link === "puzzles.html?game=xiangqi", String(link));
  await home.evaluate(async () => { await navigator.serviceWorker.ready; });
  await home.reload();
  record("service worker controls the page", await home.evaluate(() => !!navigator.serviceWorker.controller), "");
  await home.close();
  const page = await ctx.newPage();
  watch(page);
  for (const g of ["xiangqi", "checkers"]) {
    await page.goto(server.url + "puzzles.html?game=" + g, { waitUntil: "load" });
    await ready(page);
  }
  record("the puzzle sets were fetched when their pages opened", ["xiangqi", "checkers"].every((g) => server.hits.includes(`/data/puzzles/${g}.jsonl.gz`)),
    server.hits.filter((h) => h.includes("puzzles")).join(" "));

  // ---- offline from here on ---------------------------------------------------------------------
  await server.close();
  const before = server.hits.length;
  await ctx.setOffline(true);

  // A mate in 2 (Black: e2f2, the reply h3a3, f2f1) solved by clicks.
  await page.goto(server.url + "puzzles.html?game=xiangqi&id=xq-1-0-271", { waitUntil: "load" });
  await ready(page);
  const start = await page.evaluate(() => ({ id: Puz.puzzle.id, solution: Puz.puzzle.solution, status: document.getElementById("status").textContent, goal: document.getElementById("goal").textContent, rating: document.getElementById("my-rating").textContent, local: backend.kind }));
  record("offline: the puzzle asked for is shown by the local back end", start.local === "local" && start.id === "xq-1-0-271" && /Black/.test(start.status) && /Mate in 2/.test(start.goal) && /^1,500 ± 700$/.test(start.rating), JSON.stringify(start));
  await clickMove(page, start.solution[0]);
  await page.waitForFunction(() => Puz.step === 2 && !ui.busy, null, { timeout: 10000 });
  const mid = await page.evaluate(() => ({ history: ui.state.history.map((h) => h.text), verdict: document.getElementById("verdict").textContent }));
  record("a right move is played and the forced reply follows", mid.history.join(" ") === start.solution.slice(0, 2).join(" ") && /Right/.test(mid.verdict), JSON.stringify(mid));
  await clickMove(page, start.solution[2]);
  await page.waitForFunction(() => Puz.done && Puz.reported && document.getElementById("my-delta").textContent !== "", null, { timeout: 10000 });
  const solved = await page.evaluate(() => ({ verdict: document.getElementById("verdict").textContent, delta: document.getElementById("my-delta").textContent, rating: document.getElementById("my-rating").textContent, over: ui.state.turn.kind }));
  record("the mate is solved by clicks and the rating goes up", /Solved/.test(solved.verdict) && /^\+/.test(solved.delta) && solved.rating !== start.rating && solved.over === "over", JSON.stringify(solved));
  await page.screenshot({ path: join(shots, "static-puzzles-solved.png") });

  // The rating is kept in the browser: a reload (still offline) shows it.
  await page.reload({ waitUntil: "load" });
  await ready(page);
  const kept = await page.evaluate(() => ({ rating: document.getElementById("my-rating").textContent, stored: JSON.parse(localStorage.getItem("qiyi-local-puzzles-xiangqi") || "null") }));
  record("the rating survives a reload", kept.rating === solved.rating && kept.stored && kept.stored.attempts["xq-1-0-271"].solved === true, JSON.stringify(kept));

  // A wrong move (mate in 3): marked, the position kept, the rating down.
  await page.goto(server.url + "puzzles.html?game=xiangqi&id=xq-1-0-269", { waitUntil: "load" });
  await ready(page);
  const want = await page.evaluate(() => Puz.puzzle.solution[0]);
  const wrong = await page.evaluate((w) => ui.state.legal.find((m) => m.text !== w && m.path.length === 2).text, want);
  const position = await page.evaluate(() => ui.state.position);
  await clickMove(page, wrong);
  await page.waitForFunction(() => Puz.failed && Puz.reported && document.getElementById("my-delta").textContent !== "", null, { timeout: 10000 });
  const refused = await page.evaluate(() => ({ position: ui.state.position, step: Puz.step, marks: document.querySelectorAll("#board-svg .wrong-mark").length, verdict: document.getElementById("verdict").textContent, verdictClass: document.getElementById("verdict").className, delta: document.getElementById("my-delta").textContent, rating: document.getElementById("my-rating").textContent }));
  record("a wrong move is marked wrong and the position stays", refused.position === position && refused.step === 0 && refused.marks === 2 && /bad/.test(refused.verdictClass), JSON.stringify(refused));
  // The refutation comes from the puzzle book in the browser (PuzzleBook.refute), as the server's.
  await page.waitForFunction(() => Puz.refuted === 1 && !ui.busy, null, { timeout: 20000 });
  const explain = await page.evaluate(() => document.getElementById("explain").textContent);
  record("the wrong move's refutation is found in the browser: a reply that holds", /holds: no mate in 3/.test(explain), explain);
  record("the failed attempt moves the rating down", /^[-−]/.test(refused.delta) && refused.rating !== solved.rating, `${solved.rating} -> ${refused.rating} (${refused.delta})`);

  // The puzzle of the day: the server's rule for today's UTC date.
  await page.click("#daily");
  await page.waitForFunction(() => !!Puz.puzzle.daily && !ui.busy, null, { timeout: 10000 });
  const daily = await page.evaluate(() => ({ id: Puz.puzzle.id, date: Puz.puzzle.daily, shown: document.getElementById("puzzle-id").textContent }));
  const day = Math.floor(Date.now() / 86400000);
  const ids = readFileSync(join(root, "crates/xiangqi/puzzles/xiangqi.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l).id);
  const expect = ids[dailyIndex("xiangqi", day, ids.length)];
  const today = new Date(day * 86400000).toISOString().slice(0, 10);
  record("the puzzle of the day is the server's choice for today", daily.id === expect && daily.date === today && daily.shown.includes(today), `${JSON.stringify(daily)}, expected ${expect} on ${today}`);

  // A checkers puzzle loads, with its board and legal moves.
  await page.goto(server.url + "puzzles.html?game=checkers", { waitUntil: "load" });
  await ready(page);
  const ck = await page.evaluate(() => ({ id: Puz.puzzle.id, game: Puz.puzzle.game, legal: (ui.state.legal || []).length, goal: document.getElementById("goal").textContent, cells: document.querySelectorAll("#board-svg [data-cell]").length }));
  record("a checkers puzzle loads offline", ck.game === "checkers" && /^ck/.test(ck.id) && ck.legal > 0 && ck.goal !== "" && ck.cells >= 32, JSON.stringify(ck));
  const links = await page.$$eval("#game-links a", (as) => as.map((a) => a.getAttribute("href")));
  record("the other games' puzzle links stay on the site", links.length >= 3 && links.every((h) => h.startsWith("puzzles.html?game=")), links.join(" "));
  await page.screenshot({ path: join(shots, "static-puzzles-checkers.png") });

  record("nothing was fetched from the network while offline", server.hits.length === before, `${server.hits.length - before} requests`);
  await ctx.close();
} catch (e) {
  record("browser", false, e.stack || e.message);
} finally {
  await browser.close();
}
record("no page error", errors.length === 0, errors.join("; "));
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
