// Browser test of the page's two languages and the home page's one-click flows, against
// `qiyi serve` in Debian's Chromium (playwright-core):
//   1. in a zh-CN and in an en-US locale, every page (home, the five game pages, the archive, the
//      lab) shows no string of the other language's catalog (game names excepted: each card shows
//      the name in its own script too; the lab's tables are the measuring tool's English and are
//      left out, with a note on the page saying so);
//   2. on a 360 px touch phone: one tap on "play the computer" starts a game against the computer
//      at the level chosen once on the home page; "play a friend" shows the link to send at once;
//      the unfinished game is offered as "continue" after a reload and continues the same game,
//      and once it has ended, "review your last game" opens its review;
//   3. the language chosen with the switch is remembered across pages.
//
//   QIYI_BIN=target/release/qiyi node e2e/i18n.test.mjs      (screenshots: $E2E_SHOTS or /tmp/qiyi-e2e)
import { chromium } from "playwright-core";
import { mkdirSync, readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { chromePath, launchArgs, recorder, requireBinary, startServer } from "./server.mjs";

const shots = process.env.E2E_SHOTS || "/tmp/qiyi-e2e";
mkdirSync(shots, { recursive: true });
requireBinary();
const assets = join(dirname(fileURLToPath(import.meta.url)), "../crates/web/assets/i18n");
const cat = { en: JSON.parse(readFileSync(join(assets, "en.json"), "utf8")), zh: JSON.parse(readFileSync(join(assets, "zh-CN.json"), "utf8")) };
const GAMES = ["xiangqi", "checkers", "chinese-checkers", "peg-solitaire", "aeroplane"];
const PAGES = ["", ...GAMES.map((g) => "play/" + g), "games", "lab"];

const { results, record } = recorder();

// The fixed pieces of a catalog's values (placeholders cut out) that would betray that language:
// English pieces with a word of 3+ letters and 5+ characters; Chinese pieces with 2+ CJK characters.
// Game names are left out (shown in both scripts on purpose).
function tells(which) {
  const out = new Set();
  for (const [k, v] of Object.entries(cat[which])) {
    if (k.startsWith("game.") || cat.en[k] === cat.zh[k]) continue;
    for (let piece of v.split(/\{\w+\}|\n/)) {
      piece = piece.trim().replace(/^[\s:：·(（,，]+|[\s:：·)）,，.。…]+$/g, "");
      if (which === "en" ? piece.length >= 5 && /[A-Za-z]{3,}/.test(piece) : (piece.match(/[\u3400-\u9fff]/g) || []).length >= 2) out.add(piece);
    }
  }
  return [...out];
}
const TELLS = { en: tells("en"), zh: tells("zh") };

// Whether `text` shows `piece` (English: as whole words, so "plane" is not found in "Aeroplane").
function shows(text, piece) {
  if (!/^[\x00-\x7f]*$/.test(piece)) return text.includes(piece);
  const esc = piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp("(^|[^A-Za-z])" + esc + "($|[^A-Za-z])").test(text);
}

// The page's visible text, without the board drawing (the Xiangqi pieces are Chinese by design)
// and the lab's own tables.
async function visibleText(page) {
  return page.evaluate(() => {
    const hide = [...document.querySelectorAll("#board, .mini, .lab-table, .lab-notes, .lab h3, .lab-chart, code")];
    const saved = hide.map((e) => [e, e.style.display]);
    for (const e of hide) e.style.display = "none";
    const text = document.body.innerText + "\n" + document.title;
    for (const [e, d] of saved) e.style.display = d;
    return text;
  });
}

async function ready(page, path) {
  await page.waitForFunction(() => typeof I18n !== "undefined" && !document.documentElement.classList.contains("i18n-pending"), null, { timeout: 20000 });
  if (path.startsWith("play/")) await page.waitForFunction(() => typeof ui !== "undefined" && ui.state && document.getElementById("board-svg"), null, { timeout: 30000, polling: 100 });
  if (path === "") await page.waitForSelector("#games .game-card");
  if (path === "lab") await page.waitForSelector("#lab section h2");
  if (path === "games") await page.waitForFunction(() => !/Loading|加载/.test(document.getElementById("rows").innerText));
}

const { child, url } = await startServer();
console.log("server at " + url);
let browser;
try {
  browser = await chromium.launch({ executablePath: chromePath, headless: true, args: launchArgs });

  // 1a. A Traditional Chinese browser (zh-TW, likewise zh-HK) gets the Traditional catalog: on
  // every page the Traditional form of the strings whose scripts differ, none of the Simplified.
  {
    const tw = JSON.parse(readFileSync(join(assets, "zh-TW.json"), "utf8"));
    const differ = Object.keys(tw).filter((k) => !k.startsWith("game.") && tw[k] !== cat.zh[k]);
    for (const locale of ["zh-TW", "zh-HK"]) {
      const ctx = await browser.newContext({ locale, viewport: { width: 1100, height: 900 } });
      const page = await ctx.newPage();
      const wrong = [];
      let seen = 0;
      for (const path of ["", "play/xiangqi", "games"]) {
        await page.goto(url + path, { waitUntil: "load" });
        await ready(page, path);
        const text = await visibleText(page);
        const lang = await page.evaluate(() => document.documentElement.lang);
        if (lang !== "zh-TW") wrong.push(`/${path}: <html lang=${lang}>`);
        for (const k of differ) {
          if (text.includes(tw[k])) seen++;
          else if ((cat.zh[k].match(/[\u3400-\u9fff]/g) || []).length >= 2 && !/\{/.test(cat.zh[k]) && text.includes(cat.zh[k])) wrong.push(`/${path}: Simplified '${cat.zh[k]}' (${k})`);
        }
      }
      record(`${locale}: the Traditional catalog on 3 pages, no Simplified string`, !wrong.length && seen >= 10,
        wrong.length ? wrong.slice(0, 8).join("; ") : `${seen} Traditional strings seen`);
      await ctx.close();
    }
  }

  // 1. Each locale, every page: none of the other language's strings visible.
  for (const [locale, mine, other] of [["zh-CN", "zh", "en"], ["en-US", "en", "zh"]]) {
    const ctx = await browser.newContext({ locale, viewport: { width: 1100, height: 900 } });
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => { if (m.type() === "error" && !/EventSource|Failed to load resource/.test(m.text())) errors.push(m.text()); });
    const leaks = [];
    let own = 0;
    let controls = 0;
    for (const path of PAGES) {
      await page.goto(url + path, { waitUntil: "load" });
      await ready(page, path);
      const text = await visibleText(page);
      const lang = await page.evaluate(() => document.documentElement.lang);
      if (lang !== (mine === "zh" ? "zh-CN" : "en")) leaks.push(`/${path}: <html lang=${lang}>`);
      for (const s of TELLS[other]) if (shows(text, s)) leaks.push(`/${path}: "${s}"`);
      own += TELLS[mine].filter((s) => shows(text, s)).length;
      await page.screenshot({ path: join(shots, `i18n-${locale}-${path.replace("/", "-") || "home"}.png`) });
      if (path === "") {
        // Control: a string of the other catalog put on the page is found.
        const planted = other === "en" ? cat.en["home.playFriend"] : cat.zh["home.playFriend"];
        await page.evaluate((x) => { const p = document.createElement("p"); p.id = "planted"; p.textContent = x; document.body.append(p); }, planted);
        const withPlant = await visibleText(page);
        if (!TELLS[other].some((s) => shows(withPlant, s))) leaks.push("control: a planted string was not found");
        else controls++;
      }
    }
    record(`${locale}: ${PAGES.length} pages show no ${other === "en" ? "English" : "Chinese"} catalog string`, !leaks.length && !errors.length && own > 20,
      leaks.length ? leaks.slice(0, 12).join("; ") : errors.length ? errors.join("; ") : `${own} strings of its own catalog seen, ${TELLS[other].length} of the other's looked for; control (one planted) found: ${controls === 1}`);
    await ctx.close();
  }

  // 2. The one-click flows on a 360 px touch phone (in Chinese).
  {
    const ctx = await browser.newContext({ locale: "zh-CN", viewport: { width: 360, height: 740 }, hasTouch: true, isMobile: true });
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(url, { waitUntil: "load" });
      await ready(page, "");
      await page.selectOption("#level", "2");          // chosen once, remembered
      await page.reload({ waitUntil: "load" });
      await ready(page, "");
      if (await page.inputValue("#level") !== "2") throw new Error("the level was not remembered");
      const t0 = Date.now();
      await page.tap("#play-ai-xiangqi");
      await page.waitForURL(/\/play\/xiangqi/);
      await ready(page, "play/xiangqi");
      const ms = Date.now() - t0;
      const st = await page.evaluate(() => ({ seats: ui.state.seats, ply: ui.state.ply, id: ui.state.id, human: mine(0) }));
      if (st.seats[0].kind !== "human" || st.seats[1].kind !== "ai" || st.seats[1].level !== 2 || !st.human)
        throw new Error("the game started is not me against the computer at level 2: " + JSON.stringify(st));
      await page.screenshot({ path: join(shots, "i18n-phone-computer.png") });
      // The API's error, said in Chinese by its code.
      await page.evaluate(() => play("a0a5"));
      const said = await page.evaluate(() => document.getElementById("info").textContent);
      if (said !== cat.zh["err.illegal_move"]) throw new Error("an illegal move is answered with " + JSON.stringify(said));
      record("360 px touch: one tap on 'play the computer' starts a game at the remembered level", true, `1 tap, board ready in ${ms} ms (not a timed assertion), ${JSON.stringify(st.seats)}; an illegal move: "${said}"`);

      // A move, so the game is unfinished, then back home: "continue" reopens the same game.
      const move = await page.evaluate(() => ui.state.legal.find((m) => m.text === "h2e2") || ui.state.legal[0]);
      for (const cell of move.path) await page.locator(`#board-svg [data-cell="${cell}"]`).tap({ force: true });
      await page.waitForFunction(() => ui.state.ply >= 1, null, { timeout: 30000, polling: 100 });
      await page.goto(url, { waitUntil: "load" });
      await page.reload({ waitUntil: "load" });
      await ready(page, "");
      await page.waitForSelector("#continue-xiangqi", { timeout: 10000 });
      await page.tap("#continue-xiangqi");
      await ready(page, "play/xiangqi");
      const again = await page.evaluate(() => ({ id: ui.state.id, ply: ui.state.ply }));
      if (again.id !== st.id || again.ply < 1) throw new Error(`continue opened ${JSON.stringify(again)}, not game ${st.id}`);
      record("360 px touch: the unfinished game is offered after a reload and continues", true, `game ${again.id} at ply ${again.ply}`);

      // The game ends (resigned): the home page now offers it for review instead of "continue".
      await page.evaluate(() => ui.game.resign({}));
      await page.goto(url, { waitUntil: "load" });
      await ready(page, "");
      await page.waitForSelector("#review-last-xiangqi", { timeout: 10000 });
      const offered = await page.evaluate(() => ({ href: document.getElementById("review-last-xiangqi").href, text: document.getElementById("review-last-xiangqi").textContent, cont: !!document.getElementById("continue-xiangqi") }));
      if (!offered.href.includes("review=1") || !offered.href.includes(st.id) || offered.cont) throw new Error("the finished game is offered as " + JSON.stringify(offered));
      await page.tap("#review-last-xiangqi");
      await ready(page, "play/xiangqi");
      const reviewed = await page.evaluate(() => ui.state.id);
      if (reviewed !== st.id) throw new Error(`the review link opened game ${reviewed}, not ${st.id}`);
      record("360 px touch: the last finished game is offered for review on the home page", true, `"${offered.text}"`);

      await page.goto(url, { waitUntil: "load" });
      await ready(page, "");
      await page.tap("#play-friend-checkers");
      await page.waitForSelector("#friend-link-checkers", { timeout: 10000 });
      const link = await page.inputValue("#friend-link-checkers");
      if (!/\/play\/checkers\?id=\w+&seat=1#token=\w+/.test(link)) throw new Error("the friend link is " + link);
      const r = await fetch(link.replace(/#.*/, "").replace(/\/play\/checkers\?id=(\w+).*/, "/api/games/$1"));
      const g = await r.json();
      if (g.seats[0].kind !== "human" || g.seats[1].kind !== "human" || g.hotseat) throw new Error("the friend game is " + JSON.stringify(g.seats));
      await page.screenshot({ path: join(shots, "i18n-phone-friend.png") });
      record("360 px touch: one tap on 'play a friend' shows the link to send", !errors.length, errors.length ? errors.join("; ") : link.replace(/#token=.*/, "#token=…"));
    } catch (e) {
      record("360 px touch flows", false, e.message + (errors.length ? " | " + errors.join("; ") : ""));
    }
    await ctx.close();
  }

  // 3. The switch is remembered across pages.
  {
    const ctx = await browser.newContext({ locale: "en-US" });
    const page = await ctx.newPage();
    try {
      await page.goto(url, { waitUntil: "load" });
      await ready(page, "");
      await page.click('#lang-switch [data-lang="zh-CN"]');
      await page.waitForLoadState("load");
      await ready(page, "");
      const seen = [];
      let title = "";
      for (const path of ["", "lab", "play/checkers", "games"]) {
        await page.goto(url + path, { waitUntil: "load" });
        await ready(page, path);
        seen.push(await page.evaluate(() => document.documentElement.lang + ":" + document.querySelector('#lang-switch [aria-pressed="true"]').dataset.lang));
        if (path === "play/checkers") title = await page.evaluate(() => document.getElementById("title").textContent);
      }
      await page.click('#lang-switch [data-lang="en"]');
      await page.waitForLoadState("load");
      await ready(page, "games");
      const back = await page.evaluate(() => document.documentElement.lang);
      const ok = seen.every((s) => s === "zh-CN:zh-CN") && title === cat.zh["game.checkers"] && back === "en";
      record("the language switch is remembered across pages", ok, `${seen.join(" ")}; play title ${title}; switched back: ${back}`);
    } catch (e) {
      record("the language switch is remembered across pages", false, e.message);
    }
    await ctx.close();
  }
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
