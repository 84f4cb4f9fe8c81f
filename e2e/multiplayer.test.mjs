// End-to-end test of playing together (issue #25) in Debian's Chromium driven by playwright-core:
//  1. Xiangqi by links: two browser contexts play through their own seat links while a third
//     watches and must see each move within a second; the server is SIGKILLed mid-game and
//     restarted on the same database; both players reload and finish the game (a mate).
//  2. Aeroplane chess with two human contexts and two AI seats (moved by the server) to its end.
//  3. Aeroplane on a 360x740 phone: tapping each plane of the seat to move (a stack of two
//     included) enters that plane's move; no two planes' tap areas overlap.
//  4. Resign in a three-player game: the seat's page shows Resign, the seat drops out.
//  5. A clocked Xiangqi game: both clocks shown, the side to move's counts down, the increment is
//     added after a move.
//
//   QIYI_BIN=target/release/qiyi node e2e/multiplayer.test.mjs     (screenshots: $E2E_SHOTS)
import { chromium } from "playwright-core";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromePath, launchArgs, recorder, requireBinary, startServer as startOn } from "./server.mjs";

const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });
requireBinary();
const db = join(mkdtempSync(join(tmpdir(), "qiyi-e2e-")), "games.sqlite");

/** The server on `port` (0: a free one) over this test's database; its URL without the slash. */
async function startServer(port) {
  const server = await startOn({ port, db });
  return { child: server.child, url: server.url.replace(/\/$/, "") };
}

const { results, record } = recorder();

async function post(url, body) {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}

async function openPage(browser, url, errors, name, viewport = { width: 412, height: 915 }) {
  const ctx = await browser.newContext({ viewport, hasTouch: true, isMobile: true });
  const page = await ctx.newPage();
  page.on("console", (m) => { if (m.type() === "error" && !/ERR_CONNECTION_REFUSED|Failed to load resource|EventSource/.test(m.text())) errors.push(`${name} console: ${m.text()}`); });
  page.on("pageerror", (e) => errors.push(`${name} page error: ${e.message}`));
  await page.goto(url, { waitUntil: "load" });
  await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && document.getElementById("board-svg"), null, { timeout: 20000, polling: 100 });
  return page;
}

// Enters `text` by tapping each cell of its path, as a player on a phone does.
async function playMove(page, text) {
  const move = await page.evaluate((t) => ui.state.legal.find((m) => m.text === t), text);
  if (!move) throw new Error(`${text} is not legal here`);
  const before = await page.evaluate(() => ui.state.ply);
  // A live update may redraw the board between locating a cell and tapping it; a player then
  // taps again, and so does the test (at most three times).
  for (let attempt = 0; ; attempt++) {
    for (const cell of move.path) await page.locator(`#board-svg [data-cell="${cell}"]`).click({ force: true });
    try {
      await page.waitForFunction((n) => ui.state.ply > n, before, { timeout: 3000, polling: 50 });
      return;
    } catch (e) {
      if (attempt < 2) continue;
      const info = await page.evaluate((cell) => {
        const c = document.querySelector(`#board-svg [data-cell="${cell}"]`);
        const r = c.getBoundingClientRect();
        const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
        return document.getElementById("info").textContent + " | ply " + ui.state.ply + " turn " + JSON.stringify(ui.state.turn) + " sel " + JSON.stringify(ui.sel) +
          ` busy ${ui.busy} seat ${ui.seat} mine ${mine(ui.state.turn.player)} replay ${!!ui.replay} rect ${JSON.stringify(r)} top ${top && top.outerHTML.slice(0, 120)} vw ${innerWidth}x${innerHeight}`;
      }, move.path[0]);
      throw new Error(`${text} (path ${move.path.join(",")}) was not played: ${info}`);
    }
  }
}

async function seesPly(page, ply, timeout) {
  const t0 = Date.now();
  await page.waitForFunction((n) => ui.state && ui.state.ply >= n, ply, { timeout, polling: 20 });
  return Date.now() - t0;
}

// Red: wait (king steps up), Black: pawn, Red: rook to the back rank, mate (the h8 rook holds rank 8).
const MATE_FEN = "4k4/7R1/9/2p6/9/9/9/9/9/R2K5 w";

