// Browser test of the static site (scripts/site/build.py OUT): served by a plain static file
// server, no qiyi process. The home page lists every game; each game is played against the AI in
// WebAssembly by clicking; then the file server is stopped, the browser goes offline, and every
// game is reloaded and played again from the service worker's cache. Also: a corrupt engine
// file and a browser without WebAssembly get a clear message, and a new version is offered once
// installed.
//
//   QIYI_SITE=target/site node e2e/static.test.mjs      (screenshots: $E2E_SHOTS or /tmp/qiyi-e2e)
import { chromium } from "playwright-core";
import { mkdirSync, cpSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { chromePath, launchArgs, recorder } from "./server.mjs";
import { playOne } from "./playing.mjs";
import { requireSite, serveStatic } from "./static-server.mjs";

const site = requireSite();
const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });

const { results, record } = recorder();

const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
const server = await serveStatic(site);
console.log("static site at " + server.url + " from " + site);
try {
  const context = await browser.newContext();
  const home = await context.newPage();
  const errors = [];
  home.on("pageerror", (e) => errors.push(e.message));
  home.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  await home.goto(server.url, { waitUntil: "load" });
  await home.waitForSelector("#games a");
  const links = await home.$$eval("#games a", (as) => as.map((a) => a.getAttribute("href")));
  const games = ["xiangqi", "checkers", "chinese-checkers", "peg-solitaire", "aeroplane"];
  const missing = games.filter((g) => !links.includes("play.html?game=" + g));
  const note = await home.evaluate(() => (document.getElementById("site-note") || {}).textContent || "");
  record("home page lists every game, says what needs a server", !missing.length && !errors.length && /need a server/.test(note),
    missing.length ? "missing " + missing : errors.join("; ") || note.slice(0, 90));
  // The service worker has cached the site before anything goes offline.
  await home.evaluate(async () => { await navigator.serviceWorker.ready; });
  await home.reload();
  const controlled = await home.evaluate(() => !!navigator.serviceWorker.controller);
  record("service worker controls the page", controlled, "");
  await home.close();

  for (const g of games) {
    const r = await playOne(browser, server.url + "play.html?game=" + g, "static-" + g, shots, context);
    record(g + " online", r.ok, r.detail);
  }

  // Offline: the file server is gone and the browser has no network.
  await server.close();
  const before = server.hits.length;
  await context.setOffline(true);
  for (const g of games) {
    const r = await playOne(browser, server.url + "play.html?game=" + g, "static-offline-" + g, shots, context);
    record(g + " offline, reloaded", r.ok, r.detail);
  }
  record("nothing was fetched from the network while offline", server.hits.length === before, `${server.hits.length - before} requests`);
  await context.close();

  // Bad input: a damaged engine file, a browser without WebAssembly.
  const broken = join(tmpdir(), "qiyi-site-broken");
  rmSync(broken, { recursive: true, force: true });
  cpSync(site, broken, { recursive: true });
  const wasm = join(broken, "pkg/qiyi_wasm_bg.wasm");
  writeFileSync(wasm, readFileSync(wasm).subarray(0, 5000));
  const bad = await serveStatic(broken);
  for (const [name, init] of [["a damaged engine file", null], ["no WebAssembly", () => { delete globalThis.WebAssembly; }]]) {
    const ctx = await browser.newContext({ serviceWorkers: "block" });
    if (init) await ctx.addInitScript(init);
    const page = await ctx.newPage();
    await page.goto(bad.url + "play.html?game=xiangqi");
    await page.waitForFunction(() => document.getElementById("info").textContent.length > 0, null, { timeout: 20000 }).catch(() => {});
    const text = await page.evaluate(() => document.getElementById("info").textContent);
    await page.screenshot({ path: join(shots, "static-" + name.replace(/ /g, "-") + ".png") });
    const want = init ? /cannot run WebAssembly/ : /could not be loaded.*Reload/;
    record("clear message for " + name, want.test(text), text.slice(0, 120));
    await ctx.close();
  }
  await bad.close();
} catch (e) {
  record("browser", false, e.stack || e.message);
} finally {
  await browser.close();
}
const failed = results.filter((r) => !r.ok).length;
console.log(`screenshots in ${shots}`);
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
