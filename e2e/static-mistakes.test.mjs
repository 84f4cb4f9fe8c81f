// Browser test of "your mistakes as puzzles" on the static site (scripts/site/build.py OUT): no
// qiyi process; the review runs in the site's Web Worker, the puzzles are made by qiyi-wasm on the
// page and an answer is judged in the review worker. A checkers game whose third move (14-17)
// gives a man away is played through the page's back end, resigned and reviewed; the steps are
// e2e/mistakes-steps.mjs.
//
//   QIYI_SITE=target/site node e2e/static-mistakes.test.mjs      (screenshots: $E2E_SHOTS)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromePath, launchArgs, recorder } from "./server.mjs";
import { requireSite, serveStatic } from "./static-server.mjs";
import { practiseMistakes } from "./mistakes-steps.mjs";

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
  const id = await page.evaluate(async () => {
    const created = await backend.create({ game: "checkers", hotseat: true, seats: [{ kind: "human" }, { kind: "human" }] });
    const g = backend.game(created.id, created.hotseat_token);
    for (const mv of ["10-14", "24-20", "14-17", "22x13"]) await g.move(mv);
    await g.resign({});
    return created.id;
  });
  await page.goto(server.url + "play.html?game=checkers&id=" + encodeURIComponent(id), { waitUntil: "load" });
  await page.waitForSelector("#review .rv-start", { timeout: 20000 });
  await page.click("#review .rv-start");
  await page.waitForSelector("#review .rv-graph", { timeout: 120000 });
  const set = await practiseMistakes(page, record);
  record("the blunder 14-17 is one of them", set.puzzles.some((p) => p.mistake.played === "14-17" && p.mistake.ply === 2), "");
  await page.screenshot({ path: join(shots, "static-mistakes-360.png"), fullPage: true });
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
