import { z } from "zod";
import { fieldMessage } from "@/schema/field-messages";
import { searchText } from "@/schema/text";
import { createInvitation } from "@/server/auth/invitations";
import { grantableRoles, mayGrant, type Role, roles } from "@/server/auth/roles";
import { activityStatement, diffOf } from "@/server/data/activity-logs";
import { now } from "@/server/data/db";
import {
  findOpenInvitationById,
  listOpenInvitations,
  type OpenInvitation,
  revokeInvitationStatement,
} from "@/server/data/invitations";
import { findOrganization, isWithinOrganization } from "@/server/data/organizations";
import { deleteDisabledUserSessionsStatement } from "@/server/data/sessions";
import {
  findUserByEmail,
  findUserById,
  hasOtherActiveOwner,
  listUsers,
  USER_SORT_ARITY,
  type User,
  updateUserAccessStatement,
} from "@/server/data/users";
import { resolveSettings } from "@/server/settings";
import { cursorOf, pageInput } from "../list-input";
import { refuse } from "../refusal";
import { assertOrganizationInScope } from "../tenancy";
import { type ApiContext, procedureWith } from "../trpc";

const id = z.string().min(1).max(64);
const version = z.number().int().min(1);
const role = z.enum(roles, "validation.RoleRequired");
/** "invited" is where a user never is by hand: invitations are rows of their own. */
const status = z.enum(["active", "disabled"], "validation.StatusRequired");
const email = z
  .string()
  .trim()
  // Abort on an empty address: it needs one message, not also "invalid".
  .min(1, { message: fieldMessage("inviteEmail", "required"), abort: true })
  .max(254, fieldMessage("inviteEmail", "invalid"))
  .regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, fieldMessage("inviteEmail", "invalid"));

type Caller = Pick<ApiContext, "db" | "t" | "env" | "origin"> & { user: NonNullable<ApiContext["user"]> };

/** A user of the caller's organization tree, else NOT_FOUND (other tenants' ids reveal nothing). */
async function userInScope(ctx: Caller, userId: string): Promise<User> {
  const user = await findUserById(ctx.db, userId);
  if (!user || !(await isWithinOrganization(ctx.db, ctx.user.orgId, user.orgId))) {
    return refuse(ctx, "NOT_FOUND", "errors.userNotFound");
  }
  return user;
}

/** An open invitation of the caller's organization tree, else NOT_FOUND. */
async function invitationInScope(ctx: Caller, invitationId: string): Promise<OpenInvitation> {
  const invitation = await findOpenInvitationById(ctx.db, invitationId, now());
  if (!invitation || !(await isWithinOrganization(ctx.db, ctx.user.orgId, invitation.orgId))) {
    return refuse(ctx, "NOT_FOUND", "errors.invitationNotFound");
  }
  return invitation;
}

/** What the edit screen shows of a user, and what the caller may do with them. */
async function detailsOf(ctx: Caller, user: User) {
  const organization = await findOrganization(ctx.db, user.orgId);
  const isSelf = user.id === ctx.user.id;
  return {
    id: user.id,
    orgId: user.orgId,
    organizationName: organization?.name ?? "",
    email: user.email,
    name: user.name,
    role: user.role,
    status: user.status,
    lastSignInAt: user.lastSignInAt,
    isCaseUser: user.isCaseUser,
    version: user.version,
    isSelf,
    /** Nobody changes their own access, nor that of someone ranked above them. */
    manageable: !isSelf && mayGrant(ctx.user.role, user.role),
    grantableRoles: grantableRoles(ctx.user.role),
  };
}

/**
 * The guard rails of a change of role or status: not one's own, not of someone ranked higher,
 * not to a role above one's own, and never the organization's last active owner. They answer
 * PRECONDITION_FAILED (a role above one's own: BAD_REQUEST, on the field), never FORBIDDEN,
 * which stays the answer to a missing permission flag.
 */
