// Benchmark 1: the JavaScript each public page makes the browser download.
//
// Each page is loaded in Chromium (a fresh context, so a cold cache); every response that is
// a script (by resource type, content type or .js URL, so module preloads count too) is
// recorded once, its body gzipped with node:zlib at level 9, and its bytes attributed to
// React's runtime, other libraries, our code and bundler glue (see attribution.mjs).
//
// Pages: every route of the route table (bench/routes.mjs: the browser tests' route list,
// signed in as the demo owner where the route wants a user) plus the home page showing a toast.
// Budgets (issue 10): a page without a form (no island) ships no React and at most 5 KB gzip
// (the shell's plain script); every page, the heaviest form included, at most 80 KB gzip.
//
// Alone: BENCH_URL=http://localhost:8789 node bench/js-bytes.mjs   (build in .builds/bench)
// Some pages: BENCH_PAGES="/sign-in,home + toast" (page names as in the table) with the above.
import { pathToFileURL } from "node:url";
import { attributeClientBuild, GROUPS, GZIP_LEVEL, gzipSize, shareGzip } from "./attribution.mjs";
import { launchChromium, signIn, switchLanguage, waitForToast } from "./browser.mjs";
import { assertStatus } from "./objects.mjs";
import { formatTable, kb, table } from "./report.mjs";
import { benchRoutes } from "./routes.mjs";
import { BENCH_CONFIG, benchUrl } from "./server.mjs";

export const OUR_CODE_BUDGET_BYTES = 10 * 1000; // 10 KB (kB as Vite prints them), gzip
export const NO_FORM_BUDGET_BYTES = 5 * 1000; // a page without islands: the shell's script only
export const PAGE_BUDGET_BYTES = 80 * 1000; // any page, the heaviest form included

const TOAST_PAGE = { name: "home + toast", path: "/", toast: true };

function isScript(response) {
  const type = response.request().resourceType();
  const contentType = response.headers()["content-type"] ?? "";
  return type === "script" || /javascript|ecmascript/.test(contentType) || /\.m?js($|\?)/.test(response.url());
}

// One sign-in per demo user for the whole run, its cookies reused by every later page: a sign-in
// per page would run into the server's sign-in throttle (100 per address in 10 minutes).
const sessions = new Map();

async function signedInAs(context, baseUrl, email) {
  const cookies = sessions.get(email);
  if (cookies) return context.addCookies(cookies);
  await signIn(context, baseUrl, email);
  sessions.set(email, await context.cookies());
}

async function scriptsOfPage(browser, baseUrl, page) {
  const context = await browser.newContext();
  try {
    const tab = await context.newPage();
    const seen = new Map();
    tab.on("response", (response) => {
      if (!isScript(response) || seen.has(response.url())) return;
      seen.set(
        response.url(),
        response.body().then(
          (body) => ({
            url: response.url(),
            status: response.status(),
            encoding: response.headers()["content-encoding"] ?? null,
            body,
          }),
          (error) => ({ url: response.url(), status: response.status(), error: String(error) }),
        ),
      );
    });
    if (page.signedIn) await signedInAs(context, baseUrl, page.signedIn);
    const target = page.toast ? await switchLanguage(context, baseUrl) : `${baseUrl}${page.path}`;
    const response = await tab.goto(target, { waitUntil: "load" });
    await tab.waitForLoadState("networkidle");
    let toastShown = null;
    if (page.toast) {
      await waitForToast(tab);
      toastShown = true;
      await tab.waitForLoadState("networkidle");
    }
    // A form enhanced by a plain script of its own (the sign-in page) is a form page too.
    const islands = await tab.$$eval("[data-island], [data-form-script]", (els) =>
      els.map((el) => el.getAttribute("data-island") ?? `${el.getAttribute("data-form-script")} (plain script)`),
    );
    const scripts = await Promise.all(seen.values());
    return { status: response?.status() ?? null, islands, toastShown, scripts };
  } finally {
    await context.close();
  }
}

