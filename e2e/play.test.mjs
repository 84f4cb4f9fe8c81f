// End-to-end browser test of `qiyi serve`: for every game the home page lists, load its page in
// Debian's Chromium (driven by playwright-core), make a legal move by clicking the board, wait for
// the AI's answer, take a screenshot, and fail on any console error.
//
//   QIYI_BIN=target/release/qiyi node e2e/play.test.mjs      (screenshots: $E2E_SHOTS or /tmp/qiyi-e2e)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromePath, launchArgs, recorder, requireBinary, startServer } from "./server.mjs";
import { playOne } from "./playing.mjs";

const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });
requireBinary();

const { results, record } = recorder();

const { child, url } = await startServer();
console.log("server at " + url);
let browser;
try {
  browser = await chromium.launch({
    executablePath: chromePath,
    headless: true,
    args: launchArgs,
  });
  // Home page: every listed game has a link.
  const home = await browser.newPage();
  const homeErrors = [];
  home.on("console", (m) => { if (m.type() === "error") homeErrors.push(m.text()); });
  home.on("pageerror", (e) => homeErrors.push(e.message));
  await home.goto(url, { waitUntil: "load" });
  const catalog = await (await fetch(url + "api/games")).json();
  const games = catalog.games.filter((g) => g.listed).map((g) => g.game);
  await home.waitForSelector("#games a");
  const links = await home.$$eval("#games a", (as) => as.map((a) => a.getAttribute("href")));
  await home.screenshot({ path: join(shots, "home.png") });
  const missing = games.filter((g) => !links.includes("/play/" + g));
  record("home page", missing.length === 0 && homeErrors.length === 0, missing.length ? "missing links: " + missing : homeErrors.join("; "));
  await home.close();
  for (const g of games) {
    const r = await playOne(browser, url + "play/" + g, g, shots);
    record(g, r.ok, r.detail);
  }
} catch (e) {
  record("browser", false, e.message);
} finally {
  if (browser) await browser.close();
  child.kill("SIGTERM");
}
const failed = results.filter((r) => !r.ok).length;
console.log(`screenshots in ${shots}`);
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
