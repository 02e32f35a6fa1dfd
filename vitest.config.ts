import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { clientManifest } from "./tooling/client-manifest.ts";
import { pageStyles } from "./tooling/page-styles/plugin.ts";
import { reactStringChunks } from "./tooling/react-string-chunks.ts";

// The workerd tests: the Worker's own code in the Workers runtime, with the D1 migrations
// applied. Kept apart from vite.config.ts: Vitest fails with the Cloudflare Vite plugin loaded.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("migrations");
  return {
    resolve: {
      alias: {
        "@": fileURLToPath(new URL("./src", import.meta.url)),
        // csv-parse/stream's one Node.js import, whose two classes the Workers runtime has as globals.
        "node:stream/web": fileURLToPath(new URL("./src/server/web-streams.ts", import.meta.url)),
      },
    },
    plugins: [
      clientManifest(),
      pageStyles({ root: fileURLToPath(new URL(".", import.meta.url)) }),
      reactStringChunks(),
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        // A shard trusts its fleet versions for 0 ms and writes a due last-seen before answering,
        // so a test that changes something and checks in sees it (check-in-memory.ts; the bound
        // in production is FLEET_VERSION_FRESH_MS and CONTACT_FLUSH_MS, proven in check-in-memory.test.ts).
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, CHECK_IN_FRESH_MS: "0", CHECK_IN_FLUSH_MS: "0" } },
      }),
    ],
    test: {
      include: ["tests/worker/**/*.test.{ts,tsx}"],
      setupFiles: ["tests/worker/setup.ts"],
    },
  };
});
