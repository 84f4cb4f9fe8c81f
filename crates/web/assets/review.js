// The game review on the play page: a "Review" button on a finished game, progress with a cancel
// button while the back end reviews it, then a win-chance graph (click a point: the board goes to
// that ply), each move's class and symbol in the move list, the better move for the ply on the
// board, accuracy per player, and luck against skill for games with dice.
//
// Hooks: app.js calls Review.render() after every render; online.js passes the live `review`
// events to Review.live(). The back end's game handle offers review(options, onProgress) (a Task)
// and reviewState() (backend.js); a back end without them shows no review.
"use strict";

/** Every string this file shows, looked up in the page's catalogs (crates/web/assets/i18n/). */
const REVIEW_TEXT = {
  get title() { return t("review.title"); },
  get start() { return t("review.start"); },
  get cancel() { return t("review.cancel"); },
  get queued() { return t("review.queued"); },
  running: (done, total) => t("review.running", { done: I18n.num(done), total: I18n.num(total) }),
  get cancelled() { return t("review.cancelled"); },
  failed: (e) => t("review.failed", { error: e }),
  get graph() { return t("review.graph"); },
  get player() { return t("review.player"); },
  get accuracy() { return t("review.accuracy"); },
  inaccuracies: "?!",
  mistakes: "?",
  blunders: "??",
  get luck() { return t("review.luck"); },
  get skill() { return t("review.skill"); },
  judge: (j) => t("review.judge", { judge: j }),
  played: (m, cls) => (cls ? t("review.playedClass", { move: m, cls }) : t("review.played", { move: m })),
  rolled: (face, luck) => t("review.rolled", { face, luck }),
  better: (m) => t("review.better", { move: m }),
  line: (l) => t("review.line", { line: l }),
  get showBetter() { return t("review.showBetter"); },
  get forced() { return t("review.forced"); },
  get unknown() { return t("review.unknown"); },
  get noPly() { return t("review.noPly"); },
  classes: {
    get best() { return t("review.class.best"); },
    get good() { return t("review.class.good"); },
    get inaccuracy() { return t("review.class.inaccuracy"); },
    get mistake() { return t("review.class.mistake"); },
    get blunder() { return t("review.class.blunder"); },
  },
};

