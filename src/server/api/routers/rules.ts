import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { requiredText } from "@/schema/field-messages";
import { PROFILE_NAME_MAX } from "@/schema/profiles";
import { type RuleConditions, ruleConditions, ruleLimits } from "@/schema/rules";
import type { D1Result } from "@/server/cloudflare";
import type { Account } from "@/server/data/accounts";
import { activityStatement, diffOf } from "@/server/data/activity-logs";
import { listLocations } from "@/server/data/locations";
import { listProfileOptions, profilesOfAccount } from "@/server/data/profiles";
import {
  bumpRuleSetStatement,
  clearRuleProfilesStatement,
  countRules,
  deleteRuleStatements,
  ensureRuleSetStatement,
  findRule,
  insertRuleProfilesStatement,
  insertRuleStatement,
  listRules,
  placesOfAccount,
  type Rule,
  reorderStatements,
  ruleNameTaken,
  ruleOrder,
  updateRuleStatement,
} from "@/server/data/rules";
import { listSiteOptions } from "@/server/data/sites";
import { refuse } from "../refusal";
import { accountInScope } from "../tenancy";
import { type ApiContext, procedureWith, router, signedInProcedure } from "../trpc";

/*
 * An account's rules (DESIGN.md §3). Reading needs a session and the account in the caller's
 * tree; changing them needs edit-configurations. Every change is a deployable activity entry
 * in the same batch. Priorities stay dense (1…n); adding puts a rule last, deleting closes the
 * gap, and reordering names the rule-set version it was made on (CONFLICT when stale).
 */

const id = z.string().min(1).max(64);
const version = z.number().int().min(1);
const ruleFields = {
  name: requiredText("ruleName", PROFILE_NAME_MAX),
  enabled: z.boolean().default(true),
  conditions: ruleConditions.default({}),
  profileIds: z.array(id).max(ruleLimits.profiles, "validation.TooManyRuleProfiles").default([]),
};

type Caller = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

function conflict(ctx: Caller, key = "errors.staleEdit"): never {
  return refuse(ctx, "CONFLICT", key);
}

async function ruleInScope(ctx: Caller, ruleId: string): Promise<{ rule: Rule; account: Account }> {
  const rule = await findRule(ctx.db, ruleId);
  if (!rule) return refuse(ctx, "NOT_FOUND", "errors.ruleNotFound");
  try {
    return { rule, account: await accountInScope(ctx, rule.accountId) };
  } catch {
    return refuse(ctx, "NOT_FOUND", "errors.ruleNotFound");
  }
}

/**
 * A refusal of bad input at a path of the procedure's input, shaped like zod's (forms place it).
 * ZodRealError, not ZodError: only the former is an Error, which tRPC keeps as the cause.
 */
function badInput(ctx: Caller, path: PropertyKey[], key: string): never {
  throw new TRPCError({
    code: "BAD_REQUEST",
    message: String(ctx.t(key)),
    cause: new z.ZodRealError([{ code: "custom", path, message: key, input: undefined }]),
  });
}

/**
 * What the conditions and profile list name must belong to the account: its sites and
 * locations (a location inside the chosen sites, when sites are chosen), its profiles.
 */
