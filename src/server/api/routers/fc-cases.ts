import { z } from "zod";
import { fcCommandTypes, fcLimits, fcPriorities, fcStatuses } from "@/schema/fc-cases";
import { type CommandParams, commandLimits, commandParams, priorityOf } from "@/schema/fleet/commands";
import { createInvitation } from "@/server/auth/invitations";
import { activityStatement, diffOf } from "@/server/data/activity-logs";
import { insertCommandStatement } from "@/server/data/commands";
import { newId, now } from "@/server/data/db";
import {
  customerRadios,
  findCustomer,
  insertCustomerStatements,
  listCustomers,
  updateCustomerStatements,
} from "@/server/data/fc-customers";
import {
  findDeviceFcSettings,
  findEmployee,
  findFcSettings,
  listEmployees,
  radiosWithoutRemoteSupport,
  saveDeviceFcSettingsStatement,
  saveFcSettingsStatement,
  updateEmployeeStatement,
} from "@/server/data/fc-desk";
import {
  commandTimelineStatement,
  dashboard,
  findSession,
  insertSessionStatements,
  listSessions,
  sessionRadios,
  sessionTimeline,
  timelineStatement,
  touchSessionStatement,
  updateSessionStatement,
} from "@/server/data/fc-sessions";
import { armCommandClock } from "@/server/fleet/command-clock";
import { wakeRadios } from "@/server/fleet/command-push";
import { deviceInScope } from "../device-scope";
import { cursorOf, pageInput } from "../list-input";
import { refuse, refuseWith } from "../refusal";
import { accountInScope } from "../tenancy";
import { type ApiContext, procedureWith, router } from "../trpc";
import { assertNoAccount } from "./users-admin";

const id = z.string().min(1).max(64);
const version = z.number().int().min(0);
const text = (max: number) => z.string().trim().max(max, "validation.TooLong");
const required = (max: number) => text(max).min(1, "validation.Required");
const priority = z.enum(fcPriorities, "validation.Invalid");
const status = z.enum(fcStatuses, "validation.Invalid");
const uids = z.array(z.string().min(1).max(64)).max(fcLimits.radiosPerSession).default([]);
const email = z.union([z.literal(""), z.email("validation.EmailInvalid").max(254)]).default("");

type Caller = Pick<ApiContext, "db" | "t" | "env" | "origin"> & { user: NonNullable<ApiContext["user"]> };

/** A session of an account in the caller's tree; anything else (another tenant's) is NOT_FOUND. */
async function sessionInScope(ctx: Caller, accountId: string, sessionId: string) {
  const account = await accountInScope(ctx, accountId);
  const session = await findSession(ctx.db, sessionId);
  if (!session || session.accountId !== account._id) return refuse(ctx, "NOT_FOUND", "fc.errors.sessionNotFound");
  return { account, session };
}

async function customerInScope(ctx: Caller, accountId: string, customerId: string) {
  const customer = await findCustomer(ctx.db, customerId);
  if (!customer || customer.accountId !== accountId) return refuse(ctx, "NOT_FOUND", "fc.errors.customerNotFound", "customerId");
  return customer;
}

/** Radios named for a session or a customer: each one of this account's (else NOT_FOUND on the field). */
async function radiosOfAccount(ctx: Caller, accountId: string, list: string[]) {
  const unique = [...new Set(list.map((u) => u.trim()).filter(Boolean))];
  for (const uid of unique) {
    const device = await deviceInScope(ctx, uid, accountId).catch(() => null);
    if (!device) refuseWith(ctx, "BAD_REQUEST", "fc.errors.radioNotInAccount", { uid: uid.slice(0, 64) }, "uids");
  }
  return unique;
}