/** Loads every page and returns per-page script bytes, their attribution and the budgets. */
export async function measureJsBytes({ baseUrl = benchUrl(), distDir = BENCH_CONFIG.distDir, browser } = {}) {
  const ownBrowser = !browser;
  const chromium = browser ?? (await launchChromium());
  const routes = await benchRoutes(chromium, baseUrl);
  const attribution = await attributeClientBuild({ distDir });
  const pages = [];
  try {
    // BENCH_PAGES="/sign-in,home + toast" measures only the pages of those names.
    const only = process.env.BENCH_PAGES?.split(",").map((name) => name.trim());
    for (const page of [...routes, TOAST_PAGE].filter((p) => !only || only.includes(p.name))) {
      const { status, islands, toastShown, scripts } = await scriptsOfPage(chromium, baseUrl, page);
      assertStatus(page, status);
      const totals = { scripts: scripts.length, rawBytes: 0, gzipBytes: 0, unattributedGzip: 0 };
      for (const g of GROUPS) totals[g] = 0;
      const files = [];
      for (const script of scripts) {
        if (script.error) throw new Error(`could not read ${script.url}: ${script.error}`);
        const fileName = new URL(script.url).pathname.replace(/^\//, "");
        const gzip = gzipSize(script.body);
        const known = attribution.get(fileName);
        // Attribute only bytes we can prove are the analysed build's.
        const identical = known && Buffer.from(known.code).equals(script.body);
        const split = identical ? shareGzip(gzip, known.standaloneGzipByGroup) : null;
        files.push({
          file: fileName,
          status: script.status,
          contentEncoding: script.encoding,
          rawBytes: script.body.length,
          gzipBytes: gzip,
          containsReactDom: identical ? known.containsReactDom : script.body.includes("react-dom"),
          gzipByGroup: split,
          minifiedBytesByGroup: identical ? known.minifiedBytesByGroup : null,
          minifiedBytesByPackage: identical ? known.minifiedBytesByPackage : null,
        });
        totals.rawBytes += script.body.length;
        totals.gzipBytes += gzip;
        if (split) for (const g of GROUPS) totals[g] += split[g];
        else totals.unattributedGzip += gzip;
      }
      totals.ourCodeGzip = totals.ours + totals.glue;
      pages.push({ name: page.name, path: page.path, toast: Boolean(page.toast), status, islands, toastShown, files, totals });
    }
  } finally {
    if (ownBrowser) await chromium.close();
  }
  return { gzipLevel: GZIP_LEVEL, ourCodeBudgetBytes: OUR_CODE_BUDGET_BYTES, pages, budgets: budgetsOf(pages, routes) };
}

function budgetsOf(pages, routes) {
  return pages.map((page) => {
    const t = page.totals;
    const react = page.files.some((f) => f.containsReactDom);
    const who = page.toast ? "toast" : !routes.find((r) => r.path === page.path)?.signedIn ? "signed out" : "signed in";
    if (page.islands.length === 0 && !page.toast) {
      return {
        name: `${page.name} (${who}, no form): no React, ≤ 5 KB gzip`,
        value: `${t.scripts} scripts, ${kb(t.gzipBytes)}${react ? ", React" : ""}`,
        pass: !react && t.gzipBytes <= NO_FORM_BUDGET_BYTES,
      };
    }
    return {
      name: `${page.name} (${who}, ${page.islands.join(",") || "toaster"}): ≤ 80 KB gzip`,
      value: `${t.scripts} scripts, ${kb(t.gzipBytes)}`,
      pass: t.gzipBytes <= PAGE_BUDGET_BYTES,
    };
  });
}

export function jsBytesTable(result) {
  return table(
    ["page", "islands", "scripts", "gzip total", "React runtime", "libraries", "our code", "bundler glue"],
    result.pages.map((p) => [
      `${p.name} (${p.status})`,
      p.islands.join(",") || "-",
      p.totals.scripts,
      kb(p.totals.gzipBytes),
      kb(p.totals.react),
      kb(p.totals.libraries),
      kb(p.totals.ours),
      kb(p.totals.glue),
    ]),
  );
}

export function jsChunksTable(result) {
  const files = new Map();
  for (const page of result.pages) for (const f of page.files) files.set(f.file, f);
  return table(
    ["chunk", "raw", "gzip", "React", "libraries", "ours", "glue", "packages (minified bytes)"],
    [...files.values()].map((f) => [
      f.file,
      kb(f.rawBytes),
      kb(f.gzipBytes),
      ...(f.gzipByGroup ? GROUPS.map((g) => kb(f.gzipByGroup[g])) : ["?", "?", "?", "?"]),
      Object.entries(f.minifiedBytesByPackage ?? {})
        .map(([pkg, bytes]) => `${pkg} ${kb(bytes)}`)
        .join(", "),
    ]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureJsBytes();
  console.log(formatTable(jsBytesTable(result)));
  console.log(formatTable(jsChunksTable(result)));
  for (const b of result.budgets) console.log(`${b.pass ? "PASS" : "FAIL"}  ${b.name}: ${b.value}`);
}