async function checkReferences(ctx: Caller, accountId: string, conditions: RuleConditions, profileIds: string[]) {
  const siteIds = conditions.siteIds ?? [];
  const locationIds = conditions.locationIds ?? [];
  const places = await placesOfAccount(ctx.db, accountId, siteIds, locationIds);
  const knownSites = new Set(places.sites.map((site) => site.id));
  const missingSite = siteIds.findIndex((siteId) => !knownSites.has(siteId));
  if (missingSite >= 0) badInput(ctx, ["conditions", "siteIds", missingSite], "validation.SiteNotInAccount");
  const knownLocations = new Set(places.locations.map((location) => location.id));
  const missingLocation = locationIds.findIndex((locationId) => !knownLocations.has(locationId));
  if (missingLocation >= 0) badInput(ctx, ["conditions", "locationIds", missingLocation], "validation.LocationNotInAccount");
  if (siteIds.length > 0) {
    const outside = places.locations.find((location) => !knownSites.has(location.siteId));
    if (outside) badInput(ctx, ["conditions", "locationIds", locationIds.indexOf(outside.id)], "validation.LocationOutsideSites");
  }
  if (new Set(profileIds).size !== profileIds.length) {
    badInput(ctx, ["profileIds", profileIds.findIndex((p, i) => profileIds.indexOf(p) !== i)], "validation.ProfileRepeated");
  }
  const profiles = await profilesOfAccount(ctx.db, accountId, profileIds);
  const knownProfiles = new Set(profiles.map((profile) => profile.id));
  const missingProfile = profileIds.findIndex((profileId) => !knownProfiles.has(profileId));
  if (missingProfile >= 0) badInput(ctx, ["profileIds", missingProfile], "validation.ProfileNotInAccount");
  return profileIds.map((profileId) => profiles.find((p) => p.id === profileId)?.name ?? "");
}

function isConstraint(error: unknown, kind: "UNIQUE" | "FOREIGN KEY"): boolean {
  return error instanceof Error && error.message.includes(`${kind} constraint failed`);
}

/** A write that met a constraint: the name was taken meanwhile, or a profile went away. */
function constraintRefusal(ctx: Caller, error: unknown): never {
  if (isConstraint(error, "UNIQUE")) refuse(ctx, "BAD_REQUEST", "validation.RuleNameTaken", "name");
  if (isConstraint(error, "FOREIGN KEY")) conflict(ctx, "errors.ruleProfilesChanged");
  throw error;
}

/** The names of the sites and locations some rules' conditions name, by id, in one read. */
async function placeNames(ctx: Caller, accountId: string, ...conditions: RuleConditions[]): Promise<Map<string, string>> {
  const places = await placesOfAccount(
    ctx.db,
    accountId,
    conditions.flatMap((c) => c.siteIds ?? []),
    conditions.flatMap((c) => c.locationIds ?? []),
  );
  return new Map([...places.sites, ...places.locations].map((place) => [place.id, place.name]));
}

/** A rule as its log entry shows it: places and profiles by name, since ids mean nothing to a reader. */
function shown(
  rule: { name: string; enabled: boolean; conditions: RuleConditions },
  profiles: string[],
  names: Map<string, string>,
) {
  const byName = (ids: string[] | undefined) => ids?.map((placeId) => names.get(placeId) ?? placeId);
  const { siteIds, locationIds, ...others } = rule.conditions;
  const conditions = {
    ...(siteIds && { siteIds: byName(siteIds) }),
    ...(locationIds && { locationIds: byName(locationIds) }),
    ...others,
  };
  return { name: rule.name, enabled: rule.enabled, conditions, profiles };
}

