import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./client-address";
import { contextsFor, sharedIds, visitsOf } from "./route-visits";

// WCAG 2.2 AA checked by axe on every route of the route table, once each (in English, at the
// desktop size): a violation fails with the rule, the page and the elements it found.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

test("every screen passes axe's WCAG 2.2 AA rules", async ({ browser, baseURL }) => {
  test.setTimeout(240_000);
  const origin = baseURL ?? "";
  const contexts = await contextsFor(browser, { baseURL: origin, language: "en" });
  try {
    const ids = await sharedIds(contexts.signedIn, origin);
    const found: string[] = [];
    for (const { url, context } of visitsOf(contexts, ids)) {
      const page = await context.newPage();
      await page.goto(url);
      // Islands hydrate after load; check the page as a person meets it.
      await page.waitForLoadState("networkidle");
      const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
      for (const violation of results.violations) {
        const targets = violation.nodes.slice(0, 3).map((node) => node.target.join(" "));
        found.push(`${url}: ${violation.id} (${violation.impact}) ${violation.help} → ${targets.join(", ")}`);
      }
      await page.close();
    }
    expect(found).toEqual([]);
  } finally {
    await contexts.close();
  }
});
