import { describe, expect, it } from "vitest";
import { notFoundPage } from "@/routes/not-found";
import { routes } from "@/routes/table";
import { hasOwnPageStyles, pageStylesOf } from "@/server/render/page-styles";
import { problemPage } from "@/server/sso/problem-page";
import { ErrorScreen } from "@/ui/shell/error-screen";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { request } from "./helpers";

// Issue 10 §3: each page inlines the CSS built for its own module (tooling/page-styles), not
// the whole stylesheet. The browser test (tests/e2e/page-styles.spec.ts) checks that every
// class of every page has its rule; this checks that every page has a sheet of its own and
// that the document carries that sheet.

const inlineStyle = (html: string) => /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
const full = pageStylesOf(undefined);

describe("each page's own CSS", () => {
  it("exists for every route of the table and for the screens rendered outside it", () => {
    const without = routes.filter((route) => !hasOwnPageStyles(route.page)).map((route) => route.path);
    expect(without).toEqual([]);
    expect(hasOwnPageStyles(notFoundPage)).toBe(true);
    expect(hasOwnPageStyles(ErrorScreen)).toBe(true);
    expect(hasOwnPageStyles(problemPage)).toBe(true);
  });

  it("is smaller than the whole stylesheet, and holds a page's own rules only on that page", () => {
    const signIn = pageStylesOf(routes.find((route) => route.path === "/sign-in")?.page);
    const ruleForm = pageStylesOf(routes.find((route) => route.path.endsWith("/rules/add"))?.page);
    expect(full.length).toBeGreaterThan(20_000);
    expect(signIn.length).toBeLessThan(full.length * 0.75);
    // `max-h-48` is the rule form's profile list (src/islands/rule-form.island.tsx) and nobody else's.
    expect(ruleForm).toContain(".max-h-48{");
    expect(signIn).not.toContain(".max-h-48{");
    // Both carry what every page has: the shell (the skip link, the header's menus).
    for (const sheet of [signIn, ruleForm]) expect(sheet).toContain(".skip-link{");
  });

  it("is what the document inlines: the sign-in page, a signed-in page, the not-found and error screens", async () => {
    const signInHtml = await (await request("/sign-in")).text();
    expect(inlineStyle(signInHtml)).toBe(pageStylesOf(routes.find((route) => route.path === "/sign-in")?.page));

    const user = await createUser();
    const accountId = await createAccount(user.orgId);
    const cookie = await sessionCookie(user.email);
    const home = await request(`/accounts/${accountId}`, { headers: { Cookie: cookie } });
    expect(home.status).toBe(200);
    const accountHome = routes.find((route) => route.path.startsWith("/accounts/:accountId{"));
    expect(inlineStyle(await home.text())).toBe(pageStylesOf(accountHome?.page));

    const missing = await request("/no-such-page", { headers: { Cookie: cookie } });
    expect(missing.status).toBe(404);
    expect(inlineStyle(await missing.text())).toBe(pageStylesOf(notFoundPage));

    // Another tenant's (or no) account: the route error screen, with the error screen's sheet.
    const refused = await request("/accounts/acc_does_not_exist", { headers: { Cookie: cookie } });
    expect(refused.status).toBe(404);
    expect(inlineStyle(await refused.text())).toBe(pageStylesOf(ErrorScreen));
  });
});
