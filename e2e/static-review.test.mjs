// Browser test of the game review on the static site (scripts/site/build.py OUT): no qiyi process,
// the review runs in the site's Web Worker (qiyi-wasm). A short checkers game is played through
// the page's back end and resigned; its page offers "Review this game"; the review runs in the
// worker; the graph has one point per ply, the move list shows the moves' classes, clicking a
// point takes the board to that ply; a reload shows the kept review without reviewing again.
//
//   QIYI_SITE=target/site node e2e/static-review.test.mjs      (screenshots: $E2E_SHOTS)
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
  const plies = 8;
  // A checkers game, both seats human, played through the page's own back end, then resigned.
  const id = await page.evaluate(async (plies) => {
    const created = await backend.create({ game: "checkers", hotseat: true, seats: [{ kind: "human" }, { kind: "human" }] });
    const g = backend.game(created.id, created.hotseat_token);
    let st = created.state;
    for (let i = 0; i < plies; i++) st = await g.move(st.legal[0].text);
    await g.resign({});
    return created.id;
  }, plies);
  record("the local back end offers the review", await page.evaluate(() => backend.features.review === true), "");
  await page.goto(server.url + "play.html?game=checkers&id=" + encodeURIComponent(id), { waitUntil: "load" });
  await page.waitForSelector("#review .rv-start", { timeout: 20000 });
  record("a finished game offers its review", true);
  const t0 = Date.now();
  await page.click("#review .rv-start");
  await page.waitForSelector("#review .rv-graph", { timeout: 120000 });
  const ms = Date.now() - t0;
  record("the review ran in the worker", true, `${plies} plies in ${ms} ms (checkers, the browser's default depth)`);
  const points = await page.$$eval("#review .rv-point", (cs) => cs.length);
  record("the graph has one point per ply", points === plies, `${points} points for ${plies} plies`);
  const classes = await page.$$eval("#moves li", (lis) => lis.filter((li) => /\brv-(best|good|inaccuracy|mistake|blunder)\b/.test(li.className)).length);
  record("the move list shows each move's class", classes === plies, `${classes} of ${plies} moves classed`);
  await page.screenshot({ path: join(shots, "static-review-360.png"), fullPage: true });
  await page.click('#review .rv-point[data-ply="3"]');
  await page.waitForFunction(() => /ply 3 \//.test(document.getElementById("rp-ply").textContent), null, { timeout: 10000 });
  const here = await page.$$eval("#review .rv-point.rv-here", (cs) => cs.map((c) => c.dataset.ply));
  record("clicking a point goes to its ply", here.length === 1 && here[0] === "3", `board at ${await page.textContent("#rp-ply")}, marked ${here}`);
  // Kept with the game: a reload shows it at once, without a review running.
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector("#review .rv-graph", { timeout: 10000 });
  const kept = await page.evaluate(async (id) => (await backend.game(id, null).reviewState()).status, id);
  record("the review is kept in the browser", kept === "done", "reviewState after reload: " + kept);
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
