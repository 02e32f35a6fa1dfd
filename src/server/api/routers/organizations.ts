import { z } from "zod";
import { requiredText } from "@/schema/field-messages";
import { searchText } from "@/schema/text";
import { activityStatement, diffOf } from "@/server/data/activity-logs";
import {
  findOrganization,
  insertOrganization,
  listOrganizationNodes,
  type Organization,
  type OrganizationNode,
  renameOrganizationStatement,
  siblingNameTaken,
} from "@/server/data/organizations";
import { refuse } from "../refusal";
import { accountLimit, assertOrganizationInScope, refuseLimited } from "../tenancy";
import { type ApiContext, procedureWith, router, signedInProcedure } from "../trpc";

const id = z.string().min(1).max(64);
const name = requiredText("organizationName", 120);
/** The vendor is the root of everything; below it one adds dealers and customers. */
const childKind = z.enum(["dealer", "customer"], "validation.OrganizationKindRequired");

/** An organization as lists show it: its depth below the caller's organization; value and label for pickers (spec §3). */
export type OrganizationInTree = OrganizationNode & { value: string; label: string };

type Caller = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

/** An organization of the caller's tree, else NOT_FOUND; its parent is named only when in scope too. */
async function organizationInScope(ctx: Caller, orgId: string): Promise<Organization & { parentName: string | null }> {
  await assertOrganizationInScope(ctx, orgId);
  const organization = await findOrganization(ctx.db, orgId);
  if (!organization) return refuse(ctx, "NOT_FOUND", "errors.organizationNotFound");
  if (organization.id === ctx.user.orgId || !organization.parentId) return { ...organization, parentId: null, parentName: null };
  const parent = await findOrganization(ctx.db, organization.parentId);
  return { ...organization, parentName: parent?.name ?? null };
}

export const organizationsRouter = router({
  /**
   * The caller's organization and its descendants, in tree order with their depth, for the
   * Organizations tab (open to every signed-in user, spec §6) and organization pickers.
   */
  list: signedInProcedure
    .input(z.object({ search: searchText.default("") }).default({ search: "" }))
    .query(async ({ ctx, input }) => {
      // The tree is above an account-limited token's accounts.
      if (accountLimit(ctx.user)) refuseLimited(ctx);
      const nodes = await listOrganizationNodes(ctx.db, ctx.user.orgId, input.search);
      return nodes.map((node): OrganizationInTree => ({ ...node, value: node.id, label: node.name }));
    }),

  details: signedInProcedure.input(z.object({ id })).query(({ ctx, input }) => organizationInScope(ctx, input.id)),

  /** A dealer or customer under an organization of the caller's tree; customers have none below them. */
  add: procedureWith("edit-accounts")
    .input(z.object({ parentId: id, name, kind: childKind }))
    .mutation(async ({ ctx, input }) => {
      const parent = await organizationInScope(ctx, input.parentId);
      if (parent.kind === "customer") refuse(ctx, "BAD_REQUEST", "organizations.customerHasNoChildren", "parentId");
      if (await siblingNameTaken(ctx.db, parent.id, input.name)) refuse(ctx, "CONFLICT", "organizations.nameTaken", "name");
      const { id: orgId, statement } = insertOrganization(ctx.db, { name: input.name, kind: input.kind, parentId: parent.id });
      await ctx.db.batch([
        statement,
        activityStatement(ctx.db, {
          orgId,
          accountId: null,
          actor: ctx.user,
          action: "create",
          entityType: "organization",
          entityId: orgId,
          entityLabel: input.name,
          diff: diffOf(null, { name: input.name, kind: input.kind, parentId: parent.id }),
          deployable: false,
        }),
      ]);
      return organizationInScope(ctx, orgId);
    }),

  update: procedureWith("edit-accounts")
    .input(z.object({ id, version: z.number().int().min(1), name }))
    .mutation(async ({ ctx, input }) => {
      const before = await organizationInScope(ctx, input.id);
      const found = await findOrganization(ctx.db, input.id);
      if (await siblingNameTaken(ctx.db, found?.parentId ?? null, input.name, input.id)) {
        refuse(ctx, "CONFLICT", "organizations.nameTaken", "name");
      }
      const [result] = await ctx.db.batch([
        renameOrganizationStatement(ctx.db, input),
        activityStatement(ctx.db, {
          orgId: before.id,
          accountId: null,
          actor: ctx.user,
          action: "update",
          entityType: "organization",
          entityId: before.id,
          entityLabel: input.name,
          diff: diffOf({ name: before.name }, { name: input.name }),
          deployable: false,
        }),
      ]);
      if (!result?.meta.changes) refuse(ctx, "CONFLICT", "errors.staleEdit");
      return organizationInScope(ctx, input.id);
    }),
});
