import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepDesk } from "@/server/data/fc-sessions";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm, request } from "./helpers";
import { makeTenant } from "./tenant";

// The customer-care desk (issue 15): permissions per role, another tenant's sessions,
// customers and employees NOT_FOUND, the session lifecycle open → in progress → waiting →
// closed with its timeline, hand-over, commands from a session answered by the radio and
// refused when remote support is off, stale edits CONFLICT, hostile input 400, pages with
// and without JavaScript, the CSV, and case users kept out of Settings → Users.

type Answer<T = unknown> = {
  result?: { data: T };
  error?: { message: string; data: { code: string; httpStatus: number; fieldErrors?: Record<string, string[]> } };
};

async function call<T = unknown>(
  path: string,
  input: unknown,
  cookie: string,
  method: "GET" | "POST" = "POST",
): Promise<Answer<T>> {
  const response =
    method === "GET"
      ? await request(`/api/fcCases.${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/fcCases.${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
        });
  return response.json();
}

function data<T>(answer: Answer<T>): T {
  if (!answer.result) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

const code = (answer: Answer) => answer.error?.data.code ?? "OK";

function radio(path: string, uid: string, body?: unknown) {
  return request(`/device/v1${path}`, {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}

type Session = {
  session: { id: string; status: string; version: number; assigneeId: string | null; closedAt: string | null };
  timeline: { kind: string; body: string; command: { id: string; state: string; type: string } | null }[];
  employees: { id: string }[];
  radios: { uid: string; remoteSupport: boolean }[];
};

let home: Awaited<ReturnType<typeof makeTenant>>;
let other: Awaited<ReturnType<typeof makeTenant>>;
let agent = "";
let agentId = "";
let colleagueId = "";
let radios: string[] = [];

beforeAll(async () => {
  home = await makeTenant("Desk");
  other = await makeTenant("Elsewhere");
  // Two case users (employees) of the dealer: the agent and a colleague to hand over to.
  const a = await createUser({ orgId: home.orgId, role: "case-agent" });
  const b = await createUser({ orgId: home.orgId, role: "case-agent" });
  await env.DB.prepare(
    "UPDATE users SET is_case_user = 1, name = CASE id WHEN ? THEN 'Ada Agent' ELSE 'Ben Agent' END WHERE id IN (?, ?)",
  )
    .bind(a.id, a.id, b.id)
    .run();
  agentId = a.id;
  colleagueId = b.id;
  agent = await sessionCookie(a.email);
  await giveSeats(home.childOrgId, home.accountId, 5);
  radios = await registerRadios(home.childOrgId, home.accountId, `DSK-${crypto.randomUUID().slice(0, 4)}`, 2);
});

async function openSession(cookie = agent, extra: Record<string, unknown> = {}) {
  return data(
    await call<{ id: string }>(
      "openSession",
      { accountId: home.accountId, subject: "Radio silent", category: "General", uids: [radios[0]], ...extra },
      cookie,
    ),
  );
}

const getSession = async (id: string, cookie = agent) =>
  data(await call<Session>("getSession", { accountId: home.accountId, id }, cookie, "GET"));

describe("who may use the desk (spec §6)", () => {
  it("gives sessions and users to a case agent, settings only to view-all-users", async () => {
    expect(code(await call("dashboard", { accountId: home.accountId }, agent, "GET"))).toBe("OK");
    expect(code(await call("listCustomers", { accountId: home.accountId }, agent, "GET"))).toBe("OK");
    const settings = {
      accountId: home.accountId,
      version: 0,
      categories: ["General", "Audio"],
      defaultPriority: "high",
      autoCloseDays: 7,
      retentionDays: 90,
    };
    expect(code(await call("saveSettings", settings, agent))).toBe("FORBIDDEN");
    expect(code(await call("saveSettings", settings, home.cookies.admin))).toBe("FORBIDDEN");
    expect(code(await call("dashboard", { accountId: home.accountId }, home.cookies.technician, "GET"))).toBe("FORBIDDEN");
    expect(code(await call("saveSettings", settings, home.cookies.owner))).toBe("OK");
    // An agent may not invite colleagues (edit-users): the list shows no add button either.
    expect(code(await call("inviteEmployee", { accountId: home.accountId, email: "new-agent@example.com" }, agent))).toBe(
      "FORBIDDEN",
    );
  });

  it("answers pages by the flag: the agent opens the dashboard, not the settings; a technician neither", async () => {
    const dashboard = await request(`/accounts/${home.accountId}/fc-cases/fc-dashboard`, { headers: { Cookie: agent } });
    expect(dashboard.status).toBe(200);
    const html = await dashboard.text();
    expect(html).toContain("<svg");
    expect(html).not.toContain("fc-cases/fc-settings");
    expect((await request(`/accounts/${home.accountId}/fc-cases/fc-settings`, { headers: { Cookie: agent } })).status).toBe(403);
    expect(
      (await request(`/accounts/${home.accountId}/fc-cases/fc-dashboard`, { headers: { Cookie: home.cookies.technician } }))
        .status,
    ).toBe(403);
    const index = await request(`/accounts/${home.accountId}/fc-cases`, { headers: { Cookie: agent }, redirect: "manual" });
    expect(index.headers.get("Location")).toBe(`/accounts/${home.accountId}/fc-cases/fc-dashboard`);
  });
});

describe("tenancy: another tenant's desk is NOT_FOUND", () => {
  it("refuses the other tenant's sessions, customers, employees and radios", async () => {
    const { id } = await openSession();
    const customer = data(await call<{ id: string }>("saveCustomer", { accountId: home.accountId, name: "Rosa Díaz" }, agent));
    const outsider = other.cookies.owner;
    expect(code(await call("getSession", { accountId: home.accountId, id }, outsider, "GET"))).toBe("NOT_FOUND");
    expect(code(await call("getSession", { accountId: other.accountId, id }, outsider, "GET"))).toBe("NOT_FOUND");
    expect(code(await call("getCustomer", { accountId: other.accountId, id: customer.id }, outsider, "GET"))).toBe("NOT_FOUND");
    expect(code(await call("getEmployee", { accountId: other.accountId, id: agentId }, outsider, "GET"))).toBe("NOT_FOUND");
    expect(code(await call("addNote", { accountId: other.accountId, id, body: "hi" }, outsider))).toBe("NOT_FOUND");
    // Opening a session in one's own account about another tenant's radio: refused on the field.
    const foreign = await call(
      "openSession",
      { accountId: other.accountId, subject: "x", category: "General", uids: [radios[0]] },
      outsider,
    );
    expect(code(foreign)).toBe("BAD_REQUEST");
    const page = await request(`/accounts/${home.accountId}/fc-cases/list-fc-sessions/${id}`, { headers: { Cookie: outsider } });
    expect(page.status).toBe(404);
  });
});

describe("a session's life", () => {
  it("goes open → in progress → waiting → closed, handed over, each step on the timeline and in the log", async () => {
    const { id } = await openSession(agent, { assigneeId: agentId, priority: "high" });
    let s = await getSession(id);
    expect(s.session.status).toBe("open");
    expect(s.session.assigneeId).toBe(agentId);
    for (const status of ["in-progress", "waiting"]) {
      expect(
        code(
          await call(
            "updateSession",
            { accountId: home.accountId, id, version: s.session.version, status, priority: "high" },
            agent,
          ),
        ),
      ).toBe("OK");
      s = await getSession(id);
      expect(s.session.status).toBe(status);
    }
    const handed = await call(
      "updateSession",
      { accountId: home.accountId, id, version: s.session.version, status: "closed", priority: "high", assigneeId: colleagueId },
      agent,
    );
    expect(code(handed)).toBe("OK");
    s = await getSession(id);
    expect(s.session.status).toBe("closed");
    expect(s.session.closedAt).not.toBeNull();
    expect(s.session.assigneeId).toBe(colleagueId);
    expect(s.timeline.map((e) => e.kind)).toEqual(["opened", "status", "status", "closed", "assignee"]);
    expect(s.timeline.at(-1)?.body).toContain("Ben Agent");
    const logged = await env.DB.prepare(
      "SELECT count(*) AS n FROM activity_logs WHERE entity_type = 'fc-session' AND entity_id = ?",
    )
      .bind(id)
      .first<{ n: number }>();
    expect(logged?.n).toBe(4);
    // The page's timeline says each change and date in the reader's words (issue 23), not raw values.
    for (const [language, changes] of [
      ["en", ["Open → In progress", "In progress → Waiting", "Waiting → Closed"]],
      ["es-MX", ["Abierta → En curso", "En curso → En espera", "En espera → Cerrada"]],
    ] as const) {
      const page = await request(`/accounts/${home.accountId}/fc-cases/list-fc-sessions/${id}`, {
        headers: { Cookie: `${agent}; lang=${language}` },
      });
      const timeline = /<ol[^>]*data-timeline[^>]*>.*?<\/ol>/s.exec(await page.text())?.[0] ?? "";
      for (const change of changes) expect(timeline).toContain(change);
      expect(timeline).not.toContain("in-progress");
      expect(timeline).not.toMatch(/>\d{4}-\d\d-\d\dT?\s?\d\d:\d\d</);
      expect(timeline).toMatch(/<time dateTime="[^"]+">[^<]*\d{4}[^<]*<\/time>/);
    }
    // A closed session takes no commands.
    const refused = await call("sendCommand", { accountId: home.accountId, id, uid: radios[0], type: "ping" }, agent);
    expect(code(refused)).toBe("PRECONDITION_FAILED");
  });

  it("answers a stale edit with CONFLICT and changes nothing", async () => {
    const { id } = await openSession();
    const s = await getSession(id);
    const first = { accountId: home.accountId, id, version: s.session.version, status: "in-progress", priority: "medium" };
    expect(code(await call("updateSession", first, agent))).toBe("OK");
    const stale = await call("updateSession", { ...first, status: "closed" }, agent);
    expect(code(stale)).toBe("CONFLICT");
    expect(stale.error?.data.httpStatus).toBe(409);
    expect((await getSession(id)).session.status).toBe("in-progress");
  });

  it("refuses hostile input with a 400, never a 500", async () => {
    const cases: Record<string, unknown>[] = [
      { accountId: home.accountId, subject: "", category: "General", uids: [radios[0]] },
      { accountId: home.accountId, subject: "x".repeat(201), category: "General", uids: [radios[0]] },
      { accountId: home.accountId, subject: "ok", category: "'; DROP TABLE fc_sessions; --", uids: [radios[0]] },
      { accountId: home.accountId, subject: "ok", category: "General", uids: [] },
      { accountId: home.accountId, subject: "ok", category: "General", uids: ["NOT-A-RADIO"] },
      { accountId: home.accountId, subject: "ok", category: "General", uids: [radios[0]], priority: "whenever" },
      { accountId: home.accountId, subject: "ok", category: "General", uids: [radios[0]], assigneeId: home.userId },
    ];
    for (const input of cases) {
      const answer = await call("openSession", input, agent);
      expect([code(answer), answer.error?.data.httpStatus]).toEqual(["BAD_REQUEST", 400]);
    }
    const search = await call("listSessions", { accountId: home.accountId, search: '") OR 1=1 NEAR(* "' }, agent, "GET");
    expect(code(search)).toBe("OK");
  });
});

describe("commands from a session", () => {
  it("sends a normal command the radio answers, and the timeline reads its live state", async () => {
    const uid = radios[1] ?? "";
    const { id } = await openSession(agent, { uids: [uid] });
    const sent = data(
      await call<{ id: string }>(
        "sendCommand",
        { accountId: home.accountId, id, uid, type: "message", params: { text: "Call dispatch" } },
        agent,
      ),
    );
    let entry = (await getSession(id)).timeline.find((e) => e.kind === "command");
    expect(entry?.command).toMatchObject({ id: sent.id, type: "message", state: "queued" });
    expect(entry?.body).toBe("Call dispatch");
    // The radio takes it at its check-in and answers over /device/v1.
    const checkIn = (await (await radio("/check-in", uid)).json()) as { commands: { id: string }[] };
    expect(checkIn.commands.map((c) => c.id)).toContain(sent.id);
    expect((await radio(`/commands/${sent.id}/status`, uid, { state: "succeeded" })).status).toBe(200);
    entry = (await getSession(id)).timeline.find((e) => e.kind === "command");
    expect(entry?.command?.state).toBe("succeeded");
    // A sync is a redeploy on the timeline.
    data(await call("sendCommand", { accountId: home.accountId, id, uid, type: "sync" }, agent));
    expect((await getSession(id)).timeline.map((e) => e.kind)).toContain("redeploy");
  });

  it("refuses commands to a radio whose remote support is off, with a translated 4xx and no command", async () => {
    const uid = radios[0] ?? "";
    const { id } = await openSession();
    const off = await call(
      "saveDeviceSettings",
      { uid, accountId: home.accountId, version: 0, remoteSupport: false, notes: "Ask first" },
      home.cookies.technician,
    );
    expect(code(off)).toBe("OK");
    const before = await env.DB.prepare("SELECT count(*) AS n FROM commands WHERE uid = ?").bind(uid).first<{ n: number }>();
    const refused = await request(`/api/fcCases.sendCommand`, {
      method: "POST",
      body: JSON.stringify({ accountId: home.accountId, id, uid, type: "locate" }),
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: agent, "Accept-Language": "es-MX" },
    });
    expect(refused.status).toBe(412);
    const body = (await refused.json()) as Answer;
    expect(body.error?.message).toMatch(/soporte remoto/);
    const after = await env.DB.prepare("SELECT count(*) AS n FROM commands WHERE uid = ?").bind(uid).first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
    expect((await getSession(id)).timeline.map((e) => e.kind)).toEqual(["opened"]);
    // The agent cannot turn remote support back on (edit-fc-device-settings is the fleet's,
    // manage-devices), neither by the procedure nor by the page, and so still cannot command it.
    expect(
      code(await call("saveDeviceSettings", { uid, accountId: home.accountId, version: 1, remoteSupport: true }, agent)),
    ).toBe("FORBIDDEN");
    const settingsPage = `/accounts/${home.accountId}/registry/devices/edit-fc-device-settings/${uid}`;
    const page = await request(settingsPage, { headers: { Cookie: agent } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("This route is protected.");
    const posted = await postForm(settingsPage, { version: "1", remoteSupport: "yes", notes: "" }, { Cookie: agent });
    expect(posted.status).toBe(403);
    expect((await getSession(id)).radios.find((r) => r.uid === uid)?.remoteSupport).toBe(false);
    expect(code(await call("sendCommand", { accountId: home.accountId, id, uid, type: "locate" }, agent))).toBe(
      "PRECONDITION_FAILED",
    );
    // A stale save of the radio's fc settings is CONFLICT; a fleet manager's save turns it back on.
    expect(
      code(
        await call(
          "saveDeviceSettings",
          { uid, accountId: home.accountId, version: 0, remoteSupport: true },
          home.cookies.technician,
        ),
      ),
    ).toBe("CONFLICT");
    expect(
      code(
        await call(
          "saveDeviceSettings",
          { uid, accountId: home.accountId, version: 1, remoteSupport: true },
          home.cookies.technician,
        ),
      ),
    ).toBe("OK");
    expect((await request(settingsPage, { headers: { Cookie: home.cookies.technician } })).status).toBe(200);
  });
});

describe("pages without JavaScript", () => {
  it("opens a session, adds a note and closes it with plain form posts", async () => {
    const base = `/accounts/${home.accountId}/fc-cases/list-fc-sessions`;
    const opened = await postForm(
      `${base}/add`,
      { subject: "Crackling audio", uids: radios[0] ?? "", category: "General", priority: "low", customerId: "", assigneeId: "" },
      { Cookie: agent },
    );
    expect(opened.status).toBe(303);
    const href = opened.headers.get("Location") ?? "";
    expect(href).toMatch(new RegExp(`^${base}/fcs_`));
    expect((await postForm(href, { intent: "note", body: "Customer called back" }, { Cookie: agent })).status).toBe(303);
    const page = await (await request(href, { headers: { Cookie: agent } })).text();
    expect(page).toContain("Customer called back");
    const version = /name="version" value="(\d+)"/.exec(page)?.[1] ?? "";
    const closed = await postForm(
      href,
      { intent: "update", version, status: "closed", priority: "low", assigneeId: colleagueId },
      { Cookie: agent },
    );
    expect(closed.status).toBe(303);
    const stale = await postForm(
      href,
      { intent: "update", version, status: "open", priority: "low", assigneeId: "" },
      { Cookie: agent },
    );
    expect(stale.status).toBe(409);
    const empty = await postForm(href, { intent: "note", body: "   " }, { Cookie: agent });
    expect(empty.status).toBe(400);
    const csv = await request(`${base}/export.csv?search=crackling`, { headers: { Cookie: agent } });
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    const text = await csv.text();
    expect(text).toContain("Crackling audio");
    // Moments are on the account's wall clock, the headers naming its zone (issue 23).
    expect(text.split(/\r?\n/)[0]).toMatch(/Opened \([A-Za-z_/]+\),Closed \([A-Za-z_/]+\)/);
    expect(text).toMatch(/,\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},/);
  });
});

describe("employees are case users", () => {
  it("lists case users only, and Settings → Users hides them (hide case users)", async () => {
    const list = data(await call<{ items: { id: string }[] }>("listEmployees", { accountId: home.accountId }, agent, "GET"));
    expect(list.items.map((e) => e.id).sort()).toEqual([agentId, colleagueId].sort());
    const users = await (await request("/settings/users", { headers: { Cookie: home.cookies.owner } })).text();
    expect(users).not.toContain("Ada Agent");
  });

  it("invites an employee by email: accepting makes a case user", async () => {
    const invited = await call<{ email: string }>(
      "inviteEmployee",
      { accountId: home.accountId, email: "Desk.Newcomer@example.com" },
      home.cookies.owner,
    );
    expect(data(invited).email).toBe("desk.newcomer@example.com");
    const row = await env.DB.prepare("SELECT role FROM invitations WHERE email = 'desk.newcomer@example.com'").first<{
      role: string;
    }>();
    expect(row?.role).toBe("case-agent");
  });

  it("answers alike for an address of another tenant: only the caller's own tree is refused", async () => {
    const outsider = await createUser({ orgId: other.orgId, role: "viewer" });
    const invited = await call<{ email: string }>(
      "inviteEmployee",
      { accountId: home.accountId, email: outsider.email.toUpperCase() },
      home.cookies.owner,
    );
    expect(data(invited).email).toBe(outsider.email.toLowerCase());
    const fresh = await call<{ email: string }>(
      "inviteEmployee",
      { accountId: home.accountId, email: `fresh-${crypto.randomUUID().slice(0, 6)}@example.com` },
      home.cookies.owner,
    );
    expect(code(fresh)).toBe(code(invited));
    // A person of the caller's own tree has an account the caller can see anyway: that is said.
    const colleague = await createUser({ orgId: home.orgId, role: "viewer" });
    const refused = await call("inviteEmployee", { accountId: home.accountId, email: colleague.email }, home.cookies.owner);
    expect(code(refused)).toBe("CONFLICT");
  });

  it("shows a case agent the protected-route screen for inviting or editing employees by URL, with and without a post", async () => {
    const base = `/accounts/${home.accountId}/fc-cases/list-fc-employees`;
    for (const path of [`${base}/add`, `${base}/edit/${colleagueId}`]) {
      const page = await request(path, { headers: { Cookie: agent } });
      expect(page.status, path).toBe(403);
      const html = await page.text();
      expect(html).toContain("This route is protected.");
      expect(html).not.toContain("This value is not valid.");
    }
    const posted = await postForm(`${base}/add`, { email: "sneaky@example.com" }, { Cookie: agent });
    expect(posted.status).toBe(403);
    expect(await posted.text()).toContain("This route is protected.");
    const none = await env.DB.prepare("SELECT count(*) AS n FROM invitations WHERE email = 'sneaky@example.com'").first<{
      n: number;
    }>();
    expect(none?.n).toBe(0);
    expect((await request(`${base}/add`, { headers: { Cookie: home.cookies.owner } })).status).toBe(200);
  });
});

describe("the desk's housekeeping (fc-settings)", () => {
  it("closes waiting sessions after the auto-close days and deletes closed ones past retention", async () => {
    const waiting = await openSession();
    const old = await openSession();
    let s = await getSession(waiting.id);
    data(
      await call(
        "updateSession",
        { accountId: home.accountId, id: waiting.id, version: s.session.version, status: "waiting", priority: "medium" },
        agent,
      ),
    );
    s = await getSession(old.id);
    data(
      await call(
        "updateSession",
        { accountId: home.accountId, id: old.id, version: s.session.version, status: "closed", priority: "medium" },
        agent,
      ),
    );
    // Owner's settings of this account (saved above): auto-close 7 days, retention 90 days.
    const later = new Date(Date.now() + 8 * 86_400_000);
    await sweepDesk(env.DB, later);
    s = await getSession(waiting.id);
    expect(s.session.status).toBe("closed");
    expect(s.timeline.at(-1)).toMatchObject({ kind: "closed", body: "waiting → closed" });
    expect(code(await call("getSession", { accountId: home.accountId, id: old.id }, agent, "GET"))).toBe("OK");
    await sweepDesk(env.DB, new Date(Date.now() + 91 * 86_400_000));
    expect(code(await call("getSession", { accountId: home.accountId, id: old.id }, agent, "GET"))).toBe("NOT_FOUND");
    // Both are in the activity log, by "system".
    const logged = await env.DB.prepare(
      "SELECT entity_id, action, diff FROM activity_logs WHERE actor_email = 'system' AND entity_type = 'fc-session' AND entity_id IN (?, ?) ORDER BY action DESC",
    )
      .bind(waiting.id, old.id)
      .all<{ entity_id: string; action: string; diff: string }>();
    expect(logged.results.map((row) => [row.entity_id, row.action, JSON.parse(row.diff)])).toEqual([
      [waiting.id, "update", { status: { before: "waiting", after: "closed" } }],
      [old.id, "delete", { subject: { before: expect.any(String) } }],
    ]);
  });
});

describe("deleting an account that holds desk data", () => {
  it("deletes its sessions, customers and desk settings with it, confirmed by name; its radios go back to the inventory", async () => {
    const accountId = await createAccount(home.childOrgId, "Closing fleet");
    await giveSeats(home.childOrgId, accountId, 2);
    const [uid = ""] = await registerRadios(home.childOrgId, accountId, `CLS-${crypto.randomUUID().slice(0, 4)}`, 1);
    const owner = home.cookies.owner;
    const customer = data(await call<{ id: string }>("saveCustomer", { accountId, name: "Closing caller", uids: [uid] }, owner));
    const session = data(
      await call<{ id: string }>(
        "openSession",
        { accountId, subject: "Last call", category: "General", uids: [uid], customerId: customer.id },
        owner,
      ),
    );
    data(await call("addNote", { accountId, id: session.id, body: "Noted" }, owner));
    data(
      await call(
        "saveDeviceSettings",
        { uid, accountId, version: 0, remoteSupport: true, contactCustomerId: customer.id, notes: "Keep" },
        owner,
      ),
    );
    data(
      await call(
        "saveSettings",
        { accountId, version: 0, categories: ["General"], defaultPriority: "low", autoCloseDays: 7, retentionDays: 90 },
        owner,
      ),
    );
    const href = `/accounts/edit/${accountId}/general`;
    const version =
      /name="version" value="(\d+)"/.exec(await (await request(href, { headers: { Cookie: owner } })).text())?.[1] ?? "";
    // A wrong name deletes nothing.
    const wrong = await postForm(href, { intent: "delete", version, confirmName: "Closing" }, { Cookie: owner });
    expect(wrong.status).toBe(422);
    const deleted = await postForm(href, { intent: "delete", version, confirmName: "Closing fleet" }, { Cookie: owner });
    // Not the page again saying "Something this refers to no longer exists": the account list.
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("Location")).toBe("/accounts");
    const left = await env.DB.prepare(
      `SELECT (SELECT count(*) FROM accounts WHERE id = ?1) AS accounts,
              (SELECT count(*) FROM fc_sessions WHERE account_id = ?1) AS sessions,
              (SELECT count(*) FROM fc_timeline WHERE session_id = ?2) AS timeline,
              (SELECT count(*) FROM fc_session_devices WHERE session_id = ?2) AS sessionRadios,
              (SELECT count(*) FROM fc_customers WHERE account_id = ?1) AS customers,
              (SELECT count(*) FROM fc_customer_radios WHERE customer_id = ?3) AS customerRadios,
              (SELECT count(*) FROM fc_settings WHERE account_id = ?1) AS settings,
              (SELECT contact_customer_id FROM fc_device_settings WHERE uid = ?4) AS contact,
              (SELECT account_id FROM devices WHERE uid = ?4) AS radioAccount`,
    )
      .bind(accountId, session.id, customer.id, uid)
      .first();
    expect(left).toEqual({
      accounts: 0,
      sessions: 0,
      timeline: 0,
      sessionRadios: 0,
      customers: 0,
      customerRadios: 0,
      settings: 0,
      contact: null,
      radioAccount: null,
    });
  });
});
