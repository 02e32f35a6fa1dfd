import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./client-address";
import { contextsFor, parts, sharedIds, visitsOf } from "./route-visits";

// WCAG 2.2 AA checked by axe on every route of the route table, one load each (in English, at
// the desktop size, islands hydrated): a violation fails with its rule, page and elements.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

for (const part of parts(5)) {
  test(`every screen passes axe's WCAG 2.2 AA rules (${part.name})`, async ({ browser, baseURL }) => {
    test.setTimeout(240_000);
    const origin = baseURL ?? "";
    const contexts = await contextsFor(browser, { baseURL: origin, language: "en" });
    try {
      const ids = await sharedIds(contexts.signedIn, origin);
      const pages = { signedIn: await contexts.signedIn.newPage(), signedOut: await contexts.signedOut.newPage() };
      const found: string[] = [];
      for (const { url, visit } of visitsOf(contexts, ids, part)) {
        const page = visit.signedOut ? pages.signedOut : pages.signedIn;
        await page.goto(url);
        // Islands hydrate after load; check the page as a person meets it.
        await page.waitForLoadState("networkidle");
        const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
        for (const violation of results.violations) {
          const targets = violation.nodes.slice(0, 3).map((node) => node.target.join(" "));
          found.push(`${url}: ${violation.id} (${violation.impact}) ${violation.help} → ${targets.join(", ")}`);
        }
      }
      expect(found).toEqual([]);
    } finally {
      await contexts.close();
    }
  });
}
