// The puzzle page (/puzzles/{game}): the play page's board (boards.js, drawn and clicked by
// app.js's drawBoard/clickCell, keys and typed moves included) over the states the puzzle API
// sends for every step of a puzzle's line. A move chosen on the board comes to judge() instead
// of the server: the right one is played and the forced reply follows after a short delay, a
// wrong one is marked and the position stays. One attempt per puzzle is reported (the first
// wrong move, the solution shown, or the puzzle solved), which moves the player's rating.
//
// With `?mistakes=1` the page is in its "my mistakes" mode: the personal puzzles the review page
// made of a player's mistakes and blunders (kept in localStorage as `qiyi-mistakes-GAME`), one
// after another, not rated. The review's best move is right at once; any other move is judged by
// the review's judge (backend.checkMistake), right when it classes the move best or good; a wrong
// one shows what the review said about the move played.
"use strict";

const Puz = {
  summary: null,     // GET /api/puzzles/{game}
  puzzle: null,      // the puzzle being played, with its steps
  step: 0,           // index into puzzle.solution of the next move
  failed: false,     // a wrong move was tried
  hinted: false,     // the hint was used
  reported: false,   // the attempt was sent
  done: false,       // the line is played out
  refuted: 0,        // wrong moves whose refutation was shown
  mine: null,        // "my mistakes" mode: { set, index } (the set as the review page kept it)
};

// The player at the bottom of the board when not flipped (the side to move goes to the bottom).
const BOTTOM = { xiangqi: 0, checkers: 1 };
const DELAY = 600;
const wait = (ms) => new Promise((r) => setTimeout(r, ms));

// The puzzle API under /api/puzzles/{game}: the server's, or the static site's in the browser
// (backend.js).
function api(path, body) { return backend.puzzles(game, path, body); }

// A theme's name in the page's language: the game's own word first (`theme.xiangqi.capture`
// is 吃子, where aeroplane chess's capture is 撞机), then the theme's shared one, then the tag.
function themeName(x) { return I18n.maybe("theme." + game + "." + x, I18n.maybe("theme." + x, x)); }

function say(text) { $("said").textContent = text; }

function verdict(text, kind) {
  const v = $("verdict");
  v.textContent = text;
  v.className = "puz-verdict" + (kind ? " " + kind : "");
}

// The goal as the puzzle file words it, in the page's language when its shape is known.
function goalText(goal) {
  if (!goal) return "";
  if (goal === "find the better move") return t("puz.goal.better");
  if (goal === "win material") return t("puz.goal.material");
  if (goal === "decisive advantage") return t("puz.goal.decisive");
  let m;
  if ((m = /^mate in (\d+)$/.exec(goal))) return t("puz.goal.mate", { n: Number(m[1]) });
  if ((m = /^win (\d+) pieces? in (\d+) moves?$/.exec(goal))) return t("puz.goal.winPieces", { pieces: Number(m[1]), n: Number(m[2]) });
  if ((m = /^win in (\d+) moves?$/.exec(goal))) return t("puz.goal.win", { n: Number(m[1]) });
  if ((m = /^home in (\d+) moves?, moving alone$/.exec(goal))) return t("puz.goal.home", { n: Number(m[1]) });
  if ((m = /^one peg in ([a-z]\d+)$/.exec(goal))) return t("puz.goal.peg", { hole: m[1] });
  if ((m = /^you rolled (\d): move the plane that wins most often$/.exec(goal))) return t("puz.goal.plane", { roll: Number(m[1]) });
  return goal;
}

function rating(r) { return I18n.num(Math.round(r.rating)) + " ± " + I18n.num(Math.round(2 * r.deviation)); }

function showRating(r, before) {
  $("my-rating").textContent = rating(r);
  const d = before ? Math.round(r.rating - before.rating) : 0;
  $("my-delta").textContent = d ? (d > 0 ? "+" : "") + I18n.num(d) : "";
}

