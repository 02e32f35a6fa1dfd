import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/router";
import { permissionsOf, type Role } from "@/server/auth/roles";
import { translatorFor } from "@/server/i18n/i18n";
import { createOrganization, createUser, sessionCookie } from "./fixtures";
import { cookieFrom, ORIGIN, postForm, request } from "./helpers";

// Organizations and user administration (issue 5): the procedures over the wire with their
// validation, permission, tenant and version checks, the activity entry of each change, the
// guard rails, invitations end to end, and the settings pages without JavaScript.

type Answer = {
  result?: { data: unknown };
  error?: { code: number; message: string; data: { code: string; httpStatus: number; fieldErrors?: Record<string, string[]> } };
};

const CODES = { BAD_REQUEST: -32600, FORBIDDEN: -32003, NOT_FOUND: -32004, CONFLICT: -32009, PRECONDITION_FAILED: -32012 };

async function query(path: string, input: unknown, cookie: string): Promise<Answer & { status: number }> {
  const qs = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await request(`/api/${path}${qs}`, { headers: { Cookie: cookie } });
  return { status: response.status, ...((await response.json()) as Answer) };
}

async function mutate(path: string, input: unknown, cookie: string): Promise<Answer & { status: number }> {
  const response = await request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
  });
  return { status: response.status, ...((await response.json()) as Answer) };
}

function data<T>(answer: Answer): T {
  if (!answer.result) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result.data as T;
}

async function row<T>(sql: string, ...params: (string | number)[]): Promise<T | null> {
  return env.DB.prepare(sql)
    .bind(...params)
    .first<T>();
}

async function logsOf(entityId: string) {
  const { results } = await env.DB.prepare(
    "SELECT action, entity_type, actor_email, diff, deployable FROM activity_logs WHERE entity_id = ? ORDER BY created_at, rowid",
  )
    .bind(entityId)
    .all<{ action: string; entity_type: string; actor_email: string; diff: string; deployable: number }>();
  return results;
}

async function me(cookie: string): Promise<{ ok: boolean }> {
  return (await request("/api/me", { headers: { Cookie: cookie } })).json();
}

/** A user with a known name, in an organization, signed in (the cookie) when asked. */
async function person(orgId: string, role: Role, name = `${role} person`) {
  const user = await createUser({ orgId, role });
  await env.DB.prepare("UPDATE users SET name = ? WHERE id = ?").bind(name, user.id).run();
  return user;
}

let dealer: string; // the caller's organization: Harbor (a dealer)
let customer: string; // below it: Metro (a customer)
let other: string; // another tenant
let owner: { id: string; email: string; cookie: string };
let admin: { id: string; email: string; cookie: string };
let viewerCookie: string;
let technicianCookie: string;
let outsiderCookie: string;
let outsiderUserId: string;
let caseUserId: string;

beforeAll(async () => {
  dealer = await createOrganization("Harbor Communications");
  customer = await createOrganization("Metro Transit", dealer);
  other = await createOrganization("Outsider Logistics");
  const o = await person(dealer, "owner", "Olivia Owner");
  const a = await person(dealer, "admin", "Adam Admin");
  owner = { ...o, cookie: await sessionCookie(o.email) };
  admin = { ...a, cookie: await sessionCookie(a.email) };
  viewerCookie = await sessionCookie((await person(dealer, "viewer", "Vera Viewer")).email);
  technicianCookie = await sessionCookie((await person(dealer, "technician", "Theo Technician")).email);
  const outsider = await person(other, "owner", "Oscar Outsider");
  outsiderUserId = outsider.id;
  outsiderCookie = await sessionCookie(outsider.email);
  caseUserId = (await person(dealer, "case-agent", "Casey Caseworker")).id;
  await env.DB.prepare("UPDATE users SET is_case_user = 1 WHERE id = ?").bind(caseUserId).run();
  await person(customer, "configurator", "Cora Configurator");
});

