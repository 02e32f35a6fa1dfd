// A small compressing reverse proxy for the browser benchmarks. The local server (vite preview
// proxying into workerd) does not compress; a deployed Worker's responses are compressed by
// Cloudflare's edge. So the slow-phone benchmark loads pages through this proxy: every text
// response (HTML, JavaScript, CSS, JSON, SVG) is gzipped (zlib level 6, what most edges use)
// as it streams, flushed chunk by chunk so a streamed page still arrives progressively.
import { createServer, request } from "node:http";
import { constants, createGzip } from "node:zlib";

const COMPRESSIBLE = /^(text\/|application\/(javascript|json|xml)|image\/svg)/;

/** Starts the proxy in front of `target` (an http origin); resolves with its URL and a close(). */
export function startGzipProxy(target) {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const forwarded = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        // The Host stays the proxy's, so the app's origin checks (CSRF) see the browser's origin.
        headers: { ...req.headers, "accept-encoding": "identity" },
      },
      (answer) => {
        const headers = { ...answer.headers };
        const type = String(headers["content-type"] ?? "");
        const wantsGzip = /\bgzip\b/.test(String(req.headers["accept-encoding"] ?? ""));
        if (!wantsGzip || !COMPRESSIBLE.test(type) || headers["content-encoding"] || answer.statusCode === 204) {
          res.writeHead(answer.statusCode ?? 502, headers);
          answer.pipe(res);
          return;
        }
        delete headers["content-length"];
        headers["content-encoding"] = "gzip";
        headers.vary = headers.vary ? `${headers.vary}, Accept-Encoding` : "Accept-Encoding";
        res.writeHead(answer.statusCode ?? 502, headers);
        const gzip = createGzip({ level: 6, flush: constants.Z_SYNC_FLUSH });
        answer.pipe(gzip).pipe(res);
      },
    );
    forwarded.on("error", () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(forwarded);
  });
  return new Promise((resolve) => {
    server.listen(0, "localhost", () => {
      const { port } = server.address();
      resolve({ url: `http://localhost:${port}`, close: () => new Promise((done) => server.close(done)) });
    });
  });
}
