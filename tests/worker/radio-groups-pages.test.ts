import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { postForm, request } from "./helpers";

// The saved-group screens without JavaScript (issue 25): plain forms posting to the server,
// post/redirect/get, errors on their fields, a stale edit said plainly, a viewer reads only.

let owner = "";
let viewer = "";
let accountId = "";
const siteId = `site_pg_${crypto.randomUUID().slice(0, 8)}`;
const groups = () => `/accounts/${accountId}/registry/devices/groups`;
const html = async (path: string, cookie = owner) => (await request(path, { headers: { Cookie: cookie } })).text();

beforeAll(async () => {
  const boss = await createUser({ role: "owner" });
  accountId = await createAccount(boss.orgId, "Group pages fleet");
  await giveSeats(boss.orgId, accountId, 10);
  const radios = await registerRadios(boss.orgId, accountId, "GPG", 5);
  await env.DB.batch([
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'North garage')").bind(siteId, accountId),
    env.DB.prepare("UPDATE devices SET site_id = ?, firmware = '1.0' WHERE uid IN (?, ?, ?)").bind(siteId, ...radios.slice(0, 3)),
  ]);
  owner = await sessionCookie(boss.email);
  viewer = await sessionCookie((await createUser({ role: "viewer", orgId: boss.orgId })).email);
});

describe("saved group pages", () => {
  it("are linked from the inventory, and create, edit and delete a group by plain forms", async () => {
    expect(await html(`/accounts/${accountId}/registry/devices`)).toContain(`href="${groups()}"`);
    const empty = await html(groups());
    expect(empty).toContain("No groups yet");
    expect(empty).toContain(`href="${groups()}/new"`);

    const form = await html(`${groups()}/new`);
    expect(form).toMatch(/<label[^>]*for="field-name"/);
    expect(form).toContain("North garage");

    const refused = await postForm(`${groups()}/new`, { name: "", siteId }, { Cookie: owner });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("Enter a group name.");
    expect(refusedHtml).toContain('aria-invalid="true"');

    const created = await postForm(
      `${groups()}/new`,
      { name: "North garage, old firmware", siteId, firmware: "1.0" },
      { Cookie: owner },
    );
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe(groups());
    const list = await html(groups(), viewer);
    expect(list).toContain("North garage, old firmware");
    expect(list).toContain("Site: North garage · Firmware: 1.0");
    // The live count links to the inventory filtered the same way.
    expect(list).toContain(`href="/accounts/${accountId}/registry/devices?site=${siteId}&amp;firmware=1.0"`);
    expect(list).toMatch(/data-group-count[^>]*>3 \(show in the inventory\)/);
    // A viewer sees the group but no way to change it.
    expect(list).not.toContain(`href="${groups()}/new"`);

    const row = await env.DB.prepare("SELECT id FROM radio_groups WHERE account_id = ?").bind(accountId).first<{ id: string }>();
    const groupId = row?.id ?? "";
    const duplicate = await postForm(`${groups()}/new`, { name: "north garage, OLD firmware" }, { Cookie: owner });
    expect(duplicate.status).toBe(409);
    expect(await duplicate.text()).toContain("already has a group of this name");

    const edited = await postForm(`${groups()}/${groupId}`, { version: "1", name: "North garage", siteId }, { Cookie: owner });
    expect(edited.status).toBe(303);
    const stale = await postForm(`${groups()}/${groupId}`, { version: "1", name: "Old tab" }, { Cookie: owner });
    expect(stale.status).toBe(409);
    expect(await stale.text()).toContain("Someone else changed this");
    expect(await html(`${groups()}/${groupId}`)).toContain("Radios in this group now: 3");

    const ask = await html(`${groups()}/${groupId}/delete`);
    expect(ask).toContain("Delete the group “North garage”?");
    const deleted = await postForm(`${groups()}/${groupId}/delete`, { version: "2" }, { Cookie: owner });
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe(groups());
    expect(await html(groups())).not.toContain("North garage</a>");
    expect((await request(`${groups()}/${groupId}`, { headers: { Cookie: owner } })).status).toBe(404);
  });

  it("keeps the change screens to manage-devices", async () => {
    expect((await request(`${groups()}/new`, { headers: { Cookie: viewer } })).status).toBe(403);
    const posted = await postForm(`${groups()}/new`, { name: "Viewer's" }, { Cookie: viewer });
    expect(posted.status).toBe(403);
  });
});
