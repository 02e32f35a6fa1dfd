import type { Env } from "../env";
import { armAlarmClock } from "./alarm-clock";

/**
 * Asks the deployment clock (deployment-clock.ts) to wake at `at`, or earlier if it already
 * will. Apart from the clock itself, which runs the engine, so the engine can arm it.
 */
export function armClock(env: Env, at: Date): Promise<void> {
  return armAlarmClock(env.DEPLOYMENT_CLOCK, "clock", at, "deployment");
}