async function assertAllowedChange(ctx: Caller, target: User, next: { role: Role; status: "active" | "disabled" }) {
  if (target.id === ctx.user.id) {
    if (next.status !== target.status) refuse(ctx, "PRECONDITION_FAILED", "users.cannotDisableSelf", "status");
    if (next.role !== target.role) refuse(ctx, "PRECONDITION_FAILED", "users.cannotChangeOwnRole", "role");
  }
  if (!mayGrant(ctx.user.role, target.role)) refuse(ctx, "PRECONDITION_FAILED", "users.cannotManageHigherRole");
  if (!mayGrant(ctx.user.role, next.role)) refuse(ctx, "BAD_REQUEST", "users.roleAboveYours", "role");
  const losesOwner =
    target.role === "owner" && target.status === "active" && !(next.role === "owner" && next.status === "active");
  if (losesOwner && !(await hasOtherActiveOwner(ctx.db, target.orgId, target.id))) {
    refuse(ctx, "PRECONDITION_FAILED", "users.lastOwner");
  }
}

/**
 * Applies a change of role and status at the version it was made on, with its log entry and,
 * when the user is disabled, the end of all their sessions, in one batch.
 */
async function changeAccess(ctx: Caller, userId: string, input: { version: number; role: Role; status: "active" | "disabled" }) {
  const target = await userInScope(ctx, userId);
  await assertAllowedChange(ctx, target, input);
  if (input.role === target.role && input.status === target.status) {
    if (input.version !== target.version) refuse(ctx, "CONFLICT", "errors.staleEdit");
    return detailsOf(ctx, target);
  }
  const [result] = await ctx.db.batch([
    updateUserAccessStatement(ctx.db, { id: target.id, ...input }),
    activityStatement(ctx.db, {
      orgId: target.orgId,
      accountId: null,
      actor: ctx.user,
      action: "update",
      entityType: "user",
      entityId: target.id,
      entityLabel: target.email,
      diff: diffOf({ role: target.role, status: target.status }, { role: input.role, status: input.status }),
      deployable: false,
    }),
    ...(input.status === "disabled" ? [deleteDisabledUserSessionsStatement(ctx.db, target.id)] : []),
  ]);
  if (!result?.meta.changes) {
    // Stale, or at the right version but the other owner was taken away in the meantime.
    const current = await findUserById(ctx.db, target.id);
    if (current?.version === input.version) refuse(ctx, "PRECONDITION_FAILED", "users.lastOwner");
    refuse(ctx, "CONFLICT", "errors.staleEdit");
  }
  return detailsOf(ctx, await userInScope(ctx, target.id));
}

/**
 * An address that has an account in the caller's own tree cannot be invited: the person signs
 * in with the account they have (the caller can see that user anyway). An account in another
 * tenant is none of the caller's business: the invitation goes out exactly as for a fresh
 * address, and its link tells the invitee (only them) to sign in with the account they have.
 */
export async function assertNoAccount(ctx: Pick<Caller, "db" | "t" | "user">, address: string) {
  const existing = await findUserByEmail(ctx.db, address);
  if (existing && (await isWithinOrganization(ctx.db, ctx.user.orgId, existing.orgId))) {
    refuse(ctx, "CONFLICT", "users.emailHasAccount", "email");
  }
}

function invitationEntry(ctx: Caller, invitation: { id: string; orgId: string; email: string }) {
  return {
    orgId: invitation.orgId,
    accountId: null,
    actor: ctx.user,
    entityType: "invitation",
    entityId: invitation.id,
    entityLabel: invitation.email,
    deployable: false,
  } as const;
}

