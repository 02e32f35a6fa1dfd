import { env } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { listMail } from "@/server/data/mail-outbox";
import { findWebhook, insertWebhook, listDeliveries, setPreferences } from "@/server/data/notifications";
import type { Env } from "@/server/env";
import { enqueueDelivery, fleetEvent } from "@/server/notifications/fleet-event";
import type { QueueMessage, WebhookMessage, WebhookQueue } from "@/server/notifications/queue-types";
import { signatureHeader, verifySignature } from "@/server/notifications/signature";
import { backoffSeconds, DISABLE_AFTER_FAILURES, deliverWebhooks, MAX_ATTEMPTS } from "@/server/notifications/webhook-delivery";
import { webhookUrlRefusal } from "@/server/notifications/webhook-url";
import { call, data } from "./api-calls";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { request } from "./helpers";

// Notifications (issue 25): signed webhooks delivered through the queue with backoff, turned off
// after repeated failures, and email only to the people who chose the event and see the account.

afterEach(() => vi.restoreAllMocks());

describe("webhook signatures", () => {
  it("match a known vector (hex HMAC-SHA256 of the timestamp, a dot and the body)", async () => {
    const header = await signatureHeader("whsec_test", '{"type":"webhook.test"}', 1_700_000_000);
    expect(header).toBe("t=1700000000,v1=cf7d053522b08300fae293c3bcbf4e183d4a9538620c18dc9a46d063337936fa");
  });

  it("verify the body they signed, and refuse a changed body, another secret or an old timestamp", async () => {
    const body = '{"type":"deployment.finished"}';
    const header = await signatureHeader("whsec_a", body, 1_700_000_000);
    expect(await verifySignature("whsec_a", body, header, 1_700_000_010)).toBe(true);
    expect(await verifySignature("whsec_a", `${body} `, header, 1_700_000_010)).toBe(false);
    expect(await verifySignature("whsec_b", body, header, 1_700_000_010)).toBe(false);
    expect(await verifySignature("whsec_a", body, header, 1_700_000_000 + 301)).toBe(false);
    expect(await verifySignature("whsec_a", body, "t=x,v1=", 1_700_000_000)).toBe(false);
  });
});

describe("webhook URLs", () => {
  it("accept https to a public name and refuse http, private and loopback addresses", () => {
    expect(webhookUrlRefusal("https://hooks.example.com/in", false)).toBeNull();
    expect(webhookUrlRefusal("http://hooks.example.com/in", false)).toBe("validation.WebhookUrlHttps");
    for (const url of [
      "https://127.0.0.1/",
      "https://10.1.2.3/",
      "https://172.20.0.1/",
      "https://192.168.1.1/",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/",
      "https://localhost/",
      "https://db.internal/",
    ]) {
      expect(webhookUrlRefusal(url, false), url).toBe("validation.WebhookUrlPrivate");
    }
    expect(webhookUrlRefusal("not a url", false)).toBe("validation.WebhookUrl");
    expect(webhookUrlRefusal("https://user:pw@hooks.example.com/", false)).toBe("validation.WebhookUrl");
  });

  it("accept http://localhost only when local webhooks are allowed (the demo and the e2e receiver)", () => {
    expect(webhookUrlRefusal("http://localhost:9000/hook", true)).toBeNull();
    expect(webhookUrlRefusal("http://127.0.0.1:9000/hook", true)).toBeNull();
    expect(webhookUrlRefusal("http://localhost:9000/hook", false)).toBe("validation.WebhookUrlHttps");
    expect(webhookUrlRefusal("http://10.0.0.1/hook", true)).toBe("validation.WebhookUrlHttps");
  });
});

/** A queue that keeps what was sent, and a message as the consumer gets it. */
function recordingQueue() {
  const sent: WebhookMessage[] = [];
  const queue: WebhookQueue = {
    send: async (body) => {
      sent.push(body);
    },
  };
  return { sent, queue };
}

function message(body: WebhookMessage, attempts = 1) {
  const outcome: { acked: boolean; retryDelay: number | null } = { acked: false, retryDelay: null };
  const m: QueueMessage<WebhookMessage> = {
    body,
    attempts,
    ack: () => {
      outcome.acked = true;
    },
    retry: (options) => {
      outcome.retryDelay = options?.delaySeconds ?? 0;
    },
  };
  return { m, outcome };
}

