import { expect, test } from "./client-address";
import { contextsFor, languages, sharedIds, visitsOf } from "./route-visits";

// Spec §9 and WCAG 1.4.10 (reflow): at 320 CSS pixels wide no screen may scroll sideways, in
// any of the four languages. Every route of the route table is opened once per language (one
// test per language, so two workers share them) and the page's width is measured.

const PHONE = { width: 320, height: 640 };

for (const language of languages) {
  test(`no screen scrolls sideways at 320 px (${language})`, async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const origin = baseURL ?? "";
    const contexts = await contextsFor(browser, { baseURL: origin, language, viewport: PHONE });
    try {
      const ids = await sharedIds(contexts.signedIn, origin);
      const wide: string[] = [];
      for (const { url, context } of visitsOf(contexts, ids)) {
        const page = await context.newPage();
        const response = await page.goto(url);
        expect(response?.status(), url).toBeLessThan(500);
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > PHONE.width) {
          const culprits = await page.evaluate((limit) => {
            return [...document.querySelectorAll<HTMLElement>("body *")]
              .filter((element) => element.getBoundingClientRect().right > limit + 0.5)
              .slice(-3)
              .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 120));
          }, PHONE.width);
          wide.push(`${url}: ${width}px (${culprits.join(" | ")})`);
        }
        await page.close();
      }
      expect(wide, `pages wider than ${PHONE.width}px in ${language}`).toEqual([]);
    } finally {
      await contexts.close();
    }
  });
}
