import { BUCKETS } from "@/schema/fleet/rollout";
import type { DurableObjectState, WebSocketRequestResponsePair, WorkerWebSocket } from "../cloudflare";
import { CONTACT_FLUSH_MS } from "../data/device-checkins";
import type { Env } from "../env";
import { firmwareSecret } from "../firmware/download-url";
import type { CheckInBody, Fail } from "./check-in";
import { CheckInMemory } from "./check-in-memory";
import { FLEET_VERSION_FRESH_MS } from "./config-token";
import { CLOSE_CREDENTIALS_CHANGED, type LiveMessage } from "./live";

/** What each socket carries across hibernation (≤16 KB): who it is and where in the rollout. */
type Attachment = { uid: string; accountId: string; bucket: number };

const PING = '{"type":"ping"}';
const PONG = '{"type":"pong"}';

type PairConstructor = new () => { 0: WorkerWebSocket; 1: WorkerWebSocket };
type AutoResponseConstructor = new (request: string, response: string) => WebSocketRequestResponsePair;

/**
 * One shard of live radio connections, using the WebSocket hibernation API: the object may
 * be evicted from memory while its sockets stay open; heartbeats ({"type":"ping"}) are
 * answered by the runtime's auto-response without waking it. Sockets are tagged with their
 * account so a notification touches only that account's radios.
 */
export class DeviceShard {
  /** The HTTP check-ins of this shard's radios, answered from memory while nothing changed. */
  readonly checkIns: CheckInMemory;

