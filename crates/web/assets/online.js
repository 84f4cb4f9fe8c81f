// Playing together: seat links, the live event stream, resign/draw, clocks and replay. app.js calls
// these hooks; the board drawing stays in boards.js.
"use strict";

const Online = (() => {
  const el = (id) => document.getElementById(id);
  const tokenKey = (id) => "qiyi-token-" + id;
  const seatKey = (id) => "qiyi-seat-" + id;
  let clockTimer = null;
  let clockBase = null; // { at: ms timestamp, clock }

  function mode() { return el("mode") ? el("mode").value : "here"; }

  function remember(id, token, seat) {
    try {
      localStorage.setItem(tokenKey(id), token);
      localStorage.setItem(seatKey(id), seat === null ? "" : String(seat));
    } catch (e) { /* private mode: the link still works for this page */ }
  }

  function recall(id) {
    try {
      const token = localStorage.getItem(tokenKey(id));
      const seat = localStorage.getItem(seatKey(id));
      return { token, seat: seat === null || seat === "" ? null : Number(seat) };
    } catch (e) { return { token: null, seat: null }; }
  }

  function address(id, seat) {
    return backend.site.play(game, { id, seat });
  }

  // A new game from this page: hot-seat keeps every seat here; link games show each seat's link.
  function created(data) {
    const st = data.state;
    if (data.hotseat_token) {
      ui.token = data.hotseat_token; ui.seat = null;
      remember(data.id, ui.token, null);
    } else {
      ui.token = null; ui.seat = null;
    }
    ui.replay = null;
    ui.game = backend.game(data.id, ui.token);
    history.replaceState(null, "", address(data.id, null));
    showLinks(st.hotseat ? null : data.links, st);
    follow(st.ply);
  }

  function showLinks(links, st) {
    const box = el("links");
    box.innerHTML = "";
    if (!links) return;
    const head = document.createElement("p");
    head.textContent = t("online.sendLinks");
    box.append(head);
    const rows = links.seats.map((l, p) => [st.player_names[p] ? nameOf(st.player_names[p]) : t("play.playerN", { n: p + 1 }), l, p]).filter((r) => r[1]);
    rows.push([t("online.watch"), links.watch, null]);
    for (const [name, link, p] of rows) {
      const row = document.createElement("div");
      row.className = "link-row";
      const url = new URL(link, location.origin).href;
      const input = document.createElement("input");
      input.readOnly = true; input.value = url; input.className = "link"; input.dataset.seat = p === null ? "watch" : String(p);
      const copy = document.createElement("button");
      copy.textContent = t("common.copy");
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(url); note(t("online.linkCopied", { name })); }
        catch (e) { input.select(); note(t("online.selectLink")); }
      });
      const open = document.createElement("a");
      open.href = url; open.textContent = t(p === null ? "online.watchHere" : "online.playHere"); open.className = "button-link";
      const label = document.createElement("span");
      label.className = "name"; label.textContent = name;
      row.append(label, input, copy, open);
      box.append(row);
    }
  }

  // Opens the game named in the address (`?id=`), taking the seat token from `#token=` once.
  async function join() {
    const params = new URLSearchParams(location.search);
    const id = params.get("id");
    if (!id) return false;
    const hash = new URLSearchParams(location.hash.slice(1));
    const seatParam = params.get("seat");
    if (hash.get("token")) {
      remember(id, hash.get("token"), seatParam === null ? null : Number(seatParam));
      // Keep the secret out of the address bar (screenshots, shared screens).
      history.replaceState(null, "", address(id, seatParam === null ? null : Number(seatParam)));
    }
    const saved = recall(id);
    ui.id = id;
    ui.token = saved.token;
    ui.seat = saved.seat;
    ui.game = backend.game(id, ui.token);
    el("setup").open = false;
    try {
      const st = await ui.game.state();
      if (st.game !== game) { location.replace(backend.site.play(st.game, { id })); return true; }
      setState(st);
      follow(st.ply);
      note(ui.token ? (ui.seat === null ? t("online.everySeat") : t("online.youPlay", { player: playerName(ui.seat) })) : t("online.watching"));
      maybeAi();
    } catch (e) {
      note(t("online.cannotOpen", { id, error: I18n.error(e) }));
    }
    return true;
  }

  // Follows the game live: every move, die and result as it happens, resuming after `ply`.
  function follow(ply) {
    if (ui.live) ui.live.close();
    const live = ui.game.follow(ply, {
      open() { el("live-status").textContent = t("online.live"); },
      error() { el("live-status").textContent = t("online.reconnecting"); },
      state(st) {
        if (ui.live !== live) return;
        const cur = ui.state;
        if (cur && !ui.replay && cur.id === st.id && st.version < cur.version) return;
        const changed = !cur || st.ply !== cur.ply || JSON.stringify(st.result) !== JSON.stringify(cur.result) ||
          st.draw_offer !== cur.draw_offer || JSON.stringify(st.clock) !== JSON.stringify(cur.clock) ||
          JSON.stringify(st.resigned) !== JSON.stringify(cur.resigned);
        if (!changed) { showThinking(st.thinking); return; }
        const sel = ui.sel;
        ui.state = st;
        ui.sel = cur && st.ply === cur.ply ? sel : [];
        render();
        showThinking(st.thinking);
        if (!ui.busy) maybeAi();
      },
      thinking: showThinking,
      review(r) { if (typeof Review !== "undefined") Review.live(r); },
      gone() { note(t("online.deleted")); live.close(); },
    });
    ui.live = live;
  }

  function showThinking(p) {
    if (ui.busy) return; // the page's own search shows its progress
    const box = el("thinking");
    if (p) {
      box.hidden = false;
      el("thinking-text").textContent = t("online.aiThinking", { depth: p.depth, score: p.score, nodes: p.nodes });
    } else {
      box.hidden = true;
    }
  }

  function fmt(ms) {
    const t = Math.max(0, Math.ceil(ms / 1000));
    return Math.floor(t / 60) + ":" + String(t % 60).padStart(2, "0");
  }

  function drawClocks() {
    const box = el("clocks");
    const c = clockBase && clockBase.clock;
    if (!c) { box.hidden = true; return; }
    box.hidden = false;
    const now = Date.now();
    box.innerHTML = "";
    c.remaining_ms.forEach((ms, p) => {
      const running = c.running === p;
      const left = running ? ms - (now - clockBase.at) : ms;
      const d = document.createElement("div");
      d.className = "clock" + (running ? " running" : "") + (left < 10000 ? " low" : "");
      d.id = "clock-" + p;
      d.textContent = playerName(p) + "  " + fmt(left);
      box.append(d);
    });
  }

  // The panel of a game (app.js's render() calls it as Online.render).
  function panel(s) {
    el("online").hidden = !ui.id;
    const two = s.players === 2;
    const over = s.turn.kind === "over";
    const canAct = ui.token && (ui.seat !== null || s.hotseat);
    const resigned = s.resigned || [];
    // Two players: either side resigns. More: the seat this page holds drops out (hot-seat: the
    // player to move), and the others play on.
    const mine = ui.seat !== null ? ui.seat : (s.turn.kind === "player" ? s.turn.player : null);
    el("resign").hidden = !(canAct && !over && (two || (backend.features.seatResign && mine !== null && !resigned.includes(mine))));
    el("resign").dataset.seat = two || mine === null ? "" : String(mine);
    el("resigned-seats").hidden = !resigned.length;
    el("resigned-seats").textContent = resigned.length ? t("online.resigned", { players: resigned.map(playerName).join(", ") }) : "";
    el("offer-draw").hidden = !(two && canAct && !over);
    el("offer-draw").textContent = t(s.draw_offer !== null && s.draw_offer !== undefined && s.draw_offer !== ui.seat ? "play.acceptDraw" : "play.offerDraw");
    el("export").hidden = !backend.features.export;
    if (backend.features.export) el("export").href = ui.game ? ui.game.exportHref() : "#";
    el("clock-row").hidden = !(backend.features.clocks && ui.catalog && (board.players ? board.players(ruleValues()) : 2) === 2);
    clockBase = s.clock ? { at: Date.now(), clock: s.clock } : null;
    drawClocks();
    if (clockTimer) clearInterval(clockTimer);
    if (s.clock && s.clock.running !== null) clockTimer = setInterval(drawClocks, 250);
    el("replay").hidden = !s.history.length;
    el("rp-ply").textContent = ui.replay ? t("online.plyOf", { ply: ui.replay.ply, total: ui.replay.total }) : t("online.ply", { ply: s.ply });
  }

  async function act(path, body) {
    try { setState(await ui.game[path](body || {})); note(""); }
    catch (e) { note(I18n.error(e)); }
  }

  // Replay: step through the record; the board shows the position at that ply (read-only).
  async function step(to) {
    const total = (ui.replay ? ui.replay.total : ui.state.ply);
    const live = ui.replay ? ui.replay.live : ui.state;
    const ply = Math.max(0, Math.min(total, to));
    if (ply === total) {
      ui.replay = null;
      setState(live);
      return;
    }
    try {
      const st = await ui.game.state(ply);
      ui.replay = { ply, total, live };
      ui.state = st; ui.sel = []; render();
    } catch (e) { note(I18n.error(e)); }
  }

  function init() {
    // What this back end cannot do is not offered (the static site has no links, archive or
    // clocks: they need a server).
    if (!backend.features.links) { const o = document.querySelector('#mode option[value="links"]'); if (o) o.remove(); }
    if (!backend.features.clocks) el("clock-row").hidden = true;
    if (!backend.features.archive) for (const a of document.querySelectorAll('a[href="/games"]')) a.hidden = true;
    el("resign").addEventListener("click", () => {
      const seat = el("resign").dataset.seat;
      if (seat === "") { if (confirm(t("online.confirmResign"))) act("resign"); return; }
      const p = Number(seat);
      // A seat link acts for its own seat; a hot-seat page names the seat.
      if (confirm(t("online.confirmResignSeat", { player: playerName(p) }))) act("resign", ui.seat === null ? { player: p } : {});
    });
    el("offer-draw").addEventListener("click", () => act("draw"));
    el("rp-first").addEventListener("click", () => step(0));
    el("rp-prev").addEventListener("click", () => step((ui.replay ? ui.replay.ply : ui.state.ply) - 1));
    el("rp-next").addEventListener("click", () => step((ui.replay ? ui.replay.ply : ui.state.ply) + 1));
    el("rp-last").addEventListener("click", () => step(Infinity));
    const clock = el("clock");
    if (clock) clock.addEventListener("change", () => {});
  }

  function clockSetting() {
    const v = el("clock") ? el("clock").value : "";
    if (!v) return null;
    const [base, inc] = v.split("+").map(Number);
    return { base_ms: base * 1000, increment_ms: inc * 1000 };
  }

  return { mode, created, join, follow, render: panel, init, clockSetting, step };
})();