describe("organizations.list and details", () => {
  it("lists the caller's organization and its descendants as a tree, to any signed-in user", async () => {
    const child = data<{ id: string }>(
      await mutate("organizations.add", { parentId: dealer, name: "Bay Dealer", kind: "dealer" }, owner.cookie),
    );
    const list = data<{ id: string; name: string; depth: number; parentName: string | null; kind: string }[]>(
      await query("organizations.list", undefined, viewerCookie),
    );
    expect(list.map((o) => [o.name, o.depth, o.parentName])).toEqual([
      ["Harbor Communications", 0, null],
      ["Bay Dealer", 1, "Harbor Communications"],
      ["Metro Transit", 1, "Harbor Communications"],
    ]);
    expect(list.find((o) => o.id === child.id)?.kind).toBe("dealer");
    const searched = data<{ name: string }[]>(await query("organizations.list", { search: "metro" }, viewerCookie));
    expect(searched.map((o) => o.name)).toEqual(["Metro Transit"]);
    // Another tenant sees only its own tree.
    const theirs = data<{ name: string }[]>(await query("organizations.list", undefined, outsiderCookie));
    expect(theirs.map((o) => o.name)).toEqual(["Outsider Logistics"]);
  });

  it("answers NOT_FOUND for another tenant's organization", async () => {
    expect(data<{ name: string }>(await query("organizations.details", { id: customer }, viewerCookie)).name).toBe(
      "Metro Transit",
    );
    const answer = await query("organizations.details", { id: other }, owner.cookie);
    expect(answer.status).toBe(404);
    expect(answer.error?.code).toBe(CODES.NOT_FOUND);
    expect(answer.error?.message).toBe("We can't find that organization.");
  });
});

describe("organizations.add and update", () => {
  it("adds a child organization and logs it in the same batch", async () => {
    const added = data<{ id: string; name: string; kind: string; parentName: string; version: number }>(
      await mutate("organizations.add", { parentId: dealer, name: "  Lakeside Schools ", kind: "customer" }, owner.cookie),
    );
    expect(added).toMatchObject({ name: "Lakeside Schools", kind: "customer", parentName: "Harbor Communications", version: 1 });
    const logs = await logsOf(added.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ action: "create", entity_type: "organization", actor_email: owner.email, deployable: 0 });
    expect(JSON.parse(logs[0]?.diff ?? "{}")).toMatchObject({ name: { after: "Lakeside Schools" }, kind: { after: "customer" } });
  });

  it.each([
    ["an empty name", { name: " ", kind: "customer" }, "name", "Enter the organization name."],
    [
      "a name too long",
      { name: "x".repeat(121), kind: "customer" },
      "name",
      "The organization name must be 120 characters or fewer.",
    ],
    ["the vendor kind", { name: "Second Vendor", kind: "vendor" }, "kind", "Choose dealer or customer."],
  ])("refuses %s with a field message", async (_, input, field, message) => {
    const answer = await mutate("organizations.add", { parentId: dealer, ...input }, owner.cookie);
    expect(answer.error?.code).toBe(CODES.BAD_REQUEST);
    expect(answer.error?.data.fieldErrors?.[field]).toEqual([message]);
  });

  it("refuses viewers and technicians (FORBIDDEN)", async () => {
    for (const cookie of [viewerCookie, technicianCookie]) {
      expect((await mutate("organizations.add", { parentId: dealer, name: "Nope", kind: "customer" }, cookie)).error?.code).toBe(
        CODES.FORBIDDEN,
      );
      expect((await mutate("organizations.update", { id: customer, version: 1, name: "Nope" }, cookie)).error?.code).toBe(
        CODES.FORBIDDEN,
      );
    }
    expect(await row("SELECT id FROM organizations WHERE name = 'Nope'")).toBeNull();
  });

  it("adds nothing under another tenant's organization, a customer, or beside a namesake", async () => {
    const foreign = await mutate("organizations.add", { parentId: other, name: "Trojan", kind: "customer" }, owner.cookie);
    expect(foreign.error?.code).toBe(CODES.NOT_FOUND);
    expect(await row("SELECT id FROM organizations WHERE name = 'Trojan'")).toBeNull();
    const underCustomer = await mutate(
      "organizations.add",
      { parentId: customer, name: "Depot", kind: "customer" },
      owner.cookie,
    );
    expect(underCustomer.error?.code).toBe(CODES.BAD_REQUEST);
    expect(underCustomer.error?.message).toContain("A customer organization cannot have organizations below it.");
    const namesake = await mutate(
      "organizations.add",
      { parentId: dealer, name: "metro transit", kind: "customer" },
      owner.cookie,
    );
    expect(namesake.error?.code).toBe(CODES.CONFLICT);
  });

  it("renames at the current version, refuses a stale one (CONFLICT) and logs only what happened", async () => {
    const id = await createOrganization("Rename Me", dealer);
    const renamed = data<{ name: string; version: number }>(
      await mutate("organizations.update", { id, version: 1, name: "Renamed" }, admin.cookie),
    );
    expect(renamed).toMatchObject({ name: "Renamed", version: 2 });
    const stale = await mutate("organizations.update", { id, version: 1, name: "Overwritten" }, owner.cookie);
    expect(stale.status).toBe(409);
    expect(stale.error?.code).toBe(CODES.CONFLICT);
    expect(await row("SELECT name, version FROM organizations WHERE id = ?", id)).toEqual({ name: "Renamed", version: 2 });
    const logs = await logsOf(id);
    expect(logs.map((l) => l.action)).toEqual(["update"]);
    expect(JSON.parse(logs[0]?.diff ?? "{}")).toEqual({ name: { before: "Rename Me", after: "Renamed" } });
  });

  it("lets another tenant rename nothing", async () => {
    const answer = await mutate("organizations.update", { id: customer, version: 1, name: "Hijacked" }, outsiderCookie);
    expect(answer.error?.code).toBe(CODES.NOT_FOUND);
    expect(await row("SELECT name FROM organizations WHERE id = ?", customer)).toEqual({ name: "Metro Transit" });
  });
});

