import { expect, type Page, test } from "./client-address";

// The signed-in shell as a person meets it: the account switcher (search, recent accounts,
// the cut to 5, corrupt storage), the profile menu by keyboard and per role, signing out
// from it, the same controls without JavaScript, and the mobile menu on a narrow screen.
// Demo data (scripts/demo-data.mjs): Harbor Communications' owner sees the accounts of
// Metro Transit Authority, Lakeside School District and Harbor's own.

const DEMO_PASSWORD = "radios-demo-2025";
const OWNER_RECENT_KEY = "recent-accounts:usr_owner";

async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

/** Collects uncaught errors and console errors (a hydration mismatch is one). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  return errors;
}

const switcher = (page: Page) => page.getByRole("banner").getByRole("button", { name: /Jump to an account/ });
const profileButton = (page: Page, name: string) => page.getByRole("button", { name: `Signed in as ${name}` });
const menuItems = (page: Page) => page.getByRole("menu").getByRole("menuitem");

/** The island has hydrated once the server's link became a button. */
async function openSwitcher(page: Page) {
  await switcher(page).click();
  await expect(page.getByRole("dialog", { name: "Jump to an account" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Search accounts" })).toBeFocused();
}

async function storedRecent(page: Page) {
  return page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? "null"), OWNER_RECENT_KEY);
}

test.describe("account switcher", () => {
  test("searches, goes to the chosen account and keeps recent accounts newest first", async ({ page, baseURL }) => {
    const errors = watchErrors(page);
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    await openSwitcher(page);
    // Nothing opened yet in this browser.
    await expect(page.getByRole("listbox", { name: "Recent accounts" }).getByRole("option")).toHaveCount(0);
    await expect(page.getByText("The accounts you open will be listed here.")).toBeVisible();

    await page.getByRole("combobox", { name: "Search accounts" }).fill("Metro");
    const results = page.getByRole("listbox", { name: "Matching accounts" }).getByRole("option");
    await expect(results).toHaveText(["Metro Bus Operations", "Metro Rail Maintenance"]);
    await results.filter({ hasText: "Metro Bus Operations" }).click();

    await expect(page).toHaveURL(`${baseURL}/accounts/acc_metro_bus`);
    await expect(switcher(page)).toContainText("Metro Bus Operations");
    await expect(page.getByRole("heading", { level: 1, name: "Account home" })).toBeVisible();
    await expect(page.getByRole("main")).toContainText("Metro Bus Operations");
    await expect(page.getByRole("main")).toContainText("Advanced");
    await expect(page.getByRole("main")).toContainText("Central Time – Chicago");
    const sidebar = page.getByRole("navigation", { name: "Account sections" });
    await expect(sidebar.getByRole("link")).toHaveText([
      "Home",
      "Sites",
      "Locations",
      "Profiles",
      "Rules",
      "Inventory",
      "Deployments",
      "Customer care",
      "Activity logs",
      "Reports",
    ]);
    await expect(sidebar.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");

    // By keyboard this time: arrows and Enter in the combobox.
    await openSwitcher(page);
    await expect(page.getByRole("listbox", { name: "Recent accounts" }).getByRole("option")).toHaveText(["Metro Bus Operations"]);
    const search = page.getByRole("combobox", { name: "Search accounts" });
    await search.fill("lakeside");
    await expect(page.getByRole("option", { name: "Lakeside North Campus" })).toBeVisible();
    await search.press("ArrowDown");
    await expect(page.getByRole("option", { name: "Lakeside North Campus" })).toHaveAttribute("aria-selected", "true");
    await expect(search).toHaveAttribute("aria-activedescendant", /.+/);
    await search.press("Enter");
    await expect(page).toHaveURL(`${baseURL}/accounts/acc_lakeside_north`);
    await expect(switcher(page)).toContainText("Lakeside North Campus");

    await openSwitcher(page);
    await page.getByRole("combobox", { name: "Search accounts" }).fill("Harbor");
    await page.getByRole("option", { name: "Harbor Demo Fleet" }).click();
    await expect(page).toHaveURL(`${baseURL}/accounts/acc_harbor_demo`);

    await openSwitcher(page);
    await expect(page.getByRole("listbox", { name: "Recent accounts" }).getByRole("option")).toHaveText([
      "Harbor Demo Fleet",
      "Lakeside North Campus",
      "Metro Bus Operations",
    ]);
    // A recent account is chosen like a result.
    await page.getByRole("option", { name: "Metro Bus Operations" }).click();
    await expect(page).toHaveURL(`${baseURL}/accounts/acc_metro_bus`);
    expect(await storedRecent(page)).toEqual([
      { id: "acc_metro_bus", name: "Metro Bus Operations" },
      { id: "acc_harbor_demo", name: "Harbor Demo Fleet" },
      { id: "acc_lakeside_north", name: "Lakeside North Campus" },
    ]);
    expect(errors).toEqual([]);
  });

  test("keeps at most 5 recent accounts, dropping the oldest", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    const five = [1, 2, 3, 4, 5].map((n) => ({ id: `acc_old_${n}`, name: `Old account ${n}` }));
    await page.evaluate(({ key, value }) => localStorage.setItem(key, value), {
      key: OWNER_RECENT_KEY,
      value: JSON.stringify(five),
    });

    await openSwitcher(page);
    await expect(page.getByRole("listbox", { name: "Recent accounts" }).getByRole("option")).toHaveText(
      five.map((entry) => entry.name),
    );
    await page.getByRole("combobox", { name: "Search accounts" }).fill("Rail");
    await page.getByRole("option", { name: "Metro Rail Maintenance" }).click();
    await expect(page).toHaveURL(`${baseURL}/accounts/acc_metro_rail`);

    await openSwitcher(page);
    await expect(page.getByRole("listbox", { name: "Recent accounts" }).getByRole("option")).toHaveText([
      "Metro Rail Maintenance",
      "Old account 1",
      "Old account 2",
      "Old account 3",
      "Old account 4",
    ]);
    expect(await storedRecent(page)).toHaveLength(5);
  });

  test("treats corrupt stored data as no recent accounts, and nothing breaks", async ({ page, baseURL }) => {
    const errors = watchErrors(page);
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    await page.evaluate(
      (key) =>
        localStorage.setItem(
          key,
          JSON.stringify([
            { id: "acc_metro_bus", name: "Metro" },
            { id: 7, name: "Seven" },
          ]),
        ),
      OWNER_RECENT_KEY,
    );
    await openSwitcher(page);
    await expect(page.getByRole("listbox", { name: "Recent accounts" }).getByRole("option")).toHaveCount(0);
    await expect(page.getByText("The accounts you open will be listed here.")).toBeVisible();

    await page.evaluate((key) => localStorage.setItem(key, "{not json"), OWNER_RECENT_KEY);
    await page.keyboard.press("Escape");
    await openSwitcher(page);
    await expect(page.getByRole("listbox", { name: "Recent accounts" }).getByRole("option")).toHaveCount(0);

    // Searching and choosing still work, and start a clean list.
    await page.getByRole("combobox", { name: "Search accounts" }).fill("Harbor");
    await page.getByRole("option", { name: "Harbor Demo Fleet" }).click();
    await expect(page).toHaveURL(`${baseURL}/accounts/acc_harbor_demo`);
    expect(await storedRecent(page)).toEqual([{ id: "acc_harbor_demo", name: "Harbor Demo Fleet" }]);
    expect(errors).toEqual([]);
  });

  test("says when nothing matches, and closes with Escape or a click outside", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "viewer@example.com");
    await page.goto("/welcome");
    await openSwitcher(page);
    await page.getByRole("combobox", { name: "Search accounts" }).fill("Outsider");
    // Another tenant's accounts are not found.
    await expect(page.getByText("No account matches “Outsider”.")).toBeVisible();
    await expect(page.getByRole("link", { name: "See all accounts" })).toHaveAttribute("href", "/accounts");

    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(switcher(page)).toBeFocused();
    await expect(switcher(page)).toHaveAttribute("aria-expanded", "false");

    await openSwitcher(page);
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  });
});