let server = await startServer(0);
const port = Number(server.url.split(":").pop());
console.log(`server at ${server.url}, db ${db}`);
let browser;
try {
  browser = await chromium.launch({
    executablePath: chromePath,
    headless: true,
    args: launchArgs,
  });

  // ---- 1. Xiangqi by links, a watcher, and a SIGKILL mid-game ----
  const errors = [];
  try {
    const g = await post(server.url + "/api/games", { game: "xiangqi", position: MATE_FEN, seats: [{ kind: "human" }, { kind: "human" }] });
    if (!g.seat_tokens[0] || !g.seat_tokens[1] || !g.links.watch) throw new Error("no links: " + JSON.stringify(g.links));
    const red = await openPage(browser, server.url + g.links.seats[0], errors, "red");
    const black = await openPage(browser, server.url + g.links.seats[1], errors, "black");
    const watch = await openPage(browser, server.url + g.links.watch, errors, "watcher");
    // The token left the address bar; the watcher holds none.
    if ((await red.evaluate(() => location.hash)) !== "") throw new Error("the token stayed in the address bar");
    if (await watch.evaluate(() => ui.token)) throw new Error("the watch page holds a token");
    const delays = [];
    // Black cannot move for Red (the page does not even offer it).
    if (await black.evaluate(() => mine(ui.state.turn.player))) throw new Error("Black's page may move Red");
    await playMove(red, "d0d1");
    delays.push(await seesPly(watch, 1, 1000));
    await seesPly(black, 1, 1000);
    await playMove(black, "c6c5");
    delays.push(await seesPly(watch, 2, 1000));
    await seesPly(red, 2, 1000);
    await watch.screenshot({ path: join(shots, "multi-xiangqi-watch.png") });
    // SIGKILL mid-game, restart on the same database and port.
    server.child.kill("SIGKILL");
    await new Promise((r) => server.child.once("exit", r));
    server = await startServer(port);
    await red.reload({ waitUntil: "load" });
    await black.reload({ waitUntil: "load" });
    for (const p of [red, black]) await p.waitForFunction(() => ui.state && ui.state.ply === 2, null, { timeout: 20000, polling: 100 });
    const hist = await red.evaluate(() => ui.state.history.map((h) => h.text).join(" "));
    if (hist !== "d0d1 c6c5") throw new Error("after the restart the record is " + hist);
    // The watcher is not reloaded: its stream reconnects by itself and resumes.
    await playMove(red, "a0a9");
    for (const p of [red, black]) await p.waitForFunction(() => ui.state.result && ui.state.result.winner === 0, null, { timeout: 5000, polling: 50 });
    await watch.waitForFunction(() => ui.state.result && ui.state.result.winner === 0 && ui.state.history.length === 3, null, { timeout: 15000, polling: 100 });
    const banner = await watch.evaluate(() => document.getElementById("banner").textContent);
    await red.screenshot({ path: join(shots, "multi-xiangqi-red.png") });
    if (errors.length) throw new Error(errors.join("; "));
    record("xiangqi by links + watcher + SIGKILL restart", true, `watcher delays ${delays.join(", ")} ms; ${banner}`);
  } catch (e) {
    record("xiangqi by links + watcher + SIGKILL restart", false, e.message + (errors.length ? " | " + errors.join("; ") : ""));
  }

  // ---- 3. Aeroplane tap areas on a 360 px phone ----
  const terrors = [];
  try {
    // Red to move with a 6: plane a in the hangar, b and c stacked on progress 5, d on the pad.
    const position = "standard takeoff=6 three-sixes=send-back end=first-wins players=2 move=0 roll=6 sixes=1 moved=0 places=0,0 planes=H,5,5,0/H,H,H,H";
    const g = await post(server.url + "/api/games", { game: "aeroplane", rules: { players: 2 }, position, seats: [{ kind: "human" }, { kind: "human" }] });
    const page = await openPage(browser, server.url + g.links.seats[0], terrors, "phone", { width: 360, height: 740 });
    await page.waitForFunction(() => mine(ui.state.turn.player) && !ui.busy, null, { timeout: 10000, polling: 50 });
    // Every plane's tap area, in screen pixels; none may overlap another.
    const areas = await page.evaluate(() => [...document.querySelectorAll("#board-svg .cell-hit")].map((c) => {
      const r = c.getBoundingClientRect();
      return { id: c.dataset.cell, x: r.x + r.width / 2, y: r.y + r.height / 2, r: r.width / 2 };
    }));
    const overlaps = [];
    for (let i = 0; i < areas.length; i++) for (let j = i + 1; j < areas.length; j++) {
      const a = areas[i], b = areas[j];
      if (Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r - 0.5) overlaps.push(`${a.id}/${b.id}`);
    }
    if (overlaps.length) throw new Error("tap areas overlap: " + overlaps.join(", "));
    // Tap each of Red's planes where it is drawn; record the move the page enters (the move
    // itself is not sent, so every tap starts from the same position).
    await page.evaluate(() => { window.entered = []; play = (t) => { window.entered.push(t); ui.sel = []; }; });
    const want = { "plane-0-0": "a", "plane-0-1": "b", "plane-0-2": "b", "plane-0-3": "d" }; // c is b's twin: one move
    const got = {};
    for (const id of Object.keys(want)) {
      const a = areas.find((x) => x.id === id);
      if (!a) throw new Error(`no tap area for ${id}`);
      await page.evaluate(() => { window.entered = []; });
      await page.touchscreen.tap(a.x, a.y);
      got[id] = (await page.evaluate(() => window.entered)).join(",");
    }
    if (JSON.stringify(got) !== JSON.stringify(want)) throw new Error(`taps entered ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    await page.screenshot({ path: join(shots, "multi-aeroplane-360.png") });
    if (terrors.length) throw new Error(terrors.join("; "));
    const smallest = Math.min(...areas.map((a) => a.r)).toFixed(1);
    record("aeroplane at 360x740: each plane tapped on its own", true, `${areas.length} tap areas, none overlapping (smallest radius ${smallest} px); taps ${Object.values(got).join(" ")}`);
  } catch (e) {
    record("aeroplane at 360x740: each plane tapped on its own", false, e.message + (terrors.length ? " | " + terrors.join("; ") : ""));
  }

  // ---- 4. Resign in a three-player game ----
  const rerrors = [];
  try {
    const g = await post(server.url + "/api/games", { game: "aeroplane", rules: { players: 3 }, seed: 2, seats: [{ kind: "human" }, { kind: "human" }, { kind: "human" }] });
    const page = await openPage(browser, server.url + g.links.seats[1], rerrors, "seat1");
    const watch = await openPage(browser, server.url + g.links.watch, rerrors, "watcher");
    if (!(await page.isVisible("#resign"))) throw new Error("no Resign button for the seat this page holds");
    if (await watch.isVisible("#resign")) throw new Error("the watch page shows Resign");
    page.once("dialog", (d) => d.accept());
    await page.click("#resign");
    await page.waitForFunction(() => (ui.state.resigned || []).includes(1), null, { timeout: 5000, polling: 50 });
    await watch.waitForFunction(() => (ui.state.resigned || []).includes(1), null, { timeout: 5000, polling: 50 });
    if (await page.isVisible("#resign")) throw new Error("Resign still shown after resigning");
    const text = await watch.evaluate(() => document.getElementById("resigned-seats").textContent);
    const st = await (await fetch(`${server.url}/api/games/${g.id}`)).json();
    if (st.turn.kind !== "player" || st.turn.player === 1 || st.result) throw new Error("after the resignation: " + JSON.stringify(st.turn));
    if (rerrors.length) throw new Error(rerrors.join("; "));
    record("resign a seat of a three-player game from its page", true, `watcher sees "${text}"; ${st.player_names[st.turn.player]} to move`);
  } catch (e) {
    record("resign a seat of a three-player game from its page", false, e.message + (rerrors.length ? " | " + rerrors.join("; ") : ""));
  }

  // ---- 5. Clocks of a two-player Xiangqi game ----
  const cerrors = [];
  try {
    const g = await post(server.url + "/api/games", { game: "xiangqi", clock: { base_ms: 60000, increment_ms: 5000 }, seats: [{ kind: "human" }, { kind: "human" }] });
    const red = await openPage(browser, server.url + g.links.seats[0], cerrors, "red");
    const black = await openPage(browser, server.url + g.links.seats[1], cerrors, "black");
    // The displayed seconds of each clock, and which one runs.
    const clocks = (page) => page.evaluate(() => [0, 1].map((p) => {
      const c = document.getElementById("clock-" + p);
      if (!c || c.offsetParent === null) return null;
      const [m, s] = c.textContent.trim().split(/\s+/).pop().split(":").map(Number);
      return { s: m * 60 + s, running: c.classList.contains("running") };
    }));
    const start = await clocks(red);
    if (start.some((c) => !c) || start[0].s !== 60 || start[1].s !== 60) throw new Error("at the start: " + JSON.stringify(start));
    await playMove(red, "h2e2");
    await seesPly(black, 1, 2000);
    // Red gained the increment; Black's clock runs and counts down.
    const a = await clocks(black);
    await black.waitForTimeout(2300);
    const b = await clocks(black);
    if (a[0].s !== 65 || b[0].s !== 65 || a[0].running) throw new Error(`Red after its move: ${JSON.stringify([a[0], b[0]])}, want 65 s standing`);
    if (!b[1].running || !(b[1].s <= a[1].s - 2 && b[1].s >= 55)) throw new Error(`Black's clock did not count down: ${a[1].s} then ${b[1].s}`);
    const waited = 60 - b[1].s;
    await playMove(black, "h9g7");
    await seesPly(red, 2, 2000);
    // Black's time is what it had left plus the increment, as the server keeps it.
    const st = await (await fetch(`${server.url}/api/games/${g.id}`)).json();
    const c = await clocks(red);
    const serverBlack = Math.ceil(st.clock.remaining_ms[1] / 1000);
    if (Math.abs(c[1].s - serverBlack) > 1 || serverBlack < 60 + 5 - waited - 2 || serverBlack > 65 - waited + 1) throw new Error(`Black after its move shows ${c[1].s} s, server ${serverBlack} s, after ~${waited} s used`);
    if (!c[0].running || c[1].running) throw new Error("Red's clock does not run after Black's move: " + JSON.stringify(c));
    await red.screenshot({ path: join(shots, "multi-xiangqi-clock.png") });
    if (cerrors.length) throw new Error(cerrors.join("; "));
    record("clocked xiangqi: both clocks, countdown, increment", true, `Red 60 → 65 s after its move; Black ${a[1].s} → ${b[1].s} s while to move, ${c[1].s} s after its move (+5)`);
  } catch (e) {
    record("clocked xiangqi: both clocks, countdown, increment", false, e.message + (cerrors.length ? " | " + cerrors.join("; ") : ""));
  }

  // ---- 2. Aeroplane chess: two humans by links and two AI seats to the end ----
  const aerrors = [];
  try {
    const g = await post(server.url + "/api/games", {
      game: "aeroplane", rules: { players: 4 }, seed: 5,
      seats: [{ kind: "human" }, { kind: "ai", level: 1 }, { kind: "human" }, { kind: "ai", level: 1 }],
    });
    const pages = [await openPage(browser, server.url + g.links.seats[0], aerrors, "p0"), await openPage(browser, server.url + g.links.seats[2], aerrors, "p2")];
    const deadline = Date.now() + (Number(process.env.AERO_SECONDS) || 300) * 1000;
    let humanMoves = 0;
    let taps = 0;
    for (;;) {
      if (Date.now() > deadline) {
        const st = await (await fetch(`${server.url}/api/games/${g.id}`)).json();
        const views = await Promise.all(pages.map((p) => p.evaluate(() => `ply ${ui.state.ply} busy ${ui.busy} seat ${ui.seat} legal ${ui.state.legal.length} info ${document.getElementById("info").textContent} live ${document.getElementById("live-status").textContent}`)));
        throw new Error(`not over: ply ${st.ply}, turn ${JSON.stringify(st.turn)}, thinking ${JSON.stringify(st.thinking)}, ${humanMoves} human moves; pages: ${views.join(" / ")}`);
      }
      let moved = false;
      for (const page of pages) {
        // Planes stacked on one spot share a point: take a move whose first cell is on top there.
        const st = await page.evaluate(() => {
          const onTop = (m) => {
            const c = document.querySelector(`#board-svg [data-cell="${m.path[0]}"]`);
            if (!c) return false;
            const r = c.getBoundingClientRect();
            return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2) === c;
          };
          const legal = ui.state.legal.filter(onTop).concat(ui.state.legal.filter((m) => !onTop(m)));
          return { over: ui.state.turn.kind === "over", mine: ui.state.turn.kind === "player" && mine(ui.state.turn.player) && !ui.busy, legal: legal.map((m) => m.text), tap: legal.length > 0 && onTop(legal[0]) };
        });
        if (st.over) { moved = null; break; }
        if (st.mine && st.legal.length) {
          // Tap the first few moves on the board; then play through the page's own function
          // (quicker; tapping each plane on a phone is checked on its own in part 3).
          if (humanMoves < 6 && st.tap) { await playMove(page, st.legal[0]); taps++; }
          else await page.evaluate((t) => play(t), st.legal[0]);
          humanMoves++;
          moved = true;
        }
      }
      if (moved === null) break;
      if (!moved) await new Promise((r) => setTimeout(r, 50));
    }
    const res = await pages[0].evaluate(() => ui.state.result);
    const st = await (await fetch(`${server.url}/api/games/${g.id}`)).json();
    const aiMoves = st.history.filter((h) => h.player === 1 || h.player === 3).length;
    await pages[0].screenshot({ path: join(shots, "multi-aeroplane.png") });
    if (!res || aiMoves === 0) throw new Error("no result or no AI move: " + JSON.stringify(res));
    if (aerrors.length) throw new Error(aerrors.join("; "));
    record("aeroplane: 2 humans by links + 2 AI seats to the end", true, `${humanMoves} human moves (${taps} tapped), ${aiMoves} AI moves; ${res.reason}, winner ${res.winner}`);
  } catch (e) {
    record("aeroplane: 2 humans by links + 2 AI seats to the end", false, e.message + (aerrors.length ? " | " + aerrors.join("; ") : ""));
  }
} catch (e) {
  record("browser", false, e.message);
} finally {
  if (browser) await browser.close();
  server.child.kill("SIGTERM");
}
const failed = results.filter((r) => !r.ok).length;
console.log(`${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
