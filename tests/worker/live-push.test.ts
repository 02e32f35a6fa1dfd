import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { bucketOf } from "@/schema/fleet/rollout";
import { findDeployment } from "@/server/data/deployments";
import { stepDueDeployments } from "@/server/fleet/deployment-engine";
import { CLOSE_CREDENTIALS_CHANGED } from "@/server/fleet/live";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// Live connections (issue 12): a radio holding /device/v1/connect hears of a deployment and of
// a pause at once, through its Durable Object shard; heartbeats are answered; a browser-style
// subprotocol credential works; a wrong credential is refused before any upgrade.

type Socket = {
  accept(): void;
  send(data: string): void;
  close(): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
  addEventListener(type: "close", listener: (event: { code: number }) => void): void;
};

let cookie = "";
let accountId = "";
let uid = "";

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  accountId = await createAccount(owner.orgId, "Live fleet");
  await giveSeats(owner.orgId, accountId, 3);
  [uid = ""] = await registerRadios(owner.orgId, accountId, "LIVE", 2);
  cookie = await sessionCookie(owner.email);
});

async function connect(
  headers: Record<string, string>,
): Promise<{ socket: Socket; messages: Record<string, unknown>[]; closed: { code: number | null } }> {
  const response = await request("/device/v1/connect", { headers: { Upgrade: "websocket", ...headers } });
  expect(response.status).toBe(101);
  const socket = (response as unknown as { webSocket: Socket }).webSocket;
  const messages: Record<string, unknown>[] = [];
  const closed: { code: number | null } = { code: null };
  socket.accept();
  socket.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data)) as Record<string, unknown>));
  socket.addEventListener("close", (event) => {
    closed.code = event.code;
  });
  return { socket, messages, closed };
}

async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  if (!check()) throw new Error(`never happened: ${what}`);
}

async function mutate(path: string, input: unknown) {
  const response = await request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
  });
  return (await response.json()) as { result?: { data: { id: string } } };
}

it("pushes a new deployment and a pause to a connected radio, and answers heartbeats", { timeout: 30_000 }, async () => {
  const { socket, messages } = await connect({ Authorization: bearer(uid) });
  await until(() => messages.some((m) => m.type === "hello"), "hello");
  socket.send('{"type":"ping"}');
  await until(() => messages.some((m) => m.type === "pong"), "pong");
  const created = await mutate("deployments.create", { accountId });
  const id = created.result?.data.id ?? "";
  await until(
    () => messages.some((m) => m.type === "check-in" && m.reason === "deployment" && m.deploymentId === id),
    "deployment push",
  );
  await mutate("deployments.act", { id, action: "pause" });
  await until(() => messages.some((m) => m.type === "check-in" && m.reason === "pause"), "pause push");
  socket.close();
});

it("takes the credentials as a subprotocol from browsers, and refuses wrong ones without upgrading", async () => {
  const token = btoa(`${uid}:${"a".repeat(64)}`)
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
  const { socket, messages } = await connect({ "Sec-WebSocket-Protocol": `device-v1, auth.${token}` });
  await until(() => messages.some((m) => m.type === "hello"), "hello");
  socket.close();
  const refused = await request("/device/v1/connect", {
    headers: { Upgrade: "websocket", Authorization: bearer(uid, "b".repeat(64)) },
  });
  expect(refused.status).toBe(401);
  const plain = await request("/device/v1/connect", { headers: { Authorization: bearer(uid) } });
  expect(plain.status).toBe(400);
});

describe("closing a radio's live socket when its credentials or account change", () => {
  let owner = "";
  let account = "";
  let other = "";
  let radios: string[] = [];

  beforeAll(async () => {
    const user = await createUser({ role: "owner" });
    account = await createAccount(user.orgId, "Rotated fleet");
    other = await createAccount(user.orgId, "Other fleet");
    await giveSeats(user.orgId, account, 4);
    await giveSeats(user.orgId, other, 4);
    radios = await registerRadios(user.orgId, account, "ROT", 3);
    owner = await sessionCookie(user.email);
  });

  async function api(path: string, input: unknown) {
    const response = await request(`/api/${path}`, {
      method: "POST",
      body: JSON.stringify(input),
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: owner },
    });
    return (await response.json()) as { result?: { data: { secret?: string } }; error?: unknown };
  }

  async function connected(radio: string) {
    const live = await connect({ Authorization: bearer(radio) });
    await until(() => live.messages.some((m) => m.type === "hello"), "hello");
    return live;
  }

  it("closes it with 4001 when the secret is rotated; the old secret is then refused, the new one accepted", async () => {
    const radio = radios[0] ?? "";
    const live = await connected(radio);
    const rotated = await api("devices.rotateSecret", { uid: radio, version: 1 });
    const secret = rotated.result?.data.secret ?? "";
    expect(secret).not.toBe("");
    await until(() => live.closed.code !== null, "the socket closed");
    expect(live.closed.code).toBe(CLOSE_CREDENTIALS_CHANGED);
    const old = await request("/device/v1/connect", { headers: { Upgrade: "websocket", Authorization: bearer(radio) } });
    expect(old.status).toBe(401);
    const renewed = await connect({ Authorization: bearer(radio, secret) });
    await until(() => renewed.messages.some((m) => m.type === "hello"), "hello with the new secret");
    renewed.socket.close();
  });

  it("closes it when the radio is retired, or moves to another account", async () => {
    const [retired = "", moved = ""] = radios.slice(1);
    const a = await connected(retired);
    const b = await connected(moved);
    expect((await api("devices.retire", { uid: retired, version: 1 })).error).toBeUndefined();
    await until(() => a.closed.code !== null, "the retired radio's socket closed");
    expect(a.closed.code).toBe(CLOSE_CREDENTIALS_CHANGED);
    expect(
      (await request("/device/v1/connect", { headers: { Upgrade: "websocket", Authorization: bearer(retired) } })).status,
    ).toBe(401);
    // The moved radio's socket still hears its old account until the move, and not after it.
    b.socket.send('{"type":"ping"}');
    await until(() => b.messages.some((m) => m.type === "pong"), "pong");
    expect(b.closed.code).toBeNull();
    expect(
      (await api("devices.bulkAssign", { selection: { uids: [moved] }, target: { accountId: other } })).error,
    ).toBeUndefined();
    await until(() => b.closed.code !== null, "the moved radio's socket closed");
    expect(b.closed.code).toBe(CLOSE_CREDENTIALS_CHANGED);
  });
});

