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
  | { type: "command-queued"; uid: string; commandId: string }
  /** Commands were queued for these radios (one message per shard, however many radios): each connected one checks in. */
  | { type: "commands-queued"; uids: string[] };

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

/**
 * Close code of a radio's live sockets when its credentials or place change (secret rotated,
 * radio retired, moved to another account): what it was let in with no longer holds, so it
 * reconnects with what it has now (and an old secret is refused). docs/device-protocol.md.
 */
export const CLOSE_CREDENTIALS_CHANGED = 4001;

/**
 * Closes the live sockets of these radios: one request per shard holding any of them (at most
 * SHARDS, however many radios). A shard that cannot be reached is logged and never fails the
 * caller: the change is written either way, and the next check-in authenticates anew.
 */
export async function closeRadios(env: Env, uids: string[]): Promise<number> {
  const namespace = env.DEVICE_SHARDS;
  if (!namespace || uids.length === 0) return 0;
  const byShard = new Map<number, string[]>();
  for (const uid of uids) {
    const shard = shardOf(uid);
    const list = byShard.get(shard);
    if (list) list.push(uid);
    else byShard.set(shard, [uid]);
  }
  const closed = await Promise.all(
    [...byShard].map(async ([shard, list]) => {
      try {
        const stub = namespace.get(namespace.idFromName(`shard-${shard}`));
        const response = await stub.fetch("https://shard/close", { method: "POST", body: JSON.stringify({ uids: list }) });
        return ((await response.json()) as { closed?: number }).closed ?? 0;
      } catch (error) {
        console.error("closing radio sockets failed", shard, error);
        return 0;
      }
    }),
  );
  return closed.reduce((sum, n) => sum + n, 0);
}

/**
 * The radio's shard forgets the check-in answer it holds for it (the radio's own report or
 * command status changed what it is told): its next check-in takes the full path. A shard that
 * cannot be reached is logged; its answer then lags by at most FLEET_VERSION_FRESH_MS.
 */
export async function forgetCheckIn(env: Env, uid: string): Promise<void> {
  const namespace = env.DEVICE_SHARDS;
  if (!namespace) return;
  try {
    const stub = namespace.get(namespace.idFromName(`shard-${shardOf(uid)}`));
    const response = await stub.fetch("https://shard/forget", { method: "POST", body: JSON.stringify({ uids: [uid] }) });
    await response.body?.cancel();
  } catch (error) {
    console.error("forgetting a check-in failed", uid, error);
  }
}
