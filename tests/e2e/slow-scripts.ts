import type { Page } from "@playwright/test";

/**
 * A slow phone: the page's scripts (the island chunks among them) wait until the returned
 * `release` is called, so a person can use the server's form before any island hydrates.
 * Open the page with `waitUntil: "commit"` (its load waits for the scripts too).
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
