import { z } from "zod";
import { commandReportStates, commandResults, isFinalCommand } from "@/schema/fleet/commands";
import { type Command, findCommand, reportStatement } from "../data/commands";
import type { Db } from "../data/db";
import type { Env } from "../env";
import { endBatchIfDone } from "./batch-end";

/**
 * What the device protocol says about commands (issue 13): the shape a radio gets them in, and
 * its reports, idempotent by command id: the same report twice changes nothing the second
 * time; a report that would move a command backwards is ignored; a report about a command
 * that was cancelled or expired answers 409, so the radio knows not to run it.
 */
export function commandForRadio(command: Command) {
  return {
    id: command.id,
    type: command.type,
    params: command.params,
    expiresAt: command.expiresAt,
    queuedAt: command.createdAt,
  };
}

const reportBody = z
  .object({
    state: z.enum(commandReportStates),
    result: z.record(z.string(), z.unknown()).optional(),
    code: z.string().max(40).optional(),
    detail: z.string().max(500).optional(),
  })
  .strict();

type Fail = { status: 400 | 404 | 409; code: string; message: string };
type Answer = { ok: true; body: { id: string; state: string; changed: boolean } } | { ok: false; fail: Fail };

const ID = /^[0-9a-f-]{36}$/;

/**
 * With `env`, a final report that leaves its batch with nothing waiting ends the batch at once
 * (batch-end.ts); without it the next sweep does (the cron runs it every minute).
 */
export async function reportCommand(db: Db, uid: string, id: string, body: unknown, env?: Env): Promise<Answer> {
  const parsed = reportBody.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      fail: {
        status: 400,
        code: "BAD_REQUEST",
        message: issue ? `${issue.path.join(".") || "body"}: ${issue.message}` : "Invalid body.",
      },
    };
  }
  const command = ID.test(id) ? await findCommand(db, id) : null;
  // Another radio's command is as unknown as one that does not exist.
  if (!command || command.uid !== uid)
    return { ok: false, fail: { status: 404, code: "NOT_FOUND", message: "No such command for this radio." } };
  const report = parsed.data;
  let result: unknown;
  if (report.state === "succeeded") {
    const checked = commandResults[command.type].safeParse(report.result ?? {});
    if (!checked.success) {
      const issue = checked.error.issues[0];
      return {
        ok: false,
        fail: {
          status: 400,
          code: "BAD_REQUEST",
          message: `result${issue?.path.length ? `.${issue.path.join(".")}` : ""}: ${issue?.message ?? "invalid"}`,
        },
      };
    }
    result = checked.data;
  }
  const at = new Date().toISOString();
  const written = await reportStatement(db, {
    id: command.id,
    uid,
    state: report.state,
    result,
    code: report.code ?? "",
    detail: report.detail ?? "",
    at,
  }).run();
  if (written.meta.changes) {
    if (env && command.batchId && isFinalCommand(report.state)) await endBatchIfDone(env, command.batchId);
    return { ok: true, body: { id: command.id, state: report.state, changed: true } };
  }
  // Nothing changed: say why, from what the command is now.
  const now = (await findCommand(db, command.id)) ?? command;
  const unchanged = { ok: true as const, body: { id: now.id, state: now.state, changed: false } };
  if (now.state === report.state) return unchanged;
  // A late "delivered" after the outcome is old news, not a conflict.
  if (report.state === "delivered" && (now.state === "succeeded" || now.state === "failed")) return unchanged;
  if (isFinalCommand(now.state)) {
    return { ok: false, fail: { status: 409, code: "CONFLICT", message: `The command is ${now.state}.` } };
  }
  return unchanged;
}
