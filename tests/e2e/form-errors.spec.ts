import { readFileSync } from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "./client-address";
import { DEMO_PASSWORD, OWNER } from "./route-list";

// Errors the GOV.UK way, on a few representative forms (sign-in, site, rule, invite user), with
// JavaScript on and off: after a refused submit the page title starts with "Error: ", an error
// summary at the top of the form has the focus and lists each problem as a link to its field,
// the message names the field, and the field is marked invalid and described by the message.
// Nothing is saved: every form is sent with a blank or malformed value.

type Language = "en" | "fr-CA";
const locales = Object.fromEntries(
  (["en", "fr-CA"] as const).map((lng) => [lng, JSON.parse(readFileSync(`locales/${lng}/default.json`, "utf8"))]),
) as Record<Language, Record<string, unknown>>;

function say(language: Language, key: string): string {
  const found = key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], locales[language]);
  if (typeof found !== "string") throw new Error(`no ${language} text for ${key}`);
  return found;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

type Case = {
  form: string;
  url: string;
  signedIn: boolean;
  title: string;
  submit: string;
  label: string;
  field: string;
  message: string;
  /** What to type first (a malformed value), if anything. */
  fill?: string;
};

const cases: Case[] = [
  {
    form: "sign-in",
    url: "/sign-in",
    signedIn: false,
    title: "routes.signIn",
    submit: "signIn.continue",
    label: "signIn.email",
    field: "email",
    message: "validation.EmailInvalid",
    fill: "not an address",
  },
  {
    form: "site",
    url: "/accounts/acc_harbor_demo/sites/add",
    signedIn: true,
    title: "routes.addSite",
    submit: "sites.add.submit",
    label: "sites.fields.name",
    field: "name",
    message: "validation.fields.siteName.required",
  },
  {
    form: "rule",
    url: "/accounts/acc_harbor_demo/rules/add",
    signedIn: true,
    title: "routes.addRule",
    submit: "rules.form.add",
    label: "rules.form.name",
    field: "name",
    message: "validation.fields.ruleName.required",
  },
  {
    form: "invite user",
    url: "/settings/users/invite",
    signedIn: true,
    title: "routes.inviteUser",
    submit: "users.sendInvitation",
    label: "users.fields.email",
    field: "email",
    message: "validation.fields.inviteEmail.required",
  },
];

async function signIn(page: Page, baseURL: string | undefined) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: OWNER, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

async function expectNoAxeViolations(page: Page) {
  const axe = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
  expect(axe.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(", ")}`)).toEqual(
    [],
  );
}

async function expectGovUkErrors(page: Page, javaScript: boolean, language: Language, form: Case) {
  const t = (key: string) => say(language, key);
  const summary = page.locator("[data-error-summary]");
  await expect(summary).toBeFocused();
  await expect(page).toHaveTitle(new RegExp(`^${escapeRegExp(t("errorSummary.titlePrefix"))}${escapeRegExp(t(form.title))} · `));
  await expect(summary.getByRole("heading", { name: t("errorSummary.title") })).toBeVisible();
  const link = summary.getByRole("link", { name: t(form.message) });
  await expect(link).toHaveAttribute("href", `#field-${form.field}`);
  const field = page.getByLabel(t(form.label), { exact: true });
  await expect(field).toHaveAttribute("aria-invalid", "true");
  await expect(field).toHaveAccessibleDescription(new RegExp(escapeRegExp(t(form.message))));
  // The form with its errors passes axe's WCAG 2.2 AA rules too (axe runs as the page's script).
  if (javaScript) await expectNoAxeViolations(page);
  await link.click();
  if (javaScript) await expect(field).toBeFocused();
  else await expect(page).toHaveURL(new RegExp(`#field-${form.field}$`));
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });
    // Two page loads, a submit and an axe run each: more than the default 30 s on a busy machine.
    test.describe.configure({ timeout: 60_000 });

    for (const form of cases) {
      test(`the ${form.form} form says what is wrong the GOV.UK way`, async ({ page, baseURL }) => {
        const t = (key: string) => say("en", key);
        if (form.signedIn) await signIn(page, baseURL);
        await page.goto(form.url);
        // Islands hydrate after load; with JavaScript, use the form once it is theirs.
        if (javaScriptEnabled) await page.waitForLoadState("networkidle");
        await expect(page).toHaveTitle(new RegExp(`^${escapeRegExp(t(form.title))} · `));
        if (form.fill) await page.getByLabel(t(form.label), { exact: true }).fill(form.fill);
        await page.getByRole("button", { name: t(form.submit), exact: true }).click();
        await expectGovUkErrors(page, javaScriptEnabled, "en", form);
        if (javaScriptEnabled) {
          // Fixed in place, the summary and the title's "Error: " go (the rules run on every change).
          await page.getByLabel(t(form.label), { exact: true }).fill(form.field === "email" ? "someone@example.com" : "Dock");
          await expect(page.locator("[data-error-summary]")).toHaveCount(0);
          await expect(page).toHaveTitle(new RegExp(`^${escapeRegExp(t(form.title))} · `));
        }
      });
    }

    test("in French the summary, the title and the message are French", async ({ page, baseURL, context }) => {
      await context.addCookies([{ name: "lang", value: "fr-CA", url: baseURL ?? "" }]);
      const site = cases[1] as Case;
      await signIn(page, baseURL);
      await page.goto(site.url);
      if (javaScriptEnabled) await page.waitForLoadState("networkidle");
      await page.getByRole("button", { name: say("fr-CA", site.submit), exact: true }).click();
      await expectGovUkErrors(page, javaScriptEnabled, "fr-CA", site);
    });
  });
}
