import { z } from "zod";
import { deviceBrand, deviceModel, deviceName, deviceNotes, deviceTags, deviceUid } from "@/schema/devices";
import { effectiveConfiguration } from "@/schema/effective-configuration";
import { viewOf } from "@/schema/network-config";
import type { D1Result } from "@/server/cloudflare";
import { findAccountNetworkConfig, listOrgAccounts } from "@/server/data/accounts";
import { activityStatement, deviceUpdateStatement, diffOf, listEntityActivity } from "@/server/data/activity-logs";
import {
  accountSeats,
  assignStatement,
  type Device,
  deviceFacets,
  deviceSorts,
  insertDeviceStatements,
  listDevices,
  placeOptions,
  retireStatement,
  rotateSecretStatement,
  updateDeviceStatements,
} from "@/server/data/devices";
import { firmwareDrift } from "@/server/data/firmware-drift";
import { firmwareHistory } from "@/server/data/firmware-history";
import { findLocationNetworkConfig } from "@/server/data/locations";
import { radioDeployments } from "@/server/data/radio-deployments";
import { listRules } from "@/server/data/rules";
import { findSiteNetworkConfig, listSiteOptions } from "@/server/data/sites";
import { accountSyncCounts } from "@/server/data/sync-snapshots";
import { desiredFirmware } from "@/server/devices/desired-firmware";
import { listedRevisions } from "@/server/fleet/listed-revisions";
import { closeRadios } from "@/server/fleet/live";
import { radioSync } from "@/server/fleet/radio-sync";
import { brandFilter, decodeCursor, encodeCursor, listFilterInput, newDeviceSecret, resolveFilter } from "../device-inputs";
import { deviceInScope, inventoryOrg, targetPlace } from "../device-scope";
import { assertWritten, isConstraintError } from "../network-levels";
import { refuse, refuseWith } from "../refusal";
import { accountInScope } from "../tenancy";
import { type ApiContext, procedureWith, router, signedInProcedure } from "../trpc";
import { deviceBulkProcedures } from "./devices-bulk";

const id = z.string().min(1).max(64);
const version = z.number().int().min(1);

type Caller = Pick<ApiContext, "db" | "t" | "env"> & { user: NonNullable<ApiContext["user"]> };

function publicDevice(device: Device) {
  return device;
}

const placeInput = { accountId: id.nullable(), siteId: id.nullable().default(null), locationId: id.nullable().default(null) };

/** The refusal of a seat-taking write that changed nothing: no free seat, saying how many are free. */
async function refuseSeats(ctx: Caller, accountId: string, needed = 1): Promise<never> {
  const seats = await accountSeats(ctx.db, accountId);
  if (seats.free === 0) return refuse(ctx, "PRECONDITION_FAILED", "devices.errors.noFreeSeats", "accountId");
  return refuseWith(
    ctx,
    "PRECONDITION_FAILED",
    "devices.errors.notEnoughSeats",
    { count: needed, free: seats.free, needed },
    "accountId",
  );
}

function assignmentOf(device: Pick<Device, "accountId" | "siteId" | "locationId">) {
  return { account: device.accountId, site: device.siteId, location: device.locationId };
}

