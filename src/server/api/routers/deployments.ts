import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { approvalExpiresAt } from "@/schema/fleet/approval";
import {
  allAtOnce,
  deploymentActions,
  MAX_PHASES,
  phaseSchema,
  planSchema,
  shownStates,
  switchoverSchema,
} from "@/schema/fleet/deployment-plan";
import type { DeploymentTarget } from "@/schema/fleet/deployment-target";
import { type Target, targetSchema } from "@/schema/fleet/target";
import { listChangesToDeploy } from "@/server/data/activity-logs";
import { deploymentArchives } from "@/server/data/archives";
import { approvalSettingOf, approvalsOf, awaitingApprovalCount, findApproval } from "@/server/data/deployment-approval";
import {
  currentRevisionId,
  type Deployment,
  deploymentCounts,
  findDeployment,
  listDeploymentRadios,
  listDeployments,
  nextDeploymentNumber,
  radiosOfAccount,
  stageCounts,
} from "@/server/data/deployments";
import { sampleRadios } from "@/server/data/device-checkins";
import { placeOptions } from "@/server/data/devices";
import {
  type DeployablePackage,
  deployablePackage,
  firmwareFit,
  installedPackageId,
  withModelFit,
} from "@/server/data/firmware-deployments";
import { listGroups } from "@/server/data/radio-groups";
import { findRevision, snapshotAccountConfig } from "@/server/data/revisions";
import { accountSyncCounts } from "@/server/data/sync-snapshots";
import { deploymentTargetOf, deploymentTargetSizes, resolveTarget, targetPlaceName } from "@/server/data/targets";
import { ApprovalRefused, decideOnDeployment } from "@/server/fleet/approval-decision";
import { actOnDeployment, confirmDeployment, TransitionConflict } from "@/server/fleet/deployment-engine";
import { previewSamples } from "@/server/fleet/preview-samples";
import { refuse } from "../refusal";
import { accountInScope } from "../tenancy";
import { type ApiContext, procedureWith, router, signedInProcedure } from "../trpc";

const id = z.string().min(1).max(64);
/**
 * A confirming request's key: the same person sending the same key again gets the deployment it
 * made. The screens send the number of the deployment they are about to make ("next-7"), so two
 * tabs or a double click make one; an API caller sends any key of its own.
 */
const idempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{4,64}$/, "validation.Invalid")
  .optional();
const keyOf = (ctx: Ctx, key: string | undefined) => (key ? { idempotencyKey: `${ctx.user.id}:${key}` } : {});
const PAGE_MAX = 100;
const SAMPLE_RADIOS = 5;

type Ctx = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

/** A deployment of an account the caller may see; anything else is NOT_FOUND, like a missing one. */
async function deploymentInScope(ctx: Ctx, deploymentId: string): Promise<Deployment> {
  const deployment = await findDeployment(ctx.db, deploymentId);
  if (deployment) {
    try {
      await accountInScope(ctx, deployment.accountId);
      return deployment;
    } catch {
      // Falls through to the same answer as a missing deployment.
    }
  }
  throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("errors.deploymentNotFound")) });
}

/**
 * A target as a deployment keeps it (frozen: data/targets.ts deploymentTargetOf), its ids
 * checked against the account; a refusal names the field to fix.
 */
async function deploymentTarget(ctx: Ctx, accountId: string, target: Target | undefined): Promise<DeploymentTarget | null> {
  if (!target) return null;
  const resolved = await resolveTarget(ctx.db, accountId, target);
  if (!resolved.ok) refuse(ctx, "BAD_REQUEST", resolved.refusal.message, resolved.refusal.field);
  const frozen = deploymentTargetOf(resolved.target);
  if (!frozen.ok) refuse(ctx, "BAD_REQUEST", frozen.refusal.message, frozen.refusal.field);
  return frozen.target;
}

/** A second person's approval or rejection (approval-decision.ts); a refusal in the caller's words. */
async function decide(
  ctx: Ctx & Pick<ApiContext, "env">,
  input: { id: string; note: string; version?: number },
  approve: boolean,
) {
  const deployment = await deploymentInScope(ctx, input.id);
  try {
    const after = await decideOnDeployment(ctx, deployment, {
      actor: { id: ctx.user.id, email: ctx.user.email },
      approve,
      note: input.note,
      version: input.version,
    });
    return { id: after.id, state: after.state, version: after.version };
  } catch (error) {
    refused(ctx, error);
  }
}

function conflict(ctx: Ctx, error: unknown): never {
  if (error instanceof TransitionConflict) {
    throw new TRPCError({
      code: "CONFLICT",
      message: String(ctx.t("errors.deploymentConflict", { state: ctx.t(`deployments.states.${error.state}`) })),
    });
  }
  throw error;
}

