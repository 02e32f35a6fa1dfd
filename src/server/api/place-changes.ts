import { mergeSecrets, type NetworkConfigInput, type StoredNetworkConfig, viewOf } from "@/schema/network-config";
import type { Account } from "@/server/data/accounts";
import { type ActivityEntryInput, activityStatement, diffOf } from "@/server/data/activity-logs";
import { assertPassphrases, assertWritten } from "./network-levels";
import { refuse } from "./refusal";
import { accountInScope } from "./tenancy";
import type { ApiContext } from "./trpc";

/*
 * What the account, site and location procedures share: finding a place within the caller's
 * tree, its log entries (deployable configuration changes) and storing its network overrides.
 */

export type PlaceCaller = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

type Statement = ReturnType<typeof activityStatement>;

/** In lists, `value` is `_id` and `label` is `name` (spec §3). */
export function listed<T extends { _id: string; name: string }>(item: T) {
  return { ...item, value: item._id, label: item.name };
}

/**
 * The account (in the caller's tree) and one of its places; a place of another account is
 * NOT_FOUND, as if it did not exist.
 */
export async function placeInScope<T>(
  ctx: PlaceCaller,
  accountId: string,
  find: (accountId: string) => Promise<T | null>,
  notFoundKey: string,
): Promise<{ account: Account; place: T }> {
  const account = await accountInScope(ctx, accountId);
  const place = await find(account._id);
  if (!place) return refuse(ctx, "NOT_FOUND", notFoundKey);
  return { account, place };
}

/** The log entry of a change to an account's configuration, by the caller; radios receive it once deployed. */
export function placeActivity(
  ctx: PlaceCaller,
  account: Pick<Account, "_id" | "orgId">,
  entry: Pick<ActivityEntryInput, "action" | "entityType" | "entityId" | "entityLabel" | "diff">,
): Statement {
  return activityStatement(ctx.db, {
    orgId: account.orgId,
    accountId: account._id,
    actor: ctx.user,
    deployable: true,
    ...entry,
  });
}

/**
 * Stores a level's network overrides at `version`, with its log entry, in one batch: the posted
 * parts over the stored ones (a blank secret keeps the stored one), passphrases checked first.
 */
export async function saveNetworkOverrides(
  ctx: PlaceCaller,
  account: Pick<Account, "_id" | "orgId">,
  {
    entity,
    version,
    previous,
    config,
    update,
  }: {
    entity: { type: string; id: string; label: string };
    version: number;
    previous: StoredNetworkConfig;
    config: NetworkConfigInput;
    update: (next: StoredNetworkConfig) => Statement;
  },
) {
  const next = mergeSecrets(previous, config);
  assertPassphrases(ctx, next);
  const [result] = await ctx.db.batch([
    update(next),
    placeActivity(ctx, account, {
      action: "update",
      entityType: entity.type,
      entityId: entity.id,
      entityLabel: entity.label,
      // Secrets never enter the log: the diff is of what reads show.
      diff: diffOf(viewOf(previous), viewOf(next)),
    }),
  ]);
  assertWritten(result, ctx.t);
  return { version: version + 1, config: viewOf(next) };
}
