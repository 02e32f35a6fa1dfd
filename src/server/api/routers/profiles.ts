import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { PROFILES_PER_TYPE, profileName, profileTypes, typedSettings } from "@/schema/profiles";
import { searchText } from "@/schema/text";
import type { D1Result } from "@/server/cloudflare";
import { activityStatement, diffOf } from "@/server/data/activity-logs";
import {
  countProfilesOfType,
  deleteProfileStatement,
  findProfile,
  insertProfileStatement,
  listProfiles,
  type Profile,
  type ProfileScope,
  profileNameTaken,
  profileSortArity,
  updateProfileStatement,
} from "@/server/data/profiles";
import { detachProfileStatements, findRule, rulesUsingProfile } from "@/server/data/rules";
import { cursorOf, pageInput } from "../list-input";
import { refuse } from "../refusal";
import { accountInScope, assertOrganizationInScope } from "../tenancy";
import { type ApiContext, procedureWith, router, signedInProcedure } from "../trpc";

/*
 * Profiles of an account (edit-configurations to change them: they reach the radios through
 * the account's rules, so every change is a deployable activity entry), and organization-wide
 * templates (manage-devices, under /devices). Templates reach no radio by themselves: their
 * entries are not deployable; an account profile can start from one (a copy, not a link).
 * Reading needs a session and the account or organization in the caller's tree.
 */

const id = z.string().min(1).max(64);
const version = z.number().int().min(1);
const sort = z.enum(["name", "-name", "type", "-type", "updated", "-updated"]);

type Caller = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

function notFound(ctx: Caller): never {
  return refuse(ctx, "NOT_FOUND", "errors.profileNotFound");
}

/** A profile the caller may see: its account, or its organization for a template, in their tree. */
async function profileInScope(ctx: Caller, profileId: string): Promise<Profile> {
  const profile = await findProfile(ctx.db, profileId);
  if (!profile) return notFound(ctx);
  try {
    if (profile.accountId) await accountInScope(ctx, profile.accountId);
    else await assertOrganizationInScope(ctx, profile.orgId);
  } catch {
    return notFound(ctx);
  }
  return profile;
}

/** An account's profile (a template id is no account profile here, and the other way round). */
async function ofKind(ctx: Caller, profileId: string, kind: "account" | "template"): Promise<Profile> {
  const profile = await profileInScope(ctx, profileId);
  if ((profile.accountId === null) !== (kind === "template")) return notFound(ctx);
  return profile;
}

function assertWritten(result: D1Result | undefined, ctx: Caller) {
  if (!result?.meta.changes) throw new TRPCError({ code: "CONFLICT", message: String(ctx.t("errors.staleEdit")) });
}

function isConstraint(error: unknown, kind: "UNIQUE" | "FOREIGN KEY"): boolean {
  return error instanceof Error && error.message.includes(`${kind} constraint failed`);
}

function shown(profile: Pick<Profile, "name" | "type" | "settings">) {
  return { name: profile.name, type: profile.type, settings: profile.settings };
}

type Typed = z.infer<typeof typedSettings>;

/** Adds a profile to a scope: within the per-type limit, under a name free in that scope. */
async function createProfile(ctx: Caller, where: { orgId: string; accountId: string | null }, input: Typed & { name: string }) {
  const scope: ProfileScope = where.accountId ? { accountId: where.accountId } : { orgId: where.orgId };
  if ((await countProfilesOfType(ctx.db, scope, input.type)) >= PROFILES_PER_TYPE) {
    refuse(ctx, "BAD_REQUEST", "validation.TooManyProfiles");
  }
  if (await profileNameTaken(ctx.db, scope, input.type, input.name))
    refuse(ctx, "BAD_REQUEST", "validation.ProfileNameTaken", "name");
  const { id: profileId, statement } = insertProfileStatement(ctx.db, { ...where, ...input });
  try {
    await ctx.db.batch([
      statement,
      activityStatement(ctx.db, {
        orgId: where.orgId,
        accountId: where.accountId,
        actor: ctx.user,
        action: "create",
        entityType: where.accountId ? "profile" : "profile-template",
        entityId: profileId,
        entityLabel: input.name,
        diff: diffOf(null, shown(input)),
        deployable: where.accountId !== null,
      }),
    ]);
  } catch (error) {
    // Someone took the name between the check and the write.
    if (isConstraint(error, "UNIQUE")) refuse(ctx, "BAD_REQUEST", "validation.ProfileNameTaken", "name");
    throw error;
  }
  return profileInScope(ctx, profileId);
}

