// The CSS each page inlines in its <head> (issue 10 §3: first paint in one round trip, only
// the rules the page can use; tooling/page-styles). Every route of the route table
// (bench/routes.mjs, signed in as the demo owner where the route wants a user) plus the
// not-found, error and single sign-on problem screens, fetched as HTML; the <style> element's
// text measured raw and gzipped (node:zlib level 9, as bench/js-bytes.mjs). "Before" is the
// whole stylesheet every page inlined until each page had its own (built as it was then).
//
// Alone: node bench/css-bytes.mjs   (builds into .builds/bench-css and serves it on BENCH_PORT, 8789)
// Against a running server: BENCH_URL=http://localhost:8789 node bench/css-bytes.mjs
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { wholeSheet } from "../tooling/page-styles/plugin.ts";
import { launchChromium, signIn } from "./browser.mjs";
import { formatTable, kb, markdownTable, table } from "./report.mjs";
import { benchRoutes } from "./routes.mjs";
import { buildApp, ROOT, startServer } from "./server.mjs";

const EXTRA_PAGES = [
  { name: "not-found screen", path: "/no-such-page-bench", signedIn: true },
  { name: "error screen (unknown account)", path: "/accounts/acc_does_not_exist", signedIn: true },
  { name: "single sign-on problem page", path: "/api/auth/signin/no-such-provider", signedIn: false },
];

const gzip = (text) => gzipSync(Buffer.from(text), { level: 9 }).length;
const inlineStyle = (html) => /<head>[\s\S]*?<style[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? null;

/** Every page's inline CSS, raw and gzip, against the whole sheet each page inlined before. */
export async function measureCssBytes({ baseUrl, browser }) {
  const whole = await wholeSheet(ROOT);
  const before = { rawBytes: whole.length, gzipBytes: gzip(whole) };
  const routes = await benchRoutes(browser, baseUrl);
  const signedIn = await browser.newContext();
  const signedOut = await browser.newContext();
  try {
    await signIn(signedIn, baseUrl, "owner@example.com");
    const pages = [];
    for (const page of [...routes, ...EXTRA_PAGES]) {
      const response = await (page.signedIn ? signedIn : signedOut).request.get(`${baseUrl}${page.path}`);
      if (!(response.headers()["content-type"] ?? "").startsWith("text/html")) continue; // CSV downloads
      const css = inlineStyle(await response.text());
      if (css === null) throw new Error(`${page.path} (${response.status()}): no inline <style>`);
      pages.push({ name: page.name, path: page.path, status: response.status(), rawBytes: css.length, gzipBytes: gzip(css) });
    }
    return { before, pages };
  } finally {
    await Promise.all([signedIn.close(), signedOut.close()]);
  }
}

const share = (after, before) => `${((after / before) * 100).toFixed(0)} %`;

export function cssBytesTable({ before, pages }) {
  return table(
    ["page", "raw before", "raw after", "gzip before", "gzip after", "gzip after/before"],
    pages.map((p) => [
      `${p.name} (${p.status})`,
      kb(before.rawBytes),
      kb(p.rawBytes),
      kb(before.gzipBytes),
      kb(p.gzipBytes),
      share(p.gzipBytes, before.gzipBytes),
    ]),
  );
}

export function cssBytesSummary({ before, pages }) {
  const raw = pages.map((p) => p.rawBytes);
  const gz = pages.map((p) => p.gzipBytes);
  return [
    `before: every page ${kb(before.rawBytes)} raw, ${kb(before.gzipBytes)} gzip`,
    `after (${pages.length} pages): raw ${kb(Math.min(...raw))}–${kb(Math.max(...raw))}, gzip ${kb(Math.min(...gz))}–${kb(Math.max(...gz))}`,
  ];
}

export async function writeCssBytes(result) {
  const lines = cssBytesSummary(result);
  await writeFile(
    join(ROOT, "bench/results/css-bytes.md"),
    `# Inline CSS per page\n\n${new Date().toISOString()} · \`node bench/css-bytes.mjs\` (see its header).\n\n${lines.map((l) => `- ${l}`).join("\n")}\n\n${markdownTable(cssBytesTable(result))}\n`,
  );
  return [...lines, "Wrote bench/results/css-bytes.md"].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  let server = null;
  const browser = await launchChromium();
  try {
    let baseUrl = process.env.BENCH_URL?.replace(/\/$/, "");
    if (!baseUrl) {
      buildApp({ distDir: ".builds/bench-css" });
      server = await startServer({ distDir: ".builds/bench-css", persistTo: ".builds/bench-css-state" });
      baseUrl = server.url;
    }
    const result = await measureCssBytes({ baseUrl, browser });
    console.log(formatTable(cssBytesTable(result)));
    console.log(await writeCssBytes(result));
  } finally {
    await browser.close();
    await server?.stop();
  }
}