test.describe("profile menu", () => {
  test("works by keyboard alone: arrows, Home/End, type-ahead, Escape and Tab", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/accounts/acc_metro_bus");
    const button = profileButton(page, "Olivia Owner");
    await expect(button).toHaveAttribute("aria-haspopup", "menu");
    await button.focus();

    await page.keyboard.press("Enter");
    await expect(button).toHaveAttribute("aria-expanded", "true");
    await expect(menuItems(page)).toHaveText(["Account settings", "Organization settings", "Manage devices", "Sign out"]);
    const item = (name: string) => page.getByRole("menuitem", { name });
    await expect(item("Account settings")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(item("Organization settings")).toBeFocused();
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press("ArrowUp");
    await expect(item("Sign out")).toBeFocused(); // wrapped
    await page.keyboard.press("ArrowDown");
    await expect(item("Account settings")).toBeFocused(); // wrapped back
    await page.keyboard.press("End");
    await expect(item("Sign out")).toBeFocused();
    await page.keyboard.press("Home");
    await expect(item("Account settings")).toBeFocused();

    // Type-ahead: first letters; after 350 ms a new letter starts a new search.
    await page.keyboard.press("o");
    await expect(item("Organization settings")).toBeFocused();
    await page.waitForTimeout(400);
    await page.keyboard.press("s");
    await expect(item("Sign out")).toBeFocused();
    await page.waitForTimeout(400);
    await page.keyboard.press("a");
    await expect(item("Account settings")).toBeFocused();

    await page.keyboard.press("Escape");
    await expect(page.getByRole("menu")).toBeHidden();
    await expect(button).toBeFocused();
    await expect(button).toHaveAttribute("aria-expanded", "false");

    // ArrowUp opens on the last item, ArrowDown on the first; Tab closes.
    await page.keyboard.press("ArrowUp");
    await expect(item("Sign out")).toBeFocused();
    await page.keyboard.press("Escape");
    await page.keyboard.press("ArrowDown");
    await expect(item("Account settings")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(page.getByRole("menu")).toBeHidden();
    await expect(item("Account settings")).toHaveCount(0);

    // Space opens too, and Enter follows the focused link.
    await button.focus();
    await page.keyboard.press(" ");
    await expect(item("Account settings")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(`${baseURL}/settings/organizations`);
  });

  test("closes on a click outside", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    await profileButton(page, "Olivia Owner").click();
    await expect(page.getByRole("menu")).toBeVisible();
    await expect(page.getByRole("menuitem", { name: "Organization settings" })).toBeFocused();
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page.getByRole("menu")).toBeHidden();
  });

  test("offers an owner account settings only inside an account, and a viewer only sign-out", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    await profileButton(page, "Olivia Owner").click();
    await expect(menuItems(page)).toHaveText(["Organization settings", "Manage devices", "Sign out"]);

    await page.goto("/accounts/acc_lakeside_north");
    await profileButton(page, "Olivia Owner").click();
    await expect(menuItems(page)).toHaveText(["Account settings", "Organization settings", "Manage devices", "Sign out"]);
    await expect(page.getByRole("menuitem", { name: "Account settings" })).toHaveAttribute(
      "href",
      "/accounts/edit/acc_lakeside_north",
    );

    await signIn(page, baseURL, "viewer@example.com");
    await page.goto("/accounts/acc_lakeside_north");
    await profileButton(page, "Vera Viewer").click();
    await expect(menuItems(page)).toHaveText(["Sign out"]);
  });

  test("signs out: posts, refreshes the current user and lands on / signed out", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "technician@example.com");
    await page.goto("/accounts/acc_metro_bus");
    await profileButton(page, "Theo Technician").click();
    await expect(menuItems(page)).toHaveText(["Manage devices", "Sign out"]);
    const posted = page.waitForRequest((r) => r.url().endsWith("/api/sign-out") && r.method() === "POST");
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await posted;
    await expect(page).toHaveURL(`${baseURL}/`);
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
    expect(await (await page.request.get("/api/me")).json()).toEqual({ ok: false });
  });
});

