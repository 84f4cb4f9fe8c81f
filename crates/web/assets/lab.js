// Lab page: the tables `qiyi lab GAME --json` produced, embedded as assets/lab/GAME.json,
// with the SVG charts `--plot` drew next to them.
"use strict";
(async function () {
  const games = ["xiangqi", "checkers", "chinese-checkers", "peg-solitaire", "aeroplane"];
  await I18n.ready;
  const main = document.getElementById("lab");
  const nav = document.getElementById("lab-nav");
  main.innerHTML = "";
  const el = (tag, text, cls) => {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
  };
  for (const game of games) {
    const section = el("section");
    section.id = "lab-" + game;
    const link = el("a", I18n.maybe("game." + game, game));
    link.href = "#lab-" + game;
    nav.append(link, " ");
    main.append(section);
    let report;
    try {
      const res = await fetch("assets/lab/" + game + ".json");
      if (!res.ok) throw new Error(res.status + " " + res.statusText);
      report = await res.json();
    } catch (e) {
      section.append(el("h2", I18n.maybe("game." + game, game)), el("p", t("lab.none", { game: I18n.maybe("game." + game, game), error: e.message })));
      continue;
    }
    section.append(el("h2", I18n.maybe("game." + game, game)));
    const cmd = el("p");
    cmd.append(t("lab.command") + " ", el("code", report.command));
    // The tables' own titles, notes and columns are the measuring tool's English.
    if (I18n.lang !== "en") section.append(el("p", t("lab.english"), "lab-lang-note"));
    section.append(cmd);
    if (report.notes.length) {
      const ul = el("ul", undefined, "lab-notes");
      for (const n of report.notes) ul.append(el("li", n));
      section.append(ul);
    }
    for (const t of report.tables) {
      section.append(el("h3", t.title));
      const wrap = el("div", undefined, "lab-table");
      const table = el("table");
      const head = el("tr");
      for (const c of t.columns) head.append(el("th", c));
      table.append(head);
      for (const r of t.rows) {
        const tr = el("tr");
        for (const c of r) {
          const td = el("td", c);
          if (/^-?[0-9]/.test(c)) td.className = "num";
          tr.append(td);
        }
        table.append(tr);
      }
      wrap.append(table);
      section.append(wrap);
    }
    for (const c of report.charts) {
      const img = el("img", undefined, "lab-chart");
      img.src = "assets/lab/" + c.file + ".svg";
      img.alt = c.title;
      img.loading = "lazy";
      section.append(img);
    }
  }
})();
