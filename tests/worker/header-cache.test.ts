import { describe, expect, it } from "vitest";
import { createUser, sessionCookie } from "./fixtures";
import { request } from "./helpers";

// Issue 24: the header is rendered once per isolate for what it shows and reused as HTML. The
// same page for another person, in another language or for a role with other links must
// never show the header made for someone else.

const welcome = async (cookie: string) => {
  const response = await request("/welcome", { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  const html = await response.text();
  return html.slice(html.indexOf("<header"), html.indexOf("</header>"));
};

describe("the reused header", () => {
  it("is each person's own, in their language, with their role's links, and the same when asked again", async () => {
    const owner = await createUser({ role: "owner" });
    const viewer = await createUser({ role: "viewer", orgId: owner.orgId });
    const ownerCookie = await sessionCookie(owner.email);
    const viewerCookie = await sessionCookie(viewer.email);

    const first = await welcome(ownerCookie);
    expect(first).toContain(owner.email);
    expect(await welcome(ownerCookie)).toBe(first);

    const other = await welcome(viewerCookie);
    expect(other).toContain(viewer.email);
    expect(other).not.toContain(owner.email);
    // The owner's menu has links a viewer's has not (the organization's settings and users).
    expect(other).not.toBe(first.replaceAll(owner.email, viewer.email));

    const french = await welcome(`${ownerCookie}; lang=fr-CA`);
    expect(french).toContain(owner.email);
    expect(french).toContain('lang="fr-CA" aria-current="true"');
    expect(first).toContain('lang="en" aria-current="true"');
  });
});