test.describe("another tenant's account", () => {
  test("is the route error screen with NOT_FOUND", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    const response = await page.goto("/accounts/acc_outsider_yard");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Sorry, this isn't supposed to happen!" })).toBeVisible();
    await expect(page.getByText("Code: NOT_FOUND")).toBeVisible();
    await expect(page.getByText("Outsider Yard Radios")).toHaveCount(0);
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the switcher is a link to /accounts and the profile menu a disclosure that signs out", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/accounts/acc_metro_bus");
    const link = page.getByRole("banner").getByRole("link", { name: /Jump to an account/ });
    await expect(link).toHaveAttribute("href", "/accounts");
    await expect(link).toContainText("Metro Bus Operations");

    const banner = page.getByRole("banner");
    await banner.locator("summary", { hasText: "Olivia Owner" }).click();
    await expect(banner.getByRole("link", { name: "Account settings" })).toHaveAttribute("href", "/accounts/edit/acc_metro_bus");
    await expect(banner.getByRole("link", { name: "Organization settings" })).toBeVisible();
    await expect(banner.getByRole("link", { name: "Manage devices" })).toHaveAttribute("href", "/devices");
    await banner.getByRole("button", { name: "Sign out" }).click();

    await expect(page).toHaveURL(`${baseURL}/`);
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
    expect(await (await page.request.get("/api/me")).json()).toEqual({ ok: false });
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("the header collapses into a menu with Accounts, the profile links, languages and sign-out", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/accounts/acc_metro_bus");
    const banner = page.getByRole("banner");
    await expect(switcher(page)).toBeHidden();
    await expect(profileButton(page, "Olivia Owner")).toBeHidden();

    await banner.getByText("Menu", { exact: true }).click();
    const menu = banner.getByRole("navigation", { name: "Main menu" });
    await expect(menu.getByRole("link")).toHaveText(["Accounts", "Account settings", "Organization settings", "Manage devices"]);
    await expect(menu.getByRole("link", { name: "Accounts" })).toHaveAttribute("href", "/accounts");
    await expect(banner.getByRole("button", { name: "português - Brasil" })).toBeVisible();
    const box = await menu.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 375).toBe(true);

    // The language choice works from here, and the menu signs out.
    await banner.getByRole("button", { name: "español - México" }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "es-MX");
    // Back to English: a signed-in choice is kept with the (shared demo) user, so other
    // browsers signing in as the owner would open in Spanish.
    await page.getByRole("banner").getByText("Menú", { exact: true }).click();
    await page.getByRole("banner").getByRole("button", { name: "English", exact: true }).click();
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await page.getByRole("banner").getByText("Menu", { exact: true }).click();
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(`${baseURL}/`);
    expect(await (await page.request.get("/api/me")).json()).toEqual({ ok: false });
  });
});

