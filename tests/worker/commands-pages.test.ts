import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { postForm, request } from "./helpers";

// The command screens without JavaScript (issue 13): every form is a plain post that works,
// refusals come back on the form with what was typed, and the pages answer per permission.

let owner = "";
let viewer = "";
let outsider = "";
let accountId = "";
let radios: string[] = [];

beforeAll(async () => {
  const boss = await createUser({ role: "owner" });
  accountId = await createAccount(boss.orgId, "Screens fleet");
  await giveSeats(boss.orgId, accountId, 10);
  radios = await registerRadios(boss.orgId, accountId, "SCR", 5);
  owner = await sessionCookie(boss.email);
  viewer = await sessionCookie((await createUser({ role: "viewer", orgId: boss.orgId })).email);
  outsider = await sessionCookie((await createUser({ role: "owner" })).email);
});

const registry = () => `/accounts/${accountId}/registry/devices`;

describe("send and cancel without JavaScript", () => {
  it("sends a message from the form, redirects to the command's page, and cancels it from there", async () => {
    const uid = radios[0] ?? "";
    const form = await request(`/devices/${uid}/send-command`, { headers: { Cookie: owner } });
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('name="type"');
    expect(html).toContain('name="text"');
    const posted = await postForm(
      `/devices/${uid}/send-command`,
      { type: "message", text: "Come to gate 4", expiryHours: "4" },
      { Cookie: owner },
    );
    expect(posted.status).toBe(303);
    const location = posted.headers.get("location") ?? "";
    expect(location).toMatch(new RegExp(`^/devices/${uid}/commands/[0-9a-f-]{36}$`));
    const detail = await (await request(location, { headers: { Cookie: owner } })).text();
    expect(detail).toContain("Come to gate 4");
    expect(detail).toContain('data-state="queued"');
    const cancelled = await postForm(location, { do: "cancel" }, { Cookie: owner });
    expect(cancelled.status).toBe(303);
    const after = await (await request(location, { headers: { Cookie: owner } })).text();
    expect(after).toContain('data-state="cancelled"');
    const history = await (await request(`/devices/${uid}/commands`, { headers: { Cookie: owner } })).text();
    expect(history).toContain("Come to gate 4");
  });

  it("shows refusals on the form with what was typed: too long a message, a stun without the uid typed", async () => {
    const uid = radios[1] ?? "";
    const long = await postForm(`/devices/${uid}/send-command`, { type: "message", text: "x".repeat(141) }, { Cookie: owner });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("At most 140 characters.");
    const stun = await postForm(`/devices/${uid}/send-command`, { type: "stun", confirmUid: "nope" }, { Cookie: owner });
    expect(stun.status).toBe(400);
    expect(await stun.text()).toContain("Type the radio&#x27;s uid exactly");
    const count = await env.DB.prepare("SELECT count(*) AS n FROM commands WHERE uid = ?").bind(uid).first<{ n: number }>();
    expect(count?.n).toBe(0);
  });

  it("runs the connectivity test: the post queues a ping and the page shows its steps", async () => {
    const uid = radios[2] ?? "";
    const started = await postForm(`${registry()}/test/${uid}`, {}, { Cookie: owner });
    expect(started.status).toBe(303);
    const page = await (await request(started.headers.get("location") ?? "", { headers: { Cookie: owner } })).text();
    expect(page).toContain('data-testid="round-trip"');
    expect(page).toContain('data-step="sent"');
  });

  it("sends to the inventory's selection from the bulk form", async () => {
    const chosen = radios.slice(3, 5).join(",");
    const page = await request(`${registry()}/send-command?uid=${chosen}`, { headers: { Cookie: owner } });
    expect(await page.text()).toContain("2 selected radios.");
    const posted = await postForm(
      `${registry()}/send-command?uid=${chosen}`,
      { uid: chosen, type: "ping", expiryHours: "24" },
      { Cookie: owner },
    );
    expect(posted.status).toBe(303);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM commands WHERE uid IN (?, ?)")
      .bind(radios[3], radios[4])
      .first<{ n: number }>();
    expect(rows?.n).toBe(2);
  });
});

describe("from the inventory", () => {
  it("offers 'Send a command' among the bulk actions and carries the selection or the filter to the send form", async () => {
    const list = await (await request(registry(), { headers: { Cookie: owner } })).text();
    expect(list).toContain('value="command"');
    const chosen = await request(registry(), {
      method: "POST",
      body: new URLSearchParams([
        ["scope", "selected"],
        ["bulkAction", "command"],
        ["uid", radios[0] ?? ""],
        ["uid", radios[1] ?? ""],
      ]),
      headers: { Origin: "http://config.test", "Content-Type": "application/x-www-form-urlencoded", Cookie: owner },
      redirect: "manual",
    });
    expect(chosen.status).toBe(303);
    expect(chosen.headers.get("location")).toBe(`${registry()}/send-command?uid=${radios[0]}&uid=${radios[1]}`);
    const form = await (await request(chosen.headers.get("location") ?? "", { headers: { Cookie: owner } })).text();
    expect(form).toContain("2 selected radios.");
    const all = await request(`${registry()}?model=NW-400`, {
      method: "POST",
      body: new URLSearchParams({ scope: "all", bulkAction: "command", filter_model: "NW-400" }),
      headers: { Origin: "http://config.test", "Content-Type": "application/x-www-form-urlencoded", Cookie: owner },
      redirect: "manual",
    });
    expect(all.headers.get("location")).toBe(`${registry()}/send-command?model=NW-400`);
  });
});

describe("who may open what", () => {
  it("lets a viewer read a radio's commands in the registry, not in the inventory, and never send", async () => {
    const uid = radios[0] ?? "";
    expect((await request(`${registry()}/${uid}/commands`, { headers: { Cookie: viewer } })).status).toBe(200);
    expect((await request(`/devices/${uid}/commands`, { headers: { Cookie: viewer } })).status).toBe(403);
    expect((await request(`${registry()}/${uid}/send-command`, { headers: { Cookie: viewer } })).status).toBe(403);
    expect((await postForm(`${registry()}/${uid}/send-command`, { type: "ping" }, { Cookie: viewer })).status).toBe(403);
  });

  it("answers another tenant's owner 404 for the radio's pages", async () => {
    const uid = radios[0] ?? "";
    expect((await request(`/devices/${uid}/commands`, { headers: { Cookie: outsider } })).status).toBe(404);
    expect((await request(`${registry()}/${uid}/commands`, { headers: { Cookie: outsider } })).status).toBe(404);
    expect((await postForm(`/devices/${uid}/send-command`, { type: "ping" }, { Cookie: outsider })).status).toBe(404);
  });
});