  constructor(
    private readonly ctx: DurableObjectState,
    env: Env,
  ) {
    this.checkIns = new CheckInMemory({
      db: () => env.DB,
      now: () => Date.now(),
      freshMs: numberOr(env.CHECK_IN_FRESH_MS, FLEET_VERSION_FRESH_MS),
      flushMs: numberOr(env.CHECK_IN_FLUSH_MS, CONTACT_FLUSH_MS),
      etagKey: env.DEVICE_ETAG_KEY,
      firmwareSecret: firmwareSecret(env),
      scheduleFlush: (at) => void ctx.storage.setAlarm(at),
    });
    const Pair = (globalThis as unknown as { WebSocketRequestResponsePair: AutoResponseConstructor })
      .WebSocketRequestResponsePair;
    ctx.setWebSocketAutoResponse(new Pair(PING, PONG));
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === "/connect") return this.connect(request);
    if (url.pathname === "/check-in" && request.method === "POST") {
      const { uid, secretHash, body } = (await request.json()) as { uid: string; secretHash: string; body: CheckInBody | Fail };
      return this.checkIns.checkIn(uid, secretHash, body);
    }
    if (url.pathname === "/notify" && request.method === "POST") {
      const { accountId, message } = (await request.json()) as { accountId: string; message: LiveMessage };
      this.rememberChange(message);
      return Response.json({ sent: this.notify(accountId, message) });
    }
    if (url.pathname === "/close" && request.method === "POST") {
      const { uids } = (await request.json()) as { uids: string[] };
      this.checkIns.forget(uids);
      return Response.json({ closed: this.close(uids) });
    }
    if (url.pathname === "/forget" && request.method === "POST") {
      const { uids } = (await request.json()) as { uids: string[] };
      this.checkIns.forget(uids);
      return Response.json({ forgotten: uids.length });
    }
    if (url.pathname === "/count") return Response.json({ sockets: this.ctx.getWebSockets().length });
    return new Response("not found", { status: 404 });
  }

  /** The due last-seen batch (scheduled by the check-ins). */
  async alarm(): Promise<void> {
    await this.checkIns.flush();
  }

  /** What the check-ins answer from memory must not outlive. */
  private rememberChange(message: LiveMessage): void {
    if (message.type === "commands-queued") this.checkIns.forget(message.uids);
    else if (message.type === "command-queued") this.checkIns.forget([message.uid]);
    else this.checkIns.accountChanged();
  }

  private connect(request: Request): Response {
    const uid = request.headers.get("x-radio-uid") ?? "";
    const accountId = request.headers.get("x-radio-account") ?? "";
    const bucket = Number(request.headers.get("x-radio-bucket") ?? "0");
    const WebSocketPair = (globalThis as unknown as { WebSocketPair: PairConstructor }).WebSocketPair;
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    // A radio that connects again replaces its older socket.
    for (const old of this.ctx.getWebSockets(`radio:${uid}`)) old.close(4000, "replaced");
    this.ctx.acceptWebSocket(server, [`account:${accountId}`, `radio:${uid}`]);
    server.serializeAttachment({ uid, accountId, bucket } satisfies Attachment);
    this.buckets.set(server, bucket);
    server.send(JSON.stringify({ type: "hello", uid }));
    const protocol = request.headers.get("x-radio-subprotocol");
    return new Response(null, {
      status: 101,
      webSocket: client,
      headers: protocol ? { "sec-websocket-protocol": protocol } : {},
    } as ResponseInit);
  }

  /**
   * Each socket's rollout bucket while this object stays in memory: reading it back from the
   * attachment is a structured-clone decode per socket per notification (after hibernation the
   * sockets are new objects, so this starts empty and fills from their attachments).
   */
  private readonly buckets = new WeakMap<WorkerWebSocket, number>();

  private bucketOf(socket: WorkerWebSocket): number {
    let bucket = this.buckets.get(socket);
    if (bucket === undefined) {
      bucket = (socket.deserializeAttachment() as Attachment | null)?.bucket ?? 0;
      this.buckets.set(socket, bucket);
    }
    return bucket;
  }

  private notify(accountId: string, message: LiveMessage): number {
    if (message.type === "commands-queued") return this.wake(message.uids);
    const text = JSON.stringify(message);
    const sockets =
      message.type === "command-queued"
        ? this.ctx.getWebSockets(`radio:${message.uid}`)
        : this.ctx.getWebSockets(`account:${accountId}`);
    // Only a phase short of the whole fleet needs each socket's bucket.
    const upTo =
      message.type === "check-in" && message.upToBucket !== undefined && message.upToBucket < BUCKETS ? message.upToBucket : null;
    let sent = 0;
    for (const socket of sockets) {
      if (upTo !== null && this.bucketOf(socket) >= upTo) continue;
      try {
        socket.send(text);
        sent++;
      } catch {
        // Closed under us: the close handler tidies up.
      }
    }
    return sent;
  }

  /** Tells each connected radio of the list that commands wait for it (it checks in to fetch them). */
  private wake(uids: string[]): number {
    let sent = 0;
    for (const uid of uids) {
      for (const socket of this.ctx.getWebSockets(`radio:${uid}`)) {
        try {
          socket.send(JSON.stringify({ type: "command-queued", uid }));
          sent++;
        } catch {
          // Closed under us: the radio gets its commands at its next check-in.
        }
      }
    }
    return sent;
  }

  /** Closes every socket of these radios (their credentials or account changed; see live.ts). */
  private close(uids: string[]): number {
    let closed = 0;
    for (const uid of uids) {
      for (const socket of this.ctx.getWebSockets(`radio:${uid}`)) {
        try {
          socket.close(CLOSE_CREDENTIALS_CHANGED, "credentials changed");
          closed++;
        } catch {
          // Already closed.
        }
      }
    }
    return closed;
  }

  /**
   * Radios send only the heartbeat (reports go over HTTP). Another JSON text is ignored (a newer
   * radio may say more); a binary frame, text that is not JSON, or an oversized frame is a broken
   * client: closed with the matching code and logged as one line, never thrown.
   */
  webSocketMessage(socket: WorkerWebSocket, message: string | ArrayBuffer): void {
    if (message === PING) return void socket.send(PONG);
    const refusal = refusalOf(message);
    if (refusal) this.drop(socket, refusal.code, refusal.reason);
  }

  /**
   * Answers the radio's close with its code when that code may be sent back, else 1000; a code
   * no endpoint may send is logged (1005 "none given" and 1006 "connection lost" are ordinary).
   */
  webSocketClose(socket: WorkerWebSocket, code: number): void {
    const sendable = sendableCloseCode(code);
    this.drop(socket, sendable ? code : 1000, "closed", !sendable && code !== 1005 && code !== 1006, `closed with code ${code}`);
  }

  /** A protocol error (a malformed frame, a frame over the runtime's limit): one log line, and the socket closed. */
  webSocketError(socket: WorkerWebSocket, error: unknown): void {
    this.drop(socket, 1002, "protocol error", true, error instanceof Error ? error.message : String(error));
  }

  private drop(socket: WorkerWebSocket, code: number, reason: string, log = true, detail = reason): void {
    if (log) {
      const uid = (socket.deserializeAttachment() as Attachment | null)?.uid ?? "?";
      console.warn(`device socket ${uid}: ${detail.replace(/\s+/g, " ").slice(0, 200)}; closed with ${code}`);
    }
    try {
      socket.close(code, reason);
    } catch {
      // Already closed.
    }
  }
}

function numberOr(value: string | undefined, fallback: number): number {
  const parsed = value === undefined || value === "" ? Number.NaN : Number(value);
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : fallback;
}

/** The longest text a radio has a reason to send (the heartbeat is 15 bytes). */
const MAX_TEXT = 4096;

function refusalOf(message: string | ArrayBuffer): { code: number; reason: string } | null {
  if (typeof message !== "string") return { code: 1003, reason: "binary frames are not accepted" };
  if (message.length > MAX_TEXT) return { code: 1009, reason: "message too big" };
  try {
    JSON.parse(message);
    return null;
  } catch {
    return { code: 1007, reason: "not JSON" };
  }
}

/** Close codes an endpoint may send (RFC 6455 §7.4): not 1004-1006, 1015 or unassigned ranges. */
function sendableCloseCode(code: number): boolean {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}