// Shows step i of the line: the board as it stands before solution[i] (or after the last move).
function show(i) {
  const p = Puz.puzzle;
  const step = p.steps[i];
  // Every seat is the player's (the die's note on the aeroplane board reads the seats).
  ui.state = Object.assign({ seats: (step.player_names || []).map(() => ({ kind: "human" })) }, step);
  ui.sel = []; ui.hint = null; ui.wrong = null;
  drawBoard();
  // Aeroplane: the die with the roll the puzzle gives.
  if (game === "aeroplane" && board.extra) board.extra($("extra"), ui.state, ui);
  const ol = $("moves");
  ol.innerHTML = "";
  p.solution.slice(0, i).forEach((mv, k) => {
    const li = document.createElement("li");
    const h = p.steps[k + 1].history;
    const entry = h.length ? h[h.length - 1] : { text: mv, path: [] };
    li.textContent = entryText(entry, ui.state);
    ol.append(li);
  });
  const s = ui.state;
  // The player is asked at the steps of `asked`; the other steps are the forced replies.
  const toFind = !Puz.done && p.asked.includes(i) && s.turn.kind === "player";
  const ask = game === "aeroplane" ? "puz.whichPlane" : "puz.toMove";
  $("status").textContent = toFind ? t(ask, { player: playerName(s.turn.player), roll: s.view && s.view.roll }) : "";
  $("hint").disabled = !toFind || ui.busy;
  $("solution").disabled = Puz.done || ui.busy;
  $("move-play").disabled = !toFind || ui.busy;
  const ex = (s.legal || [])[0];
  $("move-input").placeholder = ex ? t("play.moveInputHint", { example: ex.text }) : "";
}

// Sends the attempt once: solved (no wrong move, no solution shown) or not.
async function report(solved) {
  if (Puz.reported || Puz.mine) return;
  Puz.reported = true;
  try {
    const a = await api(`/${encodeURIComponent(Puz.puzzle.id)}/attempt`, { solved, hinted: Puz.hinted });
    showRating(a.player, a.player_before);
    $("puzzle-rating").textContent = rating(a.puzzle);
  } catch (e) { note(I18n.error(e)); }
}

// Plays the moves the player is not asked for (the forced replies), one after another.
async function advance() {
  const p = Puz.puzzle;
  ui.busy = true;
  while (Puz.step < p.solution.length && !p.asked.includes(Puz.step)) {
    await wait(DELAY);
    if (p !== Puz.puzzle) return;
    Puz.step++;
    show(Puz.step);
    const h = ui.state.history;
    if (h.length) say(t("puz.reply", { move: entryText(h[h.length - 1], ui.state) }));
  }
  ui.busy = false;
  if (Puz.step >= p.solution.length) return finish();
  show(Puz.step);
}

// The proof's numbers, in words: each choice's exact win chance (aeroplane), best first.
function explain() {
  const c = Puz.puzzle && Puz.puzzle.chances;
  if (!c) { $("explain").textContent = ""; return; }
  const list = Object.entries(c).sort((a, b) => b[1] - a[1])
    .map(([k, v]) => t("puz.chanceOf", { move: entryText({ text: k, path: [], player: 0 }, ui.state), pct: I18n.num(Number((100 * v).toFixed(1))) }));
  $("explain").textContent = t("puz.chances", { list: list.join(t("puz.listSep")) });
}

function finish() {
  Puz.done = true;
  ui.busy = false;
  show(Puz.puzzle.solution.length);
  const solved = !Puz.failed && !Puz.shown;
  const text = solved ? t("puz.solved") : t("puz.finished");
  verdict(text, solved ? "good" : "");
  say(text);
  report(solved);
  explain();
  if (Puz.mine) $("explain").textContent = t("puz.mine.said", { played: Puz.puzzle.mistake.played, loss: pctOf(Puz.puzzle.mistake.loss), best: Puz.puzzle.mistake.best });
  $("next").focus();
}

// A move chosen on the board or typed: the right one is played, a wrong one marked.
function judge(text) {
  const p = Puz.puzzle;
  if (!p || Puz.done || ui.busy) return;
  const want = p.solution[Puz.step];
  if (Puz.mine && text !== want) { judgeMine(text); return; }
  if (text === want) {
    Puz.step++;
    verdict(t("puz.right"), "good");
    say(t("puz.right"));
    show(Puz.step);
    advance();
    return;
  }
  const m = (ui.state.legal || []).find((x) => x.text === text);
  Puz.failed = true;
  report(false);
  verdict(t("puz.wrong", { move: m ? entryText(m, ui.state) : text }), "bad");
  say(t("puz.wrong", { move: m ? entryText(m, ui.state) : text }));
  ui.sel = []; ui.hint = null;
  ui.wrong = m ? m.path : null;
  drawBoard();
  if (m) refutation(text, entryText(m, ui.state), m.path);
}

