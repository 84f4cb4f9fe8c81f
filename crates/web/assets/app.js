// The play page: one controller for every game. The board drawing is in boards.js.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);
const game = backend.site.game();
const board = Boards[game] || Boards.generic;

const ui = {
  catalog: null,
  id: null,
  state: null,
  sel: [],          // cells clicked so far for the move being entered
  busy: false,      // a request (AI, solve, animation) is running
  flipped: false,
  hint: null,       // path of the hinted move
  gen: 0,           // bumps on every new game so stale AI answers are dropped
  token: null,      // this page's seat token (hot-seat: every seat), from its link or creation
  game: null,       // the back end's handle on this game (backend.js), made with the token
  task: null,       // the running AI search or solver (a Backend Task), to stop it
  seat: null,       // the seat this page plays in a link game (null: every human seat / none)
  live: null,       // the game's live event stream (online.js)
  alias: {},        // cell -> the cell a tap on it stands for (pieces that are one move)
  heard: null,      // { id, n, over }: the game, moves and end already announced and sounded
  cells: {},        // cell -> [x, y] of the board drawn last
  cursor: null,     // the keyboard's cell on the board (arrow keys move it, Enter taps it)
  pending: null,    // a move tapped on a touch screen, waiting for its confirmation (Prefs.confirmTouch)
  pointer: null,    // the pointer type ("touch", "mouse", "pen") of the last press on the board
  onMove: null,     // the puzzle page's judge of a chosen move (instead of playing it on the server)
  wrong: null,      // the puzzle page: cells of a refused move, marked
};

function note(text) { $("info").textContent = text; }

function seatOf(player) {
  const s = ui.state && ui.state.seats[player];
  return s ? s.kind : "human";
}

// Whether this page may move for player p: a human seat this page holds.
function mine(p) {
  if (seatOf(p) !== "human" || !ui.token) return false;
  return ui.seat === null || ui.seat === p;
}

// A player's name as the server gives it ("Red 红", "green"), in the page's language when the
// catalog knows it.
function nameOf(raw) {
  const key = "player." + String(raw).replace(/[^A-Za-z ]/g, "").trim().toLowerCase().replace(/ +/g, "-");
  return I18n.maybe(key, raw);
}

function playerName(p) {
  const names = ui.state.player_names || [];
  return names[p] ? nameOf(names[p]) : t("play.playerN", { n: p + 1 });
}

// The level of the AI seats of a new game: the address's ?level=N, else the level chosen on the
// home page (remembered), else 3.
function urlLevel() {
  let l = Number(new URLSearchParams(location.search).get("level"));
  if (!(l >= 1 && l <= 10)) { try { l = Number(localStorage.getItem("qiyi-ai-level")); } catch (e) { l = 0; } }
  return l >= 1 && l <= 10 ? String(l) : "3";
}

// Keeps the id of this browser's unfinished game of this kind, for the home page's "continue".
function rememberUnfinished(s) {
  try {
    const key = "qiyi-unfinished-" + game;
    if (s.turn.kind === "over" || s.result) { if (localStorage.getItem(key) === s.id) localStorage.removeItem(key); }
    else if (ui.token && s.id) localStorage.setItem(key, s.id);
  } catch (e) { /* no storage */ }
}

// ---- setup form -------------------------------------------------------------------------------

function seatCount() {
  const entry = ui.catalog;
  const sel = document.querySelector('#options [data-key="players"]');
  if (sel) return Number(sel.value);
  return (board.players && board.players(entry)) || 2;
}

function buildOptions() {
  const box = $("options");
  box.innerHTML = "";
  for (const opt of ui.catalog.options) {
    const label = document.createElement("label");
    label.textContent = I18n.maybe("opt." + opt.key, opt.label) + " ";
    if (!opt.choices.length) {
      const input = document.createElement("input");
      input.dataset.key = opt.key;
      input.className = "rule-text";
      input.value = opt.default;
      input.size = 8;
      label.append(input);
      box.append(label);
      continue;
    }
    const sel = document.createElement("select");
    sel.dataset.key = opt.key;
    for (const c of opt.choices) {
      const o = document.createElement("option");
      o.value = JSON.stringify(c);
      o.textContent = typeof c === "string" ? I18n.maybe("choice." + opt.key + "." + c, c) : typeof c === "boolean" ? t(c ? "common.yes" : "common.no") : typeof c === "number" ? I18n.num(c) : JSON.stringify(c);
      if (JSON.stringify(c) === JSON.stringify(opt.default)) o.selected = true;
      sel.append(o);
    }
    sel.addEventListener("change", buildSeats);
    label.append(sel);
    box.append(label);
  }
  buildSeats();
}

