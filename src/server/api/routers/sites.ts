import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { requiredText } from "@/schema/field-messages";
import { networkConfigInput } from "@/schema/network-config";
import { plainText, searchText } from "@/schema/text";
import type { D1Result } from "@/server/cloudflare";
import { type Account, findAccountNetworkConfig } from "@/server/data/accounts";
import { diffOf } from "@/server/data/activity-logs";
import { unplaceActivityStatement, unplaceFromSiteStatement } from "@/server/data/devices";
import { deleteLocationWithSiteStatement, listLocationsOfSite } from "@/server/data/locations";
import { NAMED_SORT_ARITY } from "@/server/data/named-list";
import {
  deleteSiteStatement,
  findSite,
  findSiteNetworkConfig,
  insertSiteStatement,
  listSites,
  type Site,
  siteNameTaken,
  updateSiteNetworkConfigStatement,
  updateSiteStatement,
} from "@/server/data/sites";
import { cursorOf, pageInput } from "../list-input";
import { assertWritten, isConstraintError, level, networkAtLevel } from "../network-levels";
import { listed, type PlaceCaller, placeActivity, placeInScope, saveNetworkOverrides } from "../place-changes";
import { refuse } from "../refusal";
import { accountInScope } from "../tenancy";
import { procedureWith, router, signedInProcedure } from "../trpc";

const id = z.string().min(1).max(64);
const version = z.number().int().min(1);
const name = requiredText("siteName", 120);
const address = plainText(300, "validation.AddressTooLong");
/** An IANA time zone, or null for the account's. */
const timezone = z
  .string()
  .min(1, "validation.TimezoneInvalid")
  .max(64, "validation.TimezoneInvalid")
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "validation.TimezoneInvalid")
  .nullable();

type Caller = PlaceCaller;

function general(site: Pick<Site, "name" | "address" | "timezone">) {
  return { name: site.name, address: site.address, timezone: site.timezone };
}

/** The account (in the caller's tree) and its site; a site of another account is NOT_FOUND, as if it did not exist. */
export async function siteInScope(ctx: Caller, accountId: string, siteId: string): Promise<{ account: Account; site: Site }> {
  const { account, place } = await placeInScope(
    ctx,
    accountId,
    (owner) => findSite(ctx.db, owner, siteId),
    "errors.siteNotFound",
  );
  return { account, site: place };
}

async function assertNameFree(ctx: Caller, accountId: string, siteName: string, exceptId: string | null = null) {
  if (await siteNameTaken(ctx.db, accountId, siteName, exceptId)) refuse(ctx, "CONFLICT", "sites.nameTaken", "name");
}

