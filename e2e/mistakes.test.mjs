// End-to-end test of "your mistakes as puzzles" on the server (issue 58 item 5) in Debian's
// Chromium: a checkers game whose third move (14-17) gives a man away is played through the API,
// resigned and reviewed (depth 4); its play page offers "Practise your mistakes", which opens the
// puzzle page in its "my mistakes" mode (e2e/mistakes-steps.mjs has the steps).
//
//   QIYI_BIN=target/debug/qiyi node e2e/mistakes.test.mjs     (screenshots: $E2E_SHOTS)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { api, chromePath, launchArgs, recorder, requireBinary, startServer } from "./server.mjs";
import { practiseMistakes } from "./mistakes-steps.mjs";

const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });
requireBinary();

const { results, record } = recorder();

const { child, url } = await startServer();
const base = url.replace(/\/$/, "");
console.log("server at " + base);
let browser;
try {
  const created = await api(base + "/api/games", "POST", { game: "checkers", hotseat: true, seats: [{ kind: "human" }, { kind: "human" }] });
  const id = created.id;
  for (const mv of ["10-14", "24-20", "14-17", "22x13"]) await api(`${base}/api/games/${id}/moves`, "POST", { move: mv }, created.hotseat_token);
  await api(`${base}/api/games/${id}/resign`, "POST", {}, created.hotseat_token);
  await api(`${base}/api/games/${id}/review`, "POST", { depth: 4 });
  for (let i = 0; i < 600; i++) {
    const st = await api(`${base}/api/games/${id}/review`, "GET");
    if (st.status === "done") break;
    if (st.status !== "queued" && st.status !== "running") throw new Error("review " + JSON.stringify(st));
    await new Promise((r) => setTimeout(r, 200));
  }

  browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
  const ctx = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await ctx.newPage();
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error" && !/status of 4\d\d/.test(m.text())) errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${base}/play/checkers?id=${id}`, { waitUntil: "load" });
  const set = await practiseMistakes(page, record);
  record("the blunder 14-17 is one of them", set.puzzles.some((p) => p.mistake.played === "14-17" && p.mistake.ply === 2), "");
  await page.screenshot({ path: join(shots, "mistakes-360.png"), fullPage: true });
  record("no console errors", errors.length === 0, errors.join("; "));
} catch (e) {
  record("browser", false, e.message);
} finally {
  if (browser) await browser.close();
  child.kill();
}
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
