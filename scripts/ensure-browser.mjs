// Runs before the browser tests (`pretest:e2e`): makes sure there is a Chromium to drive.
// A system one (or CHROMIUM_PATH) is used as it is; otherwise Playwright downloads its own,
// which works on an ordinary networked machine (not on these build machines: see README).
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";
import { chromiumPath } from "./browser-path.mjs";

if (chromiumPath() || existsSync(chromium.executablePath())) process.exit(0);
console.log("No Chromium found: installing Playwright's (set CHROMIUM_PATH to use another one).");
try {
  execFileSync("npx", ["playwright", "install", "chromium"], { stdio: "inherit" });
} catch {
  console.error("Could not install Chromium. Install it (e.g. `apt-get install chromium`) or set CHROMIUM_PATH.");
  process.exit(1);
}
