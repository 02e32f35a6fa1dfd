import { z } from "zod";
import { deviceLimits } from "@/schema/devices";
import { fieldMessage } from "@/schema/field-message-keys";
import { requiredText } from "@/schema/field-messages";
import { packageObjectKey } from "@/schema/fleet/firmware-manifest";
import { multilineText } from "@/schema/text";
import { all, newId } from "@/server/data/db";
import { deviceFacets } from "@/server/data/devices";
import {
  completePackageStatements,
  createPackageStatements,
  deletePackageStatements,
  deploymentsUsingPackage,
  type FirmwarePackage,
  listVisiblePackages,
  versionTaken,
} from "@/server/data/firmware-packages";
import { type Caller, managedPackage, manages, viewerOrgOf, visiblePackage } from "@/server/firmware/package-scope";
import { publicKeyOf } from "@/server/firmware/signing-keys";
import {
  discardFile,
  finishUpload,
  firmwareBucket,
  MAX_PARTS,
  PACKAGE_MAX_BYTES,
  PART_BYTES,
  signingSecret,
} from "@/server/firmware/uploads";
import { isConstraintError } from "../network-levels";
import { refuse } from "../refusal";
import { accountInScope, accountLimit, refuseLimited } from "../tenancy";
import { procedureWith, router } from "../trpc";

/**
 * Firmware packages (issue 26), all under manage-devices. A package belongs to an organization;
 * it is visible there and in every organization below (a vendor's package reaches its dealers'
 * and customers' accounts, read-only there) and changed only from its own organization or one
 * above it. `accountId` names the account frame the caller works in; without it, the caller's
 * own organization. Another tenant's package answers NOT_FOUND, like one that does not exist.
 */
const id = z.string().min(1).max(64);
const accountId = id.optional();

export const firmwareInput = {
  version: requiredText("firmwareVersion", 40),
  models: z
    .array(z.string().trim().min(1).max(deviceLimits.model, fieldMessage("firmwareModels", "tooLong")), {
      error: fieldMessage("firmwareModels", "required"),
    })
    .min(1, fieldMessage("firmwareModels", "required"))
    .max(50, fieldMessage("firmwareModels", "tooLong"))
    .transform((models) => [...new Set(models)]),
  notes: multilineText(5000).default(""),
};

const actorOf = (ctx: Caller) => ({ id: ctx.user.id, email: ctx.user.email });

/** The organizations strictly above the caller's: their packages are read-only to the caller. */
async function orgsAboveCaller(ctx: Caller): Promise<Set<string>> {
  const rows = await all<{ ancestor_id: string }>(
    ctx.db,
    "SELECT ancestor_id FROM organization_ancestors WHERE org_id = ? AND ancestor_id <> org_id",
    ctx.user.orgId,
  );
  return new Set(rows.map((row) => row.ancestor_id));
}

function summary(pkg: FirmwarePackage, canManage: boolean) {
  return {
    id: pkg.id,
    orgId: pkg.orgId,
    orgName: pkg.orgName,
    version: pkg.version,
    models: pkg.models,
    notes: pkg.notes,
    size: pkg.size,
    sha256: pkg.sha256,
    state: pkg.state,
    createdAt: pkg.createdAt,
    inUse: pkg.inUse,
    canManage,
  };
}