type Listed = {
  items: { id: string; email: string; name: string; role: string; organizationName: string }[];
  total: { count: number; more: boolean };
  next: string | null;
  previous: string | null;
};

describe("users.list and details", () => {
  it("lists the users of the caller's tree, without case users, searchable and paged", async () => {
    const all = data<Listed>(await query("users.list", {}, owner.cookie));
    const names = all.items.map((u) => u.name);
    expect(names).toContain("Cora Configurator"); // in the customer organization below
    expect(names).not.toContain("Oscar Outsider");
    expect(names).not.toContain("Casey Caseworker"); // hideCaseUsers is on by default
    expect(all.items.find((u) => u.name === "Cora Configurator")?.organizationName).toBe("Metro Transit");

    const metro = data<Listed>(await query("users.list", { orgId: customer }, owner.cookie));
    expect(metro.items.map((u) => u.name)).toEqual(["Cora Configurator"]);
    const byEmail = data<Listed>(await query("users.list", { search: owner.email.slice(0, 10) }, owner.cookie));
    expect(byEmail.items.map((u) => u.id)).toEqual([owner.id]);
    const byName = data<Listed>(await query("users.list", { search: "vera" }, owner.cookie));
    expect(byName.items.map((u) => u.name)).toEqual(["Vera Viewer"]);

    // Pages by cursor: walking Next visits every user of the list once, in its order.
    const walked: string[] = [];
    let after: string | null = null;
    for (let n = 0; n < 20; n += 1) {
      const page: Listed = data<Listed>(await query("users.list", { pageSize: 2, ...(after ? { after } : {}) }, owner.cookie));
      expect(page.total).toEqual(all.total);
      walked.push(...page.items.map((u) => u.id));
      after = page.next;
      if (!after) break;
    }
    expect(walked).toEqual(all.items.map((u) => u.id));
    const first = data<Listed>(await query("users.list", { pageSize: 2 }, owner.cookie));
    const second = data<Listed>(await query("users.list", { pageSize: 2, after: first.next }, owner.cookie));
    const back = data<Listed>(await query("users.list", { pageSize: 2, before: second.previous }, owner.cookie));
    expect(back.items.map((u) => u.id)).toEqual(first.items.map((u) => u.id));
    // Words of the email are searched: its domain, any case; typed FTS syntax is plain text.
    const byDomain = data<Listed>(await query("users.list", { orgId: customer, search: "CORA" }, owner.cookie));
    expect(byDomain.items.map((u) => u.name)).toEqual(["Cora Configurator"]);
    expect(data<Listed>(await query("users.list", { search: '"*NEAR(' }, owner.cookie)).items).toEqual([]);
  });

  it("pages a search in name order, forwards and back, over the tree or one organization, and counts only the caller's", async () => {
    // Names out of insertion order, a tie on the name (then the email decides), case mixed,
    // spread over the dealer and the customer below it; two more in another tenant.
    const names = ["pager Zed", "Pager Amy", "PAGER bob", "Pager Cal", "Pager Amy", "pager dee", "Pager Eve", "Pager fay"];
    const mine: { email: string; name: string; org: string }[] = [];
    for (const [index, name] of names.entries()) {
      const org = index % 2 ? customer : dealer;
      const email = `pager${9 - index}@example.com`;
      await env.DB.prepare("INSERT INTO users (id, org_id, email, name, role, status) VALUES (?, ?, ?, ?, 'viewer', 'active')")
        .bind(`usr_pager_${index}`, org, email, name)
        .run();
      mine.push({ email, name, org });
    }
    for (const index of [0, 1]) {
      await env.DB.prepare("INSERT INTO users (id, org_id, email, name, role, status) VALUES (?, ?, ?, ?, 'viewer', 'active')")
        .bind(`usr_pager_other_${index}`, other, `pager-other${index}@example.com`, "Pager Aaron")
        .run();
    }
    const byName = (a: { name: string; email: string }, b: { name: string; email: string }) =>
      a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || a.email.localeCompare(b.email);
    for (const orgId of [undefined, customer]) {
      const want = mine.filter((user) => !orgId || user.org === orgId).sort(byName);
      const walked: Listed["items"] = [];
      let after: string | null = null;
      let previous: string | null = null;
      for (let n = 0; n < 10; n += 1) {
        const page: Listed = data<Listed>(
          await query(
            "users.list",
            { search: "pager", pageSize: 3, ...(orgId ? { orgId } : {}), ...(after ? { after } : {}) },
            owner.cookie,
          ),
        );
        expect(page.total).toEqual({ count: want.length, more: false });
        walked.push(...page.items);
        previous = page.previous;
        after = page.next;
        if (!after) break;
      }
      expect(walked.map((user) => user.email)).toEqual(want.map((user) => user.email));
      // "Previous" from the last page gives the three before it.
      const back = data<Listed>(
        await query("users.list", { search: "pager", pageSize: 3, ...(orgId ? { orgId } : {}), before: previous }, owner.cookie),
      );
      const lastPageSize = want.length % 3 || 3;
      expect(back.items.map((user) => user.email)).toEqual(
        want.slice(-lastPageSize - 3, -lastPageSize).map((user) => user.email),
      );
    }
  });

  it("shows case users when the setting does not hide them", async () => {
    const t = translatorFor("en", "northwind");
    const caller = createCaller({
      env: { ...env, HIDE_CASE_USERS: "false" },
      db: env.DB,
      user: {
        id: owner.id,
        sessionId: "test",
        email: owner.email,
        name: "Olivia Owner",
        orgId: dealer,
        role: "owner",
        language: "en",
        permissions: permissionsOf("owner"),
      },
      language: "en",
      origin: ORIGIN,
      t,
    });
    const listed = await caller.users.list({ search: "casey" });
    expect(listed.items.map((u) => u.id)).toEqual([caseUserId]);
  });

  it("refuses viewers and technicians, and another tenant's ids", async () => {
    for (const cookie of [viewerCookie, technicianCookie]) {
      expect((await query("users.list", {}, cookie)).error?.code).toBe(CODES.FORBIDDEN);
      expect((await query("users.listInvitations", {}, cookie)).error?.code).toBe(CODES.FORBIDDEN);
      expect((await mutate("users.invite", { email: "x@example.com", role: "viewer", orgId: dealer }, cookie)).error?.code).toBe(
        CODES.FORBIDDEN,
      );
    }
    expect((await query("users.list", { orgId: other }, owner.cookie)).error?.code).toBe(CODES.NOT_FOUND);
    const details = await query("users.details", { id: outsiderUserId }, owner.cookie);
    expect(details.error?.code).toBe(CODES.NOT_FOUND);
    expect(details.error?.message).toBe("We can't find that user.");
  });
});

