// A plain static file server for the browser tests of the static site (no qiyi process): files
// under `root` with their content type, nothing else.
import { createServer } from "node:http";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css",
  ".json": "application/json", ".webmanifest": "application/manifest+json", ".wasm": "application/wasm",
  ".svg": "image/svg+xml", ".png": "image/png", ".woff2": "font/woff2", ".gz": "application/gzip",
  ".txt": "text/plain",
};

/**
 * The built static site: $QIYI_SITE, else `target/site` of this checkout. Exits with status 2 and
 * a hint when it has not been built.
 */
export function requireSite() {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const site = process.env.QIYI_SITE || join(root, "target/site");
  if (!existsSync(join(site, "pkg/qiyi_wasm_bg.wasm"))) {
    console.error(`no static site at ${site}: build it (python3 scripts/site/build.py target/site) or set QIYI_SITE`);
    process.exit(2);
  }
  return site;
}

/** Serves `root` on a free port of 127.0.0.1; resolves `{ url, close, hits }` (hits: paths asked). */
export function serveStatic(root) {
  const hits = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://x").pathname);
    hits.push(path);
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    if (!file.startsWith(normalize(root))) { res.writeHead(403).end(); return; }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] || "application/octet-stream" }).end(body);
    } catch (e) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({
    url: `http://127.0.0.1:${server.address().port}/`,
    hits,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
  })));
}
