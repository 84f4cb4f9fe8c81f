// The archive page: stored games, newest first, paged; import a record to review it.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let page = Number(new URLSearchParams(location.search).get("page")) || 1;

  function when(secs) {
    return I18n.date(new Date(secs * 1000));
  }

  async function load() {
    await I18n.ready;
    const rows = $("rows");
    try {
      const data = await backend.archive(page);
      rows.innerHTML = "";
      if (!data.games.length) { const tr = document.createElement("tr"); const td = document.createElement("td"); td.colSpan = 5; td.textContent = t("archive.none"); tr.append(td); rows.append(tr); }
      for (const g of data.games) {
        const tr = document.createElement("tr");
        const open = document.createElement("a");
        open.href = backend.site.play(g.game, { id: g.id });
        open.textContent = I18n.maybe("game." + g.game, g.game);
        open.className = "game-link";
        const exp = document.createElement("a");
        exp.href = backend.game(g.id, null).exportHref();
        exp.textContent = t("archive.export");
        const cells = [open, I18n.maybe("status." + g.status, g.status), I18n.num(g.plies), when(g.updated), exp];
        if (backend.features.review && g.status === "over" && g.plies > 0) {
          const rev = document.createElement("a");
          rev.href = backend.site.play(g.game, { id: g.id, review: 1 });
          rev.textContent = t("archive.review");
          rev.className = "review-link";
          const span = document.createElement("span");
          span.append(exp, " · ", rev);
          cells[4] = span;
        }
        if (backend.features.analysis && g.plies > 0) {
          const an = document.createElement("a");
          an.href = backend.site.play(g.game, { id: g.id, analyse: 1 });
          an.textContent = t("archive.analyse");
          an.className = "analyse-link";
          const span = typeof cells[4] === "string" || cells[4] === exp ? (() => { const x = document.createElement("span"); x.append(exp); return x; })() : cells[4];
          span.append(" · ", an);
          cells[4] = span;
        }
        for (const c of cells) {
          const td = document.createElement("td");
          if (typeof c === "string") td.textContent = c; else td.append(c);
          tr.append(td);
        }
        rows.append(tr);
      }
      const pages = Math.max(1, Math.ceil(data.total / data.per_page));
      $("page").textContent = t("archive.page", { page, pages, total: data.total });
      $("prev").disabled = page <= 1;
      $("next").disabled = page >= pages;
    } catch (e) {
      rows.innerHTML = "";
      const tr = document.createElement("tr");
      tr.textContent = t("archive.cannotList", { error: I18n.error(e) });
      rows.append(tr);
    }
  }

  $("prev").addEventListener("click", () => { page = Math.max(1, page - 1); load(); });
  $("next").addEventListener("click", () => { page += 1; load(); });
  $("import").addEventListener("click", async () => {
    try {
      const data = await backend.importRecord($("record").value);
      try { localStorage.setItem("qiyi-token-" + data.id, data.hotseat_token); localStorage.setItem("qiyi-seat-" + data.id, ""); } catch (e) { /* ignore */ }
      location.href = backend.site.play(data.state.game, { id: data.id });
    } catch (e) {
      $("import-info").textContent = I18n.error(e);
    }
  });
  load();
})();
