import { z } from "zod";
import { fieldMessage, requiredText } from "@/schema/field-messages";
import { newTokenSecret } from "@/server/auth/api-token-secret";
import { mayGrant } from "@/server/auth/roles";
import { activityStatement } from "@/server/data/activity-logs";
import {
  type ApiToken,
  findApiToken,
  insertApiTokenStatement,
  listApiTokens,
  revokeApiTokenStatement,
  tokenState,
} from "@/server/data/api-tokens";
import { now } from "@/server/data/db";
import { isWithinOrganization } from "@/server/data/organizations";
import { refuse } from "../refusal";
import { accountInScope, assertOrganizationInScope } from "../tenancy";
import { type ApiContext, procedureWith, router } from "../trpc";

const id = z.string().min(1).max(64);
const DAY_MS = 86_400_000;
/** A token lives at most a year (and a day, for leap years): a forgotten one ends by itself. */
export const MAX_TOKEN_DAYS = 366;
/** A token's own role; never a case agent's (customer care is people's work). */
export const tokenRoles = ["owner", "admin", "configurator", "technician", "viewer"] as const;

type Scoped = ApiContext & { user: NonNullable<ApiContext["user"]> };

const createInput = z.object({
  name: requiredText("apiTokenName", 80),
  role: z.enum(tokenRoles, fieldMessage("apiTokenRole", "required")),
  accountIds: z.array(id).max(50, "validation.TooManyTokenAccounts").nullable().default(null),
  expiresInDays: z
    .number(fieldMessage("apiTokenExpiry", "invalid"))
    .int(fieldMessage("apiTokenExpiry", "invalid"))
    .min(1, fieldMessage("apiTokenExpiry", "invalid"))
    .max(MAX_TOKEN_DAYS, fieldMessage("apiTokenExpiry", "invalid"))
    .optional(),
  expiresAt: z.string().max(40).optional(),
});

/** When a new token ends: in `expiresInDays`, or at `expiresAt` (a date or a time), in the future and within a year. */
function expiryOf(ctx: Scoped, input: { expiresInDays?: number; expiresAt?: string }, at: number): string {
  if ((input.expiresInDays === undefined) === (input.expiresAt === undefined)) {
    return refuse(ctx, "BAD_REQUEST", fieldMessage("apiTokenExpiry", "required"), "expiresInDays");
  }
  const end = input.expiresInDays !== undefined ? at + input.expiresInDays * DAY_MS : Date.parse(input.expiresAt ?? "");
  if (!Number.isFinite(end) || end <= at || end > at + MAX_TOKEN_DAYS * DAY_MS) {
    return refuse(ctx, "BAD_REQUEST", fieldMessage("apiTokenExpiry", "invalid"), "expiresAt");
  }
  return new Date(end).toISOString();
}

/** A token of the caller's organization tree; anyone else's is NOT_FOUND, as if it did not exist. */
async function tokenInScope(ctx: Scoped, tokenId: string): Promise<ApiToken> {
  const token = await findApiToken(ctx.db, tokenId);
  if (!token || !(token.orgId === ctx.user.orgId || (await isWithinOrganization(ctx.db, ctx.user.orgId, token.orgId)))) {
    return refuse(ctx, "NOT_FOUND", "apiTokens.errors.notFound");
  }
  return token;
}

/** What the list shows of a token: everything but its secret (never kept) and its hash. */
function listedToken(token: ApiToken, at: Date) {
  return { ...token, state: tokenState(token, at) };
}

/**
 * apiTokens.*: the machine credentials of an organization (issue 27), managed by people who may
 * edit users. Not callable with a token (not in integratorProcedures): a token makes no tokens.
 */
export const apiTokensRouter = router({
  list: procedureWith("edit-users")
    .input(z.object({ orgId: id.optional() }).default({}))
    .query(async ({ ctx, input }) => {
      const orgId = input.orgId ?? ctx.user.orgId;
      await assertOrganizationInScope(ctx, orgId);
      const at = new Date();
      return (await listApiTokens(ctx.db, orgId)).map((token) => listedToken(token, at));
    }),

  /** Makes a token of the caller's organization; the answer holds its secret, the only time it is shown. */
  create: procedureWith("edit-users")
    .input(createInput)
    .mutation(async ({ ctx, input }) => {
      if (!mayGrant(ctx.user.role, input.role)) refuse(ctx, "BAD_REQUEST", "users.roleAboveYours", "role");
      const at = Date.now();
      const expiresAt = expiryOf(ctx, input, at);
      const accountIds = input.accountIds === null ? null : [...new Set(input.accountIds)];
      if (accountIds?.length === 0) refuse(ctx, "BAD_REQUEST", "validation.TokenAccountsRequired", "accountIds");
      const accounts = accountIds ? await Promise.all(accountIds.map((accountId) => accountInScope(ctx, accountId))) : [];
      const existing = await listApiTokens(ctx.db, ctx.user.orgId);
      if (existing.some((token) => token.name === input.name)) refuse(ctx, "CONFLICT", "apiTokens.errors.nameTaken", "name");
      const secret = await newTokenSecret();
      const created = insertApiTokenStatement(ctx.db, {
        orgId: ctx.user.orgId,
        name: input.name,
        role: input.role,
        accountIds,
        tokenHash: secret.tokenHash,
        hint: secret.hint,
        createdBy: ctx.user,
        createdAt: new Date(at).toISOString(),
        expiresAt,
      });
      await ctx.db.batch([
        created.statement,
        activityStatement(ctx.db, {
          orgId: ctx.user.orgId,
          accountId: null,
          actor: ctx.user,
          action: "create",
          entityType: "api-token",
          entityId: created.id,
          entityLabel: input.name,
          diff: {
            role: { after: input.role },
            accounts: { after: accounts.length ? accounts.map((a) => a.name) : null },
            expiresAt: { after: expiresAt },
            hint: { after: secret.hint },
          },
          deployable: false,
        }),
      ]);
      return { id: created.id, token: secret.token };
    }),

  /** Revokes a token at once: its next call is refused. */
  revoke: procedureWith("edit-users")
    .input(z.object({ id, version: z.number().int().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const token = await tokenInScope(ctx, input.id);
      if (token.revokedAt) refuse(ctx, "CONFLICT", "apiTokens.errors.alreadyRevoked");
      const [result] = await ctx.db.batch([
        revokeApiTokenStatement(ctx.db, token.id, input.version, now()),
        activityStatement(ctx.db, {
          orgId: token.orgId,
          accountId: null,
          actor: ctx.user,
          action: "update",
          entityType: "api-token",
          entityId: token.id,
          entityLabel: token.name,
          diff: { state: { before: tokenState(token), after: "revoked" } },
          deployable: false,
        }),
      ]);
      if (!result?.meta.changes) refuse(ctx, "CONFLICT", "errors.staleEdit");
      return { ok: true as const };
    }),
});
