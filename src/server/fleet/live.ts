import { fingerprint } from "@/schema/fleet/desired-config";
import type { Env } from "../env";

/**
 * Live connections (DESIGN.md §7): radios hold a WebSocket to one of SHARDS Durable Objects,
 * chosen by a hash of the uid. Anything a connected radio must learn at once (a revision
 * available, a pause, later "command queued") is one message to each shard, never one per
 * radio; the shard passes it to the sockets it concerns. Radios that only poll learn at their
 * next check-in.
 */
export const SHARDS = 32;

export function shardOf(uid: string): number {
  return Number.parseInt(fingerprint(uid), 16) % SHARDS;
}

/**
 * What a shard passes on. `check-in`: something for the account changed (deployment started,
 * advanced, paused, cancelled), so connected radios check in now; `upToBucket` limits it to
 * the radios of the opened phases. The commands issue adds `command-queued` with a `uid`.
 */
export type LiveMessage =
  | { type: "check-in"; reason: "deployment" | "pause" | "cancel"; deploymentId: string; upToBucket?: number }
  | { type: "command-queued"; uid: string; commandId: string };

/** Tells every shard once; a shard that cannot be reached is logged, never fails the caller. */
export async function notifyShards(env: Env, accountId: string, message: LiveMessage): Promise<void> {
  const namespace = env.DEVICE_SHARDS;
  if (!namespace) return;
  const body = JSON.stringify({ accountId, message });
  await Promise.all(
    Array.from({ length: SHARDS }, async (_, shard) => {
      try {
        const stub = namespace.get(namespace.idFromName(`shard-${shard}`));
        const response = await stub.fetch("https://shard/notify", { method: "POST", body });
        await response.body?.cancel();
      } catch (error) {
        console.error("shard notify failed", shard, error);
      }
    }),
  );
}
