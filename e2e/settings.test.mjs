// Browser test of the game page's board settings (issue 47, item 3): the Xiangqi piece style
// (traditional 車馬砲 / simplified 车马炮), board coordinates on and off (Xiangqi and checkers),
// both remembered across a reload; move confirmation on a touch screen (off by default: a tap
// plays; on: the tapped move waits for the Confirm button or a second tap, and a mouse click
// still plays at once); and the check sound, distinct from the move and capture sounds.
//
//   QIYI_BIN=target/release/qiyi CHROMIUM=$(command -v chromium) node e2e/settings.test.mjs
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromePath, launchArgs, recorder, requireBinary, startServer } from "./server.mjs";

const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });
requireBinary();

const { results, record } = recorder();

const TRADITIONAL_ONLY = /[帥將車俥馬傌砲]/;
const SIMPLIFIED_ONLY = /[帅将车马]/;

async function ready(page) {
  await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && !ui.busy && document.getElementById("board-svg"), null, { timeout: 30000 });
}
const glyphs = (page) => page.$$eval("#board-svg text.cjk", (ts) => ts.map((t) => t.textContent).join(""));
const coordTexts = (page) => page.$$eval("#board-svg .coords text", (ts) => ts.map((t) => t.textContent));
const plies = (page) => page.evaluate(() => ui.state.history.length);

