// Browser test: the Chinese characters of the page (Xiangqi pieces, 楚河 漢界, the titles) are drawn
// with the font the page ships (assets/fonts/qiyi-cjk.woff2), never with the visitor's fonts or as
// empty boxes, in Debian's Chromium, which has no CJK font of its own.
//
// Two checks per page: Chromium's own account of the fonts that drew each text node
// (DevTools `CSS.getPlatformFontsForNode`: every CJK character from the shipped web font), and the
// pixels (each piece character rendered alone on a canvas in that font: all different, which
// "tofu" boxes are not). The same checks then run with the font's download blocked and must fail
// there, which proves they can tell a rendered glyph from a fallback.
//
//   QIYI_BIN=target/release/qiyi node e2e/fonts.test.mjs      (screenshots: $E2E_SHOTS or /tmp/qiyi-e2e)
import { chromium } from "playwright-core";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromePath, launchArgs, requireBinary, startServer } from "./server.mjs";

const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });
requireBinary();

const CJK = /[\u3000-\u9fff\uf900-\ufaff\uff00-\uffef]/g;
// The traditional pieces, then the simplified style's own (boards.js: 帅将车马).
const PIECES = "帥仕相俥傌炮兵將士象車馬砲卒帅将车马";

// Per text node with CJK characters: how many of them the shipped font drew.
async function fontReport(page, selector) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("DOM.enable");
  await cdp.send("CSS.enable");
  const { root } = await cdp.send("DOM.getDocument", { depth: -1 });
  const { nodeIds } = await cdp.send("DOM.querySelectorAll", { nodeId: root.nodeId, selector });
  const rows = [];
  for (const nodeId of nodeIds) {
    const { outerHTML } = await cdp.send("DOM.getOuterHTML", { nodeId });
    const text = outerHTML.replace(/<[^>]*>/g, "");
    const cjk = (text.match(CJK) || []).length;
    if (!cjk) continue;
    const { fonts } = await cdp.send("CSS.getPlatformFontsForNode", { nodeId });
    const shipped = fonts.filter((f) => f.isCustomFont).reduce((n, f) => n + f.glyphCount, 0);
    rows.push({ text, cjk, shipped, fonts: fonts.map((f) => `${f.familyName}${f.isCustomFont ? " (web)" : ""}: ${f.glyphCount}`) });
  }
  await cdp.detach();
  return rows;
}

// Renders each piece character alone in the page's font on a canvas: the number of distinct
// pictures, and how many pictures are blank.
async function pixelReport(page) {
  return page.evaluate(async (chars) => {
    await document.fonts.load('700 48px "qiyi CJK"', chars).catch(() => []);   // blocked: fallback
    const canvas = document.createElement("canvas");
    canvas.width = canvas.height = 64;
    const ctx = canvas.getContext("2d", { willReadFrequently: true });
    const pictures = new Set();
    let blank = 0;
    for (const c of chars) {
      ctx.clearRect(0, 0, 64, 64);
      ctx.font = '700 48px "qiyi CJK"';
      ctx.fillStyle = "#000";
      ctx.fillText(c, 8, 52);
      const data = ctx.getImageData(0, 0, 64, 64).data;
      let ink = 0, key = "";
      for (let i = 3; i < data.length; i += 4) { if (data[i] > 127) ink++; key += data[i] > 127 ? "1" : "0"; }
      if (ink === 0) blank++;
      pictures.add(key);
    }
    return { chars: chars.length, distinct: pictures.size, blank };
  }, PIECES);
}

// Loads the Xiangqi page, the aeroplane page and the home page; returns the problems found (empty: all drawn).
async function check(browser, url, blockFont, tag) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  if (blockFont) await page.route("**/qiyi-cjk.woff2", (r) => r.abort());
  const problems = [];
  try {
    await page.goto(url + "play/xiangqi", { waitUntil: "load" });
    await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && document.getElementById("board-svg"), null, { timeout: 30000 });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: join(shots, `fonts-xiangqi-${tag}.png`) });
    const rows = [...await fontReport(page, "#board-svg text"), ...await fontReport(page, ".cjk")];
    const pieces = rows.filter((r) => PIECES.includes(r.text.trim()));
    if (pieces.length < 32) problems.push(`only ${pieces.length} piece labels found on the board`);
    if (!rows.some((r) => r.text.includes("楚"))) problems.push("no river text 楚 河 found");
    for (const r of rows) if (r.shipped < r.cjk) problems.push(`'${r.text}': ${r.shipped} of ${r.cjk} CJK characters from the shipped font (${r.fonts.join(", ")})`);
    const px = await pixelReport(page);
    if (px.blank || px.distinct !== px.chars) problems.push(`canvas: ${px.distinct} distinct pictures for ${px.chars} piece characters, ${px.blank} blank (boxes look alike)`);
    await page.goto(url + "play/aeroplane", { waitUntil: "load" });
    await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && document.getElementById("board-svg"), null, { timeout: 30000 });
    await page.evaluate(() => document.fonts.ready);
    const aero = await fontReport(page, "#board-svg text");
    if (!aero.length) problems.push("no Chinese text on the aeroplane board");
    for (const r of aero) if (r.shipped < r.cjk) problems.push(`aeroplane '${r.text}': ${r.shipped} of ${r.cjk} CJK characters from the shipped font (${r.fonts.join(", ")})`);
    await page.goto(url, { waitUntil: "load" });
    await page.waitForSelector("#games a");
    await page.evaluate(() => document.fonts.ready);
    for (const r of await fontReport(page, "#games a, h1 .cjk")) {
      if (r.shipped < r.cjk) problems.push(`home '${r.text}': ${r.shipped} of ${r.cjk} CJK characters from the shipped font (${r.fonts.join(", ")})`);
    }
  } finally {
    await page.close();
  }
  return problems;
}

const { child, url } = await startServer();
let browser;
let failed = false;
try {
  browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
  const real = await check(browser, url, false, "shipped");
  console.log(real.length ? "FAIL shipped font: " + real.join("; ") : "ok   every CJK character of the pieces, river and titles is drawn by the shipped font");
  const control = await check(browser, url, true, "blocked");
  console.log(control.length
    ? `ok   control: with the font blocked the same checks fail (${control.length} problems, e.g. ${control[0]})`
    : "FAIL control: with the font blocked the checks still pass, so they cannot tell a glyph from a fallback");
  failed = real.length > 0 || control.length === 0;
} catch (e) {
  console.log("FAIL browser: " + e.message);
  failed = true;
} finally {
  if (browser) await browser.close();
  child.kill("SIGTERM");
}
console.log(`screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
