import { deviceProtocol } from "@/server/fleet/device-protocol";
import type { RouteContext } from "../types";
import { answerCommands, type RadioCommand, type RadioMemory } from "./answer-commands";
import {
  type FailStage,
  FIRMWARE_STEPS,
  type FirmwareMemory,
  type FirmwareOffer,
  type FirmwareStep,
  firmwareStep,
} from "./radio-firmware";

/**
 * The no-JavaScript simulator talks to the device protocol exactly as a radio does, through
 * the same Hono handlers (in process): same credentials, same bodies, same answers.
 */
export type RadioDisplay = {
  uid: string;
  status: number;
  error?: string;
  checkIn?: {
    desiredRevision: { id: string; number: number } | null;
    deployment: {
      id: string;
      number: number;
      state: string;
      revision: { id: string; number: number };
      switchover: { mode: string; at?: string; maxMinutes?: number };
      yourState: string;
    } | null;
    pollSeconds: number;
    redirect: { url: string } | null;
    /** The firmware deployment that concerns the radio (issue 26), or null. */
    firmware?: FirmwareOffer | null;
  };
  config?: { network: Record<string, unknown>; profiles: Record<string, { name: string; settings: unknown }> } | null;
  /** The revision the simulated radio runs (what it reports). */
  running: string;
  /** Commands answered, messages shown, stunned or not (issue 13). */
  memory?: RadioMemory;
  /** The firmware it runs and its update so far (issue 26). */
  firmware?: FirmwareMemory;
  log: string[];
};

/** What a header may carry: a credential with anything else could not be sent by a radio at all. */
const HEADER_SAFE = /^[\x21-\x7e]*$/;

async function call(c: RouteContext, uid: string, secret: string, path: string, body?: unknown) {
  // A control character or non-ASCII letter in the typed uid or secret: refused like a wrong credential (not a 500).
  if (!HEADER_SAFE.test(uid) || !HEADER_SAFE.test(secret)) return { status: 401, json: null };
  const response = await deviceProtocol.request(
    path,
    {
      method: body === undefined ? "GET" : "POST",
      headers: {
        Authorization: `Bearer ${uid}:${secret}`,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    },
    c.env,
  );
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: response.status, json: json as Record<string, unknown> | null };
}

export type SimulatorStep = "check-in" | "accept" | "fail" | "reject" | "delay" | "accept-redirect" | FirmwareStep;

const isFirmwareStep = (step: SimulatorStep): step is FirmwareStep => (FIRMWARE_STEPS as readonly string[]).includes(step);

/** One click of the simulator: a report (if any), then a check-in and the config it points at. */
export async function simulate(
  c: RouteContext,
  input: {
    uid: string;
    secret: string;
    running: string;
    step: SimulatorStep;
    deploymentId: string;
    memory?: RadioMemory;
    firmware: FirmwareMemory;
    failStage: FailStage;
  },
): Promise<RadioDisplay> {
  const log: string[] = [];
  let running = input.running;
  let firmware = input.firmware;
  const report = async (state: string, code?: string) => {
    const answer = await call(c, input.uid, input.secret, `/deployments/${encodeURIComponent(input.deploymentId)}/status`, {
      state,
      ...(code ? { code } : {}),
    });
    log.push(`status ${state} → ${answer.status}`);
    return answer;
  };
  if (isFirmwareStep(input.step)) {
    // The step acts on the offer as the server makes it now (a fresh signed URL with it).
    const before = await call(c, input.uid, input.secret, "/check-in", { firmware: firmware.running });
    const offer = (before.json?.firmware as FirmwareOffer | null | undefined) ?? null;
    if (before.status === 200 && offer?.package) {
      const done = await firmwareStep(c.env, offer, input.step, input.failStage, firmware, {
        report: (id, body) => call(c, input.uid, input.secret, `/deployments/${encodeURIComponent(id)}/status`, body),
        keys: async () => {
          const config = await call(c, input.uid, input.secret, "/config");
          return (config.json?.firmwareKeys as { keyId: string; publicKey: string }[] | undefined) ?? [];
        },
      });
      firmware = done.memory;
      log.push(...done.log);
    } else log.push(`check-in → ${before.status}: no firmware offered`);
  } else if (input.deploymentId && input.step !== "check-in") {
    if (input.step === "accept") {
      await report("delivered");
      await report("applying");
      await report("applied");
    } else if (input.step === "fail") await report("failed", "SIM-FAIL");
    else if (input.step === "reject") await report("rejected", "SIM-REJECT");
    else if (input.step === "delay") await report("delivered");
  }
  const checkIn = await call(c, input.uid, input.secret, "/check-in", {
    firmware: firmware.running,
    reportedRevision: running || null,
    battery: 87,
    signal: -61,
    // Accepting the hand-over the last check-in offered (docs/device-protocol.md).
    ...(input.step === "accept-redirect" ? { redirectAccepted: true } : {}),
  });
  log.push(`check-in${input.step === "accept-redirect" ? " (redirect accepted)" : ""} → ${checkIn.status}`);
  if (checkIn.status !== 200 || !checkIn.json) {
    return {
      uid: input.uid,
      status: checkIn.status,
      error: String((checkIn.json?.error as { message?: string } | undefined)?.message ?? ""),
      running,
      firmware,
      log,
    };
  }
  const body = checkIn.json as unknown as NonNullable<RadioDisplay["checkIn"]>;
  const memory = await answerCommands(
    ((checkIn.json.commands ?? []) as RadioCommand[]).slice(0, 10),
    input.memory ?? { stunned: false, messages: [], answered: [] },
    async (id, report) => {
      const answer = await call(c, input.uid, input.secret, `/commands/${encodeURIComponent(id)}/status`, report);
      log.push(`command ${id.slice(0, 8)} ${String(report.state)} → ${answer.status}`);
      return answer;
    },
    running,
  );
  if (input.step === "accept" && body.deployment && body.deployment.id === input.deploymentId) {
    running = body.deployment.revision.id;
    await call(c, input.uid, input.secret, "/check-in", { reportedRevision: running });
  }
  // Without If-None-Match: a click (or a push) means "look now", so the full path answers, never
  // a 304 from an isolate's cached fleet version (docs/device-protocol.md, GET /config).
  const config = await call(c, input.uid, input.secret, "/config");
  log.push(`config → ${config.status}`);
  return {
    uid: input.uid,
    status: 200,
    checkIn: body,
    config: (config.json?.config as RadioDisplay["config"]) ?? null,
    running,
    memory,
    firmware,
    log,
  };
}
