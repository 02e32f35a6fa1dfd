import type { Env } from "../env";

/**
 * Where passkeys are valid (DESIGN.md §5): the relying party id and the origins a ceremony may
 * come from are configuration, never read from the request, so a forged Host header cannot
 * make the server accept a credential made for another site.
 */
export type WebAuthnConfig = {
  rpId: string;
  /** Exact origins, e.g. https://config.example.com. */
  origins: string[];
  /** Local demo and development only: any http://localhost:<port> (the e2e servers use other ports). */
  anyLocalhostPort: boolean;
};

export const DEFAULT_RP_ID = "localhost";
export const DEFAULT_ORIGIN = "http://localhost:8787";

export function webAuthnConfig(env: Partial<Env>): WebAuthnConfig {
  const rpId = env.WEBAUTHN_RP_ID?.trim() || DEFAULT_RP_ID;
  const listed = (env.WEBAUTHN_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim().replace(/\/+$/, ""))
    .filter(Boolean);
  const local = env.APP_ENV === "local" || env.APP_ENV === "development";
  return {
    rpId,
    origins: listed.length > 0 ? listed : [DEFAULT_ORIGIN],
    anyLocalhostPort: local && listed.length === 0,
  };
}

const localhostOrigin = /^http:\/\/localhost(:\d{1,5})?$/;

/** Whether a ceremony that the browser ran at `origin` (from its client data) is accepted. */
export function isAcceptedOrigin(config: WebAuthnConfig, origin: string): boolean {
  return config.origins.includes(origin) || (config.anyLocalhostPort && localhostOrigin.test(origin));
}
