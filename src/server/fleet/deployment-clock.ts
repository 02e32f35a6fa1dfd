import { AlarmClock } from "./alarm-clock";
import { stepDueDeployments } from "./deployment-engine";

/**
 * The timer behind time-based steps (a phase's wait, a scheduled start): a Durable Object
 * alarm, which fires in local workerd with `npm start` as it does when deployed. One object
 * for the whole installation; the alarm runs every due step (read from D1, so nothing is lost
 * if an alarm is missed: the cron trigger in wrangler.toml runs the same sweep every minute).
 */
export class DeploymentClock extends AlarmClock {
  protected sweep(): Promise<number | null> {
    return stepDueDeployments(this.env);
  }
}