function ruleValues() {
  const rules = {};
  for (const sel of document.querySelectorAll("#options select")) rules[sel.dataset.key] = JSON.parse(sel.value);
  for (const inp of document.querySelectorAll("#options input.rule-text")) rules[inp.dataset.key] = inp.value.trim();
  return rules;
}

function buildSeats() {
  const box = $("seats");
  const old = [...box.querySelectorAll(".seat-row")].map((r) => [r.querySelector(".kind").value, r.querySelector(".level").value]);
  box.innerHTML = "";
  const rules = ruleValues();
  const n = rules.players || (board.players ? board.players(rules) : 2);
  const names = board.seatNames ? board.seatNames(n, rules) : [];
  for (let p = 0; p < n; p++) {
    const row = document.createElement("div");
    row.className = "seat-row";
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = names[p] ? nameOf(names[p]) : t("play.playerN", { n: p + 1 });
    const kind = document.createElement("select");
    kind.className = "kind";
    kind.id = "seat-" + p;
    for (const v of ["human", "ai", "seed"]) {
      const o = document.createElement("option");
      o.value = v; o.textContent = t("play.seat." + v); kind.append(o);
    }
    const level = document.createElement("select");
    level.className = "level";
    for (let l = 1; l <= 10; l++) {
      const o = document.createElement("option");
      o.value = l; o.textContent = t("common.level", { level: l }); level.append(o);
    }
    kind.value = old[p] ? old[p][0] : (p === 0 ? "human" : "ai");
    level.value = old[p] ? old[p][1] : urlLevel();
    const who = name.textContent;
    kind.setAttribute("aria-label", t("play.seatKind", { player: who }));
    level.setAttribute("aria-label", t("play.seatLevel", { player: who }));
    row.append(name, kind, level);
    box.append(row);
  }
}

function seatsFromForm() {
  return [...document.querySelectorAll("#seats .seat-row")].map((r) => {
    const kind = r.querySelector(".kind").value;
    if (kind === "ai") return { kind: "ai", level: Number(r.querySelector(".level").value) };
    return { kind };
  });
}

// ---- game flow --------------------------------------------------------------------------------

// Stops the running AI search or solver, if any; its answer is dropped (`ui.gen` moved on).
function stopTask() {
  if (ui.task) ui.task.stop();
  ui.task = null;
  ui.busy = false;
  $("thinking").hidden = true;
}

async function newGame(position) {
  ui.gen++;
  stopTask();
  ui.sel = []; ui.hint = null;
  const body = { game, seats: seatsFromForm(), rules: ruleValues(), seed: Number($("seed").value) || 0 };
  if (position) body.position = position;
  body.hotseat = Online.mode() === "here";
  const clock = Online.clockSetting();
  if (clock && seatsFromForm().length === 2) body.clock = clock;
  try {
    const data = await backend.create(body);
    ui.id = data.id;
    Online.created(data);
    setState(data.state);
    note("");
    maybeAi();
  } catch (e) {
    note(t("play.cannotStart", { error: I18n.error(e) }));
  }
}

function setState(state) {
  // A request's answer can arrive after a newer state from the live stream: keep the newest.
  if (ui.state && state.id === ui.state.id && state.version < ui.state.version && !ui.replay) return;
  ui.state = state;
  ui.sel = [];
  if (ui.pending) { ui.pending = null; showPending(); }
  rememberUnfinished(state);
  render();
}

function lastEntry() {
  // The last move with cells to highlight (die rolls have none).
  const h = ui.state.history;
  for (let i = h.length - 1; i >= 0; i--) if (h[i].path.length) return h[i];
  return null;
}