/** A refused approval decision: the author is FORBIDDEN (403), anything else a CONFLICT; translated. */
function refused(ctx: Ctx, error: unknown): never {
  if (error instanceof ApprovalRefused) {
    throw new TRPCError({
      code: error.refusal === "author" ? "FORBIDDEN" : "CONFLICT",
      message: String(ctx.t(`errors.approval.${error.refusal}`)),
      cause: error,
    });
  }
  throw error;
}

const decisionNote = z.string().trim().max(500, "validation.NoteTooLong");

/** A package the account may install, or a translated NOT_FOUND (another tenant's is as unknown as a missing one). */
async function packageFor(ctx: Ctx, orgId: string, packageId: string, field: string): Promise<DeployablePackage> {
  const pkg = await deployablePackage(ctx.db, orgId, packageId);
  if (!pkg) refuse(ctx, "NOT_FOUND", "errors.firmwarePackageNotFound", field);
  return pkg;
}

/** What a firmware deployment installs and rolls back to: the chosen rollback package, else the one installed before. */
async function firmwareOf(
  ctx: Ctx,
  account: { _id: string; orgId: string },
  packageId: string,
  rollbackPackageId: string | undefined,
) {
  const pkg = await packageFor(ctx, account.orgId, packageId, "firmwarePackageId");
  const previous = rollbackPackageId
    ? (await packageFor(ctx, account.orgId, rollbackPackageId, "rollbackPackageId")).id
    : await installedPackageId(ctx.db, account._id);
  return { pkg, firmware: { packageId: pkg.id, version: pkg.version, previousPackageId: previous === pkg.id ? null : previous } };
}

/**
 * Roll back a firmware deployment: install the package it replaced, all at once, on the radios
 * it was for that the older package fits. Never held for approval, as any rollback.
 */
async function rollBackFirmware(
  ctx: Ctx & Pick<ApiContext, "env">,
  deployment: Deployment,
  input: { note: string; idempotencyKey?: string },
) {
  const previous = deployment.previousPackage
    ? await deployablePackage(ctx.db, deployment.orgId, deployment.previousPackage.id)
    : null;
  if (!previous) refuse(ctx, "PRECONDITION_FAILED", "errors.nothingToRollBack");
  const created = await confirmDeployment(ctx, {
    accountId: deployment.accountId,
    orgId: deployment.orgId,
    actor: { id: ctx.user.id, email: ctx.user.email },
    plan: allAtOnce(),
    switchover: { mode: "delivery" },
    note: input.note,
    rollbackOf: deployment.id,
    target: withModelFit(deployment.target, previous.models),
    firmware: { packageId: previous.id, version: previous.version, previousPackageId: deployment.package?.id ?? null },
    ...keyOf(ctx, input.idempotencyKey),
  });
  return { id: created.id, number: created.number, state: created.state };
}

/**
 * Deployments (DESIGN.md §7): reading is open to the account's users; confirming, acting and
 * rolling back need create-deployments (spec §6).
 */
