// The static site's page furniture: registers the service worker (offline, installable), says
// plainly what needs a server, and offers a new version when one has been installed.
"use strict";
(function () {
  const bar = document.createElement("div");
  bar.className = "site-note";
  bar.id = "site-note";
  // In the page's language (i18n.js, loaded in <head>): the sentence, then the link.
  const say = (key, en) => (typeof I18n !== "undefined" ? I18n.t(key) : en);
  const ready = typeof I18n !== "undefined" ? I18n.ready : Promise.resolve();
  ready.then(() => {
    const link = document.createElement("a");
    link.href = "https://example.invalid/qiyi#hosting-the-static-site";
    link.textContent = say("site.howToHost", "how to host qiyi");
    bar.append(say("site.note", "Everything here runs on your device, with or without network. Playing together by link and the archive of games need a server: see") + " ", link, ".");
    if (document.body) document.body.append(bar);
    else document.addEventListener("DOMContentLoaded", () => document.body.append(bar));
  });
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("sw.js").then((reg) => {
    const offer = (w) => {
      const box = document.createElement("div");
      box.className = "banner site-update";
      box.id = "site-update";
      box.textContent = say("site.update", "A new version of qiyi is ready.") + " ";
      const b = document.createElement("button");
      b.textContent = say("site.reload", "Reload");
      b.addEventListener("click", () => w.postMessage("take-over"));
      box.append(b);
      document.body.prepend(box);
    };
    if (reg.waiting && navigator.serviceWorker.controller) offer(reg.waiting);
    reg.addEventListener("updatefound", () => {
      const w = reg.installing;
      if (!w) return;
      w.addEventListener("statechange", () => {
        if (w.state === "installed" && navigator.serviceWorker.controller) offer(w);
      });
    });
  }).catch((e) => console.warn("offline copy unavailable: " + e.message));
  let reloading = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (reloading || !document.getElementById("site-update")) return;
    reloading = true;
    location.reload();
  });
})();