function render() {
  const s = ui.state;
  if (!s) return;
  // The server describes the rules and engines in English; in another language the catalog's
  // summary of the game's rules stands in for it.
  $("rules").textContent = I18n.lang === "en" ? s.rules : I18n.maybe("rules." + game, s.rules);
  $("engines").textContent = I18n.lang === "en" ? s.engines.join(" · ") : t("play.engines");
  $("position").value = s.position;
  // status
  if (s.turn.kind === "over") {
    $("status").textContent = t("play.gameOver");
  } else if (s.turn.kind === "player") {
    const p = s.turn.player;
    $("status").textContent = t(seatOf(p) === "human" ? "play.toMove" : "play.toMoveAi", { player: playerName(p) });
  }
  // banner
  const banner = $("banner");
  if (s.result) {
    const w = s.result.winner;
    const head = w === null || w === undefined ? t("play.draw") : t("play.wins", { player: playerName(w) });
    banner.textContent = I18n.lang === "en" ? head + " — " + s.result.reason : head;
    banner.title = s.result.reason;
    banner.hidden = false;
  } else {
    banner.hidden = true;
  }
  // moves
  const ol = $("moves");
  ol.innerHTML = "";
  s.history.forEach((h, i) => {
    const li = document.createElement("li");
    const who = h.player === null ? "" : t("play.moveBy", { player: playerName(h.player) });
    li.textContent = who + (board.moveText ? board.moveText(h, s) : (h.label ? h.label + "  " + h.text : h.text));
    if (h.player === null) li.className = "chance";
    if (h === lastEntry()) li.classList.add("last");
    ol.append(li);
  });
  ol.scrollTop = ol.scrollHeight;
  announce(s);
  // buttons
  const humanTurn = s.turn.kind === "player" && mine(s.turn.player);
  $("undo").disabled = ui.busy || !s.history.some((h) => h.player !== null);
  $("hint").disabled = ui.busy || !humanTurn;
  $("ai-move").disabled = ui.busy || s.turn.kind !== "player" || !((s.hotseat && ui.token) || mine(s.turn.player));
  $("solve").disabled = ui.busy || s.turn.kind !== "player";
  drawBoard();
  const ex = (s.legal || [])[0];
  $("move-input").placeholder = ex ? t("play.moveInputHint", { example: ex.text }) : "";
  $("move-play").disabled = !humanTurn || ui.busy || !!ui.replay;
  if (board.extra) board.extra($("extra"), s, ui);
  Online.render(s);
  if (typeof Review !== "undefined") Review.render();
  if (typeof Analysis !== "undefined") Analysis.render();
}

// The text of a history entry as the move list shows it, without the player.
function entryText(h, s) {
  return board.moveText ? board.moveText(h, s) : (h.label ? h.label + "  " + h.text : h.text);
}

// The number of pieces in a FEN-like position's first field (letters), or null.
function pieceCount(position) {
  const field = String(position || "").split(" ")[0];
  return /\//.test(field) ? (field.match(/[A-Za-z]/g) || []).length : null;
}

// Says the moves played since the last render in the polite live region (#said), and plays the
// move, capture, check (Xiangqi: the view names the king in check) or end sound (sound.js; off
// unless switched on). The first render of a game only
// takes note of where it stands. A capture: "x" in the move's text (PDN) or fewer pieces in a
// FEN-like position than before.
function announce(s) {
  const prev = ui.heard;
  const over = s.turn.kind === "over" || !!s.result;
  ui.heard = { id: s.id, n: s.history.length, over, pieces: pieceCount(s.position) };
  if (!prev || prev.id !== s.id || ui.replay) return;
  const fresh = s.history.slice(prev.n);
  if (fresh.length > 0 && fresh.length <= 4) {
    const said = fresh.map((h) => h.player === null
      ? t("play.saidChance", { move: entryText(h, s) })
      : t("play.said", { player: playerName(h.player), move: entryText(h, s) }));
    if (over && !prev.over) said.push($("banner").hidden ? t("play.gameOver") : $("banner").textContent);
    $("said").textContent = said.join(". ");
    const captured = fresh.some((h) => /x/.test(h.text)) || (prev.pieces !== null && ui.heard.pieces !== null && ui.heard.pieces < prev.pieces);
    const check = !!(s.view && s.view.check);
    Sound.play(over && !prev.over ? "end" : check ? "check" : captured ? "capture" : "move");
  } else if (over && !prev.over) {
    $("said").textContent = $("banner").hidden ? t("play.gameOver") : $("banner").textContent;
    Sound.play("end");
  }
}

