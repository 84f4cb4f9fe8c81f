// The message catalogs (crates/web/assets/i18n/*.json) against each other and against the page's
// code, without a browser:
//   1. both catalogs have the same keys, every value a non-empty string, with the same {placeholders};
//   2. every key the code names (t("k"), I18n.t("k"), say("k"), data-i18n*="k") is in the catalogs,
//      and every listed game has its name, description and rules summary;
//   3. no English UI text left in the page code: HTML text outside data-i18n elements, and JS string
//      literals assigned to textContent/innerHTML/title, passed to note()/confirm()/alert()/append()
//      or to el(tag, text), that are not catalog lookups. The scanner is checked on planted lines
//      first, so it is known to find what it looks for.
//
//   node e2e/i18n-catalog.test.mjs
import { readFileSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const assets = join(root, "crates/web/assets");
const siteDir = join(root, "crates/wasm/site");
const LANGS = ["en", "zh-CN", "zh-TW"];
const GAMES = ["xiangqi", "checkers", "chinese-checkers", "peg-solitaire", "aeroplane"];

const cat = Object.fromEntries(LANGS.map((l) => [l, JSON.parse(readFileSync(join(assets, "i18n", l + ".json"), "utf8"))]));
const problems = [];
const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(",");

// 1. The catalogs against each other.
const keys = new Set(LANGS.flatMap((l) => Object.keys(cat[l])));
for (const k of keys) {
  for (const l of LANGS) {
    const v = cat[l][k];
    if (typeof v !== "string" || !v.trim()) problems.push(`${l}: key '${k}' missing or empty`);
  }
  for (const l of LANGS.slice(1)) {
    if (typeof cat.en[k] === "string" && typeof cat[l][k] === "string" && placeholders(cat.en[k]) !== placeholders(cat[l][k]))
      problems.push(`'${k}': placeholders differ (en {${placeholders(cat.en[k])}}, ${l} {${placeholders(cat[l][k])}})`);
  }
}
// The Chinese catalog is Chinese: most values carry CJK characters (numbers-only choices excepted).
const cjk = /[\u3400-\u9fff]/;
for (const l of ["zh-CN", "zh-TW"]) {
  for (const [k, v] of Object.entries(cat[l])) {
    const bare = v.replace(/\{\w+\}/g, "");
    if (!k.endsWith(".other") && !cjk.test(bare) && /[a-z]{3,}/.test(bare)) problems.push(`${l}: '${k}' has no Chinese: ${JSON.stringify(v)}`);
  }
}
// The Traditional catalog is not the Simplified one left unconverted: a value with characters
// that differ between the scripts differs (scripts/i18n/make_zh_tw.py writes it with OpenCC).
const simplifiedOnly = /[这个们说会对时国门车马电话发动见开关书长样进头问题实现应该]/;
// The simplified piece style's name shows its own characters (车马炮) on purpose.
const showsSimplified = new Set(["play.pieceStyle.simplified"]);
for (const [k, v] of Object.entries(cat["zh-TW"])) {
  if (simplifiedOnly.test(v) && !showsSimplified.has(k)) problems.push(`zh-TW: '${k}' keeps Simplified characters: ${JSON.stringify(v)}`);
}

// 2. Keys named in the code.
const files = [
  ...readdirSync(assets).filter((f) => /\.(js|html)$/.test(f)).map((f) => join(assets, f)),
  ...readdirSync(siteDir).filter((f) => /\.js$/.test(f)).map((f) => join(siteDir, f)),
];
const used = new Set();
for (const f of files) {
  const src = readFileSync(f, "utf8");
  for (const m of src.matchAll(/\b(?:t|I18n\.t|say)\(\s*"([^"]+)"/g)) used.add(m[1]);
  for (const m of src.matchAll(/\bt\(\s*([a-z][^()]*?\?\s*"[^"]+"\s*:\s*"[^"]+")/g)) for (const s of m[1].matchAll(/"([^"]+)"/g)) used.add(s[1]);
  for (const m of src.matchAll(/data-i18n(?:-[a-z-]+)?="([^"]+)"/g)) used.add(m[1]);
}
for (const k of used) if (!k.includes(".")) used.delete(k);
for (const k of used) if (k.endsWith(".") ? !Object.keys(cat.en).some((x) => x.startsWith(k)) : !(k in cat.en)) problems.push(`key '${k}' is used in the code but not in the catalogs`);
for (const g of GAMES) for (const k of [`game.${g}`, `game.${g}.other`, `about.${g}`, `rules.${g}`]) if (!(k in cat.en)) problems.push(`no '${k}'`);
// Every error code the API sends has its message. The codes are the `ErrorCode` enum of the
// generated OpenAPI document (crates/web/openapi.json, which `cargo test -p qiyi-web --test
// openapi` keeps equal to the one built from crates/web/src/error.rs).
const apiDoc = JSON.parse(readFileSync(join(root, "crates/web/openapi.json"), "utf8"));
const codes = apiDoc?.components?.schemas?.ErrorCode?.enum ?? [];
if (codes.length < 8) problems.push(`only ${codes.length} error codes read from crates/web/openapi.json (components.schemas.ErrorCode.enum)`);
for (const c of codes) if (!(("err." + c) in cat.en)) problems.push(`no 'err.${c}' for the API's error code ${c}`);
for (const k of ["play.seat.human", "play.seat.ai", "play.seat.seed", "play.toMove", "play.toMoveAi"]) if (!(k in cat.en)) problems.push(`no '${k}'`);

// 3. Hard-coded English.
const WORD = /[A-Za-z]{3,}/;
const isKey = (s) => /^[a-z][\w-]*\.([\w.-]*)$/.test(s) && (s in cat.en || Object.keys(cat.en).some((k) => k.startsWith(s)));
// Visible text of a literal: tags, ${...} and entities removed.
const visible = (s) => s.replace(/\$\{[^}]*\}/g, " ").replace(/<[^>]*>/g, " ").replace(/&\w+;/g, " ");
const TRIGGER = /(\.textContent\s*=|\.innerHTML\s*=|\.innerText\s*=|\.title\s*=|\.alt\s*=|\bnote\(|\bconfirm\(|\balert\(|\.append\(|\bel\([^)]*,)/;

function scanJs(name, src) {
  const found = [];
  src.split("\n").forEach((line, i) => {
    const code = line.replace(/^\s*\/\/.*$/, "").replace(/\s\/\/ .*$/, "");
    // Literals on a line that shows text, and anywhere a phrase (two English words) that is not a
    // selector, a command or console output.
    const phrases = !TRIGGER.test(code);
    const phrase = /(["'`])[^"'`]*[A-Za-z]{2,} [A-Za-z]{2,}[^"'`]*\1|(["'`])[A-Za-z]{3,} \2\s*\+|\+\s*(["'`]) [A-Za-z]{3,}\3/;
    if (phrases && !phrase.test(code)) return;
    for (const m of code.matchAll(/(["'`])((?:\\.|(?!\1).)*)\1/g)) {
      const lit = m[2];
      const before = code.slice(0, m.index);
      if (/(\bt|maybe|I18n\.t|say|\berror)\(\s*$/.test(before)) continue;      // a catalog lookup
      if (/\bt\([^()]*\?\s*$|\bt\([^()]*\?\s*"[^"]*"\s*:\s*$/.test(before)) continue; // t(c ? "k1" : "k2")
      if (/(===|!==|==|!=)\s*$/.test(before) || /^\s*(===|!==)/.test(code.slice(m.index + m[0].length))) continue; // comparisons
      if (/(\$|\bact|addEventListener|getItem|setItem|removeItem)\(\s*$/.test(before)) continue; // ids, names, keys
      if (/\bsay\(\s*"[^"]*",\s*$/.test(before)) continue;                 // say()'s fallback without i18n.js
      if (/^cargo /.test(lit) || lit === "use strict") continue;
      if (/setAttribute\(\s*"(?!title|aria-label|alt|placeholder)[\w-]+",\s*$/.test(before)) continue; // not text                                      // a command to type
      if (/\bel\(\s*$/.test(before) || /createElement(NS)?\(\s*$/.test(before)) continue; // a tag name
      if (/\bclassName\s*=\s*$|\bid\s*=\s*$|querySelector(All)?\(\s*$|getElementById\(\s*$/.test(before)) continue;
      if (/\bel\([^,]*,\s*undefined,\s*$/.test(before) || /\bel\([^,]+,[^,]+,\s*$/.test(before)) continue; // a class
      if (/\bel\(\s*"[\w-]+",\s*$/.test(before) && /^[a-z][\w -]*-[\w -]*$/.test(lit)) continue; // review.js: el(tag, "css-class", text)
      if (isKey(lit)) continue;
      if (!WORD.test(visible(lit).replace(/\bqiyi\b/g, ""))) continue;
      if (phrases && (!/[A-Za-z]{2,} [A-Za-z]{2,}|^[A-Za-z]{3,} $|^ [A-Za-z]{3,}$/.test(visible(lit)) || /^[#.[]|console\.|querySelector/.test(lit) || /console\.\w+\(\s*$|querySelector(All)?\(\s*$/.test(before))) continue;
      found.push(`${name}:${i + 1}: ${JSON.stringify(lit.slice(0, 70))}`);
    }
  });
  return found;
}

function scanHtml(name, src) {
  const found = [];
  const body = src.replace(/<script[\s\S]*?<\/script>/g, "").replace(/<style[\s\S]*?<\/style>/g, "").replace(/<code>[^<]*<\/code>/g, "");
  // Text right after an opening tag without data-i18n, or after a closing tag.
  for (const m of body.matchAll(/(<[^>]+>)([^<]+)/g)) {
    const text = m[2].trim();
    if (!WORD.test(text)) continue;
    if (/^qiyi\b/.test(text) && !WORD.test(text.replace(/^qiyi/, ""))) continue;
    if (/data-i18n=/.test(m[1])) continue;
    found.push(`${name}: ${JSON.stringify(text.slice(0, 70))}`);
  }
  return found;
}

// The scanner finds what it looks for: planted lines.
const planted = [
  'box.textContent = "Cannot list the games";',
  'note(`thinking… depth ${d}`);',
  'el("resign").textContent = x ? "Accept draw" : "Offer draw";',
  'section.append(el("h2", "Results"));',
  'if (confirm("Resign this game?")) act();',
  'moveText: (h) => (h.player === null ? "rolls " + h.text : "plane " + h.text),',
];
for (const p of planted) assert.equal(scanJs("planted", p).length > 0, true, `the scanner misses: ${p}`);
const clean = [
  'box.textContent = t("archive.none");',
  'o.textContent = typeof c === "string" ? I18n.maybe("choice." + k, c) : JSON.stringify(c);',
  'el("offer-draw").textContent = t(x ? "play.acceptDraw" : "play.offerDraw");',
  'section.append(el("h2", I18n.maybe("game." + game, game)));',
];
for (const c of clean) assert.deepEqual(scanJs("clean", c), [], `the scanner flags a clean line: ${c}`);
assert.equal(scanHtml("planted", '<p>Some English here</p>').length, 1);
assert.equal(scanHtml("clean", '<p data-i18n="x.y">Some English here</p>').length, 0);

for (const f of files) {
  const src = readFileSync(f, "utf8");
  const name = f.slice(root.length + 1);
  if (f.endsWith(".html")) problems.push(...scanHtml(name, src).map((s) => "hard-coded text: " + s));
  else if (!/local\.js$|engine-worker\.js$|sw\.js$|backend\.js$|i18n\.js$/.test(f)) problems.push(...scanJs(name, src).map((s) => "hard-coded string: " + s));
}

console.log(`catalogs: ${keys.size} keys in ${LANGS.join(", ")}; ${used.size} named in ${files.length} files; ${codes.length} API error codes`);
if (problems.length) {
  console.error(problems.join("\n"));
  console.error(`FAIL: ${problems.length} problems`);
  process.exit(1);
}
console.log("PASS: every key in every catalog, every key used exists, no hard-coded UI text found");
