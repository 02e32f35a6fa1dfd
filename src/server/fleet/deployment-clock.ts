import type { DurableObjectState } from "../cloudflare";
import type { Env } from "../env";
import { stepDueDeployments } from "./deployment-engine";

/**
 * The timer behind time-based steps (a phase's wait, a scheduled start): a Durable Object
 * alarm, which fires in local workerd with `npm start` as it does when deployed. One object
 * for the whole installation; the alarm runs every due step (read from D1, so nothing is lost
 * if an alarm is missed: the cron trigger in wrangler.toml runs the same sweep every minute).
 */
export class DeploymentClock {
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
    const next = await stepDueDeployments(this.env);
    if (next !== null) await this.ctx.storage.setAlarm(Math.max(next, Date.now() + 1000));
  }
}

/** Asks the clock to wake at `at` (or earlier, if it already will). */
export async function armClock(env: Env, at: Date): Promise<void> {
  const namespace = env.DEPLOYMENT_CLOCK;
  if (!namespace) return;
  try {
    const stub = namespace.get(namespace.idFromName("clock"));
    const response = await stub.fetch("https://clock/arm", { method: "POST", body: JSON.stringify({ at: at.getTime() }) });
    await response.body?.cancel();
  } catch (error) {
    console.error("arming the deployment clock failed", error);
  }
}
