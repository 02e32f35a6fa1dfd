import { Hono } from "hono";
import { z } from "zod";
import { progressOf, type ReportState, reportStates, terminalStates } from "@/schema/fleet/deployment-plan";
import { desiredConfig } from "@/schema/fleet/desired-config";
import type { D1PreparedStatement } from "../cloudflare";
import { batch } from "../data/db";
import { findDeployment, nextStepDue, reportStateOf, retryReportStatement, upsertReportStatement } from "../data/deployments";
import { copyDeployedAttributesStatement, reportedRevisionStatement } from "../data/device-checkins";
import { revisionContent } from "../data/revisions";
import type { AppEnv } from "../env";
import { firmwareSecret } from "../firmware/download-url";
import { publicKeysForOrg } from "../firmware/signing-keys";
import { armClock } from "./arm-deployment-clock";
import {
  answerResponse,
  type CheckInBody,
  checkInBody,
  deploymentView,
  type Fail,
  failure,
  fullCheckIn,
  json,
  sameText,
  sha256Hex,
  unauthorized,
} from "./check-in";
import { rearmCommandClockOnce } from "./command-clock";
import { reportCommand } from "./command-reports";
import {
  noteFleetVersion,
  parseTokens,
  plainEtags,
  signConfigToken,
  tokenStillValid,
  verifyConfigToken,
  wantsFullPath,
} from "./config-token";
import { reportFirmware } from "./firmware-reports";
import { forgetCheckIn, shardOf } from "./live";
import { loadRadio, type RadioState, radioState } from "./radio-state";
import { admitReport, afterReportStored } from "./report-steps";

/**
 * The device protocol, /device/v1 (docs/device-protocol.md): JSON over HTTPS, Bearer
 * <uid>:<secret>. Unknown, retired and wrong credentials answer the same 401. Bodies are at
 * most 4 KB and validated. The check-in is the hot path: the radio's shard answers it from
 * memory while nothing changed, else one read round trip and a write only of what is new
 * (last-seen batched at a 15-minute resolution, check-in-memory.ts).
 */
export const MAX_BODY_BYTES = 4096;
export { POLL_SECONDS, POLL_SECONDS_BUSY, pollSeconds } from "./check-in";

const UID = /^[A-Za-z0-9._-]{1,64}$/;

/** uid and secret from the Authorization header, or null. */
export function credentialsOf(header: string | undefined): { uid: string; secret: string } | null {
  const match = /^Bearer ([^:\s]+):(\S{1,256})$/.exec(header ?? "");
  if (!match?.[1] || !match[2] || !UID.test(match[1])) return null;
  return { uid: match[1], secret: match[2] };
}

/**
 * Browsers cannot set headers on a WebSocket: /connect also takes the credentials as a
 * subprotocol `auth.<base64url of uid:secret>` next to `device-v1`.
 */
export function subprotocolCredentials(header: string | undefined): { uid: string; secret: string } | null {
  const token = header
    ?.split(",")
    .map((p) => p.trim())
    .find((p) => p.startsWith("auth."));
  if (!token || token.length > 400) return null;
  try {
    return credentialsOf(`Bearer ${atob(token.slice(5).replaceAll("-", "+").replaceAll("_", "/"))}`);
  } catch {
    return null;
  }
}

type Authenticated = RadioState & { secretHash: string; fleetVersion: number; changeSeq: number };

type Context = { req: { header(name: string): string | undefined }; env: AppEnv["Bindings"] };

/** The radio named by the credentials, with its state, or null for any kind of refusal. */
async function authenticate(c: Context, allowSubprotocol = false, withCommands = true): Promise<Authenticated | null> {
  const credentials =
    credentialsOf(c.req.header("authorization")) ??
    (allowSubprotocol ? subprotocolCredentials(c.req.header("sec-websocket-protocol")) : null);
  if (!credentials) return null;
  const readAt = Date.now();
  const [loaded, hash] = await Promise.all([
    loadRadio(c.env.DB, credentials.uid, { withCommands }),
    sha256Hex(credentials.secret),
  ]);
  const radio = loaded.radio;
  // Hash compared even for unknown radios, so the answer takes the same time.
  const matches = sameText(hash, radio?.secret_hash ?? "0".repeat(64));
  // The fleet version came with the radio's row: the 304 path's cache takes it for free.
  if (radio?.account_id) noteFleetVersion(radio.account_id, loaded.fleetVersion, readAt);
  if (!radio || !matches || radio.status !== "active") return null;
  return {
    ...radioState(radio, loaded.deployments, loaded.reports, loaded.commands),
    secretHash: hash,
    fleetVersion: loaded.fleetVersion,
    changeSeq: loaded.changeSeq,
  };
}