describe("users.update and disable", () => {
  it("changes a role at the current version, logs it, and refuses a stale version", async () => {
    const target = await person(dealer, "viewer", "Rolf Rolechange");
    const updated = data<{ role: string; version: number }>(
      await mutate("users.update", { id: target.id, version: 1, role: "configurator", status: "active" }, admin.cookie),
    );
    expect(updated).toMatchObject({ role: "configurator", version: 2 });
    const stale = await mutate("users.update", { id: target.id, version: 1, role: "technician", status: "active" }, owner.cookie);
    expect(stale.error?.code).toBe(CODES.CONFLICT);
    expect(await row("SELECT role, version FROM users WHERE id = ?", target.id)).toEqual({ role: "configurator", version: 2 });
    const logs = await logsOf(target.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ action: "update", entity_type: "user", actor_email: admin.email, deployable: 0 });
    expect(JSON.parse(logs[0]?.diff ?? "{}")).toEqual({ role: { before: "viewer", after: "configurator" } });
  });

  it.each([
    ["an unknown role", { role: "superuser", status: "active" }, "role", "Choose a role from the list."],
    ["the invited status", { role: "viewer", status: "invited" }, "status", "Choose active or disabled."],
  ])("refuses %s with a field message", async (_, input, field, message) => {
    const target = await person(dealer, "viewer");
    const answer = await mutate("users.update", { id: target.id, version: 1, ...input }, owner.cookie);
    expect(answer.error?.code).toBe(CODES.BAD_REQUEST);
    expect(answer.error?.data.fieldErrors?.[field]).toEqual([message]);
  });

  it("lets another tenant change nobody", async () => {
    const target = await person(dealer, "viewer");
    const update = await mutate("users.update", { id: target.id, version: 1, role: "admin", status: "active" }, outsiderCookie);
    expect(update.error?.code).toBe(CODES.NOT_FOUND);
    expect((await mutate("users.disable", { id: target.id, version: 1 }, outsiderCookie)).error?.code).toBe(CODES.NOT_FOUND);
    expect(await row("SELECT role, status, version FROM users WHERE id = ?", target.id)).toEqual({
      role: "viewer",
      status: "active",
      version: 1,
    });
  });

  it("disables a user and ends all their sessions in the same batch", async () => {
    const target = await person(customer, "technician", "Dora Disabled");
    const cookie = await sessionCookie(target.email);
    const otherDevice = await sessionCookie(target.email);
    expect(await me(cookie)).toMatchObject({ ok: true });

    // A stale disable changes nothing and ends no session.
    expect((await mutate("users.disable", { id: target.id, version: 7 }, owner.cookie)).error?.code).toBe(CODES.CONFLICT);
    expect(await me(cookie)).toMatchObject({ ok: true });

    const disabled = data<{ status: string }>(await mutate("users.disable", { id: target.id, version: 1 }, owner.cookie));
    expect(disabled.status).toBe("disabled");
    expect(await row("SELECT count(*) AS n FROM sessions WHERE user_id = ?", target.id)).toEqual({ n: 0 });
    expect(await me(cookie)).toEqual({ ok: false });
    expect(await me(otherDevice)).toEqual({ ok: false });
    const logs = await logsOf(target.id);
    expect(JSON.parse(logs[0]?.diff ?? "{}")).toEqual({ status: { before: "active", after: "disabled" } });
    // They cannot sign in again.
    const signIn = await request("/api/sign-in", {
      method: "POST",
      body: JSON.stringify({ username: target.email, password: "correct-horse-battery" }),
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
    });
    expect(cookieFrom(signIn, "__Host-session")).toBeUndefined();
  });
});

