// Home page: one link per game the server offers.
"use strict";
(async function () {
  const list = document.getElementById("games");
  try {
    const data = await backend.catalog();
    list.innerHTML = "";
    for (const g of data.games.filter((g) => g.listed)) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = backend.site.play(g.game);
      a.textContent = g.title;
      a.id = "link-" + g.game;
      const p = document.createElement("span");
      p.className = "about";
      p.textContent = g.about;
      li.append(a, p);
      list.append(li);
    }
  } catch (e) {
    list.textContent = (backend.kind === "server" ? "Cannot reach the server: " : "Cannot load the games: ") + e.message;
  }
})();
