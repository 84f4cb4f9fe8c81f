// The analysis board on the play page: any position of a game (the ply on the board, replayed or
// live, finished or not), a pasted FEN / PDN / record, or the position box, analysed live by the
// engine — depth, score and win chance, nodes, the best line drawn on the board, the top 3 lines
// for Xiangqi and checkers (click one to draw it), each choice's win chance for a chosen rolled
// face in aeroplane chess, solvable or not per move in peg solitaire, race distances in Chinese
// checkers — with Stop and Start again. The player tries moves on its board and goes back and
// forward through them.
//
// The stored game is never changed. The line on the analysis board is kept in the page: the game's
// own positions are read with game.state(ply) (read only), and tried moves are played in a
// throw-away hot-seat game (every seat human) created with the position where the first one is
// tried, reset with game.position(text) when the player tries a move elsewhere in the line, and
// removed when the board is closed. The engine gets each position as text (game.analyse,
// backend.js). Opened by the "Analyse" button, the position box's "Analyse this position", and the
// address's ?analyse=1 (the archive's links; &ply=N for a ply).
//
// Hooks: app.js calls Analysis.render() after every render (the address's request is handled once
// the game is loaded).
"use strict";

const Analysis = (() => {
  const MULTIPV = { xiangqi: 3, checkers: 3 };
  const an = {
    open: false,
    gen: 0,           // bumps on every opened position / restarted search: stale lines dropped
    line: [],         // [{ state, ply, move }]: line[0] the first position, move = its history entry
    src: null,        // the handle line entries without a state are read from (state(ply))
    at: 0,            // the line entry on the board
    scratch: null,    // the throw-away game the tried moves are played in (a game handle)
    synced: -1,       // the line entry whose position the throw-away game holds
    task: null,       // the running analysis (a Backend Task)
    search: {},       // multipv -> the newest search line
    depths: [],       // every depth the best line reached in this analysis, in order
    other: null,      // the newest choices / pegs line
    race: null,       // the newest race line (Chinese checkers)
    shown: 1,         // the search line drawn on the board
    status: "",       // what the analysis is doing, in words
    roll: null,       // aeroplane: the rolled face analysed (null: the position's)
    sel: [],          // cells clicked so far for a tried move
    asked: false,     // the address's ?analyse=1 has been handled
    boxFor: null,     // the line entry whose position the position box was filled with
    retry: null,      // the timer of a start the server's "busy" put off
    waiting: false,   // such a start is waiting
  };
  // The address as the page was opened (online.js rewrites it once the game is made or joined).
  const opened = new URLSearchParams(location.search);
  const $ = (id) => document.getElementById(id);
  const available = () => backend.features.analysis && typeof backend.analyse === "function";
  const pct = (x) => (typeof x === "number" ? I18n.num(x, { style: "percent", maximumFractionDigits: 0 }) : "–");
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const cur = () => (an.line[an.at] && an.line[an.at].state) || null;

  // ---- opening and closing ---------------------------------------------------------------------

  /** Shows the analysis view in place of the game (the game's board and panel come back on close). */
  function show(on) {
    const was = an.open;
    an.open = on;
    document.body.classList.toggle("analysing", on);
    $("analysis").hidden = !on;
    // A keyboard or screen-reader user lands on the view's heading.
    if (on && !was) $("an-title").focus();
  }

  /** Opens the game on the page at the ply on its board: the game's positions, read only. */
  function openGame() {
    if (!ui.state || !ui.game) return;
    const live = ui.replay ? ui.replay.live : ui.state;
    const at = ui.replay ? ui.replay.ply : live.ply;
    const line = [{ state: null, ply: 0, move: null }];
    for (const h of live.history) line.push({ state: null, ply: h.ply, move: h });
    line[line.length - 1].state = live;
    if (ui.replay) { const i = line.findIndex((e) => e.ply === at); if (i >= 0) line[i].state = ui.state; }
    begin(line, ui.game, Math.max(0, line.findIndex((e) => e.ply === at)));
  }

  /** Opens a pasted position (FEN, PDN FEN, the game's own notation) or, on a server, a record
   *  (PGN / PDN / JSON, imported as a throw-away game). */
  async function openText(text) {
    const value = String(text || "").trim();
    if (!value) return;
    const gen = ++an.gen;
    stopTask();
    show(true);
    say(t("analysis.loading"));
    try {
      const made = await throwAway({ position: value }).catch(async (e) => {
        if (!backend.features.archive) throw e;
        // Not a position: a record, imported as a hot-seat game that is ours to remove.
        const data = await backend.importRecord(value);
        if (data.state.game !== game) { await backend.game(data.id, data.hotseat_token).remove().catch(() => {}); throw e; }
        return data;
      });
      const handle = made.handle || backend.game(made.id, made.hotseat_token);
      if (gen !== an.gen) { handle.remove().catch(() => {}); return; }
      const st = made.state;
      const line = [{ state: null, ply: 0, move: null }];
      for (const h of st.history) line.push({ state: null, ply: h.ply, move: h });
      line[line.length - 1].state = st;
      await dropScratch();
      an.scratch = handle;
      begin(line, handle, line.length - 1);
      an.synced = line.length - 1;
    } catch (e) {
      if (gen === an.gen) say(t("analysis.cannotOpen", { error: I18n.error(e) }));
    }
  }

  // The server's mark of a throw-away game; the static site keeps no archive (and no such field).
  const SCRATCH = backend.features.archive ? { scratch: true } : {};

  /** A new hot-seat game of this page's game, every seat human (`body`: its position), marked
   *  `scratch` so that the archive leaves it out and the server drops it if the page never does. */
  async function throwAway(body) {
    const humans = (n) => Array.from({ length: n }, () => ({ kind: "human" }));
    const make = (n, rules) => backend.create(Object.assign({ game, seats: humans(n), hotseat: true }, SCRATCH, rules ? { rules } : {}, body));
    const rules = ui.state && ui.state.game === game && typeof ruleValues === "function" ? ruleValues() : null;
    let data;
    try {
      data = await make((ui.state && ui.state.players) || 2, rules);
    } catch (e) {
      // The page's players and rules may not be the position's: the position says them (a game
      // made from it alone tells how many players it has), every seat human again.
      const probe = await backend.create(Object.assign({ game, hotseat: true }, SCRATCH, body));
      if (probe.state.seats.every((seat) => seat.kind === "human")) data = probe;
      else {
        await backend.game(probe.id, probe.hotseat_token).remove().catch(() => {});
        data = await make(probe.state.players, null);
      }
    }
    return { id: data.id, state: data.state, handle: backend.game(data.id, data.hotseat_token) };
  }

  function begin(line, src, at) {
    an.line = line;
    an.src = src;
    an.at = at;
    an.synced = -1;
    an.sel = [];
    show(true);
    goTo(at);
  }

  async function dropScratch() {
    const old = an.scratch;
    an.scratch = null;
    an.synced = -1;
    if (old && old.remove) await old.remove().catch(() => {});
  }

  function close() {
    an.gen++;
    stopTask();
    dropScratch();
    show(false);
    const back = $("analyse");
    if (back) back.focus();
  }

  // ---- the line --------------------------------------------------------------------------------

  /** Shows line entry `i` (its state read when not yet known) and analyses it. */
  async function goTo(i) {
    const to = Math.max(0, Math.min(an.line.length - 1, i));
    const gen = ++an.gen;
    stopTask();
    an.at = to;
    an.sel = [];
    const entry = an.line[to];
    if (!entry.state) {
      say(t("analysis.loading"));
      try { entry.state = await an.src.state(entry.ply); } catch (e) { if (gen === an.gen) say(I18n.error(e)); return; }
      if (gen !== an.gen) return;
    }
    an.roll = null;
    start();
  }

  /** Plays `text` from the shown position in the throw-away game: the line after it is replaced. */
  async function tryMove(text) {
    const s = cur();
    if (!s || s.turn.kind !== "player") return;
    const gen = ++an.gen;
    stopTask();
    an.sel = [];
    try {
      if (!an.scratch) {
        const made = await throwAway({ position: s.position });
        if (gen !== an.gen) { made.handle.remove().catch(() => {}); return; }
        an.scratch = made.handle;
        an.synced = an.at;
      } else if (an.synced !== an.at) {
        await an.scratch.position(s.position);
        an.synced = an.at;
      }
      const st = await an.scratch.move(text);
      if (gen !== an.gen) return;
      const played = [...st.history].reverse().find((h) => h.player !== null) || { text, path: [], player: s.turn.player };
      an.line = an.line.slice(0, an.at + 1).concat([{ state: st, ply: st.ply, move: played }]);
      an.at += 1;
      an.synced = an.at;
      an.src = an.src || an.scratch;
      an.roll = null;
      start();
    } catch (e) {
      an.synced = -1;
      if (gen === an.gen) { say(I18n.error(e)); draw(); }
    }
  }

  // ---- the engine ------------------------------------------------------------------------------

  function stopTask() {
    clearTimeout(an.retry);
    an.waiting = false;
    if (an.task) { const task = an.task; an.task = null; task.stop(); }
  }

  /** The rolled face of an aeroplane position: the last die roll in its history, else 6. */
  function rollOf(s) {
    for (let i = s.history.length - 1; i >= 0; i--) {
      const h = s.history[i];
      if (h.player === null) { const m = String(h.text).match(/[1-6]/); if (m) return Number(m[0]); }
      else break;
    }
    return 6;
  }

  /** (Re)starts the analysis of the shown position. */
  function start() {
    const s = cur();
    if (!s) return;
    const gen = ++an.gen;
    stopTask();
    an.search = {};
    an.depths = [];
    an.other = null;
    an.race = null;
    an.shown = 1;
    if (game === "aeroplane" && an.roll === null) an.roll = rollOf(s);
    if (s.turn.kind === "over" || s.result) {
      say(t("analysis.over"));
      render();
      return;
    }
    const options = { game, position: s.position, multipv: MULTIPV[game] || 1 };
    if (game === "aeroplane") options.roll = an.roll;
    say(t("analysis.starting"));
    const task = backend.analyse(options, (l) => { if (gen === an.gen) onLine(l); });
    an.task = task;
    task.done.then((r) => {
      if (an.task !== task) return;
      an.task = null;
      say(t(r.reason === "depth" ? "analysis.done.depth" : r.reason === "limit" ? "analysis.done.limit" : "analysis.done.stopped"));
      render();
    }, (e) => {
      if (an.task !== task) return;
      an.task = null;
      if (e.code === "busy") {
        // The server runs as many analyses as it may: this one starts when a slot is free.
        say(t("analysis.busy"));
        an.waiting = true;
        an.retry = setTimeout(() => { if (gen === an.gen && an.open) start(); }, 2000);
      } else {
        say(e.name === "AbortError" ? t("analysis.done.stopped") : t("analysis.error", { error: I18n.error(e) }));
      }
      render();
    });
    render();
  }

  function stop() {
    if (!an.task && !an.waiting) return;
    stopTask();
    say(t("analysis.done.stopped"));
    render();
  }

  function onLine(l) {
    if (l.kind === "search") {
      const k = l.multipv || 1;
      an.search[k] = l;
      if (k === 1) an.depths.push(l.depth);
      // Lines of an older depth than the best one's are dropped once the best moves on.
      for (const j of Object.keys(an.search)) if (an.search[j].depth < l.depth - 1) delete an.search[j];
      const best = an.search[1] || l;
      an.status = t("analysis.thinking", { depth: I18n.num(best.depth), nodes: I18n.num(best.nodes || 0), nps: I18n.num(best.nps || 0) });
    } else if (l.kind === "race") {
      an.race = l;
    } else {
      an.other = l;
    }
    render();
  }

  function say(text) {
    an.status = text;
    const box = $("an-status");
    if (box) box.textContent = text;
  }

  // ---- words -----------------------------------------------------------------------------------

  function scoreText(score) {
    if (!score) return "–";
    if (score.mate !== undefined && score.mate !== null) return t(score.mate >= 0 ? "analysis.mate" : "analysis.mated", { n: I18n.num(Math.abs(score.mate)) });
    const cp = Number(score.cp) / 100;
    return (cp > 0 ? "+" : "") + I18n.num(cp, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }

  /** A move as the page writes it: its label (Chinese notation) when the position lists it. */
  function moveName(text, s) {
    const m = s && (s.legal || []).find((x) => x.text === text);
    return m && m.label ? `${m.label} ${text}` : text;
  }

  function pvText(l, s) {
    if (l.pv_text && l.pv_text.length) return l.pv_text.join(" ");
    return (l.pv || []).map((m, i) => (i === 0 ? moveName(m, s) : m)).join(" ");
  }

  // ---- drawing ---------------------------------------------------------------------------------

  /** The cells of a move: from the position's legal moves, else read from its text. */
  function pathOf(text, s, cells) {
    const m = s && (s.legal || []).find((x) => x.text === text);
    if (m) return m.path;
    const str = String(text);
    const parts = /^[a-i]\d[a-i]\d$/.test(str) ? [str.slice(0, 2), str.slice(2)] : str.split(/[-x]/);
    return parts.filter((c) => cells[c]);
  }

  function arrow(path, cells, r, kind) {
    const cls = ["an-arrow", kind ? "an-" + kind : ""].join(" ").trim();
    const pts = path.map((c) => cells[c]).filter(Boolean);
    if (!pts.length) return "";
    if (pts.length === 1) return `<circle class="${cls} an-spot" cx="${pts[0][0]}" cy="${pts[0][1]}" r="${r * 1.1}"/>`;
    const head = kind === "ok" || kind === "bad" || kind === "best" ? "an-head-" + kind : "an-head";
    return `<polyline class="${cls}" points="${pts.map((p) => p.join(",")).join(" ")}" stroke-width="${r * 0.3}" marker-end="url(#${head})"/>`;
  }

  function draw() {
    const holder = $("an-board");
    const s = cur();
    if (!holder || !s) return;
    const d = board.draw(s, { flipped: ui.flipped, sel: an.sel, hint: null, cursor: null, replay: null, busy: false, state: s });
    const at = (id) => d.cells[id];
    const r = d.r;
    const rad = (id) => (d.radii && d.radii[id]) || r;
    let overlay = "";
    const last = an.line[an.at] && an.line[an.at].move;
    if (last && last.path && last.path.length) {
      last.path.forEach((c, i) => {
        const p = at(c);
        if (p) overlay += `<circle class="${i === 0 && last.path.length > 1 ? "last-from" : "last-to"}" cx="${p[0]}" cy="${p[1]}" r="${rad(c) * 0.95}"/>`;
      });
    }
    // The engine's view: the shown line's first two moves, every peg move, the best choice.
    let marks = "";
    const l = an.search[an.shown] || an.search[1];
    if (l && l.pv && l.pv.length) {
      marks += arrow(pathOf(l.pv[0], s, d.cells), d.cells, r, null);
      if (l.pv[1]) marks += arrow(pathOf(l.pv[1], null, d.cells), d.cells, r, "reply");
    }
    const o = an.other;
    if (o && o.kind === "pegs") {
      for (const m of o.moves || []) if (m.solvable !== null) marks += arrow(pathOf(m.move, s, d.cells), d.cells, r * 0.7, m.solvable ? "ok" : "bad");
      if (o.best) marks += arrow(pathOf(o.best, s, d.cells), d.cells, r, "best");
    }
    if (o && o.kind === "choices" && o.choices && o.choices.length && cur().turn.kind === "player" && an.roll === rollOf(s)) {
      const best = o.best || o.choices.reduce((a, b) => (b.win_chance > a.win_chance ? b : a)).move;
      marks += arrow(pathOf(best, s, d.cells), d.cells, r, "best");
    }
    // A tried move being entered.
    if (s.turn.kind === "player") {
      const legal = s.legal || [];
      if (an.sel.length) {
        const p = at(an.sel[an.sel.length - 1]);
        if (p) marks += `<circle class="sel" cx="${p[0]}" cy="${p[1]}" r="${rad(an.sel[an.sel.length - 1]) * 1.05}"/>`;
        const next = new Set(legal.filter((m) => startsWith(m.path, an.sel) && m.path.length > an.sel.length).map((m) => m.path[an.sel.length]));
        for (const c of next) { const q = at(c); if (q) marks += `<circle class="dot" cx="${q[0]}" cy="${q[1]}" r="${r * 0.35}"/>`; }
      }
    }
    let hits = "";
    for (const [id, p] of Object.entries(d.cells)) hits += `<circle class="cell-hit" data-cell="${id}" cx="${p[0]}" cy="${p[1]}" r="${rad(id)}"/>`;
    const marker = (id) => `<marker id="${id}" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="${id}"/></marker>`;
    const defs = `<defs>${["an-head", "an-head-ok", "an-head-bad", "an-head-best"].map(marker).join("")}</defs>`;
    const svg = document.createElementNS(SVGNS, "svg");
    svg.setAttribute("viewBox", `0 0 ${d.width} ${d.height}`);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    svg.id = "an-board-svg";
    svg.setAttribute("aria-hidden", "true");
    svg.innerHTML = defs + (board.under ? board.under(s, d) : "") + d.body + overlay + (d.pieces || "") + marks + hits;
    svg.addEventListener("click", (ev) => { const c = ev.target.closest("[data-cell]"); if (c) clickCell(c.dataset.cell, d.alias || {}); });
    holder.innerHTML = "";
    holder.append(svg);
  }

  function clickCell(tapped, alias) {
    const s = cur();
    if (!s || s.turn.kind !== "player") return;
    const cell = alias[tapped] || tapped;
    let sel = an.sel.concat([cell]);
    let matches = s.legal.filter((m) => startsWith(m.path, sel));
    if (!matches.length) {
      sel = [cell];
      matches = s.legal.filter((m) => startsWith(m.path, sel));
      if (!matches.length) { an.sel = []; draw(); return; }
    }
    const exact = matches.filter((m) => m.path.length === sel.length);
    if (exact.length >= 1 && (matches.length === exact.length || sel.length > 1 || exact[0].path.length === 1)) {
      tryMove(exact[0].text);
      return;
    }
    an.sel = sel;
    draw();
  }

  // ---- the panel -------------------------------------------------------------------------------

  function renderLines(s) {
    const box = $("an-lines");
    box.innerHTML = "";
    const o = an.other;
    const keys = Object.keys(an.search).map(Number).sort((a, b) => a - b);
    for (const k of keys) {
      const l = an.search[k];
      const li = el("li", "an-line");
      const b = el("button", "an-pv", "");
      b.type = "button";
      b.setAttribute("aria-pressed", String(k === an.shown));
      b.append(el("span", "an-score", scoreText(l.score)));
      if (typeof l.win_chance === "number") b.append(" ", el("span", "an-win", t("analysis.winChance", { win: pct(l.win_chance) })));
      b.append(" ", el("span", "an-depth", t("analysis.depth", { depth: I18n.num(l.depth), seldepth: I18n.num(l.seldepth || l.depth) })));
      b.append(el("span", "an-moves", pvText(l, s)));
      b.addEventListener("click", () => { an.shown = k; render(); });
      li.append(b);
      box.append(li);
    }
    const race = an.race;
    if (race) {
      const li = el("li", "an-race");
      li.append(el("div", null, t("analysis.race")));
      race.race.forEach((n, p) => li.append(el("div", "an-race-row", t(race.exact && race.exact[p] ? "analysis.raceExact" : "analysis.raceBound", { player: playerOf(s, p), moves: I18n.num(n) }))));
      box.append(li);
    }
    if (o && o.kind === "choices") {
      const best = (o.choices || []).find((c) => c.move === o.best) || (o.choices || []).reduce((a, b) => (!a || b.win_chance > a.win_chance ? b : a), null);
      for (const c of o.choices || []) {
        const li = el("li", "an-choice", t("analysis.choice", { move: moveName(c.move, s), win: pct(c.win_chance) }));
        if (c === best) li.classList.add("an-best-choice");
        if (c === best) li.append(" ", el("b", null, t("analysis.best")));
        box.append(li);
      }
      if (!(o.choices || []).length) box.append(el("li", "an-choice", t("analysis.noChoice", { roll: I18n.num(o.roll) })));
    }
    if (o && o.kind === "pegs") {
      // `solvable: null` (with `exact: false`): not decided within the judge's node budget.
      const head = o.solvable === null ? "analysis.positionUnknown" : o.solvable ? "analysis.positionSolvable" : "analysis.positionUnsolvable";
      box.append(el("li", "an-pegs-head", t(head, { pegs: I18n.num(o.fewest_pegs || 0) })));
      for (const m of o.moves || []) {
        const li = el("li", "an-peg");
        const unknown = m.solvable === null;
        li.classList.add(unknown ? "an-unknown" : m.solvable ? "an-ok" : "an-bad");
        const verdict = unknown ? t("analysis.unknownLeft", { pegs: I18n.num(m.fewest_pegs || 0) }) : m.solvable ? t("analysis.solvable") : typeof m.fewest_pegs === "number" ? t("analysis.unsolvableLeft", { pegs: I18n.num(m.fewest_pegs) }) : t("analysis.unsolvable");
        li.append(el("span", "an-mark", unknown ? "?" : m.solvable ? "✓" : "✗"), " ", moveName(m.move, s), " — ", verdict);
        if (o.best === m.move) li.append(" ", el("b", null, t("analysis.best")));
        box.append(li);
      }
    }
  }

  function playerOf(s, p) {
    const names = s.player_names || [];
    return names[p] ? nameOf(names[p]) : t("play.playerN", { n: p + 1 });
  }

  function renderMoves(s) {
    const ol = $("an-moves");
    ol.innerHTML = "";
    an.line.forEach((e, i) => {
      if (!e.move) return;
      const li = el("li");
      if (e.move.player === null) li.className = "chance";
      const b = el("button", "an-step", (e.move.player === null ? "" : t("play.moveBy", { player: playerOf(s, e.move.player) })) + entryText(e.move, s));
      b.type = "button";
      if (i === an.at) { li.classList.add("last"); b.setAttribute("aria-current", "step"); }
      b.addEventListener("click", () => goTo(i));
      li.append(b);
      ol.append(li);
    });
    const here = an.line[an.at];
    $("an-ply").textContent = t("analysis.at", { n: I18n.num(an.at), total: I18n.num(an.line.length - 1) });
    $("an-first").disabled = $("an-prev").disabled = an.at === 0;
    $("an-next").disabled = $("an-last").disabled = an.at >= an.line.length - 1;
    // The box shows the position on the board, filled when that changes (not while lines stream
    // in, which would wipe what the player is pasting).
    if (here && here.state && an.boxFor !== here) { an.boxFor = here; $("an-position").value = here.state.position; }
  }

  function render() {
    if (!available()) { const b = $("analyse"); if (b) b.hidden = true; return; }
    $("analyse").hidden = false;
    if (!an.asked && ui.state && ui.game) {
      an.asked = true;
      const q = opened;
      if (q.get("analyse") === "1") {
        const ply = Number(q.get("ply"));
        if (q.get("ply") !== null && ply >= 0 && ply < ui.state.ply) Online.step(ply).then(openGame); else openGame();
      }
    }
    if (!an.open) return;
    const s = cur();
    if (!s) return;
    $("an-stop").disabled = !an.task && !an.waiting;
    $("an-start").disabled = !!an.task;
    const rollRow = $("an-roll-row");
    rollRow.hidden = game !== "aeroplane";
    if (game === "aeroplane" && an.roll !== null) $("an-roll").value = String(an.roll);
    $("an-status").textContent = an.status;
    const humanTurn = s.turn.kind === "player";
    $("an-move-play").disabled = !humanTurn;
    const ex = (s.legal || [])[0];
    $("an-move-input").placeholder = ex ? t("play.moveInputHint", { example: ex.text }) : "";
    renderLines(s);
    renderMoves(s);
    draw();
  }

  function onTyped(ev) {
    ev.preventDefault();
    const s = cur();
    const input = $("an-move-input");
    if (!s || s.turn.kind !== "player") return;
    const norm = (x) => String(x || "").replace(/\s+/g, "").toLowerCase();
    const want = norm(input.value);
    const m = want && (s.legal || []).find((x) => norm(x.text) === want || (x.label && norm(x.label) === want) || norm(entryText(x, s)) === want || norm(x.path.join("-")) === want);
    if (!m) { say(t("play.notLegal", { move: input.value.trim() })); return; }
    input.value = "";
    tryMove(m.text);
  }

  function init() {
    $("analyse").addEventListener("click", openGame);
    $("analyse-pos").addEventListener("click", () => openText($("position").value));
    $("an-load").addEventListener("click", () => openText($("an-position").value));
    $("an-stop").addEventListener("click", stop);
    $("an-start").addEventListener("click", start);
    $("an-close").addEventListener("click", close);
    $("an-first").addEventListener("click", () => goTo(0));
    $("an-prev").addEventListener("click", () => goTo(an.at - 1));
    $("an-next").addEventListener("click", () => goTo(an.at + 1));
    $("an-last").addEventListener("click", () => goTo(an.line.length - 1));
    $("an-move-form").addEventListener("submit", onTyped);
    $("an-flip").hidden = !board.flippable;
    $("an-flip").addEventListener("click", () => { ui.flipped = !ui.flipped; draw(); });
    const roll = $("an-roll");
    for (let f = 1; f <= 6; f++) { const o = document.createElement("option"); o.value = String(f); o.textContent = I18n.num(f); roll.append(o); }
    roll.addEventListener("change", () => { an.roll = Number(roll.value); start(); });
    $("analyse-pos").hidden = !available();
    window.addEventListener("pagehide", () => { an.gen++; stopTask(); dropScratch(); });
  }

  I18n.ready.then(init);
  return { render, openGame, openText, start, stop, close, goTo, tryMove, state: an };
})();