// What the wrong move allows, as the server's judge sees it: in words, and for Xiangqi and
// checkers the move and the reply played on the board, then taken back.
async function refutation(text, label, path) {
  const p = Puz.puzzle, step = Puz.step;
  let r;
  ui.busy = true;
  try {
    r = await api(`/${encodeURIComponent(p.id)}/refute`, { step, move: text });
  } catch (e) {
    ui.busy = false;
    note(I18n.error(e));
    return;
  }
  if (p !== Puz.puzzle) return;
  if (r.right) { ui.busy = false; return; }
  const pct = (x) => I18n.num(Number((100 * x).toFixed(1)));
  let words = "";
  if (r.kind === "reply") {
    const after = r.states[r.states.length - 1];
    const reply = after.history[after.history.length - 1];
    const replyText = reply ? entryText(reply, after) : r.reply;
    words = game === "xiangqi" ? t("puz.refute.mate", { move: label, reply: replyText, n: r.moves_left })
      : t("puz.refute.shot", { move: label, reply: replyText });
  } else if (r.kind === "no-finish") words = t("puz.refute.noFinish", { move: label });
  else if (r.kind === "too-slow") words = t("puz.refute.tooSlow", { move: label, n: r.moves_left });
  else if (r.kind === "chance" && r.chance != null && r.best_chance != null) {
    words = t("puz.refute.chance", { move: label, pct: pct(r.chance), bestPct: pct(r.best_chance) });
  }
  $("explain").textContent = words;
  if (words) say(words);
  // The move and the reply on the board, then the position back as it was.
  for (const st of r.states) {
    await wait(DELAY);
    if (p !== Puz.puzzle) return;
    ui.state = Object.assign({ seats: [] }, st);
    ui.wrong = null;
    drawBoard();
  }
  if (r.states.length) {
    await wait(DELAY);
    if (p !== Puz.puzzle) return;
  }
  ui.busy = false;
  show(Puz.step);
  ui.wrong = path;   // the refused move stays marked
  drawBoard();
  Puz.refuted++;
}

const pctOf = (x) => I18n.num(Number((100 * x).toFixed(1)));

// "My mistakes": a move other than the review's best, given to the review's judge.
async function judgeMine(text) {
  const p = Puz.puzzle, m = p.mistake;
  const opt = (ui.state.legal || []).find((x) => x.text === text);
  const label = opt ? entryText(opt, ui.state) : text;
  ui.busy = true;
  verdict(t("puz.mine.checking", { move: label }), "");
  let v;
  try {
    v = await backend.checkMistake(game, { position: p.position, answer: text, best: p.solution[0], played: m.played, depth: m.depth });
  } catch (e) {
    ui.busy = false;
    verdict("", "");
    note(I18n.error(e));
    return;
  }
  if (p !== Puz.puzzle) return;
  ui.busy = false;
  const cls = v.class ? I18n.maybe("review.class." + v.class, v.class) : "";
  if (v.right) {
    Puz.done = true;
    verdict(t("puz.mine.alsoGood", { move: label, cls }), "good");
    say(t("puz.mine.alsoGood", { move: label, cls }));
    $("explain").textContent = t("puz.mine.best", { best: m.best });
    show(Puz.step);
    $("next").focus();
    return;
  }
  Puz.failed = true;
  const words = t("puz.wrong", { move: label }) + (v.judged && cls ? " (" + cls + ")" : "");
  verdict(words, "bad");
  say(words);
  $("explain").textContent = t("puz.mine.said", { played: m.played, loss: pctOf(m.loss), best: m.best });
  ui.sel = []; ui.hint = null;
  ui.wrong = opt ? opt.path : null;
  drawBoard();
}

function hint() {
  const p = Puz.puzzle;
  if (!p || Puz.done || ui.busy) return;
  const m = (ui.state.legal || []).find((x) => x.text === p.solution[Puz.step]);
  if (!m) return;
  Puz.hinted = true;
  ui.wrong = null;
  ui.hint = [m.path[0]];
  drawBoard();
  const text = game === "aeroplane" ? t("puz.hintPlane", { plane: m.text }) : t("puz.hintIs", { cell: m.path[0] });
  note(text);
  say(text);
}

async function solution() {
  const p = Puz.puzzle;
  if (!p || Puz.done || ui.busy) return;
  Puz.shown = true;
  report(false);
  ui.busy = true;
  while (Puz.step < p.solution.length) {
    Puz.step++;
    show(Puz.step);
    await wait(DELAY);
    if (p !== Puz.puzzle) return;
  }
  finish();
}

function setPuzzle(p) {
  Object.assign(Puz, { puzzle: p, step: 0, failed: false, hinted: false, shown: false, reported: false, done: false, refuted: 0 });
  ui.busy = false;
  const first = p.steps[0];
  ui.flipped = !!board.flippable && first.turn.kind === "player" && BOTTOM[game] !== undefined && first.turn.player !== BOTTOM[game];
  $("goal").textContent = goalText(p.goal);
  $("puzzle-id").textContent = Puz.mine ? t("puz.mine.count", { n: I18n.num(Puz.mine.index + 1), total: I18n.num(Puz.mine.set.puzzles.length) })
    : p.id + (p.daily ? " · " + t("puz.dailyOf", { date: p.daily }) : "");
  $("puzzle-rating").textContent = rating(p.rating);
  $("puzzle-themes").textContent = p.themes.map((x) => (Puz.mine ? I18n.maybe("review.class." + x, x) : themeName(x))).join(", ");
  verdict("", "");
  note("");
  $("explain").textContent = "";
  const q = new URLSearchParams(location.search);
  q.delete("daily");
  q.set("id", p.id);
  history.replaceState(null, "", "?" + q);
  show(0);
  advance();
}