/** An assignee: an active case user of the caller's tree (null: nobody yet). */
async function assigneeInScope(ctx: Caller, assigneeId: string | null | undefined) {
  if (!assigneeId) return null;
  const employee = await findEmployee(ctx.db, ctx.user.orgId, assigneeId);
  if (employee?.status !== "active") refuse(ctx, "BAD_REQUEST", "fc.errors.assigneeUnknown", "assigneeId");
  return employee;
}

const entry = (ctx: Caller, orgId: string, accountId: string, entityType: string, entityId: string, entityLabel: string) => ({
  orgId,
  accountId,
  actor: ctx.user,
  entityType,
  entityId,
  entityLabel,
  deployable: false,
});

const listFilter = z.object({
  accountId: id,
  status: status.optional(),
  customerId: id.optional(),
  search: z.string().max(200).default(""),
  ...pageInput,
});

/** The customer-care desk (issue 15, DESIGN.md §7): sessions, customers, employees, settings. */
export const fcCasesRouter = router({
  dashboard: procedureWith("view-fc-sessions")
    .input(z.object({ accountId: id, days: z.number().int().min(7).max(60).default(14) }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      return dashboard(ctx.db, account._id, input.days, new Date());
    }),

  listSessions: procedureWith("view-fc-sessions")
    .input(listFilter)
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      return listSessions(
        ctx.db,
        { accountId: account._id, status: input.status ?? null, customerId: input.customerId ?? null, search: input.search },
        cursorOf(input, 2),
        input.pageSize,
      );
    }),

  /** A session with its radios, timeline (commands read live) and what its forms offer. */
  getSession: procedureWith("view-fc-sessions")
    .input(z.object({ accountId: id, id }))
    .query(async ({ ctx, input }) => {
      const { session } = await sessionInScope(ctx, input.accountId, input.id);
      const [radios, timeline, employees] = await Promise.all([
        sessionRadios(ctx.db, session.id),
        sessionTimeline(ctx.db, session.id),
        listEmployees(ctx.db, ctx.user.orgId, null, 100),
      ]);
      const blocked = await radiosWithoutRemoteSupport(
        ctx.db,
        radios.map((r) => r.uid),
      );
      return {
        session,
        radios: radios.map((r) => ({ ...r, remoteSupport: !blocked.includes(r.uid) })),
        timeline,
        employees: employees.items.filter((e) => e.status === "active"),
      };
    }),

  openSession: procedureWith("view-fc-sessions")
    .input(
      z.object({
        accountId: id,
        subject: required(fcLimits.subject),
        category: required(fcLimits.categoryLength),
        priority: priority.optional(),
        customerId: id.optional(),
        assigneeId: id.optional(),
        uids: uids.refine((list) => list.length > 0, "fc.errors.radioRequired"),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const settings = await findFcSettings(ctx.db, account._id);
      if (!settings.categories.includes(input.category)) refuse(ctx, "BAD_REQUEST", "fc.errors.categoryUnknown", "category");
      if (input.customerId) await customerInScope(ctx, account._id, input.customerId);
      const radios = await radiosOfAccount(ctx, account._id, input.uids);
      const assignee = await assigneeInScope(ctx, input.assigneeId);
      const session = {
        id: newId("fcs"),
        accountId: account._id,
        customerId: input.customerId ?? null,
        subject: input.subject,
        category: input.category,
        priority: input.priority ?? settings.defaultPriority,
        assigneeId: assignee?.id ?? null,
        openedBy: ctx.user.email,
        uids: radios,
        at: now(),
      };
      await ctx.db.batch([
        ...insertSessionStatements(ctx.db, session),
        activityStatement(ctx.db, {
          ...entry(ctx, account.orgId, account._id, "fc-session", session.id, session.subject),
          action: "create",
          diff: diffOf(null, { subject: session.subject, priority: session.priority, radios: radios.join(", ") }),
        }),
      ]);
      return { id: session.id };
    }),

  /** Status, priority and assignee; each change is a timeline entry. Stale version: CONFLICT. */
  updateSession: procedureWith("view-fc-sessions")
    .input(z.object({ accountId: id, id, version, status, priority, assigneeId: id.nullable().optional() }))
    .mutation(async ({ ctx, input }) => {
      const { account, session } = await sessionInScope(ctx, input.accountId, input.id);
      if (session.version !== input.version) refuse(ctx, "CONFLICT", "errors.staleEdit");
      const assigneeId = input.assigneeId === undefined ? session.assigneeId : input.assigneeId;
      const assignee = assigneeId === session.assigneeId ? null : await assigneeInScope(ctx, assigneeId);
      const at = now();
      const timeline = [];
      if (input.status !== session.status)
        timeline.push(
          timelineStatement(ctx.db, {
            sessionId: session.id,
            kind: input.status === "closed" ? "closed" : "status",
            actorEmail: ctx.user.email,
            body: `${session.status} → ${input.status}`,
            at,
          }),
        );
      if (assigneeId !== session.assigneeId)
        timeline.push(
          timelineStatement(ctx.db, {
            sessionId: session.id,
            kind: "assignee",
            actorEmail: ctx.user.email,
            body: assignee ? `${assignee.name} <${assignee.email}>` : "",
            at,
          }),
        );
      if (input.priority !== session.priority)
        timeline.push(
          timelineStatement(ctx.db, {
            sessionId: session.id,
            kind: "status",
            actorEmail: ctx.user.email,
            body: `${session.priority} → ${input.priority}`,
            at,
          }),
        );
      const [updated] = await ctx.db.batch([
        updateSessionStatement(ctx.db, {
          id: session.id,
          version: input.version,
          status: input.status,
          priority: input.priority,
          assigneeId,
          at,
        }),
        // Timeline and log only when the guarded update happened (same batch: all or nothing).
        ...timeline,
        activityStatement(ctx.db, {
          ...entry(ctx, account.orgId, account._id, "fc-session", session.id, session.subject),
          action: "update",
          diff: diffOf(
            { status: session.status, priority: session.priority, assignee: session.assigneeId },
            { status: input.status, priority: input.priority, assignee: assigneeId },
          ),
        }),
      ]);
      if (!updated?.meta.changes) refuse(ctx, "CONFLICT", "errors.staleEdit");
      return { id: session.id, version: input.version + 1 };
    }),

  addNote: procedureWith("view-fc-sessions")
    .input(z.object({ accountId: id, id, body: required(fcLimits.note) }))
    .mutation(async ({ ctx, input }) => {
      const { account, session } = await sessionInScope(ctx, input.accountId, input.id);
      const at = now();
      await ctx.db.batch([
        timelineStatement(ctx.db, { sessionId: session.id, kind: "note", actorEmail: ctx.user.email, body: input.body, at }),
        touchSessionStatement(ctx.db, session.id, session.version, at),
        activityStatement(ctx.db, {
          ...entry(ctx, account.orgId, account._id, "fc-session", session.id, session.subject),
          action: "update",
          diff: { note: { after: input.body.slice(0, 200) } },
        }),
      ]);
      return { id: session.id };
    }),

  /**
   * A command to one of the session's radios: a normal command row (the radio's queue, expiry
   * and live states as for any command) linked to the session by its timeline entry. A radio
   * whose fc settings refuse remote support is refused (PRECONDITION_FAILED), as is a closed session.
   */
  sendCommand: procedureWith("view-fc-sessions")
    .input(
      z.object({
        accountId: id,
        id,
        uid: z.string().min(1).max(64),
        type: z.enum(fcCommandTypes, "validation.Invalid"),
        params: z.record(z.string(), z.union([z.string().max(1000), z.number()])).default({}),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const { account, session } = await sessionInScope(ctx, input.accountId, input.id);
      const radios = await sessionRadios(ctx.db, session.id);
      if (!radios.some((r) => r.uid === input.uid)) refuse(ctx, "NOT_FOUND", "devices.errors.notFound", "uid");
      if (session.status === "closed") refuse(ctx, "PRECONDITION_FAILED", "fc.errors.sessionClosed");
      const settings = await findDeviceFcSettings(ctx.db, input.uid);
      if (!settings.remoteSupport) refuse(ctx, "PRECONDITION_FAILED", "fc.errors.remoteSupportOff", "uid");
      const parsed = commandParams[input.type].safeParse(input.params);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const field = typeof issue?.path[0] === "string" ? issue.path[0] : "form";
        refuse(ctx, "BAD_REQUEST", issue?.message.startsWith("validation.") ? issue.message : "validation.Invalid", field);
      }
      const created = new Date();
      const command = {
        id: crypto.randomUUID(),
        uid: input.uid,
        type: input.type,
        params: parsed.data as CommandParams,
        priority: priorityOf(input.type),
        actor: { id: ctx.user.id, email: ctx.user.email },
        createdAt: created.toISOString(),
        expiresAt: new Date(created.getTime() + commandLimits.defaultExpiryHours * 3_600_000).toISOString(),
      };
      const [inserted] = await ctx.db.batch([
        insertCommandStatement(ctx.db, command),
        commandTimelineStatement(ctx.db, {
          sessionId: session.id,
          kind: input.type === "sync" ? "redeploy" : "command",
          actorEmail: ctx.user.email,
          body: input.type === "message" ? String((parsed.data as { text?: string }).text ?? "") : "",
          commandId: command.id,
          at: command.createdAt,
        }),
        touchSessionStatement(ctx.db, session.id, session.version, command.createdAt),
        activityStatement(ctx.db, {
          ...entry(ctx, account.orgId, account._id, "command", command.id, `${input.type} → ${input.uid}`),
          action: "create",
          diff: { type: { after: input.type }, radio: { after: input.uid }, session: { after: session.id } },
        }),
      ]);
      if (!inserted?.meta.changes) {
        // Not queued (full queue or retired radio): the timeline entry was not written either.
        return refuseWith(ctx, "PRECONDITION_FAILED", "commands.errors.queueFull", { limit: commandLimits.queue });
      }
      await Promise.all([armCommandClock(ctx.env, new Date(command.expiresAt)), wakeRadios(ctx.env, [input.uid])]);
      return { id: command.id, state: "queued" as const };
    }),

  listCustomers: procedureWith("view-fc-users")
    .input(z.object({ accountId: id, search: z.string().max(200).default(""), ...pageInput }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      return listCustomers(ctx.db, {
        accountId: account._id,
        search: input.search,
        cursor: cursorOf(input, 2),
        limit: input.pageSize,
      });
    }),

  getCustomer: procedureWith("view-fc-users")
    .input(z.object({ accountId: id, id }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const customer = await customerInScope(ctx, account._id, input.id);
      return { customer, radios: await customerRadios(ctx.db, customer.id) };
    }),

  saveCustomer: procedureWith("view-fc-users")
    .input(
      z.object({
        accountId: id,
        id: id.optional(),
        version: version.optional(),
        name: required(120),
        phone: text(40).default(""),
        email,
        uids,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const radios = await radiosOfAccount(ctx, account._id, input.uids);
      const fields = { name: input.name, phone: input.phone, email: input.email.toLowerCase(), uids: radios };
      if (!input.id) {
        const customerId = newId("fcc");
        await ctx.db.batch([
          ...insertCustomerStatements(ctx.db, { id: customerId, accountId: account._id, ...fields }),
          activityStatement(ctx.db, {
            ...entry(ctx, account.orgId, account._id, "fc-customer", customerId, input.name),
            action: "create",
            diff: diffOf(null, { name: input.name, phone: input.phone, email: fields.email, radios: radios.join(", ") }),
          }),
        ]);
        return { id: customerId };
      }
      const before = await customerInScope(ctx, account._id, input.id);
      const [updated] = await ctx.db.batch([
        ...updateCustomerStatements(ctx.db, { id: before.id, version: input.version ?? 0, ...fields }),
        activityStatement(ctx.db, {
          ...entry(ctx, account.orgId, account._id, "fc-customer", before.id, input.name),
          action: "update",
          diff: diffOf(
            { name: before.name, phone: before.phone, email: before.email },
            { name: input.name, phone: input.phone, email: fields.email },
          ),
        }),
      ]);
      if (!updated?.meta.changes) refuse(ctx, "CONFLICT", "errors.staleEdit");
      return { id: before.id };
    }),

  /** The desk's employees: case users of the caller's organization tree. */
  listEmployees: procedureWith("view-fc-users")
    .input(z.object({ accountId: id, after: z.string().max(200).optional() }))
    .query(async ({ ctx, input }) => {
      await accountInScope(ctx, input.accountId);
      const [name, userId] = (input.after ?? "").split("\u0000");
      const page = await listEmployees(
        ctx.db,
        ctx.user.orgId,
        input.after && userId ? { name: name ?? "", id: userId } : null,
        50,
      );
      return { items: page.items, next: page.next ? `${page.next.name}\u0000${page.next.id}` : null };
    }),

  getEmployee: procedureWith("view-fc-users")
    .input(z.object({ accountId: id, id }))
    .query(async ({ ctx, input }) => {
      await accountInScope(ctx, input.accountId);
      const employee = await findEmployee(ctx.db, ctx.user.orgId, input.id);
      if (!employee) return refuse(ctx, "NOT_FOUND", "fc.errors.employeeNotFound");
      return employee;
    }),

  /** Invites a case agent by email (the users' invitation): accepting makes a case user. Needs edit-users too. */
  inviteEmployee: procedureWith("edit-users")
    .input(z.object({ accountId: id, email: z.email("validation.EmailInvalid").max(254) }))
    .mutation(async ({ ctx, input }) => {
      if (!ctx.user.permissions["view-fc-users"]) refuse(ctx, "FORBIDDEN", "errors.protected");
      const account = await accountInScope(ctx, input.accountId);
      // Only an address of the caller's own tree is refused; any other is invited alike (no hint of other tenants).
      await assertNoAccount(ctx, input.email);
      const invited = await createInvitation(
        ctx,
        { orgId: ctx.user.orgId, email: input.email, role: "case-agent", invitedBy: ctx.user.id },
        (created) => [
          activityStatement(ctx.db, {
            ...entry(ctx, ctx.user.orgId, account._id, "invitation", created.id, input.email.toLowerCase()),
            action: "create",
            diff: diffOf(null, { email: input.email.toLowerCase(), role: "case-agent" }),
          }),
        ],
      );
      return { id: invited.id, email: input.email.toLowerCase() };
    }),

  updateEmployee: procedureWith("edit-users")
    .input(
      z.object({
        accountId: id,
        id,
        version: z.number().int().min(1),
        name: required(120),
        status: z.enum(["active", "disabled"]),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      if (!ctx.user.permissions["view-fc-users"]) refuse(ctx, "FORBIDDEN", "errors.protected");
      const account = await accountInScope(ctx, input.accountId);
      const employee = await findEmployee(ctx.db, ctx.user.orgId, input.id);
      if (!employee) return refuse(ctx, "NOT_FOUND", "fc.errors.employeeNotFound");
      if (employee.id === ctx.user.id && input.status === "disabled")
        refuse(ctx, "BAD_REQUEST", "fc.errors.notYourself", "status");
      const [updated] = await ctx.db.batch([
        updateEmployeeStatement(ctx.db, input),
        activityStatement(ctx.db, {
          ...entry(ctx, employee.orgId, account._id, "user", employee.id, employee.email),
          action: "update",
          diff: diffOf({ name: employee.name, status: employee.status }, { name: input.name, status: input.status }),
        }),
      ]);
      if (!updated?.meta.changes) refuse(ctx, "CONFLICT", "errors.staleEdit");
      return { id: employee.id };
    }),

  getSettings: procedureWith("view-fc-sessions")
    .input(z.object({ accountId: id }))
    .query(async ({ ctx, input }) => findFcSettings(ctx.db, (await accountInScope(ctx, input.accountId))._id)),

  saveSettings: procedureWith("view-all-users")
    .input(
      z.object({
        accountId: id,
        version,
        categories: z
          .array(required(fcLimits.categoryLength))
          .min(1, "validation.Required")
          .max(fcLimits.categories, "validation.TooLong"),
        defaultPriority: priority,
        autoCloseDays: z.number().int("validation.Invalid").min(0, "validation.Invalid").max(365, "validation.Invalid"),
        retentionDays: z.number().int("validation.Invalid").min(30, "validation.Invalid").max(3650, "validation.Invalid"),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const before = await findFcSettings(ctx.db, account._id);
      const { accountId: _a, version: _v, ...settings } = input;
      const categories = [...new Set(settings.categories)];
      const [saved] = await ctx.db.batch([
        saveFcSettingsStatement(ctx.db, account._id, { ...settings, categories }, input.version),
        activityStatement(ctx.db, {
          ...entry(ctx, account.orgId, account._id, "fc-settings", account._id, account.name),
          action: "update",
          diff: diffOf({ ...before, version: undefined }, { ...settings, categories, version: undefined }),
        }),
      ]);
      if (!saved?.meta.changes) refuse(ctx, "CONFLICT", "errors.staleEdit");
      return { version: input.version + 1 };
    }),

  /**
   * A radio's fc settings (route edit-fc-device-settings, DESIGN §7): whether remote support is
   * allowed is for fleet managers (manage-devices); the desk reads it on its sessions only, so
   * an agent cannot turn it back on and then command the radio.
   */
  getDeviceSettings: procedureWith("manage-devices")
    .input(z.object({ uid: z.string().min(1).max(64), accountId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid, input.accountId);
      const settings = await findDeviceFcSettings(ctx.db, device.uid);
      const customers = device.accountId
        ? (await listCustomers(ctx.db, { accountId: device.accountId, search: "", cursor: null, limit: 100 })).items
        : [];
      return { device: { uid: device.uid, name: device.name, accountId: device.accountId }, settings, customers };
    }),

  saveDeviceSettings: procedureWith("manage-devices")
    .input(
      z.object({
        uid: z.string().min(1).max(64),
        accountId: id.optional(),
        version,
        remoteSupport: z.boolean(),
        contactCustomerId: id.nullable().default(null),
        notes: text(2000).default(""),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const device = await deviceInScope(ctx, input.uid, input.accountId);
      if (input.contactCustomerId) {
        const customer = await findCustomer(ctx.db, input.contactCustomerId);
        if (!customer || customer.accountId !== device.accountId)
          refuse(ctx, "BAD_REQUEST", "fc.errors.customerNotFound", "contactCustomerId");
      }
      const before = await findDeviceFcSettings(ctx.db, device.uid);
      const [saved] = await ctx.db.batch([
        saveDeviceFcSettingsStatement(ctx.db, device.uid, input, input.version),
        activityStatement(ctx.db, {
          orgId: device.orgId,
          accountId: device.accountId,
          actor: ctx.user,
          entityType: "device",
          entityId: device.uid,
          entityLabel: device.uid,
          deployable: false,
          action: "update",
          diff: diffOf(
            { remoteSupport: before.remoteSupport, contact: before.contactCustomerId, fcNotes: before.notes },
            { remoteSupport: input.remoteSupport, contact: input.contactCustomerId, fcNotes: input.notes },
          ),
        }),
      ]);
      if (!saved?.meta.changes) refuse(ctx, "CONFLICT", "errors.staleEdit");
      return { version: input.version + 1 };
    }),
});
