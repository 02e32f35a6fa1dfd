import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { fieldMessage, requiredText } from "@/schema/field-messages";
import type { D1Result } from "@/server/cloudflare";
import { activityStatement, diffOf } from "@/server/data/activity-logs";
import {
  claimedDomains,
  deleteIdentityProviderStatements,
  findIdentityProvider,
  type IdentityProvider,
  insertIdentityProviderStatement,
  listIdentityProviders,
  proveDomainStatement,
  syncDomainClaimsStatements,
  updateIdentityProviderStatement,
} from "@/server/data/identity-providers";
import { findOrganization, isWithinOrganization } from "@/server/data/organizations";
import { resolveSettings } from "@/server/settings";
import { checkDomainProof, proofRecordName } from "@/server/sso/domain-proof";
import { Refusal, refuse } from "../refusal";
import { assertOrganizationInScope } from "../tenancy";
import { type ApiContext, procedureWith, router } from "../trpc";

const id = z.string().min(1).max(64);
const name = requiredText("identityProviderName", 120);
const LOCAL_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** An OIDC issuer: https, or http on this machine (the local demo provider). No query or fragment. */
export const issuer = z
  .string()
  .trim()
  .min(1, fieldMessage("issuer", "required"))
  .max(300, "validation.IssuerInvalid")
  .refine((value) => {
    try {
      const url = new URL(value);
      const local = url.protocol === "http:" && LOCAL_HOSTS.has(url.hostname);
      return (url.protocol === "https:" || local) && !url.search && !url.hash && !url.username;
    } catch {
      return false;
    }
  }, "validation.IssuerInvalid");

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Email domains, lower-cased, without duplicates: at least one, at most 20. */
export const emailDomains = z
  .array(z.string().trim().toLowerCase().regex(DOMAIN, "validation.DomainInvalid"))
  .min(1, "validation.DomainsRequired")
  .max(20, "validation.TooManyDomains")
  .transform((domains) => [...new Set(domains)]);

const fields = {
  name,
  issuer,
  clientId: z.string().trim().min(1, fieldMessage("clientId", "required")).max(200, "validation.ClientIdTooLong"),
  /** Write-only: empty on update keeps the stored secret. */
  clientSecret: z.string().trim().max(500, "validation.ClientSecretTooLong").default(""),
  emailDomains,
};

type Scoped = ApiContext & { user: NonNullable<ApiContext["user"]> };

/** What reads return: never the secret, only whether one is set. */
function view(provider: IdentityProvider) {
  return provider;
}

function logged(provider: Pick<IdentityProvider, "name" | "issuer" | "clientId" | "emailDomains" | "hasClientSecret">) {
  return {
    name: provider.name,
    issuer: provider.issuer,
    clientId: provider.clientId,
    emailDomains: provider.emailDomains,
    hasClientSecret: provider.hasClientSecret,
  };
}

/** A provider of the caller's organization tree; anyone else's is NOT_FOUND, as if it did not exist. */
async function providerInScope(ctx: Scoped, providerId: string): Promise<IdentityProvider> {
  const provider = await findIdentityProvider(ctx.db, providerId);
  if (!provider || !(await isWithinOrganization(ctx.db, ctx.user.orgId, provider.orgId))) {
    throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("identityProviders.notFound")) });
  }
  return provider;
}

/** A domain is proven for one provider only: the sign-in email step must know where to send it. */
async function assertDomainsFree(ctx: Scoped, domains: string[], exceptId: string | null) {
  const taken = await claimedDomains(ctx.db, domains, exceptId);
  if (taken.length > 0) refuse(ctx, "BAD_REQUEST", "validation.DomainTaken", "emailDomains");
}

/** The provider (in scope) and its unproven claim on `domain`; a proven or foreign domain is refused on the form. */
async function claimToProve(ctx: Scoped, providerId: string, domain: string) {
  const provider = await providerInScope(ctx, providerId);
  const claim = provider.domainClaims.find((c) => c.domain === domain && c.token);
  if (!claim) return refuse(ctx, "NOT_FOUND", "identityProviders.domainNotClaimed");
  if (claim.provenAt) return refuse(ctx, "CONFLICT", "identityProviders.domainAlreadyProven");
  if ((await claimedDomains(ctx.db, [domain], provider.id)).length > 0) {
    return refuse(ctx, "CONFLICT", "identityProviders.domainProvenElsewhere");
  }
  return { provider, claim };
}

/** Records the proof (and its log entry) in one batch; someone else proving it meanwhile is a CONFLICT. */
async function recordProof(ctx: Scoped, provider: IdentityProvider, domain: string, by: "dns" | "vendor") {
  const [result] = await ctx.db.batch([
    proveDomainStatement(ctx.db, provider.id, domain, by),
    activityStatement(ctx.db, {
      orgId: provider.orgId,
      accountId: null,
      actor: ctx.user,
      action: "update",
      entityType: "identity-provider",
      entityId: provider.id,
      entityLabel: provider.name,
      diff: { provenDomains: { before: [], after: [domain] }, proofMethod: { after: by } },
      deployable: false,
    }),
  ]);
  if (!result?.meta.changes) refuse(ctx, "CONFLICT", "identityProviders.domainProvenElsewhere");
  return view(await providerInScope(ctx, provider.id));
}

