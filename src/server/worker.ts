import { createApp } from "./app";
import type { ExecutionContext } from "./cloudflare";
import type { Env } from "./env";
import { stepDueDeployments } from "./fleet/deployment-engine";

/** The Durable Object classes wrangler.toml binds (DEVICE_SHARDS, DEPLOYMENT_CLOCK). */
export { DeploymentClock } from "./fleet/deployment-clock";
export { DeviceShard } from "./fleet/device-shard";

const app = createApp();

/** The Worker entry (wrangler.toml `main`): HTTP, and the cron sweep of due deployment steps. */
export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, env, ctx),
  scheduled: (_event: unknown, env: Env, ctx: ExecutionContext) => {
    ctx.waitUntil(stepDueDeployments(env).then(() => undefined));
  },
};
