import type { DurableObjectNamespace, DurableObjectState } from "../cloudflare";
import type { Env } from "../env";

/**
 * A Durable Object alarm that wakes at the earliest time it was asked for and runs a sweep
 * (read from D1, so a missed alarm loses nothing: the cron trigger runs the same sweep every
 * minute). The sweep answers when it is next due (ms), or null; the alarm is set for then.
 */
export abstract class AlarmClock {
  constructor(
    protected readonly ctx: DurableObjectState,
    protected readonly env: Env,
  ) {}

  /** Does what is due; answers when something is next due (ms), or null. */
  protected abstract sweep(): Promise<number | null>;

  async fetch(request: Request): Promise<Response> {
    const { at } = (await request.json()) as { at: number };
    const current = await this.ctx.storage.getAlarm();
    if (current === null || at < current) await this.ctx.storage.setAlarm(Math.max(at, Date.now()));
    return new Response(null, { status: 204 });
  }

  async alarm(): Promise<void> {
    const next = await this.sweep();
    if (next !== null) await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1000));
  }
}

/**
 * Asks the clock (the one object named `name` of `namespace`) to wake at `at`, or earlier if
 * it already will; never fails the caller (the cron sweep is the safety net).
 */
export async function armAlarmClock(
  namespace: DurableObjectNamespace | undefined,
  name: string,
  at: Date,
  what: string,
): Promise<void> {
  if (!namespace) return;
  try {
    const stub = namespace.get(namespace.idFromName(name));
    const response = await stub.fetch("https://clock/arm", { method: "POST", body: JSON.stringify({ at: at.getTime() }) });
    await response.body?.cancel();
  } catch (error) {
    console.error(`arming the ${what} clock failed`, error);
  }
}
