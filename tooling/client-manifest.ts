import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Plugin } from "vite";

/** Where builds go; DIST_DIR lets the browser tests and the benchmarks build apart from `npm start`. */
export const distDir = process.env.DIST_DIR ?? "dist";
export const clientOutDir = `${distDir}/client`;

/**
 * `virtual:client-manifest`: in the Worker's production build, the client build's manifest
 * (so pages link the hashed island chunks and CSS); everywhere else null (dev serves sources).
 */
export function clientManifest(): Plugin {
  const id = "virtual:client-manifest";
  return {
    name: "client-manifest",
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load(source) {
      if (source !== `\0${id}`) return;
      const isWorkerBuild = this.environment?.config.command === "build" && this.environment.name !== "client";
      if (!isWorkerBuild) return "export default null;";
      const manifest = readFileSync(resolve(clientOutDir, ".vite/manifest.json"), "utf8");
      return `export default ${manifest};`;
    },
  };
}