describe("guard rails", () => {
  it("grants no role above the caller's own, and leaves higher-ranked users alone", async () => {
    const target = await person(dealer, "viewer");
    const promote = await mutate("users.update", { id: target.id, version: 1, role: "owner", status: "active" }, admin.cookie);
    expect(promote.error?.code).toBe(CODES.BAD_REQUEST);
    expect(promote.error?.message).toBe("You can't give a role above your own.");
    const invite = await mutate("users.invite", { email: "new-owner@example.com", role: "owner", orgId: dealer }, admin.cookie);
    expect(invite.error?.code).toBe(CODES.BAD_REQUEST);
    const demoteOwner = await mutate(
      "users.update",
      { id: owner.id, version: 1, role: "viewer", status: "active" },
      admin.cookie,
    );
    expect(demoteOwner.error?.code).toBe(CODES.PRECONDITION_FAILED);
    expect(demoteOwner.error?.message).toBe("You can't change someone whose role is above yours.");
    expect((await mutate("users.disable", { id: owner.id, version: 1 }, admin.cookie)).error?.code).toBe(
      CODES.PRECONDITION_FAILED,
    );
    expect(await row("SELECT role, status FROM users WHERE id = ?", owner.id)).toEqual({ role: "owner", status: "active" });
    expect(await row("SELECT role FROM users WHERE id = ?", target.id)).toEqual({ role: "viewer" });
  });

  it("lets nobody disable or demote themselves", async () => {
    const self = await mutate("users.disable", { id: admin.id, version: 1 }, admin.cookie);
    expect(self.error?.code).toBe(CODES.PRECONDITION_FAILED);
    expect(self.error?.message).toBe("You can't disable yourself. Ask another owner or administrator.");
    const demote = await mutate("users.update", { id: owner.id, version: 1, role: "admin", status: "active" }, owner.cookie);
    expect(demote.error?.code).toBe(CODES.PRECONDITION_FAILED);
    expect(demote.error?.message).toBe("You can't change your own role. Ask another owner or administrator.");
    expect(await me(admin.cookie)).toMatchObject({ ok: true });
    expect(await row("SELECT role, status FROM users WHERE id = ?", owner.id)).toEqual({ role: "owner", status: "active" });
  });

  it("keeps at least one active owner in an organization", async () => {
    const org = await createOrganization("Solo Owners", dealer);
    const only = await person(org, "owner", "Only Owner");
    for (const change of [
      mutate("users.update", { id: only.id, version: 1, role: "admin", status: "active" }, owner.cookie),
      mutate("users.update", { id: only.id, version: 1, role: "owner", status: "disabled" }, owner.cookie),
      mutate("users.disable", { id: only.id, version: 1 }, owner.cookie),
    ]) {
      const answer = await change;
      expect(answer.error?.code).toBe(CODES.PRECONDITION_FAILED);
      expect(answer.error?.message).toBe("This is the organization's last active owner. Make someone else an owner first.");
    }
    expect(await row("SELECT role, status, version FROM users WHERE id = ?", only.id)).toEqual({
      role: "owner",
      status: "active",
      version: 1,
    });
    // With a second owner, one of them may go.
    await person(org, "owner", "Second Owner");
    expect(
      data<{ role: string }>(
        await mutate("users.update", { id: only.id, version: 1, role: "admin", status: "active" }, owner.cookie),
      ).role,
    ).toBe("admin");
  });
});

