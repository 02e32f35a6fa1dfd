import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { sweepExpiredCommands } from "@/server/fleet/command-clock";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// Commands to radios (issue 13): the lifecycle with a time per step, idempotent reports, the
// queue limit and order (stun first), cancel, expiry by the sweep, bulk sends in one
// statement, permissions per role and another tenant's radios.

type Answer<T = unknown> = {
  result?: { data: T };
  error?: { message: string; data: { code: string; fieldErrors?: Record<string, string[]> } };
};

async function call<T = unknown>(
  path: string,
  input: unknown,
  cookie: string,
  method: "GET" | "POST" = "POST",
): Promise<Answer<T>> {
  const response =
    method === "GET"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/${path}`, {
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

function device(path: string, uid: string, body?: unknown) {
  return request(`/device/v1${path}`, {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
}

type Command = {
  id: string;
  type: string;
  state: string;
  params: Record<string, unknown>;
  result: Record<string, unknown> | null;
  sentAt: string | null;
  deliveredAt: string | null;
  endedAt: string | null;
  createdByEmail: string;
};
type CheckIn = { commands: { id: string; type: string; params: Record<string, unknown> }[] };

let owner = "";
let technician = "";
let viewer = "";
let outsider = "";
let orgId = "";
let accountId = "";
let radios: string[] = [];

beforeAll(async () => {
  const boss = await createUser({ role: "owner" });
  orgId = boss.orgId;
  accountId = await createAccount(orgId, "Command fleet");
  await giveSeats(orgId, accountId, 40);
  radios = await registerRadios(orgId, accountId, "CMD", 30);
  owner = await sessionCookie(boss.email);
  technician = await sessionCookie((await createUser({ role: "technician", orgId })).email);
  viewer = await sessionCookie((await createUser({ role: "viewer", orgId })).email);
  outsider = await sessionCookie((await createUser({ role: "owner" })).email);
});

const get = (uid: string, id: string, cookie = owner) => call<{ command: Command }>("commands.get", { uid, id }, cookie, "GET");

describe("lifecycle", () => {
  it("goes queued → sent → delivered → succeeded, each step timed, with the result kept", async () => {
    const uid = radios[0] ?? "";
    const sent = data(
      await call<{ id: string; state: string }>("commands.send", { uid, type: "locate", params: { beepSeconds: 5 } }, technician),
    );
    expect(sent.state).toBe("queued");
    expect(sent.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const checkIn = (await (await device("/check-in", uid)).json()) as CheckIn;
    expect(checkIn.commands).toEqual([expect.objectContaining({ id: sent.id, type: "locate", params: { beepSeconds: 5 } })]);
    expect(data(await get(uid, sent.id)).command.state).toBe("sent");

    expect((await device(`/commands/${sent.id}/status`, uid, { state: "delivered" })).status).toBe(200);
    const position = { latitude: 45.5, longitude: -73.6, accuracyMeters: 12 };
    const done = await device(`/commands/${sent.id}/status`, uid, { state: "succeeded", result: position });
    expect(await done.json()).toEqual({ id: sent.id, state: "succeeded", changed: true });

    const { command } = data(await get(uid, sent.id));
    expect(command.state).toBe("succeeded");
    expect(command.result).toEqual(position);
    expect(command.createdByEmail).toContain("@example.com");
    for (const step of [command.sentAt, command.deliveredAt, command.endedAt]) expect(step).toMatch(/^\d{4}-\d\d-\d\dT/);
    // Done commands are no longer handed out.
    expect(((await (await device("/check-in", uid)).json()) as CheckIn).commands).toEqual([]);
  });

  it("is idempotent: the same report twice changes nothing, a late 'delivered' does not move it back, a contrary outcome is a conflict", async () => {
    const uid = radios[1] ?? "";
    const { id } = data(await call<{ id: string }>("commands.send", { uid, type: "ping" }, owner));
    const first = await device(`/commands/${id}/status`, uid, { state: "succeeded", result: { battery: 80 } });
    expect(await first.json()).toMatchObject({ changed: true });
    const again = await device(`/commands/${id}/status`, uid, { state: "succeeded", result: { battery: 10 } });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ state: "succeeded", changed: false });
    const late = await device(`/commands/${id}/status`, uid, { state: "delivered" });
    expect(await late.json()).toMatchObject({ state: "succeeded", changed: false });
    expect((await device(`/commands/${id}/status`, uid, { state: "failed" })).status).toBe(409);
    expect(data(await get(uid, id)).command.result).toEqual({ battery: 80 });
  });

  it("refuses reports about another radio's command, unknown ids, bad results and bad bodies", async () => {
    const uid = radios[2] ?? "";
    const { id } = data(await call<{ id: string }>("commands.send", { uid, type: "locate", params: {} }, owner));
    expect((await device(`/commands/${id}/status`, radios[3] ?? "", { state: "delivered" })).status).toBe(404);
    expect((await device(`/commands/${crypto.randomUUID()}/status`, uid, { state: "delivered" })).status).toBe(404);
    expect(
      (await device(`/commands/${id}/status`, uid, { state: "succeeded", result: { latitude: 200, longitude: 0 } })).status,
    ).toBe(400);
    expect((await device(`/commands/${id}/status`, uid, { state: "applied" })).status).toBe(400);
    expect(data(await get(uid, id)).command.state).toBe("queued");
  });
});

describe("the queue", () => {
  it("holds at most 50 waiting commands and says so clearly past that; stun jumps ahead", async () => {
    const uid = radios[4] ?? "";
    const answers = [];
    for (let i = 0; i < 50; i++)
      answers.push(await call("commands.send", { uid, type: "message", params: { text: `Hello ${i}` } }, owner));
    expect(answers.every((a) => a.result)).toBe(true);
    const full = await call("commands.send", { uid, type: "ping" }, owner);
    expect(full.error?.data.code).toBe("PRECONDITION_FAILED");
    expect(full.error?.message).toContain("50");
    // Cancelling one makes room again; stun (confirmed by typing the uid) goes first.
    const list = data(await call<{ items: Command[]; waiting: number }>("commands.list", { uid, limit: 1 }, owner, "GET"));
    expect(list.waiting).toBe(50);
    data(await call("commands.cancel", { uid, id: list.items[0]?.id }, owner));
    const stun = data(await call<{ id: string }>("commands.send", { uid, type: "stun", confirmUid: uid }, owner));
    const checkIn = (await (await device("/check-in", uid)).json()) as CheckIn;
    expect(checkIn.commands[0]?.id).toBe(stun.id);
    expect(checkIn.commands[1]).toMatchObject({ type: "message", params: { text: "Hello 0" } });
    expect(checkIn.commands).toHaveLength(10);
  }, 30_000);

  it("cancels what is not yet delivered and refuses to cancel what is", async () => {
    const uid = radios[5] ?? "";
    const a = data(await call<{ id: string }>("commands.send", { uid, type: "reboot", params: { delaySeconds: 30 } }, owner));
    const b = data(await call<{ id: string }>("commands.send", { uid, type: "sync" }, owner));
    await device("/check-in", uid);
    // Sent (handed over, not acknowledged) can still be cancelled; the radio's report then conflicts.
    data(await call("commands.cancel", { uid, id: a.id }, technician));
    expect((await device(`/commands/${a.id}/status`, uid, { state: "delivered" })).status).toBe(409);
    await device(`/commands/${b.id}/status`, uid, { state: "delivered" });
    const refused = await call("commands.cancel", { uid, id: b.id }, owner);
    expect(refused.error?.data.code).toBe("CONFLICT");
    expect(data(await get(uid, a.id)).command.state).toBe("cancelled");
  });

  it("checks parameters: message at most 140 characters, expiry 1 h to 7 days, stun needs the uid typed", async () => {
    const uid = radios[6] ?? "";
    const long = await call("commands.send", { uid, type: "message", params: { text: "x".repeat(141) } }, owner);
    expect(long.error?.data.code).toBe("BAD_REQUEST");
    const empty = await call("commands.send", { uid, type: "message", params: { text: "  " } }, owner);
    expect(empty.error?.data.code).toBe("BAD_REQUEST");
    expect((await call("commands.send", { uid, type: "ping", expiryHours: 169 }, owner)).error?.data.code).toBe("BAD_REQUEST");
    expect((await call("commands.send", { uid, type: "ping", params: { extra: 1 } }, owner)).error?.data.code).toBe(
      "BAD_REQUEST",
    );
    const stun = await call("commands.send", { uid, type: "stun", confirmUid: "WRONG" }, owner);
    expect(stun.error?.data.code).toBe("BAD_REQUEST");
    expect(data(await call<{ items: unknown[] }>("commands.list", { uid }, owner, "GET")).items).toHaveLength(0);
    expect(
      data(await call<{ id: string }>("commands.send", { uid, type: "message", params: { text: "x".repeat(140) } }, owner)).id,
    ).toBeTruthy();
  });
});

describe("expiry", () => {
  it("marks waiting commands expired by the sweep (not only when read) and refuses late reports", async () => {
    const uid = radios[7] ?? "";
    const { id } = data(await call<{ id: string }>("commands.send", { uid, type: "ping", expiryHours: 1 }, owner));
    const kept = data(await call<{ id: string }>("commands.send", { uid, type: "ping", expiryHours: 24 }, owner));
    await sweepExpiredCommands(env, new Date(Date.now() + 2 * 3_600_000));
    const row = await env.DB.prepare("SELECT state, ended_at FROM commands WHERE id = ?")
      .bind(id)
      .first<{ state: string; ended_at: string }>();
    expect(row?.state).toBe("expired");
    expect(row?.ended_at).toBeTruthy();
    const other = await env.DB.prepare("SELECT state FROM commands WHERE id = ?").bind(kept.id).first<{ state: string }>();
    expect(other?.state).toBe("queued");
    expect((await device(`/commands/${id}/status`, uid, { state: "delivered" })).status).toBe(409);
    expect((await call("commands.cancel", { uid, id }, owner)).error?.data.code).toBe("CONFLICT");
  });
});

describe("no report", () => {
  it("a delivered command whose radio never reports expires by the sweep with code no-report; a later outcome is a conflict", async () => {
    const uid = radios[8] ?? "";
    const { id } = data(await call<{ id: string }>("commands.send", { uid, type: "ping", expiryHours: 1 }, owner));
    expect((await device(`/commands/${id}/status`, uid, { state: "delivered" })).status).toBe(200);
    // Before its expiry the sweep leaves it alone: the radio may still report.
    await sweepExpiredCommands(env, new Date(Date.now() + 30 * 60_000));
    expect(data(await get(uid, id)).command.state).toBe("delivered");
    await sweepExpiredCommands(env, new Date(Date.now() + 2 * 3_600_000));
    const row = await env.DB.prepare("SELECT state, code, ended_at, expires_at FROM commands WHERE id = ?")
      .bind(id)
      .first<{ state: string; code: string; ended_at: string; expires_at: string }>();
    expect(row).toMatchObject({ state: "expired", code: "no-report" });
    expect(row?.ended_at).toBe(row?.expires_at);
    expect((await device(`/commands/${id}/status`, uid, { state: "succeeded", result: {} })).status).toBe(409);
  });
});

describe("bulk", () => {
  it("queues one row per radio of a selection in one statement, skips full queues and logs each with its sender", async () => {
    const chosen = radios.slice(10, 20);
    const answer = data(
      await call<{ queued: number; skipped: number; batchId: string }>(
        "commands.sendBulk",
        { accountId, selection: { uids: chosen }, type: "message", params: { text: "Shift change at 6" } },
        technician,
      ),
    );
    expect(answer).toMatchObject({ queued: 10, skipped: 0 });
    const rows = await env.DB.prepare("SELECT id, uid, state FROM commands WHERE batch_id = ?")
      .bind(answer.batchId)
      .all<{ id: string; uid: string }>();
    expect(rows.results.map((r) => r.uid).sort()).toEqual(chosen);
    expect(new Set(rows.results.map((r) => r.id)).size).toBe(10);
    const logs = await env.DB.prepare(
      "SELECT count(*) AS n, min(actor_email) AS who FROM activity_logs WHERE entity_type = 'command' AND entity_id IN (SELECT id FROM commands WHERE batch_id = ?)",
    )
      .bind(answer.batchId)
      .first<{ n: number; who: string }>();
    expect(logs?.n).toBe(10);
    // A filter over the whole account: the radio with a full queue (radios[4]) is skipped.
    const all = data(
      await call<{ queued: number; skipped: number }>(
        "commands.sendBulk",
        { accountId, selection: { filter: {} }, type: "ping" },
        owner,
      ),
    );
    expect(all.queued + all.skipped).toBe(30);
    expect(all.skipped).toBe(1);
    expect(
      (await call("commands.sendBulk", { accountId, selection: { uids: chosen }, type: "stun" }, owner)).error?.data.code,
    ).toBe("BAD_REQUEST");
  });
});

describe("permissions and tenancy", () => {
  it("lets a viewer read an account's radio's commands but not send or cancel; the inventory view needs manage-devices", async () => {
    const uid = radios[8] ?? "";
    const { id } = data(await call<{ id: string }>("commands.send", { uid, type: "ping" }, technician));
    expect(data(await call<{ items: Command[] }>("commands.list", { uid, accountId }, viewer, "GET")).items[0]?.id).toBe(id);
    expect((await call("commands.list", { uid }, viewer, "GET")).error?.data.code).toBe("FORBIDDEN");
    expect((await call("commands.send", { uid, accountId, type: "ping" }, viewer)).error?.data.code).toBe("FORBIDDEN");
    expect((await call("commands.cancel", { uid, accountId, id }, viewer)).error?.data.code).toBe("FORBIDDEN");
    // A radio of another account of the same tenant is not in this account's registry.
    const elsewhere = await createAccount(orgId, "Elsewhere");
    expect((await call("commands.list", { uid, accountId: elsewhere }, owner, "GET")).error?.data.code).toBe("NOT_FOUND");
  });

  it("answers another tenant NOT_FOUND for radios and commands, and writes nothing", async () => {
    const uid = radios[9] ?? "";
    const { id } = data(await call<{ id: string }>("commands.send", { uid, type: "ping" }, owner));
    const before = await env.DB.prepare("SELECT count(*) AS n FROM commands").first<{ n: number }>();
    const answers = await Promise.all([
      call("commands.list", { uid }, outsider, "GET"),
      call("commands.get", { uid, id }, outsider, "GET"),
      call("commands.send", { uid, type: "ping" }, outsider),
      call("commands.cancel", { uid, id }, outsider),
      call("commands.sendBulk", { accountId, selection: { uids: [uid] }, type: "ping" }, outsider),
    ]);
    expect(answers.map((a) => a.error?.data.code)).toEqual(["NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND"]);
    // A selection from the outsider's own inventory naming our uid matches nothing of theirs.
    const own = await call("commands.sendBulk", { selection: { uids: [uid] }, type: "ping" }, outsider);
    expect(own.error?.data.code).toBe("BAD_REQUEST");
    const after = await env.DB.prepare("SELECT count(*) AS n FROM commands").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
    expect(data(await get(uid, id)).command.state).toBe("queued");
  });
});
