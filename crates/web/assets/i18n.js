// The page's languages: English, Simplified and Traditional Chinese. Every page loads this file
// first (in <head>); it picks the language (remembered choice, else the browser's first language:
// zh-TW, zh-HK, zh-MO and zh-Hant* -> zh-TW, other zh* -> zh-CN, else en), loads the catalog i18n/LANG.json (flat keys, "{name}" placeholders), fills every
// element marked data-i18n (text), data-i18n-title, data-i18n-placeholder or data-i18n-aria-label,
// and puts the EN / 简体 / 繁體 switch in the page's header. Scripts wait for `I18n.ready` before
// drawing, then call `t(key, params)`; numbers and dates go through `Intl` (I18n.num, I18n.date).
"use strict";

const I18n = (() => {
  const LANGS = { en: "EN", "zh-CN": "简体", "zh-TW": "繁體" };
  const STORE = "qiyi-lang";
  const here = document.currentScript && document.currentScript.src;
  const base = here ? new URL("i18n/", here).href : "/assets/i18n/";

  function fromBrowser() {
    const list = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
    const first = String(list[0] || "en").toLowerCase();
    if (!first.startsWith("zh")) return "en";
    return /^zh-(tw|hk|mo|hant)/.test(first) ? "zh-TW" : "zh-CN";
  }

  function chosen() {
    try {
      const s = localStorage.getItem(STORE);
      if (s && LANGS[s]) return s;
    } catch (e) { /* no storage: the browser's language */ }
    return fromBrowser();
  }

  let lang = chosen();
  let msgs = {};
  let fallback = {};
  document.documentElement.classList.add("i18n-pending");
  document.documentElement.lang = lang;

  function fill(v) {
    return typeof v === "number" ? num(v) : String(v);
  }

  /** The message `key` in the page's language ("{name}" filled from `params`); the English one if
   *  this catalog lacks it, the key itself if both do. */
  function t(key, params) {
    let s = Object.prototype.hasOwnProperty.call(msgs, key) ? msgs[key] : fallback[key];
    if (s === undefined) return key;
    if (params) s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? m : fill(params[k])));
    return s;
  }

  /** Whether the catalog has `key` (for text the server sends: translated when known). */
  function has(key) {
    return Object.prototype.hasOwnProperty.call(msgs, key) || Object.prototype.hasOwnProperty.call(fallback, key);
  }

  /** `t(key, params)` when the catalog has `key`, else `raw`. */
  function maybe(key, raw, params) {
    return has(key) ? t(key, params) : raw;
  }

  /** A number in the page's language. */
  function num(n, opts) {
    return new Intl.NumberFormat(lang, opts).format(n);
  }

  /** A date (a Date or milliseconds) in the page's language. */
  function date(d, opts) {
    return new Intl.DateTimeFormat(lang, opts || { dateStyle: "medium", timeStyle: "short" }).format(d);
  }

  /** An error shown to a player: the message in English (the server's words, with details), by its
   *  code in another language when the catalog knows the code, else the message. */
  function error(e) {
    if (lang !== "en" && e && e.code && has("err." + e.code)) return t("err." + e.code, e.params || {});
    return e && e.message ? e.message : String(e);
  }

  /** Fills the data-i18n attributes under `root`. */
  function apply(root) {
    for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
    for (const [attr, name] of [["i18nTitle", "title"], ["i18nPlaceholder", "placeholder"], ["i18nAriaLabel", "aria-label"]]) {
      const sel = "[data-" + attr.replace(/[A-Z]/g, (c) => "-" + c.toLowerCase()) + "]";
      for (const e of root.querySelectorAll(sel)) e.setAttribute(name, t(e.dataset[attr]));
    }
  }

  /** Remembers `l` and shows the page again in it. */
  function choose(l) {
    try { localStorage.setItem(STORE, l); } catch (e) { /* this page only */ }
    location.reload();
  }

  function addSwitch() {
    if (document.getElementById("lang-switch")) return;
    const box = document.createElement("div");
    box.id = "lang-switch";
    box.className = "lang-switch";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", t("lang.switch"));
    for (const [l, label] of Object.entries(LANGS)) {
      const b = document.createElement("button");
      b.type = "button";
      b.lang = l;
      b.dataset.lang = l;
      b.textContent = label;
      b.setAttribute("aria-pressed", String(l === lang));
      b.addEventListener("click", () => { if (l !== lang) choose(l); });
      box.append(b);
    }
    const header = document.querySelector("header");
    if (header) header.append(box); else document.body.prepend(box);
  }

  async function load(l) {
    const res = await fetch(base + l + ".json");
    if (!res.ok) throw new Error(res.status + " " + res.statusText);
    return res.json();
  }

  const ready = (async () => {
    try {
      try {
        msgs = await load(lang);
      } catch (e) {
        lang = "en";
        msgs = await load("en");
      }
      if (lang !== "en") { try { fallback = await load("en"); } catch (e) { fallback = {}; } }
    } catch (e) {
      msgs = {}; // no catalog at all: the page's own English stays
    }
    document.documentElement.lang = lang;
    if (document.readyState === "loading") await new Promise((r) => document.addEventListener("DOMContentLoaded", r, { once: true }));
    if (Object.keys(msgs).length) apply(document);
    addSwitch();
    document.documentElement.classList.remove("i18n-pending");
  })();
  // Never keep the page hidden for long, whatever happens to the catalog.
  setTimeout(() => document.documentElement.classList.remove("i18n-pending"), 3000);

  return { t, has, maybe, num, date, error, apply, choose, ready, get lang() { return lang; }, langs: LANGS };
})();

/** Shorthand for I18n.t. */
const t = I18n.t;
