import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { findWebhook, listDeliveries, listWebhooks, preferencesOf } from "@/server/data/notifications";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";

// The notification screens (issue 25), without JavaScript: each person's email choices per
// account, and an organization's webhooks (edit-accounts) with the secret shown once, the test
// button, the delivery log, turning a disabled one on again and delete with confirmation.

afterEach(() => vi.restoreAllMocks());

/** A plain form post, several values per name allowed (checkboxes). */
function post(path: string, fields: [string, string][], cookie: string) {
  return request(path, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    redirect: "manual",
  });
}

const get = (path: string, cookie: string) => request(path, { headers: { Cookie: cookie } });

let orgId = "";
let accountId = "";
let admin: { id: string; email: string };
let adminCookie = "";
let viewer: { id: string; email: string };
let viewerCookie = "";
let strangerCookie = "";
let strangerOrg = "";

beforeAll(async () => {
  orgId = await createOrganization("Notify Transit");
  accountId = await createAccount(orgId, "Notify Buses");
  admin = await createUser({ role: "admin", orgId });
  viewer = await createUser({ role: "viewer", orgId });
  adminCookie = await sessionCookie(admin.email);
  viewerCookie = await sessionCookie(viewer.email);
  strangerOrg = await createOrganization("Notify Elsewhere");
  strangerCookie = await sessionCookie((await createUser({ role: "owner", orgId: strangerOrg })).email);
});

