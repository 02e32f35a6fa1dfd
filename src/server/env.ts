import type { CurrentSession, SessionUser, Speculation } from "./auth/session-types";
import type { D1Database, DurableObjectNamespace, Fetcher, R2Bucket } from "./cloudflare";
import type { Settings, SettingVariable } from "./settings";

/** The Worker's bindings (wrangler.toml) and the variables that override the settings. */
export type Env = {
  DB: D1Database;
  /** Live radio connections, sharded by uid (src/server/fleet/device-shard.ts). */
  DEVICE_SHARDS?: DurableObjectNamespace;
  /** The alarm behind timed deployment steps (src/server/fleet/deployment-clock.ts). */
  DEPLOYMENT_CLOCK?: DurableObjectNamespace;
  /** The alarm that marks commands expired (src/server/fleet/command-clock.ts). */
  COMMAND_CLOCK?: DurableObjectNamespace;
  ASSETS?: Fetcher;
  /** Rows older than an account's retention, as gzip NDJSON (src/server/retention); unset, nothing is archived. */
  ARCHIVE?: R2Bucket;
  /** Firmware packages (src/server/firmware); unset, packages cannot be uploaded or downloaded. */
  FIRMWARE?: R2Bucket;
  /** Encrypts the organizations' firmware signing keys (a secret: `wrangler secret put FIRMWARE_KEY_SECRET`); unset outside production, a fixed local key. */
  FIRMWARE_KEY_SECRET?: string;
  /** Webhook deliveries (src/server/notifications): the producer; the same Worker consumes the queue. */
  WEBHOOK_QUEUE?: import("./notifications/queue-types").WebhookQueue;
  /** Set ("1"): webhooks may point at http://localhost and http://127.0.0.1 (the demo, the e2e receiver). */
  WEBHOOKS_ALLOW_LOCAL?: string;
  /** Test hooks (milliseconds): how long a shard trusts its fleet versions, how long last-seen waits for its batch. */
  CHECK_IN_FRESH_MS?: string;
  CHECK_IN_FLUSH_MS?: string;
  /** Calls an API token may make per minute (default 600, src/server/middleware/bearer.ts); tests set it low. */
  API_TOKEN_RATE_LIMIT?: string;
  /** "local" for the demo (seeded, mailbox), "production" when deployed. */
  APP_ENV?: string;
  /** "outbox" (default, D1) or "http" (see src/server/mail/mailer.ts). */
  MAIL_TRANSPORT?: string;
  MAIL_API_URL?: string;
  /** A secret: set with `wrangler secret put MAIL_API_KEY`. */
  MAIL_API_KEY?: string;
  MAIL_FROM?: string;
  /** The key that signs config ETags (a secret: `wrangler secret put DEVICE_ETAG_KEY`); unset, a random key per isolate. */
  DEVICE_ETAG_KEY?: string;
  /** Single sign-on with the default identity provider: a secret, `wrangler secret put DEFAULT_IDENTITY_PROVIDER_CLIENT_SECRET`. */
  DEFAULT_IDENTITY_PROVIDER_CLIENT_SECRET?: string;
  /** Passkeys: the relying party id (a domain) and the comma-separated origins they are used at. */
  WEBAUTHN_RP_ID?: string;
  WEBAUTHN_ORIGINS?: string;
  /** Proxy mode: another server speaking the same /api owns data and sessions (src/server/proxy). */
  API_UPSTREAM?: string;
  /** Optional service binding to that server (else API_UPSTREAM is fetched over the network). */
  UPSTREAM?: Fetcher;
} & Partial<Record<SettingVariable, string>>;

/** `npm run dev` (vite.config.ts sets it): the error screen shows details and stacks. */
export function isDevelopment(env: Partial<Env>): boolean {
  return env.APP_ENV === "development";
}

/** The local demo and development: seeded data, and the mailbox that shows sent mail. */
export function isDemo(env: Partial<Env>): boolean {
  return env.APP_ENV !== "production";
}

/** What Hono's context carries for every request. */
export type AppEnv = {
  Bindings: Env;
  Variables: {
    nonce: string;
    secureHeadersNonce?: string;
    language: import("../schema/languages").Language;
    settings: Settings;
    /** The signed-in user, or null; set by the session middleware. */
    user: SessionUser | null;
    session: CurrentSession | null;
    /** Set while a signed-in page loads on the session hint, until it settles (middleware/session.ts). */
    speculation?: Speculation;
  };
};