it("opens the next phase after its wait by the clock, not by anyone's browser", { timeout: 30_000 }, async () => {
  const owner = await createUser({ role: "owner" });
  const account = await createAccount(owner.orgId, "Timed fleet");
  await giveSeats(owner.orgId, account, 12);
  const uids = await registerRadios(owner.orgId, account, "TIMED", 10);
  const ownerCookie = await sessionCookie(owner.email);
  const phase = { successPercent: 1, successAction: "next", errorKind: "count", errorValue: 5, errorMinimum: 0, waitMinutes: 30 };
  const created = await request("/api/deployments.create", {
    method: "POST",
    body: JSON.stringify({
      accountId: account,
      plan: {
        phases: [
          { share: 50, ...phase },
          { share: 100, ...phase },
        ],
      },
    }),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: ownerCookie },
  });
  const id = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
  const first = uids.find((u) => bucketOf(u) < 5000) ?? "";
  await request(`/device/v1/deployments/${id}/status`, {
    method: "POST",
    body: JSON.stringify({ state: "applied" }),
    headers: { Authorization: bearer(first), "Content-Type": "application/json" },
  });
  const waiting = await findDeployment(env.DB, id);
  expect(waiting?.phaseIndex).toBe(0);
  expect(waiting?.nextStepAt).not.toBeNull();
  // What the clock's alarm runs, as if 31 minutes had passed.
  await stepDueDeployments(env, new Date(Date.now() + 31 * 60_000));
  const opened = await findDeployment(env.DB, id);
  expect(opened).toMatchObject({ phaseIndex: 1, state: "running", nextStepAt: null });
});

it("tells only the radios of the opened phases, and the others when their phase opens", { timeout: 30_000 }, async () => {
  const owner = await createUser({ role: "owner" });
  const account = await createAccount(owner.orgId, "Phased live fleet");
  await giveSeats(owner.orgId, account, 12);
  const uids = await registerRadios(owner.orgId, account, "PHLIVE", 10);
  const ownerCookie = await sessionCookie(owner.email);
  const early = uids.find((u) => bucketOf(u) < 5000) ?? "";
  const later = uids.find((u) => bucketOf(u) >= 5000) ?? "";
  expect(early && later).toBeTruthy();
  const a = await connect({ Authorization: bearer(early) });
  const b = await connect({ Authorization: bearer(later) });
  await until(() => a.messages.some((m) => m.type === "hello") && b.messages.some((m) => m.type === "hello"), "hello");
  const phase = {
    successPercent: 100,
    successAction: "pause",
    errorKind: "count",
    errorValue: 5,
    errorMinimum: 0,
    waitMinutes: 0,
  };
  const api = (path: string, input: unknown) =>
    request(`/api/${path}`, {
      method: "POST",
      body: JSON.stringify(input),
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: ownerCookie },
    }).then((r) => r.json() as Promise<{ result: { data: { id: string } } }>);
  const plan = {
    phases: [
      { share: 50, ...phase },
      { share: 100, ...phase },
    ],
  };
  const id = (await api("deployments.create", { accountId: account, plan })).result.data.id;
  const told = (messages: Record<string, unknown>[]) =>
    messages.some((m) => m.type === "check-in" && m.reason === "deployment" && m.deploymentId === id);
  await until(() => told(a.messages), "the first phase's radio told");
  // The push went out before the API answered; a pong on the same socket comes after anything sent before it.
  b.socket.send('{"type":"ping"}');
  await until(() => b.messages.some((m) => m.type === "pong"), "pong");
  expect(told(b.messages)).toBe(false);
  await api("deployments.act", { id, action: "advance" });
  await until(() => told(b.messages), "the second phase's radio told once its phase opened");
  a.socket.close();
  b.socket.close();
});

it("sends radios uncompressed frames: the Worker runs without WebSocket compression", () => {
  // A compressing socket keeps a zlib context and deflates every ~100-byte message: at 10,000
  // radios that was most of a push's CPU and memory (bench/results/fleet.md).
  const runtime = (globalThis as unknown as { Cloudflare?: { compatibilityFlags?: Record<string, boolean> } }).Cloudflare;
  expect(runtime?.compatibilityFlags?.web_socket_compression).toBe(false);
});