test.describe("header menus by keyboard", () => {
  test("the language menu closes on Escape, giving the focus back, and when the focus leaves", async ({ page }) => {
    await page.goto("/");
    const summary = page.getByLabel("Language: English");
    const choice = page.getByRole("button", { name: "español - México" });
    await summary.click();
    await expect(choice).toBeVisible();
    await choice.focus();
    await page.keyboard.press("Escape");
    await expect(choice).toBeHidden();
    await expect(summary).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(choice).toBeVisible();
    // Focus moving elsewhere (here: back to the logo link) closes it.
    await page.getByRole("banner").getByRole("link").first().focus();
    await expect(choice).toBeHidden();

    await summary.click();
    await page.getByRole("heading", { level: 1 }).click();
    await expect(choice).toBeHidden();
  });

  test("profile-menu items show a focus ring of at least 3:1 against the menu", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    await profileButton(page, "Olivia Owner").focus();
    await page.keyboard.press("Enter");
    const item = page.getByRole("menuitem", { name: "Organization settings" });
    await expect(item).toBeFocused();
    const ring = await item.evaluate((element) => {
      const style = getComputedStyle(element);
      return { style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth), color: style.outlineColor };
    });
    expect(ring.style).toBe("solid");
    expect(ring.width).toBeGreaterThanOrEqual(2);
    // brand-600 (#1d5fbf) on the white menu: 6.2:1.
    expect(ring.color).toMatch(/^(rgb\(29, 95, 191\)|oklch|color\()/);
  });

  test("the open switcher's label has at least 4.5:1 contrast", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/accounts/acc_metro_bus");
    await openSwitcher(page);
    const label = switcher(page).getByText("Jump to an account");
    const colors = await label.evaluate((element) => ({
      text: getComputedStyle(element).color,
      background: getComputedStyle(element.parentElement as HTMLElement).backgroundColor,
    }));
    // slate-600 on slate-100 is 7.2:1 (slate-500, as before, was 4.34:1).
    expect(colors.text).not.toBe("rgb(100, 116, 139)");
    expect(colors.text).toMatch(/^(rgb\(71, 85, 105\)|oklch\(0\.446)/);
    expect(colors.background).toMatch(/^(rgb\(241, 245, 249\)|oklch\(0\.968)/);
  });
});

test.describe("the mobile menu by keyboard", () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test("closes on Escape, giving the focus back, and when the focus leaves", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    const banner = page.getByRole("banner");
    const summary = banner.getByText("Menu", { exact: true });
    const accounts = banner.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Accounts" });
    await summary.click();
    await accounts.focus();
    await page.keyboard.press("Escape");
    await expect(accounts).toBeHidden();
    await expect(summary).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(accounts).toBeVisible();
    await page.getByRole("main").getByRole("link").first().focus();
    await expect(accounts).toBeHidden();
  });

  test("switching accounts stays possible: Accounts leads to the list, which opens an account", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    await page.getByRole("banner").getByText("Menu", { exact: true }).click();
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Accounts" }).click();
    await expect(page).toHaveURL(`${baseURL}/accounts`);
    await page.getByRole("main").getByRole("link", { name: "Metro Bus Operations" }).first().click();
    await expect(page).toHaveURL(`${baseURL}/accounts/acc_metro_bus`);
  });
});

test.describe("the signed-out header on phones", () => {
  for (const [language, signInText] of [
    ["en", "Sign in"],
    ["es-MX", "Iniciar sesión"],
    ["fr-CA", "Se connecter"],
    ["pt-BR", "Entrar"],
  ] as const) {
    test(`fits at 390 px and does not scroll sideways at 320 px in ${language}`, async ({ page, baseURL }) => {
      await page.context().addCookies([{ name: "lang", value: language, url: baseURL ?? "" }]);
      for (const width of [390, 320]) {
        await page.setViewportSize({ width, height: 740 });
        await page.goto("/");
        const signInLink = page.getByRole("banner").getByRole("link", { name: signInText });
        const box = await signInLink.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      }
    });
  }
});