type Invitation = { id: string; email: string; role: string; organizationName: string; expiresAt: string };

async function lastLink(email: string): Promise<string> {
  const mail = await row<{ body: string }>(
    "SELECT body FROM mail_outbox WHERE to_address = ? ORDER BY rowid DESC LIMIT 1",
    email,
  );
  const code = /\/accept\/([A-Za-z0-9_-]+)/.exec(mail?.body ?? "")?.[1];
  if (!code) throw new Error(`no invitation mail for ${email}`);
  return `/accept/${code}`;
}

async function openInvitations(cookie = owner.cookie): Promise<Invitation[]> {
  return data<{ items: Invitation[] }>(await query("users.listInvitations", {}, cookie)).items;
}

describe("invitations", () => {
  it("invites an address: the mail carries the link, the invitation is listed with its expiry and logged", async () => {
    const invited = data<{ id: string; expiresAt: string }>(
      await mutate("users.invite", { email: " Ivy.Invitee@Example.com ", role: "technician", orgId: customer }, admin.cookie),
    );
    const mail = await row<{ subject: string; body: string }>(
      "SELECT subject, body FROM mail_outbox WHERE to_address = 'ivy.invitee@example.com'",
    );
    expect(mail?.subject).toBe("You're invited to join Metro Transit");
    expect(mail?.body).toContain("Adam Admin invited you to join Metro Transit.");
    const listed = (await openInvitations()).find((i) => i.id === invited.id);
    expect(listed).toMatchObject({ email: "ivy.invitee@example.com", role: "technician", organizationName: "Metro Transit" });
    expect(Date.parse(listed?.expiresAt ?? "") - Date.now()).toBeGreaterThan(6 * 86_400_000);
    expect((await logsOf(invited.id)).map((l) => [l.action, l.entity_type])).toEqual([["create", "invitation"]]);
    // Another tenant does not see it.
    expect((await openInvitations(outsiderCookie)).map((i) => i.id)).not.toContain(invited.id);

    const page = await (await request(await lastLink("ivy.invitee@example.com"))).text();
    expect(page).toContain("You&#x27;ve been invited to join Metro Transit.");
  });

  it.each([
    ["no email", { email: "" }, "email", "Enter the email address of the person to invite."],
    [
      "a malformed email",
      { email: "not an email" },
      "email",
      "Enter the person’s email address like name@example.com, without spaces.",
    ],
    ["an unknown role", { email: "ok@example.com", role: "root" }, "role", "Choose a role from the list."],
  ])("refuses %s with a field message", async (_, input, field, message) => {
    const answer = await mutate("users.invite", { role: "viewer", orgId: dealer, ...input }, owner.cookie);
    expect(answer.error?.code).toBe(CODES.BAD_REQUEST);
    expect(answer.error?.data.fieldErrors?.[field]).toEqual([message]);
  });

  it("refuses an address that already has an account, and another tenant's organization", async () => {
    const taken = await mutate("users.invite", { email: admin.email.toUpperCase(), role: "viewer", orgId: dealer }, owner.cookie);
    expect(taken.error?.code).toBe(CODES.CONFLICT);
    expect(taken.error?.message).toBe("This email address already has an account. That person can sign in with it.");
    const foreign = await mutate("users.invite", { email: "spy@example.com", role: "viewer", orgId: other }, owner.cookie);
    expect(foreign.error?.code).toBe(CODES.NOT_FOUND);
    expect(await row("SELECT count(*) AS n FROM invitations WHERE email IN (?, ?)", admin.email, "spy@example.com")).toEqual({
      n: 0,
    });
    expect(await row("SELECT count(*) AS n FROM mail_outbox WHERE to_address = 'spy@example.com'")).toEqual({ n: 0 });
  });

  it("answers an address with an account in another tenant exactly as a fresh one, and its link reveals nothing to the inviter", async () => {
    const outsiderEmail = (await row<{ email: string }>("SELECT email FROM users WHERE id = ?", outsiderUserId))?.email ?? "";
    const fresh = await mutate(
      "users.invite",
      { email: "fresh-person@example.com", role: "viewer", orgId: dealer },
      owner.cookie,
    );
    const elsewhere = await mutate("users.invite", { email: outsiderEmail, role: "viewer", orgId: dealer }, owner.cookie);
    const shape = (answer: Answer & { status: number }) => ({
      status: answer.status,
      keys: Object.keys((answer.result?.data ?? {}) as object).sort(),
    });
    expect(shape(elsewhere)).toEqual(shape(fresh));
    expect(elsewhere.error).toBeUndefined();
    // Listed like any open invitation; the mail goes out the same way.
    expect((await openInvitations()).map((i) => i.email)).toContain(outsiderEmail);
    expect(await row("SELECT count(*) AS n FROM mail_outbox WHERE to_address = ?", outsiderEmail)).toEqual({ n: 1 });
    // The invitee (who reads the mail) is told to sign in with their account; no second org is joined.
    const link = await lastLink(outsiderEmail);
    const refused = await request(link, {
      method: "POST",
      body: new URLSearchParams({
        name: "Oscar Again",
        password: "a-long-enough-pass-9",
        passwordConfirmation: "a-long-enough-pass-9",
      }),
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(refused.status).toBe(409);
    expect(await row("SELECT org_id FROM users WHERE id = ?", outsiderUserId)).toEqual({ org_id: other });
  });

  it("resends with a new code: the old link dies, the new one works", async () => {
    const email = "rita.resend@example.com";
    const first = data<{ id: string }>(await mutate("users.invite", { email, role: "viewer", orgId: dealer }, owner.cookie));
    const oldLink = await lastLink(email);
    const resent = data<{ id: string }>(await mutate("users.resendInvitation", { id: first.id }, owner.cookie));
    const newLink = await lastLink(email);
    expect(newLink).not.toBe(oldLink);
    expect(await (await request(oldLink)).text()).toContain("This invitation has been withdrawn.");
    expect(await (await request(newLink)).text()).toContain('name="password"');
    const listed = (await openInvitations()).filter((i) => i.email === email);
    expect(listed.map((i) => i.id)).toEqual([resent.id]);
    expect((await logsOf(resent.id)).map((l) => l.action)).toEqual(["update"]);
    // The old one cannot be resent again, nor by another tenant.
    expect((await mutate("users.resendInvitation", { id: first.id }, owner.cookie)).error?.code).toBe(CODES.NOT_FOUND);
    expect((await mutate("users.resendInvitation", { id: resent.id }, outsiderCookie)).error?.code).toBe(CODES.NOT_FOUND);
    expect(await lastLink(email)).toBe(newLink);
  });

  it("revokes: the link stops working and the invitation leaves the list", async () => {
    const email = "reva.revoke@example.com";
    const invited = data<{ id: string }>(await mutate("users.invite", { email, role: "viewer", orgId: dealer }, owner.cookie));
    const link = await lastLink(email);
    expect((await mutate("users.revokeInvitation", { id: invited.id }, outsiderCookie)).error?.code).toBe(CODES.NOT_FOUND);
    expect((await mutate("users.revokeInvitation", { id: invited.id }, viewerCookie)).error?.code).toBe(CODES.FORBIDDEN);
    expect((await openInvitations()).map((i) => i.id)).toContain(invited.id);

    expect(data<{ ok: boolean }>(await mutate("users.revokeInvitation", { id: invited.id }, owner.cookie))).toMatchObject({
      ok: true,
    });
    expect((await openInvitations()).map((i) => i.id)).not.toContain(invited.id);
    expect(await (await request(link)).text()).toContain("This invitation has been withdrawn.");
    expect((await logsOf(invited.id)).map((l) => l.action)).toEqual(["create", "delete"]);
    expect((await mutate("users.revokeInvitation", { id: invited.id }, owner.cookie)).error?.code).toBe(CODES.NOT_FOUND);
  });

  it("lets an admin not resend or revoke an owner's invitation", async () => {
    const invited = data<{ id: string }>(
      await mutate("users.invite", { email: "future-owner@example.com", role: "owner", orgId: dealer }, owner.cookie),
    );
    expect((await mutate("users.resendInvitation", { id: invited.id }, admin.cookie)).error?.code).toBe(
      CODES.PRECONDITION_FAILED,
    );
    expect((await mutate("users.revokeInvitation", { id: invited.id }, admin.cookie)).error?.code).toBe(
      CODES.PRECONDITION_FAILED,
    );
  });
});

describe("settings pages without JavaScript", () => {
  it("protects the users screens from a viewer, and opens Organizations to them", async () => {
    for (const path of ["/settings/users", "/settings/users/invite", `/settings/users/edit/${owner.id}`]) {
      const response = await request(path, { headers: { Cookie: viewerCookie } });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain("This route is protected.");
    }
    const organizations = await request("/settings/organizations", { headers: { Cookie: viewerCookie } });
    expect(organizations.status).toBe(200);
    const html = await organizations.text();
    expect(html).toContain("Metro Transit");
    expect(html).not.toContain("Add organization");
    expect((await request("/settings/organizations/add", { headers: { Cookie: viewerCookie } })).status).toBe(403);
  });

  it("answers 404 for another tenant's organization and user", async () => {
    expect((await request(`/settings/organizations/edit/${other}`, { headers: { Cookie: owner.cookie } })).status).toBe(404);
    expect((await request(`/settings/users/edit/${outsiderUserId}`, { headers: { Cookie: owner.cookie } })).status).toBe(404);
  });

  it("adds an organization with a plain post: redirect and flash, or the form again with what was typed", async () => {
    const bad = await postForm(
      "/settings/organizations/add",
      { parentId: dealer, name: "", kind: "customer" },
      { Cookie: owner.cookie },
    );
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Enter the organization name.");
    expect(badHtml).toContain('aria-invalid="true"');

    const good = await postForm(
      "/settings/organizations/add",
      { parentId: dealer, name: "Pier Nine", kind: "customer" },
      { Cookie: owner.cookie },
    );
    expect(good.status).toBe(303);
    expect(good.headers.get("Location")).toBe("/settings/organizations");
    expect(decodeURIComponent(cookieFrom(good, "flash") ?? "")).toContain("organizations.added");
    expect(await row("SELECT kind, parent_id FROM organizations WHERE name = 'Pier Nine'")).toEqual({
      kind: "customer",
      parent_id: dealer,
    });
  });

  it("lists users and open invitations, and answers an island's guard-rail refusal as JSON", async () => {
    const html = await (await request("/settings/users", { headers: { Cookie: owner.cookie } })).text();
    expect(html).toContain("Vera Viewer");
    expect(html).toContain("Open invitations");
    expect(html).not.toContain("Casey Caseworker");

    const self = await postForm(
      `/settings/users/edit/${owner.id}`,
      { intent: "disable", version: "1" },
      {
        Cookie: owner.cookie,
        Accept: "application/json",
      },
    );
    expect(self.status).toBe(422);
    expect(await self.json()).toEqual({
      ok: false,
      errors: { form: "You can't disable yourself. Ask another owner or administrator." },
    });
  });

  it("invites with a plain post and keeps the typed address when refused", async () => {
    const taken = await postForm(
      "/settings/users/invite",
      { email: admin.email, role: "viewer", orgId: dealer },
      { Cookie: owner.cookie },
    );
    expect(taken.status).toBe(409);
    const html = await taken.text();
    expect(html).toContain("This email address already has an account.");
    expect(html).toContain(admin.email);

    const sent = await postForm(
      "/settings/users/invite",
      { email: "pat.plain@example.com", role: "viewer", orgId: dealer },
      { Cookie: owner.cookie },
    );
    expect(sent.status).toBe(303);
    expect(sent.headers.get("Location")).toBe("/settings/users");
    expect(await row("SELECT count(*) AS n FROM mail_outbox WHERE to_address = 'pat.plain@example.com'")).toEqual({ n: 1 });
  });
});
