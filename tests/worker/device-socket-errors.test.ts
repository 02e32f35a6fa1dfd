import { env, runInDurableObject } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { WorkerWebSocket } from "@/server/cloudflare";
import type { DeviceShard } from "@/server/fleet/device-shard";
import { createAccount, createUser } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { request } from "./helpers";

// A radio's live socket that sends junk, too much or closes oddly is closed with a proper code and
// logged as one plain line; nothing is thrown and the shard keeps serving (issue 23).

type Socket = {
  accept(): void;
  send(data: string | ArrayBuffer): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "message" | "close", listener: (event: { data?: unknown; code?: number }) => void): void;
};

let uid = "";

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  const accountId = await createAccount(owner.orgId, "Noisy fleet");
  await giveSeats(owner.orgId, accountId, 3);
  [uid = ""] = await registerRadios(owner.orgId, accountId, "NOISY", 1);
});

afterEach(() => vi.restoreAllMocks());

async function connect() {
  const response = await request("/device/v1/connect", { headers: { Upgrade: "websocket", Authorization: bearer(uid) } });
  expect(response.status).toBe(101);
  const socket = (response as unknown as { webSocket: Socket }).webSocket;
  const messages: string[] = [];
  let closedWith: number | undefined;
  socket.accept();
  socket.addEventListener("message", (event) => void messages.push(String(event.data)));
  socket.addEventListener("close", (event) => {
    closedWith = event.code;
  });
  return { socket, messages, closed: () => closedWith };
}

async function until<T>(read: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 100 && read() === undefined; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const value = read();
  if (value === undefined) throw new Error(`never happened: ${what}`);
  return value;
}

describe("a radio's live socket", () => {
  it.each<[string, string | ArrayBuffer, number]>([
    ["text that is not JSON", "{not json", 1007],
    ["a binary frame", new Uint8Array([0, 159, 146, 150]).buffer, 1003],
    ["an oversized frame", JSON.stringify({ type: "ping", pad: "x".repeat(64 * 1024) }), 1009],
  ])("closes on %s with a proper code and says so in one line", async (_, frame, code) => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const error = vi.spyOn(console, "error");
    const radio = await connect();
    await until(() => radio.messages[0], "hello");
    radio.socket.send(frame);
    expect(await until(radio.closed, "close")).toBe(code);
    await until(() => warn.mock.calls[0], "the log line");
    expect(warn.mock.calls).toHaveLength(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(new RegExp(`^device socket ${uid}: .*; closed with ${code}$`));
    expect(error).not.toHaveBeenCalled();
  });

  it("ignores a JSON message it does not know, and answers a close with the radio's own code", async () => {
    const radio = await connect();
    await until(() => radio.messages[0], "hello");
    radio.socket.send('{"type":"something-new"}');
    radio.socket.send('{"type":"ping"}');
    await until(() => radio.messages.find((m) => m.includes("pong")), "pong");
    radio.socket.close(4321, "going away oddly");
    expect(await until(radio.closed, "close")).toBe(4321);
  });

  it("answers a close code no endpoint may send, and a protocol error, without throwing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const closes: [number, string][] = [];
    const fake = {
      close: (code: number, reason: string) => {
        // As the runtime does for a code it refuses to send.
        if (code === 1015 || code === 1006) throw new TypeError("Invalid WebSocket close code");
        closes.push([code, reason]);
      },
      deserializeAttachment: () => ({ uid: "FAKE-1", accountId: "acc", bucket: 0 }),
    } as unknown as WorkerWebSocket;
    const shards = env.DEVICE_SHARDS;
    if (!shards) throw new Error("DEVICE_SHARDS is not bound");
    await runInDurableObject(shards.get(shards.idFromName("shard-test")), (shard: DeviceShard) => {
      shard.webSocketClose(fake, 1015);
      shard.webSocketClose(fake, 1006);
      shard.webSocketError(fake, new Error("WebSocket protocol error; protocolError.statusCode = 1009"));
    });
    expect(closes).toEqual([
      [1000, "closed"],
      [1000, "closed"],
      [1002, "protocol error"],
    ]);
    expect(warn.mock.calls.map((call) => String(call[0]))).toEqual([
      "device socket FAKE-1: closed with code 1015; closed with 1000",
      "device socket FAKE-1: WebSocket protocol error; protocolError.statusCode = 1009; closed with 1002",
    ]);
  });

  it("keeps serving after all that: a new connection gets its hello and heartbeat", async () => {
    const radio = await connect();
    expect(JSON.parse(await until(() => radio.messages[0], "hello"))).toEqual({ type: "hello", uid });
    radio.socket.send('{"type":"ping"}');
    await until(() => radio.messages.find((m) => m === '{"type":"pong"}'), "pong");
    radio.socket.close(1000);
  });
});
