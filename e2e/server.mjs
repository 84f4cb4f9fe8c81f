// Shared by the browser tests: where the qiyi binary and Chromium are, and `qiyi serve` started on
// a free port.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The qiyi binary: $QIYI_BIN, else the release or debug build of this checkout. */
export const bin = process.env.QIYI_BIN || ["target/release/qiyi", "target/debug/qiyi"].map((p) => join(root, p)).find(existsSync);

/** Debian's Chromium (or $CHROMIUM). */
export const chromePath = process.env.CHROMIUM || "/usr/bin/chromium";

/** Chromium's flags for a headless run in CI. */
export const launchArgs = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"];

/** Exits with status 2 and a hint when there is no qiyi binary. */
export function requireBinary() {
  if (!bin || !existsSync(bin)) {
    console.error("no qiyi binary: build it (cargo build --release -p qiyi) or set QIYI_BIN");
    process.exit(2);
  }
}

/**
 * Spawns `qiyi serve --json` on `port` (0: a free one) with the database `db` (default in memory);
 * resolves with `{ child, url }` once it prints the URL (which ends with a slash).
 */
export function startServer({ port = 0, db = ":memory:" } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["serve", "--host", "127.0.0.1", "--port", String(port), "--db", db, "--json"], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    const timer = setTimeout(() => reject(new Error("the server printed no URL within 20 s")), 20000);
    child.stdout.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("{"));
      if (line) {
        clearTimeout(timer);
        resolve({ child, url: JSON.parse(line).url });
      }
    });
    child.on("exit", (code, sig) => { clearTimeout(timer); reject(new Error(`the server exited (${code ?? sig})`)); });
  });
}

/**
 * A test's check list: `record(name, ok, detail)` prints one line ("ok" or "FAIL") and keeps it in
 * `results`, which the test reads at the end for its summary and exit status.
 */
export function recorder() {
  const results = [];
  function record(name, ok, detail) {
    results.push({ name, ok, detail });
    console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail ? " — " + detail : ""}`);
  }
  return { results, record };
}

/** Calls the server's JSON API (`token`: a seat's bearer token); throws on an error status. */
export async function api(url, method, body, token) {
  const headers = { "content-type": "application/json" };
  if (token) headers.authorization = "Bearer " + token;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await res.json();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(data)}`);
  return data;
}