// The move typed in the box (#move-input): the legal move whose text (ICCS for Xiangqi, PDN
// numbers for checkers, the cells of the others), label (Chinese notation) or move-list text
// matches, case and spaces ignored; played through play(), the path a click takes.
function typedMove(raw) {
  const norm = (x) => String(x || "").replace(/\s+/g, "").toLowerCase();
  const want = norm(raw);
  if (!want || !ui.state) return null;
  const s = ui.state;
  return (s.legal || []).find((m) => norm(m.text) === want || (m.label && norm(m.label) === want)
    || norm(entryText(m, s)) === want || norm(m.path.join("-")) === want) || null;
}

function onMoveTyped(ev) {
  ev.preventDefault();
  const input = $("move-input");
  const s = ui.state;
  if (!s || ui.busy || ui.replay || s.turn.kind !== "player" || !mine(s.turn.player)) return;
  const m = typedMove(input.value);
  if (!m) { note(t("play.notLegal", { move: input.value.trim() })); return; }
  input.value = "";
  play(m.text);
}

function drawBoard() {
  const s = ui.state;
  const d = board.draw(s, ui);   // { width, height, body (svg markup), cells: {id: [x, y]}, r }
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${d.width} ${d.height}`);
  svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
  svg.id = "board-svg";
  let overlay = "";
  const at = (id) => d.cells[id];
  const r = d.r;
  const rad = (id) => (d.radii && d.radii[id]) || r;
  ui.alias = d.alias || {};
  const last = lastEntry();
  if (last) {
    last.path.forEach((c, i) => {
      const p = at(c);
      if (p) overlay += `<circle class="${i === 0 && last.path.length > 1 ? "last-from" : "last-to"}" cx="${p[0]}" cy="${p[1]}" r="${rad(c) * 0.95}"/>`;
    });
    if (last.path.length > 2 && board.showPath !== false) {
      const pts = last.path.map(at).filter(Boolean).map((p) => p.join(",")).join(" ");
      overlay += `<polyline class="path-line" points="${pts}"/>`;
    }
  }
  const under = board.under ? board.under(s, d) : "";
  let marks = "";
  const legal = s.legal || [];
  const humanTurn = s.turn.kind === "player" && mine(s.turn.player) && !ui.busy && !ui.replay;
  if (humanTurn && ui.pending) {
    // The tapped move waiting for its confirmation: its cells marked, nothing else offered.
    for (const c of ui.pending.path) {
      const q = at(c);
      if (q) marks += `<circle class="pending" cx="${q[0]}" cy="${q[1]}" r="${rad(c) * 1.05}"/>`;
    }
    if (ui.pending.path.length > 1) {
      const pts = ui.pending.path.map(at).filter(Boolean).map((q) => q.join(",")).join(" ");
      marks += `<polyline class="path-line pending-line" points="${pts}"/>`;
    }
  } else if (humanTurn) {
    const matches = legal.filter((m) => startsWith(m.path, ui.sel));
    if (ui.sel.length) {
      const p = at(ui.sel[ui.sel.length - 1]);
      if (p) marks += `<circle class="sel" cx="${p[0]}" cy="${p[1]}" r="${rad(ui.sel[ui.sel.length - 1]) * 1.05}"/>`;
      if (ui.sel.length > 1) {
        const pts = ui.sel.map(at).filter(Boolean).map((q) => q.join(",")).join(" ");
        marks += `<polyline class="path-line" points="${pts}"/>`;
      }
      const next = new Set(matches.filter((m) => m.path.length > ui.sel.length).map((m) => m.path[ui.sel.length]));
      for (const c of next) {
        const q = at(c);
        if (q) marks += `<circle class="dot" data-dot="${c}" cx="${q[0]}" cy="${q[1]}" r="${r * 0.35}"/>`;
      }
    } else if (board.markMovable) {
      for (const c of new Set(legal.map((m) => m.path[0]))) {
        const q = at(c);
        if (q) marks += `<circle class="movable" cx="${q[0]}" cy="${q[1]}" r="${rad(c) * 1.05}"/>`;
      }
    } else {
      // placement games: every playable cell gets a dot
      for (const m of legal.filter((m) => m.path.length === 1)) {
        const q = at(m.path[0]);
        if (q) marks += `<circle class="dot" data-dot="${m.path[0]}" cx="${q[0]}" cy="${q[1]}" r="${r * 0.3}"/>`;
      }
    }
  }
  ui.cells = d.cells;
  if (ui.cursor && d.cells[ui.cursor]) {
    const q = d.cells[ui.cursor];
    marks += `<circle class="cursor" cx="${q[0]}" cy="${q[1]}" r="${rad(ui.cursor) * 1.15}"/>`;
  }
  if (ui.wrong) {
    // A move the puzzle page refused: its cells marked (the position itself is unchanged).
    for (const c of ui.wrong) {
      const q = at(c);
      if (q) marks += `<circle class="wrong-mark" cx="${q[0]}" cy="${q[1]}" r="${rad(c) * 1.1}"/>`;
    }
  }
  if (ui.hint) {
    for (const c of ui.hint) {
      const q = at(c);
      if (q) marks += `<circle class="hint-mark" cx="${q[0]}" cy="${q[1]}" r="${rad(c) * 1.1}"/>`;
    }
  }
  let hits = "";
  for (const [id, p] of Object.entries(d.cells)) {
    const tip = d.tips && d.tips[id] ? `<title>${d.tips[id]}</title>` : "";
    hits += `<circle class="cell-hit" data-cell="${id}" cx="${p[0]}" cy="${p[1]}" r="${rad(id)}">${tip}</circle>`;
  }
  svg.innerHTML = under + d.body + overlay + (d.pieces || '') + marks + hits;
  svg.addEventListener("pointerdown", (ev) => { ui.pointer = ev.pointerType; });
  svg.addEventListener("click", onBoardClick);
  const holder = $("board");
  holder.innerHTML = "";
  holder.append(svg);
}

function startsWith(path, prefix) {
  if (prefix.length > path.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

// Arrow keys move the keyboard's cell to the nearest cell in that direction (by the drawing's
// geometry, so every board shape works, flipped or not); Enter or Space taps it, as a click
// would. The cell's name is said in the live region.
function onBoardKey(ev) {
  const dirs = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  const cells = ui.cells || {};
  if (ev.key === "Enter" || ev.key === " ") {
    if (!ui.cursor) return;
    ev.preventDefault();
    clickCell(ui.cursor);
    return;
  }
  const dir = dirs[ev.key];
  if (!dir) return;
  ev.preventDefault();
  const ids = Object.keys(cells);
  if (!ids.length) return;
  let next = null;
  if (!ui.cursor || !cells[ui.cursor]) {
    const legal = (ui.state && ui.state.legal) || [];
    next = legal.length && cells[legal[0].path[0]] ? legal[0].path[0] : ids[0];
  } else {
    const [x, y] = cells[ui.cursor];
    let best = Infinity;
    for (const id of ids) {
      const dx = cells[id][0] - x, dy = cells[id][1] - y;
      const along = dx * dir[0] + dy * dir[1];
      const across = Math.abs(dx * dir[1] - dy * dir[0]);
      if (along <= 1e-6 || across > along * 1.5) continue;
      const score = along + 2 * across;
      if (score < best) { best = score; next = id; }
    }
    if (!next) return;
  }
  ui.cursor = next;
  $("said").textContent = t("play.cursorAt", { cell: next });
  drawBoard();
}

function onBoardClick(ev) {
  const t = ev.target.closest("[data-cell]");
  if (!t) return;
  clickCell(t.dataset.cell, (ev.pointerType || ui.pointer) === "touch");
}

// Shows or hides the bar that confirms a tapped move (#confirm-bar) for ui.pending.
function showPending() {
  const p = ui.pending;
  $("confirm-bar").hidden = !p;
  $("confirm-text").textContent = p ? t("play.confirmAsk", { move: p.label }) : "";
  if (p) $("said").textContent = t("play.confirmAsk", { move: p.label });
}

function cancelPending() {
  if (!ui.pending) return;
  ui.pending = null;
  showPending();
  drawBoard();
}

function confirmPending() {
  const p = ui.pending;
  if (!p) return;
  ui.pending = null;
  showPending();
  play(p.text);
}

// A tap on a cell (a click, or Enter on the keyboard's cell). `touch`: it came from a touch
// screen, where the player may have asked that a move wait for a second tap on its last cell
// (or the Confirm button) before it is played.
function clickCell(tapped, touch) {
  const s = ui.state;
  const cell = (ui.alias && ui.alias[tapped]) || tapped;
  if (!s || ui.busy || ui.replay || s.turn.kind !== "player" || !mine(s.turn.player)) return;
  if (ui.pending) {
    const last = ui.pending.path[ui.pending.path.length - 1];
    if (cell === last || tapped === last) { confirmPending(); return; }
    ui.pending = null;   // a tap elsewhere drops the waiting move and counts as a new tap
    showPending();
  }
  const legal = s.legal;
  let sel = ui.sel.concat([cell]);
  let matches = legal.filter((m) => startsWith(m.path, sel));
  if (!matches.length) {
    sel = [cell];
    matches = legal.filter((m) => startsWith(m.path, sel));
    if (!matches.length) { ui.sel = []; drawBoard(); return; }
  }
  const exact = matches.filter((m) => m.path.length === sel.length);
  if (exact.length >= 1 && (matches.length === exact.length || sel.length > 1 || exact[0].path.length === 1)) {
    const m = exact[0];
    if (touch && Prefs.confirmTouch) {
      ui.sel = [];
      ui.pending = { text: m.text, path: m.path, label: entryText(m, s) };
      showPending();
      drawBoard();
      return;
    }
    play(m.text);
    return;
  }
  ui.sel = sel;
  drawBoard();
}

async function play(text) {
  ui.hint = null;
  ui.sel = [];
  if (ui.pending) { ui.pending = null; showPending(); }
  // The puzzle page (puzzles.js) judges the move itself: no game on the server.
  if (ui.onMove) { ui.onMove(text); return; }
  try {
    setState(await ui.game.move(text, ui.state.ply));
    note("");
    maybeAi();
  } catch (e) {
    note(I18n.error(e));
    drawBoard();
  }
}

function formatInfo(a) {
  // The engine's own description is the server's English: shown in English only.
  return (I18n.lang === "en" ? a.engine + "\n" : "") + t("play.aiInfo", { depth: a.depth, score: a.score, nodes: a.nodes, ms: a.time_ms, pv: a.pv.join(" ") });
}

async function aiMove(options) {
  const gen = ui.gen;
  ui.busy = true;
  render();
  $("thinking").hidden = false;
  $("thinking-text").textContent = t("play.thinking");
  const progress = (p) => {
    if (gen === ui.gen) $("thinking-text").textContent = t("play.thinkingAt", { depth: p.depth, score: p.score, nodes: p.nodes });
  };
  const task = ui.game.ai(options || {}, progress);
  ui.task = task;
  try {
    const data = await task.done;
    if (gen !== ui.gen) return null;
    note(formatInfo(data.ai));
    if (data.played) setState(data.state);
    return data;
  } catch (e) {
    if (gen === ui.gen && e.name !== "AbortError") note(t("play.aiError", { error: I18n.error(e) }));
    return null;
  } finally {
    if (ui.task === task) ui.task = null;
    if (gen === ui.gen) {
      ui.busy = false;
      $("thinking").hidden = true;
      render();
    }
  }
}

async function maybeAi() {
  const s = ui.state;
  // In link games the server moves the AI seats by itself.
  if (!s || ui.busy || !s.hotseat || s.turn.kind !== "player" || seatOf(s.turn.player) === "human") return;
  const data = await aiMove();
  if (data) setTimeout(maybeAi, 250);
}

async function undo() {
  const s = ui.state;
  // Take back to the last position where a human was to move.
  const choices = s.history.filter((h) => h.player !== null);
  let k = 1;
  for (let i = choices.length - 1, n = 1; i >= 0; i--, n++) {
    if (seatOf(choices[i].player) === "human") { k = n; break; }
  }
  try {
    setState(await ui.game.undo(k));
    note("");
  } catch (e) { note(I18n.error(e)); }
}

async function hint() {
  const data = await aiMove({ play: false });
  if (data) {
    const m = ui.state.legal.find((x) => x.text === data.ai.move);
    ui.hint = m ? m.path : null;
    note(t("play.hintIs", { move: (m && m.label ? m.label + " " : "") + data.ai.move }) + "\n" + formatInfo(data.ai));
    drawBoard();
  }
}

async function solve() {
  ui.busy = true;
  render();
  $("thinking").hidden = false;
  $("thinking-text").textContent = t("play.solving");
  const gen = ui.gen;
  const task = ui.game.solve({ time_ms: 20000 });
  ui.task = task;
  try {
    const data = await task.done;
    const sol = data.solve;
    note((I18n.lang === "en" ? sol.note + "\n" : "") + t(sol.solved ? "play.solved" : "play.unsolved", { moves: sol.moves.length, nodes: sol.nodes, ms: sol.time_ms }));
    $("thinking").hidden = true;
    for (const mv of sol.solved ? sol.moves : []) {
      if (gen !== ui.gen) return;
      ui.state = await ui.game.move(mv);
      render();
      await new Promise((r) => setTimeout(r, 450));
    }
  } catch (e) {
    if (e.name !== "AbortError") note(t("play.solveError", { error: I18n.error(e) }));
  } finally {
    if (ui.task === task) ui.task = null;
    if (gen === ui.gen) { ui.busy = false; $("thinking").hidden = true; render(); }
  }
}

// The board settings (boards.js's Prefs): the Xiangqi piece style, coordinates, confirmation of
// tapped moves; each change redraws the board (and the analysis board when it is open).
function initSettings() {
  const redraw = () => { if (ui.state) drawBoard(); if (typeof Analysis !== "undefined") Analysis.render(); };
  $("piece-style-row").hidden = !board.pieceStyles;
  $("coords-row").hidden = !board.coords;
  const style = $("piece-style"), coords = $("coords"), confirm = $("confirm-touch");
  style.value = Prefs.pieceStyle;
  coords.checked = Prefs.coords;
  confirm.checked = Prefs.confirmTouch;
  style.addEventListener("change", () => { Prefs.pieceStyle = style.value; redraw(); });
  coords.addEventListener("change", () => { Prefs.coords = coords.checked; redraw(); });
  confirm.addEventListener("change", () => { Prefs.confirmTouch = confirm.checked; if (!confirm.checked) cancelPending(); });
  $("confirm-move").addEventListener("click", confirmPending);
  $("cancel-move").addEventListener("click", cancelPending);
}

async function main() {
  await I18n.ready;
  document.title = "qiyi — " + I18n.maybe("game." + game, game);
  try {
    const cat = await backend.catalog();
    ui.catalog = cat.games.find((g) => g.game === game);
  } catch (e) { note(I18n.error(e)); return; }
  if (!ui.catalog) {
    $("title").textContent = t("play.unknownGame", { game });
    note(t("play.noSuchGame"));
    return;
  }
  $("title").textContent = I18n.maybe("game." + game, ui.catalog.title);
  $("solve").hidden = !ui.catalog.solver;
  $("flip").hidden = !board.flippable;
  buildOptions();
  $("new-game").addEventListener("click", () => newGame());
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("ai-move").addEventListener("click", async () => { await aiMove(); maybeAi(); });
  $("flip").addEventListener("click", () => { ui.flipped = !ui.flipped; drawBoard(); });
  $("solve").addEventListener("click", solve);
  $("move-form").addEventListener("submit", onMoveTyped);
  $("board").addEventListener("keydown", onBoardKey);
  const soundButton = $("sound");
  const showSound = () => {
    soundButton.setAttribute("aria-pressed", String(Sound.on));
    soundButton.title = t(Sound.on ? "play.soundOn" : "play.soundOff");
  };
  soundButton.addEventListener("click", () => { Sound.set(!Sound.on); showSound(); });
  showSound();
  initSettings();
  $("copy-pos").addEventListener("click", async () => {
    try { await navigator.clipboard.writeText($("position").value); note(t("play.positionCopied")); }
    catch (e) { $("position").select(); note(t("play.selectAndCopy")); }
  });
  $("paste-pos").addEventListener("click", async () => {
    try {
      setState(await ui.game.position($("position").value.trim()));
      note(t("play.positionLoaded"));
      maybeAi();
    } catch (e) { note(I18n.error(e)); }
  });
  Online.init();
  if (!(await Online.join())) await newGame();
}

// The puzzle page (body.puzzles) reuses the board, its clicks, keys and typed moves, and runs
// its own controller (puzzles.js).
if (!document.body.classList.contains("puzzles")) main();
