import { fileURLToPath } from "node:url";
import { cloudflare } from "@cloudflare/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { clientManifest, clientOutDir, distDir } from "./tooling/client-manifest.ts";
import { pageStyles } from "./tooling/page-styles/plugin.ts";
import { reactStringChunks } from "./tooling/react-string-chunks.ts";
import { sonnerWithoutInjectedCss } from "./tooling/sonner-css.ts";

/** The Worker's Vite environment: its wrangler name with dashes as underscores. */
const workerEnvironment = "configuration_tool";

export default defineConfig(({ command, isPreview }) => ({
  // `@/…` is `src/…` (tsconfig.json paths), so imports never climb folders.
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./src", import.meta.url)),
      // csv-parse/stream's one Node.js import, whose two classes the Workers runtime has as globals.
      "node:stream/web": fileURLToPath(new URL("./src/server/web-streams.ts", import.meta.url)),
    },
  },
  plugins: [
    cloudflare({
      // Local D1 and other state; the browser tests point this at a throwaway folder.
      persistState: process.env.PERSIST_TO ? { path: process.env.PERSIST_TO } : true,
      // `npm run dev` is development: the error screen shows stacks. The build keeps wrangler.toml's vars.
      config: command === "serve" && !isPreview ? { vars: { APP_ENV: "development" } } : undefined,
    }),
    tailwindcss(),
    clientManifest(),
    // Each page's own CSS, inlined by the Worker (src/server/render/page-styles.ts).
    pageStyles({ root: fileURLToPath(new URL(".", import.meta.url)) }),
    sonnerWithoutInjectedCss(),
    // React's streaming renderer encodes once per flush, not once per tag (issue 24).
    reactStringChunks(),
  ],
  environments: {
    client: {
      build: {
        outDir: clientOutDir,
        manifest: true,
        // The server already sends <link rel="modulepreload"> for each island's chunks
        // (src/server/render/assets.ts), so Vite's own preload helper would only add bytes.
        modulePreload: false,
        // The CSS is inlined into each page by the Worker (src/server/render/page-styles.ts), so it is no entry here.
        rollupOptions: {
          // The toaster and the switcher panel are entries the shell imports by URL: keep their exports.
          preserveEntrySignatures: "exports-only",
          input: [
            "src/islands/runtime/client.ts",
            "src/shell/shell.ts",
            // Loaded by the shell on demand, from URLs the page names (no preload helper in the shell).
            "src/shell/toaster.tsx",
            "src/shell/switcher-panel.ts",
            // The sign-in page's plain script (no React), linked by that page alone.
            "src/enhance/sign-in.ts",
            // Plain scripts of pages without a form, linked by those pages alone (no React).
            "src/enhance/live-counts.ts",
            "src/enhance/more-entries.ts",
            // The firmware upload form's script: the file in parts of 8 MiB, with progress and resume.
            "src/enhance/firmware-upload.ts",
            // The new API token's copy button.
            "src/enhance/copy-secret.ts",
            // The WebAuthn library, loaded by URL when a passkey ceremony starts (src/islands/webauthn.ts).
            "src/islands/webauthn.ts",
          ],
        },
      },
    },
    [workerEnvironment]: {
      build: { outDir: `${distDir}/${workerEnvironment}` },
      // Pre-bundle React for the Worker, so the optimizer never re-runs mid-request (TOOLCHAIN.md).
      optimizeDeps: { include: ["react", "react/jsx-runtime", "react/jsx-dev-runtime", "react-dom/server.edge"] },
    },
  },
  builder: {
    // The client first, so the Worker build can embed its manifest.
    async buildApp(builder) {
      const client = builder.environments.client;
      const worker = builder.environments[workerEnvironment];
      if (!client || !worker) throw new Error("missing client or worker environment");
      await builder.build(client);
      await builder.build(worker);
    },
  },
}));
