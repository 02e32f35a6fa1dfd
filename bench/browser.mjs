// Debian's Chromium through Playwright (it cannot download its own browser here), and the
// pages the browser benchmarks visit.
import { existsSync } from "node:fs";
import { chromium } from "@playwright/test";

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--no-first-run",
];

export function chromiumPath() {
  const path = process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
  if (!path) throw new Error("no Chromium: run `. /work/shared/tools/ensure-chromium.sh` (exports CHROMIUM_PATH)");
  return path;
}

/** `options` may turn off Playwright's own signal handling (it exits the process on SIGINT). */
export async function launchChromium(options = {}) {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, ...options });
}

/**
 * The pages measured. `toast` pages are reached by posting the language form first;
 * `signedIn` pages after signing in as that demo user (the seed's password).
 */
export const PAGES = [
  { name: "home", path: "/" },
  { name: "sign-in", path: "/sign-in" },
  { name: "forgot-password", path: "/forgot-password" },
  { name: "simulator", path: "/simulator" },
  { name: "404", path: "/no-such-page-bench" },
  { name: "home + toast", path: "/", toast: true },
  { name: "welcome (signed in)", path: "/welcome", signedIn: "owner@example.com" },
  { name: "accounts list (signed in)", path: "/accounts", signedIn: "owner@example.com" },
  { name: "account home (signed in)", path: "/accounts/acc_metro_bus", signedIn: "owner@example.com" },
  { name: "account network form (signed in)", path: "/accounts/edit/acc_metro_bus/network", signedIn: "owner@example.com" },
];

/** Signs the context in through the real call; its cookie jar then carries the session. */
export async function signIn(context, baseUrl, email, password = "radios-demo-2025") {
  const response = await context.request.post(`${baseUrl}/api/sign-in`, {
    data: { username: email, password },
    headers: { Origin: new URL(baseUrl).origin },
  });
  const body = await response.json();
  if (!body.ok) throw new Error(`sign-in as ${email} answered ${JSON.stringify(body)}`);
}

/**
 * What the header's language menu does: POST /language (from our own origin, as the CSRF
 * check wants) and follow the 303 with its cookies (lang and the one-time flash). The
 * context's request client shares the browser context's cookie jar, so the next page.goto
 * to the returned URL is the redirected page, showing the "language changed" toast.
 */
export async function switchLanguage(context, baseUrl, { language = "es-MX", next = "/" } = {}) {
  const response = await context.request.post(`${baseUrl}/language`, {
    form: { language, next },
    headers: { Origin: new URL(baseUrl).origin },
    maxRedirects: 0,
  });
  const location = response.headers().location;
  if (response.status() !== 303 || !location) {
    throw new Error(`POST /language answered ${response.status()} (location ${location ?? "none"}), expected a 303`);
  }
  return new URL(location, baseUrl).href;
}

/** Resolves once the page shows a Sonner toast (the toaster island hydrated and ran). */
export async function waitForToast(page, timeout = 20_000) {
  await page.locator("[data-sonner-toast]").first().waitFor({ state: "visible", timeout });
}