describe("webhook deliveries", () => {
  it("are signed, retried with backoff after a failure, and logged with status, attempts and last error", async () => {
    const orgId = await createOrganization("Hooked");
    const accountId = await createAccount(orgId);
    const secret = "whsec_delivery";
    const webhookId = await insertWebhook(env.DB, {
      orgId,
      url: "https://hooks.example.com/in",
      events: ["deployment.finished"],
      secret,
    });
    const { sent, queue } = recordingQueue();
    const testEnv = { ...env, WEBHOOK_QUEUE: queue } as Env;
    await fleetEvent(testEnv, { type: "deployment.finished", orgId, accountId, subjectId: "dep_x", label: "#1" });
    // An event nobody subscribed to sends nothing.
    await fleetEvent(testEnv, { type: "deployment.paused", orgId, accountId, subjectId: "dep_x", label: "#1" });
    expect(sent).toHaveLength(1);
    const received: { body: string; signature: string }[] = [];
    const answers = [new Response("down", { status: 503 }), new Response("ok", { status: 200 })];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (_url, init) => {
      received.push({ body: String(init?.body), signature: new Headers(init?.headers).get("Webhook-Signature") ?? "" });
      return answers.shift() ?? new Response("ok");
    });
    const first = message(sent[0] as WebhookMessage);
    await deliverWebhooks({ messages: [first.m] }, testEnv);
    expect(first.outcome).toEqual({ acked: false, retryDelay: backoffSeconds(1) });
    let [log] = await listDeliveries(env.DB, webhookId);
    expect(log).toMatchObject({ status: "pending", attempts: 1, lastStatus: 503, lastError: "HTTP 503" });
    const second = message(sent[0] as WebhookMessage, 2);
    await deliverWebhooks({ messages: [second.m] }, testEnv);
    expect(second.outcome.acked).toBe(true);
    [log] = await listDeliveries(env.DB, webhookId);
    expect(log).toMatchObject({ status: "delivered", attempts: 2, lastStatus: 200, lastError: null });
    // Every attempt carried a signature the receiver can check with the secret.
    for (const r of received) expect(await verifySignature(secret, r.body, r.signature)).toBe(true);
    expect(JSON.parse(received[0]?.body ?? "{}")).toMatchObject({
      type: "deployment.finished",
      data: { accountId, label: "#1" },
    });
    // A delivered message that comes again is not sent again.
    const again = message(sent[0] as WebhookMessage, 3);
    await deliverWebhooks({ messages: [again.m] }, testEnv);
    expect(received).toHaveLength(2);
  });

  it("back off exponentially up to an hour", () => {
    expect([1, 2, 3, 4].map(backoffSeconds)).toEqual([30, 60, 120, 240]);
    expect(backoffSeconds(20)).toBe(3600);
  });

  it("give up after the last attempt, and turn the webhook off after repeated failures, mailing the admins", async () => {
    const orgId = await createOrganization("Failing");
    const accountId = await createAccount(orgId);
    const admin = await createUser({ role: "admin", orgId });
    const viewer = await createUser({ role: "viewer", orgId });
    const webhookId = await insertWebhook(env.DB, {
      orgId,
      url: "https://down.example.com/",
      events: ["webhook.test"],
      secret: "s",
    });
    const { sent, queue } = recordingQueue();
    const testEnv = { ...env, WEBHOOK_QUEUE: queue } as Env;
    vi.spyOn(globalThis, "fetch").mockImplementation(async () => {
      throw new Error("connection refused");
    });
    const event = { type: "webhook.test" as const, orgId, accountId, subjectId: webhookId, label: "test" };
    // Each delivery is tried to its last attempt; the webhook stays on until the Nth such delivery.
    for (let delivery = 1; delivery <= DISABLE_AFTER_FAILURES; delivery++) {
      expect((await findWebhook(env.DB, webhookId))?.enabled).toBe(true);
      await enqueueDelivery(testEnv, webhookId, event);
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        const { m, outcome } = message(sent.at(-1) as WebhookMessage, attempt);
        await deliverWebhooks({ messages: [m] }, testEnv);
        expect(outcome.acked).toBe(attempt === MAX_ATTEMPTS);
      }
    }
    const log = await listDeliveries(env.DB, webhookId);
    expect(log).toHaveLength(DISABLE_AFTER_FAILURES);
    expect(log[0]).toMatchObject({ status: "failed", attempts: MAX_ATTEMPTS, lastError: "connection refused" });
    expect((await findWebhook(env.DB, webhookId))?.enabled).toBe(false);
    const adminMail = await listMail(env.DB, { to: admin.email });
    expect(adminMail.map((m) => m.subject)).toEqual(["Webhook turned off after repeated failures"]);
    expect(await listMail(env.DB, { to: viewer.email })).toEqual([]);
    // Turned off: a new event is not queued, and a queued message is dropped unsent.
    sent.length = 0;
    await fleetEvent(testEnv, event);
    expect(sent).toEqual([]);
    const calls = vi.mocked(fetch).mock.calls.length;
    const { m, outcome } = message({ deliveryId: log[1]?.id ?? "" }, 1);
    await deliverWebhooks({ messages: [m] }, testEnv);
    expect(outcome.acked).toBe(true);
    expect(vi.mocked(fetch).mock.calls.length).toBe(calls);
  });
});

