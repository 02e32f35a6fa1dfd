import { defineConfig, devices } from "@playwright/test";
import { chromiumPath } from "./scripts/browser-path.mjs";

// The browser tests: Chromium against the built Worker in workerd (scripts/e2e-server.mjs
// builds into .builds/e2e and serves it with a throwaway local D1 in .builds/e2e-state).
// Playwright cannot download its own browser on these machines: ensure-chromium.sh sets
// CHROMIUM_PATH to Debian's (TOOLCHAIN.md). Without it, a system Chromium is used if there
// is one, else Playwright's own (scripts/ensure-browser.mjs installs it before the tests).
// E2E_PORT lets several people run specs at once, each with its own server, build and state.
const port = Number(process.env.E2E_PORT ?? 8788);
const suffix = process.env.E2E_PORT ? `-${port}` : "";
const ci = Boolean(process.env.CI);

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: "test-results",
  fullyParallel: true,
  // The machines have two cores; the server (workerd) needs some of them too.
  workers: 2,
  // No retries: a test that needs one is a bug to fix, not to hide.
  retries: 0,
  forbidOnly: ci,
  reporter: "list",
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: `http://localhost:${port}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    // A language chosen while signed in is saved with the (shared) demo user, and the browser's
    // own choice (this cookie) comes first: every test starts in English unless it picks another.
    storageState: {
      cookies: [
        {
          name: "lang",
          value: "en",
          domain: "localhost",
          path: "/",
          expires: -1,
          httpOnly: false,
          secure: false,
          sameSite: "Lax",
        },
      ],
      origins: [],
    },
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromiumPath(),
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--no-first-run",
          ],
        },
      },
    },
  ],
  webServer: {
    command: "node scripts/e2e-server.mjs",
    url: `http://localhost:${port}/healthz`,
    env: { PORT: String(port), DIST_DIR: `.builds/e2e${suffix}`, PERSIST_TO: `.builds/e2e${suffix}-state` },
    reuseExistingServer: !ci,
    timeout: 180_000,
    // The build and request log stay quiet; errors (stderr) are shown.
    stdout: "ignore",
    stderr: "pipe",
  },
});
