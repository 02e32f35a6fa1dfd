import { expect, test } from "./client-address";
import { contextsFor, languages, parts, sharedIds, visitsOf } from "./route-visits";

// Spec §9 and WCAG 1.4.10 (reflow): at 320 CSS pixels wide no screen may scroll sideways, in
// any of the four languages. Every route of the route table is opened once per language, in
// parts so both workers share them, and the document's width is measured.

const PHONE = { width: 320, height: 640 };

for (const language of languages) {
  for (const part of parts(2)) {
    test(`no screen scrolls sideways at 320 px (${language}, ${part.name})`, async ({ browser, baseURL }) => {
      test.setTimeout(180_000);
      const origin = baseURL ?? "";
      const contexts = await contextsFor(browser, { baseURL: origin, language, viewport: PHONE });
      try {
        const ids = await sharedIds(contexts.signedIn, origin);
        const pages = { signedIn: await contexts.signedIn.newPage(), signedOut: await contexts.signedOut.newPage() };
        const wide: string[] = [];
        for (const { url, visit } of visitsOf(contexts, ids, part)) {
          const page = visit.signedOut ? pages.signedOut : pages.signedIn;
          const response = await page.goto(url);
          expect(response?.status(), url).toBeLessThan(500);
          const width = await page.evaluate(() => document.documentElement.scrollWidth);
          if (width > PHONE.width) {
            // Name the outermost elements that reach past the edge, to say where to look.
            const culprits = await page.evaluate((limit) => {
              const past = [...document.querySelectorAll<HTMLElement>("body *")].filter(
                (element) => element.getBoundingClientRect().right > limit + 0.5,
              );
              return past
                .filter((element) => !past.includes(element.parentElement as HTMLElement))
                .slice(0, 3)
                .map((element) => `${element.tagName.toLowerCase()}.${element.className}`.slice(0, 100));
            }, PHONE.width);
            wide.push(`${url}: ${width}px (${culprits.join(" | ")})`);
          }
        }
        expect(wide, `pages wider than ${PHONE.width}px in ${language}`).toEqual([]);
      } finally {
        await contexts.close();
      }
    });
  }
}