/** The ETag a radio is given: its config's ETag signed with its credentials and fleet version. */
function configToken(c: Context, state: Authenticated): Promise<string> {
  return signConfigToken(c.env.DEVICE_ETAG_KEY, {
    uid: state.radio.uid,
    accountId: state.radio.account_id,
    etag: state.etag,
    version: state.fleetVersion,
    seq: state.changeSeq,
    secretHash: state.secretHash,
  });
}

/**
 * GET /config's 304 without D1: a signed token this radio was given, presented with the same
 * credentials, at the account's current fleet version with no change of the radio since
 * (both cached per isolate, config-token.ts).
 * Anything else (no or bad token, another version, `no-cache`) takes the full path.
 */
async function notModifiedWithoutD1(c: Context): Promise<Response | null> {
  const known = c.req.header("if-none-match");
  if (!known || wantsFullPath(c.req.header("cache-control"), c.req.header("pragma"))) return null;
  const token = parseTokens(known)[0];
  const credentials = credentialsOf(c.req.header("authorization"));
  if (!token || !credentials) return null;
  const hash = await sha256Hex(credentials.secret);
  if (!(await verifyConfigToken(c.env.DEVICE_ETAG_KEY, credentials.uid, hash, token))) return null;
  if (!(await tokenStillValid(c.env.DB, credentials.uid, token))) return null;
  return new Response(null, { status: 304, headers: { etag: token.raw, "cache-control": "private, no-cache" } });
}

/** A JSON body of at most MAX_BODY_BYTES, or a failure. An empty body is `{}`. */
async function jsonBody(request: Request): Promise<unknown | Fail> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_BODY_BYTES)
    return { status: 413, code: "PAYLOAD_TOO_LARGE", message: `Bodies are at most ${MAX_BODY_BYTES} bytes.` };
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES)
    return { status: 413, code: "PAYLOAD_TOO_LARGE", message: `Bodies are at most ${MAX_BODY_BYTES} bytes.` };
  if (!text.trim()) return {};
  const type = request.headers.get("content-type") ?? "";
  if (!type.includes("application/json"))
    return { status: 415, code: "UNSUPPORTED_MEDIA_TYPE", message: "Send application/json." };
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { status: 400, code: "BAD_REQUEST", message: "The body is not valid JSON." };
  }
}

function isFail(value: unknown): value is Fail {
  return Boolean(value && typeof value === "object" && "status" in value && "code" in value && "message" in value);
}

function invalid(error: z.ZodError): Fail {
  const issue = error.issues[0];
  return {
    status: 400,
    code: "BAD_REQUEST",
    message: issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "Invalid body.",
  };
}

const statusBody = z
  .object({
    state: z.enum(reportStates),
    code: z.string().max(40).optional(),
    detail: z.string().max(500).optional(),
  })
  .strict();

export const deviceProtocol = new Hono<AppEnv>();

// The same for the command clock (issue 13): expired commands marked, the next expiry armed.
deviceProtocol.use(rearmCommandClockOnce);

// workerd forgets Durable Object alarms across a restart (TOOLCHAIN.md): the first radio call
// an isolate serves re-arms the deployment clock for the next due step, if there is one.
let clockChecked = false;
deviceProtocol.use(async (c, next) => {
  if (!clockChecked) {
    clockChecked = true;
    const rearm = nextStepDue(c.env.DB)
      .then((at) => (at ? armClock(c.env, new Date(at)) : undefined))
      .catch((error: unknown) => console.error("re-arming the deployment clock failed", error));
    try {
      c.executionCtx.waitUntil(rearm);
    } catch {
      await rearm;
    }
  }
  await next();
});