/** Saves a profile's name and settings at the version they were edited on; its type stays. */
async function changeProfile(ctx: Caller, before: Profile, input: Typed & { name: string; version: number }) {
  if (input.type !== before.type) refuse(ctx, "BAD_REQUEST", "validation.ProfileTypeFixed");
  const scope: ProfileScope = before.accountId ? { accountId: before.accountId } : { orgId: before.orgId };
  if (await profileNameTaken(ctx.db, scope, before.type, input.name, before.id)) {
    refuse(ctx, "BAD_REQUEST", "validation.ProfileNameTaken", "name");
  }
  let result: D1Result | undefined;
  try {
    [result] = await ctx.db.batch([
      updateProfileStatement(ctx.db, { id: before.id, version: input.version, name: input.name, settings: input.settings }),
      activityStatement(ctx.db, {
        orgId: before.orgId,
        accountId: before.accountId,
        actor: ctx.user,
        action: "update",
        entityType: before.accountId ? "profile" : "profile-template",
        entityId: before.id,
        entityLabel: input.name,
        diff: diffOf(shown(before), shown(input)),
        deployable: before.accountId !== null,
      }),
    ]);
  } catch (error) {
    if (isConstraint(error, "UNIQUE")) refuse(ctx, "BAD_REQUEST", "validation.ProfileNameTaken", "name");
    throw error;
  }
  assertWritten(result, ctx);
  return profileInScope(ctx, before.id);
}

const writeFields = z.object({ name: profileName });

