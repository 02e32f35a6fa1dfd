import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm, request } from "./helpers";

// Bulk command batches (issue 25): a bulk send is a batch with counts per state, its radios per
// state, cancel of what was not delivered (one statement) and retry of the failed as a new
// batch linked back; another tenant's or account's batch is NOT_FOUND; a viewer cannot act.

type Answer<T = unknown> = { result?: { data: T }; error?: { message: string; data: { code: string } } };
type Counts = Record<"queued" | "sent" | "delivered" | "succeeded" | "failed" | "expired" | "cancelled" | "total", number>;
type Batch = {
  id: string;
  type: string;
  params: Record<string, unknown>;
  target: unknown;
  retryOf: string | null;
  createdByEmail: string;
};

async function call<T = unknown>(path: string, input: unknown, cookie: string, method: "GET" | "POST" = "POST") {
  const response =
    method === "GET"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
        });
  return (await response.json()) as Answer<T>;
}

function data<T>(answer: Answer<T>): T {
  if (!answer.result) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

function report(uid: string, id: string, body: unknown) {
  return request(`/device/v1/commands/${id}/status`, {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

let owner = "";
let viewer = "";
let outsider = "";
let orgId = "";
let accountId = "";
let radios: string[] = [];

beforeAll(async () => {
  const boss = await createUser({ role: "owner" });
  orgId = boss.orgId;
  accountId = await createAccount(orgId, "Batch fleet");
  await giveSeats(orgId, accountId, 20);
  radios = await registerRadios(orgId, accountId, "BAT", 12);
  owner = await sessionCookie(boss.email);
  viewer = await sessionCookie((await createUser({ role: "viewer", orgId })).email);
  outsider = await sessionCookie((await createUser({ role: "owner" })).email);
});

async function sendBatch(uids: string[]): Promise<string> {
  const sent = data(
    await call<{ batchId: string }>(
      "commands.sendBulk",
      { accountId, selection: { uids }, type: "message", params: { text: "Muster at gate 2" } },
      owner,
    ),
  );
  return sent.batchId;
}

const idOf = async (batchId: string, uid: string) =>
  (await env.DB.prepare("SELECT id FROM commands WHERE batch_id = ? AND uid = ?").bind(batchId, uid).first<{ id: string }>())
    ?.id ?? "";

describe("command batches", () => {
  it("shows who sent what to which target, counts per state and the radios of one state, paged", async () => {
    const chosen = radios.slice(0, 5);
    const batchId = await sendBatch(chosen);
    const first = await idOf(batchId, chosen[0] ?? "");
    expect((await report(chosen[0] ?? "", first, { state: "delivered" })).status).toBe(200);
    expect((await report(chosen[0] ?? "", first, { state: "failed", code: "busy" })).status).toBe(200);

    const { batch, counts } = data(
      await call<{ batch: Batch; counts: Counts }>("commandBatches.get", { accountId, batchId }, viewer, "GET"),
    );
    expect(batch).toMatchObject({ type: "message", params: { text: "Muster at gate 2" }, target: { uids: 5 }, retryOf: null });
    expect(batch.createdByEmail).toContain("@");
    expect(counts).toMatchObject({ queued: 4, failed: 1, succeeded: 0, total: 5 });

    const page1 = data(
      await call<{ items: { uid: string }[]; next: string | null }>(
        "commandBatches.radios",
        { accountId, batchId, state: "queued", limit: 3 },
        viewer,
        "GET",
      ),
    );
    expect(page1.items.map((r) => r.uid)).toEqual(chosen.slice(1, 4));
    const page2 = data(
      await call<{ items: { uid: string }[]; next: string | null }>(
        "commandBatches.radios",
        { accountId, batchId, state: "queued", limit: 3, after: page1.next },
        viewer,
        "GET",
      ),
    );
    expect(page2).toEqual({ items: [expect.objectContaining({ uid: chosen[4] })], next: null });

    const listed = data(await call<{ items: Batch[] }>("commandBatches.list", { accountId }, viewer, "GET"));
    expect(listed.items.map((b) => b.id)).toContain(batchId);
  });

  it("cancels only what was not delivered, in one statement, and logs it once for the batch", async () => {
    const chosen = radios.slice(5, 9);
    const batchId = await sendBatch(chosen);
    const delivered = await idOf(batchId, chosen[0] ?? "");
    expect((await report(chosen[0] ?? "", delivered, { state: "delivered" })).status).toBe(200);
    const done = await idOf(batchId, chosen[1] ?? "");
    expect((await report(chosen[1] ?? "", done, { state: "delivered" })).status).toBe(200);
    expect((await report(chosen[1] ?? "", done, { state: "succeeded", result: {} })).status).toBe(200);

    expect((await call("commandBatches.cancel", { accountId, batchId }, viewer)).error?.data.code).toBe("FORBIDDEN");
    const { counts } = data(await call<{ counts: Counts }>("commandBatches.cancel", { accountId, batchId }, owner));
    expect(counts).toMatchObject({ queued: 0, sent: 0, delivered: 1, succeeded: 1, cancelled: 2, total: 4 });
    const log = await env.DB.prepare("SELECT diff FROM activity_logs WHERE entity_type = 'command-batch' AND entity_id = ?")
      .bind(batchId)
      .all<{ diff: string }>();
    expect(log.results.map((r) => JSON.parse(r.diff))).toEqual([{ cancelled: { after: 2 } }]);
    // A second cancel changes nothing.
    const again = data(await call<{ counts: Counts }>("commandBatches.cancel", { accountId, batchId }, owner));
    expect(again.counts).toEqual(counts);
  });

  it("retries only the failed and expired radios as a new batch linked to the original", async () => {
    const chosen = radios.slice(9, 12);
    const batchId = await sendBatch(chosen);
    expect((await call("commandBatches.retry", { accountId, batchId }, owner)).error?.data.code).toBe("BAD_REQUEST");
    const failed = await idOf(batchId, chosen[0] ?? "");
    await report(chosen[0] ?? "", failed, { state: "delivered" });
    expect((await report(chosen[0] ?? "", failed, { state: "failed", code: "busy" })).status).toBe(200);
    await env.DB.prepare("UPDATE commands SET state = 'expired', ended_at = expires_at WHERE batch_id = ? AND uid = ?")
      .bind(batchId, chosen[1])
      .run();
    const retry = data(await call<{ batchId: string; queued: number }>("commandBatches.retry", { accountId, batchId }, owner));
    expect(retry.queued).toBe(2);
    const rows = await env.DB.prepare("SELECT uid, state, type, params FROM commands WHERE batch_id = ? ORDER BY uid")
      .bind(retry.batchId)
      .all<{ uid: string; state: string; type: string; params: string }>();
    expect(rows.results.map((r) => r.uid)).toEqual([chosen[0], chosen[1]].sort());
    expect(rows.results.every((r) => r.state === "queued" && r.type === "message")).toBe(true);
    expect(JSON.parse(rows.results[0]?.params ?? "{}")).toEqual({ text: "Muster at gate 2" });
    const { batch } = data(
      await call<{ batch: Batch }>("commandBatches.get", { accountId, batchId: retry.batchId }, owner, "GET"),
    );
    expect(batch).toMatchObject({ retryOf: batchId, target: { retryOf: batchId } });
    const logs = await env.DB.prepare(
      "SELECT count(*) AS n FROM activity_logs WHERE entity_type = 'command' AND entity_id IN (SELECT id FROM commands WHERE batch_id = ?)",
    )
      .bind(retry.batchId)
      .first<{ n: number }>();
    expect(logs?.n).toBe(2);
  });

  it("answers another tenant's or another account's batch NOT_FOUND and writes nothing; hostile ids are a 4xx", async () => {
    const batchId = await sendBatch([radios[0] ?? ""]);
    const before = await env.DB.prepare("SELECT count(*) AS n FROM commands").first<{ n: number }>();
    const elsewhere = await createAccount(orgId, "Elsewhere");
    const answers = await Promise.all([
      call("commandBatches.get", { batchId }, outsider, "GET"),
      call("commandBatches.get", { accountId, batchId }, outsider, "GET"),
      call("commandBatches.get", { accountId: elsewhere, batchId }, owner, "GET"),
      call("commandBatches.radios", { batchId, state: "queued" }, outsider, "GET"),
      call("commandBatches.cancel", { batchId }, outsider),
      call("commandBatches.retry", { batchId }, outsider),
      // An account's batch is not an inventory batch of its organization.
      call("commandBatches.cancel", { batchId }, owner),
    ]);
    expect(answers.map((a) => a.error?.data.code)).toEqual(Array(7).fill("NOT_FOUND"));
    const after = await env.DB.prepare("SELECT count(*) AS n FROM commands").first<{ n: number }>();
    expect(after?.n).toBe(before?.n);
    for (const hostile of ["", "x".repeat(65), "' OR 1=1 --"]) {
      const answer = await call("commandBatches.get", { accountId, batchId: hostile }, owner, "GET");
      expect(["BAD_REQUEST", "NOT_FOUND"]).toContain(answer.error?.data.code);
    }
  });
});

describe("the batch pages, without JavaScript", () => {
  const registry = () => `/accounts/${accountId}/registry/devices`;

  it("the bulk form lands on the batch's page; it shows counts, its radios, and cancel and retry post and redirect", async () => {
    const chosen = radios.slice(0, 3).join(",");
    const posted = await postForm(
      `${registry()}/send-command?uid=${chosen}`,
      { uid: chosen, type: "ping", expiryHours: "24" },
      { Cookie: owner },
    );
    expect(posted.status).toBe(303);
    const location = posted.headers.get("location") ?? "";
    expect(location).toMatch(new RegExp(`^${registry()}/batches/[0-9a-f-]{36}$`));
    const batchId = location.split("/").at(-1) ?? "";

    const list = await (await request(`${registry()}/batches`, { headers: { Cookie: viewer } })).text();
    expect(list).toContain(`${registry()}/batches/${batchId}`);
    const page = await (await request(`${location}?state=queued`, { headers: { Cookie: owner } })).text();
    expect(page).toContain("Batch: Ping");
    expect(page).toContain('data-count="queued">3<');
    // While commands can still move, the counts follow the server by themselves (a plain script).
    expect(page).toContain(`data-live-batch="${batchId}"`);
    expect(page).toContain(radios[0]);
    expect(page).toContain("Cancel undelivered commands");

    const failed = await idOf(batchId, radios[0] ?? "");
    await report(radios[0] ?? "", failed, { state: "delivered" });
    await report(radios[0] ?? "", failed, { state: "failed", code: "busy" });
    const viewerPost = await postForm(location, { do: "cancel" }, { Cookie: viewer });
    expect(viewerPost.status).toBe(403);

    // A post that names no action changes nothing.
    expect((await postForm(location, { do: "nothing" }, { Cookie: owner })).status).toBe(303);
    const still = await (await request(location, { headers: { Cookie: owner } })).text();
    expect(still).toContain('data-count="queued">2<');

    const cancelled = await postForm(location, { do: "cancel" }, { Cookie: owner });
    expect(cancelled.status).toBe(303);
    expect(cancelled.headers.get("location")).toBe(location);
    const after = await (await request(`${location}?state=cancelled`, { headers: { Cookie: owner } })).text();
    expect(after).toContain('data-count="cancelled">2<');
    expect(after).not.toContain("Cancel undelivered commands");
    expect(after).not.toContain("data-live-batch");
    expect(after).toContain("Retry the failed radios");

    const retried = await postForm(location, { do: "retry" }, { Cookie: owner });
    expect(retried.status).toBe(303);
    const retryPage = retried.headers.get("location") ?? "";
    expect(retryPage).not.toBe(location);
    const shown = await (await request(`${retryPage}?state=queued`, { headers: { Cookie: owner } })).text();
    expect(shown).toContain(`href="${location}"`);
    expect(shown).toContain('data-count="queued">1<');

    expect((await request(`${registry()}/batches/${batchId}`, { headers: { Cookie: outsider } })).status).toBe(404);
    expect((await request(`${registry()}/batches/nope`, { headers: { Cookie: owner } })).status).toBe(404);
  });
});
