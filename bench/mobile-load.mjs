// Benchmark 3: loading on a slow phone, as Lighthouse's mobile profile simulates one, but with
// DevTools ("applied") throttling through the Chrome DevTools Protocol:
//   Emulation.setCPUThrottlingRate { rate: 4 }
//   Network.emulateNetworkConditions: latency 562.5 ms (150 ms RTT × 3.75),
//     download 1474.56 kbps (1.6 Mbps × 0.9) = 1474.56 × 1024 / 8 = 188,743.68 B/s,
//     upload 675 kbps (750 kbps × 0.9) = 675 × 1024 / 8 = 86,400 B/s
//     (Lighthouse's mobileSlow4G, DevTools variant);
//   a 412×823 viewport at deviceScaleFactor 1.75, touch, a Moto G Power user agent.
// Every run gets a new browser context: cold HTTP cache, no cookies.
//
// FCP and LCP come from PerformanceObserver ('paint', 'largest-contentful-paint'), observed
// from an init script (so from the start of the document), read once the page has loaded,
// the network has been idle for 500 ms and a further settle has passed. TBT is the sum over
// 'longtask' entries of the part of each task after FCP beyond 50 ms, up to that moment.
// Pages: the signed-in pages without a form (welcome, /accounts, account home, sites; signed in
// as the demo owner before throttling starts), the home page, and the home page after switching
// language, which shows a toast (the toaster loads with it), and real objects (bench/objects.mjs):
// a running and a finished deployment and an activity log with a next page. A page that does not
// answer 200 stops the run. "Interactive" is when the shell's
// script has enhanced the header (the profile menu became a menu button); with plain page scripts,
// when the live counts follow their deployment and "Load more" is a button; with islands, when
// every island marker has hydrated. Median of 9 runs: one run of a page varies by ±100 ms on
// these machines (a 9-run sample of the sites page spanned 812–1,096 ms), more than any change
// to the page moves it (removing the whole signed-in header moved the median by less than that).
// Compression: pages load through bench/gzip-proxy.mjs, which gzips every text response as
// it streams (level 6), as Cloudflare's edge does for a deployed Worker; the local server does not.
//
// Alone: BENCH_URL=http://localhost:8789 node bench/mobile-load.mjs
import { pathToFileURL } from "node:url";
import { launchChromium, signIn, switchLanguage, waitForToast } from "./browser.mjs";
import { startGzipProxy } from "./gzip-proxy.mjs";
import { assertStatus, benchObjectPages, makeBenchObjects } from "./objects.mjs";
import { formatTable, median, ms, table } from "./report.mjs";
import { benchUrl, machineBusyMs, sleep } from "./server.mjs";

export const MOBILE_PROFILE = {
  cpuSlowdown: 4,
  latencyMs: 562.5,
  downloadKbps: 1474.56,
  uploadKbps: 675,
  downloadBytesPerS: (1474.56 * 1024) / 8,
  uploadBytesPerS: (675 * 1024) / 8,
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  userAgent:
    "Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0.0.0 Mobile Safari/537.36",
};

const SETTLE_MS = 1500;

const OBSERVE = () => {
  const perf = { paints: {}, lcp: null, longTasks: [], toastAt: null, interactiveAt: null };
  window.__benchPerf = perf;
  const observe = (type, callback) => {
    try {
      new PerformanceObserver((list) => list.getEntries().forEach(callback)).observe({ type, buffered: true });
    } catch {
      // not supported
    }
  };
  observe("paint", (e) => {
    perf.paints[e.name] = e.startTime;
  });
  observe("largest-contentful-paint", (e) => {
    perf.lcp = { startTime: e.startTime, size: e.size, element: e.element ? e.element.tagName.toLowerCase() : null };
  });
  observe("longtask", (e) => {
    perf.longTasks.push({ startTime: e.startTime, duration: e.duration });
  });
  const check = () => {
    if (perf.toastAt === null && document.querySelector("[data-sonner-toast]")) perf.toastAt = performance.now();
    // The shell has run once the profile menu is a menu button; islands once React rendered into each marker.
    const shell = !document.querySelector("details[data-menu]") && document.querySelector("button[aria-haspopup=menu]");
    // Plain page scripts: the live counts follow their deployment; "Load more" became a button.
    const plain =
      !document.querySelector("[data-live-counts]:not([data-following])") && !document.querySelector("[data-more-entries] a");
    const islands = [...document.querySelectorAll("[data-island]")].every(
      (el) => el._reactRootContainer || Object.keys(el).some((k) => k.startsWith("__reactContainer")),
    );
    if (perf.interactiveAt === null && shell && islands && plain) perf.interactiveAt = performance.now();
  };
  new MutationObserver(check).observe(document, { childList: true, subtree: true });
  // Hydrating an island changes no DOM when its markup matches: look every 50 ms as well.
  const timer = setInterval(() => {
    check();
    if (perf.interactiveAt !== null) clearInterval(timer);
  }, 50);
};

