// The check that `scripts/start.mjs` with DIRECT_PORT keeps the pages whole (issue 24): PORT
// serves the pages and their static scripts, DIRECT_PORT the Worker alone (no assets, no proxy
// Workers). It fails loudly if a page's script does not answer 200 on PORT, which is how the
// pages once lost their scripts without a word. bench/live-connections.mjs runs it on its own
// server before measuring.
//
// Alone (builds, starts a server with DIRECT_PORT, checks, stops):
//   node bench/direct-port.mjs        (DIRECT_CHECK_PORT=8797: pages there, the Worker alone on 8798)
import { pathToFileURL } from "node:url";
import { buildApp, startServer } from "./server.mjs";

/** Throws unless the home page's module scripts answer 200 on `pageUrl`, and the Worker alone answers on `directUrl`. */
export async function assertDirectPortKeepsAssets({ pageUrl, directUrl }) {
  const home = await fetch(`${pageUrl}/`);
  const html = await home.text();
  if (home.status !== 200) throw new Error(`${pageUrl}/ answered ${home.status}`);
  const scripts = [...html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
  if (scripts.length === 0) throw new Error(`${pageUrl}/ names no script: the check would prove nothing`);
  const lines = [];
  for (const src of scripts) {
    const onPages = await fetch(new URL(src, pageUrl));
    await onPages.arrayBuffer();
    const type = onPages.headers.get("content-type") ?? "";
    if (onPages.status !== 200 || !/javascript/.test(type)) {
      throw new Error(`${src} answered ${onPages.status} (${type}) on ${pageUrl}: the pages lost their scripts`);
    }
    lines.push(`${src}: 200 ${type} on ${pageUrl}`);
  }
  const health = await fetch(`${directUrl}/healthz`);
  await health.arrayBuffer();
  if (health.status !== 200) throw new Error(`${directUrl}/healthz answered ${health.status}: the Worker alone is not there`);
  lines.push(`/healthz: 200 on ${directUrl} (the Worker alone)`);
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.DIRECT_CHECK_PORT ?? 8797);
  const own = { distDir: ".builds/direct-check", persistTo: ".builds/direct-check-state" };
  if (!process.env.DIRECT_CHECK_NO_BUILD) buildApp({ distDir: own.distDir });
  process.env.DIRECT_PORT = String(port + 1);
  const server = await startServer({ port: String(port), ...own });
  try {
    const lines = await assertDirectPortKeepsAssets({ pageUrl: server.url, directUrl: `http://localhost:${port + 1}` });
    for (const line of lines) console.log(line);
    console.log("PASS  DIRECT_PORT set: the pages' scripts answer 200 on PORT");
  } finally {
    await server.stop();
  }
}
