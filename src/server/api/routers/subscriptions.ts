import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { chosenId, fieldMessage, optionalText, requiredText } from "@/schema/field-messages";
import { effectiveStatus, subscriptionLimits, subscriptionStatuses, today } from "@/schema/subscriptions";
import type { D1Result } from "@/server/cloudflare";
import { listAccountNames, listAccounts } from "@/server/data/accounts";
import { activityStatement, diffOf } from "@/server/data/activity-logs";
import {
  type Allocation,
  allocateStatement,
  deallocateStatement,
  findAllocation,
  findAllocationOf,
  listAllocationsOfAccount,
  listAllocationsOfOrganization,
  listAllocationsOfSubscription,
  updateAllocationStatement,
} from "@/server/data/allocations";
import { accountSeats } from "@/server/data/devices";
import { findOrganization, isWithinOrganization, listOrganizationNodes } from "@/server/data/organizations";
import {
  deleteSubscriptionStatement,
  findSubscription,
  insertSubscriptionStatement,
  listSubscriptionsAbove,
  listSubscriptionsPage,
  SUBSCRIPTION_CURSOR_ARITY,
  type Subscription,
  type SubscriptionFields,
  updateSubscriptionStatement,
} from "@/server/data/subscriptions";
import { cursorOf, pageInput } from "../list-input";
import { refuse, refuseWith } from "../refusal";
import { accountInScope, accountLimit, assertOrganizationInScope, refuseLimited } from "../tenancy";
import { type ApiContext, procedureWith, router } from "../trpc";

/*
 * Who may do what (DESIGN.md §4 gives the flags; this fills in the rest):
 * - Reading subscriptions and allocations of an organization in one's tree needs
 *   view-subscriptions-in-organizations (owners and admins). An account's own seats can also be
 *   read with view-subscriptions-in-accounts (forAccount: viewers, configurators).
 * - Allocating, changing and taking back seats needs that flag plus edit-accounts, and the
 *   subscription in one's tree: a dealer or a customer shares out the seats it holds.
 * - Issuing, editing and removing subscriptions needs the same two flags, and the organization
 *   strictly below one's own: a dealer issues subscriptions to its customers, a customer cannot
 *   grant itself seats. Only the vendor (the root) may also manage its own.
 */

const id = z.string().min(1).max(64);
const version = z.number().int().min(1);
const seats = z
  .number({ error: (issue) => (issue.input === undefined ? fieldMessage("seats", "required") : "validation.SeatsWholeNumber") })
  .int("validation.SeatsWholeNumber")
  .min(1, "validation.SeatsTooFew")
  .max(subscriptionLimits.maxSeats, "validation.SeatsTooMany");
/** A calendar day; `subject` names it in the messages (startDate, endDate). */
const day = (subject: string) =>
  z.iso.date({
    error: (issue) =>
      issue.input === undefined || issue.input === "" ? fieldMessage(subject, "required") : fieldMessage(subject, "invalid"),
  });
const subscriptionFields = {
  plan: requiredText("plan", subscriptionLimits.planLength),
  quantity: seats,
  startsAt: day("startDate"),
  endsAt: day("endDate").nullable().default(null),
  status: z.enum(subscriptionStatuses, { error: fieldMessage("status", "required") }).default("active"),
  reference: optionalText("reference", subscriptionLimits.referenceLength).default(""),
};
const endNotBeforeStart: [(value: { startsAt: string; endsAt: string | null }) => boolean, { path: string[]; error: string }] = [
  (value) => value.endsAt === null || value.endsAt >= value.startsAt,
  { path: ["endsAt"], error: "validation.EndBeforeStart" },
];

type Caller = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

const viewing = procedureWith("view-subscriptions-in-organizations");
/** Changing seats: reading them plus edit-accounts, checked here (a hidden button protects nothing). */
const managing = viewing.use(({ ctx, next }) => {
  if (!ctx.user.permissions["edit-accounts"])
    throw new TRPCError({ code: "FORBIDDEN", message: String(ctx.t("errors.protected")) });
  return next();
});

/** A subscription as screens show it: free seats and the status with "expired" derived. */
function shown(subscription: Subscription) {
  return {
    ...subscription,
    free: subscription.quantity - subscription.allocated,
    effectiveStatus: effectiveStatus(subscription),
  };
}