const OWNER = "owner@example.com";

export const MOBILE_PAGES = [
  { name: "welcome (signed in)", path: "/welcome", signedIn: OWNER },
  { name: "accounts list (signed in)", path: "/accounts", signedIn: OWNER },
  { name: "account home (signed in)", path: "/accounts/acc_metro_bus", signedIn: OWNER },
  { name: "sites (signed in)", path: "/accounts/acc_metro_bus/sites", signedIn: OWNER },
  { name: "home", path: "/" },
  { name: "home + toast (island hydrates)", path: "/", toast: true },
];

async function oneRun(browser, baseUrl, page) {
  const context = await browser.newContext({
    viewport: MOBILE_PROFILE.viewport,
    deviceScaleFactor: MOBILE_PROFILE.deviceScaleFactor,
    isMobile: true,
    hasTouch: true,
    userAgent: MOBILE_PROFILE.userAgent,
  });
  try {
    if (page.signedIn) await signIn(context, baseUrl, page.signedIn);
    const target = page.toast ? await switchLanguage(context, baseUrl) : `${baseUrl}${page.path}`;
    const tab = await context.newPage();
    await tab.addInitScript(OBSERVE);
    const cdp = await context.newCDPSession(tab);
    await cdp.send("Network.enable");
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: false });
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: MOBILE_PROFILE.latencyMs,
      downloadThroughput: MOBILE_PROFILE.downloadBytesPerS,
      uploadThroughput: MOBILE_PROFILE.uploadBytesPerS,
    });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: MOBILE_PROFILE.cpuSlowdown });
    const urls = new Map();
    const resources = [];
    let requests = 0;
    let transferred = 0;
    cdp.on("Network.requestWillBeSent", (event) => urls.set(event.requestId, event.request.url));
    cdp.on("Network.loadingFinished", (event) => {
      requests += 1;
      transferred += event.encodedDataLength;
      resources.push({ url: urls.get(event.requestId) ?? "?", encodedBytes: event.encodedDataLength });
    });

    const busyBefore = machineBusyMs();
    const started = performance.now();
    const response = await tab.goto(target, { waitUntil: "load", timeout: 60_000 });
    assertStatus(page, response?.status() ?? null);
    const loadMs = await tab.evaluate(() => performance.getEntriesByType("navigation")[0]?.loadEventEnd ?? null);
    if (page.toast) await waitForToast(tab, 60_000);
    await tab.waitForLoadState("networkidle", { timeout: 60_000 });
    await sleep(SETTLE_MS);
    const perf = await tab.evaluate(() => ({ ...window.__benchPerf, now: performance.now() }));
    // All the machine's CPU use during the run (this browser included): a noise indicator.
    const machineBusyCores = (machineBusyMs() - busyBefore) / (performance.now() - started);
    await cdp.detach();

    const fcp = perf.paints["first-contentful-paint"] ?? null;
    let tbt = null;
    if (fcp != null) {
      tbt = 0;
      for (const task of perf.longTasks) {
        const start = Math.max(task.startTime, fcp);
        const end = Math.min(task.startTime + task.duration, perf.now);
        if (end - start > 50) tbt += end - start - 50;
      }
    }
    return {
      fcp,
      lcp: perf.lcp?.startTime ?? null,
      lcpElement: perf.lcp?.element ?? null,
      tbt,
      longTasks: perf.longTasks.length,
      load: loadMs,
      toastVisible: perf.toastAt,
      interactive: page.signedIn ? perf.interactiveAt : null,
      requests,
      transferredBytes: transferred,
      machineBusyCores,
      resources: resources.map((r) => ({ ...r, url: r.url.replace(baseUrl, "") })),
    };
  } finally {
    await context.close();
  }
}