const Review = (() => {
  const rv = { review: null, task: null, status: null, id: null, checked: null, side: null };
  const pct = (x) => (x === null || x === undefined ? "–" : (100 * x).toFixed(0) + "%");
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const box = () => document.getElementById("review");
  const available = () => backend.features.review && ui.game && typeof ui.game.review === "function";
  const shownPly = () => (ui.replay ? ui.replay.ply : ui.state.ply);

  function reset() {
    if (rv.task) rv.task.stop();
    Object.assign(rv, { review: null, task: null, status: null, id: ui.game ? ui.game.id : null, checked: null, side: null });
  }

  /** A stored review is shown at once to every later viewer of the game. */
  async function checkStored() {
    if (rv.checked === ui.game.id) return;
    rv.checked = ui.game.id;
    try {
      const st = await ui.game.reviewState();
      if (st.status === "done") { rv.review = st.review; render(); }
      else if (st.status === "queued" || st.status === "running") live(st);
      else if (new URLSearchParams(location.search).get("review") === "1") start();
    } catch (e) { /* no review: the button offers one */ }
  }

  function start() {
    if (rv.task) return;
    rv.status = { status: "queued" };
    render();
    const task = ui.game.review({}, (p) => { if (rv.task === task) { rv.status = p; render(); } });
    rv.task = task;
    task.done.then((review) => {
      if (rv.task !== task) return;
      rv.task = null; rv.review = review; rv.status = null; render();
    }, (e) => {
      if (rv.task !== task) return;
      rv.task = null;
      rv.status = e.name === "AbortError" ? { status: "cancelled" } : { status: "failed", error: e.message };
      render();
    });
  }

  function cancel() {
    if (rv.task) { const t = rv.task; rv.task = null; t.stop(); }
    else if (ui.game.cancelReview) ui.game.cancelReview().catch(() => {});
    rv.status = { status: "cancelled" };
    render();
  }

  /** A live `review` event (another viewer's review of this game shows here too). */
  function live(st) {
    if (!ui.game || rv.review) return;
    if (st.status === "done") {
      if (!rv.task) ui.game.reviewState().then((s) => { if (s.status === "done") { rv.review = s.review; rv.status = null; render(); } }, () => {});
      return;
    }
    if (!rv.task) { rv.status = st; render(); }
  }

  /** Goes to the position after `ply` plies (replay), optionally marking a move's path. */
  async function goTo(ply, hintText) {
    await Online.step(ply);
    if (hintText) {
      const m = (ui.state.legal || []).find((l) => l.text === hintText);
      ui.hint = m ? m.path : null;
      drawBoard();
    }
  }

  function graph(r) {
    const n = r.plies.length;
    const W = 300, H = 90, pad = 6;
    const x = (i) => pad + (n <= 1 ? 0 : (i * (W - 2 * pad)) / (n - 1));
    const y = (w) => pad + (1 - w) * (H - 2 * pad);
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
    svg.setAttribute("class", "rv-graph");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", REVIEW_TEXT.graph);
    const mid = document.createElementNS(ns, "line");
    Object.entries({ x1: 0, x2: W, y1: y(0.5), y2: y(0.5), class: "rv-mid" }).forEach(([k, v]) => mid.setAttribute(k, v));
    svg.append(mid);
    const pts = r.plies.map((p, i) => [x(i), y(p.wins_after[0])]);
    const path = document.createElementNS(ns, "polyline");
    path.setAttribute("points", pts.map((q) => q.join(",")).join(" "));
    path.setAttribute("class", "rv-line");
    svg.append(path);
    const at = shownPly();
    r.plies.forEach((p, i) => {
      const c = document.createElementNS(ns, "circle");
      c.setAttribute("cx", pts[i][0]);
      c.setAttribute("cy", pts[i][1]);
      c.setAttribute("r", n > 80 ? 2.5 : 3.5);
      c.setAttribute("class", "rv-point" + (p.class ? " rv-" + p.class : "") + (i + 1 === at ? " rv-here" : ""));
      c.dataset.ply = String(i + 1);
      const t = document.createElementNS(ns, "title");
      t.textContent = `${i + 1}. ${p.played}${p.class ? " (" + REVIEW_TEXT.classes[p.class] + ")" : ""}: ${pct(p.wins_after[0])}`;
      c.append(t);
      c.addEventListener("click", () => goTo(i + 1));
      svg.append(c);
    });
    return svg;
  }

  function summary(r) {
    const table = el("table", "rv-summary");
    const dice = r.plies.some((p) => p.kind === "chance");
    const head = el("tr");
    const cols = [REVIEW_TEXT.player, REVIEW_TEXT.accuracy, REVIEW_TEXT.inaccuracies, REVIEW_TEXT.mistakes, REVIEW_TEXT.blunders];
    if (dice) cols.push(REVIEW_TEXT.luck, REVIEW_TEXT.skill);
    for (const c of cols) head.append(el("th", null, c));
    table.append(head);
    for (const s of r.summary) {
      const tr = el("tr");
      const cells = [playerName(s.player), s.accuracy === null ? "–" : s.accuracy.toFixed(1), String(s.counts[2]), String(s.counts[3]), String(s.counts[4])];
      if (dice) cells.push((s.luck >= 0 ? "+" : "") + pct(s.luck), pct(s.skill));
      for (const c of cells) tr.append(el("td", null, c));
      table.append(tr);
    }
    return table;
  }

  /** The judged move that led to the shown position, and the better one. */
  function current(r) {
    const div = el("div", "rv-current");
    const ply = shownPly();
    const p = r.plies[ply - 1];
    if (!p) { div.textContent = REVIEW_TEXT.noPly; return div; }
    if (p.kind === "chance") {
      div.append(el("div", null, `${ply}. ` + REVIEW_TEXT.rolled(p.played, (p.luck >= 0 ? "+" : "") + pct(p.luck))));
      return div;
    }
    const cls = p.forced ? REVIEW_TEXT.forced : p.class ? REVIEW_TEXT.classes[p.class] : p.unknown ? REVIEW_TEXT.unknown : "";
    div.append(el("div", null, `${ply}. ` + REVIEW_TEXT.played(p.played + (p.class ? symbol(p.class) : ""), cls)));
    if (p.best && p.best !== p.played && p.kind === "decision" && !p.unknown) {
      div.append(el("div", null, REVIEW_TEXT.better(p.best)));
      if (p.line && p.line.length > 1) div.append(el("div", "rv-pv", REVIEW_TEXT.line(p.line.join(" "))));
      const b = el("button", "rv-better", REVIEW_TEXT.showBetter);
      b.addEventListener("click", () => goTo(ply - 1, p.best));
      div.append(b);
    }
    return div;
  }

  function symbol(cls) {
    return { inaccuracy: "?!", mistake: "?", blunder: "??" }[cls] || "";
  }

  /** Marks every move of the move list with its class and symbol. */
  function markMoves(r) {
    const items = document.querySelectorAll("#moves li");
    items.forEach((li, i) => {
      const p = r.plies[i];
      if (!p || !p.class) return;
      li.classList.add("rv-" + p.class);
      const s = symbol(p.class);
      if (s) li.append(el("span", "rv-sym", s));
      li.title = REVIEW_TEXT.classes[p.class];
    });
  }

  /** Your mistakes as puzzles: the chosen player's mistakes and blunders become personal
   *  puzzles, kept in this browser, and the puzzle page opens in its mode for them. */
  function practise(r) {
    const div = el("div", "rv-practise");
    const classed = r.plies.some((p) => p.kind === "decision" && p.class && !p.forced);
    if (!classed || typeof ui.game.mistakes !== "function") {
      div.append(el("p", "rv-practise-none", t("review.practiseNone")));
      return div;
    }
    const label = el("label", null, t("review.practiseSide") + " ");
    const sel = el("select", "rv-side");
    const seats = (ui.state && ui.state.seats) || [];
    const mine = seats.findIndex((s) => s && s.kind === "human");
    for (const s of r.summary) {
      const o = el("option", null, `${playerName(s.player)} (${s.counts[3] + s.counts[4]})`);
      o.value = String(s.player);
      sel.append(o);
    }
    if (mine >= 0 && mine < r.summary.length) sel.value = String(mine);
    // The choice survives the page's re-renders (a ply chosen on the graph redraws the review).
    if (rv.side !== undefined && rv.side !== null && rv.side < r.summary.length) sel.value = String(rv.side);
    sel.addEventListener("change", () => { rv.side = Number(sel.value); });
    label.append(sel);
    div.append(label);
    const go = el("button", "rv-practise-go", t("review.practise"));
    const said = el("p", "rv-practise-said");
    said.setAttribute("role", "status");
    go.addEventListener("click", async () => {
      go.disabled = true;
      said.textContent = "";
      try {
        const set = await ui.game.mistakes(Number(sel.value));
        if (!set.puzzles.length) { said.textContent = t("review.practiseNoMistakes", { player: playerName(set.side) }); return; }
        localStorage.setItem("qiyi-mistakes-" + set.game, JSON.stringify(set));
        const u = new URL(backend.site.puzzles(set.game), location.href);
        u.searchParams.set("mistakes", "1");
        location.href = u.href;
      } catch (e) {
        said.textContent = I18n.error(e);
      } finally { go.disabled = false; }
    });
    div.append(go, said);
    return div;
  }

  function render() {
    const b = box();
    if (!b || !ui.state) return;
    if (!available()) { b.hidden = true; return; }
    if (rv.id !== ui.game.id) reset();
    const over = (ui.replay ? ui.replay.live : ui.state).turn.kind === "over";
    // A stored review (or one under way) shows for any game; a new one is offered once it is over.
    checkStored();
    b.hidden = !(over || rv.review || rv.task || rv.status);
    if (b.hidden) return;
    b.innerHTML = "";
    b.append(el("h2", null, REVIEW_TEXT.title));
    if (rv.review) {
      const r = rv.review;
      b.append(graph(r));
      b.append(current(r));
      b.append(summary(r));
      b.append(el("p", "rv-judge", REVIEW_TEXT.judge(r.judge)));
      b.append(practise(r));
      markMoves(r);
      return;
    }
    const st = rv.status;
    if (st && (st.status === "queued" || st.status === "running")) {
      b.append(el("p", "rv-progress", st.status === "queued" ? REVIEW_TEXT.queued : REVIEW_TEXT.running(st.done || 0, st.total || 0)));
      const bar = el("progress", "rv-bar");
      bar.max = st.total || 1; bar.value = st.done || 0;
      b.append(bar);
      const c = el("button", "rv-cancel", REVIEW_TEXT.cancel);
      c.addEventListener("click", cancel);
      b.append(c);
      return;
    }
    if (st && st.status === "cancelled") b.append(el("p", "rv-progress", REVIEW_TEXT.cancelled));
    if (st && st.status === "failed") b.append(el("p", "rv-progress", REVIEW_TEXT.failed(st.error)));
    const go = el("button", "primary rv-start", REVIEW_TEXT.start);
    go.addEventListener("click", start);
    b.append(go);
  }

  return { render, live, start };
})();
