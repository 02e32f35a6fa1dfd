import { fileURLToPath } from "node:url";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { clientManifest } from "../../tooling/client-manifest.ts";
import { pageStyles } from "../../tooling/page-styles/plugin.ts";

// The scale benchmark (bench/list-scale.mjs): the Worker's app in workerd over its own
// isolated D1 (not npm start's, not the tests'), filled with generated rows.
export default defineConfig(async () => {
  const migrations = await readD1Migrations(fileURLToPath(new URL("../../migrations", import.meta.url)));
  return {
    root: fileURLToPath(new URL("../..", import.meta.url)),
    resolve: { alias: { "@": fileURLToPath(new URL("../../src", import.meta.url)) } },
    plugins: [
      clientManifest(),
      // The renderer inlines each page's own sheet (src/server/render/page-styles.ts).
      pageStyles({ root: fileURLToPath(new URL("../..", import.meta.url)) }),
      cloudflareTest({
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
      }),
    ],
    test: {
      include: ["bench/scale/**/*.bench-test.ts"],
      setupFiles: ["tests/worker/setup.ts"],
      testTimeout: 900_000,
      hookTimeout: 900_000,
    },
  };
});
