import { z } from "zod";
import { isFinal } from "@/schema/fleet/desired-deployment";
import { firmwareYourState } from "@/schema/fleet/firmware-report";
import type { D1PreparedStatement } from "../cloudflare";
import { markSentStatement } from "../data/commands";
import { batch, type Db } from "../data/db";
import type { DeviceReport } from "../data/deployments";
import { checkInWrite, type RadioRow, type Reported, type StoredContact } from "../data/device-checkins";
import { confirmRedirectStatements } from "../data/device-redirects";
import { signDownloadUrl } from "../firmware/download-url";
import { commandForRadio } from "./command-reports";
import { noteFleetVersion, signConfigToken } from "./config-token";
import { loadRadio, type RadioState, radioState } from "./radio-state";

/**
 * The check-in's full path (DESIGN.md §7, docs/device-protocol.md): the radio read in one
 * statement, its credentials compared, what is new written at once, the answer built. The
 * radio's DeviceShard runs it when it cannot answer from memory (device-shard-cache.ts); the
 * Worker runs it itself only when no shards are bound.
 */

/** The poll interval the server names (±10 % jitter); shorter while a deployment concerns the radio. */
export const POLL_SECONDS = 300;
export const POLL_SECONDS_BUSY = 60;

/** Seconds until the next poll, ±10 % so a fleet does not poll in step. */
export function pollSeconds(busy: boolean, random = Math.random()): number {
  const base = busy ? POLL_SECONDS_BUSY : POLL_SECONDS;
  return Math.round(base * (0.9 + random * 0.2));
}

export const checkInBody = z
  .object({
    firmware: z.string().max(40).optional(),
    model: z.string().max(60).optional(),
    reportedRevision: z.string().max(64).nullable().optional(),
    battery: z.number().int().min(0).max(100).nullable().optional(),
    signal: z.number().int().min(-150).max(0).nullable().optional(),
    redirectAccepted: z.boolean().optional(),
  })
  .strict();

export type CheckInBody = z.infer<typeof checkInBody>;

export type Fail = { status: 400 | 401 | 404 | 409 | 413 | 415 | 501; code: string; message: string };

export function failure(f: Fail): Response {
  const headers: Record<string, string> = { "content-type": "application/json", "cache-control": "no-store" };
  if (f.status === 401) headers["www-authenticate"] = 'Bearer realm="device"';
  return new Response(JSON.stringify({ error: { code: f.code, message: f.message } }), { status: f.status, headers });
}

export const unauthorized = () =>
  failure({ status: 401, code: "UNAUTHORIZED", message: "Unknown, retired or wrong device credentials." });

export const json = (body: unknown, init: { status?: number; headers?: Record<string, string> } = {}) =>
  new Response(JSON.stringify(body), {
    status: init.status ?? 200,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...init.headers },
  });

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Constant time in the length of equal-length texts. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A deployment (either kind) the radio follows is active and the radio has not reported an end. */
function concerns(state: RadioState, d: RadioState["desired"]): boolean {
  if (!d || !(d.state === "running" || d.state === "paused")) return false;
  const report = state.reports.get(d.id);
  return !report || !isFinal(report.state);
}

export function busy(state: RadioState): boolean {
  return concerns(state, state.desired) || concerns(state, state.firmware);
}

/**
 * The check-in's `firmware` (docs/device-protocol.md): the firmware deployment the radio follows,
 * its package with a signed download URL (none without a signing secret), and what the radio
 * reported. Null: no firmware deployment concerns the radio.
 */
export async function firmwareView(state: RadioState, secret: string | null, at: Date) {
  const d = state.firmware;
  if (!d?.package) return null;
  const report = state.reports.get(d.id);
  const download = secret ? await signDownloadUrl(secret, d.package.id, state.radio.uid, at) : null;
  const { models: _models, ...described } = d.package;
  return {
    deployment: { id: d.id, number: d.number, state: d.state },
    package: { ...described, url: download?.url ?? null, urlExpiresAt: download?.expiresAt ?? null },
    yourState: firmwareYourState(report),
    progress: report?.stage === "downloading" ? report.progress : null,
    // Where a reported failure happened (the radio said so; the pages show it).
    failedAt: report?.state === "failed" && report.stage !== "booted-old" ? report.stage : null,
    ...retryOf(report),
  };
}

export function deploymentView(state: RadioState) {
  const d = state.desired;
  if (!d) return null;
  return {
    id: d.id,
    number: d.number,
    state: d.state,
    revision: { id: d.revisionId, number: d.revisionNumber },
    switchover: d.switchover,
    yourState: state.reports.get(d.id)?.state ?? "pending",
    ...retryOf(state.reports.get(d.id)),
  };
}

