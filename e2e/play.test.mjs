// End-to-end browser test of `qiyi serve`: for every game the home page lists, load its page in
// Debian's Chromium (driven by playwright-core), make a legal move by clicking the board, wait for
// the AI's answer, take a screenshot, and fail on any console error.
//
//   QIYI_BIN=target/release/qiyi node e2e/play.test.mjs      (screenshots: $E2E_SHOTS or /tmp/qiyi-e2e)
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = process.env.QIYI_BIN || ["target/release/qiyi", "target/debug/qiyi"].map((p) => join(root, p)).find(existsSync);
const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
const chromePath = process.env.CHROMIUM || "/usr/bin/chromium";
mkdirSync(shots, { recursive: true });
if (!bin || !existsSync(bin)) {
  console.error("no qiyi binary: build it (cargo build --release -p qiyi) or set QIYI_BIN");
  process.exit(2);
}

function startServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["serve", "--host", "127.0.0.1", "--port", "0", "--db", ":memory:", "--json"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error("the server printed no URL within 20 s")), 20000);
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(timer);
        resolve({ child, url: JSON.parse(line).url });
      }
    });
    child.on("exit", (code) => reject(new Error("the server exited with " + code)));
  });
}

const results = [];
function record(name, ok, detail) {
  results.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
}

const ui_over = (kind) => kind === "over";

async function waitFor(page, fn, arg, timeout = 60000) {
  await page.waitForFunction(fn, arg, { timeout, polling: 100 });
}

async function playOne(browser, base, game) {
  const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", (e) => errors.push("page error: " + e.message));
  try {
    await page.goto(base + "play/" + game, { waitUntil: "load" });
    await waitFor(page, () => typeof ui !== "undefined" && ui.state && !ui.busy && document.getElementById("board-svg"));
    const start = await page.evaluate(() => ({
      players: ui.state.players,
      human: ui.state.turn.kind === "player" && ui.state.seats[ui.state.turn.player].kind === "human",
      moves: ui.state.legal.length,
      choices: ui.state.history.filter((h) => h.player !== null).length,
    }));
    if (!start.human || start.moves === 0) throw new Error("no human move at the start: " + JSON.stringify(start));
    // Pick a legal move and enter it by clicking each cell of its path. Dice games may give the
    // human another turn (a six) before any AI moves, so keep playing until an AI seat has moved.
    let first = null;
    for (let turn = 0; turn < 12; turn++) {
      const before = await page.evaluate(() => ui.state.history.filter((h) => h.player !== null).length);
      const move = await page.evaluate(() => ui.state.legal[Math.floor(ui.state.legal.length / 2)]);
      for (const cell of move.path) {
        await page.locator(`#board-svg [data-cell="${cell}"]`).click({ force: true });
      }
      await waitFor(page, (n) => ui.state.history.filter((h) => h.player !== null).length > n, before);
      const played = await page.evaluate((n) => ui.state.history.filter((h) => h.player !== null)[n].text, before);
      if (played !== move.text) throw new Error(`clicked ${move.text} but the record shows ${played}`);
      first = first || move.text;
      if (start.players === 1) {
        // Single-player games: ask the AI (solver) for the next move with the button.
        await page.click("#ai-move");
      }
      // Wait until the page is idle: the AI has moved, or a human is to move again (an AI search
      // marks the page busy as soon as the human move is recorded, so this cannot skip it).
      await waitFor(page, (n) => !ui.busy && (ui.state.turn.kind === "over" ||
        ui.state.history.filter((h) => h.player !== null).length >= n + 2 ||
        (ui.state.turn.kind === "player" && ui.state.seats[ui.state.turn.player].kind === "human")), before, 90000);
      const aiMoved = await page.evaluate(() => ui.state.history.some((h) => h.player !== null && ui.state.seats[h.player].kind !== "human") || (ui.state.players === 1 && ui.state.history.filter((h) => h.player !== null).length >= 2));
      if (aiMoved) break;
      if (ui_over(await page.evaluate(() => ui.state.turn.kind))) throw new Error("the game ended before any AI move");
    }
    const aiMoved = await page.evaluate(() => ui.state.history.some((h) => h.player !== null && ui.state.seats[h.player].kind !== "human") || (ui.state.players === 1 && ui.state.history.filter((h) => h.player !== null).length >= 2));
    if (!aiMoved) throw new Error("no AI move after 12 human moves");
    const move = { text: first };
    const info = await page.evaluate(() => document.getElementById("info").textContent);
    await page.screenshot({ path: join(shots, game + ".png") });
    if (errors.length) throw new Error(errors.join("; "));
    record(game, true, `played ${move.text}; AI: ${info.split("\n")[0]}`);
  } catch (e) {
    await page.screenshot({ path: join(shots, game + "-failed.png") }).catch(() => {});
    record(game, false, e.message + (errors.length ? " | " + errors.join("; ") : ""));
  } finally {
    await page.close();
  }
}

const { child, url } = await startServer();
console.log("server at " + url);
let browser;
try {
  browser = await chromium.launch({
    executablePath: chromePath,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
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
  for (const g of games) await playOne(browser, url, g);
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
