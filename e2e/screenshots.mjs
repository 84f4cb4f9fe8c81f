// Makes the README's pictures (docs/img/GAME.png): each game's page in headless Chromium, every
// seat an AI at level 1 (seed 3), photographed after a few moves. Not a test; run it after
// changing how a board is drawn:
//
//   QIYI_BIN=target/release/qiyi node e2e/screenshots.mjs [OUT_DIR]      (default docs/img)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromePath, launchArgs, requireBinary, startServer } from "./server.mjs";

const out = process.argv[2] || join(dirname(fileURLToPath(import.meta.url)), "..", "docs", "img");
mkdirSync(out, { recursive: true });
requireBinary();

// Moves (die rolls included) to wait for before the picture, per game.
const PLIES = { xiangqi: 12, checkers: 14, "chinese-checkers": 24, "peg-solitaire": 10, aeroplane: 70 };

const { child, url } = await startServer();
const browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
try {
  for (const [game, plies] of Object.entries(PLIES)) {
    const page = await browser.newPage({ viewport: { width: 900, height: 820 } });
    await page.goto(url + "play/" + game, { waitUntil: "load" });
    await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && document.getElementById("board-svg"));
    await page.evaluate(() => {
      for (const s of document.querySelectorAll("#seats .kind")) s.value = "ai";
      for (const s of document.querySelectorAll("#seats .level")) s.value = "1";
      document.getElementById("seed").value = "3";
    });
    await page.click("#new-game");
    await page.waitForFunction((n) => ui.state && (ui.state.history.length >= n || ui.state.turn.kind === "over"), plies, { timeout: 120000, polling: 100 });
    await page.evaluate(() => { ui.gen++; });           // stop the AI loop where it is
    await page.waitForTimeout(700);                    // let the die animation settle
    await page.evaluate(() => document.fonts.ready);
    const file = join(out, game + ".png");
    await page.locator(".board-wrap").screenshot({ path: file });
    console.log("wrote " + file);
    await page.close();
  }
} finally {
  await browser.close();
  child.kill("SIGTERM");
}
