import type { R2Bucket } from "../cloudflare";
import { accountArchivePrefix } from "./retention-sweep";

/** R2 deletes at most this many keys in one call. */
const KEYS_PER_DELETE = 1000;

/**
 * Deletes every archive object of an account that was deleted: its `archives` entries went with
 * it (ON DELETE CASCADE), so nothing could read the objects again. Pages through the account's
 * prefix until it is empty; answers how many objects it deleted.
 */
export async function deleteAccountArchives(bucket: R2Bucket, orgId: string, accountId: string): Promise<number> {
  const prefix = accountArchivePrefix(orgId, accountId);
  let deleted = 0;
  for (;;) {
    // Each pass lists from the start: what was deleted is gone, so no cursor is needed.
    const listed = await bucket.list({ prefix, limit: KEYS_PER_DELETE });
    const keys = listed.objects.map((object) => object.key);
    if (keys.length === 0) return deleted;
    await bucket.delete(keys);
    deleted += keys.length;
    if (!listed.truncated) return deleted;
  }
}