/** After a failure with an attempt left: which attempt comes next, and not before when. */
function retryOf(report: DeviceReport | undefined) {
  if (!report?.retryAt || report.state !== "delivered") return {};
  return { retry: { attempt: report.attempts, notBefore: report.retryAt } };
}

export function redirectOf(radio: RadioRow) {
  return radio.redirect_url && !radio.redirect_confirmed_at ? { url: radio.redirect_url } : null;
}

/** A check-in answer without its two per-call fields (serverTime, pollSeconds). */
export type CheckInAnswer = Record<string, unknown> & { uid: string };

/** The answer as the radio gets it: the per-call fields added. */
export function answerResponse(answer: CheckInAnswer, isBusy: boolean, at: Date): Response {
  return json({ ...answer, pollSeconds: pollSeconds(isBusy), serverTime: at.toISOString() });
}

/**
 * What the full path leaves behind for the shard's memory. `cacheable`: nothing in the answer
 * changes until the account's fleet version moves, the radio changes (after `changeSeq`) or a command is queued (no commands waiting,
 * no hand-over pending). `contactWritten`: last-seen (and battery, signal) went to D1 now.
 */
export type FullCheckIn =
  | { ok: false; response: Response }
  | {
      ok: true;
      answer: CheckInAnswer;
      busy: boolean;
      cacheable: boolean;
      accountId: string | null;
      fleetVersion: number;
      changeSeq: number;
      secretHash: string;
      stored: StoredContact;
      contactWritten: boolean;
    };

type Options = {
  /** The shard batches last-seen: write it now only with something new (firmware, revision). */
  batchesContact: boolean;
  etagKey: string | undefined;
  /** Signs firmware download URLs (download-url.ts firmwareSecret); null: none are handed out. */
  firmwareSecret: string | null;
};

/** The full path: one read, the writes of what is new, the answer. */
export async function fullCheckIn(
  db: Db,
  uid: string,
  secretHash: string,
  body: CheckInBody | Fail,
  at: Date,
  options: Options,
): Promise<FullCheckIn> {
  const loaded = await loadRadio(db, uid, { withCommands: true });
  const radio = loaded.radio;
  // Hash compared even for unknown radios, so the answer takes the same time.
  const matches = sameText(secretHash, radio?.secret_hash ?? "0".repeat(64));
  if (radio?.account_id) noteFleetVersion(radio.account_id, loaded.fleetVersion, at.getTime());
  if (!radio || !matches || radio.status !== "active") return { ok: false, response: unauthorized() };
  if ("status" in body) return { ok: false, response: failure(body) };
  const state = radioState(radio, loaded.deployments, loaded.reports, loaded.commands);
  const writes: D1PreparedStatement[] = [];
  const write = checkInWrite(db, radio, body as Reported, at, { withContact: !options.batchesContact });
  if (write) writes.push(write.statement);
  // A radio that accepts its hand-over is told nothing more about it.
  const handedOver = Boolean(body.redirectAccepted && redirectOf(radio));
  if (handedOver) writes.push(...confirmRedirectStatements(db, radio, at.toISOString()));
  // Commands handed over now are sent (a check-in with none writes nothing for them).
  const handed = state.commands.filter((command) => command.state === "queued").map((command) => command.id);
  if (handed.length) writes.push(markSentStatement(db, handed, at.toISOString()));
  await batch(db, writes);
  const answer: CheckInAnswer = {
    uid: radio.uid,
    desiredRevision: state.desired ? { id: state.desired.revisionId, number: state.desired.revisionNumber } : null,
    configEtag: await signConfigToken(options.etagKey, {
      uid: radio.uid,
      accountId: radio.account_id,
      etag: state.etag,
      version: loaded.fleetVersion,
      seq: loaded.changeSeq,
      secretHash,
    }),
    deployment: deploymentView(state),
    firmware: await firmwareView(state, options.firmwareSecret, at),
    commands: state.commands.map(commandForRadio),
    redirect: handedOver ? null : redirectOf(radio),
    connect: "/device/v1/connect",
  };
  return {
    ok: true,
    answer,
    busy: busy(state),
    // A firmware download in progress is never answered from memory: its URL expires.
    cacheable: state.commands.length === 0 && !redirectOf(radio) && !handedOver && !concerns(state, state.firmware),
    accountId: radio.account_id,
    fleetVersion: loaded.fleetVersion,
    changeSeq: loaded.changeSeq,
    secretHash,
    stored: write?.stored ?? {
      firmware: radio.firmware,
      reportedRevision: radio.reported_revision,
      lastContactAt: radio.last_contact_at,
    },
    contactWritten: Boolean(write?.contactWritten),
  };
}
