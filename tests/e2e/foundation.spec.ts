import { expect, type Page, test } from "./client-address";

// The foundation as a visitor meets it: the shell, the 404 page, the language menu with and
// without JavaScript, the toaster island and what happens when its chunk cannot be loaded.

const toasterChunk = "**/assets/toaster-*.js";

/** Opens the header's language menu (labelled with the current language) and picks another. */
async function chooseLanguage(page: Page, menuLabel: string, language: string) {
  await page.getByLabel(menuLabel).click();
  await page.getByRole("button", { name: language }).click();
}

/** The sonner toaster's live region, labelled "<Notifications> alt+T" in the page's language. */
function toasts(page: Page, label: string) {
  return page.getByRole("region", { name: new RegExp(`^${label}`) });
}

test("the home page is plain HTML with inlined CSS: no React, only the shell's small script", async ({ page }) => {
  const scripts: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") scripts.push(request.url());
  });

  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page).toHaveTitle("Home · Configuration Tool");
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("contentinfo")).toContainText("© 2025 Northwind Radio");

  await page.waitForLoadState("networkidle");
  // One script, the shell's small plain one (menus close on Escape): no React, no island
  // bootstrap, and no toaster without a toast.
  await expect(page.locator("script")).toHaveCount(1);
  expect(scripts).toEqual([expect.stringMatching(/\/assets\/shell-[\w-]+\.js$/)]);
  // First paint needs this response only: no stylesheet request.
  await expect(page.locator('link[rel="stylesheet"]')).toHaveCount(0);
});

test("an unknown address answers 404 with the not-found page", async ({ page }) => {
  const response = await page.goto("/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "We can't find what you're looking for." })).toBeVisible();
});

test("choosing a language from the header menu switches the page and toasts once", async ({ page }) => {
  await page.goto("/");
  await chooseLanguage(page, "Language: English", "español - México");

  await expect(page.locator("html")).toHaveAttribute("lang", "es-MX");
  await expect(page.getByRole("banner").getByRole("link", { name: "Iniciar sesión" })).toBeVisible();
  await expect(toasts(page, "Notificaciones").getByText("El idioma ahora es español.")).toBeVisible();

  // The choice is remembered; the flash was shown once and is gone.
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("lang", "es-MX");
  await expect(page.getByLabel("Idioma: español - México")).toBeVisible();
  await page.waitForLoadState("networkidle");
  await expect(page.getByText("El idioma ahora es español.")).toHaveCount(0);
});

test("the toaster loads its own chunk with the first toast, and the flash stays as a status", async ({ page }) => {
  await page.goto("/");
  const chunk = page.waitForResponse((response) => /\/assets\/toaster-[\w-]+\.js$/.test(response.url()));
  await chooseLanguage(page, "Language: English", "français - Canada");

  expect((await chunk).ok()).toBe(true);
  // The flash becomes a toast only in the browser, after the island hydrated.
  const region = toasts(page, "Notifications");
  await expect(region.getByText("La langue est maintenant le français.")).toBeVisible();
  // Sonner's hotkey (Alt+T) is live: it moves focus to the toast list.
  await page.keyboard.press("Alt+KeyT");
  await expect(region.locator("[data-sonner-toaster]")).toBeFocused();
  // Confirmations must not vanish (issue 9 §4): the page keeps it after the toast is gone.
  await expect(page.locator("[data-flash] [role=status]")).toHaveText("La langue est maintenant le français.");
});

test("a page without a flash never loads the toaster", async ({ page }) => {
  const loaded: string[] = [];
  page.on("request", (request) => loaded.push(request.url()));
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  expect(loaded.filter((url) => url.includes("/assets/toaster-"))).toEqual([]);
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the language menu posts a plain form and the flash is a status message", async ({ page }) => {
    await page.goto("/");
    await chooseLanguage(page, "Language: English", "español - México");

    await expect(page.locator("html")).toHaveAttribute("lang", "es-MX");
    await expect(page.getByRole("banner").getByRole("link", { name: "Iniciar sesión" })).toBeVisible();
    await expect(page.getByRole("status")).toHaveText("El idioma ahora es español.");
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);

    await chooseLanguage(page, "Idioma: español - México", "français - Canada");
    await expect(page.locator("html")).toHaveAttribute("lang", "fr-CA");
    await expect(page.getByRole("status")).toHaveText("La langue est maintenant le français.");
    await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
  });
});

test("a chunk that fails to load shows 'Checking for updates...' and reloads a second later", async ({ page }) => {
  // Notes, in the page's own clock, when the banner appears; sessionStorage survives the reload.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.getElementById("checking-for-updates")) return;
      sessionStorage.setItem("e2e-banner-at", String(performance.timeOrigin + performance.now()));
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  await page.route(toasterChunk, (route) => route.abort());
  await page.goto("/");
  // A navigation that is neither the form post nor its redirect: the reload.
  const reload = page.waitForRequest(
    (request) => request.isNavigationRequest() && request.method() === "GET" && request.redirectedFrom() === null,
  );
  // Choosing the current language again still leaves a flash, so the next page has the toaster.
  await chooseLanguage(page, "Language: English", "English");

  const banner = page.getByRole("status").filter({ hasText: "Checking for updates..." });
  await expect(banner).toBeVisible();
  expect(new URL((await reload).url()).pathname).toBe("/");

  // The reloaded page no longer carries the flash, so it has no island and stays put.
  await expect(banner).toHaveCount(0);
  await expect(page.locator("html")).toHaveAttribute("lang", "en");
  const { bannerAt, reloadedAt } = await page.evaluate(() => ({
    bannerAt: Number(sessionStorage.getItem("e2e-banner-at")),
    reloadedAt: performance.timeOrigin,
  }));
  expect(reloadedAt - bannerAt).toBeGreaterThan(950);
  expect(reloadedAt - bannerAt).toBeLessThan(3_000);
});

test("Tab reaches 'Skip to content' first, and it moves to the main content", async ({ page }) => {
  await page.goto("/");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeVisible();

  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/#main$/);
  // The next Tab continues inside <main>, past the header's links.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("main").getByRole("link", { name: "Sign in" })).toBeFocused();
});