export const firmwareRouter = router({
  /** The packages of the frame's organization and of the organizations above it, newest first. */
  list: procedureWith("manage-devices")
    .input(z.object({ accountId }))
    .query(async ({ ctx, input }) => {
      const viewerOrg = await viewerOrgOf(ctx, input.accountId);
      const [packages, above] = await Promise.all([listVisiblePackages(ctx.db, viewerOrg), orgsAboveCaller(ctx)]);
      return { items: packages.map((pkg) => summary(pkg, !above.has(pkg.orgId))) };
    }),

  /** One package with what a firmware team checks (hash, signature, key) and the deployments that use it. */
  get: procedureWith("manage-devices")
    .input(z.object({ id, accountId }))
    .query(async ({ ctx, input }) => {
      const pkg = await visiblePackage(ctx, input.id, input.accountId);
      const [canManage, key, deployments] = await Promise.all([
        manages(ctx, pkg),
        pkg.keyId ? publicKeyOf(ctx.db, pkg.orgId) : Promise.resolve(null),
        deploymentsUsingPackage(ctx.db, pkg.id, ctx.user.orgId),
      ]);
      return {
        ...summary(pkg, canManage),
        signature: pkg.signature,
        keyId: pkg.keyId,
        publicKey: key && key.keyId === pkg.keyId ? key.publicKey : null,
        rowVersion: pkg.rowVersion,
        partsReceived: pkg.parts.map((part) => part.partNumber),
        /** What a resumed upload compares its file's slices with, part by part. */
        parts: pkg.parts.map(({ partNumber, size, sha256 }) => ({ partNumber, size, sha256: sha256 ?? null })),
        partBytes: PART_BYTES,
        deployments,
      };
    }),

  /** The models the frame's radios have (the upload form offers them beside free text). */
  models: procedureWith("manage-devices")
    .input(z.object({ accountId }))
    .query(async ({ ctx, input }) => {
      const account = input.accountId ? await accountInScope(ctx, input.accountId) : null;
      if (!account && accountLimit(ctx.user)) refuseLimited(ctx);
      const facets = await deviceFacets(ctx.db, { orgId: account?.orgId ?? ctx.user.orgId, scopeAccountId: account?._id });
      return { models: facets.models };
    }),

  /** Starts a package: its row (uploading) and the R2 multipart upload its parts go into. */
  create: procedureWith("manage-devices")
    .input(
      z
        .object({
          accountId,
          ...firmwareInput,
          /** The file's size, when known: a file over the limit is refused before any byte is sent. */
          size: z.number().int().min(0).optional(),
        })
        .strict(),
    )
    .mutation(async ({ ctx, input }) => {
      const orgId = await viewerOrgOf(ctx, input.accountId);
      if (input.size !== undefined && input.size > PACKAGE_MAX_BYTES)
        refuse(ctx, "PAYLOAD_TOO_LARGE", "firmware.errors.tooLarge", "file");
      if (input.size === 0) refuse(ctx, "BAD_REQUEST", "firmware.errors.emptyFile", "file");
      signingSecret(ctx);
      if (await versionTaken(ctx.db, orgId, input.version)) refuse(ctx, "CONFLICT", "firmware.errors.versionTaken", "version");
      const packageId = newId("fw");
      const upload = await firmwareBucket(ctx).createMultipartUpload(packageObjectKey(packageId), {
        httpMetadata: { contentType: "application/octet-stream" },
      });
      const created = createPackageStatements(ctx.db, actorOf(ctx), {
        id: packageId,
        orgId,
        accountId: input.accountId ?? null,
        version: input.version,
        models: input.models,
        notes: input.notes,
        uploadId: upload.uploadId,
      });
      try {
        await ctx.db.batch(created.statements);
      } catch (error) {
        await upload.abort().catch(() => undefined);
        if (isConstraintError(error, "UNIQUE")) refuse(ctx, "CONFLICT", "firmware.errors.versionTaken", "version");
        throw error;
      }
      return { id: created.id, partBytes: PART_BYTES, maxParts: MAX_PARTS, maxBytes: PACKAGE_MAX_BYTES };
    }),

  /** Completes the upload: the file's SHA-256 and size measured on the server, the manifest signed, state ready. */
  complete: procedureWith("manage-devices")
    .input(z.object({ id, accountId }))
    .mutation(async ({ ctx, input }) => {
      const pkg = await managedPackage(ctx, input.id, input.accountId);
      const measured = await finishUpload(ctx, pkg);
      const [result] = await ctx.db.batch(
        completePackageStatements(ctx.db, actorOf(ctx), input.accountId ?? null, pkg, measured),
      );
      if (!result?.meta.changes) refuse(ctx, "CONFLICT", "firmware.errors.notUploading");
      return { id: pkg.id, version: pkg.version, ...measured };
    }),

  /**
   * Deletes a package (cancelling an upload is the same): the row and its file. A package a
   * deployment installs or rolls back to is refused (CONFLICT), checked in the deleting statement.
   */
  delete: procedureWith("manage-devices")
    .input(z.object({ id, accountId }))
    .mutation(async ({ ctx, input }) => {
      const pkg = await managedPackage(ctx, input.id, input.accountId);
      if (pkg.inUse) refuse(ctx, "CONFLICT", "firmware.errors.inUse");
      const [result] = await ctx.db.batch(deletePackageStatements(ctx.db, actorOf(ctx), input.accountId ?? null, pkg));
      if (!result?.meta.changes) refuse(ctx, "CONFLICT", "firmware.errors.inUse");
      await discardFile(ctx, pkg);
      return { id: pkg.id, version: pkg.version };
    }),
});