/** users.* of user administration (edit-users), spread into the users router. */
export const usersAdminProcedures = {
  /** One page of the users of the caller's tree or of one organization in it, searched by name or email. */
  list: procedureWith("edit-users")
    .input(
      z
        .object({
          orgId: id.optional(),
          search: searchText.default(""),
          ...pageInput,
        })
        .default({ search: "", pageSize: 25 }),
    )
    .query(async ({ ctx, input }) => {
      if (input.orgId) await assertOrganizationInScope(ctx, input.orgId);
      const { items, next, previous, total } = await listUsers(ctx.db, {
        rootOrgId: ctx.user.orgId,
        orgId: input.orgId ?? null,
        search: input.search,
        hideCaseUsers: resolveSettings(ctx.env).hideCaseUsers,
        limit: input.pageSize,
        cursor: cursorOf(input, USER_SORT_ARITY),
      });
      return { items, next, previous, total, pageSize: input.pageSize };
    }),

  details: procedureWith("edit-users")
    .input(z.object({ id }))
    .query(async ({ ctx, input }) => detailsOf(ctx, await userInScope(ctx, input.id))),

  update: procedureWith("edit-users")
    .input(z.object({ id, version, role, status }))
    .mutation(({ ctx, input }) => changeAccess(ctx, input.id, input)),

  /** Disables a user and ends all their sessions at once: they are signed out everywhere. */
  disable: procedureWith("edit-users")
    .input(z.object({ id, version }))
    .mutation(async ({ ctx, input }) => {
      const target = await userInScope(ctx, input.id);
      return changeAccess(ctx, input.id, { version: input.version, role: target.role, status: "disabled" });
    }),

  /** Mails an invitation to join an organization of the caller's tree with a role they may grant. */
  invite: procedureWith("edit-users")
    .input(z.object({ email, role, orgId: id }))
    .mutation(async ({ ctx, input }) => {
      await assertOrganizationInScope(ctx, input.orgId);
      if (!mayGrant(ctx.user.role, input.role)) refuse(ctx, "BAD_REQUEST", "users.roleAboveYours", "role");
      await assertNoAccount(ctx, input.email);
      const invited = await createInvitation(ctx, { ...input, invitedBy: ctx.user.id }, (created) => [
        activityStatement(ctx.db, {
          ...invitationEntry(ctx, { id: created.id, orgId: input.orgId, email: input.email }),
          action: "create",
          diff: diffOf(null, { email: input.email, role: input.role, expiresAt: created.expiresAt }),
        }),
      ]);
      return { ...invited, email: input.email.toLowerCase() };
    }),

  /** The open invitations (not accepted, withdrawn or expired) of the caller's tree or of one organization. */
  listInvitations: procedureWith("edit-users")
    .input(z.object({ orgId: id.optional() }).default({}))
    .query(async ({ ctx, input }) => {
      if (input.orgId) await assertOrganizationInScope(ctx, input.orgId);
      const items = await listOpenInvitations(ctx.db, {
        rootOrgId: ctx.user.orgId,
        orgId: input.orgId ?? null,
        at: now(),
        limit: 200,
      });
      return { items };
    }),

  /** A new code and a new mail; the old link stops working. */
  resendInvitation: procedureWith("edit-users")
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => {
      const invitation = await invitationInScope(ctx, input.id);
      if (!mayGrant(ctx.user.role, invitation.role)) refuse(ctx, "PRECONDITION_FAILED", "users.cannotManageHigherRole");
      await assertNoAccount(ctx, invitation.email);
      const resent = await createInvitation(
        ctx,
        { orgId: invitation.orgId, email: invitation.email, role: invitation.role, invitedBy: ctx.user.id },
        (created) => [
          activityStatement(ctx.db, {
            ...invitationEntry(ctx, { ...invitation, id: created.id }),
            action: "update",
            diff: diffOf(
              { id: invitation.id, expiresAt: invitation.expiresAt },
              { id: created.id, expiresAt: created.expiresAt },
            ),
          }),
        ],
      );
      return { ...resent, email: invitation.email };
    }),

  /** Withdraws an open invitation: its link stops working. */
  revokeInvitation: procedureWith("edit-users")
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => {
      const invitation = await invitationInScope(ctx, input.id);
      if (!mayGrant(ctx.user.role, invitation.role)) refuse(ctx, "PRECONDITION_FAILED", "users.cannotManageHigherRole");
      const [result] = await ctx.db.batch([
        revokeInvitationStatement(ctx.db, invitation.id, now()),
        activityStatement(ctx.db, {
          ...invitationEntry(ctx, invitation),
          action: "delete",
          diff: diffOf({ email: invitation.email, role: invitation.role }, null),
        }),
      ]);
      if (!result?.meta.changes) refuse(ctx, "NOT_FOUND", "errors.invitationNotFound");
      return { ok: true as const, email: invitation.email };
    }),
};