/**
 * The check-in goes to the radio's DeviceShard, which answers it from memory while nothing
 * changed (no D1 statement) and batches last-seen (check-in-memory.ts); without shards the
 * Worker runs the full path itself and writes last-seen when it is due.
 */
deviceProtocol.post("/check-in", async (c) => {
  const credentials = credentialsOf(c.req.header("authorization"));
  if (!credentials) return unauthorized();
  const [secretHash, raw] = await Promise.all([sha256Hex(credentials.secret), jsonBody(c.req.raw)]);
  const parsed = isFail(raw) ? null : checkInBody.safeParse(raw);
  const body: CheckInBody | Fail = isFail(raw) ? raw : parsed?.success ? parsed.data : invalid(parsed?.error as z.ZodError);
  const namespace = c.env.DEVICE_SHARDS;
  if (namespace) {
    try {
      const stub = namespace.get(namespace.idFromName(`shard-${shardOf(credentials.uid)}`));
      const answer = (await stub.fetch("https://shard/check-in", {
        method: "POST",
        body: JSON.stringify({ uid: credentials.uid, secretHash, body }),
      })) as unknown as Response;
      // A fresh response: middleware (security headers) may then add headers.
      if (answer.status < 500) return new Response(answer.body, { status: answer.status, headers: new Headers(answer.headers) });
      await answer.body?.cancel();
    } catch (error) {
      console.error("check-in shard unreachable; the Worker answers", error);
    }
  }
  // No shard (or none reachable): the full path here, last-seen written when due.
  const at = new Date();
  const full = await fullCheckIn(c.env.DB, credentials.uid, secretHash, body, at, {
    batchesContact: false,
    etagKey: c.env.DEVICE_ETAG_KEY,
    firmwareSecret: firmwareSecret(c.env),
  });
  return full.ok ? answerResponse(full.answer, full.busy, at) : full.response;
});

deviceProtocol.get("/config", async (c) => {
  const notModified = await notModifiedWithoutD1(c);
  if (notModified) return notModified;
  const state = await authenticate(c, false, false);
  if (!state) return unauthorized();
  const headers = { etag: await configToken(c, state), "cache-control": "private, no-cache" };
  // The full path: a 304 whenever the underlying ETag is unchanged (a plain one, or any token's).
  if (plainEtags(c.req.header("if-none-match")).includes(state.etag)) {
    return new Response(null, { status: 304, headers });
  }
  const d = state.desired;
  // The keys firmware packages are signed with travel with the configuration (docs/device-protocol.md).
  const [firmwareKeys, content] = await Promise.all([
    publicKeysForOrg(c.env.DB, state.radio.org_id),
    d ? revisionContent(c.env.DB, d.revisionId) : null,
  ]);
  if (!d) return json({ revision: null, deployment: null, config: null, firmwareKeys }, { headers });
  if (!content) return failure({ status: 404, code: "NOT_FOUND", message: "Revision not found." });
  if (state.takesNewAttributes) {
    await batch(c.env.DB, [copyDeployedAttributesStatement(c.env.DB, state.radio.uid)]);
    await forgetCheckIn(c.env, state.radio.uid);
  }
  return json(
    {
      revision: { id: d.revisionId, number: d.revisionNumber },
      deployment: deploymentView(state),
      config: desiredConfig(content, state.attributes),
      firmwareKeys,
    },
    { headers },
  );
});

/**
 * A report the radio already made, or one behind what it reported (docs/device-protocol.md):
 * the same state again or an older progress state answers 200 `changed: false`; a different
 * final state after a final one is a conflict. Null: the report moves the radio forward.
 */
function answerToRepeat(deploymentId: string, previous: ReportState | undefined, reported: ReportState): Response | null {
  if (!previous) return null;
  if (previous === reported || progressOf(previous) > progressOf(reported)) {
    return json({ deploymentId, state: previous, changed: false });
  }
  if (terminalStates.includes(previous)) {
    return failure({ status: 409, code: "CONFLICT", message: `Already reported ${previous}.` });
  }
  return null;
}