function fieldsOf(subscription: SubscriptionFields): SubscriptionFields {
  const { plan, quantity, startsAt, endsAt, status, reference } = subscription;
  return { plan, quantity, startsAt, endsAt, status, reference };
}

async function callerIsVendor(ctx: Caller): Promise<boolean> {
  return (await findOrganization(ctx.db, ctx.user.orgId))?.kind === "vendor";
}

/** Whether the caller may issue and manage subscriptions of `orgId` (in scope is checked apart). */
async function mayIssueFor(ctx: Caller, orgId: string): Promise<boolean> {
  return orgId !== ctx.user.orgId || (await callerIsVendor(ctx));
}

/** Another tenant's subscription answers exactly like a missing one. */
async function subscriptionInScope(ctx: Caller, subscriptionId: string): Promise<Subscription> {
  // A subscription is the organization's: above an account-limited token's accounts.
  if (accountLimit(ctx.user)) refuseLimited(ctx);
  const subscription = await findSubscription(ctx.db, subscriptionId);
  if (!subscription || !(await isWithinOrganization(ctx.db, ctx.user.orgId, subscription.orgId))) {
    return refuse(ctx, "NOT_FOUND", "subscriptions.errors.notFound");
  }
  return subscription;
}

/** An allocation is the caller's when its subscription is (its account then is too: it sits below). */
async function allocationInScope(ctx: Caller, allocationId: string): Promise<Allocation> {
  const allocation = await findAllocation(ctx.db, allocationId);
  if (!allocation || !(await isWithinOrganization(ctx.db, ctx.user.orgId, allocation.subscriptionOrgId))) {
    return refuse(ctx, "NOT_FOUND", "subscriptions.errors.allocationNotFound");
  }
  // An account-limited token sees its own accounts' seats only.
  const limit = accountLimit(ctx.user);
  if (limit && !limit.includes(allocation.accountId)) refuse(ctx, "NOT_FOUND", "subscriptions.errors.allocationNotFound");
  return allocation;
}

async function assertIssuer(ctx: Caller, orgId: string): Promise<void> {
  if (!(await mayIssueFor(ctx, orgId))) refuse(ctx, "FORBIDDEN", "subscriptions.errors.cannotIssueOwn", "orgId");
}

function changed(result: D1Result | undefined): boolean {
  return Boolean(result?.meta.changes);
}

/** Why a conditional seat write changed nothing, read again after the fact. */
async function explainRefusedSeats(ctx: Caller, subscriptionId: string): Promise<never> {
  const subscription = await findSubscription(ctx.db, subscriptionId);
  if (!subscription) return refuse(ctx, "NOT_FOUND", "subscriptions.errors.notFound");
  if (effectiveStatus(subscription) !== "active") return refuse(ctx, "PRECONDITION_FAILED", "subscriptions.errors.notActive");
  return refuse(ctx, "CONFLICT", "subscriptions.errors.notEnoughSeats", "quantity");
}

function allocationLabel(allocation: Pick<Allocation, "accountName" | "plan">) {
  return `${allocation.accountName} · ${allocation.plan}`;
}

/**
 * Runs a batch that lowers an account's seats; the allocations trigger refuses to go below the
 * seats its radios use, answered as PRECONDITION_FAILED saying how many are in use.
 */
async function belowSeatsInUse(
  ctx: Pick<ApiContext, "db" | "t">,
  accountId: string,
  statements: Parameters<ApiContext["db"]["batch"]>[0],
): Promise<D1Result[]> {
  try {
    return await ctx.db.batch(statements);
  } catch (error) {
    if (!String(error).includes("seats in use")) throw error;
    const { inUse } = await accountSeats(ctx.db, accountId);
    return refuseWith(ctx, "PRECONDITION_FAILED", "subscriptions.errors.seatsInUse", { count: inUse, inUse }, "quantity");
  }
}

