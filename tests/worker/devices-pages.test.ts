import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { postForm, request } from "./helpers";

// The device screens as a browser without JavaScript meets them: register (secret shown once),
// find, assign (seats), tag in bulk, import (dry run, then all), export, retire; a viewer's
// attempts and another tenant's uids.

let owner: string;
let viewer: string;
let outsider: string;
let account: string;
let org: string;

const get = (path: string, cookie: string) => request(path, { headers: { Cookie: cookie } });
const post = (path: string, fields: Record<string, string>, cookie: string) => postForm(path, fields, { Cookie: cookie });

beforeAll(async () => {
  org = await createOrganization("Pages dealer");
  const other = await createOrganization("Pages outsider");
  account = await createAccount(org, "Harbor buses");
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_pages', ?, 'Plan', 10, '2026-01-01')",
    ).bind(org),
    env.DB.prepare(
      "INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_pages', 'sub_pages', ?, 1)",
    ).bind(account),
  ]);
  owner = await sessionCookie((await createUser({ orgId: org, role: "owner" })).email);
  viewer = await sessionCookie((await createUser({ orgId: org, role: "viewer" })).email);
  outsider = await sessionCookie((await createUser({ orgId: other, role: "owner" })).email);
});

describe("device screens without JavaScript", () => {
  it("registers a radio and shows its secret once, with what provisioning needs", async () => {
    const answer = await post(
      "/devices/add",
      { intent: "register", uid: "PG-0001", brand: "Northwind", model: "XR-7", name: "Ferry 1", tags: "Ferry, Night" },
      owner,
    );
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html).toContain("data-device-secret");
    expect(html).toContain("Authorization: Bearer PG-0001:");
    // The view page never shows it again.
    const view = await (await get("/devices/view/PG-0001", owner)).text();
    expect(view).toContain("Ferry 1");
    expect(view).not.toContain("data-device-secret");
    expect(view).toContain('data-slot="desired-revision"');
  });

  it("a bad uid is a field message, in the user's language", async () => {
    const answer = await post("/devices/add", { intent: "register", uid: "no spaces", brand: "Northwind", model: "XR-7" }, owner);
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain("1 to 64 letters");
  });

  it("finds, assigns within the seats, and says how many are free when they run out", async () => {
    await post("/devices/add", { intent: "register", uid: "PG-0002", brand: "Northwind", model: "XR-9" }, owner);
    const list = await (await get("/devices?q=PG-0", owner)).text();
    expect(list).toContain("PG-0001");
    expect(list).toContain("PG-0002");
    const first = await post(
      `/devices/uid/PG-0001/edit?account=${account}`,
      { version: "1", accountId: account, place: "" },
      owner,
    );
    expect(first.status).toBe(303);
    const second = await post(
      `/devices/uid/PG-0002/edit?account=${account}`,
      { version: "1", accountId: account, place: "" },
      owner,
    );
    expect(second.status).toBe(422);
    expect(await second.text()).toContain("no free seats");
    const registry = await (await get(`/accounts/${account}/registry/devices`, viewer)).text();
    expect(registry).toContain("PG-0001");
    expect(registry).not.toContain("PG-0002");
  });

  it("the assignment form saves the account chosen in it, and shows a new account's places before using one", async () => {
    await post("/devices/add", { intent: "register", uid: "PG-0003", brand: "Northwind", model: "XR-9" }, owner);
    const other = await createAccount(org, "Harbor tugs");
    await env.DB.prepare(
      "INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_pages_tugs', 'sub_pages', ?, 1)",
    )
      .bind(other)
      .run();
    await env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_pages_tugs', ?, 'Tug dock')").bind(other).run();
    // One form: the account is its field (it was another form's, and Save posted the page's first account).
    const page = await (await get("/devices/uid/PG-0003/edit", owner)).text();
    const forms = (page.match(/<form[^>]*action="\/devices\/uid\/PG-0003\/edit[^"]*"[\s\S]*?<\/form>/g) ?? []).filter((f) =>
      /^<form[^>]*method="post"/.test(f),
    );
    expect(forms).toHaveLength(1);
    expect(forms[0]).toContain('name="accountId"');
    expect(forms[0]).not.toMatch(/type="hidden"[^>]*name="accountId"/);
    // A place of the account shown is not one of the account chosen: its places first, nothing saved.
    const stale = await post(
      "/devices/uid/PG-0003/edit",
      { version: "1", accountId: other, placesOf: account, place: "site_x" },
      owner,
    );
    expect(stale.status).toBe(303);
    expect(stale.headers.get("location")).toBe(`/devices/uid/PG-0003/edit?account=${other}`);
    expect(await (await get(stale.headers.get("location") ?? "", owner)).text()).toContain("Tug dock");
    const unmoved = await env.DB.prepare("SELECT account_id FROM devices WHERE uid = 'PG-0003'").first<{
      account_id: string | null;
    }>();
    expect(unmoved?.account_id).toBeNull();
    const saved = await post("/devices/uid/PG-0003/edit", { version: "1", accountId: other, placesOf: "", place: "" }, owner);
    expect(saved.status).toBe(303);
    const moved = await env.DB.prepare("SELECT account_id FROM devices WHERE uid = 'PG-0003'").first<{
      account_id: string | null;
    }>();
    expect(moved?.account_id).toBe(other);
  });

  it("tags every radio matching a filter in one post", async () => {
    const answer = await post(
      "/devices",
      { scope: "all", bulkAction: "addTag", tag: "Harbor", target: "", filter_q: "PG-0", filter_status: "active" },
      owner,
    );
    expect(answer.status).toBe(303);
    const tagged = await (await get("/devices?q=harbor", owner)).text();
    expect(tagged).toContain("PG-0001");
    expect(tagged).toContain("PG-0002");
  });

  it("imports a CSV after a dry run and exports the filtered list", async () => {
    const csv = "uid,model,name,tags\nPG-0101,XR-7,Import one,a\nPG-0102,XR-7,Import two,b\n";
    const dry = await post("/devices/import", { csv }, owner);
    expect(await dry.text()).toContain("No problems found");
    expect((await get("/devices/view/PG-0101", owner)).status).toBe(404);
    const done = await post("/devices/import", { csv, commit: "1" }, owner);
    const html = await done.text();
    expect(html).toContain("PG-0101,");
    const exported = await get("/devices/export.csv?q=PG-01", owner);
    expect(exported.headers.get("Content-Type")).toContain("text/csv");
    const text = await exported.text();
    expect(text.split("\r\n").filter(Boolean)).toHaveLength(3);
    expect(text).toContain("PG-0102,Northwind,XR-7,Import two,b");
  });

  it("retires a radio; its seat is free again", async () => {
    const answer = await post("/devices/edit/PG-0001", { intent: "retire", version: "3" }, owner);
    expect(answer.status).toBe(303);
    const seats = await (await get(`/accounts/${account}/registry/subscriptions`, owner)).text();
    expect(seats).toContain("1 seats allocated, 0 used by radios, 1 free.");
  });

  it("a viewer opens the registry but not the inventory screens, and changes nothing", async () => {
    expect((await get("/devices", viewer)).status).toBe(403);
    expect((await get("/devices/add", viewer)).status).toBe(403);
    const refused = await post("/devices/add", { intent: "register", uid: "PG-VIEW", brand: "Northwind", model: "XR-7" }, viewer);
    expect(refused.status).toBe(403);
    const row = await env.DB.prepare("SELECT 1 FROM devices WHERE uid = 'PG-VIEW'").first();
    expect(row).toBeNull();
  });

  it("another tenant's uid is the not-found screen everywhere", async () => {
    for (const path of [
      "/devices/view/PG-0002",
      "/devices/edit/PG-0002",
      "/devices/uid/PG-0002",
      "/devices/redirect/PG-0002",
      "/devices/test/PG-0002",
    ]) {
      expect((await get(path, outsider)).status, path).toBe(404);
    }
    expect((await post("/devices/uid/PG-0002/edit", { version: "1", accountId: "" }, outsider)).status).toBe(404);
  });
});