const { child, url } = await startServer();
const base = url.replace(/\/$/, "");
console.log("server at " + url);
let browser;
try {
  browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
  const errors = [];

  // ---- piece style and coordinates (desktop, both languages) ------------------------------------
  for (const locale of ["en-US", "zh-CN"]) {
    const ctx = await browser.newContext({ locale, viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(`${locale}: ${e.message}`));
    await page.goto(base + "/play/xiangqi?level=1", { waitUntil: "load" });
    await ready(page);
    const before = await glyphs(page);
    const styleDefault = await page.$eval("#piece-style", (s) => s.value);
    record(`${locale} Xiangqi pieces are traditional by default`, styleDefault === "traditional" && /車/.test(before) && /俥/.test(before) && !SIMPLIFIED_ONLY.test(before), `${styleDefault}: ${before}`);
    await page.click("#board-settings summary");
    const label = await page.$eval("#piece-style option[value=simplified]", (o) => o.textContent);
    record(`${locale} the style's choice is labelled in the page's language`, locale === "en-US" ? /simplified/.test(label) : /简体/.test(label), label);
    await page.selectOption("#piece-style", "simplified");
    const after = await glyphs(page);
    record(`${locale} the simplified style draws 车马炮 and no traditional-only glyph`, /车/.test(after) && /马/.test(after) && /帅/.test(after) && /将/.test(after) && !TRADITIONAL_ONLY.test(after), after);
    const coords = await coordTexts(page);
    record(`${locale} coordinates are shown by default (files a-i with Red's numbers, 1-9, ranks 0-9)`, coords.length === 28 && coords.some((c) => /^a\s*九$/.test(c)) && coords.includes("9") && coords.includes("0"), coords.slice(0, 10).join(","));
    await page.uncheck("#coords");
    const off = await coordTexts(page);
    record(`${locale} the coordinates switch removes them`, off.length === 0, `${off.length} left`);
    await page.reload({ waitUntil: "load" });
    await ready(page);
    const kept = [await glyphs(page), await coordTexts(page), await page.$eval("#piece-style", (s) => s.value), await page.$eval("#coords", (c) => c.checked)];
    record(`${locale} both settings are remembered after a reload`, !TRADITIONAL_ONLY.test(kept[0]) && /车/.test(kept[0]) && kept[1].length === 0 && kept[2] === "simplified" && kept[3] === false, JSON.stringify(kept.slice(1)));
    await page.screenshot({ path: join(shots, `settings-xiangqi-${locale}.png`) });
    // Checkers: the same switch hides the square numbers and the edge letters; no piece style.
    await page.goto(base + "/play/checkers?level=1", { waitUntil: "load" });
    await ready(page);
    const checkers = await page.evaluate(() => [document.getElementById("piece-style-row").hidden, document.getElementById("coords-row").hidden, document.querySelectorAll("#board-svg text").length]);
    record(`${locale} checkers: no piece style, the coordinates switch, off as remembered`, checkers[0] === true && checkers[1] === false && checkers[2] === 0, JSON.stringify(checkers));
    await page.click("#board-settings summary");
    await page.check("#coords");
    const on = await page.$$eval("#board-svg text", (ts) => ts.map((t) => t.textContent));
    record(`${locale} checkers coordinates on: 32 square numbers, files a-h, ranks 1-8`, on.length === 48 && on.includes("32") && on.includes("h") && on.includes("8"), `${on.length} texts`);
    await ctx.close();
  }

  // ---- move confirmation on a touch screen (360 px phone) ----------------------------------------
  {
    const ctx = await browser.newContext({ locale: "en-US", viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(`touch: ${e.message}`));
    await page.goto(base + "/play/xiangqi?level=1", { waitUntil: "load" });
    await ready(page);
    const tapCell = async (cell) => {
      await page.locator(`#board-svg [data-cell="${cell}"]`).tap({ force: true });
    };
    // The AI's replies decide which of our moves stay legal (a check rules most out), so each
    // step takes the first of its preferred moves that is legal now, else any legal move from
    // a square not used by the step before.
    const pick = (preferred, avoidFrom) => page.evaluate(([pref, avoid]) => {
      const legal = ui.state.legal.map((m) => m.text).filter((t) => /^[a-i][0-9][a-i][0-9]$/.test(t));
      return pref.find((t) => legal.includes(t)) || legal.find((t) => !avoid.includes(t.slice(0, 2))) || legal[0];
    }, [preferred, avoidFrom || []]);
    const confirmDefault = await page.$eval("#confirm-touch", (c) => c.checked);
    record("touch: confirmation is off by default", confirmDefault === false, String(confirmDefault));
    await tapCell("h2");
    await tapCell("e2");
    await page.waitForFunction(() => ui.state.history.length >= 1, null, { timeout: 10000 });
    record("touch: without confirmation a tapped move plays at once", (await plies(page)) >= 1, `${await plies(page)} plies`);
    await page.waitForFunction(() => ui.state.history.length >= 2 && !ui.busy, null, { timeout: 30000 });
    await page.click("#board-settings summary");
    await page.check("#confirm-touch");
    const stored = await page.evaluate(() => localStorage.getItem("qiyi-confirm"));
    // The Confirm button.
    const n0 = await plies(page);
    await tapCell("b2");
    await tapCell("c2");
    await page.waitForTimeout(300);
    const waiting = await page.evaluate(() => [ui.state.history.length, !document.getElementById("confirm-bar").hidden, document.querySelectorAll("#board-svg .pending").length, document.getElementById("confirm-text").textContent]);
    record("touch: with confirmation on, a tapped move waits, shown on the board and in the bar", stored === "on" && waiting[0] === n0 && waiting[1] && waiting[2] === 2 && /b2c2/.test(waiting[3]), JSON.stringify(waiting));
    await page.screenshot({ path: join(shots, "settings-confirm-360.png"), fullPage: true });
    await page.locator("#confirm-move").tap();
    await page.waitForFunction((n) => ui.state.history.length > n, n0, { timeout: 10000 });
    const played = await page.evaluate(() => [ui.state.history[ui.state.history.length - 1].text, ui.state.history.find((h, i) => i >= 2 && h.player === 0)?.text, document.getElementById("confirm-bar").hidden]);
    record("touch: Confirm plays the waiting move", played[1] === "b2c2" && played[2] === true, JSON.stringify(played));
    await page.waitForFunction(() => !ui.busy && ui.state.turn.player === 0 && ui.state.history.length >= 4, null, { timeout: 30000 });
    // A second tap on the target.
    const n1 = await plies(page);
    const m1 = await pick(["h0g2", "b0a2", "i0i1", "a0a1"]);
    await tapCell(m1.slice(0, 2));
    await tapCell(m1.slice(2, 4));
    await page.waitForTimeout(300);
    const still = await plies(page);
    await tapCell(m1.slice(2, 4));
    await page.waitForFunction((n) => ui.state.history.length > n, n1, { timeout: 10000 });
    const second = await page.evaluate((n) => ui.state.history[n].text, n1);
    record("touch: a second tap on the target confirms", still === n1 && second === m1, `${still - n1} played before, then ${second} (${m1} tapped)`);
    await page.waitForFunction(() => !ui.busy && ui.state.turn.player === 0 && ui.state.history.length >= 6, null, { timeout: 30000 });
    // Cancel, and a tap elsewhere drops the waiting move.
    const n2 = await plies(page);
    const c1 = await pick(["a0a1", "b0a2", "h0g2"]);
    await tapCell(c1.slice(0, 2));
    await tapCell(c1.slice(2, 4));
    await page.waitForTimeout(200);
    await page.locator("#cancel-move").tap();
    const c2 = await pick(["i0i1", "h0i2", "g3g4"].filter((t) => t.slice(0, 2) !== c1.slice(0, 2)), [c1.slice(0, 2)]);
    await tapCell(c2.slice(0, 2));
    await tapCell(c2.slice(2, 4));
    await page.waitForTimeout(200);
    const pendingNow = await page.evaluate(() => ui.pending && ui.pending.text);
    record("touch: Cancel drops the waiting move, and a new tapped move waits in its place", (await plies(page)) === n2 && c2 !== c1 && pendingNow === c2, `pending ${pendingNow} (${c1} cancelled, ${c2} tapped)`);
    await page.locator("#confirm-move").tap();
    await page.waitForFunction((n) => ui.state.history.length > n, n2, { timeout: 10000 });
    await ctx.close();
    // A mouse click on a desktop is never held back, even with the option on (remembered).
    const desk = await browser.newContext({ locale: "en-US", viewport: { width: 1100, height: 900 } });
    const dp = await desk.newPage();
    await dp.goto(base + "/play/xiangqi?level=1", { waitUntil: "load" });
    await dp.evaluate(() => localStorage.setItem("qiyi-confirm", "on"));
    await dp.reload({ waitUntil: "load" });
    await ready(dp);
    await dp.locator('#board-svg [data-cell="h2"]').click({ force: true });
    await dp.locator('#board-svg [data-cell="e2"]').click({ force: true });
    await dp.waitForFunction(() => ui.state.history.length >= 1, null, { timeout: 10000 });
    record("a mouse click plays at once with the option on", (await plies(dp)) >= 1 && (await dp.$eval("#confirm-touch", (c) => c.checked)), "");
    await desk.close();
  }

  // ---- the check sound --------------------------------------------------------------------------
  {
    const ctx = await browser.newContext({ locale: "en-US", viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(`sound: ${e.message}`));
    // Every oscillator the page starts, with its wave shape (sound.js: move triangle, capture
    // square, check sawtooth, end sine).
    await page.addInitScript(() => {
      window.__waves = [];
      const AC = window.AudioContext;
      if (AC) {
        const make = AC.prototype.createOscillator;
        AC.prototype.createOscillator = function () {
          const o = make.call(this);
          const start = o.start.bind(o);
          o.start = (...a) => { window.__waves.push(o.type); return start(...a); };
          return o;
        };
      }
    });
    await page.goto(base + "/play/xiangqi?level=1", { waitUntil: "load" });
    await ready(page);
    await page.click("#sound");
    // Red rook a0, kings d0 and e9: a0a9 gives check along the last rank.
    await page.click("details:has(#position) > summary");
    await page.fill("#position", "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    await page.click("#paste-pos");
    await page.waitForFunction(() => ui.state.position.startsWith("4k4") && !ui.busy, null, { timeout: 10000 });
    await page.evaluate(() => { window.__waves = []; });
    await page.fill("#move-input", "a0a9");
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => ui.state.history.length >= 1, null, { timeout: 10000 });
    await page.waitForTimeout(100);
    // The computer may have answered already: the first two notes are the checking move's.
    const check = await page.evaluate(() => window.__waves.slice(0, 2));
    record("a checking move plays the check sound (sawtooth), not the move or capture sound", check.length === 2 && check.every((w) => w === "sawtooth"), JSON.stringify(check));
    await page.waitForFunction(() => ui.state.history.length >= 2 && !ui.busy, null, { timeout: 30000 });
    await page.waitForTimeout(300);
    const reply = await page.evaluate(() => window.__waves.slice(2));
    record("the reply that is no check plays the move sound (triangle)", reply.length >= 1 && reply.every((w) => w === "triangle"), JSON.stringify(reply));
    await ctx.close();
  }
  record("no page error", errors.length === 0, errors.join("; "));
} catch (e) {
  record("browser", false, e.stack || e.message);
} finally {
  if (browser) await browser.close();
  child.kill("SIGTERM");
}
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
