import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { listMail } from "@/server/data/mail-outbox";
import { insertWebhook, listDeliveries, setPreferences } from "@/server/data/notifications";
import type { Env } from "@/server/env";
import { sweepExpiredCommands } from "@/server/fleet/command-clock";
import { reportCommand } from "@/server/fleet/command-reports";
import type { WebhookMessage, WebhookQueue } from "@/server/notifications/queue-types";
import { call, data } from "./api-calls";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";

// The batch-ended event (issue 25): a bulk command batch whose commands are all final, some of
// them failed or expired, raises command-batch.ended-with-failures exactly once: one mail to
// each person who chose it, one delivery per webhook that wants it, the mail linking the batch.

let owner: { id: string; email: string; orgId: string };
let cookie = "";
let accountId = "";
let radios: string[] = [];
let hookId = "";
const sent: WebhookMessage[] = [];
const queue: WebhookQueue = {
  send: async (body) => {
    sent.push(body);
  },
};
const testEnv = () => ({ ...env, WEBHOOK_QUEUE: queue }) as Env;

beforeAll(async () => {
  owner = await createUser({ role: "owner" });
  accountId = await createAccount(owner.orgId, "Batch mail fleet");
  await giveSeats(owner.orgId, accountId, 12);
  radios = await registerRadios(owner.orgId, accountId, "BEND", 9);
  cookie = await sessionCookie(owner.email);
  await setPreferences(env.DB, owner.id, accountId, ["command-batch.ended-with-failures"]);
  hookId = await insertWebhook(env.DB, {
    orgId: owner.orgId,
    url: "https://hooks.example.com/batches",
    events: ["command-batch.ended-with-failures"],
    secret: "whsec_batch",
  });
});

async function sendBatch(uids: string[]): Promise<string> {
  const answer = await call<{ batchId: string }>(
    "commands.sendBulk",
    { accountId, selection: { uids }, type: "message", params: { text: "Muster at gate 2" } },
    cookie,
    "POST",
  );
  return data(answer).batchId;
}

async function commandOf(batchId: string, uid: string): Promise<string> {
  const row = await env.DB.prepare("SELECT id FROM commands WHERE batch_id = ? AND uid = ?")
    .bind(batchId, uid)
    .first<{ id: string }>();
  return row?.id ?? "";
}

const batchMail = async (batchId: string) =>
  (await listMail(env.DB, { to: owner.email })).filter((m) => m.body.includes(batchId));

const batchDeliveries = async (batchId: string) =>
  (await listDeliveries(env.DB, hookId, 500)).filter((d) => d.body.includes(batchId));

describe("the batch-ended event", () => {
  it("is raised once when the last waiting command of a batch with failures expires", async () => {
    const [a, b, c] = radios.slice(0, 3) as [string, string, string];
    const batchId = await sendBatch([a, b, c]);
    const e = testEnv();
    await reportCommand(e.DB, a, await commandOf(batchId, a), { state: "succeeded" }, e);
    await reportCommand(e.DB, b, await commandOf(batchId, b), { state: "failed", code: "E7" }, e);
    // One command still waits: the batch has not ended, nobody hears anything yet.
    expect(await batchMail(batchId)).toEqual([]);
    const later = new Date(Date.now() + 48 * 3_600_000);
    await sweepExpiredCommands(e, later);
    await sweepExpiredCommands(e, later);
    const mail = await batchMail(batchId);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.subject).toBe("Command batch Message ended with failures");
    expect(mail[0]?.body).toContain("2 of 3 radios");
    expect(mail[0]?.body).toContain(`/accounts/${accountId}/registry/devices/batches/${batchId}`);
    const deliveries = await batchDeliveries(batchId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]?.event).toBe("command-batch.ended-with-failures");
    expect(JSON.parse(deliveries[0]?.body ?? "{}").data).toMatchObject({ subjectId: batchId, failed: 1, expired: 1, total: 3 });
    expect(sent.some((m) => m.deliveryId === deliveries[0]?.id)).toBe(true);
    // The system's end of the batch is an activity entry under it, with how it ended.
    const entries = await env.DB.prepare(
      "SELECT actor_email, diff FROM activity_logs WHERE entity_type = 'command-batch' AND entity_id = ?",
    )
      .bind(batchId)
      .all<{ actor_email: string; diff: string }>();
    expect(entries.results).toHaveLength(1);
    expect(entries.results[0]?.actor_email).toBe("system");
    expect(JSON.parse(entries.results[0]?.diff ?? "{}")).toMatchObject({
      failed: { after: 1 },
      expired: { after: 1 },
      succeeded: { after: 1 },
    });
  }, 30_000);

  it("is raised by the report that makes the last command final, and never again", async () => {
    const [a, b] = radios.slice(3, 5) as [string, string];
    const batchId = await sendBatch([a, b]);
    const e = testEnv();
    await reportCommand(e.DB, a, await commandOf(batchId, a), { state: "failed", code: "E1" }, e);
    expect(await batchMail(batchId)).toEqual([]);
    await reportCommand(e.DB, b, await commandOf(batchId, b), { state: "succeeded" }, e);
    expect(await batchMail(batchId)).toHaveLength(1);
    // The same report again, and the sweep: the batch ended already.
    await reportCommand(e.DB, b, await commandOf(batchId, b), { state: "succeeded" }, e);
    await sweepExpiredCommands(e, new Date(Date.now() + 48 * 3_600_000));
    expect(await batchMail(batchId)).toHaveLength(1);
    expect(await batchDeliveries(batchId)).toHaveLength(1);
  }, 30_000);

  it("is raised at once when cancelling what was left ends a batch with failures", async () => {
    const [a, b] = radios.slice(7, 9) as [string, string];
    const batchId = await sendBatch([a, b]);
    const e = testEnv();
    await reportCommand(e.DB, a, await commandOf(batchId, a), { state: "failed", code: "E2" }, e);
    const cancelled = await call("commandBatches.cancel", { accountId, batchId }, cookie, "POST");
    expect(cancelled.error).toBeUndefined();
    const mail = await batchMail(batchId);
    expect(mail).toHaveLength(1);
    expect(mail[0]?.body).toContain("1 of 2 radios");
  }, 30_000);

  it("is not raised for a batch whose radios all succeeded", async () => {
    const [a, b] = radios.slice(5, 7) as [string, string];
    const batchId = await sendBatch([a, b]);
    const e = testEnv();
    for (const uid of [a, b]) await reportCommand(e.DB, uid, await commandOf(batchId, uid), { state: "succeeded" }, e);
    await sweepExpiredCommands(e, new Date(Date.now() + 48 * 3_600_000));
    expect(await batchMail(batchId)).toEqual([]);
    expect(await batchDeliveries(batchId)).toEqual([]);
    const row = await env.DB.prepare("SELECT ended_at FROM command_batches WHERE id = ?")
      .bind(batchId)
      .first<{ ended_at: string | null }>();
    expect(row?.ended_at).not.toBeNull();
  }, 30_000);
});