export const deploymentsRouter = router({
  list: signedInProcedure
    .input(
      z.object({
        accountId: id,
        before: z.number().int().positive().optional(),
        limit: z.number().int().min(1).max(PAGE_MAX).default(25),
      }),
    )
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const rows = await listDeployments(ctx.db, account._id, input.before ?? null, input.limit + 1);
      const page = rows.slice(0, input.limit);
      const [approvals, awaitingApproval] = await Promise.all([
        approvalsOf(
          ctx.db,
          page.map((d) => d.id),
        ),
        awaitingApprovalCount(ctx.db, account._id),
      ]);
      const items = page.map((d) => ({ ...d, approval: approvals.get(d.id) ?? "none" }));
      return { items, awaitingApproval, nextBefore: rows.length > input.limit ? (items.at(-1)?.number ?? null) : null };
    }),

  /** One deployment with its per-state counts, overall and per phase. */
  get: signedInProcedure.input(z.object({ id })).query(async ({ ctx, input }) => {
    const deployment = await deploymentInScope(ctx, input.id);
    const [counts, nextNumber, archives, targetPlace, approval, stages] = await Promise.all([
      deploymentCounts(ctx.db, deployment),
      nextDeploymentNumber(ctx.db, deployment.accountId),
      deploymentArchives(ctx.db, deployment.accountId, deployment.id),
      targetPlaceName(ctx.db, deployment),
      findApproval(ctx.db, deployment.id),
      deployment.kind === "firmware" ? stageCounts(ctx.db, deployment.id) : {},
    ]);
    return { deployment, kind: deployment.kind, counts, nextNumber, archives, targetPlace, approval, stages };
  }),

  /** The radios of a deployment in one state, by uid (keyset). */
  radios: signedInProcedure
    .input(
      z.object({
        id,
        state: z.enum(shownStates),
        after: z.string().max(64).default(""),
        limit: z.number().int().min(1).max(PAGE_MAX).default(50),
      }),
    )
    .query(async ({ ctx, input }) => {
      const deployment = await deploymentInScope(ctx, input.id);
      const rows = await listDeploymentRadios(ctx.db, deployment, input.state, input.after, input.limit + 1);
      const items = rows.slice(0, input.limit);
      return { items, nextAfter: rows.length > input.limit ? (items.at(-1)?.uid ?? null) : null };
    }),

  /**
   * What confirming would send: the pending changes, how many radios it targets, and for a
   * few radios the difference between the configuration they have now and the new one.
   */
  preview: procedureWith("create-deployments")
    .input(z.object({ accountId: id }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const [changes, content, currentId, radios, targeted, nextNumber, groups, places] = await Promise.all([
        listChangesToDeploy(ctx.db, account._id, 50),
        snapshotAccountConfig(ctx.db, account._id),
        currentRevisionId(ctx.db, account._id),
        sampleRadios(ctx.db, account._id, SAMPLE_RADIOS),
        radiosOfAccount(ctx.db, account._id),
        nextDeploymentNumber(ctx.db, account._id),
        listGroups(ctx.db, account._id),
        placeOptions(ctx.db, account._id),
      ]);
      const { samples, unreadable } = await previewSamples(ctx.db, currentId, content, radios);
      return {
        changes,
        targeted,
        samples,
        unreadable,
        nextNumber,
        /** What a target can name: the account's saved groups and places. */
        groups: groups.map((group) => ({ id: group.id, name: group.name })),
        places,
        currentRevision: currentId ? await findRevision(ctx.db, currentId) : null,
      };
    }),

  /**
   * How many radios a target holds and each phase of a plan would hold (cumulative shares, as
   * the plan's phases), before confirming. No target: every radio of the account.
   */
  phaseSizes: procedureWith("create-deployments")
    .input(
      z.object({
        accountId: id,
        shares: z.array(phaseSchema.shape.share).min(1).max(MAX_PHASES),
        target: targetSchema.optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const target = await deploymentTarget(ctx, account._id, input.target);
      const { total, phases } = await deploymentTargetSizes(ctx.db, account._id, target, input.shares);
      return { sizes: phases, total };
    }),

  /**
   * Before a firmware deployment is confirmed: how many of the target's radios the package fits,
   * how many run it already, which models are left out, and what the fitting radios run now.
   */
  firmwareFit: procedureWith("create-deployments")
    .input(z.object({ accountId: id, packageId: id, target: targetSchema.optional() }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const pkg = await packageFor(ctx, account.orgId, input.packageId, "packageId");
      const target = await deploymentTarget(ctx, account._id, input.target);
      return firmwareFit(ctx.db, account._id, account.orgId, target, pkg);
    }),

  create: procedureWith("create-deployments")
    .input(
      z.object({
        accountId: id,
        plan: planSchema.default(allAtOnce()),
        switchover: switchoverSchema.default({ mode: "delivery" }),
        note: z.string().trim().max(500, "validation.NoteTooLong").default(""),
        /** The radios it is for (none: every radio of the account). */
        target: targetSchema.optional(),
        /** A firmware deployment of this package (issue 26): its radios are the target's whose model it fits. */
        firmwarePackageId: id.optional(),
        /** What rolling it back installs (default: the package the account's last firmware deployment installed). */
        rollbackPackageId: id.optional(),
        idempotencyKey,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      // Its radios are counted in the insert itself (one index count, never a row per radio).
      const chosen = await deploymentTarget(ctx, account._id, input.target);
      const firmware = input.firmwarePackageId
        ? await firmwareOf(ctx, account, input.firmwarePackageId, input.rollbackPackageId)
        : null;
      const target = firmware ? withModelFit(chosen, firmware.pkg.models) : chosen;
      const setting = await approvalSettingOf(ctx.db, account._id);
      const deployment = await confirmDeployment(ctx, {
        ...(setting.required ? { approvalExpiresAt: approvalExpiresAt(new Date(), setting).toISOString() } : {}),
        accountId: account._id,
        orgId: account.orgId,
        actor: { id: ctx.user.id, email: ctx.user.email },
        plan: input.plan,
        switchover: input.switchover,
        note: input.note,
        target,
        ...(firmware ? { firmware: firmware.firmware } : {}),
        ...keyOf(ctx, input.idempotencyKey),
      });
      return { id: deployment.id, number: deployment.number, state: deployment.state, timeoutAt: deployment.timeoutAt };
    }),

  /** pause, resume, advance (to the next phase) or cancel; an illegal one is CONFLICT. */
  act: procedureWith("create-deployments")
    .input(z.object({ id, action: z.enum(deploymentActions), version: z.number().int().min(1).optional() }))
    .mutation(async ({ ctx, input }) => {
      const deployment = await deploymentInScope(ctx, input.id);
      try {
        const after = await actOnDeployment(
          ctx,
          deployment,
          input.action,
          { id: ctx.user.id, email: ctx.user.email },
          input.version,
        );
        return { id: after.id, state: after.state, phaseIndex: after.phaseIndex, version: after.version };
      } catch (error) {
        conflict(ctx, error);
      }
    }),

  /**
   * Approves a deployment waiting for approval (an account's four-eyes setting): never its author
   * (FORBIDDEN), only while it waits and on the version seen (CONFLICT). It starts, or waits for its start.
   */
  approve: procedureWith("create-deployments")
    .input(z.object({ id, note: decisionNote.default(""), version: z.number().int().min(1).optional() }))
    .mutation(({ ctx, input }) => decide(ctx, input, true)),

  /** Rejects a deployment waiting for approval, with a note saying why: it ends cancelled, no radio told. */
  reject: procedureWith("create-deployments")
    .input(
      z.object({
        id,
        note: decisionNote.min(1, "validation.RejectNoteRequired"),
        version: z.number().int().min(1).optional(),
      }),
    )
    .mutation(({ ctx, input }) => decide(ctx, input, false)),

  /**
   * Roll back: deploy again the revision the account had before this deployment, all at once,
   * on the same O(1) path as any deployment.
   * Never held for approval: it returns the radios to what they had, an emergency undo.
   */
  rollback: procedureWith("create-deployments")
    .input(z.object({ id, note: z.string().trim().max(500, "validation.NoteTooLong").default(""), idempotencyKey }))
    .mutation(async ({ ctx, input }) => {
      const deployment = await deploymentInScope(ctx, input.id);
      if (deployment.kind === "firmware") return rollBackFirmware(ctx, deployment, input);
      if (!deployment.previousRevisionId) {
        throw new TRPCError({ code: "PRECONDITION_FAILED", message: String(ctx.t("errors.nothingToRollBack")) });
      }
      const created = await confirmDeployment(ctx, {
        accountId: deployment.accountId,
        orgId: deployment.orgId,
        actor: { id: ctx.user.id, email: ctx.user.email },
        plan: allAtOnce(),
        switchover: { mode: "delivery" },
        note: input.note,
        revisionId: deployment.previousRevisionId,
        rollbackOf: deployment.id,
        // The radios it was for go back; the others never had it.
        target: deployment.target,
        ...(deployment.target ? { targetedCount: deployment.targeted } : {}),
        ...keyOf(ctx, input.idempotencyKey),
      });
      return { id: created.id, number: created.number, state: created.state };
    }),

  /**
   * Retry the failed radios: a new deployment of the same revision, all at once, whose target
   * is this deployment's radios that failed, rejected it or timed out (a filter the engine
   * evaluates, so still one row whatever their number).
   */
  retryFailed: procedureWith("create-deployments")
    .input(z.object({ id, note: z.string().trim().max(500, "validation.NoteTooLong").default(""), idempotencyKey }))
    .mutation(async ({ ctx, input }) => {
      const deployment = await deploymentInScope(ctx, input.id);
      const target = await deploymentTarget(ctx, deployment.accountId, { kind: "failedOf", deploymentId: deployment.id });
      const { total } = await deploymentTargetSizes(ctx.db, deployment.accountId, target, [100]);
      if (total === 0) refuse(ctx, "PRECONDITION_FAILED", "errors.nothingToRetry");
      const created = await confirmDeployment(ctx, {
        accountId: deployment.accountId,
        orgId: deployment.orgId,
        actor: { id: ctx.user.id, email: ctx.user.email },
        plan: allAtOnce(),
        switchover: { mode: "delivery" },
        note: input.note,
        revisionId: deployment.revisionId,
        target,
        targetedCount: total,
        ...(deployment.package
          ? {
              firmware: {
                packageId: deployment.package.id,
                version: deployment.package.version,
                previousPackageId: deployment.previousPackage?.id ?? null,
              },
            }
          : {}),
        ...keyOf(ctx, input.idempotencyKey),
      });
      return { id: created.id, number: created.number, state: created.state, targeted: total };
    }),

  /** An account's radios by sync state and by contact (schema/fleet/sync-state.ts). */
  drift: signedInProcedure.input(z.object({ accountId: id })).query(async ({ ctx, input }) => {
    const account = await accountInScope(ctx, input.accountId);
    return accountSyncCounts(ctx.db, account._id);
  }),
});
