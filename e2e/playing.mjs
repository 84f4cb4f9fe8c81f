// Shared by the browser tests: play one game's page against the AI by clicking the board.
import { join } from "node:path";

const ui_over = (kind) => kind === "over";

export async function waitFor(page, fn, arg, timeout = 60000) {
  await page.waitForFunction(fn, arg, { timeout, polling: 100 });
}

/**
 * Opens `address` (a game's page) in `browser`, enters a legal move by clicking each cell of its
 * path until an AI seat has moved (dice games may give the human several turns), checks the
 * record shows what was clicked and that the console stayed clean, and takes a screenshot
 * `shots/name.png`. Resolves `{ ok, detail }`.
 */
export async function playOne(browser, address, name, shots, context) {
  const page = await (context || browser).newPage({ viewport: { width: 1200, height: 800 } });
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push("console: " + m.text()); });
  page.on("pageerror", (e) => errors.push("page error: " + e.message));
  try {
    await page.goto(address, { waitUntil: "load" });
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
    await page.screenshot({ path: join(shots, name + ".png") });
    if (errors.length) throw new Error(errors.join("; "));
    return { ok: true, detail: `played ${move.text}; AI: ${info.split("\n")[0]}` };
  } catch (e) {
    await page.screenshot({ path: join(shots, name + "-failed.png") }).catch(() => {});
    return { ok: false, detail: e.message + (errors.length ? " | " + errors.join("; ") : "") };
  } finally {
    await page.close();
  }
}