describe("email preferences", () => {
  it("a deployment that fails its threshold mails exactly the people who chose it and still see the account", async () => {
    const orgId = await createOrganization("Mail org");
    const accountId = await createAccount(orgId);
    await giveSeats(orgId, accountId, 4);
    const uids = await registerRadios(orgId, accountId, "NOTE", 4);
    const owner = await createUser({ role: "owner", orgId });
    const wantsPause = await createUser({ role: "viewer", orgId });
    const wantsNothing = await createUser({ role: "configurator", orgId });
    const outsider = await createUser({ role: "owner", orgId: await createOrganization("Elsewhere") });
    await setPreferences(env.DB, owner.id, accountId, ["deployment.threshold-failed", "deployment.finished"]);
    await setPreferences(env.DB, wantsPause.id, accountId, ["deployment.paused"]);
    // Each person reads the mail in their own language.
    await env.DB.prepare("UPDATE users SET language = 'es-MX' WHERE id = ?").bind(wantsPause.id).run();
    // A preference kept for an account the person can no longer see sends nothing.
    await setPreferences(env.DB, outsider.id, accountId, ["deployment.threshold-failed", "deployment.paused"]);
    const plan = {
      phases: [
        {
          share: 100,
          successPercent: 100,
          successAction: "next",
          errorKind: "count",
          errorValue: 1,
          errorMinimum: 0,
          waitMinutes: 0,
        },
      ],
    };
    const cookie = await sessionCookie(owner.email);
    const d = data(await call<{ id: string; number: number }>("deployments.create", { accountId, plan }, cookie, "POST"));
    const report = await request(`/device/v1/deployments/${d.id}/status`, {
      method: "POST",
      headers: { Authorization: bearer(uids[0] ?? ""), "Content-Type": "application/json" },
      body: JSON.stringify({ state: "failed", code: "E1" }),
    });
    expect(report.status).toBeLessThan(300);
    const subjects = async (email: string) => (await listMail(env.DB, { to: email })).map((m) => m.subject).sort();
    expect(await subjects(owner.email)).toEqual([`Deployment #${d.number} failed its error threshold`]);
    expect(await subjects(wantsPause.email)).toEqual([`Implementación #${d.number}: se pausó sola`]);
    expect(await subjects(wantsNothing.email)).toEqual([]);
    expect(await subjects(outsider.email)).toEqual([]);
  }, 30_000);
});

