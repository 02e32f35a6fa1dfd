import { z } from "zod";
import { chosenId, requiredText } from "@/schema/field-messages";
import { networkConfigInput, type StoredNetworkConfig, viewOf } from "@/schema/network-config";
import { type LevelConfig, mergeLevels } from "@/schema/network-inheritance";
import { multilineText, searchText } from "@/schema/text";
import type { D1Result } from "@/server/cloudflare";
import { type Account, findAccountNetworkConfig } from "@/server/data/accounts";
import { diffOf } from "@/server/data/activity-logs";
import { followLocationStatement, unplaceActivityStatement, unplaceFromLocationStatement } from "@/server/data/devices";
import {
  deleteLocationStatement,
  findLocation,
  findLocationNetworkConfig,
  insertLocationStatement,
  type Location,
  listLocations,
  locationNameTaken,
  updateLocationNetworkConfigStatement,
  updateLocationStatement,
} from "@/server/data/locations";
import { NAMED_SORT_ARITY } from "@/server/data/named-list";
import { findSite, findSiteNetworkConfig, listSiteOptions } from "@/server/data/sites";
import { cursorOf, pageInput } from "../list-input";
import { assertWritten, isConstraintError, level, networkAtLevel } from "../network-levels";
import { listed, type PlaceCaller, placeActivity, placeInScope, saveNetworkOverrides } from "../place-changes";
import { refuse } from "../refusal";
import { accountInScope } from "../tenancy";
import { procedureWith, router, signedInProcedure } from "../trpc";
import { siteInScope } from "./sites";

const id = z.string().min(1).max(64);
const version = z.number().int().min(1);
const name = requiredText("locationName", 120);
const description = multilineText(500, "validation.DescriptionTooLong");
const siteId = chosenId("siteId");

/** How many sites a site picker offers (by name); an account with more picks from the site's own Locations tab. */
export const SITE_OPTIONS_LIMIT = 1000;

type Caller = PlaceCaller;

function general(location: Pick<Location, "siteName" | "name" | "description">) {
  return { site: location.siteName, name: location.name, description: location.description };
}

/** The account and its location; a location of another account is NOT_FOUND, as if it did not exist. */
async function locationInScope(
  ctx: Caller,
  accountId: string,
  locationId: string,
): Promise<{ account: Account; location: Location }> {
  const { account, place } = await placeInScope(
    ctx,
    accountId,
    (owner) => findLocation(ctx.db, owner, locationId),
    "errors.locationNotFound",
  );
  return { account, location: place };
}

/** The site a location goes in must be one of the account's; the field says so when it is not. */
async function siteForLocation(ctx: Caller, accountId: string, id: string) {
  const site = await findSite(ctx.db, accountId, id);
  return site ?? refuse(ctx, "NOT_FOUND", "errors.siteNotFound", "siteId");
}

async function assertNameFree(ctx: Caller, site: string, locationName: string, exceptId: string | null = null) {
  if (await locationNameTaken(ctx.db, site, locationName, exceptId)) refuse(ctx, "CONFLICT", "locations.nameTaken", "name");
}

/** Account → site → location stored configs (with secrets), for merging. */
async function storedLevels(ctx: Caller, accountId: string, siteIdOf: string | null, locationId: string | null) {
  const levels: LevelConfig<StoredNetworkConfig>[] = [level("account", await findAccountNetworkConfig(ctx.db, accountId))];
  if (siteIdOf) levels.push(level("site", await findSiteNetworkConfig(ctx.db, accountId, siteIdOf)));
  if (locationId) levels.push(level("location", await findLocationNetworkConfig(ctx.db, accountId, locationId)));
  return levels;
}

