// Home page, the front door: one card per game with its board drawn small, "play the computer"
// (at the level chosen once and remembered in localStorage "qiyi-ai-level", which the play page
// reads), "play a friend" (a link game whose link shows at
// once; the static site says it needs a server), "continue" for the unfinished game this browser
// keeps (app.js records it), then the lab and the archive.
"use strict";

const Home = (() => {
  const LEVEL_KEY = "qiyi-ai-level";
  const unfinishedKey = (game) => "qiyi-unfinished-" + game;
  const finishedKey = (game) => "qiyi-finished-" + game;
  const store = {
    get(k) { try { return localStorage.getItem(k); } catch (e) { return null; } },
    set(k, v) { try { localStorage.setItem(k, v); } catch (e) { /* private mode */ } },
    del(k) { try { localStorage.removeItem(k); } catch (e) { /* private mode */ } },
  };

  function level() {
    const l = Number(store.get(LEVEL_KEY));
    return l >= 1 && l <= 10 ? l : 3;
  }

  // ---- the boards, drawn small (inline SVG, no state needed) --------------------------------
  const svg = (w, h, body) => `<svg viewBox="0 0 ${w} ${h}" class="mini" aria-hidden="true">${body}</svg>`;

  function xiangqi() {
    let b = '<rect width="100" height="110" fill="#e8c07a"/>';
    for (let r = 0; r < 10; r++) b += `<line x1="10" y1="${10 + r * 10}" x2="90" y2="${10 + r * 10}" stroke="#5b3b17" stroke-width="0.8"/>`;
    for (let c = 0; c < 9; c++) {
      const x = 10 + c * 10;
      if (c === 0 || c === 8) b += `<line x1="${x}" y1="10" x2="${x}" y2="100" stroke="#5b3b17" stroke-width="0.8"/>`;
      else b += `<line x1="${x}" y1="10" x2="${x}" y2="50" stroke="#5b3b17" stroke-width="0.8"/><line x1="${x}" y1="60" x2="${x}" y2="100" stroke="#5b3b17" stroke-width="0.8"/>`;
    }
    b += '<path d="M40 10L60 30M60 10L40 30M40 80L60 100M60 80L40 100" stroke="#5b3b17" stroke-width="0.8"/>';
    const piece = (c, r, red) => `<circle cx="${10 + c * 10}" cy="${10 + r * 10}" r="4.2" fill="#f8ecd0" stroke="${red ? "#b5341c" : "#222"}" stroke-width="1.2"/>`;
    for (let c = 0; c < 9; c++) { b += piece(c, 0, false) + piece(c, 9, true); }
    for (const c of [1, 7]) { b += piece(c, 2, false) + piece(c, 7, true); }
    for (const c of [0, 2, 4, 6, 8]) { b += piece(c, 3, false) + piece(c, 6, true); }
    return svg(100, 110, b);
  }

  function checkers() {
    let b = "";
    for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) {
      const dark = (r + c) % 2 === 1;
      b += `<rect x="${c * 12}" y="${r * 12}" width="12" height="12" fill="${dark ? "#6b8e4e" : "#f1e6c8"}"/>`;
      if (dark && (r < 3 || r > 4)) b += `<circle cx="${c * 12 + 6}" cy="${r * 12 + 6}" r="4.5" fill="${r < 3 ? "#222" : "#f4f4f4"}" stroke="#555" stroke-width="0.8"/>`;
    }
    return svg(96, 96, b);
  }

  function star() {
    // The 121-hole star: rows of 1,2,3,4,13,12,11,10,9,10,11,12,13,4,3,2,1 holes.
    const rows = [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1];
    let b = '<rect width="110" height="110" fill="#f3e3c3"/>';
    rows.forEach((n, r) => {
      for (let i = 0; i < n; i++) {
        const x = 55 + (i - (n - 1) / 2) * 6.6, y = 7 + r * 6;
        const fill = r < 4 ? "#2f9a3e" : r > 12 ? "#d23a2a" : "#8d7350";
        b += `<circle cx="${x.toFixed(1)}" cy="${y}" r="${r < 4 || r > 12 ? 2.6 : 1.4}" fill="${fill}"/>`;
      }
    });
    return svg(110, 110, b);
  }

  function peg() {
    let b = '<rect width="100" height="100" rx="14" fill="#c89b5e"/>';
    for (let r = 0; r < 7; r++) for (let c = 0; c < 7; c++) {
      if ((r < 2 || r > 4) && (c < 2 || c > 4)) continue;
      const x = 14 + c * 12, y = 14 + r * 12;
      b += r === 3 && c === 3 ? `<circle cx="${x}" cy="${y}" r="2.5" fill="#5b3b17"/>` : `<circle cx="${x}" cy="${y}" r="4.4" fill="#2f5fb0" stroke="#173060"/>`;
    }
    return svg(100, 100, b);
  }

  function aeroplane() {
    const colors = ["#d23a2a", "#e8b81c", "#2f5fd0", "#2f9a3e"];
    let b = '<rect width="100" height="100" fill="#fbf6ea"/>';
    // Four home yards in the corners and a cross of track squares.
    [[0, 60], [0, 0], [60, 0], [60, 60]].forEach(([x, y], i) => {
      b += `<rect x="${x + 2}" y="${y + 2}" width="36" height="36" rx="4" fill="${colors[i]}" opacity="0.85"/>`;
      for (const [dx, dy] of [[12, 12], [26, 12], [12, 26], [26, 26]]) b += `<circle cx="${x + dx}" cy="${y + dy}" r="4" fill="#fff"/>`;
    });
    for (let k = 0; k < 4; k++) {
      b += `<rect x="${42 + 0}" y="${2 + k * 10}" width="16" height="8" fill="${colors[(k + 2) % 4]}" opacity="0.6"/>`;
      b += `<rect x="${42}" y="${60 + k * 10}" width="16" height="8" fill="${colors[k % 4]}" opacity="0.6"/>`;
      b += `<rect x="${2 + k * 10}" y="42" width="8" height="16" fill="${colors[(k + 1) % 4]}" opacity="0.6"/>`;
      b += `<rect x="${60 + k * 10}" y="42" width="8" height="16" fill="${colors[(k + 3) % 4]}" opacity="0.6"/>`;
    }
    b += '<polygon points="50,40 60,50 50,60 40,50" fill="#888"/>';
    return svg(100, 100, b);
  }

  const MINI = { xiangqi, checkers, "chinese-checkers": star, "peg-solitaire": peg, aeroplane };

  /** Whether `g` can be played against the computer (it has more than one player). */
  const solo = (g) => g.game === "peg-solitaire";

  // ---- play a friend ---------------------------------------------------------------------------
  async function friend(g, box) {
    box.hidden = false;
    box.textContent = "";
    if (!backend.features.links) {
      const p = document.createElement("p");
      p.textContent = t("home.friend.needsServer");
      const code = document.createElement("code");
      code.textContent = "cargo run --release -- serve";
      box.append(p, code);
      return;
    }
    box.textContent = t("home.friend.creating");
    const rules = {};
    for (const o of g.options) rules[o.key] = o.default;
    if (o2(g)) rules.players = 2;
    try {
      const data = await backend.create({
        game: g.game, rules, hotseat: false,
        seats: [{ kind: "human" }, { kind: "human" }],
        seed: Math.floor(Math.random() * 1e9),
      });
      const mine = new URL(data.links.seats[0], location.href).href;
      const theirs = new URL(data.links.seats[1], location.href).href;
      box.textContent = "";
      const p = document.createElement("p");
      p.textContent = t("home.friend.send");
      const input = document.createElement("input");
      input.readOnly = true; input.value = theirs; input.className = "link"; input.id = "friend-link-" + g.game;
      const copy = document.createElement("button");
      copy.type = "button";
      copy.textContent = t("common.copy");
      copy.addEventListener("click", async () => {
        try { await navigator.clipboard.writeText(theirs); copy.textContent = t("common.copied"); }
        catch (e) { input.select(); }
      });
      const open = document.createElement("a");
      open.href = mine; open.className = "button-link primary"; open.textContent = t("home.friend.open");
      box.append(p, input, copy, open);
      input.select();
    } catch (e) {
      box.textContent = t("home.friend.failed", { error: I18n.error(e) });
    }
  }
  const o2 = (g) => g.options.some((o) => o.key === "players" && o.choices.includes(2));

  // ---- continue --------------------------------------------------------------------------------
  async function offerContinue(g, slot) {
    const id = store.get(unfinishedKey(g.game));
    if (id) {
      try {
        const st = await backend.game(id, null).state();
        if (!(st.turn.kind === "over" || st.result)) {
          const a = document.createElement("a");
          a.href = backend.site.play(g.game, { id });
          a.className = "button-link continue";
          a.id = "continue-" + g.game;
          a.textContent = t("home.continue", { ply: st.ply });
          slot.append(a);
          return;
        }
        // Finished since: it becomes the last finished game, offered for review.
        store.del(unfinishedKey(g.game));
        if (st.ply > 0) store.set(finishedKey(g.game), id);
      } catch (e) {
        store.del(unfinishedKey(g.game)); // gone (server restarted, storage cleared)
      }
    }
    await offerReview(g, slot);
  }

  // ---- the last finished game, with its review ---------------------------------------------------
  async function offerReview(g, slot) {
    const id = store.get(finishedKey(g.game));
    if (!id || !backend.features.review) return;
    try {
      const st = await backend.game(id, null).state();
      const a = document.createElement("a");
      a.href = backend.site.play(g.game, { id, review: 1 });
      a.className = "button-link review-last";
      a.id = "review-last-" + g.game;
      a.textContent = t("home.reviewLast", { ply: st.ply });
      slot.append(a);
    } catch (e) {
      store.del(finishedKey(g.game)); // gone
    }
  }

  function card(g) {
    const li = document.createElement("li");
    li.className = "game-card";
    li.id = "card-" + g.game;
    const pic = document.createElement("a");
    // The play page starts a game at once (a human, the computer in the other seats at the level
    // remembered here): one click.
    pic.href = backend.site.play(g.game);
    pic.className = "mini-link";
    pic.setAttribute("aria-hidden", "true");
    pic.tabIndex = -1;
    pic.innerHTML = (MINI[g.game] || (() => ""))();
    const text = document.createElement("div");
    text.className = "card-text";
    const h = document.createElement("h2");
    h.id = "link-" + g.game;
    h.textContent = I18n.maybe("game." + g.game, g.title);
    const other = I18n.maybe("game." + g.game + ".other", "");
    if (other) {
      const o = document.createElement("span");
      o.className = "other-name";
      o.lang = I18n.lang === "en" ? "zh-CN" : "en";
      o.textContent = other;
      h.append(" ", o);
    }
    const about = document.createElement("p");
    about.className = "about";
    about.textContent = I18n.maybe("about." + g.game, g.about);
    const buttons = document.createElement("div");
    buttons.className = "card-buttons";
    const ai = document.createElement("a");
    ai.className = "button-link primary play-ai";
    ai.id = "play-ai-" + g.game;
    ai.textContent = t(solo(g) ? "home.playSolo" : "home.playComputer");
    ai.href = pic.href;
    buttons.append(ai);
    const box = document.createElement("div");
    box.className = "friend-box";
    box.hidden = true;
    box.id = "friend-" + g.game;
    if (!solo(g)) {
      const fr = document.createElement("button");
      fr.type = "button";
      fr.className = "play-friend";
      fr.id = "play-friend-" + g.game;
      fr.textContent = t("home.playFriend");
      fr.addEventListener("click", () => friend(g, box));
      buttons.append(fr);
    }
    text.append(h, about, buttons, box);
    li.append(pic, text);
    offerContinue(g, buttons);
    return li;
  }

  function levelPicker() {
    const sel = document.getElementById("level");
    for (let l = 1; l <= 10; l++) {
      const o = document.createElement("option");
      o.value = String(l);
      o.textContent = t("common.level", { level: l });
      sel.append(o);
    }
    sel.value = String(level());
    sel.addEventListener("change", () => store.set(LEVEL_KEY, sel.value));
  }

  async function main() {
    await I18n.ready;
    if (!backend.features.archive) for (const a of document.querySelectorAll('a[href="/games"]')) a.parentElement.hidden = true;
    if (backend.kind !== "server") { const f = document.querySelector("footer"); if (f) f.hidden = true; }
    levelPicker();
    const list = document.getElementById("games");
    try {
      const data = await backend.catalog();
      list.innerHTML = "";
      for (const g of data.games.filter((x) => x.listed)) list.append(card(g));
    } catch (e) {
      list.textContent = t(backend.kind === "server" ? "home.noServer" : "home.noGames", { error: I18n.error(e) });
    }
  }

  main();
  return { level, unfinishedKey };
})();