export const subscriptionsRouter = router({
  /** The organizations of the caller's tree (for the picker), each saying whether the caller may issue to it. */
  organizations: viewing.query(async ({ ctx }) => {
    const [nodes, vendor] = await Promise.all([listOrganizationNodes(ctx.db, ctx.user.orgId), callerIsVendor(ctx)]);
    return {
      items: nodes.map((node) => ({
        id: node.id,
        name: node.name,
        kind: node.kind,
        depth: node.depth,
        canIssue: node.id !== ctx.user.orgId || vendor,
      })),
    };
  }),

  /** An organization's own subscriptions with their allocated and free seats. */
  list: viewing.input(z.object({ orgId: id, ...pageInput })).query(async ({ ctx, input }) => {
    await assertOrganizationInScope(ctx, input.orgId);
    // A cursor that is not one of ours is refused here (a bookmark's stale cursor is still ours).
    const cursor = cursorOf(input, SUBSCRIPTION_CURSOR_ARITY);
    if ((input.after || input.before) && !cursor) refuse(ctx, "BAD_REQUEST", "errors.pageLinkInvalid");
    const [page, canIssue] = await Promise.all([
      listSubscriptionsPage(ctx.db, input.orgId, { cursor, limit: input.pageSize }),
      ctx.user.permissions["edit-accounts"] === true ? mayIssueFor(ctx, input.orgId) : false,
    ]);
    return {
      orgId: input.orgId,
      canIssue,
      canAllocate: ctx.user.permissions["edit-accounts"] === true,
      items: page.items.map(shown),
      next: page.next,
      previous: page.previous,
      total: page.total,
    };
  }),

  /** One subscription with the accounts holding its seats. */
  details: viewing.input(z.object({ id })).query(async ({ ctx, input }) => {
    const subscription = await subscriptionInScope(ctx, input.id);
    const [allocations, organization] = await Promise.all([
      listAllocationsOfSubscription(ctx.db, subscription.id),
      findOrganization(ctx.db, subscription.orgId),
    ]);
    return {
      subscription: shown(subscription),
      organizationName: organization?.name ?? "",
      allocations,
      canIssue: ctx.user.permissions["edit-accounts"] === true && (await mayIssueFor(ctx, subscription.orgId)),
      canAllocate: ctx.user.permissions["edit-accounts"] === true,
    };
  }),

  add: managing
    .input(z.object({ orgId: chosenId("orgId"), ...subscriptionFields }).refine(...endNotBeforeStart))
    .mutation(async ({ ctx, input }) => {
      await assertOrganizationInScope(ctx, input.orgId);
      await assertIssuer(ctx, input.orgId);
      const fields = fieldsOf(input);
      const { id: subscriptionId, statement } = insertSubscriptionStatement(ctx.db, { orgId: input.orgId, ...fields });
      await ctx.db.batch([
        statement,
        activityStatement(ctx.db, {
          orgId: input.orgId,
          accountId: null,
          actor: ctx.user,
          action: "create",
          entityType: "subscription",
          entityId: subscriptionId,
          entityLabel: input.plan,
          diff: diffOf(null, fields),
          deployable: false,
        }),
      ]);
      return shown(await subscriptionInScope(ctx, subscriptionId));
    }),

  /** Edits a subscription at `version`; its quantity can never go below the seats given out. */
  update: managing
    .input(z.object({ id, version, ...subscriptionFields }).refine(...endNotBeforeStart))
    .mutation(async ({ ctx, input }) => {
      const before = await subscriptionInScope(ctx, input.id);
      await assertIssuer(ctx, before.orgId);
      const fields = fieldsOf(input);
      const [result] = await ctx.db.batch([
        updateSubscriptionStatement(ctx.db, { id: before.id, version: input.version, ...fields }),
        activityStatement(ctx.db, {
          orgId: before.orgId,
          accountId: null,
          actor: ctx.user,
          action: "update",
          entityType: "subscription",
          entityId: before.id,
          entityLabel: input.plan,
          diff: diffOf(fieldsOf(before), fields),
          deployable: false,
        }),
      ]);
      if (!changed(result)) {
        const now = await subscriptionInScope(ctx, input.id);
        if (now.version !== input.version) refuse(ctx, "CONFLICT", "errors.staleEdit");
        refuse(ctx, "PRECONDITION_FAILED", "subscriptions.errors.belowAllocated", "quantity");
      }
      return shown(await subscriptionInScope(ctx, input.id));
    }),

  /** Removes a subscription at `version` that has no seats given out any more. */
  remove: managing.input(z.object({ id, version })).mutation(async ({ ctx, input }) => {
    const subscription = await subscriptionInScope(ctx, input.id);
    await assertIssuer(ctx, subscription.orgId);
    const [result] = await ctx.db.batch([
      deleteSubscriptionStatement(ctx.db, subscription.id, input.version),
      activityStatement(ctx.db, {
        orgId: subscription.orgId,
        accountId: null,
        actor: ctx.user,
        action: "delete",
        entityType: "subscription",
        entityId: subscription.id,
        entityLabel: subscription.plan,
        diff: diffOf(fieldsOf(subscription), null),
        deployable: false,
      }),
    ]);
    if (!changed(result)) {
      const now = await findSubscription(ctx.db, subscription.id);
      if (!now) refuse(ctx, "NOT_FOUND", "subscriptions.errors.notFound");
      if (now.version !== input.version) refuse(ctx, "CONFLICT", "errors.staleEdit");
      refuse(ctx, "PRECONDITION_FAILED", "subscriptions.errors.stillAllocated");
    }
    return { ok: true as const };
  }),

  /** The seats of an organization's accounts, whichever subscription they come from. */
  allocations: viewing.input(z.object({ orgId: id })).query(async ({ ctx, input }) => {
    await assertOrganizationInScope(ctx, input.orgId);
    const [allocations, tree] = await Promise.all([
      listAllocationsOfOrganization(ctx.db, input.orgId),
      listOrganizationNodes(ctx.db, ctx.user.orgId),
    ]);
    const inScope = new Set(tree.map((node) => node.id));
    const mayChange = ctx.user.permissions["edit-accounts"] === true;
    return {
      orgId: input.orgId,
      canAllocate: mayChange,
      // Seats may come from a subscription above the caller's tree: shown, not changeable.
      items: allocations.map((allocation) => ({
        ...allocation,
        canChange: mayChange && inScope.has(allocation.subscriptionOrgId),
      })),
    };
  }),

  /** What an allocation form offers for an organization: its accounts, and the subscriptions they may draw from. */
  allocationChoices: managing.input(z.object({ orgId: id })).query(async ({ ctx, input }) => {
    await assertOrganizationInScope(ctx, input.orgId);
    const [accounts, subscriptions, tree] = await Promise.all([
      listAccounts(ctx.db, { orgId: input.orgId, includeDescendants: false, limit: 500 }),
      listSubscriptionsAbove(ctx.db, input.orgId, ctx.user.orgId),
      listOrganizationNodes(ctx.db, ctx.user.orgId),
    ]);
    const names = new Map(tree.map((node) => [node.id, node.name]));
    return {
      accounts: accounts.items.map((account) => ({ id: account._id, name: account.name })),
      subscriptions: subscriptions
        .map((subscription) => ({ ...shown(subscription), organizationName: names.get(subscription.orgId) ?? "" }))
        // Only what can give seats now: active, within its period, with seats free.
        .filter((subscription) => subscription.effectiveStatus === "active" && subscription.free > 0),
    };
  }),

  /** The accounts that may hold seats of a subscription: those of its organization's tree. */
  accountChoices: managing.input(z.object({ subscriptionId: id })).query(async ({ ctx, input }) => {
    const subscription = await subscriptionInScope(ctx, input.subscriptionId);
    return {
      subscription: shown(subscription),
      accounts: await listAccountNames(ctx.db, { rootOrgId: subscription.orgId, limit: 500 }),
    };
  }),

  /** One allocation, with its subscription's seats (for the edit form). */
  allocation: viewing.input(z.object({ id })).query(async ({ ctx, input }) => {
    const allocation = await allocationInScope(ctx, input.id);
    const subscription = await subscriptionInScope(ctx, allocation.subscriptionId);
    return { allocation, subscription: shown(subscription), canAllocate: ctx.user.permissions["edit-accounts"] === true };
  }),

  /**
   * Gives seats of a subscription to an account of its organization's tree; seats given again
   * to the same account add up on its one allocation. Never more than the subscription holds,
   * even when many people allocate at once (see allocateStatement).
   */
  allocate: managing
    .input(z.object({ subscriptionId: chosenId("subscriptionId"), accountId: chosenId("accountId"), quantity: seats }))
    .mutation(async ({ ctx, input }) => {
      const subscription = await subscriptionInScope(ctx, input.subscriptionId);
      const account = await accountInScope(ctx, input.accountId);
      if (!(await isWithinOrganization(ctx.db, subscription.orgId, account.orgId))) {
        refuse(ctx, "PRECONDITION_FAILED", "subscriptions.errors.accountOutsideSubscription", "accountId");
      }
      if (effectiveStatus(subscription) !== "active") refuse(ctx, "PRECONDITION_FAILED", "subscriptions.errors.notActive");
      const before = await findAllocationOf(ctx.db, subscription.id, account._id);
      const created = allocateStatement(ctx.db, { ...input, today: today() });
      const [result] = await ctx.db.batch([
        created.statement,
        activityStatement(ctx.db, {
          orgId: account.orgId,
          accountId: account._id,
          actor: ctx.user,
          action: before ? "update" : "create",
          entityType: "allocation",
          entityId: before?.id ?? created.id,
          entityLabel: allocationLabel({ accountName: account.name, plan: subscription.plan }),
          diff: diffOf(before ? { quantity: before.quantity } : null, { quantity: (before?.quantity ?? 0) + input.quantity }),
          deployable: false,
        }),
      ]);
      if (!changed(result)) return explainRefusedSeats(ctx, subscription.id);
      const allocation = await findAllocationOf(ctx.db, subscription.id, account._id);
      if (!allocation) return refuse(ctx, "NOT_FOUND", "subscriptions.errors.allocationNotFound");
      return allocation;
    }),

  /** Sets an allocation at `version` to a number of seats; raising it needs the seats free. */
  updateAllocation: managing.input(z.object({ id, version, quantity: seats })).mutation(async ({ ctx, input }) => {
    const before = await allocationInScope(ctx, input.id);
    const [result] = await belowSeatsInUse(ctx, before.accountId, [
      updateAllocationStatement(ctx.db, { ...input, today: today() }),
      activityStatement(ctx.db, {
        orgId: before.accountOrgId,
        accountId: before.accountId,
        actor: ctx.user,
        action: "update",
        entityType: "allocation",
        entityId: before.id,
        entityLabel: allocationLabel(before),
        diff: diffOf({ quantity: before.quantity }, { quantity: input.quantity }),
        deployable: false,
      }),
    ]);
    if (!changed(result)) {
      const now = await findAllocation(ctx.db, input.id);
      if (!now) refuse(ctx, "NOT_FOUND", "subscriptions.errors.allocationNotFound");
      if (now.version !== input.version) refuse(ctx, "CONFLICT", "errors.staleEdit");
      return explainRefusedSeats(ctx, now.subscriptionId);
    }
    return allocationInScope(ctx, input.id);
  }),

  /** Takes all of an account's seats of a subscription back (at `version` when given). */
  deallocate: managing.input(z.object({ id, version: version.optional() })).mutation(async ({ ctx, input }) => {
    const allocation = await allocationInScope(ctx, input.id);
    const [result] = await belowSeatsInUse(ctx, allocation.accountId, [
      deallocateStatement(ctx.db, allocation.id, input.version ?? null),
      activityStatement(ctx.db, {
        orgId: allocation.accountOrgId,
        accountId: allocation.accountId,
        actor: ctx.user,
        action: "delete",
        entityType: "allocation",
        entityId: allocation.id,
        entityLabel: allocationLabel(allocation),
        diff: diffOf({ quantity: allocation.quantity }, null),
        deployable: false,
      }),
    ]);
    if (!changed(result)) {
      if (!(await findAllocation(ctx.db, allocation.id))) refuse(ctx, "NOT_FOUND", "subscriptions.errors.allocationNotFound");
      refuse(ctx, "CONFLICT", "errors.staleEdit");
    }
    return { ok: true as const };
  }),

  /** An account's seats, for those who see subscriptions in accounts (the registry's Subscriptions tab). */
  forAccount: procedureWith("view-subscriptions-in-accounts")
    .input(z.object({ accountId: id }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const allocations = await listAllocationsOfAccount(ctx.db, account._id);
      return {
        accountId: account._id,
        seats: allocations.reduce((sum, allocation) => sum + allocation.quantity, 0),
        items: allocations.map((allocation) => ({
          id: allocation.id,
          plan: allocation.plan,
          organizationName: allocation.subscriptionOrgName,
          quantity: allocation.quantity,
          status: effectiveStatus({ status: allocation.subscriptionStatus, endsAt: allocation.subscriptionEndsAt }),
        })),
      };
    }),
});
