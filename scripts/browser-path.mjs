// Which Chromium the browser tests use: CHROMIUM_PATH, else a system Chromium (Debian's
// package, as on CI), else none (Playwright's own download, where it has one).
import { existsSync } from "node:fs";

export function chromiumPath() {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((path) => path && existsSync(path)) ?? undefined;
}
