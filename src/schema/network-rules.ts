/**
 * The rules of network settings that both the schema (server) and the forms' islands
 * (browser) apply. Kept free of zod so islands can import it for a few bytes.
 */
export const wifiSecurity = ["open", "wpa2-personal", "wpa3-personal", "wpa2-enterprise"] as const;
export type WifiSecurity = (typeof wifiSecurity)[number];

/** An IPv4 or IPv6 address, or a host name. */
export const HOST_PATTERN =
  /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]+|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/i;

export const networkLimits = {
  wifiNetworks: 8,
  ssid: 32,
  passphraseMin: 8,
  passphraseMax: 63,
  priorityMax: 99,
  servers: 4,
  endpoints: 8,
  endpointName: 40,
  url: 300,
  apn: 100,
  lteCredential: 64,
} as const;

/** Securities whose radios join with a shared passphrase (enterprise uses 802.1X credentials). */
export function isPersonal(security: WifiSecurity): boolean {
  return security === "wpa2-personal" || security === "wpa3-personal";
}
