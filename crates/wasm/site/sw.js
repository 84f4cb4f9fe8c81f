// The service worker of the static site: keeps every file of this version in a cache of its own,
// so the site opens and plays with the network off. The site build writes VERSION (a hash of the
// files) and FILES (cached at install); files fetched later (the aeroplane tables, the Lab's
// data) are kept once fetched. A new version installs beside the old one and waits until the page says to
// take over (the page shows "a new version is ready" and reloads on request), so a page never
// mixes the scripts of one version with the engine of another.
"use strict";
const VERSION = "@VERSION@";
const FILES = @FILES@;
const CACHE = "qiyi-site-" + VERSION;

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)));
});

self.addEventListener("activate", (ev) => {
  ev.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("qiyi-site-") && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (ev) => {
  if (ev.data === "take-over") self.skipWaiting();
});

self.addEventListener("fetch", (ev) => {
  const req = ev.request;
  if (req.method !== "GET" || new URL(req.url).origin !== location.origin) return;
  ev.respondWith((async () => {
    const cache = await caches.open(CACHE);
    // Pages are the same file whatever their query (play.html?game=...&id=...).
    const hit = await cache.match(req, { ignoreSearch: req.mode === "navigate" });
    if (hit) return hit;
    try {
      const res = await fetch(req);
      if (res.ok && res.type === "basic") await cache.put(req, res.clone());
      return res;
    } catch (e) {
      if (req.mode === "navigate") {
        const home = await cache.match("./");
        if (home) return home;
      }
      return new Response("offline, and this file is not in the site's cache", { status: 503, headers: { "content-type": "text/plain" } });
    }
  })());
});
