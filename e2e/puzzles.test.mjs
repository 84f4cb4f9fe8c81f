// Browser test of the puzzle page (/puzzles/{game}, issue 58 item 4): a Xiangqi mate solved by the
// right moves (one clicked on the board, one typed), the forced reply played by itself, the
// rating moving; a wrong move marked and the position kept; the hint marking the piece to move;
// the solution played out; Next, the theme filter and the puzzle of the day; both languages; the
// page at 360 px; axe-core with no serious or critical violation; the home page's link. Issue 58's
// later items: a wrong move refuted by the server (the reply played on the board and taken back);
// an aeroplane puzzle answered by a tap and by a typed number, with every plane's win chance;
// the themes in Chinese.
//
//   QIYI_BIN=target/release/qiyi CHROMIUM=$(command -v chromium) node e2e/puzzles.test.mjs
import { chromium } from "playwright-core";
import { createRequire } from "node:module";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromePath, launchArgs, recorder, requireBinary, startServer } from "./server.mjs";

const require = createRequire(import.meta.url);
const axePath = require.resolve("axe-core/axe.min.js");
const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });
requireBinary();

const { results, record } = recorder();

// The page has a puzzle on the board and waits for the player.
async function ready(page) {
  await page.waitForFunction(() => typeof Puz !== "undefined" && Puz.puzzle && ui.state && !ui.busy && document.getElementById("board-svg")
    && !document.documentElement.classList.contains("i18n-pending"), null, { timeout: 30000, polling: 100 });
}

// Clicks the cells of a legal move of the board's state.
async function clickMove(page, text) {
  const path = await page.evaluate((t) => ui.state.legal.find((m) => m.text === t).path, text);
  for (const c of path) await page.click(`#board-svg [data-cell="${c}"]`);
}