export const locationsRouter = router({
  /** One page of the account's locations, of one site when `siteId` is given. */
  list: signedInProcedure
    .input(
      z.object({
        accountId: id,
        siteId: id.optional(),
        search: searchText.default(""),
        sort: z.enum(["name", "-name", "updated", "-updated"]).default("name"),
        ...pageInput,
      }),
    )
    .query(async ({ ctx, input }) => {
      const account = input.siteId
        ? (await siteInScope(ctx, input.accountId, input.siteId)).account
        : await accountInScope(ctx, input.accountId);
      const page = await listLocations(ctx.db, {
        accountId: account._id,
        siteId: input.siteId ?? null,
        search: input.search,
        sort: input.sort,
        limit: input.pageSize,
        cursor: cursorOf(input, NAMED_SORT_ARITY),
      });
      return { ...page, items: page.items.map(listed), pageSize: input.pageSize };
    }),

  details: signedInProcedure
    .input(z.object({ accountId: id, id }))
    .query(async ({ ctx, input }) => listed((await locationInScope(ctx, input.accountId, input.id)).location)),

  /** The sites a location may be put in, by name (at most SITE_OPTIONS_LIMIT). */
  siteOptions: signedInProcedure.input(z.object({ accountId: id })).query(async ({ ctx, input }) => {
    const account = await accountInScope(ctx, input.accountId);
    const sites = await listSiteOptions(ctx.db, account._id, SITE_OPTIONS_LIMIT);
    return sites.map((site) => ({ value: site.id, label: site.name }));
  }),

  add: procedureWith("edit-configurations")
    .input(z.object({ accountId: id, siteId, name, description: description.default("") }))
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const site = await siteForLocation(ctx, account._id, input.siteId);
      await assertNameFree(ctx, site._id, input.name);
      const { id: locationId, statement } = insertLocationStatement(ctx.db, { ...input, accountId: account._id });
      try {
        await ctx.db.batch([
          statement,
          placeActivity(ctx, account, {
            action: "create",
            entityType: "location",
            entityId: locationId,
            entityLabel: input.name,
            diff: diffOf(null, general({ ...input, siteName: site.name })),
          }),
        ]);
      } catch (error) {
        if (isConstraintError(error, "UNIQUE")) refuse(ctx, "CONFLICT", "locations.nameTaken", "name");
        // The site was deleted between the check and the write.
        if (isConstraintError(error, "FOREIGN KEY")) refuse(ctx, "NOT_FOUND", "errors.siteNotFound", "siteId");
        throw error;
      }
      return listed((await locationInScope(ctx, account._id, locationId)).location);
    }),

  /** Changes name, description and site (a location may move to another site of the account). */
  update: procedureWith("edit-configurations")
    .input(z.object({ accountId: id, id, version, siteId, name, description }))
    .mutation(async ({ ctx, input }) => {
      const { account, location } = await locationInScope(ctx, input.accountId, input.id);
      const site = await siteForLocation(ctx, account._id, input.siteId);
      await assertNameFree(ctx, site._id, input.name, location._id);
      let result: D1Result | undefined;
      try {
        [, result] = await ctx.db.batch([
          // Its radios go with it to the new site (a radio's location is always of its site).
          followLocationStatement(ctx.db, {
            accountId: account._id,
            locationId: location._id,
            locationVersion: input.version,
            siteId: site._id,
          }),
          updateLocationStatement(ctx.db, { ...input, accountId: account._id }),
          placeActivity(ctx, account, {
            action: "update",
            entityType: "location",
            entityId: location._id,
            entityLabel: input.name,
            diff: diffOf(general(location), general({ ...input, siteName: site.name })),
          }),
        ]);
      } catch (error) {
        if (isConstraintError(error, "UNIQUE")) refuse(ctx, "CONFLICT", "locations.nameTaken", "name");
        if (isConstraintError(error, "FOREIGN KEY")) refuse(ctx, "NOT_FOUND", "errors.siteNotFound", "siteId");
        throw error;
      }
      assertWritten(result, ctx.t);
      return listed((await locationInScope(ctx, account._id, location._id)).location);
    }),

  delete: procedureWith("edit-configurations")
    .input(z.object({ accountId: id, id, version }))
    .mutation(async ({ ctx, input }) => {
      const { account, location } = await locationInScope(ctx, input.accountId, input.id);
      // Radios at the location stay at its site without a location, in the same batch.
      const [, , result] = await ctx.db.batch([
        unplaceActivityStatement(ctx.db, {
          accountId: account._id,
          place: { kind: "location", id: location._id, name: location.name, version: input.version },
          actor: ctx.user,
        }),
        unplaceFromLocationStatement(ctx.db, {
          accountId: account._id,
          locationId: location._id,
          locationVersion: input.version,
        }),
        deleteLocationStatement(ctx.db, { accountId: account._id, id: location._id, version: input.version }),
        placeActivity(ctx, account, {
          action: "delete",
          entityType: "location",
          entityId: location._id,
          entityLabel: location.name,
          diff: diffOf(general(location), null),
        }),
      ]);
      assertWritten(result, ctx.t);
      return { ok: true as const, siteId: location.siteId, name: location.name };
    }),

  /** The location's own overrides, what it inherits (account, then site) and the result, with their sources. */
  networkConfig: procedureWith("edit-network-config")
    .input(z.object({ accountId: id, id }))
    .query(async ({ ctx, input }) => {
      const { account, location } = await locationInScope(ctx, input.accountId, input.id);
      const [accountConfig, siteConfig, own] = await Promise.all([
        findAccountNetworkConfig(ctx.db, account._id),
        findSiteNetworkConfig(ctx.db, account._id, location.siteId),
        findLocationNetworkConfig(ctx.db, account._id, location._id),
      ]);
      return networkAtLevel(
        location.version,
        [level("account", accountConfig), level("site", siteConfig)],
        level("location", own),
      );
    }),

  updateNetworkConfig: procedureWith("edit-network-config")
    .input(z.object({ accountId: id, id, version, config: networkConfigInput }))
    .mutation(async ({ ctx, input }) => {
      const { account, location } = await locationInScope(ctx, input.accountId, input.id);
      return saveNetworkOverrides(ctx, account, {
        entity: { type: "location", id: location._id, label: location.name },
        version: input.version,
        previous: await findLocationNetworkConfig(ctx.db, account._id, location._id),
        config: input.config,
        update: (config) =>
          updateLocationNetworkConfigStatement(ctx.db, {
            accountId: account._id,
            id: location._id,
            version: input.version,
            config,
          }),
      });
    }),

  /**
   * The network settings a device at this place gets: account → site → location merged part by
   * part, each part with the level it comes from. A location implies its site; naming a site
   * that is not the location's is NOT_FOUND.
   */
  effectiveNetworkConfig: procedureWith("edit-network-config")
    .input(z.object({ accountId: id, siteId: id.optional(), locationId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      let site = input.siteId ?? null;
      if (input.locationId) {
        const { location } = await locationInScope(ctx, account._id, input.locationId);
        if (site && site !== location.siteId) refuse(ctx, "NOT_FOUND", "errors.locationNotFound");
        site = location.siteId;
      } else if (site) {
        await siteInScope(ctx, account._id, site);
      }
      const levels = await storedLevels(ctx, account._id, site, input.locationId ?? null);
      return mergeLevels(levels.map((entry) => ({ level: entry.level, config: viewOf(entry.config) })));
    }),
});