export const sitesRouter = router({
  list: signedInProcedure
    .input(
      z.object({
        accountId: id,
        search: searchText.default(""),
        sort: z.enum(["name", "-name", "updated", "-updated"]).default("name"),
        ...pageInput,
      }),
    )
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const page = await listSites(ctx.db, {
        accountId: account._id,
        search: input.search,
        sort: input.sort,
        limit: input.pageSize,
        cursor: cursorOf(input, NAMED_SORT_ARITY),
      });
      return { ...page, items: page.items.map(listed), pageSize: input.pageSize };
    }),

  details: signedInProcedure
    .input(z.object({ accountId: id, id }))
    .query(async ({ ctx, input }) => listed((await siteInScope(ctx, input.accountId, input.id)).site)),

  add: procedureWith("edit-configurations")
    .input(z.object({ accountId: id, name, address: address.default(""), timezone: timezone.default(null) }))
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      await assertNameFree(ctx, account._id, input.name);
      const { id: siteId, statement } = insertSiteStatement(ctx.db, { ...input, accountId: account._id });
      try {
        await ctx.db.batch([
          statement,
          placeActivity(ctx, account, {
            action: "create",
            entityType: "site",
            entityId: siteId,
            entityLabel: input.name,
            diff: diffOf(null, general(input)),
          }),
        ]);
      } catch (error) {
        // Someone took the name between the check and the write.
        if (isConstraintError(error, "UNIQUE")) refuse(ctx, "CONFLICT", "sites.nameTaken", "name");
        throw error;
      }
      return listed((await siteInScope(ctx, account._id, siteId)).site);
    }),

  update: procedureWith("edit-configurations")
    .input(z.object({ accountId: id, id, version, name, address, timezone }))
    .mutation(async ({ ctx, input }) => {
      const { account, site } = await siteInScope(ctx, input.accountId, input.id);
      await assertNameFree(ctx, account._id, input.name, site._id);
      let result: D1Result | undefined;
      try {
        [result] = await ctx.db.batch([
          updateSiteStatement(ctx.db, { ...input, accountId: account._id }),
          placeActivity(ctx, account, {
            action: "update",
            entityType: "site",
            entityId: site._id,
            entityLabel: input.name,
            diff: diffOf(general(site), general(input)),
          }),
        ]);
      } catch (error) {
        if (isConstraintError(error, "UNIQUE")) refuse(ctx, "CONFLICT", "sites.nameTaken", "name");
        throw error;
      }
      assertWritten(result, ctx.t);
      return listed((await siteInScope(ctx, account._id, site._id)).site);
    }),

  /**
   * Deletes the site and every location in it, each with its own activity entry, in one batch.
   * The locations go only if the site is still at `version`; a location added meanwhile makes
   * the whole batch fail (nothing is left pointing at a deleted site), answered as CONFLICT.
   * Radios at the site (or its locations) are unassigned from it in the same batch.
   */
  delete: procedureWith("edit-configurations")
    .input(z.object({ accountId: id, id, version }))
    .mutation(async ({ ctx, input }) => {
      const { account, site } = await siteInScope(ctx, input.accountId, input.id);
      const locations = await listLocationsOfSite(ctx.db, account._id, site._id);
      // Radios placed there lose their place first (the foreign keys would refuse the deletion).
      const statements = [
        unplaceActivityStatement(ctx.db, {
          accountId: account._id,
          place: { kind: "site", id: site._id, name: site.name, version: input.version },
          actor: ctx.user,
        }),
        unplaceFromSiteStatement(ctx.db, { accountId: account._id, siteId: site._id, siteVersion: input.version }),
      ];
      statements.push(
        ...locations.flatMap((location) => [
          deleteLocationWithSiteStatement(ctx.db, { id: location.id, siteId: site._id, siteVersion: input.version }),
          placeActivity(ctx, account, {
            action: "delete",
            entityType: "location",
            entityId: location.id,
            entityLabel: location.name,
            diff: diffOf({ site: site.name, name: location.name, description: location.description }, null),
          }),
        ]),
      );
      statements.push(
        deleteSiteStatement(ctx.db, { accountId: account._id, id: site._id, version: input.version }),
        placeActivity(ctx, account, {
          action: "delete",
          entityType: "site",
          entityId: site._id,
          entityLabel: site.name,
          diff: diffOf(general(site), null),
        }),
      );
      let results: D1Result[];
      try {
        results = await ctx.db.batch(statements);
      } catch (error) {
        if (isConstraintError(error, "FOREIGN KEY"))
          throw new TRPCError({ code: "CONFLICT", message: String(ctx.t("errors.staleEdit")) });
        throw error;
      }
      assertWritten(results[results.length - 2], ctx.t);
      return { ok: true as const, name: site.name, deletedLocations: locations.length };
    }),

  /** The site's own overrides, what it inherits from the account and the result, with their sources. */
  networkConfig: procedureWith("edit-network-config")
    .input(z.object({ accountId: id, id }))
    .query(async ({ ctx, input }) => {
      const { account, site } = await siteInScope(ctx, input.accountId, input.id);
      const [accountConfig, own] = await Promise.all([
        findAccountNetworkConfig(ctx.db, account._id),
        findSiteNetworkConfig(ctx.db, account._id, site._id),
      ]);
      return networkAtLevel(site.version, [level("account", accountConfig)], level("site", own));
    }),

  /** Stores the parts the site overrides (absent parts inherit); a blank secret keeps the stored one. */
  updateNetworkConfig: procedureWith("edit-network-config")
    .input(z.object({ accountId: id, id, version, config: networkConfigInput }))
    .mutation(async ({ ctx, input }) => {
      const { account, site } = await siteInScope(ctx, input.accountId, input.id);
      return saveNetworkOverrides(ctx, account, {
        entity: { type: "site", id: site._id, label: site.name },
        version: input.version,
        previous: await findSiteNetworkConfig(ctx.db, account._id, site._id),
        config: input.config,
        update: (config) =>
          updateSiteNetworkConfigStatement(ctx.db, { accountId: account._id, id: site._id, version: input.version, config }),
      });
    }),
});
