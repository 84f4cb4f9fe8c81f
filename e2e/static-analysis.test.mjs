// Browser test of the analysis board on the static site (scripts/site/build.py OUT): no qiyi
// process, the engine runs in the site's Web Worker (local.js's analyse). A checkers game of two
// plies is played through the page's back end; its analysis board (opened from the address, as
// the archive's links do) streams 3 lines with growing depth; Stop stops it; a move is tried and
// taken back; the stored game is unchanged; peg solitaire marks each move solvable or not.
//
//   QIYI_SITE=target/site node e2e/static-analysis.test.mjs      (screenshots: $E2E_SHOTS)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromePath, launchArgs, recorder } from "./server.mjs";
import { requireSite, serveStatic } from "./static-server.mjs";

const site = requireSite();
const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });

const { results, record } = recorder();

const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
const server = await serveStatic(site);
console.log("static site at " + server.url + " from " + site);
try {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(server.url + "play.html?game=checkers", { waitUntil: "load" });
  await page.waitForFunction(() => typeof ui !== "undefined" && ui.state, null, { timeout: 20000 });
  record("the local back end offers the analysis board", await page.evaluate(() => backend.features.analysis === true), "");
  // A checkers game of two plies, both seats human, through the page's own back end.
  const made = await page.evaluate(async () => {
    const created = await backend.create({ game: "checkers", hotseat: true, seats: [{ kind: "human" }, { kind: "human" }] });
    const g = backend.game(created.id, created.hotseat_token);
    let st = created.state;
    // 11-15 23-19: no capture pending, so the side to move has more than 3 moves (after the
    // first legal moves a capture is forced, and a position with one move has one line).
    for (const m of ["11-15", "23-19"]) st = await g.move(m);
    return { id: created.id, position: st.position };
  });
  await page.goto(server.url + "play.html?game=checkers&analyse=1&id=" + encodeURIComponent(made.id), { waitUntil: "load" });
  await page.waitForFunction(() => typeof Analysis !== "undefined" && Analysis.state.open, null, { timeout: 20000 });
  await page.waitForFunction(() => Object.keys(Analysis.state.search).length === 3 && Analysis.state.search[1].depth >= 6, null, { timeout: 120000 });
  const depths = await page.evaluate(() => Analysis.state.depths.slice());
  record("lines stream from the worker with growing depth", depths.length >= 2 && depths.every((d, i) => i === 0 || d > depths[i - 1]), `depths seen ${depths.join(",")}`);
  const pvs = await page.$$eval("#an-lines .an-pv", (bs) => bs.map((b) => b.textContent));
  record("the top 3 lines", pvs.length === 3, pvs.join(" | "));
  await page.click("#an-stop");
  await page.waitForFunction(() => Analysis.state.task === null, null, { timeout: 5000 });
  const d0 = await page.evaluate(() => Analysis.state.search[1].depth);
  await page.waitForTimeout(700);
  const d1 = await page.evaluate(() => Analysis.state.search[1].depth);
  record("Stop ends the worker's search", d0 === d1, `depth ${d0} then ${d1}`);
  await page.screenshot({ path: join(shots, "static-analysis-360.png"), fullPage: true });
  const before = await page.$eval("#an-position", (e) => e.value);
  const text = await page.evaluate(() => Analysis.state.line[Analysis.state.at].state.legal[0].text);
  await page.fill("#an-move-input", text);
  await page.press("#an-move-input", "Enter");
  await page.waitForFunction(() => Analysis.state.at === 3, null, { timeout: 10000 });
  const after = await page.$eval("#an-position", (e) => e.value);
  await page.click("#an-prev");
  await page.waitForFunction(() => Analysis.state.at === 2, null, { timeout: 10000 });
  const back = await page.$eval("#an-position", (e) => e.value);
  record("a tried move and back", after !== before && back === before, text);
  const stored = await page.evaluate(async (id) => (await backend.game(id, null).state()).position, made.id);
  record("the stored game is not changed", stored === made.position, "");
  // Peg solitaire: solvable or not, per move.
  await page.goto(server.url + "play.html?game=peg-solitaire&analyse=1", { waitUntil: "load" });
  await page.waitForSelector("#an-lines .an-pegs-head", { timeout: 120000 });
  const marks = await page.$$eval("#an-lines .an-peg", (lis) => lis.length);
  record("peg solitaire: each move marked solvable or not", marks > 0, `${marks} moves; ${await page.textContent("#an-lines .an-pegs-head")}`);
  record("no console errors", errors.length === 0, errors.join("; "));
} catch (e) {
  record("browser", false, e.message);
} finally {
  await browser.close();
  await server.close();
}
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
