// Accessibility test of the server's page with axe-core (issue 47, item 4), in Debian's Chromium
// driven by playwright-core: every page (home, the five game pages, the archive, the lab and a
// finished game's review view and the analysis board) in an en-US and a zh-CN locale, each in the light and the dark
// colour scheme (`prefers-color-scheme`), must have no serious or critical violation. The counts
// per page, language and scheme are printed (and written as JSON to $AXE_JSON when set).
// Then, in both languages, the keyboard and screen-reader path of a game page: a move typed in the
// "type a move" box (PDN for checkers, ICCS for Xiangqi) and one made with the arrow keys and
// Enter on the board are played and said in the aria-live
// region with the player's name, the computer's answer too; a wrong move is refused with a note;
// the dark theme really changes the page's colours; sounds are off by default, the switch turns
// them on (Web Audio oscillators started on the next move) and is remembered across a reload.
//
//   QIYI_BIN=target/release/qiyi node e2e/axe.test.mjs
import { chromium } from "playwright-core";
import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import { api, chromePath, launchArgs, requireBinary, startServer } from "./server.mjs";

const require = createRequire(import.meta.url);
const axePath = require.resolve("axe-core/axe.min.js");
requireBinary();

const GAMES = ["xiangqi", "checkers", "chinese-checkers", "peg-solitaire", "aeroplane"];

let failed = 0;
function record(name, ok, detail) {
  if (!ok) failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
}

async function ready(page, path) {
  await page.waitForFunction(() => typeof I18n !== "undefined" && !document.documentElement.classList.contains("i18n-pending"), null, { timeout: 20000 });
  if (path.startsWith("play/")) await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && document.getElementById("board-svg"), null, { timeout: 30000, polling: 100 });
  if (path.startsWith("puzzles/")) await page.waitForFunction(() => typeof Puz !== "undefined" && Puz.puzzle && !ui.busy && document.getElementById("board-svg"), null, { timeout: 30000, polling: 100 });
  if (path === "") await page.waitForSelector("#games .game-card");
  if (path === "lab") await page.waitForSelector("#lab section h2");
  if (path === "games") await page.waitForFunction(() => !/Loading|加载/.test(document.getElementById("rows").innerText));
  if (path.startsWith("play/") && path.includes("?id=")) await page.waitForSelector("#review .rv-graph", { timeout: 30000 });
  // The analysis board with the engine's lines shown.
  if (path.includes("analyse=1")) await page.waitForSelector("#an-board svg, #an-lines .an-pv", { timeout: 30000 }).then(() => page.waitForSelector("#an-lines .an-pv", { timeout: 60000 }));
  await page.waitForTimeout(300);
}