export const profilesRouter = router({
  /** One page of an account's profiles (accountId) or of an organization's templates (orgId). */
  list: signedInProcedure
    .input(
      z
        .object({
          accountId: id.optional(),
          orgId: id.optional(),
          type: z.enum(profileTypes).optional(),
          search: searchText.default(""),
          sort: sort.default("name"),
          ...pageInput,
        })
        .refine((input) => (input.accountId === undefined) !== (input.orgId === undefined), "validation.AccountOrOrganization"),
    )
    .query(async ({ ctx, input }) => {
      let scope: ProfileScope;
      if (input.accountId) {
        await accountInScope(ctx, input.accountId);
        scope = { accountId: input.accountId };
      } else {
        const orgId = input.orgId ?? "";
        await assertOrganizationInScope(ctx, orgId);
        scope = { orgId };
      }
      const page = await listProfiles(ctx.db, {
        scope,
        type: input.type ?? null,
        search: input.search,
        sort: input.sort,
        limit: input.pageSize,
        cursor: cursorOf(input, profileSortArity(input.sort)),
      });
      return { ...page, pageSize: input.pageSize };
    }),

  details: signedInProcedure.input(z.object({ id })).query(({ ctx, input }) => profileInScope(ctx, input.id)),

  /** The rules that assign the profile: what deleting it would change. */
  usage: signedInProcedure.input(z.object({ id })).query(async ({ ctx, input }) => {
    const profile = await profileInScope(ctx, input.id);
    return profile.accountId ? rulesUsingProfile(ctx.db, profile.id) : [];
  }),

  add: procedureWith("edit-configurations")
    .input(z.intersection(writeFields.extend({ accountId: id }), typedSettings))
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      return createProfile(ctx, { orgId: account.orgId, accountId: account._id }, input);
    }),

  update: procedureWith("edit-configurations")
    .input(z.intersection(writeFields.extend({ id, version }), typedSettings))
    .mutation(async ({ ctx, input }) => changeProfile(ctx, await ofKind(ctx, input.id, "account"), input)),

  /**
   * Deletes an account profile. The rules that assign it must be named (`detachFromRules`, as
   * the delete page lists them): it is taken out of them, each with its own activity entry, in
   * the same batch. If those rules changed meanwhile, nothing happens (CONFLICT).
   */
  delete: procedureWith("edit-configurations")
    .input(z.object({ id, version, detachFromRules: z.array(id).max(500).default([]) }))
    .mutation(async ({ ctx, input }) => {
      const profile = await ofKind(ctx, input.id, "account");
      if (profile.version !== input.version)
        throw new TRPCError({ code: "CONFLICT", message: String(ctx.t("errors.staleEdit")) });
      const usage = await rulesUsingProfile(ctx.db, profile.id);
      const named = new Set(input.detachFromRules);
      if (usage.length !== named.size || usage.some((rule) => !named.has(rule.id))) {
        refuse(ctx, "CONFLICT", "errors.profileUsageChanged");
      }
      const rules = (await Promise.all(usage.map((rule) => findRule(ctx.db, rule.id)))).filter((rule) => rule !== null);
      const detach = detachProfileStatements(ctx.db, {
        profileId: profile.id,
        profileVersion: input.version,
        ruleIds: usage.map((r) => r.id),
      });
      const perRule = detach.perRule.flatMap(({ ruleId, statement }) => {
        const rule = rules.find((r) => r.id === ruleId);
        const names = rule?.profiles.map((p) => p.name) ?? [];
        return [
          statement,
          activityStatement(ctx.db, {
            orgId: profile.orgId,
            accountId: profile.accountId,
            actor: ctx.user,
            action: "update",
            entityType: "rule",
            entityId: ruleId,
            entityLabel: rule?.name ?? "",
            diff: diffOf({ profiles: names }, { profiles: names.filter((name) => name !== profile.name) }),
            deployable: true,
          }),
        ];
      });
      let results: D1Result[];
      try {
        results = await ctx.db.batch([
          ...perRule,
          detach.links,
          deleteProfileStatement(ctx.db, { id: profile.id, version: input.version }),
          activityStatement(ctx.db, {
            orgId: profile.orgId,
            accountId: profile.accountId,
            actor: ctx.user,
            action: "delete",
            entityType: "profile",
            entityId: profile.id,
            entityLabel: profile.name,
            diff: diffOf(shown(profile), null),
            deployable: true,
          }),
        ]);
      } catch (error) {
        // A rule started to use it after the check: the whole batch is undone.
        if (isConstraint(error, "FOREIGN KEY")) refuse(ctx, "CONFLICT", "errors.profileUsageChanged");
        throw error;
      }
      assertWritten(results[perRule.length + 1], ctx);
      return { ok: true as const, detachedFrom: usage.map((rule) => ({ id: rule.id, name: rule.name })) };
    }),

  addTemplate: procedureWith("manage-devices")
    .input(z.intersection(writeFields.extend({ orgId: id }), typedSettings))
    .mutation(async ({ ctx, input }) => {
      await assertOrganizationInScope(ctx, input.orgId);
      return createProfile(ctx, { orgId: input.orgId, accountId: null }, input);
    }),

  updateTemplate: procedureWith("manage-devices")
    .input(z.intersection(writeFields.extend({ id, version }), typedSettings))
    .mutation(async ({ ctx, input }) => changeProfile(ctx, await ofKind(ctx, input.id, "template"), input)),

  /** Templates are copied, never linked, so nothing depends on one. */
  deleteTemplate: procedureWith("manage-devices")
    .input(z.object({ id, version }))
    .mutation(async ({ ctx, input }) => {
      const template = await ofKind(ctx, input.id, "template");
      const [result] = await ctx.db.batch([
        deleteProfileStatement(ctx.db, { id: template.id, version: input.version }),
        activityStatement(ctx.db, {
          orgId: template.orgId,
          accountId: null,
          actor: ctx.user,
          action: "delete",
          entityType: "profile-template",
          entityId: template.id,
          entityLabel: template.name,
          diff: diffOf(shown(template), null),
          deployable: false,
        }),
      ]);
      assertWritten(result, ctx);
      return { ok: true as const };
    }),
});