async function axeCheck(page, name) {
  await page.addScriptTag({ path: axePath });
  const res = await page.evaluate(async () => {
    const r = await axe.run(document, { resultTypes: ["violations"] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
  });
  const bad = res.filter((v) => v.impact === "serious" || v.impact === "critical");
  record(`${name}: axe-core finds no serious or critical violation`, bad.length === 0, bad.map((v) => `${v.id} [${v.impact}] ×${v.nodes} ${v.targets.join(" | ")}`).join("; "));
}

const { child, url } = await startServer();
const base = url.replace(/\/$/, "");
console.log("server at " + url);
let browser;
try {
  browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
  const errors = [];

  // ---- solving a mate in 2 by the right moves (English, desktop) -------------------------------
  {
    const ctx = await browser.newContext({ locale: "en-US", viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(`en: ${e.message}`));
    await page.goto(base + "/", { waitUntil: "load" });
    const link = await page.$eval("#link-puzzles", (a) => a.getAttribute("href")).catch(() => null);
    record("the home page links to the puzzles", link === "/puzzles/xiangqi", String(link));
    // Black mates in 2: e2f2, (h3a3), f2f1.
    await page.goto(base + "/puzzles/xiangqi?id=xq-1-0-271", { waitUntil: "load" });
    await ready(page);
    const start = await page.evaluate(() => ({ id: Puz.puzzle.id, solution: Puz.puzzle.solution, flipped: ui.flipped, status: document.getElementById("status").textContent, goal: document.getElementById("goal").textContent, rating: document.getElementById("my-rating").textContent }));
    record("the puzzle asked for is shown, the side to move said, Black at the bottom", start.id === "xq-1-0-271" && /Black/.test(start.status) && start.flipped === true && /Mate in 2/.test(start.goal), JSON.stringify(start));
    await clickMove(page, start.solution[0]);
    await page.waitForFunction(() => Puz.step === 2 && !ui.busy, null, { timeout: 10000 });
    const after = await page.evaluate(() => ({ history: ui.state.history.map((h) => h.text), verdict: document.getElementById("verdict").textContent }));
    record("a right move is played and the forced reply follows by itself", after.history.join(" ") === start.solution.slice(0, 2).join(" ") && /Right/.test(after.verdict), JSON.stringify(after));
    // The last move typed, as a keyboard user would.
    await page.fill("#move-input", start.solution[2]);
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => Puz.done && Puz.reported, null, { timeout: 10000 });
    await page.waitForFunction(() => document.getElementById("my-delta").textContent !== "", null, { timeout: 10000 });
    const done = await page.evaluate(() => ({ verdict: document.getElementById("verdict").textContent, delta: document.getElementById("my-delta").textContent, rating: document.getElementById("my-rating").textContent, over: ui.state.turn.kind }));
    record("the puzzle is solved and the rating goes up", /Solved/.test(done.verdict) && /^\+/.test(done.delta) && done.rating !== start.rating && done.over === "over", JSON.stringify(done));
    await page.screenshot({ path: join(shots, "puzzles-solved-en.png") });

    // ---- a wrong move, the hint, the solution (mate in 3) ---------------------------------------
    await page.goto(base + "/puzzles/xiangqi?id=xq-1-0-269", { waitUntil: "load" });
    await ready(page);
    const want = await page.evaluate(() => Puz.puzzle.solution[0]);
    const wrong = await page.evaluate((w) => ui.state.legal.find((m) => m.text !== w && m.path.length === 2).text, want);
    const before = await page.evaluate(() => ui.state.position);
    // Every position the board draws, to see the refutation played and taken back.
    await page.evaluate(() => {
      window.drawn = [];
      const draw = window.drawBoard;
      window.drawBoard = function () { window.drawn.push(ui.state.position); return draw.apply(this, arguments); };
    });
    await clickMove(page, wrong);
    await page.waitForFunction(() => Puz.failed && Puz.refuted === 1 && !ui.busy, null, { timeout: 30000 });
    const refused = await page.evaluate(() => ({ position: ui.state.position, step: Puz.step, wrong: ui.wrong, marks: document.querySelectorAll("#board-svg .wrong-mark").length, verdict: document.getElementById("verdict").textContent, explain: document.getElementById("explain").textContent, said: document.getElementById("said").textContent, drawn: window.drawn }));
    record("a wrong move is marked as wrong and the position stays", refused.position === before && refused.step === 0 && refused.marks === 2 && /Not .*try again/.test(refused.verdict), JSON.stringify(refused));
    const shownOthers = [...new Set(refused.drawn.filter((x) => x !== before))];
    record("the wrong move's refutation: the reply named, both moves played on the board and taken back", /^After .+, .+ holds: no mate in 3 any more$/.test(refused.explain) && refused.said === refused.explain && shownOthers.length === 2 && refused.drawn[refused.drawn.length - 1] === before, JSON.stringify({ explain: refused.explain, shownOthers }));
    await page.click("#hint");
    const hinted = await page.evaluate((w) => ({ hint: ui.hint, from: ui.state.legal.find((m) => m.text === w).path[0], marks: document.querySelectorAll("#board-svg .hint-mark").length, hinted: Puz.hinted }), want);
    record("the hint marks the piece to move", hinted.hinted && hinted.marks === 1 && JSON.stringify(hinted.hint) === JSON.stringify([hinted.from]), JSON.stringify(hinted));
    await clickMove(page, want);
    await page.waitForFunction(() => Puz.step === 2 && !ui.busy, null, { timeout: 10000 });
    record("after a wrong move the right one still plays on", true);
    await page.click("#solution");
    await page.waitForFunction(() => Puz.done, null, { timeout: 15000 });
    const shown = await page.evaluate(() => ({ n: ui.state.history.length, len: Puz.puzzle.solution.length, verdict: document.getElementById("verdict").textContent }));
    record("Solution plays the line out", shown.n === shown.len && /solution/.test(shown.verdict), JSON.stringify(shown));
    await page.screenshot({ path: join(shots, "puzzles-solution-en.png") });

    // ---- Next, the theme filter, the puzzle of the day ------------------------------------------
    await page.click("#next");
    await page.waitForFunction(() => Puz.puzzle.id !== "xq-1-0-269" && !Puz.done, null, { timeout: 10000 });
    await ready(page);
    record("Next brings another puzzle", true, await page.evaluate(() => Puz.puzzle.id));
    await page.selectOption("#theme", "mate-in-1");
    await page.waitForFunction(() => Puz.puzzle.themes.includes("mate-in-1"), null, { timeout: 10000 });
    await ready(page);
    record("the theme filter brings a puzzle of that theme", true, await page.evaluate(() => Puz.puzzle.id + " " + Puz.puzzle.themes.join(",")));
    await page.click("#daily");
    await page.waitForFunction(() => !!Puz.puzzle.daily, null, { timeout: 10000 });
    const daily = await page.evaluate(() => [Puz.puzzle.id, Puz.puzzle.daily, document.getElementById("puzzle-id").textContent]);
    const api = await (await fetch(base + "/api/puzzles/xiangqi/daily")).json();
    record("the puzzle of the day link shows the day's puzzle", daily[0] === api.id && /day/.test(daily[2]), JSON.stringify(daily));
    // Keyboard: the arrows walk the board's cells, Enter taps one.
    await page.focus("#board");
    await page.keyboard.press("ArrowUp");
    const cursor = await page.evaluate(() => ui.cursor);
    record("the board takes the keyboard (arrows move a cursor)", !!cursor, String(cursor));
    await axeCheck(page, "en-US /puzzles/xiangqi");

    // ---- aeroplane: the roll given, a plane tapped, every plane's win chance explained --------
    await page.goto(base + "/puzzles/aeroplane?id=aero-1-3-198", { waitUntil: "load" });
    await ready(page);
    const aero = await page.evaluate(() => ({ status: document.getElementById("status").textContent, goal: document.getElementById("goal").textContent, die: document.getElementById("die").textContent, links: [...document.querySelectorAll("#game-links a")].map((a) => a.getAttribute("href")) }));
    record("aeroplane: the roll shown and the player asked which plane", /^Blue rolled 3: which plane\?/.test(aero.status) && /You rolled 3/.test(aero.goal) && aero.die === "⚂" && !aero.links.includes("/puzzles/aeroplane"), JSON.stringify(aero));
    await page.click('#board-svg [data-cell="plane-1-2"]');
    await page.waitForFunction(() => Puz.done && Puz.reported, null, { timeout: 10000 });
    const aeroDone = await page.evaluate(() => ({ verdict: document.getElementById("verdict").textContent, explain: document.getElementById("explain").textContent }));
    record("aeroplane: the best plane tapped solves it; each plane's exact win chance shown", /Solved/.test(aeroDone.verdict) && aeroDone.explain === "Exact win chances: plane c 14.3%; plane b 8.5%", JSON.stringify(aeroDone));
    // A plane typed by its number; a wrong one answered with its win chance against the best.
    await page.goto(base + "/puzzles/aeroplane?id=aero-1-5-240", { waitUntil: "load" });
    await ready(page);
    await page.fill("#move-input", "4");
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => Puz.failed && Puz.refuted === 1 && !ui.busy, null, { timeout: 10000 });
    const aeroWrong = await page.evaluate(() => ({ verdict: document.getElementById("verdict").textContent, explain: document.getElementById("explain").textContent }));
    record("aeroplane: a wrong plane typed by its number (4) shows its win chance against the best", /Not plane d/.test(aeroWrong.verdict) && aeroWrong.explain === "plane d wins 5.4% of games; the best plane wins 10.7%", JSON.stringify(aeroWrong));
    await page.fill("#move-input", "3");
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => Puz.done, null, { timeout: 10000 });
    record("aeroplane: the right plane typed by its number (3) finishes the puzzle", true);
    await axeCheck(page, "en-US /puzzles/aeroplane");
    await ctx.close();
  }

  // ---- Chinese, at 360 px ------------------------------------------------------------------------
  {
    const ctx = await browser.newContext({ locale: "zh-CN", viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    page.on("pageerror", (e) => errors.push(`zh: ${e.message}`));
    await page.goto(base + "/puzzles/xiangqi?id=xq-1-0-271", { waitUntil: "load" });
    await ready(page);
    const zh = await page.evaluate(() => ({ title: document.getElementById("title").textContent, hint: document.getElementById("hint").textContent, goal: document.getElementById("goal").textContent, status: document.getElementById("status").textContent, width: document.documentElement.scrollWidth }));
    record("zh-CN: the page speaks Chinese", /残局题/.test(zh.title) && zh.hint === "提示" && /2 步杀/.test(zh.goal) && /黑/.test(zh.status), JSON.stringify(zh));
    record("360 px: nothing wider than the screen", zh.width <= 360, String(zh.width));
    const zhThemes = await page.evaluate(() => ({ themes: document.getElementById("puzzle-themes").textContent, ids: Puz.puzzle.themes, options: [...document.querySelectorAll("#theme option")].map((o) => o.textContent) }));
    record("zh-CN: the puzzle's themes and the filter's are in Chinese", /2 步杀/.test(zhThemes.themes) && !/[a-z]{3,}/.test(zhThemes.themes) && zhThemes.options.some((o) => /^1 步杀 ?[（(]\d+[）)]$/.test(o)) && zhThemes.options.every((o) => !/[a-z]{3,}/.test(o)), JSON.stringify(zhThemes));
    const box = await page.$eval("#board-svg", (s) => { const r = s.getBoundingClientRect(); return [r.width, r.height]; });
    record("360 px: the board fills the width", box[0] >= 300 && box[1] >= 300, JSON.stringify(box));
    await page.screenshot({ path: join(shots, "puzzles-360-zh.png"), fullPage: true });
    await axeCheck(page, "zh-CN 360 px /puzzles/xiangqi");
    // Peg solitaire and Chinese checkers: the game's own move texts, typed.
    for (const [game, id] of [["peg-solitaire", null], ["chinese-checkers", "cc-1-0-93"]]) {
      await page.goto(base + `/puzzles/${game}` + (id ? `?id=${id}` : ""), { waitUntil: "load" });
      await ready(page);
      const mv = await page.evaluate(() => Puz.puzzle.solution[Puz.step]);
      await page.fill("#move-input", mv);
      await page.press("#move-input", "Enter");
      await page.waitForFunction(() => Puz.step >= 1 && !ui.busy, null, { timeout: 10000 });
      const ok = await page.evaluate(() => ({ failed: Puz.failed, step: Puz.step, verdict: document.getElementById("verdict").className }));
      record(`${game}: the first move typed in the game's notation (${mv}) is taken`, !ok.failed && /good/.test(ok.verdict), JSON.stringify(ok));
    }
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