async function load(path) {
  try {
    setPuzzle(await api(path));
  } catch (e) { note(I18n.error(e)); }
}

function nextPuzzle() {
  if (Puz.mine) {
    const list = Puz.mine.set.puzzles;
    Puz.mine.index = (Puz.mine.index + 1) % list.length;
    setPuzzle(list[Puz.mine.index]);
    return;
  }
  const q = new URLSearchParams();
  const theme = $("theme").value;
  if (theme) q.set("theme", theme);
  if (Puz.puzzle) q.set("after", Puz.puzzle.id);
  load("/next" + (q.toString() ? "?" + q : ""));
}

function gameLinks() {
  const ul = $("game-links");
  for (const g of ["xiangqi", "checkers", "chinese-checkers", "peg-solitaire", "aeroplane"]) {
    if (g === game) continue;
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = backend.site.puzzles(g);
    a.textContent = I18n.maybe("game." + g, g);
    li.append(a);
    ul.append(li);
  }
}

async function puzzleMain() {
  await I18n.ready;
  const name = I18n.maybe("game." + game, game);
  $("title").textContent = t("puz.title", { game: name });
  document.title = t("puz.doctitle") + " — " + name;
  ui.token = "puzzle";       // app.js lets a page with a token move
  ui.onMove = judge;
  $("piece-style-row").hidden = !board.pieceStyles;
  $("coords-row").hidden = !board.coords;
  initSettings();
  $("board").addEventListener("keydown", onBoardKey);
  $("move-form").addEventListener("submit", (ev) => {
    // Aeroplane: a plane may be typed by its number (1..4) as well as its letter (a..d).
    const input = $("move-input");
    if (game === "aeroplane" && /^\s*[1-4]\s*$/.test(input.value)) input.value = "abcd"[Number(input.value.trim()) - 1];
    onMoveTyped(ev);
  });
  $("hint").addEventListener("click", hint);
  $("solution").addEventListener("click", solution);
  $("next").addEventListener("click", nextPuzzle);
  $("theme").addEventListener("change", nextPuzzle);
  // The link keeps the page's own query (the static site names the game in it: ?game=G), so
  // opened in a new tab it shows the same game's puzzle of the day.
  const dq = new URLSearchParams(location.search);
  for (const k of ["id", "theme", "mistakes"]) dq.delete(k);
  dq.set("daily", "1");
  $("daily").href = "?" + dq;
  $("daily").addEventListener("click", (ev) => { ev.preventDefault(); load("/daily"); });
  gameLinks();
  if (new URLSearchParams(location.search).has("mistakes")) return mineMain(name);
  try {
    Puz.summary = await api("");
  } catch (e) {
    $("title").textContent = t("play.unknownGame", { game });
    note(I18n.error(e));
    return;
  }
  const sel = $("theme");
  for (const th of Puz.summary.themes) {
    const o = document.createElement("option");
    o.value = th.theme;
    o.textContent = t("puz.themeCount", { theme: themeName(th.theme), count: th.count });
    sel.append(o);
  }
  showRating(Puz.summary.player);
  const q = new URLSearchParams(location.search);
  if (q.get("theme")) sel.value = q.get("theme");
  if (q.has("daily")) await load("/daily");
  else if (q.get("id")) await load("/" + encodeURIComponent(q.get("id")));
  else nextPuzzle();
}

// The "my mistakes" mode: the personal puzzles this browser keeps for the game, not rated.
function mineMain(name) {
  $("title").textContent = t("puz.mine.title", { game: name });
  for (const e of document.querySelectorAll(".puz-rated")) e.hidden = true;
  $("mine-note").hidden = false;
  let set = null;
  try { set = JSON.parse(localStorage.getItem("qiyi-mistakes-" + game) || "null"); } catch (e) { set = null; }
  if (!set || !Array.isArray(set.puzzles) || !set.puzzles.length) {
    $("mine-note").textContent = t("puz.mine.none");
    for (const id of ["hint", "solution", "next"]) $(id).disabled = true;
    return;
  }
  $("mine-side").textContent = t("puz.mine.side", { player: set.side_name });
  const id = new URLSearchParams(location.search).get("id");
  const at = Math.max(0, set.puzzles.findIndex((p) => p.id === id));
  Puz.mine = { set, index: at };
  setPuzzle(set.puzzles[at]);
}

puzzleMain();
