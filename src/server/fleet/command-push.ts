import type { Env } from "../env";
import { SHARDS, shardOf } from "./live";

/**
 * Wakes the connected radios that have new commands: one request per shard that holds any of
 * them (at most SHARDS requests, however many radios), never one per radio. Radios that only
 * poll get their commands at their next check-in. A shard that cannot be reached is logged and
 * never fails the send: the commands are queued either way.
 */
export async function wakeRadios(env: Env, uids: string[]): Promise<number> {
  const namespace = env.DEVICE_SHARDS;
  if (!namespace || uids.length === 0) return 0;
  const byShard = new Map<number, string[]>();
  for (const uid of uids) {
    const shard = shardOf(uid);
    const list = byShard.get(shard) ?? [];
    list.push(uid);
    byShard.set(shard, list);
  }
  const answers = await Promise.all(
    [...byShard].map(async ([shard, list]) => {
      try {
        const stub = namespace.get(namespace.idFromName(`shard-${shard}`));
        const response = await stub.fetch("https://shard/notify", {
          method: "POST",
          body: JSON.stringify({ accountId: "", message: { type: "commands-queued", uids: list } }),
        });
        const body = (await response.json()) as { sent?: number };
        return body.sent ?? 0;
      } catch (error) {
        console.error("waking radios failed", shard, error);
        return 0;
      }
    }),
  );
  return answers.reduce((sum, n) => sum + n, 0);
}

export { SHARDS };
