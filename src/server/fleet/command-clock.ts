import type { MiddlewareHandler } from "hono";
import { expireDue, nextExpiry } from "../data/commands";
import type { AppEnv, Env } from "../env";
import { AlarmClock, armAlarmClock } from "./alarm-clock";
import { endFinishedBatches } from "./batch-end";

/**
 * The timer that marks commands expired (DESIGN.md §7): a Durable Object alarm set for the
 * earliest expiry, so a command expires on time even if nobody looks at it. The cron trigger
 * (src/server/worker.ts) runs the same sweep every minute as a safety net, and every send
 * arms the alarm again (local workerd forgets alarms across a restart).
 */
export class CommandClock extends AlarmClock {
  protected sweep(): Promise<number | null> {
    return sweepExpiredCommands(this.env);
  }
}

/** Marks every command past its expiry; answers when the next one expires (ms), or null. */
export async function sweepExpiredCommands(env: Env, at = new Date()): Promise<number | null> {
  await expireDue(env.DB, at.toISOString());
  // A batch whose last waiting command just expired (or was reported or cancelled meanwhile) ends now.
  await endFinishedBatches(env, at);
  const next = await nextExpiry(env.DB);
  return next ? Date.parse(next) : null;
}

/** Asks the clock to wake at `at` (or earlier, if it already will); never fails the caller. */
export function armCommandClock(env: Env, at: Date): Promise<void> {
  return armAlarmClock(env.COMMAND_CLOCK, "commands", at, "command");
}

let rearmed = false;

/**
 * workerd forgets alarms across a restart (TOOLCHAIN.md): the first radio call an isolate
 * serves marks what expired meanwhile and arms the clock for the next expiry.
 */
export const rearmCommandClockOnce: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!rearmed) {
    rearmed = true;
    const rearm = sweepExpiredCommands(c.env)
      .then((at) => (at ? armCommandClock(c.env, new Date(at)) : undefined))
      .catch((error: unknown) => console.error("re-arming the command clock failed", error));
    try {
      c.executionCtx.waitUntil(rearm);
    } catch {
      await rearm;
    }
  }
  await next();
};
