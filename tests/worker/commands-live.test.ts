import { beforeAll, expect, it } from "vitest";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// Delivery (issue 13): a radio holding /device/v1/connect is woken the moment a command is
// queued for it (one or many, through its shard), checks in and gets it; a radio without a
// connection gets it at its next check-in, and another connected radio hears nothing.

type Socket = {
  accept(): void;
  close(): void;
  addEventListener(type: "message", listener: (event: { data: unknown }) => void): void;
};

let cookie = "";
let accountId = "";
let radios: string[] = [];

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  accountId = await createAccount(owner.orgId, "Live commands");
  await giveSeats(owner.orgId, accountId, 10);
  radios = await registerRadios(owner.orgId, accountId, "LIVECMD", 4);
  cookie = await sessionCookie(owner.email);
});

async function connect(uid: string) {
  const response = await request("/device/v1/connect", { headers: { Upgrade: "websocket", Authorization: bearer(uid) } });
  expect(response.status).toBe(101);
  const socket = (response as unknown as { webSocket: Socket }).webSocket;
  const messages: Record<string, unknown>[] = [];
  socket.accept();
  socket.addEventListener("message", (event) => messages.push(JSON.parse(String(event.data)) as Record<string, unknown>));
  return { socket, messages };
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
  return ((await response.json()) as { result: { data: { id: string } } }).result.data;
}

async function checkIn(uid: string) {
  const response = await request("/device/v1/check-in", {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: "{}",
  });
  return (await response.json()) as { commands: { id: string; type: string }[] };
}

it("wakes a connected radio at once for its own command only, and hands it over at the check-in", {
  timeout: 30_000,
}, async () => {
  const [a = "", b = "", offline = ""] = radios;
  const first = await connect(a);
  const second = await connect(b);
  await until(() => first.messages.some((m) => m.type === "hello") && second.messages.some((m) => m.type === "hello"), "hello");
  const sent = await mutate("commands.send", { uid: a, type: "locate", params: { beepSeconds: 3 } });
  await until(() => first.messages.some((m) => m.type === "command-queued" && m.uid === a), "push to the radio");
  expect((await checkIn(a)).commands.map((c) => c.id)).toEqual([sent.id]);
  expect(second.messages.some((m) => m.type === "command-queued")).toBe(false);
  // Without a connection: nothing to push to, the next check-in brings it.
  const later = await mutate("commands.send", { uid: offline, type: "ping" });
  expect((await checkIn(offline)).commands.map((c) => c.id)).toEqual([later.id]);
  first.socket.close();
  second.socket.close();
});

it("wakes every connected radio of a bulk send", { timeout: 30_000 }, async () => {
  const [a = "", b = ""] = radios;
  const first = await connect(a);
  const second = await connect(b);
  await until(() => first.messages.some((m) => m.type === "hello") && second.messages.some((m) => m.type === "hello"), "hello");
  await mutate("commands.sendBulk", { accountId, selection: { uids: [a, b] }, type: "message", params: { text: "All units" } });
  await until(
    () => first.messages.some((m) => m.type === "command-queued") && second.messages.some((m) => m.type === "command-queued"),
    "push to both radios",
  );
  first.socket.close();
  second.socket.close();
});
