import type { ActivityEntry } from "@/server/data/activity-logs";
import type { ApiContext } from "./trpc";

/** The parts of a diff that are network settings (schema/network-config.ts). */
const NETWORK_PARTS = new Set(["wifi", "lte", "dnsServers", "ntpServers", "endpoints"]);

/**
 * Network settings are edit-network-config's to read (spec §6), in the activity log too: for
 * anyone else an entry still says that the settings changed, by whom and when, without their
 * values (SSIDs, APN user names, DNS, endpoints).
 */
export function redactNetworkDetails<T extends Pick<ActivityEntry, "diff">>(ctx: Pick<ApiContext, "user">, entries: T[]): T[] {
  if (ctx.user?.permissions["edit-network-config"]) return entries;
  return entries.map((entry) => {
    const parts = Object.keys(entry.diff);
    if (!parts.some((part) => NETWORK_PARTS.has(part))) return entry;
    return { ...entry, diff: Object.fromEntries(Object.entries(entry.diff).filter(([part]) => !NETWORK_PARTS.has(part))) };
  });
}
