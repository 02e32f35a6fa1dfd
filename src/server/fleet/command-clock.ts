import type { MiddlewareHandler } from "hono";
import type { DurableObjectState } from "../cloudflare";
import { expireDue, nextExpiry } from "../data/commands";
import type { AppEnv, Env } from "../env";

/**
 * The timer that marks commands expired (DESIGN.md §7): a Durable Object alarm set for the
 * earliest expiry, so a command expires on time even if nobody looks at it. The cron trigger
 * (src/server/worker.ts) runs the same sweep every minute as a safety net, and every send
 * arms the alarm again (local workerd forgets alarms across a restart).
 */
export class CommandClock {
  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: Env,
  ) {}

  async fetch(request: Request): Promise<Response> {
    const { at } = (await request.json()) as { at: number };
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(Math.max(at, Date.now()));
    return new Response(null, { status: 204 });
  }

  async alarm(): Promise<void> {
    const next = await sweepExpiredCommands(this.env);
    if (next !== null) await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1000));
  }
}

/** Marks every command past its expiry; answers when the next one expires (ms), or null. */
export async function sweepExpiredCommands(env: Env, at = new Date()): Promise<number | null> {
  await expireDue(env.DB, at.toISOString());
  const next = await nextExpiry(env.DB);
  return next ? Date.parse(next) : null;
}

/** Asks the clock to wake at `at` (or earlier, if it already will); never fails the caller. */
export async function armCommandClock(env: Env, at: Date): Promise<void> {
  const namespace = env.COMMAND_CLOCK;
  if (!namespace) return;
  try {
    const stub = namespace.get(namespace.idFromName("commands"));
    const response = await stub.fetch("https://clock/arm", { method: "POST", body: JSON.stringify({ at: at.getTime() }) });
    await response.body?.cancel();
  } catch (error) {
    console.error("arming the command clock failed", error);
  }
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