function assertWritten(result: D1Result | undefined, t: ApiContext["t"]) {
  if (!result?.meta.changes) throw new TRPCError({ code: "CONFLICT", message: String(t("errors.staleEdit")) });
}

/** identityProviders.*: the single sign-on providers of organizations, for users who may edit users. */
export const identityProvidersRouter = router({
  list: procedureWith("edit-users")
    .input(z.object({ orgId: id.optional() }).default({}))
    .query(async ({ ctx, input }) => {
      const root = input.orgId ?? ctx.user.orgId;
      await assertOrganizationInScope(ctx, root);
      return (await listIdentityProviders(ctx.db, root)).map(view);
    }),

  details: procedureWith("edit-users")
    .input(z.object({ id }))
    .query(async ({ ctx, input }) => view(await providerInScope(ctx, input.id))),

  add: procedureWith("edit-users")
    .input(z.object({ orgId: id, ...fields }))
    .mutation(async ({ ctx, input }) => {
      await assertOrganizationInScope(ctx, input.orgId);
      await assertDomainsFree(ctx, input.emailDomains, null);
      const { id: providerId, statement } = insertIdentityProviderStatement(ctx.db, input);
      await ctx.db.batch([
        statement,
        ...syncDomainClaimsStatements(ctx.db, providerId),
        activityStatement(ctx.db, {
          orgId: input.orgId,
          accountId: null,
          actor: ctx.user,
          action: "create",
          entityType: "identity-provider",
          entityId: providerId,
          entityLabel: input.name,
          diff: diffOf(null, logged({ ...input, hasClientSecret: input.clientSecret !== "" })),
          deployable: false,
        }),
      ]);
      return view(await providerInScope(ctx, providerId));
    }),

  update: procedureWith("edit-users")
    .input(z.object({ id, version: z.number().int().min(1), ...fields }))
    .mutation(async ({ ctx, input }) => {
      const before = await providerInScope(ctx, input.id);
      await assertDomainsFree(ctx, input.emailDomains, before.id);
      const after = { ...input, hasClientSecret: input.clientSecret !== "" || before.hasClientSecret };
      const [result] = await ctx.db.batch([
        updateIdentityProviderStatement(ctx.db, input),
        activityStatement(ctx.db, {
          orgId: before.orgId,
          accountId: null,
          actor: ctx.user,
          action: "update",
          entityType: "identity-provider",
          entityId: before.id,
          entityLabel: input.name,
          // A new secret shows as a change without its value.
          diff: { ...diffOf(logged(before), logged(after)), ...(input.clientSecret ? { clientSecret: { after: "••••" } } : {}) },
          deployable: false,
        }),
        ...syncDomainClaimsStatements(ctx.db, before.id),
      ]);
      assertWritten(result, ctx.t);
      return view(await providerInScope(ctx, input.id));
    }),

  /**
   * Proves a claimed domain by its DNS TXT record (read through the configured DNS-over-HTTPS
   * resolver). Until proven, the domain routes nobody to this provider.
   */
  verifyDomain: procedureWith("edit-users")
    .input(z.object({ id, domain: z.string().trim().toLowerCase().max(253) }))
    .mutation(async ({ ctx, input }) => {
      const { provider, claim } = await claimToProve(ctx, input.id, input.domain);
      const check = await checkDomainProof(resolveSettings(ctx.env).dnsResolverUrl, claim.domain, claim.token);
      if (check === "resolver-failed") refuse(ctx, "PRECONDITION_FAILED", "identityProviders.resolverFailed");
      if (check === "not-found") {
        const name = proofRecordName(claim.domain);
        throw new TRPCError({
          code: "PRECONDITION_FAILED",
          message: String(ctx.t("identityProviders.recordNotFound", { name })),
          cause: new Refusal("identityProviders.recordNotFound", "form"),
        });
      }
      return recordProof(ctx, provider, claim.domain, "dns");
    }),

  /** The vendor organization vouches for a claim (it knows the customer): no DNS record needed. */
  approveDomain: procedureWith("edit-users")
    .input(z.object({ id, domain: z.string().trim().toLowerCase().max(253) }))
    .mutation(async ({ ctx, input }) => {
      const { provider, claim } = await claimToProve(ctx, input.id, input.domain);
      const own = await findOrganization(ctx.db, ctx.user.orgId);
      if (own?.kind !== "vendor") refuse(ctx, "FORBIDDEN", "identityProviders.vendorOnly");
      return recordProof(ctx, provider, claim.domain, "vendor");
    }),

  /** Deleting a provider also unlinks every identity of it: those people sign in another way. */
  delete: procedureWith("edit-users")
    .input(z.object({ id, version: z.number().int().min(1) }))
    .mutation(async ({ ctx, input }) => {
      const provider = await providerInScope(ctx, input.id);
      const { deleteProvider, dropClaims, unlinkIdentities } = deleteIdentityProviderStatements(
        ctx.db,
        provider.id,
        input.version,
      );
      const [result] = await ctx.db.batch([
        deleteProvider,
        activityStatement(ctx.db, {
          orgId: provider.orgId,
          accountId: null,
          actor: ctx.user,
          action: "delete",
          entityType: "identity-provider",
          entityId: provider.id,
          entityLabel: provider.name,
          diff: diffOf(logged(provider), null),
          deployable: false,
        }),
        dropClaims,
        unlinkIdentities,
      ]);
      assertWritten(result, ctx.t);
      return { ok: true as const };
    }),
});
