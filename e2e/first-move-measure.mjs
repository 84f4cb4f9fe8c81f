// Issue 47's measure for docs/page.md (not a test: it prints figures): from opening the home page
// to the first move against the computer, in clicks and seconds, on a 360x740 touch Chromium with
// the CPU throttled 4x (DevTools) and an empty cache, on the server (`qiyi serve`) and on the
// static site; and what the first visit downloads (bytes on the wire: the sum of DevTools'
// encodedDataLength of every response, home page alone and up to the first move played).
//
// The path a player takes: tap "Play the computer" on the Xiangqi card (the level remembered from
// the home page, 3 by default), then tap a piece and its target (炮二平五, h2e2). Clicks counted
// are the taps the script makes; the time runs from the navigation to the home page until the
// move is in the game's record (the computer's answer is not waited for).
//
//   QIYI_BIN=target/release/qiyi QIYI_SITE=target/site node e2e/first-move-measure.mjs [--repeat 3]
//   (either target alone: leave out QIYI_SITE, or set QIYI_BIN=none)
import { chromium } from "playwright-core";
import { existsSync, readFileSync } from "node:fs";
import { chromePath, launchArgs, bin, startServer } from "./server.mjs";
import { serveStatic } from "./static-server.mjs";

const arg = (name, dflt) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : dflt; };
const repeat = Number(arg("--repeat", "3"));
if (!(repeat >= 1)) { console.error("first-move-measure: error: --repeat needs a number >= 1"); process.exit(2); }
const site = process.env.QIYI_SITE;
const useServer = process.env.QIYI_BIN !== "none" && bin && existsSync(bin);
if (!useServer && !site) { console.error("first-move-measure: error: no qiyi binary (QIYI_BIN) and no QIYI_SITE"); process.exit(2); }

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };

async function once(browser, home, target) {
  const ctx = await browser.newContext({ viewport: { width: 360, height: 740 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true, locale: "zh-CN" });
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  let bytes = 0, files = 0;
  cdp.on("Network.loadingFinished", (e) => { bytes += e.encodedDataLength; files++; });
  let clicks = 0;
  const tap = async (locator) => { clicks++; await locator.tap({ force: true }); };
  const t0 = Date.now();
  await page.goto(home, { waitUntil: "load" });
  const button = page.locator("#play-ai-xiangqi");
  await button.waitFor({ state: "visible", timeout: 60000 });
  const homeShown = Date.now() - t0;
  await page.waitForLoadState("networkidle");
  const homeBytes = bytes, homeFiles = files;
  await tap(button);
  await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && !ui.busy && document.getElementById("board-svg")
    && ui.state.turn.kind === "player" && ui.state.seats[ui.state.turn.player].kind === "human", null, { timeout: 120000, polling: 20 });
  const boardShown = Date.now() - t0;
  await tap(page.locator('#board-svg [data-cell="h2"]'));
  await tap(page.locator('#board-svg [data-cell="e2"]'));
  await page.waitForFunction(() => ui.state.history.length >= 1, null, { timeout: 60000, polling: 20 });
  const moved = Date.now() - t0;
  const first = await page.evaluate(() => ui.state.history[0].text);
  await ctx.close();
  return { target, clicks, home_ms: homeShown, board_ms: boardShown, first_move_ms: moved, move: first, home_bytes: homeBytes, home_files: homeFiles, bytes_to_first_move: bytes, files_to_first_move: files };
}

const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
const targets = [];
let server = null, stat = null;
try {
  if (useServer) { server = await startServer(); targets.push(["server", server.url]); }
  if (site) { stat = await serveStatic(site); targets.push(["static", stat.url]); }
  for (const [name, home] of targets) {
    const runs = [];
    for (let i = 0; i < repeat; i++) {
      const r = await once(browser, home, name);
      r.load = readFileSync("/proc/loadavg", "utf8").split(" ")[0];
      console.log(JSON.stringify(r));
      runs.push(r);
    }
    console.log(JSON.stringify({ target: name, runs: runs.length, clicks: runs[0].clicks, median_first_move_s: median(runs.map((r) => r.first_move_ms)) / 1000, median_board_s: median(runs.map((r) => r.board_ms)) / 1000, home_bytes: median(runs.map((r) => r.home_bytes)), bytes_to_first_move: median(runs.map((r) => r.bytes_to_first_move)) }));
  }
} finally {
  await browser.close();
  if (server) server.child.kill("SIGTERM");
  if (stat) await stat.close();
}