const { child, url } = await startServer();
const base = url.replace(/\/$/, "");
console.log("server at " + base);
let browser;
const table = [];
try {
  // A finished checkers game (both seats human, 8 plies through the API, then resigned) with a
  // stored review at depth 4: its page shows the review view.
  const created = await api(base + "/api/games", "POST", { game: "checkers", hotseat: true, seats: [{ kind: "human" }, { kind: "human" }] });
  let st = created.state;
  for (let i = 0; i < 8; i++) st = await api(`${base}/api/games/${created.id}/moves`, "POST", { move: st.legal[0].text }, created.hotseat_token);
  await api(`${base}/api/games/${created.id}/resign`, "POST", {}, created.hotseat_token);
  await api(`${base}/api/games/${created.id}/review`, "POST", { depth: 4 });
  for (let i = 0; i < 600; i++) {
    const r = await api(`${base}/api/games/${created.id}/review`, "GET");
    if (r.status !== "queued" && r.status !== "running") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  // A checkers game with a blunder of Black (14-17), reviewed: its mistakes as puzzles, kept in
  // the browser as the review page keeps them, for the puzzle page's "my mistakes" mode.
  const blunder = await api(base + "/api/games", "POST", { game: "checkers", hotseat: true, seats: [{ kind: "human" }, { kind: "human" }] });
  for (const mv of ["10-14", "24-20", "14-17", "22x13"]) await api(`${base}/api/games/${blunder.id}/moves`, "POST", { move: mv }, blunder.hotseat_token);
  await api(`${base}/api/games/${blunder.id}/review`, "POST", { depth: 4 });
  for (let i = 0; i < 600; i++) {
    const r = await api(`${base}/api/games/${blunder.id}/review`, "GET");
    if (r.status !== "queued" && r.status !== "running") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const mistakes = await api(`${base}/api/games/${blunder.id}/review/puzzles`, "POST", { side: 0 });
  const PAGES = ["", ...GAMES.map((g) => "play/" + g), "games", "lab", `play/checkers?id=${created.id}`, "play/xiangqi?analyse=1", "puzzles/xiangqi?id=xq-1-0-269", "puzzles/chinese-checkers", "puzzles/checkers?mistakes=1"];

  browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });
  for (const colorScheme of ["light", "dark"]) {
    for (const locale of ["en-US", "zh-CN"]) {
      const ctx = await browser.newContext({ locale, colorScheme, viewport: { width: 1100, height: 900 } });
      const page = await ctx.newPage();
      await page.goto(base + "/", { waitUntil: "load" });
      await page.evaluate((set) => localStorage.setItem("qiyi-mistakes-checkers", JSON.stringify(set)), mistakes);
      for (const path of PAGES) {
        await page.goto(base + "/" + path, { waitUntil: "load" });
        await ready(page, path);
        await page.addScriptTag({ path: axePath });
        const res = await page.evaluate(async () => {
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, targets: v.nodes.slice(0, 3).map((n) => n.target.join(" ")) }));
        });
        const bad = res.filter((v) => v.impact === "serious" || v.impact === "critical");
        const name = path.startsWith("puzzles/") ? "/" + path : path.includes("?id=") ? "review" : path.includes("analyse=1") ? "analysis" : "/" + path;
        const count = (imp) => res.filter((v) => v.impact === imp).reduce((s, v) => s + v.nodes, 0);
        table.push({ page: name, locale, colorScheme, critical: count("critical"), serious: count("serious"), moderate: count("moderate"), minor: count("minor"), rules: res.map((v) => `${v.id}(${v.impact},${v.nodes})`) });
        record(`${colorScheme} ${locale} ${name}: no serious or critical violation`, bad.length === 0,
          res.length ? res.map((v) => `${v.id} [${v.impact}] ×${v.nodes} ${v.targets.join(" | ")}`).join("; ") : "");
      }
      await ctx.close();
    }
  }

  // The keyboard path and the live region, in both languages.
  for (const locale of ["en-US", "zh-CN"]) {
    const ctx = await browser.newContext({ locale, viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // Counts the oscillators the page starts (sound.js makes every sound with them).
    await page.addInitScript(() => {
      window.__oscillators = 0;
      const AC = window.AudioContext;
      if (AC) {
        const make = AC.prototype.createOscillator;
        AC.prototype.createOscillator = function () { window.__oscillators++; return make.call(this); };
      }
    });
    const said = () => page.$eval("#said", (e) => e.textContent);
    // Everything the live region said since the last call (the computer may answer before the
    // test reads the region, with a fast build).
    const listen = () => page.evaluate(() => {
      window.__said = [];
      const e = document.getElementById("said");
      new MutationObserver(() => window.__said.push(e.textContent)).observe(e, { childList: true, characterData: true, subtree: true });
    });
    const heardAll = () => page.evaluate(() => window.__said.join(" | "));
    const plies = () => page.evaluate(() => ui.state.history.length);

    // Checkers: human (black, first) against the computer at level 1.
    await page.goto(base + "/play/checkers?level=1", { waitUntil: "load" });
    await ready(page, "play/checkers");
    const live = await page.$eval("#said", (e) => e.getAttribute("aria-live"));
    record(`${locale} the live region is polite`, live === "polite", live);
    const soundDefault = await page.evaluate(() => [Sound.on, localStorage.getItem("qiyi-sound"), document.getElementById("sound").getAttribute("aria-pressed")]);
    record(`${locale} sounds are off by default`, soundDefault[0] === false && soundDefault[1] === null && soundDefault[2] === "false", JSON.stringify(soundDefault));
    await page.fill("#move-input", "1-2");
    await page.press("#move-input", "Enter");
    const refused = await page.$eval("#info", (e) => e.textContent);
    record(`${locale} a move that is not legal is refused with a note`, (await plies()) === 0 && refused.includes("1-2"), refused);
    await page.click("#sound");
    const pressed = await page.evaluate(() => [Sound.on, localStorage.getItem("qiyi-sound"), document.getElementById("sound").getAttribute("aria-pressed")]);
    record(`${locale} the sound switch turns sounds on and stores it`, pressed[0] === true && pressed[1] === "on" && pressed[2] === "true", JSON.stringify(pressed));
    const first = await page.evaluate(() => ui.state.legal[0].text);
    const who = await page.evaluate(() => playerName(ui.state.turn.player));
    await listen();
    await page.fill("#move-input", first);
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => ui.state.history.length >= 1, null, { timeout: 10000 });
    const heard = (await page.evaluate(() => window.__said)).find((x) => x.includes(first)) || "";
    record(`${locale} a typed PDN move is played and said with the player's name`, heard.includes(first) && heard.includes(who), `typed ${first}, said "${await heardAll()}"`);
    await page.waitForFunction(() => ui.state.history.length >= 2 && !ui.busy, null, { timeout: 30000 });
    await page.waitForTimeout(200);
    const answer = await page.evaluate(() => [ui.state.history[1].text, playerName(ui.state.history[1].player), document.getElementById("said").textContent]);
    record(`${locale} the computer's answer is said`, answer[2].includes(answer[0]) && answer[2].includes(answer[1]), `said "${answer[2]}"`);
    const osc = await page.evaluate(() => window.__oscillators);
    record(`${locale} with sound on, the moves made sounds (Web Audio)`, osc >= 2, `${osc} oscillators`);
    await page.reload({ waitUntil: "load" });
    await ready(page, "play/checkers");
    const kept = await page.evaluate(() => [Sound.on, document.getElementById("sound").getAttribute("aria-pressed")]);
    record(`${locale} the sound switch is remembered after a reload`, kept[0] === true && kept[1] === "true", JSON.stringify(kept));
    await page.click("#sound");

    // Xiangqi: the ICCS text of a move (h2e2, the central cannon) typed in the box.
    await page.goto(base + "/play/xiangqi?level=1", { waitUntil: "load" });
    await ready(page, "play/xiangqi");
    await listen();
    await page.fill("#move-input", "h2e2");
    await page.press("#move-input", "Enter");
    await page.waitForFunction(() => ui.state.history.length >= 1, null, { timeout: 10000 });
    const xq = await page.evaluate(() => [ui.state.history[0].text, window.__said.some((x) => x.includes("h2e2"))]);
    record(`${locale} a typed ICCS move is played and said`, xq[0] === "h2e2" && xq[1], `said "${await heardAll()}"`);
    // The board itself from the keyboard: the first arrow key puts the cursor on the first legal
    // move's piece, Enter picks it, an arrow key goes to its target (the nearest cell that way),
    // Enter plays it. The cursor's cell is said.
    await page.goto(base + "/play/xiangqi?level=1", { waitUntil: "load" });
    await ready(page, "play/xiangqi");
    const plan = await page.evaluate(() => {
      const m = ui.state.legal[0];
      const [a, b] = m.path.map((c) => ui.cells[c]);
      const dx = b[0] - a[0], dy = b[1] - a[1];
      const key = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "ArrowRight" : "ArrowLeft") : (dy > 0 ? "ArrowDown" : "ArrowUp");
      return { text: m.text, from: m.path[0], key, oneStep: m.path.length === 2 };
    });
    await page.focus("#board");
    await page.keyboard.press("ArrowUp");
    const cur = await page.evaluate(() => [ui.cursor, document.getElementById("said").textContent]);
    await page.keyboard.press("Enter");
    await page.keyboard.press(plan.key);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => ui.state.history.length >= 1, null, { timeout: 10000 }).catch(() => {});
    const byKeys = await page.evaluate(() => ui.state.history.length ? ui.state.history[0].text : null);
    record(`${locale} arrow keys and Enter on the board play a move`, cur[0] === plan.from && cur[1].includes(plan.from) && byKeys === plan.text,
      `cursor ${cur[0]} ("${cur[1]}"), then ${plan.key}: played ${byKeys}, expected ${plan.text}`);
    record(`${locale} no page errors on the keyboard path`, errors.length === 0, errors.join(" | "));
    await ctx.close();
  }

  // The dark theme follows the system: the page's background and text change, the board's do not.
  const colours = {};
  for (const colorScheme of ["light", "dark"]) {
    const ctx = await browser.newContext({ colorScheme, viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(base + "/play/xiangqi", { waitUntil: "load" });
    await ready(page, "play/xiangqi");
    colours[colorScheme] = await page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color, document.querySelector("#board-svg rect").getAttribute("fill")]);
    await ctx.close();
  }
  record("the dark theme changes the page's colours and keeps the board's", colours.light[0] !== colours.dark[0] && colours.light[1] !== colours.dark[1] && colours.light[2] === colours.dark[2],
    `light ${colours.light.join(" ")}, dark ${colours.dark.join(" ")}`);
} finally {
  if (browser) await browser.close();
  child.kill();
}
if (process.env.AXE_JSON) writeFileSync(process.env.AXE_JSON, JSON.stringify(table, null, 1));
console.log(`\n${table.length} page views checked with axe-core; ${failed} check(s) failed`);
process.exit(failed ? 1 : 0);
