import { randomInt } from "node:crypto";
import { expect, request } from "@playwright/test";
import { DEMO_PASSWORD, OWNER } from "./route-list";

/**
 * Invites `email` to Harbor Communications the way an owner does (users.invite, the real
 * procedure and mail), and returns the accept link read from the demo's /mailbox. In-process
 * and quick: the demo script scripts/invite.mjs runs wrangler three times, which took close to
 * a minute of a test's time on a loaded machine.
 */
export async function invitationLink(baseURL: string, email: string, role = "viewer"): Promise<string> {
  // Its own client address, so these owner sign-ins never count against a test's throttles.
  const address = `10.251.${randomInt(250)}.${randomInt(1, 250)}`;
  const api = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL, "CF-Connecting-IP": address } });
  try {
    const signedIn = await api.post("/api/sign-in", { data: { username: OWNER, password: DEMO_PASSWORD } });
    expect(await signedIn.json()).toEqual({ ok: true });
    const invited = await api.post("/api/users.invite", { data: { email, role, orgId: "org_harbor" } });
    expect(invited.status(), await invited.text()).toBe(200);
    const mailbox = await (await api.get(`/mailbox?to=${encodeURIComponent(email)}`)).text();
    const links = [...mailbox.matchAll(/href="(http[^"]*\/accept\/[A-Za-z0-9_-]{43})"/g)].map((match) => match[1]);
    // The newest mail comes first.
    const link = links[0];
    if (!link) throw new Error(`no invitation mail for ${email} on /mailbox`);
    return link;
  } finally {
    await api.dispose();
  }
}
