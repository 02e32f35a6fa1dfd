import { createApp } from "./app";
import type { ExecutionContext } from "./cloudflare";
import { sweepDesk } from "./data/fc-sessions";
import { trimRadioChangesStatement } from "./data/radio-changes";
import { sweepContacts } from "./data/radio-contact";
import { retryWhenBusy } from "./data/retry-when-busy";
import { refreshSyncSnapshots } from "./data/sync-snapshots";
import type { Env } from "./env";
import { armClock } from "./fleet/arm-deployment-clock";
import { sweepExpiredCommands } from "./fleet/command-clock";
import { stepDueDeployments } from "./fleet/deployment-engine";
import { sweepRetention } from "./retention/retention-sweep";

/** The Durable Object classes wrangler.toml binds (DEVICE_SHARDS, DEPLOYMENT_CLOCK, COMMAND_CLOCK). */
export { CommandClock } from "./fleet/command-clock";
export { DeploymentClock } from "./fleet/deployment-clock";

import type { QueueBatch, WebhookMessage } from "./notifications/queue-types";
import { deliverWebhooks } from "./notifications/webhook-delivery";

export { DeviceShard } from "./fleet/device-shard";

const app = createApp();

/** The Worker entry (wrangler.toml `main`): HTTP, and the cron sweep of due deployment steps and expired commands. */
export default {
  fetch: (request: Request, env: Env, ctx: ExecutionContext) => app.fetch(request, { ...env, DB: retryWhenBusy(env.DB) }, ctx),
  scheduled: (_event: unknown, env: Env, ctx: ExecutionContext) => {
    // The clock is armed for the next due step (a phase the sweep opened times out then).
    ctx.waitUntil(stepDueDeployments(env).then((next) => (next === null ? undefined : armClock(env, new Date(next)))));
    // Commands past their expiry are marked here too (the command clock's alarm is the fast path).
    ctx.waitUntil(sweepExpiredCommands(env).then(() => undefined));
    // The customer-care desk: auto-close of waiting sessions and retention of closed ones (fc-settings).
    ctx.waitUntil(sweepDesk(env.DB, new Date()).then(() => undefined));
    // Rows older than their account's retention move to R2 (a few accounts, one chunk per kind each).
    ctx.waitUntil(sweepRetention(env.DB, env.ARCHIVE).then(() => undefined));
    // Large accounts' sync × contact counts, counted here rather than on each page (issue 24).
    ctx.waitUntil(refreshSyncSnapshots(env.DB, new Date()).then(() => undefined));
    // Radios quiet for an hour leave the "in contact" state (a slice of them per run, migration 0043).
    ctx.waitUntil(sweepContacts(env.DB).then(() => undefined));
    // The per-radio change log keeps its newest rows only (migration 0031).
    ctx.waitUntil(
      trimRadioChangesStatement(env.DB)
        .run()
        .then(() => undefined),
    );
  },
  // Signed webhook deliveries (src/server/notifications): retried with backoff, logged per webhook.
  queue: (batch: QueueBatch<WebhookMessage>, env: Env) => deliverWebhooks(batch, env),
};