export async function measureMobileLoad({
  baseUrl = benchUrl(),
  runs = Number(process.env.BENCH_MOBILE_RUNS ?? 9),
  browser,
  log = () => {},
} = {}) {
  const ownBrowser = !browser;
  const chromium = browser ?? (await launchChromium());
  const proxy = await startGzipProxy(baseUrl);
  const pages = [];
  try {
    // A running and a finished deployment and a log with a next page: the pages' own scripts run.
    const setup = await chromium.newContext();
    await signIn(setup, baseUrl, OWNER);
    const objects = await makeBenchObjects(setup.request, baseUrl);
    await setup.close();
    const objectPages = benchObjectPages(objects).map((page) => ({ ...page, signedIn: OWNER }));
    // BENCH_PAGES="welcome (signed in),…" measures only the pages of those names.
    const only = process.env.BENCH_PAGES?.split(",").map((name) => name.trim());
    for (const page of [...MOBILE_PAGES, ...objectPages].filter((p) => !only || only.includes(p.name))) {
      const results = [];
      for (let i = 0; i < runs; i++) {
        log(`  ${page.name}: run ${i + 1}/${runs}`);
        results.push(await oneRun(chromium, proxy.url, page));
      }
      const pick = (key) => median(results.map((r) => r[key]));
      pages.push({
        name: page.name,
        path: page.path,
        toast: Boolean(page.toast),
        runs: results,
        median: {
          fcp: pick("fcp"),
          lcp: pick("lcp"),
          tbt: pick("tbt"),
          load: pick("load"),
          toastVisible: pick("toastVisible"),
          interactive: pick("interactive"),
          requests: pick("requests"),
          transferredBytes: pick("transferredBytes"),
          machineBusyCores: pick("machineBusyCores"),
        },
      });
    }
  } finally {
    await proxy.close();
    if (ownBrowser) await chromium.close();
  }
  return {
    profile: MOBILE_PROFILE,
    settleMs: SETTLE_MS,
    runsPerPage: runs,
    compression: "gzip level 6 (bench/gzip-proxy.mjs)",
    pages,
  };
}

/** "812–1096 ms": the range of a page's runs, beside their median. */
function spread(values) {
  const known = values.filter((value) => value != null);
  if (!known.length) return "-";
  return `${Math.round(Math.min(...known))}–${ms(Math.max(...known), 0)}`;
}

export function mobileTable(result) {
  return table(
    [
      "page (median of runs)",
      "FCP",
      "LCP",
      "LCP of each run, fastest–slowest",
      "TBT",
      "load event",
      "toast visible",
      "interactive",
      "requests",
      "transferred",
      "machine busy (cores)",
    ],
    result.pages.map((p) => [
      p.name,
      ms(p.median.fcp, 0),
      ms(p.median.lcp, 0),
      spread(p.runs.map((run) => run.lcp)),
      ms(p.median.tbt, 0),
      ms(p.median.load, 0),
      p.toast ? ms(p.median.toastVisible, 0) : "-",
      p.median.interactive == null ? "-" : ms(p.median.interactive, 0),
      p.median.requests ?? "-",
      p.median.transferredBytes == null ? "-" : `${(p.median.transferredBytes / 1000).toFixed(1)} kB`,
      p.median.machineBusyCores == null ? "-" : p.median.machineBusyCores.toFixed(2),
    ]),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureMobileLoad({ log: console.log });
  console.log(formatTable(mobileTable(result)));
}