deviceProtocol.post("/deployments/:id/status", async (c) => {
  const state = await authenticate(c);
  if (!state) return unauthorized();
  const body = await jsonBody(c.req.raw);
  if (isFail(body)) return failure(body);
  const db = c.env.DB;
  const id = c.req.param("id");
  const deployment = state.deployments.find((d) => d.id === id) ?? (id.length <= 64 ? await findDeployment(db, id) : null);
  // Another account's deployment is as unknown as one that does not exist.
  if (!deployment || deployment.accountId !== state.radio.account_id) {
    return failure({ status: 404, code: "NOT_FOUND", message: "No such deployment for this radio." });
  }
  if (deployment.kind === "firmware")
    return reportFirmware({ db, env: c.env }, state, deployment, body, (error) => failure(invalid(error)));
  const parsed = statusBody.safeParse(body);
  if (!parsed.success) return failure(invalid(parsed.error));
  const previous = state.reports.get(deployment.id);
  const report = parsed.data;
  const answered = answerToRepeat(deployment.id, previous?.state, report.state);
  if (answered) return answered;
  const admitted = admitReport(state, deployment, report.state === "failed", new Date());
  if (!admitted.ok) return admitted.response;
  const { phase, retry, at } = admitted;
  const fields = {
    deploymentId: deployment.id,
    uid: state.radio.uid,
    phase,
    code: report.code ?? "",
    detail: report.detail ?? "",
    at,
  };
  const writes: D1PreparedStatement[] = [
    retry
      ? retryReportStatement(db, { ...fields, retryAt: retry.retryAt.toISOString(), attempts: previous?.attempts ?? 0 })
      : upsertReportStatement(db, { ...fields, state: report.state }),
  ];
  if (report.state === "applied" || report.state === "already_in_sync") {
    writes.push(reportedRevisionStatement(db, state.radio.uid, deployment.id, report.state, deployment.revisionId, at));
  }
  const [written] = await db.batch(writes);
  if (!written?.meta.changes) {
    // Another report of this radio got there first (two at once): answer as if this one came second.
    const stored = await reportStateOf(db, deployment.id, state.radio.uid);
    return (
      answerToRepeat(deployment.id, stored, report.state) ?? json({ deploymentId: deployment.id, state: stored, changed: false })
    );
  }
  return afterReportStored({ db, env: c.env }, state, deployment, { said: report.state, state: report.state, phase, retry });
});

deviceProtocol.post("/commands/:id/status", async (c) => {
  const state = await authenticate(c);
  if (!state) return unauthorized();
  const body = await jsonBody(c.req.raw);
  if (isFail(body)) return failure(body);
  const answer = await reportCommand(c.env.DB, state.radio.uid, c.req.param("id"), body, c.env);
  if (answer.ok) await forgetCheckIn(c.env, state.radio.uid);
  return answer.ok ? json(answer.body) : failure(answer.fail);
});

deviceProtocol.get("/connect", async (c) => {
  const state = await authenticate(c, true);
  if (!state) return unauthorized();
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    return failure({ status: 400, code: "BAD_REQUEST", message: "Connect with a WebSocket upgrade." });
  }
  const namespace = c.env.DEVICE_SHARDS;
  if (!namespace) return failure({ status: 501, code: "NOT_IMPLEMENTED", message: "Live connections are not configured." });
  const stub = namespace.get(namespace.idFromName(`shard-${shardOf(state.radio.uid)}`));
  const upgraded = (await stub.fetch("https://shard/connect", {
    headers: {
      upgrade: "websocket",
      "x-radio-uid": state.radio.uid,
      "x-radio-account": state.radio.account_id ?? "",
      "x-radio-bucket": String(state.radio.rollout_bucket),
      ...(c.req.header("sec-websocket-protocol")?.includes("device-v1") ? { "x-radio-subprotocol": "device-v1" } : {}),
    },
  })) as unknown as Response & { webSocket?: unknown };
  // A fresh response around the object's socket: middleware (security headers) may then add headers.
  return new Response(null, {
    status: upgraded.status,
    headers: new Headers(upgraded.headers),
    webSocket: upgraded.webSocket,
  } as ResponseInit);
});

deviceProtocol.all("*", () => failure({ status: 404, code: "NOT_FOUND", message: "No such device call." }));