describe("notification procedures", () => {
  it("keep each person's email preferences per account, and refuse another tenant's account", async () => {
    const orgId = await createOrganization("Prefs");
    const accountId = await createAccount(orgId);
    const user = await createUser({ role: "viewer", orgId });
    const cookie = await sessionCookie(user.email);
    const events = ["deployment.paused", "deployment.finished"];
    expect(data(await call("notifications.setPreferences", { accountId, events }, cookie, "POST"))).toEqual({ events });
    expect(
      data(await call<{ events: string[] }>("notifications.preferences", { accountId }, cookie, "GET")).events.sort(),
    ).toEqual([...events].sort());
    const foreignAccount = await createAccount(await createOrganization("Other tenant"));
    const refused = await call("notifications.setPreferences", { accountId: foreignAccount, events }, cookie, "POST");
    expect(refused.error?.data.code).toBe("NOT_FOUND");
    const bad = await call("notifications.setPreferences", { accountId, events: ["everything"] }, cookie, "POST");
    expect(bad.error?.data.code).toBe("BAD_REQUEST");
  });

  it("add a webhook with its secret answered once, refuse hostile URLs, other tenants and people without edit-accounts", async () => {
    const orgId = await createOrganization("Hook owner");
    const admin = await createUser({ role: "admin", orgId });
    const viewer = await createUser({ role: "viewer", orgId });
    const cookie = await sessionCookie(admin.email);
    const added = data(
      await call<{ id: string; secret: string }>(
        "notifications.addWebhook",
        { orgId, url: "https://hooks.example.com/in", events: ["deployment.paused", "webhook.test"] },
        cookie,
        "POST",
      ),
    );
    expect(added.secret).toMatch(/^whsec_/);
    const listed = data(await call<unknown[]>("notifications.webhooks", { orgId }, cookie, "GET"));
    expect(listed).toEqual([expect.objectContaining({ id: added.id, url: "https://hooks.example.com/in", enabled: true })]);
    expect(JSON.stringify(listed)).not.toContain(added.secret);
    for (const url of ["http://hooks.example.com/", "https://169.254.169.254/", "https://10.0.0.5/", "gopher://x"]) {
      const response = await request("/api/notifications.addWebhook", {
        method: "POST",
        body: JSON.stringify({ orgId, url, events: ["webhook.test"] }),
        headers: { Origin: "http://config.test", "Content-Type": "application/json", Cookie: cookie },
      });
      expect(response.status, url).toBe(400);
    }
    const noEvents = await call("notifications.addWebhook", { orgId, url: "https://a.example.com/", events: [] }, cookie, "POST");
    expect(noEvents.error?.data.code).toBe("BAD_REQUEST");
    // A person without edit-accounts: refused.
    const viewerCookie = await sessionCookie(viewer.email);
    expect((await call("notifications.webhooks", { orgId }, viewerCookie, "GET")).error?.data.code).toBe("FORBIDDEN");
    // Another tenant's admin: the webhook does not exist for them, and stays.
    const stranger = await createUser({ role: "owner", orgId: await createOrganization("Stranger") });
    const strangerCookie = await sessionCookie(stranger.email);
    for (const path of ["notifications.deleteWebhook", "notifications.sendTest"]) {
      expect((await call(path, { id: added.id }, strangerCookie, "POST")).error?.data.code).toBe("NOT_FOUND");
    }
    expect((await call("notifications.deliveries", { id: added.id }, strangerCookie, "GET")).error?.data.code).toBe("NOT_FOUND");
    expect((await call("notifications.webhooks", { orgId }, strangerCookie, "GET")).error?.data.code).toBe("NOT_FOUND");
    expect(await findWebhook(env.DB, added.id)).not.toBeNull();
    // The test button queues a signed delivery, in the log; deleting removes the webhook.
    data(await call("notifications.sendTest", { id: added.id }, cookie, "POST"));
    const log = data(
      await call<{ deliveries: { event: string }[] }>("notifications.deliveries", { id: added.id }, cookie, "GET"),
    );
    expect(log.deliveries.map((d) => d.event)).toEqual(["webhook.test"]);
    expect(JSON.stringify(log)).not.toContain(added.secret);
    data(await call("notifications.deleteWebhook", { id: added.id }, cookie, "POST"));
    expect(await findWebhook(env.DB, added.id)).toBeNull();
    const entries = await env.DB.prepare(
      "SELECT action FROM activity_logs WHERE entity_type = 'webhook' AND entity_id = ? ORDER BY created_at",
    )
      .bind(added.id)
      .all<{ action: string }>();
    expect(entries.results.map((e) => e.action)).toEqual(["create", "delete"]);
  });
});

describe("the webhook-deliveries queue", () => {
  it("carries a test event from the button to the receiver, signed with the secret", async () => {
    const orgId = await createOrganization("Queued");
    const admin = await createUser({ role: "admin", orgId });
    const cookie = await sessionCookie(admin.email);
    const received: { url: string; body: string; signature: string }[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(async (url, init) => {
      received.push({
        url: String(url),
        body: String(init?.body),
        signature: new Headers(init?.headers).get("Webhook-Signature") ?? "",
      });
      return new Response("ok");
    });
    const added = data(
      await call<{ id: string; secret: string }>(
        "notifications.addWebhook",
        { orgId, url: "https://receiver.example.com/hook", events: ["deployment.finished"] },
        cookie,
        "POST",
      ),
    );
    data(await call("notifications.sendTest", { id: added.id }, cookie, "POST"));
    await vi.waitFor(
      async () => {
        const [log] = await listDeliveries(env.DB, added.id);
        expect(log).toMatchObject({ status: "delivered", attempts: 1, lastStatus: 200 });
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(received.map((r) => r.url)).toEqual(["https://receiver.example.com/hook"]);
    expect(await verifySignature(added.secret, received[0]?.body ?? "", received[0]?.signature ?? "")).toBe(true);
  });
});
