import { z } from "zod";
import { fieldMessage, optionalText, requiredText } from "@/schema/field-messages";
import { HOST_PATTERN, isPersonal, networkLimits as limits, wifiSecurity } from "./network-rules";
import { nameText } from "./text";

export { isPersonal, wifiSecurity };

/**
 * Network settings of an account, overridden per site and per location (DESIGN.md §3).
 * Every part is optional: a level sets what it overrides and inherits the rest.
 * Secrets (Wi-Fi passphrases, the LTE password) are write-only: stored, never sent back;
 * reads say only whether one is set. Messages are translation keys (validation.*).
 */
const hostname = z
  .string()
  .trim()
  .min(1, "validation.HostInvalid")
  .max(253, "validation.HostInvalid")
  .regex(HOST_PATTERN, "validation.HostInvalid");

export const wifiNetworkInput = z.object({
  id: z.string().min(1).max(40),
  ssid: nameText(limits.ssid, "validation.SsidTooLong", fieldMessage("ssid", "required")),
  security: z.enum(wifiSecurity),
  /** Empty or absent keeps the stored passphrase. */
  passphrase: z.string().max(limits.passphraseMax, "validation.PassphraseTooLong").optional(),
  priority: z
    .number("validation.PriorityRange")
    .int("validation.PriorityRange")
    .min(0, "validation.PriorityRange")
    .max(limits.priorityMax, "validation.PriorityRange"),
});

export const networkConfigInput = z.object({
  wifi: z.array(wifiNetworkInput).max(limits.wifiNetworks, "validation.TooManyNetworks").optional(),
  lte: z
    .object({
      apn: optionalText("apn", limits.apn),
      username: z.string().max(limits.lteCredential, fieldMessage("lteUsername", "tooLong")).optional(),
      password: z.string().max(limits.lteCredential, fieldMessage("ltePassword", "tooLong")).optional(),
    })
    .optional(),
  dnsServers: z.array(hostname).max(limits.servers, "validation.TooManyServers").optional(),
  ntpServers: z.array(hostname).max(limits.servers, "validation.TooManyServers").optional(),
  endpoints: z
    .array(
      z.object({
        name: requiredText("endpointName", limits.endpointName),
        url: z.string().trim().url("validation.UrlInvalid").max(limits.url, fieldMessage("endpointUrl", "tooLong")),
      }),
    )
    .max(limits.endpoints, "validation.TooManyEndpoints")
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

/**
 * What is wrong with the passphrases of an edit once merged with what is stored: WPA personal
 * needs 8 to 63 characters (IEEE 802.11i), typed now or kept from before. Checked on write
 * only, so a stored config never fails to parse over it.
 */
export function passphraseProblems(merged: StoredNetworkConfig): { index: number; message: string }[] {
  return (merged.wifi ?? []).flatMap((network, index) => {
    if (!isPersonal(network.security)) return [];
    if (!network.passphrase) return [{ index, message: "validation.PassphraseRequired" }];
    if (network.passphrase.length < limits.passphraseMin) return [{ index, message: "validation.PassphraseTooShort" }];
    return [];
  });
}

export function parseStoredNetworkConfig(json: string | null): StoredNetworkConfig {
  if (!json) return {};
  const parsed = networkConfigInput.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : {};
}