export const rulesRouter = router({
  /** One page of the account's rules, highest priority first, with the rule-set version to reorder on. */
  list: signedInProcedure
    .input(
      z.object({
        accountId: id,
        page: z.number().int().min(1).max(100_000).default(1),
        pageSize: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(async ({ ctx, input }) => {
      await accountInScope(ctx, input.accountId);
      const { items, total, setVersion } = await listRules(ctx.db, {
        accountId: input.accountId,
        limit: input.pageSize,
        page: input.page,
      });
      return { items, total, setVersion, page: input.page, pageSize: input.pageSize };
    }),

  details: signedInProcedure.input(z.object({ id })).query(async ({ ctx, input }) => (await ruleInScope(ctx, input.id)).rule),

  /**
   * What a rule may name, for its form: the account's sites, locations and profiles (up to 200
   * each), and the names of the places among `placeIds` that still exist (a rule may name one deleted since).
   */
  options: signedInProcedure
    .input(
      z.object({
        accountId: id,
        placeIds: z
          .array(id)
          .max(2 * ruleLimits.places)
          .default([]),
      }),
    )
    .query(async ({ ctx, input }) => {
      await accountInScope(ctx, input.accountId);
      const [sites, locations, profiles, named] = await Promise.all([
        listSiteOptions(ctx.db, input.accountId, 200),
        listLocations(ctx.db, { accountId: input.accountId, limit: 200 }),
        listProfileOptions(ctx.db, input.accountId),
        placesOfAccount(ctx.db, input.accountId, input.placeIds, input.placeIds),
      ]);
      return {
        sites,
        locations: locations.items.map((l) => ({ id: l._id, name: l.name, siteId: l.siteId, siteName: l.siteName })),
        profiles,
        named: [
          ...named.sites.map((site) => ({ ...site, kind: "site" as const })),
          ...named.locations.map(({ id: placeId, name }) => ({ id: placeId, name, kind: "location" as const })),
        ],
      };
    }),

  add: procedureWith("edit-configurations")
    .input(z.object({ accountId: id, ...ruleFields }))
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      if ((await countRules(ctx.db, account._id)) >= ruleLimits.rules) refuse(ctx, "BAD_REQUEST", "validation.TooManyRules");
      if (await ruleNameTaken(ctx.db, account._id, input.name)) refuse(ctx, "BAD_REQUEST", "validation.RuleNameTaken", "name");
      const profileNames = await checkReferences(ctx, account._id, input.conditions, input.profileIds);
      const names = await placeNames(ctx, account._id, input.conditions);
      const { id: ruleId, statement } = insertRuleStatement(ctx.db, {
        ...input,
        accountId: account._id,
        limit: ruleLimits.rules,
      });
      let results: D1Result[];
      try {
        results = await ctx.db.batch([
          ensureRuleSetStatement(ctx.db, account._id),
          statement,
          activityStatement(ctx.db, {
            orgId: account.orgId,
            accountId: account._id,
            actor: ctx.user,
            action: "create",
            entityType: "rule",
            entityId: ruleId,
            entityLabel: input.name,
            diff: diffOf(null, shown(input, profileNames, names)),
            deployable: true,
          }),
          insertRuleProfilesStatement(ctx.db, ruleId, input.profileIds),
          bumpRuleSetStatement(ctx.db, account._id),
        ]);
      } catch (error) {
        // The rule row was not written (the limit was reached meanwhile), so its profiles had nothing to point at.
        if (isConstraint(error, "FOREIGN KEY") && (await countRules(ctx.db, account._id)) >= ruleLimits.rules) {
          refuse(ctx, "BAD_REQUEST", "validation.TooManyRules");
        }
        return constraintRefusal(ctx, error);
      }
      if (!results[1]?.meta.changes) refuse(ctx, "BAD_REQUEST", "validation.TooManyRules");
      return (await ruleInScope(ctx, ruleId)).rule;
    }),

  update: procedureWith("edit-configurations")
    .input(z.object({ id, version, ...ruleFields }))
    .mutation(async ({ ctx, input }) => {
      const { rule, account } = await ruleInScope(ctx, input.id);
      if (rule.version !== input.version) conflict(ctx);
      if (await ruleNameTaken(ctx.db, account._id, input.name, rule.id))
        refuse(ctx, "BAD_REQUEST", "validation.RuleNameTaken", "name");
      const profileNames = await checkReferences(ctx, account._id, input.conditions, input.profileIds);
      const names = await placeNames(ctx, account._id, rule.conditions, input.conditions);
      let results: D1Result[];
      try {
        // The profile list is rewritten only while the rule is at the edited version; the update comes last.
        results = await ctx.db.batch([
          clearRuleProfilesStatement(ctx.db, rule.id, input.version),
          insertRuleProfilesStatement(ctx.db, rule.id, input.profileIds, input.version),
          updateRuleStatement(ctx.db, { ...input, id: rule.id }),
          activityStatement(ctx.db, {
            orgId: account.orgId,
            accountId: account._id,
            actor: ctx.user,
            action: "update",
            entityType: "rule",
            entityId: rule.id,
            entityLabel: input.name,
            diff: diffOf(
              shown(
                rule,
                rule.profiles.map((p) => p.name),
                names,
              ),
              shown(input, profileNames, names),
            ),
            deployable: true,
          }),
        ]);
      } catch (error) {
        return constraintRefusal(ctx, error);
      }
      if (!results[2]?.meta.changes) conflict(ctx);
      return (await ruleInScope(ctx, rule.id)).rule;
    }),

  /** Deletes a rule at its version; the rules below move up one. */
  delete: procedureWith("edit-configurations")
    .input(z.object({ id, version }))
    .mutation(async ({ ctx, input }) => {
      // A reorder or another deletion may slip in between reading the order and writing: read again.
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const { rule, account } = await ruleInScope(ctx, input.id);
        const names = await placeNames(ctx, account._id, rule.conditions);
        if (rule.version !== input.version) conflict(ctx);
        const { setVersion } = await ruleOrder(ctx.db, account._id);
        const { deletion, closeGap } = deleteRuleStatements(ctx.db, {
          accountId: account._id,
          id: rule.id,
          version: input.version,
          priority: rule.priority,
          setVersion,
        });
        const [result] = await ctx.db.batch([
          deletion,
          activityStatement(ctx.db, {
            orgId: account.orgId,
            accountId: account._id,
            actor: ctx.user,
            action: "delete",
            entityType: "rule",
            entityId: rule.id,
            entityLabel: rule.name,
            diff: diffOf(
              shown(
                rule,
                rule.profiles.map((p) => p.name),
                names,
              ),
              null,
            ),
            deployable: true,
          }),
          ...closeGap,
        ]);
        if (result?.meta.changes) return { ok: true as const };
      }
      return conflict(ctx);
    }),

  /**
   * A new order for the account's rules, made on the rule-set version the caller saw: either
   * every rule's id in the new order, or one rule moved up or down by one place.
   */
  reorder: procedureWith("edit-configurations")
    .input(
      z
        .object({
          accountId: id,
          version,
          order: z.array(id).max(ruleLimits.rules).optional(),
          move: z.object({ id, direction: z.enum(["up", "down"]) }).optional(),
        })
        .refine((input) => (input.order === undefined) !== (input.move === undefined), "validation.OrderOrMove"),
    )
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const current = await ruleOrder(ctx.db, account._id);
      if (current.setVersion !== input.version) conflict(ctx, "errors.ruleOrderChanged");
      const ids = current.rules.map((rule) => rule.id);
      let order: string[];
      if (input.order) {
        const same = input.order.length === ids.length && new Set(input.order).size === ids.length;
        if (!same || input.order.some((ruleId) => !ids.includes(ruleId)))
          refuse(ctx, "BAD_REQUEST", "validation.OrderIncomplete");
        order = input.order;
      } else {
        const move = input.move ?? { id: "", direction: "up" as const };
        const from = ids.indexOf(move.id);
        if (from < 0) refuse(ctx, "NOT_FOUND", "errors.ruleNotFound");
        const to = move.direction === "up" ? from - 1 : from + 1;
        if (to < 0 || to >= ids.length)
          refuse(ctx, "BAD_REQUEST", move.direction === "up" ? "validation.RuleAlreadyFirst" : "validation.RuleAlreadyLast");
        order = [...ids];
        [order[from], order[to]] = [order[to] ?? "", order[from] ?? ""];
      }
      const names = new Map(current.rules.map((rule) => [rule.id, rule.name]));
      const results = await ctx.db.batch([
        ...reorderStatements(ctx.db, { accountId: account._id, setVersion: input.version, order }),
        activityStatement(ctx.db, {
          orgId: account.orgId,
          accountId: account._id,
          actor: ctx.user,
          action: "update",
          entityType: "rule-order",
          entityId: account._id,
          entityLabel: account.name,
          diff: diffOf(
            { order: current.rules.map((rule) => rule.name) },
            { order: order.map((ruleId) => names.get(ruleId) ?? "") },
          ),
          deployable: true,
        }),
      ]);
      if (!results[2]?.meta.changes) conflict(ctx, "errors.ruleOrderChanged");
      return {
        setVersion: input.version + 1,
        order: order.map((ruleId, index) => ({ id: ruleId, priority: index + 1 })),
      };
    }),
});