describe("the account's Notifications page", () => {
  const path = () => `/accounts/${accountId}/notifications`;

  it("is linked from the account home and lets anyone who sees the account choose their own emails", async () => {
    const home = await (await get(`/accounts/${accountId}`, viewerCookie)).text();
    expect(home).toContain(`href="${path()}"`);
    const page = await get(path(), viewerCookie);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Email me when");
    expect(html).toContain("A bulk command batch ends with failed radios");
    expect(html).not.toMatch(/<input[^>]*checked/);
    const saved = await post(
      path(),
      [
        ["events", "deployment.paused"],
        ["events", "command-batch.ended-with-failures"],
      ],
      viewerCookie,
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(path());
    expect(await preferencesOf(env.DB, viewer.id, accountId)).toEqual(["command-batch.ended-with-failures", "deployment.paused"]);
    // Each person's choices are their own.
    expect(await preferencesOf(env.DB, admin.id, accountId)).toEqual([]);
    const again = await (await get(path(), viewerCookie)).text();
    expect(again.match(/<input[^>]*checked[^>]*>/g)?.length).toBe(2);
    // Nothing ticked: nothing chosen.
    expect((await post(path(), [], viewerCookie)).status).toBe(303);
    expect(await preferencesOf(env.DB, viewer.id, accountId)).toEqual([]);
  });

  it("answers a made-up event with the form again (400), and another tenant's account with 404", async () => {
    const refused = await post(
      path(),
      [
        ["events", "deployment.paused"],
        ["events", "nuke.everything"],
      ],
      viewerCookie,
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain('role="alert"');
    expect(html.match(/<input[^>]*checked[^>]*>/g)?.length).toBe(1);
    expect(await preferencesOf(env.DB, viewer.id, accountId)).toEqual([]);
    expect((await get(path(), strangerCookie)).status).toBe(404);
    expect((await post(path(), [["events", "deployment.paused"]], strangerCookie)).status).toBe(404);
  });
});

describe("the organization's Webhooks pages", () => {
  const page = () => `/settings/organizations/webhooks/${orgId}`;

  it("are linked from the organizations list and the organization's edit page", async () => {
    const list = await (await get("/settings/organizations", adminCookie)).text();
    expect(list).toContain(`href="${page()}"`);
    const edit = await (await get(`/settings/organizations/edit/${orgId}`, adminCookie)).text();
    expect(edit).toContain(`href="${page()}"`);
  });

  it("add a webhook and show its secret once, on the answer to the add only", async () => {
    expect(await (await get(page(), adminCookie)).text()).toContain("No webhooks yet.");
    const added = await post(
      page(),
      [
        ["do", "add"],
        ["url", "https://hooks.example.com/notify"],
        ["events", "deployment.paused"],
        ["events", "deployment.finished"],
      ],
      adminCookie,
    );
    expect(added.status).toBe(200);
    const html = await added.text();
    const secret = html.match(/data-webhook-secret="[^"]*"[^>]*>(whsec_[^<]+)</)?.[1] ?? "";
    expect(secret).toMatch(/^whsec_/);
    expect(html).toContain("it will not be shown again");
    const [hook] = await listWebhooks(env.DB, orgId);
    expect(hook).toMatchObject({ url: "https://hooks.example.com/notify", events: ["deployment.paused", "deployment.finished"] });
    expect((await findWebhook(env.DB, hook?.id ?? ""))?.secret).toBe(secret);
    const later = await (await get(page(), adminCookie)).text();
    expect(later).toContain("https://hooks.example.com/notify");
    expect(later).toContain("A deployment pauses itself · A deployment finishes");
    expect(later).not.toContain(secret);
  });

  it("refuse a bad address or no events on their fields, and never echo a posted secret", async () => {
    const http = await post(
      page(),
      [
        ["do", "add"],
        ["url", "http://hooks.example.com/x"],
        ["events", "deployment.paused"],
        ["__created", "whsec_forged"],
      ],
      adminCookie,
    );
    expect(http.status).toBe(400);
    const html = await http.text();
    expect(html).toContain("Use an https:// address.");
    expect(html).toMatch(/aria-describedby="[^"]*field-url-error/);
    // The summary at the top links the message to its field.
    expect(html).toContain('href="#field-url"');
    expect(html).not.toContain("whsec_forged");
    expect(html).toContain('value="http://hooks.example.com/x"');
    const none = await post(
      page(),
      [
        ["do", "add"],
        ["url", "https://hooks.example.com/y"],
      ],
      adminCookie,
    );
    expect(none.status).toBe(400);
    const noneHtml = await none.text();
    expect(noneHtml).toContain("Choose at least one event to send.");
    expect(noneHtml).toContain('href="#field-events"');
    const privateAddress = await post(
      page(),
      [
        ["do", "add"],
        ["url", "https://10.0.0.7/"],
        ["events", "deployment.paused"],
      ],
      adminCookie,
    );
    expect(privateAddress.status).toBe(400);
    expect(await listWebhooks(env.DB, orgId)).toHaveLength(1);
  });

  it("send a test event into the delivery log, turn a disabled webhook on again, and delete after confirming", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => new Response("ok"));
    const [hook] = await listWebhooks(env.DB, orgId);
    const id = hook?.id ?? "";
    const tested = await post(
      page(),
      [
        ["do", "test"],
        ["webhookId", id],
      ],
      adminCookie,
    );
    expect(tested.status).toBe(303);
    const log = `/settings/organizations/webhooks/${orgId}/deliveries/${id}`;
    expect(tested.headers.get("location")).toBe(log);
    expect((await listDeliveries(env.DB, id)).map((d) => d.event)).toEqual(["webhook.test"]);
    const logHtml = await (await get(log, adminCookie)).text();
    expect(logHtml).toContain("Test event");
    expect(logHtml).toMatch(/data-delivery-status="(pending|delivered)"/);

    await env.DB.prepare("UPDATE webhooks SET enabled = 0, disabled_at = ?, consecutive_failures = 5 WHERE id = ?")
      .bind("2026-11-20T10:00:00.000Z", id)
      .run();
    const off = await (await get(page(), adminCookie)).text();
    expect(off).toContain("Turned off on");
    expect(off).toContain("Consecutive failed deliveries: 5");
    expect(off).toContain("Turn on again");
    expect(
      (
        await post(
          page(),
          [
            ["do", "enable"],
            ["webhookId", id],
          ],
          adminCookie,
        )
      ).status,
    ).toBe(303);
    expect(await findWebhook(env.DB, id)).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledAt: null });
    const entry = await env.DB.prepare(
      "SELECT action FROM activity_logs WHERE entity_type = 'webhook' AND entity_id = ? AND action = 'update'",
    )
      .bind(id)
      .first<{ action: string }>();
    expect(entry?.action).toBe("update");

    const confirm = `/settings/organizations/webhooks/${orgId}/delete/${id}`;
    const ask = await get(confirm, adminCookie);
    expect(ask.status).toBe(200);
    expect(await ask.text()).toContain("Delete the webhook https://hooks.example.com/notify?");
    const deleted = await post(confirm, [], adminCookie);
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe(page());
    expect(await findWebhook(env.DB, id)).toBeNull();
  });

  it("refuse people without edit-accounts (403) and other tenants (404), even with a right id under the wrong organization", async () => {
    expect((await get(page(), viewerCookie)).status).toBe(403);
    expect(
      (
        await post(
          page(),
          [
            ["do", "add"],
            ["url", "https://hooks.example.com/v"],
            ["events", "deployment.paused"],
          ],
          viewerCookie,
        )
      ).status,
    ).toBe(403);
    expect((await get(page(), strangerCookie)).status).toBe(404);
    // A webhook of this organization, asked for by the stranger, or under the stranger's own organization.
    await post(
      page(),
      [
        ["do", "add"],
        ["url", "https://hooks.example.com/kept"],
        ["events", "deployment.paused"],
      ],
      adminCookie,
    );
    const [hook] = await listWebhooks(env.DB, orgId);
    const id = hook?.id ?? "";
    expect((await get(`/settings/organizations/webhooks/${orgId}/deliveries/${id}`, strangerCookie)).status).toBe(404);
    expect((await get(`/settings/organizations/webhooks/${strangerOrg}/deliveries/${id}`, strangerCookie)).status).toBe(404);
    expect((await post(`/settings/organizations/webhooks/${strangerOrg}/delete/${id}`, [], strangerCookie)).status).toBe(404);
    expect(
      (
        await post(
          `/settings/organizations/webhooks/${strangerOrg}`,
          [
            ["do", "test"],
            ["webhookId", id],
          ],
          strangerCookie,
        )
      ).status,
    ).toBe(404);
    expect(await findWebhook(env.DB, id)).not.toBeNull();
  });
});
