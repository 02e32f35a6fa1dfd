import { z } from "zod";

/**
 * Network settings of an account, overridden per site and per location (DESIGN.md §3).
 * Every part is optional: a level sets what it overrides and inherits the rest.
 * Secrets (Wi-Fi passphrases, the LTE password) are write-only: stored, never sent back;
 * reads say only whether one is set.
 */
export const wifiSecurity = ["open", "wpa2-personal", "wpa3-personal", "wpa2-enterprise"] as const;

const hostname = z
  .string()
  .trim()
  .min(1)
  .max(253)
  .regex(
    /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]+|(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$/i,
    "validation.HostInvalid",
  );

export const wifiNetworkInput = z.object({
  id: z.string().min(1).max(40),
  ssid: z.string().trim().min(1, "validation.Required").max(32, "validation.SsidTooLong"),
  security: z.enum(wifiSecurity),
  /** Empty or absent keeps the stored passphrase. */
  passphrase: z.string().max(63, "validation.PassphraseTooLong").optional(),
  priority: z.number().int().min(0).max(99),
});

export const networkConfigInput = z.object({
  wifi: z.array(wifiNetworkInput).max(8, "validation.TooManyNetworks").optional(),
  lte: z
    .object({ apn: z.string().trim().max(100), username: z.string().max(64).optional(), password: z.string().max(64).optional() })
    .optional(),
  dnsServers: z.array(hostname).max(4).optional(),
  ntpServers: z.array(hostname).max(4).optional(),
  endpoints: z
    .array(z.object({ name: z.string().trim().min(1).max(40), url: z.string().trim().url().max(300) }))
    .max(8)
    .optional(),
});
export type NetworkConfigInput = z.infer<typeof networkConfigInput>;

/** What is stored: like the input, with the secrets kept. */
export type StoredNetworkConfig = NetworkConfigInput;

/** What is read back: secrets replaced by whether they are set. */
export type NetworkConfigView = Omit<NetworkConfigInput, "wifi" | "lte"> & {
  wifi?: (Omit<z.infer<typeof wifiNetworkInput>, "passphrase"> & { hasPassphrase: boolean })[];
  lte?: { apn: string; username?: string; hasPassword: boolean };
};

export function viewOf(config: StoredNetworkConfig): NetworkConfigView {
  const { wifi, lte, ...rest } = config;
  return {
    ...rest,
    ...(wifi ? { wifi: wifi.map(({ passphrase, ...network }) => ({ ...network, hasPassphrase: Boolean(passphrase) })) } : {}),
    ...(lte ? { lte: { apn: lte.apn, username: lte.username, hasPassword: Boolean(lte.password) } } : {}),
  };
}

/** Applies an edit to what is stored: a blank secret keeps the one stored for the same network. */
export function mergeSecrets(previous: StoredNetworkConfig, next: NetworkConfigInput): StoredNetworkConfig {
  const wifi = next.wifi?.map((network) => {
    const kept = previous.wifi?.find((old) => old.id === network.id)?.passphrase;
    const passphrase = network.passphrase ? network.passphrase : network.security === "open" ? undefined : kept;
    return { ...network, passphrase };
  });
  const lte = next.lte ? { ...next.lte, password: next.lte.password ? next.lte.password : previous.lte?.password } : undefined;
  return { ...next, ...(wifi ? { wifi } : {}), ...(lte ? { lte } : {}) };
}

export function parseStoredNetworkConfig(json: string | null): StoredNetworkConfig {
  if (!json) return {};
  const parsed = networkConfigInput.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : {};
}