export const devicesRouter = router({
  /** The inventory (an organization's, or one account's registry), a keyset page at a time. */
  list: procedureWith("view-devices-in-accounts")
    .input(
      z.object({
        orgId: id.optional(),
        accountId: id.optional(),
        filter: listFilterInput.default({ search: "", status: "active" }),
        sort: z.enum(deviceSorts).default("uid"),
        cursor: z.string().max(400).optional(),
        limit: z.number().int().min(1).max(1000).default(50),
      }),
    )
    .query(async ({ ctx, input }) => {
      const filter = await resolveFilter(ctx, input, input.filter, true);
      const page = await listDevices(ctx.db, filter, {
        sort: input.sort,
        after: decodeCursor(ctx, input.cursor),
        limit: input.limit,
      });
      const revisions = await listedRevisions(
        ctx.db,
        page.items.map((device) => device.uid),
        filter.deployments,
      );
      const items = page.items.map((device) => ({
        ...publicDevice(device),
        sync: device.sync,
        contact: device.contact,
        // Desired only where the sync state is known (one account's list), like the state itself.
        revisions: {
          desired: device.sync === null ? null : (revisions.get(device.uid)?.desired ?? null),
          reported: revisions.get(device.uid)?.reported ?? null,
        },
      }));
      return { items, next: encodeCursor(page.next), orgId: filter.orgId, statesKnown: filter.states !== null };
    }),

  /** Choices for the list's filters: models, firmware, and the accounts or sites to filter by. */
  filterOptions: procedureWith("view-devices-in-accounts")
    .input(z.object({ orgId: id.optional(), accountId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const filter = await resolveFilter(ctx, input, listFilterInput.parse({}));
      const [facets, sites, accounts] = await Promise.all([
        deviceFacets(ctx.db, filter),
        filter.scopeAccountId ? listSiteOptions(ctx.db, filter.scopeAccountId, 200) : Promise.resolve([]),
        // The organization's own accounts: its radios are assigned only there.
        listOrgAccounts(ctx.db, filter.orgId, 500),
      ]);
      return { ...facets, sites, accounts, orgId: filter.orgId };
    }),

  /** Where radios of an account can go: its sites and their locations. */
  places: procedureWith("view-devices-in-accounts")
    .input(z.object({ accountId: id }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      return placeOptions(ctx.db, account._id);
    }),

  /** One radio, its recent activity and (for its account) the seats; another tenant's uid is NOT_FOUND. */
  details: procedureWith("view-devices-in-accounts")
    .input(z.object({ uid: z.string().min(1).max(64), accountId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid, input.accountId);
      const activity = await listEntityActivity(ctx.db, "device", device.uid, 10);
      return { device: publicDevice(device), activity };
    }),

  /** Desired vs reported revision and the drift state (DESIGN §7), as the device protocol sees the radio. */
  revision: procedureWith("view-devices-in-accounts")
    .input(z.object({ uid: z.string().min(1).max(64), accountId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid, input.accountId);
      return radioSync(ctx.db, device.uid);
    }),

  /** The deployments the radio went through (its account's), newest first, with what it reported on each. */
  deployments: procedureWith("view-devices-in-accounts")
    .input(
      z.object({
        uid: z.string().min(1).max(64),
        accountId: id.optional(),
        before: z.number().int().min(1).optional(),
        limit: z.number().int().min(1).max(100).default(10),
      }),
    )
    .query(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid, input.accountId);
      if (!device.accountId) return { items: [], next: null };
      return radioDeployments(ctx.db, device.uid, device.accountId, { before: input.before ?? null, limit: input.limit });
    }),

  /** The firmware versions the radio reported, newest first (each change once: device_firmware_history). */
  firmwareHistory: procedureWith("view-devices-in-accounts")
    .input(
      z.object({
        uid: z.string().min(1).max(64),
        accountId: id.optional(),
        before: z.iso.datetime().optional(),
        limit: z.number().int().min(1).max(100).default(10),
      }),
    )
    .query(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid, input.accountId);
      return firmwareHistory(ctx.db, device.uid, { before: input.before ?? null, limit: input.limit });
    }),

  /**
   * The firmware the radio should run: the firmware deployment it follows (as its check-in
   * decides), its package, and the stage and progress the radio reported on it.
   */
  desiredFirmware: procedureWith("view-devices-in-accounts")
    .input(z.object({ uid: z.string().min(1).max(64), accountId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid, input.accountId);
      return { desired: await desiredFirmware(ctx.db, device.uid) };
    }),

  /**
   * Firmware drift: of the radios the account's newest firmware deployment holds, how many run
   * its package's version and how many another one (data/firmware-drift.ts).
   */
  firmwareDrift: procedureWith("view-devices-in-accounts")
    .input(z.object({ accountId: id }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      return firmwareDrift(ctx.db, account._id);
    }),

  /** Where each part of the radio's configuration comes from; network parts only with edit-network-config. */
  effectiveConfiguration: procedureWith("view-devices-in-accounts")
    .input(z.object({ uid: z.string().min(1).max(64), accountId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid, input.accountId);
      if (!device.accountId) return { assigned: false as const };
      const accountId = device.accountId;
      const [account, accountConfig, siteConfig, locationConfig, rules] = await Promise.all([
        accountInScope(ctx, accountId),
        findAccountNetworkConfig(ctx.db, accountId),
        device.siteId ? findSiteNetworkConfig(ctx.db, accountId, device.siteId) : Promise.resolve(null),
        device.locationId ? findLocationNetworkConfig(ctx.db, accountId, device.locationId) : Promise.resolve(null),
        listRules(ctx.db, { accountId, limit: 200 }),
      ]);
      const result = effectiveConfiguration({
        account: { id: account._id, name: account.name, networkConfig: viewOf(accountConfig) },
        site:
          device.siteId && siteConfig
            ? { id: device.siteId, name: device.siteName ?? "", networkConfig: viewOf(siteConfig) }
            : null,
        location:
          device.locationId && locationConfig
            ? { id: device.locationId, name: device.locationName ?? "", networkConfig: viewOf(locationConfig) }
            : null,
        rules: rules.items,
        device: { uid: device.uid, model: device.model, tags: device.tags, siteId: device.siteId, locationId: device.locationId },
      });
      const network = ctx.user.permissions["edit-network-config"] ? result.network : null;
      return { assigned: true as const, network, profiles: result.profiles, matchedRules: result.matchedRules };
    }),

  /** Registers a radio (optionally assigned); its secret is in the answer once and never again. */
  add: procedureWith("manage-devices")
    .input(
      z.object({
        orgId: id.optional(),
        uid: deviceUid,
        brand: deviceBrand,
        model: deviceModel,
        name: deviceName.default(""),
        tags: deviceTags.default([]),
        notes: deviceNotes.default(""),
        ...placeInput,
        accountId: id.nullable().default(null),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const orgId = await inventoryOrg(ctx, input.orgId);
      const brand = brandFilter(ctx);
      if (brand && input.brand.toLowerCase() !== brand.toLowerCase())
        refuse(ctx, "BAD_REQUEST", "devices.errors.brandNotAllowed", "brand");
      const { account, place } = await targetPlace(ctx, orgId, input);
      const { secret, hash } = await newDeviceSecret();
      let results: D1Result[];
      try {
        results = await ctx.db.batch([
          ...insertDeviceStatements(ctx.db, {
            uid: input.uid,
            orgId,
            ...place,
            brand: input.brand,
            model: input.model,
            name: input.name,
            tags: input.tags,
            notes: input.notes,
            secretHash: hash,
          }),
          activityStatement(ctx.db, {
            orgId,
            accountId: place.accountId,
            actor: ctx.user,
            action: "create",
            entityType: "device",
            entityId: input.uid,
            entityLabel: input.name || input.uid,
            diff: diffOf(null, { model: input.model, tags: input.tags, ...assignmentOf(place) }),
            deployable: place.accountId !== null,
          }),
        ]);
      } catch (error) {
        // The uid exists (here or in another tenant): the same words either way, no hint of where.
        if (isConstraintError(error, "UNIQUE") || String(error).includes("PRIMARY KEY"))
          refuse(ctx, "CONFLICT", "devices.errors.uidUnavailable", "uid");
        if (String(error).includes("seats exhausted") && account) return refuseSeats(ctx, account._id);
        throw error;
      }
      if (!results[0]?.meta.changes && account) return refuseSeats(ctx, account._id);
      const device = await deviceInScope(ctx, input.uid);
      return { device: publicDevice(device), secret };
    }),

  /** Name, model, tags and notes; a model or tag change of an assigned radio is a change to deploy. */
  update: procedureWith("manage-devices")
    .input(
      z.object({
        uid: z.string().min(1).max(64),
        version,
        name: deviceName,
        model: deviceModel,
        tags: deviceTags,
        notes: deviceNotes,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid);
      if (device.status === "retired") refuse(ctx, "PRECONDITION_FAILED", "devices.errors.retired");
      const before = { name: device.name, model: device.model, tags: device.tags, notes: device.notes };
      const after = { name: input.name, model: input.model, tags: input.tags, notes: input.notes };
      const deployable =
        device.accountId !== null && (device.model !== input.model || JSON.stringify(device.tags) !== JSON.stringify(input.tags));
      const [result] = await ctx.db.batch([
        ...updateDeviceStatements(ctx.db, { ...input, orgId: device.orgId }),
        activityStatement(ctx.db, {
          orgId: device.orgId,
          accountId: device.accountId,
          actor: ctx.user,
          action: "update",
          entityType: "device",
          entityId: device.uid,
          entityLabel: input.name || device.uid,
          diff: diffOf(before, after),
          deployable,
        }),
      ]);
      assertWritten(result, ctx.t);
      return publicDevice(await deviceInScope(ctx, device.uid));
    }),

  /** A new secret, shown once; the old one stops working at once. */
  rotateSecret: procedureWith("manage-devices")
    .input(z.object({ uid: z.string().min(1).max(64), version }))
    .mutation(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid);
      if (device.status === "retired") refuse(ctx, "PRECONDITION_FAILED", "devices.errors.retired");
      const { secret, hash } = await newDeviceSecret();
      const [result] = await ctx.db.batch([
        rotateSecretStatement(ctx.db, { uid: device.uid, orgId: device.orgId, version: input.version, secretHash: hash }),
        deviceUpdateStatement(ctx.db, device, ctx.user, { secret: { before: "•", after: "•" } }),
      ]);
      assertWritten(result, ctx.t);
      // The old secret stops working at once, live sockets included.
      await closeRadios(ctx.env, [device.uid]);
      return { secret, version: input.version + 1 };
    }),

  /** Retires a radio: its seat is freed and its place cleared; the row and its history stay. */
  retire: procedureWith("manage-devices")
    .input(z.object({ uid: z.string().min(1).max(64), version }))
    .mutation(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid);
      const [result] = await ctx.db.batch([
        retireStatement(ctx.db, { uid: device.uid, orgId: device.orgId, version: input.version }),
        deviceUpdateStatement(
          ctx.db,
          device,
          ctx.user,
          diffOf(
            { status: device.status, ...assignmentOf(device) },
            { status: "retired", account: null, site: null, location: null },
          ),
          device.accountId !== null,
        ),
      ]);
      assertWritten(result, ctx.t);
      await closeRadios(ctx.env, [device.uid]);
      return { ok: true as const };
    }),

  /**
   * Assigns a radio to an account (site, location) or back to the inventory: one conditional
   * statement takes the seat only while one is free; otherwise PRECONDITION_FAILED says how
   * many are free. A change of place is a change to deploy.
   */
  assign: procedureWith("manage-devices")
    .input(z.object({ uid: z.string().min(1).max(64), version, ...placeInput }))
    .mutation(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid);
      if (device.status === "retired") refuse(ctx, "PRECONDITION_FAILED", "devices.errors.retired");
      const { account, place } = await targetPlace(ctx, device.orgId, input);
      const entry = {
        orgId: device.orgId,
        actor: ctx.user,
        action: "update" as const,
        entityType: "device",
        entityId: device.uid,
        entityLabel: device.name || device.uid,
        diff: diffOf(assignmentOf(device), assignmentOf(place)),
      };
      const statements = [
        assignStatement(ctx.db, { ...place, uid: device.uid, orgId: device.orgId, version: input.version }),
        // Both accounts' logs see the move; each counts as a change to deploy in its account.
        activityStatement(ctx.db, { ...entry, accountId: place.accountId ?? device.accountId, deployable: true }),
      ];
      if (device.accountId && place.accountId && device.accountId !== place.accountId) {
        statements.push(activityStatement(ctx.db, { ...entry, accountId: device.accountId, deployable: true }));
      }
      let result: D1Result | undefined;
      try {
        [result] = await ctx.db.batch(statements);
      } catch (error) {
        if (String(error).includes("seats exhausted") && account) return refuseSeats(ctx, account._id);
        throw error;
      }
      if (!result?.meta.changes) {
        // Stale, or no seat: the seat answer only if the version still matches.
        const now = await deviceInScope(ctx, device.uid);
        if (now.version === input.version && account) {
          // The place changed meanwhile (refused on its field), else no seat.
          await targetPlace(ctx, device.orgId, place);
          return refuseSeats(ctx, account._id);
        }
        assertWritten(result, ctx.t);
      }
      // Its live socket belongs to its old account: it reconnects into the new one (or none).
      if (device.accountId !== place.accountId) await closeRadios(ctx.env, [device.uid]);
      return publicDevice(await deviceInScope(ctx, device.uid));
    }),

  /** The account home's counts (spec §7): total, up to date, pending, never seen. */
  getConfiguredDeviceCounts: signedInProcedure
    .input(z.object({ accountId: z.string().min(1).max(64) }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      // Every number is the sync and contact counts (schema/fleet/sync-state.ts), so the home,
      // the registry, the reports and the deployments never disagree.
      const counts = await accountSyncCounts(ctx.db, account._id);
      return {
        total: counts.total,
        upToDate: counts.sync.inSync,
        pending: counts.sync.pending,
        neverSeen: counts.contact.neverSeen,
        counts,
      };
    }),

  /** An account's seats: allocated, used by its radios, free. */
  seats: signedInProcedure.input(z.object({ accountId: id })).query(async ({ ctx, input }) => {
    const account = await accountInScope(ctx, input.accountId);
    return accountSeats(ctx.db, account._id);
  }),

  ...deviceBulkProcedures,
});

export type { Caller as DeviceCaller };
