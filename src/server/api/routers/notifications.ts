import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { activityStatement } from "@/server/data/activity-logs";
import { newId } from "@/server/data/db";
import {
  deleteWebhookStatement,
  enableWebhookStatement,
  findWebhook,
  insertWebhookStatement,
  listDeliveries,
  listWebhooks,
  preferencesOf,
  setPreferencesStatements,
  type Webhook,
} from "@/server/data/notifications";
import { fleetEventNames } from "@/server/notifications/events";
import { enqueueDelivery } from "@/server/notifications/fleet-event";
import { newWebhookSecret } from "@/server/notifications/signature";
import { webhookUrlRefusal } from "@/server/notifications/webhook-url";
import { accountInScope, assertOrganizationInScope } from "../tenancy";
import { type ApiContext, procedureWith, router, signedInProcedure } from "../trpc";

const id = z.string().min(1).max(64);
const events = z.array(z.enum(fleetEventNames, "validation.Invalid")).max(fleetEventNames.length);
const webhookEvents = z
  .array(z.enum([...fleetEventNames, "webhook.test"], "validation.Invalid"))
  .min(1, "validation.WebhookEvents")
  .max(7);

type Ctx = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

/** A webhook of the caller's tree; another tenant's id answers NOT_FOUND like a missing one. */
async function webhookInScope(ctx: Ctx, webhookId: string): Promise<Webhook> {
  const hook = await findWebhook(ctx.db, webhookId);
  if (!hook || !(await inScope(ctx, hook.orgId))) {
    throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("errors.webhookNotFound")) });
  }
  return hook;
}

async function inScope(ctx: Ctx, orgId: string): Promise<boolean> {
  try {
    await assertOrganizationInScope(ctx, orgId);
    return true;
  } catch {
    return false;
  }
}

/**
 * Notifications (issue 25, docs/webhooks.md): each person's email preferences per account, and
 * the organization's webhooks (edit-accounts): add (the secret answered once), delete, send a
 * test event, read the delivery log. Every change is an activity entry.
 */
export const notificationsRouter = router({
  preferences: signedInProcedure.input(z.object({ accountId: id })).query(async ({ ctx, input }) => {
    const account = await accountInScope(ctx, input.accountId);
    return { events: await preferencesOf(ctx.db, ctx.user.id, account._id) };
  }),

  setPreferences: signedInProcedure.input(z.object({ accountId: id, events })).mutation(async ({ ctx, input }) => {
    const account = await accountInScope(ctx, input.accountId);
    const chosen = [...new Set(input.events)];
    // The entry follows the writes in one batch: it is written only when something changed.
    await ctx.db.batch([
      ...setPreferencesStatements(ctx.db, ctx.user.id, account._id, chosen),
      activityStatement(ctx.db, {
        orgId: account.orgId,
        accountId: account._id,
        actor: ctx.user,
        action: "update",
        entityType: "notification-preferences",
        entityId: ctx.user.id,
        entityLabel: ctx.user.email,
        diff: { events: { after: chosen } },
        deployable: false,
      }),
    ]);
    return { events: chosen };
  }),

  webhooks: procedureWith("edit-accounts")
    .input(z.object({ orgId: id }))
    .query(async ({ ctx, input }) => {
      await assertOrganizationInScope(ctx, input.orgId);
      return listWebhooks(ctx.db, input.orgId);
    }),

  /** Adds a webhook; the answer holds its secret, the only time it is shown. */
  addWebhook: procedureWith("edit-accounts")
    .input(z.object({ orgId: id, url: z.string().max(2000, "validation.WebhookUrl"), events: webhookEvents }))
    .mutation(async ({ ctx, input }) => {
      await assertOrganizationInScope(ctx, input.orgId);
      const refusal = webhookUrlRefusal(input.url, Boolean(ctx.env.WEBHOOKS_ALLOW_LOCAL));
      if (refusal) throw new TRPCError({ code: "BAD_REQUEST", message: String(ctx.t(refusal)) });
      const webhookId = newId("wh");
      const secret = newWebhookSecret();
      const url = new URL(input.url.trim()).href;
      await ctx.db.batch([
        insertWebhookStatement(ctx.db, webhookId, { orgId: input.orgId, url, events: [...new Set(input.events)], secret }),
        activityStatement(ctx.db, {
          orgId: input.orgId,
          accountId: null,
          actor: ctx.user,
          action: "create",
          entityType: "webhook",
          entityId: webhookId,
          entityLabel: url,
          diff: { url: { after: url }, events: { after: input.events } },
          deployable: false,
        }),
      ]);
      return { id: webhookId, secret };
    }),

  deleteWebhook: procedureWith("edit-accounts")
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => {
      const hook = await webhookInScope(ctx, input.id);
      await ctx.db.batch([
        deleteWebhookStatement(ctx.db, hook.id),
        activityStatement(ctx.db, {
          orgId: hook.orgId,
          accountId: null,
          actor: ctx.user,
          action: "delete",
          entityType: "webhook",
          entityId: hook.id,
          entityLabel: hook.url,
          diff: { url: { before: hook.url } },
          deployable: false,
        }),
      ]);
      return { id: hook.id };
    }),

  /** Turns a webhook that turned itself off on again, its failures reset; an enabled one stays as it is. */
  enableWebhook: procedureWith("edit-accounts")
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => {
      const hook = await webhookInScope(ctx, input.id);
      if (hook.enabled) return { id: hook.id, enabled: true };
      await ctx.db.batch([
        enableWebhookStatement(ctx.db, hook.id),
        activityStatement(ctx.db, {
          orgId: hook.orgId,
          accountId: null,
          actor: ctx.user,
          action: "update",
          entityType: "webhook",
          entityId: hook.id,
          entityLabel: hook.url,
          diff: { enabled: { before: false, after: true } },
          deployable: false,
        }),
      ]);
      return { id: hook.id, enabled: true };
    }),

  /** Queues a signed webhook.test delivery (sent even when the webhook does not list it). */
  sendTest: procedureWith("edit-accounts")
    .input(z.object({ id }))
    .mutation(async ({ ctx, input }) => {
      const hook = await webhookInScope(ctx, input.id);
      if (!hook.enabled) throw new TRPCError({ code: "CONFLICT", message: String(ctx.t("errors.webhookDisabled")) });
      const deliveryId = await enqueueDelivery(ctx.env, hook.id, {
        type: "webhook.test",
        orgId: hook.orgId,
        accountId: "",
        subjectId: hook.id,
        label: "test",
      });
      return { deliveryId };
    }),

  deliveries: procedureWith("edit-accounts")
    .input(z.object({ id }))
    .query(async ({ ctx, input }) => {
      const hook = await webhookInScope(ctx, input.id);
      const { secret: _secret, ...webhook } = hook;
      return { webhook, deliveries: await listDeliveries(ctx.db, hook.id) };
    }),
});
